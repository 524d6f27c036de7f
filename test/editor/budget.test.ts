// Bounded work on large input (server/core/util/budget.ts) and the features that spend it.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { parseCql } from '../../grammar';
import { lexCql } from '../../grammar/lexer';
import { WorkBudget } from '../../server/core/util/budget';
import { editedTextRefusal, largestStatement, StatementScan } from '../../server/core/io/input-limits';
import { formatText, formatRange } from '../../server/core/format/formatter';
import { foldingRanges } from '../../server/core/editor/folding';
import { semanticTokens } from '../../server/core/editor/semantic-tokens';
import { workspace, SCHEMA } from './helpers';

const rows = (n: number): string =>
  Array.from(
    { length: n },
    (_, i) =>
      `insert into shop.orders (customer_id, order_day, order_time) values (?, '2024-01-0${1 + (i % 9)}', ?);\n`,
  ).join('');

describe('largestStatement', () => {
  test('counts the tokens of the largest statement and where it starts', () => {
    assert.deepEqual(largestStatement('SELECT a FROM t;\nSELECT a, b, c FROM ks.t;\n'), { tokens: 11, line: 2 });
    assert.equal(largestStatement(`SELECT ${'a, '.repeat(1000)}b FROM t;`).tokens, 2005);
  });

  test('semicolons in strings, quoted names and comments end nothing; comments cost nothing', () => {
    assert.equal(largestStatement("INSERT INTO t (a) VALUES ('x;y;z'); -- ;;;\n").tokens, 11);
    assert.equal(largestStatement('SELECT "a;b" FROM t /* ; */;').tokens, 5);
  });

  test('lone CR ends a line comment and a line, as the lexer has it: no line ending hides a statement', () => {
    const dense = `SELECT ${'a, '.repeat(1000)}b FROM t;`;
    // With comments ended at LF only, everything after the first `--` was a comment: 0 tokens.
    assert.equal(largestStatement(`-- header\r${dense}\r`).tokens, 2005);
    assert.equal(largestStatement(`// header\r\n${dense}`).tokens, 2005);
    for (const eol of ['\r', '\r\n', '\n']) {
      const text = `SELECT a FROM t;${eol}-- note${eol}${eol}/* x${eol}y */ SELECT a, b, c, d${eol}FROM ks.t;${eol}`;
      const lexed = lexCql(text).tokens.find((t) => t.image === 'SELECT' && t.startOffset > 0)!;
      assert.deepEqual(largestStatement(text), { tokens: 13, line: lexed.startLine }, JSON.stringify(eol));
      assert.equal(lexed.startLine, 5);
    }
  });

  test('a batch is one statement', () => {
    const batch = `BEGIN BATCH\n${'INSERT INTO t (a) VALUES (1);\n'.repeat(100)}APPLY BATCH;\nSELECT a FROM t;`;
    assert.equal(largestStatement(batch).tokens, 2 + 100 * 11 + 3);
  });
});

describe('StatementScan: the scan of an edited text resumes from the last one', () => {
  // Pieces whose edits move statement boundaries: quotes and comments that open or close, batches, CR/CRLF/LF.
  const PIECES = [
    "SELECT a, b FROM t WHERE k = 'v';",
    'INSERT INTO t (a) VALUES (1);',
    "'",
    '"',
    '--',
    '/*',
    '*/',
    '$$',
    ';',
    '\n',
    '\r',
    '\r\n',
    'BEGIN BATCH',
    'APPLY BATCH;',
    'begin',
    'apply batch',
    ' x ',
    '//',
    'UPDATE t SET a = 1 WHERE k = 2;\n',
  ];
  let seed = 7;
  const random = (n: number): number => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed % n;
  };
  const someText = (pieces: number): string =>
    Array.from({ length: pieces }, () => PIECES[random(PIECES.length)]!).join(random(2) ? ' ' : '\n');

  test('after any edit it finds what a scan of the whole text finds, the statements and where they are included', () => {
    for (let round = 0; round < 60; round++) {
      let text = someText(40 + random(200));
      let scan = StatementScan.of(text);
      for (let edit = 0; edit < 30; edit++) {
        const at = random(text.length + 1);
        const end = Math.min(text.length, at + random(3) * random(40));
        text = text.slice(0, at) + (random(3) ? someText(1 + random(3)) : '') + text.slice(end);
        scan = StatementScan.of(text, scan);
        // The whole structure, not only the verdict: a wrong boundary kept would spoil later edits.
        assert.deepEqual(scan, StatementScan.of(text), JSON.stringify(text));
        assert.deepEqual(scan.largest, largestStatement(text));
      }
    }
  });

  test('an edit that opens a quote or comment reaches the statements after it; the refusal follows the text', () => {
    const dense = `SELECT ${'a, '.repeat(30_000)}b FROM t;`;
    const text = `${'SELECT a FROM t;\n'.repeat(10_000)}${dense}\nSELECT b FROM t;\n`;
    const first = editedTextRefusal(text, undefined);
    assert.match(first.refusal ?? '', /statement at line 10001 too large/);
    // A quote opened on line 2 makes the rest one quoted token: no statement is large any more.
    const quoted = text.replace('SELECT a FROM t;\nSELECT', "SELECT a FROM t;\nSELECT '");
    const second = editedTextRefusal(quoted, first.scan);
    assert.equal(second.refusal, undefined);
    assert.deepEqual(second.scan!.largest, largestStatement(quoted));
    // Closing it again brings the large statement back, found on its line.
    const third = editedTextRefusal(text, second.scan);
    assert.equal(third.refusal, first.refusal);
    assert.deepEqual(third.scan, StatementScan.of(text));
  });
});

describe('WorkBudget', () => {
  test('the first piece always runs; then it stops where the limit would be passed, or on cancellation', () => {
    const budget = new WorkBudget(10);
    assert.ok(budget.spend(25, 0));
    assert.ok(!budget.spend(1, 30));
    assert.deepEqual([budget.stoppedAt, budget.reason], [30, 'budget']);
    let cancelled = false;
    const cancellable = new WorkBudget(100, () => cancelled);
    assert.ok(cancellable.spend(1, 0));
    cancelled = true;
    assert.ok(!cancellable.spend(1, 5));
    assert.equal(cancellable.reason, 'cancelled');
  });
});

describe('features under a budget', () => {
  const text = `${SCHEMA}\n${rows(40)}`;
  const parse = () => parseCql(text);

  test('formatting stops at a statement and keeps the rest of the text byte for byte', () => {
    const budget = new WorkBudget(2000);
    const out = formatText(text, {}, parse());
    const partial = formatText(text, { budget }, parse());
    assert.ok(budget.stopped && budget.stoppedAt! > 0);
    assert.ok(partial.endsWith(text.slice(budget.stoppedAt!)));
    assert.ok(
      partial.startsWith(out.slice(0, out.indexOf('INSERT INTO'))),
      'the start is formatted as without a budget',
    );
    assert.notEqual(partial, out);
  });

  test('range formatting formats only the statements in the range', () => {
    const start = text.lastIndexOf('insert into');
    const budget = new WorkBudget(1000);
    const edits = formatRange(text, start, text.length, { budget }, parse());
    assert.equal(edits.length, 1);
    assert.match(edits[0]!.newText, /^INSERT INTO/);
    assert.ok(!budget.stopped, 'statements outside the range cost nothing');
  });

  test('semantic tokens of a range or under a budget are those of the whole file', () => {
    const { index, sources } = workspace({ '/ws/rows.cql': text });
    const all = semanticTokens(index, '/ws/rows.cql', text, sources.parse('/ws/rows.cql'));
    const from = text.indexOf('insert into', text.length / 2);
    const range = { start: from, end: text.indexOf('\n', from) };
    const lineOf = (offset: number) => text.slice(0, offset).split('\n').length - 1;
    const inRange = all.filter((t) => t.line === lineOf(from));
    assert.deepEqual(semanticTokens(index, '/ws/rows.cql', text, sources.parse('/ws/rows.cql'), range), inRange);
    const budget = new WorkBudget(1500);
    const partial = semanticTokens(index, '/ws/rows.cql', text, sources.parse('/ws/rows.cql'), undefined, budget);
    assert.ok(budget.stopped && partial.length > 0 && partial.length < all.length);
    assert.deepEqual(partial, all.slice(0, partial.length));
  });

  test('folding stops at the statement where the budget runs out', () => {
    const all = foldingRanges(text, parse());
    const budget = new WorkBudget(300);
    const partial = foldingRanges(text, parse(), budget);
    assert.ok(budget.stopped && partial.length < all.length);
  });
});
