// The partition planner: for a partition finding, the cures, computed once. From the table's figures (row
// size, the rate rows arrive at and where it comes from, the target's limits, the TTL) and what the
// finding asks (spread a hot key, bound growth, split a partition too large, refine a bucket too coarse), it
// chooses the mechanism (a shard, a time bucket, both, a finer bucket beside a coarse one, a clustering
// bucket moved into the key, an item made a clustering column), the bucket length (chooseBucket) and the
// shard count, with the reasons in words. Each plan is then judged as the rules would judge the table it
// makes (verdicts.ts on the re-keyed table, rekey.ts): the preferred plan, first, is one after which the
// finding's rule has nothing left to say and no other partition rule has anything new; a plan that cannot
// cure says what it leaves. The rules put the plans in their finding data and word their advice from the
// first; the fixes apply them; the report draws them.
import type { TableHints } from '../vocabulary/config';
import { bucketPeriodSeconds, isEpochTime, profileColumn, tenantKeyColumn } from '../schema/columns';
import type { ColumnInfo, TableInfo } from '../schema/model';
import { nativeName } from '../schema/types';
import type { GrowthRate, TableWorkload } from '../schema/workload';
import { hintsWithMeasuredRates, valueText } from '../evidence';
import { freeName } from '../util/identifiers';
import { quoteName } from '../util/names';
import { formatBytes, formatCount, formatRate } from '../util/format';
import { SECONDS } from '../util/periods';
import { keyText } from '../util/statements';
import type { PartitionInputs } from './inputs';
import {
  HEADROOM,
  HORIZON_SECONDS,
  MAX_SHARDS,
  MIN_PARTITION_BYTES,
  MIN_SHARDS,
  ONE_READ_SHARDS,
  PER_TENANT_SHARDS,
  SOFT_WRITES_PER_PARTITION,
  partsToFit,
} from './limits';
import {
  changedPartitionKey,
  keepsClustering,
  type BucketGranularity,
  type BucketPlan,
  type CureMechanism,
  type PartitionPlan,
  type PlanFigures,
  type ShardPlan,
  type SplitPlan,
} from './plan';
import {
  rekeyedInputs,
  ruleVerdict,
  verdictAfter,
  verdictsBefore,
  type PartitionRule,
  type RuleOptions,
} from './rekey';
import { rowsToLimitAfter, splitOf, splitReasonLine, splitText } from './split';
import { throughputEstimates, writeKindOf } from './sizing';
import { figuresOf, rowRate, workloadOf } from './verdicts';

const SHARD_NAMES = ['shard', 'shard_id', 'shard_no', 'shard_num', 'shard_key'];

interface BucketKind {
  granularity: BucketGranularity;
  names: string[];
  type: string;
  seconds: number;
}

/** The time buckets a plan adds: their column names (the first free one), CQL type and length. */
export const BUCKETS: Record<BucketGranularity, BucketKind> = {
  minute: {
    granularity: 'minute',
    names: ['minute', 'bucket_minute', 'minute_bucket'],
    type: 'timestamp',
    seconds: SECONDS.minute,
  },
  hour: {
    granularity: 'hour',
    names: ['hour', 'bucket_hour', 'hour_bucket'],
    type: 'timestamp',
    seconds: SECONDS.hour,
  },
  day: { granularity: 'day', names: ['day', 'bucket_day', 'day_bucket'], type: 'date', seconds: SECONDS.day },
  month: {
    granularity: 'month',
    names: ['month', 'bucket_month', 'month_bucket'],
    type: 'text',
    seconds: SECONDS.month,
  },
  year: { granularity: 'year', names: ['year', 'bucket_year', 'year_bucket'], type: 'int', seconds: SECONDS.year },
};

/** Types a bucket can be computed from: they hold an instant (a uuid or a number that is an id does not). */
const TIME_TYPES = new Set(['timestamp', 'timeuuid', 'date']);

// Types murmur3 hashes reliably from a literal (not counters, floats or collections).
const HASHABLE = new Set([
  'ascii',
  'text',
  'varchar',
  'uuid',
  'timeuuid',
  'int',
  'bigint',
  'varint',
  'smallint',
  'tinyint',
  'inet',
  'timestamp',
  'date',
]);
/** A calculated shard never hashes a column hinted larger than this (free text, blobs). */
const MAX_SOURCE_BYTES = 256;

// -------------------------------------------------------------------------------------------------
// The one choice of a time bucket

export interface BucketChoice {
  granularity: BucketGranularity;
  /** Shards each bucket needs beside it (1: none). */
  shards: number;
}

/**
 * The time bucket for rows arriving at `rowsPerSecond` into one partition: the coarsest length whose
 * partitions stay under `rowsToLimit` with the headroom (the top of the window of partition sizes), so that
 * a read of a time range visits as few partitions as can be; when even the finest does not fit, the finest
 * with the shards each of its partitions needs. A shard multiplies every read, a finer bucket only the reads
 * of longer ranges: shards only where no length fits alone. Lengths: minute, hour, day, month for a
 * timestamp or timeuuid source (or the write time), month and year for a date; `finerThan` keeps those
 * shorter than an existing bucket. Undefined when no bucket is needed: partitions reach the limit past the
 * horizon (unless `force`).
 */
export function chooseBucket(
  rowsPerSecond: number,
  rowsToLimit: number | undefined,
  options: { sourceType?: string; finerThan?: number; force?: boolean } = {},
): BucketChoice | undefined {
  const lengths = (
    options.sourceType === 'date' ? (['month', 'year'] as const) : (['minute', 'hour', 'day', 'month'] as const)
  )
    .map((g) => BUCKETS[g])
    .filter((b) => options.finerThan === undefined || b.seconds < options.finerThan);
  const finest = lengths[0];
  if (!finest) return undefined;
  if (rowsToLimit === undefined || !Number.isFinite(rowsToLimit) || !(rowsPerSecond > 0)) {
    // No limit to size against: a day (a month for a date), the length most reads of a day's data want.
    const fallback = lengths.find((b) => b.granularity === (options.sourceType === 'date' ? 'month' : 'day')) ?? finest;
    return { granularity: fallback.granularity, shards: 1 };
  }
  if (!options.force && options.finerThan === undefined && rowsToLimit / rowsPerSecond > HORIZON_SECONDS)
    return undefined;
  const fitting = [...lengths].reverse().find((b) => rowsPerSecond * b.seconds * HEADROOM <= rowsToLimit);
  if (fitting) return { granularity: fitting.granularity, shards: 1 };
  return {
    granularity: finest.granularity,
    shards: clampShards(partsToFit(rowsPerSecond * finest.seconds, rowsToLimit)),
  };
}

function clampShards(n: number): number {
  return Math.min(MAX_SHARDS, Math.max(MIN_SHARDS, Math.ceil(n)));
}

// -------------------------------------------------------------------------------------------------
// What a finding asks of the plan

export interface PlanDemand {
  /** The rule the plan cures. */
  rule: PartitionRule;
  /** The rule's options (the verdict on the re-keyed table is reached under them). */
  options?: RuleOptions;
  /** The key is hot: the plan spreads it with a shard. */
  spread?: boolean;
  /** Partitions grow without bound by this time column: the plan bounds them with a bucket. */
  growth?: { timeColumn?: string };
  /** Units per second into one partition against the target's limit (partition-throughput). */
  throughput?: { unitsPerSecond: number; limit: number; unit: string };
  /** A partition measured, sampled or hinted at this many bytes / rows against the limit (large-partition). */
  size?: { bytes?: number; limitBytes?: number; rows?: number; rowsLimit?: number };
  /** A time bucket of the partition key too coarse for the rate (large-partition): refined by a finer one. */
  coarseBucket?: { column: string; seconds: number };
  /**
   * The table has no clustering column and every new item overwrites its partition's one row: the regular
   * columns that tell items apart (isbn, title), best first. One becomes a clustering column.
   */
  overwrittenBy?: string[];
  /** A time bucket already among the clustering columns: the plan moves it into the partition key. */
  moveToPartition?: string;
  /** The partition key is a status a work list is read by in whole ("every pending order"): no time bucket. */
  workList?: string;
  /** No move of a dominant column (the plans of a table after that move). */
  noSplit?: boolean;
}

/** The figures every plan of a table is sized from. */
interface Sizing {
  rate: GrowthRate;
  rowBytes: number;
  rowsToLimit?: number;
  workload: TableWorkload;
  /** The hints with the measured rates in place of the hinted ones. */
  hints: TableHints | undefined;
}

function sizingOf(inputs: PartitionInputs): Sizing {
  const workload = workloadOf(inputs);
  const rate = rowRate(inputs, workload);
  const figures = figuresOf(inputs, rate);
  return {
    rate,
    rowBytes: figures.rowBytes,
    rowsToLimit: figures.binding && Number.isFinite(figures.binding.rows) ? figures.binding.rows : undefined,
    workload,
    hints: hintsWithMeasuredRates(inputs.hints, inputs.evidence),
  };
}

/** Writes per second into one partition before the plan, and the target's per-partition write limit in the same units. */
function writeLoad(
  inputs: PartitionInputs,
  sizing: Sizing,
): { units: number; limit: number; unit: string; label: string; soft: boolean; measured: boolean } {
  const measured = sizing.hints?.writesPerSecondPerPartition !== inputs.hints?.writesPerSecondPerPartition;
  const writes = sizing.hints?.writesPerSecondPerPartition ?? sizing.rate.rowsPerSecond;
  const [estimate] = throughputEstimates(
    inputs.table,
    inputs.target,
    { ...sizing.hints, writesPerSecondPerPartition: writes, readsPerSecondPerPartition: undefined },
    inputs.udts,
    inputs.sample,
    writeKindOf(inputs.table, inputs.references),
  );
  if (estimate)
    return {
      units: estimate.unitsPerSecond,
      limit: estimate.limit,
      unit: estimate.unit,
      label: estimate.label,
      soft: false,
      measured,
    };
  return {
    units: writes,
    limit: SOFT_WRITES_PER_PARTITION,
    unit: 'writes/s',
    label: `${formatCount(SOFT_WRITES_PER_PARTITION)} writes/s per partition (cqlint's planning figure)`,
    soft: true,
    measured,
  };
}

/**
 * A size measured on the cluster with no rate beside it (one tablestats capture: no second capture, no
 * sampler, no uptime, no rate= hint): a size is not a rate, so the plan is sized at the model's default,
 * and the reasons say so, with how long the measured partition would have taken at that rate.
 */
function assumedRateReason(inputs: PartitionInputs, sizing: Sizing): string | undefined {
  if (sizing.rate.source !== 'default') return undefined;
  const largest = inputs.evidence?.maxRows ?? inputs.evidence?.maxPartitionBytes;
  if (!largest || !(sizing.rate.rowsPerSecond > 0)) return undefined;
  const rows = largest.unit === 'rows' ? largest.value : largest.value / Math.max(1, sizing.rowBytes);
  const took = rows / sizing.rate.rowsPerSecond;
  const years = took / (365 * 86_400);
  const span = years >= 1 ? `${formatCount(years)} years` : `${formatCount(took / 86_400)} days`;
  return `rate: none measured or hinted; the ${valueText(largest.value, largest.unit)} measured is a size, not a rate, so this is sized at the assumed ${formatRate(sizing.rate.rowsPerSecond)} (${sizing.rate.note.replace(/;.*$/, '')}), at which that partition took ${span} to fill${years > 1 ? ': the real rate is likely higher' : ''} (a rate= hint, a toppartitions capture, a second capture at a later date, or the node's # uptime: beside its write count gives it)`;
}

/** Where a figure came from, in a reason: " (measured)", " (hinted)", or the default's note. */
function sourceNote(rate: GrowthRate): string {
  return rate.source === 'default' ? ` (${rate.note.replace(/;.*$/, '')})` : ` (${rate.source})`;
}

/**
 * The shard count a spread needs, with the reasons: the writes into today's hot partition against the
 * per-partition write limit, and the rows one partition collects (a size demand, or one bucket's rows on a
 * key that is a time bucket alone) against the first size limit, each with the headroom; at least
 * MIN_SHARDS, at most MAX_SHARDS. `stated`: whether a stated figure (not a default) sized it.
 */
function shardCount(
  inputs: PartitionInputs,
  demand: PlanDemand,
  sizing: Sizing,
  reasons: string[],
  bucketRows = true,
): { count: number; stated: boolean; past?: number } {
  let needed = MIN_SHARDS;
  let past: number | undefined;
  const need = (n: number, why: string): void => {
    const count = Math.ceil(n);
    if (count > MAX_SHARDS) {
      past = Math.max(past ?? 0, count);
      reasons.push(
        `${why}: ${formatCount(count)} shards would be needed; ${MAX_SHARDS} is the most a read of every shard can visit`,
      );
    } else reasons.push(why);
    needed = Math.max(needed, Math.min(MAX_SHARDS, count));
  };
  let stated = !!demand.throughput || !!demand.size;
  if (demand.throughput) {
    need(
      (demand.throughput.unitsPerSecond * HEADROOM) / demand.throughput.limit,
      `throughput: ${formatCount(demand.throughput.unitsPerSecond)} ${demand.throughput.unit} into one partition against ${formatCount(demand.throughput.limit)}`,
    );
  } else {
    const load = writeLoad(inputs, sizing);
    stated ||= load.measured || inputs.hints?.writesPerSecondPerPartition !== undefined || sizing.rate.hinted;
    const amount = load.soft
      ? formatRate(load.units).replace(/rows?/, (w) => (w === 'row' ? 'write' : 'writes'))
      : `${formatCount(load.units)} ${load.unit}`;
    const from = load.measured
      ? ' (measured)'
      : inputs.hints?.writesPerSecondPerPartition !== undefined
        ? ' (hinted)'
        : sourceNote(sizing.rate);
    need((load.units * HEADROOM) / load.limit, `writes: ${amount}${from} into one partition against ${load.label}`);
  }
  if (demand.size) {
    const { bytes, limitBytes, rows, rowsLimit } = demand.size;
    if (bytes !== undefined && limitBytes)
      need(
        (bytes * HEADROOM) / limitBytes,
        `size: ${formatBytes(bytes)} per partition against ${formatBytes(limitBytes)}`,
      );
    if (rows !== undefined && rowsLimit)
      need(
        (rows * HEADROOM) / rowsLimit,
        `size: ${formatCount(rows)} rows per partition against ${formatCount(rowsLimit)}`,
      );
  }
  // A time bucket alone in the key: one bucket's rows share one partition. Counters add no row per event,
  // and without clustering columns a partition is one row, overwritten.
  const bucketColumn =
    sizing.workload.keyShape === 'time-bucket'
      ? inputs.table.partitionKey.find((c) => bucketPeriodSeconds(c) !== undefined)
      : undefined;
  const seconds = bucketColumn && bucketPeriodSeconds(bucketColumn);
  if (bucketRows && seconds && sizing.rowsToLimit && !sizing.workload.perEventCells && inputs.table.clustering.length) {
    const rows = sizing.rate.rowsPerSecond * seconds;
    need(
      (rows * HEADROOM) / sizing.rowsToLimit,
      `size: ${formatRate(sizing.rate.rowsPerSecond)}${sourceNote(sizing.rate)} × one ${bucketColumn.name} = ${formatCount(rows)} rows, the first limit at ${formatCount(sizing.rowsToLimit)} rows`,
    );
  }
  return { count: needed, stated, ...(past !== undefined ? { past } : {}) };
}

/**
 * The column a bucket is computed from: one that holds an instant, never an id. A timestamp, timeuuid or
 * date (the one named, else a clustering one), else the named column when it is an epoch number the model
 * reads as a time (`created_at bigint`, written with toUnixTimestamp(now())), else a regular time column;
 * none (the bucket of the write time) when the table has no time: a uuid or a bigint id has no time in it.
 */
export function bucketSource(table: TableInfo, timeColumn?: string): ColumnInfo | undefined {
  const isTime = (c: ColumnInfo): boolean => TIME_TYPES.has(nativeName(c.type) ?? '');
  const isEpoch = (c: ColumnInfo): boolean => isEpochTime(c, table);
  const named = timeColumn !== undefined ? table.columns.find((c) => c.name === timeColumn) : undefined;
  if (named && isTime(named)) return named;
  return (
    table.clustering.find(isTime) ??
    (named && isEpoch(named) ? named : undefined) ??
    table.columns.find((c) => c.role === 'regular' && isTime(c) && profileColumn(c, table).nature === 'instant')
  );
}

/** Of the columns that tell items apart, the one the workspace's statements pin most, else the first hashable one. */
function itemColumn(inputs: PartitionInputs, names: readonly string[]): ColumnInfo | undefined {
  const columns = names
    .map((n) => inputs.table.columns.find((c) => c.name === n && c.role === 'regular'))
    .filter((c): c is ColumnInfo => !!c && HASHABLE.has(nativeName(c.type) ?? ''));
  const pinned = (c: ColumnInfo): number =>
    inputs.references.filter((r) => r.kind !== 'Insert' && r.pinned.includes(c.name)).length;
  return [...columns].sort((a, b) => pinned(b) - pinned(a))[0];
}

/**
 * Columns a calculated shard can hash, best first: clustering columns (every write and point read names
 * them, and they are keys, not free text) of a hashable type, never one hinted larger than MAX_SOURCE_BYTES;
 * the ones the workspace's statements pin by value first (most pinned first), then identifiers, then key order.
 */
export function shardSources(inputs: Pick<PartitionInputs, 'table' | 'hints' | 'references'>): ColumnInfo[] {
  const pins = new Map<string, number>();
  const pk = inputs.table.partitionKey.map((c) => c.name);
  for (const r of inputs.references) {
    if (r.kind === 'Insert' || !pk.every((c) => r.pinned.includes(c))) continue;
    for (const c of r.pinned) pins.set(c, (pins.get(c) ?? 0) + 1);
  }
  const suitable = inputs.table.clustering.filter((c) => {
    const type = nativeName(c.type);
    if (!type || !HASHABLE.has(type)) return false;
    const hinted = inputs.hints?.columnSizes?.[c.name];
    return hinted === undefined || hinted <= MAX_SOURCE_BYTES;
  });
  // Identifiers spread best and are what point reads know; instants last (reads rarely know the exact time).
  const rank = (c: ColumnInfo): number => {
    const nature = profileColumn(c, inputs.table).nature;
    return nature === 'identifier' ? 0 : nature === 'instant' ? 2 : 1;
  };
  return suitable
    .map((c, i) => ({ c, i, pins: pins.get(c.name) ?? 0, rank: rank(c) }))
    .sort((a, b) => b.pins - a.pins || a.rank - b.rank || a.i - b.i)
    .map((x) => x.c);
}

/** Whether the workspace pins single rows by `column` (point reads, updates, deletes). */
function pinnedByReads(inputs: PartitionInputs, column: string): boolean {
  const pk = inputs.table.partitionKey.map((c) => c.name);
  return inputs.references.some(
    (r) => r.kind !== 'Insert' && pk.every((c) => r.pinned.includes(c)) && r.pinned.includes(column),
  );
}

/** Reads of whole partitions (the key pinned, no row column): they visit every shard whatever it hashes. */
function readsWholePartitions(inputs: PartitionInputs): boolean {
  const pk = inputs.table.partitionKey.map((c) => c.name);
  const rows = inputs.table.clustering.map((c) => c.name);
  return inputs.references.some(
    (r) => r.kind === 'Select' && pk.every((c) => r.pinned.includes(c)) && !rows.some((c) => r.pinned.includes(c)),
  );
}

/** The shards of a spread, in the order they suit the workspace's reads (see partitionPlans). */
function shardChoices(inputs: PartitionInputs, column: string, count: number): ShardPlan[] {
  const calculated = shardSources(inputs).map((source): ShardPlan => ({
    column,
    method: 'murmur3',
    sources: [source.name],
    count,
    offset: 1,
  }));
  const random: ShardPlan = { column, method: 'random', sources: [], count, offset: 1 };
  const first = calculated[0];
  // A counter split over random shards must be summed on every read: hash its own key instead.
  if (inputs.table.counter) return calculated.length ? calculated : [random];
  if (first && pinnedByReads(inputs, first.sources[0]!)) return [...calculated, random];
  if (
    readsWholePartitions(inputs) ||
    !first ||
    profileColumn(
      inputs.table.clustering.find((c) => c.name === first.sources[0])!,
      inputs.table,
    ).nature !== 'identifier'
  )
    return [random, ...calculated];
  return [...calculated, random];
}

/** A bucket of `granularity` named as the fixes name it (the first of `day`, `bucket_day` ... the table does not have). */
function bucketOf(
  table: TableInfo,
  granularity: BucketGranularity,
  source: ColumnInfo | undefined,
  taken: readonly string[],
  refines?: BucketPlan['refines'],
): BucketPlan {
  const kind = BUCKETS[granularity];
  return {
    column: freeName(kind.names, taken),
    granularity,
    type: kind.type,
    ...(source ? { source: source.name, sourceType: nativeName(source.type) } : {}),
    ...(refines ? { refines } : {}),
  };
}

/**
 * A plan of the given shape for a table, with the shard and bucket columns named as the fixes name them
 * (the first of `shard`, `shard_id` ... and of `day`, `bucket_day` ... the table does not have). Its
 * verdict is not judged: for tests that apply a shape to every table.
 */
export function namedPlan(
  table: TableInfo,
  shape: {
    shard?: Omit<ShardPlan, 'column'>;
    bucket?: { granularity: BucketGranularity; source?: string };
    clustering?: string[];
  },
): PartitionPlan {
  const taken = table.columns.map((c) => c.name);
  const source = shape.bucket?.source ? table.columns.find((c) => c.name === shape.bucket!.source) : undefined;
  const bucket = shape.bucket && bucketOf(table, shape.bucket.granularity, source, taken);
  const shard = shape.shard && {
    ...shape.shard,
    column: freeName(SHARD_NAMES, [...taken, ...(bucket ? [bucket.column] : [])]),
  };
  return {
    table: table.qualifiedName,
    mechanism: mechanismOf(shard, bucket),
    cures: false,
    ...(shard ? { shard } : {}),
    ...(bucket ? { bucket } : {}),
    ...(shape.clustering?.length ? { clustering: shape.clustering } : {}),
  };
}

function mechanismOf(
  shard: ShardPlan | undefined,
  bucket: BucketPlan | undefined,
  clustering?: readonly string[],
): CureMechanism {
  if (clustering?.length) return 'clustering';
  if (bucket?.refines) return 'finer-bucket';
  if (bucket?.replaces) return 'coarser-bucket';
  return shard && bucket ? 'shard-and-bucket' : shard ? 'shard' : 'bucket';
}

/** A plan candidate before it is judged. */
type Candidate = Omit<PartitionPlan, 'cures' | 'leaves'>;

/**
 * The cures of a finding, the preferred one first: candidates for what the finding asks, each judged on the
 * table it makes (rekey.ts verdictAfter). The plans that cure come first, in the order they suit the
 * workspace; the others follow, each saying what it leaves.
 */
export function partitionPlans(inputs: PartitionInputs, demand: PlanDemand): PartitionPlan[] {
  // A view's key follows its base table's: its cures are those of a table of the same name and key, which
  // the application writes beside the base table in its place.
  // The table keeps the view's clustering columns (keepsClustering): a plan that moves or adds one is no
  // cure the fix could write, and listed first it left the finding without a preferred fix.
  const view =
    inputs.table.kind === 'view' ? { replacesView: { base: inputs.table.baseTable ?? 'its base table' } } : undefined;
  const candidates = candidatePlans(inputs, demand)
    .filter((c) => !view || keepsClustering(c))
    .map((c) => ({ ...c, ...view }));
  const split = demand.rule === 'large-partition' && !demand.noSplit ? splitOf(inputs) : undefined;
  if (!candidates.length && !split) return [];
  const before = verdictsBefore(inputs, demand.options);
  // Plans that re-key alike (a shard calculated from one column or another) get one verdict: what a shard
  // hashes changes no rule's verdict, only whether it is random (random shards divide no reads= hint).
  const verdicts = new Map<string, { cures: boolean; leaves?: string }>();
  const judged = candidates.map((c): PartitionPlan => {
    const key = JSON.stringify([
      c.shard && [c.shard.count, c.shard.method === 'random'],
      c.bucket,
      c.clustering,
      c.moveToPartition,
      c.split?.column,
    ]);
    let verdict = verdicts.get(key);
    if (!verdict) verdicts.set(key, (verdict = verdictAfter(inputs, c, demand.rule, demand.options, before)));
    return { ...c, ...verdict };
  });
  const cures = judged.filter((p) => p.cures);
  const rest = judged.filter((p) => !p.cures);
  const moved = split && splitPlan(inputs, demand, split, before);
  // The move first when it cures alone: the key, the statements' partitions and every listing stay as they
  // are (a read of the column is one read by id more); else last, saying what the rest still needs.
  if (!moved) return [...cures, ...rest];
  return moved.cures ? [moved, ...cures, ...rest] : [...cures, ...rest, moved];
}

/**
 * The move of a dominant column to a table of its own, judged as the other plans are (the table without the
 * column, by the rule's verdict); one that does not cure alone says what the rest of the table still needs:
 * the first plan for the table after the move, sized at its lighter rows.
 */
function splitPlan(
  inputs: PartitionInputs,
  demand: PlanDemand,
  split: SplitPlan,
  before: ReturnType<typeof verdictsBefore>,
): PartitionPlan {
  const sizing = sizingOf(inputs);
  const limit = rowsToLimitAfter(inputs, split, sizing.rate);
  const candidate: Candidate = {
    table: inputs.table.qualifiedName,
    mechanism: 'split-column',
    split,
    figures: {
      rowsPerSecond: sizing.rate.rowsPerSecond,
      rateSource: sizing.rate.source,
      rateNote: sizing.rate.note,
      rowBytes: split.rowBytesAfter,
      rowsPerSecondAfter: sizing.rate.rowsPerSecond,
      ...(limit !== undefined ? { rowsToLimit: limit } : {}),
      reasons: [
        `split: ${splitText(split)}${limit !== undefined ? `, the first limit at ${formatCount(limit)} rows` : ''}`,
      ],
      stated: true,
    },
  };
  const verdict = verdictAfter(inputs, candidate, demand.rule, demand.options, before);
  if (verdict.cures) return { ...candidate, cures: true };
  // What the table still needs after the move: its plans at the lighter row (a size stated in bytes is
  // counted in rows of the original, against the limit after the move).
  const after = rekeyedInputs(inputs, candidate);
  const size = demand.size;
  const rows =
    size && (size.rows ?? (size.bytes !== undefined ? size.bytes / Math.max(1, sizing.rowBytes) : undefined));
  const next = partitionPlans(after, {
    ...demand,
    noSplit: true,
    ...(size ? { size: rows !== undefined && limit !== undefined ? { rows, rowsLimit: limit } : undefined } : {}),
  })[0];
  if (!next) return { ...candidate, cures: false, ...(verdict.leaves ? { leaves: verdict.leaves } : {}) };
  const then = planText(next);
  const sized =
    next.figures?.reasons.find((r) => /^(size|bucket|writes|throughput): /.test(r)) ?? 'sized after the move';
  const reasons = [...candidate.figures!.reasons, `then: ${then} (${sized})`];
  return {
    ...candidate,
    split: { ...split, then },
    figures: { ...candidate.figures!, reasons },
    cures: false,
    leaves: `then ${then} is still needed`,
  };
}

function candidatePlans(inputs: PartitionInputs, demand: PlanDemand): Candidate[] {
  const { table } = inputs;
  if (table.partitionKey.length === 0) return [];
  const moved = demand.moveToPartition;
  // Moving a clustering bucket into the key: statements that pin it keep working, the others bind it; a
  // range over it (months 1 to 3) cannot restrict a partition key, so then the plan adds a bucket of its own.
  if (
    moved &&
    table.clustering.some((c) => c.name === moved) &&
    !inputs.references.some((r) => r.ranged.includes(moved))
  ) {
    const { moveToPartition: _, ...rest } = demand;
    return [
      { table: table.qualifiedName, mechanism: 'move-bucket', moveToPartition: [moved] },
      ...candidatePlans(inputs, rest),
    ];
  }
  const sizing = sizingOf(inputs);
  const taken = table.columns.map((c) => c.name);
  const reasons: string[] = [];
  const assumed = assumedRateReason(inputs, sizing);
  if (assumed) reasons.push(assumed);
  const limitText =
    sizing.rowsToLimit !== undefined ? `, the first limit at ${formatCount(sizing.rowsToLimit)} rows` : '';
  const figures = (shards: number, bucket: BucketPlan | undefined, lines: string[], stated: boolean): PlanFigures => {
    const after = sizing.rate.rowsPerSecond / shards;
    return {
      rowsPerSecond: sizing.rate.rowsPerSecond,
      rateSource: sizing.rate.source,
      rateNote: sizing.rate.note,
      rowBytes: sizing.rowBytes,
      rowsPerSecondAfter: after,
      ...(bucket ? { rowsPerPartitionAfter: after * BUCKETS[bucket.granularity].seconds } : {}),
      ...(sizing.rowsToLimit !== undefined ? { rowsToLimit: sizing.rowsToLimit } : {}),
      reasons: lines,
      stated,
    };
  };
  const bucketReason = (bucket: BucketPlan, shards: number, note = ''): string =>
    `bucket: ${formatRate(sizing.rate.rowsPerSecond / shards)}${shards > 1 ? ` per shard` : sourceNote(sizing.rate)} × one ${bucket.granularity} = ${formatCount((sizing.rate.rowsPerSecond / shards) * BUCKETS[bucket.granularity].seconds)} rows${limitText}${note}`;

  // A bucket too coarse for the rate: a finer bucket beside it (the coarse one stays, so its writers keep
  // working), with shards when even the finest does not fit; or shards of each coarse bucket.
  if (demand.coarseBucket) {
    const coarse = demand.coarseBucket;
    const sizeShards = partsToFit(sizing.rate.rowsPerSecond * coarse.seconds, sizing.rowsToLimit ?? Infinity);
    const shardLines = [
      `size: ${formatRate(sizing.rate.rowsPerSecond)}${sourceNote(sizing.rate)} × one ${coarse.column} = ${formatCount(sizing.rate.rowsPerSecond * coarse.seconds)} rows${limitText}: ${sizeShards > MAX_SHARDS ? `${formatCount(sizeShards)} shards would be needed; ${MAX_SHARDS} is the most a read of every shard can visit` : `${sizeShards} shards`}`,
      `a read of one ${coarse.column} visits every shard`,
    ];
    const count = clampShards(sizeShards);
    const shards = shardChoices(inputs, freeName(SHARD_NAMES, taken), count)
      .slice(0, 2)
      .map((shard): Candidate => ({
        table: table.qualifiedName,
        mechanism: 'shard',
        shard,
        figures: figures(count, undefined, shardLines, true),
      }));
    return orderRefined(inputs, refinedPlan(inputs, sizing, coarse, 1, []), shards, sizeShards);
  }

  let count: number | undefined;
  let stated = true;
  const refined: Candidate[] = [];
  let sizeShards = 0;
  if (demand.spread || demand.throughput || demand.size) {
    const spread = shardCount(inputs, demand, sizing, reasons);
    count = spread.count;
    stated = spread.stated;
    const split = demand.size && splitReason(inputs, sizing, demand.size, count);
    if (split) reasons.push(split);
    // A key that is a time bucket alone (a day): when one bucket's rows need more shards than its writes do,
    // a finer bucket beside it with the writes' shards is offered too, and preferred where it makes fewer
    // partitions to read (a day at 2,000 rows/s: a minute bucket and 4 shards, not 2,592 shards).
    const coarse = timeBucketKey(inputs, sizing);
    if (coarse && !demand.growth) {
      const writeReasons: string[] = [];
      const writes = shardCount(inputs, demand, sizing, writeReasons, false);
      if (writes.count < count || spread.past !== undefined) {
        const refine = refinedPlan(inputs, sizing, coarse, writes.count, writeReasons);
        if (refine) {
          refined.push(refine);
          sizeShards = spread.past ?? count;
        }
      }
    }
  }

  // Growth: the bucket, at the rate one partition takes after the shards (if any). A work list read whole
  // gets none: its rows leave the status partition when their status moves on.
  let bucket: BucketPlan | undefined;
  const growth = demand.growth;
  let alternatives: BucketGranularity[] = [];
  if (growth && demand.workList && count !== undefined) {
    reasons.push(
      `no time bucket: ${demand.workList} is read as a whole work list ("every pending one"), and a bucket would put an old item as many queries away as buckets have passed; rows leave a ${demand.workList} partition when it moves on`,
    );
  } else if (growth) {
    const source = bucketSource(table, growth.timeColumn);
    const sourceType = nativeName(source?.type);
    // With shards, a bucket only when the rows of one shard still reach a limit within the horizon.
    const choice = chooseBucket(sizing.rate.rowsPerSecond / (count ?? 1), sizing.rowsToLimit, {
      sourceType,
      force: count === undefined,
    });
    if (!choice) {
      reasons.push(
        `no time bucket: at ${formatRate(sizing.rate.rowsPerSecond / count!)} per shard a partition reaches no limit within ${formatCount(HORIZON_SECONDS / (365 * 86_400))} years`,
      );
    } else {
      if (choice.shards > 1) {
        count = Math.max(count ?? 0, choice.shards);
        reasons.push(
          `size: ${formatCount(sizing.rate.rowsPerSecond * BUCKETS[choice.granularity].seconds)} rows a ${choice.granularity}${limitText}: ${choice.shards} shards`,
        );
      }
      bucket = bucketOf(table, choice.granularity, source, taken);
      reasons.push(bucketReason(bucket, count ?? 1));
    }
    if (count === undefined && choice) {
      // The finer lengths, for those who read short ranges: smaller partitions, more of them to read.
      const order: BucketGranularity[] = sourceType === 'date' ? ['year', 'month'] : ['month', 'day', 'hour'];
      const at = order.indexOf(choice.granularity);
      // Over-partitioning is as wrong as a bucket too coarse: only lengths whose partitions stay in the window
      // (at least MIN_PARTITION_BYTES) are offered.
      const inWindow = (g: BucketGranularity): boolean =>
        sizing.rate.rowsPerSecond * BUCKETS[g].seconds * sizing.rowBytes >= MIN_PARTITION_BYTES;
      alternatives = at < 0 || choice.shards > 1 ? [] : order.slice(at + 1).filter(inWindow);
    }
  }

  const shardColumn = freeName(SHARD_NAMES, [...taken, ...(bucket ? [bucket.column] : [])]);
  const plan = (shard?: ShardPlan, extra: Partial<Candidate> = {}): Candidate => ({
    table: table.qualifiedName,
    mechanism: mechanismOf(shard, bucket, extra.clustering),
    ...(shard ? { shard } : {}),
    ...(bucket ? { bucket } : {}),
    ...extra,
    figures: figures(shard?.count ?? 1, bucket, reasons, stated || !shard),
  });

  if (count === undefined) {
    if (!bucket) return [];
    const preferred = plan();
    return [
      preferred,
      ...alternatives.map((g): Candidate => {
        const finer: BucketPlan = {
          ...bucket!,
          ...bucketOf(
            table,
            g,
            bucket!.source ? table.columns.find((c) => c.name === bucket!.source) : undefined,
            taken,
          ),
        };
        const lines = reasons.map((r) =>
          r.startsWith('bucket: ')
            ? `${bucketReason(finer, 1)} (a finer bucket than needed: more partitions to read)`
            : r,
        );
        return { ...preferred, bucket: finer, figures: figures(1, finer, lines, true) };
      }),
    ];
  }

  // Items overwrote the partition's one row: one of theirs becomes a clustering column, and the shard, computed
  // from it, finds each item's row (a random one only spreads, and every read by item visits each shard).
  const item = table.clustering.length ? undefined : itemColumn(inputs, demand.overwrittenBy ?? []);
  if (item) {
    const clustering = [item.name];
    const byItem: ShardPlan = { column: shardColumn, method: 'murmur3', sources: [item.name], count, offset: 1 };
    return [
      plan(byItem, { clustering }),
      plan({ column: shardColumn, method: 'random', sources: [], count, offset: 1 }, { clustering }),
    ];
  }
  const shards = shardChoices(inputs, shardColumn, count)
    .slice(0, 4)
    .map((shard) => plan(shard));
  const tenant = tenantShards(inputs, shardColumn, count, reasons);
  if (tenant) {
    // Each tenant's own count, first when one count for all is many reads for most tenants (see tenantShards).
    const perTenant: Candidate = {
      ...plan(tenant.shard, { mechanism: 'tenant-shard' }),
      figures: figures(count, bucket, tenant.reasons, stated),
    };
    const uniform = shards.map((s) => ({
      ...s,
      figures: { ...s.figures!, reasons: [...s.figures!.reasons, tenant.uniform] },
    }));
    return tenant.preferred ? [perTenant, ...uniform] : [...uniform, perTenant];
  }
  // A hot key's finer bucket is offered where it is the better cure (it comes first); the shards cure the
  // heat either way, and a light bulb of every alternative costs a workspace summary each.
  const ordered = refined.length ? orderRefined(inputs, refined[0], shards, sizeShards) : shards;
  return ordered[0] === refined[0] ? ordered : shards;
}

/**
 * A partition too large because one column (a body, a blob, a collection) dominates its rows: the shards it
 * needs with that column moved to a table of its own read by id (partition/split.ts), in words, for the
 * plans' reasons; undefined when no column dominates or moving it changes no count. The move itself is a
 * plan of its own (splitPlan).
 */
function splitReason(
  inputs: PartitionInputs,
  sizing: Sizing,
  size: NonNullable<PlanDemand['size']>,
  shards: number,
): string | undefined {
  const split = splitOf(inputs);
  if (!split) return undefined;
  const rows = size.rows ?? (size.bytes !== undefined ? size.bytes / Math.max(1, sizing.rowBytes) : undefined);
  if (rows === undefined) return undefined;
  const limit = rowsToLimitAfter(inputs, split, sizing.rate);
  const needed = limit === undefined ? 1 : partsToFit(rows, limit);
  if (needed >= shards) return undefined;
  return splitReasonLine(split, limit, needed, shards);
}

/**
 * A table keyed by tenant (tenantKeyColumn) is sized by its largest tenant: the figures are of the busiest
 * partition. A shard count the application picks per tenant, kept in a small table `<table>_shards (tenant,
 * shards int)` that is read first, spreads the large tenants and leaves each small one in one partition;
 * one count for all makes every tenant's listing read `count` partitions. Preferred from
 * PER_TENANT_SHARDS shards up (fewer: the uniform count costs little, and the extra read is saved).
 */
function tenantShards(
  inputs: PartitionInputs,
  column: string,
  count: number,
  reasons: readonly string[],
): { shard: ShardPlan; reasons: string[]; uniform: string; preferred: boolean } | undefined {
  const { table } = inputs;
  const tenant = tenantKeyColumn(table);
  if (!tenant || table.kind !== 'table' || table.counter || count < MIN_SHARDS) return undefined;
  const counts = `${table.keyspace ? `${table.keyspace}.` : ''}${table.name}_shards`;
  const preferred = count >= PER_TENANT_SHARDS;
  const name = quoteName(tenant.name);
  return {
    shard: {
      column,
      method: 'random',
      sources: [],
      count,
      offset: 1,
      perTenant: { column: tenant.name, table: counts },
    },
    reasons: [
      ...reasons,
      `per ${name}: the figures are those of the largest ${name}'s partition, which needs ${count} shards; the application gives each ${name} the shards its rows need (1 for a small one, at most ${count}) and keeps the count in ${counts}, read before each write and read${preferred ? `: a small ${name}'s listing stays one partition, not ${count}` : ''}`,
    ],
    uniform: `every ${name} gets ${count} shards: a small ${name}'s listing reads ${count} partitions for rows that fit in one${preferred ? ` (a count per ${name} is preferred from ${PER_TENANT_SHARDS} shards up)` : ''}`,
    preferred,
  };
}

/**
 * A finer bucket beside a coarse one of the key, sized at the rate each of `shards` takes (more shards when
 * even the finest does not fit); undefined when no finer length exists.
 */
function refinedPlan(
  inputs: PartitionInputs,
  sizing: Sizing,
  coarse: { column: string; seconds: number },
  shards: number,
  reasons: readonly string[],
): Candidate | undefined {
  const { table } = inputs;
  const taken = table.columns.map((c) => c.name);
  const source = bucketSource(table);
  const choice = chooseBucket(sizing.rate.rowsPerSecond / shards, sizing.rowsToLimit, {
    sourceType: nativeName(source?.type),
    finerThan: coarse.seconds,
  });
  if (!choice) return undefined;
  const count = shards > 1 || choice.shards > 1 ? clampShards(shards * choice.shards) : 1;
  const bucket = bucketOf(table, choice.granularity, source, taken, { column: coarse.column, seconds: coarse.seconds });
  const perPartition = sizing.rate.rowsPerSecond / count;
  const lines = [
    ...reasons,
    `bucket: ${formatRate(perPartition)} per partition × one ${choice.granularity} = ${formatCount(perPartition * BUCKETS[choice.granularity].seconds)} rows${sizing.rowsToLimit !== undefined ? `, the first limit at ${formatCount(sizing.rowsToLimit)} rows` : ''} (${coarse.column} stays in the key: each of its values now spans ${formatCount(Math.round(coarse.seconds / BUCKETS[choice.granularity].seconds))} ${choice.granularity} partitions${count > 1 ? ` of ${count} shards` : ''})`,
    ...(choice.shards > 1 ? [`shards: ${count}, so that one ${choice.granularity}'s rows fit`] : []),
  ];
  const shard =
    count > 1 ? shardChoices(inputs, freeName(SHARD_NAMES, [...taken, bucket.column]), count)[0] : undefined;
  return {
    table: table.qualifiedName,
    mechanism: 'finer-bucket',
    ...(shard ? { shard } : {}),
    bucket,
    figures: {
      rowsPerSecond: sizing.rate.rowsPerSecond,
      rateSource: sizing.rate.source,
      rateNote: sizing.rate.note,
      rowBytes: sizing.rowBytes,
      rowsPerSecondAfter: perPartition,
      rowsPerPartitionAfter: perPartition * BUCKETS[choice.granularity].seconds,
      ...(sizing.rowsToLimit !== undefined ? { rowsToLimit: sizing.rowsToLimit } : {}),
      reasons: lines,
      stated: true,
    },
  };
}

/** Types a bucket column of the key holds an instant in, from which a coarser bucket's value is computed. */
const KEY_TIME_TYPES = new Set(['timestamp', 'date']);

/** What over-partitioned-read's cure was sized from: the rule's rate, row size and limit, and its read. */
export interface CoarserDemand {
  rowsPerSecond: number;
  rateSource: PlanFigures['rateSource'];
  rateNote: string;
  rowBytes: number;
  rowsToLimit: number | undefined;
  /** Partitions the reported read visits with the table's bucket, with the coarser one, and the most a read may visit. */
  readsBefore: number;
  readsAfter: number;
  maxPartitions: number;
  options?: RuleOptions;
}

/**
 * over-partitioned-read's cure: the bucket the planner chose for the rate (`choice`, the rule's one
 * chooseBucket) in place of the finer bucket column of the key, which leaves the key and stays a regular
 * column (BucketPlan.replaces). Judged on the re-keyed table: it cures when the read visits no more than
 * `maxPartitions` and no partition rule says what it did not before (a coarser bucket is sized under the
 * limit, so large-partition has nothing new). Returns why there is none: a bucket column that holds no time
 * (a text or int bucket: no statement's value of it can be read as an instant), a shard the length needs, or a
 * materialized view (its key follows its base table's).
 */
export function coarserBucketPlan(
  inputs: PartitionInputs,
  fine: ColumnInfo,
  choice: BucketChoice,
  demand: CoarserDemand,
): { plan: PartitionPlan } | { none: string } {
  const { table } = inputs;
  const fineType = nativeName(fine.type);
  const fineSeconds = bucketPeriodSeconds(fine);
  if (table.kind === 'view')
    return { none: "a view's key follows its base table's: the base table's bucket is the one to change" };
  if (!fineType || !KEY_TIME_TYPES.has(fineType) || fineSeconds === undefined)
    return {
      none: `${quoteName(fine.name)} is ${fine.typeText}, not a time: no statement's value of it can be read as an instant, so the coarser bucket's values cannot be computed from it`,
    };
  if (choice.shards > 1) return { none: `even a ${choice.granularity} needs ${choice.shards} shards at this rate` };
  const taken = table.columns.map((c) => c.name);
  const source = bucketSource(table) ?? fine;
  const bucket: BucketPlan = {
    ...bucketOf(table, choice.granularity, source, taken),
    replaces: { column: fine.name, seconds: fineSeconds },
  };
  const rows = demand.rowsPerSecond * BUCKETS[choice.granularity].seconds;
  const candidate: Candidate = {
    table: table.qualifiedName,
    mechanism: 'coarser-bucket',
    bucket,
    figures: {
      rowsPerSecond: demand.rowsPerSecond,
      rateSource: demand.rateSource,
      rateNote: demand.rateNote,
      rowBytes: demand.rowBytes,
      rowsPerSecondAfter: demand.rowsPerSecond,
      rowsPerPartitionAfter: rows,
      ...(demand.rowsToLimit !== undefined ? { rowsToLimit: demand.rowsToLimit } : {}),
      reasons: [
        `bucket: ${formatRate(demand.rowsPerSecond)} × one ${choice.granularity} = ${formatCount(rows)} rows ≈ ${formatBytes(rows * demand.rowBytes)}${demand.rowsToLimit !== undefined ? `, the first limit at ${formatCount(demand.rowsToLimit)} rows` : ''} (the coarsest length under it with the headroom)`,
        `${fine.name} leaves the partition key and stays a column, so that its writers keep working: the read visits ${formatCount(demand.readsAfter)} partition${demand.readsAfter === 1 ? '' : 's'}, not ${formatCount(demand.readsBefore)}`,
      ],
      stated: true,
    },
  };
  if (demand.readsAfter > demand.maxPartitions)
    return {
      plan: {
        ...candidate,
        cures: false,
        leaves: `the read still visits ${formatCount(demand.readsAfter)} partitions`,
      },
    };
  const before = verdictsBefore(inputs, demand.options);
  const after = rekeyedInputs(inputs, candidate);
  const added = (['large-partition', 'unbounded-partition'] as const)
    .map((r) => [r, !before(r) && ruleVerdict(after, r, demand.options)] as const)
    .filter(([, v]) => v);
  return {
    plan: added.length
      ? { ...candidate, cures: false, leaves: added.map(([r, v]) => `${r}: ${v}`).join('; ') }
      : { ...candidate, cures: true },
  };
}

/**
 * The finer bucket first, or the shards of each coarse bucket first: the finer bucket when the shards would
 * be more than one read lists (ONE_READ_SHARDS) or more than a read can visit, or when the workspace reads
 * ranges of the time the bucket is computed from (a range read visits one finer bucket, and every shard);
 * the shards when reads take whole coarse buckets, which the finer bucket splits into many partitions.
 */
function orderRefined(
  inputs: PartitionInputs,
  refine: Candidate | undefined,
  shards: Candidate[],
  sizeShards: number,
): Candidate[] {
  if (!refine) return shards;
  const source = refine.bucket?.source;
  const ranged =
    source !== undefined && inputs.references.some((r) => r.kind === 'Select' && r.ranged.includes(source));
  return sizeShards > ONE_READ_SHARDS || ranged ? [refine, ...shards] : [...shards, refine];
}

/** The time bucket a key that is one alone (`publish_date`) splits by, with its length. */
function timeBucketKey(inputs: PartitionInputs, sizing: Sizing): { column: string; seconds: number } | undefined {
  if (sizing.workload.keyShape !== 'time-bucket' || !inputs.table.clustering.length || sizing.workload.perEventCells)
    return undefined;
  for (const c of inputs.table.partitionKey) {
    const seconds = bucketPeriodSeconds(c);
    if (seconds !== undefined) return { column: c.name, seconds };
  }
  return undefined;
}

/** The `cqlint.shardCount` setting in place of a shard count the defaults alone sized (PlanFigures.stated). */
export function withShardCountSetting(plan: PartitionPlan, setting: number | undefined): PartitionPlan {
  if (setting === undefined || !plan.shard || plan.figures?.stated !== false || plan.shard.count === setting)
    return plan;
  const reasons = [
    ...plan.figures.reasons,
    `cqlint.shardCount: ${setting} (the workload is not stated; the defaults would give ${plan.shard.count})`,
  ];
  return {
    ...plan,
    shard: { ...plan.shard, count: setting },
    figures: { ...plan.figures, reasons, rowsPerSecondAfter: plan.figures.rowsPerSecond / setting },
  };
}

// -------------------------------------------------------------------------------------------------
// A plan in words (the rules' advice, the fixes' titles, the report)

const PERIOD_TEXT: Record<BucketGranularity, string> = {
  minute: 'minute-by-minute',
  hour: 'hourly',
  day: 'daily',
  month: 'monthly',
  year: 'yearly',
};

/** "a calculated shard column from title (4 shards) and a time bucket day date (daily partitions by ts)". */
export function planText(plan: PartitionPlan): string {
  if (plan.split) return `${quoteName(plan.split.column)} moved to a table of its own, ${plan.split.table}, read by id`;
  const parts: string[] = [];
  if (plan.shard) {
    const shards = `${plan.shard.count} shard${plan.shard.count === 1 ? '' : 's'}`;
    parts.push(
      plan.shard.perTenant
        ? `a shard column counted per ${quoteName(plan.shard.perTenant.column)} (1 to ${plan.shard.count} shards, the count kept in ${plan.shard.perTenant.table})`
        : plan.shard.method === 'random'
          ? `a random shard column (${shards})`
          : `a calculated shard column from ${plan.shard.sources.map(quoteName).join(', ')} (${shards})`,
    );
  }
  if (plan.bucket) {
    const by = plan.bucket.source ? ` by ${quoteName(plan.bucket.source)}` : '';
    const beside = plan.bucket.refines
      ? ` beside ${quoteName(plan.bucket.refines.column)}`
      : plan.bucket.replaces
        ? ` in place of ${quoteName(plan.bucket.replaces.column)}`
        : '';
    parts.push(
      `a time bucket ${quoteName(plan.bucket.column)} ${plan.bucket.type} (${PERIOD_TEXT[plan.bucket.granularity]} partitions${by}${beside})`,
    );
  }
  if (plan.moveToPartition?.length)
    parts.unshift(`${plan.moveToPartition.map(quoteName).join(', ')} moved into the partition key`);
  const text = parts.join(' and ');
  if (!plan.clustering?.length) return text;
  // "isbn as a clustering column, and a calculated shard column from isbn (2 shards)"
  const clustering = `${plan.clustering.map(quoteName).join(', ')} as ${plan.clustering.length === 1 ? 'a clustering column' : 'clustering columns'}`;
  return text ? `${clustering}, and ${text}` : clustering;
}

/** The primary key a plan gives the table, as CQL writes it: `((sensor_id, day, shard), ts)`. */
export function plannedKeyText(table: TableInfo, plan: PartitionPlan): string {
  const moved = plan.moveToPartition ?? [];
  const partition = changedPartitionKey(
    table.partitionKey.map((c) => c.name),
    plan,
  );
  const clustering = [
    ...table.clustering.map((c) => c.name).filter((c) => !moved.includes(c)),
    ...(plan.clustering ?? []),
  ];
  return keyText(partition, clustering);
}

/**
 * The plan as the rules advise it: "Add a time bucket `day` date (daily partitions by ts) to the partition
 * key ((sensor_id, day), ts)"; a plan that does not cure says what it leaves.
 */
export function cureAdvice(table: TableInfo, plan: PartitionPlan): string {
  if (plan.split) {
    const move = `Move ${quoteName(plan.split.column)} to a table of its own, ${plan.split.table} keyed by ${keyText(plan.split.key, [])}, read by id where a read selects it`;
    return plan.cures || !plan.leaves ? move : `${move} (${plan.leaves})`;
  }
  const key = plannedKeyText(table, plan);
  const text = plan.replacesView
    ? `Replace the view with a table the application writes beside ${plan.replacesView.base} (a view's key follows its base table's): ${key}, with ${planText(plan)}`
    : plan.moveToPartition?.length && !plan.shard && !plan.bucket
      ? `Move ${plan.moveToPartition.map(quoteName).join(', ')} into the partition key ${key}`
      : plan.bucket?.replaces
        ? `${replaceText(plan)} in the partition key: ${key}`
        : `Add ${planText(plan)} to the partition key: ${key}`;
  return plan.cures || !plan.leaves ? text : `${text} (no key change cures it alone: after it, ${plan.leaves})`;
}

/** "Replace minute with a time bucket month text (monthly partitions by ts)": a coarser bucket's action. */
export function replaceText(plan: PartitionPlan): string {
  const bucket = plan.bucket!;
  const { replaces: _replaces, ...added } = bucket;
  return `Replace ${quoteName(bucket.replaces!.column)} with ${planText({ ...plan, bucket: added })}`;
}

/** Stable short ids for the command line: `shard:title`, `shard:random`, `bucket:day`, `shard:title+bucket:day` (`table+shard:id`: a view replaced by a table). */
export function planId(plan: PartitionPlan): string {
  if (plan.split) return `split:${plan.split.column}`;
  const parts: string[] = [];
  if (plan.replacesView) parts.push('table');
  if (plan.clustering?.length) parts.push(`clustering:${plan.clustering.join(',')}`);
  if (plan.moveToPartition?.length) parts.push(`move:${plan.moveToPartition.join(',')}`);
  if (plan.shard)
    parts.push(
      `shard:${plan.shard.perTenant ? 'tenant' : plan.shard.method === 'random' ? 'random' : plan.shard.sources.join(',')}`,
    );
  if (plan.bucket) parts.push(`bucket:${plan.bucket.granularity}`);
  return parts.join('+');
}
