// Lexical rules: literals, names, comments, bind markers, and tokenize().
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { parseCql, tokenize } from '../../grammar';
import type * as A from '../../grammar/ast';
import { LineIndex } from '../../grammar/line-index';

function valueOf(expr: string): A.Expression {
  const r = parseCql(`INSERT INTO t (a) VALUES (${expr});`);
  assert.deepEqual(r.errors, [], expr);
  const s = r.statements[0];
  assert.equal(s.kind, 'Insert');
  return (s as A.InsertStatement).values[0];
}

describe('literals', () => {
  const cases: [string, A.LiteralKind, string][] = [
    ["'it''s'", 'string', "it's"],
    ['$$ a $b$ $$', 'string', ' a $b$ '],
    ['42', 'integer', '42'],
    ['-42', 'integer', '-42'],
    ['1.5e-3', 'float', '1.5e-3'],
    ['3.', 'float', '3.'],
    ['NaN', 'nan', 'NaN'],
    ['-Infinity', 'infinity', '-Infinity'],
    ['true', 'boolean', 'true'],
    ['FALSE', 'boolean', 'FALSE'],
    ['null', 'null', 'null'],
    ['0xCAFEbabe', 'hex', '0xCAFEbabe'],
    ['123e4567-e89b-12d3-a456-426614174000', 'uuid', '123e4567-e89b-12d3-a456-426614174000'],
    ['1h30m', 'duration', '1h30m'],
    ['12µs', 'duration', '12µs'],
    ['1mo2w', 'duration', '1mo2w'],
    ['P1Y2M3D', 'duration', 'P1Y2M3D'],
    ['PT5S', 'duration', 'PT5S'],
    ['P2W', 'duration', 'P2W'],
    ['P0001-02-03T04:05:06', 'duration', 'P0001-02-03T04:05:06'],
  ];
  for (const [text, kind, value] of cases) {
    test(text, () => {
      const v = valueOf(text);
      assert.equal(v.kind, 'Literal');
      assert.equal((v as A.Literal).literalKind, kind);
      assert.equal((v as A.Literal).value, value);
      assert.equal((v as A.Literal).text, text);
    });
  }
  test('bind markers', () => {
    assert.deepEqual(valueOf('?'), { kind: 'BindMarker', name: undefined, range: valueOf('?').range });
    const named = valueOf(':name');
    assert.ok(named.kind === 'BindMarker' && named.name?.name === 'name');
  });
  test('collections', () => {
    assert.equal(valueOf('[1, 2]').kind, 'ListLiteral');
    assert.equal(valueOf('{1, 2}').kind, 'SetLiteral');
    assert.equal(valueOf('{}').kind, 'SetLiteral');
    assert.equal(valueOf("{'a': 1}").kind, 'MapLiteral');
    assert.equal(valueOf('(1, 2)').kind, 'TupleExpression');
    assert.equal(valueOf('- x').kind, 'UnaryExpression');
  });
  test('a range is not a float: l[1..2]', () => {
    const r = parseCql('SELECT l[1..2] FROM t');
    assert.deepEqual(r.errors, []);
    const sel = (r.statements[0] as A.SelectStatement).selectors[0].expression;
    assert.ok(sel.kind === 'SliceAccess' && sel.from?.kind === 'Literal' && sel.to?.kind === 'Literal');
  });
});

describe('names', () => {
  test('unquoted names fold to lower case, quoted keep case with "" unescaped', () => {
    const s = parseCql('SELECT MyCol, "MyCol", "a""b" FROM "Ks".Tbl').statements[0] as A.SelectStatement;
    const names = s.selectors.map((x) => (x.expression.kind === 'ColumnRef' ? x.expression.name : undefined));
    assert.deepEqual(
      names.map((n) => [n?.name, n?.text, n?.quoted]),
      [
        ['mycol', 'MyCol', false],
        ['MyCol', '"MyCol"', true],
        ['a"b', '"a""b"', true],
      ],
    );
    assert.deepEqual([s.from.keyspace?.name, s.from.name.name], ['Ks', 'tbl']);
  });
  test('keywords are case-insensitive', () => {
    assert.deepEqual(parseCql('select * from t where a = 1 allow filtering').errors, []);
  });
});

describe('comments', () => {
  test('--, // and /* */ comments are kept in order, with values', () => {
    const text = '-- one\nSELECT * /* two\n lines */ FROM t; // three\n';
    const r = parseCql(text);
    assert.deepEqual(r.errors, []);
    assert.deepEqual(
      r.comments.map((c) => [c.style, c.value]),
      [
        ['line', 'one'],
        ['block', 'two\n lines'],
        ['line', 'three'],
      ],
    );
    const lines = new LineIndex(text);
    assert.deepEqual(lines.location(r.comments[1].range.start), { offset: 16, line: 2, column: 10 });
    assert.deepEqual(lines.location(r.comments[1].range.end), { offset: 32, line: 3, column: 10 });
  });
  test('unterminated comment, string, quoted name, $$', () => {
    assert.match(parseCql('SELECT * FROM t; /* open').errors[0].message, /unterminated comment/);
    assert.equal(parseCql("SELECT 'open FROM t").errors[0].message, 'unterminated string literal');
    assert.equal(parseCql('SELECT $$ open FROM t').errors[0].message, 'unterminated string literal');
    assert.equal(parseCql('SELECT "open FROM t').errors[0].message, 'unterminated quoted name');
  });
});

describe('tokenize', () => {
  test('every token with category, offsets and positions, comments included', () => {
    const text = 'SELECT key, "Q" FROM t -- c\nWHERE a = \'x\' AND b = 1.5 AND c = ?;';
    const tokens = tokenize(text);
    // Tokens cover the text exactly, apart from whitespace.
    for (const t of tokens) assert.equal(text.slice(t.range.start, t.range.end), t.image);
    assert.equal(
      tokens
        .map((t) => t.image)
        .join('')
        .replace(/\s+/g, ''),
      text.replace(/\s+/g, ''),
    );
    const byImage = (img: string) => tokens.find((t) => t.image === img)!;
    assert.deepEqual([byImage('SELECT').category, byImage('SELECT').isReserved], ['keyword', true]);
    assert.deepEqual(
      [byImage('key').category, byImage('key').isKeyword, byImage('key').isReserved],
      ['keyword', true, false],
    );
    assert.equal(byImage('"Q"').category, 'quotedIdentifier');
    assert.equal(byImage('t').category, 'identifier');
    assert.equal(byImage('-- c').category, 'comment');
    assert.deepEqual([byImage("'x'").category, byImage("'x'").literalKind], ['string', 'string']);
    assert.deepEqual([byImage('1.5').category, byImage('1.5').literalKind], ['number', 'float']);
    assert.equal(byImage('?').category, 'bindMarker');
    assert.equal(byImage('=').category, 'operator');
    assert.equal(byImage(';').category, 'punctuation');
    const where = byImage('WHERE');
    assert.deepEqual(new LineIndex(text).locate(where.range), {
      start: { offset: 28, line: 2, column: 1 },
      end: { offset: 33, line: 2, column: 6 },
    });
  });
  test('unterminated tokens are flagged; unknown characters are tokens', () => {
    const tokens = tokenize("SELECT \\ 'abc");
    assert.equal(tokens[1].category, 'unknown');
    assert.equal(tokens[2].unterminated, true);
  });
});
