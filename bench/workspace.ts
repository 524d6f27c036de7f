// Workspace benchmark (issue "Workspaces of thousands of files"): the 2,000-file / ~50 MB workspace that
// ../shared/tools/make-workspace.py builds from ../shared/corpus, generated here at bench time (never
// committed). Measures, against the BUILT bin/ (run `npm run build` first):
//   - `cqlint lint --format json` on the first 250 files and on all 2,000: wall time and peak RSS, and
//     their ratio (the aim: 2,000 files in at most 10x the 250-file time, at most 600 MiB);
//   - the language server on the 2,000 files: time to the `initialize` answer, time to the diagnostics
//     of one opened file, peak RSS and RSS once it has settled.
//
//   npm run bench -- workspace        (CQLINT_BENCH_FILES=250,2000 by default)
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { performance } from 'node:perf_hooks';
import { createMessageConnection, StreamMessageReader, StreamMessageWriter } from 'vscode-jsonrpc/node';

const root = path.resolve(__dirname, '..');
const makeWorkspace = path.resolve(root, '..', 'shared', 'tools', 'make-workspace.py');
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

function buildWorkspace(dir: string, files: number): void {
  const result = spawnSync('python3', [makeWorkspace, dir, String(files)], { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`make-workspace.py failed: ${result.stderr}`);
}

function cliRun(dir: string, probeDir: string): { seconds: number; peakBytes: number | undefined; exit: number | null; outputBytes: number } {
  const probe = rssProbe(probeDir);
  const started = performance.now();
  const result = spawnSync(process.execPath, ['--require', probe.preload, path.join(root, 'bin', 'cqlint.js'), 'lint', '--format', 'json', dir], {
    maxBuffer: 1024 * MiB,
    encoding: 'buffer',
  });
  const seconds = (performance.now() - started) / 1000;
  return { seconds, peakBytes: probe.read(), exit: result.status, outputBytes: result.stdout?.length ?? 0 };
}

function rssOf(pid: number): { rss: number; peak: number } | undefined {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (key: string): number => Number(/\s(\d+) kB/.exec(status.split('\n').find((l) => l.startsWith(key)) ?? '')?.[1] ?? NaN) * 1024;
    return { rss: kb('VmRSS:'), peak: kb('VmHWM:') };
  } catch {
    return undefined;
  }
}

interface ServerMeasure {
  initializeSeconds: number;
  openDiagnosticsSeconds: number;
  peakBytes: number;
  settledBytes: number;
  progressEnded: boolean;
}

async function serverRun(dir: string, openFile: string): Promise<ServerMeasure> {
  const child = spawn(process.execPath, [path.join(root, 'bin', 'cqlint-language-server.js'), '--stdio'], { stdio: ['pipe', 'pipe', 'ignore'] });
  const connection = createMessageConnection(new StreamMessageReader(child.stdout!), new StreamMessageWriter(child.stdin!));
  const uri = pathToFileURL(openFile).href;
  let lastMessage = performance.now();
  let progressEnded = false;
  let resolveDiagnostics: () => void = () => undefined;
  const diagnosticsOfOpenFile = new Promise<void>((resolve) => (resolveDiagnostics = resolve));
  connection.onNotification('textDocument/publishDiagnostics', (params: { uri: string }) => {
    lastMessage = performance.now();
    if (params.uri === uri) resolveDiagnostics();
  });
  connection.onNotification('$/progress', (params: { value?: { kind?: string } }) => {
    lastMessage = performance.now();
    if (params.value?.kind === 'end') progressEnded = true;
  });
  connection.onRequest('window/workDoneProgress/create', () => null);
  connection.onRequest('workspace/configuration', (params: { items: unknown[] }) => params.items.map(() => ({})));
  connection.onRequest('client/registerCapability', () => null);
  connection.onNotification('window/logMessage', () => undefined);
  connection.listen();
  const started = performance.now();
  try {
    await connection.sendRequest('initialize', {
      processId: process.pid,
      rootUri: pathToFileURL(dir).href,
      workspaceFolders: [{ uri: pathToFileURL(dir).href, name: 'ws' }],
      capabilities: { window: { workDoneProgress: true }, workspace: { configuration: true, workspaceFolders: true } },
    });
    const initializeSeconds = (performance.now() - started) / 1000;
    connection.sendNotification('initialized', {});
    connection.sendNotification('textDocument/didOpen', {
      textDocument: { uri, languageId: 'cql', version: 1, text: readFileSync(openFile, 'utf8') },
    });
    await diagnosticsOfOpenFile;
    const openDiagnosticsSeconds = (performance.now() - started) / 1000;
    // Settled: no diagnostics or progress for 3 s (the background index, if any, is done), at most 10 min.
    const deadline = performance.now() + 600_000;
    while (performance.now() - lastMessage < 3000 && performance.now() < deadline) await new Promise((r) => setTimeout(r, 250));
    const memory = rssOf(child.pid!);
    return {
      initializeSeconds,
      openDiagnosticsSeconds,
      peakBytes: memory?.peak ?? NaN,
      settledBytes: memory?.rss ?? NaN,
      progressEnded,
    };
  } finally {
    connection.dispose();
    child.kill();
  }
}

function firstCqlFile(dir: string): string {
  const sub = readdirSync(dir).sort()[0]!;
  const file = readdirSync(path.join(dir, sub)).sort()[0]!;
  return path.join(dir, sub, file);
}

export async function runWorkspaceBench(): Promise<void> {
  if (!existsSync(makeWorkspace)) {
    console.log(`workspace: ${makeWorkspace} is not here (../shared is optional); nothing measured`);
    return;
  }
  if (!existsSync(path.join(root, 'dist', 'cli.js'))) throw new Error('run `npm run build` first: this bench runs the built bin/');
  const sizes = (process.env.CQLINT_BENCH_FILES ?? '250,2000').split(',').map(Number).filter((n) => n > 0);
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'cqlint-ws-bench-'));
  try {
    const cli: { files: number; seconds: number; peakBytes?: number }[] = [];
    for (const files of sizes) {
      const dir = path.join(tmp, `ws${files}`);
      buildWorkspace(dir, files);
      const run = cliRun(dir, tmp);
      cli.push({ files, seconds: run.seconds, peakBytes: run.peakBytes });
      console.log(
        `cli lint --format json, ${files} files: ${run.seconds.toFixed(1)} s, peak RSS ${run.peakBytes ? (run.peakBytes / MiB).toFixed(0) : '?'} MiB, ` +
          `output ${(run.outputBytes / MiB).toFixed(1)} MiB, exit ${run.exit}`,
      );
    }
    if (cli.length >= 2) {
      const [a, b] = [cli[0]!, cli[cli.length - 1]!];
      console.log(`cli time ratio ${b.files}/${a.files} files: ${(b.seconds / a.seconds).toFixed(1)}x for ${(b.files / a.files).toFixed(0)}x the files (aim ≤ 10x)`);
    }
    const largest = path.join(tmp, `ws${sizes[sizes.length - 1]}`);
    const server = await serverRun(largest, firstCqlFile(largest));
    console.log(
      `server on ${sizes[sizes.length - 1]} files: initialize answered in ${server.initializeSeconds.toFixed(2)} s (aim < 1 s), ` +
        `opened file's diagnostics at ${server.openDiagnosticsSeconds.toFixed(1)} s (aim ≤ 15 s), ` +
        `peak RSS ${(server.peakBytes / MiB).toFixed(0)} MiB (aim ≤ 800), settled ${(server.settledBytes / MiB).toFixed(0)} MiB (aim ≤ 300)` +
        (server.progressEnded ? ', indexing progress ended' : ''),
    );
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
