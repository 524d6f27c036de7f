// CQL in application code, in a real VS Code: application/ holds a schema, a Python module that places orders with
// a lightweight transaction and a Java DAO that reads them back. The Python file gets a hot-partition diagnostic
// inside its string literal; the schema's partition fix rewrites the schema and the strings of both files in one
// edit (the new column and its bind marker in the host's own parameter syntax, a comment above each call saying
// what to bind), and no problem is left. The edits stay unsaved and are reverted after.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import {
  closeAllEditors,
  codeOf,
  cqlintDiagnostics,
  fixtureUri,
  openFixture,
  waitFor,
  waitForDiagnostic,
  waitOnDiagnostics,
} from '../helpers';

suite('application code', () => {
  suiteTeardown(closeAllEditors);

  test('a diagnostic inside a Python string, and the partition fix that rewrites the schema and both files of code', async () => {
    const schemaUri = fixtureUri('application/schema.cql');
    const pythonUri = fixtureUri('application/orders.py');
    const javaUri = fixtureUri('application/OrderDao.java');
    try {
      const python = await openFixture('application/orders.py');
      const java = await openFixture('application/OrderDao.java');
      assert.equal(python.languageId, 'python');
      assert.equal(java.languageId, 'java');

      // The lightweight transaction writes a day's partition that every order of the day shares: underlined
      // inside the string literal, at the table's name.
      const lwt = await waitForDiagnostic(pythonUri, 'lwt-hot-partition');
      assert.equal(python.getText(lwt.range), 'orders_by_day');
      const line = python.lineAt(lwt.range.start.line).text;
      assert.match(line, /^ {8}"INSERT INTO orders_by_day \(day, order_id, customer, total\) "$/);
      assert.ok(
        lwt.range.start.character > line.indexOf('"') && lwt.range.end.character < line.lastIndexOf('"'),
        'inside the literal',
      );
      assert.match(lwt.message, /^lightweight transaction on a hot partition of appshop\.orders_by_day/);

      const schema = await openFixture('application/schema.cql');
      const hot = await waitForDiagnostic(schemaUri, 'hot-partition');
      // The reads in the Java file know order_id: the preferred fix is the calculated shard, over the three files.
      const fix = await waitFor('the preferred partition fix over the schema and both files of code', async () => {
        const actions = await vscode.commands.executeCommand<(vscode.CodeAction | vscode.Command)[]>(
          'vscode.executeCodeActionProvider',
          schemaUri,
          hot.range,
          vscode.CodeActionKind.QuickFix.value,
          50,
        );
        return (actions ?? []).find(
          (a): a is vscode.CodeAction =>
            'title' in a &&
            (a as vscode.CodeAction).isPreferred === true &&
            (a as vscode.CodeAction).edit !== undefined,
        );
      });
      assert.match(
        fix.title,
        /^Add a calculated shard column from order_id \(\d+ shards\); rewrites 2 statements in 3 files, 2 left to the application$/,
      );
      assert.ok(
        !fix.diagnostics || fix.diagnostics.some((d) => codeOf(d) === 'hot-partition'),
        'tied to the hot-partition diagnostic',
      );
      assert.deepEqual(
        fix
          .edit!.entries()
          .map(([uri]) => uri.toString())
          .sort(),
        [javaUri, pythonUri, schemaUri].map((u) => u.toString()).sort(),
      );
      assert.equal(await vscode.workspace.applyEdit(fix.edit!), true, 'applyEdit refused the edit');

      assert.match(
        schema.getText(),
        /-- @shard shard = murmur3\(order_id\) % (\d+) \+ 1\nCREATE TABLE IF NOT EXISTS appshop\.orders_by_day \([^;]*\n {2}shard int,\n {2}PRIMARY KEY \(\(day, shard\), order_id\)\n\);/,
      );
      const shards = /% (\d+) \+ 1/.exec(schema.getText())![1];
      // Python: the column and a %s in the literals, the bind comment above the call with Python's `#`.
      assert.match(
        python.getText(),
        new RegExp(
          `\\n {4}# cqlint: bind shard = murmur3\\(order_id\\) % ${shards} \\+ 1[^\\n]*\\n {4}result = session\\.execute\\(\\n` +
            ' {8}"INSERT INTO orders_by_day \\(day, order_id, customer, total, shard\\) "\\n' +
            ' {8}"VALUES \\(%s, %s, %s, %s, %s\\) IF NOT EXISTS",\\n',
        ),
      );
      // Java: the restriction inside the string, the comment above the call with `//`.
      assert.match(
        java.getText(),
        new RegExp(
          `\\n {8}// cqlint: bind shard = murmur3\\(order_id\\) % ${shards} \\+ 1[^\\n]*\\n` +
            ' {8}Row row = session\\.execute\\("SELECT total FROM orders_by_day WHERE day = \\? AND order_id = \\? AND shard = \\?", day, orderId\\)',
        ),
      );

      // Nothing left to say in any of the three files once the server has read the new texts.
      for (const uri of [schemaUri, pythonUri, javaUri]) {
        await waitOnDiagnostics(`no cqlint problem in ${uri.path}`, () => {
          const left = cqlintDiagnostics(uri);
          return left.length ? undefined : true;
        });
      }
    } finally {
      await closeAllEditors();
    }
  });
});
