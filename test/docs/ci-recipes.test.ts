// The CI recipes under docs/ci/ and the pre-commit hooks (.pre-commit-hooks.yaml) are files users copy:
// they must parse, and every cqlint command line in them must be one the CLI accepts and that runs on a
// schema without a usage or input failure (exit 0 or 1).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, readFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { commands } from '../../server/cli/main';
import { runCli, tempDir } from '../cli/helpers';
import { projectRoot } from '../helpers/corpus';

const yaml = require('js-yaml') as { load(text: string): unknown };

type Yaml = Record<string, unknown>;
const load = (file: string): unknown => yaml.load(readFileSync(join(projectRoot, file), 'utf8'));

/** The cqlint invocations of a shell line: the words after `cqlint` up to a shell operator. */
function invocations(line: string): string[][] {
  const out: string[][] = [];
  const words = line.split(/\s+/).filter(Boolean);
  words.forEach((word, i) => {
    if (word !== 'cqlint') return;
    const args: string[] = [];
    for (const next of words.slice(i + 1)) {
      if (/^(>|>>|\||\|\||&&|;|2>&1)$/.test(next)) break;
      args.push(next);
    }
    out.push(args);
  });
  return out;
}

/** Every option of an invocation is one its command declares. */
function assertAccepted(args: string[], where: string): void {
  const [name, ...rest] = args;
  const command = commands[name!];
  assert.ok(command, `${where}: cqlint ${name} is a command`);
  const declared = Object.entries(command.spec.options);
  for (const arg of rest) {
    if (!arg.startsWith('-')) continue;
    const known = arg.startsWith('--')
      ? declared.some(([option]) => option === arg.slice(2).split('=')[0])
      : declared.some(([, option]) => option.short === arg.slice(1));
    assert.ok(known, `${where}: cqlint ${name} has no option ${arg}`);
  }
}

const recipes = {
  'docs/ci/github-actions.yml': (doc: Yaml): string[] =>
    Object.values(doc.jobs as Record<string, { steps: { run?: string }[] }>).flatMap((job) =>
      job.steps.flatMap((step) => (step.run ? step.run.split('\n') : [])),
    ),
  'docs/ci/gitlab-ci.yml': (doc: Yaml): string[] =>
    Object.values(doc).flatMap((job) =>
      ((job as { script?: string[] }).script ?? []).flatMap((entry) => entry.split('\n')),
    ),
  '.pre-commit-hooks.yaml': (doc: unknown): string[] =>
    (doc as { entry: string; args?: string[] }[]).map((hook) =>
      [hook.entry, ...(hook.args ?? ['examples/schema/keyspace.cql'])].join(' '),
    ),
};

describe('CI recipes and pre-commit hooks', () => {
  for (const [file, linesOf] of Object.entries(recipes)) {
    test(`${file}: parses, and its cqlint commands are accepted and run on a schema (exit 0 or 1)`, async (t) => {
      const lines = linesOf(load(file) as Yaml);
      const calls = lines.flatMap(invocations);
      assert.ok(calls.length >= 2, `${file} runs cqlint`);
      const temp = tempDir();
      t.after(() => temp.cleanup());
      cpSync(join(projectRoot, 'examples'), temp.path('.'), { recursive: true });
      // A repository with one commit: --since <the base branch> reads its merge-base, here HEAD.
      for (const args of [
        ['init', '-q'],
        ['add', '.'],
        ['-c', 'user.email=t@example.com', '-c', 'user.name=t', 'commit', '-q', '-m', 'x'],
      ])
        execFileSync('git', args, { cwd: temp.dir });
      for (const args of calls) {
        assertAccepted(args, file);
        const run = await runCli(
          args.map((a, i) =>
            a === 'examples/schema/keyspace.cql' ? 'schema/keyspace.cql' : args[i - 1] === '--since' ? 'HEAD' : a,
          ),
          { cwd: temp.dir },
        );
        assert.ok(
          run.code === 0 || run.code === 1,
          `${file}: cqlint ${args.join(' ')} exits ${run.code}: ${run.stderr}`,
        );
      }
    });
  }

  test('the GitHub workflow uploads the SARIF it writes and keeps the report as an artifact', () => {
    const doc = load('docs/ci/github-actions.yml') as {
      permissions: Record<string, string>;
      jobs: Record<
        string,
        {
          permissions?: Record<string, string>;
          steps: { uses?: string; run?: string; with?: Record<string, string> }[];
        }
      >;
    };
    const steps = Object.values(doc.jobs).flatMap((job) => job.steps);
    const uploads = Object.values(doc.jobs).find((job) =>
      job.steps.some((s) => s.uses?.startsWith('github/codeql-action/upload-sarif')),
    )!;
    const sarif = uploads.steps.find((s) => s.uses?.startsWith('github/codeql-action/upload-sarif'));
    assert.ok(
      sarif && uploads.steps.some((s) => s.run?.includes(`> ${sarif.with!.sarif_file}`)),
      'the uploaded file is the one lint writes',
    );
    assert.equal((uploads.permissions ?? doc.permissions)['security-events'], 'write');
    const artifact = steps.find((s) => s.uses?.startsWith('actions/upload-artifact'));
    assert.ok(
      artifact && steps.some((s) => s.run?.includes(`--out ${artifact.with!.path}`)),
      'the artifact is the report written',
    );
  });

  test('the pre-commit hooks: node hooks with unique ids, run on CQL files', () => {
    const hooks = load('.pre-commit-hooks.yaml') as { id: string; language: string; files: string; entry: string }[];
    assert.deepEqual(
      hooks.map((h) => h.id),
      ['cqlint', 'cqlint-format'],
    );
    for (const hook of hooks) {
      assert.equal(hook.language, 'node');
      assert.match('schema/users.cql', new RegExp(hook.files));
      assert.doesNotMatch('README.md', new RegExp(hook.files));
      assert.match(hook.entry, /^cqlint (lint|format)\b/);
    }
  });
});
