// The C# and Kotlin fixtures: the DataStax C# driver (verbatim, raw and interpolated strings, string.Format) and
// Kotlin on the Java driver and Spring (templates, trimIndent/trimMargin), with exact host positions and the files
// that must stay silent.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { cqlRangeOf, hostTextOf, readFixture, summary } from './helpers';

const KS = 'code:killrvideo';

describe('C#: the DataStax C# driver', () => {
  test('finds every statement: constants, verbatim and raw strings, string.Format, interpolations', async () => {
    const { doc } = await readFixture('csharp/CommentsRepository.cs');
    assert.deepEqual(summary(doc), [
      {
        cql: 'INSERT INTO comments_by_video (videoid, commentid, userid, comment) VALUES (?, ?, ?, ?)',
        anchor: '_session.PrepareAsync',
        keyspace: KS,
      },
      {
        cql: 'INSERT INTO comments_by_user (userid, commentid, videoid, comment) VALUES (?, ?, ?, ?)',
        anchor: '_session.PrepareAsync',
        keyspace: KS,
      },
      {
        cql: 'SELECT commentid, videoid, comment FROM comments_by_user WHERE userid = ? LIMIT ?',
        anchor: 'new SimpleStatement',
        keyspace: KS,
      },
      {
        cql: 'SELECT count(*) FROM comments_by_video WHERE videoid = ?',
        anchor: '_session.Execute',
        keyspace: KS,
        holes: ['?'],
      },
      {
        cql: 'DELETE FROM cqlint_hole_2 WHERE videoid = ? AND commentid = ?',
        anchor: 'new SimpleStatement',
        keyspace: KS,
        holes: ['cqlint_hole_2'],
      },
      {
        cql: `UPDATE comments_by_user SET comment = 'removed: "spam"' WHERE userid = ? AND commentid = ?`,
        anchor: 'new SimpleStatement',
        keyspace: KS,
      },
      {
        cql: "SELECT videoid, name FROM latest_videos WHERE yyyymmdd = 'cqlint_hole_3' LIMIT 10",
        anchor: '_session.Execute',
        keyspace: KS,
        holes: ['cqlint_hole_3'],
      },
    ]);
  });

  test('maps through a verbatim string, a raw string and a format argument', async () => {
    const read = await readFixture('csharp/CommentsRepository.cs');
    assert.equal(hostTextOf(read, 'comment)\nVALUES'), 'comment)\nVALUES');
    assert.equal(hostTextOf(read, '\'removed: "spam"\'\nWHERE'), '\'removed: "spam"\'\n                WHERE');
    assert.equal(hostTextOf(read, 'comments_by_video', 1), 'comments_by_video');
    const count = read.doc.statements[3]!;
    const hole = read.doc.toHostRange(count.holes[0]!);
    assert.equal(read.src.slice(hole.start, hole.end), '{1}');
    assert.equal(hostTextOf(read, 'killrvideo'), '"killrvideo"');
  });

  for (const file of ['ReportsSql.cs', 'Notices.cs']) {
    test(`${file} stays silent`, async () => {
      assert.deepEqual(summary((await readFixture(`csharp/${file}`)).doc), []);
    });
  }
});

describe('Kotlin: the Java driver and Spring Data Cassandra', () => {
  test('trimIndent, trimMargin, $TEMPLATES of constants, holes, a local val, String.format', async () => {
    const { doc } = await readFixture('kotlin/VideoDao.kt');
    assert.deepEqual(summary(doc), [
      {
        cql: 'INSERT INTO latest_videos (yyyymmdd, added_date, videoid, userid, name) VALUES (?, ?, ?, ?, ?)',
        anchor: 'session.prepare',
        keyspace: KS,
      },
      {
        cql: 'SELECT videoid, added_date, name FROM user_videos WHERE userid = ?',
        anchor: 'session.prepare',
        keyspace: KS,
      },
      {
        cql: 'SELECT name, description FROM videos WHERE videoid = ?',
        anchor: 'SimpleStatement.newInstance',
        keyspace: KS,
      },
      { cql: 'UPDATE videos SET name = ? WHERE videoid = ?', anchor: 'session.execute', keyspace: KS },
      {
        cql: 'DELETE FROM cqlint_hole_1 WHERE videoid = ?',
        anchor: 'SimpleStatement.builder',
        keyspace: KS,
        holes: ['cqlint_hole_1'],
      },
      {
        cql: "UPDATE videos SET tags = tags + {'$cqlint_hole_2'} WHERE videoid = ?",
        anchor: 'session.execute',
        keyspace: KS,
        holes: ['cqlint_hole_2'],
      },
      {
        cql: 'SELECT count(*) FROM latest_videos WHERE yyyymmdd = ?',
        anchor: 'session.execute',
        keyspace: KS,
        holes: ['?'],
      },
    ]);
  });

  test('maps below the margin and the indentation, and a template to its constant', async () => {
    const read = await readFixture('kotlin/VideoDao.kt');
    assert.equal(hostTextOf(read, 'name)\nVALUES'), 'name)\n        VALUES');
    assert.equal(hostTextOf(read, 'added_date, name\n  FROM'), 'added_date, name\n        |  FROM');
    // `$VIDEOS` reads the top-level constant: the table name maps to its literal.
    const from = cqlRangeOf(read.doc, 'FROM videos');
    const videos = read.doc.toHostRange({ start: from.start + 5, end: from.end });
    assert.equal(read.src.slice(videos.start - 1, videos.end + 1), '"videos"');
    assert.ok(videos.start < read.src.indexOf('class VideoDao'));
    assert.equal(hostTextOf(read, '$cqlint'), '\\$${tag.length}');
  });

  test('Spring @Query with ?0 parameters', async () => {
    const { doc } = await readFixture('kotlin/UserRepository.kt');
    assert.deepEqual(summary(doc), [
      { cql: 'SELECT * FROM users WHERE email = ? ALLOW FILTERING', anchor: '@Query' },
      { cql: 'UPDATE users SET firstname = ?, lastname = ? WHERE userid = ?', anchor: '@Query' },
    ]);
  });

  for (const file of ['Messages.kt', 'ReportsExposed.kt']) {
    test(`${file} stays silent`, async () => {
      assert.deepEqual(summary((await readFixture(`kotlin/${file}`)).doc), []);
    });
  }
});
