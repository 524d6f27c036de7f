// A scripted client for the cqlint language server, shared by the tests and the benchmarks: spawns
// `node --import tsx server/lsp/main.ts --stdio` and speaks JSON-RPC to it over the child's stdio, the
// way an editor would.
//
//   const client = await startServer();
//   await client.initialize(capabilities.push);                 // or capabilities.pull, or your own
//   await client.open(uri, 'SELECT * FROM t;');
//   const diagnostics = await client.waitForDiagnostics(uri);    // push clients
//   const report = await client.pullDiagnostics(uri);           // pull clients
//   const hover = await client.request('textDocument/hover', { textDocument: { uri }, position });
//   await client.shutdown();                                     // always (use t.after / finally)
//
// Server -> client requests are answered like VS Code would: workspace/configuration from
// `client.settings`, client/registerCapability is recorded, workspace/diagnostic/refresh is counted.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import * as path from 'node:path';
import { fileUri } from './temp-workspace';
import {
  createMessageConnection,
  StreamMessageReader,
  StreamMessageWriter,
  type MessageConnection,
} from 'vscode-jsonrpc/node';
import type {
  ClientCapabilities,
  Diagnostic,
  DocumentDiagnosticReport,
  FileEvent,
  InitializeResult,
  PublishDiagnosticsParams,
  Registration,
  TextDocumentContentChangeEvent,
  WorkspaceDiagnosticReport,
} from 'vscode-languageserver-protocol';
import { TextDocument } from 'vscode-languageserver-textdocument';

export const projectRoot = path.resolve(__dirname, '..');

/** Client capability presets. */
export const capabilities = {
  /** A client without pull diagnostics (older Neovim, Helix, Sublime LSP...): the server must push. */
  push: {
    textDocument: {
      synchronization: { dynamicRegistration: false, didSave: true },
      publishDiagnostics: {
        relatedInformation: true,
        versionSupport: true,
        codeDescriptionSupport: true,
        dataSupport: true,
      },
    },
    workspace: {
      configuration: true,
      didChangeConfiguration: { dynamicRegistration: true },
      didChangeWatchedFiles: { dynamicRegistration: true },
      workspaceFolders: true,
    },
  } satisfies ClientCapabilities,
  /** A VS Code-like client: pull diagnostics with refresh support. */
  pull: {
    textDocument: {
      synchronization: { dynamicRegistration: false, didSave: true },
      publishDiagnostics: {
        relatedInformation: true,
        versionSupport: true,
        codeDescriptionSupport: true,
        dataSupport: true,
      },
      diagnostic: { dynamicRegistration: false, relatedDocumentSupport: false },
    },
    workspace: {
      configuration: true,
      didChangeConfiguration: { dynamicRegistration: true },
      didChangeWatchedFiles: { dynamicRegistration: true },
      workspaceFolders: true,
      diagnostics: { refreshSupport: true },
    },
  } satisfies ClientCapabilities,
  /** A minimal client: no configuration requests, no watchers, no related information. */
  minimal: {
    textDocument: { publishDiagnostics: {} },
    workspace: {},
  } satisfies ClientCapabilities,
};

interface StartOptions {
  /** Extra arguments after `--stdio`. */
  args?: string[];
  env?: NodeJS.ProcessEnv;
}

interface InitializeOptions {
  /** Absolute paths of workspace folders. */
  workspaceFolders?: string[];
  initializationOptions?: unknown;
  /** The `cqlint` section returned to workspace/configuration requests (also settable later). */
  settings?: Record<string, unknown>;
}

interface Publication {
  params: PublishDiagnosticsParams;
  /** `actions` when it arrived: lets waitForDiagnostics ignore publications older than the last action. */
  afterAction: number;
}

const DEFAULT_TIMEOUT_MS = 15_000;

/** What the client needs of the server's process: a child process, or a stand-in for a server run in-process. */
export interface ServerProcess {
  readonly stdin: NodeJS.WritableStream;
  readonly stdout: NodeJS.ReadableStream;
  readonly stderr: NodeJS.ReadableStream;
  on(event: 'exit', listener: (code: number | null) => void): unknown;
  kill(signal?: NodeJS.Signals): unknown;
}

export class LspTestClient<P extends ServerProcess = ServerProcess> {
  readonly connection: MessageConnection;
  /**
   * Sent as `processId` in initialize: the server ends when that process does. Null for a server in
   * this process (its check would keep the process alive).
   */
  protected parentProcessId: number | null = process.pid;
  /** The `cqlint` settings section the client returns to workspace/configuration. */
  settings: Record<string, unknown> = {};
  /**
   * Settings of a workspace folder (by folder URI) or a document (by its URI), returned instead of
   * `settings` to requests whose scopeUri is, or is inside, that URI: the longest match wins.
   */
  scopedSettings: Record<string, Record<string, unknown>> = {};
  /** The scopeUri of every workspace/configuration item asked for (undefined: no scope). */
  readonly configurationScopes: (string | undefined)[] = [];
  /** Every client/registerCapability registration, in order. */
  readonly registrations: Registration[] = [];
  /** window/logMessage and window/showMessage texts, in order. */
  readonly logs: string[] = [];
  /** How many workspace/diagnostic/refresh requests the server sent. */
  refreshCount = 0;
  /** workspace/inlayHint/refresh requests received. */
  inlayHintRefreshCount = 0;
  /** Everything the server wrote to stderr. */
  stderr = '';
  /** Every `$/progress` notification (work-done progress), in order. */
  readonly progress: {
    token: string | number;
    value: { kind: string; title?: string; message?: string; percentage?: number };
  }[] = [];

  /** The client's copy of each open document (what it sent the server). */
  private readonly documents = new Map<string, TextDocument>();
  private readonly published = new Map<string, Publication[]>();
  private readonly waiters = new Set<() => void>();
  private actions = 0;
  private exited = false;
  private readonly exitPromise: Promise<number | null>;

  constructor(readonly process: P) {
    this.connection = createMessageConnection(
      new StreamMessageReader(process.stdout),
      new StreamMessageWriter(process.stdin),
    );
    process.stderr.on('data', (chunk: Buffer) => {
      this.stderr += chunk.toString();
    });
    this.exitPromise = new Promise((resolve) => {
      process.on('exit', (code) => {
        this.exited = true;
        this.notifyWaiters();
        resolve(code);
      });
    });
    this.connection.onNotification('textDocument/publishDiagnostics', (params: PublishDiagnosticsParams) => {
      const list = this.published.get(params.uri) ?? [];
      list.push({ params, afterAction: this.actions });
      this.published.set(params.uri, list);
      this.notifyWaiters();
    });
    this.connection.onNotification('window/logMessage', (params: { message: string }) => {
      this.logs.push(params.message);
      this.notifyWaiters();
    });
    this.connection.onNotification('window/showMessage', (params: { message: string }) => {
      this.logs.push(params.message);
      this.notifyWaiters();
    });
    this.connection.onRequest(
      'workspace/configuration',
      (params: { items: { section?: string; scopeUri?: string }[] }) =>
        params.items.map((item) => {
          this.configurationScopes.push(item.scopeUri);
          if (item.section !== 'cqlint' && item.section !== undefined) return null;
          const scope = Object.keys(this.scopedSettings)
            .filter((uri) => item.scopeUri === uri || item.scopeUri?.startsWith(`${uri}/`))
            .sort((a, b) => b.length - a.length)[0];
          return scope === undefined ? this.settings : this.scopedSettings[scope];
        }),
    );
    this.connection.onRequest('client/registerCapability', (params: { registrations: Registration[] }) => {
      this.registrations.push(...params.registrations);
      this.notifyWaiters();
      return null;
    });
    this.connection.onRequest('client/unregisterCapability', () => null);
    this.connection.onRequest('workspace/diagnostic/refresh', () => {
      this.refreshCount++;
      this.notifyWaiters();
      return null;
    });
    this.connection.onRequest('workspace/inlayHint/refresh', () => {
      this.inlayHintRefreshCount++;
      this.notifyWaiters();
      return null;
    });
    this.connection.onRequest('window/workDoneProgress/create', () => null);
    this.connection.onRequest('window/showMessageRequest', () => null);
    this.connection.onNotification('telemetry/event', () => undefined);
    this.connection.onNotification(
      '$/progress',
      (params: {
        token: string | number;
        value: { kind: string; title?: string; message?: string; percentage?: number };
      }) => {
        this.progress.push(params);
        this.notifyWaiters();
      },
    );
    this.connection.listen();
  }

  get alive(): boolean {
    return !this.exited;
  }

  /** initialize + initialized. Resolves with the server's InitializeResult. */
  async initialize(
    clientCapabilities: ClientCapabilities = capabilities.push,
    options: InitializeOptions = {},
  ): Promise<InitializeResult> {
    if (options.settings) this.settings = options.settings;
    const folders = (options.workspaceFolders ?? []).map((folder) => ({
      uri: fileUri(folder),
      name: path.basename(folder),
    }));
    const result = (await this.request('initialize', {
      processId: this.parentProcessId,
      clientInfo: { name: 'cqlint-test-harness' },
      rootUri: folders[0]?.uri ?? null,
      workspaceFolders: folders.length ? folders : null,
      capabilities: clientCapabilities,
      initializationOptions: options.initializationOptions,
    })) as InitializeResult;
    await this.notify('initialized', {});
    return result;
  }

  async open(uri: string, text: string, languageId = 'cql', version = 1): Promise<void> {
    this.actions++;
    this.documents.set(uri, TextDocument.create(uri, languageId, version, text));
    await this.notify('textDocument/didOpen', { textDocument: { uri, languageId, version, text } });
  }

  /**
   * Changes an open document: a string replaces the whole text; an array of LSP content changes is
   * sent as is (incremental sync), and the harness applies it to its own copy as well.
   */
  async change(uri: string, change: string | TextDocumentContentChangeEvent[]): Promise<void> {
    const document = this.documents.get(uri);
    if (!document) throw new Error(`change: ${uri} is not open`);
    this.actions++;
    const contentChanges = typeof change === 'string' ? [{ text: change }] : change;
    const changed = TextDocument.update(document, contentChanges, document.version + 1);
    this.documents.set(uri, changed);
    await this.notify('textDocument/didChange', { textDocument: { uri, version: changed.version }, contentChanges });
  }

  async close(uri: string): Promise<void> {
    this.actions++;
    this.documents.delete(uri);
    await this.notify('textDocument/didClose', { textDocument: { uri } });
  }

  /** The harness's copy of an open document's text (after the edits sent). */
  text(uri: string): string | undefined {
    return this.documents.get(uri)?.getText();
  }

  /** Replaces the settings and tells the server (didChangeConfiguration; it then asks for them). */
  async changeSettings(settings: Record<string, unknown>): Promise<void> {
    this.actions++;
    this.settings = settings;
    await this.notify('workspace/didChangeConfiguration', { settings: { cqlint: settings } });
  }

  /** workspace/didChangeWatchedFiles. type: 1 created, 2 changed, 3 deleted. */
  async filesChanged(changes: FileEvent[]): Promise<void> {
    this.actions++;
    await this.notify('workspace/didChangeWatchedFiles', { changes });
  }

  /**
   * Resolves with diagnostics published for `uri`.
   * - With `predicate`: the latest publication that satisfies it (checked against what already
   *   arrived first), for waiting until a cross-file change shows.
   * - Without: the first publication after the last harness action (open/change/close/settings/
   *   files) that carries the document's current version (when the server sends versions).
   */
  async waitForDiagnostics(
    uri: string,
    predicate?: (diagnostics: Diagnostic[]) => boolean,
    timeoutMs = DEFAULT_TIMEOUT_MS,
  ): Promise<Diagnostic[]> {
    const since = this.actions;
    const pick = (): Diagnostic[] | undefined => {
      const list = this.published.get(uri) ?? [];
      if (predicate) {
        const last = list[list.length - 1];
        return last && predicate(last.params.diagnostics) ? last.params.diagnostics : undefined;
      }
      const version = this.documents.get(uri)?.version;
      for (const publication of list) {
        if (publication.afterAction < since) continue;
        if (version !== undefined && publication.params.version !== undefined && publication.params.version !== version)
          continue;
        return publication.params.diagnostics;
      }
      return undefined;
    };
    return this.waitFor(`diagnostics for ${uri}`, pick, timeoutMs);
  }

  /** The last diagnostics published for `uri`, if any. */
  lastDiagnostics(uri: string): Diagnostic[] | undefined {
    const list = this.published.get(uri);
    return list?.[list.length - 1]?.params.diagnostics;
  }

  /** Every publication for `uri` so far (oldest first). */
  publications(uri: string): PublishDiagnosticsParams[] {
    return (this.published.get(uri) ?? []).map((publication) => publication.params);
  }

  /** textDocument/diagnostic (pull clients). */
  pullDiagnostics(uri: string, previousResultId?: string): Promise<DocumentDiagnosticReport> {
    return this.request('textDocument/diagnostic', {
      textDocument: { uri },
      previousResultId,
    }) as Promise<DocumentDiagnosticReport>;
  }

  /** workspace/diagnostic (pull clients). */
  workspaceDiagnostics(previousResultIds: { uri: string; value: string }[] = []): Promise<WorkspaceDiagnosticReport> {
    return this.request('workspace/diagnostic', { previousResultIds }) as Promise<WorkspaceDiagnosticReport>;
  }
  /**
   * Resolves once the server has indexed its workspace folders: workspace/diagnostic (pull clients) is
   * answered only then. While the index runs, an opened document's first report may hold only its
   * file-local findings (the rest follows with a workspace/diagnostic/refresh).
   */
  async whenIndexed(): Promise<void> {
    await this.workspaceDiagnostics();
  }

  /** Resolves once the server sent more than `count` workspace/diagnostic/refresh requests. */
  waitForRefresh(count: number, timeoutMs = DEFAULT_TIMEOUT_MS): Promise<number> {
    return this.waitFor(
      'workspace/diagnostic/refresh',
      () => (this.refreshCount > count ? this.refreshCount : undefined),
      timeoutMs,
    );
  }

  /** Resolves once the server sent more than `count` workspace/inlayHint/refresh requests. */
  waitForInlayHintRefresh(count: number, timeoutMs = DEFAULT_TIMEOUT_MS): Promise<number> {
    return this.waitFor(
      'workspace/inlayHint/refresh',
      () => (this.inlayHintRefreshCount > count ? this.inlayHintRefreshCount : undefined),
      timeoutMs,
    );
  }

  /**
   * Pulls `uri` on each workspace/diagnostic/refresh after the first `refreshes`, as VS Code does, until the
   * report differs from `previousResultId` (a refresh asked for before a change may come after it, and
   * find the report unchanged): resolves with that report.
   */
  async pullOnRefresh(
    uri: string,
    previousResultId: string | undefined,
    refreshes: number,
    timeoutMs = DEFAULT_TIMEOUT_MS,
  ): Promise<DocumentDiagnosticReport> {
    for (let seen = refreshes; ;) {
      seen = await this.waitForRefresh(seen, timeoutMs);
      const report = await this.pullDiagnostics(uri, previousResultId);
      if (report.kind !== 'unchanged') return report;
    }
  }

  /** Runs `action` (a change the server applies asynchronously) and resolves once the server asked for a workspace/diagnostic/refresh after it. */
  async refreshesDiagnosticsAfter(action: () => Promise<unknown>, timeoutMs = DEFAULT_TIMEOUT_MS): Promise<void> {
    const count = this.refreshCount;
    await action();
    await this.waitForRefresh(count, timeoutMs);
  }

  /** Runs `action` and resolves once the server asked for a workspace/inlayHint/refresh after it (hints, ring and settings changes). */
  async refreshesInlayHintsAfter(action: () => Promise<unknown>, timeoutMs = DEFAULT_TIMEOUT_MS): Promise<void> {
    const count = this.inlayHintRefreshCount;
    await action();
    await this.waitForInlayHintRefresh(count, timeoutMs);
  }

  /** Resolves once a work-done progress titled like `title` has ended (its `end` notification). */
  waitForProgressEnd(title: RegExp, timeoutMs = DEFAULT_TIMEOUT_MS): Promise<void> {
    return this.waitFor(
      `the end of progress ${title}`,
      () => {
        const begin = this.progress.find((p) => p.value.kind === 'begin' && title.test(p.value.title ?? ''));
        return begin && this.progress.some((p) => p.token === begin.token && p.value.kind === 'end') ? true : undefined;
      },
      timeoutMs,
    ).then(() => undefined);
  }

  /** Resolves once a registration for `method` (e.g. workspace/didChangeWatchedFiles) arrived. */
  waitForRegistration(method: string, timeoutMs = DEFAULT_TIMEOUT_MS): Promise<Registration> {
    return this.waitFor(
      `registration of ${method}`,
      () => this.registrations.find((registration) => registration.method === method),
      timeoutMs,
    );
  }

  /** Resolves once a log/show message matching `pattern` arrived. */
  waitForLog(pattern: RegExp, timeoutMs = DEFAULT_TIMEOUT_MS): Promise<string> {
    return this.waitFor(
      `a log line matching ${pattern}`,
      () => this.logs.find((line) => pattern.test(line)),
      timeoutMs,
    );
  }

  request(method: string, params?: unknown): Promise<unknown> {
    return this.connection.sendRequest(method, params);
  }

  notify(method: string, params?: unknown): Promise<void> {
    return this.connection.sendNotification(method, params);
  }

  /** shutdown + exit; kills the process if it does not exit within a few seconds. Safe to call twice. */
  async shutdown(): Promise<number | null> {
    if (this.exited) return this.exitPromise;
    try {
      await withTimeout(this.request('shutdown'), 5000, 'shutdown');
      await this.notify('exit');
    } catch {
      // fall through to the kill below
    }
    const timer = setTimeout(() => this.process.kill('SIGKILL'), 5000);
    const code = await this.exitPromise;
    clearTimeout(timer);
    this.connection.dispose();
    return code;
  }

  private waitFor<T>(what: string, pick: () => T | undefined, timeoutMs: number): Promise<T> {
    return new Promise((resolve, reject) => {
      const check = (): boolean => {
        const value = pick();
        if (value !== undefined) {
          cleanup();
          resolve(value);
          return true;
        }
        if (this.exited) {
          cleanup();
          reject(new Error(`server exited while waiting for ${what}; stderr:\n${this.stderr}`));
          return true;
        }
        return false;
      };
      const timer = setTimeout(() => {
        cleanup();
        reject(new Error(`timed out after ${timeoutMs} ms waiting for ${what}`));
      }, timeoutMs);
      const waiter = (): void => void check();
      const cleanup = (): void => {
        clearTimeout(timer);
        this.waiters.delete(waiter);
      };
      if (!check()) this.waiters.add(waiter);
    });
  }

  private notifyWaiters(): void {
    for (const waiter of [...this.waiters]) waiter();
  }
}

/** A client of a server in a child process (its pid, exit code and memory are the test's to look at). */
export type SpawnedLspClient = LspTestClient<ChildProcessWithoutNullStreams>;

/** Spawns the server from the TypeScript sources (cwd: the project root). */
export async function startServer(options: StartOptions = {}): Promise<SpawnedLspClient> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', path.join('server', 'lsp', 'main.ts'), '--stdio', ...(options.args ?? [])],
    {
      cwd: projectRoot,
      env: { ...process.env, ...options.env },
      stdio: ['pipe', 'pipe', 'pipe'],
    },
  );
  return new LspTestClient(child);
}

/** Spawns any command that speaks LSP on stdio (e.g. `node bin/cqlint-language-server.js --stdio`). */
export function startServerCommand(command: string, args: string[], options: { cwd?: string } = {}): SpawnedLspClient {
  const child = spawn(command, args, { cwd: options.cwd ?? projectRoot, stdio: ['pipe', 'pipe', 'pipe'] });
  return new LspTestClient(child);
}

export { fileUri, tempWorkspace, type TempWorkspace } from './temp-workspace';

function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${what} timed out`)), ms);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}
