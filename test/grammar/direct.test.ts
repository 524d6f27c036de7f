// grammar/direct.ts reads the common statements straight from their tokens. Wherever it gives an AST, the
// parser (Chevrotain) must accept the statement and the CST builder must give the very same AST: the same
// fields in the same order, the same values and ranges, the same range objects shared between the same
// nodes. Checked on every statement of the corpus and on thousands of mutated statements (a token dropped,
// doubled, swapped or replaced), where the reader must give up whenever the parser would not agree.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { IToken } from '../../grammar/chevrotain';
import { lexCql } from '../../grammar/lexer';
import { chunkTokens, isShellWord } from '../../grammar/chunks';
import { readStatement } from '../../grammar/direct';
import { buildStatement } from '../../grammar/builder';
import { withSharedStrings } from '../../grammar/nodes';
import { getParser } from '../../grammar/parser';
import type { CqlStatementCstNode } from '../../grammar/cst';
import type * as A from '../../grammar/ast';
import { corpusFiles, readText } from '../helpers/corpus';
import { mulberry32 } from '../helpers/random';
import { generateAnalysisFile } from '../../bench/analysis';

/** The statement chunks of a text, each lexed on its own twice (so the two readings share no token). */
function chunks(text: string): { source: string; tokens: () => IToken[] }[] {
  const { tokens } = lexCql(text);
  const out: { source: string; tokens: () => IToken[] }[] = [];
  for (const [start, end] of chunkTokens(tokens)) {
    if (isShellWord(tokens[start]!)) continue;
    const source = text.slice(tokens[start]!.startOffset, tokens[end - 1]!.endOffset! + 1);
    out.push({ source, tokens: () => lexCql(source).tokens });
  }
  return out;
}

function viaParser(tokens: IToken[]): A.Statement | undefined {
  const parser = getParser();
  parser.input = tokens;
  const cst = parser.cqlStatement();
  if (parser.errors.length) return undefined;
  return withSharedStrings(() => buildStatement(cst as CqlStatementCstNode, tokens));
}

/** Where two ASTs differ (fields and their order, values, and which nodes share an object), or undefined. */
function difference(a: unknown, b: unknown, path = 'statement', seenA = new Map<object, object>(), seenB = new Map<object, object>()): string | undefined {
  if (typeof a !== typeof b) return `${path}: ${typeof a} vs ${typeof b}`;
  if (a === null || typeof a !== 'object') return Object.is(a, b) ? undefined : `${path}: ${JSON.stringify(a)} vs ${JSON.stringify(b)}`;
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  if (seenA.has(x) || seenB.has(y)) return seenA.get(x) === y && seenB.get(y) === x ? undefined : `${path}: shared differently`;
  seenA.set(x, y);
  seenB.set(y, x);
  if (Array.isArray(x) !== Array.isArray(y)) return `${path}: array vs object`;
  const keysA = Object.keys(x).join();
  const keysB = Object.keys(y).join();
  if (keysA !== keysB) return `${path}: fields ${keysA} vs ${keysB}`;
  for (const key of Object.keys(x)) {
    const d = difference(x[key], y[key], `${path}.${key}`, seenA, seenB);
    if (d) return d;
  }
  return undefined;
}

interface Tally {
  direct: number;
  parserOnly: number;
}

/** Checks one statement; counts whether the direct reading took it, and says so. */
function check(chunk: { source: string; tokens: () => IToken[] }, tally: Tally): boolean {
  const direct = withSharedStrings(() => readStatement(chunk.tokens()));
  if (!direct) {
    tally.parserOnly++;
    return false;
  }
  tally.direct++;
  const parsed = viaParser(chunk.tokens());
  assert.ok(parsed, `read directly, but the parser rejects it: ${JSON.stringify(chunk.source)}`);
  const d = difference(direct, parsed);
  assert.equal(d, undefined, `${d} in ${JSON.stringify(chunk.source)}`);
  return true;
}

/** Tokens worth trying in any position: keywords whose reading depends on lookahead, punctuation, values. */
const POOL = [
  'KEY', 'EXISTS', 'IF', 'NOT', 'AND', 'AS', 'CONTAINS', 'IN', 'FROM', 'WHERE', 'JSON', 'DISTINCT', 'CAST', 'TOKEN', 'FROZEN', 'MAP', 'LIST', 'SET',
  'STATIC', 'PRIMARY', 'TYPE', 'WITH', 'CLUSTERING', 'ORDER', 'BY', 'COMPACT', 'STORAGE', 'TTL', 'TIMESTAMP', 'USING', 'LIMIT', 'APPLY', 'BATCH', 'INDEX', 'ON',
  'KEYS', 'VALUES', 'ENTRIES', 'FULL', 'CUSTOM', 'KEYSPACE', '(', ')', '[', ']', '{', '}', '<', '>', ',', ';', '.', ':', '?', '=', '+', '-', '*', '/',
  '%', '..', 'ROLE', 'USER', 'PASSWORD', 'LOGIN', 'SUPERUSER', 'ACCESS', 'CIDRS', 'ALL', 'TO', 'TABLE', 'ROLES', 'KEYSPACES', 'PERMISSIONS', 'SELECT', 'DROP', 'FUNCTION', 'TRIGGER', 'MATERIALIZED', 'VIEW', 'MASKED', 'DEFAULT', 'LIST', 'DESCRIBE', 'OF', 'ANN', 'UNSET', "'x'", '1', '-2', '1.5', '0xff', 'true', 'null', 'NaN', 'text', 'int', 'x', '"Q"', '""', 'count',
];

const corpus = [...corpusFiles('cassandra-docs'), ...corpusFiles('killrvideo'), ...corpusFiles('dialects'), ...corpusFiles('cassandra-docs-broken')];

/** Forms of the statements read directly that the corpus lacks (and, with the corpus, the seeds of the mutations). */
const EXTRA = [
  'GRANT UNMASK ON ALL TABLES IN KEYSPACE ks TO r;', 'REVOKE ALL PERMISSIONS ON ALL FUNCTIONS IN KEYSPACE ks FROM r;',
  'GRANT ALL ON ALL FUNCTIONS TO r;', 'GRANT AUTHORIZE PERMISSION, CREATE ON ALL MBEANS TO r;', 'GRANT SELECT ON ROLE bob TO alice;',
  "GRANT SELECT ON role TO 'alice';", 'REVOKE MODIFY ON all.t FROM r;', 'GRANT EXECUTE ON MBEAN \'x\' TO r;', 'GRANT all TO bob;',
  "CREATE ROLE r WITH ACCESS TO DATACENTERS {'dc1', 'dc2'} AND HASHED PASSWORD = 'x' AND GENERATED PASSWORD;",
  "ALTER ROLE IF EXISTS r WITH ACCESS TO ALL DATACENTERS AND ACCESS FROM CIDRS {'a'};", "create role if not exists 'r';",
  "ALTER USER 'u' WITH GENERATED PASSWORD NOSUPERUSER;", "CREATE USER u WITH HASHED PASSWORD 'h';", "alter user u superuser;",
  "SELECT m['k'], u.f.g, -l[1], CAST(x AS frozen<list<int>>)[0], ks.f(x).a, cast(y AS text) AS c FROM t WHERE m[?] = 1 AND l[1][2].a > 0;",
  "UPDATE t SET a = b[1] + c.d WHERE k = m[:x];", "SELECT x[1..2] FROM t;", "SELECT x[..2] FROM t;", "SELECT CAST(x AS int) FROM t;",
  'CREATE TABLE t (a int PRIMARY KEY, b text MASKED WITH DEFAULT, c text static MASKED WITH ks.f(1, ?), d int MASKED WITH default(1) PRIMARY KEY);',
  'ALTER TABLE t ALTER b MASKED WITH mask_null();', 'ALTER TABLE ks.t ALTER b DROP MASKED;', 'ALTER TABLE t ALTER b MASKED WITH DEFAULT;',
  'LIST ALL;', 'LIST SELECT, MODIFY PERMISSION ON ALL TABLES IN KEYSPACE ks OF r NORECURSIVE;', "list superusers of 'r';", 'LIST USERS NORECURSIVE;',
  'DESCRIBE KEYSPACE;', 'DESC KEYSPACE ks WITH INTERNALS;', 'DESCRIBE INDEX ks.i;', 'describe materialized view v;', 'DESCRIBE FULL SCHEMA;',
  'DESCRIBE SCHEMA WITH INTERNALS;', 'DESCRIBE ONLY KEYSPACE ks;', 'DESCRIBE TYPES;', 'DESCRIBE t;',
  "INSERT INTO t JSON '{}' DEFAULT UNSET IF NOT EXISTS USING TTL 5;", 'insert into ks.t json ? default null;', 'INSERT INTO t JSON :j;',
  'SELECT * FROM t ORDER BY v ANN OF [1.5, ?] DESC, c LIMIT 3;', "CREATE TRIGGER IF NOT EXISTS tr ON ks.t USING 'c';",
  "ALTER SCHEMA IF EXISTS ks WITH durable_writes = false AND replication = {'class': 'x'};",
  'DROP SCHEMA IF EXISTS ks;', 'DROP MATERIALIZED VIEW IF EXISTS ks.v;', 'DROP FUNCTION IF EXISTS ks.f (int, frozen<list<text>>, ks.t);',
  'drop aggregate a ();', 'DROP TRIGGER IF EXISTS tr ON ks.t;', 'DROP TYPE ks.t;', 'DROP FUNCTION token;',
  'CREATE TYPE IF NOT EXISTS ks.t (a frozen<list<int>>, b ks.u, c map<text, tuple<int, t2>>,);', 'create type t (x int);',
];

describe('reading statements straight from their tokens', () => {
  test('every corpus statement the direct reading takes has the AST the parser gives it', () => {
    const tally: Tally = { direct: 0, parserOnly: 0 };
    for (const file of corpus) for (const chunk of chunks(readText(file))) check(chunk, tally);
    const extra: Tally = { direct: 0, parserOnly: 0 };
    for (const chunk of chunks(EXTRA.join('\n'))) check(chunk, extra);
    assert.ok(extra.direct >= 44, JSON.stringify(extra));
    // It serves its purpose: most statements of real files are read directly.
    assert.ok(tally.direct > 4 * tally.parserOnly, JSON.stringify(tally));
  });

  test('the analysis bench file: every statement but its views read directly, with the parser\'s AST', () => {
    const tally: Tally = { direct: 0, parserOnly: 0 };
    const left: string[] = [];
    for (const chunk of chunks(generateAnalysisFile(2000).text)) if (!check(chunk, tally)) left.push(chunk.source);
    assert.deepEqual(left.filter((source) => !source.startsWith('CREATE MATERIALIZED VIEW')), []);
    assert.ok(tally.direct > 400, JSON.stringify(tally));
  });

  test('mutated statements: read directly only when the parser agrees, with its AST', () => {
    const statements = [...corpus.flatMap((file) => chunks(readText(file)).map((c) => c.source)), ...EXTRA];
    const tally: Tally = { direct: 0, parserOnly: 0 };
    // Short statements of every kind, each token in turn replaced by each token of the pool.
    const short = statements.filter((source) => lexCql(source).tokens.length <= 16);
    for (let i = 0; i < short.length; i += Math.ceil(short.length / 60)) {
      const images = lexCql(short[i]!).tokens.map((t) => t.image);
      for (let at = 0; at < images.length; at++) {
        for (const pick of POOL) {
          const mutated = images.slice();
          mutated[at] = pick;
          for (const chunk of chunks(mutated.join(' '))) check(chunk, tally);
        }
      }
    }
    // Random drops, doubles, swaps and insertions anywhere in any statement.
    const random = mulberry32(24);
    for (let round = 0; round < 20000; round++) {
      const source = statements[Math.floor(random() * statements.length)]!;
      const images = lexCql(source).tokens.map((t) => t.image);
      if (!images.length) continue;
      const at = Math.floor(random() * images.length);
      const pick = POOL[Math.floor(random() * POOL.length)]!;
      const op = Math.floor(random() * 4);
      if (op === 0) images.splice(at, 1);
      else if (op === 1) images.splice(at, 0, images[at]!);
      else if (op === 2 && at + 1 < images.length) [images[at], images[at + 1]] = [images[at + 1]!, images[at]!];
      else images.splice(at, random() < 0.5 ? 1 : 0, pick);
      for (const chunk of chunks(images.join(' '))) check(chunk, tally);
    }
    assert.ok(tally.direct > 2000 && tally.parserOnly > 2000, JSON.stringify(tally));
  });
});
