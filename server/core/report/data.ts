// The partition report of one table as plain data: key diagram, growth curve against the target's limits
// (today and with the cure the quick fix would add), shard spread, throughput per partition and, with a
// sample, the partitions measured from real rows. Every figure comes from the functions the rules, hovers
// and fixes use (sizing.ts, targets.ts, the shard maths, the fixes' bucket and shard choices); the HTML
// view only draws these numbers.
import type { Finding, Severity } from '../findings';
import { isFindingOf, type FindingOf } from '../findings-data';
import type { Project } from '../project';
import type { TableHints } from '../config/types';
import { type ColumnInfo, type TableInfo, columnNamed } from '../schema/model';
import { columnWords, isTimeBucket } from '../schema/columns';
import { nativeName } from '../schema/types';
import {
  CELL_METADATA_BYTES, estimatePartition, partitionFigures, rowSizes, sampleVerdict, throughputEstimates, udtLookupFrom, type SampleVerdict, type UdtLookup,
} from '../sizing';
import type { TargetInfo } from '../targets';
import { formatShardFormula, type ShardMethod, type ShardSpec } from '../token/shard';
import { randomShardDraw, sampleFamilyFor, shardHistogram, skewSamples, type SampleFamily, type ShardCounts } from '../token/skew';
import { projectFixEnvironment } from '../fixes/environment';
import { preferredPartitionPlan, type FixEnvironment } from '../fixes';
import { BUCKETS } from '../fixes/partition-plans';
import type { BucketGranularity } from '../fixes/bucket-values';
import type { SampleSummary } from './sample';
import { DEFAULT_ROWS_PER_SECOND, growthRateOf, tableWorkload, type GrowthRate } from '../schema/workload';

type KeyMark = 'K' | 'C↑' | 'C↓' | 'S' | '';

interface KeyDiagramColumn {
  name: string;
  type: string;
  mark: KeyMark;
  /** Position in the partition key or clustering columns (0-based); -1 otherwise. */
  keyPosition: number;
  /** Estimated bytes of a value (rowSizes), and whether a hint set it. */
  bytes: number;
  hinted: boolean;
}

interface LimitLine {
  /** What is limited: partition bytes, rows or values per partition. */
  kind: 'bytes' | 'ideal-bytes' | 'rows' | 'values';
  label: string;
  source: string;
  /** The partition size (bytes) at which the limit is reached: the line's height on the chart. */
  bytes: number;
  /** Rows per partition at which it is reached (rowsToReachBytes / rowsToReachValues, as the rules compute). */
  rowsAtLimit: number;
  /** The limit hit first: the one the partition rules cite. */
  binding?: boolean;
  /** When today's curve reaches it (seconds from the first row), if it ever does. */
  secondsToday?: number;
  /** When the cured curve reaches it, if it ever does. */
  secondsCured?: number;
}

interface GrowthPoint {
  seconds: number;
  rows: number;
  bytes: number;
}

export interface GrowthCurve {
  /** Rows per second into this partition. */
  rowsPerSecond: number;
  /** After this many seconds the partition receives no more rows (its time bucket is over, or TTL keeps it steady). */
  stopsAfterSeconds?: number;
  /** Why it stops: 'bucket' (the key's time bucket), 'ttl' (default_time_to_live). */
  stopsBecause?: 'bucket' | 'ttl';
  points: GrowthPoint[];
}

interface Cure {
  kind: 'bucket' | 'shard';
  /** What the quick fix adds, in words: "a day bucket (day date)", "16 shards: murmur3(title) % 16 + 1". */
  description: string;
  granularity?: BucketGranularity;
  shardCount?: number;
}

interface GrowthData {
  rowsPerSecond: number;
  /** 'hint' (rowsPerSecondPerPartition / writesPerSecondPerPartition) or 'default' (the workload model's, by rate class). */
  rateSource: 'hint' | 'default';
  /** Where the rate comes from, as the rules' messages say it. */
  rateNote: string;
  /** Bytes one row adds (row values plus cell metadata) and the fixed part per partition. */
  bytesPerRow: number;
  fixedBytes: number;
  horizonSeconds: number;
  today: GrowthCurve;
  cured?: GrowthCurve;
  cure?: Cure;
  limits: LimitLine[];
}

export interface ShardHistogram {
  formula: string;
  method: ShardMethod;
  /** N, the number of shards. */
  count: number;
  /**
   * Rows per bar: one bar per shard up to MAX_SHARD_BARS (index 0 = shard value `offset`), else bar i
   * holds the shards from offset + i·shardsPerBar on.
   */
  counts: number[];
  shardsPerBar: number;
  offset: number;
  /** Rows of the fullest shard; undefined (like maxOverMean and emptyShards) when rows fell in too many shards to count each. */
  max?: number;
  mean: number;
  maxOverMean?: number;
  emptyShards?: number;
}

export interface SpreadData {
  /** 'annotation': the table's `-- @shard`; 'proposed': what the shard fix would add. */
  origin: 'annotation' | 'proposed';
  formula: string;
  /** The formula's parts (what a sample is spread with). */
  shard: Pick<ShardSpec, 'method' | 'sources' | 'count' | 'offset'>;
  sourceColumn?: string;
  /** Where the values come from: the sample file, synthetic values like the column's (skew.ts), or random(N)'s seeded draw. */
  valuesFrom: { kind: 'sample'; file: string } | { kind: 'synthetic'; family: SampleFamily } | { kind: 'draw' };
  values: number;
  /** The formula as written or proposed. */
  histogram: ShardHistogram;
  /** The other formula on the same values, for comparison (murmur3 beside codepoints). */
  comparison?: ShardHistogram;
  /**
   * random(N) without a sample: the rows one partition takes in a day at the growth rate (or until its
   * bucket closes), spread uniformly; the histogram is a draw of those rows with a fixed seed.
   */
  random?: { rows: number; seconds: number; expectedPerShard: number; drawn: number };
}

interface ThroughputRow {
  kind: 'writes' | 'reads';
  perSecond: number;
  unitsPerSecond: number;
  unit: string;
  limit: number;
  label: string;
  source: string;
  shardsNeeded: number;
  /** After sharding N ways: units per second on each shard's partition. */
  shards?: number;
  unitsPerShard?: number;
}

interface QueryReference {
  file: string;
  line: number;
  kind: string;
  pinned: readonly string[];
  ranged: readonly string[];
  /** Pins the whole partition key (a single-partition query). */
  singlePartition: boolean;
}

interface ReportFinding {
  ruleId: string;
  severity: Severity;
  message: string;
  line: number;
}

export interface PartitionReportData {
  table: string;
  kind: 'table' | 'view';
  file: string;
  line: number;
  target: { id: string; name: string };
  columns: KeyDiagramColumn[];
  partitionKey: string[];
  clustering: string[];
  shardFormula?: string;
  defaultTtlSeconds?: number;
  hints?: TableHints;
  rowSizes: { partitionKeyBytes: number; staticBytes: number; rowBytes: number; valuesPerRow: number; bytesPerRow: number };
  findings: ReportFinding[];
  /** Highest severity among the findings (the index sorts by it). */
  severity?: Severity;
  /** The workspace's statements on the table (Project.referencesTo), with the columns each pins. */
  queries: QueryReference[];
  growth: GrowthData;
  spread?: SpreadData;
  throughput: ThroughputRow[];
  sample?: SampleSummary;
  /** The sample against the target's limits: the verdict large-partition and the hover state. */
  sampleVerdict?: SampleVerdict;
  /** The sample was chosen for this report, not named by .cqlint.json: the diagnostics do not use it. */
  sampleChosen?: boolean;
}

export interface ReportOptions {
  sample?: SampleSummary;
  /** See PartitionReportData.sampleChosen. */
  sampleChosen?: boolean;
  /** The `cqlint.shardCount` setting (shards the fix adds without workload numbers). */
  shardCount?: number;
  /** Points on each growth curve (besides the exact stop and crossing points). */
  points?: number;
}

const SEVERITY_RANK: Record<Severity, number> = { error: 3, warning: 2, info: 1 };

export function severityRank(severity: Severity | undefined): number {
  return severity ? SEVERITY_RANK[severity] : 0;
}

function markOf(col: ColumnInfo): KeyMark {
  if (col.role === 'partition') return 'K';
  if (col.role === 'clustering') return col.order === 'DESC' ? 'C↓' : 'C↑';
  if (col.role === 'static') return 'S';
  return '';
}

/** The period of a time-bucket column (`day date`, `log_hour timestamp`, `yyyymm text`), when its name or type says. */
function bucketPeriodSeconds(col: ColumnInfo): number | undefined {
  if (!isTimeBucket(col)) return undefined;
  const words = columnWords(col.name);
  const has = (...w: string[]): boolean => words.some((x) => w.includes(x));
  if (has('hour', 'hourly', 'yyyymmddhh')) return BUCKETS.hour.seconds;
  if (has('day', 'daily', 'yyyymmdd', 'date')) return BUCKETS.day.seconds;
  if (has('week', 'weekly')) return 7 * BUCKETS.day.seconds;
  if (has('month', 'monthly', 'yyyymm')) return BUCKETS.month.seconds;
  if (has('year', 'yearly', 'yyyy')) return BUCKETS.year.seconds;
  if (nativeName(col.type) === 'date') return BUCKETS.day.seconds;
  return undefined;
}

/**
 * The target's partition limits as lines, from partitionFigures (the figures the partition rules and the
 * hover state): bytes (hard and ideal) and rows/values, with the rows reaching each; `binding` marks the
 * limit hit first.
 */
function limitLines(table: TableInfo, target: TargetInfo, hints: TableHints | undefined, udts: UdtLookup | undefined, rate?: GrowthRate): LimitLine[] {
  const figures = partitionFigures(table, target, hints, udts, rate);
  const reaches = [...figures.limits, ...(figures.ideal && Number.isFinite(figures.ideal.rows) ? [figures.ideal] : [])];
  return reaches.map((l) => ({
    kind: l === figures.ideal ? 'ideal-bytes' as const : l.measure,
    label: l.label,
    source: l.source,
    // Rows and values limits are drawn at the size the partition has when it reaches them.
    bytes: l.measure === 'bytes' ? l.value : estimatePartition(table, l.rows, hints, udts).bytes,
    rowsAtLimit: l.rows,
    ...(l === figures.binding ? { binding: true } : {}),
  })).sort((a, b) => a.bytes - b.bytes);
}

/** The curve of one partition's size: rows arrive at `rate` until `stopsAfter` seconds, sizes by estimatePartition. */
function growthCurve(table: TableInfo, hints: TableHints | undefined, udts: UdtLookup | undefined, rate: number,
  horizon: number, count: number, extraTimes: number[], stopsAfter?: number, stopsBecause?: GrowthCurve['stopsBecause']): GrowthCurve {
  const times = new Set<number>();
  for (let i = 0; i <= count; i++) times.add((horizon * i) / count);
  for (const t of extraTimes) if (t >= 0 && t <= horizon) times.add(t);
  if (stopsAfter !== undefined && stopsAfter <= horizon) times.add(stopsAfter);
  const points = [...times].sort((a, b) => a - b).map((seconds) => {
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

/** The table's findings from the project (the CREATE statement's range), most severe first. */
function tableFindings(project: Project, table: TableInfo): Finding[] {
  const start = table.range.start;
  const end = table.range.end;
  return project.lint(table.filePath).filter((f) => f.range.start.offset >= start && f.range.end.offset <= end);
}

/** What the preferred quick fix adds to this table: the plan of its partition finding's preferred fix (one verdict with the lint). */
function cureFor(project: Project, table: TableInfo, findings: Finding[], env: FixEnvironment): Cure | undefined {
  const text = project.getText(table.filePath);
  if (text === undefined) return undefined;
  const parse = project.parse(table.filePath);
  const order = ['unbounded-partition', 'large-partition', 'hot-partition', 'partition-throughput'];
  const partition = findings.filter((f) => order.includes(f.ruleId)).sort((a, b) => order.indexOf(a.ruleId) - order.indexOf(b.ruleId));
  for (const finding of partition) {
    const plan = preferredPartitionPlan(text, parse, finding, env);
    if (!plan) continue;
    const parts: string[] = [];
    if (plan.bucket) parts.push(`a ${plan.bucket.granularity} bucket (${plan.bucket.column} ${plan.bucket.type}) in the partition key${plan.bucket.source ? `, by ${plan.bucket.source}` : ''}`);
    if (plan.shard) parts.push(`${plan.shard.count} shards: ${formatShardFormula(plan.shard)}`);
    return {
      kind: plan.bucket ? 'bucket' : 'shard',
      description: parts.join(' and '),
      ...(plan.bucket ? { granularity: plan.bucket.granularity } : {}),
      ...(plan.shard ? { shardCount: plan.shard.count } : {}),
    };
  }
  return undefined;
}

function histogramOf(method: ShardMethod, count: number, offset: number, counts: ShardCounts, sourceColumns: string[]): ShardHistogram {
  const mean = counts.total / count;
  const max = counts.fullest?.rows;
  return {
    formula: formatShardFormula({ method, sources: sourceColumns, count, offset }),
    method, count, counts: counts.bars, shardsPerBar: counts.shardsPerBar, offset, max, mean,
    maxOverMean: max === undefined ? undefined : mean > 0 ? max / mean : 0,
    emptyShards: counts.emptyShards,
  };
}

/** Rows of one partition the random(N) spread is shown over: a day's at the growth rate, or until the partition stops. */
function randomRows(growth: { rowsPerSecond: number; stopsAfterSeconds?: number }): { rows: number; seconds: number } {
  const seconds = Math.min(DAY, growth.stopsAfterSeconds ?? DAY);
  return { rows: Math.max(1, Math.round(growth.rowsPerSecond * seconds)), seconds };
}

/** Shard spread of the table's @shard formula, or of the one the shard fix proposes, on sample or synthetic values. */
function spreadFor(table: TableInfo, cure: Cure | undefined, findings: Finding[], sample: SampleSummary | undefined, growth: GrowthCurve): SpreadData | undefined {
  let origin: SpreadData['origin'];
  let method: ShardMethod;
  let sources: string[];
  let count: number;
  let offset: number;
  if (table.shard) {
    origin = 'annotation';
    ({ method, sources, count, offset } = table.shard);
  } else if (cure?.kind === 'shard') {
    origin = 'proposed';
    const hot = findings.find((f): f is FindingOf<'hot-partition'> => isFindingOf(f, 'hot-partition'));
    const candidates = hot?.data.candidates ?? [];
    method = candidates.length ? 'murmur3' : 'random';
    sources = candidates.slice(0, 1);
    count = cure.shardCount ?? 16;
    offset = 1;
  } else {
    return undefined;
  }
  const sourceColumn = sources[0];
  const sourceType = sourceColumn ? nativeName(columnNamed(table, sourceColumn)?.type) : undefined;
  const textual = sourceType === 'text' || sourceType === 'varchar' || sourceType === 'ascii';
  if (sample?.spread && sample.spread.formula === formatShardFormula({ method, sources, count, offset })) {
    const s = sample.spread;
    return {
      origin, formula: s.formula, shard: { method, sources, count, offset }, sourceColumn, valuesFrom: { kind: 'sample', file: sample.file }, values: s.rows,
      histogram: histogramOf(method, count, offset, s.counts, sources),
      comparison: s.comparisonCounts ? histogramOf(method === 'codepoints' ? 'murmur3' : 'codepoints', count, offset, s.comparisonCounts, sources) : undefined,
    };
  }
  if (method === 'random') {
    // random() reads no column: what matters is how many rows land in each shard, not whose.
    const { rows, seconds } = randomRows(growth);
    const draw = randomShardDraw(count, rows);
    const histogram = histogramOf(method, count, offset, draw.counts, sources);
    return {
      origin, formula: histogram.formula, shard: { method, sources, count, offset }, sourceColumn, valuesFrom: { kind: 'draw' },
      values: draw.drawn, histogram, random: { rows, seconds, expectedPerShard: rows / count, drawn: draw.drawn },
    };
  }
  const family = sampleFamilyFor(sourceColumn ?? table.partitionKey[0]?.name ?? 'id');
  const values = skewSamples()[family];
  const histogram = histogramOf(method, count, offset, shardHistogram({ method, count }, values), sources);
  let comparison: ShardHistogram | undefined;
  // codepoints() only takes text: compare on text sources, where users choose between the two.
  if (textual) {
    const other: ShardMethod = method === 'codepoints' ? 'murmur3' : 'codepoints';
    comparison = histogramOf(other, count, offset, shardHistogram({ method: other, count }, values), sources);
  }
  return { origin, formula: histogram.formula, shard: { method, sources, count, offset }, sourceColumn, valuesFrom: { kind: 'synthetic', family }, values: values.length, histogram, comparison };
}

/**
 * Every figure of one table's partition report. `hints` are the table's workload hints (from the config
 * that applies to its file); `target` the database whose limits apply.
 */
export function partitionReportData(project: Project, table: TableInfo, target: TargetInfo, hints: TableHints | undefined, options: ReportOptions = {}): PartitionReportData {
  const udts = udtLookupFrom(project.schema());
  const sizes = rowSizes(table, hints, udts);
  const bytesPerRow = sizes.rowBytes + sizes.valuesPerRow * CELL_METADATA_BYTES;
  const fixedBytes = estimatePartition(table, 0, hints, udts).bytes;
  const findings = tableFindings(project, table);
  const env: FixEnvironment = { ...projectFixEnvironment(project, table.filePath, { shardCount: options.shardCount }), target };

  // Growth: rows per second into one partition (the rules' workload model: the hint or its stated
  // default), until the key's time bucket closes or the TTL (default_time_to_live or USING TTL) balances it.
  const workload = tableWorkload(table, hints, project.referencesTo(table));
  const rate = workload.rowsPerSecond > 0 ? workload.rowsPerSecond : DEFAULT_ROWS_PER_SECOND[workload.rateClass];
  const bucketSeconds = table.partitionKey.map(bucketPeriodSeconds).filter((s): s is number => s !== undefined);
  let stopsAfter: number | undefined;
  let stopsBecause: GrowthCurve['stopsBecause'];
  if (bucketSeconds.length) {
    stopsAfter = Math.min(...bucketSeconds);
    stopsBecause = 'bucket';
  }
  const ttl = workload.bound.kind === 'ttl' ? workload.bound.ttlSeconds : undefined;
  if (ttl && (stopsAfter === undefined || ttl < stopsAfter)) {
    stopsAfter = ttl;
    stopsBecause = 'ttl';
  }
  const limits = limitLines(table, target, hints, udts, growthRateOf(workload));
  const cure = table.clustering.length ? cureFor(project, table, findings, env) : undefined;
  let curedRate = rate;
  let curedStop = stopsAfter;
  let curedBecause = stopsBecause;
  if (cure?.shardCount) curedRate = rate / cure.shardCount;
  if (cure?.granularity) {
    const period = BUCKETS[cure.granularity].seconds;
    if (curedStop === undefined || period < curedStop) {
      curedStop = period;
      curedBecause = 'bucket';
    }
  }
  for (const line of limits) {
    line.secondsToday = secondsToRows(line.rowsAtLimit, rate, stopsAfter);
    if (cure) line.secondsCured = secondsToRows(line.rowsAtLimit, curedRate, curedStop);
  }
  // The horizon shows the last limit being crossed (or the partition levelling off), within 1 hour .. 20 years.
  const crossings = limits.map((l) => l.secondsToday).filter((s): s is number => s !== undefined);
  let horizon = crossings.length ? Math.max(...crossings) * 1.25 : stopsAfter !== undefined ? stopsAfter * 3 : YEAR;
  if (curedStop !== undefined) horizon = Math.max(horizon, curedStop * 1.5);
  horizon = Math.min(Math.max(horizon, 3600), 20 * YEAR);
  const count = options.points ?? 60;
  const extra = [...crossings, ...limits.map((l) => l.secondsCured).filter((s): s is number => s !== undefined)];
  const growth: GrowthData = {
    rowsPerSecond: rate,
    rateSource: workload.rateHinted ? 'hint' : 'default',
    rateNote: growthRateOf(workload).note,
    bytesPerRow,
    fixedBytes,
    horizonSeconds: horizon,
    today: growthCurve(table, hints, udts, rate, horizon, count, extra, stopsAfter, stopsBecause),
    cured: cure ? growthCurve(table, hints, udts, curedRate, horizon, count, extra, curedStop, curedBecause) : undefined,
    cure,
    limits,
  };

  const throughput: ThroughputRow[] = throughputEstimates(table, target, hints, udts, options.sample).map((t) => {
    const shards = cure?.kind === 'shard' ? cure.shardCount : table.shard?.count;
    const row: ThroughputRow = {
      kind: t.kind, perSecond: t.perSecond, unitsPerSecond: t.unitsPerSecond, unit: t.unit, limit: t.limit,
      label: t.label, source: t.source, shardsNeeded: t.shardsNeeded,
    };
    // An existing @shard table's hints are already per shard partition (partition-throughput says so).
    if (cure?.kind === 'shard' && shards) {
      row.shards = shards;
      row.unitsPerShard = t.unitsPerSecond / shards;
    }
    return row;
  });

  const partitionKey = table.partitionKey.map((c) => c.name);
  const lineOf = (filePath: string, offset: number): number => (project.lineIndex(filePath)?.lineAt(offset) ?? 0) + 1;
  const queries: QueryReference[] = project.referencesTo(table).map((r) => ({
    file: r.file, line: lineOf(r.file, r.range.start), kind: r.kind, pinned: r.pinned, ranged: r.ranged,
    singlePartition: partitionKey.every((c) => r.pinned.includes(c)),
  }));

  const severity = findings.reduce<Severity | undefined>((best, f) => (severityRank(f.severity) > severityRank(best) ? f.severity : best), undefined);
  return {
    table: table.qualifiedName,
    kind: table.kind,
    file: table.filePath,
    line: lineOf(table.filePath, table.range.start),
    target: { id: target.id, name: target.name },
    columns: table.columns.map((c) => {
      const s = sizes.columns.find((x) => x.name === c.name);
      return { name: c.name, type: c.typeText, mark: markOf(c), keyPosition: c.keyPosition, bytes: s?.bytes ?? 0, hinted: s?.hinted ?? false };
    }),
    partitionKey,
    clustering: table.clustering.map((c) => c.name),
    shardFormula: table.shard ? formatShardFormula(table.shard) : undefined,
    defaultTtlSeconds: table.defaultTtlSeconds,
    hints,
    rowSizes: { partitionKeyBytes: sizes.partitionKeyBytes, staticBytes: sizes.staticBytes, rowBytes: sizes.rowBytes, valuesPerRow: sizes.valuesPerRow, bytesPerRow },
    findings: findings.map((f) => ({ ruleId: f.ruleId, severity: f.severity, message: f.message, line: f.range.start.line })),
    severity,
    queries,
    growth,
    spread: spreadFor(table, cure, findings, options.sample, growth.today),
    throughput,
    sample: options.sample,
    sampleVerdict: options.sample ? sampleVerdict(table, target, hints, udts, options.sample) : undefined,
    sampleChosen: options.sample && options.sampleChosen ? true : undefined,
  };
}
