// Every guardrail cqlint checks, three ways: at the version's defaults (tripped when the default trips it,
// silent when the default is off), at a stricter value from a yaml file (test/fixtures/cluster, in 4.0,
// 5.0 and ScyllaDB spelling), and silent at that value on CQL within it.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { GUARDRAILS, readClusterYaml, type ClusterFile } from '../../server/core/cluster';
import type { ClusterVersion, TableHints } from '../../server/core/vocabulary/config';
import type { TargetId } from '../../server/core/partition/targets';
import type { Finding } from '../../server/core/findings/findings';
import { MAIN, projectWith, summary } from '../analysis/helpers';
import { projectRoot } from '../helpers/corpus';

const FIXTURES = join(projectRoot, 'test/fixtures/cluster');
const yamls: Record<'4.0' | '5.0' | 'scylla', ClusterFile> = {
  '4.0': readClusterYaml(
    readFileSync(join(FIXTURES, 'cassandra-4.0.yaml'), 'utf8'),
    join(FIXTURES, 'cassandra-4.0.yaml'),
    'cassandra-4.0.yaml',
  ),
  '5.0': readClusterYaml(
    readFileSync(join(FIXTURES, 'cassandra-5.0.yaml'), 'utf8'),
    join(FIXTURES, 'cassandra-5.0.yaml'),
    'cassandra-5.0.yaml',
  ),
  scylla: readClusterYaml(
    readFileSync(join(FIXTURES, 'scylla.yaml'), 'utf8'),
    join(FIXTURES, 'scylla.yaml'),
    'scylla.yaml',
  ),
};

interface Case {
  /** The guardrail (catalogue.ts GUARDRAILS name). */
  guardrail: string;
  /** CQL that trips it at the yaml's stricter value. */
  trips: string;
  /** CQL that stays silent at that value. */
  silent: string;
  /** Whether `trips` trips it at the version's defaults too (default: no, the guardrail is off by default). */
  atDefault?: boolean;
  yaml?: keyof typeof yamls;
  target?: TargetId;
  /** Workload hints for `trips` (the silent CQL goes without). */
  tables?: Record<string, TableHints>;
  /** What a finding about it says (default: one of the guardrail's yaml keys in its data, headline or details). */
  says?: RegExp;
}

const KS = "CREATE KEYSPACE ks WITH replication = {'class': 'NetworkTopologyStrategy', 'dc1': 3};\n";
const T = `${KS}CREATE TABLE ks.t (id int PRIMARY KEY, v text, l list<int>);\n`;
const C = `${KS}CREATE TABLE ks.c (id int PRIMARY KEY, s set<int>, f frozen<list<text>>);\n`;
const R = 'CREATE TABLE ks.r (id int, ts timestamp, v text, PRIMARY KEY (id, ts));\n';
const MV = (name: string) =>
  `CREATE MATERIALIZED VIEW ks.${name} AS SELECT * FROM ks.t WHERE v IS NOT NULL AND id IS NOT NULL PRIMARY KEY (v, id);\n`;
const micros = (ms: number) => String(Math.round(ms) * 1000);
const DAY = 86_400_000;
const x = (n: number) => `'${'x'.repeat(n)}'`;

const CASES: Case[] = [
  {
    guardrail: 'keyspaces',
    trips: `${KS}CREATE KEYSPACE ks2 WITH replication = {'class': 'NetworkTopologyStrategy', 'dc1': 3};`,
    silent: KS,
  },
  { guardrail: 'tables', trips: `${T}CREATE TABLE ks.u (id int PRIMARY KEY);`, silent: T },
  {
    guardrail: 'columns_per_table',
    trips: `${KS}CREATE TABLE ks.w (id int PRIMARY KEY, a int, b int, c int);`,
    silent: `${KS}CREATE TABLE ks.w (id int PRIMARY KEY, a int);`,
  },
  {
    guardrail: 'secondary_indexes_per_table',
    trips: `${KS}CREATE TABLE ks.x (id int PRIMARY KEY, a int, b int);\nCREATE INDEX ON ks.x (a);\nCREATE INDEX ON ks.x (b);`,
    silent: `${KS}CREATE TABLE ks.x (id int PRIMARY KEY, a int, b int);\nCREATE INDEX ON ks.x (a);`,
    says: /secondary_indexes_per_table/,
  },
  {
    guardrail: 'materialized_views_per_table',
    trips: `${T}${MV('a')}${MV('b')}`,
    silent: `${T}${MV('a')}`,
    says: /materialized_views_per_table/,
  },
  {
    guardrail: 'fields_per_udt',
    trips: 'CREATE TYPE ks.a (x int, y int, z int);',
    silent: 'CREATE TYPE ks.a (x int, y int);',
  },
  {
    guardrail: 'vector_dimensions',
    trips: 'CREATE TABLE ks.v (id int PRIMARY KEY, e vector<float, 5>);',
    silent: 'CREATE TABLE ks.v (id int PRIMARY KEY, e vector<float, 3>);',
    says: /vector_dimensions/,
  },
  {
    guardrail: 'minimum_replication_factor',
    trips: "CREATE KEYSPACE ks WITH replication = {'class': 'NetworkTopologyStrategy', 'dc1': 1};",
    silent: KS,
  },
  {
    guardrail: 'maximum_replication_factor',
    trips: "CREATE KEYSPACE ks WITH replication = {'class': 'NetworkTopologyStrategy', 'dc1': 6};",
    silent: KS,
  },
  {
    guardrail: 'simplestrategy_enabled',
    trips: "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 3};",
    silent: KS,
  },
  {
    guardrail: 'uncompressed_tables_enabled',
    trips: "CREATE TABLE ks.c (id int PRIMARY KEY) WITH compression = {'enabled': 'false'};",
    silent: "CREATE TABLE ks.c (id int PRIMARY KEY) WITH compression = {'class': 'LZ4Compressor'};",
  },
  {
    guardrail: 'compact_tables_enabled',
    trips: 'CREATE TABLE ks.c (id int PRIMARY KEY, v int) WITH COMPACT STORAGE;',
    silent: 'CREATE TABLE ks.c (id int PRIMARY KEY, v int);',
  },
  {
    guardrail: 'table_properties',
    trips: 'CREATE TABLE ks.c (id int PRIMARY KEY) WITH gc_grace_seconds = 10;',
    silent: 'CREATE TABLE ks.c (id int PRIMARY KEY) WITH default_time_to_live = 10;',
  },
  {
    guardrail: 'zero_ttl_on_twcs',
    atDefault: true,
    trips: "CREATE TABLE ks.c (id int PRIMARY KEY) WITH compaction = {'class': 'TimeWindowCompactionStrategy'};",
    silent:
      "CREATE TABLE ks.c (id int PRIMARY KEY) WITH compaction = {'class': 'TimeWindowCompactionStrategy'} AND default_time_to_live = 86400;",
  },
  { guardrail: 'secondary_indexes_enabled', trips: `${T}CREATE INDEX ON ks.t (v);`, silent: T },
  { guardrail: 'materialized_views_enabled', atDefault: true, trips: `${T}${MV('a')}`, silent: T },
  { guardrail: 'materialized_views_enabled', atDefault: true, yaml: '4.0', trips: `${T}${MV('a')}`, silent: T },
  {
    guardrail: 'sasi_indexes_enabled',
    atDefault: true,
    trips: `${T}CREATE CUSTOM INDEX ON ks.t (v) USING 'org.apache.cassandra.index.sasi.SASIIndex';`,
    silent: `${T}CREATE CUSTOM INDEX ON ks.t (v) USING 'StorageAttachedIndex';`,
  },
  {
    guardrail: 'transient_replication_enabled',
    atDefault: true,
    trips: "CREATE KEYSPACE ks WITH replication = {'class': 'NetworkTopologyStrategy', 'dc1': '3/1'};",
    silent: KS,
  },
  {
    guardrail: 'user_defined_functions_enabled',
    atDefault: true,
    trips: "CREATE FUNCTION ks.f (a int) RETURNS NULL ON NULL INPUT RETURNS int LANGUAGE java AS 'return a;';",
    silent: T,
  },
  {
    guardrail: 'user_defined_functions_enabled',
    atDefault: true,
    yaml: '4.0',
    trips: "CREATE FUNCTION ks.f (a int) RETURNS NULL ON NULL INPUT RETURNS int LANGUAGE java AS 'return a;';",
    silent: T,
  },
  {
    guardrail: 'drop_compact_storage_enabled',
    atDefault: true,
    trips: `${T}ALTER TABLE ks.t DROP COMPACT STORAGE;`,
    silent: `${T}ALTER TABLE ks.t WITH default_time_to_live = 5;`,
  },
  {
    guardrail: 'alter_table_enabled',
    trips: `${T}ALTER TABLE ks.t ADD z int;`,
    silent: `${T}ALTER TABLE ks.t WITH default_time_to_live = 5;`,
  },
  { guardrail: 'drop_truncate_table_enabled', trips: `${T}TRUNCATE ks.t;`, silent: `${T}DROP INDEX ks.nothing;` },
  { guardrail: 'drop_keyspace_enabled', trips: 'DROP KEYSPACE ks;', silent: 'DROP TYPE ks.a;' },
  {
    guardrail: 'vector_type_enabled',
    trips: 'CREATE TABLE ks.v (id int PRIMARY KEY, e vector<float, 3>);',
    silent: 'CREATE TABLE ks.v (id int PRIMARY KEY, e list<float>);',
  },
  {
    guardrail: 'allow_filtering_enabled',
    trips: `${T}SELECT * FROM ks.t WHERE v = 'a' ALLOW FILTERING;`,
    silent: `${T}SELECT * FROM ks.t WHERE id = 1;`,
  },
  {
    guardrail: 'non_partition_restricted_index_query_enabled',
    trips: `${T}CREATE INDEX ON ks.t (v);\nSELECT * FROM ks.t WHERE v = 'a';`,
    silent: `${T}CREATE INDEX ON ks.t (v);\nSELECT * FROM ks.t WHERE id = 1;`,
  },
  {
    guardrail: 'partition_keys_in_select',
    trips: `${T}SELECT * FROM ks.t WHERE id IN (1, 2, 3);`,
    silent: `${T}SELECT * FROM ks.t WHERE id IN (1, 2);`,
  },
  {
    guardrail: 'unlogged_batch_across_partitions_warn_threshold',
    says: /unlogged_batch_across_partitions_warn_threshold[^\n]*the server warns/,
    trips: `${T}BEGIN UNLOGGED BATCH INSERT INTO ks.t (id) VALUES (1); INSERT INTO ks.t (id) VALUES (2); INSERT INTO ks.t (id) VALUES (3); APPLY BATCH;`,
    silent: `${T}BEGIN UNLOGGED BATCH INSERT INTO ks.t (id) VALUES (1); INSERT INTO ks.t (id) VALUES (2); APPLY BATCH;`,
  },
  {
    guardrail: 'group_by_enabled',
    trips: `${T}SELECT id, count(*) FROM ks.t GROUP BY id;`,
    silent: `${T}SELECT id FROM ks.t WHERE id = 1;`,
  },
  {
    guardrail: 'user_timestamps_enabled',
    trips: `${T}INSERT INTO ks.t (id) VALUES (1) USING TIMESTAMP 1700000000000000;`,
    silent: `${T}INSERT INTO ks.t (id) VALUES (1);`,
  },
  {
    guardrail: 'maximum_timestamp',
    trips: `${T}INSERT INTO ks.t (id) VALUES (1) USING TIMESTAMP ${micros(Date.now() + 10 * DAY)};`,
    silent: `${T}INSERT INTO ks.t (id) VALUES (1) USING TIMESTAMP ${micros(Date.now() - DAY)};`,
  },
  {
    guardrail: 'minimum_timestamp',
    trips: `${T}INSERT INTO ks.t (id) VALUES (1) USING TIMESTAMP 1;`,
    silent: `${T}INSERT INTO ks.t (id) VALUES (1) USING TIMESTAMP ${micros(Date.now())};`,
  },
  {
    guardrail: 'read_before_write_list_operations_enabled',
    trips: `${T}UPDATE ks.t SET l[0] = 1 WHERE id = 1;`,
    silent: `${T}UPDATE ks.t SET l = l + [1] WHERE id = 1;`,
  },
  {
    guardrail: 'in_select_cartesian_product',
    trips: `${KS}CREATE TABLE ks.p (a int, b int, c int, PRIMARY KEY ((a, b), c));\nSELECT * FROM ks.p WHERE a IN (1, 2, 3) AND b IN (1, 2);`,
    silent: `${KS}CREATE TABLE ks.p (a int, b int, c int, PRIMARY KEY ((a, b), c));\nSELECT * FROM ks.p WHERE a IN (1, 2) AND b IN (1, 2);`,
  },
  {
    guardrail: 'items_per_collection',
    trips: `${C}INSERT INTO ks.c (id, s) VALUES (1, {1, 2, 3, 4});`,
    silent: `${C}INSERT INTO ks.c (id, s) VALUES (1, {1, 2});`,
  },
  {
    guardrail: 'collection_size',
    trips: `${C}INSERT INTO ks.c (id, f) VALUES (1, [${x(100)}]);`,
    silent: `${C}INSERT INTO ks.c (id, f) VALUES (1, ['x']);`,
  },
  {
    guardrail: 'column_value_size',
    trips: `${T}INSERT INTO ks.t (id, v) VALUES (1, ${x(200)});`,
    silent: `${T}INSERT INTO ks.t (id, v) VALUES (1, 'x');`,
  },
  {
    guardrail: 'batch_size',
    trips: `${T}BEGIN BATCH INSERT INTO ks.t (id, v) VALUES (1, ${x(700)}); INSERT INTO ks.t (id, v) VALUES (2, ${x(700)}); APPLY BATCH;`,
    silent: `${T}BEGIN BATCH INSERT INTO ks.t (id, v) VALUES (1, 'a'); INSERT INTO ks.t (id, v) VALUES (2, 'b'); APPLY BATCH;`,
  },
  {
    guardrail: 'batch_size',
    yaml: '4.0',
    says: /batch_size_warn_threshold_in_kb/,
    trips: `${T}BEGIN BATCH INSERT INTO ks.t (id, v) VALUES (1, ${x(700)}); INSERT INTO ks.t (id, v) VALUES (2, ${x(700)}); APPLY BATCH;`,
    silent: `${T}BEGIN BATCH INSERT INTO ks.t (id, v) VALUES (1, 'a'); INSERT INTO ks.t (id, v) VALUES (2, 'b'); APPLY BATCH;`,
  },
  {
    guardrail: 'batch_size',
    atDefault: true,
    trips: `${T}BEGIN BATCH INSERT INTO ks.t (id, v) VALUES (1, ${x(3000)}); INSERT INTO ks.t (id, v) VALUES (2, ${x(3000)}); APPLY BATCH;`,
    silent: `${T}BEGIN BATCH INSERT INTO ks.t (id, v) VALUES (1, 'a'); APPLY BATCH;`,
  },
  {
    guardrail: 'sai_string_term_size',
    trips: `${T}CREATE INDEX ON ks.t (v) USING 'sai';\nINSERT INTO ks.t (id, v) VALUES (1, ${x(20)});`,
    silent: `${T}CREATE INDEX ON ks.t (v) USING 'sai';\nINSERT INTO ks.t (id, v) VALUES (1, 'x');`,
  },
  {
    guardrail: 'sai_string_term_size',
    atDefault: true,
    trips: `${T}CREATE INDEX ON ks.t (v) USING 'sai';\nINSERT INTO ks.t (id, v) VALUES (1, ${x(1100)});`,
    silent: `${T}CREATE INDEX ON ks.t (v) USING 'sai';\nINSERT INTO ks.t (id, v) VALUES (1, 'x');`,
  },
  {
    guardrail: 'sai_frozen_term_size',
    trips: `${C}CREATE INDEX ON ks.c (FULL(f)) USING 'sai';\nINSERT INTO ks.c (id, f) VALUES (1, [${x(20)}]);`,
    silent: `${C}CREATE INDEX ON ks.c (FULL(f)) USING 'sai';\nINSERT INTO ks.c (id, f) VALUES (1, ['x']);`,
  },
  {
    guardrail: 'sai_vector_term_size',
    trips: `${KS}CREATE TABLE ks.e (id int PRIMARY KEY, e vector<float, 5>);\nCREATE INDEX ON ks.e (e) USING 'sai';\nINSERT INTO ks.e (id, e) VALUES (1, [1, 2, 3, 4, 5]);`,
    silent: `${KS}CREATE TABLE ks.e (id int PRIMARY KEY, e vector<float, 3>);\nCREATE INDEX ON ks.e (e) USING 'sai';\nINSERT INTO ks.e (id, e) VALUES (1, [1, 2, 3]);`,
    says: /sai_vector_term_size/,
  },
  {
    guardrail: 'read_consistency_levels',
    trips: `CONSISTENCY ANY\n${T}SELECT * FROM ks.t WHERE id = 1;`,
    silent: `CONSISTENCY QUORUM\n${T}SELECT * FROM ks.t WHERE id = 1;`,
  },
  {
    guardrail: 'write_consistency_levels',
    trips: `CONSISTENCY ONE\n${T}INSERT INTO ks.t (id) VALUES (1);`,
    silent: `CONSISTENCY QUORUM\n${T}INSERT INTO ks.t (id) VALUES (1);`,
  },
  { guardrail: 'page_size', trips: `PAGING 2000\n${T}`, silent: `PAGING 100\n${T}` },
  {
    guardrail: 'partition_size',
    tables: { 'ks.r': { rowsPerPartition: 60_000 } },
    trips: R,
    silent: R,
    says: /partition_size_warn_threshold/,
  },
  {
    guardrail: 'partition_size',
    yaml: '4.0',
    tables: { 'ks.r': { rowsPerPartition: 60_000 } },
    trips: R,
    silent: R,
    says: /compaction_large_partition_warning_threshold_mb/,
  },
  {
    guardrail: 'compaction_rows_count_warning_threshold',
    yaml: 'scylla',
    target: 'scylladb',
    tables: { 'ks.r': { rowsPerPartition: 5000 } },
    trips: R,
    silent: R,
    says: /compaction_rows_count_warning_threshold/,
  },
  {
    guardrail: 'compaction_large_row_warning_threshold_mb',
    yaml: 'scylla',
    target: 'scylladb',
    tables: { 'ks.r': { columnSizes: { v: 2_000_000 } } },
    trips: R,
    silent: R,
    says: /compaction_large_row_warning_threshold_mb/,
  },
  {
    guardrail: 'compaction_large_cell_warning_threshold_mb',
    yaml: 'scylla',
    target: 'scylladb',
    atDefault: true,
    trips: `${T}INSERT INTO ks.t (id, v) VALUES (1, ${x(1024 * 1024 + 1)});`,
    silent: `${T}INSERT INTO ks.t (id, v) VALUES (1, 'x');`,
  },
  {
    guardrail: 'compaction_collection_elements_count_warning_threshold',
    yaml: 'scylla',
    target: 'scylladb',
    trips: `${C}INSERT INTO ks.c (id, s) VALUES (1, {1, 2, 3, 4});`,
    silent: `${C}INSERT INTO ks.c (id, s) VALUES (1, {1, 2});`,
  },
];

const VERSION_OF: Record<keyof typeof yamls, ClusterVersion> = { '4.0': '4.0', '5.0': '5.0', scylla: 'scylladb' };

function lint(c: Case, code: string, withYaml: boolean, hinted = true): Finding[] {
  const yaml = yamls[c.yaml ?? '5.0'];
  const project = projectWith(
    code,
    {},
    {
      target: c.target,
      config: {
        ...(c.tables && hinted ? { tables: c.tables } : {}),
        cluster: withYaml ? { config: yaml.file, name: yaml.name } : { version: VERSION_OF[c.yaml ?? '5.0'] },
      },
      clusterFile: (file) => (file === yaml.file ? yaml : undefined),
    },
  );
  const findings = project.lint(MAIN);
  assert.deepEqual(project.internalErrors, [], 'no rule may throw');
  return findings;
}

function about(c: Case, findings: Finding[]): Finding[] {
  const guardrail = GUARDRAILS.find((g) => g.name === c.guardrail)!;
  return findings.filter((f) => {
    if (f.ruleId !== guardrail.checkedBy) return false;
    const text = `${f.message}\n${f.details ?? ''}`;
    if (c.says) return c.says.test(text);
    const setting = (f.data as { setting?: unknown } | undefined)?.setting;
    return guardrail.keys.some((k) => setting === k || text.includes(`\`${k}\``) || f.message.includes(k));
  });
}

describe('every guardrail cqlint checks', () => {
  test('the fixtures read cleanly, in 4.0, 5.0 and ScyllaDB spelling', () => {
    for (const [name, file] of Object.entries(yamls)) assert.deepEqual(file.problems, [], name);
    assert.equal(yamls['4.0'].legacySpelling, true);
    assert.equal(yamls['5.0'].legacySpelling, false);
    assert.equal(yamls.scylla.scylla, true);
    assert.equal(
      yamls['4.0'].settings.get('batch_size_warn_threshold')?.value,
      1024,
      "4.0's batch_size_warn_threshold_in_kb: 1 is 1 KiB",
    );
    assert.equal(yamls.scylla.settings.get('compaction_large_cell_warning_threshold_mb')?.value, 1024 * 1024);
  });

  test('has a case for every checked guardrail', () => {
    const covered = new Set(CASES.map((c) => c.guardrail));
    const missing = GUARDRAILS.filter((g) => g.checkedBy && !covered.has(g.name)).map((g) => g.name);
    assert.deepEqual(missing, []);
  });

  for (const c of CASES) {
    const name = `${c.guardrail}${c.yaml && c.yaml !== '5.0' ? ` (${c.yaml})` : ''}${c.atDefault ? ', tripped at the default' : ''}`;
    test(name, () => {
      const atDefault = about(c, lint(c, c.trips, false));
      if (c.atDefault)
        assert.ok(atDefault.length > 0, `tripped at the version's default:\n${summary(lint(c, c.trips, false))}`);
      else
        assert.deepEqual(
          atDefault.map((f) => f.message),
          [],
          'off at the default',
        );
      const tripped = about(c, lint(c, c.trips, true));
      assert.ok(tripped.length > 0, `tripped at the yaml's value:\n${summary(lint(c, c.trips, true))}`);
      assert.ok(
        tripped.every((f) => `${f.message}\n${f.details}`.includes(yamls[c.yaml ?? '5.0'].name)),
        'the finding cites the yaml file',
      );
      assert.deepEqual(
        about(c, lint(c, c.silent, true, false)).map((f) => f.message),
        [],
        'silent within the value',
      );
    });
  }
});
