// The contract between the server core (server.ts) and its feature modules (features/*.ts).
//
// A feature is a module exporting a `Feature`: the capabilities it advertises and a `register(ctx)`
// that installs its handlers. The core creates the context once the client's capabilities are
// known (during `initialize`), registers every feature from features/index.ts, and advertises the
// union of their capabilities, so a capability is announced exactly when its handler exists.
import type {
  ClientCapabilities,
  Connection,
  Disposable,
  Range,
  ServerCapabilities,
  TextDocuments,
} from 'vscode-languageserver/node';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { SourceRange } from '../../grammar/ast';
import type { Project } from '../core/engine/project';
import type { Ring } from '../core/token/ring';
import type { CqlintSettings } from './settings';
import type { SampleSummaries } from './sample-summaries';
import type { EvidenceFiles } from './evidence-files';

export interface Feature {
  /** Short name used in logs (`diagnostics`, `hover`, ...). */
  name: string;
  /**
   * What to merge into the `initialize` result's `capabilities`. A function receives the context
   * (so it can look at `ctx.clientCapabilities`) and may return undefined to advertise nothing.
   * Nested objects are merged one level deep (e.g. two features may each add to `workspace`).
   */
  capabilities?: Partial<ServerCapabilities> | ((ctx: ServerContext) => Partial<ServerCapabilities> | undefined);
  /**
   * Installs handlers. Called once, inside `initialize`, before the result is sent. Use
   * `ctx.connection` (handlers registered through it are already exception-safe) and the events below.
   */
  register(ctx: ServerContext): void | Disposable;
}

/** Why files' findings may have changed. */
/** `'ring'`: a ring file was read again; no file's findings depend on it (hover, inlay hints and cqlint/tokenAt read it). */
export type ChangeReason =
  | 'open'
  | 'edit'
  | 'close'
  | 'disk'
  | 'scan'
  | 'settings'
  | 'config'
  | 'ring'
  | 'folders'
  | 'samples'
  | 'evidence'
  | 'cluster';

export interface FilesChangedEvent {
  reason: ChangeReason;
  /** True when every file must be considered changed (settings, .cqlint.json, target). */
  all: boolean;
  /** Files (engine keys: absolute paths or non-file URIs) whose text was set or that were added. */
  changed: string[];
  /** Files that left the project (closed untitled documents, deleted files). */
  removed: string[];
  /** Other files whose findings may change as a consequence (Project.dependents), not in `changed`. */
  dependents: string[];
}

export interface Logger {
  error(message: string): void;
  warn(message: string): void;
  info(message: string): void;
  /** Only written when `cqlint.trace.server` is `verbose`. */
  debug(message: string): void;
}

/** The ring that applies to a file, or why there is none (see config-files.ts). */
export interface RingLookup {
  path?: string;
  ring?: Ring;
  error?: string;
}

export interface ServerContext {
  /**
   * The connection, wrapped: any handler passed to an `on...` method (including
   * `connection.languages.*.on`, `connection.onRequest(method, handler)`) is exception-safe: a throw
   * or rejected promise is logged and the request answers `null`. Use `ctx.safe` for another fallback.
   * The core owns the lifecycle, sync, configuration and watched-file notifications
   * (`onInitialize`, `onInitialized`, `onShutdown`, `onExit`, `onDidChangeConfiguration`,
   * `onDidChangeWatchedFiles`, `onDid*TextDocument`, `onWillSave*`): calling those throws; use
   * `ctx.documents.onDid*`, `ctx.onDidChangeFiles`, `ctx.onDidChangeSettings`, `ctx.onInitialized`,
   * `ctx.onShutdown` instead.
   * Each handler declares what it waits for, next to it: `ctx.connection.onHover(requires('file-and-ring', handler))`
   * (readiness.ts: `nothing`, `file`, `file-and-ring`, `workspace`); a handler that declares nothing is refused.
   */
  readonly connection: Connection;
  /** Open documents (incremental sync). Their text is already in `project` when events fire. */
  readonly documents: TextDocuments<TextDocument>;
  /** The engine. Open documents' text overrides the disk; workspace files are loaded at startup. */
  readonly project: Project;
  /** Current window-wide settings (a fresh object after each change; do not cache it across requests). */
  readonly settings: CqlintSettings;
  /** The settings that apply to a document (asked for with its URI as scopeUri when the client can). */
  settingsFor(uri: string): Promise<CqlintSettings>;
  /** The settings known for a file now: its document's, else its workspace folder's, else `settings`. */
  settingsOf(filePath: string): CqlintSettings;
  readonly clientCapabilities: ClientCapabilities;
  /** Absolute paths of the workspace folders (may be empty for a single-file session). */
  readonly workspaceFolders: readonly string[];
  /**
   * False when the client says the workspace is not trusted (VS Code's Restricted Mode, passed as
   * initializationOptions.workspaceTrusted): then nothing the workspace names is read from outside it.
   */
  readonly workspaceTrusted: boolean;
  readonly log: Logger;
  /** The configured samples' summaries (read in the background; the report reads through it too). */
  readonly samples: SampleSummaries;
  /** The configured evidence (read in the background; the report and the hover read the project's answers). */
  readonly evidence: EvidenceFiles;

  /** Engine key (absolute path, or the URI itself for non-file documents) for a document URI. */
  uriToPath(uri: string): string;
  /** Document URI for an engine key: the URI the client used if the document is open, else `file:`. */
  pathToUri(filePath: string): string;
  /** An AST or schema range (offsets) of a project file -> LSP Range, by that file's lines. */
  toRange(filePath: string, range: SourceRange): Range;
  /** Current text of a document: the open document's, else the project's copy, else undefined. */
  getText(uri: string): string | undefined;
  /**
   * Why a file is not in the project although it is open (e.g. too large to analyse), if it is not.
   * Features should answer such documents with empty results.
   */
  skippedReason(filePath: string): string | undefined;
  /** The file whose ignore patterns (.cqlintignore, ignorePatterns) leave `filePath` out: it gets no diagnostics. */
  ignoredBy(filePath: string): string | undefined;
  /**
   * Resolves once every workspace file that could change `filePath`'s findings is indexed (at once
   * when the background index is done). Features that answer requests need not call it: a handler declared
   * `file` (readiness.ts) already waits for it; textDocument/diagnostic, declared `nothing`, shows findings in stages.
   */
  whenIndexed(filePath: string): Promise<void>;
  /** Resolves once the .cqlint.json that applies to `filePath` is loaded (its rule levels and options). */
  whenConfigured(filePath: string): Promise<void>;

  /**
   * The ring file of a file (the `cqlint.ringFile` setting, else `.cqlint.json`'s `ring`), from the
   * server's cache: it never reads the disk (handlers declared `file-and-ring` wait for it: hover, inlay hints,
   * cqlint/tokenAt).
   */
  ringFor(filePath: string): RingLookup;

  /** Wraps a handler so that a throw or rejection is logged and `fallback` is returned instead. */
  safe<A extends unknown[], R, F>(
    name: string,
    handler: (...args: A) => R | Promise<R>,
    fallback: F,
  ): (...args: A) => Promise<R | F>;

  /** Fires after the project changed: documents opened/edited/closed, disk changes, settings, config. */
  onDidChangeFiles(listener: (event: FilesChangedEvent) => void): Disposable;
  /** Fires after settings changed (also fires onDidChangeFiles with `all: true`). */
  onDidChangeSettings(listener: (settings: CqlintSettings) => void): Disposable;
  /** Fires on `initialized` (the workspace index then starts in the background), for work that needs the client to be ready. */
  onInitialized(listener: () => void): Disposable;
  /** Fires on `shutdown`: clear timers, drop caches. */
  onShutdown(listener: () => void): Disposable;
}
