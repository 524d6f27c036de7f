// Fixes offered for real findings (Project lint -> fixesForFinding): each applies cleanly, the finding
// it is for is gone afterwards, and fix-all only applies what needs no choice, idempotently.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Project } from '../../server/core/engine/project';
import { computeFixAll, fixesForFinding } from '../../server/core/fixes';
import { statementWithRange } from '../../server/core/util/ast-walk';
import { parseCql } from '../../grammar';
import { flatStatements } from '../../server/core/util/ast-walk';
import { projectFixContext } from '../../server/core/fixes/environment';
import { applyEdits } from '../../server/core/fixes/text';
import type { Finding } from '../../server/core/findings/findings';
import type { Fix } from '../../server/core/fixes/types';
import { MAIN, ROOT, applyChecked, isHintFix, ofRule, projectWith } from './helpers';
import { LineIndex } from '../../grammar/line-index';
const murmur = require('murmurhash3js-revisited') as { x86: { hash32(bytes: Uint8Array, seed?: number): number } };

const BOOKS = `CREATE TABLE ks.books (
    publish_date date,
    title text,
    author text,
    PRIMARY KEY (publish_date, title)
);
`;

const SHARDED = `-- @shard shard = murmur3(title) % 16 + 1
CREATE TABLE ks.books (publish_date date, shard int, title text, author text, PRIMARY KEY ((publish_date, shard), title));
`;

function offered(project: Project, ruleId: string, settings = {}): { finding: Finding; fixes: Fix[] }[] {
  const text = project.getText(MAIN)!;
  const env = projectFixContext(project, MAIN, settings);
  return ofRule(project.lint(MAIN), ruleId).map((finding) => ({
    finding,
    fixes: fixesForFinding(text, project.parse(MAIN), finding, env),
  }));
}

/** Applies a fix, checks the guarantees, and returns the rule's findings on the result. */
function applyAndRelint(
  project: Project,
  fix: Fix,
  ruleId: string,
  files: Record<string, string> = {},
): { output: string; left: Finding[] } {
  const { output, problems } = applyChecked(project.getText(MAIN)!, fix);
  assert.deepEqual(problems, []);
  return { output, left: ofRule(projectWith(output, files).lint(MAIN), ruleId) };
}

describe('hot-partition fixes', () => {
  const ids = (fixes: Fix[]) => fixes.map((f) => f.id);

  test('with no reads in the workspace: a calculated shard from the clustering identifier first, then random, then the copy', () => {
    const [{ fixes }] = offered(projectWith(BOOKS), 'hot-partition');
    assert.deepEqual(ids(fixes), ['shard:title', 'shard:random', 'copy:shard:title']);
    assert.equal(fixes[0]!.isPreferred, true);
    assert.ok(
      fixes.every((f) => !f.safeForFixAll),
      "the shard choice is the user's",
    );
  });

  test('every in-place fix removes the finding; the copy leaves the original as it was', () => {
    const project = projectWith(BOOKS);
    const [{ fixes }] = offered(project, 'hot-partition');
    const inPlace = fixes.filter((f) => !f.id?.startsWith('copy'));
    assert.equal(inPlace.length, 2);
    for (const fix of inPlace) {
      const { output, left } = applyAndRelint(project, fix, 'hot-partition');
      assert.deepEqual(left, [], output);
      assert.match(output, /PRIMARY KEY \(\(publish_date, shard\), title\)/);
    }
    const copy = fixes.find((f) => f.id?.startsWith('copy:'))!;
    const { output, left } = applyAndRelint(project, copy, 'hot-partition');
    assert.ok(output.startsWith(BOOKS), 'the original statement is untouched');
    assert.deepEqual(
      left.map((f) => f.data?.table),
      ['ks.books'],
      'only the original is still hot',
    );
    assert.match(output, /-- @shard shard = murmur3\(title\) % \d+ \+ 1\nCREATE TABLE ks\.books_sharded \(/);
  });

  test('a calculated shard hashes a clustering column: never a regular column, free text or a column hinted large', () => {
    const schema =
      '-- @cqlint body.bytes=1500\nCREATE TABLE ks.tasks (done boolean, task_id uuid, body text, owner_email text, PRIMARY KEY (done, task_id));\n';
    const project = projectWith(schema, {
      'queries.cql': "SELECT * FROM ks.tasks WHERE done = false AND owner_email = 'a@b.c' ALLOW FILTERING;",
    });
    const [{ fixes }] = offered(project, 'hot-partition');
    // The one read takes whole partitions (it filters): random first.
    assert.deepEqual(
      ids(fixes).filter((id) => !id?.startsWith('copy')),
      ['shard:random', 'shard:task_id'],
    );
    const notes = projectWith(
      '-- @cqlint note.bytes=1500\nCREATE TABLE ks.notes_by_day (day date, note text, PRIMARY KEY (day, note));\n',
    );
    assert.deepEqual(
      ids(offered(notes, 'hot-partition')[0]!.fixes).filter((id) => !id?.startsWith('copy')),
      ['shard:random'],
      'a clustering column hinted at 1.5 KB is not hashed',
    );
  });

  test('reads in another file that pin a row by a column: the calculated shard from it is preferred, and those reads find one shard', () => {
    const schema =
      'CREATE TABLE ks.orders_by_day (order_day date, order_id uuid, customer text, total decimal, PRIMARY KEY (order_day, customer, order_id));\n';
    const project = projectWith(schema, {
      'queries.cql':
        'USE ks;\nSELECT total FROM orders_by_day WHERE order_day = ? AND customer = ? AND order_id = ?;\nSELECT total FROM orders_by_day WHERE order_day = ? AND customer = ? AND order_id = ?;\n',
    });
    const [{ fixes }] = offered(project, 'hot-partition');
    assert.equal(fixes[0]!.id, 'shard:customer', 'customer is pinned as often as order_id and comes first in the key');
    assert.equal(fixes[0]!.isPreferred, true);
    const other = fixes[0]!.otherFiles?.find((o) => o.filePath === `${ROOT}/queries.cql`);
    assert.ok(other, 'the reads in the other file are rewritten by the same fix');
    assert.match(applyEdits(project.getText(`${ROOT}/queries.cql`)!, other.edits), /AND order_id = \? AND shard = \?;/);
  });

  test('reads taking whole partitions only: the random shard first, and those reads (in any file) read every shard', () => {
    const reads = "SELECT title FROM ks.books WHERE publish_date = '2024-01-01';\n";
    const project = projectWith(BOOKS + reads, { 'queries.cql': `USE ks;\n${reads.replace('ks.books', 'books')}` });
    const [{ fixes }] = offered(project, 'hot-partition');
    assert.deepEqual(ids(fixes).slice(0, 2), ['shard:random', 'shard:title']);
    const count = fixes[0]!.plan!.shard!.count;
    const list = Array.from({ length: count }, (_, i) => i + 1).join(', ');
    const { output } = applyAndRelint(project, fixes[0]!, 'hot-partition');
    assert.ok(
      output.endsWith(`SELECT title FROM ks.books WHERE publish_date = '2024-01-01' AND shard IN (${list});\n`),
      output,
    );
    assert.deepEqual(
      fixes[0]!.otherFiles?.map((o) => [o.filePath, applyEdits(project.getText(o.filePath)!, o.edits)]),
      [
        [
          `${ROOT}/queries.cql`,
          `USE ks;\n-- reads ${count === 2 ? 'both shards' : `all ${count} shards`}: merge the rows\nSELECT title FROM books WHERE publish_date = '2024-01-01' AND shard IN (${list});\n`,
        ],
      ],
    );
  });

  test('a counter gets a shard calculated from its own key, never a random one', () => {
    const project = projectWith(
      'CREATE TABLE ks.hits_by_day (day date, page text, hits counter, PRIMARY KEY (day, page));\n',
    );
    const [{ fixes }] = offered(project, 'hot-partition');
    assert.deepEqual(
      ids(fixes).filter((id) => !id?.startsWith('copy')),
      ['shard:page'],
    );
  });

  const STATUS =
    'CREATE TABLE ks.tasks_by_status (status text, task_id uuid, title text, PRIMARY KEY (status, task_id));\n';

  test('the shard count follows the hinted writes against the per-partition write limit, with headroom, on every target', () => {
    // Keyspaces: 1,000 WCU; Cosmos DB: 10,000 RU/s at 5 RU a write; Cassandra and ScyllaDB: 1,000 writes/s, cqlint's planning figure.
    for (const [target, writes, expected] of [
      ['keyspaces', 3000, 5],
      ['cosmosdb', 3000, 3],
      ['cassandra', 3000, 5],
      ['scylladb', 12000, 18],
    ] as const) {
      const project = new Project({
        config: { target, tables: { 'ks.tasks_by_status': { writesPerSecondPerPartition: writes } } },
      });
      project.setFile(MAIN, STATUS);
      const [{ fixes }] = offered(project, 'hot-partition');
      assert.equal(fixes[0]!.plan?.shard?.count, expected, `${target} at ${writes} writes/s`);
    }
  });

  test("a time bucket alone in the key: enough shards for one bucket's rows to fit, at the stated rate", () => {
    // 1 row/s (the default for a key many entities share) x one publish_date = 86,400 rows; the first limit
    // (100,000 values) comes at 100,000 rows of one value each: 86,400 x 1.5 / 100,000 = 1.3, so 2.
    const [{ fixes }] = offered(projectWith(BOOKS), 'hot-partition');
    assert.equal(fixes[0]!.plan?.shard?.count, 2);
    const wide = BOOKS.replace('author text,', 'author text, isbn text, pages int,');
    // Three values a row: the limit at 33,334 rows, and 86,400 x 1.5 / 33,334 = 3.9.
    assert.equal(offered(projectWith(wide), 'hot-partition')[0]!.fixes[0]!.plan?.shard?.count, 4);
    assert.ok(
      fixes[0]!.detail?.some((d) => d.includes('× one publish_date = 86,400 rows')),
      fixes[0]!.detail?.join('\n'),
    );
    const flood = new Project({ config: { tables: { 'ks.books': { writesPerSecondPerPartition: 3000 } } } });
    flood.setFile(MAIN, BOOKS);
    const [{ fixes: capped }] = offered(flood, 'hot-partition');
    // 3,000 rows/s x one day is 259 million rows: more shards than a read can visit. The preferred cure is a
    // finer bucket beside the day with the shards the writes need; the shards alone come second, capped.
    assert.equal(capped[0]!.plan?.mechanism, 'finer-bucket');
    assert.equal(capped[0]!.plan?.bucket?.refines?.column, 'publish_date');
    assert.ok(capped[0]!.isPreferred);
    const shardsOnly = capped.find((f) => f.plan?.mechanism === 'shard')!;
    assert.equal(shardsOnly.plan?.shard?.count, 256, 'no more shards than a read can visit');
    assert.ok(
      shardsOnly.detail?.some((d) => d.includes('256 is the most a read of every shard can visit')),
      shardsOnly.detail?.join('\n'),
    );
  });

  test('the cqlint.shardCount setting stands in for the default rates; stated figures win over it', () => {
    const [{ fixes }] = offered(projectWith(BOOKS), 'hot-partition', { shardCount: 8 });
    assert.equal(fixes[0]!.plan?.shard?.count, 8);
    for (const writes of [3000, 30000]) {
      const stated = new Project({
        config: { target: 'keyspaces', tables: { 'ks.tasks_by_status': { writesPerSecondPerPartition: writes } } },
      });
      stated.setFile(MAIN, STATUS);
      assert.equal(
        offered(stated, 'hot-partition', { shardCount: 8 })[0]!.fixes[0]!.plan?.shard?.count,
        Math.ceil((writes * 1.5) / 1000),
      );
    }
  });

  test('partition-throughput and hot-partition on one table propose the same shard count', () => {
    const project = new Project({
      config: { target: 'keyspaces', tables: { 'ks.books': { writesPerSecondPerPartition: 3000 } } },
    });
    project.setFile(MAIN, BOOKS);
    const [{ fixes: hot }] = offered(project, 'hot-partition');
    const [{ fixes: throughput }] = offered(project, 'partition-throughput');
    assert.equal(throughput[0]!.plan?.shard?.count, hot[0]!.plan?.shard?.count);
  });

  test('a hot key that also grows gets a bucket only when the rows per shard reach a limit within five years', () => {
    const events = (hint: string) =>
      `${hint}CREATE TABLE ks.events_by_level (level text, created_at timestamp, event_id uuid, PRIMARY KEY (level, created_at, event_id));\n`;
    const [{ fixes: busy }] = offered(projectWith(events('')), 'hot-partition');
    assert.equal(busy[0]!.id, 'shard:event_id+bucket:day', 'at the default 1 row/s: two shards and a day bucket');
    const [{ fixes: calm }] = offered(projectWith(events('-- @cqlint rate=1/h\n')), 'hot-partition');
    assert.equal(calm[0]!.id, 'shard:event_id', 'at one row an hour the shards alone stay small for years');
  });

  test('a work list keyed by status gets shards and no time bucket: "every pending task" stays one read per shard', () => {
    const tasks =
      'CREATE TABLE ks.tasks_by_status (status text, created_at timestamp, task_id uuid, PRIMARY KEY (status, created_at, task_id));\n';
    const [{ finding, fixes }] = offered(projectWith(tasks), 'hot-partition');
    assert.equal(fixes[0]!.id, 'shard:task_id');
    assert.ok(
      fixes[0]!.detail?.some((d) => /no time bucket: status is read as a whole work list/.test(d)),
      fixes[0]!.detail?.join('\n'),
    );
    assert.match(finding.details!, /status is a work list the application reads whole/);
  });
});

describe('unbounded-partition fixes', () => {
  const READINGS =
    'CREATE TABLE ks.readings (\n  sensor_id uuid,\n  reading_time timestamp,\n  value double,\n  PRIMARY KEY (sensor_id, reading_time)\n);\n';

  test('the coarsest bucket that fits at the stated rate first, then the finer ones whose partitions stay in the window; each removes the finding', () => {
    // A reading is about 56 B: a month at the default 1 row/min is 43,829 rows (about 2.4 MB); a day (80 KB) or
    // an hour would only multiply the partitions a read visits (over-partitioning: under MIN_PARTITION_BYTES).
    const project = projectWith(READINGS);
    const [{ fixes }] = offered(project, 'unbounded-partition');
    assert.deepEqual(
      fixes.map((f) => [f.id, f.isPreferred ?? false]),
      [
        ['bucket:month', true],
        ['copy:bucket:month', false],
        // The verdict rests on the default rate for a machine source: the hint fix writes it down.
        ['hint:rate', false],
      ],
    );
    // 4 KB rows at 10 a minute: a day (14,400 rows, 58 MB) fits under 100 MB with the headroom, and an hour
    // (600 rows, 2.4 MB) is still in the window: offered second.
    const logs = projectWith(`-- @cqlint rate=10/min body.bytes=4000
${READINGS.replace('value double', 'body text')}`);
    const [{ fixes: large }] = offered(logs, 'unbounded-partition');
    assert.deepEqual(
      large.map((f) => [f.id, f.isPreferred ?? false]),
      [
        ['bucket:day', true],
        ['bucket:hour', false],
        ['copy:bucket:day', false],
      ],
    );
    for (const [p, list] of [
      [project, fixes],
      [logs, large],
    ] as const) {
      for (const fix of list.filter((f) => !f.id?.startsWith('copy') && !isHintFix(f)))
        assert.deepEqual(applyAndRelint(p, fix, 'unbounded-partition').left, []);
    }
    const daily = large.find((f) => f.id === 'bucket:day')!;
    assert.equal(
      applyEdits(logs.getText(MAIN)!, daily.edits),
      '-- @cqlint rate=10/min body.bytes=4000\nCREATE TABLE ks.readings (\n  sensor_id uuid,\n  reading_time timestamp,\n  body text,\n' +
        '  day date, -- bucket: the UTC day of reading_time, set by the application\n' +
        '  PRIMARY KEY ((sensor_id, day), reading_time)\n);\n',
    );
  });

  test("the bucket follows the hinted rate; past a minute's worth of the limit, shards are added too", () => {
    const at = (rate: string) =>
      offered(projectWith(`-- @cqlint rate=${rate}\n${READINGS}`), 'unbounded-partition')[0]?.fixes[0]!.id;
    assert.equal(at('1/h'), undefined, 'a partition this slow reaches no limit within five years: no finding');
    assert.equal(at('1/s'), 'bucket:hour');
    assert.equal(at('2/min'), 'bucket:day');
    // 100 rows/s: a minute holds 6,000 rows, a finer bucket rather than shards every read would visit.
    assert.equal(at('100/s'), 'bucket:minute');
    assert.equal(at('2000/s'), 'shard:random+bucket:minute');
  });

  test('an epoch bigint time column gets the same buckets', () => {
    const project = projectWith(
      'CREATE TABLE ks.ev (device_id text, created_at bigint, v blob, PRIMARY KEY (device_id, created_at));',
    );
    const [{ fixes }] = offered(project, 'unbounded-partition');
    assert.equal(fixes[0]!.title, 'Add a time bucket month text (monthly partitions by created_at)');
    assert.deepEqual(applyAndRelint(project, fixes[0]!, 'unbounded-partition').left, []);
  });
});

describe('unknown-column fixes', () => {
  test('renames to the close match, safe for fix-all, and the finding is gone', () => {
    const code = `${BOOKS}SELECT autor FROM ks.books WHERE publish_date = '2024-01-01';\n`;
    const project = projectWith(code);
    const [{ fixes }] = offered(project, 'unknown-column');
    assert.deepEqual(
      fixes.map((f) => [f.title, f.safeForFixAll, f.isPreferred]),
      [['Change to author', true, true]],
    );
    assert.deepEqual(applyAndRelint(project, fixes[0], 'unknown-column').left, []);
  });

  test('quotes a suggestion that needs quotes', () => {
    const code = 'CREATE TABLE ks.t (id uuid PRIMARY KEY, "Title" text);\nSELECT "Titl" FROM ks.t WHERE id = ?;\n';
    const project = projectWith(code);
    const [{ fixes }] = offered(project, 'unknown-column');
    assert.equal(fixes[0].title, 'Change to "Title"');
    assert.deepEqual(applyAndRelint(project, fixes[0], 'unknown-column').left, []);
  });

  test('no fix without a suggestion', () => {
    const project = projectWith(`${BOOKS}SELECT nothing_like_it FROM ks.books WHERE publish_date = '2024-01-01';\n`);
    const [{ fixes }] = offered(project, 'unknown-column');
    assert.deepEqual(fixes, []);
  });
});

describe('sharded-table query fixes', () => {
  test("a SELECT missing only the shard reads every shard, within large-in-partition-key's limit, and the finding is gone", () => {
    const read = "SELECT title FROM ks.books WHERE publish_date = '2024-05-01';\n";
    const project = projectWith(`${SHARDED}${read}`);
    const [{ finding, fixes }] = offered(project, 'unrestricted-partition-key');
    assert.equal(finding.data?.shardOnlyMissing, true);
    // 16 shards in one IN would be more partitions than large-in-partition-key allows (10): one query per shard.
    assert.equal(fixes[0].title, 'Read all 16 shards: run once per shard (1..16) and merge client-side');
    assert.equal(fixes[0].isPreferred, true);
    const { output, left } = applyAndRelint(project, fixes[0], 'unrestricted-partition-key');
    assert.deepEqual(left, []);
    assert.match(output, /WHERE publish_date = '2024-05-01' AND shard = \?;/);
    assert.deepEqual(ofRule(projectWith(output).lint(MAIN), 'large-in-partition-key'), []);

    const wide = new Project({ config: { rules: { 'large-in-partition-key': ['warn', { maxPartitions: 16 }] } } });
    wide.setFile(MAIN, `${SHARDED}${read}`);
    const [{ fixes: inList }] = offered(wide, 'unrestricted-partition-key');
    assert.equal(inList[0].title, 'Read all 16 shards: shard IN (1, ..., 16)');
    assert.match(
      applyEdits(`${SHARDED}${read}`, inList[0].edits),
      /WHERE publish_date = '2024-05-01' AND shard IN \(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16\);/,
    );
  });

  test('a SELECT that gives the source column gets the computed shard, matching an independent murmur3', () => {
    const project = projectWith(
      `${SHARDED}SELECT author FROM ks.books WHERE publish_date = '2024-05-01' AND title = 'Dune';\n`,
    );
    const [{ fixes }] = offered(project, 'unrestricted-partition-key');
    const expected = ((murmur.x86.hash32(Buffer.from('Dune', 'utf8')) >>> 0) % 16) + 1;
    assert.equal(fixes[0].title, `Add shard = ${expected} (murmur3(title) % 16 + 1)`);
    assert.equal(fixes[0].safeForFixAll, true);
    const { output, left } = applyAndRelint(project, fixes[0], 'unrestricted-partition-key');
    assert.deepEqual(left, []);
    assert.ok(output.includes(`AND title = 'Dune' AND shard = ${expected};`), output);
  });

  test('an INSERT without the shard gets it in both lists (incomplete-key-write)', () => {
    const project = projectWith(
      `${SHARDED}INSERT INTO ks.books (publish_date, title) VALUES ('2024-05-01', 'Dune');\n`,
    );
    const [{ fixes }] = offered(project, 'incomplete-key-write');
    const expected = ((murmur.x86.hash32(Buffer.from('Dune', 'utf8')) >>> 0) % 16) + 1;
    assert.equal(fixes.length, 1);
    const { output, left } = applyAndRelint(project, fixes[0], 'incomplete-key-write');
    assert.deepEqual(left, []);
    assert.ok(
      output.includes(`INSERT INTO ks.books (publish_date, title, shard) VALUES ('2024-05-01', 'Dune', ${expected});`),
      output,
    );
  });

  test('the table may be defined in another file', () => {
    const files = { 'schema.cql': SHARDED };
    const project = projectWith('UPDATE ks.books SET author = ? WHERE publish_date = ? AND title = ?;\n', files);
    const [{ fixes }] = offered(project, 'incomplete-key-write');
    assert.deepEqual(
      fixes.map((f) => [f.title, f.safeForFixAll]),
      [['Add shard = ? (the application computes the shard)', false]],
    );
    const { left } = applyAndRelint(project, fixes[0], 'incomplete-key-write', files);
    assert.deepEqual(left, []);
  });

  test('no shard fix when other key columns are missing too', () => {
    const project = projectWith(
      `${SHARDED}SELECT * FROM ks.books WHERE title = 'Dune' ALLOW FILTERING;\nSELECT * FROM ks.books;\n`,
    );
    for (const { fixes } of offered(project, 'unrestricted-partition-key')) assert.deepEqual(fixes, []);
  });
});

describe("shard-mismatch fixes (the rule's real findings)", () => {
  test("a wrong literal shard becomes the formula's value, safe for fix-all, and the finding is gone", () => {
    const code = `${SHARDED}SELECT author FROM ks.books WHERE publish_date = '2024-05-01' AND shard = 3 AND title = 'Dune';\n`;
    const project = projectWith(code);
    const [{ finding, fixes }] = offered(project, 'shard-mismatch');
    const expected = ((murmur.x86.hash32(Buffer.from('Dune', 'utf8')) >>> 0) % 16) + 1;
    assert.equal(finding.data?.expected, expected);
    assert.deepEqual(
      fixes.map((f) => [f.title, f.safeForFixAll, f.isPreferred]),
      [[`Change shard to ${expected}`, true, true]],
    );
    const { output, left } = applyAndRelint(project, fixes[0], 'shard-mismatch');
    assert.deepEqual(left, []);
    assert.ok(output.includes(`AND shard = ${expected} AND title = 'Dune';`), output);
  });

  test('no fix when the rule cannot say which shard is right (out of range, sources unknown)', () => {
    const project = projectWith(
      `${SHARDED}SELECT author FROM ks.books WHERE publish_date = ? AND shard = 40 AND title = ?;\n`,
    );
    const found = offered(project, 'shard-mismatch');
    assert.equal(found.length, 1, 'the rule reports the out-of-range shard');
    assert.equal(found[0].finding.data?.expected, undefined);
    assert.deepEqual(found[0].fixes, []);
  });
});

describe('fix-all', () => {
  const MESSY = `${SHARDED}${BOOKS.replace('ks.books', 'ks.plain')}
SELECT autor FROM ks.plain WHERE publish_date = '2024-01-01';
INSERT INTO ks.books (publish_date, title, autor) VALUES ('2024-05-01', 'Dune', 'Frank Herbert');
SELECT title FROM ks.books WHERE publish_date = '2024-05-01';
`;

  test('applies only the fixes that need no choice, and is idempotent', () => {
    const project = projectWith(MESSY);
    const env = projectFixContext(project, MAIN);
    const edits = computeFixAll(MESSY, project.parse(MAIN), project.lint(MAIN), env);
    const once = applyEdits(MESSY, edits);
    const expected = ((murmur.x86.hash32(Buffer.from('Dune', 'utf8')) >>> 0) % 16) + 1;
    assert.ok(once.includes('SELECT author FROM ks.plain'), once);
    // The rename and the computed shard touch the same column list without overlapping: one pass does both.
    assert.ok(
      once.includes(
        `INSERT INTO ks.books (publish_date, title, author, shard) VALUES ('2024-05-01', 'Dune', 'Frank Herbert', ${expected});`,
      ),
      once,
    );
    // The read of all shards and the hot partition's shard column are choices: left alone.
    assert.ok(once.includes("SELECT title FROM ks.books WHERE publish_date = '2024-05-01';"), once);
    assert.ok(once.includes('PRIMARY KEY (publish_date, title)'), once);
    const again = projectWith(once);
    const env2 = projectFixContext(again, MAIN);
    assert.deepEqual(computeFixAll(once, again.parse(MAIN), again.lint(MAIN), env2), []);
  });

  test('with an error reporter (server, CLI), fixes never throw on findings with odd data', () => {
    const project = projectWith(BOOKS);
    const parse = project.parse(MAIN);
    const range = new LineIndex(BOOKS).locate(parse.statements[0].range);
    const env = projectFixContext(project, MAIN, { onError: () => {} });
    for (const ruleId of [
      'hot-partition',
      'unbounded-partition',
      'shard-mismatch',
      'unknown-column',
      'unrestricted-partition-key',
      'incomplete-key-write',
    ]) {
      const weird: Finding = {
        ruleId,
        severity: 'warning',
        message: 'x',
        messageId: 'x',
        range,
        data: { expected: 'seven', suggestion: 42, candidates: 'title', missing: 'shard' },
      };
      assert.doesNotThrow(() => fixesForFinding(BOOKS, parse, weird, env));
    }
  });

  test(`works in ${ROOT} files with syntax errors elsewhere`, () => {
    const code = `SELECT * FROM WHERE;\n${BOOKS}SELECT autor FROM ks.books WHERE publish_date = '2024-01-01';\nINSERT INTO ks.books (;\n`;
    const project = projectWith(code);
    assert.ok(project.parse(MAIN).errors.length >= 2);
    const [{ fixes }] = offered(project, 'unknown-column');
    assert.deepEqual(applyAndRelint(project, fixes[0], 'unknown-column').left, []);
    const [{ fixes: shard }] = offered(project, 'hot-partition');
    assert.deepEqual(applyAndRelint(project, shard[0], 'hot-partition').left, []);
  });
});

describe('statementWithRange (the statement of a reference)', () => {
  test('finds top-level statements and batch members by their exact range, and nothing else', () => {
    const text =
      'USE ks;\nSELECT * FROM t WHERE id = 1;\nBEGIN BATCH\n  INSERT INTO t (id) VALUES (1);\n  UPDATE t SET v = 1 WHERE id = 2;\nAPPLY BATCH;\nSELECT * FROM u;\n';
    const parse = parseCql(text);
    for (const s of flatStatements(parse)) assert.equal(statementWithRange(parse, s.range), s);
    const update = flatStatements(parse).find((s) => s.kind === 'Update')!;
    assert.equal(statementWithRange(parse, { ...update.range, end: update.range.end - 1 }), undefined);
    assert.equal(statementWithRange(parseCql(''), update.range), undefined);
  });
});

describe('names a user wrote', () => {
  test('a shard source column named "__proto__" gets its computed shard like any other', () => {
    const code =
      'CREATE TABLE ks.odd (day date, "__proto__" text, v int, PRIMARY KEY (day, "__proto__"));\n' +
      "INSERT INTO ks.odd (day, \"__proto__\", v) VALUES ('2026-11-20', 'Dune', 1);\n";
    const project = projectWith(code);
    const [{ fixes }] = offered(project, 'hot-partition');
    const fix = fixes.find((f) => f.id === 'shard:__proto__');
    assert.ok(fix, fixes.map((f) => f.id).join(', '));
    const output = applyEdits(code, fix.edits);
    const count = fix.plan!.shard!.count;
    const expected = ((murmur.x86.hash32(Buffer.from('Dune', 'utf8')) >>> 0) % count) + 1;
    assert.ok(output.includes(`VALUES ('2026-11-20', 'Dune', 1, ${expected});`), output);
  });
});
