// Findings as LSP diagnostics. Clients with pull support (textDocument.diagnostic) ask for them
// (textDocument/diagnostic for open documents, workspace/diagnostic for the rest) and are told to ask
// again (workspace/diagnostic/refresh) when an edit elsewhere changes them; other clients get
// textDocument/publishDiagnostics for every project file, debounced per file.
import { createHash } from 'node:crypto';
import {
  DiagnosticSeverity,
  DocumentDiagnosticReportKind,
  LSPErrorCodes,
  ResponseError,
  type CancellationToken,
  type ResultProgressReporter,
  type WorkspaceDiagnosticReportPartialResult,
  type ClientCapabilities,
  type Diagnostic,
  type DocumentDiagnosticParams,
  type DocumentDiagnosticReport,
  type WorkspaceDiagnosticParams,
  type WorkspaceDiagnosticReport,
  type WorkspaceDocumentDiagnosticReport,
} from 'vscode-languageserver/node';
import { isSourceRange } from '../../../grammar/ast';
import type { Finding, Severity } from '../../core/findings/findings';
import { docsUrl } from '../../core/findings/findings';
import type { Feature, FilesChangedEvent, ServerContext } from '../context';
import { requires } from '../readiness';
import { unlessCancelled } from '../budget';
import { markdownText } from '../../core/util/markdown';
import { heapKeeper } from '../../core/util/heap';
import { registerHoverProvider } from './hover';
import type { EditorDocument } from './symbols';

/** Files per workspace-diagnostics batch, and the longest a batch may run before the server yields. */
const WORKSPACE_BATCH_FILES = 100;
const WORKSPACE_BATCH_MS = 50;
import { isRangeOf, toRange } from '../conversions';

/** Delay between the last edit of a file and publishing its diagnostics (push clients). */
export const PUSH_DEBOUNCE_MS = 100;
/** Longest run of background publishing (after a workspace-wide change) before requests get a turn. */
const BACKLOG_SLICE_MS = 15;
/** Delay before asking a pull client to refresh, so a burst of changes costs one refresh. */
export const REFRESH_DEBOUNCE_MS = 150;

function usesPullDiagnostics(capabilities: ClientCapabilities): boolean {
  return capabilities.textDocument?.diagnostic !== undefined;
}

const SEVERITIES: Record<Severity, DiagnosticSeverity> = {
  error: DiagnosticSeverity.Error,
  warning: DiagnosticSeverity.Warning,
  info: DiagnosticSeverity.Information,
};

interface DiagnosticOptions {
  /** Include Finding.related as relatedInformation (only when the client supports it). */
  relatedInformation: boolean;
  pathToUri(filePath: string): string;
}

/** A deep copy of a JSON-like value (objects, arrays, primitives), without the offset ranges its objects hold. */
function plainCopy(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) return value.map(plainCopy);
  const out: Record<string, unknown> = {};
  for (const key in value as Record<string, unknown>) {
    const field = (value as Record<string, unknown>)[key];
    if (!isSourceRange(field)) out[key] = plainCopy(field);
  }
  return out;
}

/**
 * A diagnostic's data: a copy of the finding's with the rule id and the message id, without the partition
 * figures (`numbers`: already in the message, and no fix reads them, so every pull would carry them twice)
 * and without the AST's offset ranges (`statementRange`, `valueRange`, ...): offsets into the server's copy
 * of the text, which a client cannot place, and which code actions do not read (they find the finding
 * again). Left in, they changed with every edit above them, so that every diagnostic below an edit was
 * made, compared and sent anew; without them a finding's diagnostic stands while the finding does.
 */
function diagnosticData(finding: Finding): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const data = finding.data;
  if (data) for (const key in data) if (key !== 'numbers' && !isSourceRange(data[key])) out[key] = plainCopy(data[key]);
  out.ruleId = finding.ruleId;
  out.messageId = finding.messageId;
  return out;
}

/** The LSP severity a finding is shown with. */
function severityOf(finding: Finding): DiagnosticSeverity {
  return SEVERITIES[finding.severity] ?? DiagnosticSeverity.Warning;
}

export function findingToDiagnostic(finding: Finding, options: DiagnosticOptions): Diagnostic {
  const diagnostic: Diagnostic = {
    range: toRange(finding.range),
    severity: severityOf(finding),
    code: finding.ruleId,
    codeDescription: { href: docsUrl(finding.ruleId) },
    source: 'cqlint',
    message: finding.message,
    data: diagnosticData(finding),
  };
  if (options.relatedInformation && finding.related?.length) {
    diagnostic.relatedInformation = finding.related.map((related) => ({
      location: { uri: options.pathToUri(related.filePath), range: toRange(related.range) },
      message: related.message,
    }));
  }
  return diagnostic;
}

/**
 * The diagnostics made from findings, by the finding's data object: the rule runner reuses a statement's
 * findings (and their data) while the statement holds, so after an edit most findings come back as they
 * were and their diagnostics are reused rather than made again (the report's compare with the last one
 * then meets the same objects). A diagnostic is reused only while what it shows of the finding outside
 * its data (place, headline, severity, message id, related places) is unchanged; its data copy holds no
 * offsets (diagnosticData), and a finding's data does not change otherwise.
 */
type MadeDiagnostics = WeakMap<object, Diagnostic>;

function stillShows(diagnostic: Diagnostic, finding: Finding, options: DiagnosticOptions): boolean {
  if (diagnostic.code !== finding.ruleId || diagnostic.message !== finding.message || diagnostic.severity !== severityOf(finding)) return false;
  if ((diagnostic.data as { messageId?: string }).messageId !== finding.messageId || !isRangeOf(diagnostic.range, finding.range)) return false;
  const shown = diagnostic.relatedInformation;
  const related = options.relatedInformation && finding.related?.length ? finding.related : undefined;
  if (!related || !shown) return related === shown;
  if (related.length !== shown.length) return false;
  for (let i = 0; i < related.length; i++) {
    const r = related[i]!;
    const s = shown[i]!;
    if (s.message !== r.message || s.location.uri !== options.pathToUri(r.filePath) || !isRangeOf(s.location.range, r.range)) return false;
  }
  return true;
}

/** findingToDiagnostic, or the diagnostic made from the same finding before when it still shows it. */
function diagnosticFor(finding: Finding, options: DiagnosticOptions, made: MadeDiagnostics): Diagnostic {
  const data = finding.data;
  const before = data && made.get(data);
  if (before && stillShows(before, finding, options)) return before;
  const diagnostic = findingToDiagnostic(finding, options);
  if (data) made.set(data, diagnostic);
  return diagnostic;
}

interface Report {
  diagnostics: Diagnostic[];
  resultId: string;
}

/**
 * What the server keeps of a file's last report. The diagnostics themselves only for an open document:
 * thousands of files' diagnostics would be tens of MB, and the client has them already; for the rest a
 * digest tells whether a recomputed report is the same (and keeps its result id).
 */
interface CachedReport {
  resultId: string;
  diagnostics?: Diagnostic[];
  digest?: string;
}

const digestOf = (diagnostics: Diagnostic[]): string => createHash('sha1').update(JSON.stringify(diagnostics)).digest('base64');

/** Deep equality of JSON values (diagnostics): cheaper than serialising a large report to hash it. */
function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    // Back to front: after an edit, the diagnostics below it have moved, so a difference shows up early.
    for (let i = a.length - 1; i >= 0; i--) if (!sameJson(a[i], b[i])) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  let count = 0;
  for (const key in x) {
    if (x[key] === undefined) continue;
    count++;
    if (!sameJson(x[key], y[key])) return false;
  }
  for (const key in y) if (y[key] !== undefined) count--;
  return count === 0;
}

/** Result ids: unique per server run (a restarted server never answers "unchanged" to an old id). */
const RUN_ID = `${Date.now().toString(36)}.${process.pid.toString(36)}`;
let nextResultId = 1;

export const diagnosticsFeature: Feature = {
  name: 'diagnostics',
  capabilities: (ctx) =>
    usesPullDiagnostics(ctx.clientCapabilities)
      ? { diagnosticProvider: { identifier: 'cqlint', interFileDependencies: true, workspaceDiagnostics: true } }
      : undefined,
  register(ctx) {
    registerHoverProvider(findingDetailsHover);
    const caps = ctx.clientCapabilities;
    const pull = usesPullDiagnostics(caps);
    const relatedInformation = pull
      ? (caps.textDocument?.diagnostic?.relatedInformation ?? caps.textDocument?.publishDiagnostics?.relatedInformation) === true
      : caps.textDocument?.publishDiagnostics?.relatedInformation === true;
    const cache = new Map<string, CachedReport>();
    /** The last report of each file, valid or not: a recomputed report with the same content keeps its id. */
    const last = new Map<string, CachedReport>();
    const made: MadeDiagnostics = new WeakMap();

    /** Diagnostics for one project file: an open document's cached until an event says its findings may have changed. */
    const reportFor = (filePath: string): Report => {
      const cached = cache.get(filePath);
      if (cached?.diagnostics) return cached as Report;
      const diagnostics = computeDiagnostics(ctx, filePath, relatedInformation, made);
      // A file that is not open goes back to its schema and references, and its report to a digest
      // (the findings would only be reused while nothing they depend on changes, and any such change
      // brings the file back here anyway).
      const open = !!ctx.documents.get(ctx.pathToUri(filePath));
      if (!open) {
        ctx.project.release(filePath, { findings: true });
        heapKeeper().settle();
      }
      const previous = last.get(filePath);
      let digest: string | undefined;
      const same = !!previous && (previous.diagnostics ? sameJson(previous.diagnostics, diagnostics) : previous.digest === (digest = digestOf(diagnostics)));
      const resultId = same ? previous.resultId : `${RUN_ID}.${nextResultId++}`;
      const report: CachedReport = open ? { resultId, diagnostics } : { resultId, digest: digest ?? digestOf(diagnostics) };
      cache.set(filePath, report);
      last.set(filePath, report);
      return { resultId, diagnostics };
    };

    /**
     * An open document's early report (file-local findings, see Stages): kept as the file's last report, so
     * that a full set with the same content keeps its id, but not cached as its valid one.
     */
    const localReportFor = (filePath: string): Report => {
      const diagnostics = computeDiagnostics(ctx, filePath, relatedInformation, made, 'local');
      const previous = last.get(filePath);
      const same = !!previous?.diagnostics && sameJson(previous.diagnostics, diagnostics);
      const resultId = same ? previous!.resultId : `${RUN_ID}.${nextResultId++}`;
      last.set(filePath, { resultId, diagnostics });
      return { resultId, diagnostics };
    };

    /**
     * A file's report for a client that holds `previousResultId`: only the id when a valid report kept
     * here has that id (no lint), else the report, computed once (its id may still be the client's).
     */
    const reportUnlessHeld = (filePath: string, previousResultId: string | undefined): Partial<Report> & { resultId: string } => {
      const cached = cache.get(filePath);
      return cached && cached.resultId === previousResultId ? { resultId: cached.resultId } : reportFor(filePath);
    };

    const invalidate = (event: FilesChangedEvent): void => {
      if (event.all) cache.clear();
      for (const file of [...event.changed, ...event.removed, ...event.dependents]) cache.delete(file);
      for (const file of event.removed) last.delete(file);
    };

    const stages = createStages(ctx);
    if (pull) registerPull(ctx, reportUnlessHeld, localReportFor, stages, invalidate);
    else registerPush(ctx, reportFor, localReportFor, stages, invalidate);
  },
};

/**
 * The hover over a finding that has details: the diagnostic (and the Problems panel) shows the headline;
 * the hover adds the figures, the cure and the sources, and the rule's page.
 */
export function findingDetailsHover(ctx: ServerContext, doc: EditorDocument, offset: number): string | undefined {
  if (!ctx.project.hasFile(doc.filePath) || ctx.ignoredBy(doc.filePath) !== undefined) return undefined;
  const here = ctx.project.lint(doc.filePath).filter((f) => f.details && f.range.start.offset <= offset && offset <= f.range.end.offset);
  if (!here.length) return undefined;
  return here.map((f) => `**${markdownText(f.message)}** · [${f.ruleId}](${docsUrl(f.ruleId)})\n\n${f.details}`).join('\n\n---\n\n');
}

/**
 * Whether `ready` has settled by the next turn of the event loop: a wait for the index that has nothing left to
 * wait for settles within the current turn.
 */
async function settledAtOnce(ready: Promise<void>): Promise<boolean> {
  let settled = false;
  const mark = (): void => {
    settled = true;
  };
  void ready.then(mark, mark);
  await new Promise<void>((resolve) => setImmediate(resolve));
  return settled;
}

/**
 * Diagnostics in stages. While the workspace is indexed, an opened document whose lookups could still be
 * answered by files not indexed yet shows the findings of the file-local rules at once (syntax errors and
 * the checks that need nothing but the file: Project.lintLocal) and the full set once those files are in
 * (ctx.whenIndexed). The full set holds every early finding as it was, so nothing shown is withdrawn. After
 * a document's full set has been shown, its later reports wait for the index as before: an early report
 * then would take the cross-file verdicts away until the index caught up.
 */
export interface Stages {
  /** True when the document `filePath` is to show its file-local findings now: its full set waits for `ready`. */
  early(filePath: string, ready: Promise<void>): Promise<boolean>;
  /** The document's full set was shown. */
  shownFull(filePath: string): void;
}

export function createStages(ctx: Pick<ServerContext, 'documents' | 'pathToUri' | 'onDidChangeFiles' | 'whenConfigured'>): Stages {
  const full = new Set<string>();
  ctx.onDidChangeFiles((event) => {
    // A document opened (again) starts over; files that leave the project are forgotten.
    if (event.reason === 'open') for (const file of event.changed) full.delete(file);
    for (const file of event.removed) full.delete(file);
  });
  return {
    async early(filePath, ready) {
      if (full.has(filePath) || !ctx.documents.get(ctx.pathToUri(filePath))) return false;
      if (await settledAtOnce(ready)) return false;
      // The file-local rules need the file's .cqlint.json (rule levels and options); by then the index may be done.
      await ctx.whenConfigured(filePath);
      return !full.has(filePath) && !(await settledAtOnce(ready));
    },
    shownFull(filePath) {
      if (ctx.documents.get(ctx.pathToUri(filePath))) full.add(filePath);
    },
  };
}

function computeDiagnostics(ctx: ServerContext, filePath: string, relatedInformation: boolean, made: MadeDiagnostics, stage: 'full' | 'local' = 'full'): Diagnostic[] {
  const skipped = ctx.skippedReason(filePath);
  if (skipped) {
    return [{
      range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
      severity: DiagnosticSeverity.Information,
      source: 'cqlint',
      message: `cqlint: ${skipped}`,
    }];
  }
  // An ignored file that is open is still read (its tables resolve other files' queries), but not judged.
  if (!ctx.project.hasFile(filePath) || ctx.ignoredBy(filePath) !== undefined) return [];
  let findings: Finding[];
  try {
    findings = stage === 'local' ? ctx.project.lintLocal(filePath) : ctx.project.lint(filePath);
  } catch (error) {
    ctx.log.error(`cqlint: lint ${filePath} failed: ${error instanceof Error ? error.stack ?? error.message : String(error)}`);
    return [];
  }
  const options: DiagnosticOptions = { relatedInformation, pathToUri: ctx.pathToUri };
  const out: Diagnostic[] = [];
  for (const finding of findings) {
    try {
      out.push(diagnosticFor(finding, options, made));
    } catch (error) {
      ctx.log.error(`cqlint: cannot convert a ${String(finding?.ruleId)} finding in ${filePath}: ${String(error)}`);
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Push

function registerPush(
  ctx: ServerContext,
  reportFor: (filePath: string) => Report,
  localReportFor: (filePath: string) => Report,
  stages: Stages,
  invalidate: (event: FilesChangedEvent) => void,
): void {
  const timers = new Map<string, NodeJS.Timeout>();
  /** Files we published non-empty diagnostics for, so that leaving the project clears them. */
  const published = new Map<string, string>();

  /** Publishes a file's diagnostics: the full set, or (`local`) an open document's early report. */
  const publish = (filePath: string, stage: 'full' | 'local' = 'full'): void => {
    if (stage === 'full') timers.delete(filePath);
    const uri = ctx.pathToUri(filePath);
    const document = ctx.documents.get(uri);
    const known = ctx.project.hasFile(filePath) || ctx.skippedReason(filePath) !== undefined;
    const diagnostics = !known ? [] : stage === 'local' ? localReportFor(filePath).diagnostics : reportFor(filePath).diagnostics;
    if (!known && !published.has(filePath)) return;
    if (known) published.set(filePath, uri);
    else published.delete(filePath);
    if (known && stage === 'full') stages.shownFull(filePath);
    void ctx.connection
      .sendDiagnostics({ uri, diagnostics, ...(document ? { version: document.version } : {}) })
      .catch((error: unknown) => ctx.log.error(`cqlint: publishing diagnostics for ${uri} failed: ${String(error)}`));
  };

  const publishSafely = (filePath: string, stage: 'full' | 'local' = 'full'): void => {
    try {
      publish(filePath, stage);
    } catch (error) {
      ctx.log.error(`cqlint: diagnostics for ${filePath} failed: ${String(error)}`);
    }
  };

  const schedule = (filePath: string): void => {
    backlog.delete(filePath);
    const pending = timers.get(filePath);
    if (pending) clearTimeout(pending);
    const timer = setTimeout(() => {
      // While the workspace is indexed, the full set waits for the files this one depends on (no false
      // unknown-column); the file-local findings go out meanwhile (Stages).
      const ready = ctx.whenIndexed(filePath);
      void stages.early(filePath, ready).then((early) => {
        if (early && timers.get(filePath) === timer) publishSafely(filePath, 'local');
        return ready.then(() => {
          if (timers.get(filePath) === timer) publishSafely(filePath);
        });
      });
    }, PUSH_DEBOUNCE_MS);
    timers.set(filePath, timer);
  };

  /**
   * Files that are not open, re-checked because something they depend on changed (the end of the index,
   * settings, a schema edit): published in slices that leave room for requests, each once the files it
   * needs are indexed, rather than thousands of lints in one go.
   */
  const backlog = new Set<string>();
  let draining = false;
  const drain = (): void => {
    if (draining) return;
    draining = true;
    const run = async (): Promise<void> => {
      let sliceStart = Date.now();
      while (backlog.size && !stopped) {
        const file = backlog.values().next().value as string;
        await ctx.whenIndexed(file);
        if (!backlog.delete(file)) continue;
        if (!timers.has(file)) publishSafely(file);
        if (Date.now() - sliceStart >= BACKLOG_SLICE_MS) {
          await new Promise<void>((resolve) => setImmediate(resolve));
          sliceStart = Date.now();
        }
      }
      // Every file the change concerned is published: the answers their lints filled (thousands of files'
      // at the end of the index) are not what the next edit needs.
      if (!stopped) ctx.project.forgetLookups();
    };
    void run()
      .catch((error: unknown) => ctx.log.error(`cqlint: publishing workspace diagnostics failed: ${String(error)}`))
      .finally(() => (draining = false));
  };
  let stopped = false;

  ctx.onDidChangeFiles((event) => {
    invalidate(event);
    // Open documents are published on their own timer (debounced, after the files they need are
    // indexed); every other file goes to the backlog, published in slices: the end of the index or a
    // schema edit can touch thousands of files, and a timer each would run all their lints in one go.
    const open = new Set(ctx.documents.all().map((document) => ctx.uriToPath(document.uri)));
    const files = event.all ? ctx.project.files() : [...event.changed, ...event.dependents];
    if (event.all) for (const file of open) schedule(file);
    let queued = false;
    for (const file of files) {
      if (open.has(file)) {
        if (!event.all) schedule(file);
      } else if (!timers.has(file)) {
        backlog.add(file);
        queued = true;
      }
    }
    if (queued) drain();
    for (const file of event.removed) {
      const uri = published.get(file) ?? ctx.pathToUri(file);
      const pending = timers.get(file);
      if (pending) clearTimeout(pending);
      timers.delete(file);
      if (!published.delete(file)) continue;
      void ctx.connection.sendDiagnostics({ uri, diagnostics: [] }).catch(() => undefined);
    }
  });

  ctx.onShutdown(() => {
    stopped = true;
    backlog.clear();
    for (const timer of timers.values()) clearTimeout(timer);
    timers.clear();
  });
}

// ---------------------------------------------------------------------------------------------
// Pull

function registerPull(
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

  ctx.connection.languages.diagnostics.on(requires('nothing', ctx.safe('textDocument/diagnostic', async (params: DocumentDiagnosticParams, token: CancellationToken): Promise<DocumentDiagnosticReport> => {
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
    if (!diagnostics || params.previousResultId === resultId) return { kind: DocumentDiagnosticReportKind.Unchanged, resultId };
    return { kind: DocumentDiagnosticReportKind.Full, resultId, items: diagnostics };
  }, emptyFull())));

  // Answered in batches: each batch goes out as a partial result when the client gave a token for them,
  // and the server yields between batches, so a workspace of thousands of files never holds the
  // connection for one long request (edits and hovers are served in between).
  ctx.connection.languages.diagnostics.onWorkspace(requires('workspace', ctx.safe('workspace/diagnostic', async (
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
      if (token?.isCancellationRequested) throw new ResponseError(LSPErrorCodes.RequestCancelled, 'workspace diagnostics cancelled');
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
      if (!diagnostics || held === resultId) items.push({ kind: DocumentDiagnosticReportKind.Unchanged, uri, version: null, resultId });
      else items.push({ kind: DocumentDiagnosticReportKind.Full, uri, version: null, resultId, items: diagnostics });
      if (items.length >= WORKSPACE_BATCH_FILES || performance.now() - batchStarted >= WORKSPACE_BATCH_MS) await flush();
    }
    for (const uri of workspaceReported) {
      if (!current.has(uri) && !ctx.documents.get(uri)) items.push({ kind: DocumentDiagnosticReportKind.Full, uri, version: null, items: [] });
    }
    workspaceReported.clear();
    for (const uri of current) workspaceReported.add(uri);
    // With partial results, the whole answer went out as progress: the response itself is empty.
    if (partial) {
      if (items.length) partial.report({ items: items.splice(0) });
      return { items: [] };
    }
    return { items };
  }, { items: [] } as WorkspaceDiagnosticReport)));

  let stopped = false;
  const requestRefresh = (): void => {
    // After shutdown nothing is asked of the client (an early report's wait ends when the index is cancelled).
    if (!refreshSupported || stopped) return;
    if (refreshTimer) clearTimeout(refreshTimer);
    refreshTimer = setTimeout(() => {
      refreshTimer = undefined;
      ctx.connection.languages.diagnostics.refresh().catch((error: unknown) => ctx.log.warn(`cqlint: diagnostics refresh failed: ${String(error)}`));
    }, REFRESH_DEBOUNCE_MS);
  };

  ctx.onDidChangeFiles((event) => {
    invalidate(event);
    // The client re-pulls an edited document by itself; anything beyond it needs a refresh (nothing does
    // when no file's findings changed: a ring file).
    const nothing = !event.all && !event.changed.length && !event.dependents.length && !event.removed.length;
    const onlyTheEditedDocument = !event.all && event.dependents.length === 0 && event.removed.length === 0 && (event.reason === 'edit' || event.reason === 'open');
    if (!nothing && !onlyTheEditedDocument) requestRefresh();
  });

  ctx.onShutdown(() => {
    stopped = true;
    if (refreshTimer) clearTimeout(refreshTimer);
  });
}
