// The cluster's own settings (cassandra.yaml, scylla.yaml): what they are, how they are read, and the
// values in force for a file (docs/guardrails.md).
export {
  CLUSTER_VERSIONS,
  GUARDRAILS,
  SETTINGS,
  settingSpec,
  legacySpelling,
  type Guardrail,
  type GuardrailTime,
  type SettingSpec,
} from './catalogue';
export {
  ClusterSettings,
  VERSION_LABELS,
  clusterVersion,
  describeSetting,
  formatSetting,
  hasClusterSettings,
  type Crossing,
  type SettingValue,
} from './settings';
export { readClusterYaml, type ClusterFile, type FileSetting } from './yaml';
export { ClusterFileCache, type ClusterReadResult } from './files';
export { formatDuration, parseSettingValue, type ValueType } from './units';
export { tableGuardrails, tableGuardrailsMarkdown } from './table-guardrails';
