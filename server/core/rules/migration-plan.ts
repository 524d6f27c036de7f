// What the migration-safety rules (docs/migrations.md) share: whether a table was already deployed when a
// migration changes it (an earlier file of its folder created it), what the evidence says of its size,
// and the copy's name for a change Cassandra cannot make in place (the plan itself: schema/key-change-plan.ts).
import type { TableEvidence } from '../evidence';
import type { TableInfo } from '../schema/model';
import { formatBytes, formatCount } from '../util/format';
import { keyText } from '../util/statements';
import type { RuleContext } from './types';

/** The migration file (as its folder names it, relative to the folder) that created a table deployed before this file; undefined otherwise. */
export function deployedBy(ctx: Pick<RuleContext, 'migration'>, table: TableInfo | undefined): string | undefined {
  const step = ctx.migration();
  if (!step || !table) return undefined;
  const index = step.folder.files.indexOf(table.filePath);
  return index >= 0 && index < step.index ? fileName(table.filePath) : undefined;
}

/**
 * Whether a table existed before this migration file: an earlier file of its folder created it, or a file
 * outside the folder defines it (a schema the migrations start from). Undefined outside a migration folder.
 */
export function existedBefore(
  ctx: Pick<RuleContext, 'migration'>,
  table: TableInfo | undefined,
): { createdIn?: string } | undefined {
  const step = ctx.migration();
  if (!step || !table) return undefined;
  const index = step.folder.files.indexOf(table.filePath);
  if (index >= step.index) return undefined;
  return index >= 0 ? { createdIn: fileName(table.filePath) } : {};
}

function fileName(path: string): string {
  return path.slice(Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\')) + 1);
}

/** The primary key as CQL writes it, with the clustering order when a column is DESC. */
export function primaryKeyText(table: TableInfo): string {
  return keyText(
    table.partitionKey.map((c) => c.name),
    table.clustering.map((c) => (c.order === 'DESC' ? `${c.name} DESC` : c.name)),
  );
}

/** The primary key as it places and orders rows: names, types and clustering order. */
export function keyIdentity(table: TableInfo): string {
  const part = (cols: TableInfo['partitionKey']) =>
    cols.map((c) => `${c.name} ${c.typeText} ${c.order ?? ''}`).join(',');
  return `${part(table.partitionKey)}|${part(table.clustering)}`;
}

/** A data size this rule calls large: 1 GiB of the table on one node, or 100 million rows. */
export const LARGE_TABLE_BYTES = 1024 ** 3;
export const LARGE_TABLE_ROWS = 100_000_000;

/** What the evidence measured of a table's size, as a phrase (`12 GB on node1 (nodetool tablestats)`), when it is large. */
export function largeTable(evidence: TableEvidence | undefined): { measured: string; large: boolean } | undefined {
  if (!evidence) return undefined;
  let best: { bytes: number; node: string } | undefined;
  for (const node of evidence.nodes) {
    if (node.partitionsEstimate === undefined || node.meanPartitionBytes === undefined) continue;
    const bytes = node.partitionsEstimate * node.meanPartitionBytes;
    if (!best || bytes > best.bytes) best = { bytes, node: node.node };
  }
  const rows = evidence.counted?.totalRows;
  if (best && best.bytes >= LARGE_TABLE_BYTES)
    return {
      measured: `about ${formatBytes(best.bytes)} on ${best.node} (partitions × mean partition size, nodetool tablestats)`,
      large: true,
    };
  if (rows !== undefined && rows >= LARGE_TABLE_ROWS)
    return { measured: `${formatCount(rows)} rows (dsbulk count)`, large: true };
  if (best) return { measured: `about ${formatBytes(best.bytes)} on ${best.node}`, large: false };
  if (rows !== undefined) return { measured: `${formatCount(rows)} rows`, large: false };
  return undefined;
}

/** A table name for the copy: `events_v2`, or the next free suffix. */
export function copyName(table: TableInfo): string {
  const m = /^(.*)_v(\d+)$/.exec(table.name);
  return m ? `${m[1]}_v${Number(m[2]) + 1}` : `${table.name}_v2`;
}
