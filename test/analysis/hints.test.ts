// Hints always win (issue 21): every workload hint reaches every rule it concerns, on every target. One
// case per hint x rule x target: the hint either changes the verdict (no finding without it, one with
// it), or changes the figures the finding states (its message and data say the rate is hinted), or does
// not apply there, for the reason the case states, and then changes nothing. The hints are written as a
// `-- @cqlint` comment above the table; .cqlint.json merges into the same TableHints
// (test/analysis/partition-figures.test.ts covers that the two forms agree).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Finding } from '../../server/core/findings/findings';
import type { TargetId } from '../../server/core/partition/targets';
import { TARGET_IDS } from '../../server/core/vocabulary/config';
import { MAIN, ofRule, projectWith } from './helpers';

type Hint = 'rate' | 'writes' | 'reads' | 'rows' | 'distinct' | 'bytes';
type Expect = 'fires' | 'figures' | { na: string };

interface Cell {
  hint: Hint;
  rule: string;
  /** The CREATE TABLE (and statements) the hint goes above. */
  code: string;
  /** The hint comment's pairs: `rate=5/s`. */
  pairs: string;
  /** What the hint does, by target (every target is listed). */
  expect: Record<TargetId, Expect>;
}

const COMMENTS =
  'CREATE TABLE ks.comments_by_user (userid uuid, commentid timeuuid, comment text, PRIMARY KEY (userid, commentid));';
const HOURLY =
  'CREATE TABLE iot.readings_by_hour (sensor_id uuid, hour timestamp, ts timestamp, value double, PRIMARY KEY ((sensor_id, hour), ts));';
const POSTS = 'CREATE TABLE ks.posts (day date, id timeuuid, body text, PRIMARY KEY (day, id));';
const LOG = 'CREATE TABLE ks.app_log (level text, logged_at timestamp, message text, PRIMARY KEY (level, logged_at));';
const HITS = 'CREATE TABLE web.page_hits (page_id text PRIMARY KEY, hits counter);';
const READINGS =
  'CREATE TABLE ks.readings (sensor_id uuid, day date, ts timestamp, value double, note text, PRIMARY KEY ((sensor_id, day), ts));';
const COHORTS = 'CREATE TABLE ks.users_by_cohort (cohort text, user_id uuid, PRIMARY KEY (cohort, user_id));';
const COHORT_NOTES =
  'CREATE TABLE ks.notes_by_cohort (cohort text, ts timestamp, note text, PRIMARY KEY (cohort, ts));';
const QUEUE =
  'CREATE TABLE jobs.pending (pool text, queued_at timeuuid, payload text, PRIMARY KEY (pool, queued_at));\nSELECT * FROM jobs.pending WHERE pool = ? LIMIT 10;\nDELETE FROM jobs.pending WHERE pool = ? AND queued_at = ?;';
const THINGS = 'CREATE TABLE ks.things (owner_id uuid, foo text, item_id uuid, PRIMARY KEY (owner_id, foo));';
const CONTACTS =
  'CREATE TABLE crm.contacts (contact_id uuid PRIMARY KEY, email text);\nCREATE INDEX contacts_by_email ON crm.contacts (email);';
const DOCS = 'CREATE TABLE ks.docs (id uuid PRIMARY KEY, body blob);';

const NO_SIZE_LIMIT = {
  na: 'Keyspaces has no partition size limit (its limits are per row and per partition throughput)',
};
const NO_QUOTA = { na: 'no per-partition throughput quota on this target' };
const NO_TOMBSTONE_RULES = { na: 'the target manages tombstones itself: queue-table is not reported' };
const all = (e: Expect): Record<TargetId, Expect> => ({ cassandra: e, scylladb: e, keyspaces: e, cosmosdb: e });

const CELLS: Cell[] = [
  // rate=
  {
    hint: 'rate',
    rule: 'unbounded-partition',
    code: COMMENTS,
    pairs: 'rate=5/s',
    expect: { cassandra: 'fires', scylladb: 'fires', cosmosdb: 'fires', keyspaces: NO_SIZE_LIMIT },
  },
  {
    hint: 'rate',
    rule: 'large-partition',
    code: HOURLY,
    pairs: 'rate=500/s',
    expect: {
      cassandra: 'fires',
      scylladb: 'fires',
      cosmosdb: { na: 'Cosmos DB holds 20 GB per logical partition: 1.8 million rows of 40 B an hour fit' },
      keyspaces: NO_SIZE_LIMIT,
    },
  },
  {
    hint: 'rate',
    rule: 'large-partition',
    code: HOURLY,
    pairs: 'rate=400000/s',
    expect: { cassandra: 'fires', scylladb: 'fires', cosmosdb: 'fires', keyspaces: NO_SIZE_LIMIT },
  },
  {
    hint: 'rate',
    rule: 'hot-partition',
    code: LOG,
    pairs: 'rate=20/s',
    expect: {
      cassandra: 'figures',
      scylladb: 'figures',
      cosmosdb: 'figures',
      keyspaces: {
        na: 'the Keyspaces message states the write quota, not a time to a size limit; rate= reaches partition-throughput there',
      },
    },
  },
  {
    hint: 'rate',
    rule: 'partition-throughput',
    code: POSTS,
    pairs: 'rate=2000/s',
    expect: { keyspaces: 'fires', cosmosdb: 'fires', cassandra: NO_QUOTA, scylladb: NO_QUOTA },
  },
  {
    hint: 'rate',
    rule: 'queue-table',
    code: QUEUE,
    pairs: 'rate=50/s',
    expect: {
      cassandra: 'figures',
      scylladb: { na: 'ScyllaDB: the finding states no tombstone thresholds, so no figure rests on the rate' },
      keyspaces: NO_TOMBSTONE_RULES,
      cosmosdb: NO_TOMBSTONE_RULES,
    },
  },
  // writes=
  {
    hint: 'writes',
    rule: 'partition-throughput',
    code: POSTS,
    pairs: 'writes=2000/s',
    expect: { keyspaces: 'fires', cosmosdb: 'fires', cassandra: NO_QUOTA, scylladb: NO_QUOTA },
  },
  {
    hint: 'writes',
    rule: 'partition-throughput',
    code: HITS,
    pairs: 'writes=4000/s',
    expect: { cassandra: 'fires', scylladb: 'fires', keyspaces: 'fires', cosmosdb: 'fires' },
  },
  {
    hint: 'writes',
    rule: 'unbounded-partition',
    code: COMMENTS,
    pairs: 'writes=5/s',
    expect: { cassandra: 'fires', scylladb: 'fires', cosmosdb: 'fires', keyspaces: NO_SIZE_LIMIT },
  },
  {
    hint: 'writes',
    rule: 'large-partition',
    code: HOURLY,
    pairs: 'writes=500/s',
    expect: {
      cassandra: 'fires',
      scylladb: 'fires',
      cosmosdb: { na: 'Cosmos DB holds 20 GB per logical partition: 1.8 million rows of 40 B an hour fit' },
      keyspaces: NO_SIZE_LIMIT,
    },
  },
  {
    hint: 'writes',
    rule: 'hot-partition',
    code: LOG,
    pairs: 'writes=20/s',
    expect: {
      cassandra: 'figures',
      scylladb: 'figures',
      cosmosdb: 'figures',
      keyspaces: { na: 'the Keyspaces message states the write quota; writes= reaches partition-throughput there' },
    },
  },
  // reads=
  {
    hint: 'reads',
    rule: 'partition-throughput',
    code: POSTS,
    pairs: 'reads=20000/s',
    expect: { keyspaces: 'fires', cosmosdb: 'fires', cassandra: NO_QUOTA, scylladb: NO_QUOTA },
  },
  // rows=
  {
    hint: 'rows',
    rule: 'large-partition',
    code: READINGS,
    pairs: 'rows=2000000',
    expect: {
      cassandra: 'fires',
      scylladb: 'fires',
      cosmosdb: { na: '2,000,000 rows of 72 B are far under 20 GB' },
      keyspaces: NO_SIZE_LIMIT,
    },
  },
  {
    hint: 'rows',
    rule: 'large-partition',
    code: READINGS,
    pairs: 'rows=400000000',
    expect: { cassandra: 'fires', scylladb: 'fires', cosmosdb: 'fires', keyspaces: NO_SIZE_LIMIT },
  },
  // <column>.distinct=
  { hint: 'distinct', rule: 'hot-partition', code: COHORTS, pairs: 'cohort.distinct=3', expect: all('fires') },
  {
    hint: 'distinct',
    rule: 'unbounded-partition',
    code: COHORT_NOTES,
    pairs: 'cohort.distinct=3',
    expect: {
      cassandra: 'fires',
      scylladb: 'fires',
      cosmosdb: { na: "at the default 1 row/s Cosmos DB's 20 GB takes longer than the 5-year horizon" },
      keyspaces: NO_SIZE_LIMIT,
    },
  },
  { hint: 'distinct', rule: 'non-unique-key', code: THINGS, pairs: 'foo.distinct=5', expect: all('fires') },
  { hint: 'distinct', rule: 'low-cardinality-index', code: CONTACTS, pairs: 'email.distinct=2', expect: all('fires') },
  // <column>.bytes=
  {
    hint: 'bytes',
    rule: 'large-partition',
    code: DOCS,
    pairs: 'body.bytes=12000000',
    expect: {
      keyspaces: 'fires',
      cosmosdb: 'fires',
      scylladb: 'fires',
      cassandra: { na: 'Cassandra states no row size limit; bytes= reaches its partition sizes with rows=' },
    },
  },
  {
    hint: 'bytes',
    rule: 'large-partition',
    code: READINGS,
    pairs: 'rows=20000 note.bytes=60000',
    expect: {
      cassandra: 'fires',
      scylladb: 'fires',
      cosmosdb: { na: '20,000 rows of 60 KB (1.2 GB) are under 20 GB' },
      keyspaces: NO_SIZE_LIMIT,
    },
  },
  {
    hint: 'bytes',
    rule: 'partition-throughput',
    code: POSTS,
    pairs: 'writes=600/s body.bytes=30000',
    expect: { keyspaces: 'fires', cosmosdb: 'fires', cassandra: NO_QUOTA, scylladb: NO_QUOTA },
  },
];

/** The findings of one rule with and without the hint comment (a bytes= cell's rows= part stays in both). */
function both(
  cell: Cell,
  target: TargetId,
): { without: ReturnType<typeof findings>; with: ReturnType<typeof findings> } {
  const base =
    cell.hint === 'bytes'
      ? cell.pairs
          .split(' ')
          .filter((p) => !p.includes('.bytes='))
          .join(' ')
      : cell.hint === 'rate' || cell.hint === 'writes' || cell.hint === 'reads'
        ? cell.pairs
            .split(' ')
            .filter((p) => !p.startsWith(`${cell.hint}=`))
            .join(' ')
        : '';
  return { without: findings(cell, target, base), with: findings(cell, target, cell.pairs) };
}

function findings(cell: Cell, target: TargetId, pairs: string) {
  const code = pairs ? `-- @cqlint ${pairs}\n${cell.code}` : cell.code;
  const project = projectWith(code, {}, { config: {}, target });
  const all = project.lint(MAIN);
  assert.deepEqual(project.internalErrors, []);
  assert.deepEqual(
    ofRule(all, 'invalid-hint').map((f) => f.message),
    [],
    'the hint is well-formed',
  );
  return ofRule(all, cell.rule);
}

/** A finding's headline and details, as the user reads them. */
function text(f: Finding): string {
  return `${f.message} ${f.details ?? ''}`;
}

describe('hints always win: every hint x rule x target', () => {
  test('the table covers every target of every cell', () => {
    for (const cell of CELLS)
      assert.deepEqual(Object.keys(cell.expect).sort(), [...TARGET_IDS].sort(), `${cell.hint} x ${cell.rule}`);
  });
  for (const cell of CELLS) {
    for (const target of TARGET_IDS) {
      const expect = cell.expect[target];
      const what = typeof expect === 'string' ? expect : `n/a: ${expect.na}`;
      test(`${cell.hint}= (${cell.pairs}) x ${cell.rule} on ${target}: ${what}`, () => {
        const { without, with: hinted } = both(cell, target);
        if (expect === 'fires') {
          assert.equal(
            without.length,
            0,
            `no ${cell.rule} finding without the hint:\n${without.map((f) => f.message).join('\n')}`,
          );
          assert.ok(hinted.length >= 1, `a ${cell.rule} finding with ${cell.pairs}`);
        } else if (expect === 'figures') {
          assert.ok(
            without.length >= 1 && hinted.length === without.length,
            'the verdict does not rest on the hint; both have the finding',
          );
          assert.match(text(hinted[0]!), /hinted/, 'the message states the hinted rate');
          assert.doesNotMatch(text(without[0]!), /\(hinted\)/);
          assert.notEqual(text(hinted[0]!), text(without[0]!));
        } else {
          assert.deepEqual(hinted.map(text), without.map(text), `the hint changes nothing here: ${expect.na}`);
        }
      });
    }
  }
});
