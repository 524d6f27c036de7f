// The one file reader and writer (server/core/io/files.ts): what it refuses and why, what it keeps.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { findCqlFiles, readTextFile, readTextFileSync, writeTextFile, type ReadOptions, type ReadResult } from '../../server/core/io/files';
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

/** Both readers, which must agree. */
async function readBoth(file: string, options?: ReadOptions): Promise<ReadResult> {
  const sync = readTextFileSync(file, options);
  const async = await readTextFile(file, options);
  assert.deepEqual(sync, async, 'the sync and async readers agree');
  return async;
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
