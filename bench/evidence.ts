// Evidence files of growing size streamed through the evidence reader: MB/s and the heap while reading,
// which must stay flat as the file grows (what is kept is bounded: bounds.ts). The files are dsbulk
// captures (every token range and every partition counted, the largest kept) generated at bench time in
// the OS temp folder and deleted afterwards. Run alone with `npx tsx --expose-gc bench/evidence.ts`.
import { createWriteStream, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { once } from 'node:events';
import { readEvidenceFile } from '../server/core/evidence';

const SIZES_MB = (process.env.CQLINT_BENCH_EVIDENCE_MB ?? '50,500').split(',').map(Number);

/**
 * Writes a `dsbulk count --stats.modes ranges,partitions` capture of about `megabytes` MB: a range per
 * vnode and a partition line per partition (keys `'<day>'|'<region>-<n>'`), as DefaultReadResultCounter prints them.
 */
export async function writeDsbulkCapture(file: string, megabytes: number): Promise<number> {
  const out = createWriteStream(file, { encoding: 'utf8' });
  const target = megabytes * 2 ** 20;
  let written = 0;
  let buffer =
    '$ dsbulk count -k shop -t events_by_day --stats.modes ranges,partitions --stats.numPartitions 100000000\nTotal rows per token range:\n';
  const flush = async (): Promise<void> => {
    written += Buffer.byteLength(buffer);
    if (!out.write(buffer)) await once(out, 'drain');
    buffer = '';
  };
  const ranges = 256 * 64;
  const step = 2n ** 64n / BigInt(ranges);
  for (let i = 0; i < ranges; i++) {
    const start = -(2n ** 63n) + step * BigInt(i);
    buffer += `${start} ${start + step} ${1000 + (i % 977)} 0.01\n`;
    if (buffer.length > 1 << 20) await flush();
  }
  buffer += 'Total rows per partition:\n';
  let lines = 0;
  for (let i = 0; written + buffer.length < target; i++) {
    buffer += `'2026-${String(1 + (i % 12)).padStart(2, '0')}-${String(1 + (i % 28)).padStart(2, '0')}'|'region-${i}' ${1 + ((i * 7919) % 100_003)} 0.00\n`;
    lines++;
    if (buffer.length > 1 << 20) await flush();
  }
  await flush();
  out.end();
  await once(out, 'finish');
  return lines;
}

export interface EvidenceReadStats {
  bytes: number;
  lines: number;
  seconds: number;
  /** Heap in use before reading (after a collection when --expose-gc), the most seen while reading, and after. */
  heapBeforeMB: number;
  heapPeakMB: number;
  heapAfterMB: number;
  partitionsKept: number;
}

/** Reads a file, sampling the heap every few milliseconds. */
export async function measureEvidenceRead(file: string): Promise<EvidenceReadStats> {
  global.gc?.();
  const before = process.memoryUsage().heapUsed;
  let peak = before;
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().heapUsed);
  }, 2);
  const started = performance.now();
  const result = await readEvidenceFile(file);
  const seconds = (performance.now() - started) / 1000;
  clearInterval(timer);
  peak = Math.max(peak, process.memoryUsage().heapUsed);
  global.gc?.();
  const after = process.memoryUsage().heapUsed;
  const mb = (n: number): number => n / 2 ** 20;
  return {
    bytes: statSync(file).size,
    lines: result.lines,
    seconds,
    heapBeforeMB: mb(before),
    heapPeakMB: mb(peak),
    heapAfterMB: mb(after),
    partitionsKept: result.tables[0]?.partitions?.length ?? 0,
  };
}

export async function runEvidenceBench(): Promise<void> {
  const dir = mkdtempSync(path.join(tmpdir(), 'cqlint-bench-evidence-'));
  try {
    if (!global.gc)
      console.log('evidence: run node with --expose-gc for exact heap figures (collections between runs)');
    for (const mb of SIZES_MB) {
      const file = path.join(dir, `dsbulk-${mb}.txt`);
      await writeDsbulkCapture(file, mb);
      const s = await measureEvidenceRead(file);
      console.log(
        `evidence: ${(s.bytes / 2 ** 20).toFixed(0)} MB, ${s.lines.toLocaleString('en-US')} lines in ${s.seconds.toFixed(1)} s = ${(s.bytes / 2 ** 20 / s.seconds).toFixed(0)} MB/s; ` +
          `heap ${s.heapBeforeMB.toFixed(0)} MB before, ${s.heapPeakMB.toFixed(0)} MB at most while reading, ${s.heapAfterMB.toFixed(0)} MB after (${s.partitionsKept} partitions kept)`,
      );
      rmSync(file, { force: true });
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (require.main === module) void runEvidenceBench();
