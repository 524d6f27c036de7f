import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { computeToken, serializeKey, tryComputeToken, KeyEncoder } from '../../server/core/token/token';
import {
  KeyValueError,
  parseDate,
  parseTimestamp,
  parseTime,
  parseDecimal,
  parseInet,
  parseDuration,
  valueFromText,
} from '../../server/core/token/values';
import { parseTypeSpec } from '../../server/core/token/types';
import { call, lit, neg } from './ast-helpers';
import { serializeValue } from '../../server/core/token/serialize';

const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');

function throwsValue(fn: () => unknown, message: RegExp, problem = 'invalid'): void {
  assert.throws(fn, (e: unknown) => {
    assert.ok(e instanceof KeyValueError, `expected KeyValueError, got ${String(e)}`);
    assert.match(e.message, message);
    assert.equal(e.problem, problem);
    return true;
  });
}

describe('public reference tokens', () => {
  test('int 1 and int 2 (Cassandra dtests)', () => {
    assert.equal(computeToken(['int'], ['1']), -4069959284402364209n);
    assert.equal(computeToken(['int'], [2]), -3248873570005575792n);
  });
  test("(date '2020-07-09', int 17)", () => {
    assert.equal(computeToken(['date', 'int'], ["'2020-07-09'", '17']), 9111517818253212355n);
    assert.equal(computeToken(['date', 'int'], ['2020-07-09', 17]), 9111517818253212355n);
    assert.equal(hex(serializeKey(['date', 'int'], ['2020-07-09', '17'])), '0004800048140000040000001100');
  });
  test('AST literals give the same token as text', () => {
    assert.equal(
      computeToken(['date', 'int'], [lit('string', '2020-07-09'), lit('integer', '17')]),
      9111517818253212355n,
    );
    assert.equal(computeToken(['int'], [neg(lit('integer', '5'))]), computeToken(['int'], ['-5']));
  });
});

describe('serialization details', () => {
  test("varint is minimal two's complement", () => {
    assert.equal(hex(serializeKey(['varint'], ['128'])), '0080');
    assert.equal(hex(serializeKey(['varint'], ['-1'])), 'ff');
    assert.equal(hex(serializeKey(['varint'], ['-129'])), 'ff7f');
    assert.equal(hex(serializeKey(['varint'], ['0'])), '00');
  });
  test('decimal keeps its scale; exponent forms as Java BigDecimal', () => {
    assert.notEqual(hex(serializeKey(['decimal'], ['123.45'])), hex(serializeKey(['decimal'], ['123.450'])));
    assert.equal(hex(serializeKey(['decimal'], ['123.45'])), '00000002' + '3039');
    assert.equal(hex(serializeKey(['decimal'], ['1E+3'])), 'fffffffd' + '01');
    assert.deepEqual(parseDecimal('-0.50'), { unscaled: -50n, scale: 2 });
  });
  test('date is days + 2^31; a bare integer is the raw day number', () => {
    assert.equal(hex(serializeKey(['date'], ['1970-01-01'])), '80000000');
    assert.equal(hex(serializeKey(['date'], ['2147483648'])), '80000000');
    assert.equal(parseDate('1969-12-31'), -1);
    assert.equal(parseDate('2000-02-29'), 10957 + 59);
  });
  test('timestamps: ms integers and the string forms Cassandra accepts (UTC when no zone)', () => {
    const ms = BigInt(Date.UTC(2020, 6, 9, 12, 0, 0));
    for (const s of [
      '2020-07-09 12:00:00+0000',
      '2020-07-09T12:00:00Z',
      '2020-07-09 12:00',
      '2020-07-09T14:00:00+02:00',
      '2020-07-09 08:00:00-04',
      '2020-07-09 12:00:00.000 UTC',
    ]) {
      assert.equal(parseTimestamp(s), ms, s);
    }
    assert.equal(parseTimestamp('2020-07-09'), BigInt(Date.UTC(2020, 6, 9)));
    assert.equal(parseTimestamp('2020-07-09 12:00:00.5'), ms + 500n);
    assert.equal(
      computeToken(['timestamp'], ['1594296000000']),
      computeToken(['timestamp'], ["'2020-07-09 12:00:00+0000'"]),
    );
  });
  test('time, inet, blob, boolean, float', () => {
    assert.equal(parseTime('01:02:03.5'), 3723_500_000_000n);
    assert.equal(hex(parseInet('::1')!), '00000000000000000000000000000001');
    assert.equal(hex(parseInet('::ffff:1.2.3.4')!), '00000000000000000000ffff01020304');
    assert.equal(hex(serializeKey(['inet'], ["'1.2.3.4'"])), '01020304');
    assert.equal(hex(serializeKey(['blob'], ['0xabc'])), '0abc');
    assert.equal(hex(serializeKey(['boolean'], ['true'])), '01');
    assert.equal(hex(serializeKey(['float'], ['0.1'])), '3dcccccd');
  });
  test('durations: unit and ISO forms', () => {
    assert.deepEqual(parseDuration('1h30m'), { kind: 'duration', months: 0, days: 0, nanoseconds: 5_400_000_000_000n });
    assert.deepEqual(parseDuration('P1Y2M3DT4H'), {
      kind: 'duration',
      months: 14,
      days: 3,
      nanoseconds: 14_400_000_000_000n,
    });
    assert.deepEqual(parseDuration('-2w'), { kind: 'duration', months: 0, days: -14, nanoseconds: -0n });
  });
  test('KeyEncoder reuses its buffer and gives the same tokens as computeToken', () => {
    const enc = new KeyEncoder(['text', 'int']);
    for (const [t, n] of [
      ['a', 1],
      ['ééé'.repeat(200), -7],
      ['', 0],
    ] as const) {
      assert.equal(enc.token(enc.parse([`'${t}'`, String(n)])), computeToken(['text', 'int'], [`'${t}'`, n]));
    }
  });
});

describe('literal errors are clear', () => {
  const ctx = { columns: ['published_on'] };
  test('invalid dates name the column', () => {
    throwsValue(
      () => computeToken(['date'], ["'2020-13-01'"], ctx),
      /^'2020-13-01' is not a valid date for column published_on: month 13/,
    );
    throwsValue(() => computeToken(['date'], ["'2021-02-29'"], ctx), /2021-02 has no day 29/);
    throwsValue(() => computeToken(['date'], ["'July 9'"], ctx), /expected 'yyyy-mm-dd'/);
  });
  test('integers out of range', () => {
    throwsValue(() => computeToken(['int'], ['2147483648']), /2147483648 is out of range for int/);
    throwsValue(() => computeToken(['tinyint'], ['-129']), /out of range for tinyint/);
    throwsValue(() => computeToken(['int'], ['1.5']), /not a valid int: not an integer/);
    throwsValue(() => computeToken(['int'], ["'17'"]), /numbers are written without quotes/);
    throwsValue(() => computeToken(['bigint'], [2 ** 60]), /too large to be exact as a JSON number/);
  });
  test('malformed uuids, timeuuid versions, inet, blob, ascii, timestamps', () => {
    throwsValue(() => computeToken(['uuid'], ['123e4567-e89b-12d3-a456']), /not a valid uuid/);
    throwsValue(
      () => computeToken(['timeuuid'], ['123e4567-e89b-42d3-a456-426614174000']),
      /version 4 uuid; timeuuid needs version 1/,
    );
    throwsValue(() => computeToken(['inet'], ["'example.com'"]), /not a valid inet address/);
    throwsValue(() => computeToken(['inet'], ["'1.2.3.256'"]), /not a valid inet address/);
    throwsValue(() => computeToken(['blob'], ["'abc'"]), /write blobs as hex/);
    throwsValue(() => computeToken(['ascii'], ["'café'"]), /non-ASCII/);
    throwsValue(() => computeToken(['timestamp'], ["'2020-07-09 25:00'"]), /hour 25/);
    throwsValue(() => computeToken(['text'], [null]), /null is not allowed in a partition key/);
  });
  test('non-literals are "not computable" with a reason and range', () => {
    const r = tryComputeToken(['timeuuid'], [call('now', { start: 40, end: 45 })]);
    assert.equal(r.ok, false);
    if (!r.ok) {
      assert.equal(r.problem.kind, 'not-computable');
      assert.match(r.problem.message, /now\(\) is evaluated by the server/);
      assert.equal(r.problem.range?.start, 40);
    }
    throwsValue(() => computeToken(['int'], ['?']), /bind marker/, 'not-computable');
  });
  test('types that cannot be keys', () => {
    throwsValue(
      () => computeToken(['duration'], ['1h']),
      /duration columns cannot be part of a primary key/,
      'unsupported',
    );
    throwsValue(() => computeToken(['list<int>'], ['[1]']), /non-frozen list.*frozen<list<int>>/, 'unsupported');
    throwsValue(() => computeToken(['vector<float, 3>'], ['[1, 2, 3]']), /vector/, 'unsupported');
    throwsValue(() => computeToken(['int', 'int'], ['1']), /expected 2 values/);
    assert.throws(() => parseTypeSpec('map<int>'), /expected ','/);
  });
  test('text values need no quotes on the command line; quoted ones are CQL strings', () => {
    assert.equal(valueFromText({ kind: 'native', name: 'text' }, 'hello world'), 'hello world');
    assert.equal(valueFromText({ kind: 'native', name: 'text' }, "'it''s'"), "it's");
  });
});

test('docs/shard-formula.md: the bytes a varint and an inet source are hashed from', () => {
  // Java's BigInteger.toByteArray() for varint; network-order address bytes for inet (4 or 16, no port).
  const bytes = (name: 'varint' | 'inet', text: string): string => {
    const type = { kind: 'native', name } as const;
    return Buffer.from(serializeValue(type, valueFromText(type, text))).toString('hex');
  };
  assert.deepEqual(
    ['0', '127', '128', '-1', '-129'].map((v) => bytes('varint', v)),
    ['00', '7f', '0080', 'ff', 'ff7f'],
  );
  assert.equal(bytes('inet', '10.0.0.1'), '0a000001');
  assert.equal(bytes('inet', '::1'), `${'00'.repeat(15)}01`);
  assert.equal(bytes('inet', '::ffff:10.0.0.1'), '00000000000000000000ffff0a000001');
});
