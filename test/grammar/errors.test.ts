// Syntax errors: messages in the user's words, at the offending token, and recovery around them.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { parseCql } from '../../grammar';
import { LineIndex } from '../../grammar/line-index';

function firstError(text: string): { message: string; at: string; line: number; column: number } {
  const r = parseCql(text);
  assert.ok(r.errors.length > 0, `expected an error for ${text}`);
  const e = r.errors[0];
  const { line, column } = new LineIndex(text).location(e.range.start);
  return { message: e.message, at: text.slice(e.range.start, e.range.end), line, column };
}

describe('messages', () => {
  test("expected ')' or ',' after column definition", () => {
    const e = firstError('CREATE TABLE plays (\n  id text PRIMARY KEY,\n  scores list<int>;');
    assert.equal(e.message, "expected ')' or ',' after column definition, found ';'");
    assert.deepEqual([e.at, e.line, e.column], [';', 3, 19]);
  });
  test('expected a column type', () => {
    const e = firstError('CREATE TABLE t (a (int) PRIMARY KEY);');
    assert.match(e.message, /^expected a column type.*found '\('$/);
    assert.equal(e.at, '(');
  });
  test('a SELECT needs a selector', () => {
    const e = firstError('SELECT FROM t;');
    assert.equal(e.message, "unexpected 'FROM': a SELECT needs at least one selector (a column, an expression or '*')");
    assert.equal(e.at, 'FROM');
  });
  test('end of input', () => {
    const r = parseCql('CREATE TABLE t (a int');
    assert.equal(r.errors[0].message, "expected ')' or ',' after column definition, found end of input");
    assert.equal(r.errors[0].range.start, 21);
    assert.equal(r.errors[0].range.end, 21);
  });
  test('names the keywords that were possible', () => {
    assert.equal(
      firstError('SELECT * FROM t WHERE a = 1 LIMT 5;').message,
      "expected ';', 'ALLOW', 'AND', 'BYPASS', 'GROUP', 'LIMIT', 'ORDER', 'PER' or 'USING', found 'LIMT'",
    );
    assert.equal(
      firstError('CREATE TABLE t (a int PRIMARY KEY) WITH;').message,
      "expected 'CLUSTERING', 'COMPACT' or an identifier in table options, found ';'",
    );
    assert.equal(firstError('CREATE KEYSPACE ks;').message, "expected 'WITH' in CREATE KEYSPACE, found ';'");
  });
  test('not a statement', () => {
    assert.equal(
      firstError('FOO bar;').message,
      "expected a CQL statement (such as CREATE, SELECT, INSERT, UPDATE or DELETE), found 'FOO'",
    );
  });
  test('lexical errors', () => {
    assert.equal(firstError("INSERT INTO t (a) VALUES ('x);").message, 'unterminated string literal');
    const e = firstError('SELECT a # b FROM t;');
    assert.deepEqual([e.message, e.at], ["unexpected character '#'", '#']);
  });
});

describe('recovery', () => {
  test('one broken statement does not hide the others', () => {
    const text =
      'CREATE TABLE a (x int PRIMARY KEY);\nCREATE TABLE b (x int PRIMARY KEY, y);\nCREATE TABLE c (x int PRIMARY KEY);';
    const r = parseCql(text);
    const line = (offset: number): number => new LineIndex(text).location(offset).line;
    assert.deepEqual(
      r.statements.map((s) => s.kind),
      ['CreateTable', 'Invalid', 'CreateTable'],
    );
    assert.equal(r.errors.length, 1);
    assert.equal(line(r.errors[0].range.start), 2);
    const invalid = r.statements[1];
    assert.deepEqual([line(invalid.range.start), line(invalid.range.end), invalid.terminated], [2, 2, true]);
  });
  test("a missing ';' is reported at the next statement, which still parses", () => {
    const text = 'SELECT * FROM a\nSELECT * FROM b;\nUPDATE t SET x = 1 WHERE k = 1 DELETE FROM t WHERE k = 2';
    const r = parseCql(text);
    assert.deepEqual(
      r.statements.map((s) => s.kind),
      ['Select', 'Select', 'Update', 'Delete'],
    );
    assert.deepEqual(
      r.errors.map((e) => new LineIndex(text).location(e.range.start)).map((l) => [l.line, l.column]),
      [
        [2, 1],
        [3, 32],
      ],
    );
    assert.match(r.errors[0].message, /^missing ';' before 'SELECT'/);
    assert.equal(r.statements[0].terminated, false);
  });
  test('garbage between statements is skipped to the next statement keyword at a line start', () => {
    const r = parseCql('USE ks; <1> stray words\nCREATE TABLE t (a int PRIMARY KEY);');
    assert.deepEqual(
      r.statements.map((s) => s.kind),
      ['Use', 'Invalid', 'CreateTable'],
    );
  });
  test("a batch closed by 'APPLY;' without BATCH gets one error, at the APPLY", () => {
    const text =
      'BEGIN BATCH\n  INSERT INTO t (a) VALUES (1);\n  UPDATE t SET b = 2 WHERE a = 1;\nAPPLY;\nSELECT * FROM t;\n';
    const r = parseCql(text);
    const lines = new LineIndex(text);
    assert.deepEqual(
      r.errors.map((e) => [e.message, lines.location(e.range.start).line, lines.location(e.range.start).column]),
      [["expected 'BATCH' in BATCH, found ';'", 4, 6]],
    );
    // The whole batch is one invalid statement; the statement after it still parses.
    assert.deepEqual(
      r.statements.map((s) => [s.kind, lines.location(s.range.start).line, lines.location(s.range.end).line]),
      [
        ['Invalid', 1, 4],
        ['Select', 5, 5],
      ],
    );
  });
  test('a batch with no APPLY at all ends at the next BEGIN on a line start', () => {
    const text =
      'BEGIN BATCH\n  INSERT INTO t (a) VALUES (1);\nBEGIN BATCH INSERT INTO t (a) VALUES (2); APPLY BATCH;\n';
    const r = parseCql(text);
    assert.deepEqual(
      r.statements.map((s) => s.kind),
      ['Invalid', 'Batch'],
    );
    assert.equal(r.errors.length, 1);
    assert.equal(new LineIndex(text).location(r.errors[0].range.start).line, 2);
  });
  test('a missing trailing ; at the end of the file is fine', () => {
    const r = parseCql('SELECT * FROM t');
    assert.deepEqual(r.errors, []);
    assert.equal(r.statements[0].terminated, false);
  });
});
