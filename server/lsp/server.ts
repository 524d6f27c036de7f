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
import { isCqlFile } from '../core/io/files';
import { CONFIG_FILE_NAME } from '../core/config';
import type { ChangeReason, Feature, FilesChangedEvent, Logger, ServerContext } from './context';
import * as conv from './conversions';
import { ConfigFiles } from './config-files';
import { OpenDocuments } from './documents';
import { CORE_OWNED_REGISTRATIONS, describeError, guardConnection, safeHandler } from './safe';
import type { ServerCore } from './server-core';
import type { CqlintSettings } from './settings';
import { ClientSettings } from './client-settings';
import type { InitializationOptions } from './lsp-extensions';
import { defaultFeatures } from './features';
import { Workspace } from './workspace';
import { SampleSummaries } from './sample-summaries';
import { EvidenceFiles } from './evidence-files';
import { LineIndex } from '../../grammar/line-index';
import packageJson from '../../package.json';

/** Requests about the whole workspace wait for the whole index (workspace diagnostics, workspace symbols). */
const WORKSPACE_REQUEST = /\.onWorkspace(Symbol)?$|\(workspace\//;
/**
 * Requests that wait by themselves: textDocument/diagnostic answers an opened document's file-local findings
 * while the index runs (features/diagnostics.ts, Stages).
 */
const SELF_PACED_REQUEST = /\.languages\.diagnostics\.on$/;
/** Requests that show the ring (hover, inlay hints, cqlint/tokenAt) also wait for the ring file to be read. */
const RING_REQUEST = /\.onHover$|\.inlayHint\.on$|\(cqlint\/tokenAt\)$/;

export interface ServerOptions {
  /** Features to register; defaults to features/index.ts. */
  features?: readonly Feature[];
}

interface ServerHandle {
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
      if (settings.current.trace.server === 'verbose') rawConnection.console.log(message);
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
      if (SELF_PACED_REQUEST.test(label)) return undefined;
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
    // A change may name a sample or change a sampled table; not while indexing: the index's end checks them all.
    if (!workspace.whenAllIndexed()) {
      samples.onFilesChanged(event);
      evidence.onFilesChanged(event);
    }
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
    settingsOf: (filePath) => settings.settingsOf(filePath),
    pathToUri: (filePath) => pathToUri(filePath),
    initialised: () => initialised,
    changed: ({ configs }) => {
      if (configs) {
        applyProjectOptions();
        void configFiles.loadRings(documents.openFiles()); // a config may name another ring
      }
      // Only a .cqlint.json change can change findings: a ring alone refreshes what shows it.
      if (configs) emit('config', [], [], [], true);
      else emit('ring', [], []);
    },
  });
  // The server's configs come from configFiles' cache: linting never reads the disk.
  const project = new Project({ configLookup: (filePath) => configFiles.lookup(filePath), editing: (filePath) => documents.isOpen(filePath) });
  const core: ServerCore = { project, connection, log, guarded, emit };

  const documents: OpenDocuments = new OpenDocuments(core, {
    opened: (filePath, uri) => {
      settings.documentOpened(filePath, uri);
      // Looked at again: a client that cannot watch files tells nothing of changes made outside the editor.
      void configFiles.discover([filePath], true).then(() => configFiles.loadRings([filePath], true));
    },
    closed: (_filePath, uri) => settings.documentClosed(uri),
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
    ignoredBy: (filePath) => configFiles.ignoredBy(filePath),
    foldersChanged: () => applyProjectOptions(),
  });

  const settings: ClientSettings = new ClientSettings({
    connection,
    log,
    clientCapabilities: () => clientCapabilities,
    workspaceFolders: () => workspace.folders,
    documentUri: (filePath) => documents.uriOf(filePath),
    openUris: () => documents.openUris(),
    initialised: () => initialised,
    applied: (reason) => {
      applyProjectOptions();
      if (!reason) return;
      settingsChanged.fire(settings.current);
      emit(reason, [], [], [], true);
      void configFiles.loadRings(documents.openFiles()); // cqlint.ringFile may name another ring
    },
    documentScopeChanged: (filePath) => {
      applyProjectOptions();
      emit('settings', [filePath], [], []);
    },
  });

  const uriToPath = (uri: string): string => conv.uriToPath(uri);
  const pathToUri = (filePath: string): string => documents.uriOf(filePath) ?? conv.pathToUri(filePath);
  const getText = (uri: string): string | undefined => documents.documents.get(uri)?.getText() ?? project.getText(uriToPath(uri));

  // Samples (.cqlint.json `samples`) are read in the background; a new summary re-checks every file.
  const samples = new SampleSummaries({
    project,
    log,
    connection,
    workDoneProgress: () => clientCapabilities.window?.workDoneProgress === true,
    // Confined to the workspace (or the .cqlint.json's folder); nothing in Restricted Mode.
    roots: () => (workspaceTrusted ? workspace.folders : 'none'),
    shardCount: () => settings.current.shardCount,
    changed: () => emit('samples', [], [], [], true),
  });
  // Evidence (.cqlint.json `evidence`, cqlint.evidence) likewise; none in an untrusted workspace.
  const evidence = new EvidenceFiles({
    project,
    log,
    connection,
    clientCapabilities: () => clientCapabilities,
    roots: () => workspace.folders,
    workspaceTrusted: () => workspaceTrusted,
    pathToUri: (filePath) => pathToUri(filePath),
    changed: () => emit('evidence', [], [], [], true),
  });
  /** Sample CSVs are watched too (any .csv: which ones are samples depends on every .cqlint.json). */
  const isSampleFile = (filePath: string): boolean => filePath.toLowerCase().endsWith('.csv');

  const ctx: ServerContext = {
    connection: featureConnection,
    samples,
    evidence,
    documents: documents.documents,
    project,
    get settings() {
      return settings.current;
    },
    settingsFor: (uri) => settings.settingsFor(uri),
    settingsOf: (filePath) => settings.settingsOf(filePath),
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
    // The project's text is the one its trees and schema were built from (open documents' included).
    toRange: (filePath, range) => conv.offsetsToRange(project.lineIndex(filePath) ?? new LineIndex(''), range),
    getText,
    ringFor: (filePath) => configFiles.ringFor(filePath),
    safe: (name, handler, fallback) => safeHandler(log.error, name, handler, fallback),
    onDidChangeFiles: (listener) => filesChanged.event(listener),
    onDidChangeSettings: (listener) => settingsChanged.event(listener),
    onInitialized: (listener) => initializedEmitter.event(listener),
    onShutdown: (listener) => shutdownEmitter.event(listener),
    skippedReason: (filePath) => documents.skippedReason(filePath),
    ignoredBy: (filePath) => configFiles.ignoredBy(filePath),
    whenIndexed: (filePath) => bothDone(workspace.whenIndexed(filePath), configFiles.whenReady(filePath, false)) ?? Promise.resolve(),
    whenConfigured: (filePath) => configFiles.whenReady(filePath, false) ?? Promise.resolve(),
  };

  /** The settings and the configs as the Project sees them; setting them again drops its lint results. */
  function applyProjectOptions(): void {
    guarded('setOptions', () => project.setOptions({
      ...settings.projectOptions(), configLookup: (filePath) => configFiles.lookup(filePath), sampleSummary: samples.hook, evidenceFiles: evidence.hook,
      editing: (filePath) => documents.isOpen(filePath),
    }), undefined);
  }

  // -------------------------------------------------------------------------------------------
  // Notifications the core owns

  connection.onDidChangeWatchedFiles(async (params: DidChangeWatchedFilesParams) => {
    const cqlFiles: { filePath: string; type: FileChangeType }[] = [];
    const loads: Promise<void>[] = [];
    for (const change of params.changes) {
      const filePath = uriToPath(change.uri);
      if (path.basename(filePath) === CONFIG_FILE_NAME) loads.push(configFiles.configChanged(filePath, change.type === FileChangeType.Deleted));
      else if (configFiles.isIgnoreFile(filePath)) loads.push(configFiles.loadIgnoreFile(filePath));
      else if (configFiles.isRing(filePath)) loads.push(configFiles.ringChanged(filePath));
      else if (evidence.concerns(filePath)) {
        if (change.type === FileChangeType.Deleted && evidence.cache.forget(filePath)) {
          project.refreshEvidence();
          emit('evidence', [], [], [], true);
        }
        evidence.refresh();
      }
      else if (isSampleFile(filePath)) {
        if (change.type === FileChangeType.Deleted) samples.forget(filePath);
        samples.refresh();
      }
      else if (isCqlFile(filePath)) cqlFiles.push({ filePath, type: change.type });
    }
    await Promise.all(loads);
    await workspace.filesChanged(cqlFiles);
  });

  connection.onDidChangeConfiguration((params) => settings.configurationChanged(params));

  // -------------------------------------------------------------------------------------------
  // Lifecycle

  const initialize = safeHandler(log.error, 'initialize', async (params: InitializeParams): Promise<InitializeResult> => {
    clientCapabilities = params.capabilities ?? {};
    const options: InitializationOptions | undefined = isPlainObject(params.initializationOptions) ? params.initializationOptions : undefined;
    wantsIndexStatus = options?.indexStatus === true;
    workspace.folders = foldersOf(params);
    workspaceTrusted = options?.workspaceTrusted !== false;
    settings.applyInitializationOptions(params.initializationOptions);

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
  }, undefined);
  rawConnection.onInitialize(async (params: InitializeParams) => {
    // LSP: "initialize ... may only be sent once"; a second one is answered with an error.
    if (initializeReceived) {
      log.warn('cqlint: a second initialize request was refused');
      return new ResponseError(ErrorCodes.InvalidRequest, 'the server is already initialized');
    }
    if (!isPlainObject(params)) return new ResponseError(ErrorCodes.InvalidParams, 'initialize needs its params (an object)');
    initializeReceived = true;
    // A failure (logged by safeHandler) is an error for the client, not a server that answers every later
    // request with "method not found" because no feature registered.
    return (await initialize(params)) ?? new ResponseError(ErrorCodes.InternalError, 'cqlint could not initialize; see its log');
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
        connection.workspace.onDidChangeWorkspaceFolders((event) => workspace.foldersChanged(event));
      }
      await settings.fetchAtStart();
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
    samples.stop();
    evidence.stop();
    shutdownEmitter.fire();
  });

  documents.documents.listen(rawConnection);
  return { shutdownRequested: () => shutdownReceived };
}

/**
 * The workspace folders `initialize` names: workspaceFolders, else rootUri, else rootPath. Entries that are
 * not folders (null, a uri that is not a string) are skipped, as are URIs that are not files.
 */
function foldersOf(params: InitializeParams): string[] {
  const uris: string[] = [];
  const folders = Array.isArray(params.workspaceFolders) ? params.workspaceFolders : [];
  const given = folders.map((folder: unknown) => (isPlainObject(folder) && typeof folder.uri === 'string' ? folder.uri : undefined));
  if (given.length) uris.push(...given.filter((uri): uri is string => uri !== undefined));
  else if (typeof params.rootUri === 'string') uris.push(params.rootUri);
  else if (typeof params.rootPath === 'string' && params.rootPath) uris.push(conv.pathToUri(path.resolve(params.rootPath)));
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
