// What a partition cure does to a table's key, as the planner (planner.ts) decides it once: the shard and/or
// time bucket columns it adds (or the clustering bucket it moves into the key, or the columns that become
// clustering columns), the figures it was sized from, the reasons, and whether it cures the finding it was
// planned for. The partition rules put the plans in their finding data; the fixes apply them (statements
// rewritten by fixes/key-rewrite.ts, the schema by fixes/refactor.ts); the report draws them. JSON only.
import type { TableInfo } from '../schema/model';

/** The bucket lengths a plan adds, finest first. */
export type BucketGranularity = 'minute' | 'hour' | 'day' | 'month' | 'year';

export interface ShardPlan {
  /** The shard column's name as Cassandra sees it. */
  column: string;
  /**
   * `murmur3`: calculated from `sources`; `random`: any of 1..count, picked per write; `codepoints`:
   * Amazon's product of code points (a table annotated so; the fixes never propose it).
   */
  method: 'murmur3' | 'codepoints' | 'random';
  /** Source column names (calculated shards): clustering columns every write and point read names. */
  sources: string[];
  count: number;
  /** Added to `hash % count` (always 1: shards are 1..N, as `random(N)` is). */
  offset: number;
  /**
   * A random shard whose count the application picks per tenant (1..`count`, `count` being the largest
   * tenant's): each tenant's count is kept in `table` (`column` -> `shards int`), which reads and writes
   * read first, so that a small tenant's rows stay in one partition while the largest tenant's spread.
   */
  perTenant?: { column: string; table: string };
}

export interface BucketPlan {
  /** The bucket column's name as Cassandra sees it. */
  column: string;
  granularity: BucketGranularity;
  /** Its CQL type: timestamp (minute, hour), date (day), text (month, 'YYYY-MM'), int (year). */
  type: string;
  /** The time column (timestamp, timeuuid or date: never anything else) the bucket is computed from; absent: the time the row is written. */
  source?: string;
  /** The source column's native type (timestamp, timeuuid, date). */
  sourceType?: string;
  /**
   * A coarser bucket column already in the partition key that this one refines (a day refined into hours):
   * it stays in the key, so that every statement that writes it keeps working, and each of its values
   * now spans several partitions of the finer bucket.
   */
  refines?: { column: string; seconds: number };
  /**
   * A finer bucket column of the partition key that this one takes the place of (a minute bucket replaced by
   * a month, over-partitioned-read): it leaves the key at the same position and stays a regular column, so
   * that the INSERTs that write it keep working; the statements that restrict it restrict this one instead.
   */
  replaces?: { column: string; seconds: number };
}

/** How a plan cures: the mechanism, as the message names it and `cqlint fix` ids begin. */
export type CureMechanism =
  | 'shard'
  | 'tenant-shard'
  | 'bucket'
  | 'shard-and-bucket'
  | 'finer-bucket'
  | 'coarser-bucket'
  | 'move-bucket'
  | 'clustering'
  | 'split-column';

/**
 * A column that dominates each row (a body, a blob, a collection: at least half of its estimated bytes) moved
 * to a table of its own, read by id: `table` (`ks.<table>_<column>`) keyed by every primary key column of
 * the original as its partition key, so that each moved value is one partition of one row, written beside
 * the row and read by the row's key where a read selects the column. The original keeps its key.
 */
export interface SplitPlan {
  /** The column moved (a regular column of the original). */
  column: string;
  /** The new table, `ks.name` (the keyspace as the original's). */
  table: string;
  /** The new table's partition key: the original's partition key and clustering columns, in order. */
  key: string[];
  /** The estimated bytes of the column and of a whole row before the move, and of a row after it. */
  columnBytes: number;
  rowBytes: number;
  rowBytesAfter: number;
  /** What the rest of the table still needs after the move (the first plan for it, in words); absent: nothing. */
  then?: string;
}

/** Where a figure comes from: measured on the cluster beats a hint, which beats the model's default. */
export type FigureSource = 'measured' | 'hinted' | 'default';

/** The figures a plan was sized from, and what one partition holds and takes after it. */
export interface PlanFigures {
  /** Rows per second arriving in today's busiest partition. */
  rowsPerSecond: number;
  rateSource: FigureSource;
  /** Where that rate comes from, as messages say it: "hinted", "measured: ...", or the default's description. */
  rateNote: string;
  /** Estimated bytes one row adds to its partition (values and cell metadata). */
  rowBytes: number;
  /** Rows per second into one partition after the plan. */
  rowsPerSecondAfter: number;
  /** Rows one partition collects before it stops taking writes (its bucket ends); undefined: forever. */
  rowsPerPartitionAfter?: number;
  /** Rows at which a partition reaches the target's first limit (undefined when the target has none). */
  rowsToLimit?: number;
  /** Why this many shards / this bucket, in words (one line each). */
  reasons: string[];
  /** Whether the shard count rests on stated figures (a hint, a measurement, the finding's own); false: the defaults alone, which the `cqlint.shardCount` setting replaces. */
  stated: boolean;
}

/** A change of a table's primary key: the columns it appends to the partition key, in this order (shard first). */
export interface KeyChange {
  table: TableInfo;
  shard?: ShardPlan;
  bucket?: BucketPlan;
  /**
   * Regular columns that become clustering columns (the table has none: every new item overwrote the
   * partition's one row; now each item is a row of its own).
   */
  clustering?: string[];
  /**
   * Clustering columns that move into the partition key, after its columns (a time bucket already among the
   * clustering columns, `posted_month`: each value becomes a partition of its own).
   */
  moveToPartition?: string[];
}

/** A partition cure: the key change with the figures it was sized from and the planner's verdict on it. */
export interface PartitionPlan extends Omit<KeyChange, 'table'> {
  /** The table (`ks.name`) the plan re-keys. */
  table: string;
  mechanism: CureMechanism;
  figures?: PlanFigures;
  /** Whether the table re-keyed by the plan has no finding of the plan's rule left (the planner judged it as the rule does). */
  cures: boolean;
  /** When it does not cure: what it leaves, in words ("each day's partition is still past 100,000 values"). */
  leaves?: string;
  /**
   * The table is a materialized view, whose key follows its base table's and cannot take a shard or a
   * bucket: the plan replaces it with a table of the same name and the new key, which the application
   * writes beside `base` (every write of the base table writes it too).
   */
  replacesView?: { base: string };
  /** The plan moves a dominant column to a table of its own (the key stays): mechanism `split-column`. */
  split?: SplitPlan;
}

/**
 * Whether a key change keeps the clustering columns as they are (it adds partition key columns only): what
 * the table replacing a materialized view can take, since it copies the view's options as written, its
 * CLUSTERING ORDER among them (fixes/view-replacement.ts).
 */
export function keepsClustering(change: Pick<KeyChange, 'clustering' | 'moveToPartition'>): boolean {
  return !change.moveToPartition?.length && !change.clustering?.length;
}

/** The KeyChange of a plan, on `table`. */
export function keyChangeOf(table: TableInfo, plan: Omit<KeyChange, 'table'>): KeyChange {
  return {
    table,
    shard: plan.shard,
    bucket: plan.bucket,
    ...(plan.clustering?.length ? { clustering: plan.clustering } : {}),
    ...(plan.moveToPartition?.length ? { moveToPartition: plan.moveToPartition } : {}),
  };
}

/** The columns a change appends to the partition key, in order. */
export function addedKeyColumns(change: Pick<KeyChange, 'shard' | 'bucket'>): string[] {
  return [...(change.shard ? [change.shard.column] : []), ...(change.bucket ? [change.bucket.column] : [])];
}

/**
 * The partition key after a change, in order: the kept columns (a column a coarser bucket replaces becomes
 * that bucket, in its place), the clustering columns moved into it, then the shard and bucket it appends.
 */
export function changedPartitionKey(
  partitionKey: readonly string[],
  change: Pick<KeyChange, 'shard' | 'bucket' | 'moveToPartition'>,
): string[] {
  const replaced = change.bucket?.replaces?.column;
  const kept = partitionKey.map((c) => (c === replaced ? change.bucket!.column : c));
  const appended = addedKeyColumns(change).filter((c) => replaced === undefined || c !== change.bucket!.column);
  return [...kept, ...(change.moveToPartition ?? []), ...appended];
}

/** `murmur3(title) % 4 + 1`, `random(4)`: the formula as the `-- @shard` annotation writes it. */
export function shardFormulaText(shard: ShardPlan, quote: (name: string) => string): string {
  if (shard.method === 'random') return `random(${shard.count})`;
  return `${shard.method}(${shard.sources.map(quote).join(', ')}) % ${shard.count}${shard.offset ? ` + ${shard.offset}` : ''}`;
}
