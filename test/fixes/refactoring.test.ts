// The property every partition fix must have, over real CQL (the corpus, examples/ and the workspace
// fixtures): applied to the whole workspace, the result parses, has no new incomplete-key-write,
// unrestricted-partition-key, unknown-column, shard-mismatch or syntax-error, the finding it was for is
// gone (a copy leaves the original's), and every literal shard value written is the oracle's.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { corpusFiles, projectRoot, readText } from '../helpers/corpus';
import { MAX_SHARDS, MIN_SHARDS } from '../../server/core/partition/planning';
import { PARTITION_RULES, applyToWorkspace, fixesFor, refactoringProblems, shardValueChecks, workspaceProject } from './workspace';

const CORPUS_FOLDERS = ['cassandra-docs', 'killrvideo', 'cassandra-docs-broken', 'dialects'];
const WORKSPACE_FIXTURES = join(__dirname, 'workspaces');

function cqlBelow(dir: string): string[] {
  return readdirSync(dir).sort().flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? cqlBelow(path) : name.endsWith('.cql') ? [path] : [];
  });
}

function workspaces(): { name: string; files: Map<string, string>; config?: Record<string, unknown> }[] {
  const out: { name: string; files: Map<string, string>; config?: Record<string, unknown> }[] = [];
  for (const folder of CORPUS_FOLDERS) out.push({ name: `corpus/${folder}`, files: new Map(corpusFiles(folder).map((f) => [f, readText(f)])) });
  out.push({ name: 'examples', files: new Map(cqlBelow(join(projectRoot, 'examples')).map((f) => [f, readFileSync(f, 'utf8')])) });
  if (existsSync(WORKSPACE_FIXTURES)) {
    for (const name of readdirSync(WORKSPACE_FIXTURES).sort()) {
      const dir = join(WORKSPACE_FIXTURES, name);
      const spec = JSON.parse(readFileSync(join(dir, 'fix.json'), 'utf8')) as { config?: Record<string, unknown> };
      out.push({ name: `workspaces/${name}`, files: new Map(cqlBelow(join(dir, 'before')).map((f) => [f, readFileSync(f, 'utf8')])), config: spec.config });
    }
  }
  return out;
}

describe('every partition fix leaves a working workspace', () => {
  let applied = 0;
  let oracleChecked = 0;
  const rules = new Set<string>();
  for (const { name, files, config } of workspaces()) {
    test(name, () => {
      const project = workspaceProject(files, config);
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
            const after = workspaceProject(new Map([...files, ...texts]), config);
            failures.push(...refactoringProblems(project, after, paths, file, finding, fix).map((p) => `${where}: ${p}`));
            for (const check of shardValueChecks(after, [...texts.keys()])) {
              oracleChecked++;
              if (check.written !== check.expected) failures.push(`${where}: ${check.where} writes shard ${check.written}, the oracle says ${check.expected}`);
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

// One verdict: what a finding's message proposes (its bucket, its shard count) is what its preferred fix
// does, both sized by server/core/partition/planning.ts.
describe('the message proposes what the preferred fix does', () => {
  let compared = 0;
  for (const { name, files, config } of workspaces()) {
    test(name, () => {
      const project = workspaceProject(files, config);
      const disagreements: string[] = [];
      for (const file of files.keys()) {
        for (const finding of project.lint(file).filter((f) => PARTITION_RULES.includes(f.ruleId))) {
          const plan = fixesFor(project, file, finding).find((f) => f.isPreferred)?.plan;
          if (!plan) continue;
          const where = `${relative(projectRoot, file)}:${finding.range.start.line} ${finding.ruleId}`;
          const data = finding.data as { suggestedBucket?: string; growth?: { suggestedBucket: string }; bucket?: { shards: number } };
          const proposed = finding.ruleId === 'unbounded-partition' ? data.suggestedBucket : finding.ruleId === 'hot-partition' ? data.growth?.suggestedBucket : undefined;
          // A bucket already among the clustering columns (timeline's posted_month) moves into the key.
          if (proposed && (finding.data as { clustering?: string[] }).clustering?.includes(proposed)) {
            compared++;
            if (!plan.moveToPartition?.includes(proposed)) disagreements.push(`${where}: the message proposes moving ${proposed} into the partition key, the fix ${plan.bucket ? `adds a ${plan.bucket.granularity} bucket` : 'does not'}`);
            continue;
          }
          if (proposed && plan.bucket) {
            compared++;
            if (plan.bucket.granularity !== proposed) disagreements.push(`${where}: the message proposes a ${proposed} bucket, the fix a ${plan.bucket.granularity} bucket`);
          }
          if (finding.ruleId === 'large-partition' && data.bucket && plan.shard) {
            compared++;
            if (plan.shard.count !== Math.min(MAX_SHARDS, Math.max(MIN_SHARDS, data.bucket.shards))) disagreements.push(`${where}: the message proposes ${data.bucket.shards} shards, the fix ${plan.shard.count}`);
          }
        }
      }
      assert.deepEqual(disagreements, []);
    });
  }
  test('proposals were compared', () => assert.ok(compared >= 5, `only ${compared} proposals compared`));
});
