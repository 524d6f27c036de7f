// .cqlint.json: discovery (upward from a file, like ESLint), loading and validation. Invalid parts are
// dropped with an error naming the key; the valid rest still applies.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { TARGET_IDS, isTargetId } from '../targets';
import { allRules } from '../rules';
import type { ConfigError, CqlintConfig, RuleLevel, RuleSetting, TableHints } from './types';
import { RULE_LEVELS } from './types';
import { nearest } from '../util/edit-distance';

export { editDistance } from '../util/edit-distance';

export type { ConfigError, CqlintConfig, RuleLevel, RuleSetting, TableHints, RuleOptionSpec } from './types';
export { RULE_LEVELS } from './types';

export const CONFIG_FILE_NAME = '.cqlint.json';

/** The nearest `.cqlint.json` in the file's folder or above; undefined when there is none. */
export function findConfigFor(filePath: string): string | undefined {
  let dir = dirname(resolve(filePath));
  for (;;) {
    const candidate = join(dir, CONFIG_FILE_NAME);
    if (existsSync(candidate)) {
      try {
        if (statSync(candidate).isFile()) return candidate;
      } catch {
        // unreadable entry: keep looking above
      }
    }
    const parent = dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

export function loadConfigFile(path: string): { config?: CqlintConfig; errors: ConfigError[] } {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    return { errors: [{ message: `${path}: cannot read the file (${(err as Error).message})` }] };
  }
  let json: unknown;
  try {
    json = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (err) {
    return { errors: [{ message: `${path}: not valid JSON (${(err as Error).message})` }] };
  }
  return parseConfig(json, path);
}

const TOP_LEVEL_KEYS = new Set(['$schema', 'target', 'rules', 'tables', 'ring']);
const HINT_KEYS: Record<keyof TableHints, 'rate' | 'count' | 'sizes'> = {
  rowsPerPartition: 'count',
  writesPerSecondPerPartition: 'rate',
  readsPerSecondPerPartition: 'rate',
  columnSizes: 'sizes',
};

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function describe(v: unknown): string {
  return JSON.stringify(v) ?? String(v);
}

function closest(word: string, options: readonly string[]): string | undefined {
  const found = nearest(word, options);
  return found && found.distance <= Math.max(2, Math.floor(word.length / 3)) ? found.best : undefined;
}

function parseRuleSetting(id: string, value: unknown, errors: ConfigError[]): RuleSetting | undefined {
  const key = `rules.${id}`;
  const rule = allRules.find((r) => r.meta.id === id);
  if (!rule) {
    const hint = closest(id, allRules.map((r) => r.meta.id));
    errors.push({ key, message: `${key}: unknown rule "${id}"${hint ? ` (did you mean "${hint}"?)` : ''}` });
    return undefined;
  }
  const level = Array.isArray(value) ? value[0] : value;
  if (typeof level !== 'string' || !(RULE_LEVELS as readonly string[]).includes(level)) {
    errors.push({ key, message: `${key}: level must be "off", "warn" or "error" (or [level, options]), got ${describe(level)}` });
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
  const valid: Record<string, unknown> = {};
  for (const [name, v] of Object.entries(options)) {
    const spec = specs[name];
    const optKey = `${key}.${name}`;
    if (!spec) {
      const known = Object.keys(specs);
      errors.push({ key: optKey, message: `${optKey}: unknown option for ${id}${known.length ? ` (known: ${known.join(', ')})` : ' (the rule takes no options)'}` });
      continue;
    }
    const ok =
      spec.type === 'number' ? typeof v === 'number' && Number.isFinite(v) && (spec.minimum === undefined || v >= spec.minimum)
      : spec.type === 'boolean' ? typeof v === 'boolean'
      : spec.type === 'string' ? typeof v === 'string'
      : Array.isArray(v) && v.every((s) => typeof s === 'string');
    if (!ok) {
      const want = spec.type === 'number' && spec.minimum !== undefined ? `a number >= ${spec.minimum}` : spec.type === 'string[]' ? 'an array of strings' : `a ${spec.type}`;
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
    const kind = (HINT_KEYS as Record<string, string>)[name];
    if (!kind) {
      const hint = closest(name, Object.keys(HINT_KEYS));
      errors.push({ key: hintKey, message: `${hintKey}: unknown hint${hint ? ` (did you mean "${hint}"?)` : ''}; known: ${Object.keys(HINT_KEYS).join(', ')}` });
      continue;
    }
    if (kind === 'sizes') {
      if (!isPlainObject(v)) {
        errors.push({ key: hintKey, message: `${hintKey}: must map column names to average sizes in bytes, got ${describe(v)}` });
        continue;
      }
      const sizes: Record<string, number> = {};
      for (const [col, size] of Object.entries(v)) {
        if (typeof size !== 'number' || !Number.isFinite(size) || size < 0) {
          errors.push({ key: `${hintKey}.${col}`, message: `${hintKey}.${col}: must be a size in bytes (a number >= 0), got ${describe(size)}` });
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
  const config: CqlintConfig = {};
  for (const [key, value] of Object.entries(json)) {
    if (!TOP_LEVEL_KEYS.has(key)) {
      const hint = closest(key, [...TOP_LEVEL_KEYS].filter((k) => k !== '$schema'));
      errors.push({ key, message: `${key}: unknown setting${hint ? ` (did you mean "${hint}"?)` : ''}; known: target, rules, tables, ring` });
    }
  }
  if ('target' in json) {
    if (isTargetId(json.target)) config.target = json.target;
    else errors.push({ key: 'target', message: `target: must be one of ${TARGET_IDS.map((t) => `"${t}"`).join(', ')}, got ${describe(json.target)}` });
  }
  if ('rules' in json) {
    if (!isPlainObject(json.rules)) {
      errors.push({ key: 'rules', message: `rules: must be an object mapping rule ids to "off", "warn" or "error", got ${describe(json.rules)}` });
    } else {
      config.rules = {};
      for (const [id, value] of Object.entries(json.rules)) {
        const setting = parseRuleSetting(id, value, errors);
        if (setting !== undefined) config.rules[id] = setting;
      }
    }
  }
  if ('tables' in json) {
    if (!isPlainObject(json.tables)) {
      errors.push({ key: 'tables', message: `tables: must be an object mapping table names to workload hints, got ${describe(json.tables)}` });
    } else {
      config.tables = {};
      for (const [table, value] of Object.entries(json.tables)) {
        const hints = parseHints(table, value, errors);
        if (hints) config.tables[table] = hints;
      }
    }
  }
  if ('ring' in json) {
    // Relative to the .cqlint.json that names it (kept as written when the config has no file).
    if (typeof json.ring === 'string' && json.ring.trim() !== '') config.ring = source ? resolve(dirname(source), json.ring) : json.ring;
    else errors.push({ key: 'ring', message: `ring: must be the path of a ring file (nodetool ring output or JSON), got ${describe(json.ring)}` });
  }
  if (source) for (const e of errors) e.message = `${where}${e.message}`;
  return { config, errors };
}

/** Hints for a table: `ks.table` first, then the bare table name. */
export function hintsFor(config: CqlintConfig | undefined, keyspace: string | undefined, name: string): TableHints | undefined {
  const tables = config?.tables;
  if (!tables) return undefined;
  return (keyspace ? tables[`${keyspace}.${name}`] : undefined) ?? tables[name];
}
