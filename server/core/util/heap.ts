// A bound on how far the heap may grow past what is alive, for long index and lint runs.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

export interface HeapKeeper {
  /** Call between units of work: asks for a full collection when the heap has grown by 30% since the last one. */
  settle(): void;
}

const FLOOR_BYTES = 192 * 1024 * 1024;
/** How far the heap may grow past what the last full collection left alive. */
const GROWTH = 1.3;

/**
 * Indexing and linting thousands of files let go of each file's tree once it is summarised, so what
 * stays alive grows slowly; but V8, seeing memory to spare, lets the heap grow to several times that
 * before a full collection (2 GB of RSS for 600 MB alive on 2,000 files), and keeps the pages it grew
 * to. When the heap has grown by 30% since the last full collection (and is past 192 MiB), the keeper
 * asks for one: on 2,000 files the server then settles at about 500 MiB instead of 600, for about 10%
 * more indexing time than with 50% and 256 MiB (measured on the workspace bench's 2,000 files).
 */
function createHeapKeeper(): HeapKeeper {
  let collect: (() => void) | undefined;
  try {
    setFlagsFromString('--expose-gc');
    collect = runInNewContext('gc') as () => void;
  } catch {
    return { settle: () => undefined };
  }
  let threshold = Math.max(FLOOR_BYTES, process.memoryUsage().heapUsed * GROWTH);
  return {
    settle() {
      if (process.memoryUsage().heapUsed < threshold) return;
      collect!();
      threshold = Math.max(FLOOR_BYTES, process.memoryUsage().heapUsed * GROWTH);
    },
  };
}

let processKeeper: HeapKeeper | undefined;

/** The process's keeper (one heap per process), made on first use: Project.release settles it after each file. */
export function heapKeeper(): HeapKeeper {
  return (processKeeper ??= createHeapKeeper());
}
