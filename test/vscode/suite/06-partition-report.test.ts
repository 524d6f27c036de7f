// The partition report panel in a real VS Code: the webview shows the table's keyspace diagram with the
// workspace's queries, and its links open a table's and a query's source (the page runs the client's
// cqlint.openReportSource command with the place the server wrote into the link).
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { closeAllEditors, fixtureUri, openFixture, waitFor, waitOn } from '../helpers';

/** The [uri, line, character] of the command link in `anchor` (the <a> that wraps a box or a label). */
function linkArguments(html: string, around: RegExp): [string, number, number] {
  const match = around.exec(html);
  assert.ok(match, `no link matching ${around}`);
  const href = match[1]!.replace(/&amp;/g, '&');
  assert.ok(href.startsWith('command:cqlint.openReportSource?'), href);
  return JSON.parse(decodeURIComponent(href.slice(href.indexOf('?') + 1))) as [string, number, number];
}

suite('partition report', () => {
  suiteTeardown(closeAllEditors);

  test("the webview shows the keyspace diagram, and a table box opens the table's source", async () => {
    const document = await openFixture('tasks_by_status.cql');
    const result = await waitFor(
      'the partition report',
      async () =>
        (await vscode.commands.executeCommand<{ table: string; html: string } | null>(
          'cqlint.showPartitionReport',
          document.uri.toString(),
          'shop.tasks_by_status',
        )) ?? undefined,
    );
    assert.equal(result.table, 'shop.tasks_by_status');
    // The panel is open beside the editor.
    const tabs = (): readonly vscode.Tab[] => vscode.window.tabGroups.all.flatMap((g) => g.tabs);
    const panel = await waitOn(
      `the report panel among the tabs ${tabs()
        .map((t) => t.label)
        .join(', ')}`,
      [vscode.window.tabGroups.onDidChangeTabs],
      () =>
        tabs().find(
          (t) => t.input instanceof vscode.TabInputWebview && t.input.viewType.includes('cqlint.partitionReport'),
        ),
      10_000,
    );
    assert.equal(panel.label, 'Partition report: shop.tasks_by_status');
    // The keyspace diagram of shop, with the board's query as Q1 into the table.
    assert.match(result.html, /<svg class="kd keyspace-diagram" data-keyspace="shop"/);
    assert.match(result.html, /<g class="kd-box sev-warning" data-table="shop\.tasks_by_status"/);
    assert.match(
      result.html,
      /data-arrow-table="shop\.tasks_by_status"[^>]*>.*?<text class="kd-query"[^>]*data-query="1">Q1<\/text>/s,
    );

    // The box's link opens the table's definition; the label's, the query.
    await closeAllEditors();
    const [uri, line, character] = linkArguments(
      result.html,
      /<g class="kd-box[^"]*" data-table="shop\.tasks_by_status" data-box="\d+"><title>[^<]*<\/title><a href="([^"]+)"/,
    );
    assert.equal(vscode.Uri.parse(uri).fsPath, fixtureUri('tasks_by_status.cql').fsPath);
    await vscode.commands.executeCommand('cqlint.openReportSource', uri, line, character);
    const editor = await waitOn('the table opened', [vscode.window.onDidChangeActiveTextEditor], () =>
      vscode.window.activeTextEditor?.document.uri.fsPath === fixtureUri('tasks_by_status.cql').fsPath
        ? vscode.window.activeTextEditor
        : undefined,
    );
    const at = editor.selection.active;
    assert.match(
      editor.document.lineAt(at.line).text.slice(at.character),
      /^(shop\.)?tasks_by_status \(/,
      "the cursor is on the table's name",
    );

    const [queryUri, queryLine] = linkArguments(
      result.html,
      /<a href="([^"]+)" aria-label="Q1: SELECT task_id, title FROM shop\.tasks_by_status/,
    );
    await vscode.commands.executeCommand('cqlint.openReportSource', queryUri, queryLine, 0);
    const query = await waitOn('the query opened', [vscode.window.onDidChangeActiveTextEditor], () =>
      vscode.window.activeTextEditor?.document.uri.fsPath === fixtureUri('board_queries.cql').fsPath
        ? vscode.window.activeTextEditor
        : undefined,
    );
    assert.match(
      query.document.lineAt(query.selection.active.line).text,
      /^SELECT task_id, title FROM shop\.tasks_by_status/,
    );
  });
});
