// The TextMate grammar (syntaxes/cql.tmLanguage.json): its regexes, what it scopes, and agreement with
// the project's own CQL lexer over the test corpus.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { NATIVE_TYPE_NAMES, RESERVED_KEYWORDS, UNRESERVED_KEYWORDS, tokenize } from '../../grammar';
import { corpusFiles, readText } from '../helpers/corpus';
import { Tokenizer, compile, type RawGrammar, type RawRule, type Token } from './textmate';
import { LineIndex } from '../../grammar/line-index';

const root = join(__dirname, '..', '..');
const grammar: RawGrammar = JSON.parse(readFileSync(join(root, 'syntaxes', 'cql.tmLanguage.json'), 'utf8'));
const tm = new Tokenizer(grammar);

function allRegexes(): string[] {
  const out: string[] = [];
  const visit = (rule: RawRule | undefined) => {
    if (!rule) return;
    for (const key of ['match', 'begin', 'end'] as const) if (rule[key]) out.push(rule[key]!);
    rule.patterns?.forEach(visit);
    for (const captures of [rule.captures, rule.beginCaptures, rule.endCaptures]) {
      for (const capture of Object.values(captures ?? {})) capture.patterns?.forEach(visit);
    }
  };
  grammar.patterns.forEach(visit);
  Object.values(grammar.repository).forEach(visit);
  return out;
}

/** The scopes shared by the tokens that cover `needle` (its first occurrence) in `source`. */
function scopeOf(source: string, needle: string, tokens: Token[] = tm.tokenize(source)): string {
  const at = source.indexOf(needle);
  assert.ok(at >= 0, `${needle} not in ${source}`);
  let offset = 0;
  let common: string[] | undefined;
  for (const token of tokens) {
    const end = offset + token.text.length;
    if (end > at && offset < at + needle.length) {
      if (!common) common = token.scopes;
      else {
        let i = 0;
        while (i < common.length && common[i] === token.scopes[i]) i++;
        common = common.slice(0, i);
      }
    }
    offset = end;
  }
  assert.ok(common, `no token at ${at}`);
  return common.join(' ');
}

test('every regex compiles, and lookbehinds are fixed-length (Oniguruma requires it)', () => {
  const regexes = allRegexes();
  assert.ok(regexes.length > 30);
  for (const source of regexes) {
    assert.doesNotThrow(() => compile(source), source);
    for (const lookbehind of source.matchAll(/\(\?<[!=]((?:\\.|[^()\\])*)\)/g)) {
      assert.doesNotMatch(lookbehind[1]!.replace(/\\./g, 'x'), /[*+?{]/, `variable-length lookbehind in ${source}`);
    }
  }
});

test('the grammar is case-insensitive for keywords and types', () => {
  for (const source of ['select * from t;', 'SELECT * FROM t;', 'Select * From t;']) {
    assert.match(scopeOf(source, source.slice(0, 6)), /keyword\.other\.cql/);
  }
  assert.match(scopeOf('x TEXT,', 'TEXT'), /storage\.type\.native/);
  assert.match(scopeOf('x Frozen<list<int>>', 'Frozen'), /storage\.type\.collection/);
});

const CASES: [source: string, needle: string, scope: RegExp][] = [
  ["INSERT INTO t (a) VALUES ('it''s');", "'it''s'", /^source\.cql string\.quoted\.single\.cql/],
  ["VALUES ('it''s')", "''", /constant\.character\.escape/],
  ['AS $$ return a + b; $$;', 'return a + b;', /string\.quoted\.other\.dollar\.cql meta\.embedded/],
  ['SELECT "Weird ""Name""" FROM t', '"Weird ""Name"""', /variable\.other\.quoted/],
  ['SELECT "Weird ""Name""" FROM t', '""', /constant\.character\.escape/],
  ['WHERE a = 42', '42', /constant\.numeric\.integer/],
  ['WHERE a = -1.5e10', '1.5e10', /constant\.numeric\.float/],
  ['WHERE a = 3.14', '3.14', /constant\.numeric\.float/],
  ['WHERE a = 2E3', '2E3', /constant\.numeric\.float/],
  ['WHERE a = NaN', 'NaN', /constant\.numeric/],
  ['WHERE a = -Infinity', 'Infinity', /constant\.numeric/],
  ['WHERE b = 0xCAFEbabe', '0xCAFEbabe', /constant\.numeric\.hex/],
  ['WHERE id = 123e4567-e89b-12d3-a456-426614174000', '123e4567-e89b-12d3-a456-426614174000', /constant\.other\.uuid/],
  ['WHERE d = 1h30m', '1h30m', /constant\.other\.duration/],
  ['WHERE d = 12mo3w500ms', '12mo3w500ms', /constant\.other\.duration/],
  ['WHERE d = P1Y2M3D', 'P1Y2M3D', /constant\.other\.duration/],
  ['WHERE d = PT5S', 'PT5S', /constant\.other\.duration/],
  ['WHERE d = P2W', 'P2W', /constant\.other\.duration/],
  ['WHERE d = P0001-02-03T04:05:06', 'P0001-02-03T04:05:06', /constant\.other\.duration/],
  ['WHERE f = true', 'true', /constant\.language\.boolean/],
  ['WHERE f = FALSE', 'FALSE', /constant\.language\.boolean/],
  ['SET v = null', 'null', /constant\.language\.null/],
  ['-- a comment', 'a comment', /comment\.line\.double-dash/],
  ['// a comment', 'a comment', /comment\.line\.double-slash/],
  ['/* a\nblock */ SELECT', 'block', /comment\.block/],
  ['WHERE a = ? AND b = :name', '?', /variable\.parameter\.bind-marker\.positional/],
  ['WHERE a = ? AND b = :name', ':name', /variable\.parameter\.bind-marker\.named/],
  ['WHERE a >= 1', '>=', /keyword\.operator\.comparison/],
  ['WHERE a != 1', '!=', /keyword\.operator\.comparison/],
  ['SET c = c + 1', '+', /keyword\.operator\.arithmetic/],
  ['SET l += [1]', '+=', /keyword\.operator/],
  ['WHERE a IN (1, 2) AND b CONTAINS 3', 'IN', /keyword\.operator\.logical/],
  ['SELECT token(a) FROM t', 'token', /support\.function/],
  ['SELECT my_fn(a) FROM t', 'my_fn', /entity\.name\.function/],
  ['INSERT INTO ks.users (a) VALUES (1)', 'users', /variable\.other\.table/],
  ['CREATE TABLE IF NOT EXISTS ks.users (a int PRIMARY KEY)', 'users', /entity\.name\.type/],
  ['CREATE INDEX ON ks.users (a)', 'ON', /keyword/],
  ['-- @shard shard = murmur3(title) % 16 + 1', '@shard', /comment\.line.*storage\.type\.annotation\.shard/],
  ['-- @shard shard = murmur3(title) % 16 + 1', 'murmur3', /meta\.annotation\.shard.*support\.function/],
  ['-- @shard shard = murmur3(title) % 16 + 1', '16', /meta\.annotation\.shard.*constant\.numeric/],
  [
    '-- cqlint-disable-next-line hot-partition, unbounded-partition',
    'cqlint-disable-next-line',
    /comment\.line.*keyword\.control\.directive/,
  ],
  [
    '-- cqlint-disable-next-line hot-partition, unbounded-partition',
    'unbounded-partition',
    /comment\.line.*entity\.name\.tag\.rule-id/,
  ],
  ['/* cqlint-disable hot-partition */', 'hot-partition', /comment\.block.*entity\.name\.tag\.rule-id/],
  ['// cqlint-enable', 'cqlint-enable', /comment\.line\.double-slash.*keyword\.control\.directive/],
  ['-- not a directive: xcqlint-disable', 'xcqlint-disable', /^source\.cql comment\.line\.double-dash\.cql$/],
  ["COPY ks.t TO 'out.csv';", 'COPY', /keyword\.other\.cqlsh/],
];

for (const [source, needle, scope] of CASES) {
  test(`scopes ${JSON.stringify(needle)} in ${JSON.stringify(source)}`, () => {
    assert.match(scopeOf(source, needle), scope);
  });
}

test('a string or comment does not leak past its end', () => {
  const source = "SELECT 'a -- b' FROM t; -- c\nSELECT x FROM t;";
  assert.match(scopeOf(source, 'FROM'), /keyword/);
  assert.match(scopeOf(source, 'x FROM'), /^source\.cql$/);
  assert.match(scopeOf(source, 'x'), /variable/);
  const block = '/* x\ny */ SELECT';
  assert.match(scopeOf(block, 'SELECT'), /keyword\.other\.cql$/);
});

test('every keyword the parser knows is highlighted (upper and lower case)', () => {
  const typeLike = new Set(['MAP', 'LIST', 'SET', 'FROZEN', 'TUPLE', 'VECTOR']);
  const constants = new Set(['NULL', 'NAN', 'INFINITY', 'TRUE', 'FALSE']);
  const natives = new Set(NATIVE_TYPE_NAMES.map((n) => n.toUpperCase()));
  const missed: string[] = [];
  for (const word of new Set([...RESERVED_KEYWORDS, ...UNRESERVED_KEYWORDS])) {
    for (const spelled of [word, word.toLowerCase()]) {
      const source = typeLike.has(word) ? `x ${spelled}<int>` : `x ${spelled} y`;
      const scope = scopeOf(source, spelled);
      const ok = constants.has(word)
        ? /constant/.test(scope)
        : natives.has(word) || typeLike.has(word)
          ? /storage\.type/.test(scope)
          : /keyword/.test(scope);
      if (!ok) missed.push(`${spelled} -> ${scope}`);
    }
  }
  assert.deepEqual(missed, []);
});

test('every word highlighted as a keyword is one the lexer knows (the lists are generated from grammar/lexer.ts)', () => {
  const keywords = grammar.repository['keywords']!.patterns!.find((p) => p.name === 'keyword.other.cql')!.match!;
  const listed = /\(\?:([a-z_|]+)\)/.exec(keywords)![1]!.split('|');
  const known = new Set([...RESERVED_KEYWORDS, ...UNRESERVED_KEYWORDS].map((w) => w.toLowerCase()));
  assert.ok(listed.length > 100);
  assert.deepEqual(
    listed.filter((w) => !known.has(w)),
    [],
  );
  // A word the lexer reads as a name is highlighted as one.
  assert.match(scopeOf('BEGIN LOGGED BATCH', 'LOGGED'), /variable\.other\.cql/);
});

test('the 21 native types are storage types', () => {
  assert.equal(NATIVE_TYPE_NAMES.length, 21);
  for (const type of NATIVE_TYPE_NAMES) assert.match(scopeOf(`c ${type},`, type), /storage\.type\.native/, type);
});

test('agrees with the cqlint lexer on every token of the test corpus', () => {
  const reserved = new Set(RESERVED_KEYWORDS.map((w) => w.toLowerCase()));
  const expected: Record<string, RegExp> = {
    comment: /comment/,
    string: /string/,
    number: /constant\.numeric/,
    uuid: /constant\.other\.uuid/,
    hex: /constant\.numeric\.hex/,
    duration: /constant\.other\.duration/,
    boolean: /constant\.language\.boolean/,
    null: /constant\.language\.null/,
    quotedIdentifier: /variable|entity\.name/,
    bindMarker: /variable\.parameter/,
    operator: /keyword\.operator/,
  };
  const mismatches: string[] = [];
  let checked = 0;
  // cassandra-docs-broken holds deliberately malformed text (markdown escapes, option values): left out.
  const files = ['cassandra-docs', 'killrvideo', 'dialects'].flatMap((folder) => corpusFiles(folder));
  assert.ok(files.length > 50, `corpus: ${files.length} files`);
  for (const file of files) {
    const text = readText(file).replace(/\r\n/g, '\n');
    const tokens = tm.tokenize(text);
    const starts: number[] = [];
    let offset = 0;
    for (const token of tokens) {
      starts.push(offset);
      offset += token.text.length;
    }
    const scopeAt = (at: number): string => {
      let lo = 0;
      let hi = starts.length - 1;
      while (lo < hi) {
        const mid = (lo + hi + 1) >> 1;
        if (starts[mid]! <= at) lo = mid;
        else hi = mid - 1;
      }
      return tokens[lo]!.scopes.join(' ');
    };
    for (const token of tokenize(text)) {
      const at = token.range.start + (token.category === 'number' && token.image.startsWith('-') ? 1 : 0);
      const scope = scopeAt(at);
      const word = token.image.toLowerCase();
      let ok: boolean;
      if (expected[token.category]) ok = expected[token.category]!.test(scope);
      else if (token.category === 'keyword') {
        ok = reserved.has(word)
          ? /keyword|storage\.type|support\.function|constant/.test(scope) && !/comment|string/.test(scope)
          : !/comment|string|constant/.test(scope);
      } else if (token.category === 'identifier') {
        // cqlsh commands (COPY, SOURCE, CAPTURE, ...) lex as names; the grammar marks them at line start.
        ok = !/comment|string|constant/.test(scope) && (!/keyword/.test(scope) || /keyword\.other\.cqlsh/.test(scope));
      } else ok = true;
      checked++;
      if (!ok)
        mismatches.push(
          `${file.split('/corpus/')[1]}:${new LineIndex(text).location(token.range.start).line}: ${token.category} ${token.image.slice(0, 40)} -> ${scope}`,
        );
    }
  }
  assert.ok(checked > 10_000, `only ${checked} tokens checked`);
  assert.deepEqual(mismatches.slice(0, 20), []);
});
