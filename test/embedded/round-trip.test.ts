// Property: random CQL edits inside the fixtures' statements, mapped to host edits and applied, read back as the
// edited CQL (holes aside), and the host file still parses in its language with no new error. Seeded: a failure
// names its seed, file and edit.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { applyEdits } from '../../server/core/fixes/text';
import { hostLanguageOf, loadHostLanguages, readEmbedded, type EmbeddedDocument } from '../../server/core/embedded';
import { parserFor } from '../../server/core/embedded/runtime';
import type { TextEdit } from '../../server/core/util/text-edit';
import { mulberry32 } from '../helpers/random';
import { FIXTURES, readFixture } from './helpers';

const EDITS_PER_FILE = 120;
/** New text is drawn from these: CQL, quotes of every host syntax, escapes, format and template characters. */
const ALPHABET = [
  'a',
  'Z',
  '_',
  ' ',
  ' ',
  ',',
  '?',
  '=',
  '(',
  ')',
  "'",
  '"',
  '\\',
  '\n',
  '\t',
  '%',
  '{',
  '}',
  '$',
  '`',
  's',
  ';',
  '-',
  'é',
  '1',
];

function fixtureFiles(): string[] {
  const out: string[] = [];
  for (const folder of readdirSync(FIXTURES).sort()) {
    const dir = join(FIXTURES, folder);
    if (!statSync(dir).isDirectory()) continue;
    for (const file of readdirSync(dir).sort()) if (hostLanguageOf(file)) out.push(`${folder}/${file}`);
  }
  return out;
}

/** The statement's text with its holes (whose placeholders depend on the text before them) replaced by one mark. */
function normalised(doc: EmbeddedDocument, i: number, text = doc.cqlText, shift = 0, editEnd = Infinity): string {
  const s = doc.statements[i]!;
  let out = '';
  let at = s.cqlRange.start;
  for (const h of s.holes) {
    const moved = h.start >= editEnd ? shift : 0;
    out += text.slice(at, h.start + moved) + '\u0001';
    at = h.end + moved;
  }
  out += text.slice(at, s.cqlRange.end + shift);
  // White space that ends a line is not CQL: literals that strip indentation may drop it.
  return out.replace(/[ \t]+$/gm, '').replace(/\s+$/, '');
}

function hasError(language: Parameters<typeof parserFor>[0], text: string): boolean {
  const tree = parserFor(language).parse(text)!;
  try {
    return tree.rootNode.hasError;
  } finally {
    tree.delete();
  }
}

test('random CQL edits round-trip through the host files', async () => {
  const files = fixtureFiles();
  let applied = 0;
  let refused = 0;
  for (const [n, file] of files.entries()) {
    const { src, doc } = await readFixture(file);
    const language = hostLanguageOf(file)!;
    await loadHostLanguages([language]);
    const candidates = doc.statements.map((s, i) => ({ s, i })).filter(({ s }) => s.anchor);
    if (candidates.length === 0) continue;
    const errorBefore = hasError(language, src);
    const random = mulberry32(1000 + n);
    for (let k = 0; k < EDITS_PER_FILE; k++) {
      const { s, i } = candidates[Math.floor(random() * candidates.length)]!;
      // Keep the first word: a statement is found by the keyword its literal starts with.
      const firstWord = /^\S+\s/.exec(doc.cqlText.slice(s.cqlRange.start))![0].length;
      const from =
        s.cqlRange.start + firstWord + Math.floor(random() * (s.cqlRange.end - s.cqlRange.start - firstWord + 1));
      const length = random() < 0.4 ? 0 : Math.floor(random() * Math.min(6, s.cqlRange.end - from + 1));
      let newText = '';
      for (let c = Math.floor(random() * 6); c > 0; c--) newText += ALPHABET[Math.floor(random() * ALPHABET.length)];
      if (/[$:?#]\{|%\(|\?\d/.test(newText) || (length === 0 && newText === '')) continue;
      const edit: TextEdit = { start: from, end: from + length, newText };
      const where = `${file} seed ${1000 + n} edit ${k} ${JSON.stringify(edit)}`;
      const expected = normalised(doc, i, applyEdits(doc.cqlText, [edit]), newText.length - length, edit.end);
      // Text that reads as a Python driver parameter (`%s`) changes how the driver reads the statement: not a round trip.
      if (language === 'python' && /%s|%\(/.test(expected)) continue;
      const result = doc.hostEdits([edit]);
      if ('refused' in result) {
        refused++;
        assert.match(result.refused, /^cqlint cannot make this change in the code: /, where);
        continue;
      }
      applied++;
      const after = applyEdits(src, result.edits);
      const again = readEmbedded(language, after);
      assert.equal(again.statements.length, doc.statements.length, `${where}: statements found again`);
      assert.equal(normalised(again, i), expected, where);
      assert.equal(hasError(language, after), errorBefore, `${where}: the host file still parses`);
    }
  }
  assert.ok(applied > files.length * 10, `enough edits applied (${applied}, ${refused} refused)`);
});
