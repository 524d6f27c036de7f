// `over-partitioned-read`: a read that fans out over more partitions than a read should, because the time
// bucket of the table's partition key is finer than its rows need. Partitions are sized in a window: under
// the target's first limit (with the headroom) and above MIN_PARTITION_BYTES (2 MiB), the floor the planner
// keeps when it offers a bucket (partition/limits.ts). A bucket whose partitions hold less than the floor
// at the table's rate only multiplies the partitions a read of a span of time visits. Reported on a SELECT
// that pins the rest of the partition key and reads several buckets: `bucket IN (...)` with literal
// values, a range of literal times on a time column (run once per bucket it covers), or a literal LIMIT
// that, at the rows one bucket holds, takes more buckets than `maxPartitions`;
// only when the planner's own choice (chooseBucket) is a coarser length, which it names with its figures.
//
// The fix applies that one choice (partition/planner.ts coarserBucketPlan, the plan in the finding's data):
// the coarser bucket takes the fine one's place in the partition key, and the fine one stays a regular
// column, so that the INSERTs that write it keep working (fixes/key-rewrite.ts coarserRewrite rewrites
// every statement on the table: the new bucket's exact value from literal times, a bind marker with a note
// otherwise; a read of a literal range the coarser buckets it covers; literal fine buckets read or deleted
// keep to their rows by a range of the time column). The other way, keeping the fine bucket as the first
// clustering column after the coarse one joins the key (as a finer bucket joins a coarse one's key for
// large-partition), was not taken: a range of the time column after it would need the fine bucket pinned
// by equality or IN, so a read of a span of time would have to list every fine bucket it covers again.
// No fix when the bucket column holds no time (text, int: its values cannot be read as instants), the
// coarser length would need shards, the table is a view or a view reads it; none is preferred when the plan leaves the
// read past maxPartitions or makes a new partition finding; each said in the details.
import type { MessageIdOf, RuleContext, RuleExamples, RuleModule, StatementOf } from './types';
import type { FindingData } from '../findings/findings-data';
import { bucketPeriodSeconds } from '../schema/columns';
import { nativeName } from '../schema/types';
import { analyseWhere } from '../util/statements';
import type { Expression, Relation, SourceRange } from '../../../grammar/ast';
import type { TableInfo } from '../schema/model';
import { parseDate, parseTimestamp } from '../token/values';
import { formatBytes, formatCount, formatDuration, formatRate } from '../util/format';
import { partitionInputs } from '../partition/inputs';
import { figuresOf, rowRate, workloadOf } from '../partition/verdicts';
import { BUCKETS, bucketSource, chooseBucket, coarserBucketPlan, cureAdvice } from '../partition/planner';
import { MIN_PARTITION_BYTES } from '../partition/limits';

type MessageId = 'fansOut';

/** "1 row", "43,829 rows", "0.5 rows". */
function rowsText(rows: number): string {
  const n = formatCount(rows);
  return `${n} ${n === '1' ? 'row' : 'rows'}`;
}

/** A range of literal times on one time column (`ts >= '2026-11-01' AND ts < '2026-11-08'`): its length and where it is written. */
function literalSpan(
  table: TableInfo,
  where: ReturnType<typeof analyseWhere>,
): { column: string; ms: number; range: SourceRange } | undefined {
  for (const [name, restrictions] of where.byColumn) {
    const column = table.columns.find((c) => c.name === name);
    const type = nativeName(column?.type);
    if (!column || !type || !TIME_TYPES.has(type)) continue;
    let from: number | undefined;
    let to: number | undefined;
    let first: Relation | undefined;
    let last: Relation | undefined;
    for (const { kind, relation } of restrictions) {
      if (kind !== 'range' || relation.right.length !== 1) continue;
      const ms = literalMillis(relation.right[0]!, type);
      if (ms === undefined) continue;
      if (relation.operator === '>' || relation.operator === '>=') from = ms;
      else if (relation.operator === '<' || relation.operator === '<=') to = ms;
      first = first && first.range.start < relation.range.start ? first : relation;
      last = last && last.range.end > relation.range.end ? last : relation;
    }
    if (from !== undefined && to !== undefined && to > from)
      return { column: name, ms: to - from, range: { start: first!.range.start, end: last!.range.end } };
  }
  return undefined;
}

const TIME_TYPES = new Set(['timestamp', 'date']);

/** Milliseconds since 1970 of a literal timestamp or date as Cassandra reads it; undefined for anything else (a bind marker, now()). */
function literalMillis(expr: Expression, type: string): number | undefined {
  if (expr.kind !== 'Literal' || (expr.literalKind !== 'string' && expr.literalKind !== 'integer')) return undefined;
  if (type === 'date') {
    const days = expr.literalKind === 'string' ? parseDate(expr.value) : undefined;
    return typeof days === 'number' ? days * 86_400_000 : undefined;
  }
  const ms = parseTimestamp(expr.value);
  return typeof ms === 'string' || !Number.isSafeInteger(Number(ms)) ? undefined : Number(ms);
}

function check(stmt: StatementOf<'Select'>, ctx: RuleContext<MessageId>): void {
  const table = ctx.tableFor(stmt.from, stmt.range.start);
  if (!table || !table.clustering.length || table.counter) return;
  const bucket = table.partitionKey.find((c) => bucketPeriodSeconds(c) !== undefined);
  if (!bucket) return;
  const seconds = bucketPeriodSeconds(bucket)!;
  const where = analyseWhere(stmt.where);
  // The rest of the key pinned: the read is of one entity's buckets, not a scan.
  if (
    !table.partitionKey.every(
      (c) => c === bucket || (where.byColumn.get(c.name) ?? []).some((r) => r.kind === 'eq' || r.kind === 'in'),
    )
  )
    return;
  const onBucket = where.byColumn.get(bucket.name) ?? [];
  const listed = onBucket.find((r) => r.kind === 'in' && r.inCount !== undefined)?.inCount;
  const pinned = onBucket.some((r) => r.kind === 'eq');
  const limit =
    stmt.limit?.kind === 'Literal' && stmt.limit.literalKind === 'integer' ? Number(stmt.limit.value) : undefined;
  const span = pinned ? literalSpan(table, where) : undefined;
  if (listed === undefined && span === undefined && (limit === undefined || !pinned)) return;

  const inputs = partitionInputs(ctx, table);
  const rate = rowRate(inputs, workloadOf(inputs));
  if (!(rate.rowsPerSecond > 0)) return;
  const figures = figuresOf(inputs, rate);
  const rowsPerPartition = rate.rowsPerSecond * seconds;
  const bytesPerPartition = rowsPerPartition * figures.rowBytes;
  if (bytesPerPartition >= MIN_PARTITION_BYTES) return;
  // A literal span of time, run once per bucket it covers; else the LIMIT's rows at one bucket's rows each.
  const partitions =
    listed ?? (span ? Math.ceil(span.ms / 1000 / seconds) : Math.ceil(limit! / Math.max(1, rowsPerPartition)));
  const via = listed !== undefined ? 'in' : span ? 'range' : 'limit';
  const max = Number(ctx.options['maxPartitions'] ?? 32);
  if (!(partitions > max)) return;
  // The planner's own bucket for this rate: reported only when it is coarser than the table's.
  const rowsToLimit = figures.binding && Number.isFinite(figures.binding.rows) ? figures.binding.rows : undefined;
  const choice = chooseBucket(rate.rowsPerSecond, rowsToLimit, {
    sourceType: nativeName(bucketSource(table)?.type),
    force: true,
  });
  const coarser = choice && choice.shards === 1 ? BUCKETS[choice.granularity] : undefined;
  if (!coarser || coarser.seconds <= seconds) return;
  const coarserRows = rate.rowsPerSecond * coarser.seconds;
  const coarserPartitions = Math.max(1, Math.ceil((partitions * seconds) / coarser.seconds));
  // The cure applies this choice (one decision): the coarser bucket in place of the fine one (coarserBucketPlan).
  const cure = coarserBucketPlan(inputs, bucket, choice!, {
    rowsPerSecond: rate.rowsPerSecond,
    rateSource: rate.source,
    rateNote: rate.note,
    rowBytes: figures.rowBytes,
    rowsToLimit,
    readsBefore: partitions,
    readsAfter: coarserPartitions,
    maxPartitions: max,
  });
  // A materialized view of the table keeps every base key column in its own key: the fix cannot re-key the table under it.
  const views = 'plan' in cure ? ctx.viewsOf(table).map((v) => v.qualifiedName) : [];
  const plan = 'plan' in cure && !views.length ? cure.plan : undefined;
  const fixText = views.length
    ? `\n\nNo fix is offered: ${views.length === 1 ? `the materialized view ${views[0]} reads` : `the materialized views ${views.join(', ')} read`} ${table.qualifiedName}, and a view's primary key must hold every primary key column of its base table, so ${views.length === 1 ? 'it has' : 'they have'} to be dropped and created again with the new key.`
    : plan
      ? plan.cures
        ? `\n\nThe fix: ${cureAdvice(table, plan)}; every statement on ${table.qualifiedName} names ${plan.bucket!.column} where it named ${bucket.name}, which stays a column.`
        : `\n\nNo fix is preferred: ${cureAdvice(table, plan)}.`
      : `\n\nNo fix is offered: ${'none' in cure ? cure.none : ''}.`;
  const rateText = `${formatRate(rate.rowsPerSecond)} (${rate.source === 'default' ? rate.note.replace(/;.*$/, '') : rate.source})`;
  const reads =
    via === 'in'
      ? `${bucket.name} IN names ${formatCount(listed!)} buckets`
      : via === 'range'
        ? `range of ${span!.column} spans ${formatDuration(span!.ms / 1000)}, one query per ${bucket.name} it covers: ${formatCount(partitions)} buckets`
        : `LIMIT ${formatCount(limit!)} at ${rowsText(rowsPerPartition)} a bucket takes ${formatCount(partitions)} buckets`;
  ctx.report({
    messageId: 'fansOut',
    values: { table: table.qualifiedName, partitions: formatCount(partitions), bytes: formatBytes(bytesPerPartition) },
    details:
      `One ${bucket.name} partition holds ${rowsText(rowsPerPartition)} at ${rateText} ≈ ${formatBytes(bytesPerPartition)}, under the ${formatBytes(MIN_PARTITION_BYTES)} floor of the window partitions are sized in (the top is the target's first limit); this read's ${reads}, more than ${max}.\n\n` +
      `A ${coarser.granularity} bucket would hold ${rowsText(coarserRows)} ≈ ${formatBytes(coarserRows * figures.rowBytes)} a partition, still under ${figures.binding ? figures.binding.label : 'the limit'} with the headroom: the same read visits ${formatCount(coarserPartitions)}. ` +
      `Time-series stores size their time slices to such a window (Netflix's TimeSeries Abstraction does), so that a read of a span visits few partitions and no partition grows past the limit.` +
      fixText,
    range:
      via === 'in'
        ? onBucket.find((r) => r.kind === 'in')!.relation.range
        : via === 'range'
          ? span!.range
          : stmt.limit!.range,
    data: {
      table: table.qualifiedName,
      bucket: bucket.name,
      bucketSeconds: seconds,
      partitions,
      max,
      via,
      rowsPerSecond: rate.rowsPerSecond,
      rateSource: rate.source,
      rowsPerPartition,
      bytesPerPartition,
      minPartitionBytes: MIN_PARTITION_BYTES,
      coarser: {
        granularity: coarser.granularity,
        rowsPerPartition: coarserRows,
        bytesPerPartition: coarserRows * figures.rowBytes,
        partitions: coarserPartitions,
      },
      plans: plan ? [plan] : [],
    } satisfies FindingData<'over-partitioned-read'>,
  });
}

export const rule: RuleModule<MessageId> = {
  meta: {
    id: 'over-partitioned-read',
    defaultSeverity: 'warning',
    description:
      "A read that visits many partitions because the key's time bucket is finer than the rows need: partitions under the 2 MiB floor of the window of partition sizes, where a coarser bucket would fit under the limit.",
    messages: {
      fansOut: 'a read of {{table}} visits {{partitions}} partitions of about {{bytes}}: the time bucket is too fine',
    },
    scope: 'statement',
    options: {
      maxPartitions: {
        type: 'number',
        default: 32,
        description: 'The most partitions one read may visit before a bucket finer than the window is reported.',
      },
    },
  },
  handlers: { Select: check },
};

const minutes =
  'CREATE TABLE iot.readings_by_minute (sensor_id uuid, minute timestamp, ts timestamp, value double, PRIMARY KEY ((sensor_id, minute), ts));\n';
/** The table as the fix re-keys it: the month in the minute's place, the minute a column. */
const months =
  "CREATE TABLE iot.readings_by_minute (sensor_id uuid, minute timestamp, ts timestamp, value double, month text /* bucket: the UTC month of ts as 'YYYY-MM', set by the application */, PRIMARY KEY ((sensor_id, month), ts));\n";
const toMonths = 'Replace minute with a time bucket month text (monthly partitions by ts)';
const bindMonth = '-- bind month = the UTC month of the minute it bound (one UTC month is one partition now)\n';

export const examples: RuleExamples<MessageIdOf<typeof rule>> = {
  valid: [
    {
      name: 'one bucket read',
      code: `${minutes}SELECT value FROM iot.readings_by_minute WHERE sensor_id = ? AND minute = ?;`,
    },
    {
      name: 'a LIMIT one bucket holds: 2,000 rows/s fills a minute with 120,000 rows',
      code: `-- @cqlint rate=2000/s\n${minutes}SELECT value FROM iot.readings_by_minute WHERE sensor_id = ? AND minute = ? LIMIT 1000;`,
    },
    {
      name: 'partitions in the window: an hour at 2 rows/s holds 7,200 rows',
      code: '-- @cqlint rate=2/s\nCREATE TABLE ks.events (source text, hour timestamp, ts timestamp, v double, PRIMARY KEY ((source, hour), ts));\nSELECT v FROM ks.events WHERE source = ? AND hour = ? LIMIT 1000000;',
    },
    {
      name: 'a range of bound times: its span is unknown',
      code: `${minutes}SELECT value FROM iot.readings_by_minute WHERE sensor_id = ? AND minute = ? AND ts >= ? AND ts < ?;`,
    },
    {
      name: 'a range of 20 minutes over minute buckets: 20 queries, within the 32',
      code: `${minutes}SELECT value FROM iot.readings_by_minute WHERE sensor_id = ? AND minute = ? AND ts >= '2026-11-20 10:00:00+0000' AND ts < '2026-11-20 10:20:00+0000';`,
    },
    {
      name: 'a few buckets named',
      code: `${minutes}SELECT value FROM iot.readings_by_minute WHERE sensor_id = ? AND minute IN (?, ?, ?);`,
    },
    {
      name: 'no coarser length fits: a day at 5 rows/s would pass the limit, so hours are right',
      code: `-- @cqlint rate=5/s\nCREATE TABLE ks.events (source text, hour timestamp, ts timestamp, v double, PRIMARY KEY ((source, hour), ts));\nSELECT v FROM ks.events WHERE source = ? AND hour = ? LIMIT 100000;`,
    },
    {
      name: "the rest of the key not pinned: a scan, another rule's",
      code: `${minutes}SELECT value FROM iot.readings_by_minute LIMIT 1000;`,
    },
  ],
  invalid: [
    {
      name: "a minute bucket at a sensor's 1 row/min: the latest 500 readings visit 500 partitions of one row",
      code: `${minutes}SELECT value FROM iot.readings_by_minute WHERE sensor_id = ? AND minute = ? LIMIT 500;`,
      at: '500;',
      messageId: 'fansOut',
      message:
        /^a read of iot\.readings_by_minute visits 500 partitions of about \d+ B: the time bucket is too fine One minute partition holds 1 row at 1 row\/min \(the default for a machine source\).*under the 2 MB floor.*LIMIT 500 at 1 row a bucket takes 500 buckets, more than 32\. A month bucket would hold 43,829 rows/,
      data: { partitions: 500, via: 'limit', max: 32, bucket: 'minute', bucketSeconds: 60 },
      output: null,
      suggestion: {
        title: `${toMonths}; rewrites 1 statement, 1 left to the application`,
        output: `${months}${bindMonth}SELECT value FROM iot.readings_by_minute WHERE sensor_id = ? AND month = ? LIMIT 500;`,
      },
    },
    {
      name: 'an hour bucket at a hinted 2 rows/min, 48 hours named: a day fits (a month would not), and the read visits two',
      code: `-- @cqlint rate=2/min\nCREATE TABLE ks.audit (account text, hour timestamp, ts timestamp, action text, PRIMARY KEY ((account, hour), ts));\nSELECT action FROM ks.audit WHERE account = 'a1' AND hour IN (${Array.from({ length: 48 }, (_, i) => `'2026-11-${String(19 + Math.floor(i / 24)).padStart(2, '0')} ${String(i % 24).padStart(2, '0')}:00:00+0000'`).join(', ')});`,
      at: 'hour IN',
      messageId: 'fansOut',
      message: /visits 48 partitions.*hour IN names 48 buckets.*A day bucket would hold 2,880 rows.*visits 2\./,
      data: { partitions: 48, via: 'in', rateSource: 'hinted' },
      output: null,
      suggestion: {
        title: 'Replace hour with a time bucket day date (daily partitions by ts); rewrites 1 statement',
        output:
          "-- @cqlint rate=2/min\nCREATE TABLE ks.audit (account text, hour timestamp, ts timestamp, action text, day date /* bucket: the UTC day of ts, set by the application */, PRIMARY KEY ((account, day), ts));\nSELECT action FROM ks.audit WHERE account = 'a1' AND day IN ('2026-11-19', '2026-11-20') AND ts >= '2026-11-19 00:00:00+0000' AND ts < '2026-11-21 00:00:00+0000';",
      },
    },
    {
      name: "a range read of one day over minute buckets: 1,440 queries, one per minute, for a sensor's 1,440 rows",
      code: `${minutes}SELECT value FROM iot.readings_by_minute WHERE sensor_id = ? AND minute = ? AND ts >= '2026-11-20 00:00:00+0000' AND ts < '2026-11-21 00:00:00+0000';`,
      at: "ts >= '2026",
      messageId: 'fansOut',
      message:
        /visits 1,440 partitions.*range of ts spans 24 hours, one query per minute it covers: 1,440 buckets.*A month bucket would hold 43,829 rows.*visits 1\./,
      data: { partitions: 1440, via: 'range' },
      output: null,
      suggestion: {
        // The application ran the read once per minute it bound: once for the range now, with no minute bound.
        title: `${toMonths}; rewrites 1 statement, 1 left to the application`,
        output: `${months}-- binds no minute now: run it once for the range, not once per minute it covers\nSELECT value FROM iot.readings_by_minute WHERE sensor_id = ? AND month = '2026-11' AND ts >= '2026-11-20 00:00:00+0000' AND ts < '2026-11-21 00:00:00+0000';`,
      },
    },
    {
      name: 'a range of three years over minute buckets: a month is the coarsest bucket that fits, and the read would still visit about 37 months (36 calendar ones), so the fix is offered but not preferred, its title saying what it leaves',
      code: `${minutes}SELECT value FROM iot.readings_by_minute WHERE sensor_id = ? AND minute = ? AND ts >= '2024-01-01 00:00:00+0000' AND ts < '2027-01-01 00:00:00+0000';`,
      at: "ts >= '2024",
      messageId: 'fansOut',
      message: /visits 1,578,240 partitions.*No fix is preferred: .*the read still visits 37 partitions/,
      data: { via: 'range', partitions: 1578240 },
      output: null,
    },
    {
      name: 'an hour bucket written as text: a day would fit, but no value of a text bucket is an instant the fix could compute a day from, so no fix, and the details say why',
      code: 'CREATE TABLE iot.readings_by_hour (sensor_id uuid, hour text, ts timestamp, value double, PRIMARY KEY ((sensor_id, hour), ts));\nSELECT value FROM iot.readings_by_hour WHERE sensor_id = ? AND hour = ? LIMIT 5000;',
      at: '5000;',
      messageId: 'fansOut',
      message: /No fix is offered: hour is text, not a time/,
      data: { plans: [] },
      output: null,
    },
    {
      name: 'a materialized view reads the table: its key holds every key column of the table, so the fix cannot re-key it, and the details say why',
      code: `${minutes}CREATE MATERIALIZED VIEW iot.readings_by_value AS SELECT * FROM iot.readings_by_minute WHERE sensor_id IS NOT NULL AND minute IS NOT NULL AND ts IS NOT NULL AND value IS NOT NULL PRIMARY KEY ((sensor_id, minute), value, ts);\nSELECT value FROM iot.readings_by_minute WHERE sensor_id = ? AND minute = ? LIMIT 500;`,
      at: '500;',
      messageId: 'fansOut',
      message:
        /No fix is offered: the materialized view iot\.readings_by_value reads iot\.readings_by_minute, and a view's primary key must hold every primary key column of its base table/,
      data: { plans: [] },
      output: null,
    },
    {
      name: 'the option: at most 8 partitions a read',
      code: `${minutes}SELECT value FROM iot.readings_by_minute WHERE sensor_id = ? AND minute = ? LIMIT 10;`,
      at: '10;',
      messageId: 'fansOut',
      config: { rules: { 'over-partitioned-read': ['warn', { maxPartitions: 8 }] } },
      data: { partitions: 10, max: 8 },
    },
  ],
};
