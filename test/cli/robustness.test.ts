// Hostile inputs against the BUILT command line (node bin/cqlint.js, the way users run it): files that
// are not files, huge files, deep configs, wrong encodings, unreadable folders. Each case must end with
// exit 0, 1 or 2 and a clear message, never a stack trace, and never hang (generous time limits catch a
// hang; nothing here is timed). CQLINT_TEST_BIN runs the suite against another build (e.g. an old one)
// and CQLINT_TEST_HANG_MS shortens the hang limit for that.
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync, type SpawnSyncOptions } from 'node:child_process';
import {
  chmodSync,
  copyFileSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { MAX_FILE_BYTES } from '../../server/core/io/files';
import { projectRoot } from './helpers';

const cliBin = process.env.CQLINT_TEST_BIN ?? path.join(projectRoot, 'bin', 'cqlint.js');
/** Long enough for a slow shared machine; a hang is what it catches. */
const HANG_LIMIT_MS = Number(process.env.CQLINT_TEST_HANG_MS) || 120_000;

interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
}

function cqlint(
  args: string[],
  cwd: string,
  { bin = cliBin, ...options }: SpawnSyncOptions & { bin?: string } = {},
): Run {
  const run = spawnSync(process.execPath, [bin, ...args], {
    cwd,
    encoding: 'utf8',
    timeout: HANG_LIMIT_MS,
    maxBuffer: 64 * 1024 * 1024,
    ...options,
  });
  return {
    status: run.status,
    stdout: String(run.stdout ?? ''),
    stderr: String(run.stderr ?? ''),
    timedOut: (run.error as NodeJS.ErrnoException | undefined)?.code === 'ETIMEDOUT' || run.signal !== null,
  };
}

/** The user `nobody`: root runs the CLI as this user where root's own rights would hide a failure. */
const NOBODY = 65534;

/**
 * A copy of the built CLI (the bin script and its bundle, which needs nothing else) in `folder`, readable by
 * every user: returns the copy of the bin script.
 */
function cliCopyIn(folder: string): string {
  const bin = path.join(folder, 'bin', path.basename(cliBin));
  const bundle = path.join(folder, 'dist', 'cli.js');
  for (const [from, to] of [
    [cliBin, bin],
    [path.join(path.dirname(cliBin), '..', 'dist', 'cli.js'), bundle],
  ] as const) {
    mkdirSync(path.dirname(to), { recursive: true, mode: 0o755 });
    copyFileSync(from, to);
    chmodSync(to, 0o644);
  }
  for (const made of [folder, path.dirname(bin), path.dirname(bundle)]) chmodSync(made, 0o755);
  return bin;
}

/** The same, without blocking the test's event loop (a reader in another process must be served meanwhile). */
function cqlintAsync(args: string[], cwd: string): Promise<Run> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [cliBin, ...args], { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), HANG_LIMIT_MS);
    child.on('close', (status, signal) => {
      clearTimeout(timer);
      resolve({ status, stdout, stderr, timedOut: signal !== null });
    });
  });
}

/** A process reading a named pipe to its end (`cat fifo`): what it read, once it has ended or been stopped. */
function readerOf(fifo: string): { text(): Promise<string>; stop(): void } {
  const child = spawn('cat', [fifo], { stdio: ['ignore', 'pipe', 'ignore'] });
  let text = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
  const ended = new Promise<string>((resolve) => child.on('close', () => resolve(text)));
  return { text: () => ended, stop: () => child.kill('SIGKILL') };
}

/** Ended by itself with the expected code, a message matching `message`, and no stack trace. */
function assertClearFailure(run: Run, expectedStatus: number, message: RegExp): void {
  assert.equal(run.timedOut, false, `hung or was killed\nstderr: ${run.stderr}`);
  assert.equal(run.status, expectedStatus, `stdout: ${run.stdout}\nstderr: ${run.stderr}`);
  assert.match(run.stderr, message);
  assert.doesNotMatch(run.stderr, /\n\s+at .+:\d+:\d+\)?\n|RangeError|TypeError|internal error/, run.stderr);
}

const SCHEMA = "CREATE KEYSPACE blog WITH replication = {'class': 'NetworkTopologyStrategy', 'dc1': 3};\n";
const UGLY = 'create table blog.t (id uuid primary key, v text);\n';
const DEEP = 100_000;

describe('cqlint on hostile input (built binary)', () => {
  let dir = '';
  const at = (relative: string): string => path.join(dir, relative);
  const write = (relative: string, content: string | Uint8Array): string => {
    mkdirSync(path.dirname(at(relative)), { recursive: true });
    writeFileSync(at(relative), content);
    return at(relative);
  };
  const mkfifo = (relative: string): string => {
    mkdirSync(path.dirname(at(relative)), { recursive: true });
    const made = spawnSync('mkfifo', [at(relative)]);
    assert.equal(made.status, 0, `mkfifo failed: ${made.stderr}`);
    return at(relative);
  };

  before(() => {
    if (!process.env.CQLINT_TEST_BIN && !existsSync(path.join(projectRoot, 'dist', 'cli.js'))) {
      const build = spawnSync(process.execPath, ['scripts/build.mjs'], { cwd: projectRoot, encoding: 'utf8' });
      assert.equal(build.status, 0, `npm run build failed:\n${build.stderr}`);
    }
    dir = mkdtempSync(path.join(tmpdir(), 'cqlint-robust-'));
    write('schema/keyspace.cql', SCHEMA);
    mkfifo('pipe.cql');
    mkfifo('pipe.json');
    write('deep.json', `{"target": ${'['.repeat(DEEP)}${']'.repeat(DEEP)}}`);
    write('latin1.cql', Buffer.from('-- caf\xe9\nselect a from t;\n', 'latin1'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  test('lint --config <FIFO | /dev/zero>: refused, not read', () => {
    assertClearFailure(
      cqlint(['lint', '--config', 'pipe.json', 'schema'], dir),
      2,
      /pipe\.json: cannot read the file: not a regular file \(a named pipe\)/,
    );
    assertClearFailure(
      cqlint(['lint', '--config', '/dev/zero', 'schema'], dir),
      2,
      /\/dev\/zero: cannot read the file: not a regular file \(a character device\)/,
    );
  });

  test(`a config nested ${DEEP} levels deep: the key is named, exit 2 (--config and discovered)`, () => {
    assertClearFailure(
      cqlint(['lint', '--config', 'deep.json', 'schema'], dir),
      2,
      /deep\.json: target: must be one of .*got \[\[\[/,
    );
    write('deepcfg/.cqlint.json', readFileSync(at('deep.json')));
    write('deepcfg/q.cql', SCHEMA);
    assertClearFailure(cqlint(['lint', 'deepcfg'], dir), 2, /\.cqlint\.json: target: must be one of/);
  });

  test('lint and format of a folder holding a FIFO named *.cql: skipped with a note, the rest handled', () => {
    mkfifo('withpipe/blocked.cql');
    write('withpipe/ugly.cql', UGLY);
    const lint = cqlint(['lint', 'withpipe'], dir);
    assert.equal(lint.timedOut, false);
    assert.ok(lint.status === 0 || lint.status === 1, lint.stderr);
    assert.match(lint.stderr, /skipping withpipe\/blocked\.cql: not a regular file \(a named pipe\)/);
    const format = cqlint(['format', 'withpipe'], dir);
    assert.equal(format.timedOut, false);
    assert.equal(format.status, 0, format.stderr);
    assert.match(format.stdout, /withpipe\/ugly\.cql/);
    assert.notEqual(readFileSync(at('withpipe/ugly.cql'), 'utf8'), UGLY);
  });

  test('format and lint of a FIFO or /dev/zero named on the command line: exit 2', () => {
    for (const command of ['format', 'lint']) {
      assertClearFailure(
        cqlint([command, 'pipe.cql'], dir),
        2,
        /cannot read pipe\.cql: not a regular file or folder \(a named pipe\)/,
      );
      assertClearFailure(
        cqlint([command, '/dev/zero'], dir),
        2,
        /cannot read \/dev\/zero: not a regular file or folder \(a character device\)/,
      );
    }
  });

  test('format of a Latin-1 file refuses it as lint does, and leaves it untouched', () => {
    const before = readFileSync(at('latin1.cql'));
    assertClearFailure(cqlint(['format', 'latin1.cql'], dir), 2, /cannot read latin1\.cql: file is not valid UTF-8/);
    assertClearFailure(cqlint(['format', '--check', 'latin1.cql'], dir), 2, /not valid UTF-8/);
    assertClearFailure(cqlint(['lint', 'latin1.cql'], dir), 2, /not valid UTF-8/);
    assert.ok(readFileSync(at('latin1.cql')).equals(before));
  });

  test(`a file over the ${MAX_FILE_BYTES.source / (1024 * 1024)} MiB source limit: lint and format refuse it, exit 2`, () => {
    const line = "INSERT INTO blog.t (id, v) VALUES (5b6962dd-3f90-4c93-8f61-eabfa4a803e2, 'x');\n";
    write('huge/dump.cql', line.repeat(Math.ceil((MAX_FILE_BYTES.source + 1) / line.length)));
    for (const args of [
      ['lint', 'huge'],
      ['format', '--check', 'huge'],
      ['format', 'huge/dump.cql'],
    ]) {
      assertClearFailure(cqlint(args, dir), 2, /cannot read huge\/dump\.cql: file is .* over the 16 MiB limit/);
    }
  });

  /**
   * Root reads and writes any folder: a test of permissions runs as an unprivileged user then, from a copy
   * of the built CLI that user can reach (the checkout may sit where only root can enter, e.g. under /root
   * or in a `mktemp -d` folder). Undefined (the test skipped) when that user cannot run it.
   */
  const unprivileged = (
    t: { skip(message: string): void },
    copyFolder: string,
    what: string,
  ): { bin: string; spawnAs: SpawnSyncOptions; asRoot: boolean } | undefined => {
    if (process.getuid?.() !== 0) return { bin: cliBin, spawnAs: {}, asRoot: false };
    chmodSync(dir, 0o755);
    const bin = cliCopyIn(at(copyFolder));
    const spawnAs = { uid: NOBODY, gid: NOBODY };
    const probe = cqlint(['--version'], dir, { ...spawnAs, bin });
    if (probe.status === 0) return { bin, spawnAs, asRoot: true };
    t.skip(
      `user ${NOBODY} cannot run ${process.execPath} ${bin} (${/^\w*Error: .*$/m.exec(probe.stderr)?.[0] ?? `exit ${probe.status}`}): ${what} cannot be tested as root`,
    );
    return undefined;
  };

  test('an unreadable subfolder is named, and the readable files are still handled', (t) => {
    write('perm/readable/ugly.cql', UGLY);
    write('perm/locked/hidden.cql', UGLY);
    const user = unprivileged(t, 'unprivileged', 'an unreadable folder');
    if (!user) return;
    const { bin, spawnAs, asRoot } = user;
    if (asRoot) {
      for (const folder of ['perm', 'perm/readable']) chmodSync(at(folder), 0o777);
      chmodSync(at('perm/readable/ugly.cql'), 0o666);
    }
    chmodSync(at('perm/locked'), 0o000);
    try {
      const format = cqlint(['format', 'perm'], dir, { ...spawnAs, bin });
      assertClearFailure(format, 2, /cannot read folder perm\/locked: permission denied/);
      assert.match(format.stdout, /perm\/readable\/ugly\.cql/);
      assert.notEqual(readFileSync(at('perm/readable/ugly.cql'), 'utf8'), UGLY, 'the readable file was formatted');
      const lint = cqlint(['lint', '--format', 'json', 'perm'], dir, { ...spawnAs, bin });
      assertClearFailure(lint, 2, /cannot read folder perm\/locked: permission denied/);
      assert.deepEqual(
        (JSON.parse(lint.stdout) as { filePath: string }[]).map((r) => path.relative(dir, r.filePath)),
        ['perm/readable/ugly.cql'],
      );
    } finally {
      chmodSync(at('perm/locked'), 0o755);
    }
  });

  test('token --schema <FIFO | /dev/zero> and --ring <FIFO | /dev/zero | huge>: refused', () => {
    assertClearFailure(
      cqlint(['token', '--schema', 'pipe.cql', 'blog.t', '1'], dir),
      2,
      /cannot read pipe\.cql: not a regular file or folder \(a named pipe\)/,
    );
    assertClearFailure(
      cqlint(['token', '--schema', '/dev/zero', 'blog.t', '1'], dir),
      2,
      /cannot read \/dev\/zero: not a regular file or folder/,
    );
    assertClearFailure(
      cqlint(['token', '--types', 'int', '--ring', 'pipe.json', '1'], dir),
      2,
      /cannot read ring file pipe\.json: not a regular file \(a named pipe\)/,
    );
    assertClearFailure(
      cqlint(['token', '--types', 'int', '--ring', '/dev/zero', '1'], dir),
      2,
      /cannot read ring file \/dev\/zero: not a regular file \(a character device\)/,
    );
    write('bigring.txt', Buffer.alloc(MAX_FILE_BYTES.ring + 1, 0x20));
    assertClearFailure(
      cqlint(['token', '--types', 'int', '--ring', 'bigring.txt', '1'], dir),
      2,
      /cannot read ring file bigring\.txt: file is .* over the 32 MiB limit/,
    );
  });

  test('token: a ring file of secrets is refused without quoting it', () => {
    write('creds.json', '{"aws_secret_access_key": "wJalrXUtnFEMIK7MDENG"}');
    const run = cqlint(['token', '--types', 'int', '--ring', 'creds.json', '1'], dir);
    assertClearFailure(run, 2, /cqlint token: node 1, token 1: not a token/);
    assert.doesNotMatch(run.stderr, /aws|wJalr/);
  });

  test("token --schema: the README's mixed positional and name=value example gives shard 9, the exact token and its replicas", () => {
    const run = cqlint(
      ['token', '--schema', 'examples/', 'blog.posts_by_day_sharded', '2020-07-09', "title='Hello'"],
      projectRoot,
    );
    assert.equal(run.status, 0, run.stderr);
    // murmur3_x86_32('Hello') % 16 + 1 = 9; token of (date '2020-07-09', int 9), checked with cassandra-driver's Murmur3Tokenizer.
    // The range and replicas come from the ring examples/.cqlint.json names and the keyspace's 'dc1': 3.
    assert.equal(
      run.stdout,
      '-8648689022905049911\nshard: 9 (shard = murmur3(title) % 16 + 1)\nrange: (-9223372036854774808, -6917529027641080856]\nreplicas: 10.0.0.2, 10.0.0.3, 10.0.0.4\n',
    );
  });

  test('token --schema: a key column named constructor works (no plain-object maps)', () => {
    write('odd/odd.cql', 'CREATE TABLE ks.odd ("constructor" int, v text, PRIMARY KEY ("constructor", v));\n');
    const named = cqlint(['token', '--schema', 'odd', 'ks.odd', '"constructor"=1'], dir);
    assert.equal(named.status, 0, named.stderr);
    assert.equal(named.stdout, '-4069959284402364209\n'); // int 1, Cassandra's own dtests
    // Without a value for it, the column is missing (a plain object would find Object.prototype.constructor).
    assertClearFailure(
      cqlint(['token', '--schema', 'odd', 'ks.odd', 'v=x'], dir),
      2,
      /^cqlint token: missing value for partition key column constructor\n$/,
    );
  });

  test('--max-warnings -1 is accepted, as the help offers', () => {
    const run = cqlint(['lint', '--max-warnings', '-1', 'schema'], dir);
    assert.equal(run.timedOut, false);
    assert.equal(run.status, 0, run.stderr);
  });

  test('output piped into a reader that stops early (cqlint lint | head): no crash, the usual exit code', async () => {
    const child = spawn(process.execPath, [cliBin, 'lint', 'examples/'], {
      cwd: projectRoot,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    // Read the first chunk only, then go away, as `head -1` does.
    await new Promise<void>((resolve) => child.stdout.once('data', () => resolve()));
    child.stdout.destroy();
    const status = await new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
    assert.equal(stderr, '', 'nothing on stderr (no EPIPE stack trace)');
    assert.equal(status, 1, 'the examples have one error: exit 1, as when the whole output is read');
  });

  test('a symbolic link loop and a dangling link named *.cql are skipped with a note', () => {
    write('links/ok.cql', SCHEMA);
    symlinkSync('loop.cql', at('links/loop.cql'));
    symlinkSync('missing-target', at('links/dangling.cql'));
    const run = cqlint(['lint', 'links'], dir);
    assert.equal(run.timedOut, false);
    assert.equal(run.status, 0, run.stderr);
    assert.match(run.stderr, /skipping links\/dangling\.cql: no such file or directory/);
    assert.match(run.stderr, /skipping links\/loop\.cql: too many symbolic links/);
  });

  test('report --out <a named pipe, or a link to one>: written into (a reader gets the HTML), never replaced', async () => {
    for (const out of ['out/report.pipe', 'out/link.html']) {
      const fifo = mkfifo('out/report.pipe');
      if (out === 'out/link.html' && !existsSync(at(out))) symlinkSync('report.pipe', at(out));
      const reader = readerOf(fifo);
      const run = await cqlintAsync(['report', '--out', out, 'schema'], dir);
      // The reader ends by itself once the report is written and the pipe closed (stopping it at once could
      // lose what it has not read yet). An old build renames a file over the pipe, and the reader then waits
      // for ever: stop it then, and after the hang limit.
      if (!lstatSync(fifo).isFIFO()) reader.stop();
      const hang = setTimeout(() => reader.stop(), HANG_LIMIT_MS);
      const html = await reader.text();
      clearTimeout(hang);
      assert.equal(run.timedOut, false);
      assert.equal(run.status, 0, run.stderr);
      assert.ok(lstatSync(fifo).isFIFO(), `${out}: the named pipe is still a named pipe`);
      assert.match(html, /^<!DOCTYPE html>/i, `${out}: the reader got the report`);
      assert.match(html, /<\/html>\s*$/i, `${out}: the whole report`);
      assert.match(
        run.stderr,
        /cqlint report: wrote /,
        'the summary goes to stderr, out of the way of a streamed report',
      );
      rmSync(fifo);
    }
    assert.ok(lstatSync(at('out/link.html')).isSymbolicLink(), 'the link is still a link');
  });

  test('report --out and --diagram <missing folders>/file: the folders are made, the files written', () => {
    rmSync(at('build'), { recursive: true, force: true });
    const run = cqlint(
      ['report', '--out', 'build/cqlint/report.html', '--diagram', 'build/svg/keyspaces.svg', 'schema'],
      dir,
    );
    assert.equal(run.status, 0, run.stderr);
    assert.match(readFileSync(at('build/cqlint/report.html'), 'utf8'), /^<!DOCTYPE html>/i);
    assert.match(readFileSync(at('build/svg/keyspaces.svg'), 'utf8'), /<svg\b/);
    writeFileSync(at('build/file'), 'not a folder');
    assertClearFailure(
      cqlint(['report', '--out', 'build/file/report.html', 'schema'], dir),
      2,
      /cannot write build\/file\/report\.html/,
    );
    rmSync(at('build'), { recursive: true, force: true });
  });

  test('report --out <a folder>: refused with exit 2, the folder untouched', () => {
    mkdirSync(at('outdir'), { recursive: true });
    assertClearFailure(cqlint(['report', '--out', 'outdir', 'schema'], dir), 2, /cannot write outdir: .*(directory)/);
    assert.ok(statSync(at('outdir')).isDirectory());
  });

  test('a hostile sample CSV (a line of 20 M commas, a 13 MB key cell, 400,000 distinct keys): report and lint finish within a 160 MB heap', () => {
    write('hostile/schema.cql', 'CREATE TABLE ks.kv (k text, c int, v text, PRIMARY KEY (k, c));\n');
    write('hostile/.cqlint.json', JSON.stringify({ samples: { 'ks.kv': 'kv.csv' } }));
    const rows: string[] = [];
    for (let i = 0; i < 400_000; i++) rows.push(`key-${i},1,value`);
    write(
      'hostile/kv.csv',
      `${rows.slice(0, 1000).join('\n')}\n${','.repeat(20_000_000)}\n${'k'.repeat(13_000_000)},1,v\n${rows.slice(1000).join('\n')}\n`,
    );
    const env = { ...process.env, NODE_OPTIONS: '--max-old-space-size=160' };
    const report = cqlint(['report', '--out', 'hostile/report.html', 'hostile'], dir, { env });
    assert.equal(report.timedOut, false);
    assert.equal(report.status, 0, report.stderr);
    assert.doesNotMatch(report.stderr, /heap out of memory|FATAL/);
    const html = readFileSync(at('hostile/report.html'), 'utf8');
    assert.match(html, /more than 4096 fields/, 'the line of commas is a malformed row');
    assert.match(html, /holds 13000000 characters|longer than 8388608 characters/, 'the huge key cell is refused');
    const lint = cqlint(['lint', 'hostile'], dir, { env });
    assert.equal(lint.timedOut, false);
    assert.ok(lint.status === 0 || lint.status === 1, lint.stderr);
  });

  test('a .cqlint.json from the repository cannot make report or lint read, or quote, a file outside the project', () => {
    const secret = 'root:x:0:0:SECRET-LINE-1,2,3';
    write('secret/passwd', `${secret}\n${secret}\n`);
    write('secret/conf.json', `${secret}\n`);
    const schema = 'CREATE TABLE ks.kv (k text, c int, v text, PRIMARY KEY (k, c));\n';
    // Samples and a ring named outside (relative and absolute), and a config linked to a file outside.
    write('proj/schema.cql', schema);
    write(
      'proj/.cqlint.json',
      JSON.stringify({ samples: { 'ks.kv': '../secret/passwd', kv: at('secret/passwd') }, ring: '../secret/passwd' }),
    );
    write('linked/schema.cql', schema);
    symlinkSync(at('secret/conf.json'), at('linked/.cqlint.json'));
    for (const run of [
      cqlint(['report', '--out', 'proj/report.html', 'proj'], dir),
      cqlint(['lint', 'proj'], dir),
      cqlint(['lint', 'linked'], dir),
      cqlint(['report', '--out', 'linked/report.html', 'linked'], dir),
    ]) {
      assert.equal(run.timedOut, false);
      assert.equal(run.status, 2, run.stderr);
      assert.match(run.stderr, /outside the workspace/);
      assert.doesNotMatch(run.stdout + run.stderr, /SECRET|root:x/);
    }
    for (const html of ['proj/report.html', 'linked/report.html'])
      assert.doesNotMatch(readFileSync(at(html), 'utf8'), /SECRET|root:x/);
    // A config named on the command line is read wherever it is; what it names stays within its folder and the inputs.
    const named = cqlint(['lint', '--config', 'secret/conf.json', 'proj'], dir);
    assert.equal(named.status, 2);
    assert.match(named.stderr, /secret\/conf\.json: not valid JSON \(line 1, column 1\)/, 'where, not what');
    assert.doesNotMatch(named.stderr, /SECRET/);
  });

  test('fix with a file it cannot write (a read-only folder): nothing is written, and fix still finishes once it can', (t) => {
    const workspace = path.join(projectRoot, 'test', 'fixes', 'workspaces', 'invoices-calculated', 'before');
    const files = ['schema/invoices.cql', 'queries/invoices.cql'];
    for (const file of files) write(`readonly/${file}`, readFileSync(path.join(workspace, file)));
    const user = unprivileged(t, 'unprivileged-fix', 'a read-only folder');
    if (!user) return;
    const { bin, spawnAs } = user;
    if (user.asRoot) {
      for (const folder of ['readonly', 'readonly/schema']) chmodSync(at(folder), 0o777);
      chmodSync(at('readonly/schema/invoices.cql'), 0o666);
    }
    chmodSync(at('readonly/queries/invoices.cql'), 0o444);
    chmodSync(at('readonly/queries'), 0o555);
    try {
      const run = cqlint(['fix', '--table', 'billing.invoices_by_day', 'readonly'], dir, { ...spawnAs, bin });
      assertClearFailure(
        run,
        2,
        /cannot write readonly\/queries\/invoices\.cql: (the file is read-only|permission denied); nothing was written \(1 other file left as it was\)/,
      );
      for (const file of files)
        assert.equal(
          readFileSync(at(`readonly/${file}`), 'utf8'),
          readFileSync(path.join(workspace, file), 'utf8'),
          `${file} is as it was`,
        );
    } finally {
      chmodSync(at('readonly/queries'), 0o777);
      chmodSync(at('readonly/queries/invoices.cql'), 0o666);
    }
    const again = cqlint(['fix', '--table', 'billing.invoices_by_day', 'readonly'], dir, { ...spawnAs, bin });
    assert.equal(again.status, 0, again.stderr);
    assert.match(again.stdout, /wrote readonly\/schema\/invoices\.cql, readonly\/queries\/invoices\.cql/);
  });

  test('a 12 MB statement (under the 16 MiB file cap), its lines ended by lone CRs: every command refuses it by line, on stdin too, exit 2', () => {
    write(
      'dense/dense.cql',
      `-- one statement\rCREATE TABLE ks.t (id int PRIMARY KEY, a int);\rSELECT ${'a, '.repeat(4_000_000)}a FROM ks.t WHERE id = 1;\r`,
    );
    for (const args of [
      ['lint', 'dense'],
      ['format', '--check', 'dense'],
      ['report', '--out', 'dense/report.html', 'dense'],
    ]) {
      assertClearFailure(
        cqlint(args, dir),
        2,
        /cannot analyse dense\/dense\.cql: statement at line 3 too large to analyse \(about \d+ tokens, limit 50000\)/,
      );
    }
    // stdin goes through the same guards as a file (it skipped them: 21 s and 4 GB for 16 MB, exit 0).
    assertClearFailure(
      cqlint(['lint', '--stdin'], dir, { input: readFileSync(at('dense/dense.cql')) }),
      2,
      /cannot analyse stdin: statement at line 3 too large to analyse \(about \d+ tokens, limit 50000\)/,
    );
  });
});
