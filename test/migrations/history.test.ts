// Migration folders as history (docs/migrations.md): which folders are migrations, in what order their
// files apply, and what each statement meets of the schema at its point of the history.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Project } from '../../server/core/engine/project';
import { findMigrationFolders, migrationName, nextMigrationName } from '../../server/core/schema/migrations';
import { ROOT, ofRule, summary } from '../analysis/helpers';

function project(files: Record<string, string>, config = {}): Project {
  const p = new Project({ config });
  for (const [rel, text] of Object.entries(files)) p.setFile(`${ROOT}/${rel}`, text);
  return p;
}

describe('migration folders', () => {
  test('the naming conventions are recognised and ordered numerically', () => {
    const files = ['v10_c.cql', 'v2_b.cql', 'v1_a.cql'].map((f) => `/m/${f}`);
    assert.deepEqual(findMigrationFolders(files)[0]!.files, ['/m/v1_a.cql', '/m/v2_b.cql', '/m/v10_c.cql']);
    assert.deepEqual(
      findMigrationFolders(['/f/V3_1__x.cql', '/f/V3__a.cql', '/f/V10__z.cql', '/f/V4__b.cql'])[0]!.files,
      ['/f/V3__a.cql', '/f/V3_1__x.cql', '/f/V4__b.cql', '/f/V10__z.cql'],
    );
    assert.equal(migrationName('20240101120000_add.cql')?.convention, 'timestamp');
    assert.equal(migrationName('1700000000_add.cql')?.convention, 'timestamp');
    assert.equal(migrationName('0001-init.cql')?.convention, 'numbered');
    assert.equal(migrationName('v001_init.cql')?.convention, 'cassandra-migrate');
    assert.equal(migrationName('V3__add_index.cql')?.convention, 'flyway');
    assert.equal(migrationName('schema.cql'), undefined);
    assert.equal(
      migrationName('0001.cql'),
      undefined,
      'a bare number names no migration (the bench workspace names its files so)',
    );
  });

  test('a folder is one when all its .cql files share a convention (one file is enough in a folder named for migrations)', () => {
    assert.equal(findMigrationFolders(['/a/v1_x.cql', '/a/schema.cql']).length, 0, 'a mixed folder is not one');
    assert.equal(findMigrationFolders(['/a/v1_x.cql', '/a/002_y.cql']).length, 0, 'two conventions are not one');
    assert.equal(findMigrationFolders(['/a/v1_x.cql']).length, 0, 'one file in a folder of any name');
    assert.equal(findMigrationFolders(['/db/migrations/v1_x.cql']).length, 1);
    assert.equal(
      findMigrationFolders(['/a/v1_x.cql', '/a/v2_y.cql', '/a/App.java']).length,
      1,
      'other files do not count',
    );
  });

  test('the setting names the folders and turns detection off', () => {
    const files = ['/w/schema/a.cql', '/w/schema/b2.cql', '/w/schema/b10.cql', '/w/m/v1_x.cql', '/w/m/v2_x.cql'];
    const named = findMigrationFolders(files, (dir) => dir === '/w/schema');
    assert.deepEqual(
      named.map((f) => [f.dir, f.convention, f.files]),
      [['/w/schema', 'configured', ['/w/schema/a.cql', '/w/schema/b2.cql', '/w/schema/b10.cql']]],
    );
    assert.equal(findMigrationFolders(files, () => false).length, 0);
    const p = project(
      { 'm/v1_x.cql': 'CREATE TABLE ks.t (id int PRIMARY KEY);', 'm/v2_x.cql': 'SELECT * FROM ks.t;' },
      { migrations: false },
    );
    assert.equal(p.migrationFolders().length, 0);
    const q = project({ 'm/v1_x.cql': '', 'm/v2_x.cql': '' }, { migrations: [`${ROOT}/m/`] });
    assert.equal(q.migrationFolders()[0]?.convention, 'cassandra-migrate');
  });

  test("the next file follows the folder's convention and padding", () => {
    const at = new Date(Date.UTC(2025, 0, 2, 3, 4, 5));
    const next = (files: string[]) =>
      nextMigrationName(findMigrationFolders(files.map((f) => `/db/migrations/${f}`))[0]!, 'bucket events', at);
    assert.equal(next(['v001_a.cql', 'v002_b.cql']), '/db/migrations/v003_bucket_events.cql');
    assert.equal(next(['v9_a.cql']), '/db/migrations/v10_bucket_events.cql');
    assert.equal(next(['V1__a.cql', 'V3_1__b.cql']), '/db/migrations/V4__bucket_events.cql');
    assert.equal(next(['0001-a.cql']), '/db/migrations/0002-bucket_events.cql');
    assert.equal(next(['20240101120000_a.cql']), '/db/migrations/20250102030405_bucket_events.cql');
    assert.equal(
      next(['20990101120000_a.cql']),
      '/db/migrations/20990101120001_bucket_events.cql',
      'never before the last',
    );
    assert.equal(next(['1700000000_a.cql']), `/db/migrations/${Math.floor(at.getTime() / 1000)}_bucket_events.cql`);
  });
});

describe('the schema at each point of the history', () => {
  const files = {
    'migrations/v001_create.cql':
      'CREATE TABLE ks.events (id int PRIMARY KEY, body text);\nSELECT body FROM ks.events WHERE id = 1;',
    'migrations/v002_query.cql': 'SELECT kind FROM ks.events WHERE id = 1;',
    'migrations/v003_add.cql': 'ALTER TABLE ks.events ADD kind text;\nSELECT kind FROM ks.events WHERE id = 1;',
    'migrations/v004_drop.cql': 'ALTER TABLE ks.events DROP body;\nSELECT body FROM ks.events WHERE id = 1;',
    'migrations/v010_recreate.cql':
      "SELECT kind FROM ks.events WHERE id = 1;\nDROP TABLE ks.events;\nCREATE TABLE ks.events (day date, id int, note text, PRIMARY KEY (day, id));\nSELECT note FROM ks.events WHERE day = '2024-01-01';",
    'app.cql': "SELECT note FROM ks.events WHERE day = '2024-01-01';",
  };
  const p = project(files);
  const unknown = (rel: string) => ofRule(p.lint(`${ROOT}/${rel}`), 'unknown-column').map((f) => f.data?.['column']);

  test('a column is known from the migration that adds it on, and unknown after the one that drops it', () => {
    assert.deepEqual(unknown('migrations/v001_create.cql'), []);
    assert.deepEqual(unknown('migrations/v002_query.cql'), ['kind'], 'v002 runs before v003 adds kind');
    assert.deepEqual(unknown('migrations/v003_add.cql'), []);
    assert.deepEqual(unknown('migrations/v004_drop.cql'), ['body']);
    assert.deepEqual(
      unknown('migrations/v010_recreate.cql'),
      [],
      summary(p.lint(`${ROOT}/migrations/v010_recreate.cql`)),
    );
  });

  test('the workspace schema is the state after the last migration (v10 after v4, numerically)', () => {
    const table = p.tableFor(`${ROOT}/app.cql`, 'ks.events')!;
    assert.deepEqual(
      table.partitionKey.map((c) => c.name),
      ['day'],
    );
    assert.equal(table.filePath, `${ROOT}/migrations/v010_recreate.cql`);
    assert.deepEqual(
      p.lint(`${ROOT}/app.cql`).filter((f) => f.ruleId === 'unknown-column' || f.ruleId === 'conflicting-definition'),
      [],
    );
    assert.equal(p.migrationOf(`${ROOT}/migrations/v010_recreate.cql`)?.index, 4);
    assert.equal(p.migrationOf(`${ROOT}/app.cql`), undefined);
  });

  test('a change to an earlier migration reaches the later ones (dependents)', () => {
    const q = project(files);
    q.lint(`${ROOT}/migrations/v002_query.cql`);
    assert.ok(q.dependents(`${ROOT}/migrations/v001_create.cql`).includes(`${ROOT}/migrations/v003_add.cql`));
    q.setFile(
      `${ROOT}/migrations/v001_create.cql`,
      'CREATE TABLE ks.events (id int PRIMARY KEY, body text, kind text);',
    );
    assert.deepEqual(ofRule(q.lint(`${ROOT}/migrations/v002_query.cql`), 'unknown-column'), []);
  });
});

describe('the history while a migration is edited', () => {
  test('an edit that moves the statements keeps each change at its place (the reused file schema)', () => {
    const p = project({
      'migrations/v001_create.cql': 'CREATE TABLE ks.events (id int PRIMARY KEY, body text);',
      'migrations/v002_add.cql':
        'SELECT kind FROM ks.events WHERE id = 1;\nALTER TABLE ks.events ADD kind text;\nSELECT kind FROM ks.events WHERE id = 2;',
    });
    const file = `${ROOT}/migrations/v002_add.cql`;
    const lines = () => ofRule(p.lint(file), 'unknown-column').map((f) => f.range.start.line);
    assert.deepEqual(lines(), [1]);
    // Text typed above every statement: the schema statements are the same, only moved.
    p.setFile(
      file,
      '-- a note\n-- another\nSELECT kind FROM ks.events WHERE id = 1;\nALTER TABLE ks.events ADD kind text;\nSELECT kind FROM ks.events WHERE id = 2;',
    );
    assert.deepEqual(lines(), [3]);
    p.setFile(
      file,
      '-- a note\n-- another\nSELECT kind FROM ks.events WHERE id = 1;\nALTER TABLE ks.events ADD kind text;\nSELECT kind FROM ks.events WHERE id = 2;\nSELECT kind FROM ks.events WHERE id = 3;',
    );
    assert.deepEqual(lines(), [3]);
  });
});

describe('an index an earlier migration created, dropped by a later one', () => {
  const CREATE = [
    "CREATE KEYSPACE IF NOT EXISTS shop WITH replication = {'class': 'NetworkTopologyStrategy', 'dc1': 3};",
    'CREATE TABLE shop.users (id uuid PRIMARY KEY, email text, country text);',
    "CREATE INDEX users_by_email ON shop.users (email) USING 'sai';",
    '',
  ].join('\n');
  const READ = "SELECT id FROM shop.users WHERE email = 'a@b.c';\n";
  /** The rule each file's reads draw, by `file:line`: the index serves them, or they read the whole table. */
  const verdicts = (p: Project, files: string[]): string[] =>
    files.flatMap((f) =>
      p
        .lint(`${ROOT}/${f}`)
        .filter((x) => x.ruleId === 'secondary-index-scan' || x.ruleId === 'unrestricted-partition-key')
        .map((x) => `${f}:${x.range.start.line} ${x.ruleId}`),
    );

  for (const [how, drop] of [
    ['DROP INDEX ks.name', 'DROP INDEX shop.users_by_email;'],
    ['DROP INDEX IF EXISTS name, the keyspace from USE', 'USE shop;\nDROP INDEX IF EXISTS users_by_email;'],
  ] as const) {
    test(`${how}: the reads after it meet no index, those before it (and in earlier files) the index`, () => {
      const p = project({
        'migrations/v001_create.cql': CREATE,
        'migrations/v002_drop.cql': `${READ}${drop}\n${READ}`,
        'migrations/v003_read.cql': READ,
        'queries.cql': READ,
      });
      const after = drop.split('\n').length + 2;
      assert.deepEqual(verdicts(p, ['migrations/v002_drop.cql', 'migrations/v003_read.cql', 'queries.cql']), [
        'migrations/v002_drop.cql:1 secondary-index-scan',
        `migrations/v002_drop.cql:${after} unrestricted-partition-key`,
        'migrations/v003_read.cql:1 unrestricted-partition-key',
        'queries.cql:1 unrestricted-partition-key',
      ]);
    });
  }

  test('DROP INDEX of another keyspace, or outside a migration folder, leaves the index', () => {
    const other = project({
      'migrations/v001_create.cql': CREATE,
      'migrations/v002_drop.cql': 'DROP INDEX billing.users_by_email;\n',
      'queries.cql': READ,
    });
    assert.deepEqual(verdicts(other, ['queries.cql']), ['queries.cql:1 secondary-index-scan']);
    const plain = project({
      'schema/users.cql': CREATE,
      'schema/drop.cql': 'DROP INDEX shop.users_by_email;\n',
      'queries.cql': READ,
    });
    assert.deepEqual(
      verdicts(plain, ['queries.cql']),
      ['queries.cql:1 secondary-index-scan'],
      'plain workspaces as before',
    );
  });

  test('DROP TABLE in a later migration takes its indexes with it (the table created again has none)', () => {
    const p = project({
      'migrations/v001_create.cql': CREATE,
      'migrations/v002_recreate.cql':
        '-- cqlint-disable-next-line destructive-migration\nDROP TABLE shop.users;\nCREATE TABLE shop.users (id uuid PRIMARY KEY, email text, country text);\n',
      'queries.cql': READ,
    });
    assert.deepEqual(verdicts(p, ['queries.cql']), ['queries.cql:1 unrestricted-partition-key']);
  });
});
