// cqlint lint --report-unused-disable-directives(-severity) and .cqlint.json's reportUnusedDisableDirectives.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { runCli, tempDir, type JsonResult } from './helpers';

const TABLE = 'CREATE TABLE ks.t (id uuid, c int, v int, PRIMARY KEY (id, c));\n';
const SCAN = 'SELECT * FROM ks.t WHERE v > 1 ALLOW FILTERING;\n';
const KEYED = 'SELECT * FROM ks.t WHERE id = 5e7e7e3e-0000-4000-8000-000000000000 AND c = 1;\n';
const CODE = `${TABLE}-- cqlint-disable-next-line hot-partition, allow-filtering -- reviewed\n${SCAN}-- cqlint-disable-next-line allow-filtering\n${KEYED}`;

function unused(stdout: string): { line: number; column: number; severity: number; message: string }[] {
  const [file] = JSON.parse(stdout) as JsonResult[];
  return file!.messages
    .filter((m) => m.ruleId === 'unused-disable-directive')
    .map(({ line, column, severity, message }) => ({ line, column, severity, message }));
}

describe('cqlint lint --report-unused-disable-directives', () => {
  test('off by default: the output is what it was', async (t) => {
    const temp = tempDir({ 'a.cql': CODE });
    t.after(() => temp.cleanup());
    const run = await runCli(['lint', '-f', 'json', temp.dir]);
    assert.equal(run.code, 0, run.stderr);
    assert.deepEqual(unused(run.stdout), []);
  });

  test('the flag reports each unused id as an error (exit 1), in ESLint JSON', async (t) => {
    const temp = tempDir({ 'a.cql': CODE });
    t.after(() => temp.cleanup());
    const run = await runCli(['lint', '-f', 'json', '--report-unused-disable-directives', temp.dir]);
    assert.equal(run.code, 1, run.stderr);
    assert.deepEqual(unused(run.stdout), [
      {
        line: 2,
        column: 29,
        severity: 2,
        message: "Unused cqlint-disable-next-line directive (no problems were reported from 'hot-partition')",
      },
      {
        line: 4,
        column: 29,
        severity: 2,
        message: "Unused cqlint-disable-next-line directive (no problems were reported from 'allow-filtering')",
      },
    ]);
  });

  test('SARIF describes the report and links the suppressions page', async (t) => {
    const temp = tempDir({ 'a.cql': CODE });
    t.after(() => temp.cleanup());
    const run = await runCli(['lint', '-f', 'sarif', '--report-unused-disable-directives', temp.dir]);
    const sarif = JSON.parse(run.stdout) as {
      runs: { tool: { driver: { rules: { id: string; shortDescription: { text: string }; helpUri: string }[] } } }[];
    };
    const rule = sarif.runs[0]!.tool.driver.rules.find((r) => r.id === 'unused-disable-directive');
    assert.match(rule?.shortDescription.text ?? '', /comment that silences no finding/);
    assert.match(rule?.helpUri ?? '', /docs\/suppressions\.md#unused-directives$/);
  });

  test('-severity warn, and the config key; the flag replaces the config', async (t) => {
    const temp = tempDir({ 'a.cql': CODE, '.cqlint.json': '{ "reportUnusedDisableDirectives": "warn" }' });
    t.after(() => temp.cleanup());
    const fromConfig = await runCli(['lint', '-f', 'json', temp.dir], { cwd: temp.dir });
    assert.equal(fromConfig.code, 0, fromConfig.stderr);
    assert.deepEqual(
      unused(fromConfig.stdout).map((m) => m.severity),
      [1, 1],
    );
    const off = await runCli(['lint', '-f', 'json', '--report-unused-disable-directives-severity', 'off', temp.dir]);
    assert.deepEqual(unused(off.stdout), []);
    const error = await runCli(['lint', '-f', 'json', '--report-unused-disable-directives-severity=error', temp.dir]);
    assert.deepEqual(
      unused(error.stdout).map((m) => m.severity),
      [2, 2],
    );
  });

  test('--fix removes the unused id, and the comment whose ids are all unused, nothing else', async (t) => {
    const temp = tempDir({ 'a.cql': CODE });
    t.after(() => temp.cleanup());
    const run = await runCli(['lint', '--fix', '--report-unused-disable-directives', temp.dir]);
    assert.equal(run.code, 0, run.stdout + run.stderr);
    assert.equal(
      readFileSync(path.join(temp.dir, 'a.cql'), 'utf8'),
      `${TABLE}-- cqlint-disable-next-line allow-filtering -- reviewed\n${SCAN}${KEYED}`,
    );
  });

  test('usage errors: a bad level, both options', async () => {
    const bad = await runCli(['lint', '--report-unused-disable-directives-severity', 'warning', 'x.cql']);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /--report-unused-disable-directives-severity expects off, warn or error, got "warning"/);
    const both = await runCli([
      'lint',
      '--report-unused-disable-directives',
      '--report-unused-disable-directives-severity',
      'warn',
      'x.cql',
    ]);
    assert.equal(both.code, 2);
    assert.match(both.stderr, /cannot be used together/);
  });

  test('a bad config value is a configuration error (exit 2)', async (t) => {
    const temp = tempDir({ 'a.cql': CODE, '.cqlint.json': '{ "reportUnusedDisableDirectives": "yes" }' });
    t.after(() => temp.cleanup());
    const run = await runCli(['lint', temp.dir], { cwd: temp.dir });
    assert.equal(run.code, 2);
    assert.match(run.stderr, /reportUnusedDisableDirectives: must be "off", "warn" or "error", got "yes"/);
  });
});
