// The partition report of a large schema: a 100,000-line schema generated here (never committed; 10,000
// tables in 241 keyspaces, a quarter of them with findings, and a SELECT per table) goes through the
// built CLI (`cqlint report`, as CI runs it), then headless Chromium (Debian's, through playwright-core,
// as the browser tests use it) opens the index page and the largest page and renders them.
// Aims: every file under 5 MB (a 4,120-table report used to be one 139 MB file Chromium could not open
// in 90 s), the index and any page open and render within 10 s each.
//
//   npm run build && npm run bench -- report
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { chromium } from 'playwright-core';
import { projectRoot } from '../scripts/lsp-client';

const KEYSPACES = 240;
const MAX_FILE_BYTES = 5 * 1024 * 1024;
const MAX_OPEN_MS = 10_000;

/** One CREATE TABLE, a column a line (10 lines), of four kinds: hot, unbounded, bucketed, a lookup. */
function table(ks: string, i: number): string[] {
  const kind = i % 8;
  const name = `t${i}_${['posts_by_day', 'readings', 'events_by_hour', 'users', 'orders', 'sessions', 'items', 'profiles'][kind]}`;
  const key =
    kind === 0
      ? 'PRIMARY KEY (publish_date, title)'
      : kind === 1
        ? 'PRIMARY KEY (sensor_id, reading_time)'
        : kind === 2
          ? 'PRIMARY KEY ((sensor_id, event_hour), reading_time)'
          : 'PRIMARY KEY (id)';
  const columns =
    kind === 0
      ? ['publish_date date', 'title text', 'author text', 'body text', 'tags set<text>', 'views int']
      : kind <= 2
        ? ['sensor_id uuid', 'event_hour timestamp', 'reading_time timestamp', 'value double', 'unit text', 'note text']
        : ['id uuid', 'name text', 'email text', 'created_at timestamp', 'status text', 'score int'];
  return [
    `CREATE TABLE ${ks}.${name} (`,
    ...columns.map((c) => `  ${c},`),
    `  ${key}`,
    ');',
    `SELECT * FROM ${ks}.${name} WHERE ${kind === 0 ? 'publish_date = ?' : kind <= 2 ? 'sensor_id = ?' : 'id = ?'};`,
  ];
}

/** 240 keyspaces of 40 tables and one of 400 (four pages; too many to draw in the page): 10,000 tables. */
function schema(): { text: string; tables: number } {
  const lines: string[] = [];
  let tables = 0;
  for (let k = 0; k <= KEYSPACES; k++) {
    const ks = k < KEYSPACES ? `ks${k}` : 'wide';
    lines.push(`CREATE KEYSPACE ${ks} WITH replication = {'class': 'NetworkTopologyStrategy', 'dc1': 3};`);
    for (let i = 0; i < (k < KEYSPACES ? 40 : 400); i++) {
      lines.push(...table(ks, i));
      tables++;
    }
  }
  return { text: `${lines.join('\n')}\n`, tables };
}

function filesBelow(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = path.join(dir, name);
    return statSync(p).isDirectory() ? filesBelow(p) : [p];
  });
}

export async function runReportBench(): Promise<void> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'cqlint-report-bench-'));
  try {
    const { text, tables } = schema();
    writeFileSync(path.join(dir, 'schema.cql'), text);
    console.log(
      `report: a ${(text.split('\n').length - 1).toLocaleString('en-US')}-line schema (${(text.length / 1024 / 1024).toFixed(1)} MB), ${tables.toLocaleString('en-US')} tables in ${KEYSPACES + 1} keyspaces`,
    );
    const started = performance.now();
    const run = spawnSync(
      process.execPath,
      [path.join(projectRoot, 'bin', 'cqlint.js'), 'report', '-o', 'report.html', 'schema.cql'],
      { cwd: dir, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
    );
    const seconds = (performance.now() - started) / 1000;
    if (run.status !== 0) throw new Error(`cqlint report exited ${run.status}: ${run.stderr}`);
    const files = filesBelow(dir).filter((f) => f.endsWith('.html'));
    const sizes = files
      .map((f) => ({ file: path.relative(dir, f), bytes: statSync(f).size }))
      .sort((a, b) => b.bytes - a.bytes);
    const total = sizes.reduce((s, f) => s + f.bytes, 0);
    console.log(`  cqlint report: ${seconds.toFixed(1)} s; ${run.stdout.trim()}`);
    console.log(
      `  ${files.length} files, ${(total / 1024 / 1024).toFixed(1)} MB in all; largest ${sizes[0]!.file} ${(sizes[0]!.bytes / 1024 / 1024).toFixed(2)} MB; index ${(statSync(path.join(dir, 'report.html')).size / 1024).toFixed(0)} KB (aim: every file under ${MAX_FILE_BYTES / 1024 / 1024} MB)`,
    );
    const problems: string[] = [];
    if (sizes[0]!.bytes > MAX_FILE_BYTES) problems.push(`${sizes[0]!.file} is ${sizes[0]!.bytes} bytes`);

    const { CHROMIUM_ARGS, CHROMIUM_PATH } = await import('../scripts/vscode/code-server.mjs');
    const browser = await chromium.launch({
      executablePath: CHROMIUM_PATH,
      headless: true,
      args: ['--headless', ...CHROMIUM_ARGS],
    });
    try {
      for (const name of ['report.html', sizes[0]!.file]) {
        const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
        const errors: string[] = [];
        page.on('pageerror', (e) => errors.push(String(e)));
        const opened = performance.now();
        await page.goto(`file://${path.join(dir, name)}`, { waitUntil: 'load', timeout: 120_000 });
        // Rendered: layout done and two frames painted.
        const height = await page.evaluate(
          'new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve(document.body.scrollHeight))))',
        );
        const ms = performance.now() - opened;
        const figures = await page.locator('svg').count();
        console.log(
          `  Chromium opens and renders ${name}: ${Math.round(ms)} ms (${figures} SVG figures, ${height} px tall; aim under ${MAX_OPEN_MS / 1000} s)`,
        );
        if (ms > MAX_OPEN_MS) problems.push(`${name} took ${Math.round(ms)} ms`);
        if (errors.length) problems.push(`${name}: ${errors.join('; ')}`);
        await page.close();
      }
    } finally {
      await browser.close();
    }
    if (problems.length) throw new Error(`over the aims: ${problems.join('; ')}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
