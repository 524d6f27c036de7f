import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { applyEdits, editsConflict, lineBreakAt, restOfLineAfter, sortEdits } from '../../server/core/fixes/text';
import { freeName } from '../../server/core/util/identifiers';

describe('applyEdits', () => {
  test('applies non-overlapping edits given in any order', () => {
    const text = 'PRIMARY KEY (a, c)';
    const out = applyEdits(text, [
      { start: 14, end: 14, newText: ', shard)' },
      { start: 13, end: 13, newText: '(' },
    ]);
    assert.equal(out, 'PRIMARY KEY ((a, shard), c)');
  });

  test('keeps the given order of insertions at one offset', () => {
    assert.equal(
      applyEdits('ab', [
        { start: 1, end: 1, newText: 'x' },
        { start: 1, end: 1, newText: 'y' },
      ]),
      'axyb',
    );
  });

  test('an insertion right after a deletion is not an overlap', () => {
    assert.equal(
      applyEdits('a PK;', [
        { start: 1, end: 4, newText: '' },
        { start: 4, end: 4, newText: ', b' },
      ]),
      'a, b;',
    );
  });

  test('rejects overlapping edits and edits outside the text', () => {
    assert.throws(
      () =>
        applyEdits('abcdef', [
          { start: 1, end: 4, newText: '' },
          { start: 3, end: 5, newText: '' },
        ]),
      /overlapping/,
    );
    assert.throws(() => applyEdits('abc', [{ start: 2, end: 9, newText: '' }]), /outside the text/);
  });

  test('sortEdits orders by position', () => {
    const sorted = sortEdits([
      { start: 5, end: 6, newText: '' },
      { start: 1, end: 2, newText: '' },
    ]);
    assert.deepEqual(
      sorted.map((e) => e.start),
      [1, 5],
    );
  });

  test('editsConflict spots overlaps and insertions at the same point', () => {
    assert.equal(editsConflict([{ start: 1, end: 3, newText: '' }], [{ start: 2, end: 2, newText: 'x' }]), true);
    assert.equal(editsConflict([{ start: 1, end: 1, newText: 'a' }], [{ start: 1, end: 1, newText: 'b' }]), true);
    assert.equal(editsConflict([{ start: 1, end: 3, newText: '' }], [{ start: 3, end: 4, newText: '' }]), false);
  });
});

describe('layout helpers', () => {
  test('lineBreakAt reads the line ending of the line, else the file', () => {
    assert.equal(lineBreakAt('a\r\nb\r\n', 0), '\r\n');
    assert.equal(lineBreakAt('a\nb', 0), '\n');
    assert.equal(lineBreakAt('x\r\nlast', 5), '\r\n');
    assert.equal(lineBreakAt('one line', 2), '\n');
  });

  test('restOfLineAfter accepts a comma and comments, and refuses code', () => {
    assert.deepEqual(restOfLineAfter('a int, -- note\nb', 5), { comma: true, commaOffset: 5, lineEnd: 14 });
    assert.deepEqual(restOfLineAfter('a int /* x */\n', 5), { comma: false, commaOffset: -1, lineEnd: 13 });
    assert.equal(restOfLineAfter('a int, b text', 5), undefined);
    assert.equal(restOfLineAfter('a int /* spans\n lines */', 5), undefined);
  });
});

describe('freeName', () => {
  test('takes the first free candidate, comparing names case-insensitively', () => {
    assert.equal(freeName(['shard', 'shard_id'], ['id', 'title']), 'shard');
    assert.equal(freeName(['shard', 'shard_id'], ['Shard']), 'shard_id');
    assert.equal(freeName(['shard', 'shard_id'], ['shard', 'shard_id']), 'shard2');
  });
});
