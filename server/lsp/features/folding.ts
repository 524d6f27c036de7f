// Folding ranges: multi-line statements, batches, column/value lists, maps, comments.
import { FoldingRangeKind, type FoldingRange } from 'vscode-languageserver/node';
import { foldingRanges } from '../../core/editor/folding';
import type { Feature } from '../context';
import { requires } from '../readiness';
import { requestBudget, settleBudget, unlessCancelled } from '../budget';
import { cqlDocument } from './symbols';

export const foldingFeature: Feature = {
  name: 'folding',
  capabilities: { foldingRangeProvider: true },
  register(ctx) {
    ctx.connection.onFoldingRanges(
      requires('file', async (params, token): Promise<FoldingRange[]> => {
        await unlessCancelled(token);
        const doc = cqlDocument(ctx, params.textDocument.uri);
        if (!doc) return [];
        const lineOnly = ctx.clientCapabilities.textDocument?.foldingRange?.lineFoldingOnly;
        void lineOnly; // ranges are whole lines already
        const limit = ctx.clientCapabilities.textDocument?.foldingRange?.rangeLimit ?? Infinity;
        const budget = requestBudget('folding', token);
        const ranges = foldingRanges(doc.text, doc.parse, budget);
        settleBudget(ctx, doc, 'folding', budget, 'folding ranges');
        return ranges.slice(0, limit).map((r) => ({
          startLine: r.startLine,
          endLine: r.endLine,
          ...(r.kind === 'comment' ? { kind: FoldingRangeKind.Comment } : {}),
        }));
      }),
    );
  },
};
