// A statement on a write-sharded table (`-- @shard`) that does not name the shard column: the same
// rewrite a partition fix gives every statement (key-rewrite.ts), for this one statement. The shard
// computed from literals needs no choice (fix-all takes it); reads may instead visit every shard.
import type { TableInfo } from '../schema/model';
import type { ShardSpec } from '../token/shard';
import { quoteName } from '../util/names';
import { shardFormulaText, type KeyChange, type ShardPlan } from '../partition/plan';
import { rewriteForKeyChange, type DmlStatement, type RewriteOptions, type StatementRewrite } from './key-rewrite';
import type { Fix } from './types';

/** The shard plan an annotation describes. */
export function shardPlanOf(spec: ShardSpec): ShardPlan {
  return {
    column: spec.shardColumn,
    method: spec.method,
    sources: [...spec.sources],
    count: spec.count,
    offset: spec.offset,
  };
}

function titleOf(rewrite: StatementRewrite, shard: ShardPlan): string {
  const column = quoteName(shard.column);
  const value = rewrite.values.find((v) => v.column === shard.column);
  const range = `${shard.offset}..${shard.count - 1 + shard.offset}`;
  if (rewrite.outcome === 'exact' && value)
    return `Add ${column} = ${value.text} (${shardFormulaText(shard, quoteName)})`;
  if (rewrite.outcome === 'fan-out')
    return `Read all ${shard.count} shards: ${column} IN (${shard.count > 4 ? `${shard.offset}, ..., ${shard.count - 1 + shard.offset}` : value?.text.slice(1, -1)})`;
  if (rewrite.notes.some((n) => n.startsWith('run once per')))
    return `Read all ${shard.count} shards: run once per ${column} (${range}) and merge client-side`;
  return `Add ${column} = ${value?.text ?? '?'} (the application computes the shard)`;
}

/**
 * Fixes for a statement on a table sharded by `table.shard` that is missing only the shard column: the
 * rewrite the statement's values allow (exact, preferred and safe for fix-all; else a bind marker with
 * a comment), and for reads without an exact shard, reading every shard first.
 */
export function shardStatementFixes(
  text: string,
  statement: DmlStatement,
  table: TableInfo,
  options: Omit<RewriteOptions, 'pickRandomShard'>,
): Fix[] {
  if (!table.shard) return [];
  const shard = shardPlanOf(table.shard);
  const change: KeyChange = { table, shard };
  const rewriteOptions: RewriteOptions = { ...options, pickRandomShard: () => 1 };
  const main = rewriteForKeyChange(text, statement, change, rewriteOptions);
  if (main.outcome === 'unchanged') return [];
  const fixes: Fix[] = [];
  const exact = main.outcome === 'exact';
  const mainFix: Fix = {
    title: titleOf(main, shard),
    kind: 'quickfix',
    isPreferred: exact || main.outcome === 'fan-out',
    safeForFixAll: exact && shard.method !== 'random',
    edits: main.edits,
  };
  if (statement.kind === 'Select' && !exact && main.outcome !== 'fan-out') {
    // Without the shard, reading every shard beats a bind marker.
    const every = rewriteForKeyChange(text, statement, change, { ...rewriteOptions, everyShard: true });
    if (every.outcome !== 'unchanged' && every.edits.length) {
      fixes.push({
        title: titleOf(every, shard),
        kind: 'quickfix',
        isPreferred: true,
        safeForFixAll: false,
        edits: every.edits,
      });
      mainFix.isPreferred = false;
    }
  }
  if (!fixes.some((f) => f.title === mainFix.title)) fixes.push(mainFix);
  return fixes;
}
