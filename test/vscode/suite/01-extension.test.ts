// The extension itself: manifest contributions as VS Code sees them, activation, commands, settings.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import {
  EXTENSION_ID,
  activateExtension,
  closeAllEditors,
  fixtureUri,
  openFixture,
  waitForDiagnostic,
} from '../helpers';

suite('extension', () => {
  suiteTeardown(closeAllEditors);

  test('is installed and activates when a .cql file opens', async () => {
    const extension = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(extension, `${EXTENSION_ID} not found`);
    const document = await openFixture('lookups.cql');
    assert.equal(document.languageId, 'cql');
    await activateExtension();
    assert.equal(extension.isActive, true);
  });

  test('registers the cql language with its aliases and the .cqlsh extension', async () => {
    const languages = await vscode.languages.getLanguages();
    assert.ok(languages.includes('cql'), `languages: ${languages.join(', ')}`);
    const document = await vscode.workspace.openTextDocument({ language: 'cql', content: 'SELECT * FROM t;' });
    assert.equal(document.languageId, 'cql');
    const extension = vscode.extensions.getExtension(EXTENSION_ID)!;
    const contributed = extension.packageJSON.contributes.languages[0];
    assert.deepEqual(contributed.extensions, ['.cql', '.cqlsh']);
    assert.ok(contributed.aliases.includes('Cassandra Query Language'));
  });

  test('indexes the workspace in the background and reports the end of the index', async () => {
    await activateExtension();
    const api = vscode.extensions.getExtension<{
      indexed(): Promise<{ indexed: number; total: number; done: boolean }>;
    }>(EXTENSION_ID)!.exports;
    const status = await api.indexed();
    assert.equal(status.done, true);
    // The index counts the files that hold CQL: the .cql files and application/'s Python and Java, whose strings do.
    const files = await vscode.workspace.findFiles('**/*.{cql,py,java}');
    assert.equal(
      status.indexed,
      files.length,
      `indexed ${status.indexed} of the workspace's ${files.length} files with CQL`,
    );
  });

  test('registers its three commands', async () => {
    await activateExtension();
    const commands = await vscode.commands.getCommands(true);
    for (const id of ['cqlint.restartServer', 'cqlint.showOutput', 'cqlint.showTokenAtCursor']) {
      assert.ok(commands.includes(id), `command ${id} is not registered`);
    }
  });

  test('exposes its settings with the documented defaults', () => {
    const config = vscode.workspace.getConfiguration('cqlint', fixtureUri('lookups.cql'));
    assert.equal(config.get('target'), 'auto');
    // Unset: the fixes size their shards from the workload (docs/fixes.md#sizing).
    assert.equal(config.get('shardCount'), null);
    assert.deepEqual(config.get('rules'), {});
    assert.equal(config.get('inlayHints.tokens'), true);
    assert.equal(config.get('inlayHints.shards'), true);
    assert.equal(config.get('trace.server'), 'off');
    const inspected = config.inspect('target');
    assert.equal(inspected?.defaultValue, 'auto');
  });

  test('restarts the language server on cqlint.restartServer and keeps serving', async () => {
    const document = await openFixture('hot_partition.cql');
    await waitForDiagnostic(document.uri, 'hot-partition');
    await vscode.commands.executeCommand('cqlint.restartServer');
    await activateExtension();
    // The old server's diagnostics are cleared on stop; the new one publishes them again.
    const diagnostic = await waitForDiagnostic(document.uri, 'hot-partition');
    assert.equal(diagnostic.source, 'cqlint');
  });
});
