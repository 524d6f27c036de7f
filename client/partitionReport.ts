// The partition report panel: the command cqlint.showPartitionReport (from the CodeLens, the command
// palette or a keybinding) asks the server for the page (cqlint/partitionReport) and shows it in a webview.
// The page has no script; the panel asks again when a CQL document changes, so it follows the schema.
import * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';

export const PARTITION_REPORT_REQUEST = 'cqlint/partitionReport';
export const SHOW_PARTITION_REPORT_COMMAND = 'cqlint.showPartitionReport';

interface ReportResult {
  table: string;
  html: string;
}

interface Shown {
  panel: vscode.WebviewPanel;
  uri: string;
  table: string;
}

/** Registers the command; `getClient` returns the running language client (or undefined). */
export function registerPartitionReport(context: vscode.ExtensionContext, getClient: () => LanguageClient | undefined): void {
  let shown: Shown | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;

  async function fetchReport(params: { textDocument: { uri: string }; table?: string; position?: vscode.Position }): Promise<ReportResult | null> {
    const client = getClient();
    if (!client || !client.isRunning()) {
      void vscode.window.showWarningMessage('cqlint: the language server is not running.');
      return null;
    }
    try {
      return await client.sendRequest<ReportResult | null>(PARTITION_REPORT_REQUEST, {
        textDocument: params.textDocument,
        table: params.table,
        position: params.position ? client.code2ProtocolConverter.asPosition(params.position) : undefined,
      });
    } catch (error) {
      client.error(`${PARTITION_REPORT_REQUEST} failed`, error);
      return null;
    }
  }

  function show(uri: string, result: ReportResult): void {
    if (!shown) {
      const panel = vscode.window.createWebviewPanel('cqlint.partitionReport', `Partition report: ${result.table}`, vscode.ViewColumn.Beside, {
        enableScripts: false,
        enableFindWidget: true,
        retainContextWhenHidden: false,
        localResourceRoots: [],
      });
      panel.onDidDispose(() => { shown = undefined; }, undefined, context.subscriptions);
      shown = { panel, uri, table: result.table };
    } else {
      shown.uri = uri;
      shown.table = result.table;
      shown.panel.title = `Partition report: ${result.table}`;
      shown.panel.reveal(undefined, true);
    }
    shown.panel.webview.html = result.html;
  }

  async function showPartitionReport(uri?: string, table?: string): Promise<{ table: string } | null> {
    let position: vscode.Position | undefined;
    if (typeof uri !== 'string') {
      const editor = vscode.window.activeTextEditor;
      if (!editor || editor.document.languageId !== 'cql') {
        void vscode.window.showInformationMessage('cqlint: open a CQL file with a CREATE TABLE to see its partition report.');
        return null;
      }
      uri = editor.document.uri.toString();
      position = editor.selection.active;
    }
    const result = await fetchReport({ textDocument: { uri }, table, position });
    if (!result) {
      void vscode.window.showInformationMessage('cqlint: no CREATE TABLE or CREATE MATERIALIZED VIEW here.');
      return null;
    }
    show(uri, result);
    return { table: result.table };
  }

  context.subscriptions.push(
    vscode.commands.registerCommand(SHOW_PARTITION_REPORT_COMMAND, showPartitionReport),
    // Follow the schema: refresh the open report a moment after any CQL document changes.
    vscode.workspace.onDidChangeTextDocument((event) => {
      if (!shown || event.document.languageId !== 'cql' || !event.contentChanges.length) return;
      if (timer) clearTimeout(timer);
      timer = setTimeout(() => {
        const current = shown;
        if (!current) return;
        void fetchReport({ textDocument: { uri: current.uri }, table: current.table }).then((result) => {
          if (result && shown === current) current.panel.webview.html = result.html;
        });
      }, 400);
    }),
    { dispose: () => timer && clearTimeout(timer) },
  );
}
