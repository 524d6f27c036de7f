// Reads the settings of a cassandra.yaml or scylla.yaml text: the top-level keys cqlint knows
// (catalogue.ts), each with its value and line. Parsed with the `yaml` library; nothing is expanded but
// one alias per value (a billion-laughs file costs what its text costs), nested maps are not read, and
// a value is never quoted in an error unless its key is one of ours (a yaml holds keystore passwords).
// A syntax error, a key given twice or a value in the wrong unit is a problem naming the file, line and
// key; what can be read still applies. Pure: the text comes from files.ts.
import { LineCounter, isAlias, isMap, isScalar, isSeq, parseDocument, type Document, type Node } from 'yaml';
import { legacySpelling, settingSpec, type SettingSpec } from './catalogue';
import { parseSettingValue } from './units';

/** One setting as the file writes it, read into its value (bytes, counts, milliseconds, flags, names). */
export interface FileSetting {
  /** The key as written (`batch_size_warn_threshold_in_kb` for a 4.0 file). */
  writtenKey: string;
  value: number | boolean | readonly string[] | undefined;
  /** 1-based line of the key. */
  line: number;
}

export interface ClusterFile {
  /** Absolute path. */
  file: string;
  /** As the configuration writes it. */
  name: string;
  /** The settings read, by their current name (catalogue.ts `key`). */
  settings: ReadonlyMap<string, FileSetting>;
  /** Whether the file spells a setting the 4.0 way (`enable_materialized_views`, `_in_kb`). */
  legacySpelling: boolean;
  /** Whether it looks like a scylla.yaml (a ScyllaDB-only key). */
  scylla: boolean;
  /** What could not be read: `cassandra.yaml:12: batch_size_warn_threshold: ...`. */
  problems: string[];
}

const SCYLLA_ONLY = /^(compaction_large_(row|cell)_warning_threshold_mb|compaction_rows_count_warning_threshold|compaction_collection_elements_count_warning_threshold|compaction_large_partition_warning_threshold_mb|developer_mode|seastar|api_port|alternator_)/;

/** Reads a yaml text. Never throws. */
export function readClusterYaml(text: string, file: string, name = file): ClusterFile {
  const out: ClusterFile = { file, name, settings: new Map(), legacySpelling: false, scylla: false, problems: [] };
  const settings = out.settings as Map<string, FileSetting>;
  const lines = new LineCounter();
  let doc: Document.Parsed;
  try {
    doc = parseDocument(text, { lineCounter: lines, prettyErrors: false, uniqueKeys: true, strict: true });
  } catch (error) {
    out.problems.push(`${name}: not valid YAML (${error instanceof Error ? error.message : String(error)})`);
    return out;
  }
  for (const error of doc.errors) {
    const at = lines.linePos(error.pos[0]);
    out.problems.push(`${name}:${at.line}: not valid YAML (line ${at.line}, column ${at.col}: ${error.message})`);
  }
  const root = doc.contents;
  if (root === null || (isScalar(root) && (root.value === null || root.value === ''))) return out;
  if (!isMap(root)) {
    out.problems.push(`${name}: expected the settings as "key: value" lines, found ${isSeq(root) ? 'a list' : 'a single value'}`);
    return out;
  }
  for (const pair of root.items) {
    if (!isScalar(pair.key) || typeof pair.key.value !== 'string') continue;
    const key = pair.key.value;
    const line = pair.key.range ? lines.linePos(pair.key.range[0]).line : 0;
    if (SCYLLA_ONLY.test(key)) out.scylla = true;
    const current = settingSpec(key);
    const old = current ? undefined : legacySpelling(key);
    const spec: SettingSpec | undefined = current ?? old?.spec;
    if (!spec) continue;
    if (old) out.legacySpelling = true;
    const raw = plainValue(pair.value as Node | null, doc);
    if (raw === NESTED) {
      out.problems.push(`${name}:${line}: ${key}: expected ${describeType(spec)}, found a nested map; the default applies`);
      continue;
    }
    const parsed = parseSettingValue(spec.type, raw, old ? old.plainUnit : spec.plainUnit);
    if (!parsed.ok) {
      out.problems.push(`${name}:${line}: ${key}: ${JSON.stringify(shown(raw))} is not ${parsed.expected}; the default applies`);
      continue;
    }
    // The current name wins over an old one written too (Cassandra refuses such a file to start).
    if (settings.has(spec.key) && old) continue;
    settings.set(spec.key, { writtenKey: key, value: parsed.value, line });
  }
  return out;
}

const NESTED = Symbol('nested');

/** A value as plain data: a scalar, or a list of scalars; an alias is followed once. */
function plainValue(node: Node | null, doc: Document.Parsed): unknown {
  let target: unknown = node;
  if (isAlias(target)) target = target.resolve(doc);
  if (target === null || target === undefined) return null;
  if (isScalar(target)) return target.value;
  if (isSeq(target)) {
    return target.items.map((item) => {
      const resolved = isAlias(item) ? item.resolve(doc) : item;
      return isScalar(resolved) ? resolved.value : NESTED;
    });
  }
  return NESTED;
}

function describeType(spec: SettingSpec): string {
  return spec.type === 'list' ? 'a list' : spec.type === 'flag' ? 'true or false' : 'a value';
}

/** A value as an error message shows it (short). */
function shown(raw: unknown): unknown {
  if (Array.isArray(raw)) return raw.map((item) => (item === NESTED ? '{...}' : item)).slice(0, 5);
  if (typeof raw === 'string' && raw.length > 40) return `${raw.slice(0, 40)}...`;
  return raw;
}
