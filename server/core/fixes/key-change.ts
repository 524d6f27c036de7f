// What a partition fix does to a table's key: the shard and/or time bucket columns it adds, with the
// figures it was sized from. Statements are rewritten for it (key-rewrite.ts), the schema is edited for
// it (refactor.ts), and the report draws its "with the fix" figures from it.
import type { TableInfo } from '../schema/model';
import type { BucketGranularity } from './bucket-values';

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
}

export interface BucketPlan {
  /** The bucket column's name as Cassandra sees it. */
  column: string;
  granularity: BucketGranularity;
  /** Its CQL type: timestamp (hour), date (day), text (month, 'YYYY-MM'), int (year). */
  type: string;
  /** The time column the bucket is computed from; absent: the time the row is written. */
  source?: string;
  /** The source column's native type (timestamp, timeuuid, date). */
  sourceType?: string;
}

/** The figures a partition fix was sized from, and what one partition holds and takes after it. */
export interface PlanFigures {
  /** Rows per second arriving in today's busiest partition: hinted, measured or the stated default. */
  rowsPerSecond: number;
  /** Where that rate comes from: "hinted", or the default's description. */
  rateNote: string;
  /** Estimated bytes one row adds to its partition (values and cell metadata). */
  rowBytes: number;
  /** Rows per second into one partition after the fix. */
  rowsPerSecondAfter: number;
  /** Rows one partition collects before it stops taking writes (its bucket ends); undefined: forever. */
  rowsPerPartitionAfter?: number;
  /** Rows at which a partition reaches the target's first limit (undefined when the target has none). */
  rowsToLimit?: number;
  /** Why this many shards / this bucket, in words (one line each). */
  reasons: string[];
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

/** A partition fix's plan: the key change with the figures it was sized from. */
export interface PartitionPlan extends Omit<KeyChange, 'table'> {
  /** The table (`ks.name`) the plan re-keys. */
  table: string;
  figures?: PlanFigures;
}

/** The KeyChange of a plan, on `table`. */
export function keyChangeOf(table: TableInfo, plan: Omit<KeyChange, 'table'>): KeyChange {
  return {
    table, shard: plan.shard, bucket: plan.bucket,
    ...(plan.clustering?.length ? { clustering: plan.clustering } : {}),
    ...(plan.moveToPartition?.length ? { moveToPartition: plan.moveToPartition } : {}),
  };
}

/** The columns a change appends to the partition key, in order. */
export function addedKeyColumns(change: Pick<KeyChange, 'shard' | 'bucket'>): string[] {
  return [...(change.shard ? [change.shard.column] : []), ...(change.bucket ? [change.bucket.column] : [])];
}

/** `murmur3(title) % 4 + 1`, `random(4)`: the formula as the `-- @shard` annotation writes it. */
export function shardFormulaText(shard: ShardPlan, quote: (name: string) => string): string {
  if (shard.method === 'random') return `random(${shard.count})`;
  return `${shard.method}(${shard.sources.map(quote).join(', ')}) % ${shard.count}${shard.offset ? ` + ${shard.offset}` : ''}`;
}
