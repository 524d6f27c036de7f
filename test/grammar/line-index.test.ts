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
});
