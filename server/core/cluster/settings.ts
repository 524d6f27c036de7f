// The cluster a file's CQL runs on: its version and, for every setting, the value in force with where it
// comes from (the team's yaml file and line, or the version's default). What the guardrail rules, the
// overlapping rules, the hover and the report read. Pure: the yaml was read beforehand (files.ts).
import type { ClusterSetting, ClusterVersion } from '../vocabulary/config';
import type { TargetId } from '../partition/targets';
import { settingSpec, type SettingSpec } from './catalogue';
import type { ClusterFile } from './yaml';
import { formatDuration } from './units';
import { formatCassandraBytes } from '../util/format';

/** One setting in force. */
export interface SettingValue<T = number | boolean | readonly string[]> {
  /** The yaml name (current spelling). */
  key: string;
  /** As the file writes it (a 4.0 name), else `key`. */
  writtenKey: string;
  /** Undefined: the threshold is off. */
  value: T | undefined;
  type: SettingSpec['type'];
  /** `conf/cassandra.yaml:12`, or `Cassandra 5.0 default`. */
  source: string;
  /** Set by the team's file (not a default). */
  fromFile: boolean;
}

/** A threshold crossed: which side and the setting. */
export interface Crossing {
  action: 'warn' | 'fail';
  setting: SettingValue<number>;
}

export const VERSION_LABELS: Readonly<Record<ClusterVersion, string>> = {
  '4.0': 'Cassandra 4.0',
  '4.1': 'Cassandra 4.1',
  '5.0': 'Cassandra 5.0',
  scylladb: 'ScyllaDB',
};

export class ClusterSettings {
  private readonly memo = new Map<string, SettingValue | null>();

  constructor(
    readonly version: ClusterVersion,
    /** The team's yaml, as read; undefined: the version's defaults. */
    readonly file?: ClusterFile,
  ) {}

  /** `Cassandra 5.0` or `ScyllaDB`. */
  get label(): string {
    return VERSION_LABELS[this.version];
  }

  /** A setting in force; undefined when the version has no such setting and the file does not set it. */
  get(key: string): SettingValue | undefined {
    const memo = this.memo.get(key);
    if (memo !== undefined) return memo ?? undefined;
    const found = this.resolve(key);
    this.memo.set(key, found ?? null);
    return found;
  }

  private resolve(key: string): SettingValue | undefined {
    const spec = settingSpec(key);
    if (!spec) return undefined;
    const set = this.file?.settings.get(key);
    if (set)
      return {
        key,
        writtenKey: set.writtenKey,
        value: set.value,
        type: spec.type,
        source: `${this.file!.name}:${set.line}`,
        fromFile: true,
      };
    if (!Object.hasOwn(spec.defaults, this.version)) return undefined;
    const value = spec.defaults[this.version];
    return {
      key,
      writtenKey: key,
      value: value === null ? undefined : value,
      type: spec.type,
      source: `${this.label} default`,
      fromFile: false,
    };
  }

  flag(key: string): SettingValue<boolean> | undefined {
    return this.get(key) as SettingValue<boolean> | undefined;
  }

  list(key: string): SettingValue<readonly string[]> | undefined {
    return this.get(key) as SettingValue<readonly string[]> | undefined;
  }

  number(key: string): SettingValue<number> | undefined {
    return this.get(key) as SettingValue<number> | undefined;
  }

  /**
   * Whether `measured` crosses a warn/fail pair (`above`: more than the threshold trips it, as Cassandra's
   * MaxThreshold; `below`: less than it, as MinThreshold). The fail side wins.
   */
  crossing(
    warnKey: string | undefined,
    failKey: string | undefined,
    measured: number,
    direction: 'above' | 'below' = 'above',
  ): Crossing | undefined {
    const trips = (s: SettingValue<number> | undefined): s is SettingValue<number> =>
      s?.value !== undefined && (direction === 'above' ? measured > s.value : measured < s.value);
    const fail = failKey ? this.number(failKey) : undefined;
    if (trips(fail)) return { action: 'fail', setting: fail };
    const warn = warnKey ? this.number(warnKey) : undefined;
    if (trips(warn)) return { action: 'warn', setting: warn };
    return undefined;
  }

  /** `<name>_warn_threshold` / `<name>_fail_threshold`. */
  pair(name: string, measured: number, direction: 'above' | 'below' = 'above'): Crossing | undefined {
    return this.crossing(`${name}_warn_threshold`, `${name}_fail_threshold`, measured, direction);
  }
}

/** A setting's value as the docs and messages write it: `5 KiB`, `12 h`, `false`, `[ANY, ONE]`, `off`. */
export function formatSetting(setting: Pick<SettingValue, 'value' | 'type'>): string {
  const { value, type } = setting;
  if (value === undefined) return 'off';
  if (typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return `[${value.join(', ')}]`;
  if (type === 'bytes') return formatCassandraBytes(value as number);
  if (type === 'duration') return formatDuration(value as number);
  return String(value);
}

/** `batch_size_warn_threshold: 5 KiB (conf/cassandra.yaml:12)` as markdown. */
export function describeSetting(setting: SettingValue): string {
  return `\`${setting.writtenKey}\`: ${formatSetting(setting)} (${setting.source})`;
}

/** The version a setting names, else ScyllaDB's for its target or its file, 4.0's for a file in 4.0 spelling, else 5.0. */
export function clusterVersion(
  setting: ClusterSetting | undefined,
  target: TargetId,
  file?: ClusterFile,
): ClusterVersion {
  if (setting?.version) return setting.version;
  if (target === 'scylladb' || file?.scylla) return 'scylladb';
  return file?.legacySpelling ? '4.0' : '5.0';
}

/** Guardrails apply to Cassandra and ScyllaDB; Amazon Keyspaces and Cosmos DB have no yaml. */
export function hasClusterSettings(target: TargetId): boolean {
  return target === 'cassandra' || target === 'scylladb';
}
