// `unbounded-partition`: rows clustered by a time-ordered column (timestamp, timeuuid, epoch-like
// integers named *_at/*_time/ts) while the partition key has no time bucket and the table no
// default_time_to_live: each partition grows forever.
// Data: { table, keyspace?, partitionKey: string[], clustering: string[], timeColumn: string,
//         timeColumnType: string, suggestedBucket: string, suggestedKey: string, statementRange, primaryKeyRange? }
import type { CreateMaterializedViewStatement, CreateTableStatement } from '../../../grammar/ast';
import { docsUrl } from '../findings';
import { isShardColumn, isTimeBucket, isTimeOrdered, isLowCardinality, looksLikeEventStream } from '../schema/columns';
import type { TableInfo } from '../schema/model';
import { nativeName } from '../schema/types';
import type { RuleContext, RuleExamples, RuleModule } from './types';
import { keyText } from '../util/statements';

function check(ctx: RuleContext, stmt: CreateTableStatement | CreateMaterializedViewStatement): void {
  const defined = ctx.definedBy(stmt);
  if (!defined || !defined.partitionKey.length || !defined.clustering.length) return;
  const table: TableInfo = ctx.latest(defined);
  if (table.defaultTtlSeconds) return;
  if (table.partitionKey.some((c) => isTimeBucket(c) || isShardColumn(c, table))) return;
  // A partition key of enum-like values alone is a hot-partition problem first; that rule says so.
  if (table.partitionKey.every((c) => isLowCardinality(c))) return;
  const timeColumn = table.clustering.find((c) => isTimeOrdered(c));
  if (!timeColumn) return;
  if (!looksLikeEventStream(table, timeColumn) && !ctx.options['reportEntityHistories']) return;
  const pk = table.partitionKey.map((c) => c.name);
  const bucket = nativeName(timeColumn.type) === 'timeuuid' || nativeName(timeColumn.type) === 'timestamp' ? 'day' : 'day';
  const suggestedKey = keyText([...pk, bucket], table.clustering.map((c) => c.name));
  const who = pk.length === 1 ? `one ${pk[0]}` : `one (${pk.join(', ')})`;
  ctx.report({
    message:
      `every row of ${table.qualifiedName} for ${who} lands in one partition, forever: rows are clustered by ${timeColumn.name} (${timeColumn.typeText}) and the partition key has no time bucket. ` +
      `Add a bucket such as ${bucket} to the partition key ${suggestedKey} or set default_time_to_live`,
    range: stmt.primaryKey?.partitionKeyRange ?? stmt.primaryKey?.range ?? stmt.name.range,
    data: {
      table: table.qualifiedName,
      ...(table.keyspace ? { keyspace: table.keyspace } : {}),
      partitionKey: pk,
      clustering: table.clustering.map((c) => c.name),
      timeColumn: timeColumn.name,
      timeColumnType: timeColumn.typeText,
      suggestedBucket: bucket,
      suggestedKey,
      statementRange: stmt.range,
      ...(stmt.primaryKey ? { primaryKeyRange: stmt.primaryKey.range } : {}),
    },
  });
}

export const rule: RuleModule = {
  meta: {
    id: 'unbounded-partition',
    defaultSeverity: 'warning',
    description: 'Partitions that grow forever: time-ordered clustering without a time bucket or TTL.',
    docsUrl: docsUrl('unbounded-partition'),
    scope: 'statement',
    options: {
      reportEntityHistories: {
        type: 'boolean',
        default: false,
        description: 'Also report time-ordered histories of human-scale entities (a user\'s comments, a video\'s ratings); by default only event streams (sensors, devices, hosts; tables of readings, events, logs, metrics, messages ...) are reported.',
      },
    },
  },
  check(ctx) {
    for (const stmt of ctx.parse.statements) {
      if (stmt.kind === 'CreateTable' || stmt.kind === 'CreateMaterializedView') check(ctx, stmt);
    }
  },
};

export const examples: RuleExamples = {
  valid: [
    'CREATE TABLE ks.readings (sensor_id uuid, day date, reading_time timestamp, value double, PRIMARY KEY ((sensor_id, day), reading_time));',
    'CREATE TABLE ks.readings (sensor_id uuid, reading_time timestamp, value double, PRIMARY KEY (sensor_id, reading_time)) WITH default_time_to_live = 604800;',
    { name: 'TTL set later by ALTER', code: 'CREATE TABLE ks.readings (sensor_id uuid, reading_time timestamp, value double, PRIMARY KEY (sensor_id, reading_time));\nALTER TABLE ks.readings WITH default_time_to_live = 86400;' },
    'CREATE TABLE ks.logs (server text, log_hour timestamp, log_time timeuuid, line text, PRIMARY KEY ((server, log_hour), log_time));',
    'CREATE TABLE ks.users (id uuid PRIMARY KEY, created_at timestamp);',
    'CREATE TABLE ks.scores (player_id uuid, game text, score int, PRIMARY KEY (player_id, game));',
    'CREATE TABLE ks.events (id uuid, shard int, ts timestamp, PRIMARY KEY ((id, shard), ts));',
    { name: "a user's comments grow at human pace", code: 'CREATE TABLE ks.comments_by_user (userid uuid, commentid timeuuid, comment text, PRIMARY KEY (userid, commentid));' },
  ],
  invalid: [
    {
      code: 'CREATE TABLE ks.readings (sensor_id uuid, reading_time timestamp, value double, PRIMARY KEY (sensor_id, reading_time));',
      at: 'sensor_id, reading_time)',
      message: /one sensor_id lands in one partition, forever: rows are clustered by reading_time \(timestamp\).*\(\(sensor_id, day\), reading_time\).*default_time_to_live/,
      data: { partitionKey: ['sensor_id'], timeColumn: 'reading_time', suggestedKey: '((sensor_id, day), reading_time)' },
    },
    { code: 'CREATE TABLE ks.logs (server text, log_time timeuuid, line text, PRIMARY KEY (server, log_time));' },
    { name: 'entity histories with the option', code: 'CREATE TABLE ks.comments_by_user (userid uuid, commentid timeuuid, comment text, PRIMARY KEY (userid, commentid));', config: { rules: { 'unbounded-partition': ['warn', { reportEntityHistories: true }] } } },
    { name: 'messages per conversation', code: 'CREATE TABLE ks.messages (conversation_id uuid, sent_at timestamp, body text, PRIMARY KEY (conversation_id, sent_at));' },
    { code: 'CREATE TABLE ks.ev (device_id text, created_at bigint, v blob, PRIMARY KEY (device_id, created_at));', data: { timeColumn: 'created_at' } },
    { code: 'CREATE TABLE ks.base (id uuid PRIMARY KEY, sensor text, ts timestamp);\nCREATE MATERIALIZED VIEW ks.by_sensor AS SELECT * FROM ks.base WHERE sensor IS NOT NULL AND ts IS NOT NULL AND id IS NOT NULL PRIMARY KEY (sensor, ts, id);' },
  ],
};
