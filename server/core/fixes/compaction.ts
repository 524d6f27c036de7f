// The fix of a ttl-without-twcs finding: the table's compaction option set to the
// TimeWindowCompactionStrategy the finding sizes (a window of about a thirtieth of the TTL). An existing
// `compaction = {...}` is replaced; otherwise the option is added to the WITH clause, or a WITH clause is
// added after the column list. Only the option's text changes.
import type { CreateTableStatement, ParseResult } from '../../../grammar/ast';
import type { FindingOf } from '../findings/findings-data';
import type { Fix } from './types';

/** How the fix's id names it among its finding's fixes (`cqlint fix --fix compaction:twcs`). */
export const TWCS_FIX_ID = 'compaction:twcs';

function createTableNamed(parse: ParseResult, offset: number): CreateTableStatement | undefined {
  return parse.statements.find(
    (s): s is CreateTableStatement => s.kind === 'CreateTable' && s.range.start <= offset && offset <= s.range.end,
  );
}

export function twcsFixes(_text: string, parse: ParseResult, finding: FindingOf<'ttl-without-twcs'>): Fix[] {
  const table = createTableNamed(parse, finding.range.start.offset);
  if (!table?.bodyRange) return [];
  const { windowUnit, windowSize } = finding.data;
  const map = `{'class': 'TimeWindowCompactionStrategy', 'compaction_window_unit': '${windowUnit}', 'compaction_window_size': ${windowSize}}`;
  const unit = windowUnit.toLowerCase().replace(/s$/, '');
  const title = `Compact ${finding.data.table} with TimeWindowCompactionStrategy (${windowSize}-${unit} windows)`;
  const existing = table.options?.properties.find((p) => p.name.name.toLowerCase() === 'compaction');
  const edit = existing
    ? { start: existing.value.range.start, end: existing.value.range.end, newText: map }
    : table.options
      ? { start: table.options.range.end, end: table.options.range.end, newText: ` AND compaction = ${map}` }
      : { start: table.bodyRange.end, end: table.bodyRange.end, newText: ` WITH compaction = ${map}` };
  return [{ id: TWCS_FIX_ID, title, kind: 'quickfix', isPreferred: true, safeForFixAll: false, edits: [edit] }];
}
