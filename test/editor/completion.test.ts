import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { parseCql } from '../../grammar';
import { complete, type CompletionResult } from '../../server/core/editor/completion';
import { withCursor, workspace } from './helpers';
import { outsideCodeSpans } from '../helpers/markdown';

/** Completes at the `|` of a query file that sits next to the shared schema. */
function completeAt(marked: string, extraFiles: Record<string, string> = {}): CompletionResult {
  const { text, offset } = withCursor(marked);
  const { index } = workspace({ ...extraFiles, '/ws/query.cql': text });
  return complete(index, '/ws/query.cql', text, parseCql(text), offset);
}

const labels = (r: CompletionResult, kind?: string): string[] =>
  r.items.filter((i) => !kind || i.kind === kind).map((i) => i.label);

describe('completion: names from the workspace schema', () => {
  test("select list of an incomplete statement offers the FROM table's columns, key columns first", () => {
    const r = completeAt('USE shop;\nSELECT | FROM orders;');
    const columns = labels(r, 'column');
    assert.deepEqual(columns.slice(0, 3), ['customer_id', 'order_day', 'order_time']);
    assert.ok(columns.includes('ship_to') && columns.includes('note'));
    assert.ok(labels(r, 'function').includes('count'), 'aggregates are offered in select lists');
    const sorted = [...r.items].sort((a, b) => a.sortText.localeCompare(b.sortText));
    assert.equal(sorted[0].label, 'customer_id');
  });

  test('column items document type and key role', () => {
    const r = completeAt('SELECT * FROM shop.orders WHERE |');
    const day = r.items.find((i) => i.label === 'order_day')!;
    assert.match(day.detail!, /date · partition key \(2 of 2\)/);
    const time = r.items.find((i) => i.label === 'order_time')!;
    assert.match(time.detail!, /timestamp · clustering column 1, DESC/);
    const note = r.items.find((i) => i.label === 'note')!;
    assert.match(note.detail!, /static column/);
    assert.ok(labels(r, 'function').includes('token'));
  });

  test('WHERE after a complete relation continues with keywords from the grammar', () => {
    const r = completeAt('SELECT * FROM shop.orders WHERE customer_id = ? |');
    const kw = labels(r, 'keyword');
    assert.ok(kw.includes('AND'), kw.join(','));
    assert.ok(kw.includes('LIMIT'));
    assert.ok(!kw.includes('FROM'));
  });

  test('tables, views and keyspaces after FROM; only that keyspace after `ks.`', () => {
    const r = completeAt('SELECT * FROM |', { '/ws/other.cql': 'CREATE TABLE audit.events (id uuid PRIMARY KEY);' });
    assert.ok(labels(r, 'table').includes('shop.orders'), labels(r).join(','));
    assert.ok(labels(r, 'table').includes('audit.events'));
    assert.ok(labels(r, 'view').includes('shop.orders_by_total'));
    assert.ok(labels(r, 'keyspace').includes('shop'));
    const q = completeAt('SELECT * FROM shop.|', {
      '/ws/other.cql': 'CREATE TABLE audit.events (id uuid PRIMARY KEY);',
    });
    assert.deepEqual(labels(q, 'table').sort(), ['"Products"', 'orders']);
  });

  test('after USE, tables of that keyspace are offered by bare name; INSERT INTO excludes views', () => {
    const r = completeAt('USE shop;\nINSERT INTO |');
    assert.ok(labels(r, 'table').includes('orders'));
    assert.equal(labels(r, 'view').length, 0);
  });

  test('INSERT column list skips columns already listed', () => {
    const r = completeAt('USE shop;\nINSERT INTO orders (customer_id, |');
    const columns = labels(r, 'column');
    assert.ok(!columns.includes('customer_id'));
    assert.ok(columns.includes('order_day'));
  });

  test('UPDATE SET offers only non-key columns', () => {
    const r = completeAt('UPDATE shop.orders SET |');
    assert.deepEqual(labels(r, 'column').sort(), ['note', 'ship_to', 'total']);
  });

  test('ORDER BY offers clustering columns', () => {
    const r = completeAt('SELECT * FROM shop.orders WHERE customer_id = ? AND order_day = ? ORDER BY |');
    assert.deepEqual(labels(r, 'column'), ['order_time']);
  });

  test('PRIMARY KEY of the table being created offers its own columns', () => {
    const r = completeAt('CREATE TABLE t (id uuid, bucket int, at timestamp, PRIMARY KEY ((id, |');
    assert.deepEqual(labels(r, 'column'), ['bucket', 'at']);
  });

  test('a column definition without a type gets types: native, collections and workspace UDTs', () => {
    const r = completeAt('CREATE TABLE t (id uuid, name |');
    const types = labels(r, 'type');
    for (const t of ['text', 'uuid', 'timestamp', 'map', 'frozen', 'address']) assert.ok(types.includes(t), t);
    const map = r.items.find((i) => i.label === 'map')!;
    assert.equal(map.snippet, true);
    assert.match(map.insertText!, /^map<\$\{1:text\}, \$\{2:text\}>$/);
    const inner = completeAt('CREATE TABLE t (id uuid, tags set<|');
    assert.ok(labels(inner, 'type').includes('text'));
  });

  test('while typing a word the prefix is replaced', () => {
    const { text, offset } = withCursor('SELECT * FROM shop.orders WHERE cust|');
    const { index } = workspace({ '/ws/query.cql': text });
    const r = complete(index, '/ws/query.cql', text, parseCql(text), offset);
    assert.equal(r.context.prefix, 'cust');
    assert.equal(text.slice(r.replaceStart, r.replaceEnd), 'cust');
    assert.ok(labels(r, 'column').includes('customer_id'));
  });

  test("columns are the schema model's: ALTERs in the same file and elsewhere, CREATE TABLE ... LIKE", () => {
    const files = {
      '/ws/events.cql': `CREATE TABLE ev.events (id uuid PRIMARY KEY, old_name text, gone int);
ALTER TABLE ev.events RENAME old_name TO new_name;
ALTER TABLE ev.events DROP gone;
CREATE TABLE ev.events_copy LIKE ev.events;`,
      '/ws/later.cql': 'ALTER TABLE ev.events ADD added blob;',
    };
    assert.deepEqual(labels(completeAt('SELECT | FROM ev.events;', files), 'column'), ['id', 'new_name', 'added']);
    assert.deepEqual(labels(completeAt('SELECT | FROM ev.events_copy;', files), 'column'), ['id', 'new_name']);
    // The added column's declaration is the ALTER in the other file: go-to-definition and hover read it.
    const { index } = workspace({ ...files, '/ws/query.cql': 'SELECT added FROM ev.events;' });
    const mention = index.occurrenceAt('/ws/query.cql', 'SELECT a'.length)!;
    assert.equal(index.definitionOf(mention)?.filePath, '/ws/later.cql');
  });

  test('a name that needs quotes is offered quoted', () => {
    const r = completeAt('SELECT * FROM shop.|');
    assert.ok(labels(r).includes('"Products"'));
  });
});

describe('completion: options and keywords', () => {
  test('table options after WITH and AND', () => {
    const r = completeAt('CREATE TABLE t (id uuid PRIMARY KEY) WITH |');
    const options = labels(r, 'option');
    for (const o of ['compaction', 'compression', 'default_time_to_live', 'gc_grace_seconds', 'caching'])
      assert.ok(options.includes(o), o);
    assert.ok(r.items.find((i) => i.label === 'gc_grace_seconds')!.documentation!.includes('tombstones'));
    const and = completeAt('ALTER TABLE shop.orders WITH gc_grace_seconds = 3600 AND |');
    assert.ok(labels(and, 'option').includes('compaction'));
  });

  test('compaction and compression classes inside the class string', () => {
    const r = completeAt("CREATE TABLE t (id uuid PRIMARY KEY) WITH compaction = {'class': 'Lev|'};");
    assert.ok(labels(r, 'class').includes("'LeveledCompactionStrategy'"));
    assert.ok(labels(r, 'class').includes("'UnifiedCompactionStrategy'"));
    assert.ok(!labels(r, 'class').includes("'LZ4Compressor'"));
    const { text } = withCursor("CREATE TABLE t (id uuid PRIMARY KEY) WITH compaction = {'class': 'Lev|'};");
    assert.equal(text.slice(r.replaceStart, r.replaceEnd), "'Lev'");
    const c = completeAt("CREATE TABLE t (id uuid PRIMARY KEY) WITH compression = {'class': |");
    assert.deepEqual(labels(c, 'class').slice(0, 2), ["'LZ4Compressor'", "'ZstdCompressor'"]);
  });

  test('statement keywords at the start of a statement', () => {
    const r = completeAt('SELECT * FROM shop.orders;\n|');
    for (const k of ['SELECT', 'INSERT', 'CREATE', 'ALTER']) assert.ok(labels(r, 'keyword').includes(k), k);
    const lower = completeAt('sel|');
    assert.ok(labels(lower, 'keyword').includes('select'), 'keywords follow the case being typed');
  });

  test('keywords come from the grammar: after CREATE only what may follow CREATE', () => {
    const r = completeAt('CREATE |');
    const kw = labels(r, 'keyword');
    assert.ok(kw.includes('TABLE') && kw.includes('KEYSPACE') && kw.includes('INDEX'), kw.join(','));
    assert.ok(!kw.includes('SELECT') && !kw.includes('WHERE'));
  });

  test('values: functions such as now() after an operator', () => {
    const r = completeAt('INSERT INTO shop.orders (customer_id, order_time) VALUES (uuid(), |');
    const fns = labels(r, 'function');
    assert.ok(fns.includes('now') && fns.includes('toTimestamp'), fns.join(','));
    assert.ok(!fns.includes('count'), 'aggregates only in select lists');
  });

  test('nothing inside comments', () => {
    const r = completeAt('-- SELECT |\nSELECT 1;');
    assert.equal(r.items.length, 0);
  });

  test('inside BEGIN BATCH, the current inner statement is completed', () => {
    const r = completeAt(
      'BEGIN BATCH\n  INSERT INTO shop.orders (customer_id) VALUES (uuid());\n  UPDATE shop.orders SET |',
    );
    assert.deepEqual(labels(r, 'column').sort(), ['note', 'ship_to', 'total']);
  });
});

describe('completion: keywords only where the grammar takes them', () => {
  // Each of these positions used to get a hand-written keyword list (or a keyword was missing from the grammar's).
  test('inside an open BEGIN BATCH only what a batch takes: inner statements and APPLY', () => {
    for (const marked of [
      'BEGIN BATCH |',
      'BEGIN BATCH\n  INSERT INTO shop.orders (customer_id) VALUES (uuid());\n  |',
      'USE shop;\nBEGIN UNLOGGED BATCH\n  INSERT INTO orders (customer_id) VALUES (uuid());\n  UPDATE orders SET total = 1 WHERE customer_id = ?;\n  |',
    ]) {
      const kw = labels(completeAt(marked), 'keyword');
      for (const k of ['INSERT', 'UPDATE', 'DELETE', 'APPLY']) assert.ok(kw.includes(k), `${k} in ${marked}`);
      for (const k of ['SELECT', 'CREATE', 'USE', 'BEGIN']) assert.ok(!kw.includes(k), `no ${k} in ${marked}`);
    }
  });

  test('after APPLY BATCH every statement again', () => {
    const kw = labels(
      completeAt('BEGIN BATCH INSERT INTO shop.orders (customer_id) VALUES (uuid()); APPLY BATCH;\n|'),
      'keyword',
    );
    for (const k of ['SELECT', 'CREATE', 'BEGIN']) assert.ok(kw.includes(k), k);
    assert.ok(!kw.includes('APPLY'));
  });

  test('statement start offers the statements the grammar has, LIST and ADD IDENTITY among them', () => {
    const kw = labels(completeAt('|'), 'keyword');
    for (const k of ['LIST', 'ADD', 'DESC']) assert.ok(kw.includes(k), k);
  });

  test("SET after UPDATE's table and after its USING clause (SET is also a collection type's name)", () => {
    assert.deepEqual(labels(completeAt('UPDATE shop.orders |'), 'keyword').sort(), ['SET', 'USING']);
    assert.ok(labels(completeAt('UPDATE shop.orders USING TTL 60 |'), 'keyword').includes('SET'));
  });
});

describe('completion: which names, as the grammar says', () => {
  test("DROP TYPE and ALTER TYPE take a user type's name: no native or collection types there", () => {
    for (const marked of ['DROP TYPE |', 'ALTER TYPE |', 'DROP TYPE IF EXISTS |']) {
      const types = labels(completeAt(marked), 'type');
      assert.ok(types.includes('address'), marked);
      for (const t of ['int', 'text', 'map', 'frozen']) assert.ok(!types.includes(t), `no ${t} in ${marked}`);
    }
    assert.ok(
      labels(completeAt('CREATE TABLE shop.t (a |'), 'type').includes('int'),
      'a column definition still takes every type',
    );
  });

  test('GRANT ... ON TABLE takes a table, as the grammar says', () => {
    const r = completeAt('GRANT SELECT ON TABLE |');
    assert.ok(labels(r, 'table').includes('shop.orders'), JSON.stringify(labels(r)));
  });
});

describe('completion: statements edited in the middle, the site as the grammar reads it', () => {
  // The cursor sits inside a statement that goes on after it: the grammar reads up to the cursor, the
  // statement's table may come only after it.
  test('a WHERE relation inserted before another: columns of the table, token() among them', () => {
    const r = completeAt('SELECT total FROM shop.orders WHERE | AND order_day = ?;');
    assert.equal(r.context.columnClause, 'where');
    assert.deepEqual(labels(r, 'column').slice(0, 3), ['customer_id', 'order_day', 'order_time']);
    assert.ok(labels(r, 'function').includes('token'));
  });

  test("right of a relation's operator a value: functions, no columns", () => {
    const r = completeAt('SELECT * FROM shop.orders WHERE customer_id = | AND order_day = ?;');
    assert.equal(r.context.site, 'value');
    assert.deepEqual(labels(r, 'column'), []);
    assert.ok(labels(r, 'function').includes('now'));
  });

  test('UPDATE ... SET before its WHERE, DELETE before its FROM, ORDER BY before DESC', () => {
    assert.deepEqual(labels(completeAt('UPDATE shop.orders SET | WHERE customer_id = ?;'), 'column').sort(), [
      'note',
      'ship_to',
      'total',
    ]);
    assert.ok(labels(completeAt('DELETE | FROM shop.orders WHERE customer_id = ?;'), 'column').includes('note'));
    assert.deepEqual(
      labels(
        completeAt('SELECT * FROM shop.orders WHERE customer_id = ? AND order_day = ? ORDER BY | DESC;'),
        'column',
      ),
      ['order_time'],
    );
  });

  test('an INSERT column list and a PRIMARY KEY closed after the cursor skip what is listed', () => {
    const insert = labels(completeAt('INSERT INTO shop.orders (customer_id, |) VALUES (?, ?);'), 'column');
    assert.ok(!insert.includes('customer_id') && insert.includes('order_day'), insert.join(','));
    assert.deepEqual(
      labels(completeAt('CREATE TABLE t (id uuid, name text, at timestamp, PRIMARY KEY ((id), |));'), 'column'),
      ['name', 'at'],
    );
  });

  test('CLUSTERING ORDER BY offers the columns of the table being created; options after its AND', () => {
    assert.deepEqual(
      labels(completeAt('CREATE TABLE t (a int, b int, PRIMARY KEY (a, b)) WITH CLUSTERING ORDER BY (|'), 'column'),
      ['a', 'b'],
    );
    assert.ok(
      labels(
        completeAt('CREATE TABLE t (a int, b int, PRIMARY KEY (a, b)) WITH CLUSTERING ORDER BY (b DESC) AND |'),
        'option',
      ).includes('compaction'),
    );
  });

  test('a syntax error earlier in the statement: the grammar reads it without the bad token', () => {
    for (const marked of [
      'SELECT total,, note FROM shop.orders WHERE |',
      'SELECT * FROM shop.orders WHERE customer_id = = ? AND |',
    ]) {
      const r = completeAt(marked);
      assert.equal(r.context.columnClause, 'where', marked);
      assert.ok(labels(r, 'column').includes('order_day'), marked);
    }
  });

  test('a table of 150 columns (more than the grammar reads at once): types and key columns still', () => {
    const columns = Array.from({ length: 150 }, (_, i) => `c${i} text`).join(', ');
    assert.ok(labels(completeAt(`CREATE TABLE t (${columns}, name |`), 'type').includes('timestamp'));
    const key = labels(completeAt(`CREATE TABLE t (${columns}, PRIMARY KEY ((c1, |`), 'column');
    assert.ok(key.includes('c149') && !key.includes('c1'), key.slice(0, 5).join(','));
  });

  test('where the grammar takes no name (IN, USING TTL) no functions are offered', () => {
    assert.deepEqual(labels(completeAt('SELECT * FROM shop.orders WHERE customer_id IN |'), 'function'), []);
    assert.deepEqual(
      labels(completeAt('INSERT INTO shop.orders (customer_id) VALUES (?) USING TTL |'), 'function'),
      [],
    );
  });
});

describe('completion documentation keeps names as text', () => {
  test('a table, column or type name with markdown in it cannot add a link, an image or HTML', () => {
    const evil = 'x`](http://example.invalid/a) ![i](http://example.invalid/p.png) <img src=x>';
    const q = `"${evil.replace(/"/g, '""')}"`;
    const schema = `CREATE TYPE ks.${q} (${q} text);\nCREATE TABLE ks.${q} (${q} int PRIMARY KEY, v frozen<${q}>);\n`;
    const documented = [
      ...completeAt('SELECT * FROM ks.|', { '/ws/evil.cql': schema }).items,
      ...completeAt(`SELECT | FROM ks.${q};`, { '/ws/evil.cql': schema }).items,
      ...completeAt('CREATE TABLE ks.t2 (a frozen<ks.|', { '/ws/evil.cql': schema }).items,
    ].filter((i) => i.documentation?.includes('example.invalid'));
    assert.ok(documented.length >= 3, `table, column and type documented: ${documented.map((i) => i.kind).join(', ')}`);
    for (const item of documented) {
      const prose = outsideCodeSpans(item.documentation!);
      assert.doesNotMatch(
        prose,
        /(?<!\\)\]\(|(?<!\\)!\[|(?<!\\)<img/,
        `${item.kind} ${item.label}:\n${item.documentation}`,
      );
    }
  });
});
