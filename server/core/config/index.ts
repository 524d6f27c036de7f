// .cqlint.json: discovery (upward from a file, like ESLint), loading and validation. Invalid parts are
// dropped with an error naming the key; the valid rest still applies.
import { statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { isInside, readTextFile, readTextFileSync, type ReadResult } from '../io/files';
import { TARGET_IDS, isTargetId, RULE_LEVELS } from '../vocabulary/config';
import { allRules } from '../rules';
import type {
  ClusterSetting,
  ColumnHints,
  ConfigError,
  CqlintConfig,
  EmbeddedLanguageName,
  EmbeddedSetting,
  EvidenceSetting,
  RuleLevel,
  RuleSetting,
  SampleSetting,
  TableHints,
} from '../vocabulary/config';
import { parseDuration } from '../evidence/header';
import { EMBEDDED_LANGUAGES } from '../vocabulary/config';
import { CLUSTER_VERSIONS } from '../cluster/catalogue';
import { nearest } from '../util/edit-distance';
import { nameRecord, ownEntry } from '../util/names';
import { jsonErrorOffset } from '../util/json-scan';
import { LineIndex } from '../../../grammar/line-index';
import { usablePatterns } from './ignore';

export { editDistance } from '../util/edit-distance';

export type {
  ColumnHints,
  ConfigError,
  CqlintConfig,
  RuleLevel,
  RuleSetting,
  SampleSetting,
  TableHints,
  RuleOptionSpec,
} from '../vocabulary/config';
export { RULE_LEVELS } from '../vocabulary/config';

export const CONFIG_FILE_NAME = '.cqlint.json';

/**
 * The folders searched for a file's `.cqlint.json`, nearest first. With `boundaries` (the editor's
 * workspace folders), the search stops at the innermost folder that holds the file, and a file outside
 * all of them looks in its own folder only: a config in a shared parent (a temporary folder, a home
 * directory) must not apply to a workspace.
 */
export function configSearchDirs(filePath: string, boundaries?: readonly string[]): string[] {
  let dir = dirname(resolve(filePath));
  let stop: string | undefined;
  if (boundaries) {
    const holding = boundaries.filter((folder) => isInside(folder, dir));
    stop = holding.length ? holding.reduce((a, b) => (a.length >= b.length ? a : b)) : dir;
  }
  const dirs: string[] = [];
  for (;;) {
    dirs.push(dir);
    const parent = dirname(dir);
    if (parent === dir || (stop !== undefined && isInside(dir, stop))) return dirs;
    dir = parent;
  }
}

/** The nearest `.cqlint.json` in the file's folder or above (see configSearchDirs); undefined when there is none. */
export function findConfigFor(filePath: string, boundaries?: readonly string[]): string | undefined {
  for (const dir of configSearchDirs(filePath, boundaries)) {
    const candidate = join(dir, CONFIG_FILE_NAME);
    try {
      // Any entry counts (a FIFO or folder named .cqlint.json too): loading it then says what is wrong.
      statSync(candidate);
      return candidate;
    } catch {
      // none here (or unreadable): keep looking above
    }
  }
  return undefined;
}

export interface LoadedConfigFile {
  config?: CqlintConfig;
  errors: ConfigError[];
}

interface LoadOptions {
  /**
   * The config's real path (symbolic links resolved) must be inside one of these folders: a discovered
   * .cqlint.json linked to a file outside the project is refused, never read or quoted. Undefined: a
   * config named on the command line, read wherever it is.
   */
  roots?: readonly string[];
}

/** Loads and validates a config file. Never throws: every problem becomes a ConfigError. */
export function loadConfigFile(path: string, options: LoadOptions = {}): LoadedConfigFile {
  return configFromRead(readTextFileSync(path, { kind: 'config', roots: options.roots }), path);
}

/** loadConfigFile without blocking: for the language server, which must not read synchronously. */
export async function loadConfigFileAsync(path: string, options: LoadOptions = {}): Promise<LoadedConfigFile> {
  return configFromRead(await readTextFile(path, { kind: 'config', roots: options.roots }), path);
}

function configFromRead(read: ReadResult, path: string): LoadedConfigFile {
  if (!read.ok) return { errors: [{ message: `${path}: cannot read the file: ${read.message}` }] };
  return parseConfigText(read.text, path);
}

/** Parses and validates the text of a config file. Never throws. */
function parseConfigText(text: string, path: string): LoadedConfigFile {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    // Where, not what: JSON.parse's message quotes the text, and a config may be anything (a secret).
    const offset = jsonErrorOffset(text);
    const at = offset === undefined ? undefined : new LineIndex(text).location(offset);
    return { errors: [{ message: `${path}: not valid JSON${at ? ` (line ${at.line}, column ${at.column})` : ''}` }] };
  }
  try {
    return parseConfig(json, path);
  } catch (err) {
    // A validation bug must not take linting down with it: report it, lint with the defaults.
    return {
      errors: [
        { message: `${path}: cannot validate the configuration (${err instanceof Error ? err.message : String(err)})` },
      ],
    };
  }
}

const TOP_LEVEL_KEYS = new Set([
  '$schema',
  'target',
  'rules',
  'tables',
  'ring',
  'samples',
  'ignorePatterns',
  'evidence',
  'defaultKeyspace',
  'embedded',
  'cluster',
  'migrations',
  'reportUnusedDisableDirectives',
]);
const HINT_KEYS: Record<keyof TableHints, 'rate' | 'count' | 'sizes' | 'columns'> = {
  rowsPerPartition: 'count',
  writesPerSecondPerPartition: 'rate',
  readsPerSecondPerPartition: 'rate',
  rowsPerSecondPerPartition: 'rate',
  columnSizes: 'sizes',
  columns: 'columns',
};
const COLUMN_HINT_KEYS: readonly (keyof ColumnHints)[] = ['distinct'];

/** `tables.<t>.columns`: column name → { distinct }; bad entries become errors, good ones are kept. */
function parseColumnHints(hintKey: string, v: unknown, errors: ConfigError[]): Record<string, ColumnHints> | undefined {
  if (!isPlainObject(v)) {
    errors.push({
      key: hintKey,
      message: `${hintKey}: must map column names to facts such as { "distinct": 5 }, got ${describe(v)}`,
    });
    return undefined;
  }
  // Every record keyed by the user's names (columns, tables, rules) has no prototype (util/names.ts).
  const columns = nameRecord<ColumnHints>();
  for (const [col, facts] of Object.entries(v)) {
    const colKey = `${hintKey}.${col}`;
    if (!isPlainObject(facts)) {
      errors.push({
        key: colKey,
        message: `${colKey}: must be an object such as { "distinct": 5 }, got ${describe(facts)}`,
      });
      continue;
    }
    const out: ColumnHints = {};
    for (const [name, value] of Object.entries(facts)) {
      const factKey = `${colKey}.${name}`;
      if (!(COLUMN_HINT_KEYS as readonly string[]).includes(name)) {
        const hint = closest(name, COLUMN_HINT_KEYS);
        errors.push({
          key: factKey,
          message: `${factKey}: unknown column hint${hint ? ` (did you mean "${hint}"?)` : ''}; known: ${COLUMN_HINT_KEYS.join(', ')}`,
        });
        continue;
      }
      if (typeof value !== 'number' || !Number.isInteger(value) || value < 1) {
        errors.push({
          key: factKey,
          message: `${factKey}: must be a whole number of distinct values >= 1, got ${describe(value)}`,
        });
        continue;
      }
      out.distinct = value;
    }
    columns[col] = out;
  }
  return columns;
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Longest value quoted in an error message. */
const MAX_DESCRIBED_CHARS = 80;

/**
 * A short rendering of a config value for error messages. Bounded in depth and length (no recursion
 * over the value): a value nested 100,000 levels deep must give a message, not a RangeError.
 */
export function describe(v: unknown): string {
  let out = '';
  // An explicit stack of what is left to print: values, or literal text (closing brackets, commas).
  const stack: ({ value: unknown; depth: number } | string)[] = [{ value: v, depth: 0 }];
  while (stack.length && out.length <= MAX_DESCRIBED_CHARS) {
    const next = stack.pop()!;
    if (typeof next === 'string') {
      out += next;
      continue;
    }
    const { value, depth } = next;
    if (value === null || typeof value !== 'object') {
      out +=
        typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean'
          ? JSON.stringify(value)
          : String(value);
      continue;
    }
    const isArray = Array.isArray(value);
    const entries: [string | undefined, unknown][] = isArray
      ? (value as unknown[]).map((item) => [undefined, item])
      : Object.entries(value as Record<string, unknown>);
    if (!entries.length) {
      out += isArray ? '[]' : '{}';
      continue;
    }
    if (depth >= 3) {
      out += isArray ? '[...]' : '{...}';
      continue;
    }
    out += isArray ? '[' : '{';
    stack.push(isArray ? ']' : '}');
    for (let i = entries.length - 1; i >= 0; i--) {
      const [key, item] = entries[i];
      stack.push({ value: item, depth: depth + 1 });
      if (key !== undefined) stack.push(`${JSON.stringify(key)}: `);
      if (i > 0) stack.push(', ');
    }
  }
  return out.length > MAX_DESCRIBED_CHARS || stack.length ? `${out.slice(0, MAX_DESCRIBED_CHARS)}...` : out;
}

function closest(word: string, options: readonly string[]): string | undefined {
  const found = nearest(word, options);
  return found && found.distance <= Math.max(2, Math.floor(word.length / 3)) ? found.best : undefined;
}

function parseRuleSetting(id: string, value: unknown, errors: ConfigError[]): RuleSetting | undefined {
  const key = `rules.${id}`;
  const rule = allRules.find((r) => r.meta.id === id);
  if (!rule) {
    const hint = closest(
      id,
      allRules.map((r) => r.meta.id),
    );
    errors.push({ key, message: `${key}: unknown rule "${id}"${hint ? ` (did you mean "${hint}"?)` : ''}` });
    return undefined;
  }
  const level = Array.isArray(value) ? value[0] : value;
  if (typeof level !== 'string' || !(RULE_LEVELS as readonly string[]).includes(level)) {
    errors.push({
      key,
      message: `${key}: level must be "off", "warn" or "error" (or [level, options]), got ${describe(level)}`,
    });
    return undefined;
  }
  if (!Array.isArray(value)) return level as RuleLevel;
  if (value.length > 2) {
    errors.push({ key, message: `${key}: expected [level, options], got ${value.length} items` });
    return undefined;
  }
  const options = value[1] ?? {};
  if (!isPlainObject(options)) {
    errors.push({ key, message: `${key}: options must be an object, got ${describe(options)}` });
    return level as RuleLevel;
  }
  const specs = rule.meta.options ?? {};
  const valid = nameRecord<unknown>();
  for (const [name, v] of Object.entries(options)) {
    const spec = Object.hasOwn(specs, name) ? specs[name] : undefined;
    const optKey = `${key}.${name}`;
    if (!spec) {
      const known = Object.keys(specs);
      errors.push({
        key: optKey,
        message: `${optKey}: unknown option for ${id}${known.length ? ` (known: ${known.join(', ')})` : ' (the rule takes no options)'}`,
      });
      continue;
    }
    const ok =
      spec.type === 'number'
        ? typeof v === 'number' && Number.isFinite(v) && (spec.minimum === undefined || v >= spec.minimum)
        : spec.type === 'boolean'
          ? typeof v === 'boolean'
          : spec.type === 'string'
            ? typeof v === 'string'
            : Array.isArray(v) && v.every((s) => typeof s === 'string');
    if (!ok) {
      const want =
        spec.type === 'number' && spec.minimum !== undefined
          ? `a number >= ${spec.minimum}`
          : spec.type === 'string[]'
            ? 'an array of strings'
            : `a ${spec.type}`;
      errors.push({ key: optKey, message: `${optKey}: must be ${want}, got ${describe(v)}` });
      continue;
    }
    valid[name] = v;
  }
  return [level as RuleLevel, valid];
}

function parseHints(table: string, value: unknown, errors: ConfigError[]): TableHints | undefined {
  const key = `tables.${table}`;
  if (!isPlainObject(value)) {
    errors.push({ key, message: `${key}: must be an object of workload hints, got ${describe(value)}` });
    return undefined;
  }
  const hints: TableHints = {};
  for (const [name, v] of Object.entries(value)) {
    const hintKey = `${key}.${name}`;
    const kind = Object.hasOwn(HINT_KEYS, name) ? (HINT_KEYS as Record<string, string>)[name] : undefined;
    if (!kind) {
      const hint = closest(name, Object.keys(HINT_KEYS));
      errors.push({
        key: hintKey,
        message: `${hintKey}: unknown hint${hint ? ` (did you mean "${hint}"?)` : ''}; known: ${Object.keys(HINT_KEYS).join(', ')}`,
      });
      continue;
    }
    if (kind === 'columns') {
      const columns = parseColumnHints(hintKey, v, errors);
      if (columns) hints.columns = columns;
      continue;
    }
    if (kind === 'sizes') {
      if (!isPlainObject(v)) {
        errors.push({
          key: hintKey,
          message: `${hintKey}: must map column names to average sizes in bytes, got ${describe(v)}`,
        });
        continue;
      }
      const sizes = nameRecord<number>();
      for (const [col, size] of Object.entries(v)) {
        if (typeof size !== 'number' || !Number.isFinite(size) || size < 0) {
          errors.push({
            key: `${hintKey}.${col}`,
            message: `${hintKey}.${col}: must be a size in bytes (a number >= 0), got ${describe(size)}`,
          });
          continue;
        }
        sizes[col] = size;
      }
      hints.columnSizes = sizes;
      continue;
    }
    if (typeof v !== 'number' || !Number.isFinite(v) || v < 0) {
      errors.push({ key: hintKey, message: `${hintKey}: must be a number >= 0, got ${describe(v)}` });
      continue;
    }
    (hints as Record<string, number>)[name] = v;
  }
  return hints;
}

/** Validates a parsed .cqlint.json. `source` (a path) prefixes nothing; errors carry the key. */
export function parseConfig(json: unknown, source?: string): { config?: CqlintConfig; errors: ConfigError[] } {
  const errors: ConfigError[] = [];
  const where = source ? `${source}: ` : '';
  if (!isPlainObject(json)) {
    return { errors: [{ message: `${where}the configuration must be a JSON object, got ${describe(json)}` }] };
  }
  const config: CqlintConfig = source ? { folder: dirname(resolve(source)) } : {};
  for (const key of Object.keys(json)) {
    if (!TOP_LEVEL_KEYS.has(key)) {
      const hint = closest(
        key,
        [...TOP_LEVEL_KEYS].filter((k) => k !== '$schema'),
      );
      errors.push({
        key,
        message: `${key}: unknown setting${hint ? ` (did you mean "${hint}"?)` : ''}; known: ${[...TOP_LEVEL_KEYS].filter((k) => k !== '$schema').join(', ')}`,
      });
    }
  }
  if ('target' in json) {
    if (isTargetId(json.target)) config.target = json.target;
    else
      errors.push({
        key: 'target',
        message: `target: must be one of ${TARGET_IDS.map((t) => `"${t}"`).join(', ')}, got ${describe(json.target)}`,
      });
  }
  if ('rules' in json) {
    if (!isPlainObject(json.rules)) {
      errors.push({
        key: 'rules',
        message: `rules: must be an object mapping rule ids to "off", "warn" or "error", got ${describe(json.rules)}`,
      });
    } else {
      config.rules = nameRecord();
      for (const [id, value] of Object.entries(json.rules)) {
        const setting = parseRuleSetting(id, value, errors);
        if (setting !== undefined) config.rules[id] = setting;
      }
    }
  }
  if ('tables' in json) {
    if (!isPlainObject(json.tables)) {
      errors.push({
        key: 'tables',
        message: `tables: must be an object mapping table names to workload hints, got ${describe(json.tables)}`,
      });
    } else {
      config.tables = nameRecord();
      for (const [table, value] of Object.entries(json.tables)) {
        const hints = parseHints(table, value, errors);
        if (hints) config.tables[table] = hints;
      }
    }
  }
  if ('ring' in json) {
    // Relative to the .cqlint.json that names it (kept as written when the config has no file).
    if (typeof json.ring === 'string' && json.ring.trim() !== '')
      config.ring = source ? resolve(dirname(source), json.ring) : json.ring;
    else
      errors.push({
        key: 'ring',
        message: `ring: must be the path of a ring file (nodetool ring output or JSON), got ${describe(json.ring)}`,
      });
  }
  if ('samples' in json) config.samples = parseSamples(json.samples, source, errors);
  if ('ignorePatterns' in json) {
    const patterns = json.ignorePatterns;
    if (Array.isArray(patterns) && patterns.every((p) => typeof p === 'string')) {
      // Relative to the .cqlint.json (to the working folder for a config without a file). A pattern too long
      // to use is an error of its own; the others apply.
      const usable = usablePatterns(patterns);
      for (const problem of usable.problems)
        errors.push({
          key: `ignorePatterns[${problem.index}]`,
          message: `ignorePatterns[${problem.index}]: ${problem.message}`,
        });
      config.ignorePatterns = {
        base: source ? dirname(resolve(source)) : resolve('.'),
        patterns: usable.patterns,
        origin: source ?? CONFIG_FILE_NAME,
      };
    } else
      errors.push({
        key: 'ignorePatterns',
        message: `ignorePatterns: must be an array of gitignore patterns (strings), got ${describe(patterns)}`,
      });
  }
  if ('evidence' in json) config.evidence = parseEvidence(json.evidence, source, errors);
  if ('defaultKeyspace' in json) {
    if (typeof json.defaultKeyspace === 'string' && json.defaultKeyspace.trim() !== '')
      config.defaultKeyspace = json.defaultKeyspace;
    else
      errors.push({
        key: 'defaultKeyspace',
        message: `defaultKeyspace: must be a keyspace name, got ${describe(json.defaultKeyspace)}`,
      });
  }
  if ('embedded' in json) {
    const embedded = parseEmbedded(json.embedded, errors);
    if (embedded) config.embedded = embedded;
  }
  if ('cluster' in json) config.cluster = parseCluster(json.cluster, source, errors);
  if ('migrations' in json) {
    const migrations = parseMigrations(json.migrations, source, errors);
    if (migrations !== undefined) config.migrations = migrations;
  }
  if ('reportUnusedDisableDirectives' in json) {
    const level = json.reportUnusedDisableDirectives;
    if ((RULE_LEVELS as readonly unknown[]).includes(level)) config.reportUnusedDisableDirectives = level as RuleLevel;
    else
      errors.push({
        key: 'reportUnusedDisableDirectives',
        message: `reportUnusedDisableDirectives: must be "off", "warn" or "error", got ${describe(level)}`,
      });
  }
  if (source) for (const e of errors) e.message = `${where}${e.message}`;
  return { config, errors };
}

/**
 * `migrations`: a folder or a list of folders (relative to the .cqlint.json; to the working folder for a
 * config without a file) whose .cql files apply in order, or `false` (no migration folder).
 */
function parseMigrations(
  value: unknown,
  source: string | undefined,
  errors: ConfigError[],
): string[] | false | undefined {
  if (value === false) return false;
  const list = typeof value === 'string' ? [value] : value;
  if (!Array.isArray(list) || !list.length || !list.every((v) => typeof v === 'string' && v.trim() !== '')) {
    errors.push({
      key: 'migrations',
      message: `migrations: must be a folder, a list of folders (relative to the .cqlint.json) or false, got ${describe(value)}`,
    });
    return undefined;
  }
  return (list as string[]).map((folder) => (source ? resolve(dirname(source), folder) : resolve(folder)));
}

/** `embedded`: false (no application code is read), or { languages: [...] }. */
function parseEmbedded(value: unknown, errors: ConfigError[]): EmbeddedSetting | undefined {
  if (value === false) return { languages: [] };
  if (value === true) return { languages: EMBEDDED_LANGUAGES };
  const known = EMBEDDED_LANGUAGES.map((l) => `"${l}"`).join(', ');
  if (!isPlainObject(value)) {
    errors.push({
      key: 'embedded',
      message: `embedded: must be false or { "languages": [...] }, got ${describe(value)}`,
    });
    return undefined;
  }
  for (const key of Object.keys(value)) {
    if (key !== 'languages')
      errors.push({ key: `embedded.${key}`, message: `embedded.${key}: unknown setting; known: languages` });
  }
  if (!('languages' in value)) return undefined;
  const languages = value.languages;
  if (!Array.isArray(languages)) {
    errors.push({
      key: 'embedded.languages',
      message: `embedded.languages: must be a list of ${known}, got ${describe(languages)}`,
    });
    return undefined;
  }
  const kept: EmbeddedLanguageName[] = [];
  for (const [i, language] of languages.entries()) {
    if ((EMBEDDED_LANGUAGES as readonly unknown[]).includes(language)) kept.push(language as EmbeddedLanguageName);
    else
      errors.push({
        key: `embedded.languages[${i}]`,
        message: `embedded.languages[${i}]: must be one of ${known}, got ${describe(language)}`,
      });
  }
  return { languages: kept };
}

/** `cluster`: `{ "version": "5.0", "config": "conf/cassandra.yaml" }`, the file relative to the config that names it. */
export function parseCluster(
  value: unknown,
  source: string | undefined,
  errors: ConfigError[],
): ClusterSetting | undefined {
  if (!isPlainObject(value)) {
    errors.push({
      key: 'cluster',
      message: `cluster: must be an object such as { "version": "5.0", "config": "conf/cassandra.yaml" }, got ${describe(value)}`,
    });
    return undefined;
  }
  const out: ClusterSetting = {};
  for (const key of Object.keys(value)) {
    if (key !== 'version' && key !== 'config')
      errors.push({ key: `cluster.${key}`, message: `cluster.${key}: unknown key; known: version, config` });
  }
  if (value.version !== undefined) {
    const version = typeof value.version === 'number' ? value.version.toFixed(1) : value.version;
    if (typeof version === 'string' && (CLUSTER_VERSIONS as readonly string[]).includes(version))
      out.version = version as ClusterSetting['version'];
    else
      errors.push({
        key: 'cluster.version',
        message: `cluster.version: must be one of ${CLUSTER_VERSIONS.map((v) => `"${v}"`).join(', ')}, got ${describe(value.version)}`,
      });
  }
  if (value.config !== undefined) {
    if (typeof value.config === 'string' && value.config.trim() !== '') {
      out.config = source ? resolve(dirname(source), value.config) : value.config;
      out.name = value.config;
      if (source) out.configFolder = dirname(resolve(source));
    } else
      errors.push({
        key: 'cluster.config',
        message: `cluster.config: must be the path of a cassandra.yaml or scylla.yaml, got ${describe(value.config)}`,
      });
  }
  return out;
}

/** `samples`: table -> "file.csv" or { file, columns }, files relative to the config that names them. */
function parseSamples(
  value: unknown,
  source: string | undefined,
  errors: ConfigError[],
): Record<string, SampleSetting> | undefined {
  if (!isPlainObject(value)) {
    errors.push({
      key: 'samples',
      message: `samples: must map table names to CSV files (cqlsh COPY ... TO output), got ${describe(value)}`,
    });
    return undefined;
  }
  const out = nameRecord<SampleSetting>();
  const resolveFile = (file: string): string => (source ? resolve(dirname(source), file) : file);
  for (const [table, v] of Object.entries(value)) {
    const key = `samples.${table}`;
    const setting = typeof v === 'string' ? { file: v } : isPlainObject(v) ? v : undefined;
    const columns = setting?.columns;
    if (
      !setting ||
      typeof setting.file !== 'string' ||
      !setting.file.trim() ||
      (columns !== undefined && !(Array.isArray(columns) && columns.every((c) => typeof c === 'string')))
    ) {
      errors.push({
        key,
        message: `${key}: must be a CSV file name or { "file": "...", "columns": ["col", ...] }, got ${describe(v)}`,
      });
      continue;
    }
    out[table] = {
      file: resolveFile(setting.file),
      name: setting.file,
      ...(columns ? { columns: columns as string[] } : {}),
    };
  }
  return out;
}

const EVIDENCE_KEYS = ['path', 'node', 'captured', 'table', 'duration'];

/**
 * `evidence`: a path, or a list of paths and `{ path, node?, captured?, table?, duration? }`, files or
 * folders relative to the config that names them.
 */
function parseEvidence(
  value: unknown,
  source: string | undefined,
  errors: ConfigError[],
): EvidenceSetting[] | undefined {
  const items = typeof value === 'string' ? [value] : Array.isArray(value) ? value : undefined;
  if (!items) {
    errors.push({
      key: 'evidence',
      message: `evidence: must be a file or folder, or a list of them (strings or { "path": ... }), got ${describe(value)}`,
    });
    return undefined;
  }
  const out: EvidenceSetting[] = [];
  items.forEach((item, i) => {
    const key = `evidence[${i}]`;
    const entry = typeof item === 'string' ? { path: item } : isPlainObject(item) ? item : undefined;
    if (!entry || typeof entry.path !== 'string' || !entry.path.trim()) {
      errors.push({
        key,
        message: `${key}: must be a file or folder name or { "path": "...", "node": ..., "captured": ..., "table": ..., "duration": ... }, got ${describe(item)}`,
      });
      return;
    }
    for (const k of Object.keys(entry)) {
      if (!EVIDENCE_KEYS.includes(k))
        errors.push({ key: `${key}.${k}`, message: `${key}.${k}: unknown key; known: ${EVIDENCE_KEYS.join(', ')}` });
    }
    const setting: EvidenceSetting = {
      path: source ? resolve(dirname(source), entry.path) : entry.path,
      name: entry.path,
      ...(source ? { configFolder: dirname(resolve(source)) } : {}),
    };
    for (const k of ['node', 'table'] as const) {
      if (entry[k] === undefined) continue;
      if (typeof entry[k] === 'string' && entry[k].trim()) setting[k] = entry[k].trim();
      else
        errors.push({
          key: `${key}.${k}`,
          message: `${key}.${k}: must be a non-empty string, got ${describe(entry[k])}`,
        });
    }
    if (setting.table !== undefined && !/^[^.\s]+\.[^.\s]+$/.test(setting.table)) {
      errors.push({
        key: `${key}.table`,
        message: `${key}.table: must be "keyspace.table", got ${describe(entry.table)}`,
      });
      delete setting.table;
    }
    if (entry.captured !== undefined) {
      const c = entry.captured;
      if (
        typeof c === 'string' &&
        /^\d{4}-\d{2}-\d{2}([T ][\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/.test(c.trim()) &&
        Number.isFinite(Date.parse(c.trim().length === 10 ? `${c.trim()}T00:00:00Z` : c.trim()))
      )
        setting.captured = c.trim();
      else
        errors.push({
          key: `${key}.captured`,
          message: `${key}.captured: must be a date like "2026-11-20" (or an ISO date-time), got ${describe(c)}`,
        });
    }
    if (entry.duration !== undefined) {
      const d = entry.duration;
      const seconds =
        typeof d === 'number' ? d : typeof d === 'string' ? (parseDuration(d, 's') ?? NaN) / 1000 : undefined;
      if (seconds !== undefined && Number.isFinite(seconds) && seconds > 0) setting.durationSeconds = seconds;
      else
        errors.push({
          key: `${key}.duration`,
          message: `${key}.duration: must be the toppartitions sampling time, in seconds or like "60s", "60000ms", "2m", got ${describe(d)}`,
        });
    }
    out.push(setting);
  });
  return out;
}

/** Hints for a table: `ks.table` first, then the bare table name. */
export function hintsFor(
  config: CqlintConfig | undefined,
  keyspace: string | undefined,
  name: string,
): TableHints | undefined {
  const tables = config?.tables;
  if (!tables) return undefined;
  // Table names are user text: `constructor` must not find Object.prototype's.
  const own = (key: string): TableHints | undefined => ownEntry(tables, key);
  return (keyspace ? own(`${keyspace}.${name}`) : undefined) ?? own(name);
}

/** The sample configured for a table: `ks.table` first, then the bare table name. */
export function sampleFor(
  config: CqlintConfig | undefined,
  keyspace: string | undefined,
  name: string,
): SampleSetting | undefined {
  const samples = config?.samples;
  if (!samples) return undefined;
  // Table names are user text: `constructor` must not find Object.prototype's.
  const own = (key: string): SampleSetting | undefined => ownEntry(samples, key);
  return (keyspace ? own(`${keyspace}.${name}`) : undefined) ?? own(name);
}
