// Property tests: our tokens and key bytes against cassandra-driver (encoder + Murmur3Tokenizer) on
// thousands of seeded random keys of every native type, frozen collections, tuples, UDTs and composites.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Prng, driverEncoder, driverRoutingKey, driverToken, driverTypes } from './helpers';
import { computeToken, serializeKey } from '../../server/core/token/token';
import { murmur3Token, murmur3x86_32 } from '../../server/core/token/murmur3';
import { parseTypeSpec, type KeyType } from '../../server/core/token/types';
import { serializeValue } from '../../server/core/token/serialize';
import { valueFromText } from '../../server/core/token/values';
const murmurRef = require('murmurhash3js-revisited');

const T = driverTypes.dataTypes;
const { Long, Uuid, InetAddress, LocalDate, LocalTime, BigDecimal, Integer, Tuple, Duration } = driverTypes;

interface Sample {
  type: string;
  cql: string;
  driverValue: unknown;
  driverType: unknown;
}

const cqlQuote = (s: string): string => `'${s.replace(/'/g, "''")}'`;

function randomText(r: Prng, asciiOnly: boolean): string {
  const n = r.int(0, 40);
  let s = '';
  for (let i = 0; i < n; i++) {
    const kind = asciiOnly ? 0 : r.int(0, 4);
    if (kind <= 1) s += String.fromCharCode(r.int(asciiOnly ? 0 : 32, 126));
    else if (kind === 2) s += String.fromCharCode(r.int(0xa0, 0x7ff));
    else if (kind === 3) s += String.fromCharCode(r.pick([r.int(0x800, 0xd7ff), r.int(0xe000, 0xfffd)]));
    else s += String.fromCodePoint(r.int(0x10000, 0x10ffff));
  }
  return s;
}

function uuidText(b: Buffer): string {
  const h = b.toString('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

function ipv6Text(r: Prng, b: Buffer): string {
  const groups: string[] = [];
  for (let i = 0; i < 16; i += 2) groups.push(((b[i] << 8) | b[i + 1]).toString(16));
  if (r.next() < 0.5) return groups.join(':');
  // compress a run of groups into ::
  const start = r.int(0, 7),
    len = r.int(1, 8 - start);
  for (let i = start; i < start + len; i++) {
    groups[i] = '0';
    b[i * 2] = 0;
    b[i * 2 + 1] = 0;
  }
  return groups.slice(0, start).join(':') + '::' + groups.slice(start + len).join(':');
}

function scalar(r: Prng, type: string): Sample {
  switch (type) {
    case 'text':
    case 'varchar': {
      const s = randomText(r, false);
      return { type, cql: cqlQuote(s), driverValue: s, driverType: T.text };
    }
    case 'ascii': {
      const s = randomText(r, true);
      return { type, cql: cqlQuote(s), driverValue: s, driverType: T.ascii };
    }
    case 'int': {
      const n = r.int(-2147483648, 2147483647);
      return { type, cql: String(n), driverValue: n, driverType: T.int };
    }
    case 'smallint': {
      const n = r.int(-32768, 32767);
      return { type, cql: String(n), driverValue: n, driverType: T.smallint };
    }
    case 'tinyint': {
      const n = r.int(-128, 127);
      return { type, cql: String(n), driverValue: n, driverType: T.tinyint };
    }
    case 'bigint':
    case 'counter': {
      const n = r.bigint(r.pick([1, 2, 4, 8]));
      return { type, cql: String(n), driverValue: n, driverType: T.bigint };
    }
    case 'varint': {
      const n = r.bigint(r.int(0, 24));
      return { type, cql: String(n), driverValue: n, driverType: T.varint };
    }
    case 'boolean': {
      const v = r.next() < 0.5;
      return { type, cql: String(v), driverValue: v, driverType: T.boolean };
    }
    case 'uuid': {
      const b = r.bytes(16);
      return { type, cql: uuidText(b), driverValue: Uuid.fromString(uuidText(b)), driverType: T.uuid };
    }
    case 'timeuuid': {
      const b = r.bytes(16);
      b[6] = (b[6] & 0x0f) | 0x10;
      return { type, cql: uuidText(b), driverValue: Uuid.fromString(uuidText(b)), driverType: T.timeuuid };
    }
    case 'timestamp': {
      const ms = r.int(-62135596800000, 253402300799999); // years 1..9999
      if (r.next() < 0.5) return { type, cql: String(ms), driverValue: ms, driverType: T.timestamp };
      return { type, cql: cqlQuote(new Date(ms).toISOString()), driverValue: new Date(ms), driverType: T.timestamp };
    }
    case 'date': {
      const days = r.int(-719162, 2932896); // 0001-01-01 .. 9999-12-31
      const iso = new Date(days * 86400000).toISOString().slice(0, 10);
      return { type, cql: cqlQuote(iso), driverValue: LocalDate.fromString(iso), driverType: T.date };
    }
    case 'time': {
      const ns = BigInt(r.int(0, 86399)) * 1_000_000_000n + BigInt(r.int(0, 999999999));
      const secs = Number(ns / 1_000_000_000n);
      const text = `${String(Math.floor(secs / 3600)).padStart(2, '0')}:${String(Math.floor(secs / 60) % 60).padStart(2, '0')}:${String(secs % 60).padStart(2, '0')}.${String(ns % 1_000_000_000n).padStart(9, '0')}`;
      return {
        type,
        cql: cqlQuote(text),
        driverValue: new LocalTime(Long.fromString(ns.toString())),
        driverType: T.time,
      };
    }
    case 'inet': {
      if (r.next() < 0.5) {
        const b = r.bytes(4);
        return { type, cql: cqlQuote([...b].join('.')), driverValue: new InetAddress(b), driverType: T.inet };
      }
      const b = r.bytes(16);
      const text = ipv6Text(r, b);
      return { type, cql: cqlQuote(text), driverValue: new InetAddress(b), driverType: T.inet };
    }
    case 'blob': {
      const b = r.bytes(r.int(0, 40));
      return { type, cql: '0x' + b.toString('hex'), driverValue: b, driverType: T.blob };
    }
    case 'double': {
      let d: number;
      do {
        d = r.bytes(8).readDoubleBE(0);
      } while (!Number.isFinite(d));
      if (r.next() < 0.1) d = r.pick([0, -0, 1.5, NaN, Infinity, -Infinity]);
      return { type, cql: Object.is(d, -0) ? '-0.0' : String(d), driverValue: d, driverType: T.double };
    }
    case 'float': {
      let f: number;
      do {
        f = r.bytes(4).readFloatBE(0);
      } while (!Number.isFinite(f));
      return { type, cql: String(f), driverValue: f, driverType: T.float };
    }
    case 'decimal': {
      const unscaled = r.bigint(r.int(0, 16));
      const scale = r.int(-12, 20);
      let cql: string;
      if (scale > 0 && r.next() < 0.7) {
        const digits = (unscaled < 0n ? -unscaled : unscaled).toString().padStart(scale + 1, '0');
        cql =
          (unscaled < 0n ? '-' : '') +
          digits.slice(0, digits.length - scale) +
          '.' +
          digits.slice(digits.length - scale);
      } else {
        cql = `${unscaled}E${-scale >= 0 ? '+' : ''}${-scale}`;
      }
      return {
        type,
        cql,
        driverValue: new BigDecimal(Integer.fromString(unscaled.toString()), scale),
        driverType: T.decimal,
      };
    }
  }
  throw new Error(type);
}

const SCALARS = [
  'text',
  'varchar',
  'ascii',
  'int',
  'smallint',
  'tinyint',
  'bigint',
  'counter',
  'varint',
  'boolean',
  'uuid',
  'timeuuid',
  'timestamp',
  'date',
  'time',
  'inet',
  'blob',
  'double',
  'float',
  'decimal',
] as const;
const KEYABLE = SCALARS.filter((t) => t !== 'counter');

function sameToken(sample: { types: string[]; cql: string[]; parts: Buffer[] }): void {
  const key = sample.parts.length === 1 ? sample.parts[0] : driverRoutingKey(sample.parts);
  const ours = serializeKey(sample.types, sample.cql);
  assert.equal(
    Buffer.from(ours).toString('hex'),
    key.toString('hex'),
    `key bytes of ${sample.types.join(',')} ${sample.cql.join(' ')}`,
  );
  assert.equal(
    computeToken(sample.types, sample.cql),
    driverToken(key),
    `token of ${sample.types.join(',')} ${sample.cql.join(' ')}`,
  );
}

describe('hash functions against reference implementations', () => {
  test('murmur3Token equals the driver tokenizer on 5000 random byte strings of every tail length', () => {
    const r = new Prng(1);
    for (let i = 0; i < 5000; i++) {
      const b = r.bytes(i % 80);
      assert.equal(murmur3Token(b), driverToken(b), b.toString('hex'));
    }
  });
  test('murmur3x86_32 equals murmurhash3js-revisited x86.hash32', () => {
    const r = new Prng(2);
    for (let i = 0; i < 3000; i++) {
      const b = r.bytes(i % 37);
      assert.equal(murmur3x86_32(b), murmurRef.x86.hash32(b), b.toString('hex'));
    }
  });
});

describe('single-column keys of every native type match cassandra-driver', () => {
  for (const type of SCALARS) {
    test(`${type}: 300 random values`, () => {
      const r = new Prng(1000 + SCALARS.indexOf(type));
      for (let i = 0; i < 300; i++) {
        const s = scalar(r, type);
        const part = driverEncoder.encode(s.driverValue, s.driverType);
        if (type === 'counter') {
          // counter serializes like bigint (never a key, so compare the value bytes)
          const bytes = serializeValue(
            { kind: 'native', name: 'counter' },
            valueFromText({ kind: 'native', name: 'counter' }, s.cql),
          );
          assert.equal(Buffer.from(bytes).toString('hex'), part.toString('hex'));
          continue;
        }
        sameToken({ types: [type], cql: [s.cql], parts: [part] });
      }
    });
  }
});

describe('composite keys match cassandra-driver framing and tokens', () => {
  test('2000 random composite keys of 2..4 columns', () => {
    const r = new Prng(7);
    for (let i = 0; i < 2000; i++) {
      const n = r.int(2, 4);
      const samples = Array.from({ length: n }, () => scalar(r, r.pick(KEYABLE)));
      sameToken({
        types: samples.map((s) => s.type),
        cql: samples.map((s) => s.cql),
        parts: samples.map((s) => driverEncoder.encode(s.driverValue, s.driverType)),
      });
    }
  });
});

describe('frozen collections, tuples and UDTs match cassandra-driver serialization', () => {
  const udt: KeyType = {
    kind: 'udt',
    name: 'address',
    frozen: true,
    fields: [
      { name: 'street', type: { kind: 'native', name: 'text' } },
      { name: 'zip', type: { kind: 'native', name: 'int' } },
    ],
  };
  test('frozen<list<int>>, frozen<set<text>>, frozen<map<text, bigint>>, tuple<int, text, uuid>, frozen<address>', () => {
    const r = new Prng(11);
    for (let i = 0; i < 300; i++) {
      // list<int>
      const ints = Array.from({ length: r.int(1, 6) }, () => r.int(-1000, 1000));
      sameToken({
        types: ['frozen<list<int>>'],
        cql: [`[${ints.join(', ')}]`],
        parts: [driverEncoder.encode(ints, { code: T.list, info: { code: T.int } })],
      });
      // set<text>: Cassandra stores sets sorted (UTF-8 byte order) without duplicates
      const texts = Array.from({ length: r.int(1, 5) }, () => randomText(r, r.next() < 0.5));
      const sorted = [...new Set(texts)].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
      sameToken({
        types: ['frozen<set<text>>'],
        cql: [`{${texts.map(cqlQuote).join(', ')}}`],
        parts: [driverEncoder.encode(sorted, { code: T.set, info: { code: T.text } })],
      });
      // map<text, bigint>
      const keys = [...new Set(Array.from({ length: r.int(1, 4) }, () => randomText(r, true)))].sort((a, b) =>
        Buffer.compare(Buffer.from(a), Buffer.from(b)),
      );
      const obj: Record<string, bigint> = {};
      for (const k of keys) obj[k] = r.bigint(8);
      const mapCql = `{${[...keys]
        .reverse()
        .map((k) => `${cqlQuote(k)}: ${obj[k]}`)
        .join(', ')}}`;
      sameToken({
        types: ['frozen<map<text, bigint>>'],
        cql: [mapCql],
        parts: [driverEncoder.encode(obj, { code: T.map, info: [{ code: T.text }, { code: T.bigint }] })],
      });
      // tuple<int, text, uuid> with a null
      const a = r.int(-5, 5),
        t = randomText(r, false),
        u = uuidText(r.bytes(16));
      const withNull = r.next() < 0.3;
      sameToken({
        types: ['tuple<int, text, uuid>'],
        cql: [`(${a}, ${cqlQuote(t)}, ${withNull ? 'null' : u})`],
        parts: [
          driverEncoder.encode(Tuple.fromArray([a, t, withNull ? null : Uuid.fromString(u)]), {
            code: T.tuple,
            info: [{ code: T.int }, { code: T.text }, { code: T.uuid }],
          }),
        ],
      });
      // frozen<address>
      const street = randomText(r, false),
        zip = r.int(0, 99999);
      sameToken({
        types: [udt] as never,
        cql: [`{street: ${cqlQuote(street)}, zip: ${zip}}`],
        parts: [
          driverEncoder.encode(
            { street, zip },
            {
              code: T.udt,
              info: {
                name: 'address',
                fields: [
                  { name: 'street', type: { code: T.text } },
                  { name: 'zip', type: { code: T.int } },
                ],
              },
            },
          ),
        ],
      });
    }
  });

  test('an empty frozen collection is a zero count (the driver encodes it as null, so fixed here)', () => {
    assert.equal(Buffer.from(serializeKey(['frozen<list<int>>'], ['[]'])).toString('hex'), '00000000');
    assert.equal(Buffer.from(serializeKey(['frozen<map<text, int>>'], ['{}'])).toString('hex'), '00000000');
  });

  test('set<int> is stored in numeric order, not byte order', () => {
    const bytes = serializeKey(['frozen<set<int>>'], ['{3, -1, 2, 3}']);
    assert.equal(
      Buffer.from(bytes).toString('hex'),
      driverEncoder.encode([-1, 2, 3], { code: T.set, info: { code: T.int } }).toString('hex'),
    );
  });

  test('duration values serialize as Cassandra vints (driver Duration.toBuffer)', () => {
    const r = new Prng(13);
    for (let i = 0; i < 300; i++) {
      const sign = r.next() < 0.5 ? -1 : 1;
      const months = sign * r.int(0, 2 ** 31 - 1),
        days = sign * r.int(0, 2 ** 31 - 1);
      const nanos = BigInt(sign) * BigInt.asUintN(r.pick([8, 16, 32, 48, 62]), r.bigint(8));
      const expected = new Duration(months, days, Long.fromString(nanos.toString())).toBuffer().toString('hex');
      const value = { kind: 'duration' as const, months, days, nanoseconds: nanos };
      assert.equal(Buffer.from(serializeValue(parseTypeSpec('duration'), value)).toString('hex'), expected);
    }
  });
});
