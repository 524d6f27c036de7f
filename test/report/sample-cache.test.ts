// The sample cache: a summary is read once per (path, mtime, size, reading key) and reused by lint runs,
// re-renders and schema edits elsewhere; an edit of the sampled table, a changed file or a cancelled read
// are read again. Bad files (missing, a FIFO, a folder) give a clear reason at once, never a hang.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { utimesSync } from 'node:fs';
import { Project } from '../../server/core/engine/project';
import { SampleCache } from '../../server/core/report/sample-cache';
import { SampleReadError } from '../../server/core/report/sample';
import { tempDir } from '../cli/helpers';

const SCHEMA = 'CREATE TABLE ks.posts (day date, id int, body text, PRIMARY KEY (day, id));\n';
const CSV = ['day,id,body', '2024-01-01,1,aaa', '2024-01-01,2,bbbb', '2024-01-02,3,c'].join('\n');

function setup(t: { after(fn: () => void): void }, files: Record<string, string> = {}) {
  const temp = tempDir({ 'schema.cql': SCHEMA, 'posts.csv': CSV, ...files });
  t.after(() => temp.cleanup());
  const project = new Project({ config: {} });
  project.setFile(temp.path('schema.cql'), SCHEMA);
  const table = () => project.tableFor(temp.path('schema.cql'), 'ks.posts')!;
  const request = (file = temp.path('posts.csv')) => ({
    table: table(),
    schema: project.schema(),
    setting: { file, name: 'posts.csv' },
  });
  return { temp, project, request };
}

test('cache: read once per file state; a changed file, a changed table or another shard formula is read again', async (t) => {
  const { temp, project, request } = setup(t);
  const cache = new SampleCache();
  const first = await cache.get(request());
  assert.equal(first.fresh, true);
  assert.equal(first.summary.partitions, 2);
  assert.equal(first.summary.name, 'posts.csv');
  const again = await cache.get(request());
  assert.equal(again.fresh, false, 'same path, mtime, size and table: from the cache');
  assert.equal(again.summary, first.summary);
  assert.equal(cache.latest(temp.path('posts.csv'), 'ks.posts'), first.summary);

  // An edit elsewhere in the schema keeps the summary; an edit of the table's columns does not.
  project.setFile(
    temp.path('other.cql'),
    'CREATE TABLE ks.other (id int PRIMARY KEY);\nSELECT * FROM ks.posts WHERE day = ?;',
  );
  assert.equal((await cache.get(request())).fresh, false, 'another table and a query: no re-read');
  project.setFile(temp.path('schema.cql'), SCHEMA.replace('body text', 'body text, likes int'));
  const reshaped = await cache.get(request());
  assert.equal(reshaped.fresh, true, 'the sampled table changed: read again');
  assert.equal(
    (await cache.get({ ...request(), shard: { method: 'murmur3', sources: ['id'], count: 4, offset: 1 } })).fresh,
    true,
    'another spread formula',
  );

  temp.write('posts.csv', `${CSV}\n2024-01-03,4,d`);
  utimesSync(temp.path('posts.csv'), new Date(), new Date(Date.now() + 5000));
  const changed = await cache.get(request());
  assert.equal(changed.fresh, true);
  assert.equal(changed.summary.partitions, 3);
});

test('cache: concurrent requests share one reading; a cancelled reading is not kept', async (t) => {
  const { request } = setup(t);
  const cache = new SampleCache();
  const [a, b] = await Promise.all([cache.get(request()), cache.get(request())]);
  assert.equal(a.summary, b.summary, 'one reading for both');
  const other = new SampleCache();
  const cancelled = await other.get({ ...request(), isCancelled: () => true });
  assert.equal(cancelled.summary.cancelled, true);
  assert.equal(
    other.latest(request().setting.file, 'ks.posts'),
    undefined,
    'a partial summary is never handed to the rules',
  );
});

test(
  'cache: a missing file, a folder and a FIFO are refused at once with the reason',
  { skip: process.platform === 'win32' },
  async (t) => {
    const { temp, request } = setup(t);
    const cache = new SampleCache();
    await assert.rejects(
      cache.get(request(temp.path('missing.csv'))),
      (e: unknown) => e instanceof SampleReadError && /no such file/.test(e.message),
    );
    await assert.rejects(cache.get(request(temp.dir)), /not a regular file \(a directory\)/);
    const fifo = temp.path('pipe.csv');
    assert.equal(spawnSync('mkfifo', [fifo]).status, 0, 'mkfifo');
    const started = Date.now();
    await assert.rejects(cache.get(request(fifo)), /not a regular file \(a named pipe\)/);
    assert.ok(Date.now() - started < 2000, 'no wait for a writer');
    await assert.rejects(cache.get({ ...request(), roots: [temp.path('elsewhere')] }), /outside the workspace/);
  },
);
