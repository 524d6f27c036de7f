// textDocument/completion: context-aware items from the workspace schema and the grammar.
import {
  CompletionItemKind,
  InsertTextFormat,
  MarkupKind,
  type CompletionItem,
  type CompletionList,
} from 'vscode-languageserver/node';
import { complete, type CompletionKind } from '../../core/editor/completion';
import type { Feature } from '../context';
import { requires } from '../readiness';
import { cqlDocument, editorIndex } from './symbols';

const KINDS: Record<CompletionKind, CompletionItemKind> = {
  keyword: CompletionItemKind.Keyword,
  keyspace: CompletionItemKind.Module,
  table: CompletionItemKind.Class,
  view: CompletionItemKind.Interface,
  column: CompletionItemKind.Field,
  type: CompletionItemKind.Struct,
  function: CompletionItemKind.Function,
  option: CompletionItemKind.Property,
  class: CompletionItemKind.EnumMember,
  value: CompletionItemKind.Value,
};

/** A snippet as plain text, for clients without snippet support: placeholders keep their default. */
function snippetToText(snippet: string): string {
  return snippet
    .replace(/\$\{\d+\|([^,|}]*)[^}]*\|\}/g, '$1')
    .replace(/\$\{\d+:([^}]*)\}/g, '$1')
    .replace(/\$\{\d+\}|\$\d+/g, '');
}

const COMPLETION_TRIGGER_CHARACTERS = ['.', '(', ',', "'", '<', '{'];

export const completionFeature: Feature = {
  name: 'completion',
  capabilities: { completionProvider: { triggerCharacters: COMPLETION_TRIGGER_CHARACTERS, resolveProvider: false } },
  register(ctx) {
    ctx.connection.onCompletion(
      requires('file', (params): CompletionList => {
        const doc = cqlDocument(ctx, params.textDocument.uri);
        if (!doc) return { isIncomplete: false, items: [] };
        const offset = doc.lines.offsetAt(params.position);
        const result = complete(editorIndex(ctx), doc.filePath, doc.text, doc.parse, offset);
        const snippets = ctx.clientCapabilities.textDocument?.completion?.completionItem?.snippetSupport === true;
        const markdown =
          ctx.clientCapabilities.textDocument?.completion?.completionItem?.documentationFormat?.includes(
            MarkupKind.Markdown,
          ) ?? true;
        const range = {
          start: doc.lines.positionAt(result.replaceStart),
          end: doc.lines.positionAt(Math.max(result.replaceEnd, offset)),
        };
        // The replaced span must contain the cursor (LSP: a single line, start <= cursor).
        if (range.start.line !== range.end.line) range.end = params.position;
        const items: CompletionItem[] = result.items.map((entry) => {
          const text = entry.insertText ?? entry.label;
          const asSnippet = entry.snippet === true && snippets;
          const item: CompletionItem = {
            label: entry.label,
            kind: KINDS[entry.kind],
            detail: entry.detail,
            sortText: entry.sortText,
            filterText: entry.filterText,
            textEdit: { range, newText: asSnippet ? text : entry.snippet ? snippetToText(text) : text },
            insertTextFormat: asSnippet ? InsertTextFormat.Snippet : InsertTextFormat.PlainText,
          };
          if (entry.documentation)
            item.documentation = markdown
              ? { kind: MarkupKind.Markdown, value: entry.documentation }
              : entry.documentation;
          return item;
        });
        return { isIncomplete: false, items };
      }),
    );
  },
};
