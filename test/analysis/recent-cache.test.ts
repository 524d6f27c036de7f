// The bounded caches: RecentCache itself, and the workload cache built on it (answers for the tables asked
// about lately, not one per table of the model: see schema/workload.ts).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { RecentCache, WeakRecentCache } from '../../server/core/util/recent-cache';
import { Project } from '../../server/core/engine/project';
import { WORKLOADS_KEPT, tableWorkload } from '../../server/core/schema/workload';

describe('RecentCache', () => {
  test('keeps at most twice its capacity, letting the oldest answers go first', () => {
    const cache = new RecentCache<number, string>(3);
    for (let i = 0; i < 10; i++) cache.set(i, `v${i}`);
    assert.ok(cache.size <= 6, `size ${cache.size}`);
    assert.equal(cache.get(0), undefined);
    assert.equal(cache.get(9), 'v9');
  });

  test('an answer asked again moves to the newer generation and outlives the ones not asked', () => {
    const cache = new RecentCache<string, number>(2);
    cache.set('a', 1);
    cache.set('b', 2);
    cache.set('c', 3); // a, b are now the older generation
    assert.equal(cache.get('a'), 1); // back in the newer one, with c
    cache.set('d', 4); // the newer generation was full: {c, a} become the older, b is let go
    assert.equal(cache.get('b'), undefined);
    assert.equal(cache.get('a'), 1);
    assert.equal(cache.get('c'), 3);
    assert.equal(cache.get('d'), 4);
  });

  test('setting a key it holds replaces the answer without starting a generation', () => {
    const cache = new RecentCache<string, number>(1);
    cache.set('a', 1);
    cache.set('a', 2);
    assert.equal(cache.get('a'), 2);
    assert.equal(cache.size, 1);
  });

  test('clear lets go of both generations', () => {
    const cache = new RecentCache<string, number>(2);
    for (const [i, key] of ['a', 'b', 'c'].entries()) cache.set(key, i);
    cache.clear();
    assert.equal(cache.size, 0);
    assert.equal(cache.get('a'), undefined);
    assert.equal(cache.get('c'), undefined);
    cache.set('d', 4);
    assert.equal(cache.get('d'), 4);
  });

  test('refuses a capacity below one', () => {
    assert.throws(() => new RecentCache(0), RangeError);
  });
});

describe('WeakRecentCache', () => {
  test('keeps the answers of the last generations only, as RecentCache does', () => {
    const cache = new WeakRecentCache<object, string>(2);
    const keys = Array.from({ length: 5 }, () => ({}));
    for (const [i, key] of keys.entries()) cache.set(key, `v${i}`);
    // {k0, k1} went when {k2, k3} became the older generation; k4 is in the newer one.
    assert.equal(cache.get(keys[0]!), undefined);
    assert.equal(cache.get(keys[1]!), undefined);
    assert.equal(cache.get(keys[4]!), 'v4');
    assert.equal(cache.get(keys[2]!), 'v2'); // moved to the newer generation, beside k4
    cache.set({}, 'x'); // the newer one was full: {k4, k2} become the older, k3 is let go
    assert.equal(cache.get(keys[3]!), undefined);
    assert.equal(cache.get(keys[2]!), 'v2');
  });

  test('setting a key it holds replaces the answer without starting a generation', () => {
    const cache = new WeakRecentCache<object, number>(1);
    const a = {};
    const b = {};
    cache.set(b, 0);
    cache.set(a, 1); // b is now older
    cache.set(a, 2);
    assert.equal(cache.get(a), 2);
    assert.equal(cache.get(b), 0);
  });

  test('clear lets go of both generations; refuses a capacity below one', () => {
    const cache = new WeakRecentCache<object, number>(2);
    const keys = [{}, {}, {}];
    for (const [i, key] of keys.entries()) cache.set(key, i);
    cache.clear();
    for (const key of keys) assert.equal(cache.get(key), undefined);
    assert.throws(() => new WeakRecentCache(0), RangeError);
  });
});

describe('tableWorkload cache', () => {
  const project = new Project({ config: {} });
  project.setFile(
    '/s.cql',
    'CREATE TABLE ks.events (server text, log_time timestamp, message text, PRIMARY KEY (server, log_time));',
  );
  const table = project.schema().table('ks', 'events')!;

  test('answers the same question about the same table with the same object', () => {
    assert.equal(tableWorkload(table), tableWorkload(table));
  });

  test('lets the answer of a table not asked since go once many other tables were asked, and computes it again alike', () => {
    const first = tableWorkload(table);
    for (let i = 0; i < 2 * WORKLOADS_KEPT + 1; i++) tableWorkload({ ...table });
    const again = tableWorkload(table);
    assert.notEqual(again, first);
    assert.deepEqual(again, first);
  });
});
