// Workspace benchmark (issue "Workspaces of thousands of files"): the 2,000-file / ~50 MB workspace that
// ../shared/tools/make-workspace.py builds from ../shared/corpus, generated here at bench time (never
// committed). Measures, against the BUILT bin/ (run `npm run build` first):
//   - `cqlint lint --format json` on the first 250 files and on all 2,000: wall time and peak RSS, and
//     their ratio (the aim: 2,000 files in at most 10x the 250-file time, at most 600 MiB);
//   - the language server on the 2,000 files, with a push client and with a pull client: time to the
//     `initialize` answer, time from opening one file to its first diagnostics and to its full set, that
//     no diagnostic shown was later withdrawn, peak RSS and RSS once it has settled.
// Each is measured CQLINT_BENCH_RUNS times (3 by default) and printed with its spread.
//
//   npm run bench -- workspace        (CQLINT_BENCH_FILES=250,2000 by default)
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { performance } from 'node:perf_hooks';
import { createMessageConnection, StreamMessageReader, StreamMessageWriter } from 'vscode-jsonrpc/node';
import { benchRuns, formatSpread, spread, type Spread } from './stats';

const root = path.resolve(__dirname, '..');
export const makeWorkspace = path.resolve(root, '..', 'shared', 'tools', 'make-workspace.py');
const MiB = 1024 * 1024;

/** A preloaded script that writes the process's peak RSS (bytes) to a file when it exits. */
function rssProbe(dir: string): { preload: string; read(): number | undefined } {
  const out = path.join(dir, 'maxrss.txt');
  const preload = path.join(dir, 'rss-probe.cjs');
  writeFileSync(
    preload,
    `process.on('exit', () => { require('fs').writeFileSync(${JSON.stringify(out)}, String(process.resourceUsage().maxRSS * 1024)); });\n`,
  );
  return {
    preload,
    read: () => (existsSync(out) ? Number(readFileSync(out, 'utf8')) : undefined),
  };
}

export function buildWorkspace(dir: string, files: number): void {
  const result = spawnSync('python3', [makeWorkspace, dir, String(files)], { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`make-workspace.py failed: ${result.stderr}`);
}

export function cliRun(
  dir: string,
  probeDir: string,
): { seconds: number; peakBytes: number | undefined; exit: number | null; outputBytes: number } {
  const probe = rssProbe(probeDir);
  const started = performance.now();
  const result = spawnSync(
    process.execPath,
    ['--require', probe.preload, path.join(root, 'bin', 'cqlint.js'), 'lint', '--format', 'json', dir],
    {
      maxBuffer: 1024 * MiB,
      encoding: 'buffer',
    },
  );
  const seconds = (performance.now() - started) / 1000;
  return { seconds, peakBytes: probe.read(), exit: result.status, outputBytes: result.stdout?.length ?? 0 };
}

function rssOf(pid: number): { rss: number; peak: number } | undefined {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (key: string): number =>
      Number(/\s(\d+) kB/.exec(status.split('\n').find((l) => l.startsWith(key)) ?? '')?.[1] ?? NaN) * 1024;
    return { rss: kb('VmRSS:'), peak: kb('VmHWM:') };
  } catch {
    return undefined;
  }
}

export interface ServerMeasure {
  initializeSeconds: number;
  /** From didOpen to the first diagnostics of the opened file (push: published; pull: the first answer). */
  firstDiagnosticsSeconds: number;
  /** From didOpen to the first time the opened file's diagnostics were the full set it settled with. */
  fullDiagnosticsSeconds: number;
  /** How many diagnostics the first and the final report held. */
  firstCount: number;
  fullCount: number;
  /** Diagnostics shown before the final set that are not in it (a verdict withdrawn or changed): must be none. */
  withdrawn: number;
  peakBytes: number;
  settledBytes: number;
  progressEnded: boolean;
}

/**
 * The language server on the workspace, with one file opened right after `initialize`: every report of
 * that file's diagnostics is recorded (pushed, or pulled again on each workspace/diagnostic/refresh) until
 * nothing has come for 3 s. The reports before the last must hold only diagnostics of the last one.
 */
export async function serverRun(
  dir: string,
  openFile: string,
  mode: 'push' | 'pull',
  languageId = 'cql',
): Promise<ServerMeasure> {
  const child = spawn(process.execPath, [path.join(root, 'bin', 'cqlint-language-server.js'), '--stdio'], {
    stdio: ['pipe', 'pipe', 'ignore'],
  });
  const connection = createMessageConnection(
    new StreamMessageReader(child.stdout!),
    new StreamMessageWriter(child.stdin!),
  );
  const uri = pathToFileURL(openFile).href;
  let lastMessage = performance.now();
  let progressEnded = false;
  let progressBegun = false;
  let opened = 0;
  const reports: { at: number; diagnostics: unknown[] }[] = [];
  let pulls = Promise.resolve();
  let resultId: string | undefined;
  const pull = (): void => {
    pulls = pulls.then(async () => {
      const report = (await connection.sendRequest('textDocument/diagnostic', {
        textDocument: { uri },
        previousResultId: resultId,
      })) as { kind: string; resultId?: string; items?: unknown[] };
      lastMessage = performance.now();
      resultId = report.resultId;
      if (report.kind === 'full') reports.push({ at: performance.now() - opened, diagnostics: report.items ?? [] });
    });
  };
  connection.onNotification('textDocument/publishDiagnostics', (params: { uri: string; diagnostics: unknown[] }) => {
    lastMessage = performance.now();
    if (params.uri === uri) reports.push({ at: performance.now() - opened, diagnostics: params.diagnostics });
  });
  connection.onNotification('$/progress', (params: { value?: { kind?: string } }) => {
    lastMessage = performance.now();
    if (params.value?.kind === 'begin') progressBegun = true;
    if (params.value?.kind === 'end') progressEnded = true;
  });
  connection.onRequest('workspace/diagnostic/refresh', () => {
    lastMessage = performance.now();
    pull();
    return null;
  });
  connection.onRequest('window/workDoneProgress/create', () => null);
  connection.onRequest('workspace/configuration', (params: { items: unknown[] }) => params.items.map(() => ({})));
  connection.onRequest('client/registerCapability', () => null);
  connection.onNotification('window/logMessage', () => undefined);
  connection.listen();
  const started = performance.now();
  try {
    const textDocument =
      mode === 'pull'
        ? {
            publishDiagnostics: { relatedInformation: true },
            diagnostic: { dynamicRegistration: false, relatedDocumentSupport: false },
          }
        : { publishDiagnostics: { relatedInformation: true } };
    await connection.sendRequest('initialize', {
      processId: process.pid,
      rootUri: pathToFileURL(dir).href,
      workspaceFolders: [{ uri: pathToFileURL(dir).href, name: 'ws' }],
      capabilities: {
        window: { workDoneProgress: true },
        textDocument,
        workspace: {
          configuration: true,
          workspaceFolders: true,
          ...(mode === 'pull' ? { diagnostics: { refreshSupport: true } } : {}),
        },
      },
    });
    const initializeSeconds = (performance.now() - started) / 1000;
    connection.sendNotification('initialized', {});
    opened = performance.now();
    connection.sendNotification('textDocument/didOpen', {
      textDocument: { uri, languageId, version: 1, text: readFileSync(openFile, 'utf8') },
    });
    if (mode === 'pull') pull();
    // Settled: the indexing progress (if begun) has ended and no diagnostics or progress came for 3 s, at most
    // 10 min. The opened file's first report comes before the index is done (staged diagnostics), and on a
    // busy machine the index may send no progress for more than 3 s: quiet alone is not settled.
    const deadline = performance.now() + 600_000;
    const settled = (): boolean =>
      reports.length > 0 && (!progressBegun || progressEnded) && performance.now() - lastMessage >= 3000;
    while (!settled() && performance.now() < deadline) await new Promise((r) => setTimeout(r, 250));
    await pulls;
    const memory = rssOf(child.pid!);
    if (!reports.length) throw new Error(`no diagnostics for ${openFile}`);
    const key = (d: unknown): string => JSON.stringify(d);
    const final = reports[reports.length - 1]!.diagnostics;
    const finalKeys = new Set(final.map(key));
    const finalText = JSON.stringify(final.map(key).sort());
    const full = reports.find((r) => JSON.stringify(r.diagnostics.map(key).sort()) === finalText)!;
    let withdrawn = 0;
    for (const r of reports) for (const d of r.diagnostics) if (!finalKeys.has(key(d))) withdrawn++;
    return {
      initializeSeconds,
      firstDiagnosticsSeconds: reports[0]!.at / 1000,
      fullDiagnosticsSeconds: full.at / 1000,
      firstCount: reports[0]!.diagnostics.length,
      fullCount: final.length,
      withdrawn,
      peakBytes: memory?.peak ?? NaN,
      settledBytes: memory?.rss ?? NaN,
      progressEnded,
    };
  } finally {
    connection.dispose();
    child.kill();
  }
}

export function firstCqlFile(dir: string): string {
  const sub = readdirSync(dir).sort()[0]!;
  const file = readdirSync(path.join(dir, sub)).sort()[0]!;
  return path.join(dir, sub, file);
}

export async function runWorkspaceBench(): Promise<void> {
  if (!existsSync(makeWorkspace)) {
    console.log(`workspace: ${makeWorkspace} is not here (../shared is optional); nothing measured`);
    return;
  }
  if (!existsSync(path.join(root, 'dist', 'cli.js')))
    throw new Error('run `npm run build` first: this bench runs the built bin/');
  const sizes = (process.env.CQLINT_BENCH_FILES ?? '250,2000')
    .split(',')
    .map(Number)
    .filter((n) => n > 0);
  const runs = benchRuns(3);
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'cqlint-ws-bench-'));
  const mib = (bytes: number[]): Spread => spread(bytes.map((b) => b / MiB));
  try {
    const cli: { files: number; seconds: number[] }[] = [];
    for (const files of sizes) {
      const dir = path.join(tmp, `ws${files}`);
      buildWorkspace(dir, files);
      const seconds: number[] = [];
      const peaks: number[] = [];
      const outputs = new Set<number>();
      const exits = new Set<number | null>();
      for (let i = 0; i < runs; i++) {
        const run = cliRun(dir, tmp);
        seconds.push(run.seconds);
        if (run.peakBytes) peaks.push(run.peakBytes);
        outputs.add(run.outputBytes);
        exits.add(run.exit);
      }
      cli.push({ files, seconds });
      console.log(
        `cli lint --format json, ${files} files: ${formatSpread(spread(seconds), 's')}, peak RSS ${formatSpread(mib(peaks), 'MiB', 0)}, ` +
          `output ${[...outputs].map((b) => (b / MiB).toFixed(1)).join(' / ')} MiB, exit ${[...exits].join(' / ')}`,
      );
    }
    if (cli.length >= 2) {
      const [a, b] = [cli[0]!, cli[cli.length - 1]!];
      const ratios = b.seconds.map((s, i) => s / a.seconds[i % a.seconds.length]!);
      console.log(
        `cli time ratio ${b.files}/${a.files} files, run by run: ${formatSpread(spread(ratios), 'x')} for ${(b.files / a.files).toFixed(0)}x the files (aim ≤ 10x)`,
      );
    }
    const largest = path.join(tmp, `ws${sizes[sizes.length - 1]}`);
    const openFile = firstCqlFile(largest);
    for (const mode of ['push', 'pull'] as const) {
      const measures: ServerMeasure[] = [];
      for (let i = 0; i < runs; i++) measures.push(await serverRun(largest, openFile, mode));
      const of = (f: (m: ServerMeasure) => number): Spread => spread(measures.map(f));
      const withdrawn = measures.reduce((n, m) => n + m.withdrawn, 0);
      console.log(
        `server on ${sizes[sizes.length - 1]} files, ${mode} client: initialize answered in ${formatSpread(
          of((m) => m.initializeSeconds),
          's',
          2,
        )} (aim < 1 s); ` +
          `the opened file's first diagnostics ${formatSpread(
            of((m) => m.firstDiagnosticsSeconds),
            's',
            2,
          )} after didOpen (${[...new Set(measures.map((m) => m.firstCount))].join(' / ')} diagnostics), ` +
          `its full set ${formatSpread(
            of((m) => m.fullDiagnosticsSeconds),
            's',
          )} after didOpen (${[...new Set(measures.map((m) => m.fullCount))].join(' / ')} diagnostics); ` +
          `${withdrawn ? `${withdrawn} DIAGNOSTICS SHOWN, THEN WITHDRAWN OR CHANGED` : 'no diagnostic shown and later withdrawn or changed'}`,
      );
      console.log(
        `server on ${sizes[sizes.length - 1]} files, ${mode} client: peak RSS ${formatSpread(mib(measures.map((m) => m.peakBytes)), 'MiB', 0)} (aim ≤ 800), ` +
          `settled ${formatSpread(mib(measures.map((m) => m.settledBytes)), 'MiB', 0)} (aim ≤ 300)` +
          (measures.every((m) => m.progressEnded) ? ', indexing progress ended' : ''),
      );
      if (withdrawn)
        throw new Error(`${mode}: diagnostics of the opened file were shown and later withdrawn or changed`);
    }
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

if (require.main === module) {
  runWorkspaceBench().catch((error) => {
    console.error(error);
    process.exitCode = 1;
  });
}
