// The JSON of the messages the server writes, as vscode-jsonrpc's own encoder makes it (JSON.stringify, then
// the bytes), except that a report's diagnostics are encoded one by one and each one's JSON is kept with it:
// after an edit most of a document's diagnostics are the very objects of its last report (features/
// diagnostics-reports.ts reuses them while their findings stand), and a large document's report is hundreds of KB
// of them (800 KB for 1,329 diagnostics on the analysis bench's 10,000 lines). Diagnostics are never
// changed once made, which is what lets their JSON be kept.
import type { ContentTypeEncoder, ContentTypeEncoderOptions, Message } from 'vscode-jsonrpc';

/** Each diagnostic's JSON, kept as long as the diagnostic. */
const encoded = new WeakMap<object, string>();

/** Stands for the diagnostics in the message's own JSON, until they are put in its place. */
const PLACEHOLDER = `\u0000cqlint-diagnostics-${Math.random().toString(36).slice(2)}\u0000`;
const PLACEHOLDER_JSON = JSON.stringify(PLACEHOLDER);

function diagnosticsJson(items: readonly unknown[]): string {
  let out = '[';
  for (let i = 0; i < items.length; i++) {
    const item = items[i];
    let json = typeof item === 'object' && item !== null ? encoded.get(item) : undefined;
    if (json === undefined) {
      // As JSON.stringify writes an array's element (undefined and functions as null).
      json = JSON.stringify(item) ?? 'null';
      if (typeof item === 'object' && item !== null) encoded.set(item, json);
    }
    out += i ? `,${json}` : json;
  }
  return `${out}]`;
}

/**
 * The message's JSON: a document diagnostic report (the answer to textDocument/diagnostic) or a
 * publishDiagnostics notification with its diagnostics encoded one by one; any other message as is.
 */
export function messageJson(message: Message): string {
  const m = message as { result?: { items?: unknown }; method?: string; params?: { diagnostics?: unknown } };
  let items: readonly unknown[] | undefined;
  let wrapper: unknown;
  if ('id' in message && Array.isArray(m.result?.items) && (m.result as { kind?: unknown }).kind === 'full') {
    items = m.result!.items as unknown[];
    wrapper = { ...message, result: { ...m.result, items: PLACEHOLDER } };
  } else if (m.method === 'textDocument/publishDiagnostics' && Array.isArray(m.params?.diagnostics)) {
    items = m.params!.diagnostics as unknown[];
    wrapper = { ...message, params: { ...m.params, diagnostics: PLACEHOLDER } };
  }
  if (!items) return JSON.stringify(message, undefined, 0);
  const list = diagnosticsJson(items);
  return JSON.stringify(wrapper, undefined, 0).replace(PLACEHOLDER_JSON, () => list);
}

/** vscode-jsonrpc's application/json encoder with messageJson. */
export const messageEncoder: ContentTypeEncoder = {
  name: 'application/json',
  encode(message: Message, options: ContentTypeEncoderOptions): Promise<Uint8Array> {
    try {
      return Promise.resolve(Buffer.from(messageJson(message), options.charset));
    } catch (error) {
      return Promise.reject(error);
    }
  },
};
