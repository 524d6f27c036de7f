// The language server core: wires the open documents (documents.ts), the workspace folders and their
// index (workspace.ts), the .cqlint.json and ring files (config-files.ts) and the settings into one
// Project, and registers the features (features/*.ts), which add the user-visible behaviour.
import {
  DidChangeConfigurationNotification,
  DidChangeWatchedFilesNotification,
  Emitter,
  ErrorCodes,
  FileChangeType,
  ResponseError,
  TextDocumentSyncKind,
  type ClientCapabilities,
  type Connection,
  type DidChangeWatchedFilesParams,
  type InitializeParams,
  type InitializeResult,
  type ServerCapabilities,
} from 'vscode-languageserver/node';
import * as path from 'node:path';
import { Project } from '../core/project';
import { parseCql } from '../../grammar';
import { isCqlFile, isInside } from '../core/io/files';
import type { ChangeReason, Feature, FilesChangedEvent, Logger, ServerContext } from './context';
import * as conv from './conversions';
import { CONFIG_FILE_NAME, ConfigFiles } from './config-files';
import { DOCUMENT_LIMITS, OpenDocuments } from './documents';
import { CORE_OWNED_REGISTRATIONS, describeError, guardConnection, safeHandler } from './safe';
import type { ServerCore } from './server-core';
import { DEFAULT_SETTINGS, ScopedSettings, parseSettings, type CqlintSettings } from './settings';
import { defaultFeatures } from './features';
import { WORKSPACE_LIMITS, Workspace } from './workspace';
import packageJson from '../../package.json';

export { INDEX_STATUS_NOTIFICATION, type IndexStatus } from './workspace';

/** Limits that keep a huge workspace or a runaway file from stalling the server. */
export const LIMITS = { ...WORKSPACE_LIMITS, ...DOCUMENT_LIMITS };

/** Requests about the whole workspace wait for the whole index (workspace diagnostics, workspace symbols). */
const WORKSPACE_REQUEST = /\.onWorkspace(Symbol)?$|\(workspace\//;
/** Requests that show the ring (hover, inlay hints, cqlint/tokenAt) also wait for the ring file to be read. */
const RING_REQUEST = /\.onHover$|\.inlayHint\.on$|\(cqlint\/tokenAt\)$/;

export interface ServerOptions {
  /** Features to register; defaults to features/index.ts. */
  features?: readonly Feature[];
}

export interface ServerHandle {
  /** True once the client sent `shutdown`: the process may then end with exit code 0. */
  shutdownRequested(): boolean;
}

/** Both waits, or the one there is; undefined when there is none (the caller answers at once). */
function bothDone(a: Promise<void> | undefined, b: Promise<void> | undefined): Promise<void> | undefined {
  return a && b ? Promise.all([a, b]).then(() => undefined) : a ?? b;
}

/** Sets up every handler on `connection`; the caller calls `connection.listen()`. */
export function createServer(rawConnection: Connection, options: ServerOptions = {}): ServerHandle {
  const features = options.features ?? defaultFeatures;

  let settings: CqlintSettings = { ...DEFAULT_SETTINGS };
  let clientCapabilities: ClientCapabilities = {};
  let workspaceTrusted = true;
  let initialised = false;
  /** `initialize` is answered once; features must not register twice (each would handle every event). */
  let initializeReceived = false;
  let initializedReceived = false;
  let shutdownReceived = false;
  /** The client asked for `cqlint/indexStatus` notifications (initializationOptions.indexStatus). */
  let wantsIndexStatus = false;

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
    // A request about a document waits for the workspace files that could change its answer (while the
    // workspace is indexed) and for its .cqlint.json and ring to be read; a workspace-wide request for the whole index.
    ready: (label, args) => {
      const uri = (args[0] as { textDocument?: { uri?: unknown } } | null | undefined)?.textDocument?.uri;
      if (typeof uri !== 'string') return WORKSPACE_REQUEST.test(label) ? workspace.whenAllIndexed() : undefined;
      const filePath = uriToPath(uri);
      return bothDone(workspace.whenIndexed(filePath), configFiles.whenReady(filePath, RING_REQUEST.test(label)));
    },
  });

  const filesChanged = new Emitter<FilesChangedEvent>();
  const settingsChanged = new Emitter<CqlintSettings>();
  const initializedEmitter = new Emitter<void>();
  const shutdownEmitter = new Emitter<void>();

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

  const configFiles: ConfigFiles = new ConfigFiles({
    connection,
    log,
    clientCapabilities: () => clientCapabilities,
    workspaceFolders: () => workspace.folders,
    workspaceTrusted: () => workspaceTrusted,
    settingsOf: (filePath) => settingsOfFile(filePath),
    pathToUri: (filePath) => pathToUri(filePath),
    initialised: () => initialised,
    changed: ({ configs }) => {
      if (configs) {
        // Re-applying the options drops the lint results computed under the old configuration.
        applyProjectOptions();
        void configFiles.loadRings(documents.openFiles()); // a config may name another ring
      }
      emit('config', [], [], [], true);
    },
  });
  // The server's configs come from configFiles' cache: linting never reads the disk.
  const project = new Project({ configLookup: (filePath) => configFiles.lookup(filePath) });
  const core: ServerCore = { project, connection, log, guarded, emit };

  const documents: OpenDocuments = new OpenDocuments(core, {
    opened: (filePath, uri) => {
      fetchDocumentScope(filePath, uri);
      // Looked at again: a client that cannot watch files tells nothing of changes made outside the editor.
      void configFiles.discover([filePath], true).then(() => configFiles.loadRings([filePath], true));
    },
    closed: (_filePath, uri) => scoped.delete(uri),
    diskTextOnClose: (filePath, uri) => workspace.diskTextOnClose(filePath, uri),
    forgetIndexed: (filePath) => workspace.forgetIndexed(filePath),
  });
  const workspace: Workspace = new Workspace(core, documents, {
    clientCapabilities: () => clientCapabilities,
    wantsIndexStatus: () => wantsIndexStatus,
    loadConfigsOf: async (files) => {
      await configFiles.discover(files);
      void configFiles.loadRings(files);
    },
    foldersChanged: () => applyProjectOptions(),
  });

  const uriToPath = (uri: string): string => conv.uriToPath(uri);
  const pathToUri = (filePath: string): string => documents.uriOf(filePath) ?? conv.pathToUri(filePath);
  const getText = (uri: string): string | undefined => documents.documents.get(uri)?.getText() ?? project.getText(uriToPath(uri));

  const ctx: ServerContext = {
    connection: featureConnection,
    documents: documents.documents,
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
      return workspace.folders;
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
    ringFor: (filePath) => configFiles.ringFor(filePath),
    safe: (name, handler, fallback) => safeHandler(log.error, name, handler, fallback),
    onDidChangeFiles: (listener) => filesChanged.event(listener),
    onDidChangeSettings: (listener) => settingsChanged.event(listener),
    onInitialized: (listener) => initializedEmitter.event(listener),
    onShutdown: (listener) => shutdownEmitter.event(listener),
    skippedReason: (filePath) => documents.skippedReason(filePath),
    whenIndexed: (filePath) => bothDone(workspace.whenIndexed(filePath), configFiles.whenReady(filePath, false)) ?? Promise.resolve(),
  };

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
    void configFiles.loadRings(documents.openFiles()); // cqlint.ringFile may name another ring
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
    const folder = workspace.folders.filter((f) => isInside(f, filePath)).sort((a, b) => b.length - a.length)[0];
    return folder === undefined ? undefined : conv.pathToUri(folder);
  };
  const settingsOfFile = (filePath: string): CqlintSettings => {
    if (!supportsConfigurationRequest()) return settings;
    const open = documents.uriOf(filePath);
    const folder = folderUriOf(filePath);
    return (open && scoped.peek(open)) || (folder && scoped.peek(folder)) || settings;
  };
  const engineKey = (s: CqlintSettings): string => JSON.stringify([s.targetOverride, s.rules]);
  function applyProjectOptions(): void {
    guarded('setOptions', () => project.setOptions({
      target: settings.targetOverride,
      ruleOverrides: { ...settings.rules },
      // Configs above the workspace folders (a shared temporary folder, say) do not apply.
      configBoundaries: workspace.folders,
      configLookup: (filePath) => configFiles.lookup(filePath),
      forFile: (filePath) => {
        const own = settingsOfFile(filePath);
        return own === settings ? undefined : { target: own.targetOverride, ruleOverrides: own.rules };
      },
    }), undefined);
  }
  /** Fetches every folder's and open document's settings (after a configuration change or at start). */
  const fetchScopes = async (): Promise<void> => {
    if (!supportsConfigurationRequest()) return;
    await Promise.all([...workspace.folders.map((f) => conv.pathToUri(f)), ...documents.openUris()].map((uri) => scoped.get(uri)));
  };
  /** A newly opened document's own settings: re-lint it if they differ from its folder's. */
  const fetchDocumentScope = (filePath: string, uri: string): void => {
    if (!supportsConfigurationRequest() || !initialised) return;
    const before = engineKey(settingsOfFile(filePath));
    void scoped.get(uri).then(() => {
      if (documents.uriOf(filePath) !== uri || engineKey(settingsOfFile(filePath)) === before) return;
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
  // Disk changes and settings changes

  connection.onDidChangeWatchedFiles(async (params: DidChangeWatchedFilesParams) => {
    const cqlFiles: { filePath: string; type: FileChangeType }[] = [];
    const loads: Promise<void>[] = [];
    for (const change of params.changes) {
      const filePath = uriToPath(change.uri);
      if (path.basename(filePath) === CONFIG_FILE_NAME) loads.push(configFiles.configChanged(filePath, change.type === FileChangeType.Deleted));
      else if (configFiles.isRing(filePath)) loads.push(configFiles.ringChanged(filePath));
      else if (isCqlFile(filePath)) cqlFiles.push({ filePath, type: change.type });
    }
    await Promise.all(loads);
    await workspace.filesChanged(cqlFiles);
  });

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
    workspace.folders = foldersOf(params);
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

    workspace.createIndex();
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
            watchers: [{ globPattern: '**/*.cql' }, { globPattern: '**/*.cqlsh' }, { globPattern: `**/${CONFIG_FILE_NAME}` }],
          })
          .catch((error: unknown) => log.warn(`cqlint: cannot register file watchers: ${describeError(error)}`));
      } else {
        log.info('cqlint: the client cannot watch files; changes made outside the editor are seen when files are opened');
      }
      if (clientCapabilities.workspace?.workspaceFolders) {
        connection.workspace.onDidChangeWorkspaceFolders((event) => workspace.foldersChanged(event));
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
      configFiles.start();
      initializedEmitter.fire();
      // Whatever changed before `initialized` sent no event: check all the project holds so far (the
      // documents already open), and again when the index is done.
      emit('scan', project.files(), [], [], true);
      workspace.startIndex();
      // The parser builds its tables on first use (seconds); do it now rather than on the first keystroke.
      if (!workspace.folders.length) setTimeout(() => guarded('parser warm-up', () => parseCql('SELECT * FROM ks.t WHERE id = 1;'), undefined), 0);
    }, undefined),
  );

  connection.onShutdown(() => {
    shutdownReceived = true;
    workspace.stop();
    configFiles.stop();
    shutdownEmitter.fire();
  });

  documents.documents.listen(rawConnection);
  return { shutdownRequested: () => shutdownReceived };
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
