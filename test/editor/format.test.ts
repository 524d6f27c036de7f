import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { parseCql } from '../../grammar';
import {
  formatPieces,
  formatText,
  formatRange,
  isFormatted,
  statementSlices,
} from '../../server/core/format/formatter';
import { describeMeaningDifference, sameMeaning, stripRanges } from '../../server/core/format/ast-compare';
import { runCli } from '../cli/helpers';
import { corpusFiles, readText } from '../helpers/corpus';

function assertSafe(before: string, after: string, options: Parameters<typeof formatText>[1] = {}): void {
  const diff = describeMeaningDifference(parseCql(before), parseCql(after));
  assert.equal(diff, undefined, `meaning changed: ${diff}`);
  assert.equal(formatText(after, options), after, 'formatting is idempotent');
}

/** Formats `src`, expects `lines` (joined by newlines: end with '' for the final one), and checks the output is safe. */
function assertFormats(src: string, lines: readonly string[], options: Parameters<typeof formatText>[1] = {}): void {
  const out = formatText(src, options);
  assert.equal(out, lines.join('\n'));
  assertSafe(src, out, options);
}

describe('formatter layout', () => {
  test('CREATE TABLE: one column per line, aligned types, options after the body', () => {
    const src =
      'create table if not exists ks.t (id uuid, created_at timestamp, v frozen<map<text,int>>, primary key ((id), created_at)) with clustering order by (created_at desc) and default_time_to_live = 86400;';
    assertFormats(src, [
      'CREATE TABLE IF NOT EXISTS ks.t (',
      '    id         uuid,',
      '    created_at timestamp,',
      '    v          frozen<map<text, int>>,',
      '    PRIMARY KEY ((id), created_at)',
      ') WITH CLUSTERING ORDER BY (created_at DESC)',
      '    AND default_time_to_live = 86400;',
      '',
    ]);
  });

  test('SELECT: clauses on their own lines, AND indented, BETWEEN kept together', () => {
    const src =
      "select a, count(*) as n, writetime(b) from t where k = :key and c between 1 and 5 and m['x'] = -1 group by a order by c desc per partition limit 2 limit 10 allow filtering;";
    assertFormats(
      src,
      [
        'SELECT a, count(*) AS n, writetime(b)',
        'FROM t',
        'WHERE k = :key',
        '  AND c BETWEEN 1 AND 5',
        "  AND m['x'] = -1",
        'GROUP BY a',
        'ORDER BY c DESC',
        'PER PARTITION LIMIT 2',
        'LIMIT 10',
        'ALLOW FILTERING;',
        '',
      ],
      { indentSize: 2 },
    );
    assertFormats('select * from t where k = 1 allow filtering bypass cache using timeout 500ms;', [
      'SELECT *',
      'FROM t',
      'WHERE k = 1',
      'ALLOW FILTERING',
      'BYPASS CACHE',
      'USING TIMEOUT 500ms;',
      '',
    ]);
  });

  test('keyword case: upper, lower, preserve; names, types and literals keep their spelling', () => {
    const src = 'Select "Key", type, TRUE, Count(*) From T Where key = NaN;';
    assert.equal(
      formatText(src, { keywordCase: 'lower' }),
      'select "Key", type, TRUE, Count(*)\nfrom T\nwhere key = NaN;\n',
    );
    assert.equal(
      formatText(src, { keywordCase: 'upper' }),
      'SELECT "Key", type, TRUE, Count(*)\nFROM T\nWHERE key = NaN;\n',
    );
    assert.equal(
      formatText(src, { keywordCase: 'preserve' }),
      'Select "Key", type, TRUE, Count(*)\nFrom T\nWhere key = NaN;\n',
    );
    assert.equal(
      formatText('CREATE TABLE t (a TEXT PRIMARY KEY, b MAP<INT, TEXT>);'),
      'CREATE TABLE t (\n    a text PRIMARY KEY,\n    b map<int, text>\n);\n',
    );
  });

  test('comments survive in place: own-line, trailing and inside statements', () => {
    const src = [
      '-- header',
      '',
      '',
      'CREATE TABLE t ( -- the table',
      '  id uuid, -- identity',
      '  /* payload */ v text,',
      '  PRIMARY KEY (id)',
      ');  -- done',
      'SELECT a, -- first',
      '  b FROM t;',
      '/* between */',
      'SELECT 1 FROM t;',
    ].join('\n');
    assertFormats(src, [
      '-- header',
      '',
      'CREATE TABLE t ( -- the table',
      '    id uuid, -- identity',
      '    /* payload */ v text,',
      '    PRIMARY KEY (id)',
      '); -- done',
      'SELECT a, -- first',
      '    b',
      'FROM t;',
      '/* between */',
      'SELECT 1',
      'FROM t;',
      '',
    ]);
  });

  test('batches indent their statements', () => {
    const src =
      'begin unlogged batch using timestamp 1 insert into t (a) values (1); update t set b = 2 where a = 1; apply batch;';
    assertFormats(
      src,
      [
        'BEGIN UNLOGGED BATCH USING TIMESTAMP 1',
        '  INSERT INTO t (a)',
        '  VALUES (1);',
        '  UPDATE t',
        '  SET b = 2',
        '  WHERE a = 1;',
        'APPLY BATCH;',
        '',
      ],
      { indentSize: 2 },
    );
  });

  test('statements with syntax errors and cqlsh commands are left byte for byte', () => {
    const broken = 'select * form t where   x=1;';
    const src = `SOURCE  'x.cql'\nselect   a from t;\n  ${broken}\nselect b from t;`;
    const out = formatText(src);
    assert.ok(out.includes(`SOURCE  'x.cql'`));
    assert.ok(out.includes(`\n  ${broken}\n`), out);
    assert.ok(out.includes('SELECT a\nFROM t;'));
    assert.ok(out.includes('SELECT b\nFROM t;'));
    assert.equal(formatText(out), out);
  });

  test('a document of several lexing windows formats exactly as its parts do', () => {
    // Comments between statements, a `;` after a comment, a batch, a statement with a syntax error (kept
    // as written), a cqlsh command: each block formats the same wherever a window starts.
    const block = [
      '-- the table',
      'create table ks.t (id uuid, v text, primary key (id)); -- trailing',
      "/* block */ insert into ks.t (id, v) values (uuid(), 'a;b') ;",
      'begin batch insert into ks.t (id, v) values (uuid(), $$x$$); apply batch;',
      'select v from ks.t where id = ? and;',
      'CONSISTENCY QUORUM;',
      'select * from ks.t',
      '  -- a comment before the semicolon',
      ';',
      '',
    ].join('\n');
    const once = formatText(block);
    assert.notEqual(once, block);
    const blocks = Math.ceil((1024 * 1024) / block.length);
    const big = Array.from({ length: blocks }, () => block).join('\n');
    assert.equal(formatText(big), Array.from({ length: blocks }, () => once.slice(0, -1)).join('\n\n') + '\n');
  });

  test('CRLF files keep CRLF; empty files stay empty', () => {
    const out = formatText('select a from t;\r\nselect b from t;\r\n');
    assert.equal(out, 'SELECT a\r\nFROM t;\r\nSELECT b\r\nFROM t;\r\n');
    assert.equal(formatText(''), '');
    assert.ok(isFormatted('SELECT a\nFROM t;\n') && !isFormatted('select a from t;'));
    assert.equal(formatText('\n\n'), '\n\n');
  });

  test('range formatting touches only the statements in the range', () => {
    const src = 'select a from t;\nselect b from u;\nselect c from v;\n';
    const second = src.indexOf('select b');
    const edits = formatRange(src, second + 3, second + 5);
    assert.equal(edits.length, 1);
    assert.equal(src.slice(edits[0].start, edits[0].end), 'select b from u;');
    assert.equal(edits[0].newText, 'SELECT b\nFROM u;');
  });

  test('the AST comparer ignores ranges but nothing else', () => {
    const a = parseCql('SELECT a FROM t WHERE k = 1;');
    const b = parseCql('SELECT   a\nFROM t   WHERE k = 1;');
    const c = parseCql('SELECT a FROM t WHERE k = 2;');
    assert.ok(sameMeaning(a, b));
    assert.ok(!sameMeaning(a, c));
    assert.match(describeMeaningDifference(a, c)!, /where\[0\]\.right\[0\]/);
    assert.equal(JSON.stringify(stripRanges(a.statements[0])).includes('"range"'), false);
  });
});

describe('formatter on the corpus', () => {
  for (const folder of ['cassandra-docs', 'killrvideo']) {
    test(`${folder}: idempotent, same AST, same comments`, () => {
      const files = corpusFiles(folder);
      assert.ok(files.length > 0);
      let changed = 0;
      for (const file of files) {
        const src = readText(file);
        const out = formatText(src);
        if (out !== src) changed++;
        const before = parseCql(src);
        const after = parseCql(out);
        const diff = describeMeaningDifference(before, after);
        assert.equal(diff, undefined, `${file}: ${diff}`);
        assert.equal(formatText(out), out, `${file}: not idempotent`);
      }
      assert.ok(changed > 0, 'the formatter changed something in the corpus');
    });
  }

  test('cassandra-docs-broken: statements with errors keep their text', () => {
    for (const file of corpusFiles('cassandra-docs-broken')) {
      const src = readText(file);
      const out = formatText(src);
      const parse = parseCql(src);
      for (const s of parse.statements) {
        const original = src.slice(s.range.start, s.range.end);
        const broken =
          s.kind === 'Invalid' || parse.errors.some((e) => e.range.start < s.range.end && e.range.end >= s.range.start);
        if (broken) assert.ok(out.includes(original), `${file}: broken statement changed:\n${original}`);
      }
      assert.equal(formatText(out), out, `${file}: not idempotent`);
    }
  });
});

describe('cqlint format (CLI)', () => {
  async function run(args: string[], cwd: string): Promise<{ code: number; out: string; err: string }> {
    const result = await runCli(['format', ...args], { cwd });
    return { code: result.code, out: result.stdout, err: result.stderr };
  }

  test('--check lists unformatted files and exits 1; without it files are rewritten; then --check passes', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'cqlint-format-'));
    try {
      mkdirSync(path.join(dir, 'sub'));
      writeFileSync(path.join(dir, 'a.cql'), 'select a from t;\n');
      writeFileSync(path.join(dir, 'sub', 'b.cql'), 'SELECT b\nFROM t;\n');
      writeFileSync(path.join(dir, 'notes.txt'), 'select x from y;');
      const check = await run(['--check', '.'], dir);
      assert.equal(check.code, 1);
      assert.equal(check.out, 'a.cql\n');
      assert.equal(readFileSync(path.join(dir, 'a.cql'), 'utf8'), 'select a from t;\n', '--check never writes');
      const write = await run(['.'], dir);
      assert.equal(write.code, 0);
      assert.equal(readFileSync(path.join(dir, 'a.cql'), 'utf8'), 'SELECT a\nFROM t;\n');
      assert.equal(readFileSync(path.join(dir, 'notes.txt'), 'utf8'), 'select x from y;');
      assert.equal((await run(['--check', dir], dir)).code, 0);
      const lower = await run(['--keyword-case', 'lower', 'a.cql'], dir);
      assert.equal(lower.code, 0);
      assert.equal(readFileSync(path.join(dir, 'a.cql'), 'utf8'), 'select a\nfrom t;\n');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('usage and I/O errors exit 2', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'cqlint-format-'));
    try {
      assert.equal((await run([], dir)).code, 2);
      assert.equal((await run(['--bogus', 'x.cql'], dir)).code, 2);
      assert.equal((await run(['--keyword-case', 'title', 'x.cql'], dir)).code, 2);
      const missing = await run(['--check', 'missing.cql'], dir);
      assert.equal(missing.code, 2);
      assert.match(missing.err, /cannot read missing\.cql/);
      assert.equal((await run(['--help'], dir)).code, 0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('formatting long texts in slices of whole statements', () => {
  const sliced = (text: string, sliceChars = 1): string => {
    let out = '';
    let covered = 0;
    for (const piece of formatPieces(text, {}, undefined, sliceChars)) {
      assert.equal(piece.start, covered, 'the pieces cover the text in order, without gaps');
      covered = piece.end;
      out += piece.text;
    }
    assert.equal(covered, text.length);
    return out;
  };

  test('cut at every statement, every corpus file formats exactly as when parsed whole', () => {
    const files = corpusFiles('');
    assert.ok(files.length > 50);
    for (const file of files) {
      const text = readText(file);
      assert.equal(sliced(text), formatText(text), file);
    }
  });

  test('no cut inside what a `;` at the end of a line does not end: strings, names, comments, bodies, batches', () => {
    const text = [
      "INSERT INTO ks.t (id, v) VALUES (1, 'a;\nb');",
      'select "odd;',
      '" from ks.t;',
      '/* a block;',
      'comment */ select v from ks.t;',
      'CREATE FUNCTION ks.f (x int) RETURNS NULL ON NULL INPUT RETURNS int LANGUAGE java AS $$ return x;',
      '$$;',
      'begin unlogged batch',
      "insert into ks.t (id, v) values (2, 'x');",
      "update ks.t set v = 'y' where id = 3;",
      'apply batch;',
      'select broken from where;',
      ';;',
      'select v from ks.t where id = 4; -- trailing;',
      'select v from ks.t;\r\nselect w from ks.t;',
      '',
    ].join('\n');
    const cuts = statementSlices(text, 1)
      .map((s) => s.end)
      .slice(0, -1);
    for (const cut of cuts)
      assert.match(
        text.slice(0, cut),
        /;[ \t]*(\r\n|\n|\r)$/,
        `a cut after a statement: ${JSON.stringify(text.slice(cut - 20, cut))}`,
      );
    for (const inside of ["'a;", '"odd;', 'a block;', 'return x;', "values (2, 'x');", 'where id = 3;']) {
      const at = text.indexOf(inside) + inside.length;
      assert.ok(!cuts.includes(at + 1), `no cut after ${inside}`);
    }
    assert.equal(sliced(text), formatText(text));
  });
});
