// The two readings of CQL agree: wherever the reader (the fast path) reads a statement, the Chevrotain rules accept
// it and their actions give the very same AST; wherever the rules accept a statement, the reader reads it or says
// it leaves that form to the rules; wherever the reader rejects one, the rules reject it too (test/grammar/oracle.ts).
// Checked here on every statement of the corpus and on mutated statements (a token dropped, doubled, swapped or
// replaced); test/grammar/oracle-grammar.test.ts checks statements generated from the grammar.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { corpusFiles, projectRoot, readText } from '../helpers/corpus';
import { mulberry32 } from '../helpers/random';
import { generateAnalysisFile } from '../../bench/analysis';
import { assertAgree, checkText, loadGrammar, newTally } from './oracle';

const grammar = loadGrammar(join(projectRoot, 'grammar'));

/** Tokens worth trying in any position: keywords whose reading depends on lookahead, punctuation, values. */
const POOL = [
  'KEY',
  'EXISTS',
  'IF',
  'NOT',
  'AND',
  'AS',
  'CONTAINS',
  'IN',
  'FROM',
  'WHERE',
  'JSON',
  'DISTINCT',
  'CAST',
  'TOKEN',
  'FROZEN',
  'MAP',
  'LIST',
  'SET',
  'STATIC',
  'PRIMARY',
  'TYPE',
  'WITH',
  'CLUSTERING',
  'ORDER',
  'BY',
  'COMPACT',
  'STORAGE',
  'TTL',
  'TIMESTAMP',
  'USING',
  'LIMIT',
  'APPLY',
  'BATCH',
  'INDEX',
  'ON',
  'KEYS',
  'VALUES',
  'ENTRIES',
  'FULL',
  'CUSTOM',
  'KEYSPACE',
  '(',
  ')',
  '[',
  ']',
  '{',
  '}',
  '<',
  '>',
  ',',
  ';',
  '.',
  ':',
  '?',
  '=',
  '+',
  '-',
  '*',
  '/',
  '%',
  '..',
  'ROLE',
  'USER',
  'PASSWORD',
  'LOGIN',
  'SUPERUSER',
  'ACCESS',
  'CIDRS',
  'ALL',
  'TO',
  'TABLE',
  'ROLES',
  'KEYSPACES',
  'PERMISSIONS',
  'SELECT',
  'DROP',
  'FUNCTION',
  'TRIGGER',
  'MATERIALIZED',
  'VIEW',
  'MASKED',
  'DEFAULT',
  'LIST',
  'DESCRIBE',
  'OF',
  'ANN',
  'UNSET',
  "'x'",
  '1',
  '-2',
  '1.5',
  '0xff',
  'true',
  'null',
  'NaN',
  'text',
  'int',
  'x',
  '"Q"',
  '""',
  'count',
];

const corpus = [
  ...corpusFiles('cassandra-docs'),
  ...corpusFiles('killrvideo'),
  ...corpusFiles('dialects'),
  ...corpusFiles('cassandra-docs-broken'),
];

/** Forms the corpus lacks (and, with the corpus, the seeds of the mutations). */
const EXTRA = [
  'GRANT UNMASK ON ALL TABLES IN KEYSPACE ks TO r;',
  'REVOKE ALL PERMISSIONS ON ALL FUNCTIONS IN KEYSPACE ks FROM r;',
  'GRANT ALL ON ALL FUNCTIONS TO r;',
  'GRANT AUTHORIZE PERMISSION, CREATE ON ALL MBEANS TO r;',
  'GRANT SELECT ON ROLE bob TO alice;',
  "GRANT SELECT ON role TO 'alice';",
  'REVOKE MODIFY ON all.t FROM r;',
  "GRANT EXECUTE ON MBEAN 'x' TO r;",
  'GRANT all TO bob;',
  "CREATE ROLE r WITH ACCESS TO DATACENTERS {'dc1', 'dc2'} AND HASHED PASSWORD = 'x' AND GENERATED PASSWORD;",
  "ALTER ROLE IF EXISTS r WITH ACCESS TO ALL DATACENTERS AND ACCESS FROM CIDRS {'a'};",
  "create role if not exists 'r';",
  "ALTER USER 'u' WITH GENERATED PASSWORD NOSUPERUSER;",
  "CREATE USER u WITH HASHED PASSWORD 'h';",
  'alter user u superuser;',
  "SELECT m['k'], u.f.g, -l[1], CAST(x AS frozen<list<int>>)[0], ks.f(x).a, cast(y AS text) AS c FROM t WHERE m[?] = 1 AND l[1][2].a > 0;",
  'UPDATE t SET a = b[1] + c.d WHERE k = m[:x];',
  'SELECT x[1..2] FROM t;',
  'SELECT x[..2] FROM t;',
  'SELECT CAST(x AS int) FROM t;',
  'CREATE TABLE t (a int PRIMARY KEY, b text MASKED WITH DEFAULT, c text static MASKED WITH ks.f(1, ?), d int MASKED WITH default(1) PRIMARY KEY);',
  'ALTER TABLE t ALTER b MASKED WITH mask_null();',
  'ALTER TABLE ks.t ALTER b DROP MASKED;',
  'ALTER TABLE t ALTER b MASKED WITH DEFAULT;',
  'LIST ALL;',
  'LIST SELECT, MODIFY PERMISSION ON ALL TABLES IN KEYSPACE ks OF r NORECURSIVE;',
  "list superusers of 'r';",
  'LIST USERS NORECURSIVE;',
  'DESCRIBE KEYSPACE;',
  'DESC KEYSPACE ks WITH INTERNALS;',
  'DESCRIBE INDEX ks.i;',
  'describe materialized view v;',
  'DESCRIBE FULL SCHEMA;',
  'DESCRIBE SCHEMA WITH INTERNALS;',
  'DESCRIBE ONLY KEYSPACE ks;',
  'DESCRIBE TYPES;',
  'DESCRIBE t;',
  "INSERT INTO t JSON '{}' DEFAULT UNSET IF NOT EXISTS USING TTL 5;",
  'insert into ks.t json ? default null;',
  'INSERT INTO t JSON :j;',
  'SELECT * FROM t ORDER BY v ANN OF [1.5, ?] DESC, c LIMIT 3;',
  "CREATE TRIGGER IF NOT EXISTS tr ON ks.t USING 'c';",
  "ALTER SCHEMA IF EXISTS ks WITH durable_writes = false AND replication = {'class': 'x'};",
  'DROP SCHEMA IF EXISTS ks;',
  'DROP MATERIALIZED VIEW IF EXISTS ks.v;',
  'DROP FUNCTION IF EXISTS ks.f (int, frozen<list<text>>, ks.t);',
  'drop aggregate a ();',
  'DROP TRIGGER IF EXISTS tr ON ks.t;',
  'DROP TYPE ks.t;',
  'DROP FUNCTION token;',
  'CREATE TYPE IF NOT EXISTS ks.t (a frozen<list<int>>, b ks.u, c map<text, tuple<int, t2>>,);',
  'create type t (x int);',
  'SELECT JSON DISTINCT a FROM t;',
  'SELECT (int) 5, (list<text>) ?, (ks.t) {a: 1} FROM t;',
  "CREATE TABLE t2 LIKE ks.t WITH comment = 'c';",
  'ALTER TABLE IF EXISTS t ADD IF NOT EXISTS (a int, b text MASKED WITH DEFAULT);',
  'ALTER TABLE t DROP IF EXISTS (a, b) USING TIMESTAMP 5;',
  'ALTER TABLE t DROP COMPACT STORAGE;',
  'ALTER TABLE t DROP compact;',
  'ALTER TABLE t RENAME IF EXISTS a TO b AND c TO d;',
  'ALTER TABLE t ALTER IF EXISTS a TYPE text;',
  'CREATE OR REPLACE AGGREGATE IF NOT EXISTS ks.avg (int) SFUNC st STYPE tuple<int, bigint> FINALFUNC fin INITCOND (0, 0);',
  'ALTER TYPE IF EXISTS ks.t RENAME IF EXISTS a TO b AND c TO d;',
  'ALTER TYPE t ADD IF NOT EXISTS f frozen<map<text, int>>;',
  'ALTER TYPE t ALTER f TYPE text;',
  "ALTER MATERIALIZED VIEW IF EXISTS ks.v WITH comment = 'x' AND CLUSTERING ORDER BY (a DESC);",
  "CREATE ROLE r WITH OPTIONS = {'a': ks.f((ks.t) 1, CAST(x AS ks.u))};",
  'DROP ROLE IF EXISTS r;',
  "DROP USER 'u';",
  'DROP IDENTITY IF EXISTS "id";',
  "ADD IDENTITY IF NOT EXISTS 'id' TO ROLE r;",
  'GRANT EXECUTE ON FUNCTION ks.f(int, ks.t) TO r;',
  'SELECT cqlint_hole_1 FROM cqlint_hole_2 WHERE k = ? AND c IN ? AND cqlint_hole_3 = :v;',
  "CREATE TABLE t (a 'org.example.Type' PRIMARY KEY);",
];

describe('the reader and the rules agree', () => {
  test('on every statement of the corpus and the forms it lacks', () => {
    const tally = newTally();
    for (const file of corpus) checkText(grammar, readText(file), tally);
    assertAgree(tally, 'the corpus');
    // It serves its purpose: most statements of real files are read directly.
    assert.ok(tally.read > 4 * tally.left, JSON.stringify({ ...tally, disagreements: undefined }));
    const extra = newTally();
    checkText(grammar, EXTRA.join('\n'), extra);
    assertAgree(extra, 'the extra forms');
    assert.ok(extra.read >= 60, JSON.stringify({ ...extra, disagreements: undefined }));
  });

  test('on the analysis bench file: every statement read directly', () => {
    const tally = newTally();
    checkText(grammar, generateAnalysisFile(2000).text, tally);
    assertAgree(tally, 'the analysis bench file');
    assert.equal(tally.left + tally.rejected, 0, JSON.stringify({ ...tally, disagreements: undefined }));
    assert.ok(tally.read > 400, JSON.stringify({ ...tally, disagreements: undefined }));
  });

  test('on mutated statements of the corpus', () => {
    const statements = [...corpus.flatMap((file) => statementsOf(readText(file))), ...EXTRA];
    const tally = newTally();
    const random = mulberry32(24);
    // Short statements of every kind, each token in turn replaced by tokens of the pool (a random 16 of them).
    const short = statements.filter((source) => grammar.lexer.lexCql(source).tokens.length <= 16);
    for (let i = 0; i < short.length; i += Math.ceil(short.length / 60)) {
      const images = grammar.lexer.lexCql(short[i]!).tokens.map((t) => t.image);
      for (let at = 0; at < images.length; at++) {
        for (let k = 0; k < 16; k++) {
          const mutated = images.slice();
          mutated[at] = POOL[Math.floor(random() * POOL.length)]!;
          checkText(grammar, mutated.join(' '), tally);
        }
      }
    }
    // Random drops, doubles, swaps and insertions anywhere in any statement.
    for (let round = 0; round < 10000; round++) {
      const source = statements[Math.floor(random() * statements.length)]!;
      const images = grammar.lexer.lexCql(source).tokens.map((t) => t.image);
      if (!images.length) continue;
      const at = Math.floor(random() * images.length);
      const pick = POOL[Math.floor(random() * POOL.length)]!;
      const op = Math.floor(random() * 4);
      if (op === 0) images.splice(at, 1);
      else if (op === 1) images.splice(at, 0, images[at]!);
      else if (op === 2 && at + 1 < images.length) [images[at], images[at + 1]] = [images[at + 1]!, images[at]!];
      else images.splice(at, random() < 0.5 ? 1 : 0, pick);
      checkText(grammar, images.join(' '), tally);
    }
    assertAgree(tally, 'the mutated statements');
    assert.ok(tally.read > 1500 && tally.rejected > 1500, JSON.stringify({ ...tally, disagreements: undefined }));
  });
});

/** Each statement chunk's text. */
function statementsOf(text: string): string[] {
  const { tokens } = grammar.lexer.lexCql(text);
  return grammar.chunks
    .chunkTokens(tokens)
    .map(([start, end]) => text.slice(tokens[start]!.startOffset, tokens[end - 1]!.endOffset! + 1));
}
