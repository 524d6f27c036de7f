// CQL edits written back into the host file: inside one literal in its own syntax, at a statement's end, over
// several literals, comments above the call, a constant shared by statements, and refusals.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { applyEdits } from '../../server/core/fixes/text';
import { readEmbedded, type EmbeddedDocument, type HostEditResult } from '../../server/core/embedded';
import { cqlRangeOf, readFixture, type Read } from './helpers';

function edited(read: Read, result: HostEditResult): string {
  assert.ok('edits' in result, 'refused' in result ? result.refused : '');
  return applyEdits(read.src, result.edits);
}

function statementText(doc: EmbeddedDocument, i: number): string {
  const s = doc.statements[i]!;
  return doc.cqlText.slice(s.cqlRange.start, s.cqlRange.end);
}

describe('hostEdits: Java', () => {
  test('insertions inside a concatenated constant keep the host quoting', async () => {
    const read = await readFixture('java/CommentsDao.java');
    const column = cqlRangeOf(read.doc, 'comment) VALUES', 1);
    const values = cqlRangeOf(read.doc, '?)', 1);
    const after = edited(
      read,
      read.doc.hostEdits([
        { start: column.start + 'comment'.length, end: column.start + 'comment'.length, newText: ', shard' },
        { start: values.start + 1, end: values.start + 1, newText: ', ?' },
      ]),
    );
    assert.ok(
      after.includes(
        '"INSERT INTO comments_by_user (userid, commentid, videoid, comment, shard) " +\n        "VALUES (?, ?, ?, ?, ?)"',
      ),
    );
    const again = readEmbedded('java', after);
    assert.equal(
      statementText(again, 1),
      'INSERT INTO comments_by_user (userid, commentid, videoid, comment, shard) VALUES (?, ?, ?, ?, ?)',
    );
  });

  test('an insertion at the end goes inside the last literal; quotes and line breaks are escaped', async () => {
    const read = await readFixture('java/LegacyRatingsDao.java');
    const end = read.doc.statements[2]!.cqlRange.end;
    const after = edited(read, read.doc.hostEdits([{ start: end, end, newText: ' AND note = \'a "b"\nc\'' }]));
    assert.ok(after.includes(`"DELETE FROM video_ratings WHERE videoid = \\u003F AND note = 'a \\"b\\"\\nc'"`));
    assert.equal(
      statementText(readEmbedded('java', after), 2),
      `DELETE FROM video_ratings WHERE videoid = ? AND note = 'a "b"\nc'`,
    );
  });

  test('a line break in a text block keeps the block indentation, trailing spaces survive as \\s', async () => {
    const read = await readFixture('java/CommentsDao.java');
    const at = cqlRangeOf(read.doc, 'WHERE userid = ?').end;
    const after = edited(read, read.doc.hostEdits([{ start: at, end: at, newText: '\n   AND shard = ? ' }]));
    assert.ok(
      after.includes('         WHERE userid = ?\n           AND shard = ?\\s\n        """'),
      after.slice(after.indexOf('WHERE userid'), after.indexOf('WHERE userid') + 80),
    );
    assert.equal(
      statementText(readEmbedded('java', after), 2),
      'SELECT commentid, videoid, comment\n  FROM comments_by_user\n WHERE userid = ?\n   AND shard = ?',
    );
  });

  test('an edit over two literals writes into the first and deletes the rest, never the code between', async () => {
    const read = await readFixture('java/CommentsDao.java');
    const range = cqlRangeOf(read.doc, 'comment) VALUES (?');
    const after = edited(
      read,
      read.doc.hostEdits([{ start: range.start, end: range.end, newText: 'comment, shard) VALUES (?, ?' }]),
    );
    assert.ok(
      after.includes(
        '"INSERT INTO comments_by_video (videoid, commentid, userid, comment, shard) VALUES (?, ?"\n            + ", ?, ?, ?)"',
      ),
    );
    assert.equal(
      statementText(readEmbedded('java', after), 0),
      'INSERT INTO comments_by_video (videoid, commentid, userid, comment, shard) VALUES (?, ?, ?, ?, ?)',
    );
  });

  test('a comment inserted at a statement start becomes // cqlint: lines above each call site', async () => {
    const read = await readFixture('java/CommentsDao.java');
    const start = read.doc.statements[0]!.cqlRange.start;
    const after = edited(
      read,
      read.doc.hostEdits([{ start, end: start, newText: '-- bind shard = murmur3(videoid) % 16 + 1\n' }]),
    );
    assert.ok(
      after.includes(
        '        // cqlint: bind shard = murmur3(videoid) % 16 + 1\n        this.insertByVideo = session.prepare(INSERT_COMMENT_BY_VIDEO);',
      ),
    );
  });

  test('a constant shared by two statements: the same edit twice is one host edit, two different ones are refused', async () => {
    const read = await readFixture('java/CommentsDao.java');
    const first = cqlRangeOf(read.doc, 'comments_by_video', 1);
    const second = cqlRangeOf(read.doc, 'comments_by_video', 2);
    const same = read.doc.hostEdits([
      { ...first, newText: 'comments_by_video_v2' },
      { ...second, newText: 'comments_by_video_v2' },
    ]);
    assert.ok('edits' in same && same.edits.length === 1);
    const conflicting = read.doc.hostEdits([
      { ...first, newText: 'a' },
      { ...second, newText: 'b' },
    ]);
    assert.ok('refused' in conflicting && /same place/.test(conflicting.refused));
  });

  test('edits over a hole, or over the `;` cqlint adds, are refused as a whole', async () => {
    const read = await readFixture('java/CommentsDao.java');
    const hole = read.doc.statements[4]!.holes[0]!;
    const ok = cqlRangeOf(read.doc, 'commentid = ?', 1);
    const refused = read.doc.hostEdits([
      { start: ok.start, end: ok.start, newText: 'x' },
      { start: hole.start - 1, end: hole.end, newText: 'videos' },
    ]);
    assert.ok('refused' in refused && /computes/.test(refused.refused), JSON.stringify(refused));
    const end = read.doc.statements[0]!.cqlRange.end;
    const semicolon = read.doc.hostEdits([{ start: end, end: end + 1, newText: '' }]);
    assert.ok('refused' in semicolon);
  });
});

describe('hostEdits: Python', () => {
  test('a ? written into a %s statement becomes %s, % becomes %%', async () => {
    const read = await readFixture('python/comments_dao.py');
    const end = read.doc.statements[3]!.cqlRange.end;
    const after = edited(read, read.doc.hostEdits([{ start: end, end, newText: " AND shard = ? AND note = '5%'" }]));
    assert.ok(after.includes(`" WHERE videoid = %s LIMIT %s AND shard = %s AND note = '5%%'"`));
    assert.equal(
      statementText(readEmbedded('python', after), 3),
      "SELECT commentid, userid, comment FROM comments_by_video WHERE videoid = ? LIMIT ? AND shard = ? AND note = '5%'",
    );
  });

  test('a prepared statement keeps ?; a comment goes above the call with #', async () => {
    const read = await readFixture('python/comments_dao.py');
    const start = read.doc.statements[0]!.cqlRange.start;
    const values = cqlRangeOf(read.doc, '?)');
    const after = edited(
      read,
      read.doc.hostEdits([
        { start, end: start, newText: '-- bind shard = murmur3(videoid) % 16 + 1\n' },
        { start: values.start + 1, end: values.start + 1, newText: ', ?' },
      ]),
    );
    assert.ok(
      after.includes(
        '        # cqlint: bind shard = murmur3(videoid) % 16 + 1\n        self.insert_by_video = self.session.prepare(INSERT_BY_VIDEO)',
      ),
    );
    assert.ok(after.includes('"VALUES (?, ?, ?, ?, ?)"'));
  });

  test('a line break in a one-line string is written \\n, in triple quotes as a line break', async () => {
    const read = await readFixture('python/comments_dao.py');
    const one = read.doc.statements[2]!.cqlRange.end;
    const triple = read.doc.statements[1]!.cqlRange.end;
    const after = edited(
      read,
      read.doc.hostEdits([
        { start: one, end: one, newText: '\nLIMIT 1' },
        { start: triple, end: triple, newText: '\nUSING TTL 86400' },
      ]),
    );
    assert.ok(after.includes("WHERE userid = ?\\nLIMIT 1'"));
    assert.ok(after.includes('VALUES (?, ?, ?, ?)\nUSING TTL 86400\n"""'));
  });
});
