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
import type { Finding } from '../../core/findings/findings';
import type { Project } from '../../core/engine/project';
import { computeFixAll, fixOffers, resolveOffer } from '../../core/fixes';
import { projectFixContext, recordFixErrors } from '../../core/fixes/environment';
import type { FileEdits, NewFile, TextEdit } from '../../core/fixes/types';
import type { Feature } from '../context';
import { requires } from '../readiness';
import { offsetsToRange, toRange } from '../conversions';
import { findingToDiagnostic } from './diagnostics-reports';
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
  /**
   * Another file's open document, if the editor holds one: its edits then carry its version (applied after
   * one more keystroke, an unversioned edit corrupts the buffer), and a fix computed from a text the editor
   * no longer holds is not offered.
   */
  openDocument?(filePath: string): { version: number; text: string } | undefined;
  /** Told about a fix that threw (a bug; the fix is left out). Default: kept in project.internalErrors. */
  onFixError?(error: unknown, finding: Finding): void;
  /** Told about a fix left out because application code cannot take its edits (why, and which file). */
  onRefused?(filePath: string, reason: string): void;
  /**
   * The client applies a CreateFile in a WorkspaceEdit's documentChanges (`workspace.workspaceEdit`:
   * documentChanges, and `create` among its resourceOperations). A fix that creates a file (a partition fix's
   * next migration) is offered only then.
   */
  createFiles?: boolean;
  /**
   * The client resolves a code action's `edit` (codeAction/resolve): a partition fix's edit (a refactoring
   * over the workspace) is then built for the one action chosen, not for every action of the light bulb.
   */
  resolveEdits?: boolean;
}

/** What codeAction/resolve needs to find a fix again: the file, its version, the finding and the fix. */
interface ResolveData {
  cqlintFix: 1;
  uri: string;
  version?: number;
  ruleId: string;
  start: number;
  end: number;
  fixId: string;
}

function isResolveData(value: unknown): value is ResolveData {
  const d = value as Partial<ResolveData> | null;
  return (
    typeof d === 'object' &&
    d !== null &&
    d.cqlintFix === 1 &&
    typeof d.uri === 'string' &&
    typeof d.ruleId === 'string' &&
    typeof d.start === 'number' &&
    typeof d.end === 'number' &&
    typeof d.fixId === 'string'
  );
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
  const same = diagnostics.find(
    (d) =>
      d?.code === finding.ruleId && samePosition(d.range?.start, range.start) && samePosition(d.range?.end, range.end),
  );
  return same ?? findingToDiagnostic(finding, { relatedInformation: false, pathToUri: () => uri });
}

/**
 * A file's edits (into its CQL text) as LSP edits of what the file holds: for application code, written into its
 * string literals (Project.sourceEdits); undefined, logged, when that is refused.
 */
function lspEdits(
  request: Pick<CodeActionRequest, 'project' | 'onRefused'>,
  filePath: string,
  edits: readonly TextEdit[],
): LspTextEdit[] | undefined {
  const { project } = request;
  const source = project.sourceEdits(filePath, edits);
  const lines = project.sourceLines(filePath);
  if ('refused' in source || !lines) {
    request.onRefused?.(filePath, 'refused' in source ? source.refused : 'the file is not in the workspace');
    return undefined;
  }
  return source.edits.map((e) => ({ range: offsetsToRange(lines, e), newText: e.newText }));
}

/**
 * The edit of a fix: its own document's edits, and those it makes to other files of the workspace, each
 * open one with its version (null, which clients accept for an unversioned document, for a closed file).
 * Undefined when another file's open document no longer holds the text the edits were computed from, or when
 * the edits of one file cannot be written (a string literal of application code that cannot hold them): the
 * fix changes every file or none.
 */
function workspaceEdit(
  request: Pick<
    CodeActionRequest,
    'project' | 'filePath' | 'uri' | 'version' | 'pathToUri' | 'openDocument' | 'onRefused' | 'createFiles'
  >,
  edits: readonly TextEdit[],
  otherFiles: readonly FileEdits[] = [],
  newFiles: readonly NewFile[] = [],
): WorkspaceEdit | undefined {
  const others: { uri: string; version: number | null; edits: LspTextEdit[] }[] = [];
  const toUri = request.pathToUri ?? ((path: string) => pathToFileURL(path).href);
  for (const other of otherFiles) {
    const text = request.project.sourceText(other.filePath);
    if (text === undefined) continue;
    const open = request.openDocument?.(other.filePath);
    if (open && open.text !== text) return undefined;
    const otherEdits = lspEdits(request, other.filePath, other.edits);
    if (!otherEdits) return undefined;
    others.push({ uri: toUri(other.filePath), version: open?.version ?? null, edits: otherEdits });
  }
  const own = lspEdits(request, request.filePath, edits);
  if (!own) return undefined;
  if (newFiles.length) return creatingEdit(request, own, others, newFiles, toUri);
  if (request.version !== undefined) {
    return {
      documentChanges: [
        { textDocument: { uri: request.uri, version: request.version }, edits: own },
        ...others.map((o) => ({ textDocument: { uri: o.uri, version: o.version }, edits: o.edits })),
      ],
    };
  }
  return { changes: Object.fromEntries([[request.uri, own], ...others.map((o) => [o.uri, o.edits])]) };
}

/** Whether the files cannot be created (the client cannot, or one exists): said to onRefused. */
function refusedCreation(
  request: Pick<CodeActionRequest, 'project' | 'onRefused' | 'createFiles' | 'openDocument'>,
  newFiles: readonly NewFile[],
): boolean {
  for (const { filePath } of newFiles) {
    const why = !request.createFiles
      ? 'the editor does not apply file creations in a workspace edit (workspace.workspaceEdit.resourceOperations)'
      : request.project.getText(filePath) !== undefined || request.openDocument?.(filePath)
        ? 'the file exists already'
        : undefined;
    if (why) {
      request.onRefused?.(filePath, why);
      return true;
    }
  }
  return false;
}

/**
 * The edit of a fix that creates files: documentChanges with the edits of the files that exist (empty ones left
 * out), then each new file's CreateFile (never over a file: overwrite and ignoreIfExists false) and the edit
 * that writes its text. Undefined when the client cannot create files, or the workspace holds one of them.
 */
function creatingEdit(
  request: Pick<CodeActionRequest, 'project' | 'uri' | 'version' | 'onRefused' | 'createFiles' | 'openDocument'>,
  own: LspTextEdit[],
  others: readonly { uri: string; version: number | null; edits: LspTextEdit[] }[],
  newFiles: readonly NewFile[],
  toUri: (path: string) => string,
): WorkspaceEdit | undefined {
  if (refusedCreation(request, newFiles)) return undefined;
  const start = { line: 0, character: 0 };
  return {
    documentChanges: [
      ...(own.length ? [{ textDocument: { uri: request.uri, version: request.version ?? null }, edits: own }] : []),
      ...others
        .filter((o) => o.edits.length)
        .map((o) => ({ textDocument: { uri: o.uri, version: o.version }, edits: o.edits })),
      ...newFiles.flatMap(({ filePath, text }) => [
        { kind: 'create' as const, uri: toUri(filePath), options: { overwrite: false, ignoreIfExists: false } },
        {
          textDocument: { uri: toUri(filePath), version: null },
          edits: [{ range: { start, end: start }, newText: text }],
        },
      ]),
    ],
  };
}

/** Whether application code holds statements of the table (its qualified name): its fixes may be refused there. */
function hostCodeOn(project: Project, table: string): boolean {
  for (const tables of project.schema().tablesByName.values()) {
    for (const info of tables) {
      if (info.qualifiedName !== table) continue;
      if (project.referencesTo(info).some((reference) => project.hostLanguage(reference.file) !== undefined))
        return true;
    }
  }
  return false;
}

/** The code actions for a request; pure apart from reading the project. */
export function codeActionsFor(request: CodeActionRequest): CodeAction[] {
  const { project, filePath } = request;
  const text = project.getText(filePath);
  if (text === undefined) return [];
  const parse = project.parse(filePath);
  const ctx = projectFixContext(project, filePath, {
    shardCount: request.shardCount,
    onError: request.onFixError ?? recordFixErrors(project, filePath),
  });
  const findings = project.lint(filePath);
  const actions: CodeAction[] = [];
  for (const finding of findings) {
    if (!overlaps(finding, request.start, request.end)) continue;
    // An offer is listed unresolved (its edits built when picked) unless application code holds statements of
    // the table: then a fix may be refused by it, and is resolved to know (a deferred edit would come back empty).
    const offers = fixOffers(text, parse, finding, ctx);
    const eager = !request.resolveEdits || offers.some((offer) => offer.plan && hostCodeOn(project, offer.plan.table));
    for (const offer of offers) {
      const kind = offer.kind === 'quickfix' ? CodeActionKind.QuickFix : CodeActionKind.RefactorRewrite;
      if (!wants(request.only, kind)) continue;
      // A fix that creates a file the client cannot create is not offered (refusedCreation says why).
      if (offer.newFiles?.length && refusedCreation(request, offer.newFiles)) continue;
      const fix = eager ? resolveOffer(offer, finding, ctx) : undefined;
      if (eager && !fix) continue;
      // Application code that cannot take the edits: not offered.
      if (fix?.refused) {
        request.onRefused?.(fix.refused.filePath, fix.refused.reason);
        continue;
      }
      const action: CodeAction = {
        title: offer.title,
        kind,
        diagnostics: [diagnosticFor(finding, request.diagnostics, request.uri)],
        ...((fix ?? offer).isPreferred ? { isPreferred: true } : {}),
      };
      if (!fix && offer.plan && offer.id) {
        const data: ResolveData = {
          cqlintFix: 1,
          uri: request.uri,
          ...(request.version !== undefined ? { version: request.version } : {}),
          ruleId: finding.ruleId,
          start: finding.range.start.offset,
          end: finding.range.end.offset,
          fixId: offer.id,
        };
        action.data = data;
      } else {
        const resolved = fix ?? resolveOffer(offer, finding, ctx);
        if (!resolved || resolved.refused) continue;
        const edit = workspaceEdit(request, resolved.edits, resolved.otherFiles, resolved.newFiles);
        if (!edit) continue;
        action.edit = edit;
      }
      actions.push(action);
    }
  }
  if (request.only && wants(request.only, FIX_ALL_KIND)) {
    const edits = computeFixAll(text, parse, findings, ctx);
    const edit = edits.length ? workspaceEdit(request, edits) : undefined;
    if (edit) actions.push({ title: FIX_ALL_TITLE, kind: FIX_ALL_KIND, edit });
  }
  return actions;
}

/**
 * codeAction/resolve: the edit of the action `data` names, computed again from the finding and the fix id;
 * the action comes back as it was (no edit) when the file changed or the finding is gone meanwhile.
 */
export function resolveCodeAction(
  action: CodeAction,
  request: Omit<CodeActionRequest, 'start' | 'end' | 'diagnostics' | 'only'>,
): CodeAction {
  const data = action.data;
  if (
    !isResolveData(data) ||
    data.uri !== request.uri ||
    (data.version !== undefined && request.version !== undefined && data.version !== request.version)
  )
    return action;
  const { project, filePath } = request;
  const text = project.getText(filePath);
  if (text === undefined) return action;
  const ctx = projectFixContext(project, filePath, {
    shardCount: request.shardCount,
    onError: request.onFixError ?? recordFixErrors(project, filePath),
  });
  const finding = project
    .lint(filePath)
    .find((f) => f.ruleId === data.ruleId && f.range.start.offset === data.start && f.range.end.offset === data.end);
  const offer = finding && fixOffers(text, project.parse(filePath), finding, ctx, data.fixId)[0];
  const fix = offer && resolveOffer(offer, finding, ctx);
  const edit = fix && !fix.refused ? workspaceEdit(request, fix.edits, fix.otherFiles, fix.newFiles) : undefined;
  return edit ? { ...action, edit } : action;
}

function supportsResolveOfEdits(capabilities: ClientCapabilities): boolean {
  const properties = capabilities.textDocument?.codeAction?.resolveSupport?.properties;
  return Array.isArray(properties) && properties.includes('edit');
}

function supportsLiterals(capabilities: ClientCapabilities): boolean {
  return capabilities.textDocument?.codeAction?.codeActionLiteralSupport !== undefined;
}

export const codeActionsFeature: Feature = {
  name: 'codeActions',
  // Clients without code action literals expect Commands; cqlint's fixes are edits, so they get none.
  // The kinds are those the fixes produce (server/core/fixes makes quick fixes only) and fix-all. Clients that
  // resolve edits get a partition fix's edit (a refactoring of the workspace) only for the action they pick.
  capabilities: (ctx) =>
    supportsLiterals(ctx.clientCapabilities)
      ? {
          codeActionProvider: {
            codeActionKinds: [...CODE_ACTION_KINDS],
            resolveProvider: supportsResolveOfEdits(ctx.clientCapabilities),
          },
        }
      : undefined,
  register(ctx) {
    const versioned = ctx.clientCapabilities.workspace?.workspaceEdit?.documentChanges === true;
    const operations = ctx.clientCapabilities.workspace?.workspaceEdit?.resourceOperations;
    const createFiles = versioned && Array.isArray(operations) && operations.includes('create');
    const openDocument = (filePath: string): { version: number; text: string } | undefined => {
      const document = ctx.documents.get(ctx.pathToUri(filePath));
      return document && { version: document.version, text: document.getText() };
    };
    const resolveEdits = supportsResolveOfEdits(ctx.clientCapabilities);
    const onFixError = (filePath: string) => (error: unknown, finding: Finding) => {
      ctx.project.recordInternalError(finding.ruleId, filePath, error);
      ctx.log.error(`cqlint: a quick fix for ${finding.ruleId} failed: ${describeError(error)}`);
    };
    const onRefused = (filePath: string, reason: string): void =>
      ctx.log.info(`cqlint: a fix is not offered: its edits to ${filePath} cannot be written there: ${reason}`);
    if (resolveEdits) {
      ctx.connection.onCodeActionResolve(
        requires('nothing', (action: CodeAction): CodeAction => {
          const data = action?.data as Partial<ResolveData> | undefined;
          if (!isResolveData(data)) return action;
          const filePath = ctx.uriToPath(data.uri);
          const document = ctx.documents.get(data.uri);
          const text = ctx.project.sourceText(filePath);
          // An edit is only computed against the text the editor holds.
          if (text === undefined || ctx.skippedReason(filePath) || (document && document.getText() !== text))
            return action;
          return resolveCodeAction(action, {
            project: ctx.project,
            filePath,
            uri: data.uri,
            shardCount: ctx.settings.shardCount,
            version: versioned && document ? document.version : undefined,
            pathToUri: ctx.pathToUri,
            openDocument,
            onFixError: onFixError(filePath),
            onRefused,
            createFiles,
          });
        }),
      );
    }
    ctx.connection.onCodeAction(
      requires('file', (params: CodeActionParams): CodeAction[] => {
        const uri = params.textDocument.uri;
        const filePath = ctx.uriToPath(uri);
        const text = ctx.project.sourceText(filePath);
        const positions = ctx.project.positions(filePath);
        if (text === undefined || !positions || ctx.skippedReason(filePath)) return [];
        const document = ctx.documents.get(uri);
        // An edit is only offered against the text it was computed from.
        if (document && document.getText() !== text) return [];
        // In application code a range may start or end outside its CQL: what of it shows CQL.
        const start = positions.offsetAt(params.range.start);
        const end = positions.offsetAt(params.range.end);
        if (start === undefined && end === undefined) return [];
        const actions = codeActionsFor({
          project: ctx.project,
          filePath,
          uri,
          start: start ?? end!,
          end: end ?? start!,
          diagnostics: Array.isArray(params.context?.diagnostics) ? params.context.diagnostics : [],
          only: Array.isArray(params.context?.only) ? params.context.only : undefined,
          shardCount: ctx.settings.shardCount,
          version: versioned && document ? document.version : undefined,
          pathToUri: ctx.pathToUri,
          openDocument,
          onFixError: onFixError(filePath),
          onRefused,
          createFiles,
          resolveEdits,
        });
        ctx.log.debug(
          `cqlint: codeAction ${uri} ${params.range.start.line}:${params.range.start.character}-${params.range.end.line}:${params.range.end.character} only=${Array.isArray(params.context?.only) ? params.context.only.join(',') : '*'}: ${actions.length} action(s)`,
        );
        return actions;
      }),
    );
  },
};
