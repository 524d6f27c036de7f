// Run by memory.test.ts in a child process with --expose-gc: generates dsbulk captures of the sizes
// given (MB) in a temporary folder, reads each, and prints the heap figures as one JSON line.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { measureEvidenceRead, writeDsbulkCapture } from '../../bench/evidence';

void (async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'cqlint-evidence-memory-'));
  try {
    const out = [];
    for (const mb of process.argv.slice(2).map(Number)) {
      const file = path.join(dir, `dsbulk-${mb}.txt`);
      await writeDsbulkCapture(file, mb);
      out.push(await measureEvidenceRead(file));
      rmSync(file, { force: true });
    }
    process.stdout.write(`${JSON.stringify(out)}\n`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
})();
