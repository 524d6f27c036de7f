// What the guardrail rules (and the rules that overlap a guardrail) say about a cluster setting: which
// setting, its value and where it comes from (the team's yaml file and line, or the version's default),
// whether the server warns or refuses, and when. Shared so that every rule words it alike.
import type { ClusterSettings, GuardrailTime, SettingValue } from '../cluster';
import { describeSetting, formatSetting } from '../cluster';
import type { TargetInfo } from '../partition/targets';

const WHEN: Readonly<Record<GuardrailTime, string>> = {
  DDL: 'when the statement runs (DDL)',
  query: 'when the query runs',
  write: 'when the write runs',
  'SSTable write': 'when it writes SSTables (flush and compaction), in its log',
  read: 'when a read runs',
  startup: 'at startup',
};

const VERB = { fail: 'refuses the statement', warn: 'warns', ignore: 'drops it silently' } as const;

/**
 * The details' paragraph about a setting: "`materialized_views_enabled`: false (Cassandra 5.0 default):
 * the server refuses the statement when the statement runs (DDL)." plus how to check the team's values
 * when the value is a default.
 */
export function settingParagraph(
  cluster: ClusterSettings,
  setting: SettingValue,
  action: keyof typeof VERB,
  when: GuardrailTime,
): string {
  const line = `${describeSetting(setting)}: ${cluster.label === 'ScyllaDB' ? 'ScyllaDB' : 'Cassandra'} ${VERB[action]} ${WHEN[when]}.`;
  return setting.fromFile
    ? line
    : `${line} This is the version's default: name the cluster's yaml in \`.cqlint.json\` (\`"cluster": { "config": "cassandra.yaml" }\`) or with \`--cluster-config\` to check the team's own values.`;
}

/** A shorter line for rules whose finding stands anyway: what the cluster's setting adds. */
export function clusterNote(setting: SettingValue, action: keyof typeof VERB, when: GuardrailTime): string {
  return `On this cluster, ${describeSetting(setting)}: the server ${VERB[action]} ${WHEN[when]}.`;
}

type SizeLimit = TargetInfo['partitionBytes'];

/** The smallest threshold among `keys` that the team's yaml sets (not a default), as a target limit. */
function teamLimit(cluster: ClusterSettings, keys: readonly string[]): SizeLimit | undefined {
  let best: SettingValue<number> | undefined;
  for (const key of keys) {
    const setting = cluster.number(key);
    if (setting?.fromFile && setting.value !== undefined && (!best || setting.value < best.value!)) best = setting;
  }
  return best && { value: best.value!, label: `${best.writtenKey} at ${formatSetting(best)}`, source: best.source };
}

const underCluster = new WeakMap<ClusterSettings, Map<TargetInfo, TargetInfo>>();

/**
 * The target's size limits with the team's own thresholds over them, where its yaml sets one: Cassandra's
 * partition_size_* and compaction_large_partition_warning_threshold, ScyllaDB's large partition, row count,
 * row and cell thresholds. The version's defaults are the target's already (targets.ts cites them).
 */
export function targetUnderCluster(target: TargetInfo, cluster: ClusterSettings | undefined): TargetInfo {
  if (!cluster?.file) return target;
  let byTarget = underCluster.get(cluster);
  if (!byTarget) underCluster.set(cluster, (byTarget = new Map()));
  let out = byTarget.get(target);
  if (!out) {
    const partitionBytes = teamLimit(cluster, [
      'partition_size_warn_threshold',
      'partition_size_fail_threshold',
      'compaction_large_partition_warning_threshold',
      'compaction_large_partition_warning_threshold_mb',
    ]);
    const scylla = target.id === 'scylladb';
    const partitionRows = scylla ? teamLimit(cluster, ['compaction_rows_count_warning_threshold']) : undefined;
    const rowBytes = scylla ? teamLimit(cluster, ['compaction_large_row_warning_threshold_mb']) : undefined;
    const cellBytes = scylla ? teamLimit(cluster, ['compaction_large_cell_warning_threshold_mb']) : undefined;
    out = {
      ...target,
      ...(partitionBytes ? { partitionBytes } : {}),
      ...(partitionRows ? { partitionRows: { ...partitionRows, label: `${partitionRows.label} rows` } } : {}),
      ...(rowBytes ? { rowBytes } : {}),
      ...(cellBytes ? { cellBytes } : {}),
    };
    byTarget.set(target, out);
  }
  return out;
}
