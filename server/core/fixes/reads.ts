// What the workspace's statements do with a table, as the shard advice needs it: which columns reads
// pin a row by (a calculated shard from one of them keeps those reads on one shard) and which reads take
// whole partitions (they must visit every shard whatever the shard is computed from).
import type { SelectStatement, SourceRange, Statement } from '../../../grammar/ast';
import type { TableReference } from '../schema/references';

/** A SELECT that reads whole partitions of the table, with the text it is in (to rewrite it). */
interface BucketRead {
  filePath: string;
  text: string;
  statement: SelectStatement;
}

export interface TableReads {
  /** SELECT, UPDATE and DELETE statements on the table in the workspace. */
  count: number;
  /** Columns outside the partition key that reads restricting the whole partition key also pin, most pinned first. */
  pinnedColumns: string[];
  /** SELECTs that restrict the whole partition key and none of `rowColumns`: they read whole partitions. */
  bucketReads: BucketRead[];
}

/** Finds a file's statement at a range (the index gives positions; the rewrite needs the AST). */
export type StatementLookup = (filePath: string, range: SourceRange) => { text: string; statement: Statement } | undefined;

/**
 * Sorts the table's references: reads that pin the partition key and a row column (one of
 * `rowColumns`, the columns a calculated shard could hash) versus reads of whole partitions.
 */
export function tableReads(
  references: readonly TableReference[],
  partitionKey: readonly string[],
  rowColumns: readonly string[],
  statementAt: StatementLookup,
): TableReads {
  const pins = new Map<string, number>();
  const bucketReads: BucketRead[] = [];
  let count = 0;
  for (const reference of references) {
    if (reference.kind === 'Insert') continue;
    count++;
    if (!partitionKey.every((c) => reference.pinned.includes(c))) continue;
    const rows = reference.pinned.filter((c) => rowColumns.includes(c));
    for (const c of rows) pins.set(c, (pins.get(c) ?? 0) + 1);
    if (rows.length || reference.kind !== 'Select') continue;
    const found = statementAt(reference.file, reference.range);
    if (found?.statement.kind === 'Select') bucketReads.push({ filePath: reference.file, text: found.text, statement: found.statement });
  }
  const pinnedColumns = [...pins].sort((a, b) => b[1] - a[1] || rowColumns.indexOf(a[0]) - rowColumns.indexOf(b[0])).map(([c]) => c);
  return { count, pinnedColumns, bucketReads };
}

/** Columns that the workspace's SELECT, UPDATE and DELETE statements on a table restrict with = or IN. */
export function queriedColumns(references: readonly TableReference[]): string[] {
  const out = new Set<string>();
  for (const reference of references) {
    if (reference.kind === 'Insert') continue;
    for (const column of reference.pinned) out.add(column);
  }
  return [...out];
}
