// The Go and JavaScript/TypeScript fixtures: gocql and the Node.js cassandra-driver, their keyspaces, raw strings
// and template literals, exact host positions, and the files that must stay silent.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { cqlRangeOf, hostTextOf, readFixture, summary } from './helpers';

const KS = 'code:killrvideo';

describe('Go: gocql', () => {
  test('finds every statement: constants, raw strings, fmt.Sprintf, batches, BatchEntry, a hole', async () => {
    const { doc } = await readFixture('go/comments.go');
    assert.deepEqual(summary(doc), [
      {
        cql: 'INSERT INTO comments_by_video (videoid, commentid, userid, comment) VALUES (?, ?, ?, ?)',
        anchor: 'batch.Query',
        keyspace: KS,
      },
      {
        cql: 'INSERT INTO comments_by_user (userid, commentid, videoid, comment) VALUES (?, ?, ?, ?)',
        anchor: 'batch.Query',
        keyspace: KS,
      },
      { cql: 'SELECT comment FROM comments_by_user WHERE userid = ? LIMIT ?', anchor: 'session.Query', keyspace: KS },
      { cql: 'SELECT count(*) FROM comments_by_video WHERE videoid = ?', anchor: 'session.Query', keyspace: KS },
      {
        cql: 'DELETE FROM cqlint_hole_1 WHERE videoid = ? AND commentid = ?',
        anchor: 'session.Query',
        keyspace: KS,
        holes: ['cqlint_hole_1'],
      },
      {
        cql: `UPDATE comments_by_user SET comment = 'removed: "spam" ' WHERE userid = ? AND commentid = ?`,
        anchor: 'gocql.BatchEntry',
        keyspace: KS,
      },
    ]);
  });

  test('maps through escapes, a raw string and a constant in fmt.Sprintf', async () => {
    const read = await readFixture('go/comments.go');
    assert.equal(hostTextOf(read, '"spam"'), '\\"spam\\"');
    assert.equal(hostTextOf(read, "\t'"), "\\t'");
    assert.equal(hostTextOf(read, 'comment)\nVALUES'), 'comment)\nVALUES');
    assert.equal(hostTextOf(read, 'comments_by_video', 1), 'comments_by_video');
    assert.equal(hostTextOf(read, 'killrvideo'), '"killrvideo"');
  });

  for (const file of ['reports.go', 'messages.go']) {
    test(`${file} stays silent`, async () => {
      assert.deepEqual(summary((await readFixture(`go/${file}`)).doc), []);
    });
  }
});

describe('JavaScript and TypeScript: the Node.js cassandra-driver', () => {
  test('batch { query } objects and arrays of strings, execute, stream with a constant in a template, a hole', async () => {
    const { doc } = await readFixture('javascript/comments-service.js');
    assert.deepEqual(summary(doc), [
      {
        cql: 'INSERT INTO comments_by_video (videoid, commentid, userid, comment) VALUES (?, ?, ?, ?)',
        anchor: '{ query }',
        keyspace: KS,
      },
      {
        cql: 'INSERT INTO comments_by_user (userid, commentid, videoid, comment) VALUES (?, ?, ?, ?)',
        anchor: '{ query }',
        keyspace: KS,
      },
      {
        cql: 'SELECT commentid, videoid, comment FROM comments_by_user WHERE userid = ? LIMIT ?',
        anchor: 'client.execute',
        keyspace: KS,
      },
      {
        cql: 'SELECT commentid, userid, comment FROM comments_by_video WHERE videoid = ?',
        anchor: 'client.stream',
        keyspace: KS,
      },
      {
        cql: 'DELETE FROM cqlint_hole_1 WHERE videoid = ? AND commentid = ?',
        anchor: 'client.execute',
        keyspace: KS,
        holes: ['cqlint_hole_1'],
      },
      {
        cql: `UPDATE comments_by_user SET comment = 'removed: "spam"\\n' WHERE userid = ? AND commentid = ?`,
        anchor: 'client.batch',
        keyspace: KS,
        holes: ['?', '?'],
      },
    ]);
  });

  test('a template substitution of a constant maps to the constant; a hole to its ${...}', async () => {
    const read = await readFixture('javascript/comments-service.js');
    const range = read.doc.toHostRange(cqlRangeOf(read.doc, 'comments_by_video', 1));
    assert.equal(read.src.slice(range.start - 1, range.end + 1), "'comments_by_video'");
    assert.ok(range.start < read.src.indexOf('INSERT_BY_VIDEO'), 'in the constant, not the template');
    const del = read.doc.statements[4]!;
    const hole = read.doc.toHostRange(del.holes[0]!);
    assert.equal(read.src.slice(hole.start, hole.end), '${table}');
  });

  test('TypeScript: `as const`, a let assigned once, eachRow with an escape; no keyspace in the code', async () => {
    const read = await readFixture('typescript/video-repository.ts');
    assert.deepEqual(summary(read.doc), [
      {
        cql: 'SELECT videoid, added_date, name FROM latest_videos WHERE yyyymmdd = ? LIMIT ?',
        anchor: 'client.execute',
        holes: ['?'],
      },
      {
        cql: 'INSERT INTO latest_videos (yyyymmdd, added_date, videoid, userid, name) VALUES (?, toTimestamp(now()), ?, ?, ?)',
        anchor: 'client.execute',
      },
      { cql: 'SELECT videoid, name FROM user_videos WHERE userid = ?', anchor: 'client.eachRow' },
    ]);
    assert.equal(hostTextOf(read, 'userid = ?'), 'userid = \\u003F');
  });

  test('TSX: a statement beside a component; JSX text is not read', async () => {
    const { doc } = await readFixture('typescript/video-card.tsx');
    assert.deepEqual(summary(doc), [
      {
        cql: 'SELECT name, description, preview_image_location FROM videos WHERE videoid = ?',
        anchor: 'client.execute',
        keyspace: KS,
      },
    ]);
  });

  for (const file of ['reports-pg.js', 'notices.jsx']) {
    test(`${file} stays silent`, async () => {
      assert.deepEqual(summary((await readFixture(`javascript/${file}`)).doc), []);
    });
  }
});
