// Grammar benchmark: grammar construction, lexing, parse + AST throughput through the rules alone and through
// parseCql (the reader first) on the corpus
// (cassandra-docs + killrvideo concatenated and repeated to at least 6 MB), with parseCql's share of time in
// garbage collection and the heap its result keeps per source byte. Each figure is the median of several
// runs, printed with the lowest and highest run. Run alone with `npx tsx bench/grammar.ts`, or through
// `npm run bench`. With CQLINT_BENCH_BASELINE=<another checkout> (its node_modules beside it), that checkout's
// parseCql runs interleaved with this one's, and the bench prints this one's speed and heap against it.
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { loadavg } from 'node:os';
import { PerformanceObserver } from 'node:perf_hooks';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { clearAssistCache } from '../grammar/errors';
import { lexCql } from '../grammar/lexer';
import { parserConstructionMs } from '../grammar/parser';
import { expectedTokensAt, parseCql, parseWithRulesOnly } from '../grammar/index';
import { corpusText } from './corpus';
import { cpuMs, formatSpread, rates, spread, timeMs } from './stats';

const RUNS = 7;
/** A statement cut anywhere (what the editor sees while typing) must never cost more than this to parse or complete. */
const ERROR_PATH_LIMIT_MS = 50;

function median(values: number[]): number {
  return spread(values).median;
}

export async function runGrammarBench(): Promise<void> {
  const construction = parserConstructionMs();
  const { files, one, text, copies, mb } = corpusText();

  // The three passes interleaved, run by run, so that a busy stretch of the machine hits all of them.
  const lexing: number[] = [];
  const rules: number[] = [];
  const ast: number[] = [];
  const rulesCpu: number[] = [];
  const astCpu: number[] = [];
  let statements = 0;
  let errors = 0;
  for (let i = 0; i < RUNS; i++) {
    lexing.push(timeMs(() => lexCql(text)));
    let wall = 0;
    rulesCpu.push(cpuMs(() => (wall = timeMs(() => parseWithRulesOnly(text)))));
    rules.push(wall);
    astCpu.push(
      cpuMs(
        () =>
          (wall = timeMs(() => {
            const r = parseCql(text);
            statements = r.statements.length;
            errors = r.errors.length;
          })),
      ),
    );
    ast.push(wall);
  }
  // Incremental: one edited line in the middle of the 6 MB text, with the previous result.
  // (`previous` is consumed by the incremental parse, so each run starts from a fresh full parse.)
  const mid = text.indexOf('SELECT', Math.floor(text.length / 2));
  const edited = text.slice(0, mid) + 'SELECT  ' + text.slice(mid + 'SELECT'.length);
  const incremental = Array.from({ length: RUNS }, () => {
    const previous = parseCql(text);
    return timeMs(() => parseCql(edited, { previous }));
  });
  // The language server's case: a 10,000-line file, one keystroke.
  const lines = one.split('\n');
  const tenK = Array.from({ length: Math.ceil(10000 / lines.length) }, () => one)
    .join('\n')
    .split('\n')
    .slice(0, 10000)
    .join('\n');
  const at = tenK.indexOf('SELECT', Math.floor(tenK.length / 2));
  const tenKEdited = tenK.slice(0, at) + 'SELECT  ' + tenK.slice(at + 'SELECT'.length);
  const keystroke = Array.from({ length: RUNS * 2 }, () => {
    const previous = parseCql(tenK);
    return timeMs(() => parseCql(tenKEdited, { previous }));
  });
  const fullTenK = Array.from({ length: RUNS }, () => timeMs(() => parseCql(tenKEdited)));

  const memory = await parseMemory(text, parseCql);
  const errorPaths = benchErrorPaths(files);
  const baseline = process.env.CQLINT_BENCH_BASELINE
    ? await againstBaseline(resolve(process.env.CQLINT_BENCH_BASELINE), text)
    : undefined;

  const rate = (ms: number[]) => formatSpread(spread(rates(mb, ms)), 'MB/s');
  const ratio = (a: number[], b: number[]) => formatSpread(spread(a.map((x, i) => x / b[i]!)), 'x', 2);
  console.log(
    `grammar: load average ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  console.log(
    `grammar: corpus ${files.length} files x ${copies} = ${mb.toFixed(1)} MB, ${statements} statements, ${errors} errors; ${RUNS} runs of each pass, interleaved`,
  );
  console.log(`grammar: construction (performSelfAnalysis) ${construction.toFixed(0)} ms (one run)`);
  console.log(`grammar: lexing          ${rate(lexing)}`);
  console.log(`grammar: the rules alone ${rate(rules)}`);
  console.log(`grammar: parse + AST     ${rate(ast)}`);
  console.log(
    `grammar: parseCql's time over the rules-only pass's, run by run: ${ratio(ast, rules)}; over lexing: ${ratio(ast, lexing)}`,
  );
  console.log(
    `grammar: CPU time (user + system) of parseCql ${formatSpread(spread(astCpu), 'ms', 0)}, of the rules-only pass ${formatSpread(spread(rulesCpu), 'ms', 0)}; parseCql's over the rules-only pass's, run by run: ${ratio(astCpu, rulesCpu)}`,
  );
  console.log(
    `grammar: parseCql's GC share ${formatSpread(spread(memory.gcShares.map((g) => g * 100)), '%', 0)}; the result keeps ${formatSpread(spread(memory.retainedPerByte), 'bytes per source byte')}`,
  );
  console.log(
    `grammar: incremental re-parse of the ${mb.toFixed(1)} MB text after a one-line edit: ${formatSpread(spread(incremental), 'ms', 0)}`,
  );
  console.log(
    `grammar: 10,000-line file (${(tenK.length / 1024).toFixed(0)} KB): full parse ${formatSpread(spread(fullTenK), 'ms')}, incremental after a one-line edit ${formatSpread(spread(keystroke), 'ms')}`,
  );
  console.log(
    `grammar: error paths: ${errorPaths.cases} truncated statements (parseCql + expectedTokensAt at the cut): median ${errorPaths.median.toFixed(2)} ms, p99 ${errorPaths.p99.toFixed(2)} ms, worst ${errorPaths.worst.toFixed(1)} ms (${JSON.stringify(errorPaths.worstText.slice(-60))})`,
  );
  if (baseline) {
    console.log(
      `grammar: against ${baseline.dir}, interleaved: parseCql here ${rate(baseline.here)}, there ${rate(baseline.there)}; speed here over there, run by run: ${ratio(baseline.there, baseline.here)}`,
    );
    console.log(
      `grammar: the result keeps ${formatSpread(spread(baseline.keptHere), 'bytes per source byte')} here, ${formatSpread(spread(baseline.keptThere), 'bytes per source byte')} there`,
    );
  }
  if (errorPaths.worst > ERROR_PATH_LIMIT_MS) {
    throw new Error(
      `grammar: a truncated statement takes ${errorPaths.worst.toFixed(0)} ms to parse and complete (limit ${ERROR_PATH_LIMIT_MS} ms): ${JSON.stringify(errorPaths.worstText)}`,
    );
  }
}

type Parse = (text: string) => unknown;

/** This checkout's parseCql and another's, interleaved run by run, with the heap each result keeps per source byte. */
async function againstBaseline(
  dir: string,
  text: string,
): Promise<{ dir: string; here: number[]; there: number[]; keptHere: number[]; keptThere: number[] }> {
  const theirs = (require(join(dir, 'grammar', 'index')) as { parseCql: Parse }).parseCql;
  const gc = exposedGc();
  const here: number[] = [];
  const there: number[] = [];
  // A full collection before each pass, and the order flipped every run (there, here, here, there, ...): the
  // collection of one pass's result otherwise falls in the next pass, always the same side's.
  for (let i = 0; i < 2 * RUNS; i++) {
    gc();
    if (i % 4 === 0 || i % 4 === 3) there.push(timeMs(() => theirs(text)));
    else here.push(timeMs(() => parseCql(text)));
  }
  const keptHere = (await parseMemory(text, parseCql)).retainedPerByte;
  const keptThere = (await parseMemory(text, theirs)).retainedPerByte;
  return { dir, here, there, keptHere, keptThere };
}

/** V8's full collection, as a function. */
function exposedGc(): () => void {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
}

/**
 * parseCql's GC share (GC pauses over wall time) in each of RUNS parses, and the heap its result keeps per
 * source byte (heap after a full GC with the result alive, minus before) in each of three parses.
 */
async function parseMemory(text: string, parse: Parse): Promise<{ gcShares: number[]; retainedPerByte: number[] }> {
  const gc = exposedGc();
  const pauses: { start: number; duration: number }[] = [];
  const observer = new PerformanceObserver((list) => {
    for (const e of list.getEntries()) pauses.push({ start: e.startTime, duration: e.duration });
  });
  observer.observe({ entryTypes: ['gc'] });
  const windows: { start: number; end: number }[] = [];
  for (let i = 0; i < RUNS; i++) {
    gc();
    const start = performance.now();
    parse(text);
    windows.push({ start, end: performance.now() });
  }
  // GC entries are delivered after the synchronous parses, on a later turn of the event loop.
  await new Promise((done) => setTimeout(done, 50));
  observer.disconnect();
  const shares = windows.map(({ start, end }) => {
    const inWindow = pauses.filter((p) => p.start >= start && p.start < end).reduce((sum, p) => sum + p.duration, 0);
    return inWindow / (end - start);
  });
  const retainedPerByte = Array.from({ length: 3 }, () => retainedBytes(text, gc, parse) / Buffer.byteLength(text));
  return { gcShares: shares, retainedPerByte };
}

/** The heap one parse result keeps (in a call of its own, so that no earlier result is still held). */
function retainedBytes(text: string, gc: () => void, parse: Parse): number {
  gc();
  const before = process.memoryUsage().heapUsed;
  let kept: unknown = parse(text);
  gc();
  const retained = process.memoryUsage().heapUsed - before;
  void (kept as ReturnType<typeof parseCql>).statements.length;
  kept = undefined;
  return retained;
}

/**
 * Every corpus statement cut after each of its tokens (and mid-token), as while typing: parseCql and
 * expectedTokensAt at the cut. Error handling (messages from content assist) must stay cheap on all of them.
 * The slowest cases are timed again (median of 5) so one GC pause or a busy machine does not count as slow.
 * The content-assist cache is cleared before each case: this times the uncached path.
 */
function benchErrorPaths(files: string[]): {
  cases: number;
  median: number;
  p99: number;
  worst: number;
  worstText: string;
} {
  // Uncached: the content-assist cache would make every repeat cheap. (expectedTokensAt right after parseCql may
  // hit the answer parseCql's error message just computed, as it does in the editor.)
  const once = (s: string) =>
    timeMs(() => {
      clearAssistCache();
      parseCql(s);
      expectedTokensAt(s, s.length);
    });
  const samples: { ms: number; text: string }[] = [];
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    const { tokens } = lexCql(text);
    let statementStart = 0;
    for (const t of tokens) {
      const cut = t.endOffset! + 1;
      const s = text.slice(statementStart, cut);
      samples.push({ ms: once(s), text: s });
      if (t.image.length > 2) {
        const mid = text.slice(statementStart, t.startOffset + 1);
        samples.push({ ms: once(mid), text: mid });
      }
      if (t.image === ';') statementStart = cut;
    }
  }
  samples.sort((a, b) => a.ms - b.ms);
  const slowest = samples
    .slice(-20)
    .map(({ text }) => ({ text, ms: median(Array.from({ length: 5 }, () => once(text))) }));
  slowest.sort((a, b) => a.ms - b.ms);
  const worst = slowest[slowest.length - 1];
  return {
    cases: samples.length,
    median: samples[Math.floor(samples.length / 2)].ms,
    p99: samples[Math.floor(samples.length * 0.99)].ms,
    worst: worst.ms,
    worstText: worst.text,
  };
}

if (require.main === module) {
  runGrammarBench().catch((e) => {
    console.error(e);
    process.exit(1);
  });
}
