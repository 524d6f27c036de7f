// Diagnostics published by the server for the three fixture problems: codes, ranges, severities.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import {
  closeAllEditors,
  codeOf,
  cqlintDiagnostics,
  lineOf,
  openFixture,
  waitForDiagnostic,
  waitForNoDiagnostic,
  waitOnDiagnostics,
} from '../helpers';

suite('diagnostics', () => {
  suiteTeardown(async () => {
    await vscode.workspace.getConfiguration('cqlint').update('rules', undefined, vscode.ConfigurationTarget.Global);
    await closeAllEditors();
  });

  test('hot partition: PRIMARY KEY (publish_date) is a warning on the key', async () => {
    const document = await openFixture('hot_partition.cql');
    const diagnostic = await waitForDiagnostic(document.uri, 'hot-partition');
    assert.equal(diagnostic.source, 'cqlint');
    assert.equal(diagnostic.severity, vscode.DiagnosticSeverity.Warning);
    const keyLine = lineOf(document, 'PRIMARY KEY (publish_date)');
    assert.equal(diagnostic.range.start.line, keyLine, `range ${JSON.stringify(diagnostic.range)}`);
    assert.ok(
      document.getText(diagnostic.range).includes('publish_date'),
      `the range should cover the partition key, covers "${document.getText(diagnostic.range)}"`,
    );
    assert.match(diagnostic.message, /partition/i);
  });

  test('unbounded partition: PRIMARY KEY (server, log_time) is flagged on the key', async () => {
    const document = await openFixture('unbounded_partition.cql');
    const diagnostic = await waitForDiagnostic(document.uri, 'unbounded-partition');
    assert.equal(diagnostic.source, 'cqlint');
    assert.ok(
      diagnostic.severity === vscode.DiagnosticSeverity.Warning ||
        diagnostic.severity === vscode.DiagnosticSeverity.Error,
      `severity ${diagnostic.severity}`,
    );
    const keyLine = lineOf(document, 'PRIMARY KEY (server, log_time)');
    assert.ok(
      diagnostic.range.start.line === keyLine || document.getText(diagnostic.range).includes('server'),
      `range ${JSON.stringify(diagnostic.range)} covers "${document.getText(diagnostic.range)}"`,
    );
  });

  test('syntax error: an error at the broken statement, the rest of the file still analysed', async () => {
    const document = await openFixture('syntax_error.cql');
    const diagnostic = await waitForDiagnostic(document.uri, 'syntax-error');
    assert.equal(diagnostic.source, 'cqlint');
    assert.equal(diagnostic.severity, vscode.DiagnosticSeverity.Error);
    assert.equal(diagnostic.range.start.line, lineOf(document, "user_id = 'alice' AND;"));
    const errors = cqlintDiagnostics(document.uri).filter((d) => codeOf(d) === 'syntax-error');
    assert.equal(errors.length, 1, `one syntax error expected, got ${errors.map((d) => d.message).join(' | ')}`);
  });

  test('cqlint.rules turns a rule off, and back on', async () => {
    const document = await openFixture('hot_partition.cql');
    await waitForDiagnostic(document.uri, 'hot-partition');
    const config = vscode.workspace.getConfiguration('cqlint');
    await config.update('rules', { 'hot-partition': 'off' }, vscode.ConfigurationTarget.Global);
    await waitForNoDiagnostic(document.uri, 'hot-partition');
    await config.update('rules', { 'hot-partition': 'error' }, vscode.ConfigurationTarget.Global);
    const upgraded = await waitOnDiagnostics('hot-partition reported as an error', () =>
      cqlintDiagnostics(document.uri).find(
        (d) => codeOf(d) === 'hot-partition' && d.severity === vscode.DiagnosticSeverity.Error,
      ),
    );
    assert.equal(upgraded.source, 'cqlint');
  });
});
