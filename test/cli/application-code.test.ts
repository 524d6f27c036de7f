// The command line on folders of mixed files: CQL files and application code. Statements in code are linted with
// the schema, reported at the host file's lines and columns in every format, fixed inside their string literals,
// and the same on the main thread and in workers; code without CQL, generated code and turned-off languages are
// left out; what the reader cannot read is a warning, and the rest is still linted.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { runCli, tempDir, type JsonResult } from './helpers';
import { JAVA, PYTHON, SCHEMA } from '../embedded/app-fixtures';

/** SQL for another database, and log lines: nothing to read. */
const JDBC = `import java.sql.Connection;

class Legacy {
  void load(Connection c) throws Exception {
    c.prepareStatement("SELECT * FROM users WHERE id = ?").executeQuery();
    System.out.println("insert into users failed");
  }
}
`;

const FILES = {
  'schema.cql': SCHEMA,
  'src/UserDao.java': JAVA,
  'src/orders.py': PYTHON,
  'src/Legacy.java': JDBC,
  'target/generated/UserDao.java': JAVA,
  'node_modules/driver/index.js': "client.execute('SELECT nmae FROM users')",
};

const json = (stdout: string): JsonResult[] => JSON.parse(stdout) as JsonResult[];
const names = (results: JsonResult[], root: string): string[] =>
  results.map((r) => r.filePath.slice(root.length + 1).replace(/\\/g, '/'));

describe('cqlint lint on application code', () => {
  test('a folder: statements in code are linted at host positions; generated code, dependencies and code without CQL are left out', async (t) => {
    const dir = tempDir(FILES);
    t.after(() => dir.cleanup());
    const run = await runCli(['lint', '--format', 'json', dir.dir]);
    assert.equal(run.code, 1, run.stderr);
    const results = json(run.stdout);
    assert.deepEqual(names(results, dir.dir), ['schema.cql', 'src/UserDao.java', 'src/orders.py']);
    const java = results[1]!;
    assert.deepEqual(
      java.messages.map((m) => [m.ruleId, m.line, m.column, m.endLine, m.endColumn]),
      [['unknown-column', 9, 39, 9, 43]],
    );
    // ESLint's `source` is the file's own text, which the lines and columns point into.
    assert.equal(java.source, JAVA);
    assert.equal(java.source!.split('\n')[8]!.slice(38, 42), 'nmae');
    // The schema's advice counts the Python queries (both know order_id).
    const hot = results[0]!.messages.find((m) => m.ruleId === 'hot-partition') as { details?: string } | undefined;
    assert.match(hot?.details ?? '', /calculated as murmur3\(order_id\) % N \+ 1/);
  });

  test('--embedded none reads CQL files alone; --embedded python one language', async (t) => {
    const dir = tempDir(FILES);
    t.after(() => dir.cleanup());
    assert.deepEqual(
      names(json((await runCli(['lint', '--format', 'json', '--embedded', 'none', dir.dir])).stdout), dir.dir),
      ['schema.cql'],
    );
    assert.deepEqual(
      names(json((await runCli(['lint', '--format', 'json', '--embedded', 'python', dir.dir])).stdout), dir.dir),
      ['schema.cql', 'src/orders.py'],
    );
    const bad = await runCli(['lint', '--embedded', 'cobol', dir.dir]);
    assert.equal(bad.code, 2);
    assert.match(
      bad.stderr,
      /--embedded expects all, none or a comma-separated list of java, kotlin, python, go, javascript, typescript, csharp; unknown: cobol/,
    );
  });

  test('.cqlint.json embedded: the config of the code decides', async (t) => {
    const dir = tempDir({ ...FILES, '.cqlint.json': JSON.stringify({ embedded: { languages: ['java'] } }) });
    t.after(() => dir.cleanup());
    assert.deepEqual(names(json((await runCli(['lint', '--format', 'json', dir.dir])).stdout), dir.dir), [
      'schema.cql',
      'src/UserDao.java',
    ]);
  });

  test('sarif points into the host file', async (t) => {
    const dir = tempDir(FILES);
    t.after(() => dir.cleanup());
    const run = await runCli(['lint', '--format', 'sarif', dir.dir], { cwd: dir.dir });
    const results = (
      JSON.parse(run.stdout) as {
        runs: {
          results: {
            ruleId: string;
            locations: {
              physicalLocation: {
                artifactLocation: { uri: string };
                region: { startLine: number; startColumn: number };
              };
            }[];
          }[];
        }[];
      }
    ).runs[0]!.results;
    const unknown = results.find((r) => r.ruleId === 'unknown-column')!;
    assert.equal(unknown.locations[0]!.physicalLocation.artifactLocation.uri, 'src/UserDao.java');
    assert.deepEqual(
      [
        unknown.locations[0]!.physicalLocation.region.startLine,
        unknown.locations[0]!.physicalLocation.region.startColumn,
      ],
      [9, 39],
    );
  });

  test('worker threads give the same bytes as the main thread on mixed files, reader warnings included', async (t) => {
    // A generated file too large to read for CQL (4.5 MiB): a warning, and the rest is linted.
    const generated = `# generated\n${'x = 1  # padding\n'.repeat(280_000)}`;
    const dir = tempDir({ ...FILES, 'src/generated_big.py': generated });
    t.after(() => dir.cleanup());
    const one = await runCli(['lint', '--format', 'json', dir.dir], { env: { CQLINT_WORKERS: '0' } });
    const two = await runCli(['lint', '--format', 'json', dir.dir], { env: { CQLINT_WORKERS: '2' } });
    assert.equal(two.stdout, one.stdout);
    assert.equal(two.stderr, one.stderr);
    assert.equal(two.code, one.code);
    assert.match(one.stderr, /warning: .*generated_big\.py: not read for CQL: 4\.\d MiB of code/);
    assert.deepEqual(names(json(one.stdout), dir.dir), ['schema.cql', 'src/UserDao.java', 'src/orders.py']);
  });

  test('binary data under a .py name is skipped with a warning; the rest is linted', async (t) => {
    const dir = tempDir({ ...FILES, 'src/blob.py': Buffer.from([0x70, 0x00, 0x01, 0x02]) });
    t.after(() => dir.cleanup());
    const run = await runCli(['lint', '--format', 'json', dir.dir], { cwd: dir.dir });
    assert.equal(run.code, 1);
    assert.match(run.stderr, /^cqlint: warning: skipping src\/blob\.py: file looks binary/m);
    assert.deepEqual(names(json(run.stdout), dir.dir), ['schema.cql', 'src/UserDao.java', 'src/orders.py']);
  });

  test('--stdin with a file name of code reads its CQL', async (t) => {
    const dir = tempDir({ 'schema.cql': SCHEMA });
    t.after(() => dir.cleanup());
    const run = await runCli(['lint', '--format', 'json', '--stdin', '--stdin-filename', 'UserDao.java', dir.dir], {
      cwd: dir.dir,
      stdin: JAVA,
    });
    const [result] = json(run.stdout);
    assert.deepEqual(
      result!.messages.map((m) => [m.ruleId, m.line, m.column]),
      [['unknown-column', 9, 39]],
    );
  });
});

describe('cqlint fix and lint --fix on application code', () => {
  test('a partition fix rewrites the schema and the Python strings, and nothing is left to say', async (t) => {
    const dir = tempDir(FILES);
    t.after(() => dir.cleanup());
    const fixed = await runCli(['fix', '--rule', 'hot-partition', '--table', 'shop.orders_by_day', dir.dir], {
      cwd: dir.dir,
    });
    assert.equal(fixed.code, 0, fixed.stderr);
    assert.match(fixed.stdout, /^Add a calculated shard column from order_id/);
    assert.match(fixed.stdout, /wrote schema\.cql, src\/orders\.py/);
    const python = readFileSync(dir.path('src/orders.py'), 'utf8');
    assert.match(
      python,
      /\n {4}# cqlint: bind shard = murmur3\(order_id\) % \d+ \+ 1[^\n]*\n {4}session\.execute\("INSERT INTO orders_by_day \(day, order_id, total, shard\) VALUES \(%s, %s, %s, %s\)"/,
    );
    assert.match(python, /WHERE day = %s AND order_id = %s AND shard = %s"/);
    const after = await runCli(['lint', '--format', 'json', dir.dir]);
    const messages = json(after.stdout).flatMap((r) => r.messages.map((m) => m.ruleId));
    assert.deepEqual(messages.filter((m) => m !== 'unknown-column').sort(), []);
  });

  test('lint --fix renames the column inside the Java string and keeps the rest of the file', async (t) => {
    const dir = tempDir({ 'schema.cql': SCHEMA, 'UserDao.java': JAVA });
    t.after(() => dir.cleanup());
    const run = await runCli(['lint', '--fix', dir.dir], { cwd: dir.dir });
    assert.equal(run.code, 0, run.stdout + run.stderr);
    assert.equal(readFileSync(dir.path('UserDao.java'), 'utf8'), JAVA.replace('SET nmae', 'SET name'));
  });
});
