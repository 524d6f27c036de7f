// Quick fixes: fetched like the light bulb does, applied with workspace.applyEdit, then re-checked.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import {
  closeAllEditors,
  codeOf,
  cqlintDiagnostics,
  fixtureUri,
  openFixture,
  openUntitled,
  waitFor,
  waitForDiagnostic,
  waitForNoDiagnostic,
  waitOnDiagnostics,
} from '../helpers';

const HOT_TABLE = [
  'CREATE TABLE books_by_date (',
  '  publish_date date,',
  '  title text,',
  '  isbn text,',
  '  PRIMARY KEY (publish_date, title)',
  ');',
  '',
].join('\n');

async function quickFixesFor(
  document: vscode.TextDocument,
  diagnostic: vscode.Diagnostic,
): Promise<vscode.CodeAction[]> {
  const actions = await vscode.commands.executeCommand<(vscode.CodeAction | vscode.Command)[]>(
    'vscode.executeCodeActionProvider',
    document.uri,
    diagnostic.range,
    vscode.CodeActionKind.QuickFix.value,
    50, // resolve lazily computed edits
  );
  return (actions ?? []).filter(
    (a): a is vscode.CodeAction => 'title' in a && !('command' in a && typeof a.command === 'string'),
  );
}

async function apply(action: vscode.CodeAction): Promise<void> {
  assert.ok(action.edit || action.command, `action "${action.title}" has neither an edit nor a command`);
  if (action.edit) assert.equal(await vscode.workspace.applyEdit(action.edit), true, 'applyEdit refused the edit');
  if (action.command) await vscode.commands.executeCommand(action.command.command, ...(action.command.arguments ?? []));
}

suite('quick fixes', () => {
  suiteTeardown(closeAllEditors);

  test('hot partition offers a calculated shard column from title and a random shard column', async () => {
    const document = await openUntitled(HOT_TABLE);
    const diagnostic = await waitForDiagnostic(document.uri, 'hot-partition');
    // The first light bulb of a fresh window can come back empty while the workbench is still starting the
    // provider (seen in about one run in three, with nothing in the server's log): asked again, as the
    // editor asks on every cursor move.
    const titles = await waitFor('the quick fixes of the hot partition', async () => {
      const found = (await quickFixesFor(document, diagnostic)).map((a) => a.title);
      return found.length ? found : undefined;
    });
    assert.ok(
      titles.some((t) => /^Add a calculated shard column from title\b/.test(t)),
      `titles: ${titles.join(' | ')}`,
    );
    assert.ok(
      titles.some((t) => /^Add a random shard column\b/.test(t)),
      `titles: ${titles.join(' | ')}`,
    );
  });

  test('applying the calculated shard fix adds the column, the annotation, and clears the warning', async () => {
    const document = await openUntitled(HOT_TABLE);
    const diagnostic = await waitForDiagnostic(document.uri, 'hot-partition');
    const actions = await quickFixesFor(document, diagnostic);
    const fix = actions.find((a) => /^Add a calculated shard column from title\b/.test(a.title));
    assert.ok(fix, `no calculated shard fix in: ${actions.map((a) => a.title).join(' | ')}`);
    assert.ok(
      !fix.diagnostics || fix.diagnostics.some((d) => codeOf(d) === 'hot-partition'),
      'the fix should be tied to the hot-partition diagnostic',
    );
    await apply(fix);
    const text = document.getText();
    assert.match(text, /--\s*@shard\s+shard\s*=\s*murmur3\(title\)\s*%\s*\d+\s*\+\s*1/);
    assert.match(text, /\bshard\s+int\b/);
    assert.match(text, /PRIMARY KEY\s*\(\(\s*publish_date\s*,\s*shard\s*\)/);
    await waitForNoDiagnostic(document.uri, 'hot-partition');
    // Nothing else broke: no syntax error after the edit.
    await waitOnDiagnostics('the re-checked document to settle', () =>
      vscode.languages.getDiagnostics(document.uri).some((d) => codeOf(d) === 'syntax-error') ? undefined : true,
    );
  });

  test("the first offered fix follows the workspace's reads: whole partitions read in another file, so a random shard", async () => {
    const document = await openFixture('tasks_by_status.cql');
    const diagnostic = await waitForDiagnostic(document.uri, 'hot-partition');
    const actions = await quickFixesFor(document, diagnostic);
    const [first] = actions;
    assert.ok(first, 'no quick fix');
    assert.match(
      first.title,
      /^Add a random shard column \(\d+ shards\); rewrites 1 statement in 2 files, 1 left to the application$/,
      `titles: ${actions.map((a) => a.title).join(' | ')}`,
    );
    assert.equal(first.isPreferred, true);
    assert.ok(
      actions.slice(1).every((a) => !a.isPreferred),
      'one preferred fix',
    );
    // The same edit makes the board's read visit every shard (not applied: the fixtures stay as they are).
    const files = first.edit!.entries().map(([uri]) => uri.toString());
    assert.deepEqual(files.sort(), [fixtureUri('board_queries.cql').toString(), document.uri.toString()].sort());
    const [, readEdits] = first
      .edit!.entries()
      .find(([uri]) => uri.toString() === fixtureUri('board_queries.cql').toString())!;
    // The read has a LIMIT: it goes shard by shard, the rows merged by the application.
    assert.ok(
      readEdits.some((e) => e.newText === ' AND shard = ?'),
      readEdits.map((e) => e.newText).join(' | '),
    );
  });

  test('the first offered fix follows the reads: rows read by title, so the calculated shard from title', async () => {
    const document = await openUntitled(
      [
        'CREATE TABLE posts_by_day (publish_date date, title text, body text, PRIMARY KEY (publish_date, title));',
        "SELECT body FROM posts_by_day WHERE publish_date = '2024-05-01' AND title = 'Dune';",
        '',
      ].join('\n'),
    );
    const diagnostic = await waitForDiagnostic(document.uri, 'hot-partition');
    const actions = await quickFixesFor(document, diagnostic);
    assert.match(
      actions[0]?.title ?? '',
      /^Add a calculated shard column from title \(\d+ shards\); rewrites 1 statement$/,
      `titles: ${actions.map((a) => a.title).join(' | ')}`,
    );
    assert.equal(actions[0]!.isPreferred, true);
  });

  test('applying the random shard fix also clears the warning', async () => {
    const document = await openUntitled(HOT_TABLE);
    const diagnostic = await waitForDiagnostic(document.uri, 'hot-partition');
    const actions = await quickFixesFor(document, diagnostic);
    const fix = actions.find((a) => /^Add a random shard column\b/.test(a.title));
    assert.ok(fix, `no random shard fix in: ${actions.map((a) => a.title).join(' | ')}`);
    await apply(fix);
    assert.match(document.getText(), /@shard\s+shard\s*=\s*random\(\s*\d+\s*\)/);
    await waitForNoDiagnostic(document.uri, 'hot-partition');
  });

  test('a fix whose edit spans two files: both change, and no problem is left in either', async () => {
    // refactor/invoices.cql and refactor/invoice_queries.cql: the edits stay unsaved and are reverted after.
    const schemaUri = fixtureUri('refactor/invoices.cql');
    const queriesUri = fixtureUri('refactor/invoice_queries.cql');
    try {
      const document = await openFixture('refactor/invoices.cql');
      const diagnostic = await waitForDiagnostic(document.uri, 'hot-partition');
      const fix = await waitFor('the shard fix that rewrites the queries in the other file', async () => {
        const actions = await quickFixesFor(document, diagnostic);
        return actions.find((a) => a.isPreferred && /in 2 files/.test(a.title));
      });
      assert.match(
        fix.title,
        /^Add a calculated shard column from invoice_no \(\d+ shards\); rewrites 3 statements in 2 files, 1 left to the application$/,
      );
      assert.deepEqual(
        fix
          .edit!.entries()
          .map(([uri]) => uri.toString())
          .sort(),
        [queriesUri.toString(), schemaUri.toString()].sort(),
      );
      await apply(fix);
      assert.match(document.getText(), /PRIMARY KEY \(\(issue_date, shard\), invoice_no\)/);
      const rewritten = await vscode.workspace.openTextDocument(queriesUri);
      await vscode.window.showTextDocument(rewritten, { preview: false });
      const text = rewritten.getText();
      assert.match(text, /VALUES \('2026-11-20', 'INV-2041', 120\.50, \d+\);/);
      assert.match(
        text,
        /-- bind shard = murmur3\(invoice_no\) % \d+ \+ 1 .*\nSELECT amount FROM billing\.invoices_by_day WHERE issue_date = \? AND invoice_no = \? AND shard = \?;/,
      );
      assert.match(text, /WHERE issue_date = '2026-11-20' AND shard IN \(1, /);
      // The Problems panel: nothing from cqlint on either file once the server has checked the new texts.
      for (const uri of [schemaUri, queriesUri]) {
        await waitOnDiagnostics(`no cqlint problem in ${uri.path}`, () =>
          cqlintDiagnostics(uri).length ? undefined : true,
        );
      }
    } finally {
      await closeAllEditors();
    }
  });
});
