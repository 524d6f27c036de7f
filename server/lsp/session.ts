// The server's session: what the client said at `initialize` and where the lifecycle stands, the handlers
// of the lifecycle and of the notifications the core owns, and the context features are given; all over
// the parts server.ts wires together (it keeps only the wiring).
import {
  DidChangeConfigurationNotification,
  DidChangeWatchedFilesNotification,
  ErrorCodes,
  FileChangeType,
  RegistrationRequest,
  ResponseError,
  TextDocumentSyncKind,
  type ClientCapabilities,
  type Connection,
  type DidChangeWatchedFilesParams,
  type InitializeParams,
  type InitializeResult,
  type Registration,
  type ServerCapabilities,
} from 'vscode-languageserver/node';
import * as path from 'node:path';
import type { Project } from '../core/engine/project';
import { parseCql } from '../../grammar';
import { HOST_FILES_GLOB } from '../core/embedded/selection';
import { loadHostLanguages } from '../core/embedded';
import { CONFIG_FILE_NAME } from '../core/config';
import { LineIndex } from '../../grammar/line-index';
import type { Feature, ServerContext } from './context';
import type { ServerCore } from './server-core';
import * as conv from './conversions';
import type { ConfigFiles } from './config-files';
import type { OpenDocuments } from './documents';
import { describeError, safeHandler } from './safe';
import type { ClientSettings } from './client-settings';
import type { InitializationOptions } from './lsp-extensions';
import { isLintedFile, type Workspace } from './workspace';
import type { SampleSummaries } from './sample-summaries';
import type { EvidenceFiles } from './evidence-files';
import type { ClusterFiles } from './cluster-files';
import packageJson from '../../package.json';
import { deferCqlOnly } from './cql-only';
import { bothDone } from './readiness';

/** What the client told at `initialize`, and where the session stands. */
export interface Session {
  clientCapabilities: ClientCapabilities;
  workspaceTrusted: boolean;
  /** `initialized` has run: change events reach the features. */
  initialised: boolean;
  /** `initialize` is answered once; features must not register twice (each would handle every event). */
  initializeReceived: boolean;
  initializedReceived: boolean;
  shutdownReceived: boolean;
  /** The client asked for `cqlint/indexStatus` notifications (initializationOptions.indexStatus). */
  wantsIndexStatus: boolean;
  /** The host languages' parsers are loaded: application code can be read for its CQL. */
  hostLanguages: boolean;
  /** The CQL-only features, registered for CQL documents once the client is initialized (see cql-only.ts). */
  cqlOnly: Registration[];
}

/** The parts of the server core, as server.ts wires them. */
export interface ServerParts extends Pick<ServerCore, 'log' | 'guarded' | 'emit'> {
  session: Session;
  project: Project;
  documents: OpenDocuments;
  workspace: Workspace;
  configFiles: ConfigFiles;
  settings: ClientSettings;
  samples: SampleSummaries;
  evidence: EvidenceFiles;
  /** The cluster yaml files (.cqlint.json `cluster.config`, `cqlint.cluster`), read in the background. */
  cluster: ClusterFiles;
  uriToPath(uri: string): string;
  pathToUri(filePath: string): string;
  getText(uri: string): string | undefined;
}

/** Sample CSVs are watched too (any .csv: which ones are samples depends on every .cqlint.json). */
const isSampleFile = (filePath: string): boolean => filePath.toLowerCase().endsWith('.csv');

/** What features see of the server (context.ts): `featureConnection` refuses the registrations the core owns. */
export function featureContext(
  parts: ServerParts,
  featureConnection: Connection,
  events: Pick<ServerContext, 'onDidChangeFiles' | 'onDidChangeSettings' | 'onInitialized' | 'onShutdown'>,
): ServerContext {
  const {
    session,
    project,
    documents,
    workspace,
    configFiles,
    settings,
    samples,
    evidence,
    log,
    uriToPath,
    pathToUri,
    getText,
  } = parts;
  return {
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
      return session.clientCapabilities;
    },
    get workspaceFolders() {
      return workspace.folders;
    },
    get workspaceTrusted() {
      return session.workspaceTrusted;
    },
    log,
    uriToPath,
    pathToUri,
    // The project's text is the one its trees and schema were built from (open documents' included); application
    // code's ranges show in its host text.
    toRange: (filePath, range) => conv.offsetsToRange(project.positions(filePath) ?? new LineIndex(''), range),
    getText,
    ringFor: (filePath) => configFiles.ringFor(filePath),
    safe: (name, handler, fallback) => safeHandler(log.error, name, handler, fallback),
    ...events,
    skippedReason: (filePath) => documents.skippedReason(filePath),
    ignoredBy: (filePath) => configFiles.ignoredBy(filePath),
    whenIndexed: (filePath) =>
      bothDone(workspace.whenIndexed(filePath), configFiles.whenReady(filePath, false)) ?? Promise.resolve(),
    whenConfigured: (filePath) => configFiles.whenReady(filePath, false) ?? Promise.resolve(),
  };
}

/** workspace/didChangeWatchedFiles: configs, ignore files, rings, evidence, samples and CQL files. */
export async function watchedFilesChanged(parts: ServerParts, params: DidChangeWatchedFilesParams): Promise<void> {
  const { project, configFiles, workspace, samples, evidence, emit, uriToPath } = parts;
  const cqlFiles: { filePath: string; type: FileChangeType }[] = [];
  const loads: Promise<void>[] = [];
  for (const change of params.changes) {
    const filePath = uriToPath(change.uri);
    if (path.basename(filePath) === CONFIG_FILE_NAME)
      loads.push(configFiles.configChanged(filePath, change.type === FileChangeType.Deleted));
    else if (configFiles.isIgnoreFile(filePath)) loads.push(configFiles.loadIgnoreFile(filePath));
    else if (configFiles.isRing(filePath)) loads.push(configFiles.ringChanged(filePath));
    else if (evidence.concerns(filePath)) {
      if (change.type === FileChangeType.Deleted && evidence.cache.forget(filePath)) {
        project.refreshEvidence();
        emit('evidence', [], [], [], true);
      }
      evidence.refresh();
    } else if (isSampleFile(filePath)) {
      if (change.type === FileChangeType.Deleted) samples.forget(filePath);
      samples.refresh();
    } else if (isLintedFile(filePath)) cqlFiles.push({ filePath, type: change.type });
  }
  await Promise.all(loads);
  await workspace.filesChanged(cqlFiles);
}

/** What the lifecycle handlers fire once the client is ready and when it shuts the server down. */
export interface LifecycleEvents {
  initialized(): void;
  shutdown(): void;
}

/** initialize, initialized and shutdown. */
export function registerLifecycle(
  rawConnection: Connection,
  connection: Connection,
  parts: ServerParts,
  features: readonly Feature[],
  ctx: ServerContext,
  events: LifecycleEvents,
): void {
  const { session, project, workspace, configFiles, settings, samples, evidence, log, guarded, emit } = parts;
  const initialize = safeHandler(
    log.error,
    'initialize',
    async (params: InitializeParams): Promise<InitializeResult> => {
      session.clientCapabilities = params.capabilities ?? {};
      const options: InitializationOptions | undefined = isPlainObject(params.initializationOptions)
        ? params.initializationOptions
        : undefined;
      session.wantsIndexStatus = options?.indexStatus === true;
      workspace.folders = foldersOf(params);
      session.workspaceTrusted = options?.workspaceTrusted !== false;
      settings.applyInitializationOptions(params.initializationOptions);

      const capabilities: ServerCapabilities = {
        textDocumentSync: { openClose: true, change: TextDocumentSyncKind.Incremental, save: { includeText: false } },
      };
      if (session.clientCapabilities.workspace?.workspaceFolders) {
        capabilities.workspace = { workspaceFolders: { supported: true, changeNotifications: true } };
      }
      for (const feature of features) {
        try {
          feature.register(ctx);
          const contributed =
            typeof feature.capabilities === 'function' ? feature.capabilities(ctx) : feature.capabilities;
          if (contributed) mergeCapabilities(capabilities, contributed);
        } catch (error) {
          log.error(`cqlint: feature ${feature.name} failed to register: ${describeError(error)}`);
        }
      }
      session.cqlOnly = deferCqlOnly(capabilities, session.clientCapabilities);
      // Application code is read for its CQL with tree-sitter's parsers (WebAssembly, loaded once, ~0.1 s).
      session.hostLanguages = await loadHostLanguages().then(
        () => true,
        (error: unknown) => {
          log.error(
            `cqlint: application code will not be read for CQL: its parsers could not be loaded: ${describeError(error)}`,
          );
          return false;
        },
      );

      workspace.createIndex();
      return {
        capabilities,
        serverInfo: { name: 'cqlint', version: packageJson.version },
      };
    },
    undefined,
  );
  rawConnection.onInitialize(async (params: InitializeParams) => {
    // LSP: "initialize ... may only be sent once"; a second one is answered with an error.
    if (session.initializeReceived) {
      log.warn('cqlint: a second initialize request was refused');
      return new ResponseError(ErrorCodes.InvalidRequest, 'the server is already initialized');
    }
    if (!isPlainObject(params))
      return new ResponseError(ErrorCodes.InvalidParams, 'initialize needs its params (an object)');
    session.initializeReceived = true;
    // A failure (logged by safeHandler) is an error for the client, not a server that answers every later
    // request with "method not found" because no feature registered.
    return (
      (await initialize(params)) ??
      new ResponseError(ErrorCodes.InternalError, 'cqlint could not initialize; see its log')
    );
  });

  rawConnection.onInitialized(
    safeHandler(
      log.error,
      'initialized',
      async () => {
        if (session.initializedReceived || !session.initializeReceived) return;
        session.initializedReceived = true;
        if (session.clientCapabilities.workspace?.didChangeConfiguration?.dynamicRegistration) {
          await connection.client
            .register(DidChangeConfigurationNotification.type, { section: 'cqlint' })
            .catch((error: unknown) =>
              log.warn(`cqlint: cannot register for configuration changes: ${describeError(error)}`),
            );
        }
        if (session.clientCapabilities.workspace?.didChangeWatchedFiles?.dynamicRegistration) {
          await connection.client
            .register(DidChangeWatchedFilesNotification.type, {
              watchers: [
                { globPattern: '**/*.cql' },
                { globPattern: '**/*.cqlsh' },
                { globPattern: `**/${CONFIG_FILE_NAME}` },
                { globPattern: '**/*.csv' },
                { globPattern: HOST_FILES_GLOB },
              ],
            })
            .catch((error: unknown) => log.warn(`cqlint: cannot register file watchers: ${describeError(error)}`));
        } else {
          log.info(
            'cqlint: the client cannot watch files; changes made outside the editor are seen when files are opened',
          );
        }
        if (session.cqlOnly.length) {
          await connection
            .sendRequest(RegistrationRequest.type, { registrations: session.cqlOnly })
            .catch((error: unknown) => log.warn(`cqlint: cannot register the CQL features: ${describeError(error)}`));
        }
        if (session.clientCapabilities.workspace?.workspaceFolders) {
          connection.workspace.onDidChangeWorkspaceFolders((event) => workspace.foldersChanged(event));
        }
        await settings.fetchAtStart();
        session.initialised = true;
        configFiles.start();
        events.initialized();
        // Whatever changed before `initialized` sent no event: check all the project holds so far (the
        // documents already open), and again when the index is done.
        emit('scan', project.files(), [], [], true);
        workspace.startIndex();
        // The parser builds its tables on first use (seconds); do it now rather than on the first keystroke.
        if (!workspace.folders.length)
          setTimeout(() => guarded('parser warm-up', () => parseCql('SELECT * FROM ks.t WHERE id = 1;'), undefined), 0);
      },
      undefined,
    ),
  );

  connection.onShutdown(() => {
    session.shutdownReceived = true;
    workspace.stop();
    configFiles.stop();
    samples.stop();
    evidence.stop();
    parts.cluster.stop();
    events.shutdown();
  });
}

/**
 * The workspace folders `initialize` names: workspaceFolders, else rootUri, else rootPath. Entries that are
 * not folders (null, a uri that is not a string) are skipped, as are URIs that are not files.
 */
function foldersOf(params: InitializeParams): string[] {
  const uris: string[] = [];
  const folders = Array.isArray(params.workspaceFolders) ? params.workspaceFolders : [];
  const given = folders.map((folder: unknown) =>
    isPlainObject(folder) && typeof folder.uri === 'string' ? folder.uri : undefined,
  );
  if (given.length) uris.push(...given.filter((uri): uri is string => uri !== undefined));
  else if (typeof params.rootUri === 'string') uris.push(params.rootUri);
  else if (typeof params.rootPath === 'string' && params.rootPath)
    uris.push(conv.pathToUri(path.resolve(params.rootPath)));
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
