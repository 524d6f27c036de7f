// UI end-to-end test: the packaged .vsix installed in code-server, driven in headless Chromium.
// Opens a schema with a hot partition, sees the squiggle, reads the hover, applies the shard quick fix
// with Ctrl+. and sees the warning go away. Screenshots of every step go to test-results/e2e/.
// Run it with `npm run test:e2e` (scripts/vscode/run-e2e.mjs packages and installs the extension first).
import { test, before, after } from 'node:test';
import * as assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { paths } from '../../scripts/vscode/paths.mjs';
import {
  CHROMIUM_ARGS, CHROMIUM_PATH, installExtension, runDirs, startCodeServer, writeUserSettings,
} from '../../scripts/vscode/code-server.mjs';

const VSIX = process.env.CQLINT_VSIX ?? join(paths.root, 'cqlint.vsix');
const SHOTS = join(paths.results, 'e2e');
const FIXTURE = join(paths.root, 'test', 'vscode', 'fixtures', 'workspace', 'hot_partition.cql');

/** Monaco renders spaces as U+00A0. */
const normalize = (text) => text.replace(/\u00a0/g, ' ');

let server;
let context;
let page;
let shot = 0;

async function screenshot(name) {
  shot += 1;
  const file = join(SHOTS, `${String(shot).padStart(2, '0')}-${name}.png`);
  await page.screenshot({ path: file });
  console.log(`# screenshot ${file}`);
  return file;
}

before(async () => {
  mkdirSync(SHOTS, { recursive: true });
  const dirs = runDirs('e2e');
  const workspace = join(dirs.base, 'workspace');
  mkdirSync(workspace, { recursive: true });
  copyFileSync(FIXTURE, join(workspace, 'hot_partition.cql'));
  console.log(`# ${installExtension(dirs, VSIX).split('\n').pop()}`);
  writeUserSettings(dirs, {
    'workbench.startupEditor': 'none',
    'workbench.tips.enabled': false,
    'extensions.autoCheckUpdates': false,
    'extensions.autoUpdate': false,
    'extensions.ignoreRecommendations': true,
    'git.enabled': false,
    'telemetry.telemetryLevel': 'off',
    'update.mode': 'none',
    'workbench.secondarySideBar.defaultVisibility': 'hidden',
    'chat.disableAIFeatures': true,
    'editor.hover.delay': 200,
    'editor.minimap.enabled': false,
    'window.commandCenter': false,
  });
  server = await startCodeServer(dirs);
  context = await chromium.launchPersistentContext(dirs.browser, {
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: CHROMIUM_ARGS,
    viewport: { width: 1280, height: 800 },
  });
  page = context.pages()[0] ?? (await context.newPage());
  await page.goto(`${server.url}/?folder=${encodeURIComponent(workspace)}`);
});

after(async () => {
  await context?.close().catch(() => undefined);
  await server?.stop();
});

test('hot partition: squiggle, hover, Ctrl+. shard fix, warning gone', { timeout: 240_000 }, async () => {
  // 1. The workbench with our file in the explorer.
  const row = page.locator('.explorer-folders-view .monaco-list-row', { hasText: 'hot_partition.cql' });
  await row.waitFor({ timeout: 60_000 });
  await screenshot('workbench');

  // 2. Open it: the language server marks the partition key.
  await row.click();
  const squiggle = page.locator('.monaco-editor .squiggly-warning').first();
  await squiggle.waitFor({ timeout: 60_000 });
  const lines = page.locator('.monaco-editor .view-lines').first();
  assert.match(normalize(await lines.innerText()), /PRIMARY KEY \(publish_date\)/);
  await screenshot('squiggle');

  // 3. Hover it: the diagnostic message with its rule id. The squiggle sits under the text layer,
  //    so move the real mouse over its middle, as a user would.
  const box = await squiggle.boundingBox();
  assert.ok(box, 'the squiggle has no box');
  const middle = { x: box.x + box.width / 2, y: box.y + box.height / 2 - 2 };
  await page.mouse.move(middle.x, middle.y);
  const hover = page.locator('.monaco-hover').filter({ hasText: /partition/i }).first();
  await hover.waitFor({ state: 'visible', timeout: 20_000 });
  const hoverText = normalize(await hover.innerText());
  assert.match(hoverText, /hot-partition/, `hover text: ${hoverText}`);
  await screenshot('hover');

  // 4. Ctrl+. on the key: the quick-fix menu offers write sharding.
  await page.keyboard.press('Escape');
  await page.mouse.click(middle.x, middle.y);
  await page.keyboard.press('Control+.');
  const menu = page.locator('.action-widget');
  await menu.waitFor({ state: 'visible', timeout: 20_000 });
  const fix = menu.locator('.monaco-list-row', { hasText: /Add a calculated shard column from title/ }).first();
  await fix.waitFor({ timeout: 20_000 });
  const menuText = normalize(await menu.innerText());
  assert.match(menuText, /Add a random shard column/, `quick-fix menu: ${menuText}`);
  await screenshot('quick-fix-menu');

  // 5. Apply it: the table gains the shard column and the annotation, the squiggle goes away.
  await fix.hover();
  await fix.click();
  await page.waitForFunction(() => !document.querySelector('.monaco-editor .squiggly-warning'), null, { timeout: 30_000 });
  const fixed = normalize(await lines.innerText());
  assert.match(fixed, /--\s*@shard shard = murmur3\(title\) % 16 \+ 1/, fixed);
  assert.match(fixed, /PRIMARY KEY \(\(publish_date, shard\)/, fixed);
  await screenshot('fixed');

  // 6. The Problems panel agrees: no hot-partition left.
  await page.keyboard.press('Control+Shift+M');
  const problems = page.locator('.markers-panel');
  await problems.waitFor({ state: 'visible', timeout: 20_000 });
  await page.waitForTimeout(500);
  const problemsText = normalize(await page.locator('.markers-panel-container').first().innerText());
  assert.doesNotMatch(problemsText, /hot-partition/, problemsText);
  await screenshot('problems-after-fix');
});

// Keep the fixture honest: the test above depends on exactly this key.
test('the fixture has the hot key the test expects', () => {
  assert.match(readFileSync(FIXTURE, 'utf8'), /PRIMARY KEY \(publish_date\)/);
});
