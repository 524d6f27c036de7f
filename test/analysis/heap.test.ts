// The heap keeper (server/core/util/heap.ts): a long run's garbage leaves V8's old space fragmented, and
// the server compacts it once it goes idle, so that its memory comes back to what the schema needs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { compactHeap, createHeapKeeper } from '../../server/core/util/heap';

const MiB = 1024 * 1024;

/** Allocates about 150 MiB and keeps one object in twenty: every page stays in use, mostly empty. */
function fragment(): { kept: object[] } {
  let all: object[] | undefined = [];
  const kept: object[] = [];
  for (let i = 0; i < 2_000_000; i++) {
    const o = { i, list: [i] };
    all.push(o);
    if (i % 20 === 0) kept.push(o);
  }
  all = undefined;
  return { kept };
}

function plainCollection(): () => void {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
}

test('compactHeap hands back the pages a plain collection leaves fragmented', () => {
  const gc = plainCollection();
  const held = fragment();
  gc();
  const fragmented = process.memoryUsage().heapTotal;
  assert.ok(compactHeap());
  const compacted = process.memoryUsage().heapTotal;
  assert.ok(compacted < fragmented * 0.6, `heap ${fragmented / MiB | 0} MiB -> ${compacted / MiB | 0} MiB`);
  assert.equal(held.kept.length, 100_000);
});

test('a keeper with compactWhenIdleMs compacts once work stops settling it', async () => {
  const gc = plainCollection();
  const keeper = createHeapKeeper({ floorBytes: 4096 * MiB, growth: 2, compactWhenIdleMs: 20 });
  const held = fragment();
  keeper.settle();
  gc();
  const fragmented = process.memoryUsage().heapTotal;
  await new Promise((done) => setTimeout(done, 300));
  const idle = process.memoryUsage().heapTotal;
  assert.ok(idle < fragmented * 0.6, `heap ${fragmented / MiB | 0} MiB -> ${idle / MiB | 0} MiB`);
  assert.equal(held.kept.length, 100_000);
});

test('a keeper without compactWhenIdleMs (the CLI) never compacts on its own', async () => {
  const gc = plainCollection();
  const keeper = createHeapKeeper({ floorBytes: 4096 * MiB, growth: 2 });
  const held = fragment();
  keeper.settle();
  gc();
  const fragmented = process.memoryUsage().heapTotal;
  await new Promise((done) => setTimeout(done, 300));
  assert.ok(process.memoryUsage().heapTotal > fragmented * 0.85, "no compaction without compactWhenIdleMs");
  assert.equal(held.kept.length, 100_000);
});
