// Grammar benchmark: grammar construction, lexing, CST-only parsing and parse + AST throughput on the corpus
// (cassandra-docs + killrvideo concatenated and repeated to at least 5 MB). Each figure is the median of
// several runs. Run alone with `npx tsx bench/grammar.ts`, or through `npm run bench`.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { lexCql } from '../grammar/lexer';
import { parserConstructionMs } from '../grammar/parser';
import { parseCql, parseCstOnly } from '../grammar/index';

const corpusDir = resolve(__dirname, '..', '..', 'shared', 'corpus');
const TARGET_BYTES = 5 * 1024 * 1024;
const RUNS = 5;

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

  const rate = (ms: number) => (mb / (ms / 1000)).toFixed(1);
  console.log(`grammar: corpus ${files.length} files x ${copies} = ${mb.toFixed(1)} MB, ${statements} statements, ${errors} errors`);
  console.log(`grammar: construction (performSelfAnalysis) ${construction.toFixed(0)} ms`);
  console.log(`grammar: lexing          ${rate(lexing)} MB/s (${lexing.toFixed(0)} ms)`);
  console.log(`grammar: parsing (CST)   ${rate(cst)} MB/s (${cst.toFixed(0)} ms)`);
  console.log(`grammar: parse + AST     ${rate(ast)} MB/s (${ast.toFixed(0)} ms, ${(ast / lexing).toFixed(1)}x lexing)`);
  console.log(`grammar: incremental re-parse of the ${mb.toFixed(1)} MB text after a one-line edit: ${incremental.toFixed(0)} ms`);
  console.log(`grammar: 10,000-line file (${(tenK.length / 1024).toFixed(0)} KB): full parse ${fullTenK.toFixed(1)} ms, incremental after a one-line edit ${keystroke.toFixed(1)} ms`);
}

if (require.main === module) {
  runGrammarBench().catch((e) => {
    console.error(e);
    process.exit(1);
  });
}
