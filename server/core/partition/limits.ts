// The planning figures every partition decision shares, in one place: the headroom a cure keeps under a
// limit, the horizon past which a limit does not matter, the shard counts a cure may propose, and the
// per-partition write rate cqlint plans with where the target enforces none. The rules' verdicts
// (verdicts.ts), the planner (planner.ts) and the report all read these.

/**
 * A cure keeps a partition under its limit by this factor at the stated rate: room for bursts, for a rate
 * that grows, and for the estimate's error (a bucket that would reach 100% of the limit is no cure).
 */
export const HEADROOM = 1.5;

/**
 * A partition that reaches the target's first limit later than this at its rate is not reported as
 * unbounded and needs no bucket: no deployment waits that long (Cosmos DB's 20 GB at 1 row a minute is a
 * millennium). A TTL at least this long bounds nothing.
 */
export const HORIZON_SECONDS = 5 * 365 * 86_400;

/**
 * The bottom of the window of partition sizes a time bucket is chosen in (its top is the target's first
 * limit, with the headroom): a bucket finer than needed whose partitions would hold less than this only
 * multiplies the partitions a read of a time range visits, so it is not offered. Netflix's TimeSeries
 * Abstraction sizes its time slices the same way, for partitions of a few MiB up to the store's limit.
 */
export const MIN_PARTITION_BYTES = 2 * 1024 * 1024;

/** The fewest shards a shard column gets: one shard is no spread. */
export const MIN_SHARDS = 2;

/** The most shards a fix proposes: reads of whole partitions visit every one. */
export const MAX_SHARDS = 256;

/**
 * The most shards one read names with `IN (...)` when large-in-partition-key is off (on, its maxPartitions
 * is the limit): past it a read of every shard takes several queries, and a finer time bucket is the better
 * cure for a coarse one.
 */
export const ONE_READ_SHARDS = 32;

/**
 * From this many shards up, a table keyed by tenant gets each tenant's own shard count in preference to one
 * count for all: the count is the largest tenant's, and with it a small tenant's listing reads this many
 * partitions for rows that fit in one.
 */
export const PER_TENANT_SHARDS = 8;

/**
 * Writes per second one partition should take on Cassandra and ScyllaDB, which enforce no per-partition
 * throughput limit: a partition is served by the same RF replicas (on ScyllaDB by one core of each), so
 * cqlint plans with the order of magnitude Amazon Keyspaces enforces (1,000 WCU per partition). See
 * docs/fixes.md#sizing.
 */
export const SOFT_WRITES_PER_PARTITION = 1000;
export const SOFT_WRITES_SOURCE = 'https://github.com/scylladb/scylla/blob/master/docs/dev/per-partition-rate-limit.md';

/** Parts (shards) one partition of `rows` needs so that each stays under `rowsToLimit` with the headroom. */
export function partsToFit(rows: number, rowsToLimit: number): number {
  return Math.max(1, Math.ceil((rows * HEADROOM) / Math.max(1, rowsToLimit)));
}
