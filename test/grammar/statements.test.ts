// AST shapes for every statement kind, with exact source ranges.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { parseCql } from '../../grammar';
import type * as A from '../../grammar/ast';
import { LineIndex } from '../../grammar/line-index';

function one<K extends A.StatementKind>(text: string, kind: K): Extract<A.Statement, { kind: K }> {
  const result = parseCql(text);
  assert.deepEqual(result.errors, [], `unexpected errors for ${text}`);
  assert.equal(result.statements.length, 1);
  assert.equal(result.statements[0].kind, kind);
  return result.statements[0] as Extract<A.Statement, { kind: K }>;
}

function slice(text: string, range: A.SourceRange): string {
  return text.slice(range.start, range.end);
}

describe('DDL', () => {
  test('CREATE KEYSPACE with map and constant options', () => {
    const text =
      "CREATE KEYSPACE IF NOT EXISTS Cycling WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1} AND durable_writes = false;";
    const s = one(text, 'CreateKeyspace');
    assert.equal(s.name.name, 'cycling');
    assert.equal(s.name.text, 'Cycling');
    assert.equal(s.ifNotExists, true);
    assert.deepEqual(
      s.properties.map((p) => p.name.name),
      ['replication', 'durable_writes'],
    );
    assert.equal(s.properties[0].value.kind, 'MapLiteral');
    assert.equal(s.terminated, true);
    assert.equal(slice(text, s.range), text);
  });

  test('ALTER and DROP KEYSPACE, USE', () => {
    assert.equal(one('ALTER KEYSPACE IF EXISTS ks WITH durable_writes = true;', 'AlterKeyspace').ifExists, true);
    assert.equal(one('DROP KEYSPACE ks', 'DropKeyspace').terminated, false);
    assert.equal(one('DROP SCHEMA IF EXISTS ks;', 'DropKeyspace').ifExists, true);
    const use = one('USE "MyKs";', 'Use');
    assert.deepEqual([use.keyspace.name, use.keyspace.quoted], ['MyKs', true]);
  });

  test('CREATE TABLE with clause primary key, options and exact ranges', () => {
    const text = [
      'CREATE TABLE IF NOT EXISTS ks.events (',
      '  server text,',
      '  log_hour timestamp,',
      '  log_time timeuuid,',
      '  tags set<text> STATIC,',
      '  email text MASKED WITH mask_inner(2, null),',
      '  PRIMARY KEY ((server, log_hour), log_time),',
      ") WITH CLUSTERING ORDER BY (log_time DESC) AND comment = 'x' AND COMPACT STORAGE;",
    ].join('\n');
    const s = one(text, 'CreateTable');
    assert.equal(s.name.keyspace?.name, 'ks');
    assert.equal(s.name.name.name, 'events');
    assert.deepEqual(
      s.columns.map((c) => c.name.name),
      ['server', 'log_hour', 'log_time', 'tags', 'email'],
    );
    assert.equal(s.columns[3].isStatic, true);
    assert.equal(s.columns[3].type.kind, 'CollectionType');
    assert.equal(s.columns[4].mask?.function?.name.name.name, 'mask_inner');
    const pk = s.primaryKey!;
    assert.equal(pk.form, 'clause');
    assert.deepEqual(
      pk.partitionKey.map((i) => i.name),
      ['server', 'log_hour'],
    );
    assert.deepEqual(
      pk.clustering.map((i) => i.name),
      ['log_time'],
    );
    assert.equal(pk.partitionKeyParenthesised, true);
    assert.equal(slice(text, pk.partitionKeyRange!), '(server, log_hour)');
    assert.equal(slice(text, pk.range), 'PRIMARY KEY ((server, log_hour), log_time)');
    assert.deepEqual(new LineIndex(text).location(pk.range.start), {
      offset: text.indexOf('PRIMARY'),
      line: 7,
      column: 3,
    });
    assert.equal(s.options?.clusteringOrder[0].direction, 'DESC');
    assert.equal(slice(text, s.options!.clusteringOrderRange!), 'CLUSTERING ORDER BY (log_time DESC)');
    assert.equal(s.options?.compactStorage, true);
    assert.equal(s.options?.properties[0].name.name, 'comment');
    assert.ok(slice(text, s.bodyRange!).startsWith('(') && slice(text, s.bodyRange!).endsWith(')'));
    assert.equal(slice(text, s.columns[1].type.range), 'timestamp');
  });

  test('inline primary key, COLUMNFAMILY, LIKE', () => {
    const text = 'CREATE COLUMNFAMILY t (id uuid PRIMARY KEY, v int)';
    const s = one(text, 'CreateTable');
    assert.equal(s.columnFamily, true);
    assert.equal(s.primaryKey?.form, 'inline');
    assert.deepEqual(
      s.primaryKey?.partitionKey.map((i) => i.name),
      ['id'],
    );
    assert.equal(slice(text, s.primaryKey!.range), 'PRIMARY KEY');
    assert.equal(s.columns[0].inlinePrimaryKey, true);
    const like = one('CREATE TABLE t2 LIKE ks.t1;', 'CreateTable');
    assert.equal(like.like?.name.name, 't1');
    assert.equal(like.primaryKey, undefined);
  });

  test('all types', () => {
    const s = one(
      "CREATE TABLE t (k int PRIMARY KEY, a vector<float, 3>, b frozen<ks.addr>, c map<text, frozen<list<int>>>, d tuple<int, text>, e 'org.x.Custom', f set<date>, g duration)",
      'CreateTable',
    );
    const [, a, b, c, d, e] = s.columns.map((col) => col.type);
    assert.deepEqual(a.kind === 'VectorType' && [a.dimension, a.elementType.kind], [3, 'NativeType']);
    assert.ok(b.kind === 'FrozenType' && b.inner.kind === 'UserType' && b.inner.name.keyspace?.name === 'ks');
    assert.ok(c.kind === 'CollectionType' && c.collection === 'map' && c.elementTypes[1].kind === 'FrozenType');
    assert.ok(d.kind === 'TupleType' && d.elementTypes.length === 2);
    assert.ok(e.kind === 'CustomType' && e.className === 'org.x.Custom');
  });

  test('unreserved keywords as names; reserved ones need quotes', () => {
    const s = one(
      'CREATE TABLE t (key text, type int, ttl int, timestamp timestamp, date date, user text, "select" int, PRIMARY KEY (key))',
      'CreateTable',
    );
    assert.deepEqual(
      s.columns.map((c) => c.name.name),
      ['key', 'type', 'ttl', 'timestamp', 'date', 'user', 'select'],
    );
    assert.ok(parseCql('CREATE TABLE t (select int PRIMARY KEY)').errors.length > 0);
  });

  test('ALTER TABLE actions', () => {
    const add = one('ALTER TABLE t ADD IF NOT EXISTS (a int STATIC, b text MASKED WITH DEFAULT)', 'AlterTable').action;
    assert.ok(
      add.kind === 'AddColumns' &&
        add.ifNotExists &&
        add.columns.length === 2 &&
        add.columns[0].isStatic &&
        add.columns[1].mask?.isDefault,
    );
    const drop = one('ALTER TABLE IF EXISTS t DROP IF EXISTS (a, b) USING TIMESTAMP 1', 'AlterTable');
    assert.ok(
      drop.ifExists &&
        drop.action.kind === 'DropColumns' &&
        drop.action.ifExists &&
        drop.action.columns.length === 2 &&
        drop.action.timestamp,
    );
    const rename = one('ALTER TABLE t RENAME a TO b AND c TO d', 'AlterTable').action;
    assert.ok(rename.kind === 'RenameColumns' && rename.renames[1].to.name === 'd');
    const type = one('ALTER TABLE t ALTER c TYPE blob', 'AlterTable').action;
    assert.ok(type.kind === 'AlterColumnType' && type.type.kind === 'NativeType');
    const mask = one('ALTER TABLE t ALTER IF EXISTS c MASKED WITH mask_null()', 'AlterTable').action;
    assert.ok(mask.kind === 'AlterColumnMask' && mask.ifExists && !mask.dropMask && mask.mask?.function);
    const unmask = one('ALTER TABLE t ALTER c DROP MASKED', 'AlterTable').action;
    assert.ok(unmask.kind === 'AlterColumnMask' && unmask.dropMask);
    const withOptions = one("ALTER TABLE t WITH comment = 'x' AND gc_grace_seconds = 0", 'AlterTable').action;
    assert.ok(withOptions.kind === 'WithOptions' && withOptions.options.properties.length === 2);
    assert.equal(one('ALTER TABLE t DROP COMPACT STORAGE', 'AlterTable').action.kind, 'DropCompactStorage');
    assert.equal(one('ALTER TABLE t DROP compact', 'AlterTable').action.kind, 'DropColumns');
  });

  test('DROP TABLE, TRUNCATE', () => {
    assert.equal(one('DROP TABLE IF EXISTS ks.t;', 'DropTable').name.keyspace?.name, 'ks');
    assert.equal(one('TRUNCATE TABLE ks.t;', 'Truncate').name.name.name, 't');
    assert.equal(one('TRUNCATE t', 'Truncate').name.name.name, 't');
  });

  test('types: CREATE / ALTER / DROP TYPE', () => {
    const s = one('CREATE TYPE IF NOT EXISTS ks.address (street text, zip int,);', 'CreateType');
    assert.deepEqual(
      s.fields.map((f) => f.name.name),
      ['street', 'zip'],
    );
    const add = one('ALTER TYPE ks.address ADD IF NOT EXISTS country text', 'AlterType').action;
    assert.ok(add.kind === 'AddField' && add.ifNotExists && add.field.name.name === 'country');
    const rename = one('ALTER TYPE IF EXISTS address RENAME IF EXISTS zip TO postcode AND street TO road', 'AlterType');
    assert.ok(
      rename.ifExists &&
        rename.action.kind === 'RenameFields' &&
        rename.action.ifExists &&
        rename.action.renames.length === 2,
    );
    const alter = one('ALTER TYPE address ALTER zip TYPE bigint', 'AlterType').action;
    assert.ok(alter.kind === 'AlterFieldType' && alter.field.name === 'zip');
    assert.equal(one('DROP TYPE IF EXISTS address', 'DropType').ifExists, true);
  });

  test('indexes', () => {
    const s = one(
      "CREATE CUSTOM INDEX IF NOT EXISTS idx ON ks.t (ENTRIES(m)) USING 'sai' WITH OPTIONS = {'case_sensitive': false}",
      'CreateIndex',
    );
    assert.ok(s.custom && s.ifNotExists);
    assert.equal(s.name?.name, 'idx');
    assert.equal(s.using, 'sai');
    assert.deepEqual(
      s.targets.map((t) => [t.indexKind, t.column.name]),
      [['entries', 'm']],
    );
    assert.equal(s.properties[0].name.name, 'options');
    const kinds = one('CREATE INDEX ON t (KEYS(a), VALUES(b), FULL(c), d)', 'CreateIndex').targets.map(
      (t) => t.indexKind,
    );
    assert.deepEqual(kinds, ['keys', 'values', 'full', 'simple']);
    assert.equal(one('DROP INDEX IF EXISTS ks.idx', 'DropIndex').name.keyspace?.name, 'ks');
  });

  test('materialized views', () => {
    const s = one(
      "CREATE MATERIALIZED VIEW IF NOT EXISTS ks.v AS SELECT a, b FROM ks.t WHERE a IS NOT NULL AND b IS NOT NULL PRIMARY KEY ((b), a) WITH CLUSTERING ORDER BY (a DESC) AND comment = 'c'",
      'CreateMaterializedView',
    );
    assert.deepEqual(
      s.selectors.map((x) => (x.expression.kind === 'ColumnRef' ? x.expression.name.name : '')),
      ['a', 'b'],
    );
    assert.equal(s.from.name.name, 't');
    assert.deepEqual(
      s.where.map((r) => r.operator),
      ['IS NOT NULL', 'IS NOT NULL'],
    );
    assert.deepEqual(
      s.primaryKey?.partitionKey.map((i) => i.name),
      ['b'],
    );
    assert.equal(s.options?.clusteringOrder[0].column.name, 'a');
    assert.equal(
      one('CREATE MATERIALIZED VIEW v AS SELECT * FROM t WHERE a IS NOT NULL PRIMARY KEY (a)', 'CreateMaterializedView')
        .star,
      true,
    );
    assert.equal(
      one("ALTER MATERIALIZED VIEW v WITH comment = 'x'", 'AlterMaterializedView').options.properties.length,
      1,
    );
    assert.equal(one('DROP MATERIALIZED VIEW IF EXISTS v', 'DropMaterializedView').ifExists, true);
  });

  test('functions, aggregates, triggers', () => {
    const f = one(
      'CREATE OR REPLACE FUNCTION ks.f (a int, b text) CALLED ON NULL INPUT RETURNS int LANGUAGE java AS $$ return a; $$;',
      'CreateFunction',
    );
    assert.ok(f.orReplace && f.calledOnNullInput);
    assert.deepEqual(
      f.arguments.map((a) => a.name.name),
      ['a', 'b'],
    );
    assert.equal(f.body.value, ' return a; ');
    assert.equal(f.language.name, 'java');
    assert.equal(
      one(
        "CREATE FUNCTION IF NOT EXISTS f () RETURNS NULL ON NULL INPUT RETURNS int LANGUAGE java AS 'return 1;'",
        'CreateFunction',
      ).calledOnNullInput,
      false,
    );
    const agg = one(
      'CREATE AGGREGATE ks.avg (int) SFUNC avg_state STYPE tuple<int, bigint> FINALFUNC avg_final INITCOND (0, 0)',
      'CreateAggregate',
    );
    assert.equal(agg.stateFunction.name.name, 'avg_state');
    assert.equal(agg.finalFunction?.name.name, 'avg_final');
    assert.equal(agg.initialCondition?.kind, 'TupleExpression');
    assert.equal(one('DROP FUNCTION IF EXISTS f(int, text)', 'DropFunction').argumentTypes?.length, 2);
    assert.equal(one('DROP AGGREGATE agg', 'DropAggregate').argumentTypes, undefined);
    assert.equal(
      one("CREATE TRIGGER IF NOT EXISTS tr ON ks.t USING 'org.x.T'", 'CreateTrigger').using.value,
      'org.x.T',
    );
    assert.equal(one('DROP TRIGGER tr ON t', 'DropTrigger').name.name, 'tr');
  });
});

describe('DML', () => {
  test('SELECT with every clause', () => {
    const text =
      "SELECT DISTINCT a AS x, count(*), writetime(b), CAST(c AS text), m['k'], l[1..2], u.f, a + 1 * 2 FROM ks.t " +
      'WHERE token(a) > token(?) AND (b, c) IN ((1, 2), (3, 4)) AND d IN ? AND e CONTAINS KEY 1 AND f NOT IN (1) ' +
      "AND g LIKE 'x%' AND h BETWEEN 1 AND 5 AND m['k'] = :v GROUP BY a, floor(b, 1h) ORDER BY c DESC, d ANN OF [1.0, 2.0] " +
      'PER PARTITION LIMIT 2 LIMIT ? ALLOW FILTERING;';
    const s = one(text, 'Select');
    assert.ok(s.distinct && !s.json && !s.star);
    assert.equal(s.selectors[0].alias?.name, 'x');
    const count = s.selectors[1].expression;
    assert.ok(count.kind === 'FunctionCall' && count.star && count.args[0].kind === 'StarExpression');
    assert.equal(s.selectors[3].expression.kind, 'CastExpression');
    assert.equal(s.selectors[4].expression.kind, 'ElementAccess');
    assert.equal(s.selectors[5].expression.kind, 'SliceAccess');
    assert.equal(s.selectors[6].expression.kind, 'FieldAccess');
    const arith = s.selectors[7].expression;
    assert.ok(
      arith.kind === 'BinaryExpression' &&
        arith.operator === '+' &&
        arith.right.kind === 'BinaryExpression' &&
        arith.right.operator === '*',
    );
    assert.deepEqual(
      s.where.map((r) => r.operator),
      ['>', 'IN', 'IN', 'CONTAINS KEY', 'NOT IN', 'LIKE', 'BETWEEN', '='],
    );
    assert.equal(s.where[0].left.kind, 'FunctionCall');
    assert.ok(
      s.where[1].left.kind === 'TupleExpression' && s.where[1].inList === true && s.where[1].right.length === 2,
    );
    assert.ok(s.where[2].inList === false && s.where[2].right[0].kind === 'BindMarker');
    assert.equal(s.where[6].right.length, 2);
    assert.equal(s.where[7].left.kind, 'ElementAccess');
    assert.deepEqual(
      s.groupBy.map((g) => g.name),
      ['a'],
    );
    assert.equal(s.groupByExpressions?.length, 2);
    assert.equal(s.orderBy[0].direction, 'DESC');
    assert.equal(s.orderBy[1].annOf?.kind, 'ListLiteral');
    assert.ok(s.perPartitionLimit && s.limit?.kind === 'BindMarker' && s.allowFiltering);
    assert.equal(slice(text, s.allowFilteringRange!), 'ALLOW FILTERING');
    assert.ok(slice(text, s.whereRange!).startsWith('WHERE token(a)'));
  });

  test("ScyllaDB's BYPASS CACHE and USING TIMEOUT, in SELECT and in the writes' USING", () => {
    const text = 'SELECT * FROM ks.t WHERE k = 1 LIMIT 10 ALLOW FILTERING BYPASS CACHE USING TIMEOUT 500ms;';
    const s = one(text, 'Select');
    assert.equal(slice(text, s.bypassCacheRange!), 'BYPASS CACHE');
    assert.deepEqual(
      s.using?.map((u) => [u.option, slice(text, u.range), u.value.kind]),
      [['TIMEOUT', 'TIMEOUT 500ms', 'Literal']],
    );
    assert.equal(one('SELECT a FROM t BYPASS CACHE', 'Select').using, undefined);
    assert.equal(one('SELECT a FROM t USING TIMEOUT ?', 'Select').using?.[0]?.value.kind, 'BindMarker');
    // Without them a SELECT keeps its shape: neither field is there.
    assert.ok(
      !('bypassCacheRange' in one('SELECT a FROM t WHERE k = 1', 'Select')) &&
        !('using' in one('SELECT a FROM t', 'Select')),
    );
    const insert = one('INSERT INTO t (a) VALUES (1) USING TTL 5 AND TIMEOUT 1s', 'Insert');
    assert.deepEqual(
      insert.using.map((u) => u.option),
      ['TTL', 'TIMEOUT'],
    );
    assert.deepEqual(
      one('UPDATE t USING TIMEOUT :t SET a = 1 WHERE k = 1', 'Update').using.map((u) => u.option),
      ['TIMEOUT'],
    );
    assert.deepEqual(
      one('DELETE FROM t USING TIMEOUT 2s AND TIMESTAMP 3 WHERE k = 1', 'Delete').using.map((u) => u.option),
      ['TIMEOUT', 'TIMESTAMP'],
    );
    assert.deepEqual(
      one('BEGIN BATCH USING TIMEOUT 1s INSERT INTO t (a) VALUES (1); APPLY BATCH', 'Batch').using.map((u) => u.option),
      ['TIMEOUT'],
    );
    // The clause order of ScyllaDB's grammar: BYPASS CACHE after ALLOW FILTERING, USING TIMEOUT last; a duration only.
    for (const wrong of [
      'SELECT a FROM t BYPASS CACHE ALLOW FILTERING',
      'SELECT a FROM t USING TIMEOUT 1s BYPASS CACHE',
      'SELECT a FROM t USING TIMEOUT 5',
      'SELECT a FROM t BYPASS',
      'SELECT a FROM t USING TTL 5',
    ]) {
      assert.equal(parseCql(wrong).errors.length, 1, wrong);
    }
    // The words stay names.
    const names = one('SELECT bypass, cache, timeout FROM t WHERE timeout = 1', 'Select');
    assert.deepEqual(
      names.selectors.map((x) => x.expression.kind === 'ColumnRef' && x.expression.name.name),
      ['bypass', 'cache', 'timeout'],
    );
  });

  test('SELECT JSON *, json and distinct as column names, type hints', () => {
    const s = one('SELECT JSON * FROM t', 'Select');
    assert.ok(s.json && s.star);
    const cols = one('SELECT json, distinct FROM t', 'Select');
    assert.ok(!cols.json && !cols.distinct && cols.selectors.length === 2);
    const hint = one("SELECT (int) ?, (text) 'a' FROM t", 'Select').selectors[0].expression;
    assert.ok(hint.kind === 'TypeHint' && hint.type.kind === 'NativeType');
  });

  test('INSERT VALUES and JSON', () => {
    const text =
      "INSERT INTO ks.t (a, b, c) VALUES (1, 'x''y', {k: 1, 'm': 2}) IF NOT EXISTS USING TTL 86400 AND TIMESTAMP 123;";
    const s = one(text, 'Insert');
    assert.deepEqual(
      s.columns.map((c) => c.name),
      ['a', 'b', 'c'],
    );
    assert.equal(slice(text, s.columnsRange!), '(a, b, c)');
    assert.ok(s.values[1].kind === 'Literal' && s.values[1].value === "x'y");
    assert.equal(s.values[2].kind, 'MapLiteral');
    assert.ok(s.ifNotExists);
    assert.deepEqual(
      s.using.map((u) => u.option),
      ['TTL', 'TIMESTAMP'],
    );
    const json = one('INSERT INTO t JSON \'{"a": 1}\' DEFAULT UNSET', 'Insert');
    assert.ok(json.json?.kind === 'Literal' && json.jsonDefault === 'UNSET' && json.columns.length === 0);
    const udt = one("INSERT INTO t (a) VALUES ({street: 'x', zip: 1})", 'Insert').values[0];
    assert.ok(udt.kind === 'UdtLiteral' && udt.fields[1].name.name === 'zip');
  });

  test('UPDATE and DELETE', () => {
    const u = one(
      "UPDATE t USING TTL 5 SET a = a + 1, l = [1] + l, s -= {2}, m['x'] = 1, u.f = 2 WHERE k = 1 IF a = 2 AND b CONTAINS 3",
      'Update',
    );
    assert.deepEqual(
      u.assignments.map((a) => [a.target.kind, a.operator]),
      [
        ['ColumnRef', '='],
        ['ColumnRef', '='],
        ['ColumnRef', '-='],
        ['ElementAccess', '='],
        ['FieldAccess', '='],
      ],
    );
    assert.equal(u.assignments[0].value.kind, 'BinaryExpression');
    assert.deepEqual(
      u.conditions.map((c) => c.operator),
      ['=', 'CONTAINS'],
    );
    assert.equal(one('UPDATE t SET a = 1 WHERE k = 1 IF EXISTS', 'Update').ifExists, true);
    const d = one("DELETE a, m['k'], u.f FROM t USING TIMESTAMP 5 WHERE k = 1 IF EXISTS", 'Delete');
    assert.deepEqual(
      d.selections.map((x) => x.kind),
      ['ColumnRef', 'ElementAccess', 'FieldAccess'],
    );
    assert.ok(d.ifExists && d.using[0].option === 'TIMESTAMP');
    assert.equal(one('DELETE FROM t WHERE k = 1', 'Delete').selections.length, 0);
  });

  test('BATCH', () => {
    const text =
      'BEGIN UNLOGGED BATCH USING TIMESTAMP 5\n  INSERT INTO t (a) VALUES (1);\n  UPDATE t SET a = 2 WHERE b = 1\n  DELETE FROM t WHERE b = 2;\nAPPLY BATCH;';
    const s = one(text, 'Batch');
    assert.equal(s.batchType, 'UNLOGGED');
    assert.deepEqual(
      s.statements.map((x) => [x.kind, x.terminated]),
      [
        ['Insert', true],
        ['Update', false],
        ['Delete', true],
      ],
    );
    assert.equal(slice(text, s.statements[0].range), 'INSERT INTO t (a) VALUES (1);');
    assert.equal(
      one('BEGIN COUNTER BATCH UPDATE t SET c = c + 1 WHERE k = 1; APPLY BATCH', 'Batch').batchType,
      'COUNTER',
    );
    assert.equal(one('BEGIN BATCH APPLY BATCH;', 'Batch').batchType, 'LOGGED');
  });
});

describe('other statements', () => {
  const cases: [string, string, string[]][] = [
    [
      "CREATE ROLE IF NOT EXISTS alice WITH PASSWORD = 'x' AND LOGIN = true AND ACCESS TO DATACENTERS {'dc1'} AND ACCESS FROM ALL CIDRS",
      'CREATE ROLE',
      ['alice'],
    ],
    ["ALTER ROLE bob WITH HASHED PASSWORD = 'h' AND OPTIONS = {'a': 1}", 'ALTER ROLE', ['bob']],
    ['DROP ROLE IF EXISTS bob', 'DROP ROLE', ['bob']],
    ["CREATE USER u WITH PASSWORD 'p' SUPERUSER", 'CREATE USER', ['u']],
    ['ALTER USER u WITH GENERATED PASSWORD NOSUPERUSER', 'ALTER USER', ['u']],
    ['DROP USER IF EXISTS u', 'DROP USER', ['u']],
    ['LIST ROLES OF alice NORECURSIVE', 'LIST ROLES', ['alice']],
    ['LIST USERS', 'LIST USERS', []],
    ['LIST ALL PERMISSIONS ON ks.t OF alice', 'LIST PERMISSIONS', ['ks.t', 'alice']],
    ['GRANT SELECT, MODIFY ON KEYSPACE ks TO alice', 'GRANT', ['ks', 'alice']],
    ['GRANT UNMASK ON TABLE ks.t TO r', 'GRANT', ['ks.t', 'r']],
    ['GRANT SELECT_MASKED ON ALL KEYSPACES TO r', 'GRANT', ['r']],
    ['GRANT EXECUTE ON FUNCTION ks.f(int) TO r', 'GRANT', ['ks.f', 'r']],
    ["GRANT DESCRIBE ON MBEAN 'org.x:type=y' TO r", 'GRANT', ['r']],
    ['REVOKE ALL ON ALL FUNCTIONS IN KEYSPACE ks FROM r', 'REVOKE', ['ks', 'r']],
    ['GRANT alice TO bob', 'GRANT', ['alice', 'bob']],
    ['REVOKE alice FROM bob', 'REVOKE', ['alice', 'bob']],
    ["ADD IDENTITY IF NOT EXISTS 'spiffe://x' TO ROLE alice", 'ADD IDENTITY', ['spiffe://x', 'alice']],
    ["DROP IDENTITY IF EXISTS 'spiffe://x'", 'DROP IDENTITY', ['spiffe://x']],
    ['DESCRIBE FULL SCHEMA', 'DESCRIBE FULL SCHEMA', []],
    ['DESC KEYSPACES', 'DESCRIBE KEYSPACES', []],
    ['DESCRIBE ONLY KEYSPACE ks WITH INTERNALS', 'DESCRIBE ONLY KEYSPACE', ['ks']],
    ['DESCRIBE TABLE ks.t', 'DESCRIBE TABLE', ['ks.t']],
    ['DESCRIBE MATERIALIZED VIEW ks.v', 'DESCRIBE MATERIALIZED VIEW', ['ks.v']],
    ['DESCRIBE TYPE ks.ty', 'DESCRIBE TYPE', ['ks.ty']],
    ['DESCRIBE FUNCTIONS', 'DESCRIBE FUNCTIONS', []],
    ['DESCRIBE ks.t', 'DESCRIBE', ['ks.t']],
  ];
  for (const [text, type, names] of cases) {
    test(text, () => {
      const s = one(text, 'Other');
      assert.equal(s.statementType, type);
      assert.deepEqual(
        s.names.map((n) =>
          n.kind === 'QualifiedName' ? (n.keyspace ? `${n.keyspace.name}.` : '') + n.name.name : n.name,
        ),
        names,
      );
    });
  }
});

describe('cqlsh commands', () => {
  test('line-based commands without ;', () => {
    const text =
      "SOURCE 'schema.cql'\nCONSISTENCY QUORUM\nSERIAL CONSISTENCY LOCAL_SERIAL\nEXPAND ON\nCAPTURE OFF;\nSELECT * FROM t;\nexit";
    const r = parseCql(text);
    assert.deepEqual(r.errors, []);
    assert.deepEqual(
      r.statements.map((s) => (s.kind === 'ShellCommand' ? `${s.command}|${s.argument}|${s.terminated}` : s.kind)),
      [
        "SOURCE|'schema.cql'|false",
        'CONSISTENCY|QUORUM|false',
        'SERIAL CONSISTENCY|LOCAL_SERIAL|false',
        'EXPAND|ON|false',
        'CAPTURE|OFF|true',
        'Select',
        'EXIT||false',
      ],
    );
  });
  test('COPY spans lines until ;', () => {
    const r = parseCql("COPY ks.t (a, b)\nFROM 'data.csv'\nWITH DELIMITER = '|' AND HEADER = TRUE;\nSELECT * FROM t;");
    assert.deepEqual(r.errors, []);
    const copy = r.statements[0];
    assert.ok(
      copy.kind === 'ShellCommand' && copy.command === 'COPY' && copy.argument.includes("WITH DELIMITER = '|'"),
    );
    assert.equal(r.statements[1].kind, 'Select');
  });
});
