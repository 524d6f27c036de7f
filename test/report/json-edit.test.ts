// Saving a sample chosen in the report: only `samples[table]` of the .cqlint.json changes, as text.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { sampleSettingEdit } from '../../server/core/config/json-edit';
import { applyEdits } from '../../server/core/fixes/text';

const save = (text: string | undefined, table = 'ks.posts', file = 'samples/posts.csv'): string =>
  applyEdits(text ?? '', [sampleSettingEdit(text, table, file)]);

test('json edit: a new file, a new samples key, a new table, a replaced table; the rest stays as written', () => {
  assert.deepEqual(JSON.parse(save(undefined)), { samples: { 'ks.posts': 'samples/posts.csv' } });
  const config = '{\n  "target": "keyspaces",\n  "rules": { "allow-filtering": "error" }\n}\n';
  const added = save(config);
  assert.equal(
    added,
    '{\n  "target": "keyspaces",\n  "rules": { "allow-filtering": "error" },\n  "samples": { "ks.posts": "samples/posts.csv" }\n}\n',
  );
  const second = save(added, 'ks.users', 'u.csv');
  assert.deepEqual(JSON.parse(second).samples, { 'ks.posts': 'samples/posts.csv', 'ks.users': 'u.csv' });
  assert.ok(
    second.startsWith('{\n  "target": "keyspaces",\n  "rules": { "allow-filtering": "error" },'),
    'other keys untouched',
  );
  const replaced = save(second, 'ks.posts', 'other.csv');
  assert.deepEqual(JSON.parse(replaced).samples, { 'ks.posts': 'other.csv', 'ks.users': 'u.csv' });
  const multiline = '{\n  "samples": {\n    "a": "a.csv"\n  }\n}';
  assert.equal(save(multiline), '{\n  "samples": {\n    "a": "a.csv",\n    "ks.posts": "samples/posts.csv"\n  }\n}');
  assert.deepEqual(JSON.parse(save('{}')), { samples: { 'ks.posts': 'samples/posts.csv' } });
  assert.deepEqual(JSON.parse(save('{ "samples": 3 }')), { samples: { 'ks.posts': 'samples/posts.csv' } });
  assert.deepEqual(
    JSON.parse(save('{ "samples": { "ks.posts": { "file": "x.csv", "columns": ["a"] } }, "x": [1, {"y": null}] }')),
    { samples: { 'ks.posts': 'samples/posts.csv' }, x: [1, { y: null }] },
  );
  assert.throws(() => sampleSettingEdit('{ "target": ', 'ks.posts', 'a.csv'), SyntaxError);
  assert.throws(() => sampleSettingEdit('[1]', 'ks.posts', 'a.csv'), SyntaxError);
});

test('json edit: a value nested a million levels deep is scanned, not recursed into', () => {
  const deep = `{ "target": "cassandra", "x": ${'['.repeat(1_000_000)}${']'.repeat(1_000_000)} }`;
  const edited = save(deep);
  assert.ok(edited.endsWith(`${']'.repeat(1_000_000)}, "samples": { "ks.posts": "samples/posts.csv" } }`));
  assert.ok(edited.startsWith('{ "target": "cassandra", "x": [[['));
  // Unclosed at that depth: a SyntaxError naming where, not a stack overflow.
  assert.throws(
    () => sampleSettingEdit(`{ "x": ${'['.repeat(1_000_000)} }`, 'ks.posts', 'a.csv'),
    (error: Error) =>
      error instanceof SyntaxError && !(error instanceof RangeError) && /offset \d+/.test(error.message),
  );
});
