import { test } from 'node:test';
import assert from 'node:assert/strict';
import { lintMain, ofRule } from './helpers';

test('invalid-clustering-order checks every table of a file, not only up to the first bad one', () => {
  const code = [
    'CREATE TABLE ks.a (k int, b int, c int, PRIMARY KEY (k, b, c)) WITH CLUSTERING ORDER BY (c DESC, b ASC);',
    'CREATE TABLE ks.b (k int, b int, c int, PRIMARY KEY (k, b, c)) WITH CLUSTERING ORDER BY (c DESC, b ASC);',
  ].join('\n');
  const findings = ofRule(lintMain(code), 'invalid-clustering-order');
  assert.equal(findings.length, 2);
  assert.deepEqual(
    findings.map((f) => f.range.start.line),
    [1, 2],
  );
});
