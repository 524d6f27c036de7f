// Bundles the extension test suite (test/vscode) into out/test/vscode/: index.js plus one *.test.js
// per suite file, so the extension host can load plain CommonJS. `vscode` comes from the host;
// mocha stays external and resolves from the project's node_modules.
import * as esbuild from 'esbuild';
import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { paths } from './paths.mjs';

export async function buildTests() {
  const suiteDir = join(paths.root, 'test', 'vscode', 'suite');
  const suites = readdirSync(suiteDir).filter((name) => name.endsWith('.test.ts'));
  rmSync(paths.testBundle, { recursive: true, force: true });
  await esbuild.build({
    entryPoints: [join(paths.root, 'test', 'vscode', 'index.ts'), ...suites.map((name) => join(suiteDir, name))],
    outdir: paths.testBundle,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    sourcemap: 'inline',
    external: ['vscode', 'mocha'],
    logLevel: 'warning',
  });
  return paths.testBundle;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await buildTests();
  console.log(`[build-tests] ${paths.testBundle}`);
}
