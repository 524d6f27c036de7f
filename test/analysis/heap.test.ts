// The heap keeper (server/core/util/heap.ts): a long run's garbage leaves V8's old space fragmented, and
// the server compacts it once it goes idle, so that its memory comes back to what the schema needs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { compactHeap, createHeapKeeper } from '../../server/core/util/heap';

const MiB = 1024 * 1024;
const KEPT = 200_000;

/** Allocates about 250 MiB and keeps one object in twenty: the pages stay in use, mostly empty. */
function fragment(): { kept: object[] } {
  let all: object[] | undefined = [];
  const kept: object[] = [];
  for (let i = 0; i < KEPT * 20; i++) {
    const o = { i, list: [i] };
    all.push(o);
    if (i % 20 === 0) kept.push(o);
  }
  all = undefined;
  return { kept };
}

/** Heap pages V8 holds beyond what is alive. */
function slack(): number {
  const { heapTotal, heapUsed } = process.memoryUsage();
  return heapTotal - heapUsed;
}

const gc = (() => {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
})();

/** V8 sweeps and hands back free pages concurrently, after the collection returns. */
const pause = (ms: number): Promise<void> => new Promise((done) => setTimeout(done, ms));

/** A plain full collection, once V8 is done with it: what is left is fragmentation. */
async function fragmentedSlack(): Promise<number> {
  gc();
  await pause(400);
  const free = slack();
  assert.ok(free > 64 * MiB, `a plain collection leaves ${free / MiB | 0} MiB free in the heap`);
  return free;
}

test('compactHeap hands back the pages a plain collection leaves fragmented', async () => {
  const held = fragment();
  const before = await fragmentedSlack();
  assert.ok(compactHeap());
  await pause(400);
  assert.ok(slack() < before / 2, `free in the heap: ${before / MiB | 0} MiB -> ${slack() / MiB | 0} MiB`);
  assert.equal(held.kept.length, KEPT);
});

test('a keeper with compactWhenIdleMs compacts once work stops settling it', async () => {
  const keeper = createHeapKeeper({ floorBytes: 4096 * MiB, growth: 2, compactWhenIdleMs: 1000 });
  const held = fragment();
  keeper.settle();
  const before = await fragmentedSlack();
  await pause(1200);
  assert.ok(slack() < before / 2, `free in the heap: ${before / MiB | 0} MiB -> ${slack() / MiB | 0} MiB`);
  assert.equal(held.kept.length, KEPT);
});

test('a keeper without compactWhenIdleMs (the CLI) never compacts on its own', async () => {
  const keeper = createHeapKeeper({ floorBytes: 4096 * MiB, growth: 2 });
  const held = fragment();
  keeper.settle();
  const before = await fragmentedSlack();
  await pause(1200);
  assert.ok(slack() > before * 0.8, `free in the heap: ${before / MiB | 0} MiB -> ${slack() / MiB | 0} MiB, without compactWhenIdleMs`);
  assert.equal(held.kept.length, KEPT);
});
