// The one textDocument/hover provider. Hover content comes from a small registry so several areas
// can contribute: names (tables, columns, types, keywords, functions: hover-names.ts) and
// partition-key literals (tokens, shards: key-preview.ts). Each contribution is markdown; the
// server shows them together, separated by rules, in registration order.
//
// To add one: `registerHoverProvider((ctx, doc, offset) => markdown | { markdown, start, end } | undefined)`
// from your feature's register(ctx) (or at module load). A provider that throws is skipped.
import { offsetsToRange } from '../conversions';
import { MarkupKind, type Hover } from 'vscode-languageserver/node';
import type { Feature, ServerContext } from '../context';
import { requires } from '../readiness';
import { editorDocument, type EditorDocument } from './symbols';
import { nameHoverProvider } from './hover-names';
import { embeddedHoverProvider } from './hover-embedded';

interface HoverContribution {
  markdown: string;
  /** The span the hover is about (offsets); the first contribution's span is the hover's range. */
  start?: number;
  end?: number;
}

type HoverProvider = (
  ctx: ServerContext,
  doc: EditorDocument,
  offset: number,
) => string | HoverContribution | undefined;

/** Providers asked for every hover, in order. Names come first; in application code, where its CQL came from. */
const hoverProviders: HoverProvider[] = [nameHoverProvider, embeddedHoverProvider];

export function registerHoverProvider(provider: HoverProvider): void {
  if (!hoverProviders.includes(provider)) hoverProviders.push(provider);
}

/** Collects every provider's contribution for a position (exported for tests). */
function collectHover(ctx: ServerContext, doc: EditorDocument, offset: number): Hover | null {
  const parts: string[] = [];
  let range: Hover['range'];
  for (const provider of hoverProviders) {
    let contribution: string | HoverContribution | undefined;
    try {
      contribution = provider(ctx, doc, offset);
    } catch (error) {
      ctx.log.error(`cqlint: a hover provider failed: ${error instanceof Error ? error.message : String(error)}`);
      continue;
    }
    if (!contribution) continue;
    const c = typeof contribution === 'string' ? { markdown: contribution } : contribution;
    if (!c.markdown) continue;
    parts.push(c.markdown);
    if (!range && c.start !== undefined && c.end !== undefined) {
      range = offsetsToRange(doc.lines, { start: c.start, end: c.end });
    }
  }
  if (!parts.length) return null;
  return { contents: { kind: MarkupKind.Markdown, value: parts.join('\n\n---\n\n') }, range };
}

export const hoverFeature: Feature = {
  name: 'hover',
  capabilities: { hoverProvider: true },
  register(ctx) {
    ctx.connection.onHover(
      requires('file-and-ring', (params) => {
        const doc = editorDocument(ctx, params.textDocument.uri);
        if (!doc) return null;
        const offset = doc.lines.offsetAt(params.position);
        // In application code, only inside its CQL.
        return offset === undefined ? null : collectHover(ctx, doc, offset);
      }),
    );
  },
};
