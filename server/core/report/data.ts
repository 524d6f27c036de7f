// The partition report of one table as plain data: key diagram, the DS220 size terms, growth curve
// against the target's limits (today and with the preferred fix's own plan), shard spread, traffic
// of a hot key, throughput per partition and, with a sample, the partitions measured from real rows.
// One verdict: the findings listed are the diagnostics (table-findings.ts), and every figure comes from
// the functions the rules, hovers and fixes use (sizing.ts, the workload model, targets.ts, the shard
// maths); the HTML view only draws these numbers.
import type { Finding } from '../findings/findings';
import { isFindingOf } from '../findings/findings-data';
import type { Project } from '../engine/project';
import type { TableHints } from '../vocabulary/config';
import { type TableInfo, columnNamed } from '../schema/model';
import { nativeName } from '../schema/types';
import {
  CELL_METADATA_BYTES,
  bucketFit,
  estimatePartition,
  partitionFigures,
  rowSizes,
  sampleVerdict,
  throughputEstimates,
  udtLookupFrom,
  type UdtLookup,
} from '../partition/sizing';
import { formatCount, formatDuration } from '../util/format';
import { type TargetInfo } from '../partition/targets';
import { formatShardFormula, type ShardMethod } from '../token/shard';
import { randomShardDraw, shardHistogram, skewSamples, type ShardCounts } from '../token/skew';
import { replicasFor, replicationFromMap, type Replication, type Ring } from '../token/ring';
import { preferredPlan } from '../fixes';
import { BUCKETS, withShardCountSetting } from '../partition/planner';
import { measuredHot, rowRate } from '../partition/verdicts';
import { HORIZON_SECONDS } from '../partition/limits';
import type { SampleSummary } from './sample';
import {
  DEFAULT_ROWS_PER_SECOND,
  tableWorkload,
  rowsArrive,
  type GrowthRate,
  type TableWorkload,
} from '../schema/workload';
import { markOf } from './keyspace';
import { queryAccess } from './queries';
import { severityRank, tableFindings, worstSeverity } from './table-findings';
import { udtLookupFor } from '../schema/key-values';
import { keyText } from '../util/statements';
import { addedKeyColumns } from '../partition/plan';
import { clusterPanelData } from './cluster';
import { formatSetting, tableGuardrails } from '../cluster';

import type {
  Cure,
  GrowthCurve,
  GrowthData,
  GrowthVerdict,
  KeyPopularity,
  LimitLine,
  PartitionReportData,
  QueryReference,
  ReportFinding,
  ReportOptions,
  ShardHistogram,
  SizeTerm,
  SizeTerms,
  SpreadData,
  ThroughputRow,
  TrafficData,
} from './data-types';

export { severityRank };
export type { GrowthCurve, ShardHistogram, SpreadData, PartitionReportData, ReportOptions } from './data-types';

/**
 * The target's partition limits as lines, from partitionFigures (the figures the partition rules and the
 * hover state): bytes and rows/values, with the rows reaching each; `binding` marks the
 * limit hit first.
 */
function limitLines(
  table: TableInfo,
  target: TargetInfo,
  hints: TableHints | undefined,
  udts: UdtLookup | undefined,
  rate?: GrowthRate,
): LimitLine[] {
  const figures = partitionFigures(table, target, hints, udts, rate);
  return figures.limits
    .map((l) => ({
      kind: l.measure,
      label: l.label,
      source: l.source,
      // Rows and values limits are drawn at the size the partition has when it reaches them.
      bytes: l.measure === 'bytes' ? l.value : estimatePartition(table, l.rows, hints, udts).bytes,
      rowsAtLimit: l.rows,
      ...(l === figures.binding ? { binding: true } : {}),
    }))
    .sort((a, b) => a.bytes - b.bytes);
}

/** The curve of one partition's size: rows arrive at `rate` until `stopsAfter` seconds, sizes by estimatePartition. */
function growthCurve(
  table: TableInfo,
  hints: TableHints | undefined,
  udts: UdtLookup | undefined,
  rate: number,
  horizon: number,
  count: number,
  extraTimes: number[],
  stopsAfter?: number,
  stopsBecause?: GrowthCurve['stopsBecause'],
): GrowthCurve {
  const times = new Set<number>();
  for (let i = 0; i <= count; i++) times.add((horizon * i) / count);
  for (const t of extraTimes) if (t >= 0 && t <= horizon) times.add(t);
  if (stopsAfter !== undefined && stopsAfter <= horizon) times.add(stopsAfter);
  const points = [...times]
    .sort((a, b) => a - b)
    .map((seconds) => {
      const rows = Math.floor(rate * Math.min(seconds, stopsAfter ?? Infinity));
      return { seconds, rows, bytes: estimatePartition(table, rows, hints, udts).bytes };
    });
  return { rowsPerSecond: rate, stopsAfterSeconds: stopsAfter, stopsBecause, points };
}

function secondsToRows(rows: number, rate: number, stopsAfter?: number): number | undefined {
  if (!Number.isFinite(rows) || rate <= 0) return undefined;
  const t = rows / rate;
  return stopsAfter !== undefined && t > stopsAfter ? undefined : t;
}

const DAY = 86_400;
const YEAR = BUCKETS.year.seconds;

/** The partition rules whose findings have fixes that re-key the table, the one the report follows first. */
const CURE_ORDER = ['unbounded-partition', 'large-partition', 'hot-partition', 'partition-throughput'];

/**
 * The cure drawn "with the fix": the plan the table's first partition finding carries (partition/planner.ts),
 * the one the editor offers first and `cqlint fix` applies, when it cures; drawn, never sized here.
 */
function cureFor(findings: readonly Finding[], shardCount: number | undefined): Cure | undefined {
  const partition = findings
    .filter((f) => CURE_ORDER.includes(f.ruleId))
    .sort((a, b) => CURE_ORDER.indexOf(a.ruleId) - CURE_ORDER.indexOf(b.ruleId));
  for (const finding of partition) {
    const preferred = preferredPlan(finding);
    // The cqlint.shardCount setting replaces a count the defaults alone sized, as in the editor's fix.
    const plan = preferred && withShardCountSetting(preferred, shardCount);
    if (!plan || (!plan.shard && !plan.bucket)) continue;
    const parts: string[] = [];
    if (plan.shard) parts.push(`${plan.shard.count} shards: ${formatShardFormula(plan.shard)}`);
    if (plan.bucket) {
      const article = plan.bucket.granularity === 'hour' ? 'an' : 'a';
      parts.push(
        `${article} ${plan.bucket.granularity} bucket (${plan.bucket.column} ${plan.bucket.type}) in the partition key${plan.bucket.source ? `, by ${plan.bucket.source}` : ''}`,
      );
    }
    return {
      kind: plan.shard && plan.bucket ? 'shard-and-bucket' : plan.shard ? 'shard' : 'bucket',
      description: parts.join(' and '),
      ruleId: finding.ruleId,
      ...(plan.bucket ? { bucketSeconds: BUCKETS[plan.bucket.granularity].seconds } : {}),
      ...(plan.shard ? { shardCount: plan.shard.count } : {}),
      plan,
    };
  }
  return undefined;
}

function histogramOf(
  method: ShardMethod,
  count: number,
  offset: number,
  counts: ShardCounts,
  sourceColumns: string[],
): ShardHistogram {
  const mean = counts.total / count;
  const max = counts.fullest?.rows;
  return {
    formula: formatShardFormula({ method, sources: sourceColumns, count, offset }),
    method,
    count,
    counts: counts.bars,
    shardsPerBar: counts.shardsPerBar,
    offset,
    max,
    mean,
    maxOverMean: max === undefined ? undefined : mean > 0 ? max / mean : 0,
    emptyShards: counts.emptyShards,
  };
}

/** Rows of one partition the random(N) spread is shown over: a day's at the growth rate, or until the partition stops. */
function randomRows(growth: { rowsPerSecond: number; stopsAfterSeconds?: number }): { rows: number; seconds: number } {
  const seconds = Math.min(DAY, growth.stopsAfterSeconds ?? DAY);
  return { rows: Math.max(1, Math.round(growth.rowsPerSecond * seconds)), seconds };
}

const TEXT_TYPES = new Set(['text', 'varchar', 'ascii']);

/**
 * Shard spread of the table's @shard formula, or of the one the shard fix proposes: over a sample's rows
 * (evidence), over random(N)'s seeded draw, and for a code-point formula over synthetic text values (a
 * check of the formula). murmur3 over synthetic values would be even by construction and say nothing of
 * the data, so without a sample it is not drawn.
 */
function spreadFor(
  table: TableInfo,
  cure: Cure | undefined,
  sample: SampleSummary | undefined,
  growth: { rowsPerSecond: number; stopsAfterSeconds?: number },
): SpreadData | undefined {
  let origin: SpreadData['origin'];
  let method: ShardMethod;
  let sources: string[];
  let count: number;
  let offset: number;
  if (table.shard) {
    origin = 'annotation';
    ({ method, sources, count, offset } = table.shard);
  } else if (cure?.plan.shard) {
    // The shard of the preferred fix: its method, sources and count, as the fix writes them.
    origin = 'proposed';
    ({ method, sources, count, offset } = cure.plan.shard);
  } else {
    return undefined;
  }
  const sourceColumn = sources[0];
  const sourceType = sourceColumn ? columnNamed(table, sourceColumn)?.typeText : undefined;
  const textual = TEXT_TYPES.has(nativeName(columnNamed(table, sourceColumn ?? '')?.type) ?? '');
  const shard = { method, sources, count, offset };
  const base = { origin, shard, sourceColumn, ...(sourceType ? { sourceType } : {}) };
  if (sample?.spread && sample.spread.formula === formatShardFormula(shard)) {
    const s = sample.spread;
    return {
      ...base,
      formula: s.formula,
      valuesFrom: { kind: 'sample', file: sample.file },
      values: s.rows,
      histogram: histogramOf(method, count, offset, s.counts, sources),
      comparison: s.comparisonCounts
        ? histogramOf(method === 'codepoints' ? 'murmur3' : 'codepoints', count, offset, s.comparisonCounts, sources)
        : undefined,
    };
  }
  if (method === 'random') {
    // random() reads no column: what matters is how many rows land in each shard, not whose.
    const { rows, seconds } = randomRows(growth);
    const draw = randomShardDraw(count, rows);
    const histogram = histogramOf(method, count, offset, draw.counts, sources);
    return {
      ...base,
      formula: histogram.formula,
      valuesFrom: { kind: 'draw' },
      values: draw.drawn,
      histogram,
      random: { rows, seconds, expectedPerShard: rows / count, drawn: draw.drawn },
    };
  }
  if (!textual) return { ...base, formula: formatShardFormula(shard), valuesFrom: { kind: 'none' }, values: 0 };
  // A text source: the code-point formula's skew is the formula's own, shown on synthetic titles beside murmur3.
  const values = skewSamples().titles;
  const histogram = histogramOf(method, count, offset, shardHistogram({ method, count }, values), sources);
  const other: ShardMethod = method === 'codepoints' ? 'murmur3' : 'codepoints';
  const comparison = histogramOf(other, count, offset, shardHistogram({ method: other, count }, values), sources);
  return {
    ...base,
    formula: histogram.formula,
    valuesFrom: { kind: 'synthetic', family: 'titles' },
    values: values.length,
    histogram,
    comparison,
  };
}

/** The DS220 size terms at the rows the report can stand behind: a hint, a sample, the first limit, or an example. */
function sizeTermsOf(
  table: TableInfo,
  hints: TableHints | undefined,
  udts: UdtLookup | undefined,
  sample: SampleSummary | undefined,
  limits: readonly LimitLine[],
): SizeTerms {
  const sizes = rowSizes(table, hints, udts);
  const binding = limits.find((l) => l.binding);
  let rows: number;
  let rowsFrom: SizeTerms['rowsFrom'];
  if (hints?.rowsPerPartition !== undefined) [rows, rowsFrom] = [hints.rowsPerPartition, 'hint'];
  else if (sample && sample.rows > 0) [rows, rowsFrom] = [sample.rowsPerPartition.max, 'sample'];
  else if (binding && Number.isFinite(binding.rowsAtLimit)) [rows, rowsFrom] = [binding.rowsAtLimit, 'limit'];
  else [rows, rowsFrom] = [table.clustering.length ? 1000 : 1, 'example'];
  const estimate = estimatePartition(table, rows, hints, udts);
  const byRole = (roles: string[]): SizeTerm['columns'] =>
    table.columns
      .filter((c) => roles.includes(c.role))
      .map((c) => {
        const s = sizes.columns.find((x) => x.name === c.name)!;
        return { name: c.name, bytes: s.bytes, hinted: s.hinted };
      });
  const sum = (cols: NonNullable<SizeTerm['columns']>): string =>
    cols.length ? cols.map((c) => c.bytes).join(' + ') : '0';
  const pk = byRole(['partition'])!;
  const statics = byRole(['static'])!;
  const perRow = byRole(['clustering', 'regular'])!;
  const terms: SizeTerm[] = [
    {
      id: 'pk',
      label: 'partition key, stored once',
      formula: 'Σ sizeOf(partition key columns)',
      arithmetic: sum(pk),
      bytes: sizes.partitionKeyBytes,
      columns: pk,
    },
    {
      id: 'static',
      label: 'static columns, stored once',
      formula: 'Σ sizeOf(static columns)',
      arithmetic: sum(statics),
      bytes: sizes.staticBytes,
      columns: statics,
    },
    {
      id: 'rows',
      label: 'rows',
      formula: 'Nr × (Σ sizeOf(clustering) + Σ sizeOf(regular))',
      arithmetic: `${formatCount(rows)} × (${sum(perRow)})`,
      bytes: rows * sizes.rowBytes,
      columns: perRow,
    },
    {
      id: 'metadata',
      label: 'cell metadata',
      formula: `Nv × ${CELL_METADATA_BYTES} B`,
      arithmetic: `${formatCount(estimate.values)} × ${CELL_METADATA_BYTES}`,
      bytes: estimate.values * CELL_METADATA_BYTES,
    },
  ];
  return {
    rows,
    rowsFrom,
    columns: table.columns.length,
    partitionKeyColumns: table.partitionKey.length + table.clustering.length,
    staticColumns: sizes.staticCount,
    valuesPerRow: sizes.valuesPerRow,
    values: estimate.values,
    terms,
    total: estimate.bytes,
  };
}

/** Replicas per token under a replication setting (NetworkTopologyStrategy: all data centers together). */
function replicaCount(replication: Replication): number | undefined {
  if (replication.strategy === 'SimpleStrategy') return replication.replicationFactor;
  if (replication.strategy === 'NetworkTopologyStrategy') {
    const sum = Object.values(replication.dcs).reduce((s, f) => s + f, 0);
    return sum || replication.defaultFactor;
  }
  return undefined;
}

/**
 * The traffic of a hot table: the busiest partition's share of its writes (a sample's largest partition,
 * else 1 / the partitions that take writes, from a distinct hint or the workload model), where it lands
 * with a ring, and what the shards of the fix (or of the table's @shard) leave of it.
 */
function trafficOf(
  project: Project,
  table: TableInfo,
  workload: TableWorkload,
  hints: TableHints | undefined,
  sample: SampleSummary | undefined,
  cure: Cure | undefined,
  ring: Ring | undefined,
): TrafficData {
  const hinted = workload.partitionKey.some((p) => p.hinted);
  const live =
    workload.livePartitions !== undefined && Number.isFinite(workload.livePartitions)
      ? workload.livePartitions
      : undefined;
  let traffic: TrafficData;
  if (sample && sample.rows > 0 && sample.largest.length) {
    const top = sample.largest[0]!;
    traffic = {
      from: 'sample',
      busiestShare: top.rows / sample.rows,
      livePartitions: sample.partitions,
      note: `the sample's largest partition (${top.key.join(', ')}) holds ${formatCount(top.rows)} of its ${formatCount(sample.rows)} rows`,
    };
  } else if (live !== undefined) {
    const atLeast = workload.skewed;
    const why =
      workload.keyShape === 'time-bucket'
        ? 'only the current time bucket takes writes'
        : `the partition key has about ${formatCount(live)} values that take writes${hinted ? ' (your distinct hint)' : " (the workload model's guess; a distinct hint or a sample corrects it)"}`;
    traffic = {
      from: hinted ? 'hint' : 'model',
      busiestShare: 1 / live,
      livePartitions: live,
      ...(atLeast ? { atLeast } : {}),
      note: `${why}${atLeast ? '; a few values take most of the traffic, so the busiest takes more than an even share' : ''}`,
    };
  } else {
    traffic = {
      from: 'model',
      note: 'the workload model cannot count the partitions that take writes; a sample or a distinct hint shows it',
    };
  }
  const keyspace = table.keyspace ? project.schema().keyspaces.get(table.keyspace) : undefined;
  if (ring && ring.nodes.length && keyspace) {
    const replication = replicationFromMap(keyspace.replication);
    const replicas = replicaCount(replication);
    if (replicas) {
      const token = sample?.largest[0]?.token;
      const busiest =
        token !== undefined ? replicasFor(ring, BigInt(token), replication).map((n) => n.address) : undefined;
      traffic.ring = {
        nodes: ring.nodes.length,
        replicas: Math.min(replicas, ring.nodes.length),
        evenShare: Math.min(1, replicas / ring.nodes.length),
        ...(busiest ? { busiestReplicas: busiest } : {}),
      };
    }
  }
  const shards = table.shard?.count ?? cure?.shardCount;
  if (shards && traffic.busiestShare !== undefined) {
    traffic.afterFix = {
      shards,
      busiestShare: traffic.busiestShare / shards,
      shardsFrom: table.shard ? 'annotation' : 'fix',
    };
  }
  return traffic;
}

/** Key popularity a sample or a hint states; undefined without either (synthetic values are no evidence). */
function popularityOf(
  table: TableInfo,
  hints: TableHints | undefined,
  sample: SampleSummary | undefined,
): KeyPopularity | undefined {
  if (sample && sample.rows > 0 && sample.largest.length) {
    const top = sample.largest.map((p) => ({ key: p.key, rows: p.rows, share: p.rows / sample.rows }));
    const topShare = top.reduce((s, p) => s + p.share, 0);
    return {
      from: 'sample',
      top,
      topShare,
      partitions: sample.partitions,
      note: `${formatCount(sample.partitions)} partitions in ${formatCount(sample.rows)} rows; an even spread would give each ${(100 / sample.partitions).toPrecision(2)}%`,
    };
  }
  const distinct = table.partitionKey.flatMap((c) => {
    const values = hints?.columns?.[c.name]?.distinct;
    return values !== undefined ? [{ column: c.name, values }] : [];
  });
  if (distinct.length) {
    return {
      from: 'hint',
      distinct,
      note: 'the hint counts the values, not how popular each one is: a sample of real rows shows that',
    };
  }
  return undefined;
}

/**
 * What the chart means in the rules' terms (see GrowthVerdict): the findings first, then the workload
 * model's reasons for silence.
 */
function growthVerdict(
  workload: TableWorkload,
  grows: boolean,
  reported: string | undefined,
  stopsAfter: number | undefined,
  secondsToFirst: number | undefined,
): GrowthVerdict {
  if (reported) {
    return {
      kind: 'reported',
      text:
        reported === 'hot-partition'
          ? 'hot-partition reports the key: its few partitions take every row and keep growing (the finding above)'
          : `${reported} reports this partition's growth (the finding above)`,
    };
  }
  if (!grows) {
    return {
      kind: 'no-growth',
      text: 'rows do not arrive per event in this table (no time-ordered clustering column or piling ids), so a partition does not grow with time: a rows= hint or a sample says how large it is',
    };
  }
  const bound = workload.bound;
  if (
    bound.kind === 'bucket' ||
    bound.kind === 'split' ||
    bound.kind === 'natural' ||
    (bound.kind === 'ttl' && stopsAfter !== undefined && secondsToFirst === undefined)
  ) {
    const by =
      bound.kind === 'bucket'
        ? `the time bucket ${bound.column} in its key`
        : bound.kind === 'split'
          ? `the split column ${bound.column} in its key`
          : bound.kind === 'natural'
            ? `${bound.column}, which names something that ends`
            : `its ${bound.ttlSource} of ${formatDuration(bound.ttlSeconds!)}`;
    // Bounded, yet past a limit before the bound closes it: the chart shows it, and says who judges it.
    const within =
      secondsToFirst !== undefined && stopsAfter !== undefined
        ? `, but at this rate it passes its first limit after ${formatDuration(secondsToFirst)}, before the bound closes it; large-partition judges a partition's size from a rows= hint or a sample`
        : '';
    return { kind: 'bounded', text: `${by} bounds a partition${within}` };
  }
  if (workload.rateClass === 'entity') {
    return {
      kind: 'not-reported',
      text: "one entity's own history grows at human pace: unbounded-partition reports it only with its reportEntityHistories option",
    };
  }
  if (secondsToFirst !== undefined && secondsToFirst > HORIZON_SECONDS) {
    return {
      kind: 'beyond-horizon',
      text: `it grows, but reaches its first limit only after ${formatDuration(secondsToFirst)}: the rules look ${formatDuration(HORIZON_SECONDS)} ahead`,
    };
  }
  return { kind: 'not-reported', text: 'the partition rules do not report it on this target' };
}

/**
 * Every figure of one table's partition report. `hints` are the table's workload hints (from the config
 * that applies to its file); `target` the database whose limits apply.
 */
export function partitionReportData(
  project: Project,
  table: TableInfo,
  target: TargetInfo,
  hints: TableHints | undefined,
  options: ReportOptions = {},
): PartitionReportData {
  const udts = udtLookupFrom(project.schema());
  const sizes = rowSizes(table, hints, udts);
  const bytesPerRow = sizes.rowBytes + sizes.valuesPerRow * CELL_METADATA_BYTES;
  const fixedBytes = estimatePartition(table, 0, hints, udts).bytes;
  const attributed = tableFindings(project, table, options.lint);
  const own = attributed.table;
  const references = project.referencesTo(table);

  // Growth: rows per second into one partition as the rules take it (partition/verdicts.ts rowRate: measured
  // on the cluster, else hinted, else the model's stated default), until the key's time bucket closes or
  // the TTL (default_time_to_live or USING TTL) balances it.
  const workload = tableWorkload(table, hints, references);
  const evidence = project.evidence(table);
  const inputs = { table, target, hints, udts, references, evidence, sample: options.sample };
  const growthRate = rowRate(inputs, workload);
  const rate = growthRate.rowsPerSecond > 0 ? growthRate.rowsPerSecond : DEFAULT_ROWS_PER_SECOND[workload.rateClass];
  // The key's time bucket as the workload model reads it (its bound: the finest bucket of known period).
  const bound = workload.bound;
  let stopsAfter: number | undefined;
  let stopsBecause: GrowthCurve['stopsBecause'];
  let assumedBucketPeriod: string | undefined;
  if (bound.kind === 'bucket') {
    stopsBecause = 'bucket';
    stopsAfter = bound.bucketSeconds;
    if (stopsAfter === undefined) {
      // A bucket whose name does not say its period (`window`, `period`): drawn as a day, and said so.
      stopsAfter = DAY;
      assumedBucketPeriod = bound.column;
    }
  }
  const ttl = bound.kind === 'ttl' ? bound.ttlSeconds : undefined;
  if (ttl && (stopsAfter === undefined || ttl < stopsAfter)) {
    stopsAfter = ttl;
    stopsBecause = 'ttl';
  }
  // A partition that can hold only so many rows (few-valued clustering, or none) stops when it holds them:
  // the rules project no rate past them, and neither does the curve.
  const full = workload.rowsBound ? workload.rowsBound.rows / rate : undefined;
  if (full !== undefined && (stopsAfter === undefined || full < stopsAfter)) {
    stopsAfter = full;
    stopsBecause = 'rows';
  }
  const limits = limitLines(table, target, hints, udts, growthRate);
  const cure = table.clustering.length ? cureFor(own, options.shardCount) : undefined;
  let curedRate = rate;
  let curedStop = stopsAfter;
  let curedBecause = stopsBecause;
  // The fix's own figures: the rows per second one partition takes after it (its shards split the rate).
  if (cure?.plan.figures) curedRate = cure.plan.figures.rowsPerSecondAfter;
  else if (cure?.shardCount) curedRate = rate / cure.shardCount;
  if (cure?.bucketSeconds !== undefined && (curedStop === undefined || cure.bucketSeconds < curedStop)) {
    curedStop = cure.bucketSeconds;
    curedBecause = 'bucket';
  }
  for (const line of limits) {
    line.secondsToday = secondsToRows(line.rowsAtLimit, rate, stopsAfter);
    if (cure) line.secondsCured = secondsToRows(line.rowsAtLimit, curedRate, curedStop);
  }
  const binding = limits.find((l) => l.binding);
  // The rules that speak of this partition's size: the size rules, and hot-partition when the few
  // partitions it names also keep growing (no time bucket closes them).
  const reported = own.find(
    (f) =>
      f.ruleId === 'unbounded-partition' ||
      f.ruleId === 'large-partition' ||
      (isFindingOf(f, 'hot-partition') && (f.data.growth !== undefined || f.data.reason !== 'time-bucket')),
  )?.ruleId;
  // Rows arrive in a partition over time as the partition rules judge it (rowsArrive): per event, at a
  // hinted rate, or piling up under a key many entities share; a table without clustering holds one row.
  const grows = table.clustering.length > 0 && rowsArrive(workload);
  // When the first limit is reached: within the partition's life, or (growing forever) at the rate.
  const secondsToFirst =
    binding?.secondsToday ??
    (binding && stopsAfter === undefined && Number.isFinite(binding.rowsAtLimit)
      ? binding.rowsAtLimit / rate
      : undefined);
  const verdict = growthVerdict(workload, grows, reported, stopsAfter, secondsToFirst);
  // The horizon shows the last limit being crossed (or the partition levelling off), within 1 hour .. 20 years.
  const crossings = limits.map((l) => l.secondsToday).filter((s): s is number => s !== undefined);
  let horizon = crossings.length ? Math.max(...crossings) * 1.25 : stopsAfter !== undefined ? stopsAfter * 3 : YEAR;
  if (curedStop !== undefined) horizon = Math.max(horizon, curedStop * 1.5);
  horizon = Math.min(Math.max(horizon, 3600), 20 * YEAR);
  const count = options.points ?? 60;
  const extra = [...crossings, ...limits.map((l) => l.secondsCured).filter((s): s is number => s !== undefined)];
  const today = grows
    ? growthCurve(table, hints, udts, rate, horizon, count, extra, stopsAfter, stopsBecause)
    : undefined;
  const growth: GrowthData = {
    rowsPerSecond: rate,
    rateSource: growthRate.source,
    rateNote: growthRate.note,
    bytesPerRow,
    fixedBytes,
    horizonSeconds: horizon,
    ...(today ? { today } : {}),
    cured:
      cure && grows
        ? growthCurve(table, hints, udts, curedRate, horizon, count, extra, curedStop, curedBecause)
        : undefined,
    cure,
    limits,
    verdict,
    ...(assumedBucketPeriod ? { assumedBucketPeriod } : {}),
  };
  const fit = bucketFit(table, target, hints, udts, workload, growthRate);
  if (fit) growth.bucketFit = fit;

  const throughput: ThroughputRow[] = throughputEstimates(table, target, hints, udts, options.sample).map((t) => {
    const shards = cure?.shardCount ?? table.shard?.count;
    const row: ThroughputRow = {
      kind: t.kind,
      perSecond: t.perSecond,
      unitsPerSecond: t.unitsPerSecond,
      unit: t.unit,
      limit: t.limit,
      label: t.label,
      source: t.source,
      shardsNeeded: t.shardsNeeded,
    };
    // An existing @shard table's hints are already per shard partition (partition-throughput says so).
    if (cure?.shardCount && shards) {
      row.shards = shards;
      row.unitsPerShard = t.unitsPerSecond / shards;
    }
    return row;
  });

  const partitionKey = table.partitionKey.map((c) => c.name);
  const lineOf = (filePath: string, offset: number): number => project.positions(filePath)?.location(offset).line ?? 1;
  const queries: QueryReference[] = references.map((r) => {
    const facts = queryAccess(project, table, r);
    return {
      file: r.file,
      line: lineOf(r.file, r.range.start),
      kind: r.kind,
      pinned: r.pinned,
      ranged: r.ranged,
      singlePartition: partitionKey.every((c) => r.pinned.includes(c)),
      access: facts.access,
      reads: facts.reads,
      findings: attributed.queries.filter((q) => q.reference === r).map((q) => q.finding.ruleId),
    };
  });
  const findings: ReportFinding[] = [
    ...own.map((f) => ({
      ruleId: f.ruleId,
      severity: f.severity,
      message: f.message,
      on: 'table' as const,
      file: table.filePath,
      line: f.range.start.line,
    })),
    ...attributed.queries.map(({ reference, finding: f }) => ({
      ruleId: f.ruleId,
      severity: f.severity,
      message: f.message,
      on: 'query' as const,
      file: reference.file,
      line: f.range.start.line,
    })),
  ];
  const isHot = own.some((f) => f.ruleId === 'hot-partition' || f.ruleId === 'partition-throughput');
  const namePosition = project.positions(table.filePath)?.positionAt(table.nameRange.start) ?? {
    line: 0,
    character: 0,
  };
  return {
    table: table.qualifiedName,
    kind: table.kind,
    file: table.filePath,
    line: lineOf(table.filePath, table.range.start),
    namePosition,
    target: { id: target.id, name: target.name },
    columns: table.columns.map((c) => {
      const s = sizes.columns.find((x) => x.name === c.name);
      return {
        name: c.name,
        type: c.typeText,
        mark: markOf(c),
        keyPosition: c.keyPosition,
        bytes: s?.bytes ?? 0,
        hinted: s?.hinted ?? false,
      };
    }),
    partitionKey,
    clustering: table.clustering.map((c) => c.name),
    shardFormula: table.shard ? formatShardFormula(table.shard) : undefined,
    defaultTtlSeconds: table.defaultTtlSeconds,
    hints,
    rowSizes: {
      partitionKeyBytes: sizes.partitionKeyBytes,
      staticBytes: sizes.staticBytes,
      rowBytes: sizes.rowBytes,
      valuesPerRow: sizes.valuesPerRow,
      bytesPerRow,
    },
    sizeTerms: sizeTermsOf(table, hints, udts, options.sample, limits),
    findings,
    severity: worstSeverity(findings.map((f) => f.severity)),
    queries,
    growth,
    spread: spreadFor(table, cure, options.sample, today ?? { rowsPerSecond: rate, stopsAfterSeconds: stopsAfter }),
    ...(isHot ? { traffic: trafficOf(project, table, workload, hints, options.sample, cure, options.ring) } : {}),
    popularity: popularityOf(table, hints, options.sample),
    throughput,
    sample: options.sample,
    sampleVerdict: options.sample ? sampleVerdict(table, target, hints, udts, options.sample) : undefined,
    sampleChosen: options.sample && options.sampleChosen ? true : undefined,
    guardrails: reportGuardrails(project, table),
    cluster: clusterPanelData(
      table,
      evidence,
      target,
      hints,
      { sizing: udts, token: udtLookupFor(project.schema()) },
      {
        ring: options.ring,
        replication: table.keyspace ? project.schema().keyspaces.get(table.keyspace)?.replication : undefined,
        hot: measuredHot(inputs, workload),
        ...(cure
          ? {
              cure: {
                shardCount: cure.plan.shard?.count,
                bucketSeconds: cure.bucketSeconds,
                description: cure.description,
              },
              suggestedKey: keyText(
                [...partitionKey, ...addedKeyColumns(cure.plan)],
                table.clustering.map((c) => c.name),
              ),
            }
          : {}),
      },
    ),
  };
}

/** The cluster guardrails in force for a table, under the settings of the file that defines it. */
function reportGuardrails(project: Project, table: TableInfo): PartitionReportData['guardrails'] {
  const cluster = project.clusterSettings(table.filePath);
  const rows = cluster
    ? tableGuardrails(cluster, table).map((s) => ({ setting: s.writtenKey, value: formatSetting(s), source: s.source }))
    : [];
  return rows.length ? rows : undefined;
}
