// Go to definition, find references and rename (with prepareRename) for keyspaces, tables, views,
// columns and user types across the workspace.
import { offsetsToRange } from '../conversions';
import type { Location, WorkspaceEdit, TextEdit } from 'vscode-languageserver/node';
import { findDefinition, findReferences, prepareRename, rename, editsByFile } from '../../core/editor/navigation';
import type { Feature } from '../context';
import { requires } from '../readiness';
import { cqlDocument, editorDocument, editorIndex, offsetOf } from './symbols';

export const navigationFeature: Feature = {
  name: 'navigation',
  capabilities: (ctx) => ({
    definitionProvider: true,
    referencesProvider: true,
    renameProvider: ctx.clientCapabilities.textDocument?.rename?.prepareSupport ? { prepareProvider: true } : true,
  }),
  register(ctx) {
    const toLocations = (ranges: ReturnType<typeof findReferences>): Location[] =>
      ranges.map((r) => ({ uri: ctx.pathToUri(r.filePath), range: ctx.toRange(r.filePath, r.range) }));

    ctx.connection.onDefinition(
      requires('file', (params) => {
        const doc = editorDocument(ctx, params.textDocument.uri);
        const offset = doc && offsetOf(doc, params.position);
        if (!doc || offset === undefined) return null;
        return toLocations(findDefinition(editorIndex(ctx), doc.filePath, offset));
      }),
    );

    ctx.connection.onReferences(
      requires('file', (params) => {
        const doc = editorDocument(ctx, params.textDocument.uri);
        const offset = doc && offsetOf(doc, params.position);
        if (!doc || offset === undefined) return null;
        const include = params.context?.includeDeclaration ?? true;
        return toLocations(findReferences(editorIndex(ctx), doc.filePath, offset, include));
      }),
    );

    ctx.connection.onPrepareRename(
      requires('file', (params) => {
        // Renames start in CQL files (a rename's edits in application code would need its quoting: not offered).
        const doc = cqlDocument(ctx, params.textDocument.uri);
        if (!doc) return null;
        const result = prepareRename(editorIndex(ctx), doc.filePath, doc.lines.offsetAt(params.position));
        // null tells the client there is nothing to rename here (the reason goes to the log).
        if (!result.ok) {
          ctx.log.debug(`cqlint: prepareRename: ${result.message}`);
          return null;
        }
        return { range: offsetsToRange(doc.lines, result.range), placeholder: result.placeholder };
      }),
    );

    ctx.connection.onRenameRequest(
      requires('file', (params): WorkspaceEdit | null => {
        const doc = cqlDocument(ctx, params.textDocument.uri);
        if (!doc) return null;
        const result = rename(editorIndex(ctx), doc.filePath, doc.lines.offsetAt(params.position), params.newName);
        if (!result.ok) {
          // Tell the user why (a clash, an invalid name) instead of failing silently.
          ctx.log.info(`cqlint: rename refused: ${result.message}`);
          ctx.connection.window.showWarningMessage(`cqlint: ${result.message}`);
          return null;
        }
        const changes: Record<string, TextEdit[]> = {};
        for (const [filePath, edits] of editsByFile(result.edits)) {
          changes[ctx.pathToUri(filePath)] = edits.map((e) => ({
            range: ctx.toRange(filePath, e),
            newText: e.newText,
          }));
        }
        return { changes };
      }),
    );
  },
};
