// Property test over the corpus of real CQL (test/fixtures/corpus): a shard column and a time bucket, added to
// every CREATE TABLE whatever its layout, apply cleanly: no new syntax error, every comment kept, nothing
// changed outside the edits, the key extended and the annotation valid. (refactoring.test.ts checks the
// fixes the findings get over whole workspaces.)
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { basename } from 'node:path';
import type { CreateTableStatement } from '../../grammar/ast';
import { parseCql } from '../../grammar';
import { Project } from '../../server/core/engine/project';
import { namedPlan } from '../../server/core/partition/planner';
import { keyChangeFix } from '../../server/core/fixes/refactor';
import { nativeName } from '../../server/core/schema/types';
import { validateShardSpec } from '../../server/core/token/shard';
import { shardAnnotationAbove } from '../../server/core/schema/shard';
import { corpusFiles, readText } from '../helpers/corpus';
import { applyChecked } from './helpers';
import { LineIndex } from '../../grammar/line-index';

const FOLDERS = ['cassandra-docs', 'killrvideo', 'cassandra-docs-broken', 'dialects'];

describe('shard column and time bucket on every corpus table', () => {
  for (const folder of FOLDERS) {
    test(folder, () => {
      const failures: string[] = [];
      let tables = 0;
      for (const file of corpusFiles(folder)) {
        const text = readText(file);
        const project = new Project({ config: {} });
        project.setFile(file, text);
        const parse = project.parse(file);
        for (const table of parse.statements) {
          if (table.kind !== 'CreateTable' || !table.primaryKey || table.like) continue;
          const info = project.tableFor(file, table.name, table.range.end);
          if (!info || info.kind !== 'table') continue;
          tables++;
          const where = `${folder}/${basename(file)}:${new LineIndex(text).location(table.range.start).line}`;
          const time = info.clustering.find((c) =>
            ['timestamp', 'timeuuid', 'date'].includes(nativeName(c.type) ?? ''),
          );
          const plans = [
            namedPlan(info, { shard: { method: 'random', sources: [], count: 16, offset: 1 } }),
            namedPlan(info, { bucket: { granularity: 'day', ...(time ? { source: time.name } : {}) } }),
          ];
          const context = {
            filePath: file,
            text,
            create: table,
            table: info,
            comments: parse.comments,
            statements: [],
            rewrite: { maxInList: 32, inForWrites: true },
          };
          const fixes = plans.map((plan) => keyChangeFix(context, plan)?.resolve()).filter((f) => f !== undefined);
          if (fixes.length !== 2) failures.push(`${where}: ${fixes.length} of 2 key changes apply`);
          for (const fix of fixes) {
            const { output, problems } = applyChecked(text, fix);
            for (const p of problems) failures.push(`${where} "${fix.title}": ${p}`);
            const after = parseCql(output);
            const rebuilt = after.statements.find(
              (s): s is CreateTableStatement =>
                s.kind === 'CreateTable' &&
                s.name.name.name === table.name.name.name &&
                s.range.start >= table.range.start,
            );
            const pk = rebuilt?.primaryKey;
            if (!rebuilt || !pk) {
              failures.push(`${where} "${fix.title}": the table lost its primary key`);
              continue;
            }
            const added = rebuilt.columns.filter((c) => !table.columns.some((o) => o.name.name === c.name.name));
            const expectedKey = [...table.primaryKey.partitionKey.map((k) => k.name), ...added.map((c) => c.name.name)];
            if (added.length !== 1 || pk.partitionKey.map((k) => k.name).join() !== expectedKey.join()) {
              failures.push(
                `${where} "${fix.title}": partition key is (${pk.partitionKey.map((k) => k.name).join(', ')})`,
              );
            }
            if (pk.clustering.map((k) => k.name).join() !== table.primaryKey.clustering.map((k) => k.name).join()) {
              failures.push(`${where} "${fix.title}": clustering columns changed`);
            }
            if (fix.title.includes('shard column')) {
              const spec = shardAnnotationAbove(after.comments, output, rebuilt.range.start)?.result;
              if (!spec?.ok)
                failures.push(`${where} "${fix.title}": annotation ${spec ? spec.error.message : 'missing'}`);
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
