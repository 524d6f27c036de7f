// expectedTokensAt: grammar-driven completion context.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { expectedTokensAt } from '../../grammar';

function at(textWithCursor: string) {
  const offset = textWithCursor.indexOf('|');
  return expectedTokensAt(textWithCursor.replace('|', ''), offset);
}

describe('expectedTokensAt', () => {
  test('statement start', () => {
    const e = at('USE ks;\n|');
    assert.ok(e.atStatementStart);
    for (const k of ['SELECT', 'CREATE', 'INSERT', 'UPDATE', 'DELETE', 'BEGIN', 'GRANT', 'DESCRIBE'])
      assert.ok(e.keywords.includes(k), k);
    assert.ok(e.shellCommands.includes('SOURCE'));
  });
  test('after CREATE', () => {
    const e = at('CREATE |');
    for (const k of ['TABLE', 'KEYSPACE', 'TYPE', 'INDEX', 'CUSTOM', 'MATERIALIZED', 'FUNCTION', 'OR', 'ROLE'])
      assert.ok(e.keywords.includes(k), k);
    assert.ok(!e.keywords.includes('SELECT'));
    assert.equal(e.atStatementStart, false);
  });
  test('partial word is the prefix', () => {
    const e = at('SELECT * FR|');
    assert.equal(e.prefix, 'FR');
    assert.equal(e.prefixStart, 9);
    assert.ok(e.keywords.includes('FROM'));
  });
  test('table name after FROM', () => {
    const e = at('SELECT * FROM |');
    assert.ok(e.expectsIdentifier);
    assert.ok(e.identifierKinds.includes('table'));
    assert.ok(e.identifierKinds.includes('keyspace'));
  });
  test('after the table: clauses, not names', () => {
    const e = at('SELECT * FROM t |');
    for (const k of ['WHERE', 'LIMIT', 'ORDER', 'GROUP', 'ALLOW', 'PER']) assert.ok(e.keywords.includes(k), k);
    assert.ok(e.punctuation.includes(';'));
  });
  test('column type in CREATE TABLE', () => {
    const e = at('CREATE TABLE t (id |');
    assert.ok(e.expectsType);
    assert.ok(e.keywords.includes('FROZEN') || e.keywords.includes('MAP'));
  });
  test('column names in WHERE', () => {
    const e = at('SELECT * FROM t WHERE |');
    assert.ok(e.expectsIdentifier);
    assert.ok(e.identifierKinds.includes('column'));
    assert.ok(e.keywords.includes('TOKEN'));
  });
  test('operators after a column in WHERE', () => {
    const e = at('SELECT * FROM t WHERE a |');
    for (const k of ['IN', 'CONTAINS', 'LIKE', 'IS', 'NOT', 'BETWEEN']) assert.ok(e.keywords.includes(k), k);
    for (const p of ['=', '<', '>=', '!=']) assert.ok(e.punctuation.includes(p), p);
  });
  test('values after =', () => {
    assert.ok(at('UPDATE t SET a = |').expectsValue);
  });
  test('inside a comment or a string: nothing', () => {
    assert.ok(at('SELECT * FROM t -- comm|').inCommentOrString);
    assert.ok(at("SELECT * FROM t WHERE a = 'ab|").inCommentOrString);
  });
  test('statement containing the cursor, after earlier statements and an unterminated one', () => {
    const e = at('CREATE TABLE a (x int PRIMARY KEY);\nSELECT * FROM a\nSELECT * FROM |');
    assert.ok(e.identifierKinds.includes('table'));
  });
  test("name paths: the rules that would read a name, and which of its parent's calls each rule is", () => {
    const operand = (marked: string) => at(marked).namePaths.find((p) => p.rules[p.rules.length - 1] === 'operand');
    const left = operand('SELECT * FROM t WHERE |');
    const right = operand('SELECT * FROM t WHERE a = |');
    assert.deepEqual(left?.rules.slice(-4), ['whereClause', 'relation', 'expression', 'operand']);
    assert.deepEqual(right?.rules.slice(-4), ['whereClause', 'relation', 'expression', 'operand']);
    // The relation's first expression (the column) and the one after the operator (the value).
    assert.equal(left!.occurrences[left!.rules.indexOf('expression')], 0);
    assert.notEqual(right!.occurrences[right!.rules.indexOf('expression')], 0);
    assert.deepEqual(
      at('UPDATE t SET |').namePaths.map((p) => p.rules.slice(-2)),
      [['assignment', 'columnName']],
    );
  });
});
