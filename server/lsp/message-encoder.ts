// The bytes of the messages the server writes, as vscode-jsonrpc's own encoder makes them (JSON.stringify, then
// the UTF-8 bytes), except that a report's diagnostics are encoded one by one and each one's bytes are kept with
// it: after an edit most of a document's diagnostics are the very objects of its last report (features/
// diagnostics-reports.ts reuses them while their findings stand), and a large document's report is hundreds of KB
// of them (767 KB for 1,381 diagnostics on the analysis bench's 10,000 lines). Diagnostics are never changed
// once made, which is what lets their bytes be kept. The message is assembled from bytes, not from a string:
// a string joined from the kept pieces had to be flattened and then encoded as UTF-8 again on every pull, and
// that was 8.8 ms of every pull of the bench's file (CPU profile of the server, issue 41), where copying the
// kept bytes is a fraction of a millisecond.
//
// A report is written in ASCII: JSON.stringify's text with every character past U+007F written as its \u escape,
// which JSON reads back as the very same string (the client receives the same values). The client decodes the
// bytes to a string and parses that (vscode-jsonrpc: JSON.parse(buffer.toString('utf-8'))), and a single
// non-ASCII character anywhere (the bench's report has 82 '×' in 937 KB) makes V8 decode the whole body on its
// slow path into a two-byte string: 3.4 ms against 0.9 ms to decode the bench's report, by CPU time.
import type { ContentTypeEncoder, ContentTypeEncoderOptions, Message } from 'vscode-jsonrpc';

/** Each diagnostic's JSON in ASCII (asciiJson), kept as long as the diagnostic. */
const encoded = new WeakMap<object, Buffer>();

/** Stands for the diagnostics in the message's own JSON, until they are put in its place. */
const PLACEHOLDER = `\u0000cqlint-diagnostics-${Math.random().toString(36).slice(2)}\u0000`;
const PLACEHOLDER_JSON = JSON.stringify(PLACEHOLDER);

const COMMA = Buffer.from(',');
const OPEN = Buffer.from('[');
const CLOSE = Buffer.from(']');

const NON_ASCII = /[^\u0000-\u007f]/g;
const HAS_NON_ASCII = /[^\u0000-\u007f]/;
const escaped = (c: string): string => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;

/**
 * JSON text with every character past U+007F as its \u escape (a character outside the BMP as its two
 * surrogates'): the same JSON value. Such characters stand only inside strings in JSON.stringify's text.
 */
export function asciiJson(json: string): string {
  return HAS_NON_ASCII.test(json) ? json.replace(NON_ASCII, escaped) : json;
}

/** The bytes of one element of the diagnostics array (as JSON.stringify writes it: undefined and functions as null). */
function itemBytes(item: unknown): Buffer {
  const kept = typeof item === 'object' && item !== null ? encoded.get(item) : undefined;
  if (kept) return kept;
  const bytes = Buffer.from(asciiJson(JSON.stringify(item) ?? 'null'), 'latin1');
  if (typeof item === 'object' && item !== null) encoded.set(item, bytes);
  return bytes;
}

/**
 * A document diagnostic report (the answer to textDocument/diagnostic) or a publishDiagnostics notification:
 * its diagnostics, and the message with the placeholder in their place. Undefined for any other message.
 */
function splitReport(message: Message): { items: readonly unknown[]; wrapper: unknown } | undefined {
  const m = message as { result?: { items?: unknown }; method?: string; params?: { diagnostics?: unknown } };
  if ('id' in message && Array.isArray(m.result?.items) && (m.result as { kind?: unknown }).kind === 'full') {
    return {
      items: m.result!.items as unknown[],
      wrapper: { ...message, result: { ...m.result, items: PLACEHOLDER } },
    };
  }
  if (m.method === 'textDocument/publishDiagnostics' && Array.isArray(m.params?.diagnostics)) {
    return {
      items: m.params!.diagnostics as unknown[],
      wrapper: { ...message, params: { ...m.params, diagnostics: PLACEHOLDER } },
    };
  }
  return undefined;
}

/**
 * The message's JSON as UTF-8: JSON.stringify(message); for a report, in ASCII (asciiJson), with its
 * diagnostics' bytes kept.
 */
export function messageBytes(message: Message): Buffer {
  const report = splitReport(message);
  if (!report) return Buffer.from(JSON.stringify(message, undefined, 0), 'utf-8');
  const json = asciiJson(JSON.stringify(report.wrapper, undefined, 0));
  const at = json.indexOf(PLACEHOLDER_JSON);
  const parts: Buffer[] = [Buffer.from(json.slice(0, at), 'latin1'), OPEN];
  const { items } = report;
  for (let i = 0; i < items.length; i++) {
    if (i) parts.push(COMMA);
    parts.push(itemBytes(items[i]));
  }
  parts.push(CLOSE, Buffer.from(json.slice(at + PLACEHOLDER_JSON.length), 'latin1'));
  return Buffer.concat(parts);
}

const isUtf8 = (charset: string): boolean => /^utf-?8$/i.test(charset);

/** vscode-jsonrpc's application/json encoder with messageBytes (for UTF-8, the charset the server writes). */
export const messageEncoder: ContentTypeEncoder = {
  name: 'application/json',
  encode(message: Message, options: ContentTypeEncoderOptions): Promise<Uint8Array> {
    try {
      return Promise.resolve(
        isUtf8(options.charset)
          ? messageBytes(message)
          : Buffer.from(JSON.stringify(message, undefined, 0), options.charset),
      );
    } catch (error) {
      return Promise.reject(error);
    }
  },
};
