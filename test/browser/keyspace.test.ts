// The keyspace view of the killrvideo corpus in headless Chromium: every diagram renders with no console
// error, every query arrow ends on the top edge of a table box, the text the browser draws stays inside
// the boxes the layout reserved for it (so the unit tests' overlap checks hold on screen), a box links to
// its table's section, and the screenshot for the README is taken.
import { test, before, after } from 'node:test';
import * as assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { Project } from '../../server/core/engine/project';
import { keyspaceViews, renderReportHtml, tableReport, tablesDefinedIn } from '../../server/core/report';
import { corpusFiles, projectRoot, readText } from '../helpers/corpus';

const RESULTS = path.resolve(__dirname, '..', '..', 'test-results', 'report');
/** The README's pictures of the keyspace view and of a hot table's page (refreshed by this test). */
const README_SHOT = path.join(projectRoot, 'images', 'screenshots', 'keyspace-diagram.png');
const README_TABLE_SHOT = path.join(projectRoot, 'images', 'screenshots', 'partition-report.png');

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type InPage = any;

let browser: Browser;
let htmlFile: string;
let expectedQueries: number;
let expectedTables: number;

before(async () => {
  mkdirSync(RESULTS, { recursive: true });
  const project = new Project({ config: {} });
  for (const file of corpusFiles('killrvideo')) project.setFile(file, readText(file));
  const tables = tablesDefinedIn(project);
  const views = keyspaceViews(project, tables);
  expectedQueries = views.reduce((n, v) => n + v.queries.filter((q) => q.access !== 'write').length, 0);
  expectedTables = views.reduce((n, v) => n + v.tables.length, 0);
  htmlFile = path.join(RESULTS, 'killrvideo.html');
  writeFileSync(
    htmlFile,
    renderReportHtml(
      tables.map((t) => tableReport(project, t)),
      {
        title: 'cqlint partition report: killrvideo',
        keyspaces: views,
        index: true,
        displayPath: (f) => path.relative(projectRoot, f),
      },
    ),
  );
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

async function open(): Promise<{ page: Page; errors: string[] }> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 }, colorScheme: 'light' });
  const errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warning') errors.push(m.text());
  });
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('request', (r) => {
    if (!r.url().startsWith('file:')) errors.push(`network request: ${r.url()}`);
  });
  await page.goto(`file://${htmlFile}`);
  return { page, errors };
}

test('the killrvideo keyspace diagrams render; every query arrow ends on a table box', async () => {
  const { page, errors } = await open();
  const facts: {
    boxes: number;
    arrows: { table: string; x: number; end: number; box: { left: number; right: number; top: number } | null }[];
    labels: number;
  }[] = await page.locator('svg.keyspace-diagram').evaluateAll((svgs: InPage[]) =>
    svgs.map((svg) => {
      const boxes = [...svg.querySelectorAll('g.kd-box')];
      const arrows = [...svg.querySelectorAll('g[data-arrow-box] line.kd-shaft')].map((shaft: InPage) => {
        const group = shaft.parentElement;
        const box = svg.querySelector(`g.kd-box[data-box="${group.getAttribute('data-arrow-box')}"] rect.kd-frame`);
        const b = box ? box.getBBox() : null;
        return {
          table: group.getAttribute('data-arrow-table'),
          x: Number(shaft.getAttribute('x1')),
          end: Number(shaft.getAttribute('y2')),
          box: b ? { left: b.x, right: b.x + b.width, top: b.y } : null,
        };
      });
      return { boxes: boxes.length, arrows, labels: svg.querySelectorAll('text.kd-query').length };
    }),
  );
  assert.ok(facts.length >= 3, `${facts.length} keyspace diagrams`);
  assert.equal(
    facts.reduce((n, f) => n + f.boxes, 0),
    expectedTables,
    'a box per table',
  );
  assert.equal(
    facts.reduce((n, f) => n + f.labels, 0),
    expectedQueries,
    'a label per query',
  );
  const arrows = facts.flatMap((f) => f.arrows);
  assert.ok(arrows.length > 10);
  for (const a of arrows) {
    assert.ok(a.box, `the arrow into ${a.table} has its box`);
    assert.equal(a.end, a.box.top, `the arrow into ${a.table} ends on its box's top edge`);
    assert.ok(a.x > a.box.left && a.x < a.box.right, `the arrow into ${a.table} lands on the box`);
  }
  assert.deepEqual(errors, []);
  await page.close();
});

test('the browser draws the text inside the room the layout gave it (monospace widths hold)', async () => {
  const { page, errors } = await open();
  // Each column name, type and query label against the width its characters were given (7.3 px each).
  const overflows: string[] = await page.locator('svg.keyspace-diagram').evaluateAll((svgs: InPage[]) =>
    svgs.flatMap((svg) =>
      [...svg.querySelectorAll('text.kd-column, text.kd-type, text.kd-query, text.kd-name')].flatMap((t: InPage) => {
        const width = t.getComputedTextLength();
        const room = t.textContent.length * 7.3;
        return width > room + 0.5 ? [`"${t.textContent}" is ${width.toFixed(1)} px for ${room.toFixed(1)}`] : [];
      }),
    ),
  );
  assert.deepEqual(overflows, []);
  // No two query labels or boxes overlap as drawn.
  const overlaps: string[] = await page.locator('svg.keyspace-diagram').evaluateAll((svgs: InPage[]) =>
    svgs.flatMap((svg) => {
      const rects = [...svg.querySelectorAll('text.kd-query, rect.kd-frame')].map((e: InPage) => ({
        what: e.textContent || e.parentElement.parentElement.getAttribute('data-table'),
        b: e.getBBox(),
      }));
      const out: string[] = [];
      for (let i = 0; i < rects.length; i++) {
        for (let j = i + 1; j < rects.length; j++) {
          const a = rects[i].b;
          const b = rects[j].b;
          if (a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height)
            out.push(`${rects[i].what} / ${rects[j].what}`);
        }
      }
      return out;
    }),
  );
  assert.deepEqual(overlaps, []);
  assert.deepEqual(errors, []);
  await page.close();
});

test('a table box leads to its section; the screenshots of the keyspace view and of a hot table go to the README', async () => {
  const { page, errors } = await open();
  const diagram = page.locator('section.keyspace').first();
  const title = await diagram.getAttribute('data-keyspace');
  await diagram.locator('g.kd-box[data-table="killrvideo.latest_videos"] a').click();
  const hash = await page.evaluate('location.hash');
  assert.match(String(hash), /^#table-killrvideo-latest_videos--schema-/);
  const target = page.locator(String(hash));
  assert.equal(await target.getAttribute('data-table'), 'killrvideo.latest_videos');
  const shot = path.join(RESULTS, 'keyspace-diagram.png');
  await page.goto(`file://${htmlFile}`);
  await page.locator('section.keyspace figure.diagram').first().screenshot({ path: shot });
  assert.ok(statSync(shot).size > 20_000, `the screenshot of ${title} has content`);
  mkdirSync(path.dirname(README_SHOT), { recursive: true });
  copyFileSync(shot, README_SHOT);
  await page
    .locator('section.keyspace')
    .first()
    .screenshot({ path: path.join(RESULTS, 'keyspace-section.png') });
  // A hot table's page: findings, key, queries, size terms, growth, traffic.
  await page.setViewportSize({ width: 1000, height: 900 });
  const table = path.join(RESULTS, 'latest-videos.png');
  await page.locator('section.table-report[data-table="killrvideo.latest_videos"]').first().screenshot({ path: table });
  copyFileSync(table, README_TABLE_SHOT);
  assert.deepEqual(errors, []);
  await page.close();
});
