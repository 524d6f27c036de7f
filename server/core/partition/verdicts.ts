// The verdicts of the partition rules, decided here once from a table's inputs (inputs.ts): whether its key
// is hot (hot-partition), whether its partitions grow past the target's limit (unbounded-partition), whether
// they are too large (large-partition) and whether one partition takes too much traffic
// (partition-throughput). The rules word and report them; the planner (planner.ts) asks the same questions
// of the table as a plan would re-key it, so that the cure it prefers is one the rules then have nothing to
// say about.
import type { TableHints } from '../vocabulary/config';
import {
  busyText,
  citeText,
  measuredGrowth,
  measuredRates,
  hintsWithMeasuredRates,
  type BusyPartition,
  type MeasuredGrowth,
} from '../evidence';
import { columnWords, isItemColumn, isMeasureColumn } from '../schema/columns';
import type { TableInfo } from '../schema/model';
import { growthRateOf, rowsAccumulate, type GrowthRate, type TableWorkload, tableWorkload } from '../schema/workload';
import type { PartitionInputs } from './inputs';
import { HOT_OVER_EVEN, HOT_SHARE, measuredGrowthRate, measuredSizeVerdict, type MeasuredReach } from './measured';
import { HORIZON_SECONDS, SOFT_WRITES_PER_PARTITION } from './limits';
import { formatCount, formatDuration } from '../util/format';
import {
  counterWriteEstimate,
  estimatePartition,
  partitionFigures,
  reportedBucketFit,
  sampleVerdict,
  throughputEstimates,
  writeKindOf,
  type BucketFit,
  type LimitReach,
  type PartitionFigures,
  type SampleVerdict,
  type ThroughputEstimate,
} from './sizing';

/** The workload model of the inputs (cached by table, hints and references: schema/workload.ts). */
export function workloadOf(inputs: PartitionInputs): TableWorkload {
  return tableWorkload(inputs.table, inputs.hints, inputs.references);
}

// -------------------------------------------------------------------------------------------------
// The rate rows arrive at: measured beats hinted beats the model's default

/**
 * Rows per second into one partition: measured on the cluster (the busiest partition's writes in a
 * toppartitions capture, on a table whose writes add rows; else the largest partition's growth between two
 * captures), else hinted, else the workload model's default for the table. Each says which it is.
 */
export function rowRate(inputs: PartitionInputs, w: TableWorkload = workloadOf(inputs)): GrowthRate {
  // One answer per inputs and workload: every verdict of a table (and of each plan's re-keyed table) asks.
  const last = rates.get(inputs);
  if (last?.w === w) return last.rate;
  const rate = computeRowRate(inputs, w);
  rates.set(inputs, { w, rate });
  return rate;
}

const rates = new WeakMap<PartitionInputs, { w: TableWorkload; rate: GrowthRate }>();

function computeRowRate(inputs: PartitionInputs, w: TableWorkload): GrowthRate {
  const model = growthRateOf(w);
  const { table, evidence } = inputs;
  const busiest = measuredRates(evidence).writes;
  // Writes add rows only where there are clustering columns; a counter's increments rewrite cells.
  if (busiest && table.clustering.length && !table.counter && !w.perEventCells) {
    return boundedAs(model, {
      rowsPerSecond: busiest.perSecond,
      note: `measured: ${busyText(busiest)}`,
      source: 'measured',
      hinted: true,
    });
  }
  const growth = measuredGrowth(evidence);
  if (growth?.growing && table.clustering.length) {
    const rowBytes = partitionFigures(table, inputs.target, inputs.hints, inputs.udts).rowBytes;
    return boundedAs(model, measuredGrowthRate(growth, rowBytes), { rows: false });
  }
  // A key with a time bucket of known length: its largest partition measured is one bucket's rows, which
  // arrived within that length (a day of 1.3 GB is a rate, not only a size).
  const largest = evidence?.maxRows ?? evidence?.maxPartitionBytes;
  const seconds = w.bound.kind === 'bucket' ? w.bound.bucketSeconds : undefined;
  if (largest && seconds && table.clustering.length && !table.counter && !w.perEventCells) {
    const rowBytes = partitionFigures(table, inputs.target, inputs.hints, inputs.udts).rowBytes;
    const rows = largest.unit === 'rows' ? largest.value : largest.value / Math.max(1, rowBytes);
    return boundedAs(model, {
      rowsPerSecond: rows / seconds,
      source: 'measured',
      hinted: true,
      note: `measured: the largest partition, ${citeText(largest)}, holds one ${w.bound.column} of rows${largest.unit === 'rows' ? '' : ' at the estimated row size'}`,
    });
  }
  const counted = countedRate(inputs);
  if (counted && table.clustering.length && !table.counter && !w.perEventCells) return boundedAs(model, counted);
  return model;
}

/**
 * A measured rate with the model's bounds on what one partition holds: its few-valued clustering (`rows`:
 * not for a growth measured between captures, which shows the partition does grow) and its time bucket,
 * which closes whatever the rate: one figure for every message that sizes a bucketed partition.
 */
function boundedAs(model: GrowthRate, rate: GrowthRate, keep: { rows?: boolean } = {}): GrowthRate {
  return {
    ...rate,
    ...(model.rowsBound && keep.rows !== false ? { rowsBound: model.rowsBound } : {}),
    ...(model.bucket ? { bucket: model.bucket } : {}),
  };
}

/**
 * The largest partition's rate from one tablestats capture with the node's uptime (`# uptime:`): the
 * table's local writes since the node started, per second, at the largest partition's share of the node's
 * bytes (its maximum over the partitions estimate × their mean). Undefined without all five figures.
 */
function countedRate(inputs: PartitionInputs): GrowthRate | undefined {
  let best: GrowthRate | undefined;
  let bestBytes = 0;
  for (const n of inputs.evidence?.nodes ?? []) {
    const uptime = n.origin.uptimeSeconds;
    if (
      !uptime ||
      !n.localWrites ||
      !n.partitionsEstimate ||
      !n.maxPartitionBytes ||
      !n.meanPartitionBytes ||
      n.maxPartitionBytes <= bestBytes
    )
      continue;
    const share = Math.min(1, n.maxPartitionBytes / (n.partitionsEstimate * n.meanPartitionBytes));
    const tableRate = n.localWrites / uptime;
    bestBytes = n.maxPartitionBytes;
    best = {
      rowsPerSecond: tableRate * share,
      source: 'measured',
      hinted: true,
      note: `measured: ${formatCount(n.localWrites)} local writes over the node's ${formatDuration(uptime)} uptime (${n.origin.name}) at the largest partition's ${share >= 0.001 ? `${(share * 100).toFixed(share >= 0.1 ? 0 : 1)}%` : 'under 0.1%'} of the table's bytes`,
    };
  }
  return best;
}

/** The partition figures at the inputs' rate (the ones every partition message cites). */
export function figuresOf(inputs: PartitionInputs, rate: GrowthRate): PartitionFigures {
  return partitionFigures(inputs.table, inputs.target, inputs.hints, inputs.udts, rate);
}

// -------------------------------------------------------------------------------------------------
// hot-partition

export type HotReason = 'time-bucket' | 'low-cardinality' | 'shard-only' | 'measured';

/** A key of at most this many values puts the whole table in that many partitions, whatever else it holds. */
const TINY_KEY = 3;

/**
 * Regular columns that hold one item's identity or content (isbn, title, a uuid, a body, a headline):
 * written per item, not per period. None when the row mostly holds totals (a summary written once a
 * period, with perhaps its top product): a book's price beside its isbn and title is still the book's.
 */
export function perItemColumns(table: TableInfo): string[] {
  const regular = table.columns.filter((c) => c.role === 'regular');
  const items = regular.filter((c) => !isMeasureColumn(c) && isItemColumn(c, table)).map((c) => c.name);
  return items.length > regular.filter((c) => isMeasureColumn(c)).length ? items : [];
}

/**
 * A reference table: keyed by a few values, written by the workspace only with literal rows (seed data, a
 * migration) while the application's statements (those with bind markers) only read it: its rows do not
 * arrive per event, and no hint states a rate. A tag vocabulary or a category list is written rarely: however few its
 * partitions, none of them is hot.
 */
function isReferenceTable(w: TableWorkload, references: PartitionInputs['references']): boolean {
  // A bounded key (a few values: a category, a kind), not a time bucket that takes a new value every day.
  if (w.keyShape !== 'few' || w.growth || w.rateHinted || w.perEventCells) return false;
  // The application's statements (bind markers, not an example's literals) only read it; its rows come
  // from literal writes (seed data), if any.
  const application = references.filter((r) => r.bound);
  const writes = references.filter((r) => r.kind !== 'Select');
  return (
    writes.length > 0 &&
    writes.every((r) => !r.bound) &&
    application.length > 0 &&
    application.every((r) => r.kind === 'Select')
  );
}

/** Why the model finds the key hot, or undefined when it does not (or cannot tell). */
export function hotReason(w: TableWorkload, references: PartitionInputs['references'] = []): HotReason | undefined {
  const reason: HotReason | undefined =
    w.keyShape === 'time-bucket'
      ? 'time-bucket'
      : w.keyShape === 'few'
        ? 'low-cardinality'
        : w.keyShape === 'shard-only'
          ? 'shard-only'
          : undefined;
  if (!reason) return undefined;
  if (isReferenceTable(w, references)) return undefined;
  // Rows clustered only by coarse buckets or enum values (a calendar by year and month) stay few.
  if (rowsAccumulate(w)) return reason;
  if (w.table.clustering.length) return undefined;
  // Without clustering: hot only when each event rewrites the partition: counters, appended ids, or a
  // date-keyed row of per-item columns (isbn, title, a body) that every new item overwrites. A summary of
  // totals written once a day is fine; so is a lookup of ten statuses. A boolean or a tiny enum is not:
  // every read and write of the table goes to two or three partitions.
  if (w.perEventCells) return reason;
  // (From the type or name: a key only ever given one literal by the workspace is one row the statements
  // chose, such as a sequence's 'order' row, which lwt-hot-partition judges when it is contended.)
  if (
    reason === 'low-cardinality' &&
    w.livePartitions !== undefined &&
    w.livePartitions <= TINY_KEY &&
    w.partitionKey.every((p) => !p.fromStatements)
  )
    return reason;
  return reason === 'time-bucket' && perItemColumns(w.table).length ? reason : undefined;
}

/**
 * The partitions the table has, as the samplers' share is judged against, measured beating the model: the
 * captures' count (tablestats' estimate per node, the largest; size_estimates summed) when they have one,
 * else the key's cardinality in the model; never fewer than the sampler saw.
 */
export function partitionCount(
  inputs: PartitionInputs,
  w: TableWorkload,
  busiest: BusyPartition,
): { partitions: number; from: string } {
  let measured: { partitions: number; from: string } | undefined;
  const take = (n: number | undefined, from: string): void => {
    if (n !== undefined && Number.isFinite(n) && n > 0 && (!measured || n > measured.partitions))
      measured = { partitions: n, from };
  };
  for (const node of inputs.evidence?.nodes ?? [])
    take(node.partitionsEstimate, 'nodetool tablestats (Number of partitions)');
  take(inputs.evidence?.estimatedPartitions?.value, 'system.size_estimates');
  const model =
    w.livePartitions !== undefined && Number.isFinite(w.livePartitions)
      ? { partitions: w.livePartitions, from: "the partition key's cardinality" }
      : undefined;
  const best = measured ?? model;
  return best && best.partitions > busiest.distinct
    ? best
    : { partitions: busiest.distinct, from: `the ${busiest.kind} sampler's cardinality` };
}

export interface MeasuredHot {
  busiest: BusyPartition;
  hot: boolean;
  /** The partitions its share was judged against. */
  partitions: number;
  partitionsFrom: string;
}

/**
 * Whether the samplers show a hot partition: one partition takes at least HOT_SHARE of the sampled writes
 * (or reads) and HOT_OVER_EVEN times an even share of the table's partitions (partitionCount), or takes
 * more writes alone than a partition should (SOFT_WRITES_PER_PARTITION, or the target's quota). Undefined
 * when no sampler recorded a partition.
 */
export function measuredHot(inputs: PartitionInputs, w: TableWorkload): MeasuredHot | undefined {
  let seen: MeasuredHot | undefined;
  const writeLimit = inputs.target.writesPerPartition?.value ?? SOFT_WRITES_PER_PARTITION;
  for (const kind of ['writes', 'reads'] as const) {
    const b = inputs.evidence?.busiest[kind];
    if (!b || b.share === undefined) continue;
    const { partitions, from } = partitionCount(inputs, w, b);
    const skewed = b.share >= HOT_SHARE && b.share * partitions >= HOT_OVER_EVEN;
    const overLimit =
      kind === 'writes' && b.share >= HOT_SHARE && b.perSecond !== undefined && b.perSecond > writeLimit;
    const verdict = { busiest: b, hot: skewed || overLimit, partitions, partitionsFrom: from };
    if (verdict.hot) return verdict;
    seen ??= verdict;
  }
  return seen;
}

// A status a work list is read by: "every pending order".
const WORK_LIST_WORDS = new Set([
  'status',
  'state',
  'stage',
  'phase',
  'zustand',
  'stufe',
  'estado',
  'etapa',
  'fase',
  'statut',
  'etat',
  'etape',
  'stato',
  'situacao',
  'toestand',
]);

/**
 * The partition key column that is a status a work list is read by (an enum named status, state, stage ...):
 * the application lists every item of one status, so a time bucket there puts an old item as many queries
 * away as buckets have passed.
 */
export function workListColumn(w: TableWorkload): string | undefined {
  return w.partitionKey.find((p) => p.nature === 'enum' && columnWords(p.name).some((x) => WORK_LIST_WORDS.has(x)))
    ?.name;
}

export interface HotVerdict {
  reason: HotReason;
  /** The measured busiest partition, when the samplers show one hot. */
  measured?: MeasuredHot;
  /** No clustering column and a row of one item's columns: each new item overwrites the last one. */
  overwrittenBy: string[];
  /** A tiny key without clustering: the whole table is that many rows. */
  wholeTable: boolean;
}

/** hot-partition's verdict: measured traffic wins over the model (a hot partition is reported, an even spread silences it). */
export function hotVerdict(inputs: PartitionInputs, w: TableWorkload = workloadOf(inputs)): HotVerdict | undefined {
  const measured = measuredHot(inputs, w);
  const hot = measured?.hot ? measured : undefined;
  const reason = measured
    ? hot
      ? (hotReason(w, inputs.references) ?? 'measured')
      : undefined
    : hotReason(w, inputs.references);
  if (!reason) return undefined;
  const table = inputs.table;
  return {
    reason,
    ...(hot ? { measured: hot } : {}),
    overwrittenBy:
      reason === 'time-bucket' && !table.clustering.length && !w.perEventCells ? perItemColumns(table) : [],
    wholeTable: reason === 'low-cardinality' && !table.clustering.length && !w.perEventCells,
  };
}

// -------------------------------------------------------------------------------------------------
// unbounded-partition

/** A TTL at least this long bounds nothing a deployment will see: the partition grows as if it had none. */
const TTL_BOUNDS_BELOW = HORIZON_SECONDS;

export interface Unbounded {
  /** A TTL that is there but too long to bound anything (HORIZON_SECONDS or more): the rows it keeps at the rate. */
  ttl?: { seconds: number; rowsKept: number; source: string };
}

/**
 * Whether partitions grow without bound: rows arrive per event and neither a bucket, a split column, a
 * container that ends nor a TTL bounds them. A TTL shorter than the horizon bounds a partition at the rows it
 * keeps (large-partition judges those against the limits); a longer one bounds nothing.
 */
function unboundedGrowth(w: TableWorkload, rate: GrowthRate): Unbounded | undefined {
  if (!w.growth) return undefined;
  if (w.bound.kind === 'bucket' || w.bound.kind === 'split' || w.bound.kind === 'natural') return undefined;
  if (w.bound.kind === 'ttl') {
    if (w.bound.ttlSeconds! < TTL_BOUNDS_BELOW) return undefined;
    return {
      ttl: {
        seconds: w.bound.ttlSeconds!,
        rowsKept: rate.rowsPerSecond * w.bound.ttlSeconds!,
        source: w.bound.ttlSource ?? 'default_time_to_live',
      },
    };
  }
  return {};
}

/**
 * The growth the partition rules report: unbounded against a target that has a partition size limit,
 * reached within HORIZON_SECONDS at the rate (`anyHorizon` for entity histories the user asked for and
 * measured growth).
 */
export function reportableGrowth(
  w: TableWorkload,
  rate: GrowthRate,
  figures: PartitionFigures,
  anyHorizon = false,
): Unbounded | undefined {
  if (!figures.binding) return undefined;
  const growth = unboundedGrowth(w, rate);
  if (!growth) return undefined;
  if (!growth.ttl && !anyHorizon && figures.secondsToLimit !== undefined && figures.secondsToLimit > HORIZON_SECONDS)
    return undefined;
  return growth;
}

export interface GrowthVerdict {
  unbounded: Unbounded;
  rate: GrowthRate;
  figures: PartitionFigures;
  /** The growth measured between two captures, when evidence decided. */
  measured?: MeasuredGrowth;
}

/** unbounded-partition's verdict. `reportEntityHistories`: the rule's option. */
export function growthVerdict(
  inputs: PartitionInputs,
  w: TableWorkload = workloadOf(inputs),
  options: { reportEntityHistories?: boolean } = {},
): GrowthVerdict | undefined {
  if (!inputs.table.clustering.length || !w.growth) return undefined;
  // Rows a query reads and deletes again are a queue: queue-table speaks for it (tombstones, not growth).
  if (w.consumption?.kind === 'queue') return undefined;
  // Measured growth between two captures wins over the model's rate: flat partitions are bounded in fact.
  const measured = measuredGrowth(inputs.evidence);
  if (measured && !measured.growing) return undefined;
  const rate = rowRate(inputs, w);
  // A stated rate or a measured growth always reaches the verdict; without either, one entity's history
  // only on request.
  if (w.rateClass === 'entity' && !rate.hinted && !options.reportEntityHistories) return undefined;
  const figures = figuresOf(inputs, rate);
  // Without a partition size limit (Keyspaces) growth is a cost, not a failure.
  if (!figures.binding) return undefined;
  // Entity histories are only here because the option asked for them (hinted or not: writing the assumed
  // rate down changes nothing): their slow rate is the point. A measured growth states its own pace.
  const unbounded = reportableGrowth(
    w,
    rate,
    figures,
    (w.rateClass === 'entity' && !!options.reportEntityHistories) || rate.source === 'measured',
  );
  if (!unbounded) return undefined;
  return { unbounded, rate, figures, ...(measured ? { measured } : {}) };
}

// -------------------------------------------------------------------------------------------------
// large-partition (partition sizes; the row limit is judged by the rule alone: no key change helps)

export type SizeVerdict =
  /** The measured largest partition past a limit (evidence). */
  | { kind: 'measured'; over: MeasuredReach[]; figures: PartitionFigures }
  /** A sample's largest partition past a limit. */
  | { kind: 'sampled'; verdict: SampleVerdict; over: SampleVerdict['over']; figures: PartitionFigures }
  /** A `rows=` hint past a limit. */
  | { kind: 'hinted'; rows: number; bytes: number; values: number; over: LimitReach[]; figures: PartitionFigures }
  /** A TTL shorter than the horizon keeps this many rows in a partition, past a limit. */
  | {
      kind: 'ttl';
      rows: number;
      bytes: number;
      values: number;
      over: LimitReach[];
      figures: PartitionFigures;
      ttl: { seconds: number; source: string };
    }
  /** A time bucket too coarse for the rate. */
  | { kind: 'bucket'; fit: BucketFit; figures: PartitionFigures };

/**
 * large-partition's verdict on partition sizes: measured beats sampled beats hinted; without a size
 * stated, a TTL that bounds the partition and a time bucket of known length are judged against the rate.
 * Undefined when nothing is past a limit (a measured or sampled size under the limits silences the rest).
 */
export function sizeVerdict(inputs: PartitionInputs, w: TableWorkload = workloadOf(inputs)): SizeVerdict | undefined {
  const { table, target, hints, udts } = inputs;
  if (!table.clustering.length) return undefined;
  const measured = measuredSizeVerdict(table, target, hints, udts, inputs.evidence);
  if (measured) {
    if (!measured.over.length) return undefined;
    return { kind: 'measured', over: measured.over, figures: figuresOf(inputs, rowRate(inputs, w)) };
  }
  if (inputs.sample) {
    const verdict = sampleVerdict(table, target, hints, udts, inputs.sample);
    if (!verdict.over.length) return undefined;
    return { kind: 'sampled', verdict, over: verdict.over, figures: figuresOf(inputs, rowRate(inputs, w)) };
  }
  const rate = rowRate(inputs, w);
  const figures = figuresOf(inputs, rate);
  const rows = hints?.rowsPerPartition;
  if (rows !== undefined) {
    const over = figures.limits.filter((l) => rows > l.rows);
    if (!over.length) return undefined;
    const est = estimatePartition(table, rows, hints, udts);
    return { kind: 'hinted', rows, bytes: est.bytes, values: est.values, over, figures };
  }
  if (w.growth && w.bound.kind === 'ttl' && w.bound.ttlSeconds! < TTL_BOUNDS_BELOW && !w.rowsBound) {
    const kept = Math.round(rate.rowsPerSecond * w.bound.ttlSeconds!);
    const over = figures.limits.filter((l) => kept > l.rows);
    if (!over.length) return undefined;
    const est = estimatePartition(table, kept, hints, udts);
    return {
      kind: 'ttl',
      rows: kept,
      bytes: est.bytes,
      values: est.values,
      over,
      figures,
      ttl: { seconds: w.bound.ttlSeconds!, source: w.bound.ttlSource ?? 'default_time_to_live' },
    };
  }
  const fit = reportedBucketFit(table, target, hints, udts, w, rate);
  return fit ? { kind: 'bucket', fit, figures } : undefined;
}

// -------------------------------------------------------------------------------------------------
// partition-throughput

export interface ThroughputVerdict {
  /** The hints with the measured rates in place of the hinted ones (measured wins). */
  hints: TableHints;
  /** The estimates past their limit (a hot counter's, when it is one). */
  over: ThroughputEstimate[];
  counter?: ThroughputEstimate;
  /** The measured busiest partitions, by kind. */
  rates: ReturnType<typeof measuredRates>;
}

/** partition-throughput's verdict. `counterWritesPerSecond`: the rule's option. */
export function throughputVerdict(
  inputs: PartitionInputs,
  options: { counterWritesPerSecond?: number } = {},
): ThroughputVerdict | undefined {
  const hints = hintsWithMeasuredRates(inputs.hints, inputs.evidence);
  if (!hints) return undefined;
  const counter = counterWriteEstimate(inputs.table, inputs.target, hints, options.counterWritesPerSecond ?? 1000);
  const estimates = counter
    ? [counter]
    : throughputEstimates(
        inputs.table,
        inputs.target,
        hints,
        inputs.udts,
        inputs.sample,
        writeKindOf(inputs.table, inputs.references),
      );
  const over = estimates.filter((t) => t.shardsNeeded > 1);
  if (!over.length) return undefined;
  return { hints, over, ...(counter ? { counter } : {}), rates: measuredRates(inputs.evidence) };
}
