// Partition size estimate from the Cassandra data modeling guide ("Evaluating and refining data models",
// Chebotko & Kashlev): Nv = Nr (Nc - Npk - Ns) + Ns values, and
// St = Σ sizeOf(pk) + Σ sizeOf(static) + Nr × (Σ sizeOf(regular) + Σ sizeOf(clustering)) + Nv × 8 bytes of
// cell metadata. Column sizes come from their types unless the config gives averages.
import type { CqlType } from '../../../grammar/ast';
import { ownEntry } from '../util/names';
import type { TableHints } from '../vocabulary/config';
import { columnMention, type ColumnInfo, type SchemaModel, type TableInfo } from '../schema/model';
import type { Mention } from '../schema/versions';
import { typeSize } from '../schema/types';
import { type TargetId, type TargetInfo, unitsPerOperation } from './targets';
import { formatBytes, formatCount, formatDuration, formatRate } from '../util/format';
import { BUCKET_LENGTHS } from '../util/periods';
import { growthRateOf, rowsArrive, type GrowthRate, type TableWorkload } from '../schema/workload';
import { sampleSummaryText, type PartitionSample } from './sample';

export const CELL_METADATA_BYTES = 8;
export const SIZING_SOURCE =
  'https://cassandra.apache.org/doc/latest/cassandra/developing/data-modeling/data-modeling_refining.html';

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

interface PartitionEstimate extends RowSizes {
  rows: number;
  /** Nv. */
  values: number;
  /** St in bytes. */
  bytes: number;
}

/** A user type by keyspace and name, as mentioned at `mention` (schema/resolve.ts rule 3). */
export type UdtLookup = (
  keyspace: string | undefined,
  name: string,
  mention?: Mention,
) => { fields: { type: CqlType }[] } | undefined;

/** User types from anything that can look them up: the schema model, or a rule's context. */
export function udtLookupFrom(schema: Pick<SchemaModel, 'userType'> | undefined): UdtLookup | undefined {
  if (!schema) return undefined;
  return (ks, name, mention) => schema.userType(ks, name, mention);
}

function columnBytes(
  col: ColumnInfo,
  table: TableInfo,
  hints: TableHints | undefined,
  udts: UdtLookup | undefined,
): { bytes: number; hinted: boolean } {
  const hinted = ownEntry(hints?.columnSizes, col.name);
  if (hinted !== undefined) return { bytes: hinted, hinted: true };
  const sizer = (t: CqlType & { kind: 'UserType' }): number | undefined => {
    const udt = udts?.(t.name.keyspace?.name ?? table.keyspace, t.name.name.name, columnMention(table, col));
    return udt ? udt.fields.reduce((s, f) => s + typeSize(f.type, undefined), 0) : undefined;
  };
  return { bytes: typeSize(col.type, sizer), hinted: false };
}

/**
 * The last answer per table computed with a user type lookup, kept in a map of that lookup's own. A rule
 * context's lookup closes over the context, and so over the parse of the file being linted: an answer held
 * by the table alone (every table of the index outlives the lint) kept every linted file's tree alive to the
 * end of a CLI run, about 15 bytes per source byte (600 MB on 2,000 files). Here the answers go with the lookup.
 */
class LastPerLookup<V> {
  private readonly byLookup = new WeakMap<UdtLookup, WeakMap<TableInfo, V>>();
  private readonly noLookup = new WeakMap<TableInfo, V>();

  get(table: TableInfo, udts: UdtLookup | undefined): V | undefined {
    return (udts ? this.byLookup.get(udts) : this.noLookup)?.get(table);
  }

  set(table: TableInfo, udts: UdtLookup | undefined, value: V): void {
    let map = udts ? this.byLookup.get(udts) : this.noLookup;
    if (!map) this.byLookup.set(udts!, (map = new WeakMap()));
    map.set(table, value);
  }
}

/** The last row sizes computed per table, with what they were computed from (the partition verdicts ask again and again). */
const lastRowSizes = new LastPerLookup<{ hints: TableHints | undefined; sizes: RowSizes }>();

export function rowSizes(table: TableInfo, hints?: TableHints, udts?: UdtLookup): RowSizes {
  const last = lastRowSizes.get(table, udts);
  if (last && last.hints === hints) return last.sizes;
  const sizes = computeRowSizes(table, hints, udts);
  lastRowSizes.set(table, udts, { hints, sizes });
  return sizes;
}

function computeRowSizes(table: TableInfo, hints?: TableHints, udts?: UdtLookup): RowSizes {
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

export function estimatePartition(
  table: TableInfo,
  rows: number,
  hints?: TableHints,
  udts?: UdtLookup,
): PartitionEstimate {
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

/** Bytes of one row operation: measured in the sample when there is one with rows, else estimated. */
export function operationBytes(
  table: TableInfo,
  hints: TableHints | undefined,
  udts: UdtLookup | undefined,
  sample?: PartitionSample,
): number {
  if (sample && sample.rows > 0) return Math.ceil(sample.rowOperationBytes.mean);
  return bytesPerRowOperation(rowSizes(table, hints, udts));
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
  /** The vendor's published cost per operation these units come from (Cosmos DB's request charges). */
  costSource?: string;
  /** What a write is charged as, where the kind matters (Cosmos DB): an insert, or a replace of an existing row. */
  writeKind?: WriteKind;
}

/** A write as a per-operation price sees it: a new row, or a replace of an existing one (an UPDATE, a counter's increment). */
export type WriteKind = 'insert' | 'replace';

/** What the workspace's writes to a table are charged as: replaces when any is an UPDATE or the table holds counters. */
export function writeKindOf(table: TableInfo, references: readonly { kind: string }[]): WriteKind {
  return table.counter || references.some((r) => r.kind === 'Update') ? 'replace' : 'insert';
}

/**
 * Per-partition throughput against the target's limits; empty when the target has none or no hint says.
 * With a sample, each operation moves the sample's mean measured row (key + row + cell metadata) instead
 * of the estimated one.
 */
export function throughputEstimates(
  table: TableInfo,
  target: TargetInfo,
  hints: TableHints | undefined,
  udts?: UdtLookup,
  sample?: PartitionSample,
  writeKind: WriteKind = table.counter ? 'replace' : 'insert',
): ThroughputEstimate[] {
  const out: ThroughputEstimate[] = [];
  if (!hints) return out;
  const rowBytes = operationBytes(table, hints, udts, sample);
  // Rows arriving in a partition are writes to it: a rate= hint counts when no writes= says more.
  const writes = hints.writesPerSecondPerPartition ?? hints.rowsPerSecondPerPartition;
  const pairs: [ThroughputEstimate['kind'], number | undefined, TargetInfo['writesPerPartition']][] = [
    ['writes', writes, target.writesPerPartition],
    ['reads', hints.readsPerSecondPerPartition, target.readsPerPartition],
  ];
  for (const [kind, perSecond, limit] of pairs) {
    if (perSecond === undefined || !limit) continue;
    // Keyspaces: a WCU is one write of up to 1 KB, an RCU one LOCAL_QUORUM read of up to 4 KB.
    // Cosmos DB: request units by row size from Microsoft's published charges (targets.ts unitCost).
    let unitsPerOp: number;
    if (limit.unitBytes) unitsPerOp = Math.max(1, Math.ceil(rowBytes / limit.unitBytes));
    else if (target.unitCost)
      unitsPerOp = Math.round(unitsPerOperation(target.unitCost, kind, rowBytes, writeKind === 'replace') * 10) / 10;
    else unitsPerOp = 1;
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
      ...(target.unitCost && !limit.unitBytes
        ? { costSource: target.unitCost.source, ...(kind === 'writes' ? { writeKind } : {}) }
        : {}),
    });
  }
  return out;
}

// States that a counter write reads before it writes ("a write to a counter requires a read in the background").
const COUNTER_WRITE_SOURCE = 'https://docs.datastax.com/en/cql/3.0/cql/ddl/ddl_counters_c.html';

/**
 * A counter table's hinted increments per second on one partition against `threshold` (the rule option),
 * on a target without a per-partition quota: there every increment of the partition is a read before write
 * on the same replicas. Undefined elsewhere (Keyspaces and Cosmos DB price counters in their quotas).
 */
export function counterWriteEstimate(
  table: TableInfo,
  target: TargetInfo,
  hints: TableHints | undefined,
  threshold: number,
): ThroughputEstimate | undefined {
  const writes = hints?.writesPerSecondPerPartition;
  if (writes === undefined || target.writesPerPartition || !table.counter || !(threshold > 0)) return undefined;
  return {
    kind: 'writes',
    perSecond: writes,
    unitsPerSecond: writes,
    limit: threshold,
    unit: 'increments/s',
    shardsNeeded: Math.max(1, Math.ceil(writes / threshold)),
    label: `${formatCount(threshold)} increments/s per counter partition (cqlint's default; option counterWritesPerSecond)`,
    source: COUNTER_WRITE_SOURCE,
  };
}

/** One of a target's per-partition limits and how many rows reach it. */
export interface LimitReach {
  label: string;
  source: string;
  measure: 'bytes' | 'values' | 'rows';
  value: number;
  /** Rows per partition at which the estimate reaches it. */
  rows: number;
}

/** The figures every partition message and the table hover cite, for one table on one target. */
export interface PartitionFigures {
  target: TargetId;
  targetName: string;
  /** One row with its cell metadata (St per row). */
  rowBytes: number;
  valuesPerRow: number;
  /** The target's partition limits with a finite reach, the one hit first first. */
  limits: LimitReach[];
  /** The limit hit first (limits[0]). */
  binding?: LimitReach;
  /** The target's row size limit and whether the estimated row fits. */
  rowLimit?: { label: string; source: string; value: number; fits: boolean };
  /** Rows per second arriving in one partition, and where that rate comes from. */
  rowsPerSecond?: number;
  rateNote?: string;
  rateHinted?: boolean;
  rateSource?: GrowthRate['source'];
  /** The rows one partition can ever hold (few-valued clustering, or none): no time is projected past them. */
  rowsBound?: { rows: number; signal: string };
  /**
   * The key's time bucket of known length and the rows one partition takes before it closes (rowsPerBucket:
   * the rate × its length). A partition whose bucket closes under the limit never reaches it.
   */
  bucket?: { column: string; seconds: number; rows: number };
  /** Time for one partition to reach the binding limit at rowsPerSecond (never past its bucket's length). */
  secondsToLimit?: number;
  /** The per-partition write quota (Keyspaces WCU, Cosmos DB RU/s) and the row writes per second it allows. */
  writeQuota?: { label: string; source: string; unit: string; unitsPerRow: number; rowsPerSecond: number };
}

/** The figures for a table on a target: computed here only; messages and the hover format them. */
export function partitionFigures(
  table: TableInfo,
  target: TargetInfo,
  hints?: TableHints,
  udts?: UdtLookup,
  rate?: GrowthRate,
): PartitionFigures {
  // The rules' verdicts and the planner ask for the same table's figures again and again, each rate a new
  // object of the same values: the last answer per table is kept (figures are never changed by readers).
  const last = lastFigures.get(table, udts);
  if (last && last.target === target && last.hints === hints && sameRate(last.rate, rate)) return last.figures;
  const figures = computeFigures(table, target, hints, udts, rate);
  lastFigures.set(table, udts, { target, hints, rate, figures });
  return figures;
}

const lastFigures = new LastPerLookup<{
  target: TargetInfo;
  hints: TableHints | undefined;
  rate: GrowthRate | undefined;
  figures: PartitionFigures;
}>();

function sameRate(a: GrowthRate | undefined, b: GrowthRate | undefined): boolean {
  if (!a || !b) return a === b;
  return (
    a.rowsPerSecond === b.rowsPerSecond &&
    a.note === b.note &&
    a.source === b.source &&
    a.hinted === b.hinted &&
    a.rowsBound === b.rowsBound &&
    a.bucket?.column === b.bucket?.column &&
    a.bucket?.seconds === b.bucket?.seconds
  );
}

function computeFigures(
  table: TableInfo,
  target: TargetInfo,
  hints?: TableHints,
  udts?: UdtLookup,
  rate?: GrowthRate,
): PartitionFigures {
  const sizes = rowSizes(table, hints, udts);
  const rowBytes = sizes.rowBytes + sizes.valuesPerRow * CELL_METADATA_BYTES;
  const limits: LimitReach[] = [];
  if (Number.isFinite(target.partitionBytes.value)) {
    limits.push({
      ...target.partitionBytes,
      measure: 'bytes',
      rows: rowsToReachBytes(sizes, target.partitionBytes.value),
    });
  }
  if (target.partitionRows) {
    // Cassandra's guidance counts values (cells); ScyllaDB's warning counts rows.
    const values = target.id === 'cassandra';
    limits.push({
      ...target.partitionRows,
      measure: values ? 'values' : 'rows',
      // A row with no regular column still stores one cell (its row marker), so it counts as one value.
      rows: values
        ? rowsToReachValues({ ...sizes, valuesPerRow: Math.max(1, sizes.valuesPerRow) }, target.partitionRows.value)
        : target.partitionRows.value,
    });
  }
  if (target.partitionCells) {
    limits.push({
      ...target.partitionCells,
      measure: 'values',
      rows: rowsToReachValues({ ...sizes, valuesPerRow: Math.max(1, sizes.valuesPerRow) }, target.partitionCells.value),
    });
  }
  const reachable = limits.filter((l) => Number.isFinite(l.rows)).sort((a, b) => a.rows - b.rows);
  const figures: PartitionFigures = {
    target: target.id,
    targetName: target.name,
    rowBytes,
    valuesPerRow: sizes.valuesPerRow,
    limits: reachable,
  };
  if (reachable[0]) figures.binding = reachable[0];
  if (target.rowBytes)
    figures.rowLimit = {
      label: target.rowBytes.label,
      source: target.rowBytes.source,
      value: target.rowBytes.value,
      fits: rowBytes <= target.rowBytes.value,
    };
  if (target.writesPerPartition) {
    const [writes] = throughputEstimates(
      table,
      target,
      { ...hints, writesPerSecondPerPartition: 1, readsPerSecondPerPartition: undefined },
      udts,
    );
    if (writes) {
      figures.writeQuota = {
        label: target.writesPerPartition.label,
        source: target.writesPerPartition.source,
        unit: target.writesPerPartition.unit,
        unitsPerRow: writes.unitsPerSecond,
        rowsPerSecond: Math.floor(target.writesPerPartition.value / writes.unitsPerSecond),
      };
    }
  }
  if (rate?.rowsBound) figures.rowsBound = rate.rowsBound;
  if (rate && rate.rowsPerSecond > 0) {
    figures.rowsPerSecond = rate.rowsPerSecond;
    figures.rateNote = rate.note;
    figures.rateHinted = rate.hinted;
    figures.rateSource = rate.source;
    if (rate.bucket) figures.bucket = { ...rate.bucket, rows: rowsPerBucket(rate.rowsPerSecond, rate.bucket.seconds) };
    // A partition that cannot hold the rows of the limit never reaches it, whatever the rate, and one whose
    // time bucket closes first stops taking rows before it (a day bucket is full at 24 hours, never at 28).
    if (
      figures.binding &&
      !(rate.rowsBound && rate.rowsBound.rows < figures.binding.rows) &&
      !(figures.bucket && figures.bucket.rows <= figures.binding.rows)
    )
      figures.secondsToLimit = figures.binding.rows / rate.rowsPerSecond;
  }
  return figures;
}

/** The rows one partition of a time bucket takes before the bucket closes: the rate × its length, rounded. */
export function rowsPerBucket(rowsPerSecond: number, bucketSeconds: number): number {
  return Math.round(rowsPerSecond * bucketSeconds);
}

/**
 * The figures as one sentence for a message: row size, the limit hit first with its source, rows to
 * reach it and how long that takes at the stated rate; per-partition write quotas where the target has them.
 */
export function partitionNumbersText(f: PartitionFigures, options: { rate?: boolean } = {}): string {
  const parts: string[] = [`a row ≈ ${formatBytes(f.rowBytes)}`];
  if (f.binding) {
    // A rows limit already says its count ("... at 100,000 rows").
    let reach = `the first limit hit is ${f.binding.label}${f.binding.measure === 'rows' ? '' : `, at ${formatCount(f.binding.rows)} rows`}`;
    if (f.rowsBound && f.rowsBound.rows < f.binding.rows) {
      reach += `, which one partition never holds: at most ${formatCount(f.rowsBound.rows)} row${f.rowsBound.rows === 1 ? '' : 's'} (${f.rowsBound.signal})`;
    } else if (f.bucket && f.secondsToLimit === undefined && f.bucket.rows <= f.binding.rows) {
      const rate = options.rate !== false && f.rowsPerSecond !== undefined;
      reach += `, which one partition never holds: its ${bucketLengthName(f.bucket.seconds)} bucket (${f.bucket.column}) closes after ${formatDuration(f.bucket.seconds)}, at ${formatCount(f.bucket.rows)} rows${rate ? ` at ${formatRate(f.rowsPerSecond!)} (${f.rateNote})` : ''}`;
    } else if (options.rate !== false && f.secondsToLimit !== undefined && f.rowsPerSecond !== undefined) {
      reach += `: ${formatDuration(f.secondsToLimit)} at ${formatRate(f.rowsPerSecond)} (${f.rateNote})`;
    }
    parts.push(`${reach} (${f.binding.source})`);
  } else if (!f.writeQuota) {
    parts.push(`${f.targetName} sets no partition size limit`);
  }
  if (f.writeQuota) {
    parts.push(
      `one partition takes at most ${f.writeQuota.label} = ${formatCount(f.writeQuota.rowsPerSecond)} writes/s of this row (${f.writeQuota.unitsPerRow} ${f.writeQuota.unit.replace('/s', '')} each; ${f.writeQuota.source})`,
    );
  }
  if (f.rowLimit && !f.rowLimit.fits) parts.push(`the row is above ${f.rowLimit.label} (${f.rowLimit.source})`);
  return `${f.targetName}: ${parts.join('; ')}`;
}

/**
 * The figures as finding data (`numbers`), the same for every partition rule: findings-data.ts's
 * PartitionNumbers, spelled out because findings-data reads evidence/figures, which reads this file.
 */
export function figuresData(f: PartitionFigures): {
  rowBytes: number;
  limitLabel?: string;
  limitSource?: string;
  rowsToLimit?: number;
  secondsToLimit?: number;
  rowsPerBucket?: number;
  rowsPerSecond?: number;
  rateHinted?: boolean;
  rateSource?: GrowthRate['source'];
} {
  return {
    rowBytes: f.rowBytes,
    ...(f.binding ? { limitLabel: f.binding.label, limitSource: f.binding.source, rowsToLimit: f.binding.rows } : {}),
    ...(f.secondsToLimit !== undefined ? { secondsToLimit: Math.round(f.secondsToLimit) } : {}),
    ...(f.bucket ? { rowsPerBucket: f.bucket.rows } : {}),
    ...(f.rowsPerSecond !== undefined ? { rowsPerSecond: f.rowsPerSecond } : {}),
    ...(f.rateHinted !== undefined ? { rateHinted: f.rateHinted } : {}),
    ...(f.rateSource !== undefined ? { rateSource: f.rateSource } : {}),
  };
}

/**
 * Whether a table's time bucket is fine enough for its rate: the rows that arrive in one partition within
 * one bucket (rate × bucket length, at the hinted or default rate) against the target's limit hit first.
 * The one computation large-partition reports, the hover shows and the report draws.
 */
export interface BucketFit {
  /** The bucket column and its period. */
  column: string;
  bucketSeconds: number;
  rowsPerSecond: number;
  /** Whether the rate is stated (measured or hinted), and which. */
  rateHinted: boolean;
  rateSource: GrowthRate['source'];
  /** Where the rate comes from, as messages say it. */
  rateNote: string;
  /** One bucket's partition: rows, values (Nv) and bytes (St). */
  rowsPerBucket: number;
  valuesPerBucket: number;
  bytesPerBucket: number;
  /** The target's limit hit first (partitionFigures) and the rows that reach it. */
  limit: { label: string; source: string; rows: number };
  fits: boolean;
  /** When it does not fit: how far into each bucket the partition passes the limit. */
  secondsToLimit?: number;
}

/**
 * The bucket fit of a table whose partition key holds a time bucket of known length and whose rows arrive
 * per event (or at a stated rate); undefined without one, or on a target without a partition size limit.
 * `rate`: the rows per second into one partition (partition/verdicts.ts rowRate: measured, hinted or the
 * model's default); the cure, when it does not fit, is the planner's (planner.ts).
 */
export function bucketFit(
  table: TableInfo,
  target: TargetInfo,
  hints: TableHints | undefined,
  udts: UdtLookup | undefined,
  w: TableWorkload,
  rate: GrowthRate = growthRateOf(w),
): BucketFit | undefined {
  const seconds = w.bound.kind === 'bucket' ? w.bound.bucketSeconds : undefined;
  if (seconds === undefined || !(rate.rowsPerSecond > 0)) return undefined;
  if (!(rowsArrive(w) || rate.hinted) || w.rowsBound || !table.clustering.length) return undefined;
  const figures = partitionFigures(table, target, hints, udts, rate);
  const binding = figures.binding;
  if (!binding) return undefined;
  const rows = rowsPerBucket(rate.rowsPerSecond, seconds);
  const estimate = estimatePartition(table, rows, hints, udts);
  const fits = rows <= binding.rows;
  return {
    column: w.bound.column!,
    bucketSeconds: seconds,
    rowsPerSecond: rate.rowsPerSecond,
    rateHinted: rate.hinted,
    rateSource: rate.source,
    rateNote: rate.note,
    rowsPerBucket: rows,
    valuesPerBucket: estimate.values,
    bytesPerBucket: estimate.bytes,
    limit: { label: binding.label, source: binding.source, rows: binding.rows },
    fits,
    ...(fits ? {} : { secondsToLimit: binding.rows / rate.rowsPerSecond }),
  };
}

// Keys hot-partition reports: at a default rate their bucket fit is the same verdict, stated there.
const HOT_KEY_SHAPES = new Set(['time-bucket', 'few', 'shard-only']);

/**
 * The bucket fit large-partition reports: a bucket that does not fit, at a hinted rate, or at a default
 * rate on a key that spreads writes (a key many entities share is hot-partition's, whose message already
 * states the rows that reach the limit at that rate).
 */
export function reportedBucketFit(
  table: TableInfo,
  target: TargetInfo,
  hints: TableHints | undefined,
  udts: UdtLookup | undefined,
  w: TableWorkload,
  rate: GrowthRate = growthRateOf(w),
): BucketFit | undefined {
  const fit = bucketFit(table, target, hints, udts, w, rate);
  if (!fit || fit.fits) return undefined;
  return rate.hinted || !HOT_KEY_SHAPES.has(w.keyShape) ? fit : undefined;
}

/**
 * The bucket fit in words: "one sensor_id's hour bucket takes 1,800,000 rows at 500 rows/s (hinted) ≈
 * 63 MB and 1,800,000 values, past ... after 3.3 minutes of each hour" (the cure is the planner's).
 */
export function bucketFitText(fit: BucketFit, partitionKey: readonly string[]): string {
  const name = bucketLengthName(fit.bucketSeconds);
  const others = partitionKey.filter((c) => c !== fit.column);
  const owner =
    others.length === 1 ? `one ${others[0]}'s` : others.length ? `one (${others.join(', ')})'s` : 'the current';
  const head = `${owner} ${name} bucket (${fit.column}) takes ${formatCount(fit.rowsPerBucket)} rows at ${formatRate(fit.rowsPerSecond)} (${fit.rateNote}) ≈ ${formatBytes(fit.bytesPerBucket)} and ${formatCount(fit.valuesPerBucket)} values`;
  if (fit.fits) return `${head}: under ${fit.limit.label}`;
  return `${head}, past ${fit.limit.label} after ${formatDuration(fit.secondsToLimit!)} of each ${name}`;
}

/** "hour", "day", or "3-hour" for a bucket length. */
function bucketLengthName(seconds: number): string {
  const named = BUCKET_LENGTHS.find((b) => b.seconds === seconds);
  return named
    ? named.name
    : formatDuration(seconds)
        .replace(/ (\w+)s$/, '-$1')
        .replace(/ /g, '-');
}

/** One of the target's partition limits against the sample's largest partition. */
export interface SampleReach {
  limit: LimitReach;
  /** The largest partition's measure in the limit's terms: bytes, or rows (values and rows limits). */
  measured: number;
  /** measured / the limit (1 = at the limit). */
  share: number;
}

/** A sample's partitions against the target's limits: what large-partition, the hover and the report say of it. */
export interface SampleVerdict {
  sample: PartitionSample;
  /** "from sample samples/posts.csv: N partitions, largest K rows / X MB". */
  text: string;
  /** Every partition limit of the target, with how far the sample's largest partition reaches it, fullest first. */
  reaches: SampleReach[];
  /** The limits the largest partition passes, fullest first. */
  over: SampleReach[];
}

/**
 * Judges a sample's partitions as large-partition judges a `rowsPerPartition` hint: the largest partition
 * (most rows; most bytes) against each of the target's limits. Bytes limits take the measured bytes; the
 * values and rows limits take the rows, at the rows partitionFigures says reach them.
 */
export function sampleVerdict(
  table: TableInfo,
  target: TargetInfo,
  hints: TableHints | undefined,
  udts: UdtLookup | undefined,
  sample: PartitionSample,
): SampleVerdict {
  const figures = partitionFigures(table, target, hints, udts);
  const reaches = figures.limits
    .map((limit): SampleReach => {
      const measured = limit.measure === 'bytes' ? sample.bytesPerPartition.max : sample.rowsPerPartition.max;
      const threshold = limit.measure === 'bytes' ? limit.value : limit.rows;
      return { limit, measured, share: threshold > 0 ? measured / threshold : Infinity };
    })
    .sort((a, b) => b.share - a.share);
  return { sample, text: sampleSummaryText(sample), reaches, over: reaches.filter((r) => r.share > 1) };
}

/** The verdict as one sentence (the report's and the hover's line under the sample figures). */
export function sampleVerdictText(v: SampleVerdict, targetName: string): string {
  const p99 = `p99 ${formatCount(v.sample.rowsPerPartition.p99)} rows / ${formatBytes(v.sample.bytesPerPartition.p99)}`;
  const fullest = v.reaches[0];
  const against = fullest
    ? v.over.length
      ? `past ${targetName}'s ${v.over.map((r) => `${r.limit.label} (${percent(r.share)})`).join(', ')}`
      : `under ${targetName}'s limits (the fullest: ${percent(fullest.share)} of ${fullest.limit.label})`
    : `${targetName} sets no partition size limit`;
  return `${v.text} (${p99}): ${against}`;
}

function percent(share: number): string {
  return `${share >= 10 ? Math.round(share * 100).toLocaleString('en-US') : (share * 100).toFixed(1)}%`;
}
