// Grammar benchmark: grammar construction, lexing, CST-only parsing and parse + AST throughput on the corpus
// (cassandra-docs + killrvideo concatenated and repeated to at least 6 MB), with parseCql's share of time in
// garbage collection and the heap its result keeps per source byte. Each figure is the median of
// several runs. Run alone with `npx tsx bench/grammar.ts`, or through `npm run bench`.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { PerformanceObserver } from 'node:perf_hooks';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { clearAssistCache } from '../grammar/errors';
import { lexCql } from '../grammar/lexer';
import { parserConstructionMs } from '../grammar/parser';
import { expectedTokensAt, parseCql, parseCstOnly } from '../grammar/index';

const corpusDir = resolve(__dirname, '..', 'test', 'fixtures', 'corpus');
const TARGET_BYTES = 6 * 1024 * 1024;
const RUNS = 5;
/** A statement cut anywhere (what the editor sees while typing) must never cost more than this to parse or complete. */
const ERROR_PATH_LIMIT_MS = 50;

function cqlFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...cqlFiles(path));
    else if (name.endsWith('.cql')) out.push(path);
  }
  return out;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

function timeMs(fn: () => void): number {
  const start = performance.now();
  fn();
  return performance.now() - start;
}

export async function runGrammarBench(): Promise<void> {
  const construction = parserConstructionMs();
  const files = ['cassandra-docs', 'killrvideo'].flatMap((f) => cqlFiles(join(corpusDir, f)));
  // Each file ends with a newline and `;`-less trailing text stays its own statement.
  const one = files.map((f) => readFileSync(f, 'utf8').trimEnd() + '\n').join('\n');
  const copies = Math.ceil(TARGET_BYTES / Buffer.byteLength(one));
  const text = Array.from({ length: copies }, () => one).join('\n');
  const mb = Buffer.byteLength(text) / (1024 * 1024);

  const lexing = median(Array.from({ length: RUNS }, () => timeMs(() => lexCql(text))));
  const cst = median(Array.from({ length: RUNS }, () => timeMs(() => parseCstOnly(text))));
  let statements = 0;
  let errors = 0;
  const ast = median(Array.from({ length: RUNS }, () => timeMs(() => {
    const r = parseCql(text);
    statements = r.statements.length;
    errors = r.errors.length;
  })));
  // Incremental: one edited line in the middle of the 5 MB text, with the previous result.
  // (`previous` is consumed by the incremental parse, so each run starts from a fresh full parse.)
  const mid = text.indexOf('SELECT', Math.floor(text.length / 2));
  const edited = text.slice(0, mid) + 'SELECT  ' + text.slice(mid + 'SELECT'.length);
  const incremental = median(Array.from({ length: RUNS }, () => {
    const previous = parseCql(text);
    return timeMs(() => parseCql(edited, { previous }));
  }));
  // The language server's case: a 10,000-line file, one keystroke.
  const lines = one.split('\n');
  const tenK = Array.from({ length: Math.ceil(10000 / lines.length) }, () => one).join('\n').split('\n').slice(0, 10000).join('\n');
  const at = tenK.indexOf('SELECT', Math.floor(tenK.length / 2));
  const tenKEdited = tenK.slice(0, at) + 'SELECT  ' + tenK.slice(at + 'SELECT'.length);
  const keystroke = median(Array.from({ length: RUNS * 2 }, () => {
    const previous = parseCql(tenK);
    return timeMs(() => parseCql(tenKEdited, { previous }));
  }));
  const fullTenK = median(Array.from({ length: RUNS }, () => timeMs(() => parseCql(tenKEdited))));

  const memory = await parseMemory(text);
  const errorPaths = benchErrorPaths(files);

  const rate = (ms: number) => (mb / (ms / 1000)).toFixed(1);
  console.log(`grammar: load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
  console.log(`grammar: corpus ${files.length} files x ${copies} = ${mb.toFixed(1)} MB, ${statements} statements, ${errors} errors`);
  console.log(`grammar: construction (performSelfAnalysis) ${construction.toFixed(0)} ms`);
  console.log(`grammar: lexing          ${rate(lexing)} MB/s (${lexing.toFixed(0)} ms)`);
  console.log(`grammar: parsing (CST)   ${rate(cst)} MB/s (${cst.toFixed(0)} ms)`);
  console.log(`grammar: parse + AST     ${rate(ast)} MB/s (${ast.toFixed(0)} ms, ${(ast / lexing).toFixed(1)}x lexing)`);
  console.log(`grammar: parseCql ${rate(ast)} MB/s beside lexing ${rate(lexing)} MB/s; GC ${(memory.gcShare * 100).toFixed(0)}% of parseCql's time; the result keeps ${memory.retainedPerByte.toFixed(1)} bytes per source byte`);
  console.log(`grammar: incremental re-parse of the ${mb.toFixed(1)} MB text after a one-line edit: ${incremental.toFixed(0)} ms`);
  console.log(`grammar: 10,000-line file (${(tenK.length / 1024).toFixed(0)} KB): full parse ${fullTenK.toFixed(1)} ms, incremental after a one-line edit ${keystroke.toFixed(1)} ms`);
  console.log(`grammar: error paths: ${errorPaths.cases} truncated statements (parseCql + expectedTokensAt at the cut): median ${errorPaths.median.toFixed(2)} ms, p99 ${errorPaths.p99.toFixed(2)} ms, worst ${errorPaths.worst.toFixed(1)} ms (${JSON.stringify(errorPaths.worstText.slice(-60))})`);
  if (errorPaths.worst > ERROR_PATH_LIMIT_MS) {
    throw new Error(`grammar: a truncated statement takes ${errorPaths.worst.toFixed(0)} ms to parse and complete (limit ${ERROR_PATH_LIMIT_MS} ms): ${JSON.stringify(errorPaths.worstText)}`);
  }
}

/**
 * parseCql's GC share (GC pauses over wall time, median of RUNS parses) and the heap its result keeps per
 * source byte (heap after a full GC with the result alive, minus before).
 */
async function parseMemory(text: string): Promise<{ gcShare: number; retainedPerByte: number }> {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  const pauses: { start: number; duration: number }[] = [];
  const observer = new PerformanceObserver((list) => {
    for (const e of list.getEntries()) pauses.push({ start: e.startTime, duration: e.duration });
  });
  observer.observe({ entryTypes: ['gc'] });
  const windows: { start: number; end: number }[] = [];
  for (let i = 0; i < RUNS; i++) {
    gc();
    const start = performance.now();
    parseCql(text);
    windows.push({ start, end: performance.now() });
  }
  // GC entries are delivered after the synchronous parses, on a later turn of the event loop.
  await new Promise((done) => setTimeout(done, 50));
  observer.disconnect();
  const shares = windows.map(({ start, end }) => {
    const inWindow = pauses.filter((p) => p.start >= start && p.start < end).reduce((sum, p) => sum + p.duration, 0);
    return inWindow / (end - start);
  });
  gc();
  const before = process.memoryUsage().heapUsed;
  const kept = parseCql(text);
  gc();
  const retained = process.memoryUsage().heapUsed - before;
  void kept.statements.length;
  return { gcShare: median(shares), retainedPerByte: retained / Buffer.byteLength(text) };
}

/**
 * Every corpus statement cut after each of its tokens (and mid-token), as while typing: parseCql and
 * expectedTokensAt at the cut. Error handling (messages from content assist) must stay cheap on all of them.
 * The slowest cases are timed again (median of 5) so one GC pause or a busy machine does not count as slow.
 * The content-assist cache is cleared before each case: this times the uncached path.
 */
function benchErrorPaths(files: string[]): { cases: number; median: number; p99: number; worst: number; worstText: string } {
  // Uncached: the content-assist cache would make every repeat cheap. (expectedTokensAt right after parseCql may
  // hit the answer parseCql's error message just computed, as it does in the editor.)
  const once = (s: string) => timeMs(() => {
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
  const slowest = samples.slice(-20).map(({ text }) => ({ text, ms: median(Array.from({ length: 5 }, () => once(text))) }));
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
