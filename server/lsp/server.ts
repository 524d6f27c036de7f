// The language server core: wires the open documents (documents.ts), the workspace folders and their
// index (workspace.ts), the .cqlint.json and ring files (config-files.ts) and the settings into one
// Project, and registers the features (features/*.ts), which add the user-visible behaviour. The lifecycle
// handlers and the context features get are in session.ts: this file only wires the parts together.
import { Emitter, type Connection } from 'vscode-languageserver/node';
import { Project } from '../core/engine/project';
import { embeddedLanguageFor } from '../core/embedded/selection';
import { hostLanguageOf } from '../core/embedded';
import type { ChangeReason, Feature, FilesChangedEvent, Logger } from './context';
import * as conv from './conversions';
import { ConfigFiles } from './config-files';
import { OpenDocuments } from './documents';
import { CORE_OWNED_REGISTRATIONS, describeError, guardConnection } from './safe';
import type { ServerCore } from './server-core';
import type { CqlintSettings } from './settings';
import { ClientSettings } from './client-settings';
import { defaultFeatures } from './features';
import { Workspace } from './workspace';
import { readinessWait } from './readiness';
import { SampleSummaries } from './sample-summaries';
import { EvidenceFiles } from './evidence-files';
import { ClusterFiles } from './cluster-files';
import { featureContext, registerLifecycle, watchedFilesChanged, type ServerParts, type Session } from './session';

export interface ServerOptions {
  /** Features to register; defaults to features/index.ts. */
  features?: readonly Feature[];
}

interface ServerHandle {
  /** True once the client sent `shutdown`: the process may then end with exit code 0. */
  shutdownRequested(): boolean;
}

/** Sets up every handler on `connection`; the caller calls `connection.listen()`. */
export function createServer(rawConnection: Connection, options: ServerOptions = {}): ServerHandle {
  const features = options.features ?? defaultFeatures;

  const session: Session = {
    clientCapabilities: {},
    workspaceTrusted: true,
    initialised: false,
    initializeReceived: false,
    initializedReceived: false,
    shutdownReceived: false,
    wantsIndexStatus: false,
    hostLanguages: false,
    cqlOnly: [],
  };

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
    // Each handler waits for what its feature declared next to it (readiness.ts): nothing, its document's
    // indexed files and .cqlint.json (and ring), or the whole index.
    ready: (readiness, args) =>
      readinessWait(readiness, args, {
        whenIndexed: (filePath) => workspace.whenIndexed(filePath),
        whenConfigured: (filePath, ring) => configFiles.whenReady(filePath, ring),
        whenAllIndexed: () => workspace.whenAllIndexed(),
        uriToPath,
      }),
  });

  const filesChanged = new Emitter<FilesChangedEvent>();
  const settingsChanged = new Emitter<CqlintSettings>();
  const initializedEmitter = new Emitter<void>();
  const shutdownEmitter = new Emitter<void>();

  const emit = (
    reason: ChangeReason,
    changed: string[],
    removed: string[],
    dependents: Iterable<string> = [],
    all = false,
  ): void => {
    const direct = new Set([...changed, ...removed]);
    const event: FilesChangedEvent = {
      reason,
      all,
      changed,
      removed,
      dependents: [...new Set(dependents)].filter((file) => !direct.has(file) && project.hasFile(file)),
    };
    if (!session.initialised) return; // the scan's single event is sent on `initialized`
    log.debug(
      `cqlint: ${reason}: changed ${changed.length}, removed ${removed.length}, dependents ${event.dependents.length}${all ? ', all' : ''}`,
    );
    filesChanged.fire(event);
    // A change may name a sample or change a sampled table; not while indexing: the index's end checks them all.
    if (!workspace.whenAllIndexed()) {
      samples.onFilesChanged(event);
      evidence.onFilesChanged(event);
      cluster.onFilesChanged(event);
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
    clientCapabilities: () => session.clientCapabilities,
    workspaceFolders: () => workspace.folders,
    workspaceTrusted: () => session.workspaceTrusted,
    settingsOf: (filePath) => settings.settingsOf(filePath),
    pathToUri: (filePath) => pathToUri(filePath),
    initialised: () => session.initialised,
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
  const project = new Project({
    configLookup: (filePath) => configFiles.lookup(filePath),
    editing: (filePath) => documents.isOpen(filePath),
  });
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
    readsEmbedded: (filePath) => readsEmbedded(filePath),
  });
  const workspace: Workspace = new Workspace(core, documents, {
    clientCapabilities: () => session.clientCapabilities,
    wantsIndexStatus: () => session.wantsIndexStatus,
    loadConfigsOf: async (files) => {
      await configFiles.discover(files);
      void configFiles.loadRings(files);
    },
    ignoredBy: (filePath) => configFiles.ignoredBy(filePath),
    readsEmbedded,
    foldersChanged: () => applyProjectOptions(),
  });

  const settings: ClientSettings = new ClientSettings({
    connection,
    log,
    clientCapabilities: () => session.clientCapabilities,
    workspaceFolders: () => workspace.folders,
    documentUri: (filePath) => documents.uriOf(filePath),
    openUris: () => documents.openUris(),
    initialised: () => session.initialised,
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

  /** Whether a file of application code is read for its CQL: its language is on (the editor's setting, else its .cqlint.json's). */
  function readsEmbedded(filePath: string): boolean {
    return (
      session.hostLanguages &&
      embeddedLanguageFor(
        filePath,
        configFiles.lookup(filePath)?.config?.embedded,
        settings.settingsOf(filePath).embedded.languages,
      ) !== undefined
    );
  }

  const uriToPath = (uri: string): string => conv.uriToPath(uri);
  const pathToUri = (filePath: string): string => documents.uriOf(filePath) ?? conv.pathToUri(filePath);
  const getText = (uri: string): string | undefined =>
    documents.documents.get(uri)?.getText() ?? project.sourceText(uriToPath(uri));

  // Samples (.cqlint.json `samples`) are read in the background; a new summary re-checks every file.
  const samples = new SampleSummaries({
    project,
    log,
    connection,
    workDoneProgress: () => session.clientCapabilities.window?.workDoneProgress === true,
    // Confined to the workspace (or the .cqlint.json's folder); nothing in Restricted Mode.
    roots: () => (session.workspaceTrusted ? workspace.folders : 'none'),
    shardCount: () => settings.current.shardCount,
    changed: () => emit('samples', [], [], [], true),
  });
  // Evidence (.cqlint.json `evidence`, cqlint.evidence) likewise; none in an untrusted workspace.
  const evidence = new EvidenceFiles({
    project,
    log,
    connection,
    clientCapabilities: () => session.clientCapabilities,
    roots: () => workspace.folders,
    workspaceTrusted: () => session.workspaceTrusted,
    pathToUri: (filePath) => pathToUri(filePath),
    changed: () => emit('evidence', [], [], [], true),
  });

  // The cluster's yaml (.cqlint.json `cluster.config`, cqlint.cluster) likewise; none in an untrusted workspace.
  const cluster = new ClusterFiles({
    project,
    log,
    connection,
    roots: () => workspace.folders,
    workspaceTrusted: () => session.workspaceTrusted,
    changed: () => emit('cluster', [], [], [], true),
  });

  const parts: ServerParts = {
    session,
    project,
    documents,
    workspace,
    configFiles,
    settings,
    samples,
    evidence,
    cluster,
    log,
    guarded,
    emit,
    uriToPath,
    pathToUri,
    getText,
  };
  const ctx = featureContext(parts, featureConnection, {
    onDidChangeFiles: (listener) => filesChanged.event(listener),
    onDidChangeSettings: (listener) => settingsChanged.event(listener),
    onInitialized: (listener) => initializedEmitter.event(listener),
    onShutdown: (listener) => shutdownEmitter.event(listener),
  });

  /** The settings and the configs as the Project sees them; setting them again drops its lint results. */
  function applyProjectOptions(): void {
    guarded(
      'setOptions',
      () =>
        project.setOptions({
          ...settings.projectOptions(),
          configLookup: (filePath) => configFiles.lookup(filePath),
          sampleSummary: samples.hook,
          evidenceFiles: evidence.hook,
          clusterFile: cluster.hook,
          editing: (filePath) => documents.isOpen(filePath),
        }),
      undefined,
    );
    reconsiderApplicationCode();
  }

  /**
   * A language turned off (cqlint.embedded.languages, .cqlint.json `embedded`): its files leave the project; one
   * turned on: its open documents come in (the workspace's other files of it are read by the next index).
   */
  function reconsiderApplicationCode(): void {
    const removed: string[] = [];
    const changed: string[] = [];
    const dependents: string[] = [];
    for (const file of project.files()) {
      if (!hostLanguageOf(file) || readsEmbedded(file)) continue;
      dependents.push(...documents.removeText(file));
      removed.push(file);
    }
    for (const file of documents.openFiles()) {
      if (!hostLanguageOf(file) || project.hasFile(file) || !readsEmbedded(file)) continue;
      const text = documents.documents.get(documents.uriOf(file)!)?.getText();
      if (text === undefined) continue;
      dependents.push(...documents.setText(file, text));
      changed.push(file);
    }
    if (removed.length || changed.length) emit('settings', changed, removed, dependents);
  }

  // Notifications the core owns
  connection.onDidChangeWatchedFiles((params) => watchedFilesChanged(parts, params));
  connection.onDidChangeConfiguration((params) => settings.configurationChanged(params));

  registerLifecycle(rawConnection, connection, parts, features, ctx, {
    initialized: () => initializedEmitter.fire(),
    shutdown: () => shutdownEmitter.fire(),
  });

  documents.documents.listen(rawConnection);
  return { shutdownRequested: () => session.shutdownReceived };
}
