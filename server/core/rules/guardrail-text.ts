// What the guardrail rules (and the rules that overlap a guardrail) say about a cluster setting: which
// setting, its value and where it comes from (the team's yaml file and line, or the version's default),
// whether the server warns or refuses, and when. Shared so that every rule words it alike.
import type { ClusterSettings, GuardrailTime, SettingValue } from '../cluster';
import { describeSetting } from '../cluster';

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
export function settingParagraph(cluster: ClusterSettings, setting: SettingValue, action: keyof typeof VERB, when: GuardrailTime): string {
  const line = `${describeSetting(setting)}: ${cluster.label === 'ScyllaDB' ? 'ScyllaDB' : 'Cassandra'} ${VERB[action]} ${WHEN[when]}.`;
  return setting.fromFile ? line : `${line} This is the version's default: name the cluster's yaml in \`.cqlint.json\` (\`"cluster": { "config": "cassandra.yaml" }\`) or with \`--cluster-config\` to check the team's own values.`;
}

/** A shorter line for rules whose finding stands anyway: what the cluster's setting adds. */
export function clusterNote(setting: SettingValue, action: keyof typeof VERB, when: GuardrailTime): string {
  return `On this cluster, ${describeSetting(setting)}: the server ${VERB[action]} ${WHEN[when]}.`;
}
