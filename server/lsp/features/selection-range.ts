// Selection ranges (expand/shrink selection): token -> expression -> clause -> statement -> file.
import { offsetsToRange } from '../conversions';
import type { SelectionRange } from 'vscode-languageserver/node';
import { selectionChain } from '../../core/editor/selection';
import type { Feature } from '../context';
import { requires } from '../readiness';
import { cqlDocument } from './symbols';

export const selectionRangeFeature: Feature = {
  name: 'selectionRange',
  capabilities: { selectionRangeProvider: true },
  register(ctx) {
    ctx.connection.onSelectionRanges(
      requires('file', (params): SelectionRange[] => {
        const doc = cqlDocument(ctx, params.textDocument.uri);
        if (!doc) return [];
        return params.positions.map((position) => {
          const offset = doc.lines.offsetAt(position);
          const chain = selectionChain(doc.text, doc.parse, offset);
          let parent: SelectionRange | undefined;
          for (let i = chain.length - 1; i >= 0; i--) {
            parent = { range: offsetsToRange(doc.lines, chain[i]), parent };
          }
          // Every position must get an answer: an empty range at the cursor when nothing else applies.
          return parent ?? { range: { start: position, end: position } };
        });
      }),
    );
  },
};
