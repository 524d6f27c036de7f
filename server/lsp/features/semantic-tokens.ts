// Semantic tokens (full document and range) with a legend that adds the partitionKey and
// clusteringKey modifiers for key columns.
import type { SemanticTokens } from 'vscode-languageserver/node';
import { encodeSemanticTokens, semanticTokens, SEMANTIC_TOKENS_LEGEND } from '../../core/editor/semantic-tokens';
import type { Feature } from '../context';
import { requires } from '../readiness';
import { requestBudget, settleBudget, unlessCancelled } from '../budget';
import { cqlDocument, editorIndex } from './symbols';

export const semanticTokensFeature: Feature = {
  name: 'semanticTokens',
  capabilities: { semanticTokensProvider: { legend: SEMANTIC_TOKENS_LEGEND, full: true, range: true } },
  register(ctx) {
    ctx.connection.languages.semanticTokens.on(
      requires('file', async (params, token): Promise<SemanticTokens> => {
        await unlessCancelled(token);
        const doc = cqlDocument(ctx, params.textDocument.uri);
        if (!doc) return { data: [] };
        const budget = requestBudget('semanticTokens', token);
        const tokens = semanticTokens(editorIndex(ctx), doc.filePath, doc.text, doc.parse, undefined, budget);
        settleBudget(ctx, doc, 'semanticTokens', budget, 'highlighted');
        return { data: encodeSemanticTokens(tokens) };
      }),
    );
    ctx.connection.languages.semanticTokens.onRange(
      requires('file', async (params, token): Promise<SemanticTokens> => {
        await unlessCancelled(token);
        const doc = cqlDocument(ctx, params.textDocument.uri);
        if (!doc) return { data: [] };
        const range = { start: doc.lines.offsetAt(params.range.start), end: doc.lines.offsetAt(params.range.end) };
        const budget = requestBudget('semanticTokens', token);
        const tokens = semanticTokens(editorIndex(ctx), doc.filePath, doc.text, doc.parse, range, budget);
        settleBudget(ctx, doc, 'semanticTokens', budget, 'highlighted');
        return { data: encodeSemanticTokens(tokens) };
      }),
    );
  },
};
