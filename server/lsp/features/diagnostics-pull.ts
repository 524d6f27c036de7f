// Diagnostics pulled by clients with pull support (textDocument.diagnostic): textDocument/diagnostic for open
// documents, workspace/diagnostic for the rest, and workspace/diagnostic/refresh when a change elsewhere
// changes them.
import {
  DocumentDiagnosticReportKind,
  LSPErrorCodes,
  ResponseError,
  type CancellationToken,
  type ResultProgressReporter,
  type WorkspaceDiagnosticReportPartialResult,
  type DocumentDiagnosticParams,
  type DocumentDiagnosticReport,
  type WorkspaceDiagnosticParams,
  type WorkspaceDiagnosticReport,
  type WorkspaceDocumentDiagnosticReport,
} from 'vscode-languageserver/node';
import type { FilesChangedEvent, ServerContext } from '../context';
import { requires } from '../readiness';
import { unlessCancelled } from '../budget';
import type { Report, Stages } from './diagnostics-reports';

/** Files per workspace-diagnostics batch, and the longest a batch may run before the server yields. */
const WORKSPACE_BATCH_FILES = 100;
const WORKSPACE_BATCH_MS = 50;
/** Delay before asking a pull client to refresh, so a burst of changes costs one refresh. */
export const REFRESH_DEBOUNCE_MS = 150;

export function registerPull(
  ctx: ServerContext,
  reportUnlessHeld: (filePath: string, previousResultId: string | undefined) => Partial<Report> & { resultId: string },
  localReportFor: (filePath: string) => Report,
  stages: Stages,
  invalidate: (event: FilesChangedEvent) => void,
): void {
  const refreshSupported = ctx.clientCapabilities.workspace?.diagnostics?.refreshSupport === true;
  /** URIs the last workspace report covered, so files that leave the project are cleared there. */
  const workspaceReported = new Set<string>();
  let refreshTimer: NodeJS.Timeout | undefined;

  const emptyFull = (): DocumentDiagnosticReport => ({ kind: DocumentDiagnosticReportKind.Full, items: [] });

  ctx.connection.languages.diagnostics.on(
    requires(
      'nothing',
      ctx.safe(
        'textDocument/diagnostic',
        async (params: DocumentDiagnosticParams, token: CancellationToken): Promise<DocumentDiagnosticReport> => {
          // A pull the client already cancelled (it re-pulls after each edit) does not parse and lint for nothing.
          await unlessCancelled(token);
          const filePath = ctx.uriToPath(params.textDocument.uri);
          // This request waits by itself (server.ts): while the index runs, a client that can be asked to pull
          // again gets the file-local findings at once and is asked to pull again when the rest is known.
          const ready = ctx.whenIndexed(filePath);
          if (refreshSupported && (await stages.early(filePath, ready))) {
            void ready.then(requestRefresh);
            if (!ctx.project.hasFile(filePath) && ctx.skippedReason(filePath) === undefined) return emptyFull();
            const { resultId, diagnostics } = localReportFor(filePath);
            if (params.previousResultId === resultId) return { kind: DocumentDiagnosticReportKind.Unchanged, resultId };
            return { kind: DocumentDiagnosticReportKind.Full, resultId, items: diagnostics };
          }
          await ready;
          if (!ctx.project.hasFile(filePath) && ctx.skippedReason(filePath) === undefined) return emptyFull();
          const { resultId, diagnostics } = reportUnlessHeld(filePath, params.previousResultId);
          stages.shownFull(filePath);
          if (!diagnostics || params.previousResultId === resultId)
            return { kind: DocumentDiagnosticReportKind.Unchanged, resultId };
          return { kind: DocumentDiagnosticReportKind.Full, resultId, items: diagnostics };
        },
        emptyFull(),
      ),
    ),
  );

  // Answered in batches: each batch goes out as a partial result when the client gave a token for them,
  // and the server yields between batches, so a workspace of thousands of files never holds the
  // connection for one long request (edits and hovers are served in between).
  ctx.connection.languages.diagnostics.onWorkspace(
    requires(
      'workspace',
      ctx.safe(
        'workspace/diagnostic',
        async (
          params: WorkspaceDiagnosticParams,
          token?: CancellationToken,
          _workDone?: unknown,
          partial?: ResultProgressReporter<WorkspaceDiagnosticReportPartialResult>,
        ): Promise<WorkspaceDiagnosticReport> => {
          const previous = new Map(params.previousResultIds.map((entry) => [entry.uri, entry.value]));
          const items: WorkspaceDocumentDiagnosticReport[] = [];
          const current = new Set<string>();
          let batchStarted = performance.now();
          const flush = async (): Promise<void> => {
            if (partial && items.length) partial.report({ items: items.splice(0) });
            await new Promise<void>((resolve) => setImmediate(resolve));
            if (token?.isCancellationRequested)
              throw new ResponseError(LSPErrorCodes.RequestCancelled, 'workspace diagnostics cancelled');
            batchStarted = performance.now();
          };
          for (const filePath of ctx.project.files()) {
            if (!ctx.project.hasFile(filePath)) continue; // removed while an earlier batch was out
            const uri = ctx.pathToUri(filePath);
            // Open documents are pulled one by one (with their version); reporting them here too races with that.
            if (ctx.documents.get(uri)) continue;
            current.add(uri);
            const held = previous.get(uri);
            const { resultId, diagnostics } = reportUnlessHeld(filePath, held);
            if (!diagnostics || held === resultId)
              items.push({ kind: DocumentDiagnosticReportKind.Unchanged, uri, version: null, resultId });
            else
              items.push({ kind: DocumentDiagnosticReportKind.Full, uri, version: null, resultId, items: diagnostics });
            if (items.length >= WORKSPACE_BATCH_FILES || performance.now() - batchStarted >= WORKSPACE_BATCH_MS)
              await flush();
          }
          for (const uri of workspaceReported) {
            if (!current.has(uri) && !ctx.documents.get(uri))
              items.push({ kind: DocumentDiagnosticReportKind.Full, uri, version: null, items: [] });
          }
          workspaceReported.clear();
          for (const uri of current) workspaceReported.add(uri);
          // With partial results, the whole answer went out as progress: the response itself is empty.
          if (partial) {
            if (items.length) partial.report({ items: items.splice(0) });
            return { items: [] };
          }
          return { items };
        },
        { items: [] } as WorkspaceDiagnosticReport,
      ),
    ),
  );

  let stopped = false;
  const requestRefresh = (): void => {
    // After shutdown nothing is asked of the client (an early report's wait ends when the index is cancelled).
    if (!refreshSupported || stopped) return;
    if (refreshTimer) clearTimeout(refreshTimer);
    refreshTimer = setTimeout(() => {
      refreshTimer = undefined;
      ctx.connection.languages.diagnostics
        .refresh()
        .catch((error: unknown) => ctx.log.warn(`cqlint: diagnostics refresh failed: ${String(error)}`));
    }, REFRESH_DEBOUNCE_MS);
  };

  ctx.onDidChangeFiles((event) => {
    invalidate(event);
    // The client re-pulls an edited document by itself; anything beyond it needs a refresh (nothing does
    // when no file's findings changed: a ring file).
    const nothing = !event.all && !event.changed.length && !event.dependents.length && !event.removed.length;
    const onlyTheEditedDocument =
      !event.all &&
      event.dependents.length === 0 &&
      event.removed.length === 0 &&
      (event.reason === 'edit' || event.reason === 'open');
    if (!nothing && !onlyTheEditedDocument) requestRefresh();
  });

  ctx.onShutdown(() => {
    stopped = true;
    if (refreshTimer) clearTimeout(refreshTimer);
  });
}
