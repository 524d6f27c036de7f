// Runs the extension's mocha suite (test/vscode) inside a real VS Code on machines without internet:
// code-server's Node extension host, driven by headless Chromium through playwright-core.
// This is what `npm run test:vscode` does. Contributors with internet can also run the same suite in
// desktop VS Code with scripts/vscode/run-test-electron.mjs.
// Env: CQLINT_TEST_GREP=<pattern> runs only matching tests; CQLINT_TEST_TIMEOUT=<seconds> (default 600);
// CQLINT_SKIP_BUILD=1 uses dist/ as it is; CQLINT_EXTENSION_PATH=<dir> tests another build of the extension.
import { spawnSync } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { format } from 'node:util';
import { join } from 'node:path';
import { setup } from './setup.mjs';
import { buildTests } from './build-tests.mjs';
import { paths } from './paths.mjs';
import { openBrowser, runDirs, startCodeServer, writeUserSettings } from './code-server.mjs';

const log = (...args) => console.log('[test:vscode]', ...args);
const MOCHA_PREFIX = '\u2063mocha\u2063 ';

function buildExtension() {
  if (process.env.CQLINT_SKIP_BUILD === '1') return;
  const result = spawnSync(process.execPath, [join(paths.root, 'scripts', 'build.mjs')], {
    stdio: 'inherit',
    cwd: paths.root,
  });
  if (result.status !== 0) throw new Error('npm run build failed');
}

async function main() {
  setup();
  buildExtension();
  const testsDir = await buildTests();
  const dirs = runDirs('vscode-suite');
  writeUserSettings(dirs);
  const workspace = join(paths.root, 'test', 'vscode', 'fixtures', 'workspace');
  const extraEnv = { CQLINT_MOCHA_PREFIX: MOCHA_PREFIX };
  if (process.env.CQLINT_TEST_GREP) extraEnv.CQLINT_TEST_GREP = process.env.CQLINT_TEST_GREP;
  const server = await startCodeServer(dirs, { smokeTestDriver: true, env: extraEnv });
  log(`code-server ${server.url} (logs in ${dirs.base})`);

  let context;
  let exitCode = 1;
  try {
    let page;
    ({ context, page } = await openBrowser(dirs));
    let finish;
    const finished = new Promise((resolve) => (finish = resolve));
    await page.exposeFunction('codeAutomationExit', (code) => finish(Number(code)));
    // The workbench forwards all of its console here; mocha's lines carry MOCHA_PREFIX (see test/vscode/index.ts).
    const workbenchLog = createWriteStream(join(dirs.base, 'workbench.log'));
    await page.exposeFunction('codeAutomationLog', (type, args) => {
      const text = format(...(Array.isArray(args) ? args : [args]));
      workbenchLog.write(`[${type}] ${text}\n`);
      for (const line of text.split('\n')) {
        if (line.startsWith(MOCHA_PREFIX)) console.log(line.slice(MOCHA_PREFIX.length));
        else if (type === 'error' && /cqlint|Error: |failed/i.test(line)) console.error(`  [workbench] ${line}`);
      }
    });
    page.on('pageerror', (error) => log(`page error: ${error.message}`));

    const remote = (path) => `vscode-remote://127.0.0.1:${server.port}${path}`;
    const payload = [
      ['extensionDevelopmentPath', remote(process.env.CQLINT_EXTENSION_PATH ?? paths.root)],
      ['extensionTestsPath', remote(join(testsDir, 'index.js'))],
      ['skipWelcome', 'true'],
    ];
    const url = `${server.url}/?folder=${encodeURIComponent(workspace)}&payload=${encodeURIComponent(JSON.stringify(payload))}`;
    await page.goto(url);

    const timeoutSeconds = Number(process.env.CQLINT_TEST_TIMEOUT ?? 600);
    const timedOut = new Promise((resolve) => setTimeout(() => resolve('timeout'), timeoutSeconds * 1000));
    const result = await Promise.race([finished, timedOut]);
    if (result === 'timeout') {
      log(`no result after ${timeoutSeconds} s`);
      await page.screenshot({ path: join(dirs.base, 'timeout.png') }).catch(() => undefined);
      exitCode = 1;
    } else {
      exitCode = result;
    }
  } finally {
    await context?.close().catch(() => undefined);
    await server.stop();
  }
  log(
    exitCode === 0
      ? 'the VS Code suite passed'
      : `the VS Code suite FAILED (exit ${exitCode}); code-server log: ${join(dirs.base, 'code-server.log')}`,
  );
  return exitCode;
}

main().then(
  (code) => process.exit(code),
  (error) => {
    console.error('[test:vscode]', error?.stack ?? error);
    process.exit(1);
  },
);
