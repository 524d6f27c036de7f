// Snippets (snippets/cql.json) expand to CQL that the cqlint parser accepts, and the sharded-table
// snippet carries an @shard annotation cqlint understands. Also checks language-configuration.json.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseCql } from '../../grammar';
import { parseShardAnnotation } from '../../server/core/token/shard';

const root = join(__dirname, '..', '..');
const snippets: Record<string, { prefix: string | string[]; body: string[]; description: string }> = JSON.parse(
  readFileSync(join(root, 'snippets', 'cql.json'), 'utf8'),
);

/** Expands a snippet body the way VS Code inserts it with every placeholder left at its default. */
export function expandSnippet(body: string[]): string {
  let text = body.join('\n');
  for (let i = 0; i < 5; i++) {
    text = text
      .replace(/\$\{\d+\|([^,|}]*)[^}]*\|\}/g, '$1') // choice: first option
      .replace(/\$\{\d+:([^${}]*)\}/g, '$1') // placeholder with a default (innermost first)
      .replace(/\$\{\d+\}|\$\d+/g, ''); // tab stops
  }
  return text;
}

test('there is a snippet for every statement the docs promise', () => {
  const names = Object.keys(snippets).join(' | ');
  for (const expected of [
    /bucketed/i,
    /sharded/i,
    /keyspace/i,
    /insert/i,
    /select/i,
    /update/i,
    /batch/i,
    /type/i,
    /sai/i,
    /materialized view/i,
  ]) {
    assert.match(names, expected);
  }
  for (const [name, snippet] of Object.entries(snippets)) {
    assert.ok(snippet.description.length > 10, `${name}: description`);
    assert.ok(
      [snippet.prefix].flat().every((p) => /^[a-z][a-z-]*$/.test(p)),
      `${name}: prefix`,
    );
  }
});

for (const [name, snippet] of Object.entries(snippets)) {
  test(`snippet "${name}" expands to CQL without syntax errors`, () => {
    const body = snippet.body.map((line) =>
      line.replace('$0', name === 'Batch' ? 'INSERT INTO ks.t (a) VALUES (1);' : ''),
    );
    const text = expandSnippet(body);
    assert.doesNotMatch(text, /\$\{|\$\d/, text);
    const result = parseCql(text);
    assert.deepEqual(
      result.errors.map((e) => e.message),
      [],
      text,
    );
    assert.ok(result.statements.length >= 1, text);
  });
}

test('the sharded-table snippet annotates the table with a well-formed @shard comment', () => {
  const text = expandSnippet(snippets['Create table with a write-sharded partition key']!.body);
  const { comments } = parseCql(text);
  const parsed = comments.map((c) => parseShardAnnotation(c)).find(Boolean);
  assert.ok(parsed?.ok, text);
  const shard = parsed.spec;
  assert.equal(shard.shardColumn, 'shard');
  assert.equal(shard.count, 16);
  assert.equal(shard.method, 'murmur3');
  assert.deepEqual(shard.sources, ['title']);
  assert.match(text, /PRIMARY KEY \(\(publish_date, shard\), isbn\)/);
});

test('language configuration: comments, brackets, quotes and $$ auto-close, and the word pattern', () => {
  const config = JSON.parse(readFileSync(join(root, 'language-configuration.json'), 'utf8'));
  assert.equal(config.comments.lineComment, '--');
  assert.deepEqual(config.comments.blockComment, ['/*', '*/']);
  const pairs = config.autoClosingPairs.map((p: { open: string; close: string }) => p.open + p.close);
  for (const pair of ['()', '[]', '{}', "''", '""', '$$$$']) assert.ok(pairs.includes(pair), pair);
  const word = new RegExp(config.wordPattern, 'g');
  const words = 'SELECT "Weird ""Name""", user_id2 FROM ks.t'.match(word);
  assert.deepEqual(words, ['SELECT', '"Weird ""Name"""', 'user_id2', 'FROM', 'ks', 't']);
  const increase = new RegExp(config.indentationRules.increaseIndentPattern);
  const decrease = new RegExp(config.indentationRules.decreaseIndentPattern);
  assert.ok(increase.test('CREATE TABLE t ('));
  assert.ok(increase.test('BEGIN UNLOGGED BATCH'));
  assert.ok(decrease.test(');'));
  assert.ok(decrease.test('APPLY BATCH;'));
  assert.ok(!increase.test('SELECT * FROM t;'));
});
