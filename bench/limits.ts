// Large-input benchmark: the built language server (node bin/cqlint-language-server.js --stdio, as an
// editor runs it) on documents generated here (never committed):
//   - dense: 3 MB, one SELECT of 1,000,000 items;
//   - huge: 3.6 MB of ordinary INSERTs (40,000 statements), just under the 4 MB document limit.
// For each: wall time of diagnostics (pull), formatting, semantic tokens and folding, and the server's peak
// RSS (VmHWM) after each. One fresh server per document, so the peak is that document's.
//
//   npm run bench -- limits
//   CQLINT_SERVER_JS=/path/to/other/dist/server.js npm run bench -- limits    (another build, e.g. an old one)
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { capabilities, projectRoot, startServerCommand, type SpawnedLspClient } from '../scripts/lsp-client';

/** Per request: long enough for the slowest old build to finish or die. */
const REQUEST_TIMEOUT_MS = 300_000;

function denseDocument(): string {
  return `CREATE TABLE ks.t (id int PRIMARY KEY, a int, b int);\nSELECT ${'a, '.repeat(1_000_000)}b FROM ks.t WHERE id = 1;\n`;
}

function hugeDocument(): string {
  const parts = ['CREATE TABLE ks.t (id int, ts timestamp, a text, b int, PRIMARY KEY ((id), ts));\n'];
  for (let i = 0; i < 40_000; i++)
    parts.push(`INSERT INTO ks.t (id, ts, a, b) VALUES (${i}, '2024-01-01 00:00:00', 'row ${i}', ${i * 7});\n`);
  return parts.join('');
}

function peakRssMb(pid: number | undefined): string {
  try {
    const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? `${Math.round(Number(match[1]) / 1024)} MB` : '?';
  } catch {
    return '?';
  }
}

async function timed(
  client: SpawnedLspClient,
  what: string,
  request: () => Promise<unknown>,
  describe: (result: unknown) => string,
): Promise<void> {
  if (!client.alive) {
    console.log(`  ${what.padEnd(22)} not run: the server is gone`);
    return;
  }
  const started = performance.now();
  let timer: NodeJS.Timeout | undefined;
  try {
    const result = await Promise.race([
      request(),
      new Promise((_, reject) => {
        timer = setTimeout(
          () => reject(new Error(`no answer after ${REQUEST_TIMEOUT_MS / 1000} s`)),
          REQUEST_TIMEOUT_MS,
        );
      }),
    ]);
    console.log(
      `  ${what.padEnd(22)} ${((performance.now() - started) / 1000).toFixed(2).padStart(7)} s  peak RSS so far ${peakRssMb(client.process.pid).padStart(7)}  ${describe(result)}`,
    );
  } catch (error) {
    const exit = client.process.exitCode ?? client.process.signalCode;
    const reason = client.alive
      ? error instanceof Error
        ? error.message
        : String(error)
      : `the server died (${exit})`;
    console.log(
      `  ${what.padEnd(22)} ${((performance.now() - started) / 1000).toFixed(2).padStart(7)} s  FAILED: ${reason}`,
    );
  } finally {
    clearTimeout(timer);
  }
}

async function runDocument(serverJs: string, name: string, text: string): Promise<void> {
  console.log(`${name}: ${(text.length / 1e6).toFixed(1)} MB`);
  const client = startServerCommand(process.execPath, [serverJs, '--stdio']);
  try {
    await client.initialize(capabilities.pull);
    const uri = `untitled:${name}`;
    await client.open(uri, text);
    const textDocument = { textDocument: { uri } };
    const count = (key: string) => (result: unknown) => {
      const value = (result as Record<string, unknown> | null)?.[key] ?? result;
      return Array.isArray(value) ? `${value.length} ${key}` : '';
    };
    await timed(client, 'diagnostics (pull)', () => client.pullDiagnostics(uri), count('items'));
    await timed(
      client,
      'formatting',
      () => client.request('textDocument/formatting', { ...textDocument, options: { tabSize: 4, insertSpaces: true } }),
      (r) => (Array.isArray(r) && r.length ? `${(r[0] as { newText: string }).newText.length} characters` : 'no edit'),
    );
    await timed(
      client,
      'semantic tokens (full)',
      () => client.request('textDocument/semanticTokens/full', textDocument),
      (r) => `${(r as { data: number[] }).data.length / 5} tokens`,
    );
    await timed(
      client,
      'folding ranges',
      () => client.request('textDocument/foldingRange', textDocument),
      (r) => `${(r as unknown[]).length} ranges`,
    );
  } finally {
    if (client.alive) await client.shutdown();
  }
}

export async function runLimitsBench(): Promise<void> {
  const serverJs = process.env.CQLINT_SERVER_JS ?? path.join(projectRoot, 'bin', 'cqlint-language-server.js');
  if (!process.env.CQLINT_SERVER_JS && !existsSync(path.join(projectRoot, 'dist', 'server.js'))) {
    const build = spawnSync(process.execPath, ['scripts/build.mjs'], { cwd: projectRoot, encoding: 'utf8' });
    if (build.status !== 0) throw new Error(`npm run build failed:\n${build.stderr}`);
  }
  console.log(`server: ${serverJs} (each figure below is one run: one fresh server per document, minutes each)`);
  await runDocument(serverJs, 'dense', denseDocument());
  await runDocument(serverJs, 'huge', hugeDocument());
}

if (require.main === module) {
  runLimitsBench().catch((error) => {
    console.error(error);
    process.exitCode = 1;
  });
}
