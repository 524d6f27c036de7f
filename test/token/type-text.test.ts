// The token code's key types print with the schema's one type printer (util/cql-type.ts typeText).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseCqlType } from '../../grammar';
import { keyTypeText, nativeType, parseTypeSpec, type UdtLookup } from '../../server/core/token/types';
import { typeText } from '../../server/core/util/cql-type';

const udts: UdtLookup = (name) =>
  name === 'address' || name === 'My Type'
    ? { name, fields: [{ name: 'street', type: nativeType('text') }] }
    : undefined;

test('a key type prints as the CQL it was read from, as the schema prints the same type', () => {
  for (const text of [
    'int',
    'frozen<list<int>>',
    'list<frozen<set<text>>>',
    'frozen<map<text, bigint>>',
    'tuple<int, text, uuid>',
    'frozen<address>',
    'frozen<"My Type">',
  ]) {
    assert.equal(keyTypeText(parseTypeSpec(text, udts)), text);
    assert.equal(typeText(parseCqlType(text).value!), text, 'the schema prints it alike');
  }
});

test('what a key type does not keep prints as the key type is: a tuple is frozen anyway, an unsupported type as read', () => {
  assert.equal(keyTypeText(parseTypeSpec('frozen<tuple<int, text>>')), 'tuple<int, text>');
  assert.equal(keyTypeText(parseTypeSpec('frozen<map<text,int>>')), 'frozen<map<text, int>>');
  const vector = { kind: 'unsupported', text: 'vector', reason: 'no' } as const;
  assert.equal(keyTypeText(vector), 'vector');
  assert.equal(keyTypeText({ kind: 'list', element: vector, frozen: true }), 'frozen<list<vector>>');
});
