// The one file reader and writer (server/core/io/files.ts): what it refuses and why, what it keeps.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { describeIoError, findCqlFiles, readTextFile, readTextFileSync, type ReadOptions, type ReadResult } from '../../server/core/io/files';
import { writeTextFile, WriteRefusedError } from '../../server/core/io/write';
import { describe as describeValue, findConfigFor, loadConfigFile } from '../../server/core/config';

function temp(t: { after(fn: () => void): void }): (relative: string, content?: string | Uint8Array) => string {
  const dir = mkdtempSync(path.join(tmpdir(), 'cqlint-files-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return (relative, content) => {
    const full = path.join(dir, relative);
    if (content !== undefined) {
      mkdirSync(path.dirname(full), { recursive: true });
      writeFileSync(full, content);
    }
    return full;
  };
}

/** Both readers, which must agree; the stamp (checked on its own) is left out of the result. */
async function readBoth(file: string, options?: ReadOptions): Promise<ReadResult> {
  const sync = readTextFileSync(file, options);
  const async = await readTextFile(file, options);
  assert.deepEqual(sync, async, 'the sync and async readers agree');
  if (async.ok) {
    const { stamp, ...rest } = async;
    assert.equal(stamp?.size, statSync(file).size);
    return rest;
  }
  return async;
}

/** A reader of a named pipe in another process (`cat`), so that this one can write into it. */
function pipeReader(fifo: string): Promise<string> {
  const child = spawn('cat', [fifo], { stdio: ['ignore', 'pipe', 'ignore'] });
  let text = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
  return new Promise((resolve) => child.on('close', () => resolve(text)));
}

describe('readTextFile', () => {
  test('reads UTF-8, reporting a BOM', async (t) => {
    const at = temp(t);
    assert.deepEqual(await readBoth(at('a.cql', 'SELECT 1;\r\n')), { ok: true, text: 'SELECT 1;\r\n', bom: false });
    assert.deepEqual(await readBoth(at('b.cql', '\uFEFFSELECT 1;')), { ok: true, text: 'SELECT 1;', bom: true });
    assert.deepEqual(await readBoth(at('empty.cql', '')), { ok: true, text: '', bom: false });
  });

  test('refuses what is not a regular file, naming what it is', async (t) => {
    const at = temp(t);
    const fifo = at('pipe.cql');
    assert.equal(spawnSync('mkfifo', [fifo]).status, 0);
    assert.deepEqual(await readBoth(fifo), { ok: false, reason: 'not-a-file', message: 'not a regular file (a named pipe)' });
    assert.deepEqual(await readBoth('/dev/zero'), { ok: false, reason: 'not-a-file', message: 'not a regular file (a character device)' });
    mkdirSync(at('folder'));
    assert.deepEqual(await readBoth(at('folder')), { ok: false, reason: 'not-a-file', message: 'not a regular file (a directory)' });
    assert.deepEqual(await readBoth(at('missing.cql')), { ok: false, reason: 'io', message: 'no such file or directory' });
  });

  test('caps the size per kind (or as asked)', async (t) => {
    const at = temp(t);
    const file = at('big.json', 'x'.repeat(2000));
    assert.deepEqual(await readBoth(file, { maxBytes: 1999 }), { ok: false, reason: 'too-large', message: 'file is 2000 bytes, over the 1999 bytes limit' });
    assert.equal((await readBoth(file, { maxBytes: 2000 })).ok, true);
    const config = at('big-config.json', Buffer.alloc(1024 * 1024 + 1, 0x20));
    assert.match((await readBoth(config, { kind: 'config' }) as { message: string }).message, /over the 1 MiB limit/);
    assert.equal((await readBoth(config, { kind: 'source' })).ok, true);
  });

  test('refuses invalid UTF-8 (Latin-1), UTF-16 and binary', async (t) => {
    const at = temp(t);
    assert.equal((await readBoth(at('latin1.cql', Buffer.from('caf\xe9', 'latin1'))) as { reason: string }).reason, 'encoding');
    assert.equal((await readBoth(at('utf16.cql', Buffer.from('\uFEFFhi', 'utf16le'))) as { reason: string }).reason, 'encoding');
    assert.equal((await readBoth(at('bin.cql', Buffer.from([0x41, 0, 0x42]))) as { reason: string }).reason, 'binary');
  });

  test('with roots: refuses a path whose real location is outside them', async (t) => {
    const at = temp(t);
    const outside = at('outside/secret.cql', 'SECRET');
    const inside = at('ws/ok.cql', 'SELECT 1;');
    symlinkSync(outside, at('ws/link.cql'));
    const roots = [path.dirname(inside)];
    assert.equal((await readBoth(inside, { roots })).ok, true);
    assert.deepEqual(await readBoth(at('ws/link.cql'), { roots }), { ok: false, reason: 'outside-workspace', message: 'the file (or the link it goes through) is outside the workspace' });
    assert.equal((await readBoth(at('ws/../outside/secret.cql'), { roots })).ok, false);
    assert.equal((await readBoth(at('ws/link.cql'))).ok, true, 'without roots links are followed');
  });
});

describe('writeTextFile', () => {
  test('replaces the content atomically, keeping permissions, a BOM when asked, and links', async (t) => {
    const at = temp(t);
    const file = at('f.cql', 'old');
    chmodSync(file, 0o640);
    await writeTextFile(file, 'new\r\n', { bom: true });
    assert.deepEqual([...readFileSync(file)], [0xef, 0xbb, 0xbf, ...Buffer.from('new\r\n')]);
    assert.equal(statSync(file).mode & 0o777, 0o640);
    symlinkSync(file, at('link.cql'));
    await writeTextFile(at('link.cql'), 'via link');
    assert.equal(readFileSync(file, 'utf8'), 'via link', 'the link still points at the file, which holds the text');
    assert.deepEqual(readdirSync(path.dirname(file)).sort(), ['f.cql', 'link.cql'], 'no temporary file is left');
  });

  test('with the stamp of a read: writes while the file is as read, refuses an edit saved meanwhile and keeps it', async (t) => {
    const at = temp(t);
    const file = at('f.cql', 'select a from t;\n');
    const read = await readTextFile(file);
    assert.ok(read.ok && read.stamp);
    // An edit of the same size, its modification time put back: only the content hash can tell.
    const { mtime } = statSync(file);
    writeFileSync(file, 'select b from t;\n');
    utimesSync(file, mtime, mtime);
    await assert.rejects(writeTextFile(file, 'SELECT a FROM t;\n', { expected: read.stamp }), (error: Error) => error instanceof WriteRefusedError && /changed on disk since it was read/.test(error.message));
    assert.equal(readFileSync(file, 'utf8'), 'select b from t;\n', 'the edit saved meanwhile is kept');
    const again = await readTextFile(file);
    assert.ok(again.ok);
    assert.equal(await writeTextFile(file, 'SELECT b FROM t;\n', { expected: again.stamp }), 'replaced');
    assert.equal(readFileSync(file, 'utf8'), 'SELECT b FROM t;\n');
    rmSync(file);
    await assert.rejects(writeTextFile(file, 'x', { expected: again.stamp }), /deleted or moved since it was read/);
    assert.deepEqual(readdirSync(path.dirname(file)), [], 'not created again, no temporary file left');
  });

  test('never replaces what is not a regular file: a named pipe is written into (stream) or refused', async (t) => {
    const at = temp(t);
    const fifo = at('out.pipe');
    assert.equal(spawnSync('mkfifo', [fifo]).status, 0);
    await assert.rejects(writeTextFile(fifo, 'x'), /not a regular file \(a named pipe\)/);
    const big = 'x'.repeat(300_000); // more than a pipe holds: the writer waits for the reader
    const read = pipeReader(fifo);
    assert.equal(await writeTextFile(fifo, big, { special: 'stream' }), 'streamed');
    assert.equal(await read, big);
    assert.ok(lstatSync(fifo).isFIFO(), 'still a named pipe');
    await assert.rejects(writeTextFile(fifo, 'x', { special: 'stream', pipeWaitMs: 300 }), /no process opened the named pipe for reading/);
    const readOnce = await readTextFile(at('f.cql', 'a'));
    assert.ok(readOnce.ok);
    rmSync(at('f.cql'));
    assert.equal(spawnSync('mkfifo', [at('f.cql')]).status, 0);
    await assert.rejects(writeTextFile(at('f.cql'), 'b', { expected: readOnce.stamp, special: 'stream' }), /no longer a regular file \(a named pipe\)/);
    mkdirSync(at('folder'));
    await assert.rejects(writeTextFile(at('folder'), 'x', { special: 'stream' }), /not a regular file \(a directory\)/);
    assert.deepEqual(readdirSync(path.dirname(fifo)).sort(), ['f.cql', 'folder', 'out.pipe']);
  });

  test('system errors are worded for people', () => {
    for (const [code, words] of [['ENOSPC', 'no space left on the device'], ['EROFS', 'read-only file system'], ['EACCES', 'permission denied'], ['EPIPE', 'broken pipe']]) {
      assert.match(describeIoError(Object.assign(new Error(`${code}: raw`), { code })), new RegExp(words));
    }
  });
});

describe('findCqlFiles', () => {
  test('lists regular CQL files; FIFOs, dangling links and links out of the roots are skipped with why', async (t) => {
    const at = temp(t);
    at('ws/a.cql', '');
    at('ws/sub/b.cqlsh', '');
    at('outside/c.cql', '');
    assert.equal(spawnSync('mkfifo', [at('ws/pipe.cql')]).status, 0);
    symlinkSync(at('outside/c.cql'), at('ws/out.cql'));
    symlinkSync(at('nowhere.cql'), at('ws/dangling.cql'));
    const ws = at('ws');
    const walk = await findCqlFiles(ws, { roots: [ws] });
    assert.deepEqual(walk.files.map((f) => path.relative(ws, f)), ['a.cql', path.join('sub', 'b.cqlsh')]);
    assert.deepEqual(walk.skipped.map((s) => `${path.relative(ws, s.path)}: ${s.message}`), [
      'dangling.cql: no such file or directory',
      'out.cql: the file (or the link it goes through) is outside the workspace',
      'pipe.cql: not a regular file (a named pipe)',
    ]);
    const unconfined = await findCqlFiles(ws);
    assert.ok(unconfined.files.some((f) => f.endsWith('out.cql')), 'without roots a link to a file is followed');
  });
});

describe('config files', () => {
  test('a deeply nested value is described briefly, never by recursion', () => {
    const deep = JSON.parse(`${'['.repeat(100_000)}${']'.repeat(100_000)}`);
    assert.equal(describeValue(deep), '[[[[...]]]]');
    assert.equal(describeValue({ a: 1, b: 'x' }), '{"a": 1, "b": "x"}');
    assert.match(describeValue('y'.repeat(500)), /^"y{79}\.\.\.$/);
  });

  test('findConfigFor stops at the workspace folder that holds the file', (t) => {
    const at = temp(t);
    const outer = at('.cqlint.json', '{}');
    const file = at('ws/sub/q.cql', '');
    assert.equal(findConfigFor(file), outer, 'without boundaries: up to the root, like ESLint');
    assert.equal(findConfigFor(file, [at('ws')]), undefined);
    const inner = at('ws/.cqlint.json', '{}');
    assert.equal(findConfigFor(file, [at('ws')]), inner);
    assert.equal(findConfigFor(at('elsewhere/q.cql', ''), [at('ws')]), undefined, 'outside every folder: its own folder only');
  });

  test('loadConfigFile never throws: FIFOs, devices and JSON errors are errors', (t) => {
    const at = temp(t);
    const fifo = at('.cqlint.json');
    assert.equal(spawnSync('mkfifo', [fifo]).status, 0);
    assert.match(loadConfigFile(fifo).errors[0].message, /cannot read the file: not a regular file \(a named pipe\)/);
    assert.match(loadConfigFile('/dev/zero').errors[0].message, /not a regular file \(a character device\)/);
    assert.match(loadConfigFile(at('bad.json', '{"target": ')).errors[0].message, /not valid JSON/);
    const prototypeKeys = loadConfigFile(at('proto.json', '{"tables": {"constructor": {"constructor": 1}}}'));
    assert.deepEqual(prototypeKeys.errors.map((e) => e.key), ['tables.constructor.constructor']);
  });
});
