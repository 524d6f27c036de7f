// The shape of the partition report's data (data.ts computes it, the HTML view draws it): plain,
// JSON-serialisable figures.
import type { Severity } from '../findings/findings';
import type { TableHints } from '../vocabulary/config';
import type { BucketFit, SampleVerdict } from '../partition/sizing';
import type { ShardMethod, ShardSpec } from '../token/shard';
import type { SampleFamily } from '../token/skew';
import type { Ring } from '../token/ring';
import type { FigureSource, PartitionPlan } from '../partition/plan';
import type { SampleSummary } from './sample';
import type { KeyMark } from './keyspace';
import type { QueryAccess } from './queries';
import type { LintOf } from './table-findings';
import type { ClusterPanelData } from './cluster';

export interface KeyDiagramColumn {
  name: string;
  type: string;
  mark: KeyMark;
  /** Position in the partition key or clustering columns (0-based); -1 otherwise. */
  keyPosition: number;
  /** Estimated bytes of a value (rowSizes), and whether a hint set it. */
  bytes: number;
  hinted: boolean;
}

export interface LimitLine {
  /** What is limited: partition bytes, rows or values per partition. */
  kind: 'bytes' | 'rows' | 'values';
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

export interface GrowthPoint {
  seconds: number;
  rows: number;
  bytes: number;
}

export interface GrowthCurve {
  /** Rows per second into this partition. */
  rowsPerSecond: number;
  /** After this many seconds the partition receives no more rows (its time bucket is over, or TTL keeps it steady). */
  stopsAfterSeconds?: number;
  /**
   * Why it stops: 'bucket' (the key's time bucket), 'ttl' (default_time_to_live or USING TTL), 'rows' (it
   * holds all the rows it can: few-valued clustering columns, or none).
   */
  stopsBecause?: 'bucket' | 'ttl' | 'rows';
  points: GrowthPoint[];
}

export interface Cure {
  /** What the fix changes: a time bucket, a shard, or both (shard first). */
  kind: 'bucket' | 'shard' | 'shard-and-bucket';
  /** What the preferred fix adds, in words: "a day bucket (day date) in the partition key, by ts", "16 shards: murmur3(title) % 16 + 1". */
  description: string;
  /** The rule whose finding the fix is for. */
  ruleId: string;
  /** The bucket's period, when the fix adds one. */
  bucketSeconds?: number;
  shardCount?: number;
  /** The preferred fix's own plan (fixes/key-change.ts): its columns and the figures it was sized from. */
  plan: PartitionPlan;
}

/**
 * Why the chart shows what it shows, in the rules' terms:
 * - `reported`: unbounded-partition or large-partition reports the table (the finding is listed);
 * - `no-growth`: the workload model sees no rows arriving per event (a row per entity, a lookup table);
 * - `bounded`: a time bucket, split column, TTL or a key that names something that ends bounds it;
 * - `beyond-horizon`: it grows, but reaches the first limit only after the rules' horizon;
 * - `not-reported`: it grows, but the rules leave this kind of table alone (one entity's history).
 */
export interface GrowthVerdict {
  kind: 'reported' | 'no-growth' | 'bounded' | 'beyond-horizon' | 'not-reported';
  text: string;
}

export interface GrowthData {
  rowsPerSecond: number;
  /** 'hint' (rowsPerSecondPerPartition / writesPerSecondPerPartition) or 'default' (the workload model's, by rate class). */
  /** Where the rate comes from: measured on the cluster, hinted, or the model's default. */
  rateSource: FigureSource;
  /** Where the rate comes from, as the rules' messages say it. */
  rateNote: string;
  /** Bytes one row adds (row values plus cell metadata) and the fixed part per partition. */
  bytesPerRow: number;
  fixedBytes: number;
  horizonSeconds: number;
  /** Absent when the partition does not grow with time (verdict `no-growth`). */
  today?: GrowthCurve;
  cured?: GrowthCurve;
  cure?: Cure;
  limits: LimitLine[];
  verdict: GrowthVerdict;
  /** A time bucket in the key whose period its name does not say: the curve assumes a day. */
  assumedBucketPeriod?: string;
  /** The time bucket's rows against the limit hit first: the computation large-partition reports (sizing.ts bucketFit). */
  bucketFit?: BucketFit;
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
  /** The source column's CQL type. */
  sourceType?: string;
  /**
   * Where the values come from: the sample file (evidence), random(N)'s seeded draw (the formula's own
   * maths), synthetic text values (a check of the code-point formula, not evidence of the data), or
   * none: murmur3 over distinct values is even by construction, so only real values can show skew.
   */
  valuesFrom:
    | { kind: 'sample'; file: string }
    | { kind: 'synthetic'; family: SampleFamily }
    | { kind: 'draw' }
    | { kind: 'none' };
  values: number;
  /** The formula as written or proposed (absent with valuesFrom `none`). */
  histogram?: ShardHistogram;
  /** The other formula on the same values, for comparison (murmur3 beside codepoints). */
  comparison?: ShardHistogram;
  /**
   * random(N) without a sample: the rows one partition takes in a day at the growth rate (or until its
   * bucket closes), spread uniformly; the histogram is a draw of those rows with a fixed seed.
   */
  random?: { rows: number; seconds: number; expectedPerShard: number; drawn: number };
}

export interface ThroughputRow {
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

export interface QueryReference {
  file: string;
  line: number;
  kind: string;
  pinned: readonly string[];
  ranged: readonly string[];
  /** Pins the whole partition key (a single-partition query). */
  singlePartition: boolean;
  /** How it reaches the partitions (queries.ts) and what it reads, in words. */
  access: QueryAccess;
  reads: string;
  /** Rule ids of the diagnostics on the statement. */
  findings: string[];
}

export interface ReportFinding {
  ruleId: string;
  severity: Severity;
  message: string;
  /** Where the diagnostic is: on the table's definition, or on a statement that uses it. */
  on: 'table' | 'query';
  file: string;
  line: number;
}

/** One term of the DS220 partition size formula, with the columns it sums. */
export interface SizeTerm {
  /** `pk`, `static`, `rows`, `metadata`. */
  id: 'pk' | 'static' | 'rows' | 'metadata';
  label: string;
  /** The term as written in the formula: "Σ sizeOf(partition key)". */
  formula: string;
  /** The term with its numbers: "16 + 8". */
  arithmetic: string;
  bytes: number;
  columns?: { name: string; bytes: number; hinted: boolean }[];
}

/**
 * The DS220 / Chebotko–Kashlev partition size, term by term, at `rows` rows:
 * St = Σ sizeOf(pk) + Σ sizeOf(static) + Nr × (Σ sizeOf(regular) + Σ sizeOf(clustering)) + Nv × 8,
 * Nv = Nr × (Nc − Npk − Ns) + Ns. `total` is estimatePartition's bytes (what the rules use).
 */
export interface SizeTerms {
  rows: number;
  /** Where Nr comes from: the rows= hint, the sample's largest partition, the rows at the first limit, or an example. */
  rowsFrom: 'hint' | 'sample' | 'limit' | 'example';
  columns: number;
  partitionKeyColumns: number;
  staticColumns: number;
  valuesPerRow: number;
  values: number;
  terms: SizeTerm[];
  total: number;
}

/**
 * Who takes a hot table's writes: the busiest partition's share of them, the replicas it lands on, and
 * the share after the fix shards it.
 */
export interface TrafficData {
  /** Partitions taking writes at one time (the model, or the hint's distinct values). */
  livePartitions?: number;
  /** Share of the table's writes the busiest partition takes today (0..1). */
  busiestShare?: number;
  /** The share is a lower bound: a few values take most of the traffic (skewed). */
  atLeast?: boolean;
  /** Where the share comes from: a sample's partitions (real key popularity), a distinct hint, or the workload model. */
  from: 'sample' | 'hint' | 'model';
  note: string;
  /** With a ring: the replicas of the busiest partition and the share of writes they take. */
  ring?: { nodes: number; replicas: number; evenShare: number; busiestReplicas?: string[] };
  afterFix?: { shards: number; busiestShare: number; shardsFrom: 'annotation' | 'fix' };
}

/** How popular the partition keys are, when a sample or a hint says (never from synthetic values). */
export interface KeyPopularity {
  from: 'sample' | 'hint';
  /** Sample: the largest partitions with their share of the sample's rows. */
  top?: { key: string[]; rows: number; share: number }[];
  /** Share of the rows in the listed partitions together. */
  topShare?: number;
  partitions?: number;
  /** Hint: distinct values of each partition key column. */
  distinct?: { column: string; values: number }[];
  note: string;
}

export interface PartitionReportData {
  table: string;
  kind: 'table' | 'view';
  file: string;
  line: number;
  /** 0-based line and character of the table's name (the editor opens it there). */
  namePosition: { line: number; character: number };
  target: { id: string; name: string };
  columns: KeyDiagramColumn[];
  partitionKey: string[];
  clustering: string[];
  shardFormula?: string;
  defaultTtlSeconds?: number;
  hints?: TableHints;
  rowSizes: {
    partitionKeyBytes: number;
    staticBytes: number;
    rowBytes: number;
    valuesPerRow: number;
    bytesPerRow: number;
  };
  sizeTerms: SizeTerms;
  /** The diagnostics of the table and of the statements on it (the table's first). */
  findings: ReportFinding[];
  /** Highest severity among the findings (the index sorts by it). */
  severity?: Severity;
  /** The workspace's statements on the table (Project.referencesTo), with the columns each pins. */
  queries: QueryReference[];
  growth: GrowthData;
  spread?: SpreadData;
  traffic?: TrafficData;
  popularity?: KeyPopularity;
  throughput: ThroughputRow[];
  sample?: SampleSummary;
  /** The sample against the target's limits: the verdict large-partition and the hover state. */
  sampleVerdict?: SampleVerdict;
  /** The sample was chosen for this report, not named by .cqlint.json: the diagnostics do not use it. */
  sampleChosen?: boolean;
  /** What the configured evidence measured on the cluster (cluster.ts). */
  cluster?: ClusterPanelData;
  /** The cluster's guardrails in force for the table (cluster/table-guardrails.ts), with their sources. */
  guardrails?: { setting: string; value: string; source: string }[];
}

export interface ReportOptions {
  sample?: SampleSummary;
  /** See PartitionReportData.sampleChosen. */
  sampleChosen?: boolean;
  /** The `cqlint.shardCount` setting (shards the fix adds without workload numbers). */
  shardCount?: number;
  /** Points on each growth curve (besides the exact stop and crossing points). */
  points?: number;
  /** The token ring .cqlint.json names (the traffic panel's replicas). */
  ring?: Ring;
  /** The files' diagnostics (default Project.lint; a report of many tables passes lintMemo). */
  lint?: LintOf;
}
