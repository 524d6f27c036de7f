// `npm pack` and `npm publish`: `node scripts/pack.mjs prepack` builds for production and writes the
// package.json that ships, without the scripts (they run the sources and scripts/, which are not packed: a
// packed `prepare` would be an install script that npm asks users to approve and that could only fail);
// `postpack` puts the original back. The original waits in package.json.prepack (git-ignored) in between, and a
// prepack that finds one left by an interrupted pack restores it first.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const manifest = join(root, 'package.json');
const saved = join(root, 'package.json.prepack');

/** The package.json text that ships: the manifest without its scripts, in npm's layout. */
export function packedManifest(text) {
  const { scripts: _scripts, ...rest } = JSON.parse(text);
  return `${JSON.stringify(rest, null, 2)}\n`;
}

function restore() {
  if (existsSync(saved)) renameSync(saved, manifest);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const step = process.argv[2];
  if (step === 'prepack') {
    restore();
    const build = spawnSync(process.execPath, [join(root, 'scripts', 'build.mjs'), '--production'], {
      cwd: root,
      stdio: 'inherit',
    });
    if (build.status !== 0) process.exit(build.status ?? 1);
    const text = readFileSync(manifest, 'utf8');
    writeFileSync(saved, text);
    writeFileSync(manifest, packedManifest(text));
  } else if (step === 'postpack') {
    restore();
  } else {
    process.stderr.write('usage: node scripts/pack.mjs prepack|postpack\n');
    process.exit(2);
  }
}
