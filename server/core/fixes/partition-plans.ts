// Which key change a partition finding gets, and how big: the shard count and the bucket length come
// from the workload's figures (hinted, measured or the model's stated default rate, the row size) against
// the target's limits, with headroom; the workspace's statements choose what a calculated shard hashes.
// A shard or a bucket alone when one is enough; both only when the figures need both.
import type { CreateTableStatement } from '../../../grammar/ast';
import type { TableHints } from '../config-types';
import type { ColumnInfo, TableInfo } from '../schema/model';
import { bucketPeriodSeconds, profileColumn } from '../schema/columns';
import type { TableReference } from '../schema/references';
import { nativeName } from '../schema/types';
import { growthRateOf, tableWorkload, type TableWorkload } from '../schema/workload';
import { formatRate, formatBytes, formatCount } from '../util/format';
import { partitionFigures, throughputEstimates, type UdtLookup } from '../partition/sizing';
import { type TargetInfo } from '../partition/targets';
import { freeName } from './identifiers';
import { MAX_SHARDS, MIN_SHARDS, PLANNING_HEADROOM, SOFT_WRITES_PER_PARTITION, longestFitting, partsToFit } from '../partition/planning';
import { SECONDS } from '../util/periods';
import type { BucketGranularity } from './bucket-values';
import type { BucketPlan, PartitionPlan, PlanFigures, ShardPlan } from './key-change';

const SHARD_NAMES = ['shard', 'shard_id', 'shard_no', 'shard_num', 'shard_key'];

interface BucketKind {
  granularity: BucketGranularity;
  names: string[];
  type: string;
  seconds: number;
}

export const BUCKETS: Record<BucketGranularity, BucketKind> = {
  hour: { granularity: 'hour', names: ['hour', 'bucket_hour', 'hour_bucket'], type: 'timestamp', seconds: SECONDS.hour },
  day: { granularity: 'day', names: ['day', 'bucket_day', 'day_bucket'], type: 'date', seconds: SECONDS.day },
  month: { granularity: 'month', names: ['month', 'bucket_month', 'month_bucket'], type: 'text', seconds: SECONDS.month },
  year: { granularity: 'year', names: ['year', 'bucket_year', 'year_bucket'], type: 'int', seconds: SECONDS.year },
};

/** A partition that reaches its limit later than this at the planned rate needs no bucket. */
const HORIZON_SECONDS = 5 * 365 * 86_400;

// Types murmur3 hashes reliably from a literal (not counters, floats or collections).
const HASHABLE = new Set(['ascii', 'text', 'varchar', 'uuid', 'timeuuid', 'int', 'bigint', 'varint', 'smallint', 'tinyint', 'inet', 'timestamp', 'date']);
/** A calculated shard never hashes a column hinted larger than this (free text, blobs). */
const MAX_SOURCE_BYTES = 256;

export interface PlanContext {
  table: TableInfo;
  create: CreateTableStatement;
  target: TargetInfo;
  hints?: TableHints;
  udts?: UdtLookup;
  /** The workspace's statements on the table, every file. */
  references: readonly TableReference[];
  /** `cqlint.shardCount` when the user set it: used unless the figures need more. */
  shardCountSetting?: number;
}

/** What the finding asks of the fix. */
export interface PlanDemand {
  /** The key is hot: the fix must spread it with a shard. */
  spread?: boolean;
  /** Partitions grow without bound by this time column: the fix must bound them (a bucket). */
  growth?: { timeColumn?: string };
  /** Units per second into one partition against the target's limit (partition-throughput). */
  throughput?: { unitsPerSecond: number; limit: number; unit: string };
  /** A partition measured or estimated at this many bytes / rows against the limit (large-partition). */
  size?: { bytes?: number; limitBytes?: number; rows?: number; rowsLimit?: number };
  /**
   * The table has no clustering column and every new item overwrites its partition's one row: the regular
   * columns that tell items apart (isbn, title), best first. One becomes a clustering column.
   */
  overwrittenBy?: string[];
  /** A time bucket already among the clustering columns: the fix moves it into the partition key. */
  moveToPartition?: string;
}

interface Sizing {
  rowsPerSecond: number;
  rateNote: string;
  rowBytes: number;
  rowsToLimit?: number;
  workload: TableWorkload;
}

function sizingOf(ctx: PlanContext): Sizing {
  const workload = tableWorkload(ctx.table, ctx.hints, ctx.references);
  const rate = growthRateOf(workload);
  const figures = partitionFigures(ctx.table, ctx.target, ctx.hints, ctx.udts, rate);
  return {
    rowsPerSecond: rate.rowsPerSecond,
    rateNote: rate.note,
    rowBytes: figures.rowBytes,
    rowsToLimit: figures.binding && Number.isFinite(figures.binding.rows) ? figures.binding.rows : undefined,
    workload,
  };
}

/** Writes per second into one partition before the fix, and the target's per-partition write limit in the same units. */
function writeLoad(ctx: PlanContext, sizing: Sizing): { units: number; limit: number; unit: string; label: string; soft: boolean } {
  const writes = ctx.hints?.writesPerSecondPerPartition ?? sizing.rowsPerSecond;
  const [estimate] = throughputEstimates(ctx.table, ctx.target, { ...ctx.hints, writesPerSecondPerPartition: writes, readsPerSecondPerPartition: undefined }, ctx.udts);
  if (estimate) return { units: estimate.unitsPerSecond, limit: estimate.limit, unit: estimate.unit, label: estimate.label, soft: false };
  return { units: writes, limit: SOFT_WRITES_PER_PARTITION, unit: 'writes/s', label: `${formatCount(SOFT_WRITES_PER_PARTITION)} writes/s per partition (cqlint's planning figure)`, soft: true };
}

/**
 * The shard count a spread needs, with the reasons: the writes into today's hot partition against the
 * per-partition write limit, and the rows one partition collects in its bucket (a time-bucket key) against
 * the first size limit, each with the planning headroom; at least MIN_SHARDS, at most MAX_SHARDS.
 */
function shardCount(ctx: PlanContext, demand: PlanDemand, sizing: Sizing, reasons: string[]): number {
  let needed = MIN_SHARDS;
  const need = (n: number, why: string): void => {
    const count = Math.ceil(n);
    if (count > MAX_SHARDS) reasons.push(`${why}: ${formatCount(count)} shards would be needed; ${MAX_SHARDS} is the most a read of every shard can visit, so the key needs a finer time bucket too`);
    else reasons.push(why);
    needed = Math.max(needed, Math.min(MAX_SHARDS, count));
  };
  if (demand.throughput) {
    need(demand.throughput.unitsPerSecond * PLANNING_HEADROOM / demand.throughput.limit, `throughput: ${formatCount(demand.throughput.unitsPerSecond)} ${demand.throughput.unit} into one partition against ${formatCount(demand.throughput.limit)}`);
  } else {
    const load = writeLoad(ctx, sizing);
    const amount = load.soft ? formatRate(load.units).replace(/rows?/, (w) => (w === 'row' ? 'write' : 'writes')) : `${formatCount(load.units)} ${load.unit}`;
    need(load.units * PLANNING_HEADROOM / load.limit, `writes: ${amount} into one partition against ${load.label}`);
  }
  if (demand.size) {
    const { bytes, limitBytes, rows, rowsLimit } = demand.size;
    if (bytes !== undefined && limitBytes) need(bytes * PLANNING_HEADROOM / limitBytes, `size: ${formatBytes(bytes)} per partition against ${formatBytes(limitBytes)}`);
    if (rows !== undefined && rowsLimit) need(rows * PLANNING_HEADROOM / rowsLimit, `size: ${formatCount(rows)} rows per partition against ${formatCount(rowsLimit)}`);
  }
  // A time bucket alone in the key: one bucket's rows share one partition.
  const bucketColumn = sizing.workload.keyShape === 'time-bucket' ? ctx.table.partitionKey.find((c) => bucketPeriodSeconds(c) !== undefined) : undefined;
  const seconds = bucketColumn && bucketPeriodSeconds(bucketColumn);
  // Counters add no row per event: their rows are the distinct keys, which no rate counts; without
  // clustering columns a partition is one row, overwritten.
  if (seconds && sizing.rowsToLimit && !sizing.workload.perEventCells && ctx.table.clustering.length) {
    const rows = sizing.rowsPerSecond * seconds;
    need(rows * PLANNING_HEADROOM / sizing.rowsToLimit, `size: ${formatRate(sizing.rowsPerSecond)} (${sizing.rateNote}) × one ${bucketColumn.name} = ${formatCount(rows)} rows, the first limit at ${formatCount(sizing.rowsToLimit)} rows`);
  }
  // The setting stands in for the figures when the workload is not stated (default rates only).
  const stated = sizing.workload.rateHinted || ctx.hints?.writesPerSecondPerPartition !== undefined || !!demand.throughput || !!demand.size;
  if (ctx.shardCountSetting !== undefined && !stated) {
    reasons.push(`cqlint.shardCount: ${ctx.shardCountSetting} (the workload is not stated; the defaults would give ${needed})`);
    return ctx.shardCountSetting;
  }
  return needed;
}

/**
 * The coarsest bucket (hour, day, month; month or year for a date column) whose partitions stay under the
 * first limit, with headroom, at `rowsPerSecond` into one partition; undefined when even the finest one
 * does not (the fix then also shards), or when partitions never reach a limit within the horizon.
 */
export function fittingBucket(sourceType: string | undefined, rowsPerSecond: number, rowsToLimit: number | undefined): { granularity?: BucketGranularity; needed: boolean } {
  if (rowsToLimit === undefined || !(rowsPerSecond > 0)) return { granularity: sourceType === 'date' ? 'month' : 'day', needed: true };
  if ((rowsToLimit / rowsPerSecond) > HORIZON_SECONDS) return { needed: false };
  const choices: BucketGranularity[] = sourceType === 'date' ? ['month', 'year'] : ['hour', 'day', 'month'];
  return { granularity: longestFitting(choices.map((g) => BUCKETS[g]), rowsPerSecond, rowsToLimit)?.granularity, needed: true };
}

/** Of the columns that tell items apart, the one the workspace's statements pin most, else the first hashable one. */
function itemColumn(ctx: PlanContext, names: readonly string[]): ColumnInfo | undefined {
  const columns = names.map((n) => ctx.table.columns.find((c) => c.name === n && c.role === 'regular')).filter((c): c is ColumnInfo => !!c && HASHABLE.has(nativeName(c.type) ?? ''));
  const pinned = (c: ColumnInfo): number => ctx.references.filter((r) => r.kind !== 'Insert' && r.pinned.includes(c.name)).length;
  return [...columns].sort((a, b) => pinned(b) - pinned(a))[0];
}

/** The clustering column a bucket is computed from: the one named, else the first time-typed one. */
function bucketSource(ctx: PlanContext, timeColumn: string | undefined): ColumnInfo | undefined {
  if (timeColumn) return ctx.table.columns.find((c) => c.name === timeColumn);
  return ctx.table.clustering.find((c) => ['timestamp', 'timeuuid', 'date'].includes(nativeName(c.type) ?? ''));
}

/**
 * Columns a calculated shard can hash, best first: clustering columns (every write and point read names
 * them, and they are keys, not free text) of a hashable type, never one hinted larger than MAX_SOURCE_BYTES;
 * the ones the workspace's statements pin by value first (most pinned first), then identifiers, then key order.
 */
export function shardSources(ctx: PlanContext): ColumnInfo[] {
  const pins = new Map<string, number>();
  const pk = ctx.table.partitionKey.map((c) => c.name);
  for (const r of ctx.references) {
    if (r.kind === 'Insert' || !pk.every((c) => r.pinned.includes(c))) continue;
    for (const c of r.pinned) pins.set(c, (pins.get(c) ?? 0) + 1);
  }
  const suitable = ctx.table.clustering.filter((c) => {
    const type = nativeName(c.type);
    if (!type || !HASHABLE.has(type)) return false;
    const hinted = ctx.hints?.columnSizes?.[c.name];
    return hinted === undefined || hinted <= MAX_SOURCE_BYTES;
  });
  // Identifiers spread best and are what point reads know; instants last (reads rarely know the exact time).
  const rank = (c: ColumnInfo): number => {
    const nature = profileColumn(c, ctx.table).nature;
    return nature === 'identifier' ? 0 : nature === 'instant' ? 2 : 1;
  };
  return suitable
    .map((c, i) => ({ c, i, pins: pins.get(c.name) ?? 0, rank: rank(c) }))
    .sort((a, b) => b.pins - a.pins || a.rank - b.rank || a.i - b.i)
    .map((x) => x.c);
}

/** Whether the workspace pins single rows by `column` (point reads, updates, deletes). */
function pinnedByReads(ctx: PlanContext, column: string): boolean {
  const pk = ctx.table.partitionKey.map((c) => c.name);
  return ctx.references.some((r) => r.kind !== 'Insert' && pk.every((c) => r.pinned.includes(c)) && r.pinned.includes(column));
}

/** Reads of whole partitions (the key pinned, no row column): they visit every shard whatever it hashes. */
function readsWholePartitions(ctx: PlanContext): boolean {
  const pk = ctx.table.partitionKey.map((c) => c.name);
  const rows = ctx.table.clustering.map((c) => c.name);
  return ctx.references.some((r) => r.kind === 'Select' && pk.every((c) => r.pinned.includes(c)) && !rows.some((c) => r.pinned.includes(c)));
}

/**
 * A plan of the given shape for a table, with the shard and bucket columns named as the fixes name them
 * (the first of `shard`, `shard_id` ... and of `day`, `bucket_day` ... the table does not have).
 */
export function namedPlan(table: TableInfo, shape: { shard?: Omit<ShardPlan, 'column'>; bucket?: { granularity: BucketGranularity; source?: string }; clustering?: string[] }): PartitionPlan {
  const taken = table.columns.map((c) => c.name);
  let bucket: BucketPlan | undefined;
  if (shape.bucket) {
    const kind = BUCKETS[shape.bucket.granularity];
    const source = shape.bucket.source ? table.columns.find((c) => c.name === shape.bucket!.source) : undefined;
    bucket = { column: freeName(kind.names, taken), granularity: kind.granularity, type: kind.type, ...(source ? { source: source.name, sourceType: nativeName(source.type) } : {}) };
  }
  const shard = shape.shard && { ...shape.shard, column: freeName(SHARD_NAMES, [...taken, ...(bucket ? [bucket.column] : [])]) };
  return { table: table.qualifiedName, ...(shard ? { shard } : {}), ...(bucket ? { bucket } : {}), ...(shape.clustering?.length ? { clustering: shape.clustering } : {}) };
}

/**
 * The partition plans for a finding, the preferred one first:
 * - a spread (hot key, throughput, size without a time column): a shard; calculated from a column the
 *   workspace pins rows by, or from the counter's own key, else random when reads take whole partitions;
 * - growth: a bucket sized to fit, and a shard too when even an hour's rows do not fit;
 * - a hot key that also grows: a shard and, when the rows per shard still reach a limit within five
 *   years, a bucket sized at the rate per shard.
 */
export function partitionPlans(ctx: PlanContext, demand: PlanDemand): PartitionPlan[] {
  if (!ctx.create.primaryKey || ctx.table.partitionKey.length === 0) return [];
  const moved = demand.moveToPartition;
  // Moving a clustering bucket into the key: statements that pin it keep working, the others bind it; a
  // range over it (months 1 to 3) cannot restrict a partition key, so then the fix adds a bucket of its own.
  if (moved && ctx.table.clustering.some((c) => c.name === moved) && !ctx.references.some((r) => r.ranged.includes(moved))) {
    const { moveToPartition: _, ...rest } = demand;
    return [{ table: ctx.table.qualifiedName, moveToPartition: [moved] }, ...partitionPlans(ctx, rest)];
  }
  const sizing = sizingOf(ctx);
  const taken = ctx.table.columns.map((c) => c.name);
  const reasons: string[] = [];
  const tableName = ctx.table.qualifiedName;

  let count: number | undefined;
  if (demand.spread || demand.throughput || demand.size) count = shardCount(ctx, demand, sizing, reasons);

  // Growth: the bucket, at the rate one partition takes after the shards (if any).
  let bucket: BucketPlan | undefined;
  let growthShards: number | undefined;
  const growth = demand.growth;
  if (growth) {
    const source = bucketSource(ctx, growth.timeColumn);
    const sourceType = nativeName(source?.type);
    const perPartition = sizing.rowsPerSecond / (count ?? 1);
    const fit = fittingBucket(sourceType, perPartition, sizing.rowsToLimit);
    if (fit.needed) {
      let granularity = fit.granularity;
      if (!granularity) {
        // Not even an hour fits: an hour bucket, and shards so that each hour's rows do.
        granularity = sourceType === 'date' ? 'month' : 'hour';
        const rows = sizing.rowsPerSecond * BUCKETS[granularity].seconds;
        growthShards = Math.min(MAX_SHARDS, Math.max(MIN_SHARDS, partsToFit(rows, sizing.rowsToLimit ?? rows)));
        reasons.push(`size: ${formatCount(rows)} rows an ${granularity}, the first limit at ${formatCount(sizing.rowsToLimit ?? rows)} rows`);
        count = Math.max(count ?? 0, growthShards);
      }
      const kind = BUCKETS[granularity];
      bucket = {
        column: freeName(kind.names, taken),
        granularity,
        type: kind.type,
        ...(source ? { source: source.name, sourceType } : {}),
      };
      const perShard = sizing.rowsPerSecond / (count ?? 1);
      reasons.push(`bucket: ${formatRate(perShard)} per partition × one ${granularity} = ${formatCount(perShard * kind.seconds)} rows${sizing.rowsToLimit ? `, the first limit at ${formatCount(sizing.rowsToLimit)}` : ''}`);
    }
  }

  const shardColumn = freeName(SHARD_NAMES, [...taken, ...(bucket ? [bucket.column] : [])]);
  const figures = (shard?: ShardPlan): PlanFigures => {
    const after = sizing.rowsPerSecond / (shard?.count ?? 1);
    return {
      rowsPerSecond: sizing.rowsPerSecond,
      rateNote: sizing.rateNote,
      rowBytes: sizing.rowBytes,
      rowsPerSecondAfter: after,
      ...(bucket ? { rowsPerPartitionAfter: after * BUCKETS[bucket.granularity].seconds } : {}),
      ...(sizing.rowsToLimit !== undefined ? { rowsToLimit: sizing.rowsToLimit } : {}),
      reasons,
    };
  };
  const plan = (shard?: ShardPlan): PartitionPlan => ({ table: tableName, ...(shard ? { shard } : {}), ...(bucket ? { bucket } : {}), figures: figures(shard) });

  if (count === undefined) {
    if (!bucket) return [];
    // A bucket alone: the one that fits, then the finer ones (smaller partitions, more of them to read).
    const order: BucketGranularity[] = ['year', 'month', 'day', 'hour'];
    const finer = order.slice(order.indexOf(bucket.granularity) + 1).filter((g) => (bucket!.sourceType === 'date' ? g === 'month' || g === 'year' : g !== 'year'));
    const preferred = plan();
    return [preferred, ...finer.map((g): PartitionPlan => {
      const kind = BUCKETS[g];
      const finerBucket: BucketPlan = { ...bucket!, column: freeName(kind.names, taken), granularity: g, type: kind.type };
      const rows = sizing.rowsPerSecond * kind.seconds;
      const reason = `bucket: ${formatRate(sizing.rowsPerSecond)} per partition × one ${g} = ${formatCount(rows)} rows${sizing.rowsToLimit ? `, the first limit at ${formatCount(sizing.rowsToLimit)}` : ''} (a finer bucket than needed: more partitions to read)`;
      const reasons = preferred.figures!.reasons.map((r) => (r.startsWith('bucket: ') ? reason : r));
      return { ...preferred, bucket: finerBucket, figures: { ...preferred.figures!, rowsPerPartitionAfter: rows, reasons } };
    })];
  }

  // Items overwrote the partition's one row: one of theirs becomes a clustering column, and the shard, computed
  // from it, finds each item's row (a random one only spreads, and every read by item visits each shard).
  const item = ctx.table.clustering.length || count === undefined ? undefined : itemColumn(ctx, demand.overwrittenBy ?? []);
  if (item) {
    const clustering = [item.name];
    const byItem: ShardPlan = { column: shardColumn, method: 'murmur3', sources: [item.name], count: count!, offset: 1 };
    return [{ ...plan(byItem), clustering }, { ...plan({ column: shardColumn, method: 'random', sources: [], count, offset: 1 }), clustering }];
  }

  const calculated = shardSources(ctx).map((source): ShardPlan =>
    ({ column: shardColumn, method: 'murmur3', sources: [source.name], count: count!, offset: 1 }));
  const random: ShardPlan = { column: shardColumn, method: 'random', sources: [], count, offset: 1 };
  const first = calculated[0];
  let ordered: ShardPlan[];
  if (ctx.table.counter) {
    // A counter split over random shards must be summed on every read: hash its own key instead.
    ordered = calculated.length ? calculated : [random];
  } else if (first && pinnedByReads(ctx, first.sources[0]!)) {
    ordered = [...calculated, random];
  } else if (readsWholePartitions(ctx) || !first || profileColumn(ctx.table.clustering.find((c) => c.name === first.sources[0])!, ctx.table).nature !== 'identifier') {
    ordered = [random, ...calculated];
  } else {
    ordered = [...calculated, random];
  }
  return ordered.slice(0, 4).map((shard) => plan(shard));
}
