// The HTML report in headless Chromium (playwright-core, as the VS Code tests use it): the charts render
// with no console errors, the page follows the theme's CSS variables, the DOM holds the report's figures,
// and a screenshot is written to test-results/report/.
import { test, before, after } from 'node:test';
import * as assert from 'node:assert/strict';
import { mkdirSync, statSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { Project } from '../../server/core/engine/project';
import type { CqlintConfig } from '../../server/core/vocabulary/config';
import {
  renderReportHtml,
  sortBySeverity,
  tableReport,
  tablesDefinedIn,
  type PartitionReportData,
} from '../../server/core/report';
import { formatCount } from '../../server/core/util/format';

const RESULTS = path.resolve(__dirname, '..', '..', 'test-results', 'report');
const FILE = '/virtual/report/blog.cql';
const QUERIES = '/virtual/report/queries.cql';
const SCHEMA = `
CREATE TABLE blog.posts_by_day (publish_date date, title text, author text, body text, PRIMARY KEY (publish_date, title));
CREATE TABLE blog.readings (sensor_id uuid, ts timestamp, value double, PRIMARY KEY (sensor_id, ts)) WITH CLUSTERING ORDER BY (ts DESC);
-- @shard shard = codepoints(title) % 200 + 1
CREATE TABLE blog.books (publish_date date, shard int, title text, PRIMARY KEY ((publish_date, shard), title));
CREATE TABLE blog.users (id uuid PRIMARY KEY, name text);
`;
const CONFIG: CqlintConfig = {
  target: 'keyspaces',
  tables: {
    'blog.posts_by_day': { writesPerSecondPerPartition: 2000 },
    'blog.readings': { writesPerSecondPerPartition: 20 },
  },
};

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type InPage = any;

interface ChartFacts {
  width: number;
  height: number;
  title: string;
  labelledBy: string;
  role: string | null;
  drawn: number;
}

let browser: Browser;
let reports: PartitionReportData[];
let htmlFile: string;

before(async () => {
  mkdirSync(RESULTS, { recursive: true });
  const project = new Project({ config: CONFIG });
  project.setFile(FILE, SCHEMA);
  project.setFile(
    QUERIES,
    'SELECT * FROM blog.readings WHERE sensor_id = ? AND ts > ?;\nSELECT * FROM blog.posts_by_day WHERE publish_date = ?;\n',
  );
  reports = tablesDefinedIn(project, [FILE]).map((t) => tableReport(project, t));
  htmlFile = path.join(RESULTS, 'report.html');
  writeFileSync(htmlFile, renderReportHtml(reports, { title: 'cqlint partition report', index: true }));
  const { CHROMIUM_ARGS, CHROMIUM_PATH } = await import('../../scripts/vscode/code-server.mjs');
  browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: ['--headless', ...CHROMIUM_ARGS],
  });
});

after(async () => {
  await browser?.close();
});

async function open(
  colorScheme: 'light' | 'dark',
  vars?: Record<string, string>,
): Promise<{ page: Page; errors: string[] }> {
  const page = await browser.newPage({ viewport: { width: 1100, height: 900 }, colorScheme });
  const errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warning') errors.push(m.text());
  });
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('requestfailed', (r) => errors.push(`request failed: ${r.url()}`));
  page.on('request', (r) => {
    if (!r.url().startsWith('file:')) errors.push(`network request: ${r.url()}`);
  });
  await page.goto(`file://${htmlFile}`);
  if (vars) {
    await page.evaluate(
      `Object.entries(${JSON.stringify(vars)}).forEach(([k, value]) => document.documentElement.style.setProperty(k, value))`,
    );
  }
  return { page, errors };
}

test('the report renders every chart with no console errors, and a screenshot is taken', async () => {
  const { page, errors } = await open('light');
  // The tests compile without the DOM library: page functions see their elements as `InPage` (any).
  const charts: ChartFacts[] = await page.locator('svg.chart').evaluateAll((svgs: InPage[]) =>
    svgs.map((svg) => {
      const box = svg.getBoundingClientRect();
      const marks: { width: number; height: number }[] = [...svg.querySelectorAll('path.series, rect')].map(
        (m: InPage) => m.getBBox(),
      );
      return {
        width: box.width,
        height: box.height,
        title: svg.querySelector('title')?.textContent ?? '',
        labelledBy: svg.getAttribute('aria-labelledby') ?? '',
        role: svg.getAttribute('role'),
        drawn: marks.filter((b) => b.width > 0 && b.height > 0).length,
      };
    }),
  );
  const expected = reports.reduce(
    (n, r) =>
      n +
      (r.growth.today ? 1 : 0) +
      (r.spread?.histogram ? (r.spread.comparison ? 2 : 1) : 0) +
      r.throughput.length +
      (r.traffic?.busiestShare !== undefined ? 1 : 0),
    0,
  );
  assert.equal(
    charts.length,
    expected,
    'a growth chart per table that grows, the spread charts, one throughput chart per kind, a traffic chart per hot table',
  );
  for (const c of charts) {
    assert.ok(c.width > 100 && c.height > 50, `chart "${c.title}" has a size`);
    assert.ok(c.drawn > 0, `chart "${c.title}" draws something`);
    assert.equal(c.role, 'img');
    assert.match(c.labelledBy, /-title .*-desc$/);
    assert.ok(c.title.length > 10);
  }
  // Every chart has a table with its numbers right after it (its text alternative).
  const alternatives: boolean[] = await page.locator('figure:has(svg.chart)').evaluateAll((figs: InPage[]) =>
    figs.map((f) => {
      const block = f.parentElement.classList.contains('row') ? f.parentElement : f;
      let next = block.nextElementSibling;
      // No helper functions in here: the test compiler would wrap them in a helper the page does not have.
      while (
        next &&
        !next.matches('table, div.row:has(> table)') &&
        next.tagName !== 'H3' &&
        next.tagName !== 'SECTION'
      )
        next = next.nextElementSibling;
      return !!next && next.matches('table, div.row:has(> table)');
    }),
  );
  assert.ok(alternatives.every(Boolean), `a table follows each chart: ${JSON.stringify(alternatives)}`);
  const shot = path.join(RESULTS, 'report.png');
  await page.screenshot({ path: shot, fullPage: true });
  assert.ok(statSync(shot).size > 10_000, 'the screenshot has content');
  await page.locator('section[data-table="blog.readings"]').screenshot({ path: path.join(RESULTS, 'readings.png') });
  assert.deepEqual(errors, []);
  await page.close();
});

test('the DOM holds the report figures: limits, shard spreads, throughput, index order', async () => {
  const { page, errors } = await open('light');
  const order = await page.locator('[data-figure="index"] tbody tr td:first-child').allInnerTexts();
  assert.deepEqual(
    order,
    sortBySeverity(reports).map((r) => r.table),
  );
  assert.equal(order.length, 4);
  assert.equal(order.at(-1), 'blog.users', 'the table without findings comes last');
  for (const r of reports) {
    const section = page.locator(`section[data-table="${r.table}"]`);
    const keyRows = await section.locator('[data-figure="key-diagram"] tbody tr').count();
    assert.equal(keyRows, r.columns.length);
    assert.equal(await section.locator('[data-figure="queries"] tbody tr').count(), r.queries.length);
    for (const line of r.growth.limits) {
      const cell = await section
        .locator(`tr[data-limit-kind="${line.kind}"] [data-figure="rows-at-limit"]`)
        .innerText();
      assert.equal(cell, formatCount(line.rowsAtLimit));
    }
    if (r.spread?.histogram) {
      const ratio = await section
        .locator(
          `[data-figure="spread"] tr[data-formula="${r.spread.histogram.formula}"] [data-figure="max-over-mean"]`,
        )
        .innerText();
      assert.equal(ratio, r.spread.histogram.maxOverMean!.toFixed(2));
    }
    for (const t of r.throughput) {
      const needed = await section
        .locator(`[data-figure="throughput"] tr[data-kind="${t.kind}"] [data-figure="shards-needed"]`)
        .innerText();
      assert.equal(needed, String(t.shardsNeeded));
    }
  }
  const books = reports.find((r) => r.table === 'blog.books')!;
  assert.equal(books.spread?.histogram?.formula, 'codepoints(title) % 200 + 1');
  assert.ok(books.spread!.histogram!.maxOverMean! > 10, 'the code-point formula is badly skewed');
  const posts = reports.find((r) => r.table === 'blog.posts_by_day')!;
  assert.deepEqual(
    posts.queries.map((q) => q.pinned),
    [['publish_date']],
  );
  assert.match(
    await page.locator('section[data-table="blog.readings"] [data-figure="queries"]').innerText(),
    /sensor_id\s+ts\s+one partition/,
  );
  assert.equal(posts.throughput[0]?.shardsNeeded, 2, 'keyspaces: 2000 WCU over 1000 per partition');
  assert.deepEqual(errors, []);
  await page.close();
});

test('colours follow the VS Code theme variables, with light and dark fallbacks', async () => {
  const light = await open('light');
  const lightBg = await light.page.evaluate('getComputedStyle(document.body).backgroundColor');
  await light.page.close();
  const dark = await open('dark');
  const darkBg = await dark.page.evaluate('getComputedStyle(document.body).backgroundColor');
  await dark.page.screenshot({ path: path.join(RESULTS, 'report-dark.png') });
  await dark.page.close();
  assert.equal(lightBg, 'rgb(255, 255, 255)');
  assert.equal(darkBg, 'rgb(30, 30, 30)');
  const themed = await open('light', {
    '--vscode-editor-background': 'rgb(1, 2, 3)',
    '--vscode-charts-red': 'rgb(200, 0, 100)',
  });
  const themedBg = await themed.page.evaluate('getComputedStyle(document.body).backgroundColor');
  const todayStroke = await themed.page.evaluate(
    "getComputedStyle(document.querySelector('path.series-today')).stroke",
  );
  await themed.page.close();
  assert.equal(themedBg, 'rgb(1, 2, 3)');
  assert.equal(todayStroke, 'rgb(200, 0, 100)');
});
