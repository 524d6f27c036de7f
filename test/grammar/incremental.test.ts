// parseCql(text, { previous }): unchanged statements are reused, with their ranges shifted.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { forgetParse, parseCql } from '../../grammar';
import { corpusFiles, readText } from '../helpers/corpus';
import { mulberry32 as rng } from '../helpers/random';
import { LineIndex } from '../../grammar/line-index';

const statements = Array.from({ length: 200 }, (_, i) => `CREATE TABLE t${i} (\n  id int PRIMARY KEY,\n  v text\n);`);
const original = statements.join('\n');

describe('incremental parsing', () => {
  test('unchanged statements before the edit are the same objects', () => {
    const first = parseCql(original);
    const edited = original.replace('CREATE TABLE t150 (\n  id int', 'CREATE TABLE t150 (\n  id bigint');
    const second = parseCql(edited, { previous: first });
    assert.deepEqual(second, parseCql(edited));
    for (let i = 0; i < 150; i++) assert.equal(second.statements[i], first.statements[i]);
    assert.notEqual(second.statements[150], first.statements[150]);
  });

  test('statements after an edit that changes lengths and lines get shifted ranges', () => {
    const first = parseCql(original);
    const edited = original.replace('CREATE TABLE t10 (', '-- new comment\nCREATE TABLE   t10 (');
    const second = parseCql(edited, { previous: first });
    const fresh = parseCql(edited);
    assert.deepEqual(second, fresh);
    const last = second.statements[199];
    assert.equal(edited.slice(last.range.start, last.range.end), statements[199]);
  });

  test('a column change on the first line of a statement shifts its columns', () => {
    const text = 'USE ks; SELECT a FROM t;\nSELECT b FROM u;';
    const first = parseCql(text);
    const edited = 'USE keyspace1; SELECT a FROM t;\nSELECT b FROM u;';
    const second = parseCql(edited, { previous: first });
    assert.deepEqual(second, parseCql(edited));
    const lines = new LineIndex(edited);
    assert.equal(lines.location(second.statements[1].range.start).column, 16);
    assert.equal(lines.location(second.statements[2].range.start).line, 2);
  });

  test('errors of reused statements are kept and shifted', () => {
    const text = 'SELECT FROM t;\nSELECT * FROM u;';
    const first = parseCql(text);
    const edited = '\n\n' + text;
    const second = parseCql(edited, { previous: first });
    assert.deepEqual(second, parseCql(edited));
    assert.equal(new LineIndex(edited).location(second.errors[0].range.start).line, 3);
  });

  test('a previous result serves once; passing it again falls back to a full parse', () => {
    const first = parseCql(original);
    const edited = '\n' + original;
    assert.deepEqual(parseCql(edited, { previous: first }), parseCql(edited));
    const again = 'USE ks;\n' + original;
    assert.deepEqual(parseCql(again, { previous: first }), parseCql(again));
  });

  test('a forgotten parse keeps nothing for a re-parse: passing it as previous is a full parse', () => {
    const first = parseCql(original);
    forgetParse(first);
    const edited = original.replace('CREATE TABLE t150 (\n  id int', 'CREATE TABLE t150 (\n  id bigint');
    const second = parseCql(edited, { previous: first });
    assert.deepEqual(second, parseCql(edited));
    // Nothing reused: the statements before the edit are new objects, and the forgotten tree's ranges did not move.
    assert.notEqual(second.statements[0], first.statements[0]);
    assert.deepEqual(first, parseCql(original));
  });

  test('repeated identical statements are matched one to one', () => {
    const text = 'CAPTURE OFF;\nCAPTURE OFF;\nCAPTURE OFF;';
    const first = parseCql(text);
    const edited = 'CAPTURE OFF;\n' + text;
    assert.deepEqual(parseCql(edited, { previous: first }), parseCql(edited));
  });
});

// Text that changes how its neighbours lex or chunk: quotes, comment markers, statement ends, batches,
// cqlsh commands, literals a regex may backtrack over, line ends.
const SNIPPETS = [
  "'",
  '"',
  '--',
  '//',
  '/*',
  '*/',
  '$$',
  ';',
  '\n',
  '\r\n',
  ' ',
  '-',
  '/',
  '*',
  'a',
  '1',
  'e',
  ')',
  '(',
  'BEGIN BATCH\n',
  'APPLY BATCH;',
  "COPY t FROM 'x.csv'\n",
  'CAPTURE OFF\n',
  '1e+',
  'P1Y2M',
  '3h30m',
  'deadbeef-',
  '0x',
  'SELECT * FROM t WHERE k = 1',
  "INSERT INTO t (k) VALUES ('v');\n",
  'CREATE TABLE ',
];

describe('incremental parsing equals a full parse after any edit', () => {
  for (const folder of ['cassandra-docs', 'killrvideo', 'cassandra-docs-broken']) {
    test(`random edit sequences on ${folder}`, () => {
      const files = corpusFiles(folder);
      const random = rng(folder.length * 7919);
      for (let round = 0; round < 6; round++) {
        // A few files together: 5-40 KB, statements of every kind.
        let text = Array.from({ length: 4 }, () => readText(files[Math.floor(random() * files.length)])).join('\n');
        let previous = parseCql(text);
        for (let step = 0; step < 40; step++) {
          const at = Math.floor(random() * (text.length + 1));
          const roll = random();
          let next: string;
          if (roll < 0.4) {
            const snippet = SNIPPETS[Math.floor(random() * SNIPPETS.length)];
            next = text.slice(0, at) + snippet + text.slice(at);
          } else if (roll < 0.6) {
            next = text.slice(0, at) + text.slice(at + 1 + Math.floor(random() * 40));
          } else if (roll < 0.8) {
            // Typing: one character at a time at the same place, each keystroke parsed.
            const word = 'id text, ';
            for (let i = 0; i < word.length; i++) {
              next = text.slice(0, at + i) + word[i] + text.slice(at + i);
              previous = parseCql(next, { previous });
              text = next;
            }
            next = text;
          } else {
            // A copied statement somewhere else: its chunk text exists in the old parse.
            const from = Math.floor(random() * text.length);
            next = text.slice(0, at) + text.slice(from, from + 200) + text.slice(at);
          }
          const incremental = parseCql(next, { previous });
          assert.deepEqual(incremental, parseCql(next), `round ${round} step ${step}: edit at ${at}`);
          previous = incremental;
          text = next;
        }
      }
    });
  }

  test('random edits within the lexer lookahead after statement ends (the statement before is re-lexed)', () => {
    const pieces = [
      '',
      ' ',
      'x',
      ';',
      '1e',
      '+5',
      "'",
      '--',
      '\n',
      'SELECT ',
      'id, ',
      '$$',
      '"',
      '/*',
      '*/',
      '-',
      '0x',
    ];
    const random = rng(7);
    let edits = 0;
    for (const folder of ['cassandra-docs', 'cassandra-docs-broken', 'killrvideo']) {
      for (const file of corpusFiles(folder)) {
        let text = readText(file);
        let previous = parseCql(text);
        for (let step = 0; step < 6; step++) {
          const ends: number[] = [];
          for (let i = text.indexOf(';'); i >= 0 && ends.length < 400; i = text.indexOf(';', i + 1)) ends.push(i + 1);
          const base = ends.length ? ends[Math.floor(random() * ends.length)]! : 0;
          const at = Math.min(text.length, base + Math.floor(random() * 20));
          const removed = Math.floor(random() * 4);
          const next = text.slice(0, at) + pieces[Math.floor(random() * pieces.length)] + text.slice(at + removed);
          const incremental = parseCql(next, { previous });
          assert.deepEqual(incremental, parseCql(next), `${file} step ${step}: edit at ${at}`);
          previous = incremental;
          text = next;
          edits++;
        }
      }
    }
    assert.ok(edits > 500, `${edits} edits`);
  });

  test('an edit at the very start, the very end, and of nothing', () => {
    const text = 'CREATE TABLE t (k int PRIMARY KEY);\n-- note\nSELECT * FROM t;\n/* open';
    for (const next of ['x' + text, text + 'x', text, text.slice(1), text.slice(0, -1), '', ' ']) {
      const previous = parseCql(text);
      assert.deepEqual(parseCql(next, { previous }), parseCql(next), JSON.stringify(next));
    }
  });

  test('an edit right after a chunk boundary is not taken for unchanged text', () => {
    for (const [text, next] of [
      ['USE a;USE b;', 'USE a;USE c;'],
      ['USE a;USE b;USE c;', 'USE b;USE c;'],
      ['SELECT * FROM t;\nSELECT', 'SELECT * FROM t;\nSELECT x FROM u;'],
    ]) {
      const previous = parseCql(text);
      assert.deepEqual(
        parseCql(next, { previous }),
        parseCql(next),
        `${JSON.stringify(text)} -> ${JSON.stringify(next)}`,
      );
    }
  });

  test('an edit at the start of a statement keeps the statement before it, re-lexed but unchanged', () => {
    const text = 'CREATE TABLE users (id uuid PRIMARY KEY, name text);\nSELECT name FROM users WHERE id = ?;\n';
    for (const next of [
      text.replace('SELECT name', 'SELECT id, name'),
      text.replace('\nSELECT', '\n SELECT'),
      text.replace(';\nSELECT', ';SELECT'),
      text.replace('SELECT', '-- c\nSELECT'),
      text.replace(';\nSELECT', ';\nSELECT 1e+5 FROM t;\nSELECT'),
    ]) {
      const previous = parseCql(text);
      const kept = previous.statements[0];
      const second = parseCql(next, { previous });
      assert.deepEqual(second, parseCql(next), JSON.stringify(next));
      assert.equal(second.statements[0], kept, `the CREATE TABLE is the same object: ${JSON.stringify(next)}`);
    }
    // Its own text edited near its end: parsed again.
    const previous = parseCql(text);
    const kept = previous.statements[0];
    const next = text.replace('name text)', 'name text, age int)');
    const second = parseCql(next, { previous });
    assert.deepEqual(second, parseCql(next));
    assert.notEqual(second.statements[0], kept);
  });

  test('statements moved around (cut and paste) are reused, and the rest spliced', () => {
    const parts = Array.from({ length: 12 }, (_, i) => `SELECT c${i} FROM t${i} WHERE k = ${i};\n`);
    const random = rng(42);
    for (let round = 0; round < 50; round++) {
      const moved = [...parts];
      const from = Math.floor(random() * moved.length);
      const [piece] = moved.splice(from, 1 + Math.floor(random() * 3));
      moved.splice(Math.floor(random() * (moved.length + 1)), 0, piece!);
      const text = parts.join('');
      const next = moved.join('') + (round % 2 ? '' : 'SELECT x FROM y;\n');
      const previous = parseCql(text);
      assert.deepEqual(parseCql(next, { previous }), parseCql(next), `round ${round}`);
    }
  });

  test('statements after the edit are moved, not re-parsed', () => {
    const first = parseCql(original);
    const edited = original.replace('CREATE TABLE t10 (', 'CREATE TABLE t10x (');
    const second = parseCql(edited, { previous: first });
    assert.deepEqual(second, parseCql(edited));
    for (let i = 11; i < 200; i++) assert.equal(second.statements[i], first.statements[i], `statement ${i}`);
    assert.equal(second.statements[11].range.start, parseCql(edited).statements[11].range.start);
  });
});
