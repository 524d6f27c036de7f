// Only what changed: fingerprints that survive line moves, `lint --since <ref>` in a real temporary git
// repository, and `--baseline` / `--update-baseline`.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { runCli, tempDir, type JsonResult } from './helpers';
import { fingerprints, normalisedCql, statementAround } from '../../server/cli/fingerprint';
import type { Finding } from '../../server/core/findings/findings';

// A reference table seeded by literal rows is not hot; a query that writes any category makes it hot.
const SCHEMA =
  'CREATE TABLE ks.tags_by_category (category text, tag text, label text, PRIMARY KEY (category, tag));\nCREATE TABLE ks.books (publish_date date, title text, author text, PRIMARY KEY (publish_date, title));\n';
const SEED =
  "INSERT INTO ks.tags_by_category (category, tag, label) VALUES ('color', 'red', 'Red');\nSELECT tag, label FROM ks.tags_by_category WHERE category = ?;\n";
const WRITES_ANY_CATEGORY = 'INSERT INTO ks.tags_by_category (category, tag, label) VALUES (?, ?, ?);\n';

const parse = (stdout: string): JsonResult[] => JSON.parse(stdout) as JsonResult[];
const messages = (stdout: string): { file: string; ruleId: string; message: string }[] =>
  parse(stdout).flatMap((r) => r.messages.map((m) => ({ file: r.filePath, ruleId: m.ruleId, message: m.message })));

/** A repository with SCHEMA and SEED committed on main, a branch `work` checked out. */
function repository(t: { after(fn: () => void): void }) {
  const temp = tempDir({ 'db/schema.cql': SCHEMA, 'db/seed.cql': SEED });
  t.after(() => temp.cleanup());
  const git = (...args: string[]): string =>
    execFileSync('git', args, {
      cwd: temp.dir,
      encoding: 'utf8',
      env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1', HOME: temp.dir },
    });
  git('init', '-q', '-b', 'main');
  git('config', 'user.email', 'test@example.com');
  git('config', 'user.name', 'test');
  git('add', '.');
  git('commit', '-q', '-m', 'schema');
  git('checkout', '-q', '-b', 'work');
  return { temp, git };
}

describe('fingerprints', () => {
  const finding = (start: number, end: number, ruleId = 'hot-partition'): Finding =>
    ({
      ruleId,
      severity: 'warning',
      message: 'm',
      messageId: 'x',
      range: { start: { line: 1, column: 1, offset: start }, end: { line: 1, column: 1, offset: end } },
    }) as Finding;

  test('the same statement moved down, reindented and recommented keeps its fingerprint; another statement or rule does not', () => {
    const a = 'CREATE TABLE ks.a (k int PRIMARY KEY);\nSELECT * FROM ks.a WHERE k = 1; -- one\n';
    const b =
      '-- a comment\n\n\nCREATE TABLE ks.a (k int PRIMARY KEY);\n\nSELECT *\n  FROM ks.a  /* two */ WHERE k = 1;\n';
    const inA = a.indexOf('ks.a WHERE');
    const inB = b.indexOf('ks.a  /*');
    const [printA] = fingerprints([finding(inA, inA + 4)], '/w/q.cql', a, '/w');
    const [printB] = fingerprints([finding(inB, inB + 4)], '/w/q.cql', b, '/w');
    assert.equal(printA, printB);
    assert.notEqual(fingerprints([finding(inA, inA + 4, 'allow-filtering')], '/w/q.cql', a, '/w')[0], printA);
    assert.notEqual(fingerprints([finding(inA, inA + 4)], '/w/other.cql', a, '/w')[0], printA);
    const table = a.indexOf('ks.a');
    assert.notEqual(fingerprints([finding(table, table + 4)], '/w/q.cql', a, '/w')[0], printA);
  });

  test('two findings alike in one file are told apart by their order, and are stable', () => {
    const text = 'SELECT * FROM t;\nSELECT * FROM t;\n';
    const second = text.indexOf('t;', 10);
    const prints = fingerprints([finding(14, 15), finding(second, second + 1)], '/w/q.cql', text, '/w');
    assert.notEqual(prints[0], prints[1]);
    assert.deepEqual(fingerprints([finding(14, 15), finding(second, second + 1)], '/w/q.cql', text, '/w'), prints);
  });

  test('statements end at semicolons outside strings, quoted names, $$ bodies and comments', () => {
    const text = 'SELECT \';\' FROM "a;b" -- ;\n WHERE x = $$;$$ /* ; */;SELECT 2;';
    assert.deepEqual(statementAround(text, 3), { start: 0, end: text.indexOf('*/;') + 3 });
    assert.deepEqual(statementAround(text, text.length - 3), { start: text.indexOf('*/;') + 3, end: text.length });
    assert.equal(normalisedCql("SELECT  '--  x' -- c\n FROM t /* c */;"), "SELECT '--  x' FROM t ;");
  });
});

describe('cqlint lint --since', () => {
  test('a branch that adds a query making an old table hot reports exactly that finding', async (t) => {
    const { temp, git } = repository(t);
    temp.write('db/app.cql', WRITES_ANY_CATEGORY);
    git('add', '.');
    git('commit', '-q', '-m', 'writes');
    const all = await runCli(['lint', '-f', 'json', 'db'], { cwd: temp.dir });
    assert.deepEqual(
      messages(all.stdout)
        .map((m) => m.message.split(':')[0])
        .sort(),
      ['hot partition in ks.books', 'hot partition in ks.tags_by_category'],
    );
    const since = await runCli(['lint', '-f', 'json', '--since', 'main', 'db'], { cwd: temp.dir });
    assert.equal(since.code, 0, since.stderr);
    const found = messages(since.stdout);
    assert.equal(found.length, 1);
    assert.equal(found[0]!.file, temp.path('db/schema.cql'));
    assert.match(found[0]!.message, /^hot partition in ks\.tags_by_category: category has few values/);
    assert.match(since.stderr, /1 finding not reported: already at the merge-base [0-9a-f]{12} \(--since main\)/);
    // The working tree is linted as it is (an uncommitted change counts), and git's state is untouched.
    temp.write('db/more.cql', 'SELECT * FROM ks.books WHERE author = ? ALLOW FILTERING;\n');
    const dirty = await runCli(['lint', '-f', 'json', '--since', 'main', temp.dir], { cwd: temp.dir });
    assert.deepEqual(
      messages(dirty.stdout)
        .map((m) => m.ruleId)
        .sort(),
      ['allow-filtering', 'hot-partition'],
    );
    assert.equal(git('status', '--porcelain'), '?? db/more.cql\n');
    assert.equal(git('rev-parse', '--abbrev-ref', 'HEAD').trim(), 'work');
  });

  test('a branch that only moves lines reports nothing', async (t) => {
    const { temp, git } = repository(t);
    const [first, second] = SCHEMA.trim().split('\n');
    temp.write(
      'db/schema.cql',
      `-- tables, reordered\n\n${second}\n\n\n${first!.replace('(category text,', '(\n  category text,')}\n`,
    );
    git('commit', '-q', '-am', 'moves');
    const before = await runCli(['lint', '-f', 'json', 'db'], { cwd: temp.dir });
    assert.equal(messages(before.stdout).length, 1);
    const since = await runCli(['lint', '-f', 'json', '--since', 'main', 'db'], { cwd: temp.dir });
    assert.equal(since.code, 0, since.stderr);
    assert.deepEqual(
      parse(since.stdout).map((r) => [r.filePath, r.messages.length, r.warningCount]),
      [
        [temp.path('db/schema.cql'), 0, 0],
        [temp.path('db/seed.cql'), 0, 0],
      ],
    );
    assert.match(since.stderr, /1 finding not reported/);
  });

  test('from a subfolder, and for a file the merge-base does not have: everything in it is new', async (t) => {
    const { temp } = repository(t);
    temp.write('db/new/hot.cql', 'CREATE TABLE ks.logs (day date, id timeuuid, PRIMARY KEY (day, id));\n');
    const since = await runCli(['lint', '-f', 'json', '--since', 'main', '.'], { cwd: temp.path('db') });
    assert.deepEqual(
      messages(since.stdout).map((m) => [m.file, m.message.split(':')[0]]),
      [[temp.path('db/new/hot.cql'), 'hot partition in ks.logs']],
    );
  });

  test('not a git repository, an unknown ref, or a ref that looks like an option: exit 2 with a clear message', async (t) => {
    const plain = tempDir({ 'a.cql': SCHEMA });
    t.after(() => plain.cleanup());
    const outside = await runCli(['lint', '--since', 'main', '.'], { cwd: plain.dir });
    assert.equal(outside.code, 2);
    assert.match(outside.stderr, /--since: .* is not inside a git repository/);
    const { temp } = repository(t);
    const unknown = await runCli(['lint', '--since', 'no-such-branch', 'db'], { cwd: temp.dir });
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /^cqlint lint: --since: unknown git ref "no-such-branch"/);
    assert.equal(unknown.stdout, '');
    const option = await runCli(['lint', '--since=--output=x', 'db'], { cwd: temp.dir });
    assert.equal(option.code, 2);
    assert.match(option.stderr, /is not a git ref/);
    const stdin = await runCli(['lint', '--since', 'main', '--stdin'], { cwd: temp.dir });
    assert.equal(stdin.code, 2);
  });
});

describe('cqlint lint --baseline', () => {
  test('round trip: --update-baseline accepts every finding, then only a new one is reported', async (t) => {
    const temp = tempDir({ 'db/schema.cql': SCHEMA, 'db/seed.cql': SEED + WRITES_ANY_CATEGORY });
    t.after(() => temp.cleanup());
    const write = await runCli(['lint', '--baseline', 'ci/cqlint-baseline.json', '--update-baseline', 'db'], {
      cwd: temp.dir,
    });
    assert.deepEqual([write.code, write.stdout], [0, '']);
    assert.match(write.stderr, /wrote 2 findings to the baseline ci\/cqlint-baseline\.json/);
    const baseline = JSON.parse(readFileSync(temp.path('ci/cqlint-baseline.json'), 'utf8'));
    assert.equal(baseline.format, 'cqlint-baseline');
    assert.deepEqual(
      baseline.findings.map((f: { ruleId: string; file: string; line: number }) => [f.ruleId, f.file, f.line]),
      [
        ['hot-partition', 'db/schema.cql', 1],
        ['hot-partition', 'db/schema.cql', 2],
      ],
    );

    const clean = await runCli(['lint', '-f', 'json', '--baseline', 'ci/cqlint-baseline.json', 'db'], {
      cwd: temp.dir,
    });
    assert.equal(clean.code, 0);
    assert.deepEqual(messages(clean.stdout), []);
    assert.match(clean.stderr, /2 findings not reported: already in the baseline/);

    // Lines moved: still accepted. A new finding: reported, and the exit code follows it.
    temp.write('db/schema.cql', `\n\n${SCHEMA}CREATE TABLE ks.logs (day date, id timeuuid, PRIMARY KEY (day, id));\n`);
    temp.write('db/q.cql', 'SELECT nope FROM ks.books WHERE publish_date = ?;\n');
    const next = await runCli(['lint', '-f', 'json', '--baseline', 'ci/cqlint-baseline.json', 'db'], { cwd: temp.dir });
    assert.equal(next.code, 1);
    assert.deepEqual(
      messages(next.stdout)
        .map((m) => m.ruleId + ' ' + m.message.split(':')[0])
        .sort(),
      ['hot-partition hot partition in ks.logs', 'unknown-column table ks.books has no column nope'],
    );
  });

  test('a missing or corrupt baseline is exit 2; --update-baseline needs --baseline', async (t) => {
    const temp = tempDir({
      'a.cql': SCHEMA,
      'bad.json': '{"format":',
      'other.json': '{"findings": []}',
      'nofp.json': '{"format":"cqlint-baseline","findings":[{}]}',
    });
    t.after(() => temp.cleanup());
    for (const [file, said] of [
      ['missing.json', /cannot read the baseline missing\.json/],
      ['bad.json', /the baseline bad\.json is not JSON/],
      ['other.json', /other\.json is not a cqlint baseline/],
      ['nofp.json', /findings\[0\] has no fingerprint/],
    ] as const) {
      const run = await runCli(['lint', '--baseline', file, 'a.cql'], { cwd: temp.dir });
      assert.equal(run.code, 2, file);
      assert.match(run.stderr, said);
      assert.equal(run.stdout, '');
    }
    const alone = await runCli(['lint', '--update-baseline', 'a.cql'], { cwd: temp.dir });
    assert.equal(alone.code, 2);
    assert.match(alone.stderr, /--update-baseline needs --baseline/);
    assert.equal(existsSync(temp.path('missing.json')), false);
  });

  test("SARIF carries each result's fingerprint in partialFingerprints, the same one the baseline holds", async (t) => {
    const temp = tempDir({ 'a.cql': SCHEMA });
    t.after(() => temp.cleanup());
    await runCli(['lint', '--baseline', 'b.json', '--update-baseline', 'a.cql'], { cwd: temp.dir });
    const sarif = JSON.parse((await runCli(['lint', '-f', 'sarif', 'a.cql'], { cwd: temp.dir })).stdout);
    const prints = sarif.runs[0].results.map(
      (r: { partialFingerprints: Record<string, string> }) => r.partialFingerprints['cqlintFinding/v1'],
    );
    assert.deepEqual(
      prints.sort(),
      JSON.parse(readFileSync(temp.path('b.json'), 'utf8'))
        .findings.map((f: { fingerprint: string }) => f.fingerprint)
        .sort(),
    );
  });
});
