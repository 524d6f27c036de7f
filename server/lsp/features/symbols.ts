// Outline (textDocument/documentSymbol) and workspace symbol search, plus the per-server editor
// state the other editor features share: the workspace symbol index and document lookups.
import { offsetsToRange } from '../conversions';
import { SymbolKind, type DocumentSymbol, type SymbolInformation, type Position } from 'vscode-languageserver/node';
import type { ParseResult } from '../../../grammar/ast';
import type { SourcePositions } from '../../../grammar/line-index';
import type { HostLanguage } from '../../core/embedded/types';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { documentSymbols, workspaceSymbols, type OutlineKind, type OutlineSymbol } from '../../core/editor/outline';
import { SymbolIndex } from '../../core/editor/symbols';
import type { Feature, ServerContext } from '../context';
import { requires } from '../readiness';

// ---------------------------------------------------------------------------------------------
// Shared editor state

const indexes = new WeakMap<ServerContext, SymbolIndex>();

/** The workspace symbol index of this server, refreshed (cheaply) on every call. */
export function editorIndex(ctx: ServerContext): SymbolIndex {
  let index = indexes.get(ctx);
  if (!index) {
    index = new SymbolIndex(ctx.project);
    indexes.set(ctx, index);
  }
  return index.refresh();
}

export interface EditorDocument {
  uri: string;
  filePath: string;
  /** The CQL text (for application code, the CQL read out of it: see core/embedded). */
  text: string;
  parse: ParseResult;
  /**
   * Offset <-> position conversion: offsets into `text`, positions in the document (for application code, the
   * host file's; offsetAt answers undefined outside its CQL).
   */
  lines: Pick<SourcePositions, 'positionAt' | 'offsetAt'>;
  /** Set for application code: only the features that work inside its CQL answer (see hostFeature). */
  host?: HostLanguage;
}

const lineIndexes = new WeakMap<ParseResult, TextDocument>();

/** The project's view of a document (text and parse agree), or undefined when it is not analysed. */
export function editorDocument(ctx: ServerContext, uri: string): EditorDocument | undefined {
  const filePath = ctx.uriToPath(uri);
  if (ctx.skippedReason(filePath) !== undefined || !ctx.project.hasFile(filePath)) return undefined;
  const text = ctx.project.getText(filePath);
  if (text === undefined) return undefined;
  const parse = ctx.project.parse(filePath);
  const host = ctx.project.hostLanguage(filePath);
  if (host) {
    const positions = ctx.project.positions(filePath);
    return positions && { uri, filePath, text, parse, lines: positions, host };
  }
  let lines = lineIndexes.get(parse);
  if (!lines || lines.getText() !== text) {
    lines = TextDocument.create(uri, 'cql', 0, text);
    lineIndexes.set(parse, lines);
  }
  return { uri, filePath, text, parse, lines };
}

/**
 * The project's view of a CQL document for a feature that works on CQL files only (outline, folding, formatting,
 * completion, semantic tokens ...): undefined for application code, whose host language is its own editor's.
 */
export function cqlDocument(ctx: ServerContext, uri: string): CqlDocument | undefined {
  const doc = editorDocument(ctx, uri);
  return doc && !doc.host ? (doc as CqlDocument) : undefined;
}

/** A CQL file's EditorDocument: its lines are its own text's. */
export type CqlDocument = Omit<EditorDocument, 'lines' | 'host'> & { lines: TextDocument };

/** The CQL offset of a document position; undefined in application code outside its CQL. */
export function offsetOf(doc: EditorDocument, position: Position): number | undefined {
  return doc.lines.offsetAt(position);
}

// ---------------------------------------------------------------------------------------------
// Symbols

const KINDS: Record<OutlineKind, SymbolKind> = {
  keyspace: SymbolKind.Namespace,
  table: SymbolKind.Class,
  view: SymbolKind.Interface,
  column: SymbolKind.Field,
  type: SymbolKind.Struct,
  field: SymbolKind.Field,
  index: SymbolKind.Key,
  function: SymbolKind.Function,
  aggregate: SymbolKind.Function,
};

function toDocumentSymbol(doc: EditorDocument, s: OutlineSymbol): DocumentSymbol {
  return {
    name: s.name,
    detail: s.detail,
    kind: KINDS[s.kind],
    range: offsetsToRange(doc.lines, s.range),
    selectionRange: offsetsToRange(doc.lines, s.selectionRange),
    children: s.children.map((c) => toDocumentSymbol(doc, c)),
  };
}

export const symbolsFeature: Feature = {
  name: 'symbols',
  capabilities: { documentSymbolProvider: { label: 'cqlint' }, workspaceSymbolProvider: true },
  register(ctx) {
    ctx.connection.onDocumentSymbol(
      requires('file', (params): DocumentSymbol[] | SymbolInformation[] => {
        const doc = cqlDocument(ctx, params.textDocument.uri);
        if (!doc) return [];
        const outline = documentSymbols(doc.parse);
        if (ctx.clientCapabilities.textDocument?.documentSymbol?.hierarchicalDocumentSymbolSupport) {
          return outline.map((s) => toDocumentSymbol(doc, s));
        }
        const flat: SymbolInformation[] = [];
        const visit = (s: OutlineSymbol, container?: string): void => {
          flat.push({
            name: s.name,
            kind: KINDS[s.kind],
            containerName: container,
            location: { uri: params.textDocument.uri, range: offsetsToRange(doc.lines, s.selectionRange) },
          });
          for (const c of s.children) visit(c, s.name);
        };
        for (const s of outline) visit(s);
        return flat;
      }),
    );
    ctx.connection.onWorkspaceSymbol(
      requires('workspace', (params): SymbolInformation[] => {
        const index = editorIndex(ctx);
        return workspaceSymbols(index, params.query ?? '').map((s) => ({
          name: s.name,
          kind: KINDS[s.kind],
          containerName: s.containerName,
          location: { uri: ctx.pathToUri(s.filePath), range: ctx.toRange(s.filePath, s.range) },
        }));
      }),
    );
  },
};
