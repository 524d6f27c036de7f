// A bound on how far the heap may grow past what is alive, for long index and lint runs.
import { getHeapStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

export interface HeapKeeper {
  /** Call between units of work: asks for a full collection when the heap has outgrown the budget. */
  settle(): void;
}

/** When the keeper asks for a full collection: past `floorBytes`, once the heap has grown by `growth` since the last one. */
export interface HeapBudget {
  floorBytes: number;
  growth: number;
  /**
   * A long-lived process: once no work has settled the heap for this long (the background index and its
   * diagnostics are done), the heap is compacted if it is fragmented (see compactHeap). Undefined: never.
   */
  compactWhenIdleMs?: number;
  /**
   * Who collects: 'keeper' (the default) forces a full collection past the budget (gc(): one atomic pause
   * over everything alive); 'v8' forces none and sets V8's own heap growing factor to `growth` instead
   * (--heap-growing-percent, process-wide), so that its incremental and concurrent collector keeps the heap
   * as close to what is alive. `floorBytes` does not apply then: V8 starts from its own first limit.
   */
  collector?: 'keeper' | 'v8';
}

const MiB = 1024 * 1024;

/**
 * A long-lived process (the language server, and the default): its RSS follows the heap's high-water
 * mark, so the heap is kept close to what is alive, and compacted once the work goes idle. The floor and
 * growth were chosen on the workspace bench's 2,000 files: 128 MiB and 25% delayed the opened file's
 * diagnostics by a few seconds for little memory.
 */
export const SERVER_HEAP: HeapBudget = { floorBytes: 192 * MiB, growth: 1.3, compactWhenIdleMs: 1000 };

/**
 * What the heap may hold beyond what is alive before an idle compaction is worth its pause. Indexing leaves
 * old space fragmented: on the 2,000-file bench 285 MiB of pages held 175 MiB alive after a full collection.
 */
const FRAGMENTED_BYTES = 48 * MiB;

/**
 * A run that ends (the CLI, on its main thread or in its one lint worker thread). On 2,000 files the keeper's forced collections (each one an atomic pause that
 * marks the whole index, about 250 MiB) took more of the run than the rules; V8's own collector, held to
 * the same growth, keeps the peak where the keeper did for a fraction of the pauses.
 */
export const BATCH_HEAP: HeapBudget = { floorBytes: 224 * MiB, growth: 1.4, collector: 'v8' };

/**
 * The CLI's lint worker threads when there are several (server/cli/lint-workers.ts): each holds the whole index, and V8's
 * collector, with every core at work, lets each heap overshoot its limit: on the 2,000-file bench two workers
 * peaked about 10% above the keeper's run at 40%, 4-9% above it at 25% (1,207-1,267 MiB against 1,162).
 */
export const WORKER_HEAP: HeapBudget = { ...BATCH_HEAP, growth: 1.25 };

let budget = SERVER_HEAP;

/**
 * Indexing and linting thousands of files let go of each file's tree once it is summarised, so what
 * stays alive grows slowly; but V8, seeing memory to spare, lets the heap grow to several times that
 * before a full collection (2 GB of RSS for 600 MB alive on 2,000 files), and keeps the pages it grew
 * to. The keeper asks for a full collection whenever the heap has outgrown its budget.
 */
export function createHeapKeeper({ floorBytes, growth, compactWhenIdleMs, collector }: HeapBudget): HeapKeeper {
  if (collector === 'v8' && steerV8(growth)) return { settle: () => undefined };
  const collect = fullCollection();
  if (!collect) return { settle: () => undefined };
  let threshold = Math.max(floorBytes, heapUsed() * growth);
  let idle: NodeJS.Timeout | undefined;
  const whenIdle = (): void => {
    idle = undefined;
    collect();
    const { heapTotal, heapUsed: used } = process.memoryUsage();
    if (heapTotal - used > FRAGMENTED_BYTES) compactHeap();
    threshold = Math.max(floorBytes, heapUsed() * growth);
  };
  return {
    settle() {
      if (compactWhenIdleMs !== undefined) {
        if (idle) idle.refresh();
        else (idle = setTimeout(whenIdle, compactWhenIdleMs)).unref();
      }
      if (heapUsed() < threshold) return;
      collect();
      threshold = Math.max(floorBytes, heapUsed() * growth);
    },
  };
}

/**
 * The heap in use: V8's own figure, about 25 times cheaper than process.memoryUsage(), which also reads the
 * process's RSS (the keeper asks after every file of a run of thousands).
 */
function heapUsed(): number {
  return getHeapStatistics().used_heap_size;
}

/**
 * A full collection that moves what is alive out of every fragmented page, so that the pages a long run's
 * garbage left are handed back (a plain collection leaves most of them: V8 compacts only a few pages per
 * collection, and its memory reducer does the rest only after tens of seconds idle). It pauses for about
 * as long as copying what is alive takes, and needs room for that copy while it runs. False when the runtime
 * refuses gc().
 */
export function compactHeap(): boolean {
  const collect = fullCollection();
  if (!collect) return false;
  try {
    setFlagsFromString('--compact-on-every-full-gc');
    collect();
  } finally {
    setFlagsFromString('--no-compact-on-every-full-gc');
  }
  return true;
}

/** Sets V8's heap growing factor (see HeapBudget.collector); false when the runtime refuses the flag. */
function steerV8(growth: number): boolean {
  try {
    setFlagsFromString(`--heap-growing-percent=${Math.max(1, Math.round((growth - 1) * 100))}`);
    return true;
  } catch {
    return false;
  }
}

/** V8's gc(), obtained once per process; null when the runtime refuses it. */
let gcFunction: (() => void) | null | undefined;

function fullCollection(): (() => void) | null {
  if (gcFunction === undefined) {
    try {
      setFlagsFromString('--expose-gc');
      gcFunction = runInNewContext('gc') as () => void;
    } catch {
      gcFunction = null;
    }
  }
  return gcFunction;
}

let processKeeper: HeapKeeper | undefined;

/** Chooses the process's budget (the CLI does, before any work): the keeper is made anew with it. */
export function useHeapBudget(next: HeapBudget): void {
  if (next === budget) return;
  budget = next;
  processKeeper = undefined;
}

/** The process's keeper (one heap per process), made on first use: the CLI and the server settle it after each Project.release. */
export function heapKeeper(): HeapKeeper {
  return (processKeeper ??= createHeapKeeper(budget));
}
