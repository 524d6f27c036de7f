// Tokens and shards in the editor, through the real server: the key-preview hover, inlay hints (and their
// settings and refresh), and the cqlint/tokenAt request. Expected values come from public reference
// tokens (Cassandra's dtests: int 1 -> -4069959284402364209) and from murmurhash3js-revisited (an
// independent MurmurHash3 x86_32) for shard values.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Hover, InitializeResult, InlayHint, MarkupContent } from 'vscode-languageserver-protocol';
const murmurhash3js: {
  x86: { hash32(data: Uint8Array | string, seed?: number): number };
} = require('murmurhash3js-revisited');
import { capabilities, tempWorkspace, type LspTestClient } from '../../scripts/lsp-client';
import { startInProcessServer } from '../helpers/in-process-server';

const utf8 = (s: string) => new TextEncoder().encode(s);
const shardOf = (title: string, n: number) => (murmurhash3js.x86.hash32(utf8(title)) % n) + 1;

const INT_1_TOKEN = '-4069959284402364209';
const INT_2_TOKEN = '-3248873570005575792';

const withHints = {
  ...capabilities.pull,
  textDocument: { ...capabilities.pull.textDocument, inlayHint: { dynamicRegistration: false } },
  workspace: { ...capabilities.pull.workspace, inlayHint: { refreshSupport: true } },
};

const SCHEMA = [
  "CREATE KEYSPACE ks WITH replication = {'class': 'NetworkTopologyStrategy', 'dc1': 2};",
  'CREATE TABLE ks.users (id int PRIMARY KEY, name text);',
  '-- @shard shard = murmur3(title) % 16 + 1',
  'CREATE TABLE ks.posts (publish_date date, shard int, title text, body text, PRIMARY KEY ((publish_date, shard), title));',
  '',
].join('\n');

// Token -4069959284402364209 (int 1) lies in (-6e18, 0]: owned by 10.0.0.2; RF 2 in dc1 adds the next rack's node.
const RING = JSON.stringify({
  '10.0.0.1': { tokens: ['-6000000000000000000'], dc: 'dc1', rack: 'r1' },
  '10.0.0.2': { tokens: ['0'], dc: 'dc1', rack: 'r2' },
  '10.0.0.3': { tokens: ['6000000000000000000'], dc: 'dc1', rack: 'r3' },
});

function positionOf(text: string, needle: string, delta = 0, occurrence = 0) {
  let index = -1;
  for (let i = 0; i <= occurrence; i++) {
    index = text.indexOf(needle, index + 1);
    assert.ok(index >= 0, `${needle} in the text`);
  }
  const before = text.slice(0, index + delta);
  const line = before.split('\n').length - 1;
  return { line, character: before.length - (before.lastIndexOf('\n') + 1) };
}

async function hoverText(
  client: LspTestClient,
  uri: string,
  position: { line: number; character: number },
): Promise<string> {
  const hover = (await client.request('textDocument/hover', { textDocument: { uri }, position })) as Hover | null;
  return hover ? (hover.contents as MarkupContent).value : '';
}

async function inlayHints(client: LspTestClient, uri: string, text: string): Promise<InlayHint[]> {
  const lines = text.split('\n');
  return (
    ((await client.request('textDocument/inlayHint', {
      textDocument: { uri },
      range: { start: { line: 0, character: 0 }, end: { line: lines.length, character: 0 } },
    })) as InlayHint[] | null) ?? []
  );
}

const label = (h: InlayHint) => (typeof h.label === 'string' ? h.label : h.label.map((p) => p.value).join(''));

/** Settings are read and the workspace scanned (the `scan` event is logged at verbose trace, once initialised). */
async function ready(client: LspTestClient): Promise<void> {
  await client.waitForLog(/cqlint: scan: /);
}

async function start(
  t: { after(fn: () => unknown): void },
  files: Record<string, string>,
  settings: Record<string, unknown> = {},
  caps = withHints,
) {
  const ws = tempWorkspace(files);
  t.after(() => ws.cleanup());
  const client = startInProcessServer();
  t.after(() => client.shutdown());
  const init = await client.initialize(caps, {
    workspaceFolders: [ws.dir],
    settings: { trace: { server: 'verbose' }, ...settings },
  });
  await ready(client);
  return { ws, client, init };
}

describe('key preview hover', () => {
  test('on a partition key literal: token, key bytes, owning range and replicas from the .cqlint.json ring', async (t) => {
    const query = 'SELECT * FROM ks.users WHERE id = 1;\nSELECT * FROM ks.users WHERE id IN (1, 2);\n';
    const { ws, client } = await start(t, {
      'schema.cql': SCHEMA,
      'q.cql': query,
      'ring.json': RING,
      '.cqlint.json': JSON.stringify({ ring: 'ring.json' }),
    });
    const uri = ws.uri('q.cql');
    await client.open(uri, query);
    const text = await hoverText(client, uri, positionOf(query, '= 1', 2));
    assert.match(text, new RegExp(`\\*\\*token\\*\\* \`${INT_1_TOKEN}\``));
    assert.match(text, /key bytes \(4\): `0x00000001`/);
    assert.match(text, /range \(-6000000000000000000, 0\]/);
    assert.match(text, /replicas: 10\.0\.0\.2 \(dc1\/r2\), 10\.0\.0\.3 \(dc1\/r3\)/);
    // IN: each value is its own partition.
    const second = await hoverText(client, uri, positionOf(query, '2)', 0));
    assert.ok(second.includes(INT_2_TOKEN), second);
    assert.match(second, /value 2 of 2/);
    // Not on a key value: no key preview (keywords, the table name).
    assert.doesNotMatch(await hoverText(client, uri, positionOf(query, 'SELECT', 1)), /\*\*token\*\*/);
    assert.doesNotMatch(await hoverText(client, uri, positionOf(query, 'users', 1)), /\*\*token\*\*/);
  });

  test('the cqlint.ringFile setting overrides .cqlint.json; a broken ring file is reported, not fatal', async (t) => {
    const query = 'SELECT * FROM ks.users WHERE id = 1;\n';
    const other = JSON.stringify({ '10.9.9.9': { tokens: ['0'], dc: 'dc1', rack: 'r1' } });
    const elsewhere = JSON.stringify({ '10.8.8.8': ['0'] }); // datacenter1: not where ks replicates
    const { ws, client } = await start(
      t,
      {
        'schema.cql': SCHEMA,
        'q.cql': query,
        'ring.json': RING,
        'other.json': other,
        'elsewhere.json': elsewhere,
        '.cqlint.json': JSON.stringify({ ring: 'ring.json' }),
      },
      { ringFile: 'other.json' },
    );
    const uri = ws.uri('q.cql');
    await client.open(uri, query);
    const at = positionOf(query, '= 1', 2);
    assert.match(await hoverText(client, uri, at), /replicas: 10\.9\.9\.9 \(dc1\/r1\)/);
    // The server re-reads the ring after a settings change and then asks for the hints again: the hover follows.
    await client.refreshesInlayHintsAfter(() => client.changeSettings({ ringFile: 'elsewhere.json' }));
    assert.match(
      await hoverText(client, uri, at),
      /no replicas: keyspace ks replicates to dc1, the ring's datacenters are datacenter1/,
    );
    await client.refreshesInlayHintsAfter(() => client.changeSettings({ ringFile: 'missing.json' }));
    const text = await hoverText(client, uri, at);
    assert.ok(text.includes(INT_1_TOKEN), 'the token is still shown');
    assert.match(text, /ring: cannot read .*missing\.json/);
  });

  test('on a sharded table: the shard formula and its value; bind markers say what is missing', async (t) => {
    const query = [
      "INSERT INTO ks.posts (publish_date, shard, title) VALUES ('2020-07-09', ?, 'Hello');",
      "SELECT * FROM ks.posts WHERE publish_date = ? AND shard = ? AND title = 'Hello';",
      '',
    ].join('\n');
    const { ws, client } = await start(t, { 'schema.cql': SCHEMA, 'q.cql': query });
    const uri = ws.uri('q.cql');
    await client.open(uri, query);
    const expected = shardOf('Hello', 16);
    const insert = await hoverText(client, uri, positionOf(query, "'2020-07-09'", 3));
    assert.match(insert, new RegExp(`shard: \`shard = murmur3\\(title\\) % 16 \\+ 1\` = \\*\\*${expected}\\*\\*`));
    assert.match(insert, /\*\*token\*\* `-?\d+`/, 'the token uses the computed shard');
    assert.match(insert, new RegExp(`\`shard\` is \`\\?\` here; the token uses the formula's value ${expected}`));
    // Hovering the source value (a clustering column here) shows the same preview.
    const source = await hoverText(client, uri, positionOf(query, "'Hello'", 2));
    assert.match(source, new RegExp(`= \\*\\*${expected}\\*\\*`));
    // The SELECT's date is a bind marker: the token is not computable, the shard still is.
    const select = await hoverText(client, uri, positionOf(query, "'Hello'", 2, 1));
    assert.match(select, /token not computable: bind marker \? for column publish_date/);
    assert.match(select, new RegExp(`= \\*\\*${expected}\\*\\*`));
    assert.match(select, /missing: `publish_date`: bind marker/);
  });

  test('a written shard that disagrees with the formula is shown next to the computed one', async (t) => {
    const query = "INSERT INTO ks.posts (publish_date, shard, title) VALUES ('2020-07-09', 3, 'Hello');\n";
    const { ws, client } = await start(t, { 'schema.cql': SCHEMA, 'q.cql': query });
    const uri = ws.uri('q.cql');
    await client.open(uri, query);
    const text = await hoverText(client, uri, positionOf(query, '3,', 0));
    assert.match(text, new RegExp(`= \\*\\*${shardOf('Hello', 16)}\\*\\* \\(written: 3\\)`));
  });
});

describe('inlay hints', () => {
  const QUERY = [
    "INSERT INTO ks.posts (publish_date, shard, title) VALUES ('2020-07-09', ?, 'Hello');",
    "INSERT INTO ks.posts (publish_date, shard, title) VALUES ('2020-07-09', 3, 'Hello');",
    'SELECT * FROM ks.users WHERE id = 1;',
    'SELECT * FROM ks.users WHERE id = ?;',
    '',
  ].join('\n');

  test('shard values next to the shard column and tokens at the end of a full key', async (t) => {
    const { ws, client, init } = await start(t, { 'schema.cql': SCHEMA, 'q.cql': QUERY });
    assert.equal((init as InitializeResult).capabilities.inlayHintProvider, true);
    const uri = ws.uri('q.cql');
    await client.open(uri, QUERY);
    const hints = await inlayHints(client, uri, QUERY);
    const expected = shardOf('Hello', 16);
    const at = (line: number) => hints.filter((h) => h.position.line === line).map(label);

    assert.deepEqual(
      hints.filter((h) => h.position.line === 0 && label(h).startsWith('shard')).map((h) => h.position),
      [positionOf(QUERY, '?', 1)],
    );
    assert.ok(at(0).includes(`shard ${expected}`), at(0).join(' | '));
    const token0 = at(0).find((l) => l.startsWith('token '));
    assert.ok(token0 && /^token -?\d+$/.test(token0), at(0).join(' | '));
    const tokenHint = hints.find((h) => h.position.line === 0 && label(h).startsWith('token'))!;
    assert.deepEqual(tokenHint.position, positionOf(QUERY, "'Hello');", "'Hello')".length), 'after the VALUES list');

    assert.ok(at(1).includes(`shard should be ${expected}`), at(1).join(' | '));
    assert.deepEqual(at(2), [`token ${INT_1_TOKEN}`]);
    assert.deepEqual(hints.find((h) => h.position.line === 2)!.position, positionOf(QUERY, 'id = 1', 'id = 1'.length));
    assert.deepEqual(at(3), [], 'a bind marker key has no token');
  });

  test('cqlint.inlayHints.shards and .tokens turn each kind off', async (t) => {
    const { ws, client } = await start(t, { 'schema.cql': SCHEMA, 'q.cql': QUERY }, { inlayHints: { tokens: false } });
    const uri = ws.uri('q.cql');
    await client.open(uri, QUERY);
    let labels = (await inlayHints(client, uri, QUERY)).map(label);
    assert.ok(labels.length > 0 && labels.every((l) => l.startsWith('shard')), labels.join(' | '));
    await client.refreshesInlayHintsAfter(() => client.changeSettings({ inlayHints: { shards: false } }));
    labels = (await inlayHints(client, uri, QUERY)).map(label);
    assert.ok(labels.length > 0 && labels.every((l) => l.startsWith('token')), labels.join(' | '));
    await client.refreshesInlayHintsAfter(() =>
      client.changeSettings({ 'inlayHints.shards': false, 'inlayHints.tokens': false }),
    );
    assert.deepEqual(await inlayHints(client, uri, QUERY), []);
  });

  test('not advertised to clients without inlay hint support', async (t) => {
    const { init } = await start(t, { 'schema.cql': SCHEMA }, {}, capabilities.pull as typeof withHints);
    assert.equal((init as InitializeResult).capabilities.inlayHintProvider, undefined);
  });

  test('a schema change asks the client to refresh its hints', async (t) => {
    const ws = tempWorkspace({ 'schema.cql': SCHEMA, 'q.cql': QUERY });
    t.after(() => ws.cleanup());
    const client = startInProcessServer();
    t.after(() => client.shutdown());
    await client.initialize(withHints, { workspaceFolders: [ws.dir], settings: { trace: { server: 'verbose' } } });
    await ready(client);
    const uri = ws.uri('q.cql');
    await client.open(uri, QUERY);
    await inlayHints(client, uri, QUERY);
    const schemaUri = ws.uri('schema.cql');
    await client.open(schemaUri, SCHEMA);
    await client.refreshesInlayHintsAfter(() => client.change(schemaUri, SCHEMA.replace('% 16 + 1', '% 8 + 1')));
    const labels = (await inlayHints(client, uri, QUERY)).map(label);
    assert.ok(labels.includes(`shard ${shardOf('Hello', 8)}`), labels.join(' | '));
  });
});

describe('cqlint/tokenAt', () => {
  test('the same preview as the hover, for the value or the statement under the cursor', async (t) => {
    const query =
      'SELECT * FROM ks.users WHERE id = 1;\nCREATE TABLE ks.x (a int PRIMARY KEY);\nSELECT * FROM ks.users WHERE id = ?;\n';
    const { ws, client } = await start(t, { 'schema.cql': SCHEMA, 'q.cql': query });
    const uri = ws.uri('q.cql');
    await client.open(uri, query);
    const onLiteral = (await client.request('cqlint/tokenAt', {
      textDocument: { uri },
      position: positionOf(query, '= 1', 2),
    })) as { markdown: string };
    assert.ok(onLiteral.markdown.includes(INT_1_TOKEN), onLiteral.markdown);
    assert.equal(
      onLiteral.markdown,
      await hoverText(client, uri, positionOf(query, '= 1', 2)),
      'same text as the hover',
    );
    const onKeyword = (await client.request('cqlint/tokenAt', {
      textDocument: { uri },
      position: positionOf(query, 'SELECT', 2),
    })) as { markdown: string };
    assert.ok(onKeyword.markdown.includes(INT_1_TOKEN), 'anywhere in the statement');
    assert.equal(
      await client.request('cqlint/tokenAt', { textDocument: { uri }, position: positionOf(query, 'CREATE', 2) }),
      null,
    );
    const bound = (await client.request('cqlint/tokenAt', {
      textDocument: { uri },
      position: positionOf(query, '?', 0),
    })) as { markdown: string };
    assert.match(bound.markdown, /token not computable: bind marker/);
    assert.equal(
      await client.request('cqlint/tokenAt', {
        textDocument: { uri: ws.uri('nope.cql') },
        position: { line: 0, character: 0 },
      }),
      null,
    );
    assert.equal(await client.request('cqlint/tokenAt', { bogus: true }), null);
    assert.ok(client.alive);
  });
});
