// Heuristics about what a column holds, from its type and name. Deliberately conservative: a column is
// only called low-cardinality, time-ordered or a bucket when the type or name says so plainly.
import type { ColumnInfo, TableInfo } from './model';
import { nativeName } from './types';

function words(name: string): string[] {
  // snake_case, camelCase and plain: created_at, createdAt, yyyymmdd
  return name.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase().split(/[_\W]+/).filter(Boolean);
}

const BUCKET_WORDS = new Set([
  'day', 'date', 'hour', 'minute', 'week', 'month', 'year', 'quarter', 'yyyymmdd', 'yyyymm', 'yyyy', 'yyyymmddhh',
  'bucket', 'period', 'window', 'interval', 'epoch', 'daily', 'hourly', 'monthly', 'weekly', 'yearly',
]);
const SHARD_WORDS = new Set(['shard', 'bucket', 'salt', 'slot', 'partition', 'part', 'vnode']);
const TIME_NAME_WORDS = new Set(['at', 'time', 'ts', 'timestamp', 'datetime', 'instant', 'when']);
const ENUM_WORDS = new Set([
  'status', 'state', 'type', 'kind', 'category', 'region', 'level', 'priority', 'tier', 'gender', 'sex',
  'flag', 'enabled', 'active', 'mode', 'stage', 'phase', 'role', 'env', 'environment', 'severity',
  'language', 'lang', 'currency', 'rating', 'grade', 'visibility', 'platform', 'continent',
]);
const ID_WORDS = new Set([
  'id', 'uuid', 'guid', 'key', 'email', 'name', 'username', 'login', 'title', 'url', 'uri', 'path', 'hash',
  'token', 'isbn', 'sku', 'phone', 'address', 'ip', 'handle', 'slug', 'code', 'number', 'no', 'serial',
]);

const MACHINE_SOURCE_WORDS = new Set([
  'sensor', 'device', 'server', 'host', 'hostname', 'machine', 'node', 'meter', 'station', 'metric', 'metrics',
  'app', 'application', 'service', 'stream', 'symbol', 'ticker', 'instrument', 'gateway', 'vehicle', 'thermostat',
  'camera', 'probe', 'agent', 'pod', 'container', 'container_id', 'ip', 'endpoint', 'topic', 'queue', 'tracker',
]);
const EVENT_WORDS = new Set([
  'reading', 'readings', 'event', 'events', 'log', 'logs', 'metric', 'metrics', 'measurement', 'measurements',
  'sample', 'samples', 'tick', 'ticks', 'trade', 'trades', 'activity', 'activities', 'message', 'messages',
  'click', 'clicks', 'telemetry', 'heartbeat', 'heartbeats', 'ping', 'pings', 'tracking', 'pageview', 'pageviews',
  'impression', 'impressions', 'transaction', 'transactions', 'quote', 'quotes', 'price', 'prices', 'position',
  'positions', 'location', 'locations', 'timeseries', 'series', 'stats', 'statistics', 'observation', 'observations',
]);

/**
 * Whether rows pile up at machine rate: the partition key names a machine-like source (sensor, device,
 * host, ...) or the table or its time column names a stream of events (readings, logs, events, ...).
 * Human-scale histories (a user's comments, a video's comments) are left alone: an expert would not
 * bucket them.
 */
export function looksLikeEventStream(table: TableInfo, timeColumn: ColumnInfo): boolean {
  if (table.partitionKey.some((c) => words(c.name).some((w) => MACHINE_SOURCE_WORDS.has(w)))) return true;
  if (words(table.name).some((w) => EVENT_WORDS.has(w))) return true;
  return words(timeColumn.name).some((w) => EVENT_WORDS.has(w));
}

/** Timestamps and timeuuids, and integers named like times (`created_at`, `ts`, `event_time`). */
export function isTimeOrdered(col: ColumnInfo): boolean {
  const type = nativeName(col.type);
  if (type === 'timeuuid') return true;
  // A timestamp named like a coarse bucket (`day`, `log_hour`) grows one row per bucket, not per event.
  if (type === 'timestamp') return !words(col.name).some((x) => BUCKET_WORDS.has(x) && x !== 'date');
  if (type === 'bigint' || type === 'varint') {
    const w = words(col.name);
    return w.some((x) => TIME_NAME_WORDS.has(x)) && !isTimeBucket(col);
  }
  return false;
}

/** A column that coarsens time: a `date`, or a day/hour/month/bucket name. */
export function isTimeBucket(col: ColumnInfo): boolean {
  const type = nativeName(col.type);
  if (type === 'date') return true;
  // A timestamp truncated to the hour or day (`log_hour timestamp`) is a bucket; a timeuuid never is.
  if (type === 'timeuuid' || type === 'uuid' || type === 'boolean') return false;
  const w = words(col.name);
  return w.some((x) => BUCKET_WORDS.has(x)) || /^(yyyy|yyyymm|yyyymmdd|yyyymmddhh)$/i.test(col.name);
}

/** A write-sharding column: named shard/bucket/salt, or declared by a `-- @shard` comment. */
export function isShardColumn(col: ColumnInfo, table?: TableInfo): boolean {
  if (table?.shard && table.shard.shardColumn === col.name) return true;
  return words(col.name).some((x) => SHARD_WORDS.has(x));
}

/** Booleans, tinyints and enum-like names (status, type, region, level, ...). */
export function isLowCardinality(col: ColumnInfo): boolean {
  const type = nativeName(col.type);
  if (type === 'boolean' || type === 'tinyint') return true;
  if (type === 'uuid' || type === 'timeuuid' || type === 'timestamp' || type === 'blob') return false;
  const w = words(col.name);
  if (w.length === 0) return false;
  if (w.some((x) => ID_WORDS.has(x))) return false;
  if (w[0] === 'is' || w[0] === 'has') return true;
  return ENUM_WORDS.has(w[w.length - 1]!);
}

/** Identifiers and other values with many distinct values: uuids, *_id, email, name, title, ... */
export function isHighCardinality(col: ColumnInfo): boolean {
  const type = nativeName(col.type);
  if (type === 'uuid' || type === 'timeuuid') return true;
  if (type === 'boolean' || type === 'tinyint' || type === 'date') return false;
  const w = words(col.name);
  return w.some((x) => ID_WORDS.has(x)) || /id$/i.test(col.name);
}

