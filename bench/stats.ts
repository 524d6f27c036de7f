// Figures with their run-to-run spread: every bench prints a median together with the lowest and highest
// run, so a reader can tell a change from the noise of a busy machine (the development VM has two cores
// shared with other work: the same run varies by a third).

export interface Spread {
  median: number;
  min: number;
  max: number;
  /** How many runs. */
  n: number;
}

/** The median (the upper one of an even count) and the range of some runs. */
export function spread(samples: readonly number[]): Spread {
  if (!samples.length) return { median: NaN, min: NaN, max: NaN, n: 0 };
  const sorted = [...samples].sort((a, b) => a - b);
  return {
    median: sorted[Math.floor(sorted.length / 2)]!,
    min: sorted[0]!,
    max: sorted[sorted.length - 1]!,
    n: sorted.length,
  };
}

/** `12.3 <unit> (11.0-14.2 over 5 runs)`; one run says so instead of a range. */
export function formatSpread(s: Spread, unit: string, digits = 1): string {
  const f = (x: number): string => x.toFixed(digits);
  const space = unit && !unit.startsWith('%') && !unit.startsWith('x') ? ' ' : '';
  if (s.n <= 1) return `${f(s.median)}${space}${unit} (one run)`;
  return `${f(s.median)}${space}${unit} (${f(s.min)}-${f(s.max)} over ${s.n} runs)`;
}

/** Times in ms of each run -> throughput in MB/s of each run (a rate's spread is that of its runs). */
export function rates(mb: number, ms: readonly number[]): number[] {
  return ms.map((t) => mb / (t / 1000));
}

/** Wall time of one call, in ms. */
export function timeMs(fn: () => void): number {
  const start = performance.now();
  fn();
  return performance.now() - start;
}

/** CPU time (user + system, every thread of the process: GC helpers included) of one call, in ms: on a machine
 * busy with other work, wall time measures the machine; this measures the call. */
export function cpuMs(fn: () => void): number {
  const start = process.cpuUsage();
  fn();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
}

/** How many runs the slow benches (whole workspaces, servers) make: CQLINT_BENCH_RUNS, else `fallback`. */
export function benchRuns(fallback: number): number {
  const n = Number(process.env.CQLINT_BENCH_RUNS);
  return Number.isInteger(n) && n > 0 ? n : fallback;
}
