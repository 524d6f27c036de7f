// Hovers and inlay hints: the numbers behind a key (Murmur3 token, shard value).
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { murmur3TokenString, murmur3x86_32 } from '../../../server/core/token/murmur3';
import { closeAllEditors, hoverText, labelText, lineOf, openFixture, positionOf, waitFor } from '../helpers';

const utf8 = (text: string) => new TextEncoder().encode(text);

suite('hover and inlay hints', () => {
  suiteTeardown(closeAllEditors);

  test('hover on a partition key literal shows its Murmur3 token', async () => {
    const document = await openFixture('lookups.cql');
    const position = positionOf(document, "'alice'", 2);
    const expectedToken = murmur3TokenString(utf8('alice'));
    const text = await waitFor(
      'a hover with the token of alice',
      async () => {
        const hovers = await vscode.commands.executeCommand<vscode.Hover[]>(
          'vscode.executeHoverProvider',
          document.uri,
          position,
        );
        const value = hoverText(hovers ?? []);
        return value.includes(expectedToken) ? value : undefined;
      },
      15_000,
    );
    assert.match(text, /token/i);
  });

  test('hover on a table name shows its partition key', async () => {
    const document = await openFixture('lookups.cql');
    const position = positionOf(document, 'shop.users (', 'shop.'.length + 2);
    const text = await waitFor(
      'a hover on the table name',
      async () => {
        const hovers = await vscode.commands.executeCommand<vscode.Hover[]>(
          'vscode.executeHoverProvider',
          document.uri,
          position,
        );
        const value = hoverText(hovers ?? []);
        return value.trim() ? value : undefined;
      },
      15_000,
    );
    assert.match(text, /users/);
    assert.match(text, /user_id/);
    assert.match(text, /partition/i);
  });

  test('inlay hints show the shard value of an insert into an annotated table', async () => {
    const document = await openFixture('lookups.cql');
    const insertLine = lineOf(document, 'INSERT INTO shop.books_by_day');
    const expectedShard = (murmur3x86_32(utf8('Dune')) % 16) + 1;
    const range = new vscode.Range(0, 0, document.lineCount, 0);
    const hints = await waitFor(
      'inlay hints on the INSERT',
      async () => {
        const all = await vscode.commands.executeCommand<vscode.InlayHint[]>(
          'vscode.executeInlayHintProvider',
          document.uri,
          range,
        );
        const onInsert = (all ?? []).filter((h) => h.position.line === insertLine);
        return onInsert.length ? onInsert : undefined;
      },
      15_000,
    );
    const labels = hints.map((h) => labelText(h.label));
    assert.ok(
      labels.some((label) => /shard/i.test(label) && new RegExp(`\\b${expectedShard}\\b`).test(label)),
      `expected a hint with shard ${expectedShard} (murmur3('Dune') % 16 + 1), got: ${labels.join(' | ')}`,
    );
  });

  test('inlay hints show the token of a partition key literal', async () => {
    const document = await openFixture('lookups.cql');
    const selectLine = lineOf(document, "WHERE user_id = 'alice'");
    const expectedToken = murmur3TokenString(utf8('alice'));
    const range = new vscode.Range(0, 0, document.lineCount, 0);
    const labels = await waitFor(
      'a token inlay hint on the SELECT',
      async () => {
        const all = await vscode.commands.executeCommand<vscode.InlayHint[]>(
          'vscode.executeInlayHintProvider',
          document.uri,
          range,
        );
        const onSelect = (all ?? []).filter((h) => h.position.line === selectLine).map((h) => labelText(h.label));
        return onSelect.length ? onSelect : undefined;
      },
      15_000,
    );
    assert.ok(
      labels.some((l) => l.includes(expectedToken)),
      `expected token ${expectedToken}, got: ${labels.join(' | ')}`,
    );
  });

  test('the "Show token of the key under the cursor" command answers through cqlint/tokenAt', async () => {
    const document = await openFixture('lookups.cql');
    const editor = await vscode.window.showTextDocument(document);
    const position = positionOf(document, "'alice'", 3);
    editor.selection = new vscode.Selection(position, position);
    const result = await vscode.commands.executeCommand<{ markdown: string } | null>('cqlint.showTokenAtCursor');
    assert.ok(result, 'the server returned no token for the literal under the cursor');
    assert.ok(result.markdown.includes(murmur3TokenString(utf8('alice'))), result.markdown);
  });
});
