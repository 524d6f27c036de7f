// A reference's literal values (TableReference.literals) are kept once per process: statements that give a
// column the same values share one frozen list, and the same columns and values one frozen record; the
// values are the literals' own, code unit for code unit.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseCql } from '../../grammar';
import { buildFileReferences } from '../../server/core/schema/references';

const references = (file: string, text: string) => buildFileReferences(file, parseCql(text));

test('statements giving the same values share their lists and records, across files; others do not', () => {
  const a = references(
    '/w/a.cql',
    `INSERT INTO ks.t (id, day, status) VALUES ('0b6c1f2a-aaaa-4c93-8f61-eabfa4a803e2', '2024-01-01', 'open');
SELECT * FROM ks.t WHERE id IN ('0b6c1f2a-aaaa-4c93-8f61-eabfa4a803e2', 'x');
SELECT * FROM ks.t WHERE id = 'other id, long enough';\n`,
  );
  const b = references(
    '/w/b.cql',
    `INSERT INTO ks.t (id, day, status) VALUES ('0b6c1f2a-aaaa-4c93-8f61-eabfa4a803e2', '2024-01-01', 'open');
INSERT INTO ks.t (id, day, status) VALUES ('0b6c1f2a-aaaa-4c93-8f61-eabfa4a803e2', '2024-01-02', 'open');\n`,
  );
  const [insertA, inList, other] = a.map((r) => r.literals!);
  const [insertB, nextDay] = b.map((r) => r.literals!);
  assert.deepEqual(
    { ...insertA },
    { id: ['0b6c1f2a-aaaa-4c93-8f61-eabfa4a803e2'], day: ['2024-01-01'], status: ['open'] },
  );
  assert.equal(insertB, insertA, 'the same write in another file: one record');
  assert.ok(Object.isFrozen(insertA) && Object.isFrozen(insertA.id));
  assert.notEqual(nextDay, insertA);
  assert.equal(nextDay!.id, insertA!.id, 'one list for the same id');
  assert.equal(nextDay!.status, insertA!.status);
  assert.notEqual(nextDay!.day, insertA!.day);
  assert.deepEqual(inList!.id, ['0b6c1f2a-aaaa-4c93-8f61-eabfa4a803e2', 'x']);
  assert.notEqual(inList!.id, insertA!.id);
  assert.deepEqual(other!.id, ['other id, long enough']);
});

test('values keep every code unit: quotes unescaped, characters past Latin-1, a lone surrogate', () => {
  const lone = '\ud800';
  const [quoted, wide, surrogate] = references(
    '/w/c.cql',
    `SELECT * FROM ks.t WHERE id = 'it''s a long enough value';
SELECT * FROM ks.t WHERE id = 'größer als dreizehn × zeichen';
SELECT * FROM ks.t WHERE id = 'a lone ${lone} surrogate, long';\n`,
  ).map((r) => r.literals!.id);
  assert.deepEqual(quoted, ["it's a long enough value"]);
  assert.deepEqual(wide, ['größer als dreizehn × zeichen']);
  assert.deepEqual(surrogate, [`a lone ${lone} surrogate, long`]);
});

test('long values are copied but not pooled: the pools outlive their Projects, a repeated blob does not stay for the next', () => {
  const blob = `0x${'ab'.repeat(200)}`;
  const write = `INSERT INTO ks.t (id, payload) VALUES ('k', ${blob});\n`;
  const [first] = references('/w/d.cql', write);
  const [second] = references('/w/e.cql', write);
  assert.deepEqual(first!.literals!.payload, [blob]);
  assert.ok(Object.isFrozen(first!.literals) && Object.isFrozen(first!.literals!.payload));
  assert.notEqual(second!.literals, first!.literals, 'no shared record for a statement with a long value');
  assert.notEqual(second!.literals!.payload, first!.literals!.payload, 'no shared list for a long value');
  assert.equal(second!.literals!.id, first!.literals!.id, 'its short values are still pooled');
});
