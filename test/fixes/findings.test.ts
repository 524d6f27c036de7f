// Fixes offered for real findings (Project lint -> fixesForFinding): each applies cleanly, the finding
// it is for is gone afterwards, and fix-all only applies what needs no choice, idempotently.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Project } from '../../server/core/project';
import { computeFixAll, fixesForFinding, statementAt } from '../../server/core/fixes';
import { parseCql } from '../../grammar';
import { flatStatements } from '../../server/core/util/ast-walk';
import { projectFixEnvironment } from '../../server/core/fixes/environment';
import { applyEdits } from '../../server/core/fixes/text';
import type { Finding } from '../../server/core/findings';
import type { Fix } from '../../server/core/fixes/types';
import { MAIN, ROOT, applyChecked, ofRule, projectWith } from './helpers';
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
  const env = projectFixEnvironment(project, MAIN, settings);
  return ofRule(env.findings ?? [], ruleId).map((finding) => ({ finding, fixes: fixesForFinding(text, project.parse(MAIN), finding, env) }));
}

/** Applies a fix, checks the guarantees, and returns the rule's findings on the result. */
function applyAndRelint(project: Project, fix: Fix, ruleId: string, files: Record<string, string> = {}): { output: string; left: Finding[] } {
  const { output, problems } = applyChecked(project.getText(MAIN)!, fix);
  assert.deepEqual(problems, []);
  return { output, left: ofRule(projectWith(output, files).lint(MAIN), ruleId) };
}

describe('hot-partition fixes', () => {
  const inPlace = (fixes: Fix[]) => fixes.filter((f) => !f.title.startsWith('Create a sharded copy'));

  test('with no reads in the workspace: both kinds of shard, the titles say so, none preferred, and a copy', () => {
    const [{ fixes }] = offered(projectWith(BOOKS), 'hot-partition', { shardCount: 8 });
    assert.deepEqual(fixes.map((f) => f.title), [
      'Add a calculated shard column from title (8 shards); no reads of ks.books in the workspace',
      'Add a random shard column (8 shards); no reads of ks.books in the workspace',
      'Create a sharded copy of ks.books: books_sharded, calculated shard from title (8 shards)',
    ]);
    assert.ok(fixes.every((f) => !f.safeForFixAll && !f.isPreferred), 'the shard choice is the user\'s');
  });

  test('every in-place fix removes the finding; the copy leaves the original as it was', () => {
    const project = projectWith(BOOKS);
    const [{ fixes }] = offered(project, 'hot-partition');
    assert.equal(inPlace(fixes).length, 2);
    for (const fix of inPlace(fixes)) {
      const { output, left } = applyAndRelint(project, fix, 'hot-partition');
      assert.deepEqual(left, [], output);
      assert.match(output, /PRIMARY KEY \(\(publish_date, shard\), title\)/);
    }
    const copy = fixes.find((f) => f.title.startsWith('Create a sharded copy'))!;
    const { output, left } = applyAndRelint(project, copy, 'hot-partition');
    assert.ok(output.startsWith(BOOKS), 'the original statement is untouched');
    assert.deepEqual(left.map((f) => f.data?.table), ['ks.books'], 'only the original is still hot');
    assert.match(output, /-- @shard shard = murmur3\(title\) % 16 \+ 1\nCREATE TABLE ks\.books_sharded \(/);
  });

  test('reads pinning a row by a column: the calculated shard from it first, preferred', () => {
    const schema = 'CREATE TABLE ks.tasks (done boolean, task_id uuid, owner_email text, PRIMARY KEY (done, task_id));\n';
    const project = projectWith(schema, { 'queries.cql': "SELECT * FROM ks.tasks WHERE done = false AND owner_email = 'a@b.c' ALLOW FILTERING;" });
    const [{ fixes }] = offered(project, 'hot-partition');
    assert.deepEqual(fixes.map((f) => [f.title, f.isPreferred ?? false]), [
      ['Add a calculated shard column from owner_email (16 shards): reads by owner_email find one shard', true],
      ['Add a calculated shard column from task_id (16 shards)', false],
      ['Add a random shard column (16 shards)', false],
      ['Create a sharded copy of ks.tasks: tasks_sharded, calculated shard from owner_email (16 shards)', false],
    ]);
  });

  test('reads taking whole partitions: the random shard first, preferred, and those reads (in any file) read every shard', () => {
    const reads = "SELECT title FROM ks.books WHERE publish_date = '2024-01-01';\n";
    const project = projectWith(BOOKS + reads, { 'queries.cql': `USE ks;\n${reads.replace('ks.books', 'books')}` });
    const [{ fixes }] = offered(project, 'hot-partition', { shardCount: 4 });
    assert.deepEqual(fixes.slice(0, 2).map((f) => [f.title, f.isPreferred ?? false]), [
      ['Add a random shard column (4 shards): 2 reads of whole partitions then read every shard', true],
      ['Add a calculated shard column from title (4 shards): 2 reads of whole partitions then read every shard', false],
    ]);
    const { output } = applyAndRelint(project, fixes[0], 'hot-partition');
    assert.ok(output.endsWith("SELECT title FROM ks.books WHERE publish_date = '2024-01-01' AND shard IN (1, 2, 3, 4);\n"), output);
    assert.deepEqual(fixes[0].otherFiles?.map((o) => [o.filePath, applyEdits(project.getText(o.filePath)!, o.edits)]), [
      [`${ROOT}/queries.cql`, "USE ks;\nSELECT title FROM books WHERE publish_date = '2024-01-01' AND shard IN (1, 2, 3, 4);\n"],
    ]);
  });

  test('a hot key that also grows: every fix adds the shard and the time bucket in one edit', () => {
    const logs = 'CREATE TABLE ks.log_by_level (level text, logged_at timestamp, line_id timeuuid, message text, PRIMARY KEY (level, logged_at, line_id));\n';
    const project = projectWith(logs);
    const text = project.getText(MAIN)!;
    const env = projectFixEnvironment(project, MAIN);
    const [hot] = ofRule(env.findings ?? [], 'hot-partition');
    assert.ok(hot, 'a level-keyed log is hot');
    // The rule says whether the key also grows (data.growth); constructed here for the fix alone.
    const finding: Finding = { ...hot, data: { ...hot.data, growth: { timeColumn: 'logged_at', suggestedBucket: 'day' } } };
    const fixes = fixesForFinding(text, project.parse(MAIN), finding, env);
    assert.ok(fixes.length >= 2);
    for (const fix of fixes) assert.match(fix.title, /and a time bucket day date \(daily partitions\)/);
    const { output, left } = applyAndRelint(project, inPlace(fixes)[0]!, 'hot-partition');
    assert.deepEqual(left, []);
    assert.match(output, /day date \/\* bucket: the UTC day of logged_at, set by the application \*\/, PRIMARY KEY \(\(level, shard, day\), logged_at, line_id\)\)/);
  });

  test('the shard count follows the throughput hints (need over the per-partition limit, with headroom)', () => {
    const project = new Project({
      config: { target: 'keyspaces', tables: { 'ks.books': { writesPerSecondPerPartition: 3000 } } },
    });
    project.setFile(MAIN, BOOKS);
    const throughput = ofRule(project.lint(MAIN), 'partition-throughput');
    assert.equal(throughput.length, 1, 'the hint makes partition-throughput fire');
    const units = throughput[0].data!.unitsPerSecond as number;
    const limit = throughput[0].data!.limit as number;
    const expected = Math.ceil((units * 1.5) / limit);
    const [{ fixes }] = offered(project, 'hot-partition');
    assert.equal(fixes[0].title, `Add a calculated shard column from title (${expected} shards); no reads of ks.books in the workspace`);
    const [{ fixes: fromThroughput }] = offered(project, 'partition-throughput');
    assert.equal(fromThroughput[0].title, fixes[0].title);
  });
});

describe('unbounded-partition fixes', () => {
  const READINGS = 'CREATE TABLE ks.readings (\n  sensor_id uuid,\n  reading_time timestamp,\n  value double,\n  PRIMARY KEY (sensor_id, reading_time)\n);\n';

  test('prefers the bucket the rule\'s stated rate fits (monthly at 1 row/min) and each bucket removes the finding', () => {
    const project = projectWith(READINGS);
    const [{ fixes }] = offered(project, 'unbounded-partition');
    assert.deepEqual(fixes.map((f) => [f.title, f.isPreferred]), [
      ['Add a time bucket: month text (monthly partitions by reading_time)', true],
      ['Add a time bucket: hour timestamp (hourly partitions by reading_time)', false],
      ['Add a time bucket: day date (daily partitions by reading_time)', false],
    ]);
    for (const fix of fixes) assert.deepEqual(applyAndRelint(project, fix, 'unbounded-partition').left, []);
    const daily = fixes.find((f) => f.title.startsWith('Add a time bucket: day date'))!;
    assert.equal(
      applyEdits(READINGS, daily.edits),
      'CREATE TABLE ks.readings (\n  sensor_id uuid,\n  reading_time timestamp,\n  value double,\n' +
        '  day date, -- bucket: the UTC day of reading_time, set by the application\n' +
        '  PRIMARY KEY ((sensor_id, day), reading_time)\n);\n',
    );
  });

  test('an epoch bigint time column gets the same buckets', () => {
    const project = projectWith('CREATE TABLE ks.ev (device_id text, created_at bigint, v blob, PRIMARY KEY (device_id, created_at));');
    const [{ fixes }] = offered(project, 'unbounded-partition');
    assert.equal(fixes[0].title, 'Add a time bucket: month text (monthly partitions by created_at)');
    assert.deepEqual(applyAndRelint(project, fixes[0], 'unbounded-partition').left, []);
  });
});

describe('unknown-column fixes', () => {
  test('renames to the close match, safe for fix-all, and the finding is gone', () => {
    const code = `${BOOKS}SELECT autor FROM ks.books WHERE publish_date = '2024-01-01';\n`;
    const project = projectWith(code);
    const [{ fixes }] = offered(project, 'unknown-column');
    assert.deepEqual(fixes.map((f) => [f.title, f.safeForFixAll, f.isPreferred]), [['Change to author', true, true]]);
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
  test('a SELECT missing only the shard reads every shard, within large-in-partition-key\'s limit, and the finding is gone', () => {
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
    assert.match(applyEdits(`${SHARDED}${read}`, inList[0].edits), /WHERE publish_date = '2024-05-01' AND shard IN \(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16\);/);
  });

  test('a SELECT that gives the source column gets the computed shard, matching an independent murmur3', () => {
    const project = projectWith(`${SHARDED}SELECT author FROM ks.books WHERE publish_date = '2024-05-01' AND title = 'Dune';\n`);
    const [{ fixes }] = offered(project, 'unrestricted-partition-key');
    const expected = (murmur.x86.hash32(Buffer.from('Dune', 'utf8')) >>> 0) % 16 + 1;
    assert.equal(fixes[0].title, `Add shard = ${expected} (murmur3(title) % 16 + 1)`);
    assert.equal(fixes[0].safeForFixAll, true);
    const { output, left } = applyAndRelint(project, fixes[0], 'unrestricted-partition-key');
    assert.deepEqual(left, []);
    assert.ok(output.includes(`AND title = 'Dune' AND shard = ${expected};`), output);
  });

  test('an INSERT without the shard gets it in both lists (incomplete-key-write)', () => {
    const project = projectWith(`${SHARDED}INSERT INTO ks.books (publish_date, title) VALUES ('2024-05-01', 'Dune');\n`);
    const [{ fixes }] = offered(project, 'incomplete-key-write');
    const expected = (murmur.x86.hash32(Buffer.from('Dune', 'utf8')) >>> 0) % 16 + 1;
    assert.equal(fixes.length, 1);
    const { output, left } = applyAndRelint(project, fixes[0], 'incomplete-key-write');
    assert.deepEqual(left, []);
    assert.ok(output.includes(`INSERT INTO ks.books (publish_date, title, shard) VALUES ('2024-05-01', 'Dune', ${expected});`), output);
  });

  test('the table may be defined in another file', () => {
    const files = { 'schema.cql': SHARDED };
    const project = projectWith("UPDATE ks.books SET author = ? WHERE publish_date = ? AND title = ?;\n", files);
    const [{ fixes }] = offered(project, 'incomplete-key-write');
    assert.deepEqual(fixes.map((f) => [f.title, f.safeForFixAll]), [['Add shard = ? (the application computes the shard)', false]]);
    const { left } = applyAndRelint(project, fixes[0], 'incomplete-key-write', files);
    assert.deepEqual(left, []);
  });

  test('no shard fix when other key columns are missing too', () => {
    const project = projectWith(`${SHARDED}SELECT * FROM ks.books WHERE title = 'Dune' ALLOW FILTERING;\nSELECT * FROM ks.books;\n`);
    for (const { fixes } of offered(project, 'unrestricted-partition-key')) assert.deepEqual(fixes, []);
  });
});

describe('shard-mismatch fixes (the rule\'s real findings)', () => {
  test('a wrong literal shard becomes the formula\'s value, safe for fix-all, and the finding is gone', () => {
    const code = `${SHARDED}SELECT author FROM ks.books WHERE publish_date = '2024-05-01' AND shard = 3 AND title = 'Dune';\n`;
    const project = projectWith(code);
    const [{ finding, fixes }] = offered(project, 'shard-mismatch');
    const expected = (murmur.x86.hash32(Buffer.from('Dune', 'utf8')) >>> 0) % 16 + 1;
    assert.equal(finding.data?.expected, expected);
    assert.deepEqual(fixes.map((f) => [f.title, f.safeForFixAll, f.isPreferred]), [[`Change shard to ${expected}`, true, true]]);
    const { output, left } = applyAndRelint(project, fixes[0], 'shard-mismatch');
    assert.deepEqual(left, []);
    assert.ok(output.includes(`AND shard = ${expected} AND title = 'Dune';`), output);
  });

  test('no fix when the rule cannot say which shard is right (out of range, sources unknown)', () => {
    const project = projectWith(`${SHARDED}SELECT author FROM ks.books WHERE publish_date = ? AND shard = 40 AND title = ?;\n`);
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
    const env = projectFixEnvironment(project, MAIN);
    const edits = computeFixAll(MESSY, project.parse(MAIN), env.findings ?? [], env);
    const once = applyEdits(MESSY, edits);
    const expected = (murmur.x86.hash32(Buffer.from('Dune', 'utf8')) >>> 0) % 16 + 1;
    assert.ok(once.includes('SELECT author FROM ks.plain'), once);
    // The rename and the computed shard touch the same column list without overlapping: one pass does both.
    assert.ok(once.includes(`INSERT INTO ks.books (publish_date, title, author, shard) VALUES ('2024-05-01', 'Dune', 'Frank Herbert', ${expected});`), once);
    // The read of all shards and the hot partition's shard column are choices: left alone.
    assert.ok(once.includes("SELECT title FROM ks.books WHERE publish_date = '2024-05-01';"), once);
    assert.ok(once.includes('PRIMARY KEY (publish_date, title)'), once);
    const again = projectWith(once);
    const env2 = projectFixEnvironment(again, MAIN);
    assert.deepEqual(computeFixAll(once, again.parse(MAIN), env2.findings ?? [], env2), []);
  });

  test('with an error reporter (server, CLI), fixes never throw on findings with odd data', () => {
    const project = projectWith(BOOKS);
    const parse = project.parse(MAIN);
    const range = new LineIndex(BOOKS).locate(parse.statements[0].range);
    const env = projectFixEnvironment(project, MAIN, { onError: () => {} });
    for (const ruleId of ['hot-partition', 'unbounded-partition', 'shard-mismatch', 'unknown-column', 'unrestricted-partition-key', 'incomplete-key-write']) {
      const weird: Finding = { ruleId, severity: 'warning', message: 'x', range, data: { expected: 'seven', suggestion: 42, candidates: 'title', missing: 'shard' } };
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

describe('statementAt (the statement of a reference)', () => {
  test('finds top-level statements and batch members by their exact range, and nothing else', () => {
    const text = "USE ks;\nSELECT * FROM t WHERE id = 1;\nBEGIN BATCH\n  INSERT INTO t (id) VALUES (1);\n  UPDATE t SET v = 1 WHERE id = 2;\nAPPLY BATCH;\nSELECT * FROM u;\n";
    const parse = parseCql(text);
    for (const s of flatStatements(parse)) assert.equal(statementAt(parse, s.range), s);
    const update = flatStatements(parse).find((s) => s.kind === 'Update')!;
    assert.equal(statementAt(parse, { ...update.range, end: update.range.end - 1 }), undefined);
    assert.equal(statementAt(parseCql(''), update.range), undefined);
  });
});
