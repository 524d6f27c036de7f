// A dropped Project frees its memory: no module-wide cache (the workload answers, column profiles, key
// signatures, one-definition lists, the planner's figures) keeps its tables, their statements or the Project
// itself once nothing else holds it. Run in a child process with --expose-gc (dropped-project-probe.ts),
// which lints a generated workspace of 150 tables, drops the Project and collects. A module-level Map keyed
// by tables (as the workload cache was, issue 41) keeps every table it answered for, and through their
// references the Project: this test then finds them alive.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';

const ROOT = path.resolve(__dirname, '..', '..');

interface ProbeResult {
  tables: number;
  alive: { projects: number; tables: number; warmTables: number };
  heapBeforeMB: number;
  heapWithMB: number;
  heapAfterMB: number;
}

function probe(...args: string[]): ProbeResult {
  return runProbe(args) as ProbeResult;
}

function runProbe(args: string[]): unknown {
  const run = spawnSync(
    process.execPath,
    ['--expose-gc', '--import', 'tsx', path.join('test', 'analysis', 'dropped-project-probe.ts'), ...args],
    {
      cwd: ROOT,
      encoding: 'utf8',
      timeout: 600_000,
    },
  );
  assert.equal(run.status, 0, run.stderr);
  return JSON.parse(run.stdout);
}

test('a linted Project, once dropped, leaves neither itself nor any of its tables alive, and the heap returns', () => {
  const result = probe();
  assert.ok(result.tables >= 100, `${result.tables} tables watched`);
  assert.deepEqual(result.alive, { projects: 0, tables: 0, warmTables: 0 });
  const held = result.heapWithMB - result.heapBeforeMB;
  const left = result.heapAfterMB - result.heapBeforeMB;
  assert.ok(held > 2, `the Project held ${held.toFixed(1)} MB (too little to tell what it leaves)`);
  assert.ok(left < held / 4, `a dropped Project left ${left.toFixed(1)} MB of the ${held.toFixed(1)} MB it held`);
});

test('two Projects dropped one after the other leave nothing either', () => {
  const result = probe('twice');
  assert.deepEqual(result.alive, { projects: 0, tables: 0, warmTables: 0 });
});

test("a held Project keeps no linted file's tree once the file is let go of (the CLI's run)", () => {
  // The partition figures and row sizes were kept per table with the rule context's user type lookup, which
  // closes over the context and its parse: every linted file's tree stayed alive to the end of the run.
  const result = runProbe(['released']) as { trees: number; alive: number };
  assert.ok(result.trees >= 4, `${result.trees} trees watched`);
  assert.equal(result.alive, 0, `${result.alive} of ${result.trees} linted trees still alive`);
});
