// Reading the embedded fixtures (test/fixtures/embedded/<language>/) and looking at what was found: the statements
// as text, and the host characters a CQL range maps to.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import {
  hostLanguageOf,
  loadHostLanguages,
  readEmbedded,
  type EmbeddedDocument,
  type EmbeddedOptions,
} from '../../server/core/embedded';

export const FIXTURES = resolve(__dirname, '..', 'fixtures', 'embedded');

export interface Read {
  src: string;
  doc: EmbeddedDocument;
}

/** Reads a fixture (loading its grammar first). */
export async function readFixture(path: string, options?: EmbeddedOptions): Promise<Read> {
  const language = hostLanguageOf(path);
  assert.ok(language, `${path} is a host file`);
  await loadHostLanguages([language]);
  const src = readFileSync(join(FIXTURES, path), 'utf8');
  return { src, doc: readEmbedded(language, src, options) };
}

/** What a test pins of a statement: its CQL text, anchor, keyspace and hole placeholders. */
export function summary(
  doc: EmbeddedDocument,
): { cql: string; anchor?: string; keyspace?: string; holes?: string[] }[] {
  return doc.statements.map((s) => ({
    cql: doc.cqlText.slice(s.cqlRange.start, s.cqlRange.end).replace(/\s+/g, ' '),
    ...(s.anchor ? { anchor: s.anchor } : {}),
    ...(s.keyspace ? { keyspace: `${s.keyspace.kind}:${s.keyspace.name}` } : {}),
    ...(s.holes.length > 0 ? { holes: s.holes.map((h) => doc.cqlText.slice(h.start, h.end)) } : {}),
  }));
}

/** The CQL range of the `occurrence`-th `token` in the CQL text. */
export function cqlRangeOf(doc: EmbeddedDocument, token: string, occurrence = 0): { start: number; end: number } {
  let at = -1;
  for (let i = 0; i <= occurrence; i++) {
    at = doc.cqlText.indexOf(token, at + 1);
    assert.ok(at >= 0, `${JSON.stringify(token)} #${i} is in the CQL text`);
  }
  return { start: at, end: at + token.length };
}

/** The host text the `occurrence`-th `token` of the CQL text maps to. */
export function hostTextOf(read: Read, token: string, occurrence = 0): string {
  const range = read.doc.toHostRange(cqlRangeOf(read.doc, token, occurrence));
  return read.src.slice(range.start, range.end);
}
