// `npm run bench`: every benchmark in turn. A bench that is missing or fails is reported and the others
// still run; the exit code is 1 if any failed.
//
//   npm run bench                 (node --import tsx bench/index.ts)
//   npm run bench -- analysis     (only the benches whose name contains a filter)
import * as os from 'node:os';

interface Bench {
  name: string;
  module: string;
  exportName: string;
}

const benches: Bench[] = [
  { name: 'grammar', module: './grammar', exportName: 'runGrammarBench' },
  { name: 'token', module: './token', exportName: 'runTokenBench' },
  { name: 'analysis', module: './analysis', exportName: 'runAnalysisBench' },
  { name: 'editor', module: './editor', exportName: 'runEditorBench' },
  { name: 'code-actions', module: './code-actions', exportName: 'runCodeActionsBench' },
  { name: 'workspace', module: './workspace', exportName: 'runWorkspaceBench' },
  { name: 'sample', module: './sample', exportName: 'runSampleBench' },
  { name: 'limits', module: './limits', exportName: 'runLimitsBench' },
  { name: 'report', module: './report', exportName: 'runReportBench' },
  { name: 'hostile', module: './hostile', exportName: 'runHostileBench' },
  { name: 'cli', module: './cli', exportName: 'runCliBench' },
  { name: 'evidence', module: './evidence', exportName: 'runEvidenceBench' },
  { name: 'cluster', module: './cluster', exportName: 'runClusterBench' },
  { name: 'heap', module: './heap', exportName: 'runHeapBench' },
  { name: 'embedded', module: './embedded', exportName: 'runEmbeddedBench' },
  { name: 'app-code', module: './app-code', exportName: 'runAppCodeBench' },
];

/** The 1, 5 and 15-minute load averages. */
function loadAverage(): string {
  return os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
}

/** What the figures were measured on: Node, the CPU model and its cores, the memory, the OS. */
function machine(): string {
  const cpus = os.cpus();
  return `node ${process.version}, ${cpus.length} CPUs (${cpus[0]?.model ?? '?'}), ${(os.totalmem() / 2 ** 30).toFixed(1)} GiB, ${os.type()} ${os.release()} ${os.arch()}`;
}

async function main(): Promise<void> {
  const filters = process.argv.slice(2);
  const selected = filters.length ? benches.filter((b) => filters.some((f) => b.name.includes(f))) : benches;
  console.log(`cqlint benchmarks: ${machine()}, load average ${loadAverage()}`);
  const failed: string[] = [];
  for (const bench of selected) {
    console.log(`\n=== ${bench.name}`);
    let run: (() => Promise<void>) | undefined;
    try {
      // Imported when its turn comes, so a bench still being written does not stop the others.
      const mod = (await import(bench.module)) as Record<string, unknown>;
      const fn = mod[bench.exportName] ?? (mod.default as Record<string, unknown> | undefined)?.[bench.exportName];
      if (typeof fn === 'function') run = fn as () => Promise<void>;
      else
        console.log(`${bench.name}: bench/${bench.module.slice(2)}.ts does not export ${bench.exportName}(); skipped`);
    } catch (error) {
      console.log(
        `${bench.name}: cannot load bench/${bench.module.slice(2)}.ts: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
    if (!run) {
      failed.push(`${bench.name} (missing)`);
      continue;
    }
    const started = performance.now();
    const loadBefore = loadAverage();
    try {
      await run();
      // The machine may be shared: each bench's figures come with the load they were taken under.
      console.log(
        `${bench.name}: done in ${((performance.now() - started) / 1000).toFixed(1)} s (load average before ${loadBefore}, after ${loadAverage()})`,
      );
    } catch (error) {
      failed.push(bench.name);
      console.log(`${bench.name}: FAILED: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    }
  }
  console.log(`\nload average at the end: ${loadAverage()}`);
  if (failed.length) {
    console.log(`benchmarks that did not run to the end: ${failed.join(', ')}`);
    process.exitCode = 1;
  }
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
