// The cluster settings that apply to one table, in force (a threshold set, a feature turned off, a list
// not empty), with their values and sources: what the hover of a table and the partition report show.
// Pure: reads the table and the settings.
import type { TableInfo } from '../schema/model';
import { markdownText } from '../util/markdown';
import { formatSetting, type ClusterSettings, type SettingValue } from './settings';

/** Settings about one table's shape and the statements on it; pairs are listed warn then fail. */
const TABLE_KEYS: readonly string[] = [
  'columns_per_table',
  'secondary_indexes_per_table',
  'materialized_views_per_table',
  'partition_keys_in_select',
  'in_select_cartesian_product',
  'column_value_size',
  'collection_size',
  'items_per_collection',
  'partition_size',
  'partition_tombstones',
  'sai_string_term_size',
  'sai_frozen_term_size',
  'sai_vector_term_size',
  'vector_dimensions',
]
  .flatMap((name) => [`${name}_warn_threshold`, `${name}_fail_threshold`])
  .concat([
    'compaction_large_partition_warning_threshold',
    'compaction_large_partition_warning_threshold_mb',
    'compaction_large_row_warning_threshold_mb',
    'compaction_large_cell_warning_threshold_mb',
    'compaction_rows_count_warning_threshold',
    'compaction_collection_elements_count_warning_threshold',
    'tombstone_warn_threshold',
    'tombstone_failure_threshold',
    'batch_size_warn_threshold',
    'batch_size_fail_threshold',
    'table_properties_warned',
    'table_properties_ignored',
    'table_properties_disallowed',
    'allow_filtering_enabled',
    'group_by_enabled',
    'user_timestamps_enabled',
    'read_before_write_list_operations_enabled',
    'non_partition_restricted_index_query_enabled',
    'secondary_indexes_enabled',
    'alter_table_enabled',
    'drop_truncate_table_enabled',
    'uncompressed_tables_enabled',
    'compact_tables_enabled',
    'zero_ttl_on_twcs_enabled',
    'materialized_views_enabled',
    'sasi_indexes_enabled',
  ]);

/** The settings in force for a table: thresholds set, flags off, lists not empty (views: the view's own). */
export function tableGuardrails(cluster: ClusterSettings, table: TableInfo): SettingValue[] {
  const out: SettingValue[] = [];
  for (const key of TABLE_KEYS) {
    const setting = cluster.get(key);
    if (!setting || setting.value === undefined) continue;
    if (setting.type === 'flag' && setting.value !== false) continue;
    if (setting.type === 'list' && !(setting.value as readonly string[]).length) continue;
    // A view cannot have its own views or indexes.
    if (table.kind === 'view' && /^(materialized_views|secondary_indexes)_per_table/.test(key)) continue;
    out.push(setting);
  }
  return out;
}

/** The hover's section: `**On the cluster** (Cassandra 5.0, conf/cassandra.yaml)` and one line per setting. */
export function tableGuardrailsMarkdown(cluster: ClusterSettings, table: TableInfo): string | undefined {
  const settings = tableGuardrails(cluster, table);
  if (!settings.length) return undefined;
  const from = cluster.file ? `${cluster.label}, ${markdownText(cluster.file.name)}` : `${cluster.label} defaults`;
  return [
    `**Cluster guardrails** (${from})`,
    '',
    ...settings.map((s) => `- \`${s.writtenKey}\`: ${markdownText(formatSetting(s))} (${markdownText(s.source)})`),
  ].join('\n');
}
