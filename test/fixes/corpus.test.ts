// Property test over the corpus of real CQL (test/fixtures/corpus): every fix offered for every finding, and the
// shard-column and time-bucket fixes on every CREATE TABLE, apply cleanly: no new syntax error, every
// comment kept, nothing changed outside the edits, and the finding a fix is for goes away.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { basename } from 'node:path';
import type { CreateTableStatement } from '../../grammar/ast';
import { parseCql } from '../../grammar';
import { Project } from '../../server/core/project';
import { fixesForFinding } from '../../server/core/fixes';
import { projectFixEnvironment } from '../../server/core/fixes/environment';
import { addShardColumnFixes } from '../../server/core/fixes/shard-column';
import { addTimeBucketFixes } from '../../server/core/fixes/time-bucket';
import { validateShardSpec } from '../../server/core/token/shard';
import { shardAnnotationAbove } from '../../server/core/schema/shard';
import { corpusFiles, readText } from '../helpers/corpus';
import { applyChecked, isCopyFix } from './helpers';
import { LineIndex } from '../../grammar/line-index';

const FOLDERS = ['cassandra-docs', 'killrvideo', 'cassandra-docs-broken', 'dialects'];

function loadProject(folder: string): { project: Project; files: string[] } {
  const project = new Project({ config: {} });
  const files = corpusFiles(folder);
  for (const file of files) project.setFile(file, readText(file));
  return { project, files };
}

describe('fixes for every corpus finding', () => {
  let total = 0;
  for (const folder of FOLDERS) {
    test(folder, () => {
      const { project, files } = loadProject(folder);
      const failures: string[] = [];
      for (const file of files) {
        const text = project.getText(file)!;
        const env = projectFixEnvironment(project, file);
        for (const finding of env.findings ?? []) {
          for (const fix of fixesForFinding(text, project.parse(file), finding, env)) {
            total++;
            const where = `${folder}/${basename(file)}:${finding.range.start.line} ${finding.ruleId} "${fix.title}"`;
            const { output, problems } = applyChecked(text, fix);
            for (const p of problems) failures.push(`${where}: ${p}`);
            project.setFile(file, output);
            // Reads rewritten in other files apply there just as cleanly.
            const others = new Map<string, string>();
            for (const other of fix.otherFiles ?? []) {
              const otherText = project.getText(other.filePath)!;
              others.set(other.filePath, otherText);
              const applied = applyChecked(otherText, { ...other, title: fix.title });
              for (const p of applied.problems) failures.push(`${where} in ${basename(other.filePath)}: ${p}`);
              project.setFile(other.filePath, applied.output);
            }
            const sameRule = (f: { ruleId: string }) => f.ruleId === finding.ruleId;
            const before = (env.findings ?? []).filter(sameRule).length;
            const after = project.lint(file).filter(sameRule).length;
            // In place the finding goes; a sharded copy leaves the original (and its finding) and adds none.
            if (isCopyFix(fix) ? after !== before : after >= before) failures.push(`${where}: ${after} ${finding.ruleId} finding(s) after, ${before} before`);
            project.setFile(file, text);
            for (const [path, original] of others) project.setFile(path, original);
          }
        }
      }
      assert.deepEqual(failures, []);
    });
  }
  test('the corpus exercises fixes', () => {
    assert.ok(total > 0, 'some finding in the corpus has a fix');
  });
});

describe('shard column and time bucket on every corpus table', () => {
  for (const folder of FOLDERS) {
    test(folder, () => {
      const failures: string[] = [];
      let tables = 0;
      for (const file of corpusFiles(folder)) {
        const text = readText(file);
        const parse = parseCql(text);
        for (const table of parse.statements) {
          if (table.kind !== 'CreateTable' || !table.primaryKey || table.like) continue;
          tables++;
          const where = `${folder}/${basename(file)}:${new LineIndex(text).location(table.range.start).line}`;
          const fixes = [...addShardColumnFixes(text, parse, table, { shardCount: 16 }), ...addTimeBucketFixes(text, table)];
          if (!fixes.length) failures.push(`${where}: no fix offered`);
          for (const fix of fixes) {
            const { output, problems } = applyChecked(text, fix);
            for (const p of problems) failures.push(`${where} "${fix.title}": ${p}`);
            const after = parseCql(output);
            const rebuilt = after.statements.find(
              (s): s is CreateTableStatement => s.kind === 'CreateTable' && s.name.name.name === table.name.name.name && s.range.start >= table.range.start,
            );
            const pk = rebuilt?.primaryKey;
            if (!rebuilt || !pk) {
              failures.push(`${where} "${fix.title}": the table lost its primary key`);
              continue;
            }
            const added = rebuilt.columns.filter((c) => !table.columns.some((o) => o.name.name === c.name.name));
            const expectedKey = [...table.primaryKey.partitionKey.map((k) => k.name), ...added.map((c) => c.name.name)];
            if (added.length !== 1 || pk.partitionKey.map((k) => k.name).join() !== expectedKey.join()) {
              failures.push(`${where} "${fix.title}": partition key is (${pk.partitionKey.map((k) => k.name).join(', ')})`);
            }
            if (pk.clustering.map((k) => k.name).join() !== table.primaryKey.clustering.map((k) => k.name).join()) {
              failures.push(`${where} "${fix.title}": clustering columns changed`);
            }
            if (fix.title.includes('shard column')) {
              const spec = shardAnnotationAbove(after.comments, output, rebuilt.range.start)?.result;
              if (!spec?.ok) failures.push(`${where} "${fix.title}": annotation ${spec ? spec.error.message : 'missing'}`);
              else {
                const errors = validateShardSpec(spec.spec, rebuilt).filter((p) => p.severity === 'error');
                for (const e of errors) failures.push(`${where} "${fix.title}": ${e.message}`);
              }
            }
          }
        }
      }
      assert.ok(tables > 0 || folder === 'dialects', `${folder} has tables`);
      assert.deepEqual(failures, []);
    });
  }
});
