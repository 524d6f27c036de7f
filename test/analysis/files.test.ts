// The one file reader and writer (server/core/io/files.ts): what it refuses and why, what it keeps.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import {
  chmodSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import {
  describeIoError,
  findCqlFiles,
  readTextFile,
  readTextFileSync,
  type ReadOptions,
  type ReadResult,
} from '../../server/core/io/files';
import { BatchWriteError, WriteBatch, writeTextFile, WriteRefusedError } from '../../server/core/io/write';
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
    assert.deepEqual(await readBoth(fifo), {
      ok: false,
      reason: 'not-a-file',
      message: 'not a regular file (a named pipe)',
    });
    assert.deepEqual(await readBoth('/dev/zero'), {
      ok: false,
      reason: 'not-a-file',
      message: 'not a regular file (a character device)',
    });
    mkdirSync(at('folder'));
    assert.deepEqual(await readBoth(at('folder')), {
      ok: false,
      reason: 'not-a-file',
      message: 'not a regular file (a directory)',
    });
    assert.deepEqual(await readBoth(at('missing.cql')), {
      ok: false,
      reason: 'io',
      message: 'no such file or directory',
    });
  });

  test('caps the size per kind (or as asked)', async (t) => {
    const at = temp(t);
    const file = at('big.json', 'x'.repeat(2000));
    assert.deepEqual(await readBoth(file, { maxBytes: 1999 }), {
      ok: false,
      reason: 'too-large',
      message: 'file is 2000 bytes, over the 1999 bytes limit',
    });
    assert.equal((await readBoth(file, { maxBytes: 2000 })).ok, true);
    const config = at('big-config.json', Buffer.alloc(1024 * 1024 + 1, 0x20));
    assert.match(((await readBoth(config, { kind: 'config' })) as { message: string }).message, /over the 1 MiB limit/);
    assert.equal((await readBoth(config, { kind: 'source' })).ok, true);
  });

  test('refuses invalid UTF-8 (Latin-1), UTF-16 and binary', async (t) => {
    const at = temp(t);
    assert.equal(
      ((await readBoth(at('latin1.cql', Buffer.from('caf\xe9', 'latin1')))) as { reason: string }).reason,
      'encoding',
    );
    assert.equal(
      ((await readBoth(at('utf16.cql', Buffer.from('\uFEFFhi', 'utf16le')))) as { reason: string }).reason,
      'encoding',
    );
    assert.equal(
      ((await readBoth(at('bin.cql', Buffer.from([0x41, 0, 0x42])))) as { reason: string }).reason,
      'binary',
    );
  });

  test('with roots: refuses a path whose real location is outside them', async (t) => {
    const at = temp(t);
    const outside = at('outside/secret.cql', 'SECRET');
    const inside = at('ws/ok.cql', 'SELECT 1;');
    symlinkSync(outside, at('ws/link.cql'));
    const roots = [path.dirname(inside)];
    assert.equal((await readBoth(inside, { roots })).ok, true);
    assert.deepEqual(await readBoth(at('ws/link.cql'), { roots }), {
      ok: false,
      reason: 'outside-workspace',
      message: 'the file (or the link it goes through) is outside the workspace',
    });
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
    await assert.rejects(
      writeTextFile(file, 'SELECT a FROM t;\n', { expected: read.stamp }),
      (error: Error) => error instanceof WriteRefusedError && /changed on disk since it was read/.test(error.message),
    );
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
    await assert.rejects(
      writeTextFile(fifo, 'x', { special: 'stream', pipeWaitMs: 300 }),
      /no process opened the named pipe for reading/,
    );
    const readOnce = await readTextFile(at('f.cql', 'a'));
    assert.ok(readOnce.ok);
    rmSync(at('f.cql'));
    assert.equal(spawnSync('mkfifo', [at('f.cql')]).status, 0);
    await assert.rejects(
      writeTextFile(at('f.cql'), 'b', { expected: readOnce.stamp, special: 'stream' }),
      /no longer a regular file \(a named pipe\)/,
    );
    mkdirSync(at('folder'));
    await assert.rejects(writeTextFile(at('folder'), 'x', { special: 'stream' }), /not a regular file \(a directory\)/);
    assert.deepEqual(readdirSync(path.dirname(fifo)).sort(), ['f.cql', 'folder', 'out.pipe']);
  });

  test('system errors are worded for people', () => {
    for (const [code, words] of [
      ['ENOSPC', 'no space left on the device'],
      ['EROFS', 'read-only file system'],
      ['EACCES', 'permission denied'],
      ['EPIPE', 'broken pipe'],
    ]) {
      assert.match(describeIoError(Object.assign(new Error(`${code}: raw`), { code })), new RegExp(words));
    }
  });
});

describe('writes stay inside their roots', () => {
  test('a link out of the roots is refused and the file it points at kept; a new file is judged by its folder; no roots: anywhere', async (t) => {
    const at = temp(t);
    const outside = at('outside/.bashrc', 'export PATH=/usr/bin\n');
    const ws = path.dirname(at('ws/schema.cql', 'x'));
    symlinkSync(outside, at('ws/.cqlintcache'));
    symlinkSync(path.dirname(outside), at('ws/report-pages'));
    for (const target of [at('ws/.cqlintcache'), at('ws/report-pages/ks.html')]) {
      await assert.rejects(
        writeTextFile(target, '{}', { roots: [ws] }),
        (error: Error) =>
          error instanceof WriteRefusedError &&
          /leads outside the project, to .*outside.*; not written \(name it on the command line/.test(error.message),
      );
    }
    assert.equal(readFileSync(outside, 'utf8'), 'export PATH=/usr/bin\n');
    assert.deepEqual(readdirSync(path.dirname(outside)), ['.bashrc'], 'nothing created beside it');
    assert.equal(await writeTextFile(at('ws/new.html'), 'x', { roots: [ws] }), 'created');
    assert.equal(
      await writeTextFile(at('ws/.cqlintcache'), '{}'),
      'replaced',
      'a path the user named is written where it leads',
    );
    assert.equal(readFileSync(outside, 'utf8'), '{}');
  });
});

describe('WriteBatch: several files all or nothing', () => {
  const stamped = async (
    file: string,
  ): Promise<{ bom: boolean; stamp: NonNullable<Extract<ReadResult, { ok: true }>['stamp']> }> => {
    const read = await readTextFile(file);
    assert.ok(read.ok && read.stamp);
    return { bom: read.bom, stamp: read.stamp };
  };
  const leftovers = (dir: string): string[] => readdirSync(dir).filter((name) => name.includes('.cqlint-'));

  test('writes every file, keeping BOMs, or none when one changed on disk since its read (a same-size edit included)', async (t) => {
    const at = temp(t);
    const files = ['a.cql', 'b.cql', 'c.cql'].map((name) => at(`ws/${name}`, `select ${name} from t;\n`));
    const dir = path.dirname(files[0]!);
    const reads = await Promise.all(files.map(stamped));
    // c.cql is rewritten with the same size, its time put back: only its hash tells.
    const { mtime } = statSync(files[2]!);
    writeFileSync(files[2]!, 'select X.cql from t;\n');
    utimesSync(files[2]!, mtime, mtime);
    const batch = new WriteBatch();
    await batch.add(files[0]!, 'A', { expected: reads[0]!.stamp, bom: true });
    await batch.add(files[1]!, 'B', { expected: reads[1]!.stamp });
    await assert.rejects(
      batch.add(files[2]!, 'C', { expected: reads[2]!.stamp }),
      (error: Error) =>
        error instanceof BatchWriteError && error.path === files[2] && /changed on disk/.test(error.message),
    );
    assert.deepEqual(
      files.map((f) => readFileSync(f, 'utf8')),
      ['select a.cql from t;\n', 'select b.cql from t;\n', 'select X.cql from t;\n'],
      'nothing replaced',
    );
    assert.deepEqual(leftovers(dir), [], 'no temporary file or backup left');

    const again = await Promise.all(files.map(stamped));
    const ok = new WriteBatch();
    for (const [i, f] of files.entries()) await ok.add(f, `new ${i}\n`, { expected: again[i]!.stamp, bom: i === 0 });
    await ok.commit();
    assert.deepEqual([...readFileSync(files[0]!)].slice(0, 3), [0xef, 0xbb, 0xbf]);
    assert.deepEqual(
      files.map((f) => readFileSync(f, 'utf8').replace('\uFEFF', '')),
      ['new 0\n', 'new 1\n', 'new 2\n'],
    );
    assert.deepEqual(leftovers(dir), []);
  });

  test('a new file (create) is never written over one: refused when it exists, and when one appears before the commit', async (t) => {
    const at = temp(t);
    const edited = at('ws/a.cql', 'select a from t;\n');
    const dir = path.dirname(edited);
    const taken = at('ws/v002_x.cql', 'mine\n');
    const refused = new WriteBatch();
    await assert.rejects(
      refused.add(taken, 'CREATE TABLE ks.x (id int PRIMARY KEY);\n', { create: true }),
      (error: Error) =>
        error instanceof BatchWriteError && error.path === taken && /exists already/.test(error.message),
    );
    assert.equal(readFileSync(taken, 'utf8'), 'mine\n');

    const fresh = path.join(dir, 'v003_y.cql');
    const read = await stamped(edited);
    const raced = new WriteBatch();
    await raced.add(edited, 'A\n', { expected: read.stamp });
    await raced.add(fresh, 'new\n', { create: true });
    writeFileSync(fresh, 'made meanwhile\n');
    await assert.rejects(
      raced.commit(),
      (error: Error) => error instanceof BatchWriteError && /created meanwhile/.test(error.message),
    );
    assert.equal(readFileSync(fresh, 'utf8'), 'made meanwhile\n');
    assert.equal(readFileSync(edited, 'utf8'), 'select a from t;\n', 'the other file is put back');
    rmSync(fresh);

    const ok = new WriteBatch();
    await ok.add(edited, 'A\n', { expected: (await stamped(edited)).stamp });
    await ok.add(fresh, 'new\n', { create: true });
    await ok.commit();
    assert.deepEqual([readFileSync(edited, 'utf8'), readFileSync(fresh, 'utf8')], ['A\n', 'new\n']);
    assert.deepEqual(leftovers(dir), []);
  });

  test('an edit saved after every file was staged, or a file deleted: commit refuses and replaces none', async (t) => {
    const at = temp(t);
    const files = ['a.cql', 'b.cql'].map((name) => at(`ws/${name}`, `select ${name} from t;\n`));
    for (const change of [(f: string) => writeFileSync(f, 'edited meanwhile;\n'), (f: string) => rmSync(f)]) {
      for (const f of files) writeFileSync(f, `select ${path.basename(f)} from t;\n`);
      const reads = await Promise.all(files.map(stamped));
      const batch = new WriteBatch();
      for (const [i, f] of files.entries()) await batch.add(f, 'NEW', { expected: reads[i]!.stamp });
      change(files[1]!);
      await assert.rejects(
        batch.commit(),
        (error: Error) => error instanceof BatchWriteError && error.path === files[1],
      );
      assert.equal(readFileSync(files[0]!, 'utf8'), 'select a.cql from t;\n', 'the first file is not replaced');
      assert.deepEqual(leftovers(path.dirname(files[0]!)), []);
    }
  });

  test('a rename that fails half way puts back the files already replaced', async (t) => {
    const at = temp(t);
    const files = ['a.cql', 'b.cql', 'c.cql'].map((name) => at(`ws/${name}`, `old ${name}\n`));
    const dir = path.dirname(files[0]!);
    const batch = new WriteBatch();
    for (const f of files) await batch.add(f, 'NEW\n', { expected: (await stamped(f)).stamp });
    // The third file's staged content disappears (another process cleaning the folder): its rename fails.
    rmSync(
      path.join(
        dir,
        readdirSync(dir).find((name) => name.startsWith('.c.cql.cqlint-') && name.endsWith('.tmp'))!,
      ),
    );
    await assert.rejects(
      batch.commit(),
      (error: Error) =>
        error instanceof BatchWriteError && error.path === files[2] && /no such file/.test(error.message),
    );
    assert.deepEqual(
      files.map((f) => readFileSync(f, 'utf8')),
      ['old a.cql\n', 'old b.cql\n', 'old c.cql\n'],
    );
    assert.deepEqual(leftovers(dir), []);
  });

  test('two names of one file (a link beside it) are refused, not written twice', async (t) => {
    const at = temp(t);
    const file = at('ws/a.cql', 'a\n');
    symlinkSync(file, at('ws/b.cql'));
    const batch = new WriteBatch();
    await batch.add(file, 'A\n', { expected: (await stamped(file)).stamp });
    await assert.rejects(
      batch.add(at('ws/b.cql'), 'B\n', { expected: (await stamped(at('ws/b.cql'))).stamp }),
      /the same file as .*a\.cql/,
    );
    assert.equal(readFileSync(file, 'utf8'), 'a\n');
    assert.deepEqual(leftovers(path.dirname(file)), []);
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
    assert.deepEqual(
      walk.files.map((f) => path.relative(ws, f)),
      ['a.cql', path.join('sub', 'b.cqlsh')],
    );
    assert.deepEqual(
      walk.skipped.map((s) => `${path.relative(ws, s.path)}: ${s.message}`),
      [
        'dangling.cql: no such file or directory',
        'out.cql: the file (or the link it goes through) is outside the workspace',
        'pipe.cql: not a regular file (a named pipe)',
      ],
    );
    const unconfined = await findCqlFiles(ws);
    assert.ok(
      unconfined.files.some((f) => f.endsWith('out.cql')),
      'without roots a link to a file is followed',
    );
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
    assert.equal(
      findConfigFor(at('elsewhere/q.cql', ''), [at('ws')]),
      undefined,
      'outside every folder: its own folder only',
    );
  });

  test('loadConfigFile never throws: FIFOs, devices and JSON errors are errors', (t) => {
    const at = temp(t);
    const fifo = at('.cqlint.json');
    assert.equal(spawnSync('mkfifo', [fifo]).status, 0);
    assert.match(loadConfigFile(fifo).errors[0].message, /cannot read the file: not a regular file \(a named pipe\)/);
    assert.match(loadConfigFile('/dev/zero').errors[0].message, /not a regular file \(a character device\)/);
    assert.match(loadConfigFile(at('bad.json', '{"target": ')).errors[0].message, /not valid JSON/);
    const prototypeKeys = loadConfigFile(at('proto.json', '{"tables": {"constructor": {"constructor": 1}}}'));
    assert.deepEqual(
      prototypeKeys.errors.map((e) => e.key),
      ['tables.constructor.constructor'],
    );
  });
});
