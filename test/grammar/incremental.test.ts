// parseCql(text, { previous }): unchanged statements are reused, with their ranges shifted.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { parseCql } from '../../grammar/index';

const statements = Array.from({ length: 200 }, (_, i) => `CREATE TABLE t${i} (\n  id int PRIMARY KEY,\n  v text\n);`);
const original = statements.join('\n');

describe('incremental parsing', () => {
  test('unchanged statements before the edit are the same objects', () => {
    const first = parseCql(original);
    const edited = original.replace('CREATE TABLE t150 (\n  id int', 'CREATE TABLE t150 (\n  id bigint');
    const second = parseCql(edited, { previous: first });
    assert.deepEqual(second, parseCql(edited));
    for (let i = 0; i < 150; i++) assert.equal(second.statements[i], first.statements[i]);
    assert.notEqual(second.statements[150], first.statements[150]);
  });

  test('statements after an edit that changes lengths and lines get shifted ranges', () => {
    const first = parseCql(original);
    const edited = original.replace('CREATE TABLE t10 (', '-- new comment\nCREATE TABLE   t10 (');
    const second = parseCql(edited, { previous: first });
    const fresh = parseCql(edited);
    assert.deepEqual(second, fresh);
    const last = second.statements[199];
    assert.equal(edited.slice(last.range.start.offset, last.range.end.offset), statements[199]);
  });

  test('a column change on the first line of a statement shifts its columns', () => {
    const text = 'USE ks; SELECT a FROM t;\nSELECT b FROM u;';
    const first = parseCql(text);
    const edited = 'USE keyspace1; SELECT a FROM t;\nSELECT b FROM u;';
    const second = parseCql(edited, { previous: first });
    assert.deepEqual(second, parseCql(edited));
    assert.equal(second.statements[1].range.start.column, 16);
    assert.equal(second.statements[2].range.start.line, 2);
  });

  test('errors of reused statements are kept and shifted', () => {
    const text = 'SELECT FROM t;\nSELECT * FROM u;';
    const first = parseCql(text);
    const edited = '\n\n' + text;
    const second = parseCql(edited, { previous: first });
    assert.deepEqual(second, parseCql(edited));
    assert.equal(second.errors[0].range.start.line, 3);
  });

  test('a previous result serves once; passing it again falls back to a full parse', () => {
    const first = parseCql(original);
    const edited = '\n' + original;
    assert.deepEqual(parseCql(edited, { previous: first }), parseCql(edited));
    const again = 'USE ks;\n' + original;
    assert.deepEqual(parseCql(again, { previous: first }), parseCql(again));
  });

  test('repeated identical statements are matched one to one', () => {
    const text = 'CAPTURE OFF;\nCAPTURE OFF;\nCAPTURE OFF;';
    const first = parseCql(text);
    const edited = 'CAPTURE OFF;\n' + text;
    assert.deepEqual(parseCql(edited, { previous: first }), parseCql(edited));
  });
});
