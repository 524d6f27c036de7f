import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  findDefinition,
  findReferences,
  prepareRename,
  rename,
  editsByFile,
} from '../../server/core/editor/navigation';
import { applyEdits } from '../../server/core/fixes/text';
import { withCursor, workspace, SCHEMA } from './helpers';

const QUERIES = `USE shop;
SELECT customer_id, total FROM orders WHERE customer_id = ? AND order_day = ?;
INSERT INTO shop.orders (customer_id, order_day, order_time, total) VALUES (?, ?, ?, ?);
UPDATE orders SET total = 3 WHERE customer_id = ? AND order_day = ? AND order_time = ?;
SELECT * FROM shop.orders_by_total WHERE total = 10;
`;

function at(text: string, needle: string, nth = 0, delta = 1): number {
  let i = -1;
  for (let k = 0; k <= nth; k++) i = text.indexOf(needle, i + 1);
  if (i < 0) throw new Error(`${needle} not found`);
  return i + delta;
}

describe('go to definition', () => {
  test('a column in a query goes to its CREATE TABLE column', () => {
    const { index } = workspace({ '/ws/q.cql': QUERIES });
    const defs = findDefinition(index, '/ws/q.cql', at(QUERIES, 'total', 1));
    assert.equal(defs.length, 1);
    assert.equal(defs[0].filePath, '/ws/schema.cql');
    assert.equal(SCHEMA.slice(defs[0].range.start, defs[0].range.end), 'total');
    assert.equal(defs[0].range.start, SCHEMA.indexOf('total decimal'));
  });

  test('a table name (qualified or via USE) goes to the CREATE TABLE name; the keyspace part to CREATE KEYSPACE', () => {
    const { index } = workspace({ '/ws/q.cql': QUERIES });
    for (const offset of [at(QUERIES, 'orders WHERE'), at(QUERIES, 'orders (')]) {
      const [def] = findDefinition(index, '/ws/q.cql', offset);
      assert.equal(def.range.start, SCHEMA.indexOf('orders ('));
    }
    const [ks] = findDefinition(index, '/ws/q.cql', at(QUERIES, 'shop.orders'));
    assert.equal(ks.range.start, SCHEMA.indexOf('shop WITH'));
  });

  test('a view and a user type resolve to their definitions', () => {
    const { index } = workspace({ '/ws/q.cql': QUERIES });
    const [view] = findDefinition(index, '/ws/q.cql', at(QUERIES, 'orders_by_total'));
    assert.equal(view.range.start, SCHEMA.indexOf('orders_by_total AS'));
    const [type] = findDefinition(index, '/ws/schema.cql', at(SCHEMA, 'address>'));
    assert.equal(type.range.start, SCHEMA.indexOf('address ('));
  });

  test('nothing for a keyword or an undeclared table', () => {
    const { index } = workspace({ '/ws/q.cql': 'SELECT * FROM nowhere;' });
    assert.deepEqual(findDefinition(index, '/ws/q.cql', 2), []);
    assert.deepEqual(findDefinition(index, '/ws/q.cql', 16), []);
  });
});

describe('find references', () => {
  test('every mention of a column across files, including key clauses and views', () => {
    const { index } = workspace({ '/ws/q.cql': QUERIES });
    const refs = findReferences(index, '/ws/schema.cql', SCHEMA.indexOf('customer_id uuid') + 1);
    const inSchema = refs.filter((r) => r.filePath === '/ws/schema.cql').length;
    const inQueries = refs.filter((r) => r.filePath === '/ws/q.cql').length;
    // schema: definition, PRIMARY KEY, view WHERE, view PRIMARY KEY; queries: SELECT list and WHERE, INSERT, UPDATE.
    assert.equal(inSchema, 4);
    assert.equal(inQueries, 4);
    const withoutDecl = findReferences(index, '/ws/schema.cql', SCHEMA.indexOf('customer_id uuid') + 1, false);
    assert.equal(withoutDecl.length, refs.length - 1);
  });

  test('a column of another table with the same name is a different symbol', () => {
    const other =
      'CREATE TABLE shop.payments (customer_id uuid PRIMARY KEY, total decimal);\nSELECT total FROM shop.payments;';
    const { index } = workspace({ '/ws/q.cql': QUERIES, '/ws/p.cql': other });
    const refs = findReferences(index, '/ws/p.cql', at(other, 'total decimal'));
    assert.deepEqual(
      refs.map((r) => r.filePath),
      ['/ws/p.cql', '/ws/p.cql'],
    );
  });
});

describe('rename', () => {
  test('renaming a column updates every statement in the workspace', () => {
    const { index, sources } = workspace({ '/ws/q.cql': QUERIES });
    const result = rename(index, '/ws/q.cql', at(QUERIES, 'total', 0), 'amount');
    assert.ok(result.ok);
    const byFile = editsByFile(result.edits);
    const schema = applyEdits(sources.getText('/ws/schema.cql')!, byFile.get('/ws/schema.cql')!);
    const queries = applyEdits(QUERIES, byFile.get('/ws/q.cql')!);
    assert.match(schema, /amount decimal,/);
    assert.match(schema, /WHERE amount IS NOT NULL/);
    assert.match(schema, /PRIMARY KEY \(amount, customer_id/);
    assert.match(schema, /ON shop\.orders \(amount\)/);
    assert.doesNotMatch(queries, /\btotal\b(?!_)/);
    assert.match(queries, /SET amount = 3/);
    // orders_by_total is a view name, not the column: untouched.
    assert.match(queries, /orders_by_total WHERE amount = 10/);
  });

  test('a new name that needs quotes gets them; an existing quoted name is shown quoted', () => {
    const { index } = workspace({ '/ws/q.cql': QUERIES });
    const result = rename(index, '/ws/q.cql', at(QUERIES, 'orders WHERE'), 'Orders 2024');
    assert.ok(result.ok);
    assert.ok(result.edits.every((e) => e.newText === '"Orders 2024"'));
    // Three queries, plus the definition, the view's FROM and the index's ON.
    assert.equal(result.edits.length, 3 + 3);
    const reserved = rename(index, '/ws/q.cql', at(QUERIES, 'total', 0), 'select');
    assert.ok(reserved.ok && reserved.edits.every((e) => e.newText === '"select"'));
    const prepared = prepareRename(index, '/ws/schema.cql', SCHEMA.indexOf('"Products"') + 2);
    assert.ok(prepared.ok);
    assert.equal(prepared.placeholder, '"Products"');
    const typed = rename(index, '/ws/schema.cql', SCHEMA.indexOf('"Products"') + 2, '"Catalog"');
    assert.ok(typed.ok && typed.edits[0].newText === '"Catalog"');
    const plain = rename(index, '/ws/schema.cql', SCHEMA.indexOf('"Products"') + 2, '"catalog"');
    assert.ok(plain.ok && plain.edits[0].newText === 'catalog');
  });

  test('prepareRename refuses keywords, undeclared names and clashes', () => {
    const { index } = workspace({ '/ws/q.cql': QUERIES + 'SELECT * FROM ghost;\n' });
    const text = QUERIES + 'SELECT * FROM ghost;\n';
    assert.equal(prepareRename(index, '/ws/q.cql', 2).ok, false);
    assert.equal(prepareRename(index, '/ws/q.cql', at(text, 'ghost')).ok, false);
    const clash = rename(index, '/ws/q.cql', at(QUERIES, 'total', 0), 'note');
    assert.equal(clash.ok, false);
    assert.equal(rename(index, '/ws/q.cql', at(QUERIES, 'total', 0), '"bad"name"').ok, false);
  });

  test('renaming a user type updates column types', () => {
    const { index, sources } = workspace({});
    const result = rename(index, '/ws/schema.cql', SCHEMA.indexOf('address ('), 'postal_address');
    assert.ok(result.ok);
    const schema = applyEdits(sources.getText('/ws/schema.cql')!, result.edits);
    assert.match(schema, /CREATE TYPE postal_address \(/);
    assert.match(schema, /frozen<postal_address>/);
  });

  test('cursor fixtures: definition from a marked position', () => {
    const { text, offset } = withCursor('SELECT order_|day FROM shop.orders;');
    const { index } = workspace({ '/ws/c.cql': text });
    const [def] = findDefinition(index, '/ws/c.cql', offset);
    assert.equal(def.range.start, SCHEMA.indexOf('order_day date'));
  });
});
