// UI end-to-end test: the packaged .vsix installed in code-server, driven in headless Chromium.
// Opens a schema with a hot partition, sees the squiggle, reads the hover, sees that the first quick fix
// offered follows the workspace's reads (a page that reads whole partitions: a random shard), applies it
// with Ctrl+. and sees the warning go away. Screenshots of every step go to test-results/e2e/.
// Run it with `npm run test:e2e` (scripts/vscode/run-e2e.mjs packages and installs the extension first).
import { test, before, after } from 'node:test';
import * as assert from 'node:assert/strict';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { paths } from '../../scripts/vscode/paths.mjs';
import { openWorkspaceInBrowser, withFailureScreenshot } from '../../scripts/vscode/code-server.mjs';

const VSIX = process.env.CQLINT_VSIX ?? join(paths.root, 'cqlint.vsix');
const SHOTS = join(paths.results, 'e2e');
const FIXTURE = join(paths.root, 'test', 'vscode', 'fixtures', 'workspace', 'hot_partition.cql');
const READS = join(paths.root, 'test', 'e2e', 'fixtures', 'books_by_date_queries.cql');

/** Monaco renders spaces as U+00A0. */
const normalize = (text) => text.replace(/\u00a0/g, ' ');

let session;
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
  session = await openWorkspaceInBrowser('e2e', {
    vsix: VSIX,
    files: { 'hot_partition.cql': FIXTURE, 'books_by_date_queries.cql': READS },
    settings: {
      'editor.hover.delay': 200,
      'editor.minimap.enabled': false,
      'window.commandCenter': false,
      // The server's log (with one line per code action request) ends up in the run's cqlint.log.
      'cqlint.trace.server': 'verbose',
    },
    viewport: { width: 1280, height: 800 },
  });
  ({ page } = session);
});

after(async () => {
  await session?.close();
});

test(
  'hot partition: squiggle, hover, Ctrl+. offers the shard the reads call for first, warning gone',
  { timeout: 240_000 },
  async () => {
    await withFailureScreenshot(walkThrough, { screenshot, logs: () => session.logs });
  },
);

async function walkThrough() {
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
  // The "Partition report" CodeLens above the table pushes every line below it down when it arrives;
  // a mouse aimed at the squiggle before it did lands on the wrong line (a CI run failed that way).
  await page
    .locator('.monaco-editor .codelens-decoration a', { hasText: 'Partition report' })
    .first()
    .waitFor({ timeout: 30_000 });
  await screenshot('squiggle');

  // 3. Hover it: the diagnostic message with its rule id. The squiggle sits under the text layer,
  //    so move the real mouse over its middle, as a user would.
  const middleOfSquiggle = async () => {
    const box = await squiggle.boundingBox();
    assert.ok(box, 'the squiggle has no box');
    return { x: box.x + box.width / 2, y: box.y + box.height / 2 - 2 };
  };
  let middle = await middleOfSquiggle();
  const hover = page
    .locator('.monaco-hover')
    .filter({ hasText: /partition/i })
    .first();
  // A mouse that arrives while the editor is still laying out gets no hover: measure again, move off
  // and back.
  for (let attempt = 0; ; attempt++) {
    if (attempt > 0) middle = await middleOfSquiggle();
    await page.mouse.move(middle.x, middle.y + 40);
    await page.mouse.move(middle.x, middle.y, { steps: 5 });
    try {
      await hover.waitFor({ state: 'visible', timeout: 10_000 });
      break;
    } catch (error) {
      if (attempt >= 2) throw error;
    }
  }
  const hoverText = normalize(await hover.innerText());
  assert.match(hoverText, /hot-partition/, `hover text: ${hoverText}`);
  // The problem hover also asks for quick fixes ("Checking for quick fixes..."). Wait a little for its
  // link, for the picture only: when a second hover provider answers later, the workbench re-renders the
  // hover and can end up showing "No quick fixes available" although the server answered with the fixes
  // (seen in the server log). Ctrl+. below is the real check.
  await hover
    .getByText(/^Quick Fix/)
    .first()
    .waitFor({ state: 'visible', timeout: 5_000 })
    .catch(() => undefined);
  await screenshot('hover');

  // 4. Ctrl+. on the key: the quick-fix menu offers write sharding.
  await page.keyboard.press('Escape');
  await page.mouse.click(middle.x, middle.y);
  // Take the mouse off the text: a hover that reopens over the key can swallow the keystroke.
  await page.mouse.move(1000, 650);
  await page.keyboard.press('Escape');
  // The action widget (newer workbenches also keep an empty submenu panel with the same class).
  const menu = page
    .locator('.action-widget')
    .filter({ has: page.locator('.monaco-list-row') })
    .first();
  for (let attempt = 0; ; attempt++) {
    await page.keyboard.press('Control+.');
    try {
      await menu.waitFor({ state: 'visible', timeout: 10_000 });
      break;
    } catch (error) {
      // The server answered (its log has the request) but the workbench showed nothing: ask once more.
      if (attempt >= 1) throw error;
      console.log('# Ctrl+. showed no quick-fix menu within 10 s; pressing it again');
      await page.keyboard.press('Escape');
    }
  }
  // The table has no clustering column, so every new book overwrote the day's one row: isbn becomes a
  // clustering column and the shard is computed from it; the workspace's only read takes a whole day's
  // partition, so the fix also rewrites that read (in the other file) to read every shard.
  const fix = menu.locator('.monaco-list-row', { hasText: /shard column|copy of/ }).first();
  await fix.waitFor({ timeout: 20_000 });
  const menuText = normalize(await menu.innerText());
  assert.match(
    normalize(await fix.innerText()),
    /^Add isbn as a clustering column, and a calculated shard column from isbn \(\d+ shards\); rewrites 1 statement in 2 files/,
    `quick-fix menu: ${menuText}`,
  );
  assert.match(menuText, /Create a copy of books_by_date/, `quick-fix menu: ${menuText}`);
  await screenshot('quick-fix-menu');

  // 5. Apply it: the table gains the shard column and the annotation, the squiggle goes away.
  await fix.hover();
  await fix.click();
  await page.waitForFunction(() => !document.querySelector('.monaco-editor .squiggly-warning'), null, {
    timeout: 30_000,
  });
  const fixed = normalize(await lines.innerText());
  assert.match(fixed, /--\s*@shard shard = murmur3\(isbn\) % \d+ \+ 1/, fixed);
  assert.match(fixed, /PRIMARY KEY \(\(publish_date, shard\), isbn\)/, fixed);
  // For the picture only: move the mouse off the text (a hover that started before the diagnostics were
  // refreshed keeps showing the old problem), and give the tab's and explorer's problem badges a moment to
  // catch up. A pause, not a wait on an event: they are CSS decorations that change no DOM text, and no
  // check depends on them (step 6 reads the Problems panel).
  await page.mouse.move(1000, 650);
  await page.waitForTimeout(1500);
  await screenshot('fixed');

  // 6. The Problems panel agrees: no hot-partition left.
  await page.keyboard.press('Control+Shift+M');
  const problems = page.locator('.markers-panel');
  await problems.waitFor({ state: 'visible', timeout: 20_000 });
  // Read it once it has drawn the markers (the same ones the squiggle, gone above, came from): a row per
  // file with problems, or the message that there are none.
  await problems
    .locator('.monaco-list-row')
    .or(problems.getByText(/No problems have been detected/))
    .first()
    .waitFor({ state: 'visible', timeout: 20_000 });
  const problemsText = normalize(await page.locator('.markers-panel-container').first().innerText());
  assert.doesNotMatch(problemsText, /hot-partition/, problemsText);
  await screenshot('problems-after-fix');
}

// Keep the fixtures honest: the test above depends on exactly this key and this read.
test('the fixtures have the hot key and the read the test expects', () => {
  assert.match(readFileSync(FIXTURE, 'utf8'), /PRIMARY KEY \(publish_date\)/);
  assert.match(readFileSync(READS, 'utf8'), /FROM books_by_date WHERE publish_date = '[^']*';/);
});
