// The Python fixtures: cassandra-driver statements (prepared with `?`, executed with `%s` / `%(name)s`),
// implicit concatenation, triple quotes, f-strings and `.format`, the keyspace from connect()/set_keyspace(),
// exact host positions, and the files that must stay silent (logging, sqlite3, a bare DB-API cursor).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { cqlRangeOf, hostTextOf, readFixture, summary } from './helpers';

const KS = 'code:killrvideo';

describe('Python: cassandra-driver (comments_dao.py)', () => {
  test('finds every statement, with %s and %(name)s read as bind markers', async () => {
    const { doc } = await readFixture('python/comments_dao.py');
    assert.deepEqual(summary(doc), [
      {
        cql: 'INSERT INTO comments_by_video (videoid, commentid, userid, comment) VALUES (?, ?, ?, ?)',
        anchor: 'session.prepare',
        keyspace: KS,
      },
      {
        cql: 'INSERT INTO comments_by_user (userid, commentid, videoid, comment) VALUES (?, ?, ?, ?)',
        anchor: 'session.prepare',
        keyspace: KS,
      },
      {
        cql: 'SELECT commentid, videoid, comment FROM comments_by_user WHERE userid = ?',
        anchor: 'session.prepare',
        keyspace: KS,
      },
      {
        cql: 'SELECT commentid, userid, comment FROM comments_by_video WHERE videoid = ? LIMIT ?',
        anchor: 'session.execute',
        keyspace: KS,
      },
      {
        cql: 'UPDATE comments_by_user SET comment = :text WHERE userid = :user AND commentid = :id',
        anchor: 'session.execute',
        keyspace: KS,
      },
      {
        cql: 'DELETE FROM cqlint_hole_1 WHERE cqlint_hole_2 = ? AND commentid = ?',
        anchor: 'SimpleStatement',
        keyspace: KS,
        holes: ['cqlint_hole_1', 'cqlint_hole_2'],
      },
      {
        cql: `UPDATE comments_by_user SET comment = 'removed: "spam"\\n' WHERE userid = ?`,
        anchor: 'session.execute',
        keyspace: KS,
      },
    ]);
  });

  test('maps tokens to exactly their host characters', async () => {
    const read = await readFixture('python/comments_dao.py');
    // Implicit concatenation over two lines.
    assert.equal(hostTextOf(read, 'comment) VALUES'), 'comment) "\n    "VALUES');
    // Triple quotes keep their line breaks and indentation.
    assert.equal(hostTextOf(read, 'comment)\n    VALUES'), 'comment)\n    VALUES');
    // A class constant read through self.SELECT_BY_USER maps to where it is declared.
    const range = read.doc.toHostRange(cqlRangeOf(read.doc, 'SELECT commentid, videoid'));
    assert.ok(read.src.slice(0, range.start).endsWith("SELECT_BY_USER = '"));
    // Parameters: `?` covers `%s`, `:user` covers `%(user)s`.
    assert.equal(hostTextOf(read, 'videoid = ? LIMIT ?'), 'videoid = %s LIMIT %s');
    assert.equal(hostTextOf(read, ':user'), '%(user)s');
    // Escapes: \' and \\ in a single-quoted string.
    assert.equal(hostTextOf(read, `'removed: "spam"\\n'`), `\\'removed: "spam"\\\\n\\'`);
    // f-string interpolations are holes at their braces.
    const del = read.doc.statements[5]!;
    assert.equal(
      read.src.slice(read.doc.toHostRange(del.holes[0]!).start, read.doc.toHostRange(del.holes[0]!).end),
      '{table}',
    );
  });
});

describe('Python: video_service.py', () => {
  test('set_keyspace, execute_async with triple quotes, execute_concurrent_with_args, .format and % formatting', async () => {
    const { doc } = await readFixture('python/video_service.py');
    assert.deepEqual(summary(doc), [
      {
        cql: 'SELECT videoid, name FROM latest_videos WHERE yyyymmdd = ? LIMIT 50',
        anchor: 'session.prepare',
        keyspace: KS,
      },
      {
        cql: 'INSERT INTO latest_videos (yyyymmdd, added_date, videoid, userid, name) VALUES (?, ?, ?, ?, ?)',
        anchor: 'session.execute_async',
        keyspace: KS,
      },
      {
        cql: 'UPDATE videos SET tags = tags + ? WHERE videoid = ?',
        anchor: 'execute_concurrent_with_args',
        keyspace: KS,
      },
      // `'...{}...'.format(table)` with `table` a local assigned once: its value is used.
      { cql: 'SELECT videoid, name FROM user_videos WHERE userid = ?', anchor: 'session.execute', keyspace: KS },
      // `'... %s = 1' % column`: Python's own formatting, a hole.
      {
        cql: 'SELECT * FROM videos WHERE cqlint_hole_1 = 1',
        anchor: 'session.execute',
        keyspace: KS,
        holes: ['cqlint_hole_1'],
      },
    ]);
  });

  test("a .format() argument from a local maps to the local's literal", async () => {
    const read = await readFixture('python/video_service.py');
    const range = read.doc.toHostRange(cqlRangeOf(read.doc, 'user_videos'));
    assert.equal(read.src.slice(range.start - 1, range.end + 1), "'user_videos'");
  });
});

describe('Python: files that must stay silent', () => {
  for (const file of ['audit.py', 'reports_sqlite.py', 'export_rows.py']) {
    test(file, async () => {
      const { doc } = await readFixture(`python/${file}`);
      assert.deepEqual(summary(doc), []);
    });
  }
});
