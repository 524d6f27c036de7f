// The CI recipes fail the job when cqlint cannot do its work: each step that runs cqlint, run as the CI
// runs it (bash -e; `npx` standing for the installed CLI, bin/cqlint.js), fails on a broken configuration
// (exit 2), and a step that keeps findings for a later step (`|| [ $? -eq 1 ]`) passes on findings alone.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { execFileSync, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { tempDir } from '../cli/helpers';
import { projectRoot } from '../helpers/corpus';

const yaml = require('js-yaml') as { load(text: string): unknown };

interface Step {
  run: string;
  name: string;
}

const recipes: Record<string, (doc: unknown) => Step[]> = {
  'docs/ci/github-actions.yml': (doc) =>
    Object.entries((doc as { jobs: Record<string, { steps: { run?: string; name?: string }[] }> }).jobs).flatMap(
      ([job, { steps }]) =>
        steps.flatMap((step, i) =>
          step.run?.includes('cqlint') ? [{ run: step.run, name: `${job} step ${i} (${step.name ?? step.run})` }] : [],
        ),
    ),
  'docs/ci/gitlab-ci.yml': (doc) =>
    Object.entries(doc as Record<string, { script?: string[] }>).flatMap(([job, { script }]) =>
      (script ?? []).flatMap((line, i) =>
        line.includes('cqlint') ? [{ run: line, name: `${job} script ${i} (${line})` }] : [],
      ),
    ),
};

/** Runs a step's script as the runner does, in a repository of the examples with origin/main at HEAD. */
function runStep(step: Step, dir: string, env: Record<string, string>): number {
  const shim = `npx() { if [ "$1" = cqlint ]; then shift; fi; node ${JSON.stringify(join(projectRoot, 'bin', 'cqlint.js'))} "$@"; }\n`;
  const run = spawnSync('bash', ['-e', '-c', shim + step.run], {
    cwd: dir,
    env: { ...process.env, ...env },
    encoding: 'utf8',
  });
  return run.status ?? -1;
}

describe('CI recipes fail the job on exit 2', () => {
  for (const [file, stepsOf] of Object.entries(recipes)) {
    test(`${file}: every cqlint step fails on a broken configuration; a step that keeps findings passes on them`, (t) => {
      const steps = stepsOf(yaml.load(readFileSync(join(projectRoot, file), 'utf8')));
      assert.ok(steps.length >= 2);
      const temp = tempDir();
      t.after(() => temp.cleanup());
      cpSync(join(projectRoot, 'examples'), temp.dir, { recursive: true });
      const git = (...args: string[]): void =>
        void execFileSync('git', ['-c', 'user.email=t@example.com', '-c', 'user.name=t', ...args], { cwd: temp.dir });
      git('init', '-q', '-b', 'main');
      git('add', '.');
      git('commit', '-q', '-m', 'x');
      git('remote', 'add', 'origin', temp.dir);
      git('fetch', '-q', 'origin');
      const summary = temp.path('summary.md');
      const env = {
        GITHUB_BASE_REF: 'main',
        GITHUB_STEP_SUMMARY: summary,
        CI_MERGE_REQUEST_TARGET_BRANCH_NAME: 'main',
      };
      for (const step of steps.filter((s) => s.run.includes('[ $? -eq 1 ]'))) {
        assert.equal(runStep(step, temp.dir, env), 0, `${step.name} passes on findings`);
      }
      writeFileSync(temp.path('.cqlint.json'), '{ "rules": { "no-such-rule": "error" } }');
      for (const step of steps) {
        const status = runStep(step, temp.dir, env);
        assert.notEqual(status, 0, `${step.name} fails on a broken configuration`);
      }
    });
  }
});
