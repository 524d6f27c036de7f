// SchemaModel.viewsOf: the one answer to "which materialized views read this table", which the
// views-per-table guardrail counts, over-partitioned-read names when it offers no fix, and the key-change
// fixes carry along. Listed once per model: the answer must follow the workspace as files change.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Project } from '../../server/core/engine/project';

const ROOT = '/virtual/views-of';
const table =
  'CREATE TABLE ks.readings (sensor text, day date, ts timestamp, v double, PRIMARY KEY ((sensor, day), ts));\n';
const view = (name: string, base: string): string =>
  `CREATE MATERIALIZED VIEW ${name} AS SELECT * FROM ${base} WHERE sensor IS NOT NULL AND day IS NOT NULL AND ts IS NOT NULL AND v IS NOT NULL PRIMARY KEY ((sensor, day), v, ts);\n`;

function viewNames(project: Project, keyspace: string, name: string): string[] {
  const model = project.schema();
  const base = model.candidates(keyspace, name).find((t) => t.kind === 'table');
  assert.ok(base, `${keyspace}.${name} is defined`);
  return model.viewsOf(base).map((v) => `${v.qualifiedName} (${v.filePath.slice(ROOT.length + 1)})`);
}

test('the views of a table, from every file, and not those of a same-named table elsewhere', () => {
  const project = new Project({ config: {} });
  project.setFile(`${ROOT}/tables.cql`, table + table.replace('ks.', 'other.'));
  project.setFile(`${ROOT}/a.cql`, view('ks.by_value', 'ks.readings'));
  project.setFile(`${ROOT}/b.cql`, view('ks.by_value_too', 'ks.readings') + view('other.by_value', 'other.readings'));
  assert.deepEqual(viewNames(project, 'ks', 'readings'), ['ks.by_value (a.cql)', 'ks.by_value_too (b.cql)']);
  assert.deepEqual(viewNames(project, 'other', 'readings'), ['other.by_value (b.cql)']);

  // A view removed, one added: the next model's answer follows, and forgetting the lookups changes nothing.
  project.setFile(`${ROOT}/a.cql`, '');
  project.setFile(`${ROOT}/c.cql`, view('ks.by_value_three', 'readings').replace('CREATE', 'USE ks;\nCREATE'));
  assert.deepEqual(viewNames(project, 'ks', 'readings'), ['ks.by_value_too (b.cql)', 'ks.by_value_three (c.cql)']);
  project.forgetLookups();
  assert.deepEqual(viewNames(project, 'ks', 'readings'), ['ks.by_value_too (b.cql)', 'ks.by_value_three (c.cql)']);
});
