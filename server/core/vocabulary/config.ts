// The shape of .cqlint.json once validated: the vocabulary of the configuration, which the schema, the
// rules, the fixes, the evidence and the report read. It sits below all of them (it imports nothing); the
// loader that fills it (config/) sits above the rules, whose option specs it validates.

/** The databases cqlint lints for (their limits: partition/targets.ts). */
export type TargetId = 'cassandra' | 'scylladb' | 'keyspaces' | 'cosmosdb';

export const TARGET_IDS: readonly TargetId[] = ['cassandra', 'scylladb', 'keyspaces', 'cosmosdb'];

export function isTargetId(value: unknown): value is TargetId {
  return typeof value === 'string' && (TARGET_IDS as readonly string[]).includes(value);
}

export type RuleLevel = 'off' | 'warn' | 'error';

export const RULE_LEVELS: readonly RuleLevel[] = ['off', 'warn', 'error'];

/** Workload facts about one table that the size and throughput rules need (all optional). */
export interface TableHints {
  /** Expected rows in the largest partition (Nr of the Cassandra sizing formula). */
  rowsPerPartition?: number;
  /** Writes per second that go to the busiest partition key. */
  writesPerSecondPerPartition?: number;
  /** Reads per second that go to the busiest partition key. */
  readsPerSecondPerPartition?: number;
  /** Average bytes of a column's value, overriding the estimate from its type. */
  columnSizes?: Record<string, number>;
  /** New rows per second arriving in one partition (growth); defaults to writesPerSecondPerPartition, then the model's rate. */
  rowsPerSecondPerPartition?: number;
  /** Facts about columns that correct the workload model (docs/partition-model.md). */
  columns?: Record<string, ColumnHints>;
}

/** What a user knows about one column. */
export interface ColumnHints {
  /** Estimated distinct values (a country column of a 5-country business: 5). */
  distinct?: number;
}

export type RuleSetting = RuleLevel | [RuleLevel, Record<string, unknown>];

export interface CqlintConfig {
  /** Which database the schema is for; default `cassandra`. */
  target?: TargetId;
  /** Rule levels and options by rule id. */
  rules?: Record<string, RuleSetting>;
  /** Workload hints by table: `ks.table` or `table`. */
  tables?: Record<string, TableHints>;
  /**
   * A token ring file (`nodetool ring` / `describering` output or JSON) for hovers: absolute once loaded
   * from a .cqlint.json (written relative to it).
   */
  ring?: string;
  /**
   * Sample rows by table (`ks.table` or `table`) for the partition report: a cqlsh `COPY ... TO` CSV,
   * absolute once loaded (written relative to the .cqlint.json), and the column order of a file without header.
   */
  samples?: Record<string, SampleSetting>;
  /**
   * The folder of the .cqlint.json this was loaded from. What it names (ring, samples) must lie inside it
   * or inside the folders the reader allows (the workspace, the command line's inputs): a config that
   * comes with a repository must not make cqlint read, and quote, a file from elsewhere.
   */
  folder?: string;
  /** Files the config's folder holds that are not linted (`ignorePatterns`, gitignore syntax, relative to the .cqlint.json). */
  ignorePatterns?: IgnoreSource;
  /**
   * Production evidence (docs/evidence.md): outputs of nodetool, dsbulk and system-table exports, files or
   * folders, absolute once loaded (written relative to the .cqlint.json), with what the output does not say.
   */
  evidence?: EvidenceSetting[];
  /**
   * The keyspace of statements in application code that name a table without one, when the code itself does not
   * say (`cluster.connect('shop')`, `new Client({ keyspace: 'shop' })`, ...).
   */
  defaultKeyspace?: string;
  /** Reading the CQL inside application code (docs/application-code.md): which languages; all by default. */
  embedded?: EmbeddedSetting;
  /** The cluster the schema runs on: its version and its cassandra.yaml or scylla.yaml (docs/guardrails.md). */
  cluster?: ClusterSetting;
  /**
   * Migration folders (docs/migrations.md): the folders whose .cql files apply in order, absolute once loaded
   * (written relative to the .cqlint.json); `false` when none is. Set, it replaces the detection by file names
   * for the files this config applies to.
   */
  migrations?: string[] | false;
  /**
   * Report the suppression comments (`cqlint-disable...`) that silence nothing, at this level (ESLint's
   * reportUnusedDisableDirectives); default `off`. `--report-unused-disable-directives` replaces it.
   */
  reportUnusedDisableDirectives?: RuleLevel;
}

/** The application languages whose files cqlint reads CQL from, as the settings name them. */
export const EMBEDDED_LANGUAGES = ['java', 'kotlin', 'python', 'go', 'javascript', 'typescript', 'csharp'] as const;
export type EmbeddedLanguageName = (typeof EMBEDDED_LANGUAGES)[number];

export interface EmbeddedSetting {
  /** The languages read; an empty list reads none. */
  languages: readonly EmbeddedLanguageName[];
}

/** Cassandra 4.0, 4.1, 5.0 or ScyllaDB: which guardrails exist, their yaml names and their defaults. */
export type ClusterVersion = '4.0' | '4.1' | '5.0' | 'scylladb';

/** `.cqlint.json` `cluster`, `--cluster-config` / `--cluster-version`, the editor's `cqlint.cluster`. */
export interface ClusterSetting {
  version?: ClusterVersion;
  /** The cassandra.yaml or scylla.yaml (absolute once loaded; written relative to the .cqlint.json). */
  config?: string;
  /** `config` as written (messages cite it so). */
  name?: string;
  /** The folder of the .cqlint.json that named it: what a config names is read inside it and the reader's roots. */
  configFolder?: string;
  /** Named by the user's own command line or editor setting: read wherever it is. */
  unconfined?: boolean;
}

export interface SampleSetting {
  file: string;
  /** The file as the .cqlint.json writes it (messages cite it so). */
  name?: string;
  columns?: string[];
}

export interface ConfigError {
  /** Names the offending key: `rules.hot-partiton: unknown rule ...`. */
  message: string;
  /** Dotted path of the key (`rules.hot-partition`, `tables.ks.posts.rowsPerPartition`). */
  key?: string;
}

/** An option a rule accepts in `[level, { ... }]`. */
export interface RuleOptionSpec {
  type: 'number' | 'boolean' | 'string' | 'string[]';
  description: string;
  default?: unknown;
  /** For numbers: smallest accepted value. */
  minimum?: number;
}

/** Patterns and the folder they are relative to. */
export interface IgnoreSource {
  /** Absolute folder the patterns are relative to. */
  base: string;
  patterns: readonly string[];
  /** Where the patterns come from (a file path), for "ignored by ...". */
  origin: string;
}

/** What the configuration or the command line says about an evidence file or folder. */
export interface EvidenceSetting {
  /** A file or folder (absolute once loaded). */
  path: string;
  /** As written (messages cite it so). */
  name?: string;
  node?: string;
  /** `YYYY-MM-DD` or an ISO date-time. */
  captured?: string;
  /** The table, for outputs that do not name it (dsbulk count, toppartitions of Cassandra 3.x). */
  table?: string;
  /** The sampling duration of a toppartitions output whose command line is not in the file, in seconds. */
  durationSeconds?: number;
  /**
   * Named by the user's own command line or editor setting, not by a workspace's .cqlint.json: it may lie
   * outside the workspace (a .cqlint.json cannot set this).
   */
  unconfined?: boolean;
  /**
   * The folder of the .cqlint.json that named it: what a config names is read inside that folder and the
   * reader's roots (the workspace, the command line's inputs). Set when the config is loaded, never by it.
   */
  configFolder?: string;
}
