// The partition report panel: the command cqlint.showPartitionReport (from the CodeLens, the command
// palette or a keybinding) asks the server for the page (cqlint/partitionReport) and shows it in a webview.
// The page has no script; the panel asks again when a CQL document changes, so it follows the schema.
// Its links to the workspace (the keyspace diagram's tables and queries) are command links the server
// writes with the place to open; cqlint.openReportSource opens it.
// "Choose Sample CSV…" (the panel's title bar, or the link in the page) picks a CSV with the open dialog
// and passes its path to the server, which reads it and renders the page from it; then it offers to save
// the choice into .cqlint.json (the server computes the WorkspaceEdit, which changes `samples` only).
// A sample being read shows a cancellable notification: the server reports work-done progress on the
// request's token, and cancelling cancels the request, which stops the reading.
import * as vscode from 'vscode';
import {
  WorkDoneProgress,
  type LanguageClient,
  type WorkDoneProgressBegin,
  type WorkDoneProgressReport,
} from 'vscode-languageclient/node';

import {
  CHOOSE_SAMPLE_COMMAND,
  OPEN_REPORT_SOURCE_COMMAND,
  SHOW_PARTITION_REPORT_COMMAND,
  partitionReportRequest,
  sampleConfigEditRequest,
  type ParamsOf,
  type ResultOf,
} from '../server/lsp/lsp-extensions';

interface Shown {
  panel: vscode.WebviewPanel;
  uri: string;
  table: string;
  /** A CSV chosen for this panel: passed on every refresh (the server keeps its summary cached). */
  sample?: string;
}

interface ReportParams {
  textDocument: { uri: string };
  table?: string;
  position?: vscode.Position;
  sample?: string;
}

let progressTokens = 0;

/** Registers the commands; `getClient` returns the running language client (or undefined). */
export function registerPartitionReport(
  context: vscode.ExtensionContext,
  getClient: () => LanguageClient | undefined,
): void {
  let shown: Shown | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;

  async function fetchReport(params: ReportParams): Promise<ResultOf<typeof partitionReportRequest>> {
    const client = getClient();
    if (!client || !client.isRunning()) {
      void vscode.window.showWarningMessage('cqlint: the language server is not running.');
      return null;
    }
    // The server's progress on this token becomes a cancellable notification, opened only if it begins.
    const token = `cqlint-report-${++progressTokens}`;
    const cancel = new vscode.CancellationTokenSource();
    let ended: (() => void) | undefined;
    let report: ((value: WorkDoneProgressReport) => void) | undefined;
    const listener = client.onProgress(WorkDoneProgress.type, token, (value) => {
      if (value.kind === 'begin') {
        const begin = value as WorkDoneProgressBegin;
        void vscode.window.withProgress(
          { location: vscode.ProgressLocation.Notification, title: begin.title, cancellable: true },
          (progress, userCancel) => {
            userCancel.onCancellationRequested(() => cancel.cancel());
            let last = begin.percentage ?? 0;
            progress.report({ message: begin.message, increment: last });
            report = (r) => {
              const next = r.percentage ?? last;
              progress.report({ message: r.message, increment: Math.max(0, next - last) });
              last = next;
            };
            return new Promise<void>((resolve) => (ended = resolve));
          },
        );
      } else if (value.kind === 'report') report?.(value as WorkDoneProgressReport);
      else ended?.();
    });
    try {
      const request: ParamsOf<typeof partitionReportRequest> = {
        textDocument: params.textDocument,
        table: params.table,
        position: params.position ? client.code2ProtocolConverter.asPosition(params.position) : undefined,
        sample: params.sample ? { file: params.sample } : undefined,
        chooseSampleCommand: CHOOSE_SAMPLE_COMMAND,
        openSourceCommand: OPEN_REPORT_SOURCE_COMMAND,
        workDoneToken: token,
      };
      return await client.sendRequest<ResultOf<typeof partitionReportRequest>>(
        partitionReportRequest.method,
        request,
        cancel.token,
      );
    } catch (error) {
      if (!cancel.token.isCancellationRequested) client.error(`${partitionReportRequest.method} failed`, error);
      return null;
    } finally {
      ended?.();
      listener.dispose();
      cancel.dispose();
    }
  }

  function show(uri: string, result: NonNullable<ResultOf<typeof partitionReportRequest>>, sample?: string): void {
    if (!shown) {
      const panel = vscode.window.createWebviewPanel(
        'cqlint.partitionReport',
        `Partition report: ${result.table}`,
        vscode.ViewColumn.Beside,
        {
          enableScripts: false,
          // The page's "Choose sample CSV…" link and its links to the sources; no other command may run from it.
          enableCommandUris: [CHOOSE_SAMPLE_COMMAND, OPEN_REPORT_SOURCE_COMMAND],
          enableFindWidget: true,
          retainContextWhenHidden: false,
          localResourceRoots: [],
        },
      );
      panel.onDidDispose(
        () => {
          shown = undefined;
        },
        undefined,
        context.subscriptions,
      );
      shown = { panel, uri, table: result.table, sample };
    } else {
      shown.uri = uri;
      shown.table = result.table;
      shown.sample = sample;
      shown.panel.title = `Partition report: ${result.table}`;
      shown.panel.reveal(undefined, true);
    }
    shown.panel.webview.html = result.html;
  }

  /** Returns the table shown and the page (the tests read what the panel shows). */
  async function showPartitionReport(uri?: string, table?: string): Promise<{ table: string; html: string } | null> {
    let position: vscode.Position | undefined;
    if (typeof uri !== 'string') {
      const editor = vscode.window.activeTextEditor;
      if (!editor || editor.document.languageId !== 'cql') {
        void vscode.window.showInformationMessage(
          'cqlint: open a CQL file with a CREATE TABLE to see its partition report.',
        );
        return null;
      }
      uri = editor.document.uri.toString();
      position = editor.selection.active;
    }
    // The same table again keeps the sample chosen for it.
    const sample = shown && shown.uri === uri && shown.table === table ? shown.sample : undefined;
    const result = await fetchReport({ textDocument: { uri }, table, position, sample });
    if (!result) {
      void vscode.window.showInformationMessage('cqlint: no CREATE TABLE or CREATE MATERIALIZED VIEW here.');
      return null;
    }
    show(uri, result, sample);
    return { table: result.table, html: result.html };
  }

  /** A link of the page: opens the file at the place, in the editor column beside the panel. */
  async function openReportSource(
    uri: unknown,
    line: unknown,
    character: unknown,
  ): Promise<vscode.TextEditor | undefined> {
    if (typeof uri !== 'string' || typeof line !== 'number' || typeof character !== 'number') return undefined;
    const position = new vscode.Position(Math.max(0, line), Math.max(0, character));
    const document = await vscode.workspace.openTextDocument(vscode.Uri.parse(uri));
    return vscode.window.showTextDocument(document, {
      viewColumn: vscode.ViewColumn.One,
      selection: new vscode.Range(position, position),
    });
  }

  /** Picks a CSV for the open report, re-renders from it, and offers to save it into .cqlint.json. */
  async function chooseSample(file?: string): Promise<{ table: string; sample: string } | null> {
    const current = shown;
    if (!current) {
      void vscode.window.showInformationMessage(
        'cqlint: open a partition report first (the CodeLens above a CREATE TABLE).',
      );
      return null;
    }
    if (typeof file !== 'string') {
      const picked = await vscode.window.showOpenDialog({
        canSelectMany: false,
        openLabel: 'Use as sample',
        title: `Sample rows of ${current.table} (cqlsh COPY ... TO CSV)`,
        filters: { CSV: ['csv'], 'All files': ['*'] },
        defaultUri: vscode.workspace.getWorkspaceFolder(vscode.Uri.parse(current.uri))?.uri,
      });
      if (!picked?.[0]) return null;
      file = picked[0].fsPath;
    }
    const result = await fetchReport({ textDocument: { uri: current.uri }, table: current.table, sample: file });
    if (!result || shown !== current) return null;
    show(current.uri, result, file);
    if (result.chosenSample) void offerToSave(current, file);
    return { table: result.table, sample: file };
  }

  async function offerToSave(current: Shown, file: string): Promise<void> {
    const save = 'Save to .cqlint.json';
    const answer = await vscode.window.showInformationMessage(
      `cqlint: use ${vscode.workspace.asRelativePath(file)} as the sample of ${current.table} for diagnostics too?`,
      save,
    );
    const client = getClient();
    if (answer !== save || !client) return;
    const params: ParamsOf<typeof sampleConfigEditRequest> = {
      textDocument: { uri: current.uri },
      table: current.table,
      file,
    };
    const result = await client.sendRequest<ResultOf<typeof sampleConfigEditRequest>>(
      sampleConfigEditRequest.method,
      params,
    );
    if (!result) return;
    if ('error' in result) {
      void vscode.window.showWarningMessage(`cqlint: ${result.error}`);
      return;
    }
    const edit = await client.protocol2CodeConverter.asWorkspaceEdit(result.edit);
    if (!(await vscode.workspace.applyEdit(edit))) return;
    // Saved at once: the server reads .cqlint.json from disk, and then the sample for the rules.
    await (await vscode.workspace.openTextDocument(vscode.Uri.parse(result.config))).save();
  }

  context.subscriptions.push(
    vscode.commands.registerCommand(SHOW_PARTITION_REPORT_COMMAND, showPartitionReport),
    vscode.commands.registerCommand(CHOOSE_SAMPLE_COMMAND, chooseSample),
    vscode.commands.registerCommand(OPEN_REPORT_SOURCE_COMMAND, openReportSource),
    // Follow the schema: refresh the open report a moment after any CQL document changes.
    vscode.workspace.onDidChangeTextDocument((event) => {
      if (!shown || event.document.languageId !== 'cql' || !event.contentChanges.length) return;
      if (timer) clearTimeout(timer);
      timer = setTimeout(() => {
        const current = shown;
        if (!current) return;
        void fetchReport({ textDocument: { uri: current.uri }, table: current.table, sample: current.sample }).then(
          (result) => {
            if (result && shown === current) current.panel.webview.html = result.html;
          },
        );
      }, 400);
    }),
    { dispose: () => timer && clearTimeout(timer) },
  );
}
