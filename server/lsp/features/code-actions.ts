// Quick fixes as LSP code actions: one action per fix of each cqlint finding under the cursor
// (kind `quickfix`, with the diagnostic it fixes and `isPreferred` where one fix is clearly best),
// and `source.fixAll.cqlint` for every fix that needs no choice. The fixes themselves live in
// server/core/fixes (pure); this module only finds the findings and converts offsets.
import { pathToFileURL } from 'node:url';
import {
  CodeActionKind,
  type ClientCapabilities,
  type CodeAction,
  type CodeActionParams,
  type Diagnostic,
  type TextEdit as LspTextEdit,
  type WorkspaceEdit,
} from 'vscode-languageserver/node';
import type { Finding } from '../../core/findings';
import type { Project } from '../../core/project';
import { computeFixAll, fixesForFinding } from '../../core/fixes';
import { projectFixEnvironment, recordFixErrors } from '../../core/fixes/environment';
import type { FileEdits, TextEdit } from '../../core/fixes/types';
import { TextDocument } from 'vscode-languageserver-textdocument';
import type { Feature } from '../context';
import { offsetsToRange, toRange } from '../conversions';
import { findingToDiagnostic } from './diagnostics';
import { describeError } from '../safe';

export const FIX_ALL_KIND = 'source.fixAll.cqlint';
const FIX_ALL_TITLE = 'Fix all auto-fixable cqlint problems';
/** What the server advertises in `codeActionProvider.codeActionKinds`. */
const CODE_ACTION_KINDS: readonly string[] = [CodeActionKind.QuickFix, FIX_ALL_KIND];

export interface CodeActionRequest {
  project: Project;
  filePath: string;
  uri: string;
  /** The requested range as offsets into the project's text of the file. */
  start: number;
  end: number;
  /** Diagnostics the client sent with the request (reused so the client can link the action). */
  diagnostics: readonly Diagnostic[];
  /** `context.only`, when the client asked for some kinds only. */
  only?: readonly string[];
  shardCount?: number;
  /** The open document's version, for a versioned edit (clients with documentChanges support). */
  version?: number;
  /** URI of another workspace file (for fixes that edit several files). Default: a file: URI. */
  pathToUri?(filePath: string): string;
  /** Told about a fix that threw (a bug; the fix is left out). Default: kept in project.internalErrors. */
  onFixError?(error: unknown, finding: Finding): void;
}

function wants(only: readonly string[] | undefined, kind: string): boolean {
  // A requested kind covers its sub-kinds: `source` and `source.fixAll` both ask for source.fixAll.cqlint.
  return !only || only.some((k) => kind === k || kind.startsWith(`${k}.`));
}

function overlaps(finding: Finding, start: number, end: number): boolean {
  return finding.range.start.offset <= end && start <= finding.range.end.offset;
}

function samePosition(a: unknown, b: { line: number; character: number }): boolean {
  const p = a as { line?: unknown; character?: unknown } | null | undefined;
  return p?.line === b.line && p?.character === b.character;
}

/** The client's diagnostic for a finding (same code and range), else a fresh one. Clients send what
 * they stored, not always a full Diagnostic (Neovim 0.7 can send one without a range), so every field is
 * checked before use. */
function diagnosticFor(finding: Finding, diagnostics: readonly Diagnostic[], uri: string): Diagnostic {
  const range = toRange(finding.range);
  const same = diagnostics.find((d) =>
    d?.code === finding.ruleId && samePosition(d.range?.start, range.start) && samePosition(d.range?.end, range.end));
  return same ?? findingToDiagnostic(finding, { relatedInformation: false, pathToUri: () => uri });
}

function lspEdits(lines: TextDocument, edits: readonly TextEdit[]): LspTextEdit[] {
  return edits.map((e) => ({ range: offsetsToRange(lines, e), newText: e.newText }));
}

/**
 * The edit of a fix: its own document's edits, and those it makes to other files of the workspace
 * (their versions unknown here: null, which clients accept for an unversioned document).
 */
function workspaceEdit(request: CodeActionRequest, lines: TextDocument, edits: readonly TextEdit[], otherFiles: readonly FileEdits[] = []): WorkspaceEdit {
  const others: { uri: string; edits: LspTextEdit[] }[] = [];
  for (const other of otherFiles) {
    const text = request.project.getText(other.filePath);
    if (text === undefined) continue;
    const toUri = request.pathToUri ?? ((path: string) => pathToFileURL(path).href);
    others.push({ uri: toUri(other.filePath), edits: lspEdits(TextDocument.create(toUri(other.filePath), 'cql', 0, text), other.edits) });
  }
  const own = lspEdits(lines, edits);
  if (request.version !== undefined) {
    return {
      documentChanges: [
        { textDocument: { uri: request.uri, version: request.version }, edits: own },
        ...others.map((o) => ({ textDocument: { uri: o.uri, version: null }, edits: o.edits })),
      ],
    };
  }
  return { changes: Object.fromEntries([[request.uri, own], ...others.map((o) => [o.uri, o.edits])]) };
}

/** The code actions for a request; pure apart from reading the project. */
export function codeActionsFor(request: CodeActionRequest): CodeAction[] {
  const { project, filePath } = request;
  const text = project.getText(filePath);
  if (text === undefined) return [];
  const parse = project.parse(filePath);
  const env = projectFixEnvironment(project, filePath, {
    shardCount: request.shardCount,
    onError: request.onFixError ?? recordFixErrors(project, filePath),
  });
  const findings = env.findings ?? [];
  const lines = TextDocument.create(request.uri, 'cql', 0, text);
  const actions: CodeAction[] = [];
  for (const finding of findings) {
    if (!overlaps(finding, request.start, request.end)) continue;
    for (const fix of fixesForFinding(text, parse, finding, env)) {
      const kind = fix.kind === 'quickfix' ? CodeActionKind.QuickFix : CodeActionKind.RefactorRewrite;
      if (!wants(request.only, kind)) continue;
      actions.push({
        title: fix.title,
        kind,
        diagnostics: [diagnosticFor(finding, request.diagnostics, request.uri)],
        ...(fix.isPreferred ? { isPreferred: true } : {}),
        edit: workspaceEdit(request, lines, fix.edits, fix.otherFiles),
      });
    }
  }
  if (request.only && wants(request.only, FIX_ALL_KIND)) {
    const edits = computeFixAll(text, parse, findings, env);
    if (edits.length) actions.push({ title: FIX_ALL_TITLE, kind: FIX_ALL_KIND, edit: workspaceEdit(request, lines, edits) });
  }
  return actions;
}

function supportsLiterals(capabilities: ClientCapabilities): boolean {
  return capabilities.textDocument?.codeAction?.codeActionLiteralSupport !== undefined;
}

export const codeActionsFeature: Feature = {
  name: 'codeActions',
  // Clients without code action literals expect Commands; cqlint's fixes are edits, so they get none.
  // The kinds are those the fixes produce (server/core/fixes makes quick fixes only) and fix-all; edits
  // are computed up front, so there is no codeAction/resolve.
  capabilities: (ctx) =>
    supportsLiterals(ctx.clientCapabilities)
      ? { codeActionProvider: { codeActionKinds: [...CODE_ACTION_KINDS], resolveProvider: false } }
      : undefined,
  register(ctx) {
    const versioned = ctx.clientCapabilities.workspace?.workspaceEdit?.documentChanges === true;
    ctx.connection.onCodeAction((params: CodeActionParams): CodeAction[] => {
      const uri = params.textDocument.uri;
      const filePath = ctx.uriToPath(uri);
      const text = ctx.project.getText(filePath);
      if (text === undefined || ctx.skippedReason(filePath)) return [];
      const document = ctx.documents.get(uri);
      // An edit is only offered against the text it was computed from.
      if (document && document.getText() !== text) return [];
      const lines = document ?? TextDocument.create(uri, 'cql', 0, text);
      const actions = codeActionsFor({
        project: ctx.project,
        filePath,
        uri,
        start: lines.offsetAt(params.range.start),
        end: lines.offsetAt(params.range.end),
        diagnostics: Array.isArray(params.context?.diagnostics) ? params.context.diagnostics : [],
        only: Array.isArray(params.context?.only) ? params.context.only : undefined,
        shardCount: ctx.settings.shardCount,
        version: versioned && document ? document.version : undefined,
        pathToUri: ctx.pathToUri,
        onFixError: (error, finding) => {
          ctx.project.recordInternalError(finding.ruleId, filePath, error);
          ctx.log.error(`cqlint: a quick fix for ${finding.ruleId} failed: ${describeError(error)}`);
        },
      });
      ctx.log.debug(`cqlint: codeAction ${uri} ${params.range.start.line}:${params.range.start.character}-${params.range.end.line}:${params.range.end.character} only=${Array.isArray(params.context?.only) ? params.context.only.join(',') : '*'}: ${actions.length} action(s)`);
      return actions;
    });
  },
};
