// Document and range formatting. `cqlint.format.keywordCase` (upper | lower | preserve, default
// upper) is the document's own setting (ctx.settingsFor); the indent follows the request's
// tabSize. Statements with syntax errors are never touched.
import { offsetsToRange } from '../conversions';
import type { DocumentFormattingParams, TextEdit } from 'vscode-languageserver/node';
import { formatDocumentEdits, formatRange, type KeywordCase } from '../../core/format/formatter';
import type { Feature, ServerContext } from '../context';
import { requires } from '../readiness';
import { requestBudget, settleBudget, unlessCancelled } from '../budget';
import { cqlDocument, symbolsFeature, type EditorDocument } from './symbols';
import { completionFeature } from './completion';
import { hoverFeature } from './hover';
import { navigationFeature } from './navigation';
import { semanticTokensFeature } from './semantic-tokens';
import { foldingFeature } from './folding';
import { selectionRangeFeature } from './selection-range';

/** The keyword case for a document: its `cqlint.format.keywordCase` setting (default `upper`). */
async function keywordCaseFor(ctx: ServerContext, uri: string): Promise<KeywordCase> {
  return (await ctx.settingsFor(uri)).format.keywordCase;
}

function toLspEdits(doc: EditorDocument, edits: { start: number; end: number; newText: string }[]): TextEdit[] {
  return edits.map((e) => ({ range: offsetsToRange(doc.lines, e), newText: e.newText }));
}

function indentSize(params: DocumentFormattingParams): number {
  const size = params.options?.tabSize;
  return typeof size === 'number' && size > 0 && size <= 16 ? size : 4;
}

const formattingFeature: Feature = {
  name: 'formatting',
  capabilities: { documentFormattingProvider: true, documentRangeFormattingProvider: true },
  register(ctx) {
    ctx.connection.onDocumentFormatting(
      requires('file', async (params, token): Promise<TextEdit[]> => {
        await unlessCancelled(token);
        const keywordCase = await keywordCaseFor(ctx, params.textDocument.uri);
        // Looked up after the await: the text may have changed meanwhile.
        const doc = cqlDocument(ctx, params.textDocument.uri);
        if (!doc) return [];
        const budget = requestBudget('formatting', token);
        const edits = formatDocumentEdits(doc.text, { keywordCase, indentSize: indentSize(params), budget }, doc.parse);
        settleBudget(ctx, doc, 'formatting', budget, 'formatted');
        return toLspEdits(doc, edits);
      }),
    );
    ctx.connection.onDocumentRangeFormatting(
      requires('file', async (params, token): Promise<TextEdit[]> => {
        await unlessCancelled(token);
        const keywordCase = await keywordCaseFor(ctx, params.textDocument.uri);
        const doc = cqlDocument(ctx, params.textDocument.uri);
        if (!doc) return [];
        const start = doc.lines.offsetAt(params.range.start);
        const end = doc.lines.offsetAt(params.range.end);
        const budget = requestBudget('formatting', token);
        const edits = formatRange(
          doc.text,
          start,
          end,
          { keywordCase, indentSize: indentSize(params), budget },
          doc.parse,
        );
        settleBudget(ctx, doc, 'formatting', budget, 'formatted');
        return toLspEdits(doc, edits);
      }),
    );
  },
};

/** Every editor feature, in the order to list them in server/lsp/features/index.ts (the benchmark uses it too). */
export function editorFeatures(): Feature[] {
  return [
    completionFeature,
    hoverFeature,
    navigationFeature,
    symbolsFeature,
    semanticTokensFeature,
    foldingFeature,
    selectionRangeFeature,
    formattingFeature,
  ];
}
