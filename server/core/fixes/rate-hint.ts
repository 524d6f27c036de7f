// The hint code action: a finding whose verdict rests on the workload model's default rate (no rate= hint,
// no rowsPerSecondPerPartition) offers to write that rate down as a `-- @cqlint rate=` comment directly
// above the CREATE TABLE, for the user to correct to the real one (docs/partition-model.md, section 7).
// It goes on a line of its own right above the statement: hint comments directly above merge, so one
// that is already there keeps its text.
import type { CreateTableStatement, ParseResult } from '../../../grammar/ast';
import type { Finding } from '../findings/findings';
import { isFindingOf } from '../findings/findings-data';
import { hintCommentsAbove, parseRateValue } from '../schema/hint-comments';
import { formatRate } from '../util/format';
import { commentAboveEdit } from './table-edits';
import { offerOf, type FixOffer } from './types';

/** The rate a finding's verdict rests on, and whether a hint gave it. */
function rateOf(finding: Finding): { rowsPerSecond: number; hinted: boolean; table: string } | undefined {
  if (isFindingOf(finding, 'unbounded-partition')) {
    return {
      rowsPerSecond: finding.data.rowsPerSecond,
      hinted: finding.data.numbers?.rateHinted ?? true,
      table: finding.data.table,
    };
  }
  if (isFindingOf(finding, 'large-partition') && finding.data.bucket) {
    return {
      rowsPerSecond: finding.data.bucket.rowsPerSecond,
      hinted: finding.data.bucket.rateHinted,
      table: finding.data.table,
    };
  }
  // The rows a TTL keeps rest on the rate too.
  if (
    isFindingOf(finding, 'large-partition') &&
    finding.data.ttl &&
    finding.data.numbers?.rowsPerSecond !== undefined
  ) {
    return {
      rowsPerSecond: finding.data.numbers.rowsPerSecond,
      hinted: finding.data.numbers.rateHinted ?? true,
      table: finding.data.table,
    };
  }
  if (isFindingOf(finding, 'queue-table'))
    return { rowsPerSecond: finding.data.rowsPerSecond, hinted: finding.data.rateHinted, table: finding.data.table };
  return undefined;
}

/** How every rate hint fix's title begins, and its id among its finding's fixes (`cqlint fix --fix hint:rate`). */
export const RATE_HINT_TITLE = 'Write the assumed rate down';
export const RATE_HINT_ID = 'hint:rate';

/**
 * The rate as a hint's value: "1/min", "2.5/s", "1/h", in words a `rate=` hint reads back as the same rate
 * (within half a percent), so that writing it down leaves the verdict it records as it was; undefined when
 * no short value does.
 */
export function rateHintValue(rowsPerSecond: number): string | undefined {
  const units: [string, number][] = [
    ['s', 1],
    ['min', 60],
    ['h', 3600],
    ['d', 86_400],
  ];
  const candidates = [
    formatRate(rowsPerSecond).replace(/ rows?/, ''),
    ...units.map(([unit, seconds]) => `${Number((rowsPerSecond * seconds).toPrecision(4))}/${unit}`),
  ];
  return candidates.find((value) => {
    const read = parseRateValue(value);
    return read !== undefined && read > 0 && Math.abs(read - rowsPerSecond) <= rowsPerSecond * 0.005;
  });
}

/** The CREATE TABLE whose text holds the finding. */
function tableStatementAt(parse: ParseResult, offset: number): CreateTableStatement | undefined {
  return parse.statements.find(
    (s): s is CreateTableStatement => s.kind === 'CreateTable' && s.range.start <= offset && offset <= s.range.end,
  );
}

/** The fix writing the default rate down as a hint above the table, when the finding's verdict rests on it. */
export function rateHintFixes(text: string, parse: ParseResult, finding: Finding): FixOffer[] {
  const rate = rateOf(finding);
  if (!rate || rate.hinted || !(rate.rowsPerSecond > 0)) return [];
  const table = tableStatementAt(parse, finding.range.start.offset);
  if (!table) return [];
  const value = rateHintValue(rate.rowsPerSecond);
  if (value === undefined) return [];
  const title = `${RATE_HINT_TITLE}: -- @cqlint rate=${value} above ${rate.table} (then correct it to the real rate)`;
  if (hintCommentsAbove(parse.comments, text, table.range.start).some((f) => /\brate=/i.test(f.comment.value)))
    return [];
  return [
    offerOf({
      id: RATE_HINT_ID,
      title,
      kind: 'quickfix',
      safeForFixAll: false,
      edits: [commentAboveEdit(text, table.range.start, [`@cqlint rate=${value}`])],
    }),
  ];
}

type FindingFixes<F extends Finding, E> = (
  text: string,
  parse: ParseResult,
  finding: F,
  env: E,
  only?: string,
) => FixOffer[];

/** A rule's fixes followed by the rate hint fix (a provider of fixes/index.ts PROVIDERS). */
export function withRateHint<F extends Finding, E>(fixes?: FindingFixes<F, E>): FindingFixes<F, E> {
  return (text, parse, finding, env, only) => [
    ...(fixes ? fixes(text, parse, finding, env, only) : []),
    ...rateHintFixes(text, parse, finding),
  ];
}
