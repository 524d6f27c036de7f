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

const SCYLLA_ONLY =
  /^(compaction_large_(row|cell)_warning_threshold_mb|compaction_rows_count_warning_threshold|compaction_collection_elements_count_warning_threshold|compaction_large_partition_warning_threshold_mb|developer_mode|seastar|api_port|alternator_)/;

/**
 * A top-level setting (its key line, the lines indented under it and the comments after it) longer than
 * this is not read: Cassandra's own are under 4 KiB. The yaml library spends tens of microseconds a byte
 * on text that is not YAML (an error object and nodes for each piece), so what it is given is bounded.
 */
export const MAX_SETTING_CHARS = 32 * 1024;
/** Settings are parsed together in runs of about this many characters (one document each). */
const BATCH_CHARS = 8 * 1024;
/** After this many places that are not settings (runs with syntax errors, top-level lines that are no
 * `key:`) the rest of the file is not read: it is not a settings file. */
export const MAX_BAD_PLACES = 3;
/** A top-level line of a settings file: a plain or quoted key, a colon, then a space or the end. */
const KEY_LINE = /^(?:[A-Za-z0-9_.$/-]+|"[^"\n]*"|'[^'\n]*')[ \t]*:(?:[ \t]|\r?$)/;

/** A run of whole top-level settings: its text and its first line (1-based). */
interface Batch {
  text: string;
  line: number;
}

/**
 * Reads a yaml text. Never throws. The text is read a run of whole top-level settings at a time (a
 * setting starts at a line that begins in column 0 with neither a comment nor a document marker), so
 * that the work is linear and bounded whatever the text: an anchor is known within its run only
 * (cassandra.yaml and scylla.yaml use none).
 */
export function readClusterYaml(text: string, file: string, name = file): ClusterFile {
  const out: ClusterFile = { file, name, settings: new Map(), legacySpelling: false, scylla: false, problems: [] };
  const seen = new Set<string>();
  const places = { bad: 0 };
  for (const batch of settingBatches(text, name, out.problems, places)) {
    const errorsBefore = out.problems.length;
    const verdict = readBatch(batch, out, seen);
    if (verdict === 'not-settings') return out;
    if (verdict === 'syntax-errors' && ++places.bad >= MAX_BAD_PLACES) {
      out.problems.push(
        `${name}:${batch.line}: not valid YAML in ${MAX_BAD_PLACES} places: the rest of the file is not read`,
      );
      return out;
    }
    // One run's syntax errors are capped too (a run of 8 KiB can hold thousands).
    if (out.problems.length - errorsBefore > 20) out.problems.splice(errorsBefore + 20);
  }
  return out;
}

/** The text cut before each top-level setting, in runs of about BATCH_CHARS; an over-long setting is left out. */
function* settingBatches(text: string, name: string, problems: string[], places: { bad: number }): Generator<Batch> {
  let batch: string[] = [];
  let batchChars = 0;
  let batchLine = 1;
  let setting: string[] = [];
  let settingChars = 0;
  let settingLine = 1;
  const endSetting = (): Batch | undefined => {
    let done: Batch | undefined;
    if (settingChars > MAX_SETTING_CHARS) {
      problems.push(
        `${name}:${settingLine}: a setting of ${Math.ceil(settingChars / 1024)} KiB (at most ${MAX_SETTING_CHARS / 1024} KiB): not read`,
      );
      // The lines stay (empty) so that the next settings keep their line numbers.
      setting = setting.map(() => '');
    }
    if (batch.length === 0) batchLine = settingLine;
    batch.push(...setting);
    batchChars += Math.min(settingChars, MAX_SETTING_CHARS);
    if (batchChars >= BATCH_CHARS) {
      done = { text: batch.join('\n'), line: batchLine };
      batch = [];
      batchChars = 0;
    }
    setting = [];
    settingChars = 0;
    return done;
  };
  let lineNumber = 0;
  // Lines under a top-level line that is no `key:` are not read either.
  let skipping = false;
  for (const line of text.split('\n')) {
    lineNumber++;
    const first = line.charCodeAt(0);
    const marker = line.startsWith('---') || line.startsWith('...');
    const startsSetting =
      line.length > 0 && first !== 0x20 && first !== 0x09 && first !== 0x23 /* # */ && first !== 0x0d && !marker;
    if (startsSetting && setting.length > 0) {
      const done = endSetting();
      if (done) yield done;
    }
    if (startsSetting) {
      skipping = !KEY_LINE.test(line);
      if (skipping) {
        problems.push(`${name}:${lineNumber}: expected a "key: value" setting: not read`);
        if (++places.bad >= MAX_BAD_PLACES) {
          problems.push(
            `${name}:${lineNumber}: not a settings file in ${MAX_BAD_PLACES} places: the rest of the file is not read`,
          );
          const done = endSetting();
          if (done) yield done;
          if (batch.length > 0) yield { text: batch.join('\n'), line: batchLine };
          return;
        }
      }
    }
    if (setting.length === 0) settingLine = lineNumber;
    // A document marker, or a line not read, is kept as an empty line (the next lines keep their numbers).
    const kept = marker || skipping ? '' : line;
    setting.push(kept);
    settingChars += kept.length + 1;
  }
  const last = endSetting();
  if (last) yield last;
  if (batch.length > 0) yield { text: batch.join('\n'), line: batchLine };
}

/** Reads one run of settings into `out`; says whether it had syntax errors or was not a map at all. */
function readBatch(batch: Batch, out: ClusterFile, seen: Set<string>): 'ok' | 'syntax-errors' | 'not-settings' {
  const { name } = out;
  const settings = out.settings as Map<string, FileSetting>;
  const lines = new LineCounter();
  const lineOf = (offset: number): { line: number; col: number } => {
    const at = lines.linePos(offset);
    return { line: at.line + batch.line - 1, col: at.col };
  };
  let doc: Document.Parsed;
  // The library makes an Error for each syntax error; their stack traces are most of its time on text
  // that is not YAML, and nobody reads them.
  const stackTraceLimit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    doc = parseDocument(batch.text, { lineCounter: lines, prettyErrors: false, uniqueKeys: false, strict: true });
  } catch (error) {
    out.problems.push(
      `${name}:${batch.line}: not valid YAML (${error instanceof Error ? error.message : String(error)})`,
    );
    return 'syntax-errors';
  } finally {
    Error.stackTraceLimit = stackTraceLimit;
  }
  for (const error of doc.errors) {
    const at = lineOf(error.pos[0]);
    out.problems.push(`${name}:${at.line}: not valid YAML (line ${at.line}, column ${at.col}: ${error.message})`);
  }
  const root = doc.contents;
  if (root === null || (isScalar(root) && (root.value === null || root.value === '')))
    return doc.errors.length > 0 ? 'syntax-errors' : 'ok';
  if (!isMap(root)) {
    out.problems.push(
      `${name}: expected the settings as "key: value" lines, found ${isSeq(root) ? 'a list' : 'a single value'}`,
    );
    return 'not-settings';
  }
  for (const pair of root.items) {
    if (!isScalar(pair.key) || typeof pair.key.value !== 'string') continue;
    const key = pair.key.value;
    const line = pair.key.range ? lineOf(pair.key.range[0]).line : 0;
    if (seen.has(key)) {
      out.problems.push(
        `${name}:${line}: not valid YAML (line ${line}, column 1: ${key} is given twice: map keys must be unique)`,
      );
      continue;
    }
    seen.add(key);
    if (SCYLLA_ONLY.test(key)) out.scylla = true;
    const current = settingSpec(key);
    const old = current ? undefined : legacySpelling(key);
    const spec: SettingSpec | undefined = current ?? old?.spec;
    if (!spec) continue;
    if (old) out.legacySpelling = true;
    const raw = plainValue(pair.value as Node | null, doc);
    if (raw === NESTED) {
      out.problems.push(
        `${name}:${line}: ${key}: expected ${describeType(spec)}, found a nested map; the default applies`,
      );
      continue;
    }
    const parsed = parseSettingValue(spec.type, raw, old ? old.plainUnit : spec.plainUnit);
    if (!parsed.ok) {
      out.problems.push(
        `${name}:${line}: ${key}: ${JSON.stringify(shown(raw))} is not ${parsed.expected}; the default applies`,
      );
      continue;
    }
    // The current name wins over an old one written too (Cassandra refuses such a file to start).
    if (settings.has(spec.key) && old) continue;
    settings.set(spec.key, { writtenKey: key, value: parsed.value, line });
  }
  return doc.errors.length > 0 ? 'syntax-errors' : 'ok';
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
