// `cqlint lint --fix` and `--fix-dry-run`, like ESLint's: the safe fixes are written (or only shown), then
// the problems that remain are reported; the JSON output counts fixable problems and carries `output`.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, statSync } from 'node:fs';
import { runCli, tempDir, type JsonResult } from './helpers';
const murmur = require('murmurhash3js-revisited') as { x86: { hash32(bytes: Uint8Array, seed?: number): number } };
const shardOf = (title: string): number => ((murmur.x86.hash32(Buffer.from(title, 'utf8')) >>> 0) % 16) + 1;

const SCHEMA =
  '-- @shard shard = murmur3(title) % 16 + 1\n' +
  'CREATE TABLE ks.books (publish_date date, shard int, title text, author text, PRIMARY KEY ((publish_date, shard), title));\n' +
  'CREATE TABLE ks.plain (publish_date date, title text, PRIMARY KEY (publish_date, title));\n';
// Three safe fixes (a rename, a missing computed shard, a wrong literal shard) and one choice (read all shards).
const QUERIES =
  "INSERT INTO ks.books (publish_date, title, autor) VALUES ('2024-05-01', 'Dune', 'Frank Herbert');\n" +
  "SELECT author FROM ks.books WHERE publish_date = '2024-05-01' AND shard = 3 AND title = 'Emma';\n" +
  "SELECT title FROM ks.books WHERE publish_date = '2024-05-01';\n";
const FIXED =
  `INSERT INTO ks.books (publish_date, title, author, shard) VALUES ('2024-05-01', 'Dune', 'Frank Herbert', ${shardOf('Dune')});\n` +
  `SELECT author FROM ks.books WHERE publish_date = '2024-05-01' AND shard = ${shardOf('Emma')} AND title = 'Emma';\n` +
  "SELECT title FROM ks.books WHERE publish_date = '2024-05-01';\n";

const json = (stdout: string) => JSON.parse(stdout) as (JsonResult & { output?: string })[];
const byName = (results: (JsonResult & { output?: string })[], name: string) =>
  results.find((r) => r.filePath.endsWith(name))!;

describe('cqlint lint --fix', () => {
  test('without --fix: the fixable problems are counted (json) and announced (stylish); nothing is written', async (t) => {
    const temp = tempDir({ 'schema.cql': SCHEMA, 'q.cql': QUERIES });
    t.after(() => temp.cleanup());
    const run = await runCli(['lint', '-f', 'json', temp.dir]);
    assert.equal(run.code, 1);
    const q = byName(json(run.stdout), 'q.cql');
    assert.deepEqual(q.messages.map((m) => m.ruleId).sort(), [
      'incomplete-key-write',
      'shard-mismatch',
      'unknown-column',
      'unrestricted-partition-key',
    ]);
    assert.deepEqual([q.errorCount, q.fixableErrorCount, q.warningCount, q.fixableWarningCount], [3, 3, 1, 0]);
    assert.equal(q.source, QUERIES);
    assert.equal((q as { output?: string }).output, undefined);
    const schema = byName(json(run.stdout), 'schema.cql');
    assert.deepEqual([schema.warningCount, schema.fixableWarningCount], [1, 0], 'the hot partition needs a choice');
    const stylish = await runCli(['lint', temp.dir]);
    assert.match(stylish.stdout, /\n {2}3 errors and 0 warnings potentially fixable with the `--fix` option\.\n$/);
    assert.equal(readFileSync(temp.path('q.cql'), 'utf8'), QUERIES);
  });

  test('--fix writes the fixed file, leaves the others alone, reports what remains, and a second run changes nothing', async (t) => {
    const temp = tempDir({ 'schema.cql': SCHEMA, 'q.cql': QUERIES });
    t.after(() => temp.cleanup());
    const schemaMtime = statSync(temp.path('schema.cql')).mtimeMs;
    const run = await runCli(['lint', '--fix', temp.dir]);
    assert.equal(run.code, 0, 'only warnings remain');
    assert.equal(readFileSync(temp.path('q.cql'), 'utf8'), FIXED);
    assert.equal(statSync(temp.path('schema.cql')).mtimeMs, schemaMtime, 'a file without safe fixes is not rewritten');
    assert.match(run.stdout, /unrestricted-partition-key/);
    assert.match(run.stdout, /hot-partition/);
    assert.doesNotMatch(run.stdout, /unknown-column|incomplete-key-write|shard-mismatch|potentially fixable/);
    assert.match(run.stdout, /2 problems \(0 errors, 2 warnings\)/);
    assert.equal(run.stderr, 'cqlint: fixed 3 problems in 1 file\n');

    const again = await runCli(['lint', '--fix', '-f', 'json', temp.dir]);
    assert.equal(again.code, 0);
    assert.equal(again.stderr, '', 'nothing fixed, nothing said');
    assert.equal(readFileSync(temp.path('q.cql'), 'utf8'), FIXED);
    const q = byName(json(again.stdout), 'q.cql');
    assert.equal(q.output, undefined, 'nothing changed, so no output');
    assert.equal(q.source, FIXED);
  });

  test('--fix with json: `output` is the fixed text, messages and counts are what remains', async (t) => {
    const temp = tempDir({ 'schema.cql': SCHEMA, 'q.cql': QUERIES });
    t.after(() => temp.cleanup());
    const run = await runCli(['lint', '--fix', '-f', 'json', temp.dir]);
    const q = byName(json(run.stdout), 'q.cql');
    assert.equal(q.output, FIXED);
    assert.equal(q.source, undefined, 'like ESLint, `output` replaces `source`');
    assert.deepEqual(
      q.messages.map((m) => [m.ruleId, m.line]),
      [['unrestricted-partition-key', 3]],
    );
    assert.deepEqual([q.errorCount, q.warningCount, q.fixableErrorCount, q.fixableWarningCount], [0, 1, 0, 0]);
  });

  test('--fix-dry-run reports like --fix but writes nothing', async (t) => {
    const temp = tempDir({ 'schema.cql': SCHEMA, 'q.cql': QUERIES });
    t.after(() => temp.cleanup());
    const mtime = statSync(temp.path('q.cql')).mtimeMs;
    const run = await runCli(['lint', '--fix-dry-run', '-f', 'json', temp.dir]);
    assert.equal(run.code, 0);
    assert.equal(run.stderr, 'cqlint: --fix would fix 3 problems in 1 file (nothing written: --fix-dry-run)\n');
    assert.equal(byName(json(run.stdout), 'q.cql').output, FIXED);
    assert.equal(readFileSync(temp.path('q.cql'), 'utf8'), QUERIES);
    assert.equal(statSync(temp.path('q.cql')).mtimeMs, mtime);
  });

  test('--fix keeps CRLF line endings and a UTF-8 byte order mark', async (t) => {
    const bom = Buffer.from([0xef, 0xbb, 0xbf]);
    const crlf = QUERIES.replace(/\n/g, '\r\n');
    const temp = tempDir({ 'schema.cql': SCHEMA, 'q.cql': Buffer.concat([bom, Buffer.from(crlf, 'utf8')]) });
    t.after(() => temp.cleanup());
    const run = await runCli(['lint', '--fix', temp.dir]);
    assert.equal(run.code, 0, run.stderr);
    const bytes = readFileSync(temp.path('q.cql'));
    assert.ok(bytes.subarray(0, 3).equals(bom), 'the BOM is still there');
    assert.equal(bytes.subarray(3).toString('utf8'), FIXED.replace(/\n/g, '\r\n'));
  });

  test('--fix and --fix-dry-run together are a usage error', async () => {
    const run = await runCli(['lint', '--fix', '--fix-dry-run', 'x.cql']);
    assert.equal(run.code, 2);
    assert.match(run.stderr, /--fix and --fix-dry-run cannot be used together/);
    const help = await runCli(['lint', '--help']);
    assert.match(help.stdout, /--fix  /);
    assert.match(help.stdout, /--fix-dry-run/);
  });

  test('--fix leaves a file with syntax errors exactly as it is, and says so', async (t) => {
    // A fixable typo (autor) beside a statement that does not parse: recovery guesses, fixes must not.
    const broken = `${QUERIES}SELECT title FROM ks.books WHERE publish_date = '2024-05-01' AND (;\n`;
    const temp = tempDir({ 'schema.cql': SCHEMA, 'q.cql': broken });
    t.after(() => temp.cleanup());
    const mtime = statSync(temp.path('q.cql')).mtimeMs;
    const run = await runCli(['lint', '--fix', '-f', 'json', temp.dir]);
    assert.equal(run.code, 1, 'the syntax error (and what was not fixed) remain');
    assert.equal(readFileSync(temp.path('q.cql'), 'utf8'), broken);
    assert.equal(statSync(temp.path('q.cql')).mtimeMs, mtime, 'not rewritten');
    assert.match(run.stderr, /not fixing .*q\.cql: it has 1 syntax error; fix it first/);
    const q = byName(json(run.stdout), 'q.cql');
    assert.equal(q.output, undefined);
    assert.ok(
      q.messages.some((m) => m.ruleId === 'syntax-error') && q.messages.some((m) => m.ruleId === 'unknown-column'),
    );
  });
});
