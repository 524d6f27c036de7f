// The heap keeper (server/core/util/heap.ts), measured: a long run's garbage leaves V8's old space
// fragmented, and the server compacts it once it goes idle, so that its memory comes back to what the schema
// needs; a keeper without an idle time never compacts on its own (the CLI's budget forces nothing at all: V8's
// own collector keeps its heap, see HeapBudget.collector). These depend on when V8 sweeps and hands pages back
// (concurrently, after a collection returns), so they are a bench, not a test: each check prints its
// figures and fails the bench when the heap did not do what it should.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { compactHeap, createHeapKeeper } from '../server/core/util/heap';

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

const pause = (ms: number): Promise<void> => new Promise((done) => setTimeout(done, ms));

function check(ok: boolean, what: string): void {
  console.log(`heap: ${ok ? 'ok  ' : 'FAIL'} ${what}`);
  if (!ok) throw new Error(what);
}

/** A plain full collection, once V8 is done with it: what is left is fragmentation. */
async function fragmentedSlack(): Promise<number> {
  gc();
  await pause(400);
  const free = slack();
  check(
    free > 64 * MiB,
    `a plain collection leaves ${(free / MiB) | 0} MiB free in the heap (over 64 MiB: fragmented)`,
  );
  return free;
}

export async function runHeapBench(): Promise<void> {
  {
    const held = fragment();
    const before = await fragmentedSlack();
    check(compactHeap(), 'compactHeap ran');
    await pause(400);
    check(
      slack() < before / 2,
      `compactHeap: free in the heap ${(before / MiB) | 0} MiB -> ${(slack() / MiB) | 0} MiB (under half)`,
    );
    check(held.kept.length === KEPT, 'what is alive stays');
  }
  gc();
  {
    const keeper = createHeapKeeper({ floorBytes: 4096 * MiB, growth: 2, compactWhenIdleMs: 1000 });
    const held = fragment();
    keeper.settle();
    const before = await fragmentedSlack();
    await pause(1200);
    check(
      slack() < before / 2,
      `server keeper, idle 1.2 s: free in the heap ${(before / MiB) | 0} MiB -> ${(slack() / MiB) | 0} MiB (under half)`,
    );
    check(held.kept.length === KEPT, 'what is alive stays');
  }
  gc();
  {
    const keeper = createHeapKeeper({ floorBytes: 4096 * MiB, growth: 2 });
    const held = fragment();
    keeper.settle();
    const before = await fragmentedSlack();
    await pause(1200);
    check(
      slack() > before * 0.8,
      `keeper without idle compaction, idle 1.2 s: free in the heap ${(before / MiB) | 0} MiB -> ${(slack() / MiB) | 0} MiB (no compaction)`,
    );
    check(held.kept.length === KEPT, 'what is alive stays');
  }
}
