// How cqlint sizes a cure, in one place: the rules' advice ("a day bucket", "27 shards would fit"), the
// fixes' plans and the report's "with the fix" figures all size partitions by these, so that what a
// message proposes is what its fix does.

/**
 * A cure keeps a partition under its limit by this factor at the stated rate: room for bursts, for a rate
 * that grows, and for the estimate's error (a bucket that would reach 100% of the limit is no cure).
 */
export const PLANNING_HEADROOM = 1.5;

/** The fewest shards a shard column gets: one shard is no spread. */
export const MIN_SHARDS = 2;

/** The most shards a fix proposes: reads of whole partitions visit every one. */
export const MAX_SHARDS = 256;

/**
 * Writes per second one partition should take on Cassandra and ScyllaDB, which enforce no per-partition
 * throughput limit: a partition is served by the same RF replicas (on ScyllaDB by one core of each), so
 * cqlint plans with the order of magnitude Amazon Keyspaces enforces (1,000 WCU per partition). See
 * docs/fixes.md#sizing.
 */
export const SOFT_WRITES_PER_PARTITION = 1000;
export const SOFT_WRITES_SOURCE = 'https://github.com/scylladb/scylla/blob/master/docs/dev/per-partition-rate-limit.md';

/**
 * The shards a hot key's spread needs for its writes alone on Cassandra and ScyllaDB: the writes against
 * SOFT_WRITES_PER_PARTITION with the headroom, at least MIN_SHARDS (the fix may need more for size or a
 * target's quota). A bucket beside the shards is sized at the rate per shard.
 */
export function spreadShards(writesPerSecond: number): number {
  return Math.min(MAX_SHARDS, Math.max(MIN_SHARDS, Math.ceil((writesPerSecond * PLANNING_HEADROOM) / SOFT_WRITES_PER_PARTITION)));
}

/**
 * The longest of `lengths` whose partitions stay under `rowsToLimit`, with the headroom, at `rowsPerSecond`
 * into one partition; undefined when none does. `lengths` in any order.
 */
export function longestFitting<T extends { seconds: number }>(lengths: readonly T[], rowsPerSecond: number, rowsToLimit: number): T | undefined {
  let best: T | undefined;
  for (const length of lengths) {
    if (rowsPerSecond * length.seconds * PLANNING_HEADROOM <= rowsToLimit && (!best || length.seconds > best.seconds)) best = length;
  }
  return best;
}

/** Parts (shards) one partition of `rows` needs so that each stays under `rowsToLimit` with the headroom. */
export function partsToFit(rows: number, rowsToLimit: number): number {
  return Math.max(1, Math.ceil((rows * PLANNING_HEADROOM) / Math.max(1, rowsToLimit)));
}
