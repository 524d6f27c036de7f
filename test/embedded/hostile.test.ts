// Bad input is bounded: deep expressions (no stack overflow), huge files and binary data (a problem, no parse),
// minified code on one line, unterminated strings (the rest of the file still read), and memory that does not grow
// when the same large file is read again and again (trees are freed).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { MAX_HOST_CHARS, loadHostLanguages, readEmbedded } from '../../server/core/embedded';

describe('hostile host files', () => {
  test('a 10,000-deep concatenation and 10,000 nested parentheses read without overflowing the stack', async () => {
    await loadHostLanguages(['java', 'python']);
    const chain = Array.from({ length: 10_000 }, (_, i) => `"c${i}, "`).join(' + ');
    const java = `class A { void f() { session.execute("SELECT " + ${chain} + "x FROM videos"); } }`;
    const doc = readEmbedded('java', java);
    assert.equal(doc.statements.length, 1);
    assert.ok(doc.cqlText.startsWith('SELECT c0, c1, '));
    assert.ok(doc.cqlText.includes('c9999, x FROM videos;'));
    const nested = `q = ${'('.repeat(10_000)}"SELECT * FROM videos"${')'.repeat(10_000)}\nsession.execute(q)\n`;
    const py = readEmbedded('python', nested);
    assert.ok(py.problems.length > 0 || py.statements.length <= 1);
  });

  test('a file over the size cap is one problem and no statements; so is binary data', async () => {
    await loadHostLanguages(['java', 'python']);
    const big = `class A { String q = "SELECT * FROM videos"; }\n${'// filler line of a generated file\n'.repeat(Math.ceil(MAX_HOST_CHARS / 34) + 1)}`;
    const doc = readEmbedded('java', big);
    assert.equal(doc.statements.length, 0);
    assert.equal(doc.problems.length, 1);
    assert.match(doc.problems[0]!.message, /MiB/);
    const binary = readEmbedded('python', `session.execute("SELECT * FROM videos")\n\u0000\u0001\u0002`);
    assert.equal(binary.statements.length, 0);
    assert.match(binary.problems[0]!.message, /binary/);
  });

  test("a file whose broken code sends tree-sitter's error recovery into its slow path is given up on, and the next file parses", async () => {
    await loadHostLanguages(['java']);
    // 64 KiB of `{"a":` closing and reopening Java strings: tree-sitter alone took 65 s on it (load 15).
    const prefix =
      'import com.datastax.oss.driver.api.core.CqlSession;\nclass A { void f(CqlSession s) { s.execute("SELECT * FROM t WHERE k = ';
    const slow = readEmbedded('java', `${prefix}${'{"a":'.repeat(13_107)} 1"); } }\n`);
    assert.equal(slow.statements.length, 0);
    assert.equal(slow.problems.length, 1);
    assert.match(slow.problems[0]!.message, /^not read for CQL: the java parser did not finish within \d+\.\d s/);
    // The cancelled parse is not resumed by the next call.
    const next = readEmbedded('java', `${prefix}?"); } }\n`);
    assert.deepEqual(next.problems, []);
    assert.equal(next.cqlText.trim(), 'SELECT * FROM t WHERE k = ?;');
  });

  test('minified JavaScript on one 2 MB line is read', async () => {
    await loadHostLanguages(['javascript']);
    const unit =
      'const c=require("cassandra-driver");function f(a){return a.execute("SELECT name FROM videos WHERE videoid = ?",[a])}';
    const line = Array.from(
      { length: Math.ceil(2_000_000 / unit.length) },
      (_, i) => `var v${i}=${i};${unit.replace('f(a)', `f${i}(a)`)}`,
    ).join('');
    const doc = readEmbedded('javascript', line);
    assert.ok(line.length >= 2_000_000 && !line.includes('\n'));
    assert.ok(doc.statements.length > 1000);
    assert.ok(doc.statements.every((s) => s.anchor === 'a.execute'));
  });

  test('an unterminated string: the literals inside the error are skipped, the rest is read', async () => {
    await loadHostLanguages(['java', 'python']);
    const java = [
      'import com.datastax.oss.driver.api.core.CqlSession;',
      'class A {',
      '  void ok(CqlSession s) { s.execute("SELECT name FROM videos WHERE videoid = ?"); }',
      '  void broken(CqlSession s) { s.execute("SELECT * FROM users WHERE userid = ?); }',
      '}',
    ].join('\n');
    const doc = readEmbedded('java', java);
    assert.deepEqual(
      doc.statements.map((s) => doc.cqlText.slice(s.cqlRange.start, s.cqlRange.end)),
      ['SELECT name FROM videos WHERE videoid = ?'],
    );
    const py = readEmbedded(
      'python',
      'from cassandra.cluster import Cluster\nsession.execute("SELECT name FROM videos")\nx = """SELECT never closed\n',
    );
    assert.deepEqual(
      py.statements.map((s) => py.cqlText.slice(s.cqlRange.start, s.cqlRange.end)),
      ['SELECT name FROM videos'],
    );
  });

  test('reading one large file 200 times keeps memory bounded (trees are freed)', async () => {
    await loadHostLanguages(['java']);
    const method = (i: number) =>
      `  void m${i}(CqlSession s) { s.execute("SELECT name FROM videos WHERE videoid = ? AND n = ${i}"); }\n`;
    const text = `import com.datastax.oss.driver.api.core.CqlSession;\nclass A {\n${Array.from({ length: 400 }, (_, i) => method(i)).join('')}}\n`;
    assert.ok(text.length > 36_000);
    for (let i = 0; i < 20; i++) readEmbedded('java', text);
    // The trees live in the WebAssembly memory, which Node counts as `external` and which only grows: a tree not
    // deleted grows it by ~0.7 MiB a read here. RSS also moves with when V8 collects and what the kernel reclaims,
    // which made a test on RSS fail on a loaded machine with no leak.
    const before = process.memoryUsage().external;
    for (let i = 0; i < 180; i++) assert.equal(readEmbedded('java', text).statements.length, 400);
    const growth = process.memoryUsage().external - before;
    assert.ok(
      growth < 32 * 1024 * 1024,
      `WebAssembly memory grew by ${(growth / 1048576).toFixed(1)} MiB over 180 reads`,
    );
  });
});
