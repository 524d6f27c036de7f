// The installed entry points, end to end: `node bin/cqlint.js` and `node bin/cqlint-language-server.js`
// run the esbuild bundles in dist/ (CI builds before testing; built here when dist/ is missing).
import { describe, test, before } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import { projectRoot } from './helpers';
import { capabilities, startServerCommand } from '../../scripts/lsp-client';
import packageJson from '../../package.json';

const cliBin = path.join(projectRoot, 'bin', 'cqlint.js');
const serverBin = path.join(projectRoot, 'bin', 'cqlint-language-server.js');

describe('bin/ entry points (built bundles)', () => {
  before(() => {
    if (existsSync(path.join(projectRoot, 'dist', 'cli.js')) && existsSync(path.join(projectRoot, 'dist', 'server.js')))
      return;
    const build = spawnSync(process.execPath, ['scripts/build.mjs'], { cwd: projectRoot, encoding: 'utf8' });
    assert.equal(build.status, 0, `npm run build failed:\n${build.stderr}`);
  });

  test('cqlint lint examples/ --format json', () => {
    const run = spawnSync(process.execPath, [cliBin, 'lint', '--format', 'json', 'examples'], {
      cwd: projectRoot,
      encoding: 'utf8',
    });
    assert.equal(run.status, 1, run.stderr);
    const results = JSON.parse(run.stdout) as { filePath: string; messages: { ruleId: string }[] }[];
    const ruleIds = new Set(results.flatMap((r) => r.messages.map((m) => m.ruleId)));
    assert.ok(
      ruleIds.has('hot-partition') && ruleIds.has('unbounded-partition') && ruleIds.has('unknown-column'),
      [...ruleIds].join(', '),
    );
  });

  test('the bundle lints in worker threads too, with the output of one thread', () => {
    const run = (env: Record<string, string>) =>
      spawnSync(process.execPath, [cliBin, 'lint', '--format', 'json', 'examples'], {
        cwd: projectRoot,
        encoding: 'utf8',
        env: { ...process.env, ...env },
      });
    const one = run({ CQLINT_WORKERS: '0' });
    const two = run({ CQLINT_WORKERS: '2', CQLINT_DEBUG: '1' });
    assert.match(two.stderr, /in 2 worker threads/);
    assert.equal(two.status, one.status);
    assert.ok(one.stdout.length > 1000 && two.stdout === one.stdout, 'the same output');
  });

  test('cqlint --version and a usage error exit code', () => {
    const version = spawnSync(process.execPath, [cliBin, '--version'], { cwd: projectRoot, encoding: 'utf8' });
    assert.equal(version.status, 0);
    assert.equal(version.stdout.trim(), packageJson.version);
    const usage = spawnSync(process.execPath, [cliBin, 'lint', '--format', 'xml', 'examples'], {
      cwd: projectRoot,
      encoding: 'utf8',
    });
    assert.equal(usage.status, 2);
    assert.match(usage.stderr, /unknown format "xml"/);
  });

  test('cqlint-language-server --stdio: initialize, diagnostics, shutdown', async (t) => {
    const client = startServerCommand(process.execPath, [serverBin, '--stdio']);
    t.after(() => client.shutdown());
    const init = await client.initialize(capabilities.push);
    assert.equal(init.serverInfo?.name, 'cqlint');
    assert.equal(init.serverInfo?.version, packageJson.version);
    await client.open('untitled:x', 'CREATE TABLE ks.t (id uuid PRIMARY KEY, v text;\n');
    const diagnostics = await client.waitForDiagnostics('untitled:x');
    assert.deepEqual(
      diagnostics.map((d) => d.code),
      ['syntax-error'],
    );
    assert.equal(await client.shutdown(), 0);
  });
});
