// The workspace reference index (server/core/schema/references.ts, Project.referencesTo): what one file's
// references say, how names resolve to tables, and that the index kept up to date across edits, file
// creation, deletion and renames always equals a fresh build. Rules that read it are re-run when its
// answer changes, and only then.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { relative } from 'node:path';
import { parseCql } from '../../grammar';
import { Project } from '../../server/core/engine/project';
import { buildFileReferences, type TableReference } from '../../server/core/schema/references';
import { allRules } from '../../server/core/rules';
import type { RuleModule } from '../../server/core/rules/types';
import { mulberry32 as random } from '../helpers/random';
import { corpusDir, corpusFiles, readText } from '../helpers/corpus';

const ROOT = '/virtual/references';

/** A reference as plain data: positions as offsets, the rest as is. */
function plain(r: TableReference): unknown {
  return { ...r, range: [r.range.start, r.range.end] };
}

/** Every table's references, keyed by where the table is defined: the whole index as the Project answers it. */
function dump(project: Project): Map<string, unknown[]> {
  const out = new Map<string, unknown[]>();
  for (const table of project.schema().allTables()) {
    const key = `${table.qualifiedName} @ ${table.filePath}:${table.range.start}`;
    out.set(key, project.referencesTo(table).map(plain));
  }
  return out;
}

function fresh(files: Map<string, string>): Project {
  const project = new Project({ config: {} });
  for (const [path, text] of files) project.setFile(path, text);
  return project;
}

function assertSameIndex(project: Project, files: Map<string, string>, message: string): void {
  const expected = fresh(files);
  assert.deepEqual(dump(project), dump(expected), message);
  for (const path of files.keys()) {
    assert.deepEqual(
      project.fileReferences(path).map(plain),
      expected.fileReferences(path).map(plain),
      `${message}: ${path}`,
    );
  }
}

describe('file references', () => {
  test('columns pinned and ranged, LIMIT, ALLOW FILTERING, TTL, USE and batch members', () => {
    const text = [
      'USE shop;',
      "SELECT * FROM orders WHERE customer_id = ? AND day IN ('a', 'b') AND ts > ? AND ts <= ? LIMIT 50 ALLOW FILTERING;",
      'SELECT * FROM other.orders WHERE token(customer_id) > ? AND (a, b) = (1, 2) LIMIT ?;',
      'INSERT INTO orders (customer_id, day, ts) VALUES (?, ?, ?) USING TTL 86400 AND TIMESTAMP 5;',
      'UPDATE orders USING TTL ? SET total = 1 WHERE customer_id = ? AND day = ?;',
      "DELETE FROM orders WHERE customer_id = ? AND ts >= '2024-01-01';",
      'BEGIN BATCH',
      '  INSERT INTO shop.items (id) VALUES (1);',
      '  UPDATE items USING TTL 60 SET n = 1 WHERE id = 2;',
      'APPLY BATCH;',
      'CREATE TABLE t (id int PRIMARY KEY);',
      '',
    ].join('\n');
    const refs = buildFileReferences('/f.cql', parseCql(text));
    const summary = refs.map((r) => ({
      kind: r.kind,
      table: r.table,
      pinned: r.pinned,
      ranged: r.ranged,
      limit: r.limit,
      allowFiltering: r.allowFiltering,
      ttl: r.ttlSeconds,
      text: text.slice(r.range.start, r.range.end).split(' ').slice(0, 3).join(' '),
    }));
    assert.deepEqual(summary, [
      {
        kind: 'Select',
        table: 'shop.orders',
        pinned: ['customer_id', 'day'],
        ranged: ['ts'],
        limit: 50,
        allowFiltering: true,
        ttl: undefined,
        text: 'SELECT * FROM',
      },
      {
        kind: 'Select',
        table: 'other.orders',
        pinned: ['a', 'b'],
        ranged: ['customer_id'],
        limit: undefined,
        allowFiltering: false,
        ttl: undefined,
        text: 'SELECT * FROM',
      },
      {
        kind: 'Insert',
        table: 'shop.orders',
        pinned: ['customer_id', 'day', 'ts'],
        ranged: [],
        limit: undefined,
        allowFiltering: false,
        ttl: 86400,
        text: 'INSERT INTO orders',
      },
      {
        kind: 'Update',
        table: 'shop.orders',
        pinned: ['customer_id', 'day'],
        ranged: [],
        limit: undefined,
        allowFiltering: false,
        ttl: undefined,
        text: 'UPDATE orders USING',
      },
      {
        kind: 'Delete',
        table: 'shop.orders',
        pinned: ['customer_id'],
        ranged: ['ts'],
        limit: undefined,
        allowFiltering: false,
        ttl: undefined,
        text: 'DELETE FROM orders',
      },
      {
        kind: 'Insert',
        table: 'shop.items',
        pinned: ['id'],
        ranged: [],
        limit: undefined,
        allowFiltering: false,
        ttl: undefined,
        text: 'INSERT INTO shop.items',
      },
      {
        kind: 'Update',
        table: 'shop.items',
        pinned: ['id'],
        ranged: [],
        limit: undefined,
        allowFiltering: false,
        ttl: 60,
        text: 'UPDATE items USING',
      },
    ]);
    assert.ok(refs.every((r) => r.file === '/f.cql'));
  });

  test('references share one frozen list per column list, exactly as written', () => {
    const text = [
      'SELECT * FROM ks.a WHERE id = 1;',
      'SELECT * FROM ks.b WHERE id = 2;',
      'SELECT * FROM ks.a WHERE "a\u0000b" = 1;',
      'SELECT * FROM ks.a WHERE a = 1 AND b = 2;',
      'UPDATE ks.a SET v = 1 WHERE id = 3;',
      '',
    ].join('\n');
    const [one, two, nul, pair, update] = buildFileReferences(`${ROOT}/lists.cql`, parseCql(text));
    assert.deepEqual(one!.pinned, ['id']);
    assert.equal(one!.pinned, two!.pinned, 'one list for the same columns');
    assert.equal(one!.pinned, update!.pinned);
    assert.equal(one!.ranged, two!.ranged, 'one empty list');
    assert.ok(Object.isFrozen(one!.pinned) && Object.isFrozen(one!.ranged), 'shared lists cannot be changed');
    assert.deepEqual(nul!.pinned, ['a\u0000b']);
    assert.deepEqual(pair!.pinned, ['a', 'b']);
  });

  test('a file without USE keeps bare names', () => {
    const [ref] = buildFileReferences('/f.cql', parseCql('SELECT * FROM t WHERE id = 1;'));
    assert.equal(ref!.table, 't');
  });
});

describe('referencesTo', () => {
  test('resolves names where they stand: keyspaces, USE, ALTERed tables, same-file definitions', () => {
    const project = new Project({ config: {} });
    project.setFile(
      `${ROOT}/schema.cql`,
      'CREATE TABLE ks.users (id uuid PRIMARY KEY, email text);\nALTER TABLE ks.users ADD country text;\n',
    );
    project.setFile(`${ROOT}/schema-other.cql`, 'CREATE TABLE other.users (id uuid PRIMARY KEY);\n');
    project.setFile(
      `${ROOT}/a.cql`,
      'USE ks;\nSELECT * FROM users WHERE email = ?;\nSELECT * FROM other.users WHERE id = ?;\n',
    );
    project.setFile(`${ROOT}/b.cql`, 'UPDATE ks.users SET email = ? WHERE id = ?;\n');
    // z-b2 defines its own, different ks.users: its query resolves to that; the other files resolve to the first in file order.
    project.setFile(
      `${ROOT}/z-b2.cql`,
      'CREATE TABLE ks.users (id uuid PRIMARY KEY, nick text);\nSELECT * FROM ks.users WHERE nick = ?;\n',
    );
    const ksUsers = project
      .schema()
      .allTables()
      .find((t) => t.filePath === `${ROOT}/schema.cql`);
    const otherUsers = project
      .schema()
      .allTables()
      .find((t) => t.qualifiedName === 'other.users');
    const where = (refs: readonly TableReference[]) =>
      refs.map((r) => `${relative(ROOT, r.file)}:${r.kind}:${r.pinned.join(',')}`);
    assert.deepEqual(where(project.referencesTo(ksUsers!)), ['a.cql:Select:email', 'b.cql:Update:id']);
    assert.deepEqual(where(project.referencesTo(otherUsers!)), ['a.cql:Select:id']);
    // The ALTERed state of the table is the same table.
    assert.deepEqual(where(project.referencesTo(project.tableFor(`${ROOT}/schema.cql`, 'ks.users')!)), [
      'a.cql:Select:email',
      'b.cql:Update:id',
    ]);
    const own = project
      .schema()
      .allTables()
      .find((t) => t.filePath === `${ROOT}/z-b2.cql`)!;
    assert.deepEqual(where(project.referencesTo(own)), ['z-b2.cql:Select:nick']);
  });

  test('copies of one definition in several files all get the references', () => {
    const project = new Project({ config: {} });
    const ddl = 'CREATE TABLE ks.t (id int PRIMARY KEY, v text);\n';
    project.setFile(`${ROOT}/v1.cql`, ddl);
    project.setFile(`${ROOT}/v2.cql`, ddl);
    project.setFile(`${ROOT}/q.cql`, 'SELECT * FROM ks.t WHERE id = 1;\n');
    const tables = project.schema().allTables();
    assert.equal(tables.length, 2);
    for (const table of tables)
      assert.deepEqual(
        project.referencesTo(table).map((r) => r.file),
        [`${ROOT}/q.cql`],
      );
  });

  test('the answer is kept while nothing it depends on changes, and follows edits', () => {
    const project = new Project({ config: {} });
    project.setFile(`${ROOT}/s.cql`, 'CREATE TABLE ks.t (id int PRIMARY KEY, v text);\n');
    project.setFile(`${ROOT}/q.cql`, 'SELECT * FROM ks.t WHERE id = 1;\n');
    const table = project.schema().allTables()[0]!;
    const first = project.referencesTo(table);
    assert.equal(project.referencesTo(table), first, 'the same answer object while nothing changed');
    project.setFile(`${ROOT}/q.cql`, 'SELECT * FROM ks.t WHERE v = ? ALLOW FILTERING;\n');
    assert.deepEqual(
      project.referencesTo(table).map((r) => r.pinned),
      [['v']],
    );
    project.removeFile(`${ROOT}/q.cql`);
    assert.deepEqual(project.referencesTo(table), []);
  });

  test('an edit keeps the reference objects of the statements it did not touch, unless the USE above them changed', () => {
    const project = new Project({ config: {} });
    const path = `${ROOT}/edit.cql`;
    const batch = 'BEGIN BATCH INSERT INTO t (id) VALUES (1); UPDATE ks.t SET v = 1 WHERE id = 2; APPLY BATCH;\n';
    const text = `USE ks;\nSELECT * FROM t WHERE id = 1;\n${batch}SELECT * FROM ks.t WHERE id = 5;\nSELECT * FROM t WHERE id = 3;\n`;
    project.setFile(path, text);
    const before = project.fileReferences(path);
    assert.equal(before.length, 5);
    project.setFile(path, text.replace('id = 3', 'id = 4'));
    const after = project.fileReferences(path);
    assert.deepEqual(after.slice(0, 4), before.slice(0, 4), 'the statements before the edit keep their references');
    for (let i = 0; i < 4; i++) assert.equal(after[i], before[i], `reference ${i} is the same object`);
    assert.notEqual(after[4], before[4], 'the edited statement has a new reference');
    assert.deepEqual(after[4]!.pinned, ['id']);
    // A USE changed above them: the statements without a keyspace now read another keyspace's table.
    project.setFile(path, text.replace('id = 3', 'id = 4').replace('USE ks;', 'USE other;'));
    const moved = project.fileReferences(path);
    assert.deepEqual(
      moved.map((r) => r.table),
      ['other.t', 'other.t', 'ks.t', 'ks.t', 'other.t'],
    );
    assert.equal(moved[3], before[3], 'a statement naming its keyspace keeps its reference');
  });

  test('after a block of statements is removed or added, the statements the parse kept keep their reference objects', () => {
    const project = new Project({ config: {} });
    const path = `${ROOT}/blocks.cql`;
    const block = Array.from({ length: 40 }, (_, i) => `SELECT * FROM ks.a WHERE id = ${i};\n`).join('');
    const tail = Array.from({ length: 5 }, (_, i) => `SELECT * FROM ks.b WHERE id = ${i};\n`).join('');
    /** How many references of `after` belong to a statement kept from `before` (the same range object); each must be the same object. */
    const keptSame = (before: readonly TableReference[], after: readonly TableReference[]): number => {
      const byRange = new Map(before.map((r) => [r.range, r]));
      let kept = 0;
      for (const r of after) {
        const old = byRange.get(r.range);
        if (!old) continue;
        assert.equal(r, old, `the reference at ${r.range.start} is the kept statement's`);
        kept++;
      }
      return kept;
    };
    project.setFile(path, `SELECT * FROM ks.c WHERE id = 1;\n${block}${tail}`);
    const before = project.fileReferences(path);
    project.setFile(path, `SELECT * FROM ks.c WHERE id = 1;\n${tail}`);
    const removed = project.fileReferences(path);
    assert.deepEqual(
      removed.map((r) => r.name),
      ['c', 'b', 'b', 'b', 'b', 'b'],
    );
    assert.ok(keptSame(before, removed) >= 5, 'the statements after the removed block are kept');
    project.setFile(path, `SELECT * FROM ks.c WHERE id = 1;\n${block}${tail}`);
    const added = project.fileReferences(path);
    assert.equal(added.length, 46);
    assert.ok(keptSame(removed, added) >= 5, 'the statements after the added block are kept');
    assert.deepEqual(
      added.map(plain),
      fresh(new Map([[path, `SELECT * FROM ks.c WHERE id = 1;\n${block}${tail}`]]))
        .fileReferences(path)
        .map(plain),
    );
  });

  test("after forgetLookups the answers are made again from the index, and lints follow later edits as a fresh Project's do", () => {
    const files: Record<string, string> = {
      [`${ROOT}/s.cql`]: 'CREATE TABLE ks.events (source text, at timestamp, v text, PRIMARY KEY (source, at));\n',
      [`${ROOT}/q.cql`]: 'INSERT INTO ks.events (source, at, v) VALUES (?, ?, ?);\n',
    };
    const project = new Project({ config: {} });
    for (const [file, text] of Object.entries(files)) project.setFile(file, text);
    const table = project.schema().allTables()[0]!;
    const before = project.referencesTo(table);
    const lint = project.lint(`${ROOT}/s.cql`);
    project.forgetLookups();
    assert.deepEqual(project.referencesTo(table), before);
    assert.deepEqual(project.lint(`${ROOT}/s.cql`), lint);
    files[`${ROOT}/q.cql`] = 'INSERT INTO ks.events (source, at, v) VALUES (?, ?, ?) USING TTL 86400;\n';
    project.setFile(`${ROOT}/q.cql`, files[`${ROOT}/q.cql`]!);
    project.forgetLookups();
    const fresh = new Project({ config: {} });
    for (const [file, text] of Object.entries(files)) fresh.setFile(file, text);
    const now = project.lint(`${ROOT}/s.cql`);
    assert.deepEqual(now, fresh.lint(`${ROOT}/s.cql`));
    assert.notDeepEqual(
      now.map((f) => f.ruleId),
      lint.map((f) => f.ruleId),
      'the TTL on every write changes the verdict',
    );
  });

  test('a copy with references of its own gets them merged with its copy class, in order, however many copies were asked about since', () => {
    const project = new Project({ config: {} });
    const copies = 2100; // more than the merged answers the index keeps
    const file = (i: number): string => `${ROOT}/m${String(i).padStart(4, '0')}.cql`;
    for (let i = 0; i < copies; i++)
      project.setFile(file(i), 'CREATE TABLE ks.t (id int PRIMARY KEY, v text);\nSELECT * FROM ks.t WHERE id = 1;\n');
    project.setFile(`${ROOT}/a.cql`, 'SELECT * FROM ks.t WHERE v = ? ALLOW FILTERING;\n');
    project.setFile(`${ROOT}/z.cql`, 'UPDATE ks.t SET v = ? WHERE id = ?;\n');
    const tables = project.schema().allTables();
    assert.equal(tables.length, copies);
    const expected = (i: number): string[] => [`${ROOT}/a.cql`, file(i), `${ROOT}/z.cql`];
    const first = project.referencesTo(tables[0]!);
    assert.deepEqual(
      first.map((r) => r.file),
      expected(0),
    );
    assert.equal(project.referencesTo(tables[0]!), first, 'the same answer object when asked again');
    for (let i = 1; i < copies; i++)
      assert.deepEqual(
        project.referencesTo(tables[i]!).map((r) => r.file),
        expected(i),
      );
    const again = project.referencesTo(tables[0]!);
    assert.deepEqual(again, first, 'made again with the same references');
    assert.equal(project.referencesTo(tables[0]!), again);
  });
});

// Snippets random edits insert: reads and writes on the schema's tables, USE changes, DDL.
const SNIPPETS = [
  'SELECT * FROM ks.users WHERE email = ?;\n',
  'SELECT * FROM users WHERE id IN (1, 2) LIMIT 10;\n',
  'USE ks;\n',
  'USE other;\n',
  'INSERT INTO ks.readings (sensor_id, ts, value) VALUES (?, ?, ?) USING TTL 3600;\n',
  'UPDATE ks.readings SET value = 1 WHERE sensor_id = ? AND ts > ?;\n',
  'DELETE FROM ks.books WHERE publish_date = ? AND shard = 1;\n',
  'CREATE TABLE ks.users (id uuid PRIMARY KEY, email text);\n',
  'DROP TABLE ks.users;\n',
  'ALTER TABLE ks.readings ADD unit text;\n',
  'BEGIN BATCH INSERT INTO ks.users (id) VALUES (1); UPDATE ks.books SET x = 1 WHERE title = ?; APPLY BATCH;\n',
  "'",
  '(',
  ';',
  ' ',
  '\n',
  'x',
  '--',
  '/*',
  '*/',
  ' WHERE ',
  ' AND id = 3',
  ' LIMIT 5',
  ',',
  'ks.',
];

const SCHEMA = `CREATE KEYSPACE ks WITH replication = {'class': 'NetworkTopologyStrategy', 'dc1': 3};
USE ks;
CREATE TABLE ks.readings (sensor_id uuid, ts timestamp, value double, PRIMARY KEY (sensor_id, ts));
CREATE TABLE ks.users (id uuid PRIMARY KEY, email text, country text);
CREATE TABLE ks.books (publish_date date, shard int, title text, PRIMARY KEY ((publish_date, shard), title));
CREATE TABLE other.accounts (id uuid PRIMARY KEY);
`;
const QUERIES = `USE ks;
SELECT * FROM readings WHERE sensor_id = ? AND ts >= ? LIMIT 100;
SELECT * FROM users WHERE country = 'fr' ALLOW FILTERING;
INSERT INTO books (publish_date, shard, title) VALUES ('2024-01-01', 3, 'x');
SELECT * FROM other.accounts WHERE id = ?;
SELECT * FROM accounts WHERE id = ?;
`;

function randomEdit(text: string, next: () => number): { text: string; what: string } {
  const at = Math.floor(next() * (text.length + 1));
  const choice = Math.floor(next() * 4);
  if (choice === 0 || choice === 1) {
    const s = SNIPPETS[Math.floor(next() * SNIPPETS.length)]!;
    return { text: text.slice(0, at) + s + text.slice(at), what: `insert ${JSON.stringify(s)} at ${at}` };
  }
  if (choice === 2) {
    const n = 1 + Math.floor(next() * 20);
    return { text: text.slice(0, at) + text.slice(at + n), what: `delete ${n} chars at ${at}` };
  }
  const lines = text.split('\n');
  const i = Math.floor(next() * lines.length);
  lines.splice(i, 1);
  return { text: lines.join('\n'), what: `delete line ${i + 1}` };
}

/** One random step on the workspace: edit a file, create one, delete one or rename one. */
function randomStep(files: Map<string, string>, project: Project, next: () => number, created: { n: number }): string {
  const paths = [...files.keys()];
  const roll = next();
  if (roll < 0.1 || paths.length === 0) {
    const path = `${ROOT}/new-${created.n++}.cql`;
    const text = SNIPPETS.slice(0, 11)[Math.floor(next() * 11)]! + QUERIES;
    files.set(path, text);
    project.setFile(path, text);
    return `create ${path}`;
  }
  const path = paths[Math.floor(next() * paths.length)]!;
  if (roll < 0.17) {
    files.delete(path);
    project.removeFile(path);
    return `delete ${path}`;
  }
  if (roll < 0.24) {
    const to = `${ROOT}/renamed-${created.n++}.cql`;
    const text = files.get(path)!;
    files.delete(path);
    project.removeFile(path);
    files.set(to, text);
    project.setFile(to, text);
    return `rename ${path} to ${to}`;
  }
  const edit = randomEdit(files.get(path)!, next);
  files.set(path, edit.text);
  project.setFile(path, edit.text);
  return `${path}: ${edit.what}`;
}

for (const seed of [11, 12, 13, 14]) {
  test(`the index equals a fresh build over random edits, creations, deletions and renames (seed ${seed})`, () => {
    const next = random(seed);
    const files = new Map<string, string>([
      [`${ROOT}/schema.cql`, SCHEMA],
      [`${ROOT}/queries.cql`, QUERIES],
      [`${ROOT}/more.cql`, QUERIES.replace(/USE ks;\n/, '')],
    ]);
    const project = fresh(files);
    const history: string[] = [];
    const created = { n: 0 };
    for (let step = 0; step < 80; step++) {
      history.push(randomStep(files, project, next, created));
      // Look up only now and then: several changes then accumulate before the index catches up.
      if (step % 3 === 0) assertSameIndex(project, files, `seed ${seed}, step ${step}\n${history.join('\n')}`);
    }
    assertSameIndex(project, files, `seed ${seed}, end\n${history.join('\n')}`);
  });
}

test('on the corpus, the index equals a fresh build across edits, deletions and re-creations', () => {
  const next = random(21);
  const files = new Map<string, string>();
  for (const path of [...corpusFiles('killrvideo'), ...corpusFiles('cassandra-docs')]) files.set(path, readText(path));
  const project = fresh(files);
  assert.ok(dump(project).size > 20, 'the corpus defines tables');
  assert.ok(
    [...dump(project).values()].some((refs) => refs.length > 0),
    'and queries them',
  );
  const history: string[] = [];
  const removed = new Map<string, string>();
  for (let step = 0; step < 40; step++) {
    const paths = [...files.keys()];
    const path = paths[Math.floor(next() * paths.length)]!;
    const roll = next();
    if (roll < 0.15) {
      removed.set(path, files.get(path)!);
      files.delete(path);
      project.removeFile(path);
      history.push(`delete ${relative(corpusDir, path)}`);
    } else if (roll < 0.3 && removed.size) {
      const [back, text] = [...removed][Math.floor(next() * removed.size)]!;
      removed.delete(back);
      files.set(back, text);
      project.setFile(back, text);
      history.push(`re-create ${relative(corpusDir, back)}`);
    } else {
      const edit = randomEdit(files.get(path)!, next);
      files.set(path, edit.text);
      project.setFile(path, edit.text);
      history.push(`${relative(corpusDir, path)}: ${edit.what}`);
    }
    if (step % 4 === 0) assertSameIndex(project, files, `step ${step}\n${history.join('\n')}`);
  }
  assertSameIndex(project, files, `end\n${history.join('\n')}`);
});

describe('rules that read the index', () => {
  // A statement-scoped probe rule: on each CREATE TABLE, the columns the workspace's reads pin.
  const probe: RuleModule = {
    meta: {
      id: 'references-probe',
      defaultSeverity: 'info',
      description: 'test probe',
      messages: { pinned: '{{count}} references; pinned: {{pinned}}' },
      scope: 'statement',
    },
    check(ctx) {
      for (const stmt of ctx.parse.statements) {
        if (stmt.kind !== 'CreateTable') continue;
        const table = ctx.definedBy(stmt);
        if (!table) continue;
        const refs = ctx.referencesTo(table);
        ctx.report({
          messageId: 'pinned',
          values: { count: refs.length, pinned: refs.map((r) => r.pinned.join('+')).join(' ') },
          range: stmt.name.range,
          related: refs.map((r) => ({ filePath: r.file, range: r.range, message: r.kind })),
        });
      }
    },
  };
  before(() => allRules.push(probe));
  after(() => allRules.splice(allRules.indexOf(probe), 1));

  const probeFindings = (project: Project, path: string): unknown =>
    JSON.parse(JSON.stringify(project.lint(path).filter((f) => f.ruleId === probe.meta.id)));

  test('a cached statement result is recomputed when the references it read change', () => {
    const project = new Project({ config: {} });
    const schema = `${ROOT}/s.cql`;
    const queries = `${ROOT}/q.cql`;
    project.setFile(
      schema,
      'CREATE TABLE ks.t (id int PRIMARY KEY, v text);\nCREATE TABLE ks.u (id int PRIMARY KEY);\n',
    );
    project.setFile(queries, 'SELECT * FROM ks.t WHERE id = 1;\n');
    const messages = () =>
      project
        .lint(schema)
        .filter((f) => f.ruleId === probe.meta.id)
        .map((f) => f.message);
    assert.deepEqual(messages(), ['1 references; pinned: id', '0 references; pinned: ']);
    assert.deepEqual(
      project.dependents(queries),
      [schema],
      'the schema file read the references of a table the queries use',
    );
    project.setFile(queries, 'SELECT * FROM ks.t WHERE id = 1;\nUPDATE ks.t SET v = ? WHERE id = 2;\n');
    assert.deepEqual(messages(), ['2 references; pinned: id id', '0 references; pinned: ']);
    project.setFile(queries, '\n\nSELECT * FROM ks.t WHERE id = 1;\n');
    const moved = project.lint(schema).find((f) => f.ruleId === probe.meta.id)!;
    assert.equal(moved.related![0]!.range.start.line, 3, 'a moved reference is reported where it now is');
  });

  for (const seed of [31, 32, 33]) {
    test(`incremental lint with the probe equals a fresh Project (seed ${seed})`, () => {
      const next = random(seed);
      const files = new Map<string, string>([
        [`${ROOT}/schema.cql`, SCHEMA],
        [`${ROOT}/queries.cql`, QUERIES],
      ]);
      const project = fresh(files);
      for (const path of files.keys()) project.lint(path);
      const history: string[] = [];
      const created = { n: 0 };
      for (let step = 0; step < 50; step++) {
        history.push(randomStep(files, project, next, created));
        const expected = fresh(files);
        for (const path of files.keys()) {
          assert.deepEqual(
            probeFindings(project, path),
            probeFindings(expected, path),
            `seed ${seed}, step ${step}, ${path}\n${history.join('\n')}`,
          );
        }
      }
    });
  }
});
