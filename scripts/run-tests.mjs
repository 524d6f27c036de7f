// Runs every test/**/*.test.ts with Node's built-in test runner (through tsx, so no compile step).
// Node 20's --test does not expand globs or pick up .ts files, hence this small finder.
// Usage: node scripts/run-tests.mjs [path filters...]
//        node scripts/run-tests.mjs --browser [filters...]   (test/browser: needs Chromium, see README)
import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { spawnSync } from 'node:child_process';

const root = new URL('..', import.meta.url).pathname;
const browser = process.argv.includes('--browser');
const filters = process.argv.slice(2).filter((a) => a !== '--browser');

function findTests(dir) {
  const found = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) {
      // test/vscode holds the mocha suite that runs inside VS Code, not under node:test; test/browser needs
      // a Chromium, which `npm test` must not (it runs with `npm run test:browser`).
      if (name === 'vscode' || name === 'fixtures' || name === 'node_modules' || (name === 'browser' && !browser)) continue;
      found.push(...findTests(path));
    } else if (name.endsWith('.test.ts')) {
      found.push(path);
    }
  }
  return found;
}

let files = findTests(join(root, 'test', ...(browser ? ['browser'] : []))).sort();
if (filters.length) files = files.filter((f) => filters.some((flt) => relative(root, f).includes(flt)));
if (!files.length) {
  console.error('no test files found');
  process.exit(1);
}
const result = spawnSync(process.execPath, ['--import', 'tsx', '--test', '--test-reporter=spec', ...files], {
  stdio: 'inherit',
  cwd: root,
});
process.exit(result.status ?? 1);
