// Analysis benchmark: one 10,000-line CQL file of keyspaces, tables (various keys), indexes, views and
// SELECT/INSERT/UPDATE/DELETE/BATCH queries on them. Measures
//   (a) in process: parse, full Project.lint, and re-lint after a one-line edit (incremental);
//   (b) through the language server (spawned over stdio, as an editor runs it), push and pull clients:
//       didOpen -> diagnostics and one-line didChange -> diagnostics.
// Goals (issue "Partition-key analysis"): full analysis under 100 ms, re-analysis after an edit under 30 ms.
//
//   npx tsx bench/analysis.ts            (or through `npm run bench`)
import { readdirSync, readFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import type { Diagnostic, DocumentDiagnosticReport } from 'vscode-languageserver-protocol';
import { parseCql } from '../grammar';
import { lexCql } from '../grammar/lexer';
import { Project } from '../server/core/engine/project';
import { isSchemaStatement } from '../server/core/engine/statement-keys';
import { PUSH_DEBOUNCE_MS } from '../server/lsp/features/diagnostics';
import {
  capabilities,
  projectRoot,
  startServerCommand,
  tempWorkspace,
  type SpawnedLspClient,
} from '../scripts/lsp-client';
import { corpusText } from './corpus';
import { cpuMs, formatSpread, rates, spread, timeMs } from './stats';

const TARGET_LINES = 10_000;
const IN_PROCESS_SAMPLES = 30;
const SERVER_SAMPLES = 30;

export interface AnalysisWorkload {
  text: string;
  lines: number;
  statements: number;
  /** Line numbers (0-based) of query lines a one-line edit may change: `... = 'v<n>'` literals. */
  editableLines: number[];
}

/** A deterministic 10,000-line file: keyspaces, tables with various keys, indexes, views and queries. */
export function generateAnalysisFile(targetLines = TARGET_LINES): AnalysisWorkload {
  const out: string[] = [];
  const editableLines: number[] = [];
  let statements = 0;
  const push = (...lines: string[]): void => {
    out.push(...lines);
  };
  type T = { q: string; pk: string[]; ck: string[]; cols: Record<string, string> };
  const tables: T[] = [];
  const keyspaces = ['shop', 'iot', 'social', 'billing'];
  let n = 0;
  const makeTables = (ks: string, round: number): void => {
    push(
      `CREATE KEYSPACE IF NOT EXISTS ${ks}${round ? `_${round}` : ''} WITH replication = {'class': 'NetworkTopologyStrategy', 'dc1': 3};`,
      '',
    );
    statements++;
    const k = `${ks}${round ? `_${round}` : ''}`;
    for (let t = 0; t < 6; t++, n++) {
      const variant = n % 6;
      let ddl: string[];
      let tb: T;
      if (variant === 0) {
        tb = {
          q: `${k}.orders_${n}`,
          pk: ['customer_id'],
          ck: ['order_time', 'order_id'],
          cols: {
            customer_id: 'uuid',
            order_time: 'timestamp',
            order_id: 'timeuuid',
            status: 'text',
            total: 'decimal',
            items: 'list<text>',
          },
        };
        ddl = [
          `CREATE TABLE IF NOT EXISTS ${tb.q} (`,
          '  customer_id uuid,',
          '  order_time timestamp,',
          '  order_id timeuuid,',
          '  status text,',
          '  total decimal,',
          '  items list<text>,',
          '  PRIMARY KEY (customer_id, order_time, order_id)',
          ') WITH CLUSTERING ORDER BY (order_time DESC, order_id ASC);',
        ];
      } else if (variant === 1) {
        tb = {
          q: `${k}.readings_${n}`,
          pk: ['sensor_id', 'day'],
          ck: ['ts'],
          cols: { sensor_id: 'uuid', day: 'date', ts: 'timestamp', value: 'double', unit: 'text' },
        };
        ddl = [
          `CREATE TABLE ${tb.q} (`,
          '  sensor_id uuid,',
          '  day date,',
          '  ts timestamp,',
          '  value double,',
          '  unit text,',
          '  PRIMARY KEY ((sensor_id, day), ts)',
          ') WITH default_time_to_live = 864000;',
        ];
      } else if (variant === 2) {
        tb = {
          q: `${k}.events_by_status_${n}`,
          pk: ['status'],
          ck: ['created_at', 'event_id'],
          cols: { status: 'text', created_at: 'timestamp', event_id: 'uuid', payload: 'blob' },
        };
        ddl = [
          `CREATE TABLE ${tb.q} (`,
          '  status text,',
          '  created_at timestamp,',
          '  event_id uuid,',
          '  payload blob,',
          '  PRIMARY KEY (status, created_at, event_id)',
          ');',
        ];
      } else if (variant === 3) {
        tb = {
          q: `${k}.users_${n}`,
          pk: ['user_id'],
          ck: [],
          cols: { user_id: 'uuid', email: 'text', name: 'text', country: 'text', created_at: 'timestamp' },
        };
        ddl = [
          `CREATE TABLE ${tb.q} (`,
          '  user_id uuid PRIMARY KEY,',
          '  email text,',
          '  name text,',
          '  country text,',
          '  created_at timestamp',
          ');',
          `CREATE INDEX IF NOT EXISTS users_${n}_country ON ${tb.q} (country);`,
        ];
        statements++;
      } else if (variant === 4) {
        tb = {
          q: `${k}.logs_${n}`,
          pk: ['server'],
          ck: ['log_time'],
          cols: { server: 'text', log_time: 'timestamp', level: 'text', message: 'text' },
        };
        ddl = [
          `CREATE TABLE ${tb.q} (`,
          '  server text,',
          '  log_time timestamp,',
          '  level text,',
          '  message text,',
          '  PRIMARY KEY (server, log_time)',
          ');',
        ];
      } else {
        tb = {
          q: `${k}.posts_${n}`,
          pk: ['publish_date', 'shard'],
          ck: ['title'],
          cols: { publish_date: 'date', shard: 'int', title: 'text', author: 'text', body: 'text' },
        };
        ddl = [
          `-- @shard shard = murmur3(title) % 16 + 1`,
          `CREATE TABLE ${tb.q} (`,
          '  publish_date date,',
          '  shard int,',
          '  title text,',
          '  author text,',
          '  body text,',
          '  PRIMARY KEY ((publish_date, shard), title)',
          ');',
          `CREATE MATERIALIZED VIEW IF NOT EXISTS ${k}.posts_by_author_${n} AS`,
          `  SELECT * FROM ${tb.q}`,
          '  WHERE author IS NOT NULL AND publish_date IS NOT NULL AND shard IS NOT NULL AND title IS NOT NULL',
          '  PRIMARY KEY (author, publish_date, shard, title);',
        ];
        statements++;
      }
      push(...ddl, '');
      statements++;
      tables.push(tb);
    }
  };
  const literal = (type: string, i: number): string => {
    switch (type) {
      case 'uuid':
      case 'timeuuid':
        return `${(0x10000000 + i).toString(16)}-1234-4321-8888-00000000${String(i % 10000).padStart(4, '0')}`;
      case 'timestamp':
        return `'2024-01-${String(1 + (i % 28)).padStart(2, '0')} 10:00:00'`;
      case 'date':
        return `'2024-02-${String(1 + (i % 28)).padStart(2, '0')}'`;
      case 'int':
        return String(1 + (i % 16));
      case 'double':
      case 'decimal':
        return `${i}.5`;
      case 'blob':
        return '0xcafe';
      case 'list<text>':
        return "['a', 'b']";
      default:
        return `'v${i}'`;
    }
  };
  const queries = (round: number): void => {
    for (let i = 0; i < 40 && out.length < targetLines; i++) {
      const idx = round * 40 + i;
      const t = tables[(idx * 7) % tables.length]!;
      const key = [...t.pk, ...t.ck];
      const cols = Object.keys(t.cols);
      const nonKey = cols.filter((c) => !key.includes(c));
      const kind = idx % 8;
      const whereKey = (cs: string[]) => cs.map((c) => `${c} = ${literal(t.cols[c]!, idx)}`).join(' AND ');
      if (kind === 0 || kind === 1) {
        // Now and then a misspelt column (unknown-column with a suggestion).
        const selected = nonKey.slice(0, 2).map((c) => (idx % 10 === 1 ? c.slice(0, -1) : c));
        push(`SELECT ${selected.join(', ') || '*'}`, `  FROM ${t.q}`, `  WHERE ${whereKey(t.pk)};`);
      } else if (kind === 2) {
        push(`SELECT * FROM ${t.q} WHERE ${nonKey[0] ?? t.pk[0]} = 'v${idx}' ALLOW FILTERING;`);
      } else if (kind === 3) {
        // Index queries on users tables; full scans elsewhere.
        push(
          t.cols['country'] ? `SELECT email FROM ${t.q} WHERE country = 'c${idx}';` : `SELECT count(*) FROM ${t.q};`,
        );
      } else if (kind === 4) {
        push(
          `INSERT INTO ${t.q} (${cols.join(', ')})`,
          `  VALUES (${cols.map((c) => literal(t.cols[c]!, idx)).join(', ')})`,
          '  USING TTL 86400;',
        );
      } else if (kind === 5) {
        const target = nonKey.find((c) => t.cols[c] === 'text') ?? nonKey[0]!;
        editableLines.push(out.length + 1);
        push(
          `UPDATE ${t.q}`,
          `  SET ${target} = ${literal(t.cols[target] ?? 'text', idx)}`,
          `  WHERE ${whereKey(key)};`,
        );
      } else if (kind === 6) {
        push(`DELETE FROM ${t.q} WHERE ${whereKey(t.pk.slice(0, 1))};`);
      } else {
        const u = tables[(idx * 11) % tables.length]!;
        const ucols = Object.keys(u.cols);
        push(
          'BEGIN UNLOGGED BATCH',
          `  INSERT INTO ${t.q} (${cols.join(', ')}) VALUES (${cols.map((c) => literal(t.cols[c]!, idx)).join(', ')});`,
          `  INSERT INTO ${u.q} (${ucols.join(', ')}) VALUES (${ucols.map((c) => literal(u.cols[c]!, idx + 1)).join(', ')});`,
          'APPLY BATCH;',
        );
      }
      statements++;
      push('');
    }
  };
  let round = 0;
  while (out.length < targetLines) {
    for (const ks of keyspaces) if (round % 4 === 0) makeTables(ks, round);
    queries(round);
    round++;
  }
  out.length = targetLines;
  // Editable lines must be `  SET col = '...'` lines that survived the cut.
  const editable = editableLines.filter((l) => l < targetLines - 1 && /^ {2}SET \w+ = '/.test(out[l]!));
  return { text: out.join('\n') + '\n', lines: targetLines, statements, editableLines: editable };
}

/** The text with one edit on `line`: the SET literal gets a different value (a keystroke-sized change). */
export function editLine(text: string, line: number, variant: number): string {
  let start = 0;
  for (let i = 0; i < line; i++) start = text.indexOf('\n', start) + 1;
  const end = text.indexOf('\n', start);
  const old = text.slice(start, end);
  const replaced = old.replace(/= '([^']*)'/, `= 'e${variant}'`);
  return text.slice(0, start) + replaced + text.slice(end);
}

function percentile(sorted: number[], p: number): number {
  if (!sorted.length) return NaN;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i]!;
}

interface Stat {
  min: number;
  p50: number;
  p95: number;
  max: number;
  n: number;
}

function stat(samples: number[]): Stat {
  const sorted = [...samples].sort((a, b) => a - b);
  return {
    min: sorted[0]!,
    p50: percentile(sorted, 50),
    p95: percentile(sorted, 95),
    max: sorted[sorted.length - 1]!,
    n: samples.length,
  };
}

/** A figure with its spread: the median, and the lowest, 95th percentile and highest of the runs. */
function line(name: string, s: Stat, goal?: number): void {
  const verdict = goal === undefined ? '' : `  (goal < ${goal} ms: ${s.p50 < goal ? 'OK' : 'ABOVE GOAL'})`;
  const range =
    s.n > 1
      ? `  min ${s.min.toFixed(1).padStart(7)} ms  p95 ${s.p95.toFixed(1).padStart(7)} ms  max ${s.max.toFixed(1).padStart(7)} ms`
      : '  (one run)';
  console.log(
    `  ${name.padEnd(44)} n=${String(s.n).padStart(3)}  median ${s.p50.toFixed(1).padStart(7)} ms${range}${verdict}`,
  );
}

function inProcess(work: AnalysisWorkload): void {
  const file = '/bench/analysis.cql';
  // Warm the parser (Chevrotain builds its tables on first use) and the JIT.
  for (let i = 0; i < 3; i++) new Project({ config: {} }).setFile(file, work.text);
  {
    const p = new Project({ config: {} });
    p.setFile(file, work.text);
    p.lint(file);
  }

  const parse = stat(Array.from({ length: IN_PROCESS_SAMPLES }, () => timeMs(() => parseCql(work.text))));
  // For reference: lexing the whole text, which the incremental parse no longer does (it lexes the edit).
  const lex = stat(Array.from({ length: IN_PROCESS_SAMPLES }, () => timeMs(() => lexCql(work.text))));
  let findings = 0;
  const full = stat(
    Array.from({ length: IN_PROCESS_SAMPLES }, () => {
      const project = new Project({ config: {} });
      project.setFile(file, work.text);
      return timeMs(() => {
        findings = project.lint(file).length;
      });
    }),
  );
  // Full lint without the parse: what the rules and the schema cost.
  const rulesOnly = stat(
    Array.from({ length: IN_PROCESS_SAMPLES }, () => {
      const project = new Project({ config: {} });
      project.setFile(file, work.text);
      project.parse(file);
      return timeMs(() => project.lint(file));
    }),
  );
  // Re-lint after a one-line edit, on a project that linted the previous text (the editor's case: the file is open).
  const project = new Project({ config: {}, editing: () => true });
  let text = work.text;
  project.setFile(file, text);
  project.lint(file);
  const edit: number[] = [];
  const editParse: number[] = [];
  for (let i = 0; i < IN_PROCESS_SAMPLES; i++) {
    text = editLine(text, work.editableLines[(i * 37) % work.editableLines.length]!, i);
    project.setFile(file, text);
    edit.push(
      timeMs(() => {
        editParse.push(timeMs(() => project.parse(file)));
        project.lint(file);
      }),
    );
  }
  // The same edits by CPU time (setFile included), which a machine busy with other work skews less than wall time.
  const editCpu: number[] = [];
  for (let i = 0; i < IN_PROCESS_SAMPLES; i++) {
    text = editLine(text, work.editableLines[(i * 37) % work.editableLines.length]!, 100 + i);
    editCpu.push(
      cpuMs(() => {
        project.setFile(file, text);
        project.lint(file);
      }),
    );
  }
  // A space typed just after the first word of a query that follows a CREATE or ALTER closely, then taken out: the
  // incremental parse re-lexes the schema statement before it (the lexer may have looked past its `;`).
  const parsed = parseCql(text).statements;
  const starts: number[] = [];
  for (let i = 1; i < parsed.length; i++) {
    const before = parsed[i - 1]!;
    const stmt = parsed[i]!;
    if (/^(Create|Alter)/.test(before.kind) && !isSchemaStatement(stmt) && stmt.range.start - before.range.end < 12)
      starts.push(stmt.range.start + text.slice(stmt.range.start, stmt.range.end).search(/\s|$/));
  }
  /** Re-lint times of `char` typed at each place in turn and taken out again (two edits per place). */
  const typedAndTakenOut = (places: readonly number[], char: string): number[] => {
    const times: number[] = [];
    for (let i = 0; i < IN_PROCESS_SAMPLES && places.length; i++) {
      const at = places[(i >> 1) % places.length]!;
      text = i % 2 === 0 ? text.slice(0, at) + char + text.slice(at) : text.slice(0, at) + text.slice(at + char.length);
      project.setFile(file, text);
      times.push(timeMs(() => project.lint(file)));
    }
    return times;
  };
  const startEdit = typedAndTakenOut(starts, ' ');
  // A character typed at the start of a CREATE TABLE's first column name, then taken out: a new file schema and
  // model, so every statement's key is looked up again and the rules that read the workspace's definitions run.
  const tableStarts: number[] = [];
  for (const stmt of parseCql(text).statements) {
    if (stmt.kind !== 'CreateTable' || tableStarts.length >= 15) continue;
    tableStarts.push(stmt.range.start + text.slice(stmt.range.start, stmt.range.end).indexOf('(') + 1);
  }
  const tableEdit = typedAndTakenOut(tableStarts, 'x');
  // A character typed at 200 places spread over the file (a fixed pseudo-random sequence), each then taken out:
  // where a keystroke lands in a schema statement, a keyspace or a query start, the re-lint does more.
  const anywhere: number[] = [];
  let seed = 12345;
  for (let i = 0; i < 200; i++) {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    const at = Math.floor((seed / 2147483648) * text.length);
    const original = text;
    project.setFile(file, `${text.slice(0, at)}x${text.slice(at)}`);
    anywhere.push(timeMs(() => project.lint(file)));
    project.setFile(file, original);
    project.lint(file);
  }
  console.log(
    `analysis (in process): ${work.lines} lines, ${(work.text.length / 1024).toFixed(0)} KB, ${work.statements} statements, ${findings} findings`,
  );
  line('parse (parseCql, no previous)', parse);
  line('full lint (parse + schema + rules)', full, 100);
  line('  of which schema + rules (parsed already)', rulesOnly);
  line('re-lint after a one-line edit', stat(edit), 30);
  line('  of which incremental parse (grammar/)', stat(editParse));
  line('the same edits, CPU time (setFile included)', stat(editCpu), 30);
  if (startEdit.length) line('re-lint after a space typed at a query start', stat(startEdit), 30);
  if (tableEdit.length) line('re-lint after a character typed in a table', stat(tableEdit), 30);
  line('re-lint after a character typed anywhere', stat(anywhere), 30);
  line('  (for reference) lexing the whole text', lex);
}

/**
 * Project.lint of the grammar bench's corpus text (6 MB of real CQL), parse included, as a throughput;
 * beside it, parseCql alone on the same text and the lint of an already parsed text, run by run.
 */
function corpusLint(): void {
  const { text, mb } = corpusText();
  const file = '/bench/corpus.cql';
  const fresh = (): Project => {
    const project = new Project({ config: {} });
    project.setFile(file, text);
    return project;
  };
  fresh().lint(file); // warm-up
  const RUNS = 5;
  const total: number[] = [];
  const parse: number[] = [];
  const rules: number[] = [];
  let findings = 0;
  for (let i = 0; i < RUNS; i++) {
    const project = fresh();
    total.push(timeMs(() => (findings = project.lint(file).length)));
    parse.push(timeMs(() => parseCql(text)));
    const parsed = fresh();
    parsed.parse(file);
    rules.push(timeMs(() => parsed.lint(file)));
  }
  console.log(
    `analysis (in process): Project.lint of the corpus text (${mb.toFixed(1)} MB, ${findings} findings), ${RUNS} runs interleaved:`,
  );
  console.log(`  parse + schema + rules     ${formatSpread(spread(rates(mb, total)), 'MB/s')}`);
  console.log(`  parseCql alone             ${formatSpread(spread(rates(mb, parse)), 'MB/s')}`);
  console.log(`  schema + rules (parsed)    ${formatSpread(spread(rates(mb, rules)), 'MB/s')}`);
}

/**
 * The CPU time a process has run so far (every thread, user and system), in ms, from Linux's per-thread
 * schedstat (nanoseconds); undefined where there is none. Read while the server waits for the next message,
 * it is the work its answers took, which a busy machine does not stretch as it does their wall time.
 */
function processCpuMs(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    let ns = 0;
    for (const task of readdirSync(`/proc/${pid}/task`)) {
      try {
        ns += Number(readFileSync(`/proc/${pid}/task/${task}/schedstat`, 'utf8').split(' ')[0]);
      } catch {
        // a thread that ended meanwhile
      }
    }
    return Number.isFinite(ns) ? ns / 1e6 : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Opens the file and edits it through a spawned server. `expected`: the full set's size (from the pull run),
 * which a push client's first publications are waited for by: while the workspace index runs, an opened
 * file's first report holds only its file-local findings (staged diagnostics). Answers the full set's size.
 */
async function throughServer(work: AnalysisWorkload, mode: 'push' | 'pull', expected?: number): Promise<number> {
  const ws = tempWorkspace({});
  const client: SpawnedLspClient = startServerCommand(
    process.execPath,
    ['--import', 'tsx', path.join('server', 'lsp', 'main.ts'), '--stdio'],
    { cwd: projectRoot },
  );
  const uri = ws.uri('analysis.cql');
  const caps = mode === 'pull' ? capabilities.pull : capabilities.push;
  let text = work.text;
  const diagnose = async (): Promise<Diagnostic[]> => {
    if (mode === 'push') return client.waitForDiagnostics(uri, undefined, 60_000);
    const report = (await client.pullDiagnostics(uri)) as DocumentDiagnosticReport & { items?: Diagnostic[] };
    return report.items ?? [];
  };
  try {
    await client.initialize(caps, { workspaceFolders: [ws.dir] });
    // The (empty) folder's index first (pull), or the warm-up's full set (push): this bench times the full set.
    if (mode === 'pull') await client.whenIndexed();
    const full = (d: Diagnostic[]): boolean => expected === undefined || d.length === expected;
    // Warm-up: the first open builds the parser's tables (seconds); not what the benchmark is about.
    await client.open(ws.uri('warmup.cql'), work.text);
    if (mode === 'push') await client.waitForDiagnostics(ws.uri('warmup.cql'), full, 60_000);
    else await client.pullDiagnostics(ws.uri('warmup.cql'));
    await client.close(ws.uri('warmup.cql'));

    let start = performance.now();
    await client.open(uri, text);
    const diagnostics = mode === 'push' ? await client.waitForDiagnostics(uri, full, 60_000) : await diagnose();
    const open = performance.now() - start;
    const note = mode === 'push' ? ` (includes the ${PUSH_DEBOUNCE_MS} ms push debounce)` : '';
    console.log(`analysis through the server, ${mode} diagnostics: ${diagnostics.length} diagnostics`);
    line(`didOpen -> diagnostics${note}`, { min: open, p50: open, p95: open, max: open, n: 1 });

    const samples: number[] = [];
    const serverCpu: number[] = [];
    const clientCpu: number[] = [];
    for (let i = 0; i < SERVER_SAMPLES; i++) {
      const l = work.editableLines[(i * 53) % work.editableLines.length]!;
      const next = editLine(text, l, 1000 + i);
      // An incremental didChange of the one line, as editors send it.
      const before = text.split('\n')[l]!;
      const after = next.split('\n')[l]!;
      text = next;
      const cpuBefore = processCpuMs(client.process.pid);
      const ownBefore = process.cpuUsage();
      start = performance.now();
      await client.change(uri, [
        { range: { start: { line: l, character: 0 }, end: { line: l, character: before.length } }, text: after },
      ]);
      await diagnose();
      samples.push(performance.now() - start);
      const own = process.cpuUsage(ownBefore);
      clientCpu.push((own.user + own.system) / 1000);
      const cpuAfter = processCpuMs(client.process.pid);
      if (cpuBefore !== undefined && cpuAfter !== undefined) serverCpu.push(cpuAfter - cpuBefore);
    }
    if (mode === 'pull') {
      // As VS Code pulls: with the previous resultId, so unchanged diagnostics come back as `unchanged`.
      let previousResultId: string | undefined = ((await client.pullDiagnostics(uri)) as { resultId?: string })
        .resultId;
      const vscodeLike: number[] = [];
      let unchanged = 0;
      for (let i = 0; i < SERVER_SAMPLES; i++) {
        const l = work.editableLines[(i * 29) % work.editableLines.length]!;
        const next = editLine(text, l, 2000 + i);
        const before = text.split('\n')[l]!;
        const after = next.split('\n')[l]!;
        text = next;
        const t0 = performance.now();
        await client.change(uri, [
          { range: { start: { line: l, character: 0 }, end: { line: l, character: before.length } }, text: after },
        ]);
        const report = (await client.pullDiagnostics(uri, previousResultId)) as { kind: string; resultId?: string };
        vscodeLike.push(performance.now() - t0);
        if (report.kind === 'unchanged') unchanged++;
        previousResultId = report.resultId;
      }
      line(`the same with previousResultId (${unchanged}/${SERVER_SAMPLES} unchanged)`, stat(vscodeLike), 30);
    }
    const s = stat(samples);
    const debounce = mode === 'push' ? PUSH_DEBOUNCE_MS : 0;
    line(`one-line didChange -> diagnostics${note}`, s);
    if (serverCpu.length) line("  the server's CPU time for it (all threads)", stat(serverCpu));
    line("  this client's CPU time (sending, reading)", stat(clientCpu));
    if (mode === 'push') {
      const ex = { min: s.min - debounce, p50: s.p50 - debounce, p95: s.p95 - debounce, max: s.max - debounce, n: s.n };
      line('  the same, excluding the debounce', ex, 30);
      console.log(`  (open excluding the debounce: ${(open - debounce).toFixed(1)} ms; goal < 100 ms)`);
    } else {
      const ex = { ...s };
      line('  (pull: no debounce; the edit is analysed on the pull)', ex, 30);
    }
    return diagnostics.length;
  } finally {
    await client.shutdown().catch(() => undefined);
    ws.cleanup();
  }
}

export async function runAnalysisBench(): Promise<void> {
  const work = generateAnalysisFile();
  const load = os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
  console.log(
    `analysis bench: ${os.cpus().length} CPUs, load average ${load} (other work on the machine skews the numbers)`,
  );
  inProcess(work);
  corpusLint();
  const full = await throughServer(work, 'pull');
  await throughServer(work, 'push', full);
  console.log(
    `analysis bench: load average now ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
}

if (require.main === module) {
  runAnalysisBench().catch((error) => {
    console.error(error);
    process.exitCode = 1;
  });
}
