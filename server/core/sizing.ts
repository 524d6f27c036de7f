// Partition size estimate from the Cassandra data modeling guide ("Evaluating and refining data models",
// Chebotko & Kashlev): Nv = Nr (Nc - Npk - Ns) + Ns values, and
// St = Σ sizeOf(pk) + Σ sizeOf(static) + Nr × (Σ sizeOf(regular) + Σ sizeOf(clustering)) + Nv × 8 bytes of
// cell metadata. Column sizes come from their types unless the config gives averages.
import type { CqlType } from '../../grammar/ast';
import type { TableHints } from './config/types';
import type { ColumnInfo, SchemaModel, TableInfo } from './schema/model';
import { typeSize } from './schema/types';
import { type TargetId, type TargetInfo, formatBytes, formatCount, targetInfo } from './targets';
import { keyText } from './util/statements';

export const CELL_METADATA_BYTES = 8;
export const SIZING_SOURCE = 'https://cassandra.apache.org/doc/latest/cassandra/developing/data-modeling/data-modeling_refining.html';

export interface RowSizes {
  /** Σ sizeOf over the partition key columns (stored once per partition). */
  partitionKeyBytes: number;
  /** Σ sizeOf over static columns (once per partition). */
  staticBytes: number;
  /** Σ sizeOf over clustering and regular columns (once per row). */
  rowBytes: number;
  /** Values per row: Nc - Npk - Ns. */
  valuesPerRow: number;
  staticCount: number;
  /** Each column's size as used (bytes), and whether a hint set it. */
  columns: { name: string; bytes: number; hinted: boolean }[];
}

export interface PartitionEstimate extends RowSizes {
  rows: number;
  /** Nv. */
  values: number;
  /** St in bytes. */
  bytes: number;
}

export type UdtLookup = (keyspace: string | undefined, name: string) => { fields: { type: CqlType }[] } | undefined;

export function udtLookupFrom(schema: SchemaModel | undefined): UdtLookup | undefined {
  if (!schema) return undefined;
  return (ks, name) => schema.userType(ks, name);
}

function columnBytes(col: ColumnInfo, table: TableInfo, hints: TableHints | undefined, udts: UdtLookup | undefined): { bytes: number; hinted: boolean } {
  const hinted = hints?.columnSizes?.[col.name];
  if (hinted !== undefined) return { bytes: hinted, hinted: true };
  const sizer = (t: CqlType & { kind: 'UserType' }): number | undefined => {
    const udt = udts?.(t.name.keyspace?.name ?? table.keyspace, t.name.name.name);
    return udt ? udt.fields.reduce((s, f) => s + typeSize(f.type, undefined), 0) : undefined;
  };
  return { bytes: typeSize(col.type, sizer), hinted: false };
}

export function rowSizes(table: TableInfo, hints?: TableHints, udts?: UdtLookup): RowSizes {
  let partitionKeyBytes = 0;
  let staticBytes = 0;
  let rowBytes = 0;
  let staticCount = 0;
  const columns: RowSizes['columns'] = [];
  for (const col of table.columns) {
    const { bytes, hinted } = columnBytes(col, table, hints, udts);
    columns.push({ name: col.name, bytes, hinted });
    if (col.role === 'partition') partitionKeyBytes += bytes;
    else if (col.role === 'static') {
      staticBytes += bytes;
      staticCount++;
    } else rowBytes += bytes;
  }
  const pkCount = table.partitionKey.length + table.clustering.length;
  return {
    partitionKeyBytes,
    staticBytes,
    rowBytes,
    valuesPerRow: Math.max(0, table.columns.length - pkCount - staticCount),
    staticCount,
    columns,
  };
}

export function estimatePartition(table: TableInfo, rows: number, hints?: TableHints, udts?: UdtLookup): PartitionEstimate {
  const sizes = rowSizes(table, hints, udts);
  const values = rows * sizes.valuesPerRow + sizes.staticCount;
  const bytes = sizes.partitionKeyBytes + sizes.staticBytes + rows * sizes.rowBytes + values * CELL_METADATA_BYTES;
  return { ...sizes, rows, values, bytes };
}

/** Rows per partition at which the estimate reaches `limitBytes` (Infinity when it never does). */
export function rowsToReachBytes(sizes: RowSizes, limitBytes: number): number {
  if (!Number.isFinite(limitBytes)) return Infinity;
  const perRow = sizes.rowBytes + sizes.valuesPerRow * CELL_METADATA_BYTES;
  const fixed = sizes.partitionKeyBytes + sizes.staticBytes + sizes.staticCount * CELL_METADATA_BYTES;
  if (perRow <= 0) return Infinity;
  return Math.max(0, Math.ceil((limitBytes - fixed) / perRow));
}

/** Rows per partition at which Nv reaches `values`. */
export function rowsToReachValues(sizes: RowSizes, values: number): number {
  if (sizes.valuesPerRow <= 0) return Infinity;
  return Math.max(0, Math.ceil((values - sizes.staticCount) / sizes.valuesPerRow));
}

/** Bytes one write or read of a row moves (key + one row + its cell metadata), for throughput units. */
export function bytesPerRowOperation(sizes: RowSizes): number {
  return sizes.partitionKeyBytes + sizes.rowBytes + sizes.valuesPerRow * CELL_METADATA_BYTES;
}

export interface ThroughputEstimate {
  kind: 'writes' | 'reads';
  perSecond: number;
  /** Units per second consumed (WCU/RCU for Keyspaces, operations otherwise). */
  unitsPerSecond: number;
  limit: number;
  unit: string;
  /** Shards needed to stay under the limit (1 = fits). */
  shardsNeeded: number;
  label: string;
  source: string;
}

/** Per-partition throughput against the target's limits; empty when the target has none or no hint says. */
export function throughputEstimates(table: TableInfo, target: TargetInfo, hints: TableHints | undefined, udts?: UdtLookup): ThroughputEstimate[] {
  const out: ThroughputEstimate[] = [];
  if (!hints) return out;
  const sizes = rowSizes(table, hints, udts);
  const rowBytes = bytesPerRowOperation(sizes);
  const pairs: [ThroughputEstimate['kind'], number | undefined, TargetInfo['writesPerPartition']][] = [
    ['writes', hints.writesPerSecondPerPartition, target.writesPerPartition],
    ['reads', hints.readsPerSecondPerPartition, target.readsPerPartition],
  ];
  for (const [kind, perSecond, limit] of pairs) {
    if (perSecond === undefined || !limit) continue;
    // Keyspaces: a WCU is one write of up to 1 KB, an RCU one LOCAL_QUORUM read of up to 4 KB.
    // Cosmos DB: about 1 RU per 1 KB point read and about 5 RU per 1 KB write.
    let unitsPerOp: number;
    if (limit.unitBytes) unitsPerOp = Math.max(1, Math.ceil(rowBytes / limit.unitBytes));
    else unitsPerOp = Math.max(1, Math.ceil(rowBytes / 1024)) * (kind === 'writes' ? 5 : 1);
    const unitsPerSecond = perSecond * unitsPerOp;
    out.push({
      kind,
      perSecond,
      unitsPerSecond,
      limit: limit.value,
      unit: limit.unit,
      shardsNeeded: Math.max(1, Math.ceil(unitsPerSecond / limit.value)),
      label: limit.label,
      source: limit.source,
    });
  }
  return out;
}

export interface DescribeHints extends TableHints {
  /** The workspace schema, to size user-defined types. */
  schema?: SchemaModel;
}

const ROLE_LABEL: Record<ColumnInfo['role'], string> = {
  partition: 'partition key',
  clustering: 'clustering',
  static: 'static',
  regular: '',
};

/**
 * Markdown summary of a table for hovers: key, columns with roles, estimated row size, how many rows
 * per partition reach each of the target's limits, and throughput per partition when hints say.
 */
export function describeTable(table: TableInfo, target: TargetId, hints?: DescribeHints): string {
  const info = targetInfo(target);
  const udts = udtLookupFrom(hints?.schema);
  const sizes = rowSizes(table, hints, udts);
  const lines: string[] = [];
  const kind = table.kind === 'view' ? 'Materialized view' : 'Table';
  lines.push(`**${kind} \`${table.qualifiedName}\`**`);
  lines.push('');
  lines.push(`Primary key: \`${keyText(table.partitionKey.map((c) => c.name), table.clustering.map((c) => c.name + (c.order === 'DESC' ? ' DESC' : '')))}\``);
  if (table.defaultTtlSeconds) lines.push(`  \ndefault_time_to_live: ${formatCount(table.defaultTtlSeconds)} s`);
  if (table.shard) lines.push(`  \nWrite-sharded: \`${table.shard.text}\` (${table.shard.count} shards)`);
  lines.push('');
  lines.push('| column | type | role | est. bytes |');
  lines.push('|---|---|---|---|');
  for (const col of table.columns) {
    const s = sizes.columns.find((c) => c.name === col.name);
    const role = col.role === 'clustering' ? `clustering ${col.order ?? 'ASC'}` : ROLE_LABEL[col.role];
    lines.push(`| ${col.name} | \`${col.typeText}\` | ${role} | ${s ? `${s.bytes}${s.hinted ? ' (hint)' : ''}` : '?'} |`);
  }
  lines.push('');
  const perRow = sizes.rowBytes + sizes.valuesPerRow * CELL_METADATA_BYTES;
  lines.push(`Estimated row: ${formatBytes(perRow)} (${sizes.valuesPerRow} values); per partition once: ${formatBytes(sizes.partitionKeyBytes + sizes.staticBytes)}.`);
  const limits: string[] = [];
  const bytesLimits = [info.idealPartitionBytes, info.partitionBytes].filter((l) => l && Number.isFinite(l.value));
  for (const l of bytesLimits) {
    const rows = rowsToReachBytes(sizes, l!.value);
    limits.push(`- ${l!.label}: reached at ${Number.isFinite(rows) ? formatCount(rows) : 'no'} rows per partition ([source](${l!.source}))`);
  }
  if (info.partitionRows) {
    const rows = info.id === 'cassandra' ? rowsToReachValues(sizes, info.partitionRows.value) : info.partitionRows.value;
    limits.push(`- ${info.partitionRows.label}: reached at ${Number.isFinite(rows) ? formatCount(rows) : 'no'} rows per partition ([source](${info.partitionRows.source}))`);
  }
  if (info.rowBytes) {
    const fits = perRow <= info.rowBytes.value;
    limits.push(`- ${info.rowBytes.label}: estimated row ${formatBytes(perRow)} ${fits ? 'fits' : '**exceeds it**'} ([source](${info.rowBytes.source}))`);
  }
  if (limits.length) {
    lines.push('');
    lines.push(`${info.name} limits:`);
    lines.push(...limits);
  }
  if (hints?.rowsPerPartition !== undefined) {
    const est = estimatePartition(table, hints.rowsPerPartition, hints, udts);
    lines.push('');
    lines.push(`With ${formatCount(est.rows)} rows per partition: ${formatBytes(est.bytes)}, ${formatCount(est.values)} values.`);
  }
  for (const t of throughputEstimates(table, info, hints, udts)) {
    lines.push('');
    lines.push(`${t.kind === 'writes' ? 'Writes' : 'Reads'}: ${formatCount(t.perSecond)}/s per partition ≈ ${formatCount(t.unitsPerSecond)} ${t.unit} of ${t.label}` +
      (t.shardsNeeded > 1 ? ` — needs ${t.shardsNeeded} shards.` : ' — fits.'));
  }
  lines.push('');
  lines.push(`Sizing: [Cassandra data modeling guide](${SIZING_SOURCE}).`);
  return lines.join('\n');
}
