// Settings (cqlint.target, cqlint.rules) and .cqlint.json changes re-lint what is open.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Diagnostic, TextEdit } from 'vscode-languageserver-protocol';
import { capabilities, fileUri, tempWorkspace } from '../../scripts/lsp-client';
import { startInProcessServer } from '../helpers/in-process-server';

const HOT = 'CREATE TABLE ks.books (publish_date date, title text, author text, PRIMARY KEY (publish_date, title));\n';
const POSTS = 'CREATE TABLE ks.posts (author_id uuid, id timeuuid, body text, PRIMARY KEY ((author_id, id)));\n';
const BOOK = `${HOT}INSERT INTO ks.books (publish_date, title, author) VALUES ('2020-07-09', 'Hello', 'Ann');\n`;
const HINTS = JSON.stringify({ tables: { 'ks.posts': { writesPerSecondPerPartition: 3000 } } });

const codes = (diagnostics: Diagnostic[]): string[] => diagnostics.map((d) => String(d.code)).sort();
const has = (code: string) => (diagnostics: Diagnostic[]) => diagnostics.some((d) => d.code === code);
const lacks = (code: string) => (diagnostics: Diagnostic[]) => !diagnostics.some((d) => d.code === code);

describe('settings', () => {
  test('cqlint.rules levels apply on workspace/configuration changes', async (t) => {
    const client = startInProcessServer();
    t.after(() => client.shutdown());
    await client.initialize(capabilities.push, { settings: { rules: { 'hot-partition': 'error' } } });
    await client.waitForRegistration('workspace/didChangeConfiguration');
    const uri = 'untitled:books';
    await client.open(uri, HOT);
    const first = await client.waitForDiagnostics(uri);
    assert.deepEqual(codes(first), ['hot-partition']);
    assert.equal(first[0]!.severity, 1, 'error from the settings, not the rule default (warning)');

    await client.changeSettings({ rules: { 'hot-partition': 'off' } });
    assert.deepEqual(await client.waitForDiagnostics(uri, lacks('hot-partition')), []);

    await client.changeSettings({ rules: { 'hot-partition': 'warn' } });
    const back = await client.waitForDiagnostics(uri, has('hot-partition'));
    assert.equal(back[0]!.severity, 2);
  });

  test('cqlint.target changes what the target-specific rules report', async (t) => {
    const ws = tempWorkspace({ '.cqlint.json': HINTS, 'posts.cql': POSTS });
    t.after(() => ws.cleanup());
    const client = startInProcessServer();
    t.after(() => client.shutdown());
    await client.initialize(capabilities.push, { workspaceFolders: [ws.dir], settings: { target: 'cassandra' } });
    const uri = ws.uri('posts.cql');
    await client.open(uri, POSTS);
    assert.ok(
      lacks('partition-throughput')(await client.waitForDiagnostics(uri)),
      'Cassandra has no per-partition quota',
    );

    await client.changeSettings({ target: 'keyspaces' });
    const keyspaces = await client.waitForDiagnostics(uri, has('partition-throughput'));
    assert.match(String(keyspaces.find((d) => d.code === 'partition-throughput')!.message), /WCU/);

    // An invalid target is logged and ignored (the default, cassandra, applies).
    await client.changeSettings({ target: 'mongodb' });
    await client.waitForLog(/cqlint\.target: "mongodb" is not one of/);
    await client.waitForDiagnostics(uri, lacks('partition-throughput'));

    // Unset: .cqlint.json's target applies.
    ws.write('.cqlint.json', JSON.stringify({ ...JSON.parse(HINTS), target: 'cosmosdb' }));
    await client.filesChanged([{ uri: ws.uri('.cqlint.json'), type: 2 }]);
    await client.changeSettings({});
    const cosmos = await client.waitForDiagnostics(uri, has('partition-throughput'));
    assert.match(String(cosmos.find((d) => d.code === 'partition-throughput')!.message), /RU\/s/);
    // And the setting wins over the file.
    await client.changeSettings({ target: 'cassandra' });
    await client.waitForDiagnostics(uri, lacks('partition-throughput'));
  });

  test('without workspace/configuration: initializationOptions, then didChangeConfiguration payloads', async (t) => {
    const client = startInProcessServer();
    t.after(() => client.shutdown());
    await client.initialize(capabilities.minimal, {
      initializationOptions: { cqlint: { rules: { 'hot-partition': 'off' } } },
    });
    const uri = 'untitled:books';
    await client.open(uri, HOT);
    assert.deepEqual(await client.waitForDiagnostics(uri), []);
    await client.notify('workspace/didChangeConfiguration', {
      settings: { cqlint: { rules: { 'hot-partition': 'error' } } },
    });
    const diagnostics = await client.waitForDiagnostics(uri, has('hot-partition'));
    assert.equal(diagnostics[0]!.severity, 1);
  });

  test('.cqlint.json changes re-lint; a broken one is reported naming the key', async (t) => {
    const ws = tempWorkspace({ 'books.cql': HOT });
    t.after(() => ws.cleanup());
    const client = startInProcessServer();
    t.after(() => client.shutdown());
    await client.initialize(capabilities.push, { workspaceFolders: [ws.dir] });
    const uri = ws.uri('books.cql');
    await client.open(uri, HOT);
    // Not the first publication: while the folder is indexed, the file-local findings (none) may go out first.
    assert.deepEqual(codes(await client.waitForDiagnostics(uri, has('hot-partition'))), ['hot-partition']);

    ws.write('.cqlint.json', JSON.stringify({ rules: { 'hot-partition': 'off' } }));
    await client.filesChanged([{ uri: ws.uri('.cqlint.json'), type: 1 }]);
    assert.deepEqual(await client.waitForDiagnostics(uri, lacks('hot-partition')), []);

    ws.write('.cqlint.json', JSON.stringify({ rules: { 'hot-partiton': 'off' } }));
    await client.filesChanged([{ uri: ws.uri('.cqlint.json'), type: 2 }]);
    await client.waitForLog(/rules\.hot-partiton: unknown rule/);
    // The misspelt rule is dropped, so hot-partition is back at its default.
    assert.deepEqual(codes(await client.waitForDiagnostics(uri, has('hot-partition'))), ['hot-partition']);
  });

  test('settings per workspace folder and per document (scopeUri), re-read on didChangeConfiguration', async (t) => {
    const ws = tempWorkspace({ 'quiet/books.cql': BOOK, 'strict/books.cql': BOOK });
    t.after(() => ws.cleanup());
    const client = startInProcessServer();
    t.after(() => client.shutdown());
    const quiet = ws.path('quiet');
    const strict = ws.path('strict');
    client.scopedSettings = {
      [fileUri(quiet)]: {
        rules: { 'hot-partition': 'off' },
        format: { keywordCase: 'lower' },
        inlayHints: { tokens: false, shards: false },
      },
      [fileUri(strict)]: { rules: { 'hot-partition': 'error' } },
    };
    const withHints = { ...capabilities.push, textDocument: { ...capabilities.push.textDocument, inlayHint: {} } };
    await client.initialize(withHints, { workspaceFolders: [quiet, strict] });
    const quietUri = ws.uri('quiet/books.cql');
    const strictUri = ws.uri('strict/books.cql');
    await client.open(quietUri, BOOK);
    await client.open(strictUri, BOOK);
    assert.deepEqual(await client.waitForDiagnostics(quietUri, lacks('hot-partition')), []);
    const strictFindings = await client.waitForDiagnostics(strictUri, has('hot-partition'));
    assert.equal(strictFindings.find((d) => d.code === 'hot-partition')!.severity, 1, 'error from the strict folder');
    assert.ok(
      client.configurationScopes.includes(quietUri) && client.configurationScopes.includes(fileUri(strict)),
      'asked per document and per folder',
    );

    // Formatting reads the document's own keyword case.
    const format = async (uri: string): Promise<string> => {
      const edits = (await client.request('textDocument/formatting', {
        textDocument: { uri },
        options: { tabSize: 2, insertSpaces: true },
      })) as TextEdit[];
      return edits.map((e) => e.newText).join('');
    };
    assert.match(await format(quietUri), /create table/);
    assert.match(await format(strictUri), /CREATE TABLE/);

    // Inlay hints follow the folder's cqlint.inlayHints.tokens.
    const tokenHints = async (uri: string): Promise<number> => {
      const hints = (await client.request('textDocument/inlayHint', {
        textDocument: { uri },
        range: { start: { line: 0, character: 0 }, end: { line: 5, character: 0 } },
      })) as unknown[] | null;
      return hints?.length ?? 0;
    };
    assert.equal(await tokenHints(quietUri), 0, 'tokens hints off in the quiet folder');
    assert.ok((await tokenHints(strictUri)) > 0, 'tokens hints on in the strict folder');

    // A document's own settings win over its folder's.
    const other = ws.uri('strict/other.cql');
    client.scopedSettings[other] = { rules: { 'hot-partition': 'off' } };
    await client.open(other, HOT);
    assert.deepEqual(await client.waitForDiagnostics(other, lacks('hot-partition')), []);

    // The cache is dropped on didChangeConfiguration: the folders' new settings apply.
    client.scopedSettings[fileUri(quiet)] = { rules: { 'hot-partition': 'warn' } };
    await client.changeSettings({});
    const now = await client.waitForDiagnostics(quietUri, has('hot-partition'));
    assert.equal(now.find((d) => d.code === 'hot-partition')!.severity, 2);
    assert.match(await format(quietUri), /CREATE TABLE/);
  });
});
