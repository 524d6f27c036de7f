import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  checkShardValue,
  codepointsMod,
  computeShardValue,
  parseShardAnnotation,
  shardValueFrom,
  validateShardSpec,
  type ShardSpec,
} from '../../server/core/token/shard';
import { parseCql } from '../../grammar';
import { shardAnnotationAbove } from '../../server/core/schema/shard';
import { Project } from '../../server/core/engine/project';
import { predictShardSkew, factorize } from '../../server/core/token/skew';
import { nativeType } from '../../server/core/token/types';
import { createTable, lineComment, lit, rangeAt, call } from './ast-helpers';
import { LineIndex } from '../../grammar/line-index';
const murmurRef = require('murmurhash3js-revisited');

function spec(text: string): ShardSpec {
  const r = parseShardAnnotation(lineComment(`-- ${text}`, 60));
  assert.ok(r && r.ok, `should parse: ${text} ${r && !r.ok ? r.error.message : ''}`);
  return r.spec;
}
function parseError(text: string): { message: string; column: number } {
  const r = parseShardAnnotation(lineComment(`-- ${text}`, 60));
  assert.ok(r && !r.ok, `should fail: ${text}`);
  // The comment starts its line at offset 60: the column is the offset into it, 1-based.
  return { message: r.error.message, column: r.error.range.start - 60 + 1 };
}

describe('@shard annotation parsing', () => {
  test('murmur3 with + 1', () => {
    const s = spec('@shard shard = murmur3(title) % 200 + 1');
    assert.deepEqual([s.shardColumn, s.method, s.sources, s.count, s.offset], ['shard', 'murmur3', ['title'], 200, 1]);
    // ranges point into the comment "-- @shard shard = murmur3(title)...", which starts at offset 60
    assert.equal(s.ranges.shardColumn.start, 60 + 10);
    assert.equal(s.ranges.method.start, 60 + 18);
    assert.equal(s.ranges.sources[0].start, 60 + 26);
    assert.equal(s.ranges.count.start, 60 + 35);
  });
  test('codepoints, several sources, no offset, quoted names, hash alias, random', () => {
    assert.equal(spec('@shard shard = codepoints(title) % 200 + 1').method, 'codepoints');
    const multi = spec('@shard s = murmur3(a, "B") % 16');
    assert.deepEqual([multi.sources, multi.offset], [['a', 'B'], 0]);
    assert.equal(spec('@shard Shard = HASH(Title) % 8 + 1').method, 'murmur3');
    assert.equal(spec('@shard Shard = HASH(Title) % 8 + 1').sources[0], 'title');
    const rnd = spec('@shard shard = random(200)');
    assert.deepEqual([rnd.method, rnd.count, rnd.offset, rnd.sources], ['random', 200, 1, []]);
  });
  test('errors are clear and point at the offending part', () => {
    assert.match(parseError('@shard shard murmur3(title) % 200').message, /expected '=' after shard, found 'murmur3'/);
    const unknown = parseError('@shard shard = md5(title) % 200');
    assert.match(unknown.message, /unknown shard function 'md5'/);
    assert.equal(unknown.column, 19);
    assert.match(parseError('@shard shard = murmur3(title)').message, /expected '% N'/);
    assert.match(parseError('@shard shard = murmur3(title) % 0').message, /number of shards must be 1\.\./);
    assert.match(parseError('@shard shard = codepoints(a, b) % 10').message, /exactly one text column/);
    assert.match(parseError('@shard shard = random(10) + 1').message, /already gives 1\.\.10/);
    assert.match(parseError('@shard shard = murmur3(title) % 200 * 2').message, /expected '\+ 1' or the end/);
    assert.match(parseError('@shard').message, /missing the shard column/);
    assert.equal(parseShardAnnotation(lineComment('-- just a comment', 0)), undefined);
  });
});

describe('finding and validating annotations', () => {
  const table = createTable(
    'posts',
    [
      ['shard', 'int'],
      ['publish_date', 'date'],
      ['title', 'text'],
      ['views', 'int'],
    ],
    ['publish_date', 'shard'],
    ['title'],
    rangeAt(100, 80),
  );
  for (const [eol, name] of [
    ['\n', 'LF'],
    ['\r\n', 'CRLF'],
    ['\r', 'CR'],
  ] as const) {
    test(`the @shard comment directly above CREATE TABLE is found; one separated by a blank line is not (${name})`, () => {
      const create =
        'CREATE TABLE posts (publish_date date, shard int, title text, PRIMARY KEY ((publish_date, shard), title));';
      const files = {
        '/ws/next.cql': ['-- posts by day', '-- @shard shard = murmur3(title) % 16 + 1', create],
        '/ws/between.cql': ['-- @shard shard = murmur3(title) % 8 + 1', '-- note', create],
        '/ws/far.cql': ['-- @shard shard = murmur3(title) % 4 + 1', '', create],
        '/ws/block.cql': ['/* @shard', '   shard = murmur3(title) % 2 + 1 */', create],
      };
      const project = new Project();
      for (const [path, lines] of Object.entries(files)) project.setFile(path, lines.join(eol));
      const found: Record<string, number | undefined> = {};
      for (const [path, lines] of Object.entries(files)) {
        const text = lines.join(eol);
        const parse = parseCql(text);
        const table = parse.statements.find((s) => s.kind === 'CreateTable')!;
        const annotation = shardAnnotationAbove(parse.comments, text, table.range.start);
        assert.ok(!annotation || annotation.result.ok, path);
        found[path] = annotation?.result.ok ? annotation.result.spec.count : undefined;
        // The schema model attaches the same annotation.
        assert.equal(project.tableFor(path, 'posts')?.shard?.count, found[path], path);
        if (annotation?.result.ok) {
          const count = annotation.result.spec.ranges.count;
          assert.equal(text.slice(count.start, count.end), String(found[path]));
          const linesBefore = text.slice(0, count.start).split(/\r\n|\r|\n/);
          const at = new LineIndex(text).location(count.start);
          assert.deepEqual([at.line, at.column], [linesBefore.length, linesBefore.at(-1)!.length + 1], path);
        }
      }
      assert.deepEqual(found, {
        '/ws/next.cql': 16,
        '/ws/between.cql': 8,
        '/ws/far.cql': undefined,
        '/ws/block.cql': 2,
      });
    });
  }
  test('a valid spec has no problems', () => {
    assert.deepEqual(validateShardSpec(spec('@shard shard = murmur3(title) % 16 + 1'), table), []);
  });
  test('unknown columns, shard not in the partition key, wrong types', () => {
    const msgs = (t: string, tbl = table) => validateShardSpec(spec(t), tbl).map((p) => p.message);
    assert.match(msgs('@shard bucket = murmur3(title) % 16 + 1')[0], /table posts has no column 'bucket'/);
    assert.match(
      msgs('@shard shard = murmur3(headline) % 16 + 1')[0],
      /source column 'headline' not found in table posts/,
    );
    assert.match(
      msgs('@shard shard = codepoints(views) % 16 + 1')[0],
      /codepoints\(\) needs a text column, but 'views' is int/,
    );
    const unsharded = createTable(
      'posts',
      [
        ['shard', 'int'],
        ['publish_date', 'date'],
        ['title', 'text'],
      ],
      ['publish_date'],
      ['shard'],
    );
    assert.match(
      msgs('@shard shard = murmur3(title) % 16 + 1', unsharded)[0],
      /not part of the partition key of posts \(publish_date\); write PRIMARY KEY \(\(publish_date, shard\), \.\.\.\)/,
    );
    const tiny = createTable(
      't',
      [
        ['shard', 'tinyint'],
        ['title', 'text'],
      ],
      ['shard'],
    );
    assert.match(msgs('@shard shard = murmur3(title) % 200 + 1', tiny)[0], /up to 200 do not fit in tinyint/);
    assert.ok(
      msgs('@shard title = murmur3(title) % 10').some((m) => /shard column 'title' must be an integer column/.test(m)),
    );
  });
});

describe('shard values', () => {
  const text = nativeType('text');
  test('murmur3(title) = x86_32 of the UTF-8 bytes, unsigned, % N + offset', () => {
    const s = spec('@shard shard = murmur3(title) % 200 + 1');
    for (const title of ['Hello world', 'Ünïcödé 🚀', '']) {
      const r = computeShardValue(s, { title: { type: text, value: { json: title } } });
      assert.ok(r.ok);
      if (r.ok) assert.equal(r.value, (murmurRef.x86.hash32(Buffer.from(title, 'utf8')) % 200) + 1, title);
    }
  });
  test('murmur3(a, b) hashes the composite framing', () => {
    const s = spec('@shard shard = murmur3(a, b) % 16');
    const r = computeShardValue(s, { a: { type: text, value: 'x' }, b: { type: nativeType('int'), value: 1 } });
    const framed = Buffer.from('0001780000040000000100', 'hex');
    assert.ok(r.ok);
    if (r.ok) assert.equal(r.value, murmurRef.x86.hash32(framed) % 16);
  });
  test('codepoints is the exact product mod N', () => {
    assert.equal(codepointsMod('ab', 1000), (97 * 98) % 1000);
    // 'Hello world' contains a space (32) and 'd' (100 = 4 * 25): the product is 0 mod 200
    assert.equal(codepointsMod('Hello world', 200), 0);
    const exact = [...'zyxwvuts🚀'].reduce((acc, ch) => acc * BigInt(ch.codePointAt(0)!), 1n) % 9973n;
    assert.equal(codepointsMod('zyxwvuts🚀', 9973), Number(exact));
  });
  test('random is not computable; non-literal sources give a reason', () => {
    const r = computeShardValue(spec('@shard shard = random(8)'), {});
    assert.ok(!r.ok && /any of 1\.\.8/.test(r.reason));
    const n = computeShardValue(spec('@shard shard = murmur3(id) % 8'), {
      id: { type: nativeType('timeuuid'), value: call('now') },
    });
    assert.ok(!n.ok && n.problem === 'not-computable');
  });
  test('shardValueFrom gathers the sources by name and position: a source with no type or no value is not computed', () => {
    const s = spec('@shard shard = murmur3(a, b) % 16');
    const types: Record<string, ReturnType<typeof nativeType>> = { a: text, b: nativeType('int') };
    const values = ['x', 1];
    const r = shardValueFrom(
      s,
      (c) => types[c],
      (_, i) => values[i],
    );
    assert.deepEqual(
      r,
      computeShardValue(s, { a: { type: text, value: 'x' }, b: { type: nativeType('int'), value: 1 } }),
    );
    const untyped = shardValueFrom(
      s,
      (c) => (c === 'a' ? text : undefined),
      (_, i) => values[i],
    );
    assert.ok(
      !untyped.ok &&
        untyped.column === 'b' &&
        /@shard source column b is not a column of the table/.test(untyped.reason),
    );
    const valueless = shardValueFrom(
      s,
      (c) => types[c],
      (c) => (c === 'a' ? 'x' : undefined),
    );
    assert.ok(!valueless.ok && valueless.problem === 'not-computable' && valueless.column === 'b');
  });
  test('checkShardValue finds mismatches and out-of-range values', () => {
    const s = spec('@shard shard = murmur3(title) % 200 + 1');
    const types = { shard: nativeType('int'), title: text };
    const right = (murmurRef.x86.hash32(Buffer.from('Hello', 'utf8')) % 200) + 1;
    assert.equal(
      checkShardValue(s, types, { shard: lit('integer', String(right)), title: lit('string', 'Hello') }),
      null,
    );
    const wrong = right === 1 ? 2 : 1;
    const mismatch = checkShardValue(s, types, { shard: lit('integer', String(wrong)), title: lit('string', 'Hello') });
    assert.equal(mismatch?.kind, 'mismatch');
    assert.equal(mismatch?.expected, right);
    assert.equal(mismatch?.actual, wrong);
    assert.match(mismatch!.message, new RegExp(`shard = ${wrong} but murmur3\\(title\\) % 200 \\+ 1 gives ${right}`));
    const out = checkShardValue(spec('@shard shard = random(8)'), types, { shard: lit('integer', '9') });
    assert.deepEqual([out?.kind, out?.min, out?.max], ['out-of-range', 1, 8]);
    assert.equal(checkShardValue(s, types, { shard: lit('integer', '5'), title: call('foo') }), null);
  });
});

describe('skew prediction', () => {
  test('codepoints(title) % 200 + 1 is badly skewed, mostly in shard 1, and says why', () => {
    const r = predictShardSkew(spec('@shard shard = codepoints(title) % 200 + 1'));
    assert.equal(r.skewed, true);
    assert.equal(r.primary.family, 'titles');
    assert.equal(r.primary.fullestShard, 1);
    assert.ok(r.primary.fullestShare > 0.9, `fullest share ${r.primary.fullestShare}`);
    assert.ok(r.primary.emptyShards > 100);
    assert.ok(r.samples.find((s) => s.family === 'ids')!.usedShards < 20);
    assert.match(r.message, /^codepoints\(title\) % 200 \+ 1 puts 9\d% of sample titles in shard 1/);
    assert.match(r.message, /200 = 2\^3 × 5\^2/);
    assert.match(r.message, /use murmur3\(title\) % 200 \+ 1/i);
  });
  test('murmur3 and random spread evenly', () => {
    for (const t of ['@shard shard = murmur3(title) % 200 + 1', '@shard shard = random(200)']) {
      const r = predictShardSkew(spec(t));
      assert.equal(r.skewed, false, t);
      for (const s of r.samples) {
        assert.ok(s.maxOverMean < 2.5, `${t} ${s.family} max/mean ${s.maxOverMean}`);
        assert.equal(s.emptyShards, 0);
      }
    }
  });
  test('deterministic', () => {
    const a = predictShardSkew(spec('@shard shard = codepoints(order_id) % 64'));
    const b = predictShardSkew(spec('@shard shard = codepoints(order_id) % 64'));
    assert.deepEqual(a, b);
    assert.equal(a.primary.family, 'ids');
    assert.deepEqual(factorize(200), [
      [2, 3],
      [5, 2],
    ]);
  });
});

describe('shard counts up to 2^31 - 1', () => {
  test('the skew prediction and the rules handle any N without an array of N', () => {
    const huge = spec('@shard shard = codepoints(title) % 2147483647 + 1');
    const report = predictShardSkew(huge);
    assert.equal(report.count, 2147483647);
    assert.ok(report.primary.emptyShards >= 2147483647 - 4000 && report.primary.usedShards >= 1);
    const project = new Project({ config: {} });
    project.setFile(
      '/v/huge.cql',
      `-- @shard shard = murmur3(title) % 2147483647 + 1
CREATE TABLE ks.b (d date, shard int, title text, PRIMARY KEY ((d, shard), title));
SELECT * FROM ks.b WHERE d = '2020-01-01';
-- @shard shard = random(1000000)
CREATE TABLE ks.r (d date, shard int, title text, PRIMARY KEY ((d, shard), title));
SELECT * FROM ks.r WHERE d = '2020-01-01';
`,
    );
    const messages = project.lint('/v/huge.cql').map((f) => f.message);
    assert.ok(
      messages.some((m) => /must read all 2147483647 shards/.test(m)),
      messages.join('\n'),
    );
  });
});
