// The shard rules beyond their examples tables: values cross-checked with an independent MurmurHash3
// (murmurhash3js-revisited), the data the quick fix reads, and the one @shard parser behind the schema.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { SourceRange } from '../../grammar/ast';
import { MAIN, ofRule, projectWith } from './helpers';
import { Project } from '../../server/core/engine/project';
const murmurhash3js: {
  x86: { hash32(data: Uint8Array | string, seed?: number): number };
} = require('murmurhash3js-revisited');

const utf8 = (s: string) => new TextEncoder().encode(s);
const shardOf = (title: string, n: number, offset = 1) => (murmurhash3js.x86.hash32(utf8(title)) % n) + offset;

const TABLE =
  '-- @shard shard = murmur3(title) % 16 + 1\nCREATE TABLE ks.posts (publish_date date, shard int, title text, body text, PRIMARY KEY ((publish_date, shard), title));\n';

describe('shard-mismatch', () => {
  test('the examples use the right shard for Hello', () => {
    assert.equal(shardOf('Hello', 16), 9);
  });

  test('every title gets the value an independent MurmurHash3 gives; data is what the quick fix reads', () => {
    const titles = ['Dune', 'Hyperion', 'Ünïcödé títle', '日本語のタイトル', "It''s quoted", 'a'.repeat(300)];
    for (const title of titles) {
      const decoded = title.replace(/''/g, "'");
      const right = shardOf(decoded, 16);
      const wrong = right === 16 ? 1 : right + 1;
      const ok = `${TABLE}INSERT INTO ks.posts (publish_date, shard, title) VALUES ('2020-07-09', ${right}, '${title}');`;
      assert.deepEqual(ofRule(projectWith(ok).lint(MAIN), 'shard-mismatch'), [], title);
      const bad = `${TABLE}INSERT INTO ks.posts (publish_date, shard, title) VALUES ('2020-07-09', ${wrong}, '${title}');`;
      const [finding, ...rest] = ofRule(projectWith(bad).lint(MAIN), 'shard-mismatch');
      assert.equal(rest.length, 0);
      assert.ok(finding, title);
      assert.equal(finding.data?.expected, right);
      assert.equal(finding.data?.shardColumn, 'shard');
      const range = finding.data?.valueRange as SourceRange;
      assert.equal(bad.slice(range.start, range.end), String(wrong), 'valueRange is the literal');
      assert.match(finding.message, new RegExp(`gives ${right}\\b`));
    }
  });

  test('several source columns use the composite framing', () => {
    const table =
      '-- @shard s = murmur3(a, b) % 8\nCREATE TABLE ks.t (a text, b text, s int, PRIMARY KEY ((a, s), b));\n';
    // Composite key bytes: 2-byte length, the bytes, 0x00 per component.
    const frame = (v: string) => [0, v.length, ...utf8(v), 0];
    const expected = murmurhash3js.x86.hash32(new Uint8Array([...frame('x'), ...frame('yz')])) % 8;
    const wrong = (expected + 1) % 8;
    const findings = ofRule(
      projectWith(`${table}INSERT INTO ks.t (a, b, s) VALUES ('x', 'yz', ${wrong});`).lint(MAIN),
      'shard-mismatch',
    );
    assert.equal(findings.length, 1);
    assert.equal(findings[0]!.data?.expected, expected);
    assert.deepEqual(
      ofRule(
        projectWith(`${table}INSERT INTO ks.t (a, b, s) VALUES ('x', 'yz', ${expected});`).lint(MAIN),
        'shard-mismatch',
      ),
      [],
    );
  });

  test('the table may live in another file; UPDATE SET gives the source value', () => {
    const schema =
      '-- @shard s = murmur3(title) % 16 + 1\nCREATE TABLE ks.items (d date, s int, id int, title text, PRIMARY KEY ((d, s), id));\n';
    const right = shardOf('Dune', 16);
    const wrong = right === 16 ? 1 : right + 1;
    const update = (shard: number) =>
      `UPDATE ks.items SET title = 'Dune' WHERE d = '2020-07-09' AND s = ${shard} AND id = 1;`;
    const findings = ofRule(projectWith(update(wrong), { 'schema.cql': schema }).lint(MAIN), 'shard-mismatch');
    assert.equal(findings.length, 1);
    assert.equal(findings[0]!.data?.expected, right);
    assert.deepEqual(ofRule(projectWith(update(right), { 'schema.cql': schema }).lint(MAIN), 'shard-mismatch'), []);
  });

  test('an invalid annotation turns the check off (invalid-shard-annotation reports it instead)', () => {
    const code =
      "-- @shard shard = murmur3(headline) % 16 + 1\nCREATE TABLE ks.p (d date, shard int, title text, PRIMARY KEY ((d, shard), title));\nINSERT INTO ks.p (d, shard, title) VALUES ('2020-07-09', 3, 'Hello');";
    const all = projectWith(code).lint(MAIN);
    assert.deepEqual(ofRule(all, 'shard-mismatch'), []);
    assert.equal(ofRule(all, 'invalid-shard-annotation').length, 1);
  });
});

describe('one @shard parser', () => {
  test('the schema model carries the token module spec: random(N) is 1..N, % N alone 0..N-1', () => {
    const p = projectWith(
      [
        '-- @shard s = random(8)',
        'CREATE TABLE ks.a (d date, s int, PRIMARY KEY ((d, s)));',
        '-- @shard s = murmur3(d) % 8',
        'CREATE TABLE ks.b (d date, s int, PRIMARY KEY ((d, s)));',
        '-- @shard s = (murmur3(d) % 8) + 1',
        'CREATE TABLE ks.c (d date, s int, PRIMARY KEY ((d, s)));',
      ].join('\n'),
    );
    const a = p.tableFor(MAIN, 'ks.a')!.shard!;
    assert.deepEqual(
      { method: a.method, count: a.count, offset: a.offset, shardColumn: a.shardColumn },
      { method: 'random', count: 8, offset: 1, shardColumn: 's' },
    );
    assert.ok(a.ranges.annotation, 'the full spec with ranges');
    const b = p.tableFor(MAIN, 'ks.b')!.shard!;
    assert.deepEqual({ offset: b.offset, sources: b.sources }, { offset: 0, sources: ['d'] });
    // A form the parser does not accept gives no spec, and a clear error instead of silence.
    assert.equal(p.tableFor(MAIN, 'ks.c')!.shard, undefined);
    const errors = ofRule(p.lint(MAIN), 'invalid-shard-annotation');
    assert.equal(errors.length, 1);
    assert.match(errors[0]!.message, /@shard: /);
  });

  test('the nearest annotation above a table applies; another one above it is reported as applying to nothing', () => {
    const code =
      '-- @shard s = murmur3(d) % 4\n-- @shard s = random(8)\nCREATE TABLE ks.a (d date, s int, PRIMARY KEY ((d, s)));';
    const p = projectWith(code);
    assert.equal(p.tableFor(MAIN, 'ks.a')!.shard!.method, 'random');
    const errors = ofRule(p.lint(MAIN), 'invalid-shard-annotation');
    assert.equal(errors.length, 1);
    assert.equal(errors[0]!.range.start.line, 1);
  });

  test('edits that move, keep or change annotations give what a fresh Project gives (each reading is kept while its comment stays put)', () => {
    const texts = [
      "-- @shard s = murmur3(t) % 4 +\nCREATE TABLE ks.a (d date, s int, t text, PRIMARY KEY ((d, s), t));\n\n-- @shard s = murmur3(t) % 8 + 1\nCREATE TABLE ks.b (d date, s int, t text, PRIMARY KEY ((d, s), t));\nINSERT INTO ks.b (d, s, t) VALUES ('2024-01-01', 3, 'x');\n",
    ];
    // A line above both (both move), a line between them (the second moves), the second's text changed, undone.
    texts.push(`SELECT * FROM ks.a;\n${texts[0]}`);
    texts.push(texts[1]!.replace('\n\n', '\n\nSELECT * FROM ks.b;\n\n'));
    texts.push(texts[2]!.replace('% 8 + 1', '% 8 + 2'));
    texts.push(texts[1]!);
    const editing = new Project({ config: {}, editing: () => true });
    for (const text of texts) {
      editing.setFile(MAIN, text);
      editing.parse(MAIN);
      const fresh = projectWith(text);
      assert.deepEqual(editing.lint(MAIN), fresh.lint(MAIN), text);
      assert.deepEqual(editing.tableFor(MAIN, 'ks.b')!.shard, fresh.tableFor(MAIN, 'ks.b')!.shard, text);
    }
  });
});

describe('skewed-shard-formula', () => {
  test('codepoints is reported with its evidence, murmur3 of the same column is not', () => {
    const code = (f: string) =>
      `-- @shard shard = ${f}\nCREATE TABLE ks.posts (publish_date date, shard int, title text, PRIMARY KEY ((publish_date, shard), title));`;
    const [finding] = ofRule(projectWith(code('codepoints(title) % 200 + 1')).lint(MAIN), 'skewed-shard-formula');
    assert.ok(finding);
    assert.equal(finding.severity, 'warning');
    assert.ok((finding.data?.fullestShare as number) > 0.5, `fullest share ${String(finding.data?.fullestShare)}`);
    assert.ok((finding.data?.emptyShards as number) > 100);
    assert.deepEqual(ofRule(projectWith(code('murmur3(title) % 200 + 1')).lint(MAIN), 'skewed-shard-formula'), []);
  });
});
