// A term or a type parsed on its own with the statement grammar's rules (parseTerm, parseCqlType, parseCqlTypes).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { parseCql, parseCqlType, parseCqlTypes, parseTerm, type Expression, type SourceRange } from '../../grammar';
import { LineIndex } from '../../grammar/line-index';

const slice = (text: string, r: SourceRange) => text.slice(r.start, r.end);

/** Drops ranges, to compare shapes. */
function shape(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(shape);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([k]) => k !== 'range')
      .map(([k, v]) => [k, shape(v)]),
  );
}

describe('parseTerm', () => {
  test('gives the same tree as the term inside a statement', () => {
    for (const term of [
      "'it''s'",
      '-5',
      '[1, 2]',
      "{'a': 1, 'b': 2}",
      "{street: 'x', zip: 1}",
      "(1, 'a')",
      'now()',
      '?',
      ':name',
      '0xcafe',
      'P1Y2M',
      '-Infinity',
      '1 + 2 * 3',
      '(frozen<list<int>>) [1]',
    ]) {
      const insert = parseCql(`INSERT INTO t (k) VALUES (${term});`).statements[0];
      assert.ok(insert.kind === 'Insert');
      const { value, errors } = parseTerm(term);
      assert.deepEqual(errors, []);
      assert.deepEqual(shape(value), shape(insert.values[0]), term);
    }
  });
  test('ranges are exact offsets, lines and columns in the given text', () => {
    const text = "  [1,\n   'two']";
    const list = parseTerm(text).value as Expression & { kind: 'ListLiteral' };
    assert.equal(list.kind, 'ListLiteral');
    assert.equal(slice(text, list.range), "[1,\n   'two']");
    assert.deepEqual(list.elements[1].range, { start: 9, end: 14 });
    assert.deepEqual(new LineIndex(text).locate(list.elements[1].range), {
      start: { offset: 9, line: 2, column: 4 },
      end: { offset: 14, line: 2, column: 9 },
    });
  });
  test('the whole text must be one term', () => {
    const r = parseTerm('1 x');
    assert.equal(r.value, undefined);
    assert.deepEqual(
      r.errors.map((e) => [e.message, e.range.start]),
      [["unexpected 'x' after the value", 2]],
    );
    assert.match(parseTerm('').errors[0].message, /found end of input$/);
    assert.equal(parseTerm("'abc").errors[0].message, 'unterminated string literal');
    assert.match(parseTerm('1 -- note').errors[0].message, /^unexpected comment/);
    assert.match(parseTerm('[1, 2').errors[0].message, /in list literal, found end of input$/);
  });
});

describe('parseCqlType', () => {
  test('gives the same tree as the type of a column definition', () => {
    for (const type of [
      'int',
      'frozen<list<text>>',
      'map<text, frozen<set<int>>>',
      'tuple<int, text>',
      'vector<float, 3>',
      'ks.address',
      '"MyType"',
      "'org.example.Custom'",
    ]) {
      const table = parseCql(`CREATE TABLE t (k ${type} PRIMARY KEY);`).statements[0];
      assert.ok(table.kind === 'CreateTable');
      const { value, errors } = parseCqlType(type);
      assert.deepEqual(errors, []);
      assert.deepEqual(shape(value), shape(table.columns[0].type), type);
    }
  });
  test('ranges and errors', () => {
    const text = 'map<text, int>';
    const map = parseCqlType(text).value;
    assert.ok(map?.kind === 'CollectionType');
    assert.equal(slice(text, map.elementTypes[1].range), 'int');
    assert.deepEqual(
      parseCqlType('map<int>').errors.map((e) => [e.message, e.range.start]),
      [["expected ',' in collection type, found '>'", 7]],
    );
    assert.equal(parseCqlType('int x').errors[0].message, "unexpected 'x' after the type");
    assert.equal(parseCqlType('').errors[0].message, 'expected a column type, found end of input');
  });
  test('a comma-separated list of types', () => {
    const text = 'date, frozen<map<text, int>>,uuid';
    const { value } = parseCqlTypes(text);
    assert.deepEqual(
      value?.map((t) => slice(text, t.range)),
      ['date', 'frozen<map<text, int>>', 'uuid'],
    );
    assert.equal(parseCqlTypes('date,,int').errors[0].message, "expected a column type, found ','");
  });
});
