// The partition report through the real server: a CodeLens above every CREATE TABLE / VIEW, and the
// cqlint/partitionReport request returning the page for the table named or under the cursor, following edits.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import type { CodeLens, InitializeResult } from 'vscode-languageserver-protocol';
import { capabilities, startServer, tempWorkspace } from '../../scripts/lsp-client';

const SCHEMA = [
  'CREATE TABLE ks.posts_by_day (publish_date date, title text, body text, PRIMARY KEY (publish_date, title));',
  '',
  'CREATE TABLE ks.users (id uuid PRIMARY KEY, name text);',
  'CREATE MATERIALIZED VIEW ks.users_by_name AS SELECT * FROM ks.users WHERE name IS NOT NULL AND id IS NOT NULL PRIMARY KEY (name, id);',
  'SELECT * FROM ks.posts_by_day WHERE publish_date = ?;',
].join('\n');

test('CodeLens above each table and view; the report request answers the page with the same figures', async (t) => {
  const ws = tempWorkspace({ 'schema.cql': SCHEMA, '.cqlint.json': JSON.stringify({ tables: { 'ks.posts_by_day': { writesPerSecondPerPartition: 10 } } }) });
  t.after(() => ws.cleanup());
  const client = await startServer();
  t.after(() => client.shutdown());
  const init = (await client.initialize(capabilities.pull, { workspaceFolders: [ws.dir], settings: { trace: { server: 'verbose' } } })) as InitializeResult;
  assert.ok(init.capabilities.codeLensProvider, 'codeLensProvider is advertised');
  // The workspace scan (logged at verbose trace) has read the .cqlint.json hints.
  await client.waitForLog(/cqlint: scan: /);
  const uri = ws.uri('schema.cql');
  await client.open(uri, SCHEMA);

  const lenses = (await client.request('textDocument/codeLens', { textDocument: { uri } })) as CodeLens[];
  assert.deepEqual(lenses.map((l) => [l.range.start.line, l.command?.title, l.command?.command, l.command?.arguments]), [
    [0, 'Partition report', 'cqlint.showPartitionReport', [uri, 'ks.posts_by_day']],
    [2, 'Partition report', 'cqlint.showPartitionReport', [uri, 'ks.users']],
    [3, 'Partition report', 'cqlint.showPartitionReport', [uri, 'ks.users_by_name']],
  ]);

  // The hover of the hot-partition finding links to the report of its table.
  const keyAt = SCHEMA.indexOf('publish_date, title)') + 2;
  const hover = (await client.request('textDocument/hover', { textDocument: { uri }, position: { line: 0, character: keyAt } })) as { contents: { value: string } };
  const link = `command:cqlint.showPartitionReport?${encodeURIComponent(JSON.stringify([uri, 'ks.posts_by_day']))}`;
  assert.ok(hover.contents.value.includes(link), hover.contents.value);
  const noFinding = (await client.request('textDocument/hover', { textDocument: { uri }, position: { line: 2, character: 15 } })) as { contents: { value: string } } | null;
  assert.ok(!noFinding?.contents.value.includes('command:'), 'no link where no partition rule reports');

  const named = (await client.request('cqlint/partitionReport', { textDocument: { uri }, table: 'ks.posts_by_day' })) as { table: string; html: string };
  assert.equal(named.table, 'ks.posts_by_day');
  assert.match(named.html, /^<!DOCTYPE html>/);
  assert.match(named.html, /At 10 rows\/s into one partition \(hinted\)/);
  assert.match(named.html, /data-figure="queries"/, 'the query of the file is listed');
  const atCursor = (await client.request('cqlint/partitionReport', { textDocument: { uri }, position: { line: 3, character: 10 } })) as { table: string };
  assert.equal(atCursor.table, 'ks.users_by_name');

  // Edits show in the next answer: the key diagram follows the schema.
  const edited = SCHEMA.replace('body text,', 'body text, likes int static,');
  await client.change(uri, edited);
  const after = (await client.request('cqlint/partitionReport', { textDocument: { uri }, table: 'ks.posts_by_day' })) as { html: string };
  assert.match(after.html, /data-column="likes"><td class="mono">likes<\/td><td class="mono">int<\/td><td class="mark"[^>]*>S</);

  assert.equal(await client.request('cqlint/partitionReport', { textDocument: { uri }, table: 'ks.nope' }), null);
  assert.equal(await client.request('cqlint/partitionReport', { bogus: true }), null);
  assert.ok(client.alive);
});
