// The VS Code side of cqlint: starts the bundled language server and registers three commands.
// All language smarts live in the server (dist/server.js); this file only wires VS Code to it,
// the way Microsoft's lsp-sample does.
import * as fs from 'node:fs';
import * as vscode from 'vscode';
import {
  LanguageClient,
  TransportKind,
  type LanguageClientOptions,
  type ServerOptions,
} from 'vscode-languageclient/node';
import { registerPartitionReport } from './partition-report';

import {
  SHOW_PARTITION_REPORT_COMMAND,
  indexStatusNotification,
  tokenAtRequest,
  type IndexStatus,
  type InitializationOptions,
  type ParamsOf,
  type ResultOf,
} from '../server/lsp/lsp-extensions';

/** What `activate` returns: lets tests (and other extensions) wait for the server to be up. */
export interface CqlintApi {
  /** Resolves once the language server has started (rejects if it could not start). */
  ready(): Promise<void>;
  /** Resolves with the last status once the server has indexed the workspace. */
  indexed(): Promise<IndexStatus>;
}

/** VS Code's ids of the languages whose files hold CQL in their string literals (see server/core/embedded). */
const HOST_LANGUAGE_IDS = [
  'java',
  'kotlin',
  'python',
  'go',
  'javascript',
  'javascriptreact',
  'typescript',
  'typescriptreact',
  'csharp',
];

let client: LanguageClient | undefined;
let starting: Promise<void> | undefined;

export function activate(context: vscode.ExtensionContext): CqlintApi {
  const output = vscode.window.createOutputChannel('cqlint', { log: true });
  context.subscriptions.push(output);

  const serverModule = context.asAbsolutePath('dist/server.js');
  const serverOptions: ServerOptions = {
    run: { module: serverModule, transport: TransportKind.ipc },
    debug: {
      module: serverModule,
      transport: TransportKind.ipc,
      options: { execArgv: ['--nolazy', '--inspect=6009'] },
    },
  };
  const clientOptions: LanguageClientOptions = {
    documentSelector: [
      { scheme: 'file', language: 'cql' },
      { scheme: 'untitled', language: 'cql' },
      // Application code, for the CQL in its string literals (the server answers nothing outside it, and registers
      // completion, formatting and the other CQL-only features for CQL documents alone).
      ...HOST_LANGUAGE_IDS.map((language) => ({ scheme: 'file', language })),
    ],
    synchronize: {
      // The server re-checks open files when schema files or the project config change on disk (it registers the
      // watchers of application code itself).
      fileEvents: [
        vscode.workspace.createFileSystemWatcher('**/*.cql'),
        vscode.workspace.createFileSystemWatcher('**/.cqlint.json'),
        vscode.workspace.createFileSystemWatcher('**/.cqlintignore'),
      ],
    },
    outputChannel: output,
    // The server reads nothing outside an untrusted workspace (see package.json untrustedWorkspaces).
    initializationOptions: {
      indexStatus: true,
      workspaceTrusted: vscode.workspace.isTrusted,
    } satisfies InitializationOptions,
    // The hover of a partition finding links to its report: trust that one command in server markdown.
    markdown: { isTrusted: { enabledCommands: [SHOW_PARTITION_REPORT_COMMAND] } },
  };

  // Indexing status in the status bar: "cqlint: indexing 812/2000", then a quiet check mark.
  const status = vscode.window.createStatusBarItem('cqlint.indexStatus', vscode.StatusBarAlignment.Left, 0);
  status.name = 'cqlint';
  status.command = 'cqlint.showOutput';
  context.subscriptions.push(status);
  let indexedStatus: IndexStatus | undefined;
  const indexedWaiters: ((status: IndexStatus) => void)[] = [];
  const showIndexStatus = (next: IndexStatus): void => {
    if (next.done) {
      status.text = '$(check) cqlint';
      status.tooltip = `cqlint: ${next.indexed} CQL file(s) indexed`;
      indexedStatus = next;
      for (const resolve of indexedWaiters.splice(0)) resolve(next);
    } else {
      status.text = `$(sync~spin) cqlint: indexing ${next.indexed}/${next.total}`;
      status.tooltip = 'cqlint is reading the workspace; diagnostics of open files come first';
    }
    status.show();
  };

  function start(): Promise<void> {
    if (!fs.existsSync(serverModule)) {
      const message = `cqlint: the language server is missing (${serverModule}). Run "npm run build".`;
      output.appendLine(message);
      void vscode.window.showErrorMessage(message);
      starting = Promise.reject(new Error(message));
      starting.catch(() => undefined);
      return starting;
    }
    client = new LanguageClient('cqlint', 'cqlint', serverOptions, clientOptions);
    indexedStatus = undefined;
    client.onNotification(indexStatusNotification.method, showIndexStatus);
    starting = client.start().catch((error: unknown) => {
      output.appendLine(`cqlint: the language server failed to start: ${String(error)}`);
      throw error;
    });
    starting.catch(() => undefined);
    return starting;
  }

  context.subscriptions.push(
    vscode.commands.registerCommand('cqlint.restartServer', async () => {
      if (client) {
        output.appendLine('cqlint: restarting the language server');
        starting = client.restart();
        await starting;
      } else {
        await start();
      }
    }),
    vscode.commands.registerCommand('cqlint.showOutput', () => output.show(true)),
    vscode.commands.registerCommand('cqlint.showTokenAtCursor', showTokenAtCursor),
  );

  // Granting trust lifts the server's restrictions; it learns of trust at start-up.
  context.subscriptions.push(vscode.workspace.onDidGrantWorkspaceTrust(() => void client?.restart()));

  registerPartitionReport(context, () => client);
  void start();
  return {
    ready: () => starting ?? Promise.reject(new Error('cqlint: not started')),
    indexed: () =>
      indexedStatus ? Promise.resolve(indexedStatus) : new Promise((resolve) => indexedWaiters.push(resolve)),
  };
}

/**
 * Asks the server for the token of the partition-key literal under the cursor and shows it.
 * Returns the server's answer (or null) so that tests and keybindings can use it.
 */
async function showTokenAtCursor(): Promise<ResultOf<typeof tokenAtRequest>> {
  const editor = vscode.window.activeTextEditor;
  if (!editor || editor.document.languageId !== 'cql') {
    void vscode.window.showInformationMessage('cqlint: open a CQL file and put the cursor on a partition key value.');
    return null;
  }
  if (!client || !client.isRunning()) {
    void vscode.window.showWarningMessage('cqlint: the language server is not running.');
    return null;
  }
  const params: ParamsOf<typeof tokenAtRequest> = {
    textDocument: { uri: client.code2ProtocolConverter.asUri(editor.document.uri) },
    position: client.code2ProtocolConverter.asPosition(editor.selection.active),
  };
  let result: ResultOf<typeof tokenAtRequest>;
  try {
    result = await client.sendRequest<ResultOf<typeof tokenAtRequest>>(tokenAtRequest.method, params);
  } catch (error) {
    client.error(`${tokenAtRequest.method} failed`, error);
    void vscode.window.showWarningMessage(
      `cqlint: could not compute the token (${error instanceof Error ? error.message : String(error)}).`,
    );
    return null;
  }
  if (!result || typeof result.markdown !== 'string' || result.markdown.trim() === '') {
    void vscode.window.showInformationMessage('cqlint: no partition key value under the cursor.');
    return null;
  }
  // Notifications cannot render markdown: show it as plain text, and keep the full text in the log.
  void vscode.window.showInformationMessage(markdownToPlainText(result.markdown));
  return result;
}

/** Strips the markdown markup a notification would show literally (code ticks, emphasis, fences). */
function markdownToPlainText(markdown: string): string {
  return markdown
    .replace(/```[a-z]*\n?/gi, '')
    .replace(/`([^`]*)`/g, '$1')
    .replace(/\*\*([^*]*)\*\*/g, '$1')
    .replace(/(^|\s)[*_]([^*_\n]+)[*_](?=\s|$)/g, '$1$2')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\s*\n+\s*/g, ' ')
    .trim();
}

export async function deactivate(): Promise<void> {
  if (client) await client.stop();
  client = undefined;
}
