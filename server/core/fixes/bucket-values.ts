// Time bucket values of literal times: the hour, day, month or year (UTC) a statement's timestamp,
// date or timeuuid falls in, written as the bucket column's CQL literal, and the buckets a time range
// covers. A time the engine cannot know (a bind marker, now()) has no bucket value here: the rewrite
// asks the application for it.
import type { Expression } from '../../../grammar/ast';
import { parseDate, parseTimestamp, parseUuid } from '../token/values';
import type { BucketGranularity } from '../partition/plan';
import { SECONDS } from '../util/periods';

const MINUTE_MS = 60_000;
const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;

/** What a time-valued expression is, as far as a bucket is concerned. */
export type TimeValue =
  | { kind: 'known'; ms: number }
  /** now(), currentTimestamp(), ...: the moment the statement runs. */
  | { kind: 'now' }
  /** A bind marker or anything else the application computes. */
  | { kind: 'unknown' };

const NOW_FUNCTIONS = new Set(['now', 'currenttimestamp', 'currentdate', 'currenttimeuuid', 'currenttime']);

/** 100-ns intervals between the UUID epoch (1582-10-15) and the Unix epoch. */
const UUID_EPOCH_OFFSET = 0x01b21dd213814000n;

/** Milliseconds since 1970 of a version-1 (time) UUID; undefined for other versions. */
export function timeuuidMillis(text: string): number | undefined {
  const bytes = parseUuid(text);
  if (!bytes || bytes[6]! >> 4 !== 1) return undefined;
  const hex = Buffer.from(bytes).toString('hex');
  const ticks = BigInt(`0x${hex.slice(13, 16)}${hex.slice(8, 12)}${hex.slice(0, 8)}`);
  return Number((ticks - UUID_EPOCH_OFFSET) / 10_000n);
}

/**
 * The time an expression gives a column of `type` (timestamp, date or timeuuid), as Cassandra reads the
 * literal: `'2026-11-20 10:15:00+0000'`, `1763633700000`, `'2026-11-20'`, a timeuuid; times without a zone
 * are taken as UTC (see parseTimestamp). `toTimestamp(x)`, `toDate(x)` and casts look through to x.
 */
export function timeValue(expr: Expression | undefined, type: string | undefined): TimeValue {
  if (!expr) return { kind: 'unknown' };
  if (expr.kind === 'FunctionCall') {
    const name = expr.name.name.name.toLowerCase();
    if (NOW_FUNCTIONS.has(name) && expr.args.length === 0) return { kind: 'now' };
    // mintimeuuid('2026-11-20 09:30+0000'): the smallest timeuuid of that instant.
    if ((name === 'mintimeuuid' || name === 'maxtimeuuid') && expr.args.length === 1)
      return timeValue(expr.args[0], 'timestamp');
    if ((name === 'totimestamp' || name === 'todate' || name === 'tounixtimestamp') && expr.args.length === 1) {
      const inner = expr.args[0]!;
      return timeValue(inner, inner.kind === 'Literal' && inner.literalKind === 'uuid' ? 'timeuuid' : type);
    }
    return { kind: 'unknown' };
  }
  if (expr.kind === 'CastExpression' || expr.kind === 'TypeHint') return timeValue(expr.expression, type);
  if (expr.kind !== 'Literal') return { kind: 'unknown' };
  if (expr.literalKind === 'uuid') {
    const ms = timeuuidMillis(expr.value);
    return ms === undefined ? { kind: 'unknown' } : { kind: 'known', ms };
  }
  if (type === 'date') {
    if (expr.literalKind !== 'string') return { kind: 'unknown' };
    const days = parseDate(expr.value);
    return typeof days === 'number' ? { kind: 'known', ms: days * DAY_MS } : { kind: 'unknown' };
  }
  if (expr.literalKind !== 'string' && expr.literalKind !== 'integer') return { kind: 'unknown' };
  const ms = parseTimestamp(expr.value);
  if (typeof ms === 'string') return { kind: 'unknown' };
  const n = Number(ms);
  return Number.isSafeInteger(n) ? { kind: 'known', ms: n } : { kind: 'unknown' };
}

/** The start (ms, UTC) of the bucket containing `ms`. */
export function bucketStart(granularity: BucketGranularity, ms: number): number {
  switch (granularity) {
    case 'minute':
      return Math.floor(ms / MINUTE_MS) * MINUTE_MS;
    case 'hour':
      return Math.floor(ms / HOUR_MS) * HOUR_MS;
    case 'day':
      return Math.floor(ms / DAY_MS) * DAY_MS;
    case 'month': {
      const d = new Date(ms);
      return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
    }
    case 'year':
      return Date.UTC(new Date(ms).getUTCFullYear(), 0, 1);
  }
}

/** The start of the bucket after the one starting at `start`. */
function nextBucket(granularity: BucketGranularity, start: number): number {
  switch (granularity) {
    case 'minute':
      return start + MINUTE_MS;
    case 'hour':
      return start + HOUR_MS;
    case 'day':
      return start + DAY_MS;
    case 'month': {
      const d = new Date(start);
      return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
    }
    case 'year':
      return Date.UTC(new Date(start).getUTCFullYear() + 1, 0, 1);
  }
}

/**
 * The end (exclusive, ms) of the period of `seconds` that starts at `start`: a calendar month or year for
 * theirs (their lengths in util/periods.ts are means), else `start` plus the length.
 */
export function periodEnd(seconds: number, start: number): number {
  if (seconds === SECONDS.month) return nextBucket('month', start);
  if (seconds === SECONDS.year) return nextBucket('year', start);
  return start + seconds * 1000;
}

const pad = (n: number, width = 2): string => String(n).padStart(width, '0');

/**
 * The bucket column's CQL literal for the bucket containing `ms`: `'2026-11-20 10:15:00+0000'` (minute),
 * `'2026-11-20 10:00:00+0000'` (hour, both timestamps), `'2026-11-20'` (day, a date), `'2026-11'` (month, text), `2026` (year, an int).
 */
export function bucketLiteral(granularity: BucketGranularity, ms: number): string {
  const d = new Date(bucketStart(granularity, ms));
  const ymd = `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1)}`;
  switch (granularity) {
    case 'minute':
      return `'${ymd}-${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:00+0000'`;
    case 'hour':
      return `'${ymd}-${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:00:00+0000'`;
    case 'day':
      return `'${ymd}-${pad(d.getUTCDate())}'`;
    case 'month':
      return `'${ymd}'`;
    case 'year':
      return String(d.getUTCFullYear());
  }
}

/** A bound of a time range: the time and whether the range includes it. */
export interface TimeBound {
  ms: number;
  inclusive: boolean;
}

/**
 * The literals of the buckets a time range [from, to] covers, oldest first; undefined when there are
 * more than `max` of them (the read then goes bucket by bucket) or the range is empty.
 */
export function bucketsCovering(
  granularity: BucketGranularity,
  from: TimeBound,
  to: TimeBound,
  max: number,
): string[] | undefined {
  const first = bucketStart(granularity, from.ms);
  // An exclusive upper bound on a bucket's first instant does not reach into that bucket.
  const lastInstant = to.inclusive ? to.ms : to.ms - 1;
  if (lastInstant < from.ms || (!from.inclusive && from.ms === lastInstant)) return undefined;
  const out: string[] = [];
  for (let start = first; start <= lastInstant; start = nextBucket(granularity, start)) {
    if (out.length >= max) return undefined;
    out.push(bucketLiteral(granularity, start));
  }
  return out.length ? out : undefined;
}
