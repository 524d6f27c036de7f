// The language server core: document sync, the workspace scan, file watching, settings and
// .cqlint.json, all feeding one Project. Features (features/*.ts) add the user-visible behaviour.
import {
  DidChangeConfigurationNotification,
  DidChangeWatchedFilesNotification,
  DiagnosticSeverity,
  Emitter,
  ErrorCodes,
  FileChangeType,
  ResponseError,
  TextDocumentSyncKind,
  TextDocuments,
  type ClientCapabilities,
  type Connection,
  type Diagnostic,
  type DidChangeWatchedFilesParams,
  type Disposable,
  type InitializeParams,
  type InitializeResult,
  type ServerCapabilities,
} from 'vscode-languageserver/node';
import { TextDocument } from 'vscode-languageserver-textdocument';
import * as path from 'node:path';
import { Project } from '../core/project';
import { largestStatement } from '../core/budget';
import { parseCql } from '../../grammar';
import { findConfigFor, loadConfigFile } from '../core/config';
import type { ChangeReason, Feature, FilesChangedEvent, Logger, ServerContext } from './context';
import * as conv from './conversions';
import { findCqlFiles, isCqlFile, isInside, readTextFile } from '../core/io/files';
import { CORE_OWNED_REGISTRATIONS, describeError, guardConnection, safeHandler } from './safe';
import { DEFAULT_SETTINGS, ScopedSettings, parseSettings, type CqlintSettings } from './settings';
import { defaultFeatures } from './features';
import { BackgroundIndex, type IndexProgress } from './workspace-index';
import { SampleSummaries } from './sample-summaries';
import packageJson from '../../package.json';

/** Limits that keep a huge workspace or a runaway file from stalling the server. */
export const LIMITS = {
  /** Files loaded from the workspace folders at startup (open documents are not counted). */
  maxWorkspaceFiles: 5000,
  /** Bytes per file read from disk. */
  maxFileBytes: 2 * 1024 * 1024,
  /** Characters per open document analysed; larger documents are kept but not analysed. */
  maxDocumentChars: 4 * 1024 * 1024,
  /**
   * Estimated tokens in one statement (server/core/budget.ts largestStatement). The parser's time and memory
   * grow with a statement's tokens (a 1,000,000-item SELECT: half a minute, 3 GB), so a document holding a
   * larger statement is kept but not analysed. Real statements stay far below (Cassandra refuses batches
   * over 50 kB).
   */
  maxStatementTokens: 50_000,
};

const CONFIG_FILE_NAME = '.cqlint.json';
/** Requests about the whole workspace wait for the whole index (workspace diagnostics, workspace symbols). */
const WORKSPACE_REQUEST = /\.onWorkspace(Symbol)?$|\(workspace\//;
/**
 * Sent while the workspace is indexed, to clients that ask for it with `initializationOptions:
 * { indexStatus: true }`: `{ indexed, total, done }`, the last one with `done: true`.
 */
export const INDEX_STATUS_NOTIFICATION = 'cqlint/indexStatus';
export interface IndexStatus {
  indexed: number;
  total: number;
  done: boolean;
}
/** At most one indexing progress report per interval. */
const PROGRESS_INTERVAL_MS = 250;

export interface ServerOptions {
  /** Features to register; defaults to features/index.ts. */
  features?: readonly Feature[];
}

export interface ServerHandle {
  /** True once the client sent `shutdown`: the process may then end with exit code 0. */
  shutdownRequested(): boolean;
}

/** Sets up every handler on `connection`; the caller calls `connection.listen()`. */
export function createServer(rawConnection: Connection, options: ServerOptions = {}): ServerHandle {
  const features = options.features ?? defaultFeatures;
  const documents = new TextDocuments(TextDocument);
  const project = new Project();

  let settings: CqlintSettings = { ...DEFAULT_SETTINGS };
  let clientCapabilities: ClientCapabilities = {};
  let workspaceFolders: string[] = [];
  let workspaceTrusted = true;
  let initialised = false;
  /** `initialize` is answered once; features must not register twice (each would handle every event). */
  let initializeReceived = false;
  let initializedReceived = false;
  let shutdownReceived = false;
  /** Engine keys that are too large to analyse, with why. */
  const skipped = new Map<string, string>();
  /** Files loaded from disk (not only open): closing their document reverts to the disk text. */
  const diskFiles = new Set<string>();
  /** The URI the client used for each open document, by engine key. */
  const openUris = new Map<string, string>();
  /** The client asked for `cqlint/indexStatus` notifications (initializationOptions.indexStatus). */
  let wantsIndexStatus = false;
  /** The background index of the workspace folders, from `initialized` until it is done. */
  let index: BackgroundIndex | undefined;
  const whenIndexed = (filePath: string): Promise<void> => (index && !index.done ? index.whenReady(filePath) : Promise.resolve());

  const log: Logger = {
    error: (message) => rawConnection.console.error(message),
    warn: (message) => rawConnection.console.warn(message),
    info: (message) => rawConnection.console.info(message),
    debug: (message) => {
      if (settings.trace.server === 'verbose') rawConnection.console.log(message);
    },
  };
  // The core registers through `connection`; features get `featureConnection`, which refuses the
  // registrations the core owns (they are single-slot: a feature would silently replace the core's).
  const connection = guardConnection(rawConnection, log.error);
  const featureConnection = guardConnection(rawConnection, log.error, {
    reserved: CORE_OWNED_REGISTRATIONS,
    // While the workspace is being indexed, a request about a document waits for the files that could
    // change its answer, and a workspace-wide request for the whole index.
    ready: (label, args) => {
      if (!index || index.done) return undefined;
      const uri = (args[0] as { textDocument?: { uri?: unknown } } | null | undefined)?.textDocument?.uri;
      if (typeof uri === 'string') return index.whenReady(uriToPath(uri));
      return WORKSPACE_REQUEST.test(label) ? index.whenAllDone() : undefined;
    },
  });

  const filesChanged = new Emitter<FilesChangedEvent>();
  const settingsChanged = new Emitter<CqlintSettings>();
  const initializedEmitter = new Emitter<void>();
  const shutdownEmitter = new Emitter<void>();

  const uriToPath = (uri: string): string => conv.uriToPath(uri);
  const pathToUri = (filePath: string): string => openUris.get(filePath) ?? conv.pathToUri(filePath);
  const getText = (uri: string): string | undefined => documents.get(uri)?.getText() ?? project.getText(uriToPath(uri));

  // Samples (.cqlint.json `samples`) are read in the background; a new summary re-checks every file.
  const samples = new SampleSummaries({
    project,
    log,
    connection,
    workDoneProgress: () => clientCapabilities.window?.workDoneProgress === true,
    roots: () => workspaceFolders,
    shardCount: () => settings.shardCount,
    changed: () => emit('samples', [], [], [], true),
  });
  /** Sample CSVs are watched too (any .csv: which ones are samples depends on every .cqlint.json). */
  const isSampleFile = (filePath: string): boolean => filePath.toLowerCase().endsWith('.csv');

  const ctx: ServerContext = {
    connection: featureConnection,
    samples,
    documents,
    project,
    get settings() {
      return settings;
    },
    settingsFor: (uri) => (supportsConfigurationRequest() ? scoped.get(uri) : Promise.resolve(settings)),
    settingsOf: (filePath) => settingsOfFile(filePath),
    get clientCapabilities() {
      return clientCapabilities;
    },
    get workspaceFolders() {
      return workspaceFolders;
    },
    get workspaceTrusted() {
      return workspaceTrusted;
    },
    log,
    uriToPath,
    pathToUri,
    toRange: conv.toRange,
    toSourceLocation(uri, position) {
      const text = getText(uri);
      return text === undefined ? undefined : conv.toSourceLocation(text, position);
    },
    toSourceRange(uri, range) {
      const text = getText(uri);
      return text === undefined ? undefined : conv.toSourceRange(text, range);
    },
    getText,
    safe: (name, handler, fallback) => safeHandler(log.error, name, handler, fallback),
    onDidChangeFiles: (listener) => filesChanged.event(listener),
    onDidChangeSettings: (listener) => settingsChanged.event(listener),
    onInitialized: (listener) => initializedEmitter.event(listener),
    onShutdown: (listener) => shutdownEmitter.event(listener),
    skippedReason: (filePath) => skipped.get(filePath),
    whenIndexed,
  };

  /** Runs an engine call; a bug in the engine is logged, never allowed to kill the handler. */
  const guarded = <T>(what: string, fn: () => T, fallback: T): T => {
    try {
      return fn();
    } catch (error) {
      log.error(`cqlint: ${what} failed: ${describeError(error)}`);
      return fallback;
    }
  };

  const dependentsOf = (filePath: string): string[] =>
    project.hasFile(filePath) ? guarded(`dependents(${filePath})`, () => project.dependents(filePath), []) : [];

  const emit = (reason: ChangeReason, changed: string[], removed: string[], dependents: Iterable<string> = [], all = false): void => {
    const direct = new Set([...changed, ...removed]);
    const event: FilesChangedEvent = {
      reason,
      all,
      changed,
      removed,
      dependents: [...new Set(dependents)].filter((file) => !direct.has(file) && project.hasFile(file)),
    };
    if (!initialised) return; // the scan's single event is sent on `initialized`
    log.debug(`cqlint: ${reason}: changed ${changed.length}, removed ${removed.length}, dependents ${event.dependents.length}${all ? ', all' : ''}`);
    filesChanged.fire(event);
    // A change may name a sample or change a sampled table; not while indexing: the index's end checks them all.
    if (!index || index.done) samples.onFilesChanged(event);
  };

  /** Puts text into the project, reporting files whose findings may change as a result. */
  const setText = (filePath: string, text: string): string[] => {
    if (typeof text !== 'string') return []; // a malformed didOpen; nothing to analyse
    const before = dependentsOf(filePath);
    const tooLarge = tooLargeToAnalyse(text);
    if (tooLarge) {
      // Said once per file (not on every keystroke): in the log, and visibly, since every feature goes quiet.
      if (!skipped.has(filePath)) {
        log.warn(`cqlint: ${filePath}: ${tooLarge}; not analysed`);
        connection.window.showWarningMessage(`cqlint: ${path.basename(filePath)} is not analysed: ${tooLarge}`);
      }
      skipped.set(filePath, tooLarge);
      if (project.hasFile(filePath)) guarded(`removeFile(${filePath})`, () => project.removeFile(filePath), undefined);
      return before;
    }
    skipped.delete(filePath);
    guarded(`setFile(${filePath})`, () => project.setFile(filePath, text), undefined);
    return [...before, ...dependentsOf(filePath)];
  };

  const removeText = (filePath: string): string[] => {
    const before = dependentsOf(filePath);
    skipped.delete(filePath);
    if (project.hasFile(filePath)) guarded(`removeFile(${filePath})`, () => project.removeFile(filePath), undefined);
    return before;
  };

  const inWorkspace = (filePath: string): boolean => workspaceFolders.some((folder) => isInside(folder, filePath));

  // -------------------------------------------------------------------------------------------
  // Settings

  const applySettings = (raw: unknown, reason: ChangeReason, scopesChanged = false): void => {
    const problems: string[] = [];
    const next = parseSettings(raw, problems);
    for (const problem of problems) log.warn(`cqlint: settings: ${problem}`);
    const changed = scopesChanged || JSON.stringify(next) !== JSON.stringify(settings);
    settings = next;
    applyProjectOptions();
    if (!changed || !initialised) return;
    settingsChanged.fire(settings);
    emit(reason, [], [], [], true);
  };

  const supportsConfigurationRequest = (): boolean => clientCapabilities.workspace?.configuration === true;

  // Settings are declared per resource: each open document and each workspace folder gets its own,
  // asked for with its URI as scopeUri (a file not open takes its folder's).
  const scoped = new ScopedSettings(
    async (scopeUri) => (await connection.workspace.getConfiguration([{ scopeUri, section: 'cqlint' }]))[0],
    () => settings,
    (problem) => log.warn(`cqlint: settings: ${problem}`),
  );
  const folderUriOf = (filePath: string): string | undefined => {
    const folder = workspaceFolders.filter((f) => isInside(f, filePath)).sort((a, b) => b.length - a.length)[0];
    return folder === undefined ? undefined : conv.pathToUri(folder);
  };
  const settingsOfFile = (filePath: string): CqlintSettings => {
    if (!supportsConfigurationRequest()) return settings;
    const open = openUris.get(filePath);
    const folder = folderUriOf(filePath);
    return (open && scoped.peek(open)) || (folder && scoped.peek(folder)) || settings;
  };
  const engineKey = (s: CqlintSettings): string => JSON.stringify([s.targetOverride, s.rules]);
  function applyProjectOptions(): void {
    guarded('setOptions', () => project.setOptions({
      target: settings.targetOverride,
      ruleOverrides: { ...settings.rules },
      // Configs above the workspace folders (a shared temporary folder, say) do not apply.
      configBoundaries: workspaceFolders,
      sampleSummary: samples.hook,
      forFile: (filePath) => {
        const own = settingsOfFile(filePath);
        return own === settings ? undefined : { target: own.targetOverride, ruleOverrides: own.rules };
      },
    }), undefined);
  }
  /** Fetches every folder's and open document's settings (after a configuration change or at start). */
  const fetchScopes = async (): Promise<void> => {
    if (!supportsConfigurationRequest()) return;
    await Promise.all([...workspaceFolders.map((f) => conv.pathToUri(f)), ...openUris.values()].map((uri) => scoped.get(uri)));
  };
  /** A newly opened document's own settings: re-lint it if they differ from its folder's. */
  const fetchDocumentScope = (filePath: string, uri: string): void => {
    if (!supportsConfigurationRequest() || !initialised) return;
    const before = engineKey(settingsOfFile(filePath));
    void scoped.get(uri).then(() => {
      if (openUris.get(filePath) !== uri || engineKey(settingsOfFile(filePath)) === before) return;
      applyProjectOptions();
      emit('settings', [filePath], [], []);
    });
  };

  const fetchSettings = async (): Promise<unknown> => {
    const [section] = await connection.workspace.getConfiguration([{ section: 'cqlint' }]);
    return section;
  };

  /** Settings passed at startup: `{ cqlint: {...} }`, `{ settings: { cqlint: {...} } }` or the section itself. */
  const settingsFromInitializationOptions = (options: unknown): unknown => {
    if (typeof options !== 'object' || options === null) return undefined;
    const record = options as Record<string, unknown>;
    if (typeof record.cqlint === 'object') return record.cqlint;
    const nested = record.settings as Record<string, unknown> | undefined;
    if (nested && typeof nested === 'object' && typeof nested.cqlint === 'object') return nested.cqlint;
    return record;
  };

  // -------------------------------------------------------------------------------------------
  // .cqlint.json

  const reportedConfigErrors = new Map<string, string>();
  /** Found during initialize, published once initialized (no diagnostics before the initialize result). */
  const pendingConfigDiagnostics = new Map<string, Diagnostic[]>();
  /** Config problems are shown on the .cqlint.json itself (linting goes on with the valid rest or the defaults). */
  const publishConfigErrors = (configPath: string, errors: readonly { message: string }[]): void => {
    const diagnostics = errors.map((error): Diagnostic => ({
      range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
      severity: DiagnosticSeverity.Warning,
      source: 'cqlint',
      code: 'invalid-config',
      message: error.message.startsWith(`${configPath}: `) ? error.message.slice(configPath.length + 2) : error.message,
    }));
    if (!initialised) pendingConfigDiagnostics.set(configPath, diagnostics);
    else void connection.sendDiagnostics({ uri: pathToUri(configPath), diagnostics });
  };
  const checkConfigFile = (configPath: string): void => {
    const result = guarded(`loadConfigFile(${configPath})`, () => loadConfigFile(configPath), { errors: [] as { message: string; key?: string }[] });
    // ConfigError messages already name the file and the key.
    const summary = result.errors.map((error) => error.message).join('; ');
    if (!summary) {
      if (reportedConfigErrors.delete(configPath)) publishConfigErrors(configPath, []);
      return;
    }
    if (reportedConfigErrors.get(configPath) === summary) return;
    reportedConfigErrors.set(configPath, summary);
    publishConfigErrors(configPath, result.errors);
    log.warn(`cqlint: ${summary}`);
    connection.window.showWarningMessage(`cqlint: ${summary}`);
  };

  const checkConfigsOf = (files: Iterable<string>): void => {
    const seenDirs = new Set<string>();
    const configs = new Set<string>();
    for (const file of files) {
      if (!path.isAbsolute(file)) continue;
      const dir = path.dirname(file);
      if (seenDirs.has(dir)) continue;
      seenDirs.add(dir);
      const found = guarded(`findConfigFor(${file})`, () => findConfigFor(file, workspaceFolders), undefined);
      if (found) configs.add(found);
    }
    for (const config of configs) checkConfigFile(config);
  };

  // -------------------------------------------------------------------------------------------
  // Workspace scan

  /** The CQL files of a folder within the file limit; open documents are noted as on disk and left out. */
  const listFolder = async (folder: string, budget: number): Promise<string[]> => {
    if (budget <= 0) {
      log.warn(`cqlint: not scanning ${folder}: the ${LIMITS.maxWorkspaceFiles}-file limit is reached`);
      return [];
    }
    const walk = await findCqlFiles(folder, { maxFiles: budget, roots: workspaceFolders });
    for (const error of walk.errors) log.warn(`cqlint: cannot read folder ${error.path}: ${error.message}`);
    for (const entry of walk.skipped) log.warn(`cqlint: skipping ${entry.path}: ${entry.message}`);
    if (walk.truncated) log.warn(`cqlint: ${folder} has more than ${budget} CQL files; only the first ${budget} are analysed`);
    const files: string[] = [];
    for (const file of walk.files) {
      if (openUris.has(file)) diskFiles.add(file); // the open document's text wins
      else files.push(file);
    }
    return files;
  };

  const readWorkspaceFile = async (file: string): Promise<string | undefined> => {
    const read = await readTextFile(file, { maxBytes: LIMITS.maxFileBytes, roots: workspaceFolders });
    if (read.ok) return read.text;
    log.warn(`cqlint: skipping ${file}: ${read.message}`);
    return undefined;
  };

  /** Loads a folder added while the server runs (the initial folders go through the background index). */
  const scanFolder = async (folder: string): Promise<string[]> => {
    const loaded: string[] = [];
    for (const file of await listFolder(folder, LIMITS.maxWorkspaceFiles - diskFiles.size)) {
      const text = await readWorkspaceFile(file);
      if (text === undefined || openUris.has(file)) continue;
      diskFiles.add(file);
      setText(file, text);
      loaded.push(file);
    }
    log.info(`cqlint: loaded ${loaded.length} CQL file(s) from ${folder}`);
    return loaded;
  };

  /**
   * Progress in the client's UI: the `cqlint/indexStatus` notification for a client that asked for it
   * (the VS Code extension keeps a status bar item with it), else standard work-done progress when the
   * client supports server-initiated progress.
   */
  const indexProgress = async (): Promise<(progress: IndexProgress | 'done') => void> => {
    if (wantsIndexStatus) {
      let lastSent = 0;
      return (progress) => {
        const finished = progress === 'done';
        if (!finished && Date.now() - lastSent < PROGRESS_INTERVAL_MS) return;
        lastSent = Date.now();
        // At the end: every workspace CQL file the project holds, those opened in the editor meanwhile included.
        const inProject = finished ? project.files().filter((file) => isCqlFile(file) && inWorkspace(file)).length : 0;
        const status: IndexStatus = finished ? { indexed: inProject, total: inProject, done: true } : { indexed: progress.done, total: progress.total, done: false };
        void connection.sendNotification(INDEX_STATUS_NOTIFICATION, status).catch(() => undefined);
      };
    }
    if (clientCapabilities.window?.workDoneProgress !== true) return () => undefined;
    const reporter = await connection.window.createWorkDoneProgress().catch((error: unknown) => {
      log.warn(`cqlint: no indexing progress: ${describeError(error)}`);
      return undefined;
    });
    if (!reporter) return () => undefined;
    let begun = false;
    let lastReport = 0;
    return (progress) => {
      if (progress === 'done') {
        if (begun) reporter.done();
        return;
      }
      const message = `${progress.done}/${progress.total}`;
      const percentage = progress.total ? Math.floor((progress.done / progress.total) * 100) : 100;
      if (!begun) {
        begun = true;
        reporter.begin('cqlint: indexing', percentage, message, false);
      } else if (Date.now() - lastReport >= PROGRESS_INTERVAL_MS) {
        reporter.report(percentage, message);
      } else return;
      lastReport = Date.now();
    };
  };

  let report: (progress: IndexProgress | 'done') => void = () => undefined;
  /**
   * The index of the workspace folders. Created when `initialize` is answered, so that requests sent
   * before it runs already wait for it; run by indexWorkspace.
   */
  const createIndex = (): BackgroundIndex =>
    new BackgroundIndex({
      project,
      read: readWorkspaceFile,
      isOpen: (file) => openUris.has(file),
      inWorkspace,
      loaded: (file) => diskFiles.add(file),
      progress: (progress) => report(progress),
    });

  /** Indexes the workspace folders in the background, then re-checks every file once. */
  const indexWorkspace = async (running: BackgroundIndex): Promise<void> => {
    const started = Date.now();
    try {
      await running.run(async () => {
        const files: string[] = [];
        for (const folder of workspaceFolders) files.push(...(await listFolder(folder, LIMITS.maxWorkspaceFiles - files.length - diskFiles.size)));
        report = await indexProgress();
        return files;
      });
    } finally {
      report('done');
    }
    log.info(`cqlint: indexed ${diskFiles.size} CQL file(s) in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    checkConfigsOf(diskFiles);
    emit('scan', project.files(), [], [], true);
  };

  // -------------------------------------------------------------------------------------------
  // Documents

  documents.onDidChangeContent((change) => {
    const uri = change.document.uri;
    const filePath = uriToPath(uri);
    const opened = !openUris.has(filePath);
    openUris.set(filePath, uri);
    if (opened) index?.forget(filePath); // the editor's text wins over what the index read
    const dependents = setText(filePath, change.document.getText());
    emit(opened ? 'open' : 'edit', [filePath], [], dependents);
    if (opened) fetchDocumentScope(filePath, uri);
  });

  documents.onDidClose((event) => {
    const filePath = uriToPath(event.document.uri);
    openUris.delete(filePath);
    scoped.delete(event.document.uri);
    // Revert to what is on disk, if the file is part of the workspace; else it leaves the project.
    void (async () => {
      if (conv.isFileUri(event.document.uri) && (diskFiles.has(filePath) || (inWorkspace(filePath) && isCqlFile(filePath)))) {
        const read = await readTextFile(filePath, { maxBytes: LIMITS.maxFileBytes, roots: workspaceFolders });
        if (openUris.has(filePath)) return; // reopened meanwhile
        if (read.ok) {
          diskFiles.add(filePath);
          emit('close', [filePath], [], setText(filePath, read.text));
          return;
        }
        diskFiles.delete(filePath);
      }
      if (openUris.has(filePath)) return;
      emit('close', [], [filePath], removeText(filePath));
    })().catch((error) => log.error(`cqlint: close ${filePath} failed: ${describeError(error)}`));
  });

  // -------------------------------------------------------------------------------------------
  // Disk changes

  const onWatchedFiles = async (params: DidChangeWatchedFilesParams): Promise<void> => {
    const changed: string[] = [];
    const removed: string[] = [];
    const dependents: string[] = [];
    let configChanged = false;
    for (const change of params.changes) {
      const filePath = uriToPath(change.uri);
      if (path.basename(filePath) === CONFIG_FILE_NAME) {
        configChanged = true;
        if (change.type !== FileChangeType.Deleted) checkConfigFile(filePath);
        else if (reportedConfigErrors.delete(filePath)) publishConfigErrors(filePath, []);
        continue;
      }
      if (isSampleFile(filePath)) {
        if (change.type === FileChangeType.Deleted) samples.forget(filePath);
        samples.refresh();
        continue;
      }
      if (!isCqlFile(filePath) || openUris.has(filePath)) continue; // open documents: the editor's text wins
      index?.forget(filePath); // this change is newer than what the index may have read
      if (change.type === FileChangeType.Deleted) {
        if (!project.hasFile(filePath) && !diskFiles.has(filePath)) continue;
        diskFiles.delete(filePath);
        dependents.push(...removeText(filePath));
        removed.push(filePath);
        continue;
      }
      if (!diskFiles.has(filePath) && diskFiles.size >= LIMITS.maxWorkspaceFiles) continue;
      const read = await readTextFile(filePath, { maxBytes: LIMITS.maxFileBytes, roots: workspaceFolders });
      if (openUris.has(filePath)) continue;
      if (!read.ok) {
        log.warn(`cqlint: skipping ${filePath}: ${read.message}`);
        if (project.hasFile(filePath)) {
          diskFiles.delete(filePath);
          dependents.push(...removeText(filePath));
          removed.push(filePath);
        }
        continue;
      }
      if (project.getText(filePath) === read.text) continue;
      diskFiles.add(filePath);
      dependents.push(...setText(filePath, read.text));
      changed.push(filePath);
    }
    if (configChanged) {
      // Re-applying the options drops whatever configuration the project has cached.
      applyProjectOptions();
      emit('config', changed, removed, dependents, true);
    } else if (changed.length || removed.length) {
      emit('disk', changed, removed, dependents);
    }
  };
  connection.onDidChangeWatchedFiles(onWatchedFiles);

  connection.onDidChangeConfiguration(async (params) => {
    if (supportsConfigurationRequest()) {
      scoped.clear();
      const raw = await fetchSettings();
      await fetchScopes();
      applySettings(raw, 'settings', true);
    } else if (params.settings && typeof params.settings === 'object') {
      const raw = params.settings as Record<string, unknown>;
      applySettings(raw.cqlint !== undefined ? raw.cqlint : raw, 'settings');
    }
  });

  // -------------------------------------------------------------------------------------------
  // Lifecycle

  const initialize = safeHandler(log.error, 'initialize', async (params: InitializeParams): Promise<InitializeResult> => {
    clientCapabilities = params.capabilities ?? {};
    wantsIndexStatus = (params.initializationOptions as { indexStatus?: unknown } | null | undefined)?.indexStatus === true;
    workspaceFolders = foldersOf(params);
    workspaceTrusted = !(isPlainObject(params.initializationOptions) && params.initializationOptions.workspaceTrusted === false);
    applySettings(settingsFromInitializationOptions(params.initializationOptions), 'settings');

    const capabilities: ServerCapabilities = {
      textDocumentSync: { openClose: true, change: TextDocumentSyncKind.Incremental, save: { includeText: false } },
    };
    if (clientCapabilities.workspace?.workspaceFolders) {
      capabilities.workspace = { workspaceFolders: { supported: true, changeNotifications: true } };
    }
    for (const feature of features) {
      try {
        feature.register(ctx);
        const contributed = typeof feature.capabilities === 'function' ? feature.capabilities(ctx) : feature.capabilities;
        if (contributed) mergeCapabilities(capabilities, contributed);
      } catch (error) {
        log.error(`cqlint: feature ${feature.name} failed to register: ${describeError(error)}`);
      }
    }

    if (workspaceFolders.length) index = createIndex();
    return {
      capabilities,
      serverInfo: { name: 'cqlint', version: packageJson.version },
    };
  }, { capabilities: {} });
  rawConnection.onInitialize((params: InitializeParams) => {
    // LSP: "initialize ... may only be sent once"; a second one is answered with an error.
    if (initializeReceived) {
      log.warn('cqlint: a second initialize request was refused');
      return new ResponseError(ErrorCodes.InvalidRequest, 'the server is already initialized');
    }
    initializeReceived = true;
    return initialize(params);
  });

  rawConnection.onInitialized(
    safeHandler(log.error, 'initialized', async () => {
      if (initializedReceived || !initializeReceived) return;
      initializedReceived = true;
      if (clientCapabilities.workspace?.didChangeConfiguration?.dynamicRegistration) {
        await connection.client.register(DidChangeConfigurationNotification.type, { section: 'cqlint' }).catch((error: unknown) => log.warn(`cqlint: cannot register for configuration changes: ${describeError(error)}`));
      }
      if (clientCapabilities.workspace?.didChangeWatchedFiles?.dynamicRegistration) {
        await connection.client
          .register(DidChangeWatchedFilesNotification.type, {
            watchers: [{ globPattern: '**/*.cql' }, { globPattern: '**/*.cqlsh' }, { globPattern: `**/${CONFIG_FILE_NAME}` }, { globPattern: '**/*.csv' }],
          })
          .catch((error: unknown) => log.warn(`cqlint: cannot register file watchers: ${describeError(error)}`));
      } else {
        log.info('cqlint: the client cannot watch files; changes made outside the editor are seen when files are opened');
      }
      if (clientCapabilities.workspace?.workspaceFolders) {
        connection.workspace.onDidChangeWorkspaceFolders(async (event) => {
          const removed: string[] = [];
          const dependents: string[] = [];
          for (const folder of event.removed) {
            const folderPath = uriToPath(folder.uri);
            workspaceFolders = workspaceFolders.filter((existing) => existing !== folderPath);
            for (const file of [...diskFiles]) {
              if (!isInside(folderPath, file) || inWorkspace(file)) continue;
              diskFiles.delete(file);
              if (openUris.has(file)) continue;
              dependents.push(...removeText(file));
              removed.push(file);
            }
          }
          const added: string[] = [];
          for (const folder of event.added) {
            const folderPath = uriToPath(folder.uri);
            if (!conv.isFileUri(folder.uri) || workspaceFolders.includes(folderPath)) continue;
            workspaceFolders = [...workspaceFolders, folderPath];
            added.push(...(await scanFolder(folderPath)));
          }
          applyProjectOptions();
          checkConfigsOf(added);
          emit('folders', added, removed, dependents, added.length > 0);
        });
      }
      // Settings from the client proper (initializationOptions were only a first guess). Applied
      // before `initialised` so that no event fires: the scan event below covers every file.
      if (supportsConfigurationRequest()) {
        const raw = await fetchSettings().catch((error: unknown) => {
          log.warn(`cqlint: cannot read settings: ${describeError(error)}`);
          return undefined;
        });
        if (raw !== undefined && raw !== null) applySettings(raw, 'settings');
        await fetchScopes().catch((error: unknown) => log.warn(`cqlint: cannot read folder settings: ${describeError(error)}`));
        applyProjectOptions();
      }
      initialised = true;
      for (const [configPath, diagnostics] of pendingConfigDiagnostics) void connection.sendDiagnostics({ uri: pathToUri(configPath), diagnostics });
      pendingConfigDiagnostics.clear();
      initializedEmitter.fire();
      // Whatever changed before `initialized` sent no event: check all the project holds so far (the
      // documents already open), and again when the index is done.
      emit('scan', project.files(), [], [], true);
      if (index) void indexWorkspace(index).catch((error) => log.error(`cqlint: indexing the workspace failed: ${describeError(error)}`));
      else if (wantsIndexStatus) (await indexProgress())('done'); // nothing to index: say so, the client waits for it
      // The parser builds its tables on first use (seconds); do it now rather than on the first keystroke.
      if (!workspaceFolders.length) setTimeout(() => guarded('parser warm-up', () => parseCql('SELECT * FROM ks.t WHERE id = 1;'), undefined), 0);
    }, undefined),
  );

  connection.onShutdown(() => {
    shutdownReceived = true;
    index?.cancel();
    samples.stop();
    shutdownEmitter.fire();
  });

  documents.listen(rawConnection);
  return { shutdownRequested: () => shutdownReceived };
}

/** Why a text is too large to analyse, or undefined when it is not. */
function tooLargeToAnalyse(text: string): string | undefined {
  if (text.length > LIMITS.maxDocumentChars) return `file too large to analyse (${text.length} characters, limit ${LIMITS.maxDocumentChars})`;
  // A statement cannot hold more tokens than characters: short texts need no scan.
  if (text.length <= LIMITS.maxStatementTokens) return undefined;
  const largest = largestStatement(text);
  if (largest.tokens <= LIMITS.maxStatementTokens) return undefined;
  return `statement at line ${largest.line} too large to analyse (about ${largest.tokens} tokens, limit ${LIMITS.maxStatementTokens})`;
}

function foldersOf(params: InitializeParams): string[] {
  const uris: string[] = [];
  if (params.workspaceFolders && params.workspaceFolders.length) uris.push(...params.workspaceFolders.map((folder) => folder.uri));
  else if (params.rootUri) uris.push(params.rootUri);
  else if (params.rootPath) uris.push(conv.pathToUri(path.resolve(params.rootPath)));
  return [...new Set(uris.filter(conv.isFileUri).map(conv.uriToPath))];
}

/** Merges a feature's capabilities: top-level keys are set, plain objects one level deep are combined. */
export function mergeCapabilities(target: ServerCapabilities, source: Partial<ServerCapabilities>): void {
  const out = target as Record<string, unknown>;
  for (const [key, value] of Object.entries(source)) {
    const existing = out[key];
    if (isPlainObject(existing) && isPlainObject(value)) out[key] = { ...existing, ...value };
    else out[key] = value;
  }
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
