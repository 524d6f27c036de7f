// Quick fixes: fetched like the light bulb does, applied with workspace.applyEdit, then re-checked.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { closeAllEditors, codeOf, fixtureUri, openFixture, openUntitled, waitFor, waitForDiagnostic, waitForNoDiagnostic } from '../helpers';

const HOT_TABLE = [
  'CREATE TABLE books_by_date (',
  '  publish_date date,',
  '  isbn text,',
  '  title text,',
  '  PRIMARY KEY (publish_date)',
  ');',
  '',
].join('\n');

async function quickFixesFor(document: vscode.TextDocument, diagnostic: vscode.Diagnostic): Promise<vscode.CodeAction[]> {
  const actions = await vscode.commands.executeCommand<(vscode.CodeAction | vscode.Command)[]>(
    'vscode.executeCodeActionProvider',
    document.uri,
    diagnostic.range,
    vscode.CodeActionKind.QuickFix.value,
    50, // resolve lazily computed edits
  );
  return (actions ?? []).filter((a): a is vscode.CodeAction => 'title' in a && !('command' in a && typeof a.command === 'string'));
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
    const titles = (await quickFixesFor(document, diagnostic)).map((a) => a.title);
    assert.ok(titles.some((t) => /^Add a calculated shard column from title\b/.test(t)), `titles: ${titles.join(' | ')}`);
    assert.ok(titles.some((t) => /^Add a random shard column\b/.test(t)), `titles: ${titles.join(' | ')}`);
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
    assert.match(text, /--\s*@shard\s+shard\s*=\s*murmur3\(title\)\s*%\s*16\s*\+\s*1/);
    assert.match(text, /\bshard\s+int\b/);
    assert.match(text, /PRIMARY KEY\s*\(\(\s*publish_date\s*,\s*shard\s*\)/);
    await waitForNoDiagnostic(document.uri, 'hot-partition');
    // Nothing else broke: no syntax error after the edit.
    await waitFor('the re-checked document to settle', () =>
      vscode.languages.getDiagnostics(document.uri).some((d) => codeOf(d) === 'syntax-error') ? undefined : true,
    );
  });

  test('the first offered fix follows the workspace\'s reads: whole partitions read in another file, so a random shard', async () => {
    const document = await openFixture('tasks_by_status.cql');
    const diagnostic = await waitForDiagnostic(document.uri, 'hot-partition');
    const actions = await quickFixesFor(document, diagnostic);
    const [first] = actions;
    assert.ok(first, 'no quick fix');
    assert.match(first.title, /^Add a random shard column \(16 shards\): 1 read of whole partitions then reads every shard$/, `titles: ${actions.map((a) => a.title).join(' | ')}`);
    assert.equal(first.isPreferred, true);
    assert.ok(actions.slice(1).every((a) => !a.isPreferred), 'one preferred fix');
    // The same edit makes the board's read visit every shard (not applied: the fixtures stay as they are).
    const files = first.edit!.entries().map(([uri]) => uri.toString());
    assert.deepEqual(files.sort(), [fixtureUri('board_queries.cql').toString(), document.uri.toString()].sort());
    const [, readEdits] = first.edit!.entries().find(([uri]) => uri.toString() === fixtureUri('board_queries.cql').toString())!;
    // 16 shards are more partitions than one IN may name (large-in-partition-key): one query per shard.
    assert.ok(readEdits.some((e) => e.newText === ' AND shard = ?'), readEdits.map((e) => e.newText).join(' | '));
  });

  test('the first offered fix follows the reads: rows read by title, so the calculated shard from title', async () => {
    const document = await openUntitled([
      'CREATE TABLE posts_by_day (publish_date date, title text, body text, PRIMARY KEY (publish_date, title));',
      "SELECT body FROM posts_by_day WHERE publish_date = '2024-05-01' AND title = 'Dune';",
      '',
    ].join('\n'));
    const diagnostic = await waitForDiagnostic(document.uri, 'hot-partition');
    const actions = await quickFixesFor(document, diagnostic);
    assert.match(actions[0]?.title ?? '', /^Add a calculated shard column from title \(16 shards\): reads by title find one shard$/, `titles: ${actions.map((a) => a.title).join(' | ')}`);
    assert.equal(actions[0]!.isPreferred, true);
  });

  test('applying the random shard fix also clears the warning', async () => {
    const document = await openUntitled(HOT_TABLE);
    const diagnostic = await waitForDiagnostic(document.uri, 'hot-partition');
    const actions = await quickFixesFor(document, diagnostic);
    const fix = actions.find((a) => /^Add a random shard column\b/.test(a.title));
    assert.ok(fix, `no random shard fix in: ${actions.map((a) => a.title).join(' | ')}`);
    await apply(fix);
    assert.match(document.getText(), /@shard\s+shard\s*=\s*random\(\s*16\s*\)/);
    await waitForNoDiagnostic(document.uri, 'hot-partition');
  });
});
