// A file's LSP diagnostics, shared by push (diagnostics-push.ts) and pull (diagnostics-pull.ts): findings made
// into diagnostics (reused while a finding stands), each file's report with its result id (kept while its content
// holds, so that a client holding it is told "unchanged"), the previous reports, and the stages in which an
// opened document shows its findings while the workspace is indexed.
import { createHash } from 'node:crypto';
import { DiagnosticSeverity, type Diagnostic } from 'vscode-languageserver/node';
import { isSourceRange } from '../../../grammar/ast';
import type { Finding, OffsetFinding, Severity } from '../../core/findings/findings';
import { docsUrl, locateFindings } from '../../core/findings/findings';
import { LineIndex, type SourcePositions } from '../../../grammar/line-index';
import { commonPrefixLength, commonSuffixLength } from '../../../grammar/text-diff';
import type { FilesChangedEvent, ServerContext } from '../context';
import { heapKeeper } from '../../core/util/heap';
import { commonEnds } from '../../core/util/lists';
import { isRangeOf, toRange } from '../conversions';

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
 * figures (`numbers`: already in the message, and no fix reads them, so every pull would carry them twice),
 * without the planner's cures (`plans`: a code action and its resolve plan them again from the finding the
 * server finds by the diagnostic's place, the message words the first; on the analysis bench's 10,000-line
 * file they were 160 KB of the 940 KB pulled, and parsed by the client, on every edit) and without the AST's offset ranges (`statementRange`, `valueRange`, ...): offsets into the server's copy
 * of the text, which a client cannot place, and which code actions do not read (they find the finding
 * again). Left in, they changed with every edit above them, so that every diagnostic below an edit was
 * made, compared and sent anew; without them a finding's diagnostic stands while the finding does.
 */
function diagnosticData(finding: Finding): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const data = finding.data;
  if (data)
    for (const key in data)
      if (key !== 'numbers' && key !== 'plans' && !isSourceRange(data[key])) out[key] = plainCopy(data[key]);
  out.ruleId = finding.ruleId;
  out.messageId = finding.messageId;
  return out;
}

/** The LSP severity a finding is shown with. */
function severityOf(finding: Pick<Finding, 'severity'>): DiagnosticSeverity {
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
 * An open file's findings as last shown, in order, each with its offsets then and its diagnostic (undefined
 * where it could not be made), and the lines they were placed by: the one record of the diagnostics made. The
 * rule runner reuses a statement's findings (and their data) while the statement holds, so after an edit most
 * findings come back as they were, and so do their diagnostics (the report's compare with the last one then
 * meets the same objects). The findings before the edit and after it come back as the same objects in the
 * same order: they are matched by place, from the start and from the end, without a lookup of each; the rest
 * by their data object (see ShownMatch). A diagnostic is reused only while what it shows of the finding outside
 * its data (place, headline, severity, message id, related places) is unchanged; its data copy holds no
 * offsets (diagnosticData), and a finding's data does not change otherwise.
 */
interface Shown {
  at: SourcePositions;
  findings: readonly OffsetFinding[];
  starts: number[];
  ends: number[];
  diagnostics: (Diagnostic | undefined)[];
}

/** Each open file's findings as last shown (a file not open keeps none: its report is made afresh). */
type ShownFindings = Map<string, Shown>;

/** Whether the diagnostic shows the finding's rule, headline, severity and message id. */
function sameHeadline(
  diagnostic: Diagnostic,
  finding: Pick<Finding, 'ruleId' | 'message' | 'severity' | 'messageId'>,
): boolean {
  return (
    diagnostic.code === finding.ruleId &&
    diagnostic.message === finding.message &&
    diagnostic.severity === severityOf(finding) &&
    (diagnostic.data as { messageId?: string }).messageId === finding.messageId
  );
}

function stillShows(diagnostic: Diagnostic, finding: Finding, options: DiagnosticOptions): boolean {
  if (!sameHeadline(diagnostic, finding) || !isRangeOf(diagnostic.range, finding.range)) return false;
  const shown = diagnostic.relatedInformation;
  const related = options.relatedInformation && finding.related?.length ? finding.related : undefined;
  if (!related || !shown) return related === shown;
  if (related.length !== shown.length) return false;
  for (let i = 0; i < related.length; i++) {
    const r = related[i]!;
    const s = shown[i]!;
    if (
      s.message !== r.message ||
      s.location.uri !== options.pathToUri(r.filePath) ||
      !isRangeOf(s.location.range, r.range)
    )
      return false;
  }
  return true;
}

/** Where a file's findings show: its own positions, and another file's for a related location. */
interface FindingPlaces {
  filePath: string;
  positions: SourcePositions;
  positionsOf(filePath: string): SourcePositions | undefined;
}

/**
 * How a file's text changed since its findings were last shown: `from`, the lines they were shown by, and the
 * changed part [start, oldEnd) of its text, now [start, newEnd). The lines and characters of the offsets before
 * `start` are the same (the line starts up to them are), and an offset on a line that starts after `oldEnd`
 * shows on the same character `lines` lines further; everything else is located again.
 */
interface TextEdit {
  from: SourcePositions;
  start: number;
  delta: number;
  /** The 0-based line that `oldEnd` is on, before the edit: a finding starting on a later line moves by `lines`. */
  lastLine: number;
  lines: number;
}

/** The edit from the lines `from` to `now` (a CQL file's own lines), or undefined where they cannot be compared. */
function textEdit(from: SourcePositions | undefined, now: SourcePositions): TextEdit | undefined {
  if (from === now) return { from, start: Infinity, delta: 0, lastLine: Infinity, lines: 0 };
  if (!(from instanceof LineIndex) || !(now instanceof LineIndex)) return undefined;
  const before = from.text;
  const text = now.text;
  const start = commonPrefixLength(before, text);
  const suffix = commonSuffixLength(before, text, Math.min(before.length, text.length) - start);
  return {
    from,
    start,
    delta: text.length - before.length,
    lastLine: from.lineAt(before.length - suffix),
    lines: now.lineCount - from.lineCount,
  };
}

/**
 * The diagnostic made from the same finding before, where the edit since cannot have moved it but by whole
 * lines: the finding has the same headline, no related locations, and the same offsets wholly before the
 * edit, or its offsets moved by the edit's length and a start on a line after the edit's last (then the same
 * characters `edit.lines` lines further).
 */
function unmoved(
  diagnostic: Diagnostic,
  startBefore: number,
  endBefore: number,
  finding: OffsetFinding,
  edit: TextEdit,
): Diagnostic | undefined {
  if (finding.related?.length || diagnostic.relatedInformation !== undefined) return;
  if (!sameHeadline(diagnostic, finding)) return;
  const { start, end } = finding.range;
  if (start === startBefore && end === endBefore && end < edit.start) return diagnostic;
  if (start !== startBefore + edit.delta || end !== endBefore + edit.delta) return;
  const range = diagnostic.range;
  if (range.start.line <= edit.lastLine) return;
  if (edit.lines === 0) return diagnostic;
  return {
    ...diagnostic,
    range: {
      start: { line: range.start.line + edit.lines, character: range.start.character },
      end: { line: range.end.line + edit.lines, character: range.end.character },
    },
  };
}

/**
 * findingToDiagnostic, or the diagnostic made from the same finding before (the j-th last shown) when it still
 * shows it. The finding comes with its offsets (Project.lintOffsets): one the edit since did not reach is placed
 * by the edit (unmoved); another without related locations is compared with the diagnostic where it shows, and
 * located (copied with its lines and columns) only when it needs a new diagnostic. After an edit that is the
 * few findings the edit touched, not every finding of the file.
 */
function diagnosticFor(
  finding: OffsetFinding,
  places: FindingPlaces,
  options: DiagnosticOptions,
  before: Shown | undefined,
  j: number | undefined,
  edit: TextEdit | undefined,
): Diagnostic {
  const shown = j === undefined ? undefined : before!.diagnostics[j];
  const kept = shown && edit && unmoved(shown, before!.starts[j!]!, before!.ends[j!]!, finding, edit);
  return kept || shownAgain(finding, shown, places, options);
}

/**
 * The findings last shown that the place-by-place match left, by their data object (by the finding itself where
 * it has none): made on the first lookup, over those alone.
 */
class ShownMatch {
  private byData?: Map<object, number>;
  constructor(
    private readonly before: Shown | undefined,
    private readonly from: number,
    private readonly to: number,
  ) {}

  indexOf(finding: OffsetFinding): number | undefined {
    if (!this.before || this.from >= this.to) return undefined;
    if (!this.byData) {
      this.byData = new Map();
      for (let j = this.from; j < this.to; j++) {
        const old = this.before.findings[j]!;
        this.byData.set(old.data ?? old, j);
      }
    }
    return this.byData.get(finding.data ?? finding);
  }
}

/** The diagnostic `before` when it still shows the finding where it shows now, else a new one. */
function shownAgain(
  finding: OffsetFinding,
  before: Diagnostic | undefined,
  places: FindingPlaces,
  options: DiagnosticOptions,
): Diagnostic {
  if (
    before &&
    !finding.related?.length &&
    before.relatedInformation === undefined &&
    sameHeadline(before, finding) &&
    isRangeOf(before.range, places.positions.locate(finding.range))
  )
    return before;
  const located = locateFindings([finding], places.filePath, places.positions, places.positionsOf)[0]!;
  if (before && stillShows(before, located, options)) return before;
  return findingToDiagnostic(located, options);
}

export interface Report {
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

const digestOf = (diagnostics: Diagnostic[]): string =>
  createHash('sha1').update(JSON.stringify(diagnostics)).digest('base64');

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

/** A client's reports of the project's files, as push and pull ask for them. */
export interface Reports {
  /** Diagnostics for one project file: an open document's cached until an event says its findings may have changed. */
  reportFor(filePath: string): Report;
  /** An open document's early report (file-local findings, see Stages). */
  localReportFor(filePath: string): Report;
  /** A file's report for a client that holds `previousResultId`: only the id when that is still the file's. */
  reportUnlessHeld(filePath: string, previousResultId: string | undefined): Partial<Report> & { resultId: string };
  /** Drops the reports an event may have changed. */
  invalidate(event: FilesChangedEvent): void;
}

export function createReports(ctx: ServerContext, relatedInformation: boolean): Reports {
  const cache = new Map<string, CachedReport>();
  /** The last report of each file, valid or not: a recomputed report with the same content keeps its id. */
  const last = new Map<string, CachedReport>();
  const shownFindings: ShownFindings = new Map();

  /** Diagnostics for one project file: an open document's cached until an event says its findings may have changed. */
  const reportFor = (filePath: string): Report => {
    const cached = cache.get(filePath);
    if (cached?.diagnostics) return cached as Report;
    const diagnostics = computeDiagnostics(ctx, filePath, relatedInformation, shownFindings);
    // A file that is not open goes back to its schema and references, and its report to a digest
    // (the findings would only be reused while nothing they depend on changes, and any such change
    // brings the file back here anyway).
    const open = !!ctx.documents.get(ctx.pathToUri(filePath));
    if (!open) {
      shownFindings.delete(filePath);
      ctx.project.release(filePath, { findings: true });
      heapKeeper().settle();
    }
    const previous = last.get(filePath);
    let digest: string | undefined;
    const same =
      !!previous &&
      (previous.diagnostics
        ? sameJson(previous.diagnostics, diagnostics)
        : previous.digest === (digest = digestOf(diagnostics)));
    const resultId = same ? previous.resultId : `${RUN_ID}.${nextResultId++}`;
    const report: CachedReport = open
      ? { resultId, diagnostics }
      : { resultId, digest: digest ?? digestOf(diagnostics) };
    cache.set(filePath, report);
    last.set(filePath, report);
    return { resultId, diagnostics };
  };

  /**
   * An open document's early report (file-local findings, see Stages): kept as the file's last report, so
   * that a full set with the same content keeps its id, but not cached as its valid one.
   */
  const localReportFor = (filePath: string): Report => {
    const diagnostics = computeDiagnostics(ctx, filePath, relatedInformation, shownFindings, 'local');
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
  const reportUnlessHeld = (
    filePath: string,
    previousResultId: string | undefined,
  ): Partial<Report> & { resultId: string } => {
    const cached = cache.get(filePath);
    return cached && cached.resultId === previousResultId ? { resultId: cached.resultId } : reportFor(filePath);
  };

  const invalidate = (event: FilesChangedEvent): void => {
    if (event.all) cache.clear();
    for (const file of [...event.changed, ...event.removed, ...event.dependents]) {
      cache.delete(file);
      // A document closed keeps no findings as last shown (its next report is made as a file not open).
      if (!ctx.documents.get(ctx.pathToUri(file))) shownFindings.delete(file);
    }
    for (const file of event.removed) {
      last.delete(file);
      shownFindings.delete(file);
    }
  };
  return { reportFor, localReportFor, reportUnlessHeld, invalidate };
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

export function createStages(
  ctx: Pick<ServerContext, 'documents' | 'pathToUri' | 'onDidChangeFiles' | 'whenConfigured'>,
): Stages {
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

function computeDiagnostics(
  ctx: ServerContext,
  filePath: string,
  relatedInformation: boolean,
  shownFindings: ShownFindings,
  stage: 'full' | 'local' = 'full',
): Diagnostic[] {
  const skipped = ctx.skippedReason(filePath);
  if (skipped) {
    return [
      {
        range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
        severity: DiagnosticSeverity.Information,
        source: 'cqlint',
        message: `cqlint: ${skipped}`,
      },
    ];
  }
  // An ignored file that is open is still read (its tables resolve other files' queries), but not judged.
  if (!ctx.project.hasFile(filePath) || ctx.ignoredBy(filePath) !== undefined) return [];
  let findings: readonly OffsetFinding[];
  let places: FindingPlaces | undefined;
  try {
    findings = stage === 'local' ? ctx.project.lintLocalOffsets(filePath) : ctx.project.lintOffsets(filePath);
    if (!findings.length) {
      shownFindings.delete(filePath);
      return [];
    }
    const positions = ctx.project.positions(filePath);
    if (!positions) throw new Error('the file has no text to place its findings in');
    places = { filePath, positions, positionsOf: (other) => ctx.project.positions(other) };
  } catch (error) {
    ctx.log.error(
      `cqlint: lint ${filePath} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
    );
    return [];
  }
  const options: DiagnosticOptions = { relatedInformation, pathToUri: ctx.pathToUri };
  const before = shownFindings.get(filePath);
  const edit = textEdit(before?.at, places.positions);
  const n = findings.length;
  const m = before?.findings.length ?? 0;
  const diagnostics = new Array<Diagnostic | undefined>(n);
  /** The i-th finding's diagnostic, from the j-th last shown if it is the same finding (see diagnosticFor). */
  const place = (i: number, j: number | undefined): void => {
    const finding = findings[i]!;
    try {
      diagnostics[i] = diagnosticFor(finding, places, options, before, j, edit);
    } catch (error) {
      ctx.log.error(`cqlint: cannot convert a ${String(finding?.ruleId)} finding in ${filePath}: ${String(error)}`);
    }
  };
  // The findings that come back as the same objects in the same places of the list, from its start and from
  // its end (all but those of the statements the edit changed): matched with the last ones without a lookup.
  const { head, tail } = before ? commonEnds(before.findings, findings) : { head: 0, tail: 0 };
  for (let i = 0; i < head; i++) place(i, i);
  for (let k = 0; k < tail; k++) place(n - 1 - k, m - 1 - k);
  const rest = new ShownMatch(before, head, m - tail);
  for (let i = head; i < n - tail; i++) place(i, rest.indexOf(findings[i]!));
  const starts = new Array<number>(n);
  const ends = new Array<number>(n);
  for (let i = 0; i < n; i++) {
    starts[i] = findings[i]!.range.start;
    ends[i] = findings[i]!.range.end;
  }
  // A copy of the list: the project may hand back the same array, changed, next time.
  shownFindings.set(filePath, { at: places.positions, findings: findings.slice(), starts, ends, diagnostics });
  const out: Diagnostic[] = [];
  for (const diagnostic of diagnostics) if (diagnostic) out.push(diagnostic);
  return out;
}
