// `unbounded-partition`: partitions that grow forever, decided by the workload model
// (schema/workload.ts, docs/partition-model.md): rows arrive per event (clustered by a timestamp,
// timeuuid, epoch number or sequence, or by ids piling up under a few-valued or grouping key) and
// nothing bounds a partition: no time bucket or split column in the key, no TTL short enough for the
// growth rate (a TTL is judged against it: 10 years bounds nothing). Reported for event streams, machine
// sources and keys many entities share; one entity's own history only with reportEntityHistories.
// Silent on targets without a partition size limit (Amazon Keyspaces).
// With evidence of the table at two capture dates (nodetool tablestats / tablehistograms, ScyllaDB
// large_partitions), the measured growth of the largest partition wins over the model's rate: growth is
// reported (entity histories included, the pace measured), flat partitions are not.
import type { CreateMaterializedViewStatement, CreateTableStatement } from '../../../grammar/ast';
import { figuresData, partitionNumbersText } from '../partition/sizing';
import type { TableInfo } from '../schema/model';
import { formatCount, formatDuration } from '../util/format';
import type { RuleContext, MessageIdOf, RuleExamples, RuleModule } from './types';
import type { FindingData } from '../findings/findings-data';
import { evidenceFindingData, growthText, measuredReachText } from '../evidence';
import { tablestatsOutput } from '../../../test/helpers/example-evidence';
import { partitionInputs } from '../partition/inputs';
import { growthVerdict, workloadOf } from '../partition/verdicts';
import { chooseBucket, cureAdvice, partitionPlans, plannedKeyText } from '../partition/planner';
import { keyText } from '../util/statements';

/** sameCure: only rules/one-answer.ts words it, when a hot-partition fix of the table bounds the growth too. */
type MessageId = 'growsForever' | 'growsForeverMeasured' | 'sameCure';

function check(stmt: CreateTableStatement | CreateMaterializedViewStatement, ctx: RuleContext<MessageId>): void {
  const defined = ctx.definedBy(stmt);
  if (!defined || !defined.partitionKey.length || !defined.clustering.length) return;
  const table: TableInfo = ctx.latest(defined);
  const inputs = partitionInputs(ctx, table);
  const w = workloadOf(inputs);
  const options = { reportEntityHistories: !!ctx.options['reportEntityHistories'] };
  const verdict = growthVerdict(inputs, w, options);
  if (!verdict || !w.growth) return;
  const { figures, unbounded, measured, rate } = verdict;
  const binding = figures.binding!;
  const references = inputs.references;
  const pk = table.partitionKey.map((c) => c.name);
  // A bucket already among the clustering columns (`posted_month`) only needs to move into the key.
  // Not when a statement reads a range of it (months 1 to 3): a partition key column takes no range.
  const clusteredBucket = w.clustering.find(
    (c) => c.nature === 'bucket' && !references.some((r) => r.ranged.includes(c.name)),
  )?.name;
  const column = w.growth.column;
  // The cures, planned once: the message words the first, the fix applies it.
  const plans = partitionPlans(inputs, {
    rule: 'unbounded-partition',
    options,
    growth: { timeColumn: column.name },
    ...(clusteredBucket ? { moveToPartition: clusteredBucket } : {}),
  });
  const plan = plans[0];
  // A view has no plan (its key follows its base table's): the bucket the planner would choose, in words.
  const bucket =
    plan?.moveToPartition?.[0] ??
    plan?.bucket?.column ??
    clusteredBucket ??
    chooseBucket(rate.rowsPerSecond, binding.rows, { force: true })?.granularity ??
    'day';
  const suggestedKey = plan
    ? plannedKeyText(table, plan)
    : keyText(
        [...pk, bucket],
        table.clustering.map((c) => c.name).filter((c) => c !== clusteredBucket),
      );
  const who = pk.length === 1 ? `one ${pk[0]}` : `one (${pk.join(', ')})`;
  const arrival =
    w.growth.by === 'time'
      ? `rows are clustered by ${column.name} (${column.typeText})`
      : `rows are added per new ${column.name} (${column.typeText})`;
  const why = unbounded.ttl
    ? `its ${unbounded.ttl.source} of ${formatDuration(unbounded.ttl.seconds)} keeps about ${formatCount(unbounded.ttl.rowsKept)} rows at this rate, past the limit, so it bounds nothing`
    : clusteredBucket
      ? `the time bucket ${clusteredBucket} is a clustering column, not part of the partition key`
      : 'the partition key has no time bucket';
  const ttlAdvice =
    figures.secondsToLimit !== undefined
      ? `a default_time_to_live under ${formatDuration(figures.secondsToLimit)}`
      : 'a default_time_to_live';
  const limitBytes = Math.min(
    ...figures.limits.map((l) => (l.measure === 'bytes' ? l.value : l.rows * figures.rowBytes)),
  );
  const bytesLimit = figures.limits.find((l) => l.measure === 'bytes');
  const evidenceText = measured
    ? `${growthText(measured).replace(/^measured/, 'Measured')}${measuredReachText(measured, bytesLimit?.value, bytesLimit?.label)}.\n\n`
    : '';
  const advice = plan
    ? `${cureAdvice(table, plan)}; or set ${ttlAdvice}`
    : `${clusteredBucket ? `Move ${bucket} into` : `Add a bucket such as ${bucket} to`} the partition key ${suggestedKey} or set ${ttlAdvice}`;
  ctx.report({
    messageId: measured ? 'growsForeverMeasured' : 'growsForever',
    values: { table: table.qualifiedName, key: who },
    details:
      `${arrival[0]!.toUpperCase()}${arrival.slice(1)}, and ${why}.\n\n${evidenceText}` +
      `${advice}.\n\n${partitionNumbersText(figures)}`,
    range: stmt.primaryKey?.partitionKeyRange ?? stmt.primaryKey?.range ?? stmt.name.range,
    data: {
      table: table.qualifiedName,
      ...(table.keyspace ? { keyspace: table.keyspace } : {}),
      partitionKey: pk,
      clustering: table.clustering.map((c) => c.name),
      timeColumn: column.name,
      timeColumnType: column.typeText,
      suggestedBucket: bucket,
      suggestedKey,
      statementRange: stmt.range,
      ...(stmt.primaryKey ? { primaryKeyRange: stmt.primaryKey.range } : {}),
      rowBytes: figures.rowBytes,
      rowsPerSecond: rate.rowsPerSecond,
      limitBytes,
      ...(unbounded.ttl ? { ttlSeconds: unbounded.ttl.seconds } : {}),
      numbers: figuresData(figures),
      plans,
      ...(measured
        ? {
            evidence: {
              ...evidenceFindingData(measured.last),
              days: measured.days,
              ...(measured.first.unit === 'bytes' ? { bytesPerDay: measured.perDay } : { rowsPerDay: measured.perDay }),
            },
          }
        : {}),
    } satisfies FindingData<'unbounded-partition'>,
  });
}

export const rule: RuleModule<MessageId> = {
  meta: {
    id: 'unbounded-partition',
    defaultSeverity: 'warning',
    description:
      'Partitions that grow forever: rows arriving per event with no time bucket, a TTL too long for the growth rate, or growth measured between two captures.',
    messages: {
      growsForever: 'partition grows forever: every row of {{table}} for {{key}} lands in one partition',
      growsForeverMeasured:
        'partition grows forever: every row of {{table}} for {{key}} lands in one partition (measured)',
      sameCure:
        'partition grows forever: every row of {{table}} for {{key}} lands in one partition (the hot-partition fix bounds it)',
    },
    scope: 'statement',
    options: {
      reportEntityHistories: {
        type: 'boolean',
        default: false,
        description:
          "Also report time-ordered histories of human-scale entities (a user's comments, a video's ratings); by default only event streams (sensors, devices, hosts; tables of readings, events, logs, metrics, messages, views, audits ...) and keys many entities share (status, country, tag, queue, shard alone) are reported.",
      },
    },
  },
  handlers: { CreateTable: check, CreateMaterializedView: check },
};

export const examples: RuleExamples<MessageIdOf<typeof rule>> = {
  valid: [
    'CREATE TABLE ks.readings (sensor_id uuid, day date, reading_time timestamp, value double, PRIMARY KEY ((sensor_id, day), reading_time));',
    'CREATE TABLE ks.readings (sensor_id uuid, reading_time timestamp, value double, PRIMARY KEY (sensor_id, reading_time)) WITH default_time_to_live = 604800;',
    {
      name: 'TTL set later by ALTER',
      code: 'CREATE TABLE ks.readings (sensor_id uuid, reading_time timestamp, value double, PRIMARY KEY (sensor_id, reading_time));\nALTER TABLE ks.readings WITH default_time_to_live = 86400;',
    },
    'CREATE TABLE ks.logs (server text, log_hour timestamp, log_time timeuuid, line text, PRIMARY KEY ((server, log_hour), log_time));',
    'CREATE TABLE ks.users (id uuid PRIMARY KEY, created_at timestamp);',
    'CREATE TABLE ks.scores (player_id uuid, game text, score int, PRIMARY KEY (player_id, game));',
    {
      name: 'events of one match: a match ends',
      code: 'CREATE TABLE ks.match_events (match_id uuid, event_seq int, event_type text, PRIMARY KEY (match_id, event_seq));',
    },
    {
      name: "a user's comments grow at human pace",
      code: 'CREATE TABLE ks.comments_by_user (userid uuid, commentid timeuuid, comment text, PRIMARY KEY (userid, commentid));',
    },
    {
      name: 'Keyspaces has no partition size limit',
      code: 'CREATE TABLE ks.readings (sensor_id uuid, reading_time timestamp, value double, PRIMARY KEY (sensor_id, reading_time));',
      target: 'keyspaces',
    },
    {
      name: 'epoch day bucket in the key',
      code: 'CREATE TABLE ks.pings (host text, epoch_day int, epoch_ms bigint, rtt int, PRIMARY KEY ((host, epoch_day), epoch_ms));',
    },
    {
      name: 'USING TTL of a day on every write',
      code: 'CREATE TABLE ks.readings (sensor_id uuid, reading_time timestamp, value double, PRIMARY KEY (sensor_id, reading_time));\nINSERT INTO ks.readings (sensor_id, reading_time, value) VALUES (?, ?, ?) USING TTL 86400;',
    },
    {
      name: "Cosmos DB: 20 GB takes centuries at a sensor's stated rate",
      code: 'CREATE TABLE ks.readings (sensor_id uuid, reading_time timestamp, value double, PRIMARY KEY (sensor_id, reading_time));',
      target: 'cosmosdb',
    },
    {
      name: "owner-aware: one person's partition named like events grows at a human pace",
      code: 'CREATE TABLE ks.user_events (user_id uuid, event_time timestamp, event_type text, payload text, PRIMARY KEY (user_id, event_time));',
    },
    {
      name: 'statements: rows read oldest first and deleted are a queue (queue-table speaks)',
      code: 'CREATE TABLE ks.sensor_jobs (sensor_id uuid, queued_at timeuuid, body text, PRIMARY KEY (sensor_id, queued_at));\nSELECT * FROM ks.sensor_jobs WHERE sensor_id = ? LIMIT 10;\nDELETE FROM ks.sensor_jobs WHERE sensor_id = ? AND queued_at = ?;',
    },
    {
      name: 'statements: comments read by date range are a time series at a human pace',
      code: 'CREATE TABLE ks.comments (id uuid, created_at timestamp, comment text, PRIMARY KEY (id, created_at));\nSELECT * FROM ks.comments WHERE id = ? AND created_at > ?;',
    },
    {
      name: 'a TTL short for the hinted rate',
      code: '-- @cqlint rate=1/s\nCREATE TABLE ks.readings (sensor_id uuid, reading_time timestamp, value double, PRIMARY KEY (sensor_id, reading_time)) WITH default_time_to_live = 3600;',
    },
    {
      name: 'a one-day TTL at 2 rows/s bounds the partition at 172,800 rows: bounded (large-partition judges its size), not growing forever',
      code: '-- @cqlint rate=2/s\nCREATE TABLE ks.readings (sensor_id uuid, reading_time timestamp, value double, PRIMARY KEY (sensor_id, reading_time)) WITH default_time_to_live = 86400;',
    },
    {
      name: 'a week-long TTL bounds the partition whatever the rate (large-partition judges the rows it keeps)',
      code: '-- @cqlint rate=5/s\nCREATE TABLE ks.readings (sensor_id uuid, reading_time timestamp, value double, PRIMARY KEY (sensor_id, reading_time)) WITH default_time_to_live = 604800;',
    },
    {
      name: 'evidence: two captures three weeks apart show the largest partition flat, so the growth the model expects is not there',
      code: 'CREATE TABLE ks.logs (server text, log_time timeuuid, line text, PRIMARY KEY (server, log_time));',
      evidence: {
        'nov01.txt': tablestatsOutput('ks.logs', 8409007, { captured: '2026-11-01' }),
        'nov22.txt': tablestatsOutput('ks.logs', 8409007, { captured: '2026-11-22' }),
      },
    },
  ],
  invalid: [
    {
      name: 'a log by level: hot-partition reports the key too, and its fix (a shard and a day bucket) bounds the growth: this finding refers to it, with no fix of its own',
      code: 'CREATE TABLE ks.app_log (level text, logged_at timestamp, message text, PRIMARY KEY (level, logged_at));',
      at: 'level,',
      messageId: 'sameCure',
      message:
        /^partition grows forever: every row of ks\.app_log for one level lands in one partition \(the hot-partition fix bounds it\) hot-partition reports ks\.app_log too, and its fix bounds this growth as well: a random shard column \(2 shards\) and a time bucket day date \(daily partitions by logged_at\), the key \(\(level, shard, day\), logged_at\)\./,
      data: { curedBy: 'hot-partition', plans: [], suggestedKey: '((level, shard, day), logged_at)' },
    },
    {
      name: "evidence alone: a user's comments, which the model lets grow at human pace, measured growing about 0.9 MB a day",
      code: 'CREATE TABLE ks.comments_by_user (userid uuid, commentid timeuuid, comment text, PRIMARY KEY (userid, commentid));',
      at: 'userid,',
      messageId: 'growsForeverMeasured',
      evidence: {
        'nov01.txt': tablestatsOutput('ks.comments_by_user', 43388628, { captured: '2026-11-01' }),
        'nov22.txt': tablestatsOutput('ks.comments_by_user', 62479625, { captured: '2026-11-22' }),
      },
      message:
        /^partition grows forever: every row of ks\.comments_by_user for one userid lands in one partition \(measured\) Rows are clustered by commentid \(timeuuid\), and the partition key has no time bucket\. Measured on the cluster: nodetool tablestats, node 10\.0\.0\.3, 2026-11-01: compacted partition maximum 41\.4 MB \(evidence\/nov01\.txt:19\) → nodetool tablestats, node 10\.0\.0\.3, 2026-11-22: compacted partition maximum 59\.6 MB \(evidence\/nov22\.txt:19\), \+888 KB\/day over 21 days; at that pace the largest partition reaches 100 MB per partition in about 47 days\..*Apache Cassandra: a row ≈ 56 B; the first limit hit is 100,000 values per partition, at 100,000 rows: 6\.2 days at 11\.3 rows\/min \(measured: the growth between the captures/,
      data: {
        timeColumn: 'commentid',
        evidence: {
          tool: 'nodetool tablestats',
          file: '/virtual/cqlint-tests/evidence/nov22.txt',
          line: 19,
          node: '10.0.0.3',
          captured: '2026-11-22',
          label: 'compacted partition maximum',
          value: 62479625,
          unit: 'bytes',
          days: 21,
          bytesPerDay: (62479625 - 43388628) / 21,
        },
      },
    },
    {
      code: 'CREATE TABLE ks.readings (sensor_id uuid, reading_time timestamp, value double, PRIMARY KEY (sensor_id, reading_time));',
      at: 'sensor_id, reading_time)',
      messageId: 'growsForever',
      message:
        /for one sensor_id lands in one partition Rows are clustered by reading_time \(timestamp\).*\(\(sensor_id, month\), reading_time\).*default_time_to_live under 69 days.*Apache Cassandra: a row ≈ \d+ B; the first limit hit is 100,000 values per partition, at 100,000 rows: 69 days at 1 row\/min/,
      data: {
        partitionKey: ['sensor_id'],
        timeColumn: 'reading_time',
        suggestedKey: '((sensor_id, month), reading_time)',
        rowsPerSecond: 1 / 60,
      },
    },
    {
      code: 'CREATE TABLE ks.logs (server text, log_time timeuuid, line text, PRIMARY KEY (server, log_time));',
      at: 'server,',
      messageId: 'growsForever',
    },
    {
      name: 'entity histories with the option',
      code: 'CREATE TABLE ks.comments_by_user (userid uuid, commentid timeuuid, comment text, PRIMARY KEY (userid, commentid));',
      at: 'userid,',
      messageId: 'growsForever',
      config: { rules: { 'unbounded-partition': ['warn', { reportEntityHistories: true }] } },
    },
    {
      name: 'messages per conversation',
      code: 'CREATE TABLE ks.messages (conversation_id uuid, sent_at timestamp, body text, PRIMARY KEY (conversation_id, sent_at));',
      at: 'conversation_id,',
      messageId: 'growsForever',
    },
    {
      code: 'CREATE TABLE ks.ev (device_id text, created_at bigint, v blob, PRIMARY KEY (device_id, created_at));',
      at: 'device_id,',
      messageId: 'growsForever',
      data: { timeColumn: 'created_at' },
    },
    {
      code: 'CREATE TABLE ks.base (id uuid PRIMARY KEY, sensor text, ts timestamp);\nCREATE MATERIALIZED VIEW ks.by_sensor AS SELECT * FROM ks.base WHERE sensor IS NOT NULL AND ts IS NOT NULL AND id IS NOT NULL PRIMARY KEY (sensor, ts, id);',
      at: 'sensor,',
      messageId: 'growsForever',
    },
    {
      name: "a view whose clustering holds its base's minute bucket: the table in its place takes a month bucket (it keeps the view's clustering columns and their order), not the minute moved into its partition key",
      code: 'CREATE TABLE iot.readings_by_minute (sensor_id uuid, minute timestamp, ts timestamp, value double, PRIMARY KEY ((sensor_id, minute), ts));\nCREATE MATERIALIZED VIEW iot.readings_by_value AS SELECT * FROM iot.readings_by_minute WHERE sensor_id IS NOT NULL AND minute IS NOT NULL AND ts IS NOT NULL AND value IS NOT NULL PRIMARY KEY ((sensor_id, value), minute, ts);',
      at: '(sensor_id, value)',
      messageId: 'growsForever',
    },
    {
      name: 'page views per article',
      code: 'CREATE TABLE ks.article_page_views (article_id uuid, viewed_at timestamp, visitor_id uuid, referrer text, PRIMARY KEY (article_id, viewed_at, visitor_id));',
      at: 'article_id,',
      messageId: 'growsForever',
      data: { timeColumn: 'viewed_at' },
    },
    {
      name: 'chat messages per room',
      code: 'CREATE TABLE ks.chat_by_room (room_id uuid, message_id timeuuid, author text, body text, PRIMARY KEY (room_id, message_id));',
      at: 'room_id,',
      messageId: 'growsForever',
      data: { timeColumn: 'message_id' },
    },
    {
      name: 'channel messages keyed by a snowflake sequence',
      code: 'CREATE TABLE ks.channel_messages (channel_id bigint, message_seq bigint, author_id bigint, content text, PRIMARY KEY (channel_id, message_seq));',
      at: 'channel_id,',
      messageId: 'growsForever',
      data: { timeColumn: 'message_seq' },
    },
    {
      name: 'account audit trail',
      code: 'CREATE TABLE ks.account_audit_trail (account_id uuid, changed_at timestamp, actor text, change text, PRIMARY KEY (account_id, changed_at));',
      at: 'account_id,',
      messageId: 'growsForever',
    },
    {
      name: 'videos by tag: a popular tag grows forever',
      code: 'CREATE TABLE ks.videos_by_tag (tag text, added_date timestamp, videoid uuid, name text, PRIMARY KEY (tag, added_date, videoid));',
      at: 'tag,',
      messageId: 'growsForever',
      data: { timeColumn: 'added_date' },
    },
    {
      name: 'epoch_ms bigint clustering',
      code: 'CREATE TABLE ks.pings (host text, epoch_ms bigint, rtt_ms int, PRIMARY KEY (host, epoch_ms));',
      at: 'host,',
      messageId: 'growsForever',
      data: { timeColumn: 'epoch_ms', timeColumnType: 'bigint' },
    },
    {
      name: 'status-keyed log both hot and unbounded, with hot-partition off: the full answer and its own fix',
      code: 'CREATE TABLE ks.app_log (level text, logged_at timestamp, message text, PRIMARY KEY (level, logged_at));',
      config: { rules: { 'hot-partition': 'off' } },
      at: 'level,',
      messageId: 'growsForever',
      message: /for one level lands in one partition.*at 1 row\/s \(the default for a key many entities share/,
    },
    {
      name: '10-year TTL bounds nothing',
      code: 'CREATE TABLE ks.readings (sensor_id uuid, reading_time timestamp, value double, PRIMARY KEY (sensor_id, reading_time)) WITH default_time_to_live = 315360000;',
      at: 'sensor_id,',
      messageId: 'growsForever',
      message: /default_time_to_live of 10 years keeps about 5,256,000 rows/,
      data: { ttlSeconds: 315360000 },
    },
    {
      name: 'timeline with its month bucket among the clustering columns (Cassandra docs)',
      code: 'CREATE TABLE timeline (userid uuid, posted_month int, posted_time uuid, body text, posted_by text, PRIMARY KEY (userid, posted_month, posted_time));',
      at: 'userid,',
      messageId: 'growsForever',
      message:
        /the time bucket posted_month is a clustering column.*Move posted_month into the partition key \(\(userid, posted_month\), posted_time\)/,
      data: { suggestedBucket: 'posted_month', timeColumn: 'posted_time' },
    },
    {
      name: 'a shard beside an id spreads the writes but still grows forever',
      code: 'CREATE TABLE ks.events (id uuid, shard int, ts timestamp, PRIMARY KEY ((id, shard), ts));',
      output: null,
      suggestion: {
        title: 'Add a time bucket month text (monthly partitions by ts)',
        output:
          "CREATE TABLE ks.events (id uuid, shard int, ts timestamp, month text /* bucket: the UTC month of ts as 'YYYY-MM', set by the application */, PRIMARY KEY ((id, shard, month), ts));",
      },
      at: '(id,',
      messageId: 'growsForever',
      data: { suggestedKey: '((id, shard, month), ts)' },
    },
    {
      name: 'USING TTL of 10 years on the writes bounds nothing',
      code: 'CREATE TABLE ks.readings (sensor_id uuid, reading_time timestamp, value double, PRIMARY KEY (sensor_id, reading_time));\nINSERT INTO ks.readings (sensor_id, reading_time, value) VALUES (?, ?, ?) USING TTL 315360000;',
      at: 'sensor_id,',
      messageId: 'growsForever',
      message: /its USING TTL of 10 years keeps about 5,256,000 rows/,
    },
    {
      name: 'one write without a TTL keeps its rows forever',
      code: 'CREATE TABLE ks.readings (sensor_id uuid, reading_time timestamp, value double, PRIMARY KEY (sensor_id, reading_time));\nINSERT INTO ks.readings (sensor_id, reading_time, value) VALUES (?, ?, ?) USING TTL 86400;\nINSERT INTO ks.readings (sensor_id, reading_time, value) VALUES (?, ?, ?);',
      at: 'sensor_id,',
      messageId: 'growsForever',
      message: /the partition key has no time bucket/,
    },
    {
      name: 'shard-only key grows in N partitions',
      code: 'CREATE TABLE ks.events_sharded (shard int, event_time timestamp, payload text, PRIMARY KEY (shard, event_time));',
      at: 'shard,',
      messageId: 'growsForever',
    },
    {
      name: "hints win: a rate on one entity's history is judged without the option",
      code: '-- @cqlint rate=2/s\nCREATE TABLE ks.comments_by_user (userid uuid, commentid timeuuid, comment text, PRIMARY KEY (userid, commentid));',
      at: 'userid,',
      messageId: 'growsForever',
      message: /at 2 rows\/s \(hinted\)/,
      data: { rowsPerSecond: 2 },
    },
    {
      name: 'statements: an epoch bigint written with toUnixTimestamp(now()) (Dutch names)',
      code: 'CREATE TABLE nl.metingen (meter_nr text, tijdstip bigint, waarde double, PRIMARY KEY (meter_nr, tijdstip));\nINSERT INTO nl.metingen (meter_nr, tijdstip, waarde) VALUES (?, toUnixTimestamp(now()), ?);',
      at: 'meter_nr,',
      messageId: 'growsForever',
      data: { timeColumn: 'tijdstip' },
    },
    {
      name: 'statements: a bigint read by time ranges is a time series (Portuguese names)',
      code: 'CREATE TABLE pt.leituras (equipamento text, momento bigint, valor double, PRIMARY KEY (equipamento, momento));\nSELECT momento, valor FROM pt.leituras WHERE equipamento = ? AND momento >= ? AND momento < ?;',
      at: 'equipamento,',
      messageId: 'growsForever',
      message: /the default for a machine source/,
      data: { timeColumn: 'momento' },
    },
    {
      name: 'vocabulary: French names (capteur, horodatage)',
      code: 'CREATE TABLE usine.mesures_par_capteur (capteur_id uuid, horodatage timestamp, valeur double, PRIMARY KEY (capteur_id, horodatage));',
      at: 'capteur_id,',
      messageId: 'growsForever',
    },
    {
      name: 'owner-aware: a feed others write into (a timeline) keeps the event default',
      code: 'CREATE TABLE ks.home_timeline (user_id uuid, posted_at timeuuid, author text, body text, PRIMARY KEY (user_id, posted_at));',
      at: 'user_id,',
      messageId: 'growsForever',
      message: /the default for an event stream/,
    },
    {
      name: 'ScyllaDB: its own limits',
      code: 'CREATE TABLE ks.pings (host text, epoch_ms bigint, rtt_ms int, PRIMARY KEY (host, epoch_ms));',
      at: 'host,',
      messageId: 'growsForever',
      target: 'scylladb',
      message:
        /ScyllaDB: a row ≈ \d+ B; the first limit hit is large-partition warning at 100,000 rows: 69 days at 1 row\/min/,
    },
    {
      name: 'Cosmos DB: a key many entities share reaches 20 GB within the horizon at the hinted rate (hot-partition off, whose fix would answer it)',
      code: '-- @cqlint rate=50/s\nCREATE TABLE ks.app_log (level text, logged_at timestamp, message text, PRIMARY KEY (level, logged_at));',
      config: { rules: { 'hot-partition': 'off' } },
      at: 'level,',
      messageId: 'growsForever',
      target: 'cosmosdb',
      message:
        /Azure Cosmos DB for Apache Cassandra: a row ≈ \d+ B; the first limit hit is 20 GB per logical partition, at [\d,]+ rows: 104 days at 50 rows\/s \(hinted\)/,
    },
  ],
};
