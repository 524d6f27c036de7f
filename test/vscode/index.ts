// Entry point for the extension tests: @vscode/test-electron (and code-server's smoke-test driver,
// see scripts/vscode/run-vscode-tests.mjs) load this module in the extension host and call run().
// The suite files are bundled next to this file as *.test.js by scripts/vscode/build-tests.mjs.
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as util from 'node:util';
import Mocha from 'mocha';

function findTests(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return findTests(full);
    return entry.name.endsWith('.test.js') ? [full] : [];
  });
}

export function run(): Promise<void> {
  const mocha = new Mocha({
    ui: 'tdd',
    color: false,
    reporter: 'spec',
    // Language server start-up and the first analysis can take a few seconds on a slow CI machine.
    timeout: 60_000,
    slow: 5_000,
  });
  const grep = process.env.CQLINT_TEST_GREP;
  if (grep) mocha.grep(grep);
  const files = findTests(__dirname).sort();
  if (files.length === 0) return Promise.reject(new Error(`no *.test.js files under ${__dirname}`));
  for (const file of files) mocha.addFile(file);

  // code-server's runner forwards every console line of the workbench; a prefix lets it pick out ours.
  const prefix = process.env.CQLINT_MOCHA_PREFIX;
  // Mocha's reporters print through Base.consoleLog (captured when mocha loads), the summary below through console.log.
  const base = Mocha.reporters.Base as unknown as { consoleLog: (...args: unknown[]) => void };
  const originalLog = console.log;
  const originalBaseLog = base.consoleLog;
  if (prefix) {
    const prefixed = (...args: unknown[]) =>
      originalLog(
        prefix +
          util
            .format(...args)
            .split('\n')
            .join('\n' + prefix),
      );
    console.log = prefixed;
    base.consoleLog = prefixed;
  }
  const restore = () => {
    console.log = originalLog;
    base.consoleLog = originalBaseLog;
  };

  return new Promise((resolve, reject) => {
    try {
      const runner = mocha.run((failures) => {
        // The plain closing line CI reads: "N passed, N failed".
        base.consoleLog(`${runner.stats?.passes ?? 0} passed, ${failures} failed`);
        restore();
        if (failures > 0) reject(new Error(`${failures} test(s) failed.`));
        else resolve();
      });
    } catch (error) {
      restore();
      reject(error instanceof Error ? error : new Error(String(error)));
    }
  });
}
