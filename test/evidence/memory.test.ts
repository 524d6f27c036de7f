// Huge evidence streams with steady memory: dsbulk captures of 8 MB and 80 MB (generated at test time,
// never committed) are read in a child process with --expose-gc. What the reader keeps is bounded, so
// the heap it leaves behind is back to where it started and the most it uses while reading does not
// grow with the file. The speed is the bench's business (npm run bench -- evidence), not this test's.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';
import type { EvidenceReadStats } from '../../bench/evidence';

const ROOT = path.resolve(__dirname, '..', '..');

test('a 10x larger capture is read in the same memory, and nothing of it stays behind', () => {
  const run = spawnSync(
    process.execPath,
    ['--expose-gc', '--import', 'tsx', path.join('test', 'evidence', 'memory-probe.ts'), '8', '80'],
    { cwd: ROOT, encoding: 'utf8', timeout: 600_000 },
  );
  assert.equal(run.status, 0, run.stderr);
  const [small, large] = JSON.parse(run.stdout) as EvidenceReadStats[];
  assert.ok(small && large);
  assert.ok(large.lines > 9 * small.lines, `the large file has ten times the lines: ${small.lines} and ${large.lines}`);
  assert.equal(small.partitionsKept, 100);
  assert.equal(large.partitionsKept, 100);
  // Kept after reading: the bounded figures only (a few hundred kB), whatever the size.
  assert.ok(
    large.heapAfterMB - large.heapBeforeMB < 4,
    `heap after the 80 MB file: ${large.heapBeforeMB.toFixed(1)} -> ${large.heapAfterMB.toFixed(1)} MB`,
  );
  // While reading: lines come and go; the most in use does not follow the file's size (80 MB of text
  // held as strings alone would be 160 MB).
  const grew = large.heapPeakMB - large.heapBeforeMB;
  assert.ok(grew < 64, `the heap grew by ${grew.toFixed(0)} MB while reading 80 MB`);
  assert.ok(
    large.heapPeakMB < small.heapPeakMB + 32,
    `peak ${small.heapPeakMB.toFixed(0)} MB for 8 MB, ${large.heapPeakMB.toFixed(0)} MB for 80 MB`,
  );
});
