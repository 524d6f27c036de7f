// Whether a table's partitions grow past the target's limit, as the partition rules judge it: rows arrive
// per event and nothing (a time bucket, a split column, a TTL short enough for the rate) bounds them.
import type { TableWorkload } from '../schema/workload';
import { BUCKET_LENGTHS } from '../util/periods';
import { longestFitting } from './planning';

/**
 * A partition that needs longer than this to reach the target's first limit at the stated rate is not
 * reported as unbounded: no deployment waits that long (Cosmos DB's 20 GB at 1 row a minute is a millennium).
 */
const GROWTH_HORIZON_SECONDS = 5 * 365 * 86_400;

/** Time buckets the advice may suggest, coarsest last, with their length. */
const BUCKET_SECONDS = BUCKET_LENGTHS.filter((b) => b.name === 'hour' || b.name === 'day' || b.name === 'month');

/**
 * Whether a partition of the table grows past `rowsToLimit` (the target's binding limit): rows arrive
 * per event and neither a bucket, a split column nor a TTL short enough for the rate bounds them.
 * `ttl` says when a TTL is there but too long: the rows it keeps at the rate.
 */
function unboundedGrowth(w: TableWorkload, rowsToLimit: number | undefined): { ttl?: { seconds: number; rowsKept: number; source: string } } | undefined {
  if (!w.growth) return undefined;
  if (w.bound.kind === 'bucket' || w.bound.kind === 'split' || w.bound.kind === 'natural') return undefined;
  if (w.bound.kind === 'ttl') {
    // Judged against the growth rate: a TTL bounds a partition only if it expires rows before the limit.
    if (rowsToLimit === undefined || !Number.isFinite(rowsToLimit)) return undefined;
    const rowsKept = w.rowsPerSecond * w.bound.ttlSeconds!;
    if (rowsKept < rowsToLimit) return undefined;
    return { ttl: { seconds: w.bound.ttlSeconds!, rowsKept, source: w.bound.ttlSource ?? 'default_time_to_live' } };
  }
  return {};
}

/**
 * The growth the partition rules report: unbounded (see unboundedGrowth) against a target that has a
 * partition size limit, reached within GROWTH_HORIZON_SECONDS at the stated rate (a too-long TTL is
 * reported whatever the horizon; `anyHorizon` for entity histories the user asked for).
 */
export function reportableGrowth(w: TableWorkload, rowsToLimit: number | undefined, secondsToLimit: number | undefined, anyHorizon = false): ReturnType<typeof unboundedGrowth> {
  if (rowsToLimit === undefined) return undefined;
  const growth = unboundedGrowth(w, rowsToLimit);
  if (!growth) return undefined;
  if (!growth.ttl && !anyHorizon && secondsToLimit !== undefined && secondsToLimit > GROWTH_HORIZON_SECONDS) return undefined;
  return growth;
}

/**
 * The coarsest bucket (hour, day, month) whose partitions stay under `rowsToLimit` at the rate, with the
 * planning headroom the fixes size by; hour when none does, day when there is no limit.
 */
export function suggestedBucket(rowsPerSecond: number, rowsToLimit: number | undefined): string {
  if (rowsToLimit === undefined || !Number.isFinite(rowsToLimit)) return 'day';
  return longestFitting(BUCKET_SECONDS, rowsPerSecond, rowsToLimit)?.name ?? 'hour';
}
