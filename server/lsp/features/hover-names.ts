// Hover contribution for names: tables and views (the schema's describeTable: key, columns,
// estimated row size), columns (type and key role), keyspaces, types, functions and keywords.
import { nameHover } from '../../core/editor/hover';
import { describeTable } from '../../core/sizing';
import type { ServerContext } from '../context';
import { editorIndex, type EditorDocument } from './symbols';

export function nameHoverProvider(ctx: ServerContext, doc: EditorDocument, offset: number): { markdown: string; start: number; end: number } | undefined {
  const index = editorIndex(ctx);
  return nameHover(index, doc.filePath, doc.text, doc.parse, offset, {
    describeTable: (table) => {
      const info = index.tableInfo(table);
      return info ? describeTable(info, ctx.settings.target ?? 'cassandra', { schema: ctx.project.schema() }) : undefined;
    },
  });
}
