// `npm run test:e2e`: packages the extension (.vsix, the real artifact), then runs the UI test
// test/e2e/*.e2e.mjs with node:test against code-server + headless Chromium with that .vsix installed.
// Screenshots land in test-results/e2e/. Env: CQLINT_VSIX=<file> tests an existing package instead.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { setup } from './setup.mjs';
import { paths } from './paths.mjs';

function run(cmd, args, env = process.env) {
  const result = spawnSync(cmd, args, { stdio: 'inherit', cwd: paths.root, env });
  return result.status ?? 1;
}

try {
  setup();
  if (!process.env.CQLINT_VSIX) {
    // vsce's own CLI: vscode:prepublish (production build) then the .vsix, offline.
    const vsce = join(paths.root, 'node_modules', '@vscode', 'vsce', 'vsce');
    if (run(process.execPath, [vsce, 'package', '--no-dependencies', '--out', join(paths.root, 'cqlint.vsix')]) !== 0) {
      throw new Error('vsce package failed');
    }
  }
  const dir = join(paths.root, 'test', 'e2e');
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.e2e.mjs'))
    .map((f) => join(dir, f));
  process.exit(run(process.execPath, ['--test', '--test-reporter=spec', '--test-concurrency=1', ...files]));
} catch (error) {
  console.error('[test:e2e]', error?.message ?? error);
  process.exit(1);
}
