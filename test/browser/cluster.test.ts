// The report's "On the cluster" panel in headless Chromium: the measured percentiles and the top
// partitions are on the page, their tokens are the independent oracle's (cassandra-driver), the replicas
// of a ring are shown, no console errors; a screenshot goes to test-results/report/cluster.png.
import { test, before, after } from 'node:test';
import * as assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { renderReportHtml, tableReport, tablesDefinedIn } from '../../server/core/report';
import { parseRing } from '../../server/core/token/ring';
import { formatBytes } from '../../server/core/util/format';
import { RING, oracleDayRegion, oracleUuid, shopProject } from '../evidence/helpers';

const RESULTS = path.resolve(__dirname, '..', '..', 'test-results', 'report');

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type InPage = any;

let browser: Browser;
let htmlFile: string;

before(async () => {
  mkdirSync(RESULTS, { recursive: true });
  const project = await shopProject();
  const reports = tablesDefinedIn(project).map((t) => tableReport(project, t, { ring: parseRing(RING) }));
  htmlFile = path.join(RESULTS, 'cluster.html');
  writeFileSync(htmlFile, renderReportHtml(reports, { title: 'cqlint partition report: on the cluster', index: true }));
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

test("the panel shows the measured percentiles and the top partitions with the oracle's tokens and their replicas", async () => {
  const page = await browser.newPage({ viewport: { width: 1200, height: 1000 } });
  const errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warning') errors.push(m.text());
  });
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('request', (r) => {
    if (!r.url().startsWith('file:')) errors.push(`network request: ${r.url()}`);
  });
  await page.goto(`file://${htmlFile}`);

  const events = '[data-table="shop.events_by_day"] [data-figure="cluster"]';
  assert.equal(await page.locator(events).count(), 1, 'the panel is on the events_by_day section');
  assert.equal(await page.locator(`${events} h3`).textContent(), 'On the cluster');

  // Percentiles: the page shows tablehistograms' figures, formatted as the rest of the report.
  const percentiles = await page.$$eval(`${events} [data-figure="cluster-percentiles"] tbody tr`, (rows: InPage[]) =>
    rows.map((r: InPage) => [
      r.dataset.percentile,
      r.querySelector('[data-bytes]').dataset.bytes,
      r.children[1].textContent,
    ]),
  );
  assert.deepEqual(
    percentiles.map((r) => r[0]),
    ['50%', '75%', '95%', '98%', '99%', 'Min', 'Max'],
  );
  assert.deepEqual(
    percentiles.map((r) => Number(r[1])),
    [4866323, 17436917, 464228842, 802187438, 962624926, 1916, 1386179893],
  );
  assert.equal(percentiles[4]![2], formatBytes(962624926));
  assert.match(await page.locator(`${events} [data-figure="cluster-limits"]`).innerText(), /past it/);

  // Top partitions: every decoded key's token is the oracle's; the replicas come from the ring.
  const rows = await page.$$eval(`${events} [data-figure="cluster-top"] tbody tr`, (trs: InPage[]) =>
    trs.map((tr: InPage) => ({
      measure: tr.dataset.measure,
      key: tr.dataset.key,
      token: tr.querySelector('[data-token]').dataset.token,
      replicas: tr.querySelector('[data-replicas]')?.dataset.replicas,
    })),
  );
  const writes = rows.filter((r) => r.measure === 'writes');
  assert.equal(writes.length, 5);
  for (const r of writes) {
    const [day, region] = r.key.split(':');
    assert.equal(r.token, oracleDayRegion(day, region), r.key);
    assert.equal(r.replicas!.split(' ').length, 2, 'RF 2 in dc1');
  }
  const bytes = rows.filter((r) => r.measure === 'bytes');
  assert.equal(bytes[0]!.token, oracleDayRegion('2026-11-19', 'eu-west'));
  assert.match(
    await page.locator(`${events} [data-figure="cluster-busiest"]`).innerText(),
    /Busiest partition: 2026-11-20:eu-west takes at least 94% of the writes sampled over 7 partitions, 967 writes\/s: a hot partition/,
  );
  assert.match(
    await page.locator(`${events} [data-figure="cluster-key-fix"]`).innerText(),
    /the partition day = 2026-11-20, region = eu-west becomes \d+ partitions/,
  );

  const carts = '[data-table="shop.carts"] [data-figure="cluster"]';
  const cartToken = await page
    .locator(`${carts} [data-figure="cluster-top"] tr[data-measure="writes"] [data-token]`)
    .first()
    .getAttribute('data-token');
  assert.equal(cartToken, oracleUuid('3f0c2a4e-7d2b-4c6e-9a51-2b7f4c1d9e80'));

  await page.locator(events).screenshot({ path: path.join(RESULTS, 'cluster.png') });
  assert.deepEqual(errors, []);
  await page.close();
});
