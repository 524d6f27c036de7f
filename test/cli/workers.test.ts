// `cqlint lint` in worker threads (server/cli/lint-workers.ts): the same output, byte for byte, as on one
// thread, in every format; and a worker that fails ends the run with an error instead of hanging it.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { availableParallelism } from 'node:os';
import { lintInWorkers, workerCount } from '../../server/cli/lint-workers';
import { corpusFiles, readText } from '../helpers/corpus';
import { projectRoot, runCli, tempDir } from './helpers';

/**
 * A workspace of `count` files built from the corpus as ../shared/tools/make-workspace.py builds the bench's:
 * runs of consecutive corpus files, keyspaces renamed so that a few files share each one and queries
 * resolve across files.
 */
function generatedWorkspace(count: number): Record<string, string> {
  const texts = [...corpusFiles('cassandra-docs'), ...corpusFiles('killrvideo')].map(
    (f) => readText(f).trimEnd() + '\n',
  );
  const keyspaces = /\b(cycling|killrvideo|excalibur|excelsior|catalogkeyspace|cqlkeyspace|vsearch|store)\b/g;
  const files: Record<string, string> = {};
  let next = 0;
  for (let i = 0; i < count; i++) {
    const parts: string[] = [];
    for (let size = 0; size < 6000; next++) {
      const text = texts[next % texts.length]!;
      parts.push(text);
      size += text.length;
    }
    files[`svc${String(i % 7).padStart(2, '0')}/${String(i).padStart(4, '0')}.cql`] = parts
      .join('\n')
      .replace(keyspaces, (k) => `${k}_${i % 25}`);
  }
  return files;
}

/** Where two outputs first differ (they are megabytes: an assertion would print them whole). */
function firstDifference(a: string, b: string): number {
  let i = 0;
  while (i < a.length && a[i] === b[i]) i++;
  return i;
}

describe('cqlint lint in worker threads', () => {
  test('the output is the same, byte for byte, on the main thread and in one or three worker threads, in every format', async (t) => {
    const ws = tempDir(generatedWorkspace(120));
    t.after(() => ws.cleanup());
    for (const format of ['json', 'stylish', 'sarif']) {
      const one = await runCli(['lint', '--format', format, '.'], { cwd: ws.dir, env: { CQLINT_WORKERS: '0' } });
      const three = await runCli(['lint', '--format', format, '.'], {
        cwd: ws.dir,
        env: { CQLINT_WORKERS: '3', CQLINT_DEBUG: '1' },
      });
      assert.match(three.stderr, /linting 120 files in 3 worker threads/);
      assert.equal(one.stderr, '', one.stderr);
      assert.ok(one.stdout.length > 100_000, `${format}: ${one.stdout.length} bytes`);
      assert.ok(
        three.stdout === one.stdout,
        `${format}: the outputs differ from byte ${firstDifference(three.stdout, one.stdout)} on`,
      );
      assert.equal(three.code, one.code);
      if (format !== 'json') continue;
      // A lone worker holds the whole index itself: nothing is exchanged.
      const lone = await runCli(['lint', '--format', format, '.'], {
        cwd: ws.dir,
        env: { CQLINT_WORKERS: '1', CQLINT_DEBUG: '1' },
      });
      assert.match(lone.stderr, /linting 120 files in 1 worker threads?/);
      assert.ok(
        lone.stdout === one.stdout,
        `${format}: the outputs differ from byte ${firstDifference(lone.stdout, one.stdout)} on`,
      );
      assert.equal(lone.code, one.code);
    }
  });

  test('read failures and --max-warnings are reported as on one thread', async (t) => {
    const files = generatedWorkspace(12);
    const ws = tempDir({ ...files, 'svc00/bad.cql': new Uint8Array([0xff, 0xfe, 0x00, 0x41]) });
    t.after(() => ws.cleanup());
    const one = await runCli(['lint', '--max-warnings', '0', '.'], { cwd: ws.dir, env: { CQLINT_WORKERS: '0' } });
    const two = await runCli(['lint', '--max-warnings', '0', '.'], { cwd: ws.dir, env: { CQLINT_WORKERS: '2' } });
    assert.equal(one.code, 2);
    assert.equal(two.code, one.code);
    assert.ok(two.stdout === one.stdout, `the outputs differ from byte ${firstDifference(two.stdout, one.stdout)} on`);
    assert.equal(two.stderr, one.stderr);
    assert.match(two.stderr, /cannot read svc00\/bad\.cql/);
  });

  test('evidence (.cqlint.json and --evidence) is judged, warned about and failed on as on one thread', async (t) => {
    // examples/evidence names its captures (findings cite them); a tablestats capture with a line that is not
    // read is a warning (examples/ has errors: exit 1); a missing capture fails the run (exit 2).
    const broken = readText(path.join(projectRoot, 'test', 'fixtures', 'evidence', 'tablestats-4x.txt')).replace(
      'Compacted partition mean bytes: 1109',
      'Compacted partition mean bytes: lots',
    );
    const dir = tempDir({ 'ts.txt': broken });
    t.after(() => dir.cleanup());
    const runs = [
      {
        args: ['--evidence', path.join(dir.dir, 'ts.txt')],
        code: 1,
        stderr: /^cqlint: warning: evidence .*ts\.txt: 1 line not read/m,
      },
      {
        args: ['--evidence', 'no-such-capture.txt'],
        code: 2,
        stderr: /^cqlint: evidence no-such-capture\.txt: no such file or directory$/m,
      },
    ];
    for (const run of runs) {
      const args = ['lint', '--format', 'json', ...run.args, 'examples'];
      const one = await runCli(args, { cwd: projectRoot, env: { CQLINT_WORKERS: '0' } });
      const two = await runCli(args, { cwd: projectRoot, env: { CQLINT_WORKERS: '2', CQLINT_DEBUG: '1' } });
      assert.match(two.stderr, /in 2 worker threads/);
      assert.equal(one.code, run.code, one.stderr);
      assert.match(one.stderr, run.stderr);
      assert.match(one.stdout, /measured/i, 'the findings cite the evidence');
      assert.ok(
        two.stdout === one.stdout,
        `the outputs differ from byte ${firstDifference(two.stdout, one.stdout)} on`,
      );
      assert.equal(two.stderr.replace(/^cqlint: linting .*\n/m, ''), one.stderr);
      assert.equal(two.code, one.code);
    }
  });

  test('a worker that fails, or leaves before it finishes, ends the run with an error', async () => {
    for (const [script, message] of [
      ['crash.cjs', /failed: this worker fails on purpose/],
      ['exit.cjs', /stopped \(exit code 3\) before it finished/],
    ] as const) {
      const results: string[] = [];
      const run = lintInWorkers({
        workers: 2,
        setup: {},
        files: ['/a.cql', '/b.cql', '/c.cql'],
        read: async () => 'SELECT * FROM ks.t;',
        allRead: () => undefined,
        problem: () => undefined,
        warning: () => undefined,
        result: (r) => results.push(r.filePath),
        failed: () => undefined,
        entry: path.join(projectRoot, 'test', 'fixtures', 'workers', script),
      });
      await assert.rejects(run, message);
      assert.deepEqual(results, []);
    }
  });

  test('the main thread sends a worker at most 64 files it has not taken, and goes on as it takes them', async () => {
    const warnings: string[] = [];
    const files = Array.from({ length: 150 }, (_, i) => `/f${i}.cql`);
    let read = 0;
    await lintInWorkers({
      workers: 1,
      setup: {},
      files,
      read: async () => (read++, 'SELECT * FROM ks.t;'),
      allRead: (readFiles) => assert.deepEqual(readFiles, files),
      problem: () => undefined,
      warning: (warning) => warnings.push(warning),
      result: () => undefined,
      failed: () => undefined,
      entry: path.join(projectRoot, 'test', 'fixtures', 'workers', 'slow-taker.cjs'),
    });
    assert.equal(read, 150);
    assert.deepEqual(warnings, ['held 64 untaken']);
  });

  test('one worker per two cores and per 1,000 files, up to 4, none below 1,000; CQLINT_WORKERS decides when set', () => {
    const perTwoCores = Math.max(1, Math.floor(availableParallelism() / 2));
    assert.equal(workerCount(10, {}), 0, 'a few files stay on the main thread');
    assert.equal(workerCount(999, {}), 0);
    assert.equal(workerCount(1000, {}), 1, 'one worker from 1,000 files: its young generation is sized');
    assert.equal(workerCount(1999, {}), 1, 'two workers need 1,000 files each');
    assert.equal(workerCount(2000, {}), Math.min(perTwoCores, 2));
    assert.equal(
      workerCount(100_000, {}),
      Math.min(perTwoCores, 4),
      'each worker holds the whole index: at most 4 by default',
    );
    assert.equal(workerCount(2000, { CQLINT_WORKERS: '0' }), 0, 'none: the main thread lints');
    assert.equal(workerCount(2000, { CQLINT_WORKERS: '1' }), 1);
    assert.equal(workerCount(2000, { CQLINT_WORKERS: '4' }), 4);
    assert.equal(workerCount(2000, { CQLINT_WORKERS: '12' }), 12, 'asked for, more than the default cap');
    assert.equal(workerCount(2000, { CQLINT_WORKERS: '99' }), 16);
    assert.equal(workerCount(3, { CQLINT_WORKERS: '4' }), 3, 'never more workers than files');
    assert.equal(workerCount(2000, { CQLINT_WORKERS: 'many' }), workerCount(2000, {}));
    assert.equal(workerCount(2000, { CQLINT_WORKERS: '' }), workerCount(2000, {}));
    assert.equal(workerCount(2000, { CQLINT_WORKERS: '-1' }), workerCount(2000, {}));
  });
});
