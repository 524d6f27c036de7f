// cqlint's extensions to LSP, in one place: the custom requests and notification (method, params, result),
// the initialization options, and the client commands the server names in what it sends. The server
// (server/lsp/) and the VS Code client (client/) both import them from here, and nowhere else writes a
// method name. docs/lsp-extensions.md shows this file's declarations (`npm run generate` writes them;
// test/docs/generated.test.ts fails while the page differs), as rust-analyzer keeps its lsp-extensions.md.
// Types only, besides the names: the client's bundle takes nothing else from the server.
import type { Position, TextDocumentIdentifier, WorkspaceEdit } from 'vscode-languageserver-protocol';

/** A request from the client to the server: the types of its params and result travel with its method. */
export interface Request<P, R> {
  readonly kind: 'request';
  readonly method: string;
  /** Never set: carries the types (`ParamsOf`, `ResultOf`). */
  readonly types?: { params: P; result: R };
}

/** A notification from the server to the client. */
export interface Notification<P> {
  readonly kind: 'notification';
  readonly method: string;
  /** Never set: carries the type (`ParamsOf`). */
  readonly types?: { params: P };
}

export type ParamsOf<M> = M extends Request<infer P, unknown> ? P : M extends Notification<infer P> ? P : never;
export type ResultOf<M> = M extends Request<unknown, infer R> ? R : never;

function request<P, R>(method: string): Request<P, R> {
  return { kind: 'request', method };
}

function notification<P>(method: string): Notification<P> {
  return { kind: 'notification', method };
}

// ---------------------------------------------------------------------------------------------------------
// Initialization

/** `initializationOptions` of `initialize` the server reads (any other client may leave them out). */
export interface InitializationOptions {
  /** Send `cqlint/indexStatus` notifications while the workspace is indexed. */
  indexStatus?: boolean;
  /** False in an untrusted workspace: the server then reads nothing a `.cqlint.json` names. */
  workspaceTrusted?: boolean;
  /**
   * The `cqlint` settings (package.json's `cqlint.*`, e.g. `{ "target": "scylladb" }`) for a client without
   * `workspace/configuration`: as `cqlint`, as `settings.cqlint`, or as the settings' own keys at this level.
   */
  cqlint?: Record<string, unknown>;
  settings?: { cqlint?: Record<string, unknown> };
  [setting: string]: unknown;
}

// ---------------------------------------------------------------------------------------------------------
// Requests

/**
 * The key preview of the partition key value under the cursor (else of the key of the statement under
 * it): the token, the shard, the replicas, as the hover shows them. VS Code's command "Show Token of the
 * Key under the Cursor" sends it. Null: no partition key there.
 */
export const tokenAtRequest = request<TokenAtParams, TokenAtResult | null>('cqlint/tokenAt');

export interface TokenAtParams {
  textDocument: TextDocumentIdentifier;
  position: Position;
}

export interface TokenAtResult {
  markdown: string;
}

/**
 * The partition report page of a table (the same HTML as `cqlint report` writes): the table named, else
 * the one defined at or before the position, else the document's first. Reading a sample reports work-done
 * progress on `workDoneToken` and stops when the request is cancelled. Null: no table there.
 */
export const partitionReportRequest = request<PartitionReportParams, PartitionReportResult | null>(
  'cqlint/partitionReport',
);

export interface PartitionReportParams {
  textDocument: TextDocumentIdentifier;
  /** Qualified name as the CodeLens passes it (`ks.table`, or `table` without a keyspace). */
  table?: string;
  position?: Position;
  /** A sample CSV chosen for this report (absolute path), instead of the one .cqlint.json names. */
  sample?: { file: string };
  /** The client's command behind the page's "Choose sample CSV…" link (none: no link). */
  chooseSampleCommand?: string;
  /**
   * The client's command that opens a place of the workspace, `[uri, line, character]` (0-based): the
   * keyspace diagram's tables and queries and the page's file links run it. None: they link in the page.
   */
  openSourceCommand?: string;
  workDoneToken?: string | number;
}

export interface PartitionReportResult {
  /** The table shown (qualified name). */
  table: string;
  html: string;
  /** The sample shown, when one was chosen for this report and .cqlint.json does not name it. */
  chosenSample?: string;
}

/**
 * The edit that names `file` as the sample of `table` in the `.cqlint.json` that applies to the document
 * (a new one in its workspace folder when there is none); only the `samples` key changes. The file must be
 * inside the workspace. `config` is the URI of the `.cqlint.json`; `error` says why there is no edit.
 */
export const sampleConfigEditRequest = request<SampleConfigEditParams, SampleConfigEditResult | null>(
  'cqlint/sampleConfigEdit',
);

export interface SampleConfigEditParams {
  textDocument: TextDocumentIdentifier;
  table: string;
  file: string;
}

export type SampleConfigEditResult = { edit: WorkspaceEdit; config: string } | { error: string };

// ---------------------------------------------------------------------------------------------------------
// Notifications

/**
 * The indexing of the workspace's CQL files, to a client that asked for it (`indexStatus` in the
 * initialization options): at most one every 250 ms, and a last one with `done: true`.
 */
export const indexStatusNotification = notification<IndexStatus>('cqlint/indexStatus');

export interface IndexStatus {
  indexed: number;
  total: number;
  done: boolean;
}

// ---------------------------------------------------------------------------------------------------------
// Client commands the server names

/**
 * Run by the "Partition report" CodeLens above each table and by the link in a partition finding's hover,
 * with the arguments `[uri, table]`: shows the table's report.
 */
export const SHOW_PARTITION_REPORT_COMMAND = 'cqlint.showPartitionReport';

/** What VS Code's report panel passes as `openSourceCommand`: opens `[uri, line, character]`. */
export const OPEN_REPORT_SOURCE_COMMAND = 'cqlint.openReportSource';

/** What VS Code's report panel passes as `chooseSampleCommand`: picks a CSV for the report shown. */
export const CHOOSE_SAMPLE_COMMAND = 'cqlint.choosePartitionReportSample';
