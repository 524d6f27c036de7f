import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { lintMain } from './helpers';

const table = 'CREATE TABLE ks.t (id uuid, c int, v int, PRIMARY KEY (id, c));\n';
const scan = 'SELECT * FROM ks.t WHERE v > 1 ALLOW FILTERING;';

function rules(code: string): string[] {
  return lintMain(code).map((f) => f.ruleId);
}

describe('suppression comments', () => {
  test('baseline: the query is reported', () => {
    assert.deepEqual(rules(table + scan), ['allow-filtering']);
  });
  test('disable-next-line with a rule id, in each comment style', () => {
    assert.deepEqual(rules(`${table}-- cqlint-disable-next-line allow-filtering\n${scan}`), []);
    assert.deepEqual(rules(`${table}// cqlint-disable-next-line allow-filtering\n${scan}`), []);
    assert.deepEqual(rules(`${table}/* cqlint-disable-next-line allow-filtering */\n${scan}`), []);
  });
  test('disable-next-line names only some rules', () => {
    assert.deepEqual(rules(`${table}-- cqlint-disable-next-line hot-partition, unknown-column\n${scan}`), [
      'allow-filtering',
    ]);
    assert.deepEqual(
      rules(`${table}-- cqlint-disable-next-line hot-partition, allow-filtering -- reviewed\n${scan}`),
      [],
    );
  });
  test('disable-next-line applies to the next line only', () => {
    assert.deepEqual(rules(`${table}-- cqlint-disable-next-line allow-filtering\n\n${scan}`), ['allow-filtering']);
  });
  test('disable-line', () => {
    assert.deepEqual(rules(`${table}${scan} -- cqlint-disable-line allow-filtering`), []);
  });
  test('disable ... enable region', () => {
    const code = `${table}-- cqlint-disable allow-filtering\n${scan}\n-- cqlint-enable allow-filtering\n${scan}`;
    const found = lintMain(code);
    assert.equal(found.length, 1);
    assert.equal(found[0]!.range.start.line, 5);
    const all = `${table}/* cqlint-disable */\n${scan}\n/* cqlint-enable */\n${scan}`;
    assert.equal(lintMain(all).length, 1);
  });
  test('file-wide disable at the top', () => {
    assert.deepEqual(rules(`-- cqlint-disable\n${table}${scan}\nSELEC broken;`), []);
    assert.deepEqual(rules(`-- cqlint-disable allow-filtering\n${table}${scan}\n${scan}`), []);
  });
  test('a plain comment mentioning cqlint does nothing', () => {
    assert.deepEqual(rules(`${table}-- cqlint-disabled is not a directive\n${scan}`), ['allow-filtering']);
  });
});
