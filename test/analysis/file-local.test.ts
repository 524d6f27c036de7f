// File-local rules (RuleMeta.fileLocal): their findings on a file depend on that file alone, so the language
// server shows them before the workspace is indexed. Whatever else the workspace holds, and before or after
// the other rules ran, Project.lintLocal answers the same findings, and lint() reports those very findings
// among the others: a verdict shown early is never withdrawn or changed.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Project } from '../../server/core/engine/project';
import { allRules } from '../../server/core/rules';
import { isFileLocal } from '../../server/core/engine/rule-runner';
import type { Finding } from '../../server/core/findings/findings';
import { corpusFiles, readText } from '../helpers/corpus';

const localIds = new Set(allRules.filter(isFileLocal).map((r) => r.meta.id));

function localPart(findings: Finding[]): Finding[] {
  return findings.filter((f) => localIds.has(f.ruleId));
}

describe('file-local rules', () => {
  test('syntax errors and the schema checks that need nothing else are file-local; rules that look up the workspace are not', () => {
    for (const id of ['syntax-error', 'missing-primary-key', 'simple-strategy', 'invalid-hint'])
      assert.ok(localIds.has(id), id);
    for (const id of [
      'unknown-column',
      'hot-partition',
      'unbounded-partition',
      'invalid-shard-annotation',
      'counter-mixed',
    ])
      assert.ok(!localIds.has(id), id);
  });

  test('on every corpus file: the same findings alone, in the whole corpus, and as part of the full lint', () => {
    const files = [...corpusFiles('cassandra-docs'), ...corpusFiles('killrvideo')];
    const workspace = new Project({ config: {} });
    for (const f of files) workspace.setFile(f, readText(f));
    let compared = 0;
    for (const f of files) {
      const alone = new Project({ config: {} });
      alone.setFile(f, readText(f));
      const early = alone.lintLocal(f);
      // Asked for before the workspace's schema was merged, and after its full lint: the same answer.
      const before = workspace.lintLocal(f);
      const full = workspace.lint(f);
      const after = workspace.lintLocal(f);
      assert.deepEqual(before, early, f);
      assert.deepEqual(after, early, f);
      assert.deepEqual(localPart(full), early, f);
      compared += early.length;
    }
    assert.ok(compared > 0, 'the corpus has file-local findings to compare');
    assert.deepEqual(workspace.internalErrors, []);
  });

  test('a file opened before the files it queries: syntax errors and file-local findings, no cross-file verdict', () => {
    const project = new Project({ config: {} });
    const query = [
      "CREATE KEYSPACE shop WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1};",
      'CREATE TABLE shop.notes (id uuid, body text);',
      'SELECT nmae FROM shop.orders WHERE id = ?;',
      'SELEC * FROM shop.orders;',
    ].join('\n');
    project.setFile('/ws/queries.cql', query);
    const early = project.lintLocal('/ws/queries.cql');
    assert.deepEqual(early.map((f) => f.ruleId).sort(), ['missing-primary-key', 'simple-strategy', 'syntax-error']);
    // The schema arrives: the full lint adds the cross-file verdict and keeps every early finding as it was.
    project.setFile('/ws/schema.cql', 'CREATE TABLE shop.orders (id uuid PRIMARY KEY, name text);');
    const full = project.lint('/ws/queries.cql');
    assert.deepEqual(localPart(full), early);
    assert.ok(
      full.some((f) => f.ruleId === 'unknown-column' && /nmae/.test(f.message)),
      JSON.stringify(full.map((f) => f.ruleId)),
    );
  });

  test('suppression comments and rule levels apply to the early findings as to the full lint', () => {
    const text =
      "-- cqlint-disable-next-line simple-strategy\nCREATE KEYSPACE a WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1};\nCREATE TABLE a.t (id int);\n";
    const project = new Project({ config: { rules: { 'missing-primary-key': 'warn' } } });
    project.setFile('/ws/a.cql', text);
    const early = project.lintLocal('/ws/a.cql');
    assert.deepEqual(
      early.map((f) => [f.ruleId, f.severity]),
      [['missing-primary-key', 'warning']],
    );
    assert.deepEqual(localPart(project.lint('/ws/a.cql')), early);
  });
});
