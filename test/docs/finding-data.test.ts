// Each rule's Finding.data is declared once, in server/core/findings/findings-data.ts: the docs pages'
// Data lines are generated from it (scripts/generate-docs.ts; test/docs/generated.test.ts keeps the pages
// equal to the generator), and neither the pages nor the rule files restate it by hand.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { docsHeader, findingDataShapes } from '../../scripts/generate-docs';
import { allRules, ruleById } from '../../server/core/rules';

const root = join(__dirname, '..', '..');

test("the Data line is read from findings-data.ts's types: inherited fields, optional ones, literal unions spelled out", () => {
  const shapes = findingDataShapes();
  // ColumnProblem gives table and column; the reason is a union of strings.
  assert.equal(
    shapes.get('static-without-clustering'),
    "{ reason: 'in-primary-key' | 'no-clustering', table, column }",
  );
  // An optional field the old hand-written line had left out.
  assert.equal(shapes.get('large-in-partition-key'), '{ table, column, values, partitions, max, setting? }');
  assert.equal(shapes.get('syntax-error'), undefined, 'syntax-error writes no data');
  assert.match(
    docsHeader(ruleById('large-in-partition-key')!.meta),
    /\n\*\*Data\*\* \(.*\): `\{ table, column, values, partitions, max, setting\? \}`\n/,
  );
  assert.doesNotMatch(docsHeader(ruleById('syntax-error')!.meta), /\*\*Data\*\*/);
  for (const { meta } of allRules) {
    if (meta.id !== 'syntax-error') assert.ok(shapes.has(meta.id), `${meta.id} declares its data in FindingDataByRule`);
  }
});

test('no docs page or rule file restates the data by hand', () => {
  for (const name of readdirSync(join(root, 'docs/rules'))) {
    assert.doesNotMatch(readFileSync(join(root, 'docs/rules', name), 'utf8'), /^\*\*Data:\*\*/m, `docs/rules/${name}`);
  }
  for (const name of readdirSync(join(root, 'server/core/rules')).filter((n) => n.endsWith('.ts'))) {
    assert.doesNotMatch(
      readFileSync(join(root, 'server/core/rules', name), 'utf8'),
      /^\/\/ Data: \{/m,
      `server/core/rules/${name}`,
    );
  }
});
