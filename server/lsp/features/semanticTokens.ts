// Semantic tokens (full document and range) with a legend that adds the partitionKey and
// clusteringKey modifiers for key columns.
import type { SemanticTokens } from 'vscode-languageserver/node';
import { encodeSemanticTokens, semanticTokens, SEMANTIC_TOKENS_LEGEND } from '../../core/editor/semantic-tokens';
import type { Feature } from '../context';
import { editorDocument, editorIndex } from './symbols';

export const semanticTokensFeature: Feature = {
  name: 'semanticTokens',
  capabilities: { semanticTokensProvider: { legend: SEMANTIC_TOKENS_LEGEND, full: true, range: true } },
  register(ctx) {
    ctx.connection.languages.semanticTokens.on((params): SemanticTokens => {
      const doc = editorDocument(ctx, params.textDocument.uri);
      if (!doc) return { data: [] };
      return { data: encodeSemanticTokens(semanticTokens(editorIndex(ctx), doc.filePath, doc.text, doc.parse)) };
    });
    ctx.connection.languages.semanticTokens.onRange((params): SemanticTokens => {
      const doc = editorDocument(ctx, params.textDocument.uri);
      if (!doc) return { data: [] };
      const range = { start: doc.lines.offsetAt(params.range.start), end: doc.lines.offsetAt(params.range.end) };
      return { data: encodeSemanticTokens(semanticTokens(editorIndex(ctx), doc.filePath, doc.text, doc.parse, range)) };
    });
  },
};
