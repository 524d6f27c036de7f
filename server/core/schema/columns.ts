// The vocabulary of the workload model (workload.ts): what a single column holds, from its CQL type
// and its name. Deliberately conservative: a column is only given a nature when the type or a name
// word says so plainly; anything else is 'unknown' and the partition rules stay silent about it.
// docs/partition-model.md lists every word below and how to correct a wrong guess.
import type { ColumnInfo, TableInfo } from './model';
import { isCollection, nativeName } from './types';

/** snake_case, camelCase and plain: created_at, createdAt, yyyymmdd → words. */
function words(name: string): string[] {
  return name.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase().split(/[_\W]+/).filter(Boolean);
}

export function columnWords(name: string): string[] {
  return words(name);
}

/**
 * What a column holds:
 * - `instant`: a point in time or a per-event sequence (timestamp, timeuuid, `epoch_ms bigint`, `offset`): a new value per event;
 * - `bucket`: coarse time (`date`, `day`, `log_hour`, `yyyymmdd`): one current value, a new one per period;
 * - `split`: a column a designer added to split partitions (`bucket int`): bounded on purpose;
 * - `shard`: a write-sharding column (`shard`, `salt`, `-- @shard`): N values, forever;
 * - `cyclic`: a recurring time field (`day_of_week`, `hour_of_day`): few values that never move on;
 * - `enum`: few values (boolean, status, country, first letter, language, queue ...);
 * - `grouping`: many values but a few popular ones collect most rows (tag, hashtag, city);
 * - `identifier`: one value per entity (uuid, *_id, email, name ...);
 * - `unknown`: the model cannot tell.
 */
type ColumnNature = 'instant' | 'bucket' | 'split' | 'shard' | 'cyclic' | 'enum' | 'grouping' | 'identifier' | 'unknown';

export interface ColumnProfile {
  name: string;
  nature: ColumnNature;
  /** Estimated distinct values; Infinity for identifiers, instants and groupings; undefined when unknown. */
  distinct?: number;
  /** A few values take most of the traffic (countries, languages, tags, queues). */
  skewed: boolean;
  /** What decided: "boolean type", "name word 'country' (geography)", "hint". */
  signal: string;
  /** Set by a cardinality hint (.cqlint.json or `-- @cqlint`). */
  hinted: boolean;
}

interface FewValued {
  distinct: number;
  skewed: boolean;
  family: string;
}

// Time buckets: a new value per period.
const BUCKET_WORDS = new Set([
  'day', 'date', 'hour', 'minute', 'week', 'month', 'year', 'quarter', 'yyyymmdd', 'yyyymm', 'yyyy', 'yyyymmddhh',
  'period', 'window', 'interval', 'epoch', 'daily', 'hourly', 'monthly', 'weekly', 'yearly', 'ymd',
]);
// Units that make an epoch or a number an instant (`epoch_ms`, `ts_millis`), not a bucket.
const INSTANT_UNIT_WORDS = new Set(['ms', 'millis', 'milliseconds', 'msec', 'us', 'micros', 'microseconds', 'ns', 'nanos', 'nanoseconds', 'sec', 'secs', 'seconds']);
const TIME_NAME_WORDS = new Set(['at', 'time', 'ts', 'timestamp', 'datetime', 'instant', 'when', 'created', 'updated', 'occurred', 'sent', 'received', 'logged', 'recorded', 'posted', 'viewed', 'clicked']);
// Per-event sequences: every event takes the next value.
const SEQUENCE_WORDS = new Set(['seq', 'sequence', 'offset', 'seqno', 'lsn']);
const SHARD_WORDS = new Set(['shard', 'salt', 'slot', 'vnode']);
// `bucket int` / `partition int`: a split the designer chose (time bucket or shard, we cannot tell which).
const SPLIT_WORDS = new Set(['bucket', 'partition', 'part', 'chunk']);
// Recurring fields: 7 weekdays, 24 hours ... they never move on, so they bound nothing.
// Maps, as every table of name words here: a column named `constructor` must not find Object's.
const CYCLIC = new Map<string, number>(Object.entries({ weekday: 7, dow: 7, hod: 24 }));
const CYCLIC_OF = new Map<string, number>(Object.entries({
  day_week: 7, day_month: 31, day_year: 366, hour_day: 24, hour_week: 168, minute_hour: 60, minute_day: 1440,
  month_year: 12, week_year: 53, week_month: 5, quarter_year: 4,
}));

// Few-valued name words, by family (documented in docs/partition-model.md).
const FEW = new Map<string, FewValued>();
function few(family: string, distinct: number, skewed: boolean, list: string[]): void {
  for (const w of list) FEW.set(w, { distinct, skewed, family });
}
few('geography', 200, true, ['country', 'countries', 'nationality', 'nation', 'citizenship', 'residency']);
few('geography', 7, true, ['continent']);
few('geography', 20, true, ['region', 'territory', 'market']);
few('time zone', 400, true, ['timezone', 'tz']);
few('initial', 26, true, ['initial', 'initials', 'letter', 'alphabet', 'alpha']);
few('language', 100, true, ['language', 'lang', 'locale']);
few('currency', 180, true, ['currency']);
few('queue', 10, true, ['queue', 'queues']);
few('gender', 3, true, ['gender', 'sex']);
few('genre', 30, true, ['genre']);
few('enum', 10, true, [
  'status', 'state', 'type', 'kind', 'category', 'level', 'priority', 'tier', 'flag', 'enabled', 'active', 'mode',
  'stage', 'phase', 'role', 'env', 'environment', 'severity', 'rating', 'grade', 'visibility', 'platform', 'os',
  'browser', 'outcome', 'plan', 'segment',
]);
// Many values, a few hot ones collect most rows.
const GROUPING_WORDS = new Set(['tag', 'tags', 'hashtag', 'hashtags', 'keyword', 'keywords', 'label', 'labels', 'city', 'topic', 'subreddit', 'genre_tag']);
const ID_WORDS = new Set([
  'id', 'uuid', 'guid', 'key', 'email', 'name', 'username', 'login', 'title', 'url', 'uri', 'path', 'hash',
  'token', 'isbn', 'sku', 'phone', 'address', 'ip', 'handle', 'slug', 'code', 'number', 'no', 'serial', 'account',
  'user', 'userid', 'videoid', 'customer', 'device', 'sensor', 'host', 'hostname', 'imei', 'mac', 'vin', 'iban', 'ssn',
]);
// A few-valued word followed by one of these is still that family (`country_code`, `language_name`).
const FAMILY_SUFFIX = new Set(['code', 'iso', 'iso2', 'iso3', 'name', 'abbr', 'abbrev', 'short']);

const MACHINE_SOURCE_WORDS = new Set([
  'sensor', 'device', 'server', 'host', 'hostname', 'machine', 'node', 'meter', 'station', 'metric', 'metrics',
  'app', 'application', 'service', 'stream', 'symbol', 'ticker', 'instrument', 'gateway', 'vehicle', 'thermostat',
  'camera', 'probe', 'agent', 'pod', 'container', 'ip', 'endpoint', 'topic', 'queue', 'tracker', 'cpu', 'disk',
  'interface', 'nic', 'router', 'switch', 'plc', 'turbine', 'pump', 'robot', 'drone', 'beacon', 'tag_reader',
]);
// Table or time-column words that name a stream of events: rows arrive per event, often many a second.
const EVENT_WORDS = new Set([
  'reading', 'readings', 'event', 'events', 'log', 'logs', 'metric', 'metrics', 'measurement', 'measurements',
  'sample', 'samples', 'tick', 'ticks', 'trade', 'trades', 'activity', 'activities', 'message', 'messages',
  'click', 'clicks', 'telemetry', 'heartbeat', 'heartbeats', 'ping', 'pings', 'tracking', 'pageview', 'pageviews',
  'impression', 'impressions', 'transaction', 'transactions', 'quote', 'quotes', 'price', 'prices', 'position',
  'positions', 'location', 'locations', 'timeseries', 'series', 'stats', 'statistics', 'observation', 'observations',
  'views', 'visits', 'hits', 'plays', 'audits', 'trail', 'chat', 'chats', 'feed', 'timeline', 'stream',
  'streams', 'journal', 'ledger', 'history_events', 'alerts', 'alarms', 'notifications', 'bids', 'orderbook',
  'scans', 'swipes', 'checkins', 'keystrokes', 'spans', 'traces', 'snapshots', 'changes', 'changelog', 'outbox', 'rates',
]);

/** A `-- @shard` column, or one named shard/salt/slot. */
function isShardColumn(col: ColumnInfo, table?: TableInfo): boolean {
  if (table?.shard && table.shard.shardColumn === col.name) return true;
  return words(col.name).some((x) => SHARD_WORDS.has(x));
}

function cyclicValues(w: string[]): number | undefined {
  for (const x of w) if (CYCLIC.has(x)) return CYCLIC.get(x);
  const of = w.indexOf('of');
  if (of > 0 && of < w.length - 1) return CYCLIC_OF.get(`${w[of - 1]}_${w[of + 1]}`);
  return undefined;
}

function fewValued(w: string[]): FewValued | undefined {
  // `first_letter`, `last_name_initial`, `country_code`: the family word may come last or before a suffix.
  const last = w[w.length - 1]!;
  if (FEW.has(last)) return FEW.get(last);
  if (w.length >= 2 && FAMILY_SUFFIX.has(last) && FEW.has(w[w.length - 2]!)) return FEW.get(w[w.length - 2]!);
  if (w[0] === 'is' || w[0] === 'has') return { distinct: 2, skewed: true, family: 'flag' };
  return undefined;
}

function profile(name: string, nature: ColumnNature, signal: string, distinct?: number, skewed = false): ColumnProfile {
  return { name, nature, signal, skewed, hinted: false, ...(distinct !== undefined ? { distinct } : {}) };
}

/** What one column holds, from its type and name (`distinctHint` from a cardinality hint wins). */
export function profileColumn(col: ColumnInfo, table?: TableInfo, distinctHint?: number): ColumnProfile {
  const type = nativeName(col.type);
  const w = words(col.name);
  const hinted = (p: ColumnProfile): ColumnProfile => (distinctHint === undefined ? p : {
    ...p,
    distinct: distinctHint,
    nature: p.nature === 'instant' || p.nature === 'bucket' || p.nature === 'shard' || p.nature === 'split' ? p.nature : distinctHint <= FEW_VALUES ? 'enum' : 'identifier',
    skewed: p.skewed && distinctHint <= FEW_VALUES,
    signal: `hint: ${distinctHint} distinct values`,
    hinted: true,
  });
  if (isShardColumn(col, table)) {
    const n = table?.shard?.shardColumn === col.name ? table.shard.count : undefined;
    return hinted(profile(col.name, 'shard', table?.shard?.shardColumn === col.name ? '-- @shard comment' : 'name word (shard)', n));
  }
  if (type === 'boolean') return hinted(profile(col.name, 'enum', 'boolean type', 2, true));
  if (type === 'timeuuid') return hinted(profile(col.name, 'instant', 'timeuuid type', Infinity));
  // A uuid named like a time (`posted_time uuid`) is a time-based uuid stored in a uuid column.
  if (type === 'uuid' && w.some((x) => TIME_NAME_WORDS.has(x))) return hinted(profile(col.name, 'instant', 'uuid named like a time', Infinity));
  if (type === 'uuid') return hinted(profile(col.name, 'identifier', 'uuid type', Infinity));
  if (type === 'date') return hinted(profile(col.name, 'bucket', 'date type', Infinity));
  if (w.length === 0) return hinted(profile(col.name, 'unknown', 'no name words'));
  const cyclic = cyclicValues(w);
  if (cyclic !== undefined) return hinted(profile(col.name, 'cyclic', `recurring time field (${cyclic} values)`, cyclic, true));
  const unit = w.some((x) => INSTANT_UNIT_WORDS.has(x));
  const bucketWord = w.find((x) => BUCKET_WORDS.has(x)) ?? (/^(yyyy|yyyymm|yyyymmdd|yyyymmddhh)$/i.test(col.name) ? col.name : undefined);
  if (type === 'timestamp') {
    // A timestamp named like a coarse bucket (`day`, `log_hour`) holds one value per period.
    if (bucketWord && bucketWord !== 'date' && !unit) return hinted(profile(col.name, 'bucket', `timestamp named '${bucketWord}'`, Infinity));
    return hinted(profile(col.name, 'instant', 'timestamp type', Infinity));
  }
  const numeric = type === 'bigint' || type === 'varint' || type === 'int' || type === 'counter' || type === 'decimal' || type === 'double';
  if (numeric && (type === 'bigint' || type === 'varint')) {
    if (unit && (bucketWord === 'epoch' || w.some((x) => TIME_NAME_WORDS.has(x)) || w.length === 1)) return hinted(profile(col.name, 'instant', `${type} in ${w.find((x) => INSTANT_UNIT_WORDS.has(x))} (epoch time)`, Infinity));
    if (!bucketWord && w.some((x) => TIME_NAME_WORDS.has(x))) return hinted(profile(col.name, 'instant', `${type} named like a time`, Infinity));
  }
  if ((type === 'bigint' || type === 'varint' || type === 'int') && w.some((x) => SEQUENCE_WORDS.has(x))) {
    return hinted(profile(col.name, 'instant', `${type} sequence ('${w.find((x) => SEQUENCE_WORDS.has(x))}')`, Infinity));
  }
  if (bucketWord && type !== 'blob' && !unit) return hinted(profile(col.name, 'bucket', `name word '${bucketWord}' (time bucket)`, Infinity));
  if (w.some((x) => SPLIT_WORDS.has(x)) && !w.some((x) => ID_WORDS.has(x)) && (type === 'int' || type === 'smallint' || type === 'tinyint' || type === 'bigint' || type === 'text' || type === 'varchar')) {
    return hinted(profile(col.name, 'split', `name word '${w.find((x) => SPLIT_WORDS.has(x))}' (a deliberate split)`));
  }
  if (type === 'blob' || isCollection(col.type)) return hinted(profile(col.name, 'unknown', `${col.typeText} type`));
  const family = fewValued(w);
  if (family) return hinted(profile(col.name, 'enum', `name word '${w.find((x) => FEW.has(x)) ?? w[0]}' (${family.family}, ~${family.distinct} values)`, family.distinct, family.skewed));
  const group = w.find((x) => GROUPING_WORDS.has(x));
  if (group && !w.some((x) => x === 'id' || x === 'uuid')) return hinted(profile(col.name, 'grouping', `name word '${group}' (many values, a few popular)`, Infinity, true));
  if (type === 'tinyint') return hinted(profile(col.name, 'enum', 'tinyint type', 256));
  if (w.some((x) => ID_WORDS.has(x)) || /id$/i.test(col.name)) return hinted(profile(col.name, 'identifier', `name word '${w.find((x) => ID_WORDS.has(x)) ?? 'id'}' (identifier)`, Infinity));
  return hinted(profile(col.name, 'unknown', 'no vocabulary word'));
}

/** At or below this many distinct values, a column counts as few-valued (docs/partition-model.md). */
export const FEW_VALUES = 1000;

// Things that end: a partition keyed by one of them stops growing when it does (a match, a trace).
const BOUNDED_CONTAINER_WORDS = new Set(['match', 'trace', 'session', 'request', 'build', 'upload', 'trip', 'ride', 'flight', 'auction', 'round', 'race', 'exam', 'quiz', 'survey', 'checkout', 'shipment']);

/** The partition key column that identifies something that ends (match_id, trace_id), if any. */
export function boundedContainerColumn(table: TableInfo): ColumnInfo | undefined {
  return table.partitionKey.find((c) => {
    const w = words(c.name);
    return w.some((x) => BOUNDED_CONTAINER_WORDS.has(x)) && (w.some((x) => ID_WORDS.has(x)) || nativeName(c.type) === 'uuid' || nativeName(c.type) === 'timeuuid');
  });
}

/** Whether the partition key names a machine-like source (sensor, device, host ...). */
export function namesMachineSource(table: TableInfo): boolean {
  return table.partitionKey.some((c) => words(c.name).some((w) => MACHINE_SOURCE_WORDS.has(w)));
}

/** Whether the table's name or its time column names a stream of events (readings, logs, views, audit ...). */
export function namesEventStream(table: TableInfo, timeColumn?: ColumnInfo): boolean {
  if (words(table.name).some((w) => EVENT_WORDS.has(w))) return true;
  return !!timeColumn && words(timeColumn.name).some((w) => EVENT_WORDS.has(w));
}

/** Timestamps, timeuuids, epoch numbers (`epoch_ms bigint`) and per-event sequences. */
export function isTimeOrdered(col: ColumnInfo): boolean {
  return profileColumn(col).nature === 'instant';
}

/** A column that coarsens time: a `date`, or a day/hour/month/bucket name. */
export function isTimeBucket(col: ColumnInfo): boolean {
  return profileColumn(col).nature === 'bucket';
}

/** Seconds per period of the bucket words (a `date` column is a day); `period`, `window`, `interval`, `epoch` say none. */
const BUCKET_PERIOD_SECONDS: Record<string, number> = {
  minute: 60, hour: 3600, hourly: 3600, yyyymmddhh: 3600,
  day: 86_400, daily: 86_400, date: 86_400, yyyymmdd: 86_400, ymd: 86_400,
  week: 7 * 86_400, weekly: 7 * 86_400,
  month: 2_629_746, monthly: 2_629_746, yyyymm: 2_629_746,
  quarter: 7_889_238, year: 31_556_952, yearly: 31_556_952, yyyy: 31_556_952,
};

/**
 * How long one value of a time bucket column takes writes (its period), from the name word that makes
 * it a bucket (`log_hour`: an hour; `yyyymmdd`: a day; a `date` without one: a day); undefined when the
 * column is no bucket or its name does not say the period (`period`, `window`, `bucket`).
 */
export function bucketPeriodSeconds(col: ColumnInfo): number | undefined {
  if (!isTimeBucket(col)) return undefined;
  const w = words(col.name);
  // The finest period named wins (`day_hour` is an hour).
  const periods = [...w, col.name.toLowerCase()].map((x) => BUCKET_PERIOD_SECONDS[x]).filter((s): s is number => s !== undefined);
  if (periods.length) return Math.min(...periods);
  return nativeName(col.type) === 'date' ? 86_400 : undefined;
}

/** Identifiers and other values with many distinct values: uuids, *_id, email, name, title ... */
export function isHighCardinality(col: ColumnInfo): boolean {
  const p = profileColumn(col);
  return p.nature === 'identifier' || (p.nature === 'instant' && nativeName(col.type) !== 'timestamp');
}
