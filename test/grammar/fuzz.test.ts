// parseCql, tokenize and expectedTokensAt never throw, and every range lies within the text.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { corpusFiles, readText } from '../helpers/corpus';
import { expectedTokensAt, parseCql, tokenize } from '../../grammar';
import type * as A from '../../grammar/ast';
import { mulberry32 as rng } from '../helpers/random';

function checkRanges(text: string, value: unknown, path = 'result'): void {
  if (Array.isArray(value)) {
    value.forEach((v, i) => checkRanges(text, v, `${path}[${i}]`));
    return;
  }
  if (value === null || typeof value !== 'object') return;
  const obj = value as Record<string, unknown>;
  if (typeof obj.start === 'number' && typeof obj.end === 'number') {
    const r = obj as unknown as A.SourceRange;
    assert.ok(r.start >= 0 && r.end <= text.length, `${path}: ${r.start}..${r.end} outside 0..${text.length}`);
    assert.ok(r.start <= r.end, `${path}: start after end`);
    return;
  }
  for (const [k, v] of Object.entries(obj)) checkRanges(text, v, `${path}.${k}`);
}

function check(text: string): void {
  const result = parseCql(text);
  checkRanges(text, result);
  for (const e of result.errors) assert.ok(e.message.length > 0);
  tokenize(text);
  expectedTokensAt(text, Math.floor(text.length / 2));
}

const corpusText = corpusFiles('cassandra-docs').slice(0, 60).map(readText).join('\n');
const ALPHABET =
  'SELECT FROM WHERE CREATE TABLE ( ) , ; \' " $$ /* */ -- . .. [ ] { } < > = ? : - + * 0 1.5 e 0x P1Y abc\n\t\\#\u00e9\u{1F600}\u0000';

describe('fuzz', () => {
  test('random bytes', () => {
    const rand = rng(1);
    for (let i = 0; i < 300; i++) {
      const len = Math.floor(rand() * 200);
      let s = '';
      for (let j = 0; j < len; j++) s += String.fromCharCode(Math.floor(rand() * 0x3000));
      check(s);
    }
  });

  test('random CQL-ish fragments', () => {
    const rand = rng(2);
    const parts = ALPHABET.split(' ');
    for (let i = 0; i < 500; i++) {
      const n = Math.floor(rand() * 40);
      check(Array.from({ length: n }, () => parts[Math.floor(rand() * parts.length)]).join(rand() < 0.5 ? ' ' : ''));
    }
  });

  test('every truncation of real statements', () => {
    const sample = corpusText.slice(0, 4000);
    for (let end = 0; end <= sample.length; end += 7) check(sample.slice(0, end));
  });

  test('random deletions and insertions in real CQL', () => {
    const rand = rng(3);
    for (let i = 0; i < 150; i++) {
      const start = Math.floor(rand() * (corpusText.length - 2000));
      let s = corpusText.slice(start, start + 2000);
      const cut = Math.floor(rand() * s.length);
      s =
        rand() < 0.5
          ? s.slice(0, cut) + s.slice(cut + Math.floor(rand() * 20))
          : s.slice(0, cut) + "'(;$$"[Math.floor(rand() * 5)] + s.slice(cut);
      check(s);
    }
  });

  test('unterminated constructs and a large input', () => {
    for (const s of [
      "'",
      '"',
      '$$',
      '/*',
      "SELECT 'x",
      'CREATE TABLE t (a int',
      'BEGIN BATCH INSERT INTO t (a) VALUES (1);',
      '((((((((((',
      '-'.repeat(1000),
    ])
      check(s);
    const big = corpusText.repeat(3) + "\nSELECT 'never closed";
    const result = parseCql(big);
    checkRanges(big, result);
    assert.ok(result.statements.length > 100);
  });
});
