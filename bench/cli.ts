// The command line on large inputs, as a user runs it (node bin/cqlint.js, a fresh process each time):
//   - format on a generated 16 MB file just under the source cap (never committed): --check on the
//     unformatted file (stops at the first change), --diff, the rewrite, then --check on the formatted file
//     (every statement formatted and compared): wall time and peak RSS (the process's maxRSS at exit).
//     Aim: peak RSS within 16x the file (256 MiB), where a whole-file parse took 2-3 GB.
//   - lint --cache on a copy of the test corpus: the first run, a re-run with nothing changed, and a re-run
//     after one query file changed (only the files whose findings read queries are linted again).
//
//   npm run build && npm run bench -- cli
import { spawnSync } from 'node:child_process';
import { appendFileSync, cpSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { MAX_FILE_BYTES } from '../server/core/io/files';

const projectRoot = path.resolve(__dirname, '..');
const CLI = path.join(projectRoot, 'bin', 'cqlint.js');
const MiB = 1024 * 1024;
/** Peak RSS the format runs should stay within, per byte of the file. */
const AIM_RSS_PER_BYTE = 16;

/** Unformatted CQL of about `bytes`: tables, inserts, queries and comments, lower case on one line each. */
function unformattedSchema(bytes: number): string {
  const parts: string[] = [];
  let size = 0;
  for (let i = 0; size < bytes; i++) {
    const part =
      `create table ks.t${i} (id uuid, day date, v text, primary key ((id), day)) with comment = 'table ${i}';\n` +
      `-- rows of t${i}\ninsert into ks.t${i} (id, day, v) values (uuid(), '2024-01-01', 'hello');\n` +
      `select v from ks.t${i} where id = ? and day > '2024-01-01';\n\n`;
    if (size + part.length > bytes) break;
    parts.push(part);
    size += part.length;
  }
  return parts.join('');
}

interface Run {
  code: number | null;
  seconds: number;
  peakMiB: number;
  stderr: string;
}

/** Runs the CLI in a fresh process; its peak RSS comes from a preloaded exit hook (exact, unlike polling /proc). */
function runCli(args: string[], dir: string): Run {
  const peakFile = path.join(dir, 'peak.txt');
  const hook = path.join(dir, 'peak.cjs');
  writeFileSync(
    hook,
    `process.on('exit', () => require('fs').writeFileSync(${JSON.stringify(peakFile)}, String(process.resourceUsage().maxRSS)));\n`,
  );
  const started = performance.now();
  const run = spawnSync(process.execPath, ['-r', hook, CLI, ...args], {
    cwd: dir,
    encoding: 'utf8',
    maxBuffer: 256 * MiB,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const seconds = (performance.now() - started) / 1000;
  let peakMiB = Number.NaN;
  try {
    peakMiB = Number(readFileSync(peakFile, 'utf8')) / 1024;
  } catch {
    // the process died before its exit hook
  }
  return { code: run.status, seconds, peakMiB, stderr: run.stderr };
}

export async function runCliBench(): Promise<void> {
  const dir = mkdtempSync(path.join(tmpdir(), 'cqlint-bench-cli-'));
  try {
    const file = path.join(dir, 'big.cql');
    writeFileSync(file, unformattedSchema(MAX_FILE_BYTES.source - 64 * 1024));
    const bytes = statSync(file).size;
    const aim = (bytes * AIM_RSS_PER_BYTE) / MiB;
    console.log(
      `format, a ${(bytes / MiB).toFixed(1)} MiB generated file (aim: peak RSS under ${aim.toFixed(0)} MiB, ${AIM_RSS_PER_BYTE}x the file)`,
    );
    const steps: [string, string[], number][] = [
      ['--check (unformatted)', ['format', '--check', 'big.cql'], 1],
      ['--diff', ['format', '--diff', 'big.cql'], 1],
      ['rewrite', ['format', 'big.cql'], 0],
    ];
    for (const [what, args, expected] of steps) report(what, runCli(args, dir), expected, aim);
    // The rewrite grew the file (one column per line); trimmed to the cap if need be, then --check reads it all.
    const formatted = readFileSync(file, 'utf8');
    if (Buffer.byteLength(formatted) > MAX_FILE_BYTES.source)
      writeFileSync(file, formatted.slice(0, formatted.lastIndexOf(';\n\n', MAX_FILE_BYTES.source - 1024) + 2));
    report(
      `--check (formatted, ${(statSync(file).size / MiB).toFixed(1)} MiB)`,
      runCli(['format', '--check', 'big.cql'], dir),
      0,
      aim,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  await lintCacheBench();
}

async function lintCacheBench(): Promise<void> {
  const dir = mkdtempSync(path.join(tmpdir(), 'cqlint-bench-cache-'));
  try {
    cpSync(path.join(projectRoot, 'test', 'fixtures', 'corpus'), path.join(dir, 'corpus'), { recursive: true });
    console.log('lint --cache, a copy of the test corpus');
    const args = ['lint', '-f', 'json', '--cache', 'corpus'];
    const first = runCli(args, dir);
    const again = runCli(args, dir);
    appendFileSync(path.join(dir, 'corpus', 'extra-query.cql'), 'SELECT * FROM ks.nothing_here WHERE id = 1;\n');
    const afterQuery = runCli(args, dir);
    for (const [what, run] of [
      ['first run', first],
      ['nothing changed', again],
      ['a query file added', afterQuery],
    ] as const) {
      console.log(
        `  ${what.padEnd(32)} ${run.seconds.toFixed(1).padStart(6)} s  peak RSS ${run.peakMiB.toFixed(0).padStart(5)} MiB  exit ${run.code}`,
      );
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function report(what: string, run: Run, expectedCode: number, aimMiB: number): void {
  const verdict =
    run.code !== expectedCode
      ? `FAILED: exit ${run.code} (expected ${expectedCode}) ${run.stderr.trim().split('\n').pop() ?? ''}`
      : run.peakMiB > aimMiB
        ? 'over the aim'
        : 'within the aim';
  console.log(
    `  ${what.padEnd(32)} ${run.seconds.toFixed(1).padStart(6)} s  peak RSS ${run.peakMiB.toFixed(0).padStart(5)} MiB  ${verdict}`,
  );
}
