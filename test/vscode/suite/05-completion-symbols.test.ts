// Completion and document symbols.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { closeAllEditors, labelText, openFixture, openUntitled, waitFor } from '../helpers';

async function completionLabels(document: vscode.TextDocument, position: vscode.Position): Promise<string[]> {
  const list = await vscode.commands.executeCommand<vscode.CompletionList>(
    'vscode.executeCompletionItemProvider',
    document.uri,
    position,
  );
  // Snippets come from snippets/cql.json, not the server; leave them out.
  return (list?.items ?? [])
    .filter((item) => item.kind !== vscode.CompletionItemKind.Snippet && item.kind !== vscode.CompletionItemKind.Text)
    .map((item) => labelText(item.label));
}

suite('completion and symbols', () => {
  // VS Code's word-based suggestions would offer the document's own words (table names included):
  // turn them off so only the language server's items count.
  suiteSetup(async () => {
    await vscode.workspace
      .getConfiguration('editor')
      .update('wordBasedSuggestions', 'off', vscode.ConfigurationTarget.Global);
  });
  suiteTeardown(async () => {
    await vscode.workspace
      .getConfiguration('editor')
      .update('wordBasedSuggestions', undefined, vscode.ConfigurationTarget.Global);
    await closeAllEditors();
  });

  test('completes table names after FROM', async () => {
    const document = await openUntitled(
      'CREATE TABLE users (user_id text PRIMARY KEY, name text);\nCREATE TABLE orders (order_id uuid PRIMARY KEY, total decimal);\nSELECT * FROM ',
    );
    const end = document.positionAt(document.getText().length);
    const labels = await waitFor(
      'table names in completion',
      async () => {
        const found = await completionLabels(document, end);
        return found.includes('users') ? found : undefined;
      },
      15_000,
    );
    assert.ok(labels.includes('orders'), labels.join(', '));
  });

  test('completes column names in a WHERE clause', async () => {
    const document = await openUntitled(
      'CREATE TABLE users (user_id text PRIMARY KEY, name text);\nSELECT * FROM users WHERE ',
    );
    const end = document.positionAt(document.getText().length);
    const labels = await waitFor(
      'column names in completion',
      async () => {
        const found = await completionLabels(document, end);
        return found.includes('user_id') ? found : undefined;
      },
      15_000,
    );
    assert.ok(labels.length > 0);
  });

  test('completes CQL types in a column definition', async () => {
    const document = await openUntitled('CREATE TABLE t (id ');
    const end = document.positionAt(document.getText().length);
    const labels = await waitFor(
      'types in completion',
      async () => {
        const found = await completionLabels(document, end);
        return found.some((l) => l.toLowerCase() === 'timeuuid') ? found : undefined;
      },
      15_000,
    );
    assert.ok(
      labels.some((l) => l.toLowerCase() === 'text'),
      labels.join(', '),
    );
  });

  test('document symbols list the keyspace and the tables with their columns', async () => {
    const document = await openFixture('lookups.cql');
    const symbols = await waitFor(
      'document symbols',
      async () => {
        const found = await vscode.commands.executeCommand<vscode.DocumentSymbol[]>(
          'vscode.executeDocumentSymbolProvider',
          document.uri,
        );
        return found && found.length ? found : undefined;
      },
      15_000,
    );
    const flat = (list: vscode.DocumentSymbol[]): vscode.DocumentSymbol[] =>
      list.flatMap((s) => [s, ...flat(s.children ?? [])]);
    const names = flat(symbols).map((s) => s.name);
    const users = flat(symbols).find((s) => /(^|\.)users$/.test(s.name));
    assert.ok(users, `no symbol for shop.users in: ${names.join(', ')}`);
    assert.ok(
      flat(symbols).some((s) => /(^|\.)books_by_day$/.test(s.name)),
      names.join(', '),
    );
    assert.ok(
      names.some((n) => /(^|\.)shop$/.test(n)),
      `no keyspace symbol in: ${names.join(', ')}`,
    );
    assert.ok(
      (users.children ?? []).some((c) => c.name === 'user_id'),
      `columns of users: ${(users.children ?? []).map((c) => c.name).join(', ')}`,
    );
    const usersLine = document.getText(users.range);
    assert.match(usersLine, /CREATE TABLE shop\.users/);
  });
});
