// `cqlint/tokenAt`: params `{ textDocument: { uri }, position }` -> `{ markdown } | null`, the hover's key
// preview for the partition key value under the cursor, or else for the key of the statement under it.
// The VS Code command cqlint.showTokenAtCursor calls it.
import type { Position } from 'vscode-languageserver/node';
import type { Feature, ServerContext } from '../context';
import { keyAt, keyPreviewMarkdown } from './key-preview';
import { editorDocument } from './symbols';

const TOKEN_AT_REQUEST = 'cqlint/tokenAt';

interface TokenAtParams {
  textDocument: { uri: string };
  position: Position;
}

function tokenAt(ctx: ServerContext, params: TokenAtParams): { markdown: string } | null {
  const uri = params?.textDocument?.uri;
  const position = params?.position;
  if (typeof uri !== 'string' || !position || typeof position.line !== 'number' || typeof position.character !== 'number') return null;
  const doc = editorDocument(ctx, uri);
  if (!doc) return null;
  const offset = doc.lines.offsetAt(position);
  const at = keyAt(ctx, doc, offset, true) ?? keyAt(ctx, doc, offset, false);
  if (!at) return null;
  return { markdown: keyPreviewMarkdown(ctx, doc, at) };
}

export const tokenAtFeature: Feature = {
  name: 'tokenAt',
  register(ctx) {
    ctx.connection.onRequest(TOKEN_AT_REQUEST, (params: TokenAtParams) => tokenAt(ctx, params));
  },
};
