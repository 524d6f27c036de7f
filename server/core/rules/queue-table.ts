// `queue-table`: a table the workspace's statements use as a queue (schema/workload.ts Consumption): rows
// arrive in time order, a query reads the oldest rows of a partition and a DELETE removes them by their
// clustering key. Every later read of the partition scans the tombstones of every row consumed before it,
// until gc_grace_seconds has passed and compaction drops them. With the rate (hinted or the model's
// default) the message states how many tombstones one partition keeps and when reads pass the
// tombstone warning and failure thresholds (Apache Cassandra's defaults). Cassandra and ScyllaDB only:
// Keyspaces and Cosmos DB manage tombstones themselves.
import { growthRateOf, tableWorkload } from '../schema/workload';
import { formatDuration, formatRate, formatCount } from '../util/format';
import { CASSANDRA_TOMBSTONES } from '../partition/targets';
import type { MessageIdOf, RuleExamples, RuleModule } from './types';
import { withLatestCreatedTable } from './defined-tables';
import { numericOption } from '../schema/definitions';
import { canHoldInstant } from '../schema/columns';
import type { FindingData } from '../findings/findings-data';

export const rule: RuleModule<'queue'> = {
  meta: {
    id: 'queue-table',
    defaultSeverity: 'warning',
    description:
      'A table used as a queue: the workspace reads the oldest rows of a partition and deletes them, so every read scans the tombstones of the rows consumed before it.',
    messages: {
      queue: '{{table}} is used as a queue: each read scans the tombstones of the rows consumed before it',
    },
    scope: 'statement',
  },
  handlers: {
    CreateTable: withLatestCreatedTable(true, (stmt, table, ctx) => {
      const target = ctx.target;
      if (!target.compactionChoice) return;
      // Rows a queue reads oldest first are ordered by time: a first clustering column of a type that can
      // hold an instant (text cannot), before any lookup.
      if (!canHoldInstant(table.clustering[0]!)) return;
      const hints = ctx.hints(table);
      const w = tableWorkload(table, hints, ctx.referencesTo(table));
      if (w.consumption?.kind !== 'queue') return;
      const { read, delete: del } = w.consumption;
      const column = table.clustering[0]!.name;
      const rate = growthRateOf(w);
      const gcGrace = numericOption(table.options, 'gc_grace_seconds') ?? target.tombstones?.gcGraceSeconds;
      const pk = table.partitionKey.map((c) => c.name);
      let figures = '';
      const numbers: Partial<FindingData<'queue-table'>> = {};
      if (target.tombstones && gcGrace !== undefined) {
        const kept = Math.round(w.rowsPerSecond * gcGrace);
        const toWarn = target.tombstones.warn / w.rowsPerSecond;
        const toFail = target.tombstones.fail / w.rowsPerSecond;
        figures =
          ` At ${formatRate(w.rowsPerSecond)} per partition (${rate.note}) one partition keeps about ${formatCount(kept)} tombstones for gc_grace_seconds (${formatDuration(gcGrace)}, ${CASSANDRA_TOMBSTONES}); ` +
          `reads of it pass the tombstone warning (${formatCount(target.tombstones.warn)}) after ${formatDuration(toWarn)} and fail at ${formatCount(target.tombstones.fail)} after ${formatDuration(toFail)} ` +
          `(tombstone_warn_threshold, tombstone_failure_threshold: ${target.tombstones.thresholdSource}).`;
        Object.assign(numbers, {
          tombstonesKept: kept,
          secondsToWarn: Math.round(toWarn),
          warnThreshold: target.tombstones.warn,
          failThreshold: target.tombstones.fail,
        });
      }
      ctx.report({
        messageId: 'queue',
        values: { table: table.qualifiedName },
        details:
          `A SELECT reads the oldest rows of one ${pk.join(', ')}${read.limit !== undefined ? ` (LIMIT ${read.limit})` : ''} and a DELETE removes them by ${column}, ` +
          `so every later read of that partition scans the tombstones of all the rows consumed before it.${figures}\n\n` +
          `Use a queue service for a queue; or add a time bucket to the partition key so that consumers read only the current bucket and drop old buckets whole (a partition delete or a TTL), not row by row.`,
        range: stmt.name.range,
        data: {
          table: table.qualifiedName,
          partitionKey: pk,
          column,
          readFile: read.file,
          readRange: read.range,
          deleteFile: del.file,
          deleteRange: del.range,
          rowsPerSecond: w.rowsPerSecond,
          rateHinted: w.rateHinted,
          ...(gcGrace !== undefined ? { gcGraceSeconds: gcGrace } : {}),
          ...numbers,
        } satisfies FindingData<'queue-table'>,
      });
    }),
  },
};

const jobs =
  'CREATE TABLE jobs.pending (pool text, queued_at timeuuid, job_id uuid, payload text, PRIMARY KEY (pool, queued_at));';
const insert = 'INSERT INTO jobs.pending (pool, queued_at, job_id, payload) VALUES (?, now(), ?, ?);';

export const examples: RuleExamples<MessageIdOf<typeof rule>> = {
  valid: [
    {
      name: 'rows read but never deleted: a log, not a queue',
      code: `${jobs}\n${insert}\nSELECT * FROM jobs.pending WHERE pool = ? LIMIT 50;`,
    },
    {
      name: 'newest first and deleted one at a time by the user (a chat message removed)',
      code: 'CREATE TABLE chat.messages (room_id uuid, sent_at timeuuid, body text, PRIMARY KEY (room_id, sent_at)) WITH CLUSTERING ORDER BY (sent_at DESC);\nSELECT * FROM chat.messages WHERE room_id = ? LIMIT 50;\nDELETE FROM chat.messages WHERE room_id = ? AND sent_at = ?;',
    },
    {
      name: 'whole partitions deleted at once (a bucket dropped): no row tombstones to scan',
      code: `${jobs}\nSELECT * FROM jobs.pending WHERE pool = ? LIMIT 50;\nDELETE FROM jobs.pending WHERE pool = ?;`,
    },
    {
      name: 'Keyspaces manages tombstones itself',
      code: `${jobs}\nSELECT * FROM jobs.pending WHERE pool = ? LIMIT 50;\nDELETE FROM jobs.pending WHERE pool = ? AND queued_at = ?;`,
      target: 'keyspaces',
    },
  ],
  invalid: [
    {
      name: "queue class: workers read the oldest jobs and delete them (a queue's items arrive at an event stream's pace, not one entity's)",
      code: `${jobs}\n${insert}\nSELECT queued_at, job_id, payload FROM jobs.pending WHERE pool = ? LIMIT 50;\nDELETE FROM jobs.pending WHERE pool = ? AND queued_at = ?;`,
      output: null,
      suggestion: {
        title:
          'Write the assumed rate down: -- @cqlint rate=1/min above jobs.pending (then correct it to the real rate)',
        output: `-- @cqlint rate=1/min\n${jobs}\n${insert}\nSELECT queued_at, job_id, payload FROM jobs.pending WHERE pool = ? LIMIT 50;\nDELETE FROM jobs.pending WHERE pool = ? AND queued_at = ?;`,
      },
      at: 'jobs.pending (',
      message:
        /^jobs\.pending is used as a queue: each read scans the tombstones of the rows consumed before it A SELECT reads the oldest rows of one pool \(LIMIT 50\) and a DELETE removes them by queued_at.*one partition keeps about 14,400 tombstones for gc_grace_seconds \(10 days, .*after 17 hours and fail at 100,000 after 69 days/,
      data: { column: 'queued_at', tombstonesKept: 14_400, gcGraceSeconds: 864_000, warnThreshold: 1000 },
    },
    {
      name: "queue class, statements in another file, a hinted rate and the table's own gc_grace_seconds",
      code: `-- @cqlint rate=50/s\n${jobs.replace(';', ' WITH gc_grace_seconds = 3600;')}`,
      at: 'jobs.pending',
      files: {
        'worker.cql':
          'SELECT * FROM jobs.pending WHERE pool = ? LIMIT 100;\nDELETE FROM jobs.pending WHERE pool = ? AND queued_at <= ?;',
      },
      message: /about 180,000 tombstones for gc_grace_seconds \(60 minutes.*warning \(1,000\) after 20 seconds/,
      data: { tombstonesKept: 180_000, rateHinted: true },
    },
    {
      name: 'queue class with neutral names on ScyllaDB (no thresholds stated)',
      code: 'CREATE TABLE svc.q_items (q text, seq timeuuid, body text, PRIMARY KEY (q, seq));\nSELECT seq, body FROM svc.q_items WHERE q = ? LIMIT 10;\nDELETE FROM svc.q_items WHERE q = ? AND seq = ?;',
      at: 'svc.q_items',
      target: 'scylladb',
      message: /^svc\.q_items is used as a queue.*consumed before it\. Use a queue service/,
    },
  ],
};
