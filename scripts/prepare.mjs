// npm's `prepare` script: the production build (scripts/build.mjs --production), which needs the build tools
// (esbuild, typescript and the tree-sitter grammars: devDependencies). npm runs `prepare` in a clone of cqlint
// installed from its git URL, and it does not always install the devDependencies first: under
// `npm install --global git+...` the inner install inherits the global prefix and installs nothing into the
// clone, and pre-commit's own `npm install` may leave them out. So when the build tools cannot be found, they
// are installed here from the lockfile (npm ci, without their install scripts: the build reads files only),
// into this folder whatever npm_config_global or npm_config_prefix say. A checkout that has them builds at once.
// Under `npm install --global git+...`, npm's inner install also links the global cqlint to this temporary clone
// (npm/cli#4148: the global package is left a link to a deleted folder); that link is removed here, so that the
// outer install unpacks the built package in its place (an empty folder, where it expects one).
// In npm's temporary clone of a git dependency (nothing else is packed from there), the built package.json
// loses its scripts, as scripts/pack.mjs does for `npm pack`: installed, it has no install script to approve.
import { spawnSync } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, readFileSync, realpathSync, unlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { packedManifest } from './pack.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(join(root, 'package.json'));

/** The packages scripts/build.mjs imports or reads. */
export const BUILD_TOOLS = [
  'esbuild',
  'typescript',
  '@vscode/tree-sitter-wasm',
  '@tree-sitter-grammars/tree-sitter-kotlin/package.json',
];

function resolvable(name) {
  try {
    require.resolve(name);
    return true;
  } catch {
    return false;
  }
}

/** The environment of an npm run in this folder: no inherited global mode or prefix, dev dependencies included. */
export function localNpmEnv(env) {
  const clean = Object.fromEntries(
    Object.entries(env).filter(([key]) => !/^npm_config_(global|prefix|location|omit|only|production)$/i.test(key)),
  );
  return { ...clean, npm_config_include: 'dev' };
}

/** The global node_modules of the npm that runs this script, asked of npm itself (npm prefix --global). */
function globalModules() {
  const npm = process.env.npm_execpath;
  const args = ['prefix', '--global'];
  const result =
    npm && /\.c?js$/.test(npm)
      ? spawnSync(process.execPath, [npm, ...args], { encoding: 'utf8' })
      : spawnSync(process.platform === 'win32' ? 'npm.cmd' : 'npm', args, { encoding: 'utf8' });
  const prefix = result.status === 0 ? result.stdout.trim() : '';
  return prefix
    ? process.platform === 'win32'
      ? join(prefix, 'node_modules')
      : join(prefix, 'lib', 'node_modules')
    : undefined;
}

/** npm/cli#4148: when npm's inner install of a git clone ran in global mode, the global cqlint is a link to this clone. */
function unlinkGlobalLinkToHere() {
  if (!/^true$/i.test(process.env.npm_config_global ?? '')) return;
  const modules = globalModules();
  if (!modules) return;
  const link = join(modules, 'cqlint');
  try {
    if (lstatSync(link).isSymbolicLink() && realpathSync(link) === realpathSync(root)) {
      // The outer install unpacks into this folder: it must be there, empty.
      unlinkSync(link);
      mkdirSync(link);
    }
  } catch {
    // No global cqlint, or not a link to here: nothing to undo.
  }
}

function run(command, args) {
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', env: localNpmEnv(process.env), shell: false });
  if (result.error) throw result.error;
  if (result.status !== 0) process.exit(result.status ?? 1);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const missing = BUILD_TOOLS.filter((name) => !resolvable(name));
  if (missing.length) {
    if (!existsSync(join(root, 'package-lock.json'))) {
      process.stderr.write(
        `cqlint prepare: the build tools (${missing.join(', ')}) are missing and there is no package-lock.json to install them from\n`,
      );
      process.exit(1);
    }
    process.stderr.write(
      `cqlint prepare: installing the build tools (${missing.join(', ')} missing) from package-lock.json\n`,
    );
    // npm_execpath is the npm that runs this script (npm-cli.js); `npm` on the PATH otherwise.
    const npm = process.env.npm_execpath;
    const args = ['ci', '--include=dev', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error'];
    if (npm && /\.c?js$/.test(npm)) run(process.execPath, [npm, ...args]);
    else run(process.platform === 'win32' ? 'npm.cmd' : 'npm', args);
  }
  run(process.execPath, [join(root, 'scripts', 'build.mjs'), '--production']);
  unlinkGlobalLinkToHere();
  // pacote clones a git dependency into <cache>/_cacache/tmp/git-clone<random> and packs it from there.
  if (/[\\/]_cacache[\\/]tmp[\\/]git-clone[^\\/]*$/.test(realpathSync(root))) {
    const manifest = join(root, 'package.json');
    writeFileSync(manifest, packedManifest(readFileSync(manifest, 'utf8')));
  }
}
