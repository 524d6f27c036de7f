// The Java fixtures: the statements found (text, anchor, keyspace, holes), exact host positions through
// concatenations, escapes and text blocks, and the files that must stay silent.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { cqlRangeOf, hostTextOf, readFixture, summary } from './helpers';

const KS = 'code:killrvideo';

describe('Java: the DataStax 4.x driver (CommentsDao.java)', () => {
  test('finds every statement: constants, a text block, prepared and simple statements, holes', async () => {
    const { doc } = await readFixture('java/CommentsDao.java');
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
        cql: 'SELECT commentid FROM comments_by_video WHERE videoid = ? LIMIT ?',
        anchor: 'SimpleStatement.newInstance',
        keyspace: KS,
        holes: ['?'],
      },
      {
        cql: 'DELETE FROM cqlint_hole_2 WHERE cqlint_hole_3 = ? AND commentid = ?',
        anchor: 'SimpleStatement.builder',
        keyspace: KS,
        holes: ['cqlint_hole_2', 'cqlint_hole_3'],
      },
      {
        cql: 'SELECT count(*) FROM comments_by_video WHERE videoid = ?',
        anchor: 'session.execute',
        keyspace: KS,
        holes: ['?'],
      },
      {
        cql: `UPDATE comments_by_user SET comment = 'This comment was removed by a "moderator"\\n' WHERE userid = ? AND commentid = ?`,
        anchor: 'session.execute',
        keyspace: KS,
        holes: ['?', '?'],
      },
    ]);
    // The keyspace comes from withKeyspace("killrvideo"), emitted once before the statements.
    assert.ok(doc.cqlText.startsWith('USE killrvideo;\n'));
    assert.equal(doc.problems.length, 0);
  });

  test('maps tokens to exactly their host characters', async () => {
    const read = await readFixture('java/CommentsDao.java');
    // In the text block, below its stripped indentation.
    assert.equal(hostTextOf(read, 'comments_by_user', 1), 'comments_by_user');
    const textBlockToken = read.doc.toHostRange(cqlRangeOf(read.doc, 'comments_by_user', 1));
    assert.equal(read.src.slice(textBlockToken.start - 'FROM '.length, textBlockToken.start), 'FROM ');
    // Across a concatenation over two lines: the range covers the code between, the token ends where it ends.
    assert.equal(hostTextOf(read, 'comment) VALUES'), 'comment) "\n            + "VALUES');
    // A constant used in a concatenation maps to where it is declared.
    const constant = hostTextOf(read, 'comments_by_video', 1);
    assert.equal(constant, 'comments_by_video');
    assert.ok(
      read.src.indexOf('"comments_by_video"') + 1 ===
        read.doc.toHostRange(cqlRangeOf(read.doc, 'comments_by_video', 1)).start,
    );
    // Escapes: the CQL `"` comes from `\"`, the CQL `\` from `\\`.
    assert.equal(hostTextOf(read, '"moderator"'), '\\"moderator\\"');
    assert.equal(hostTextOf(read, "\\n'"), "\\\\n'");
  });

  test('a hole maps to the expression it stands for, and back', async () => {
    const read = await readFixture('java/CommentsDao.java');
    const { doc, src } = read;
    const del = doc.statements[4]!;
    const [table, column] = del.holes;
    assert.equal(src.slice(doc.toHostRange(table!).start, doc.toHostRange(table!).end), 'table');
    assert.equal(src.slice(doc.toHostRange(column!).start, doc.toHostRange(column!).end), 'keyColumn');
    assert.equal(doc.toCql(src.indexOf('table + " WHERE')), table!.start);
    // toCql is the inverse of toHost inside literals.
    const token = cqlRangeOf(doc, 'commentid = ?', 1);
    assert.equal(doc.toCql(doc.toHost(token.start)), token.start);
    assert.equal(doc.toCql(src.indexOf('class CommentsDao')), undefined);
  });

  test('the USE line maps to the keyspace literal', async () => {
    const read = await readFixture('java/CommentsDao.java');
    assert.equal(hostTextOf(read, 'killrvideo'), '"killrvideo"');
    assert.deepEqual(read.doc.statements[0]!.keyspace, {
      kind: 'code',
      name: 'killrvideo',
      hostRange: { start: read.src.indexOf('"killrvideo"'), end: read.src.indexOf('"killrvideo"') + 12 },
      via: 'CqlSession.builder() .withKeyspace("killrvideo")',
    });
  });
});

describe('Java: Spring Data Cassandra, the mapper, the 3.x driver', () => {
  test('Spring @Query: ?0 parameters read as ?, SpEL as holes, a constant, CassandraTemplate', async () => {
    const { doc } = await readFixture('java/VideoRepository.java');
    assert.deepEqual(summary(doc), [
      { cql: 'SELECT videoid, name, preview_image_location FROM latest_videos WHERE yyyymmdd = ?', anchor: '@Query' },
      { cql: 'SELECT * FROM videos WHERE videoid = ?', anchor: '@Query' },
      { cql: 'SELECT videoid, added_date, name FROM user_videos WHERE userid = ? LIMIT ?', anchor: '@Query' },
      { cql: 'UPDATE videos SET name = ? WHERE videoid = ?', anchor: '@Query', holes: ['?', '?'] },
      {
        cql: "SELECT * FROM videos WHERE tags CONTAINS 'cqlint_hole_3' ALLOW FILTERING",
        anchor: 'template.select',
        holes: ['cqlint_hole_3'],
      },
    ]);
  });

  test('a `?0` maps to both host characters', async () => {
    const read = await readFixture('java/VideoRepository.java');
    assert.equal(hostTextOf(read, 'videoid = ?'), 'videoid = ?0');
  });

  test('the mapper: ${qualifiedTableId} is a hole, :name markers stay', async () => {
    const { doc } = await readFixture('java/UserDao.java');
    assert.deepEqual(summary(doc), [
      { cql: 'SELECT * FROM cqlint_hole_1 WHERE userid = :userid', anchor: '@Query', holes: ['cqlint_hole_1'] },
      { cql: 'SELECT count(*) FROM cqlint_hole_2.users', anchor: '@Query', holes: ['cqlint_hole_2'] },
      {
        cql: 'UPDATE cqlint_hole_3 SET email = :email WHERE userid = :userid',
        anchor: '@Query',
        holes: ['cqlint_hole_3'],
      },
      { cql: 'SELECT * FROM users WHERE email = :email ALLOW FILTERING', anchor: '@Query' },
    ]);
  });

  test('the 3.x driver: cluster.connect(keyspace), a final local, new SimpleStatement, a unicode escape', async () => {
    const read = await readFixture('java/LegacyRatingsDao.java');
    assert.deepEqual(summary(read.doc), [
      {
        cql: 'UPDATE video_ratings SET rating_counter = rating_counter + 1, rating_total = rating_total + ? WHERE videoid = ?',
        anchor: 'session.execute',
        keyspace: KS,
      },
      {
        cql: 'SELECT rating_counter, rating_total FROM video_ratings WHERE videoid = ?',
        anchor: 'new SimpleStatement',
        keyspace: KS,
      },
      { cql: 'DELETE FROM video_ratings WHERE videoid = ?', anchor: 'session.execute', keyspace: KS },
    ]);
    assert.equal(hostTextOf(read, '?', 3), '\\u003F');
    assert.equal(hostTextOf(read, 'video_ratings\n'), 'video_ratings\\n');
  });

  test("Spring's getKeyspaceName() gives the keyspace; a complete statement that reaches no call still counts", async () => {
    const { doc } = await readFixture('java/CassandraConfig.java');
    assert.deepEqual(summary(doc), [{ cql: 'SELECT release_version FROM system.local', keyspace: KS }]);
  });
});

describe('Java: files that must stay silent', () => {
  for (const file of ['AuditLogger.java', 'ReportsJdbc.java']) {
    test(file, async () => {
      const { doc } = await readFixture(`java/${file}`);
      assert.deepEqual(summary(doc), []);
      assert.equal(doc.cqlText, '');
    });
  }
});

describe('Java: keyspace from the settings', () => {
  test('defaultKeyspace applies where the code names none, as a USE at the top', async () => {
    const { doc } = await readFixture('java/VideoRepository.java', { defaultKeyspace: 'killrvideo' });
    assert.ok(doc.cqlText.startsWith('USE killrvideo;\n'));
    assert.deepEqual(
      doc.statements.map((s) => s.keyspace),
      doc.statements.map(() => ({ kind: 'setting', name: 'killrvideo' })),
    );
  });

  test('the code wins over the setting', async () => {
    const { doc } = await readFixture('java/CommentsDao.java', { defaultKeyspace: 'other' });
    assert.ok(doc.statements.every((s) => s.keyspace?.kind === 'code'));
  });
});
