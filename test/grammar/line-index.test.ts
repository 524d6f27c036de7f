// The one offset <-> line conversion of grammar/ and server/core: LF, CRLF and a lone CR end lines alike.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { expectedTokensAt } from '../../grammar';
import { LineIndex } from '../../grammar/line-index';

describe('LineIndex', () => {
  for (const [eol, name] of [
    ['\n', 'LF'],
    ['\r\n', 'CRLF'],
    ['\r', 'CR'],
  ] as const) {
    test(`agrees with TextDocument on every offset (${name})`, () => {
      const text = ['USE ks;', '', 'SELECT 😀 FROM t;', 'x'].join(eol) + eol;
      const lines = new LineIndex(text);
      const document = TextDocument.create('file:///t.cql', 'cql', 0, text);
      assert.equal(lines.lineCount, document.lineCount);
      for (let offset = 0; offset <= text.length; offset++) {
        if (text[offset - 1] === '\r' && text[offset] === '\n') continue; // inside a CRLF: not a position
        const position = document.positionAt(offset);
        assert.deepEqual(lines.positionAt(offset), position, `offset ${offset}`);
        assert.deepEqual(lines.location(offset), { offset, line: position.line + 1, column: position.character + 1 });
        assert.equal(lines.offsetAt(position), document.offsetAt(position));
      }
      assert.equal(lines.offsetAt({ line: 0, character: 99 }), 'USE ks;'.length, 'clamped before the line break');
    });

    test(`content assist knows a cqlsh command ended at the line break (${name})`, () => {
      const text = `SOURCE 'schema.cql'${eol}`;
      const expected = expectedTokensAt(text, text.length);
      assert.ok(expected.atStatementStart);
      assert.ok(expected.keywords.includes('SELECT'));
    });
  }

  test('an edited text gets the same lines from the index of the text before (LineIndex.edited)', () => {
    // Edits of every kind at every place of texts of LF, CRLF and lone CR, breaks split or joined by the edit.
    let seed = 41;
    const random = (n: number): number => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    const pieces = ['\n', '\r', '\r\n', 'a', 'bc', '\n\n', '\r\r', ''];
    const some = (n: number): string => Array.from({ length: n }, () => pieces[random(pieces.length)]).join('');
    let checked = 0;
    for (let round = 0; round < 3000; round++) {
      const before = some(random(12));
      const from = random(before.length + 1);
      const to = from + random(before.length - from + 1);
      const after = before.slice(0, from) + some(random(4)) + before.slice(to);
      const edited = LineIndex.edited(new LineIndex(before), after);
      assert.deepEqual(edited.lineStarts, new LineIndex(after).lineStarts, JSON.stringify({ before, after }));
      assert.equal(edited.text, after);
      checked++;
    }
    // An edit in a long text, a line inserted above the rest.
    const long = Array.from({ length: 2000 }, (_, i) => `SELECT * FROM t WHERE k = ${i};`).join('\n');
    const inserted = long.slice(0, 500) + 'x\n' + long.slice(500);
    assert.deepEqual(LineIndex.edited(new LineIndex(long), inserted).lineStarts, new LineIndex(inserted).lineStarts);
    assert.equal(checked, 3000);
  });
});
