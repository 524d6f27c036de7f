// Tests that use the real CQL parser (grammar/index.ts). Kept in one file: the parser's first parse is
// slow (Chevrotain self-analysis), so only one test process pays for it.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseCql } from '../../grammar';
import { main } from '../../server/cli/main';
import { validateShardSpec } from '../../server/core/token/shard';
import { shardAnnotationAbove } from '../../server/core/schema/shard';
import { serializeValue } from '../../server/core/token/serialize';
import { parseKeyValue, valueFromText } from '../../server/core/token/values';
import type { KeyType } from '../../server/core/token/types';
import { LineIndex } from '../../grammar/line-index';
const murmurRef = require('murmurhash3js-revisited');

async function run(args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '',
    err = '';
  const code = await main(['token', ...args], {
    stdout: { write: (s: string) => (out += s) },
    stderr: { write: (s: string) => (err += s) },
    stdin: Readable.from(['']),
    env: {},
  });
  return { code, out, err };
}

describe('with the real parser', () => {
  test('annotation ranges point at the source text', () => {
    const text = `-- table of posts\n-- @shard shard = murmur3(title) % 16 + 1\nCREATE TABLE posts (publish_date date, shard int, title text, PRIMARY KEY ((publish_date, shard), title));\n`;
    const parse = parseCql(text);
    const table = parse.statements.find((s) => s.kind === 'CreateTable');
    assert.ok(table && table.kind === 'CreateTable');
    const r = shardAnnotationAbove(parse.comments, text, table.range.start)?.result;
    assert.ok(r?.ok);
    const slice = (rg: { start: number; end: number }) => text.slice(rg.start, rg.end);
    assert.equal(slice(r.spec.ranges.sources[0]), 'title');
    assert.equal(slice(r.spec.ranges.count), '16');
    assert.equal(slice(r.spec.ranges.formula), 'shard = murmur3(title) % 16 + 1');
    assert.equal(new LineIndex(text).location(r.spec.ranges.method.start).line, 2);
    assert.deepEqual(validateShardSpec(r.spec, table), []);
  });
});

describe('values written in CQL', () => {
  const double: KeyType = { kind: 'native', name: 'double' };
  const hex = (v: Parameters<typeof serializeValue>[1]) => Buffer.from(serializeValue(double, v)).toString('hex');
  test('-Infinity keeps its sign, in a statement and on a command line', () => {
    const insert = parseCql('INSERT INTO t (k) VALUES (-Infinity);').statements[0];
    assert.ok(insert.kind === 'Insert');
    assert.equal(hex(parseKeyValue(double, insert.values[0])), 'fff0000000000000');
    assert.equal(hex(valueFromText(double, '-Infinity')), 'fff0000000000000');
    assert.equal(hex(valueFromText(double, 'Infinity')), '7ff0000000000000');
  });
});

describe('cqlint token --schema with the real parser', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cqlint-token-real-'));
  const cql = `CREATE KEYSPACE blog WITH replication = {'class': 'NetworkTopologyStrategy', 'dc1': 2};
USE blog;

-- posts per day, sharded
-- @shard shard = murmur3(title) % 16 + 1
CREATE TABLE posts (publish_date date, shard int, title text, body text, PRIMARY KEY ((publish_date, shard), title));

CREATE TABLE events (day date, seq int, PRIMARY KEY ((day, seq)));
`;
  writeFileSync(join(dir, 'schema.cql'), cql);
  writeFileSync(
    join(dir, 'ring.txt'),
    `Datacenter: dc1
==========
Address     Rack  Status State   Load       Owns    Token
                                                    4611686018427387904
10.0.0.1    r1    Up     Normal  1.1 KiB    33%     -4611686018427387904
10.0.0.2    r2    Up     Normal  1.1 KiB    33%     0
10.0.0.3    r1    Up     Normal  1.1 KiB    33%     4611686018427387904
`,
  );
  const shardOf = (title: string) => (murmurRef.x86.hash32(Buffer.from(title, 'utf8')) % 16) + 1;

  test('a plain table from a folder', async () => {
    const r = await run(['--schema', dir, 'blog.events', "'2020-07-09'", '17']);
    assert.deepEqual(r, { code: 0, out: '9111517818253212355\n', err: '' });
  });
  test('a sharded table: shard computed from the title, replicas from the keyspace and ring', async () => {
    const r = await run([
      '--schema',
      join(dir, 'schema.cql'),
      'blog.posts',
      'publish_date=2020-07-09',
      "title='Hello'",
      '--ring',
      join(dir, 'ring.txt'),
      '--json',
    ]);
    assert.equal(r.code, 0, r.err);
    const out = JSON.parse(r.out);
    assert.equal(out.shard.value, shardOf('Hello'));
    assert.equal(out.replicas.length, 2);
    assert.notEqual(out.replicas[0], out.replicas[1]);
  });
});
