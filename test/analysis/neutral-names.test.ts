// The statements speak (issue 21): a table renamed into neutral words (t1, c1, c2 ...) keeps its verdict
// when the workspace's statements carry the signal the names carried: literal values of a key column,
// now() written into a clustering column, time-range reads, rows read and deleted, rows moved, LWTs on a
// literal key. Each case is a table as an English-speaking designer names it, then the same table and
// statements with every name replaced; the findings of the rules must be the same, rule by rule.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { MAIN, projectWith } from './helpers';

const RULES = [
  'hot-partition',
  'unbounded-partition',
  'large-partition',
  'partition-throughput',
  'queue-table',
  'status-move',
  'lwt-hot-partition',
  'non-unique-key',
  'ttl-without-twcs',
];

interface Case {
  name: string;
  /** The table and statements with descriptive names. */
  named: string;
  /** Old name → neutral name, applied to every word of the text (keyspaces, tables, columns). */
  rename: Record<string, string>;
  /** The rules the expert expects (the named version must show them, so the case tests something). */
  expect: string[];
}

const CASES: Case[] = [
  {
    name: 'a log keyed by its level: two literal levels and now()',
    named:
      'CREATE TABLE ops.app_log (level text, logged_at timestamp, message text, PRIMARY KEY (level, logged_at));\n' +
      "INSERT INTO ops.app_log (level, logged_at, message) VALUES ('ERROR', toTimestamp(now()), ?);\n" +
      "INSERT INTO ops.app_log (level, logged_at, message) VALUES ('WARN', toTimestamp(now()), ?);",
    rename: { ops: 'k1', app_log: 't1', level: 'c1', logged_at: 'c2', message: 'c3' },
    expect: ['hot-partition', 'unbounded-partition'],
  },
  {
    name: 'events of three queues, a uuid written with now()',
    named:
      'CREATE TABLE mq.queue_events (queue text, event_id timeuuid, body blob, PRIMARY KEY (queue, event_id));\n' +
      "INSERT INTO mq.queue_events (queue, event_id, body) VALUES ('orders', now(), ?);\n" +
      "INSERT INTO mq.queue_events (queue, event_id, body) VALUES ('payments', now(), ?);\n" +
      "INSERT INTO mq.queue_events (queue, event_id, body) VALUES ('mails', now(), ?);",
    rename: { mq: 'k2', queue_events: 't2', queue: 'c1', event_id: 'c2', body: 'c3', timeuuid: 'uuid' },
    expect: ['hot-partition', 'unbounded-partition'],
  },
  {
    name: 'samples of two metrics read by time ranges on an epoch number',
    named:
      'CREATE TABLE mon.metric_samples (metric_type text, epoch_ms bigint, value double, PRIMARY KEY (metric_type, epoch_ms));\n' +
      "INSERT INTO mon.metric_samples (metric_type, epoch_ms, value) VALUES ('cpu', ?, ?);\n" +
      "INSERT INTO mon.metric_samples (metric_type, epoch_ms, value) VALUES ('mem', ?, ?);\n" +
      "SELECT epoch_ms, value FROM mon.metric_samples WHERE metric_type = 'cpu' AND epoch_ms >= ? AND epoch_ms < ?;",
    rename: { mon: 'k3', metric_samples: 't3', metric_type: 'c1', epoch_ms: 'c2', value: 'c3' },
    expect: ['hot-partition', 'unbounded-partition'],
  },
  {
    name: 'a job queue: the oldest rows read and deleted',
    named:
      'CREATE TABLE jobs.job_queue (worker_pool text, enqueued_at timeuuid, payload text, PRIMARY KEY (worker_pool, enqueued_at));\n' +
      'SELECT enqueued_at, payload FROM jobs.job_queue WHERE worker_pool = ? LIMIT 10;\n' +
      'DELETE FROM jobs.job_queue WHERE worker_pool = ? AND enqueued_at = ?;',
    rename: { jobs: 'k4', job_queue: 't4', worker_pool: 'c1', enqueued_at: 'c2', payload: 'c3' },
    expect: ['queue-table'],
  },
  {
    name: 'tickets moved between two literal status partitions in a batch',
    named:
      'CREATE TABLE desk.tickets_by_status (status text, ticket_id timeuuid, title text, PRIMARY KEY (status, ticket_id));\n' +
      "INSERT INTO desk.tickets_by_status (status, ticket_id, title) VALUES ('open', now(), ?);\n" +
      "BEGIN BATCH\n  DELETE FROM desk.tickets_by_status WHERE status = 'open' AND ticket_id = ?;\n  INSERT INTO desk.tickets_by_status (status, ticket_id, title) VALUES ('closed', ?, ?);\nAPPLY BATCH;",
    rename: { desk: 'k5', tickets_by_status: 't5', status: 'c1', ticket_id: 'c2', title: 'c3' },
    expect: ['hot-partition', 'unbounded-partition', 'status-move'],
  },
  {
    name: 'a global sequence row taken by LWT',
    named:
      "CREATE TABLE ids.sequences (name text PRIMARY KEY, next_id bigint);\nUPDATE ids.sequences SET next_id = ? WHERE name = 'order' IF next_id = ?;",
    rename: { ids: 'k6', sequences: 't6', name: 'c1', next_id: 'c2' },
    expect: ['lwt-hot-partition'],
  },
  {
    name: 'a day bucket at a hinted rate',
    named:
      '-- @cqlint rate=50/s\nCREATE TABLE iot.readings_by_day (sensor_id uuid, day date, reading_time timestamp, value double, PRIMARY KEY ((sensor_id, day), reading_time));',
    rename: { iot: 'k7', readings_by_day: 't7', sensor_id: 'c1', day: 'c2', reading_time: 'c3', value: 'c4' },
    expect: ['large-partition'],
  },
];

function renamed(text: string, rename: Record<string, string>): string {
  return text.replace(/[A-Za-z_][A-Za-z0-9_]*/g, (word) => rename[word] ?? word);
}

function verdict(code: string): Record<string, number> {
  const project = projectWith(code, {}, { config: {} });
  const counts: Record<string, number> = {};
  for (const f of project.lint(MAIN)) if (RULES.includes(f.ruleId)) counts[f.ruleId] = (counts[f.ruleId] ?? 0) + 1;
  assert.deepEqual(project.internalErrors, []);
  return counts;
}

describe('neutral names: the statements keep the verdict', () => {
  for (const c of CASES) {
    test(c.name, () => {
      const named = verdict(c.named);
      assert.deepEqual(Object.keys(named).sort(), [...c.expect].sort(), 'the named table gets the expert verdict');
      const neutral = renamed(c.named, c.rename);
      assert.doesNotMatch(
        neutral,
        new RegExp(
          `\\b(${Object.keys(c.rename)
            .filter((k) => k !== 'timeuuid')
            .join('|')})\\b`,
        ),
        'every name is replaced',
      );
      assert.deepEqual(verdict(neutral), named, `the same findings after renaming:\n${neutral}`);
    });
  }
});
