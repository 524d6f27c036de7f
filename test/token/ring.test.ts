import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  parseNodetoolRing,
  parseDescribeRing,
  parseRingJson,
  parseRing,
  replicasFor,
  replicationFromKeyspace,
  tokenRangeOf,
  ownerIndex,
  RingParseError,
} from '../../server/core/token/ring';
import { describeKeyPreview, formatKeyPreviewMarkdown } from '../../server/core/token/preview';
import { computeToken } from '../../server/core/token/token';
import { nativeType } from '../../server/core/token/types';
import { parseShardAnnotation } from '../../server/core/token/shard';
import type { CreateKeyspaceStatement } from '../../grammar/ast';
import { ident, lit, lineComment } from './ast-helpers';

const NODETOOL_RING = `
Datacenter: dc1
==========
Address         Rack        Status State   Load            Owns                Token
                                                                               6000
10.0.0.1        r1          Up     Normal  105.6 KiB       33.33%              -6000
10.0.0.2        r2          Up     Normal  110.2 KiB       33.33%              0
10.0.0.3        r1          Up     Normal  98.1 KiB        33.33%              6000

Datacenter: dc2
==========
Address         Rack        Status State   Load            Owns                Token
                                                                               7000
10.1.0.1        r1          Up     Normal  105.6 KiB       33.33%              -5000
10.1.0.2        r1          Up     Normal  110.2 KiB       33.33%              1000
10.1.0.3        r2          Up     Normal  98.1 KiB        33.33%              7000
`;

const names = (ns: { address: string }[]) => ns.map((n) => n.address);

describe('ring parsing', () => {
  test('nodetool ring with two DCs and racks', () => {
    const ring = parseNodetoolRing(NODETOOL_RING);
    assert.equal(ring.entries.length, 6);
    assert.deepEqual(
      ring.entries.map((e) => e.token),
      [-6000n, -5000n, 0n, 1000n, 6000n, 7000n],
    );
    assert.deepEqual(
      ring.nodes.find((n) => n.address === '10.1.0.3'),
      { address: '10.1.0.3', dc: 'dc2', rack: 'r2' },
    );
  });
  test('JSON with and without dc/rack; bad input has clear errors', () => {
    const ring = parseRingJson('{"a": ["-100", "100"], "b": {"tokens": ["0"], "dc": "east", "rack": "r9"}}');
    assert.deepEqual(names(ring.entries.map((e) => e.node)), ['a', 'b', 'a']);
    assert.equal(ring.nodes.find((n) => n.address === 'b')?.dc, 'east');
    assert.throws(() => parseRingJson('{"a": ["x"]}'), {
      name: 'RingParseError',
      message: /^node 1, token 1: not a token/,
    });
    assert.throws(
      () => parseRingJson('{"a": ["1"], "b": ["1"]}'),
      /the same token is given twice \(node 1, token 1 and node 2, token 1\)/,
    );
    assert.throws(() => parseRingJson('[1'), RingParseError);
    assert.throws(() => parseRing('hello'), /no `nodetool ring` lines/);
  });
  test('errors name the line or entry and never quote the file (a ring may point at a file of secrets)', () => {
    const secrets = [
      '{"aws_access_key_id": "AKIAIOSFODNN7EXAMPLE", "aws_secret_access_key": "wJalrXUtnFEMI"}',
      '{"aws_secret_access_key": "wJalrXUtnFEMI", oops}',
      '{\n  "aws_secret_access_key": ["wJalrXUtnFEMI"]\n}',
      '10.0.0.1  rack1  Up  Normal  1 KiB  50%  wJalrXUtnFEMI99\n10.0.0.2  rack1  Up  Normal  1 KiB  50%  99999999999999999999999',
    ];
    const messages = secrets.map((text) => {
      try {
        parseRing(text);
        return 'parsed';
      } catch (error) {
        assert.ok(error instanceof RingParseError, String(error));
        return error.message;
      }
    });
    for (const message of messages) assert.doesNotMatch(message, /aws|AKIA|wJalr|9999/, message);
    assert.match(messages[0], /^node 1, token 1: not a token/);
    assert.match(messages[2], /^node 1, token 1: not a token/);
    assert.match(messages[3], /^line 2: token outside/);
  });
  test('line numbers in errors count LF, CRLF and a lone CR alike', () => {
    for (const eol of ['\n', '\r\n', '\r']) {
      const ring = [
        'Datacenter: dc1',
        '10.0.0.1  rack1  Up  Normal  1 KiB  50%  -100',
        '10.0.0.2  rack1  Up  Normal  1 KiB  50%  99999999999999999999999',
      ].join(eol);
      assert.throws(() => parseRing(ring), { message: /^line 3: token outside/ }, JSON.stringify(eol));
      const describe = [
        'TokenRanges:',
        'TokenRange(start_token:0, end_token:99999999999999999999, endpoints:[10.0.0.1])',
      ].join(eol);
      assert.throws(() => parseDescribeRing(describe), { message: /^line 2: token outside/ }, JSON.stringify(eol));
      assert.throws(
        () => parseRingJson(['{', '  "a": ["1"],', '  oops', '}'].join(eol)),
        { message: /\(line 3\)/ },
        JSON.stringify(eol),
      );
    }
  });
  test("describering keeps the cluster's replicas per range", () => {
    const text = `Schema Version:1
TokenRanges:
\tTokenRange(start_token:-100, end_token:0, endpoints:[10.0.0.2, 10.0.0.1], rpc_endpoints:[10.0.0.2, 10.0.0.1], endpoint_details:[EndpointDetails(host:10.0.0.2, datacenter:dc1, rack:r2), EndpointDetails(host:10.0.0.1, datacenter:dc1, rack:r1)])
\tTokenRange(start_token:0, end_token:-100, endpoints:[10.0.0.1, 10.0.0.2], rpc_endpoints:[10.0.0.1, 10.0.0.2], endpoint_details:[EndpointDetails(host:10.0.0.1, datacenter:dc1, rack:r1), EndpointDetails(host:10.0.0.2, datacenter:dc1, rack:r2)])`;
    const ring = parseDescribeRing(text);
    assert.equal(ring.entries.length, 2);
    assert.deepEqual(names(replicasFor(ring, -50n, { strategy: 'SimpleStrategy', replicationFactor: 2 })), [
      '10.0.0.2',
      '10.0.0.1',
    ]);
    assert.deepEqual(names(replicasFor(ring, 5n, { strategy: 'SimpleStrategy', replicationFactor: 2 })), [
      '10.0.0.1',
      '10.0.0.2',
    ]);
    assert.equal(ring.nodes.find((n) => n.address === '10.0.0.2')?.rack, 'r2');
  });
});

describe('ownership and replicas', () => {
  const ring = parseNodetoolRing(NODETOOL_RING);
  test('the owner is the first token >= the key token, wrapping around', () => {
    assert.equal(ring.entries[ownerIndex(ring, -6000n)].node.address, '10.0.0.1');
    assert.equal(ring.entries[ownerIndex(ring, -5999n)].node.address, '10.1.0.1');
    assert.equal(ring.entries[ownerIndex(ring, 7001n)].node.address, '10.0.0.1');
    assert.deepEqual(tokenRangeOf(ring, 7001n), { start: 7000n, end: -6000n });
    assert.deepEqual(tokenRangeOf(ring, 500n), { start: 0n, end: 1000n });
  });
  test('SimpleStrategy walks clockwise over distinct nodes', () => {
    assert.deepEqual(names(replicasFor(ring, 500n, { strategy: 'SimpleStrategy', replicationFactor: 3 })), [
      '10.1.0.2',
      '10.0.0.3',
      '10.1.0.3',
    ]);
    assert.equal(replicasFor(ring, 500n, { strategy: 'SimpleStrategy', replicationFactor: 10 }).length, 6);
  });
  test('NetworkTopologyStrategy takes new racks first in each DC', () => {
    // from 500: 10.1.0.2(dc2 r1) 10.0.0.3(dc1 r1) 10.1.0.3(dc2 r2) 10.0.0.1(dc1 r1: rack repeat) 10.1.0.1 10.0.0.2(dc1 r2)
    const r = replicasFor(ring, 500n, { strategy: 'NetworkTopologyStrategy', dcs: { dc1: 2, dc2: 2 } });
    assert.deepEqual(names(r), ['10.1.0.2', '10.0.0.3', '10.1.0.3', '10.0.0.2']);
    // RF 3 in dc1 with 2 racks: one repeat allowed, taken in ring order after both racks
    const r3 = replicasFor(ring, 500n, { strategy: 'NetworkTopologyStrategy', dcs: { dc1: 3 } });
    assert.deepEqual(names(r3), ['10.0.0.3', '10.0.0.1', '10.0.0.2']);
    const only = replicasFor(ring, 500n, { strategy: 'NetworkTopologyStrategy', dcs: { dc2: 1 } });
    assert.deepEqual(names(only), ['10.1.0.2']);
  });
  test('replication from CREATE KEYSPACE', () => {
    const R = { start: 0, end: 0 };
    const ks = (entries: [string, string][]): CreateKeyspaceStatement => ({
      kind: 'CreateKeyspace',
      name: ident('shop'),
      ifNotExists: false,
      terminated: true,
      range: R,
      properties: [
        {
          kind: 'Property',
          name: ident('replication'),
          range: R,
          value: {
            kind: 'MapLiteral',
            range: R,
            entries: entries.map(([k, v]) => ({ key: lit('string', k), value: lit('string', v) })),
          },
        },
      ],
    });
    assert.deepEqual(
      replicationFromKeyspace(
        ks([
          ['class', 'SimpleStrategy'],
          ['replication_factor', '3'],
        ]),
      ),
      { strategy: 'SimpleStrategy', replicationFactor: 3 },
    );
    assert.deepEqual(
      structuredClone(
        replicationFromKeyspace(
          ks([
            ['class', 'org.apache.cassandra.locator.NetworkTopologyStrategy'],
            ['dc1', '3'],
            ['dc2', '2/1'],
          ]),
        ),
      ),
      { strategy: 'NetworkTopologyStrategy', dcs: { dc1: 3, dc2: 2 }, defaultFactor: undefined },
    );
  });
});

describe('key preview', () => {
  test('token, key bytes, computed shard, range and replicas', () => {
    const ring = parseNodetoolRing(NODETOOL_RING);
    const spec = parseShardAnnotation(lineComment('-- @shard shard = murmur3(title) % 16 + 1', 0));
    assert.ok(spec?.ok);
    const p = describeKeyPreview({
      columns: [
        { name: 'publish_date', type: nativeType('date') },
        { name: 'shard', type: nativeType('int') },
      ],
      values: { publish_date: lit('string', '2020-07-09') },
      shard: spec.spec,
      sourceColumns: { title: { type: nativeType('text'), value: lit('string', 'Hello') } },
      ring,
      replication: { strategy: 'SimpleStrategy', replicationFactor: 2 },
    });
    assert.equal(p.ok, true);
    assert.equal(typeof p.shard?.value, 'number');
    assert.equal(p.token, computeToken(['date', 'int'], ['2020-07-09', p.shard!.value!]).toString());
    assert.equal(p.keyHex?.slice(0, 14), '00048000481400');
    assert.equal(p.ring?.replicas.length, 2);
    assert.match(formatKeyPreviewMarkdown(p), /\*\*token\*\* `-?\d+`/);
  });
  test('a non-literal value explains why there is no token', () => {
    const p = describeKeyPreview({
      columns: [{ name: 'id', type: nativeType('uuid') }],
      values: { id: { kind: 'BindMarker', range: { start: 9, end: 10 } } },
    });
    assert.equal(p.ok, false);
    assert.equal(p.problem?.kind, 'not-computable');
    assert.match(formatKeyPreviewMarkdown(p), /token not computable: bind marker/);
  });
});
