// `cqlint/tokenAt` (lsp-extensions.ts): the hover's key preview for the partition key value under the
// cursor, or else for the key of the statement under it. The VS Code command cqlint.showTokenAtCursor calls it.
import type { Feature, ServerContext } from '../context';
import { requires } from '../readiness';
import { tokenAtRequest, type ParamsOf, type ResultOf } from '../lsp-extensions';
import { keyAt, keyPreviewMarkdown } from './key-preview';
import { editorDocument } from './symbols';

function tokenAt(ctx: ServerContext, params: ParamsOf<typeof tokenAtRequest>): ResultOf<typeof tokenAtRequest> {
  const uri = params?.textDocument?.uri;
  const position = params?.position;
  if (
    typeof uri !== 'string' ||
    !position ||
    typeof position.line !== 'number' ||
    typeof position.character !== 'number'
  )
    return null;
  const doc = editorDocument(ctx, uri);
  if (!doc) return null;
  const offset = doc.lines.offsetAt(position);
  if (offset === undefined) return null;
  const at = keyAt(ctx, doc, offset, true) ?? keyAt(ctx, doc, offset, false);
  if (!at) return null;
  return { markdown: keyPreviewMarkdown(ctx, doc, at) };
}

export const tokenAtFeature: Feature = {
  name: 'tokenAt',
  register(ctx) {
    ctx.connection.onRequest(
      tokenAtRequest.method,
      requires('file-and-ring', (params: ParamsOf<typeof tokenAtRequest>) => tokenAt(ctx, params)),
    );
  },
};
