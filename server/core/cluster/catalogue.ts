// The cluster settings cqlint reads from a cassandra.yaml or scylla.yaml: every guardrail and threshold a
// workspace's CQL can trip, with its yaml names per version, its defaults per version and when the server
// applies it, and the ones only the running cluster can judge, with the reason (docs/guardrails.md is
// written from this table; test/cluster/catalogue.test.ts holds it against Cassandra 5.0's names).
//
// Facts, not code: the guardrail names and defaults come from Apache Cassandra's conf/cassandra.yaml and
// the defaults nodetool getguardrailsconfig prints (test/unit/.../GuardrailsConfigCommandsTest), the
// pre-4.1 names from the 4.0 cassandra.yaml (4.1 renamed them and still reads the old names), and ScyllaDB's
// from its configuration reference (docs.scylladb.com, reference/configuration-parameters).
import type { ClusterVersion } from '../vocabulary/config';
import type { ValueType } from './units';

export type { ClusterVersion } from '../vocabulary/config';
export const CLUSTER_VERSIONS: readonly ClusterVersion[] = ['4.0', '4.1', '5.0', 'scylladb'];

/** A default: a value, `null` for off (-1 or null in the yaml), absent when the version has no such setting. */
type Default = number | boolean | readonly string[] | null;

export interface SettingSpec {
  /** The yaml name (Cassandra 4.1 and later, or ScyllaDB's). */
  key: string;
  type: ValueType;
  /** The unit of a bare number under `key` (ScyllaDB's `_mb` keys). */
  plainUnit?: string;
  /** Names Cassandra 4.0 wrote (4.1 and 5.0 still read them), with the unit of their bare numbers. */
  legacy?: readonly { key: string; plainUnit?: string }[];
  /** The default per version (in bytes, counts or milliseconds); a version not listed has no such setting. */
  defaults: Partial<Record<ClusterVersion, Default>>;
}

/** When the server applies a guardrail. */
export type GuardrailTime = 'DDL' | 'query' | 'write' | 'SSTable write' | 'read' | 'startup';

export interface Guardrail {
  /** The guardrail's name as Guardrails.java and the docs call it (`tables`, `allow_filtering_enabled`). */
  name: string;
  /** Its yaml keys. */
  keys: readonly string[];
  when: GuardrailTime;
  /** The rule that checks it; absent when only the cluster can. */
  checkedBy?: string;
  /** What cqlint checks it from. */
  from?: string;
  /** Why a static check cannot judge it (absent when checked). */
  needsCluster?: string;
}

const ALL_CASSANDRA: readonly ClusterVersion[] = ['4.0', '4.1', '5.0'];
const FROM_41: readonly ClusterVersion[] = ['4.1', '5.0'];
const FROM_50: readonly ClusterVersion[] = ['5.0'];

function defaults(versions: readonly ClusterVersion[], value: Default): Partial<Record<ClusterVersion, Default>> {
  return Object.fromEntries(versions.map((v) => [v, value]));
}

/** A `<name>_warn_threshold` / `<name>_fail_threshold` pair, off by default. */
function pair(
  name: string,
  type: ValueType,
  versions: readonly ClusterVersion[],
  values: { warn?: Default; fail?: Default } = {},
): SettingSpec[] {
  return [
    { key: `${name}_warn_threshold`, type, defaults: defaults(versions, values.warn ?? null) },
    { key: `${name}_fail_threshold`, type, defaults: defaults(versions, values.fail ?? null) },
  ];
}

function flag(key: string, versions: readonly ClusterVersion[], value: boolean, legacy?: string): SettingSpec {
  return { key, type: 'flag', defaults: defaults(versions, value), ...(legacy ? { legacy: [{ key: legacy }] } : {}) };
}

function list(key: string, versions: readonly ClusterVersion[]): SettingSpec {
  return { key, type: 'list', defaults: defaults(versions, []) };
}

const KiB = 1024;
const MiB = 1024 * 1024;

export const SETTINGS: readonly SettingSpec[] = [
  // Schema (checked at DDL).
  ...pair('keyspaces', 'count', FROM_41),
  ...pair('tables', 'count', FROM_41),
  ...pair('columns_per_table', 'count', FROM_41),
  ...pair('secondary_indexes_per_table', 'count', FROM_41),
  ...pair('materialized_views_per_table', 'count', FROM_41),
  ...pair('fields_per_udt', 'count', FROM_41),
  ...pair('vector_dimensions', 'count', FROM_50),
  // ScyllaDB has the replication factor guardrails too (docs.scylladb.com cql/guardrails).
  ...pair('minimum_replication_factor', 'count', [...FROM_41, 'scylladb']),
  ...pair('maximum_replication_factor', 'count', [...FROM_50, 'scylladb']),
  flag('secondary_indexes_enabled', FROM_41, true),
  flag('uncompressed_tables_enabled', FROM_41, true),
  flag('compact_tables_enabled', FROM_41, true),
  flag('simplestrategy_enabled', FROM_50, true),
  flag('alter_table_enabled', FROM_50, true),
  flag('drop_truncate_table_enabled', FROM_41, true),
  flag('drop_keyspace_enabled', FROM_50, true),
  flag('zero_ttl_on_twcs_enabled', FROM_50, true),
  flag('zero_ttl_on_twcs_warned', FROM_50, true),
  flag('vector_type_enabled', FROM_50, true),
  list('table_properties_warned', FROM_41),
  list('table_properties_ignored', FROM_41),
  list('table_properties_disallowed', FROM_41),
  // Experimental features, off in every cassandra.yaml since 4.0 (4.0 spells them enable_*).
  flag('materialized_views_enabled', ALL_CASSANDRA, false, 'enable_materialized_views'),
  flag('sasi_indexes_enabled', ALL_CASSANDRA, false, 'enable_sasi_indexes'),
  flag('transient_replication_enabled', ALL_CASSANDRA, false, 'enable_transient_replication'),
  flag('drop_compact_storage_enabled', ALL_CASSANDRA, false, 'enable_drop_compact_storage'),
  flag('user_defined_functions_enabled', ALL_CASSANDRA, false, 'enable_user_defined_functions'),
  // Statements (checked when the query runs).
  flag('allow_filtering_enabled', FROM_41, true),
  flag('group_by_enabled', FROM_41, true),
  flag('user_timestamps_enabled', FROM_41, true),
  flag('read_before_write_list_operations_enabled', FROM_41, true),
  flag('non_partition_restricted_index_query_enabled', FROM_50, true),
  ...pair('maximum_timestamp', 'duration', FROM_50),
  ...pair('minimum_timestamp', 'duration', FROM_50),
  ...pair('page_size', 'count', FROM_41),
  ...pair('partition_keys_in_select', 'count', FROM_41),
  ...pair('in_select_cartesian_product', 'count', FROM_41),
  ...pair('items_per_collection', 'count', FROM_41),
  ...pair('collection_size', 'bytes', FROM_41),
  ...pair('column_value_size', 'bytes', FROM_50),
  ...pair('sai_string_term_size', 'bytes', FROM_50, { warn: KiB, fail: 8 * KiB }),
  ...pair('sai_frozen_term_size', 'bytes', FROM_50, { warn: KiB, fail: 8 * KiB }),
  ...pair('sai_vector_term_size', 'bytes', FROM_50, { warn: 16 * KiB, fail: 32 * KiB }),
  list('read_consistency_levels_warned', FROM_41),
  list('read_consistency_levels_disallowed', FROM_41),
  list('write_consistency_levels_warned', FROM_41),
  list('write_consistency_levels_disallowed', FROM_41),
  // The thresholds older than the guardrails framework: batches and tombstones.
  {
    key: 'batch_size_warn_threshold',
    type: 'bytes',
    legacy: [{ key: 'batch_size_warn_threshold_in_kb', plainUnit: 'KiB' }],
    defaults: { ...defaults(ALL_CASSANDRA, 5 * KiB), scylladb: 128 * KiB },
  },
  {
    key: 'batch_size_fail_threshold',
    type: 'bytes',
    legacy: [{ key: 'batch_size_fail_threshold_in_kb', plainUnit: 'KiB' }],
    defaults: { ...defaults(ALL_CASSANDRA, 50 * KiB), scylladb: 1024 * KiB },
  },
  {
    key: 'unlogged_batch_across_partitions_warn_threshold',
    type: 'count',
    defaults: defaults([...ALL_CASSANDRA, 'scylladb'], 10),
  },
  { key: 'tombstone_warn_threshold', type: 'count', defaults: defaults([...ALL_CASSANDRA, 'scylladb'], 1000) },
  { key: 'tombstone_failure_threshold', type: 'count', defaults: defaults([...ALL_CASSANDRA, 'scylladb'], 100000) },
  // The size model (checked when SSTables are written).
  ...pair('partition_size', 'bytes', FROM_50),
  ...pair('partition_tombstones', 'count', FROM_50),
  {
    key: 'compaction_large_partition_warning_threshold',
    type: 'bytes',
    legacy: [{ key: 'compaction_large_partition_warning_threshold_mb', plainUnit: 'MiB' }],
    defaults: defaults(['4.0', '4.1'], 100 * MiB),
  },
  { key: 'compaction_tombstone_warning_threshold', type: 'count', defaults: defaults(['4.0', '4.1'], 100000) },
  // ScyllaDB's large data thresholds (bare numbers; the unit is in the name).
  {
    key: 'compaction_large_partition_warning_threshold_mb',
    type: 'bytes',
    plainUnit: 'MiB',
    defaults: { scylladb: 1000 * MiB },
  },
  {
    key: 'compaction_large_row_warning_threshold_mb',
    type: 'bytes',
    plainUnit: 'MiB',
    defaults: { scylladb: 10 * MiB },
  },
  { key: 'compaction_large_cell_warning_threshold_mb', type: 'bytes', plainUnit: 'MiB', defaults: { scylladb: MiB } },
  { key: 'compaction_rows_count_warning_threshold', type: 'count', defaults: { scylladb: 100000 } },
  { key: 'compaction_collection_elements_count_warning_threshold', type: 'count', defaults: { scylladb: 10000 } },
];

const BY_KEY = new Map<string, SettingSpec>(SETTINGS.map((s) => [s.key, s]));
/** Old spelling -> the setting. */
const BY_LEGACY = new Map<string, { spec: SettingSpec; plainUnit?: string }>(
  SETTINGS.flatMap((s) => (s.legacy ?? []).map((l) => [l.key, { spec: s, plainUnit: l.plainUnit }] as const)),
);

export function settingSpec(key: string): SettingSpec | undefined {
  return BY_KEY.get(key);
}

/** The setting an old (4.0) yaml name stands for. */
export function legacySpelling(key: string): { spec: SettingSpec; plainUnit?: string } | undefined {
  return BY_LEGACY.get(key);
}

/** `<name>_warn_threshold`, `<name>_fail_threshold`. */
function pairKeys(name: string): string[] {
  return [`${name}_warn_threshold`, `${name}_fail_threshold`];
}

const SCHEMA = 'guardrail-schema';
const STATEMENT = 'guardrail-statement';
const SIZE = 'guardrail-size';

/**
 * Every guardrail and setting: checked (by which rule, from what) or left to the cluster (and why). The
 * keys of guardrails a version lacks are simply absent from its defaults (SETTINGS).
 */
export const GUARDRAILS: readonly Guardrail[] = [
  {
    name: 'keyspaces',
    keys: pairKeys('keyspaces'),
    when: 'DDL',
    checkedBy: SCHEMA,
    from: "the workspace's CREATE KEYSPACE statements (the cluster may hold more)",
  },
  {
    name: 'tables',
    keys: pairKeys('tables'),
    when: 'DDL',
    checkedBy: SCHEMA,
    from: "the workspace's CREATE TABLE statements (the cluster may hold more)",
  },
  {
    name: 'columns_per_table',
    keys: pairKeys('columns_per_table'),
    when: 'DDL',
    checkedBy: SCHEMA,
    from: 'CREATE TABLE and ALTER TABLE ADD',
  },
  {
    name: 'secondary_indexes_per_table',
    keys: pairKeys('secondary_indexes_per_table'),
    when: 'DDL',
    checkedBy: SCHEMA,
    from: "CREATE INDEX, counting the table's indexes in the workspace",
  },
  {
    name: 'materialized_views_per_table',
    keys: pairKeys('materialized_views_per_table'),
    when: 'DDL',
    checkedBy: SCHEMA,
    from: "CREATE MATERIALIZED VIEW, counting the base table's views in the workspace",
  },
  {
    name: 'fields_per_udt',
    keys: pairKeys('fields_per_udt'),
    when: 'DDL',
    checkedBy: SCHEMA,
    from: 'CREATE TYPE and ALTER TYPE ADD',
  },
  {
    name: 'vector_dimensions',
    keys: pairKeys('vector_dimensions'),
    when: 'DDL',
    checkedBy: SCHEMA,
    from: 'vector<type, n> columns',
  },
  {
    name: 'minimum_replication_factor',
    keys: pairKeys('minimum_replication_factor'),
    when: 'DDL',
    checkedBy: SCHEMA,
    from: "CREATE/ALTER KEYSPACE's replication",
  },
  {
    name: 'maximum_replication_factor',
    keys: pairKeys('maximum_replication_factor'),
    when: 'DDL',
    checkedBy: SCHEMA,
    from: "CREATE/ALTER KEYSPACE's replication",
  },
  {
    name: 'simplestrategy_enabled',
    keys: ['simplestrategy_enabled'],
    when: 'DDL',
    checkedBy: 'simple-strategy',
    from: "CREATE/ALTER KEYSPACE's replication class",
  },
  {
    name: 'uncompressed_tables_enabled',
    keys: ['uncompressed_tables_enabled'],
    when: 'DDL',
    checkedBy: SCHEMA,
    from: "WITH compression = {'enabled': 'false'}",
  },
  {
    name: 'compact_tables_enabled',
    keys: ['compact_tables_enabled'],
    when: 'DDL',
    checkedBy: SCHEMA,
    from: 'WITH COMPACT STORAGE',
  },
  {
    name: 'table_properties',
    keys: ['table_properties_warned', 'table_properties_ignored', 'table_properties_disallowed'],
    when: 'DDL',
    checkedBy: SCHEMA,
    from: 'the WITH options of CREATE/ALTER TABLE',
  },
  {
    name: 'zero_ttl_on_twcs',
    keys: ['zero_ttl_on_twcs_enabled', 'zero_ttl_on_twcs_warned'],
    when: 'DDL',
    checkedBy: SCHEMA,
    from: 'a TimeWindowCompactionStrategy table without default_time_to_live',
  },
  {
    name: 'secondary_indexes_enabled',
    keys: ['secondary_indexes_enabled'],
    when: 'DDL',
    checkedBy: SCHEMA,
    from: 'CREATE INDEX',
  },
  {
    name: 'materialized_views_enabled',
    keys: ['materialized_views_enabled', 'enable_materialized_views'],
    when: 'DDL',
    checkedBy: SCHEMA,
    from: 'CREATE MATERIALIZED VIEW',
  },
  {
    name: 'sasi_indexes_enabled',
    keys: ['sasi_indexes_enabled', 'enable_sasi_indexes'],
    when: 'DDL',
    checkedBy: SCHEMA,
    from: "CREATE CUSTOM INDEX ... USING 'org.apache.cassandra.index.sasi.SASIIndex'",
  },
  {
    name: 'transient_replication_enabled',
    keys: ['transient_replication_enabled', 'enable_transient_replication'],
    when: 'DDL',
    checkedBy: SCHEMA,
    from: "a replication factor written 'n/t'",
  },
  {
    name: 'user_defined_functions_enabled',
    keys: ['user_defined_functions_enabled', 'enable_user_defined_functions'],
    when: 'DDL',
    checkedBy: SCHEMA,
    from: 'CREATE FUNCTION',
  },
  {
    name: 'drop_compact_storage_enabled',
    keys: ['drop_compact_storage_enabled', 'enable_drop_compact_storage'],
    when: 'DDL',
    checkedBy: SCHEMA,
    from: 'ALTER TABLE ... DROP COMPACT STORAGE',
  },
  {
    name: 'alter_table_enabled',
    keys: ['alter_table_enabled'],
    when: 'DDL',
    checkedBy: SCHEMA,
    from: 'ALTER TABLE ADD, DROP and RENAME',
  },
  {
    name: 'drop_truncate_table_enabled',
    keys: ['drop_truncate_table_enabled'],
    when: 'DDL',
    checkedBy: SCHEMA,
    from: 'DROP TABLE and TRUNCATE',
  },
  {
    name: 'drop_keyspace_enabled',
    keys: ['drop_keyspace_enabled'],
    when: 'DDL',
    checkedBy: SCHEMA,
    from: 'DROP KEYSPACE',
  },
  {
    name: 'vector_type_enabled',
    keys: ['vector_type_enabled'],
    when: 'DDL',
    checkedBy: SCHEMA,
    from: 'vector<type, n> columns',
  },
  {
    name: 'allow_filtering_enabled',
    keys: ['allow_filtering_enabled'],
    when: 'query',
    checkedBy: 'allow-filtering',
    from: 'SELECT ... ALLOW FILTERING',
  },
  {
    name: 'non_partition_restricted_index_query_enabled',
    keys: ['non_partition_restricted_index_query_enabled'],
    when: 'query',
    checkedBy: 'secondary-index-scan',
    from: 'a SELECT an index serves without the partition key',
  },
  {
    name: 'partition_keys_in_select',
    keys: pairKeys('partition_keys_in_select'),
    when: 'query',
    checkedBy: 'large-in-partition-key',
    from: 'the values of IN on the partition key',
  },
  {
    name: 'unlogged_batch_across_partitions_warn_threshold',
    keys: ['unlogged_batch_across_partitions_warn_threshold'],
    when: 'query',
    checkedBy: 'unlogged-batch-multi-partition',
    from: "an unlogged batch's partitions",
  },
  {
    name: 'group_by_enabled',
    keys: ['group_by_enabled'],
    when: 'query',
    checkedBy: STATEMENT,
    from: 'SELECT ... GROUP BY',
  },
  {
    name: 'user_timestamps_enabled',
    keys: ['user_timestamps_enabled'],
    when: 'query',
    checkedBy: STATEMENT,
    from: 'USING TIMESTAMP',
  },
  {
    name: 'maximum_timestamp',
    keys: pairKeys('maximum_timestamp'),
    when: 'query',
    checkedBy: STATEMENT,
    from: 'a literal USING TIMESTAMP against the time of the lint',
  },
  {
    name: 'minimum_timestamp',
    keys: pairKeys('minimum_timestamp'),
    when: 'query',
    checkedBy: STATEMENT,
    from: 'a literal USING TIMESTAMP against the time of the lint',
  },
  {
    name: 'read_before_write_list_operations_enabled',
    keys: ['read_before_write_list_operations_enabled'],
    when: 'query',
    checkedBy: STATEMENT,
    from: 'SET l[i] = ..., DELETE l[i] and l = l - [...] on lists',
  },
  {
    name: 'in_select_cartesian_product',
    keys: pairKeys('in_select_cartesian_product'),
    when: 'query',
    checkedBy: STATEMENT,
    from: 'the product of the IN lists of a SELECT',
  },
  {
    name: 'items_per_collection',
    keys: pairKeys('items_per_collection'),
    when: 'write',
    checkedBy: STATEMENT,
    from: 'collection literals written',
  },
  {
    name: 'collection_size',
    keys: pairKeys('collection_size'),
    when: 'write',
    checkedBy: STATEMENT,
    from: 'collection literals written',
  },
  {
    name: 'column_value_size',
    keys: pairKeys('column_value_size'),
    when: 'write',
    checkedBy: STATEMENT,
    from: 'literals written to regular columns',
  },
  {
    name: 'batch_size',
    keys: [
      'batch_size_warn_threshold',
      'batch_size_fail_threshold',
      'batch_size_warn_threshold_in_kb',
      'batch_size_fail_threshold_in_kb',
    ],
    when: 'query',
    checkedBy: STATEMENT,
    from: 'the literals a BATCH writes (bind markers count as nothing)',
  },
  {
    name: 'sai_string_term_size',
    keys: pairKeys('sai_string_term_size'),
    when: 'write',
    checkedBy: STATEMENT,
    from: 'literals written to SAI-indexed text columns',
  },
  {
    name: 'sai_frozen_term_size',
    keys: pairKeys('sai_frozen_term_size'),
    when: 'write',
    checkedBy: STATEMENT,
    from: 'literals written to SAI-indexed frozen columns',
  },
  {
    name: 'sai_vector_term_size',
    keys: pairKeys('sai_vector_term_size'),
    when: 'write',
    checkedBy: STATEMENT,
    from: 'literals written to SAI-indexed vector columns',
  },
  {
    name: 'read_consistency_levels',
    keys: ['read_consistency_levels_warned', 'read_consistency_levels_disallowed'],
    when: 'query',
    checkedBy: STATEMENT,
    from: 'cqlsh CONSISTENCY before a SELECT',
  },
  {
    name: 'write_consistency_levels',
    keys: ['write_consistency_levels_warned', 'write_consistency_levels_disallowed'],
    when: 'query',
    checkedBy: STATEMENT,
    from: 'cqlsh CONSISTENCY before a write',
  },
  { name: 'page_size', keys: pairKeys('page_size'), when: 'query', checkedBy: STATEMENT, from: 'cqlsh PAGING n' },
  {
    name: 'partition_size',
    keys: [
      ...pairKeys('partition_size'),
      'compaction_large_partition_warning_threshold',
      'compaction_large_partition_warning_threshold_mb',
    ],
    when: 'SSTable write',
    checkedBy: 'large-partition',
    from: "the size model's partition estimate",
  },
  {
    name: 'compaction_rows_count_warning_threshold',
    keys: ['compaction_rows_count_warning_threshold'],
    when: 'SSTable write',
    checkedBy: 'large-partition',
    from: "the size model's rows per partition (workload hints, a sample, evidence)",
  },
  {
    name: 'compaction_large_row_warning_threshold_mb',
    keys: ['compaction_large_row_warning_threshold_mb'],
    when: 'SSTable write',
    checkedBy: 'large-partition',
    from: "the size model's row size (column types, hints, evidence)",
  },
  {
    name: 'compaction_large_cell_warning_threshold_mb',
    keys: ['compaction_large_cell_warning_threshold_mb'],
    when: 'SSTable write',
    checkedBy: SIZE,
    from: 'literals written',
  },
  {
    name: 'compaction_collection_elements_count_warning_threshold',
    keys: ['compaction_collection_elements_count_warning_threshold'],
    when: 'SSTable write',
    checkedBy: SIZE,
    from: 'collection literals written',
  },
  // Only the running cluster can judge these.
  {
    name: 'partition_tombstones',
    keys: [...pairKeys('partition_tombstones'), 'compaction_tombstone_warning_threshold'],
    when: 'SSTable write',
    needsCluster:
      'tombstones come from deletes, TTLs and nulls over time; the CQL does not say how many a partition collects (evidence: nodetool tablestats)',
  },
  {
    name: 'tombstones',
    keys: ['tombstone_warn_threshold', 'tombstone_failure_threshold'],
    when: 'read',
    needsCluster:
      'counted per read from the data on disk; the queue-table and status-move rules flag the patterns that pile them up',
  },
  {
    name: 'data_disk_usage_percentage',
    keys: [...pairKeys('data_disk_usage_percentage'), 'data_disk_usage_max_disk_size'],
    when: 'write',
    needsCluster: "the nodes' disks",
  },
  {
    name: 'sai_sstable_indexes_per_query',
    keys: pairKeys('sai_sstable_indexes_per_query'),
    when: 'query',
    needsCluster: 'the number of SSTable indexes a query reads depends on flushes and compaction',
  },
  {
    name: 'bulk_load_enabled',
    keys: ['bulk_load_enabled'],
    when: 'write',
    needsCluster: 'SSTable bulk loading is not CQL',
  },
  {
    name: 'intersect_filtering_query',
    keys: ['intersect_filtering_query_warned', 'intersect_filtering_query_enabled'],
    when: 'query',
    needsCluster: 'whether an index intersection runs depends on the indexes the node has built and its query planner',
  },
  {
    name: 'read_thresholds',
    keys: [
      'read_thresholds_enabled',
      'coordinator_read_size_warn_threshold',
      'coordinator_read_size_fail_threshold',
      'local_read_size_warn_threshold',
      'local_read_size_fail_threshold',
      'row_index_read_size_warn_threshold',
      'row_index_read_size_fail_threshold',
    ],
    when: 'read',
    needsCluster: 'measured on the data a read returns',
  },
  {
    name: 'password_policy',
    keys: ['password_policy'],
    when: 'DDL',
    needsCluster: 'role passwords are not schema; cqlint does not read them',
  },
];
