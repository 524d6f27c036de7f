// The property every partition fix must have, over real CQL (the corpus, ../shared/corpus when present,
// examples/, the workspace fixtures and every fix fixture): applied to the whole workspace, the result parses,
// has no new incomplete-key-write, unrestricted-partition-key, unknown-column, shard-mismatch,
// partial-partition-key or syntax-error; a fix the planner says cures (the preferred one among them) leaves no
// finding of its rule on the table and no new partition finding there, one that does not says what it leaves
// in its title (a copy leaves the original's); its bucket is computed from a time, its reads walk their buckets
// in their own order; and every literal shard value written is the oracle's.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { corpusFiles, projectRoot, readText } from '../helpers/corpus';
import {
  PARTITION_RULES,
  applyToWorkspace,
  fixesFor,
  fixtureEvidence,
  meaningProblems,
  refactoringProblems,
  shardValueChecks,
  workspaceProject,
} from './workspace';

const CORPUS_FOLDERS = ['cassandra-docs', 'killrvideo', 'cassandra-docs-broken', 'dialects'];
const WORKSPACE_FIXTURES = join(__dirname, 'workspaces');

function cqlBelow(dir: string): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const path = join(dir, name);
      return statSync(path).isDirectory() ? cqlBelow(path) : name.endsWith('.cql') ? [path] : [];
    });
}

interface Workspace {
  name: string;
  files: Map<string, string>;
  config?: Record<string, unknown>;
  evidence?: string;
}

function workspaces(): Workspace[] {
  const out: Workspace[] = [];
  for (const folder of CORPUS_FOLDERS)
    out.push({ name: `corpus/${folder}`, files: new Map(corpusFiles(folder).map((f) => [f, readText(f)])) });
  out.push({
    name: 'examples',
    files: new Map(cqlBelow(join(projectRoot, 'examples')).map((f) => [f, readFileSync(f, 'utf8')])),
  });
  // Every fix fixture's before file, a workspace of its own (its `-- with:` options as the editor's settings).
  for (const folder of readdirSync(join(__dirname, 'fixtures')).sort()) {
    for (const name of readdirSync(join(__dirname, 'fixtures', folder))
      .filter((n) => n.endsWith('.before.cql'))
      .sort()) {
      out.push({
        name: `fixtures/${folder}/${name}`,
        files: new Map([
          [join(__dirname, 'fixtures', folder, name), readFileSync(join(__dirname, 'fixtures', folder, name), 'utf8')],
        ]),
      });
    }
  }
  if (existsSync(WORKSPACE_FIXTURES)) {
    for (const name of readdirSync(WORKSPACE_FIXTURES).sort()) {
      const dir = join(WORKSPACE_FIXTURES, name);
      const spec = JSON.parse(readFileSync(join(dir, 'fix.json'), 'utf8')) as { config?: Record<string, unknown> };
      out.push({
        name: `workspaces/${name}`,
        files: new Map(cqlBelow(join(dir, 'before')).map((f) => [f, readFileSync(f, 'utf8')])),
        config: spec.config,
        evidence: dir,
      });
    }
  }
  return out;
}

describe('every partition fix leaves a working workspace', () => {
  let applied = 0;
  let oracleChecked = 0;
  const rules = new Set<string>();
  for (const { name, files, config, evidence: dir } of workspaces()) {
    test(name, async () => {
      // A workspace fixture's captures, where it has them.
      const evidence = dir ? await fixtureEvidence(dir, dir) : [];
      const project = workspaceProject(files, config, evidence);
      const paths = [...files.keys()];
      const failures: string[] = [];
      for (const file of paths) {
        for (const finding of project.lint(file).filter((f) => PARTITION_RULES.includes(f.ruleId))) {
          for (const fix of fixesFor(project, file, finding)) {
            applied++;
            rules.add(finding.ruleId);
            const where = `${relative(projectRoot, file)}:${finding.range.start.line} ${finding.ruleId} "${fix.title}"`;
            const { texts, problems } = applyToWorkspace(project, file, fix);
            failures.push(...problems.map((p) => `${where}: ${p}`));
            const after = workspaceProject(new Map([...files, ...texts]), config, evidence);
            failures.push(
              ...refactoringProblems(project, after, paths, file, finding, fix).map((p) => `${where}: ${p}`),
            );
            failures.push(...meaningProblems(project, after, texts.keys(), finding, fix).map((p) => `${where}: ${p}`));
            for (const check of shardValueChecks(after, [...texts.keys()])) {
              oracleChecked++;
              if (check.written !== check.expected)
                failures.push(
                  `${where}: ${check.where} writes shard ${check.written}, the oracle says ${check.expected}`,
                );
            }
          }
        }
      }
      assert.deepEqual(failures, []);
    });
  }
  test('the workspaces exercise every partition rule, and the oracle checks written shards', () => {
    assert.ok(applied > 50, `only ${applied} fixes applied`);
    assert.deepEqual([...rules].sort(), [...PARTITION_RULES].sort());
    assert.ok(oracleChecked > 10, `only ${oracleChecked} shard values checked`);
  });
});
