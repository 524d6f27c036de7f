// For contributors with internet (and GitHub Actions): runs the same mocha suite in desktop VS Code,
// downloaded by @vscode/test-electron. On machines without internet use `npm run test:vscode`.
// Usage: npm run build && node scripts/vscode/run-test-electron.mjs [--version stable|1.91.0]
import { join } from 'node:path';
import { runTests } from '@vscode/test-electron';
import { buildTests } from './build-tests.mjs';
import { paths } from './paths.mjs';

const versionIndex = process.argv.indexOf('--version');
const version = versionIndex > 0 ? process.argv[versionIndex + 1] : 'stable';

try {
  const testsDir = await buildTests();
  await runTests({
    version,
    extensionDevelopmentPath: paths.root,
    extensionTestsPath: join(testsDir, 'index.js'),
    launchArgs: [
      join(paths.root, 'test', 'vscode', 'fixtures', 'workspace'),
      '--disable-extensions',
      '--disable-workspace-trust',
      '--skip-welcome',
    ],
  });
} catch (error) {
  console.error('[test-electron] the VS Code suite failed:', error?.message ?? error);
  process.exit(1);
}
