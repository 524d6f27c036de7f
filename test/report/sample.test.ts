// The cqlsh CSV reader and the sample summary: every cqlsh output format for the key types, bad rows by
// line, header or no header, chunk boundaries anywhere, exact tokens, shard spread and nodes.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { CsvReader, type CsvField } from '../../server/core/io/csv';
import { copyDefaultColumnOrder, readSample, type SampleSummary } from '../../server/core/report/sample';
import { Project } from '../../server/core/engine/project';
import { computeToken } from '../../server/core/token/token';
import { parseRing, ownerIndex } from '../../server/core/token/ring';
import { shardHistogram } from '../../server/core/token/skew';
import { estimatePartition } from '../../server/core/partition/sizing';
import { parseConfig, sampleFor } from '../../server/core/config';

function parseCsv(
  text: string,
  chunkSize = text.length || 1,
): { records: { fields: CsvField[]; line: number }[]; problems: { line: number; reason: string }[] } {
  const records: { fields: CsvField[]; line: number }[] = [];
  const problems: { line: number; reason: string }[] = [];
  const reader = new CsvReader(
    (fields, line) => records.push({ fields: fields.map((f) => ({ ...f })), line }),
    (p) => problems.push(p),
  );
  for (let i = 0; i < text.length; i += chunkSize) reader.push(text.slice(i, i + chunkSize));
  reader.end();
  return { records, problems };
}

const texts = (r: ReturnType<typeof parseCsv>): (string | null)[][] =>
  r.records.map((rec) => rec.fields.map((f) => (!f.quoted && f.text === '' ? null : f.text)));

test('CSV: quoted commas, line breaks, doubled and escaped quotes, nulls and empty strings, CRLF, no final newline', () => {
  const text = 'a,"b, c",1\r\n"multi\nline ""quoted"" \\"esc\\"",,""\r\nlast,x,\\n';
  for (const size of [text.length, 1, 2, 3, 7]) {
    const r = parseCsv(text, size);
    assert.deepEqual(r.problems, [], `chunks of ${size}`);
    assert.deepEqual(
      texts(r),
      [
        ['a', 'b, c', '1'],
        ['multi\nline "quoted" "esc"', null, ''],
        ['last', 'x', '\\n'],
      ],
      `chunks of ${size}`,
    );
    assert.deepEqual(
      r.records.map((x) => x.line),
      [1, 2, 4],
      'records start on their own line, after the quoted line break',
    );
  }
});

test('CSV: malformed records are reported by line and the rest is still read', () => {
  const r = parseCsv('ok,1\n"closed"junk,2\nbad"quote,3\nok,4\n"never closed,5\n');
  assert.deepEqual(texts(r), [
    ['ok', '1'],
    ['ok', '4'],
  ]);
  assert.deepEqual(
    r.problems.map((p) => p.line),
    [2, 3, 5],
  );
  assert.match(r.problems[0]!.reason, /after the closing quote/);
  assert.match(r.problems[1]!.reason, /quote inside unquoted field/);
  assert.match(r.problems[2]!.reason, /not closed/);
});

// One table per key type: the cqlsh output of a value, and the CQL literal whose token it must have.
const KEY_FORMATS: { type: string; csv: string; literal: string }[] = [
  { type: 'text', csv: '"a, b ""quoted""\nline"', literal: '\'a, b "quoted"\nline\'' },
  { type: 'ascii', csv: 'plain', literal: "'plain'" },
  { type: 'date', csv: '2020-07-09', literal: "'2020-07-09'" },
  { type: 'timestamp', csv: '2020-07-09 17:00:00.123000+0000', literal: "'2020-07-09 17:00:00.123+0000'" },
  { type: 'time', csv: '17:00:00.123456789', literal: "'17:00:00.123456789'" },
  { type: 'boolean', csv: 'True', literal: 'true' },
  { type: 'blob', csv: '0xcafe01', literal: '0xcafe01' },
  { type: 'uuid', csv: '5132b130-ae79-11e4-ab27-0800200c9a66', literal: '5132b130-ae79-11e4-ab27-0800200c9a66' },
  { type: 'timeuuid', csv: 'd2177dd0-eaa2-11de-a572-001b779c76e3', literal: 'd2177dd0-eaa2-11de-a572-001b779c76e3' },
  { type: 'inet', csv: '10.0.0.1', literal: "'10.0.0.1'" },
  { type: 'int', csv: '-17', literal: '-17' },
  { type: 'bigint', csv: '9007199254740993', literal: '9007199254740993' },
  { type: 'varint', csv: '123456789012345678901234567890', literal: '123456789012345678901234567890' },
  { type: 'decimal', csv: '123.450', literal: '123.450' },
  { type: 'double', csv: '2.5', literal: '2.5' },
  { type: 'frozen<list<text>>', csv: "\"['a', 'b,c', 'it''s']\"", literal: "['a', 'b,c', 'it''s']" },
  { type: 'frozen<set<int>>', csv: '"{1, 2, 3}"', literal: '{1, 2, 3}' },
  { type: 'frozen<map<text, int>>', csv: "\"{'a': 1, 'b': 2}\"", literal: "{'a': 1, 'b': 2}" },
  { type: 'frozen<tuple<int, text>>', csv: '"(1, \'x\')"', literal: "(1, 'x')" },
  {
    type: 'frozen<list<timestamp>>',
    csv: '"[\'2020-07-09 17:00:00.000000+0000\']"',
    literal: "['2020-07-09 17:00:00.000+0000']",
  },
];

async function sampleOf(
  schema: string,
  table: string,
  csv: string,
  options: Partial<Parameters<typeof readSample>[3]> = {},
  chunk = 5,
): Promise<{ summary: SampleSummary; project: Project }> {
  const project = new Project({ config: {} });
  project.setFile('/virtual/sample/schema.cql', schema);
  const info = project.tableFor('/virtual/sample/schema.cql', table)!;
  assert.ok(info, table);
  const chunks: string[] = [];
  for (let i = 0; i < csv.length; i += chunk) chunks.push(csv.slice(i, i + chunk));
  const summary = await readSample(chunks, info, project.schema(), { file: 'sample.csv', ...options });
  return { summary, project };
}

test('sample: every cqlsh output format of the key types gives the exact token of the key', async () => {
  for (const { type, csv, literal } of KEY_FORMATS) {
    const schema = `CREATE TABLE ks.t (k ${type}, c int, v text, PRIMARY KEY (k, c));`;
    const { summary } = await sampleOf(schema, 'ks.t', `${csv},1,hello\n${csv},2,\n`);
    assert.deepEqual(summary.malformed, [], type);
    assert.equal(summary.partitions, 1, type);
    assert.equal(summary.rows, 2, type);
    const expected = computeToken([type], [literal]).toString();
    assert.equal(summary.largest[0]!.token, expected, `${type}: ${csv}`);
  }
});

test('sample: nulls in the key, wrong field counts and unreadable key values are counted by line, never fatal', async () => {
  const schema = 'CREATE TABLE ks.t (k uuid, c int, v text, PRIMARY KEY (k, c));';
  const csv = [
    '5132b130-ae79-11e4-ab27-0800200c9a66,1,a',
    ',2,b',
    '5132b130-ae79-11e4-ab27-0800200c9a66,3',
    'not-a-uuid,4,c',
    '5132b130-ae79-11e4-ab27-0800200c9a66,5,"x"y"',
    'd2177dd0-eaa2-11de-a572-001b779c76e3,6,',
  ].join('\n');
  const { summary } = await sampleOf(schema, 'ks.t', csv);
  assert.equal(summary.rows, 2);
  assert.equal(summary.partitions, 2);
  assert.equal(summary.malformedCount, 4);
  assert.deepEqual(
    summary.malformed.map((m) => m.line),
    [2, 3, 4, 5],
  );
  assert.match(summary.malformed[0]!.reason, /null in partition key column k/);
  assert.match(summary.malformed[1]!.reason, /expected 3 fields \(k, c, v\), found 2/);
  assert.match(summary.malformed[2]!.reason, /not-a-uuid/);
});

const POSTS =
  'CREATE TABLE blog.posts (author text, published timestamp, title text, body text, likes int, PRIMARY KEY (author, published));';

test("sample: without a header the columns come in COPY's default order, or the configured one; HEADER = true is detected", async () => {
  const project = new Project({ config: {} });
  project.setFile('/v/s.cql', POSTS);
  assert.deepEqual(copyDefaultColumnOrder(project.tableFor('/v/s.cql', 'blog.posts')!), [
    'author',
    'published',
    'body',
    'likes',
    'title',
  ]);
  const rows = [
    'ann,2020-01-01 00:00:00.000000+0000,hello world,3,Title A',
    'ann,2020-01-02 00:00:00.000000+0000,"b, c",4,Title B',
    'bob,2020-01-01 00:00:00.000000+0000,,0,T',
  ];
  const plain = (await sampleOf(POSTS, 'blog.posts', rows.join('\n'))).summary;
  const header = (await sampleOf(POSTS, 'blog.posts', ['author,published,body,likes,title', ...rows].join('\n')))
    .summary;
  const reordered = rows.map((r) => {
    const f = r.match(/"[^"]*"|[^,]*/g)!.filter((_, i) => i % 2 === 0);
    return [f[4], f[0], f[1], f[2], f[3]].join(',');
  });
  const configured = (
    await sampleOf(POSTS, 'blog.posts', reordered.join('\n'), {
      columns: ['title', 'author', 'published', 'body', 'likes'],
    })
  ).summary;
  for (const s of [plain, header, configured]) {
    assert.deepEqual(s.malformed, []);
    assert.equal(s.rows, 3);
    assert.equal(s.partitions, 2);
    assert.deepEqual(
      s.largest.map((p) => [p.key, p.rows]),
      [
        [['ann'], 2],
        [['bob'], 1],
      ],
    );
  }
  assert.equal(header.largest[0]!.bytes, plain.largest[0]!.bytes, 'same sizes whichever way the columns were named');
  assert.equal(configured.largest[0]!.bytes, plain.largest[0]!.bytes);
  // Bytes: the sizing formula with the measured text sizes: "hello world" + "Title A" + "b, c" + "Title B".
  const table = project.tableFor('/v/s.cql', 'blog.posts')!;
  const fixed = estimatePartition(table, 2, { columnSizes: { title: 0, body: 0 } }).bytes;
  assert.equal(plain.largest[0]!.bytes, fixed + 11 + 7 + 4 + 7);
});

test('sample: rows per partition histogram, p50 / p99 / max, largest partitions first', async () => {
  const lines: string[] = [];
  const sizes = [1, 1, 1, 2, 3, 5, 8, 40];
  sizes.forEach((n, p) => {
    for (let i = 0; i < n; i++)
      lines.push(`author${p},2020-01-01 00:00:${String(i % 60).padStart(2, '0')}.000000+0000,b,1,t${i}`);
  });
  // Rows of one partition need not be adjacent.
  lines.reverse();
  const { summary } = await sampleOf(POSTS, 'blog.posts', lines.join('\n') + '\n', {}, 4096);
  assert.equal(summary.partitions, 8);
  assert.equal(summary.rows, 61);
  assert.equal(summary.rowsPerPartition.max, 40);
  assert.equal(summary.rowsPerPartition.p50, 2);
  assert.equal(summary.rowsPerPartition.p99, 40);
  assert.deepEqual(
    summary.largest.slice(0, 2).map((p) => p.key[0]),
    ['author7', 'author6'],
  );
  assert.deepEqual(
    summary.rowsPerPartition.histogram.map((b) => [b.from, b.to, b.partitions]),
    [
      [1, 1, 3],
      [2, 3, 2],
      [4, 7, 1],
      [8, 15, 1],
      [16, 31, 0],
      [32, 63, 1],
    ],
  );
  assert.equal(
    summary.rowsPerPartition.histogram.reduce((s, b) => s + b.partitions, 0),
    summary.partitions,
  );
});

test('sample: spread over shards with murmur3 beside code points, and partitions per node with a ring', async () => {
  const schema =
    '-- @shard shard = murmur3(title) % 8 + 1\nCREATE TABLE blog.by_day (day date, shard int, title text, PRIMARY KEY ((day, shard), title));';
  const project = new Project({ config: {} });
  project.setFile('/v/s.cql', schema);
  const table = project.tableFor('/v/s.cql', 'blog.by_day')!;
  const titles = Array.from({ length: 400 }, (_, i) => `Post number ${i}, with a comma`);
  const csv = titles.map((t, i) => `2020-07-0${1 + (i % 3)},${1 + (i % 8)},"${t}"`).join('\n');
  const ring = parseRing(
    JSON.stringify({ '10.0.0.1': ['-6148914691236517206'], '10.0.0.2': ['0'], '10.0.0.3': ['6148914691236517204'] }),
  );
  const summary = await readSample([csv], table, project.schema(), { file: 's.csv', shard: table.shard, ring });
  assert.deepEqual(summary.malformed, []);
  assert.equal(summary.spread?.formula, 'murmur3(title) % 8 + 1');
  assert.deepEqual(summary.spread!.counts, shardHistogram({ method: 'murmur3', count: 8 }, titles));
  assert.deepEqual(summary.spread!.comparisonCounts, shardHistogram({ method: 'codepoints', count: 8 }, titles));
  assert.equal(
    summary.nodes?.reduce((s, n) => s + n.partitions, 0),
    summary.partitions,
  );
  assert.equal(
    summary.nodes?.reduce((s, n) => s + n.rows, 0),
    summary.rows,
  );
  for (const p of summary.largest) {
    const owner = ring.entries[ownerIndex(ring, BigInt(p.token!))]!.node.address;
    assert.ok(summary.nodes!.find((n) => n.address === owner)!.partitions > 0);
  }
  assert.equal(
    summary.largest[0]!.token,
    computeToken(['date', 'int'], [summary.largest[0]!.key[0]!, summary.largest[0]!.key[1]!]).toString(),
  );
});

test('sample: cancelled reading stops early and says so', async () => {
  const project = new Project({ config: {} });
  project.setFile('/v/s.cql', POSTS);
  const table = project.tableFor('/v/s.cql', 'blog.posts')!;
  let calls = 0;
  const chunks = Array.from({ length: 10 }, (_, i) => `a${i},2020-01-01 00:00:00.000000+0000,b,1,t\n`);
  const summary = await readSample(chunks, table, project.schema(), { file: 's.csv', isCancelled: () => ++calls > 3 });
  assert.equal(summary.cancelled, true);
  assert.equal(summary.rows, 3);
});

test('config: samples name a CSV per table, relative to the .cqlint.json; bad entries are errors naming the key', () => {
  const { config, errors } = parseConfig(
    {
      samples: {
        'ks.posts': 'samples/posts.csv',
        users: { file: 'u.csv', columns: ['id', 'name'] },
        bad: 3,
        worse: { file: 'x.csv', columns: 'id' },
      },
    },
    '/work/project/.cqlint.json',
  );
  assert.deepEqual(structuredClone(config?.samples), {
    'ks.posts': { file: '/work/project/samples/posts.csv', name: 'samples/posts.csv' },
    users: { file: '/work/project/u.csv', name: 'u.csv', columns: ['id', 'name'] },
  });
  assert.deepEqual(
    errors.map((e) => e.key),
    ['samples.bad', 'samples.worse'],
  );
  assert.equal(sampleFor(config, 'ks', 'posts')?.file, '/work/project/samples/posts.csv');
  assert.equal(sampleFor(config, 'other', 'users')?.columns?.length, 2);
  assert.equal(sampleFor(config, 'ks', 'nope'), undefined);
  assert.equal(
    sampleFor(config, 'ks', 'constructor'),
    undefined,
    'a table named like an Object.prototype member finds nothing',
  );
});
