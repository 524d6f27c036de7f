// lexCql is a hand-written scanner; Chevrotain's lexer over the same token definitions (referenceLexCql) is
// its specification. Every token (type, image, offsets, lines, columns) and every comment must agree.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { corpusFiles, readText } from '../helpers/corpus';
import { lexCql, referenceLexCql } from '../../grammar/lexer';
import type { IToken } from '../../grammar/chevrotain';
import { mulberry32 as rng } from '../helpers/random';

function shape(t: IToken) {
  return [
    t.tokenType.name,
    t.image,
    t.startOffset,
    t.endOffset,
    t.startLine,
    t.endLine,
    t.startColumn,
    t.endColumn,
    t.tokenTypeIdx,
  ];
}

function same(text: string): void {
  const actual = lexCql(text);
  const expected = referenceLexCql(text);
  assert.deepEqual(
    actual.tokens.map(shape),
    expected.tokens.map(shape),
    `tokens of ${JSON.stringify(text.slice(0, 200))}`,
  );
  assert.deepEqual(
    actual.comments.map(shape),
    expected.comments.map(shape),
    `comments of ${JSON.stringify(text.slice(0, 200))}`,
  );
}

describe('lexCql agrees with the Chevrotain lexer', () => {
  test('on the whole corpus', () => {
    for (const folder of ['cassandra-docs', 'cassandra-docs-broken', 'killrvideo', 'dialects']) {
      for (const file of corpusFiles(folder)) same(readText(file));
    }
  });

  test('on tricky literals, names and comments', () => {
    const cases = [
      "''",
      "'''",
      "''''",
      "'a''",
      "'a'''",
      "'a''b",
      "'x\r\ny'",
      "'x\n'",
      "'\n'",
      "'\r'",
      "'a\n\nb'",
      '$$',
      '$$$',
      '$$$$',
      '$$a$',
      '$ $',
      '""',
      '"""',
      '""""',
      '"a""',
      '"a"""',
      '"a""b',
      '"a""b"',
      '"\n"',
      '"x\r\ny"z',
      '"',
      '"abc',
      '/*',
      '/**/',
      '/*/',
      '/* a\n b */',
      '/* a\n',
      '--',
      '-- a\r\nb',
      '//x',
      '/',
      '/=',
      '- -',
      '-=',
      '--x\n-',
      '0x',
      '0xAB',
      '0xABg',
      '0x1_',
      '1..2',
      '1.',
      '1.e5',
      '1e',
      '1e+',
      '1e+5',
      '.5',
      '1.5.5',
      '12_',
      '1µs',
      'µ',
      '1mo',
      '1mos',
      '1h30m',
      '1H',
      '1y2',
      '0001',
      'P',
      'P1',
      'P1Y',
      'PT',
      'PT5S',
      'P2W',
      'P0001-02-03T04:05:06',
      'P0001-02-03T04:05:0',
      'PRIMARY',
      'Pt5s',
      '123e4567-e89b-12d3-a456-426614174000',
      '123e4567-e89b-12d3-a456-42661417400',
      'abcdef01-2345-6789-abcd-ef0123456789x',
      'abcdefab-',
      'deadbeef',
      'SELECT',
      'select',
      'SeLeCt',
      'columnfamily',
      'ColumnFamilies',
      'true',
      'NaN',
      '-Infinity',
      'a_b1',
      '_a',
      'é',
      '\u00a0a\ufeffb',
      '\u2028x',
      '😀',
      '<=>=!=+=-=<>=+-*/%:?;,..(){}[]',
      '!',
      '#',
      '\\',
      '\0',
      '\r',
      '\r\r\n\n',
      ' \t\f\v',
      'a\r\nb\rc\nd',
    ];
    for (const c of cases) {
      same(c);
      same(`x ${c} y`);
      same(`${c}\n'z`);
    }
  });

  test('on random text', () => {
    const rand = rng(7);
    const parts = [
      "'",
      '"',
      '$',
      '$$',
      '/*',
      '*/',
      '--',
      '//',
      '-',
      '/',
      '.',
      '..',
      '0',
      '1',
      '9',
      'x',
      'e',
      'E',
      'P',
      'T',
      'H',
      'M',
      'S',
      'mo',
      'µ',
      '_',
      'a',
      'f',
      'abcdef12',
      '-1234-',
      'SELECT',
      'key',
      ' ',
      '\n',
      '\r',
      '\r\n',
      '\t',
      '\u00a0',
      '<',
      '=',
      '!',
      'é',
      '\u0000',
    ];
    for (let i = 0; i < 3000; i++) {
      const len = Math.floor(rand() * 30);
      let s = '';
      for (let j = 0; j < len; j++) s += parts[Math.floor(rand() * parts.length)];
      same(s);
    }
    for (let i = 0; i < 300; i++) {
      let s = '';
      const len = Math.floor(rand() * 100);
      for (let j = 0; j < len; j++) s += String.fromCharCode(Math.floor(rand() * 0x200));
      same(s);
    }
  });
});
