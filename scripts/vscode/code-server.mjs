// Starts code-server (VS Code's server + web workbench) for one test run, isolated from $HOME and
// /tmp, offline, on a free local port. Used by run-vscode-tests.mjs and run-e2e.mjs.
import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, rmSync, createWriteStream, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { paths } from './paths.mjs';

export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** Fresh per-run folders under .vscode-test/runs/<name>. */
export function runDirs(name) {
  const base = join(paths.runs, name);
  rmSync(base, { recursive: true, force: true });
  const dirs = {
    base,
    userData: join(base, 'user-data'),
    extensions: join(base, 'extensions'),
    config: join(base, 'config'),
    data: join(base, 'data'),
    tmp: join(base, 'tmp'),
    browser: join(base, 'browser'),
  };
  for (const dir of Object.values(dirs)) mkdirSync(dir, { recursive: true });
  return dirs;
}

function serverEnv(dirs, extra = {}) {
  const env = {
    ...process.env,
    PATH: `${paths.nodeBin}:${process.env.PATH}`,
    EXTENSIONS_GALLERY: '{}',
    XDG_CONFIG_HOME: dirs.config,
    XDG_DATA_HOME: dirs.data,
    TMPDIR: dirs.tmp,
    ...extra,
  };
  // Options meant for the project's Node 20 tooling must not leak into code-server's Node 24.
  delete env.NODE_OPTIONS;
  delete env.ELECTRON_RUN_AS_NODE;
  delete env.VSCODE_IPC_HOOK_CLI;
  return env;
}

function commonArgs(dirs) {
  return [
    '--auth',
    'none',
    '--disable-telemetry',
    '--disable-update-check',
    '--disable-workspace-trust',
    '--user-data-dir',
    dirs.userData,
    '--extensions-dir',
    dirs.extensions,
  ];
}

/** Settings that keep the workbench quiet, offline and deterministic in every run. */
const QUIET_WORKBENCH = {
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
  // A test that applies a fix spanning files leaves them dirty: never saved onto the fixtures.
  'files.autoSave': 'off',
};

/** Writes the run's user settings: the quiet-workbench defaults plus `settings`. */
export function writeUserSettings(dirs, settings = {}) {
  const userDir = join(dirs.userData, 'User');
  mkdirSync(userDir, { recursive: true });
  writeFileSync(join(userDir, 'settings.json'), JSON.stringify({ ...QUIET_WORKBENCH, ...settings }, null, 2));
}

export function installExtension(dirs, vsix) {
  const result = spawnSync(
    paths.node,
    [paths.codeServerEntry, ...commonArgs(dirs), '--install-extension', vsix, '--force'],
    {
      env: serverEnv(dirs),
      encoding: 'utf8',
    },
  );
  if (result.status !== 0) {
    throw new Error(`code-server --install-extension failed (${result.status}):\n${result.stdout}\n${result.stderr}`);
  }
  return result.stdout.trim();
}

/**
 * Starts code-server and resolves once it accepts connections.
 * Returns { url, port, stop() }; its output goes to <run>/code-server.log.
 */
export async function startCodeServer(dirs, { smokeTestDriver = false, env = {} } = {}) {
  const port = await freePort();
  const args = [paths.codeServerEntry, ...commonArgs(dirs), '--bind-addr', `127.0.0.1:${port}`, '--ignore-last-opened'];
  if (smokeTestDriver) args.push('--vscode-option', 'enable-smoke-test-driver');
  const log = createWriteStream(join(dirs.base, 'code-server.log'));
  const child = spawn(paths.node, args, {
    env: serverEnv(dirs, env),
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  child.stdout.pipe(log);
  child.stderr.pipe(log);
  let exited = false;
  child.on('exit', () => (exited = true));

  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (exited) throw new Error(`code-server exited early; see ${join(dirs.base, 'code-server.log')}`);
    try {
      const response = await fetch(`${url}/healthz`);
      if (response.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline)
      throw new Error(`code-server did not start within 60 s; see ${join(dirs.base, 'code-server.log')}`);
    await new Promise((r) => setTimeout(r, 250));
  }

  return {
    url,
    port,
    async stop() {
      if (exited) return;
      // Its process group: code-server forks the extension host and our language server.
      try {
        process.kill(-child.pid, 'SIGTERM');
      } catch {
        return;
      }
      const until = Date.now() + 5_000;
      while (!exited && Date.now() < until) await new Promise((r) => setTimeout(r, 100));
      if (!exited) {
        try {
          process.kill(-child.pid, 'SIGKILL');
        } catch {
          // already gone
        }
      }
    },
  };
}

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export const CHROMIUM_PATH = process.env.CQLINT_CHROMIUM ?? '/usr/bin/chromium';

/** Headless Chromium with the run's own profile; resolves to { context, page }. */
export async function openBrowser(dirs, options = {}) {
  const { chromium } = await import('playwright-core');
  const context = await chromium.launchPersistentContext(dirs.browser, {
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: CHROMIUM_ARGS,
    ...options,
  });
  const page = context.pages()[0] ?? (await context.newPage());
  return { context, page };
}

/**
 * One UI test's setting: a fresh workspace holding `files` ({ name in the workspace: source path }), the
 * .vsix installed, user settings written, code-server started and the workspace opened in Chromium.
 * `close()` ends both.
 */
export async function openWorkspaceInBrowser(runName, { vsix, files, settings, viewport }) {
  const dirs = runDirs(runName);
  const workspace = join(dirs.base, 'workspace');
  mkdirSync(workspace, { recursive: true });
  for (const [name, source] of Object.entries(files)) copyFileSync(source, join(workspace, name));
  console.log(`# ${installExtension(dirs, vsix).split('\n').pop()}`);
  writeUserSettings(dirs, settings);
  const server = await startCodeServer(dirs);
  const { context, page } = await openBrowser(dirs, { viewport });
  await page.goto(`${server.url}/?folder=${encodeURIComponent(workspace)}`);
  return {
    page,
    logs: join(dirs.base, 'user-data', 'logs'),
    async close() {
      await context.close().catch(() => undefined);
      await server.stop();
    },
  };
}

/** Runs a UI walk-through; when a step fails, the screen at that moment and where the server's log is. */
export async function withFailureScreenshot(walkThrough, { screenshot, logs }) {
  try {
    await walkThrough();
  } catch (error) {
    // The state of the screen when a step failed says more than the locator's message.
    await screenshot('failure').catch(() => undefined);
    console.log(`# server logs: ${logs()} (cqlint.log)`);
    throw error;
  }
}
