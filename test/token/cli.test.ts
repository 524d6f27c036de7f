import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseTypeSpecs } from '../../server/core/token/types';
import { main } from '../../server/cli/main';
import { tempWorkspace } from '../../scripts/temp-workspace';
const murmurRef = require('murmurhash3js-revisited');

async function run(args: string[], stdin = ''): Promise<{ code: number; out: string; err: string }> {
  let out = '',
    err = '';
  const code = await main(['token', ...args], {
    stdout: { write: (s: string) => (out += s) },
    stderr: { write: (s: string) => (err += s) },
    stdin: Readable.from([stdin]),
    env: {},
  });
  return { code, out, err };
}

describe('cqlint token --types', () => {
  test('prints the token', async () => {
    assert.deepEqual(await run(['--types', 'date,int', '2020-07-09', '17']), {
      code: 0,
      out: '9111517818253212355\n',
      err: '',
    });
    assert.equal((await run(['--types', 'int', '1'])).out, '-4069959284402364209\n');
    assert.equal((await run(['--types=int', '--', '-1'])).code, 0);
  });
  test('--json prints token and key bytes', async () => {
    const r = await run(['--types', 'date,int', "'2020-07-09'", '17', '--json']);
    assert.deepEqual(JSON.parse(r.out), { token: '9111517818253212355', key: '0004800048140000040000001100' });
  });
  test('stdin mode: one JSON object per line; a bad line gets an error and the rest continue', async () => {
    const r = await run(
      ['--types', 'date,int', '--json'],
      '["2020-07-09", 17]\n["2020-13-01", 1]\nnot json\n\n["2020-07-09", 2147483648]\n[1]\n["2020-07-09", 17]',
    );
    const lines = r.out
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    assert.equal(lines.length, 6);
    assert.equal(lines[0].token, '9111517818253212355');
    assert.match(lines[1].error, /'2020-13-01' is not a valid date: month 13/);
    assert.match(lines[2].error, /line is not JSON/);
    assert.match(lines[3].error, /2147483648 is out of range for int/);
    assert.match(lines[4].error, /expected 2 values, got 1/);
    assert.equal(lines[5].token, '9111517818253212355');
    assert.equal(r.code, 2);
  });
  test('bad input: clear message, exit 2', async () => {
    const bad = await run(['--types', 'date,int', '2020-13-01', '17']);
    assert.equal(bad.code, 2);
    assert.match(bad.err, /^cqlint token: '2020-13-01' is not a valid date: month 13 is not 1\.\.12\n$/);
    assert.match((await run(['--types', 'duration', '1h'])).err, /duration columns cannot be part of a primary key/);
    assert.match((await run(['--types', 'int'])).err, /no values given/);
    assert.match((await run(['1'])).err, /give the key types with --types/);
    const unknown = await run(['--bogus']);
    assert.equal(unknown.code, 2);
    assert.match(unknown.err, /Unknown option '--bogus'/);
  });
  test('--help', async () => {
    const r = await run(['--help']);
    assert.equal(r.code, 0);
    assert.match(r.out, /^Usage: cqlint token --types .*\n {7}cqlint token --schema /);
  });
  test('--types lists are read by the grammar: nested types stay together', () => {
    assert.equal(parseTypeSpecs('date, frozen<map<text,int>>,tuple<int,int>').length, 3);
    assert.throws(() => parseTypeSpecs('date, map<int>'), /invalid types/);
  });
});

describe('cqlint token --schema', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cqlint-token-'));
  const file = join(dir, 'schema.cql');
  writeFileSync(
    file,
    `CREATE KEYSPACE blog WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 2};

-- @shard shard = murmur3(title) % 16 + 1
CREATE TABLE blog.posts (publish_date date, shard int, title text, PRIMARY KEY ((publish_date, shard), title));
`,
  );
  const shardOf = (title: string) => (murmurRef.x86.hash32(Buffer.from(title, 'utf8')) % 16) + 1;

  test('types come from the partition key; the shard is computed from title=', async () => {
    const r = await run(['--schema', file, 'blog.posts', 'publish_date=2020-07-09', "title='Hello'"]);
    assert.equal(r.code, 0, r.err);
    const shard = shardOf('Hello');
    const direct = await run(['--types', 'date,int', '2020-07-09', String(shard)]);
    assert.equal(r.out, `${direct.out.trim()}\nshard: ${shard} (shard = murmur3(title) % 16 + 1)\n`);
  });
  test('positional values with the source instead of the shard, --json', async () => {
    const r = await run(['--schema', file, 'posts', '2020-07-09', 'Hello', '--json']);
    assert.equal(r.code, 0, r.err);
    assert.equal(JSON.parse(r.out).shard.value, shardOf('Hello'));
  });
  test('a positional key value mixed with a named source (the README example) hashes the value, not the text "title=..."', async () => {
    const named = await run(['--schema', file, 'blog.posts', 'publish_date=2020-07-09', "title='Hello'", '--json']);
    const mixed = await run(['--schema', file, 'blog.posts', '2020-07-09', "title='Hello'", '--json']);
    const quotedMixed = await run(['--schema', file, 'blog.posts', "title='Hello'", "'2020-07-09'", '--json']);
    assert.equal(mixed.code, 0, mixed.err);
    assert.deepEqual(JSON.parse(mixed.out), JSON.parse(named.out));
    assert.deepEqual(JSON.parse(quotedMixed.out), JSON.parse(named.out));
    assert.equal(JSON.parse(mixed.out).shard.value, shardOf('Hello'));
    // A text value that only looks like name=value (no such column) stays a value.
    const text = await run(['--schema', file, 'blog.posts', '2020-07-09', 'nope=Hello', '--json']);
    assert.equal(JSON.parse(text.out).shard.value, shardOf('nope=Hello'));
  });
  test('a wrong written shard is reported', async () => {
    const wrong = shardOf('Hello') === 1 ? 2 : 1;
    const r = await run(['--schema', file, 'blog.posts', 'publish_date=2020-07-09', `shard=${wrong}`, 'title=Hello']);
    assert.equal(r.code, 2);
    assert.match(r.err, new RegExp(`shard = ${wrong} but murmur3\\(title\\) % 16 \\+ 1 gives ${shardOf('Hello')}`));
  });
  test('ring and replication from the keyspace', async () => {
    const ringFile = join(dir, 'ring.json');
    writeFileSync(
      ringFile,
      JSON.stringify({
        '10.0.0.1': ['-3074457345618258603'],
        '10.0.0.2': ['3074457345618258602'],
        '10.0.0.3': ['9223372036854775807'],
      }),
    );
    const r = await run(['--schema', file, 'blog.posts', '2020-07-09', 'Hello', '--ring', ringFile, '--json']);
    assert.equal(r.code, 0, r.err);
    const out = JSON.parse(r.out);
    assert.equal(out.replicas.length, 2);
  });
  test('unknown table and missing values are clear', async () => {
    assert.match(
      (await run(['--schema', file, 'blog.nope', '1'])).err,
      /table blog\.nope not found in the schema \(tables: blog\.posts\)/,
    );
    assert.match(
      (await run(['--schema', file, 'blog.posts', 'publish_date=2020-07-09'])).err,
      /missing value for partition key column shard \(or give title to compute shard\)/,
    );
    assert.match(
      (await run(['--schema', join(dir, 'missing.cql'), 'blog.posts', '1'])).err,
      /cannot read .*missing\.cql: no such file or directory/,
    );
  });
  test('key columns named like Object.prototype members (constructor, __proto__, toString) work', async () => {
    const odd = join(dir, 'odd.cql');
    writeFileSync(
      odd,
      'CREATE TABLE ks.odd ("constructor" int, "__proto__" int, "toString" text, v text, PRIMARY KEY (("constructor", "__proto__", "toString")));\n',
    );
    const named = await run(['--schema', odd, 'ks.odd', '"constructor"=1', '"__proto__"=2', '"toString"=x']);
    const direct = await run(['--types', 'int,int,text', '1', '2', 'x']);
    assert.equal(named.code, 0, named.err);
    assert.equal(named.out, direct.out);
    const positional = await run(['--schema', odd, 'ks.odd', '1', '2', 'x']);
    assert.equal(positional.out, direct.out);
    const missing = await run(['--schema', odd, 'ks.odd', '"__proto__"=2', '"toString"=x']);
    assert.match(
      missing.err,
      /^cqlint token: expected 1 value \(constructor\) after the named ones, got 0|missing value for partition key column constructor/,
    );
  });
});

describe('cqlint token: the ring named in .cqlint.json', () => {
  const RING = '10.0.0.1  r1  Up  Normal  1 KiB  50%  -100\n10.0.0.2  r1  Up  Normal  1 KiB  50%  99999\n';
  test('found from --schema (or the working directory) as lint finds it; --ring wins; --no-config ignores it', async (t) => {
    const temp = tempWorkspace({
      'app/.cqlint.json': JSON.stringify({ ring: 'ops/ring.txt' }),
      'app/ops/ring.txt': RING,
      'app/schema/t.cql': 'CREATE TABLE ks.t (id int PRIMARY KEY);\n',
      'other-ring.txt': '10.9.9.9  r1  Up  Normal  1 KiB  100%  0\n',
      'broken/.cqlint.json': '{ "ring": 5 }',
    });
    t.after(() => temp.cleanup());
    const runIn = async (cwd: string, args: string[]) => {
      let out = '';
      let err = '';
      const code = await main(['token', ...args], {
        stdout: { write: (s: string) => (out += s) },
        stderr: { write: (s: string) => (err += s) },
        cwd,
        env: {},
      });
      return { code, out, err };
    };
    const bySchema = await runIn(temp.dir, ['--schema', 'app/schema', 'ks.t', '1']);
    assert.equal(bySchema.code, 0, bySchema.err);
    assert.match(bySchema.out, /^-4069959284402364209\nrange: \(99999, -100\]\nreplicas: 10\.0\.0\.1\n$/);
    assert.match((await runIn(temp.path('app'), ['--types', 'int', '1'])).out, /replicas: 10\.0\.0\.1/);
    assert.match(
      (await runIn(temp.dir, ['--schema', 'app/schema', '--ring', 'other-ring.txt', 'ks.t', '1'])).out,
      /replicas: 10\.9\.9\.9/,
    );
    assert.equal(
      (await runIn(temp.dir, ['--no-config', '--schema', 'app/schema', 'ks.t', '1'])).out,
      '-4069959284402364209\n',
    );
    const broken = await runIn(temp.path('broken'), ['--types', 'int', '1']);
    assert.equal(broken.code, 2);
    assert.match(broken.err, /ring: must be the path of a ring file/);
  });
});
