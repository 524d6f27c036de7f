import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { parseCql } from '../../grammar';
import type { CqlType } from '../../grammar/ast';
import { Project } from '../../server/core/engine/project';
import { stripRanges } from '../../server/core/format/ast-compare';
import { typeText } from '../../server/core/util/cql-type';
import { typeText as editorTypeText } from '../../server/core/editor/cql-text';
import { describeTable } from '../../server/core/editor/table-hover';
import { estimatePartition, rowSizes, rowsToReachBytes } from '../../server/core/partition/sizing';
import { MAIN, ROOT, projectWith } from './helpers';
import { columnNamed, hasColumn } from '../../server/core/schema/model';

describe('schema model', () => {
  test('tables, keys, roles, clustering order, options, keyspaces', () => {
    const p = projectWith(`
CREATE KEYSPACE shop WITH replication = {'class': 'NetworkTopologyStrategy', 'dc1': 3} AND durable_writes = true;
USE shop;
CREATE TABLE carts (user_id uuid, added timestamp, item text, qty int, owner text STATIC,
  PRIMARY KEY ((user_id), added, item)) WITH CLUSTERING ORDER BY (added DESC) AND default_time_to_live = 3600;
CREATE TYPE addr (street text, zip int);
CREATE INDEX carts_item ON carts (item) USING 'sai';
`);
    const t = p.tableFor(MAIN, 'shop.carts')!;
    assert.equal(t.qualifiedName, 'shop.carts');
    assert.deepEqual(
      t.partitionKey.map((c) => c.name),
      ['user_id'],
    );
    assert.deepEqual(
      t.clustering.map((c) => [c.name, c.order]),
      [
        ['added', 'DESC'],
        ['item', 'ASC'],
      ],
    );
    assert.equal(columnNamed(t, 'owner')?.role, 'static');
    assert.equal(columnNamed(t, 'qty')?.role, 'regular');
    assert.equal(t.defaultTtlSeconds, 3600);
    const model = p.schema();
    assert.equal(model.keyspaces.get('shop')?.replicationClass, 'NetworkTopologyStrategy');
    assert.equal(model.keyspaces.get('shop')?.durableWrites, true);
    assert.equal(model.userType('shop', 'addr')?.fields.length, 2);
    assert.deepEqual(
      model.indexesOn(t).map((i) => [i.name, i.column, i.sai]),
      [['carts_item', 'item', true]],
    );
  });

  test('one file defining a table of the same name in two keyspaces defines two tables', () => {
    const p = projectWith(`
CREATE TABLE ks1.events (id uuid PRIMARY KEY, a text);
CREATE TABLE ks2.events (id uuid PRIMARY KEY, b text);
ALTER TABLE ks1.events ADD c int;
SELECT b FROM ks2.events WHERE id = ?;
SELECT b FROM ks1.events WHERE id = ?;
`);
    assert.deepEqual(
      p
        .schema()
        .allTables()
        .map((t) => t.qualifiedName)
        .sort(),
      ['ks1.events', 'ks2.events'],
    );
    assert.deepEqual(
      p.tableFor(MAIN, 'ks1.events')!.columns.map((c) => c.name),
      ['id', 'a', 'c'],
    );
    assert.deepEqual(
      p.tableFor(MAIN, 'ks2.events')!.columns.map((c) => c.name),
      ['id', 'b'],
    );
    // The queries are checked against their own keyspace's table: b is unknown in ks1.events only.
    const line = p
      .getText(MAIN)!
      .split('\n')
      .findIndex((l) => l.startsWith('SELECT b FROM ks1.events'));
    assert.deepEqual(
      p
        .lint(MAIN)
        .filter((f) => f.ruleId === 'unknown-column')
        .map((f) => f.range.start.line),
      [line + 1],
      'lines count from 1',
    );
  });

  test('index lookups: a keyspace sees its own indexes and those naming none, each file its own history first', () => {
    const p = new Project({ config: {} });
    const file = (name: string): string => `/virtual/indexes/${name}.cql`;
    p.setFile(file('a'), 'CREATE TABLE a.t (id int PRIMARY KEY, x int, y int, z int);\nCREATE INDEX ax ON a.t (x);\n');
    p.setFile(file('b'), 'CREATE TABLE b.t (id int PRIMARY KEY, x int, y int, z int);\nCREATE INDEX b_y ON b.t (y);\n');
    p.setFile(file('c'), 'CREATE INDEX tz ON t (z);\n');
    p.setFile(
      file('q'),
      'CREATE INDEX qx ON a.t (x);\nSELECT * FROM a.t WHERE x = 1;\nDROP INDEX a.qx;\nSELECT * FROM a.t WHERE x = 1;\n',
    );
    const model = p.schema();
    const names = (list: readonly { name?: string }[]): (string | undefined)[] => list.map((i) => i.name);
    const a = p.tableFor(file('a'), 'a.t')!;
    const b = p.tableFor(file('b'), 'b.t')!;
    assert.deepEqual(names(model.allIndexesOn(a, 'x')), ['ax']);
    assert.deepEqual(names(model.allIndexesOn(a, 'z')), ['tz']);
    assert.deepEqual(names(model.allIndexesOn(b, 'x')), []);
    assert.deepEqual(names(model.indexesOn(b, file('c'))), ['tz'], 'the querying file first');
    assert.deepEqual(names(model.indexesOn(b)), ['b_y'], "then the table's own file");
    const text = p.getText(file('q'))!;
    const first = text.indexOf('SELECT');
    const second = text.lastIndexOf('SELECT');
    assert.deepEqual(
      names(model.indexesAt(a, file('q'), first)),
      ['qx'],
      "the file's own CREATE INDEX before the query",
    );
    assert.deepEqual(names(model.indexesAt(a, file('q'), second)), [], 'and its DROP INDEX');
    assert.deepEqual(
      names(model.indexesAt(a, file('q'), 0)),
      ['ax', 'tz'],
      "before any of its own: the other files' live ones",
    );
    assert.deepEqual(names(model.indexesAt(b, file('a'), 0)), ['b_y', 'tz']);
  });

  test('DROP TABLE drops the indexes its file created on the table (in its keyspace), as Cassandra does', () => {
    const code =
      'CREATE TABLE ks.t (id int PRIMARY KEY, x int);\nCREATE TABLE other.t (id int PRIMARY KEY, x int);\n' +
      'CREATE INDEX t_x ON ks.t (x);\nCREATE INDEX other_x ON other.t (x);\nSELECT * FROM ks.t WHERE x = 1;\n' +
      'DROP TABLE ks.t;\nCREATE TABLE ks.t (id int PRIMARY KEY, x int);\nSELECT * FROM ks.t WHERE x = 1;\nSELECT * FROM other.t WHERE x = 1;\n';
    const p = projectWith(code);
    const model = p.schema();
    const names = (list: readonly { name?: string }[]): (string | undefined)[] => list.map((i) => i.name);
    const selects = [...code.matchAll(/SELECT/g)].map((m) => m.index);
    const table = p.tableFor(MAIN, 'ks.t', code.length)!;
    assert.deepEqual(names(model.indexesAt(table, MAIN, selects[0]!)), ['t_x'], 'before the DROP TABLE');
    assert.deepEqual(names(model.indexesAt(table, MAIN, selects[1]!)), [], 'the re-created table has no index');
    assert.deepEqual(
      names(model.indexesAt(p.tableFor(MAIN, 'other.t', code.length)!, MAIN, selects[2]!)),
      ['other_x'],
      "another keyspace's table keeps its own",
    );
    const lines = code.split('\n');
    const verdicts = p
      .lint(MAIN)
      .filter((f) => f.ruleId === 'secondary-index-scan' || f.ruleId === 'unrestricted-partition-key')
      .map((f) => `${lines[f.range.start.line - 1]!.slice(0, 18)}${f.range.start.line}: ${f.ruleId}`);
    assert.deepEqual(verdicts, [
      'SELECT * FROM ks.t5: secondary-index-scan',
      'SELECT * FROM ks.t8: unrestricted-partition-key',
      'SELECT * FROM othe9: secondary-index-scan',
    ]);
  });

  test('USE context resolves unqualified names; a different keyspace does not match', () => {
    const code =
      'USE a;\nCREATE TABLE t (id int PRIMARY KEY, x int);\nUSE b;\nCREATE TABLE t (id int PRIMARY KEY, y int);\nSELECT * FROM t;';
    const p = projectWith(code);
    const end = code.length;
    assert.ok(hasColumn(p.tableFor(MAIN, 't', end), 'y'));
    assert.ok(hasColumn(p.tableFor(MAIN, 'a.t', end), 'x'));
    assert.equal(p.tableFor(MAIN, 'c.t', end), undefined);
  });

  test('ALTER and DROP apply in order; queries see the table as it stood', () => {
    const code = [
      'CREATE TABLE ks.t (id int PRIMARY KEY, a int);',
      'ALTER TABLE ks.t ADD b int;',
      'ALTER TABLE ks.t RENAME id TO key;',
      'ALTER TABLE ks.t DROP a;',
      'ALTER TABLE ks.t WITH default_time_to_live = 60;',
      'DROP TABLE ks.t;',
    ].join('\n');
    const p = projectWith(code);
    const at = (i: number) => code.split('\n').slice(0, i).join('\n').length + 1;
    assert.deepEqual(
      p.tableFor(MAIN, 'ks.t', at(1))!.columns.map((c) => c.name),
      ['id', 'a'],
    );
    assert.deepEqual(
      p.tableFor(MAIN, 'ks.t', at(2))!.columns.map((c) => c.name),
      ['id', 'a', 'b'],
    );
    assert.deepEqual(
      p.tableFor(MAIN, 'ks.t', at(4))!.columns.map((c) => c.name),
      ['key', 'b'],
    );
    assert.equal(p.tableFor(MAIN, 'ks.t', at(5))!.defaultTtlSeconds, 60);
    assert.equal(p.tableFor(MAIN, 'ks.t', at(6)), undefined);
  });

  test("a column an ALTER in another file added says where: duplicate-column's related location is there", () => {
    const alters = 'ALTER TABLE ks.t ADD extra int;\n\nALTER TABLE ks.t ADD extra int;\n';
    const p = projectWith('CREATE TABLE ks.t (id int PRIMARY KEY);\n', { 'alters.cql': alters });
    const merged = p.tableFor(`${ROOT}/alters.cql`, 'ks.t');
    assert.equal(columnNamed(merged, 'extra')?.filePath, `${ROOT}/alters.cql`);
    assert.equal(columnNamed(merged, 'id')?.filePath, undefined, "a column of the CREATE is in the table's file");
    const [duplicate] = p.lint(`${ROOT}/alters.cql`).filter((f) => f.ruleId === 'duplicate-column');
    assert.ok(duplicate, 'the second ADD is reported');
    assert.deepEqual(
      duplicate.related?.map((r) => [r.filePath, r.range.start.line, r.range.start.column]),
      [[`${ROOT}/alters.cql`, 1, 22]],
    );
  });

  test('queries in one file resolve against another; the same file is preferred', () => {
    const p = projectWith(
      'SELECT * FROM ks.t;\nCREATE TABLE ks.t (id int PRIMARY KEY, mine int);\nSELECT mine FROM ks.t;',
      {
        'a.cql': 'CREATE TABLE ks.t (id int PRIMARY KEY, theirs int);',
        'b.cql': 'SELECT theirs FROM ks.t;',
      },
    );
    assert.ok(hasColumn(p.tableFor(`${ROOT}/b.cql`, 'ks.t'), 'theirs'));
    assert.ok(hasColumn(p.tableFor(MAIN, 'ks.t'), 'mine'));
    // Before the local definition: the file's own definition still wins over the other file's.
    assert.ok(hasColumn(p.tableFor(MAIN, 'ks.t', 0), 'mine'));
    assert.deepEqual(
      p.lint(`${ROOT}/b.cql`).filter((f) => f.ruleId === 'unknown-column'),
      [],
    );
  });

  test('a column in any of several workspace definitions is not unknown', () => {
    const p = projectWith('SELECT a, b FROM ks.t WHERE id = 1;', {
      'one.cql': 'CREATE TABLE ks.t (id int PRIMARY KEY, a int);',
      'two.cql': 'CREATE TABLE ks.t (id int PRIMARY KEY, b int);',
    });
    assert.deepEqual(
      p.lint(MAIN).filter((f) => f.ruleId === 'unknown-column'),
      [],
    );
  });

  test('ALTER in another file adds columns to the workspace table', () => {
    const p = projectWith('SELECT extra FROM ks.t WHERE id = 1;', {
      'a.cql': 'CREATE TABLE ks.t (id int PRIMARY KEY);',
      'b.cql': 'ALTER TABLE ks.t ADD extra text;',
    });
    assert.deepEqual(
      p.lint(MAIN).filter((f) => f.ruleId === 'unknown-column'),
      [],
    );
  });

  test('materialized views take column types from their base, in any file', () => {
    const p = projectWith(
      'CREATE MATERIALIZED VIEW ks.by_email AS SELECT * FROM ks.users WHERE email IS NOT NULL AND id IS NOT NULL PRIMARY KEY (email, id);',
      {
        'users.cql': 'CREATE TABLE ks.users (id uuid PRIMARY KEY, email text, name text);',
      },
    );
    const v = p.tableFor(MAIN, 'ks.by_email')!;
    assert.equal(v.kind, 'view');
    assert.equal(columnNamed(v, 'name')?.typeText, 'text');
    assert.deepEqual(
      v.partitionKey.map((c) => c.name),
      ['email'],
    );
    assert.deepEqual(
      v.clustering.map((c) => c.name),
      ['id'],
    );
  });

  test('@shard comment directly above CREATE TABLE', () => {
    const p = projectWith(
      '-- books by day\n-- @shard shard = murmur3(title) % 16 + 1\nCREATE TABLE ks.b (d date, shard int, title text, PRIMARY KEY ((d, shard), title));\n\n-- @shard s = random(4)\n\nCREATE TABLE ks.c (d date, s int, PRIMARY KEY ((d, s)));',
    );
    const b = p.tableFor(MAIN, 'ks.b')!;
    assert.deepEqual(
      { c: b.shard?.shardColumn, n: b.shard?.count, m: b.shard?.method, src: b.shard?.sources, o: b.shard?.offset },
      { c: 'shard', n: 16, m: 'murmur3', src: ['title'], o: 1 },
    );
    assert.equal(p.tableFor(MAIN, 'ks.c')!.shard, undefined, 'a blank line separates the comment from the table');
  });

  test('typeText writes CQL that parses back to the same type: quoted UDT names, custom type strings', () => {
    const typeOf = (written: string): CqlType => {
      const parsed = parseCql(`CREATE TABLE t (c ${written} PRIMARY KEY);`);
      assert.deepEqual(parsed.errors, [], written);
      const stmt = parsed.statements[0]!;
      assert.equal(stmt.kind, 'CreateTable');
      return (stmt as Extract<typeof stmt, { kind: 'CreateTable' }>).columns[0]!.type;
    };
    const cases: [written: string, text: string][] = [
      ['frozen<"My Type">', 'frozen<"My Type">'],
      ['frozen<"Shop"."My Type">', 'frozen<"Shop"."My Type">'],
      ['map<text, frozen<"select">>', 'map<text, frozen<"select">>'],
      [
        "'org.apache.cassandra.db.marshal.DynamicCompositeType(s=>UTF8Type)'",
        "'org.apache.cassandra.db.marshal.DynamicCompositeType(s=>UTF8Type)'",
      ],
      ["'com.example.O''Brien'", "'com.example.O''Brien'"],
      ['vector<float, 3>', 'vector<float, 3>'],
    ];
    for (const [written, text] of cases) {
      const type = typeOf(written);
      assert.equal(typeText(type), text, written);
      assert.deepEqual(stripRanges(typeOf(typeText(type))), stripRanges(type), `${text} parses back to the same type`);
    }
    assert.equal(
      typeText(typeOf('frozen<My_Type>')),
      'frozen<my_type>',
      'an unquoted name means its lower-case spelling',
    );
    assert.equal(typeText(undefined), '?');
    assert.equal(editorTypeText, typeText, 'editors print types with the same function');
  });

  test('column typeText quotes UDT names that need it', () => {
    const p = projectWith(
      'CREATE TYPE ks."My Type" (a int);\nCREATE TABLE ks.t (id int PRIMARY KEY, m frozen<"My Type">, c \'org.example.It\'\'s\');',
    );
    const t = p.tableFor(MAIN, 'ks.t')!;
    assert.equal(columnNamed(t, 'm')?.typeText, 'frozen<"My Type">');
    assert.equal(columnNamed(t, 'c')?.typeText, "'org.example.It''s'");
  });

  test('dependents: files using a table the file defines', () => {
    const p = new Project({ config: {} });
    p.setFile('/w/schema.cql', 'CREATE TABLE ks.t (id int PRIMARY KEY);');
    p.setFile('/w/q1.cql', 'SELECT * FROM ks.t WHERE id = 1;');
    p.setFile('/w/q2.cql', 'SELECT * FROM ks.other;');
    assert.deepEqual(p.dependents('/w/schema.cql'), ['/w/q1.cql']);
    p.setFile('/w/schema.cql', 'CREATE TABLE ks.u (id int PRIMARY KEY);');
    assert.deepEqual(p.dependents('/w/schema.cql'), ['/w/q1.cql'], 'a table it no longer defines still counts');
    assert.deepEqual(p.dependents('/w/q2.cql'), []);
  });

  test('Project file bookkeeping', () => {
    const p = new Project({ config: {} });
    p.setFile('/w/a.cql', 'SELECT 1 FROM ks.t;');
    assert.ok(p.hasFile('/w/a.cql'));
    assert.deepEqual(p.files(), ['/w/a.cql']);
    assert.equal(p.getText('/w/a.cql'), 'SELECT 1 FROM ks.t;');
    const first = p.parse('/w/a.cql');
    assert.equal(p.parse('/w/a.cql'), first, 'parse is cached per text');
    p.removeFile('/w/a.cql');
    assert.equal(p.hasFile('/w/a.cql'), false);
    assert.deepEqual(p.lint('/w/a.cql'), []);
  });
});

describe('sizing', () => {
  const p = projectWith(
    'CREATE TABLE ks.r (sensor uuid, day date, ts timestamp, v double, note text, s int STATIC, PRIMARY KEY ((sensor, day), ts));',
  );
  const t = p.tableFor(MAIN, 'ks.r')!;

  test('the Cassandra guide formula', () => {
    const est = estimatePartition(t, 1000);
    // Nc = 6, Npk = 3, Ns = 1: Nv = 1000 × 2 + 1
    assert.equal(est.values, 2001);
    // St = pk (16 + 4) + static 4 + 1000 × (ts 8 + v 8 + note 32) + 2001 × 8
    assert.equal(est.bytes, 20 + 4 + 1000 * 48 + 2001 * 8);
    const hinted = estimatePartition(t, 10, { columnSizes: { note: 1000 } });
    assert.equal(hinted.bytes, 20 + 4 + 10 * (8 + 8 + 1000) + 21 * 8);
  });

  test('rows to reach a limit', () => {
    const sizes = rowSizes(t);
    const rows = rowsToReachBytes(sizes, 100 * 1024 * 1024);
    assert.ok(estimatePartition(t, rows).bytes >= 100 * 1024 * 1024);
    assert.ok(estimatePartition(t, rows - 1).bytes < 100 * 1024 * 1024);
  });

  test('describeTable shows key, columns, row size and limits', () => {
    const md = describeTable(t, 'cassandra');
    assert.match(md, /\*\*Table `ks\.r`\*\*/);
    assert.match(md, /Primary key: `\(\(sensor, day\), ts\)`/);
    assert.match(md, /\| note \| `text` \| {2}\| 32 \|/);
    assert.match(md, /\| \[100 MB per partition\]\(https:[^)]+\) \| [\d,]+ \|/);
    const ks = describeTable(t, 'keyspaces', { writesPerSecondPerPartition: 3000 });
    assert.match(ks, /1 MB per row/);
    assert.match(ks, /Writes: 3,000\/s per partition ≈ 3,000 WCU of 1,000 WCU per partition — needs 3 shards/);
  });
});
