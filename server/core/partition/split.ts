// Moving a column that dominates each row (a body, a blob, a collection) to a table of its own, read by id:
// the partition keeps its key and its rows, each row a fraction of the bytes it was. Which column dominates,
// the table it moves to and what a row weighs after the move are decided here, once: the planner offers the
// move as a plan of its own (mechanism `split-column`), the other plans' reasons say what it would give,
// and fixes/split-column.ts applies it.
import type { CqlType } from '../../../grammar/ast';
import type { ColumnInfo, TableInfo } from '../schema/model';
import { nativeName } from '../schema/types';
import type { GrowthRate } from '../schema/workload';
import { formatBytes, formatCount } from '../util/format';
import { quoteName } from '../util/names';
import { keyText } from '../util/statements';
import type { PartitionInputs } from './inputs';
import type { SplitPlan } from './plan';
import { partitionFigures, rowSizes } from './sizing';

/** A column that makes up at least this share of a row dominates it: moved out, the row shrinks that much. */
export const DOMINANT_SHARE = 0.5;

/** Types a dominant column can have: values whose size the row does not bound (text, bytes, collections). */
const LARGE_TYPES = new Set(['text', 'varchar', 'ascii', 'blob']);

function largeType(type: CqlType | undefined): boolean {
  if (!type) return false;
  if (type.kind === 'FrozenType') return largeType(type.inner);
  if (type.kind === 'CollectionType' || type.kind === 'UserType') return true;
  return LARGE_TYPES.has(nativeName(type) ?? '');
}

/** What moving the dominant column gives: the column, the row's bytes before and after. */
export interface DominantColumn {
  column: ColumnInfo;
  columnBytes: number;
  rowBytes: number;
  rowBytesAfter: number;
}

/**
 * The regular column (text, blob or a collection) that makes up at least half of a row's estimated bytes,
 * when one does: the largest. Undefined for a view (its columns are its base table's), a counter table and a
 * table whose only regular column it would be (nothing would stay in the row but its key).
 */
export function dominantColumn(inputs: Pick<PartitionInputs, 'table' | 'hints' | 'udts'>): DominantColumn | undefined {
  const { table } = inputs;
  if (table.kind !== 'table' || table.counter) return undefined;
  const regular = table.columns.filter((c) => c.role === 'regular');
  if (regular.length < 2) return undefined;
  const sizes = rowSizes(table, inputs.hints, inputs.udts);
  let best: { column: ColumnInfo; bytes: number } | undefined;
  for (const c of regular) {
    const bytes = sizes.columns.find((s) => s.name === c.name)?.bytes ?? 0;
    if (largeType(c.type) && (!best || bytes > best.bytes)) best = { column: c, bytes };
  }
  if (!best || best.bytes < sizes.rowBytes * DOMINANT_SHARE) return undefined;
  return {
    column: best.column,
    columnBytes: best.bytes,
    rowBytes: sizes.rowBytes,
    rowBytesAfter: sizes.rowBytes - best.bytes,
  };
}

/** The table the column moves to: `<table>_<column>`, in the original's keyspace. */
export function splitTableName(table: TableInfo, column: string): string {
  const name = `${table.name}_${column}`;
  return table.keyspace ? `${table.keyspace}.${name}` : name;
}

/** The table without the column: what the original becomes. */
export function withoutColumn(table: TableInfo, column: string): TableInfo {
  return { ...table, columns: table.columns.filter((c) => c.name !== column) };
}

/** The split of a dominant column, when one dominates (its `then` is the planner's to fill). */
export function splitOf(inputs: Pick<PartitionInputs, 'table' | 'hints' | 'udts'>): SplitPlan | undefined {
  const dominant = dominantColumn(inputs);
  if (!dominant) return undefined;
  const { table } = inputs;
  return {
    column: dominant.column.name,
    table: splitTableName(table, dominant.column.name),
    // Every primary key column as the partition key: one moved value a partition, read by the row's key.
    key: [...table.partitionKey, ...table.clustering].map((c) => c.name),
    columnBytes: dominant.columnBytes,
    rowBytes: dominant.rowBytes,
    rowBytesAfter: dominant.rowBytesAfter,
  };
}

/**
 * The rows-to-limit of the table after the move (the first limit it reaches at the lighter row), undefined
 * when the target has none.
 */
export function rowsToLimitAfter(inputs: PartitionInputs, split: SplitPlan, rate?: GrowthRate): number | undefined {
  const after = partitionFigures(
    withoutColumn(inputs.table, split.column),
    inputs.target,
    inputs.hints,
    inputs.udts,
    rate,
  );
  return after.binding && Number.isFinite(after.binding.rows) ? after.binding.rows : undefined;
}

/** "`body` is 60 KiB of a 61 KiB row; moved to ks.posts_body keyed by ((id, ts))": the move in words. */
export function splitText(split: SplitPlan): string {
  return `${quoteName(split.column)} is ${formatBytes(split.columnBytes)} of a ${formatBytes(split.rowBytes)} row; moved to a table of its own (${split.table}, keyed by ${keyText(split.key, [])}, one row a partition) and read by id where a read selects it, a row is ${formatBytes(split.rowBytesAfter)}`;
}

/** The reason line the other plans carry: what the move would give instead of `shards`. */
export function splitReasonLine(split: SplitPlan, limit: number | undefined, needed: number, shards: number): string {
  return `split: ${splitText(split)}${limit !== undefined ? ` and the first limit at ${formatCount(limit)} rows` : ''}: ${needed === 1 ? 'no shard needed' : `${needed} shards, not ${shards}`} (the fix split:${split.column})`;
}
