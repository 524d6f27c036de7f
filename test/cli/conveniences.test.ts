// What ESLint users reach for in `cqlint lint`: --format compact, --quiet, --stdin, ignore patterns, --cache,
// and progress on a terminal.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { runCli, tempDir, type JsonResult } from './helpers';
import { progress } from '../../server/cli/progress';
import { main } from '../../server/cli/main';

const HOT = 'CREATE TABLE ks.books (publish_date date, title text, author text, PRIMARY KEY (publish_date, title));\n';
const SCHEMA = 'CREATE TABLE ks.users (id uuid PRIMARY KEY, name text);\n';
const QUERY = 'SELECT email FROM ks.users WHERE id = ?;\n';

describe('cqlint lint --format compact', () => {
  test('one line per problem, path: line, col, severity - message (rule), then the count', async (t) => {
    const temp = tempDir({ 'schema.cql': SCHEMA, 'q.cql': QUERY + HOT });
    t.after(() => temp.cleanup());
    const run = await runCli(['lint', '--format', 'compact', temp.dir]);
    assert.equal(run.code, 1, run.stderr);
    const lines = run.stdout.split('\n');
    assert.match(
      lines[0]!,
      new RegExp(
        `^${temp.path('q.cql').replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: line 1, col 8, Error - table ks\\.users has no column email.* \\(unknown-column\\)$`,
      ),
    );
    assert.match(lines[1]!, /: line 2, col \d+, Warning - hot partition in ks\.books[^\n]* \(hot-partition\)$/);
    assert.deepEqual(lines.slice(2), ['', '2 problems', '']);
  });

  test('nothing at all when clean', async (t) => {
    const temp = tempDir({ 'schema.cql': SCHEMA });
    t.after(() => temp.cleanup());
    const run = await runCli(['lint', '-f', 'compact', temp.dir]);
    assert.deepEqual([run.code, run.stdout], [0, '']);
  });
});

describe('cqlint lint --quiet', () => {
  test('shows errors only, in every format; the exit code still follows the errors', async (t) => {
    const temp = tempDir({ 'schema.cql': SCHEMA, 'q.cql': QUERY + HOT });
    t.after(() => temp.cleanup());
    const json = await runCli(['lint', '--quiet', '-f', 'json', temp.dir]);
    assert.equal(json.code, 1);
    const q = (JSON.parse(json.stdout) as JsonResult[]).find((r) => r.filePath.endsWith('q.cql'))!;
    assert.deepEqual(
      q.messages.map((m) => m.ruleId),
      ['unknown-column'],
    );
    const stylish = await runCli(['lint', '--quiet', temp.dir]);
    assert.match(stylish.stdout, /unknown-column/);
    assert.doesNotMatch(stylish.stdout, /hot-partition| warning /);
    assert.match(stylish.stdout, /\u2716 1 problem \(1 error, 0 warnings\)/);
    const sarif = JSON.parse((await runCli(['lint', '--quiet', '-f', 'sarif', temp.dir])).stdout) as {
      runs: { results: { ruleId: string }[] }[];
    };
    assert.deepEqual(
      sarif.runs[0]!.results.map((r) => r.ruleId),
      ['unknown-column'],
    );
  });

  test('warnings alone: nothing shown, exit 0, but --max-warnings still counts them', async (t) => {
    const temp = tempDir({ 'hot.cql': HOT });
    t.after(() => temp.cleanup());
    const quiet = await runCli(['lint', '--quiet', temp.dir]);
    assert.deepEqual([quiet.code, quiet.stdout], [0, '']);
    const limited = await runCli(['lint', '--quiet', '--max-warnings', '0', temp.dir]);
    assert.equal(limited.code, 1);
    assert.match(limited.stderr, /too many warnings \(1\)/);
  });
});

describe('cqlint lint --stdin', () => {
  test('lints the text on stdin, named <stdin> in the working directory', async (t) => {
    const temp = tempDir();
    t.after(() => temp.cleanup());
    const run = await runCli(['lint', '--stdin', '-f', 'json'], { cwd: temp.dir, stdin: HOT });
    assert.equal(run.code, 0, run.stderr);
    const results = JSON.parse(run.stdout) as JsonResult[];
    assert.deepEqual(
      results.map((r) => r.filePath),
      [temp.path('<stdin>')],
    );
    assert.deepEqual(
      results[0]!.messages.map((m) => m.ruleId),
      ['hot-partition'],
    );
    assert.equal(results[0]!.source, HOT);
  });

  test('files and folders given too are its context: their tables resolve its queries, they are not reported', async (t) => {
    const temp = tempDir({ 'schema.cql': SCHEMA + HOT });
    t.after(() => temp.cleanup());
    const run = await runCli(['lint', '--stdin', '-f', 'json', '.'], { cwd: temp.dir, stdin: QUERY });
    assert.equal(run.code, 1, run.stderr);
    const results = JSON.parse(run.stdout) as JsonResult[];
    assert.deepEqual(
      results.map((r) => r.filePath),
      [temp.path('<stdin>')],
      'schema.cql (with its hot partition) is not reported',
    );
    assert.match(results[0]!.messages[0]!.message, /ks\.users has no column email/);
  });

  test('--stdin-filename: the text replaces that file among the inputs, and its .cqlint.json applies', async (t) => {
    const temp = tempDir({
      'schema.cql': SCHEMA,
      'q.cql': QUERY,
      'quiet/.cqlint.json': JSON.stringify({ rules: { 'hot-partition': 'off' } }),
    });
    t.after(() => temp.cleanup());
    const replaced = await runCli(['lint', '--stdin', '--stdin-filename', 'q.cql', '.'], {
      cwd: temp.dir,
      stdin: 'SELECT name FROM ks.users WHERE id = ?;\n',
    });
    assert.deepEqual(
      [replaced.code, replaced.stdout, replaced.stderr],
      [0, '', ''],
      'the saved q.cql (unknown column) is not what is linted',
    );
    const configured = await runCli(['lint', '--stdin', '--stdin-filename', 'quiet/new.cql', '-f', 'json'], {
      cwd: temp.dir,
      stdin: HOT,
    });
    const results = JSON.parse(configured.stdout) as JsonResult[];
    assert.deepEqual(
      results.map((r) => [r.filePath, r.messages.length]),
      [[temp.path('quiet/new.cql'), 0]],
    );
  });

  test('--fix-dry-run gives the fixed text; --fix, a lone --stdin-filename and unreadable stdin are refused (exit 2)', async (t) => {
    const temp = tempDir({ 'schema.cql': SCHEMA });
    t.after(() => temp.cleanup());
    const dry = await runCli(['lint', '--stdin', '--fix-dry-run', '-f', 'json', '.'], {
      cwd: temp.dir,
      stdin: 'SELECT nme FROM ks.users WHERE id = ?;\n',
    });
    assert.equal(
      (JSON.parse(dry.stdout) as { output?: string }[])[0]!.output,
      'SELECT name FROM ks.users WHERE id = ?;\n',
    );
    const fix = await runCli(['lint', '--stdin', '--fix'], { cwd: temp.dir, stdin: QUERY });
    assert.equal(fix.code, 2);
    assert.match(fix.stderr, /--fix cannot write stdin back: use --fix-dry-run/);
    const lone = await runCli(['lint', '--stdin-filename', 'a.cql', '.'], { cwd: temp.dir });
    assert.equal(lone.code, 2);
    assert.match(lone.stderr, /--stdin-filename needs --stdin/);
    const binary = await runCli(['lint', '--stdin'], {
      cwd: temp.dir,
      stdin: new Uint8Array([0x53, 0xff, 0xfe, 0x00]),
    });
    assert.equal(binary.code, 2);
    assert.match(binary.stderr, /cannot read stdin: /);
    assert.equal(binary.stdout, '');
  });
});

describe('ignore patterns: .cqlintignore and ignorePatterns', () => {
  const files = {
    '.cqlintignore': '# generated by the build\ngenerated/\n*.draft.cql\n!keep.draft.cql\n',
    'schema.cql': SCHEMA,
    'generated/hot.cql': HOT,
    'wip.draft.cql': HOT,
    'keep.draft.cql': HOT.replace('books', 'kept'),
    'team/.cqlint.json': JSON.stringify({ ignorePatterns: ['legacy/**', '/old.cql'] }),
    'team/legacy/a/hot.cql': HOT.replace('books', 'legacy'),
    'team/old.cql': HOT.replace('books', 'old'),
    'team/sub/old.cql': HOT.replace('books', 'sub_old'),
  };
  const linted = async (args: string[], cwd: string): Promise<string[]> => {
    const run = await runCli(['lint', '-f', 'json', ...args], { cwd });
    return (JSON.parse(run.stdout) as JsonResult[]).map((r) => r.filePath.slice(cwd.length + 1)).sort();
  };

  test('folders walked leave out what the patterns match (gitignore syntax, negation, anchors, relative to their file)', async (t) => {
    const temp = tempDir(files);
    t.after(() => temp.cleanup());
    assert.deepEqual(await linted(['.'], temp.dir), ['keep.draft.cql', 'schema.cql', 'team/sub/old.cql']);
    assert.deepEqual(await linted(['--no-ignore', '.'], temp.dir), [
      'generated/hot.cql',
      'keep.draft.cql',
      'schema.cql',
      'team/legacy/a/hot.cql',
      'team/old.cql',
      'team/sub/old.cql',
      'wip.draft.cql',
    ]);
  });

  test('a file named on the command line that is ignored: a warning, not linted, exit 0', async (t) => {
    const temp = tempDir(files);
    t.after(() => temp.cleanup());
    const run = await runCli(['lint', 'wip.draft.cql', 'generated/hot.cql', 'schema.cql'], { cwd: temp.dir });
    assert.equal(run.code, 0, run.stdout);
    assert.match(run.stderr, /warning: wip\.draft\.cql is ignored by \.cqlintignore \(--no-ignore includes it\)/);
    assert.match(run.stderr, /warning: generated\/hot\.cql is ignored by \.cqlintignore/);
    assert.equal(run.stdout, '');
    const stdin = await runCli(['lint', '--stdin', '--stdin-filename', 'team/old.cql'], { cwd: temp.dir, stdin: HOT });
    assert.deepEqual([stdin.code, stdin.stdout], [0, '']);
    assert.match(stdin.stderr, /team\/old\.cql is ignored by team\/\.cqlint\.json/);
  });

  test('a folder with nothing but ignored files fails as one without CQL files, saying why', async (t) => {
    const temp = tempDir(files);
    t.after(() => temp.cleanup());
    const run = await runCli(['lint', 'team/legacy/a/..'], { cwd: temp.dir });
    assert.equal(run.code, 2);
    assert.match(
      run.stderr,
      /no CQL files \(\*\.cql, \*\.cqlsh, or application code\) in team\/legacy\/a\/\.\. \(1 ignored: \.cqlintignore or ignorePatterns\)/,
    );
  });

  test('format leaves ignored files alone too; a bad ignorePatterns is a config error', async (t) => {
    const temp = tempDir({ ...files, 'generated/ugly.cql': 'select * from ks.t;\n' });
    t.after(() => temp.cleanup());
    const check = await runCli(['format', '--check', '.'], { cwd: temp.dir });
    assert.doesNotMatch(check.stdout, /ugly\.cql/);
    assert.match(
      (await runCli(['format', '--check', '--no-ignore', '.'], { cwd: temp.dir })).stdout,
      /generated\/ugly\.cql/,
    );
    const broken = tempDir({ '.cqlint.json': '{ "ignorePatterns": "generated/" }', 'a.cql': SCHEMA });
    t.after(() => broken.cleanup());
    const run = await runCli(['lint', '.'], { cwd: broken.dir });
    assert.equal(run.code, 2);
    assert.match(run.stderr, /ignorePatterns: must be an array of gitignore patterns \(strings\), got "generated\/"/);
  });
});

describe('cqlint lint --cache', () => {
  const READINGS =
    'CREATE TABLE ks.sensor_readings (sensor_id uuid, reading_time timestamp, value double, PRIMARY KEY (sensor_id, reading_time));\n';
  const WRITE = "INSERT INTO ks.sensor_readings (sensor_id, reading_time, value) VALUES (uuid(), '2024-01-01', 1.5);\n";
  const files = {
    'schema.cql': SCHEMA + READINGS,
    'queries/users.cql': 'SELECT name FROM ks.users WHERE id = ?;\n',
    'queries/readings.cql': WRITE,
  };

  /** JSON results by file (relative), message texts only. */
  const messages = (stdout: string, dir: string): Record<string, string[]> =>
    Object.fromEntries(
      (JSON.parse(stdout) as JsonResult[]).map((r) => [
        r.filePath.slice(dir.length + 1),
        r.messages.map((m) => `${m.ruleId}: ${m.message}`),
      ]),
    );
  const lint = async (dir: string, cache: boolean): Promise<Record<string, string[]>> => {
    const run = await runCli(['lint', '-f', 'json', ...(cache ? ['--cache'] : []), '.'], { cwd: dir });
    assert.notEqual(run.code, 2, run.stderr);
    return messages(run.stdout, dir);
  };
  /** Rewrites every cached message, so that a result served from the cache can be told from a fresh one. */
  const tamper = (dir: string): void => {
    const file = path.join(dir, '.cqlintcache');
    const cache = JSON.parse(readFileSync(file, 'utf8')) as {
      entries: Record<string, { findings: { message: string }[] }>;
    };
    for (const entry of Object.values(cache.entries))
      for (const finding of entry.findings) finding.message = `CACHED ${finding.message}`;
    writeFileSync(file, JSON.stringify(cache));
  };
  const cachedFiles = (result: Record<string, string[]>): string[] =>
    Object.keys(result)
      .filter((f) => result[f]!.some((m) => m.includes('CACHED')))
      .sort();

  test('a re-run with nothing changed is served from the cache, and gives what a fresh run gives', async (t) => {
    const temp = tempDir(files);
    t.after(() => temp.cleanup());
    const fresh = await lint(temp.dir, false);
    assert.deepEqual(await lint(temp.dir, true), fresh);
    assert.ok(existsSync(temp.path('.cqlintcache')));
    tamper(temp.dir);
    assert.deepEqual(
      cachedFiles(await lint(temp.dir, true)),
      ['schema.cql'],
      'every file with findings comes from the cache',
    );
  });

  test('editing a query re-lints the files whose findings read queries, and only them', async (t) => {
    const temp = tempDir(files);
    t.after(() => temp.cleanup());
    await lint(temp.dir, true);
    tamper(temp.dir);
    // Every write now sets a TTL: the readings partitions are bounded, schema.cql's finding changes.
    writeFileSync(temp.path('queries/readings.cql'), WRITE.replace(';\n', ' USING TTL 86400;\n'));
    writeFileSync(temp.path('queries/users.cql'), 'SELECT nme FROM ks.users WHERE id = ?;\n');
    await lint(temp.dir, true);
    tamper(temp.dir);
    writeFileSync(temp.path('queries/readings.cql'), WRITE);
    const result = await lint(temp.dir, true);
    assert.deepEqual(cachedFiles(result), ['queries/users.cql'], 'users.cql reads no queries: still from the cache');
    const fresh = await lint(temp.dir, false);
    assert.deepEqual(result['schema.cql'], fresh['schema.cql']);
    assert.ok(
      fresh['schema.cql']!.some((m) => m.startsWith('unbounded-partition')),
      'without a TTL the readings grow without bound',
    );
  });

  test("never stale: schema, query, config, a new file, another engine, a broken cache all give a fresh run's results", async (t) => {
    const temp = tempDir(files);
    t.after(() => temp.cleanup());
    const steps: [string, () => void][] = [
      [
        'a column renamed in the schema',
        () => writeFileSync(temp.path('schema.cql'), (SCHEMA + READINGS).replace('name text', 'full_name text')),
      ],
      [
        'a TTL on every write',
        () => writeFileSync(temp.path('queries/readings.cql'), WRITE.replace(';\n', ' USING TTL 86400;\n')),
      ],
      [
        'a rule turned off in .cqlint.json',
        () => writeFileSync(temp.path('.cqlint.json'), JSON.stringify({ rules: { 'unknown-column': 'off' } })),
      ],
      [
        'another target in .cqlint.json',
        () => writeFileSync(temp.path('.cqlint.json'), JSON.stringify({ target: 'keyspaces' })),
      ],
      ['a new file that defines a table', () => writeFileSync(temp.path('more.cql'), HOT)],
      ['a file removed', () => rmSync(temp.path('more.cql'))],
      [
        'a cache from another engine',
        () => {
          tamper(temp.dir);
          const file = temp.path('.cqlintcache');
          writeFileSync(file, readFileSync(file, 'utf8').replace(/"engine":"[^"]*"/, '"engine":"0.0.0:other"'));
        },
      ],
      ['a broken cache file', () => writeFileSync(temp.path('.cqlintcache'), '{"format":1,"engine":')],
    ];
    await lint(temp.dir, true);
    for (const [what, change] of steps) {
      change();
      const cached = await lint(temp.dir, true);
      assert.deepEqual(cached, await lint(temp.dir, false), what);
      assert.deepEqual(cachedFiles(cached), [], what);
    }
  });

  test('--cache-location; the cache is not used with --fix or --stdin; --cache-location alone is a usage error', async (t) => {
    const temp = tempDir(files);
    t.after(() => temp.cleanup());
    await runCli(['lint', '--cache', '--cache-location', 'build/lint-cache.json', '.'], { cwd: temp.dir });
    assert.ok(existsSync(temp.path('build/lint-cache.json')));
    assert.ok(!existsSync(temp.path('.cqlintcache')));
    await runCli(['lint', '--cache', '--fix-dry-run', '.'], { cwd: temp.dir });
    await runCli(['lint', '--cache', '--stdin'], { cwd: temp.dir, stdin: HOT });
    assert.ok(!existsSync(temp.path('.cqlintcache')));
    const alone = await runCli(['lint', '--cache-location', 'x', '.'], { cwd: temp.dir });
    assert.equal(alone.code, 2);
    assert.match(alone.stderr, /--cache-location needs --cache/);
  });
});

describe('progress on stderr', () => {
  const terminal = (isTTY: boolean, env: Record<string, string> = {}) => {
    let stderr = '';
    let stdout = '';
    const io = {
      stdout: { write: (t: string) => (stdout += t) },
      stderr: { write: (t: string) => (stderr += t), isTTY },
      cwd: '/',
      env,
    };
    return { io, out: () => ({ stdout, stderr }) };
  };

  test('a terminal gets one line redrawn in place, after a moment, at most every 100 ms, erased before other output and at the end', () => {
    let clock = 0;
    const { io, out } = terminal(true);
    const bar = progress(io, () => clock);
    bar.update('reading', 1, 7720);
    clock = 400;
    bar.update('reading', 2, 7720);
    assert.equal(out().stderr, '', 'nothing in the first half second');
    clock = 600;
    bar.update('reading', 1234, 7720);
    clock = 650;
    bar.update('reading', 1300, 7720);
    assert.equal(out().stderr, '\r\u001b[Kcqlint: reading 1,234/7,720 files', 'one redraw per 100 ms');
    const stdout = bar.around(io.stdout);
    stdout.write('results\n');
    assert.deepEqual(out(), { stdout: 'results\n', stderr: '\r\u001b[Kcqlint: reading 1,234/7,720 files\r\u001b[K' });
    clock = 800;
    bar.update('linting', 10, 7720);
    bar.end();
    assert.ok(out().stderr.endsWith('\r\u001b[Kcqlint: linting 10/7,720 files\r\u001b[K'));
  });

  test('nothing in a pipe or on CI', () => {
    for (const [isTTY, env] of [
      [false, {}],
      [true, { CI: 'true' }],
    ] as const) {
      let clock = 0;
      const { io, out } = terminal(isTTY, env);
      const bar = progress(io, () => clock);
      clock = 10_000;
      bar.update('linting', 1, 2);
      bar.end();
      assert.equal(out().stderr, '');
    }
  });

  test('a lint run on a terminal: the output is untouched and no progress is left behind', async (t) => {
    const temp = tempDir({ 'hot.cql': HOT, 'schema.cql': SCHEMA });
    t.after(() => temp.cleanup());
    const plain = await runCli(['lint', temp.dir]);
    const onTerminal = await runCli(['lint', temp.dir], { stderrTty: true });
    assert.equal(onTerminal.stdout, plain.stdout);
    assert.equal(onTerminal.stderr.replace(/\r\u001b\[K(cqlint: \w+ [\d,]+\/[\d,]+ files)?/g, ''), '');
  });
});

describe('headline and details in the output formats', () => {
  test('json: message is the headline, details the rest; sarif: message.text and message.markdown; compact: the headline', async (t) => {
    const temp = tempDir({ 'hot.cql': HOT });
    t.after(() => temp.cleanup());
    const json = (
      JSON.parse((await runCli(['lint', '-f', 'json', temp.dir])).stdout) as (JsonResult & {
        messages: { details?: string }[];
      })[]
    )[0]!.messages[0]!;
    assert.equal(json.message, 'hot partition in ks.books: every write of the same publish_date goes to one partition');
    assert.match(json.details!, /^The partition key \(publish_date\) is a time bucket alone[\s\S]*Shard it: /);
    const sarif = JSON.parse((await runCli(['lint', '-f', 'sarif', temp.dir])).stdout) as {
      runs: { results: { message: { text: string; markdown?: string } }[] }[];
    };
    const result = sarif.runs[0]!.results[0]!;
    assert.equal(result.message.text, json.message);
    assert.equal(result.message.markdown, `${json.message}\n\n${json.details}`);
    const compact = await runCli(['lint', '-f', 'compact', temp.dir]);
    assert.match(
      compact.stdout,
      /Warning - hot partition in ks\.books: every write of the same publish_date goes to one partition \(hot-partition\)\n/,
    );
    assert.doesNotMatch(compact.stdout, /Shard it/);
  });

  test('stylish wraps the details to the terminal width, under the message', async (t) => {
    const temp = tempDir({ 'hot.cql': HOT });
    t.after(() => temp.cleanup());
    for (const columns of [60, 140]) {
      let stdout = '';
      await main(['lint', '--no-color', temp.dir], {
        stdout: { write: (s: string) => (stdout += s), isTTY: true, columns },
        stderr: { write: () => true },
        cwd: temp.dir,
        env: {},
      });
      const lines = stdout.split('\n').filter((l) => /^ {4,}\S/.test(l) && !/hot-partition$/.test(l));
      assert.ok(lines.length > 2);
      // A word longer than the width (a URL) gets a line of its own.
      for (const line of lines)
        assert.ok(
          line.length <= Math.max(columns, 18 + 40) || !/\S\s+\S/.test(line.trim()),
          `${columns}: ${line.length}: ${line}`,
        );
      assert.ok(
        lines.some((line) => line.length > columns - 25),
        `${columns}: the lines use the width`,
      );
    }
  });
});
