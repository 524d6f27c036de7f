// UI end-to-end test of the partition report: the packaged .vsix in code-server, driven in headless
// Chromium. Opens a schema with an unbounded partition, clicks the "Partition report" CodeLens, finds
// the key diagram and the growth chart in the webview's frame, edits the table and sees the panel
// follow, then clicks the table's box in the keyspace diagram and lands on its name in the editor.
// Screenshots go to test-results/e2e/ (report-*.png). Run with `npm run test:e2e`.
import { test, before, after } from 'node:test';
import * as assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { paths } from '../../scripts/vscode/paths.mjs';
import { openWorkspaceInBrowser, withFailureScreenshot } from '../../scripts/vscode/code-server.mjs';

const VSIX = process.env.CQLINT_VSIX ?? join(paths.root, 'cqlint.vsix');
const SHOTS = join(paths.results, 'e2e');
const FIXTURE = join(paths.root, 'test', 'vscode', 'fixtures', 'workspace', 'unbounded_partition.cql');

let session;
let page;

async function screenshot(name) {
  const file = join(SHOTS, `report-${name}.png`);
  await page.screenshot({ path: file });
  console.log(`# screenshot ${file}`);
}

before(async () => {
  mkdirSync(SHOTS, { recursive: true });
  session = await openWorkspaceInBrowser('e2e-report', {
    vsix: VSIX,
    files: { 'unbounded_partition.cql': FIXTURE },
    settings: {
      'editor.minimap.enabled': false,
      'window.commandCenter': false,
      'editor.codeLens': true,
      'cqlint.trace.server': 'verbose',
    },
    viewport: { width: 1400, height: 900 },
  });
  ({ page } = session);
});

after(async () => {
  await session?.close();
});

test(
  'partition report: CodeLens opens the webview with the key diagram and growth chart, it follows edits, and the keyspace diagram opens the table',
  { timeout: 240_000 },
  async () => {
    await withFailureScreenshot(walkThrough, { screenshot, logs: () => session.logs });
  },
);

/** The document inside the webview: code-server nests it in two iframes. */
function webviewFrame() {
  return page.frameLocator('iframe.webview').frameLocator('iframe#active-frame');
}

async function walkThrough() {
  const row = page.locator('.explorer-folders-view .monaco-list-row', { hasText: 'unbounded_partition.cql' });
  await row.waitFor({ timeout: 60_000 });
  await row.click();
  // The CodeLens above CREATE TABLE.
  const lens = page.locator('.monaco-editor .codelens-decoration a', { hasText: 'Partition report' }).first();
  await lens.waitFor({ timeout: 60_000 });
  await screenshot('codelens');
  await lens.click();

  const frame = webviewFrame();
  const diagram = frame.locator('[data-figure="key-diagram"]');
  await diagram.waitFor({ timeout: 60_000 });
  const keyText = await diagram.innerText();
  assert.match(keyText, /server\s+text\s+K/, keyText);
  assert.match(keyText, /log_time\s+timestamp\s+C↑/, keyText);
  const today = frame.locator('[data-figure="growth-chart"] svg path.series-today');
  await today.waitFor({ timeout: 10_000 });
  assert.ok((await today.getAttribute('d'))?.startsWith('M'), 'the growth curve is drawn');
  assert.equal(
    await frame.locator('[data-figure="growth-chart"] svg path.series-cured').count(),
    1,
    'the curve with the time bucket is drawn too',
  );
  assert.match(await frame.locator('[data-figure="growth-limits"]').innerText(), /100 MB per partition/);
  // The page follows the theme: its background is the workbench's editor background.
  const colors = await frame.locator('body').evaluate((body) => getComputedStyle(body).backgroundColor);
  assert.notEqual(colors, 'rgba(0, 0, 0, 0)');
  await screenshot('webview');

  // Edit the table: the panel shows the new column a moment later.
  const editorLine = page.locator('.monaco-editor .view-line', { hasText: /PRIMARY.KEY/ }).first(); // Monaco renders spaces as U+00A0
  await editorLine.click();
  await page.keyboard.press('Home');
  await page.keyboard.type('note text, ');
  await frame.locator('[data-figure="key-diagram"] tr[data-column="note"]').waitFor({ timeout: 30_000 });
  await screenshot('webview-after-edit');

  // The keyspace diagram on top of the page: a click on the table's box opens its name in the editor
  // (a command link the webview hands to the client, which opens the place).
  const box = frame.locator('svg.keyspace-diagram g.kd-box[data-table="server_logs"] a');
  await box.waitFor({ timeout: 10_000 });
  await screenshot('keyspace-diagram');
  const selection = page.locator('.statusbar-item[id="status.editor.selection"]');
  const before = await selection.innerText();
  await box.click();
  // The status bar shows the cursor's new place once the editor has moved it (the assertion says where it is otherwise).
  await selection
    .filter({ hasText: /Ln 2, Col 14/ })
    .waitFor({ timeout: 10_000 })
    .catch(() => undefined);
  const after = await selection.innerText();
  assert.match(after, /Ln 2, Col 14/, `the cursor is on server_logs in CREATE TABLE (was ${before})`);
  await screenshot('table-source');
}
