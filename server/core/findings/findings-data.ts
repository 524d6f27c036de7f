// What each rule puts in Finding.data, declared once: rules write it (`data: {...} satisfies
// FindingData<'hot-partition'>`), quick fixes read it through findingData(), so a rule and its fixes
// cannot drift apart without a type error (in the way of Langium's diagnostic data and rust-analyzer's
// typed diagnostics). Data stays JSON-serialisable: strings, numbers, booleans, arrays, SourceRanges.
import type { SourceRange } from '../../../grammar/ast';
import type { Finding } from './findings';
import type { TargetId } from '../partition/targets';
import type { EvidenceFindingData } from '../evidence/figures';
import type { FigureSource, PartitionPlan } from '../partition/plan';

/** Figures behind a partition message (the partition model's numbers for one table and target). */
export interface PartitionNumbers {
  rowBytes: number;
  /** The target's limit hit first and its source; absent when the target has no partition size limit (Keyspaces). */
  limitLabel?: string;
  limitSource?: string;
  rowsToLimit?: number;
  /** Time for one partition to reach the limit at the rate; absent when it never does (its time bucket closes first). */
  secondsToLimit?: number;
  /** The rows one partition takes before its time bucket closes (the rate × the bucket's length), when the key has one of known length. */
  rowsPerBucket?: number;
  /** The rate the time is computed at: hinted or the workload model's stated default. */
  rowsPerSecond?: number;
  /** Whether that rate is stated, measured or hinted (false: the verdict rests on the model's default rate). */
  rateHinted?: boolean;
  /** Where the rate comes from: measured on the cluster, hinted, or the model's default. */
  rateSource?: FigureSource;
}

/**
 * The cures the planner chose for a partition finding (partition/planner.ts), the preferred one first: the
 * message words the first, the fixes apply them as they are, the report draws the first.
 */
interface PartitionCures {
  plans?: PartitionPlan[];
}

export interface HotPartitionData extends PartitionCures {
  table: string;
  keyspace?: string;
  partitionKey: string[];
  /** 'measured': the samplers of toppartitions show one partition taking most of the traffic (evidence). */
  reason: 'time-bucket' | 'low-cardinality' | 'shard-only' | 'measured';
  /** Partitions that take writes at one time (26 for a first letter), when the model can count them. */
  livePartitions?: number;
  /** High-cardinality columns a calculated shard could hash. */
  candidates: string[];
  suggestedKey: string;
  statementRange: SourceRange;
  partitionKeyRange?: SourceRange;
  /** Set when the same key also grows without bound: the plans then add a time bucket too (suggestedBucket: its column), unless it is a work list. */
  growth?: { timeColumn: string; suggestedBucket: string };
  /** No clustering column, and each new item overwrites the partition's one row: the columns that tell items apart. */
  overwrittenBy?: string[];
  /**
   * A key of two or three values without clustering columns: the whole table is that many rows, so the
   * cure is another key, not a shard (a shard would copy the rows, not spread them).
   */
  wholeTable?: boolean;
  /**
   * The preferred plan bounds the growth unbounded-partition reports on this table too (a shard with a time
   * bucket): one fix answers both, and unbounded-partition's finding then refers to this one (curedBy).
   */
  curesGrowth?: boolean;
  numbers?: PartitionNumbers;
  /** The measured busiest partition, when evidence decided: its key, share of the sampled traffic and source line. */
  evidence?: EvidenceFindingData & { key: string; share: number };
}

export interface UnboundedPartitionData extends PartitionCures {
  table: string;
  keyspace?: string;
  partitionKey: string[];
  clustering: string[];
  timeColumn: string;
  timeColumnType: string;
  suggestedBucket: string;
  suggestedKey: string;
  statementRange: SourceRange;
  primaryKeyRange?: SourceRange;
  /** Estimated bytes per row. */
  rowBytes: number;
  /** Rows per second into one partition: hinted, or the stated default. */
  rowsPerSecond: number;
  /** The binding (finite) partition-size limit of the target, in bytes. */
  limitBytes: number;
  /** A TTL that is there but too long for the growth rate. */
  ttlSeconds?: number;
  numbers?: PartitionNumbers;
  /** The growth measured between two captures (the last one cited), when evidence decided. */
  evidence?: EvidenceFindingData & { bytesPerDay?: number; rowsPerDay?: number; days: number };
  /**
   * hot-partition reports this table too and its fix bounds this growth (its curesGrowth): this finding
   * refers to that one and carries no plans of its own (rules/one-answer.ts).
   */
  curedBy?: 'hot-partition';
}

export interface LargePartitionData extends PartitionCures {
  table: string;
  target: TargetId;
  rowBytes: number;
  limit: string;
  limitValue: number;
  source: string;
  rowsPerPartition?: number;
  estimatedBytes?: number;
  estimatedValues?: number;
  rowsAtLimit?: number;
  numbers?: PartitionNumbers;
  /** With a sample: what it measured (the finding judges these instead of the hint). */
  sample?: SampleFindingData;
  /** With evidence: the measured figure judged (it wins over a sample and the hints). */
  evidence?: EvidenceFindingData;
  /** A TTL shorter than the horizon bounds the partitions, at these many rows (past the limit). */
  ttl?: { seconds: number; source: string; rowsKept: number };
  /** A time bucket too coarse for the rate (sizing.ts bucketFit): what one bucket holds (the cure: `plans`). */
  bucket?: BucketFitData;
}

/** One time bucket's partition against the target's limit, and the bucket or shard count that fits. */
export interface BucketFitData {
  column: string;
  bucketSeconds: number;
  rowsPerSecond: number;
  rateHinted: boolean;
  rowsPerBucket: number;
  valuesPerBucket: number;
  bytesPerBucket: number;
  /** Rows at which the limit is reached, and seconds into each bucket until then. */
  rowsAtLimit: number;
  secondsToLimit: number;
  /** Where the rate comes from. */
  rateSource: FigureSource;
}

/** A sample's measured partitions, as the partition rules' data cite them. */
export interface SampleFindingData {
  file: string;
  partitions: number;
  maxRows: number;
  maxBytes: number;
  p99Rows: number;
  p99Bytes: number;
}

export interface PartitionThroughputData extends PartitionCures {
  table: string;
  target: TargetId;
  kind: 'writes' | 'reads';
  perSecond: number;
  unitsPerSecond: number;
  unit: string;
  /** The target's per-partition limit, in `unit` per second. */
  limit: number;
  shardsNeeded: number;
  source: string;
  partitionKey: string[];
  numbers?: PartitionNumbers;
  /** With a sample: the measured row size the units were computed from, and the sample's partitions. */
  rowOperationBytes?: number;
  sample?: SampleFindingData;
  /** With evidence: the measured rate (toppartitions count over its duration) that replaced the hint. */
  evidence?: EvidenceFindingData & { key: string };
  /** A hot counter on a target without a per-partition quota: `limit` is the counterWritesPerSecond option. */
  counter?: boolean;
}

export interface ShardMismatchData {
  table: string;
  shardColumn: string;
  valueRange: SourceRange;
  kind: 'mismatch' | 'out-of-range';
  /** The shard the formula gives for the row, when known. */
  expected?: number;
  actual: number;
  min: number;
  max: number;
}

export interface UnknownColumnData {
  table: string;
  column: string;
  suggestion?: string;
  columns: string[];
}

export interface UnrestrictedPartitionKeyData {
  table: string;
  partitionKey: string[];
  missing: string[];
  restricted: string[];
  whereRange?: SourceRange;
  /** The LIMIT literal of a query that scans. */
  limit?: number;
  shardColumn?: string;
  shardCount?: number;
  shardOnlyMissing?: boolean;
}

export interface IncompleteKeyWriteData {
  table: string;
  statement: 'INSERT' | 'UPDATE' | 'DELETE';
  missing: string[];
  partitionKey: string[];
  clustering: string[];
}

export interface AllowFilteringData {
  table?: string;
  allowFilteringRange: SourceRange;
  partitionRestricted: boolean;
  missing: string[];
  /** The index that serves the query, when one does. */
  index?: string;
  /** The cluster setting that refuses the query (allow_filtering_enabled), when the team's turns it off. */
  setting?: string;
}

export interface SecondaryIndexScanData {
  table: string;
  column: string;
  index?: string;
  indexKind: 'legacy' | 'sasi' | 'custom' | 'sai';
  missing: string[];
  /** Other indexes that could serve the query. */
  alternatives?: string[];
  /** Restricted regular columns the query would then filter (Cassandra wants ALLOW FILTERING). */
  needsFiltering?: string[];
  /** non_partition_restricted_index_query_enabled, when the cluster refuses the query. */
  setting?: string;
}

export interface LargeInPartitionKeyData {
  table: string;
  column: string;
  values: number;
  partitions: number;
  max: number;
  /** The cluster's partition_keys_in_select threshold `max` comes from, when one applies. */
  setting?: string;
}

export interface UnloggedBatchMultiPartitionData {
  partitions: number;
  tables: string[];
  batchRange: SourceRange;
}

export interface SimpleStrategyData {
  keyspace: string;
  replicationFactor?: string;
  suggestedReplication: string;
  /** simplestrategy_enabled, when the cluster refuses SimpleStrategy. */
  setting?: string;
}

export interface SkewedShardFormulaData {
  table: string;
  formula: string;
  method: string;
  count: number;
  fullestShare: number;
  emptyShards: number;
  suggestion?: string;
}

export interface InvalidShardAnnotationData {
  problem: 'syntax' | 'schema' | 'detached';
  table?: string;
}

/** A column problem of one table definition (duplicate, clustering order, static, counter, frozen). */
interface ColumnProblem {
  table: string;
  column: string;
}

export interface DuplicateColumnData extends ColumnProblem {
  /** Where the column was first defined, when this file says. */
  firstRange?: SourceRange;
}

export interface InvalidClusteringOrderData extends ColumnProblem {
  clustering: string[];
}

export interface ConflictingDefinitionData {
  table: string;
  /** The files of the other definitions, whose primary key differs. */
  others: string[];
}

export interface StaticWithoutClusteringData extends ColumnProblem {
  reason: 'in-primary-key' | 'no-clustering';
}

export interface CounterMixedData extends ColumnProblem {
  reason: 'in-primary-key' | 'mixed';
  counters?: string[];
}

export interface NonFrozenKeyCollectionData extends ColumnProblem {
  type: string;
  suggestedType: string;
}

export interface MissingPrimaryKeyData {
  table: string;
  columns: string[];
}

export interface InvalidHintData {
  problem: 'syntax' | 'schema' | 'detached';
  table?: string;
}

export interface InvalidSuppressionData {
  /** The id the comment names. */
  id: string;
  /** The nearest rule id, when one is close. */
  suggestion?: string;
}

export interface QueueTableData {
  table: string;
  partitionKey: string[];
  /** The clustering column the DELETE removes rows by. */
  column: string;
  /** The SELECT that reads a partition's oldest rows and the DELETE that removes them. */
  readFile: string;
  readRange: SourceRange;
  deleteFile: string;
  deleteRange: SourceRange;
  rowsPerSecond: number;
  rateHinted: boolean;
  gcGraceSeconds?: number;
  /** Tombstones one partition keeps for gc_grace_seconds at the rate (targets that state thresholds). */
  tombstonesKept?: number;
  secondsToWarn?: number;
  warnThreshold?: number;
  failThreshold?: number;
}

export interface StatusMoveData {
  table: string;
  /** The partition-key column whose value the row changes (a status). */
  column: string;
  from?: string;
  to?: string;
  inBatch: boolean;
  deleteFile: string;
  deleteRange: SourceRange;
  insertFile: string;
  insertRange: SourceRange;
}

export interface NonUniqueKeyData {
  table: string;
  clustering: string[];
  /** Regular columns that hold each item's identity, which the key leaves out. */
  identity: string[];
  suggestedKey: string;
  primaryKeyRange?: SourceRange;
}

export interface LwtHotPartitionData {
  table: string;
  statement: 'INSERT' | 'UPDATE' | 'DELETE';
  /** 'fixed-partition': the statement pins every partition-key column with a literal; 'few-partitions': the key itself is hot. */
  reason: 'fixed-partition' | 'few-partitions';
  partitionKey: string[];
  /** The literal partition key values the statement pins (fixed-partition). */
  values?: string[];
  livePartitions?: number;
}

export interface TtlWithoutTwcsData {
  table: string;
  ttlSeconds: number;
  ttlSource: 'default_time_to_live' | 'USING TTL';
  /** The compaction class in effect (SizeTieredCompactionStrategy when none is set). */
  compaction: string;
  timeColumn: string;
  windowUnit: 'MINUTES' | 'HOURS' | 'DAYS';
  windowSize: number;
  /** The option to set: `compaction = {'class': 'TimeWindowCompactionStrategy', ...}`. */
  suggestedOption: string;
}

export interface PartialPartitionKeyData {
  table: string;
  clause: 'distinct' | 'token' | 'group-by';
  /** The partition key columns the clause names, and those it misses (key order). */
  named: string[];
  missing: string[];
  partitionKey: string[];
}

export interface OverPartitionedReadData {
  table: string;
  /** The time bucket column of the partition key, and its length. */
  bucket: string;
  bucketSeconds: number;
  /** Partitions the read visits, and the most the rule allows (its maxPartitions option). */
  partitions: number;
  max: number;
  /** What made it visit them: the bucket's literal IN list, a range of literal times, or a literal LIMIT at the rows one bucket holds. */
  via: 'in' | 'range' | 'limit';
  rowsPerSecond: number;
  rateSource: 'measured' | 'hinted' | 'default';
  rowsPerPartition: number;
  bytesPerPartition: number;
  /** The floor of the window of partition sizes (partition/limits.ts MIN_PARTITION_BYTES). */
  minPartitionBytes: number;
  /** The planner's bucket for the rate (chooseBucket), and what the same read visits with it. */
  coarser: { granularity: string; rowsPerPartition: number; bytesPerPartition: number; partitions: number };
  /**
   * The cure (partition/planner.ts coarserBucketPlan, from the same chooseBucket): the coarser bucket in place
   * of the fine one; empty when there is none (a bucket that holds no time, a view), said in the details.
   */
  plans: PartitionPlan[];
}

export interface LowCardinalityIndexData {
  table: string;
  column: string;
  index?: string;
  distinct: number;
  signal: string;
}

/** Finding.data by rule id. Every rule that writes data has its entry; `syntax-error` writes none. */
/** guardrail-schema, guardrail-statement, guardrail-size: the cluster setting a finding is about. */
export type GuardrailData = {
  /** The yaml name (current spelling). */
  setting: string;
  /** What the server does: refuse, warn, or drop a property silently. */
  action: 'fail' | 'warn' | 'ignore';
  /** The value in force, as written in messages (`5 KiB`, `false`, `[ANY]`). */
  value: string;
  /** `cassandra.yaml:12` or `Cassandra 5.0 default`. */
  source: string;
  /** The count or size measured, when the setting is a threshold. */
  measured?: number;
};

/** The migration-safety rules (docs/migrations.md): the table a migration changes, and how. */
export interface MigrationChangeData {
  /** `ks.table` (of the base table, for a view). */
  table: string;
  /** The column the change is about. */
  column?: string;
  /** The primary key or the column's type before the change, and after it. */
  before?: string;
  after?: string;
  /** The migration file (its name in its folder) that created the table, when an earlier one did. */
  createdIn?: string;
  /** What the evidence measured of the table's size, when it was read. */
  measured?: string;
  /** The name of the table the safer plan creates. */
  newTable?: string;
  /** The safer plan, step by step, with its commands. */
  plan?: string[];
}

export interface FindingDataByRule {
  'hot-partition': HotPartitionData;
  'unbounded-partition': UnboundedPartitionData;
  'large-partition': LargePartitionData;
  'partition-throughput': PartitionThroughputData;
  'shard-mismatch': ShardMismatchData;
  'unknown-column': UnknownColumnData;
  'unrestricted-partition-key': UnrestrictedPartitionKeyData;
  'incomplete-key-write': IncompleteKeyWriteData;
  'allow-filtering': AllowFilteringData;
  'secondary-index-scan': SecondaryIndexScanData;
  'large-in-partition-key': LargeInPartitionKeyData;
  'unlogged-batch-multi-partition': UnloggedBatchMultiPartitionData;
  'simple-strategy': SimpleStrategyData;
  'skewed-shard-formula': SkewedShardFormulaData;
  'invalid-shard-annotation': InvalidShardAnnotationData;
  'duplicate-column': DuplicateColumnData;
  'invalid-clustering-order': InvalidClusteringOrderData;
  'static-without-clustering': StaticWithoutClusteringData;
  'counter-mixed': CounterMixedData;
  'non-frozen-key-collection': NonFrozenKeyCollectionData;
  'missing-primary-key': MissingPrimaryKeyData;
  'invalid-hint': InvalidHintData;
  'invalid-suppression': InvalidSuppressionData;
  'conflicting-definition': ConflictingDefinitionData;
  'queue-table': QueueTableData;
  'status-move': StatusMoveData;
  'guardrail-schema': GuardrailData;
  'guardrail-statement': GuardrailData;
  'guardrail-size': GuardrailData;
  'non-unique-key': NonUniqueKeyData;
  'lwt-hot-partition': LwtHotPartitionData;
  'ttl-without-twcs': TtlWithoutTwcsData;
  'low-cardinality-index': LowCardinalityIndexData;
  'partial-partition-key': PartialPartitionKeyData;
  'over-partitioned-read': OverPartitionedReadData;
  'primary-key-change': MigrationChangeData;
  'column-type-change': MigrationChangeData;
  'readd-dropped-column': MigrationChangeData;
  'destructive-migration': MigrationChangeData;
  'compaction-change-on-large-table': MigrationChangeData;
  'index-on-large-table': MigrationChangeData;
  'view-on-existing-table': MigrationChangeData;
}

export type RuleWithData = keyof FindingDataByRule;

export type FindingData<R extends RuleWithData> = FindingDataByRule[R];

/** A finding of one rule, with that rule's data (for a union of ids: a union discriminated by ruleId). */
export type FindingOf<R extends RuleWithData> = R extends RuleWithData
  ? Finding & { ruleId: R; data: FindingDataByRule[R] }
  : never;

/** Whether the finding comes from rule `ruleId` and carries data (rules write it with every finding). */
export function isFindingOf<R extends RuleWithData>(finding: Finding, ruleId: R): finding is FindingOf<R> {
  return finding.ruleId === ruleId && finding.data !== undefined;
}
