// Before/after fixtures of whole workspaces for the partition refactorings:
// test/fixes/workspaces/<case>/fix.json names the finding (rule and table) and the fix to apply (its id,
// or null: no partition fix applies); before/ holds the workspace's files, after/ every file the fix
// changes, exactly, and evidence/ (optional) the cluster's captures the workspace is linted with (nodetool
// outputs, as .cqlint.json's `evidence` names them). Files missing from after/ must come out unchanged.
// UPDATE_FIXTURES=1 rewrites after/.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { CqlintConfig } from '../../server/core/vocabulary/config';
import {
  applyToWorkspace,
  filesBelow,
  fixesFor,
  fixtureEvidence,
  refactoringProblems,
  shardValueChecks,
  workspaceProject,
} from './workspace';

const DIR = join(__dirname, 'workspaces');
/** The virtual root the fixtures' files are loaded under (paths in titles and details are relative to it). */
const ROOT = '/virtual/cqlint-workspace';

interface FixSpec {
  description: string;
  rule: string;
  table: string;
  /** The fix to apply (its id); null: no fix must be offered for the finding. */
  apply: string | null;
  /** The ids offered, in order (the first is the preferred one). */
  offered?: string[];
  /** The preferred fix's id; null: no fix is preferred (none cures: each title says what it leaves). */
  preferred?: string | null;
  title?: string;
  /** The file whose finding it is, when the table is defined in several. */
  file?: string;
  config?: CqlintConfig;
  settings?: { shardCount?: number };
}

describe('workspace refactorings', () => {
  for (const name of readdirSync(DIR).sort()) {
    const spec = JSON.parse(readFileSync(join(DIR, name, 'fix.json'), 'utf8')) as FixSpec;
    test(`${name}: ${spec.description}`, async () => {
      const evidence = await fixtureEvidence(join(DIR, name), ROOT);
      const before = filesBelow(join(DIR, name, 'before'));
      const expected = filesBelow(join(DIR, name, 'after'));
      const files = new Map([...before].map(([rel, text]) => [`${ROOT}/${rel}`, text]));
      const project = workspaceProject(files, spec.config, evidence);
      const paths = [...files.keys()];
      const found = paths
        .filter((p) => !spec.file || p === `${ROOT}/${spec.file}`)
        .flatMap((file) =>
          project
            .lint(file)
            .filter((f) => f.ruleId === spec.rule && (f.data as { table?: string } | undefined)?.table === spec.table)
            .map((finding) => ({ file, finding })),
        );
      assert.equal(found.length, 1, `one ${spec.rule} finding on ${spec.table}; found ${found.length}`);
      const { file, finding } = found[0]!;
      const fixes = fixesFor(project, file, finding, spec.settings);
      if (spec.apply === null) {
        assert.deepEqual(
          fixes.map((f) => f.title),
          [],
          'no fix applies',
        );
        assert.equal(expected.size, 0, 'a fixture with no fix has no after/');
        return;
      }
      if (spec.offered) {
        assert.deepEqual(
          fixes.map((f) => f.id),
          spec.offered,
        );
        assert.equal(
          fixes.findIndex((f) => f.isPreferred),
          0,
          'the first fix is the preferred one',
        );
      }
      if (spec.preferred !== undefined) {
        assert.equal(fixes.find((f) => f.isPreferred)?.id ?? null, spec.preferred, 'the preferred fix');
        if (spec.preferred === null)
          for (const f of fixes.filter((f) => f.plan))
            assert.match(f.title, /\(leaves: /, `"${f.title}" says what it leaves`);
      }
      const fix = fixes.find((f) => f.id === spec.apply);
      assert.ok(fix, `no fix ${spec.apply}; offered: ${fixes.map((f) => f.id).join(', ')}`);
      if (spec.title) assert.equal(fix.title, spec.title);
      const { texts, problems } = applyToWorkspace(project, file, fix);
      assert.deepEqual(problems, []);
      if (process.env.UPDATE_FIXTURES) {
        // Rewrites after/ from what the fix does (review the diff), as rust-analyzer's UPDATE_EXPECT does.
        rmSync(join(DIR, name, 'after'), { recursive: true, force: true });
        for (const [path, text] of texts) {
          const rel = path.slice(ROOT.length + 1);
          if (text === before.get(rel)) continue;
          mkdirSync(dirname(join(DIR, name, 'after', rel)), { recursive: true });
          writeFileSync(join(DIR, name, 'after', rel), text);
        }
        return;
      }
      for (const [rel, text] of before) {
        const path = `${ROOT}/${rel}`;
        const want = expected.get(rel);
        if (want === undefined)
          assert.equal(texts.has(path) ? texts.get(path) : text, text, `${rel} is left as it was`);
        else assert.equal(texts.get(path), want, `${rel} as after/${rel}`);
      }
      for (const rel of expected.keys()) assert.ok(before.has(rel), `after/${rel} has a before/${rel}`);
      const after = workspaceProject(new Map([...files, ...texts]), spec.config, evidence);
      assert.deepEqual(refactoringProblems(project, after, paths, file, finding, fix), []);
      for (const check of shardValueChecks(after, [...texts.keys()]))
        assert.equal(check.written, check.expected, `${check.where}: the oracle's shard`);
    });
  }
});
