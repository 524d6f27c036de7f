// The workspace as the linter sees it: CQL files by absolute path, their parses, the merged schema, and
// lint results with config, editor overrides and suppression comments applied. Used by the language
// server, the CLI and the tests alike; everything is computed lazily and cached per text.
import { statSync } from 'node:fs';

import type { ParseResult, QualifiedName, SourceLocation, Statement } from '../../grammar/ast';
import { parseCql } from '../../grammar';
import type { Finding, Severity } from './findings';
import { buildFileSchema, keyspaceAt, mergeSchemas, type FileSchema } from './schema/build';
import { type SchemaModel, type TableInfo, sameShape } from './schema/model';
import { shardAbove } from './schema/shard';
import { hintsAbove } from './schema/hint-comment';
import { mergeHints } from './schema/workload';
import { buildFileReferences, type IndexedReference, type TableReference } from './schema/references';
import { type TargetId, targetInfo } from './targets';
import { findConfigFor, hintsFor, loadConfigFile, sampleFor, type SampleSetting, type TableHints } from './config';
import type { PartitionSample } from './sample-figures';
import type { ConfigError, CqlintConfig, RuleLevel } from './config/types';
import { allRules } from './rules';
import type { RuleContext, RuleModule } from './rules/types';
import { applySuppressions } from './suppression';

export type { TargetId } from './targets';
export type { CqlintConfig, RuleLevel, ConfigError } from './config/types';

export interface ProjectOptions {
  /** Overrides the config's target (CLI --target, editor setting). */
  target?: TargetId;
  /** Explicit config (CLI --config F, already loaded); when absent, .cqlint.json is discovered upward from each file. */
  config?: CqlintConfig;
  /** Rule levels from the editor settings, applied over the config: { 'hot-partition': 'off' | 'warn' | 'error' } */
  ruleOverrides?: Record<string, RuleLevel>;
  /**
   * Where the upward search for .cqlint.json stops (the editor's workspace folders; see findConfigFor).
   * Absent (the CLI): up to the file system root, like ESLint.
   */
  configBoundaries?: readonly string[];
  /**
   * Per-file `target` and `ruleOverrides` (editor settings are per workspace folder or document), used
   * instead of the two above for the files it answers. Call setOptions again when its answers change.
   */
  forFile?: (filePath: string) => Pick<ProjectOptions, 'target' | 'ruleOverrides'> | undefined;
  /**
   * The read summary of the sample `.cqlint.json` names for a table (rules are synchronous: whoever owns
   * the Project reads samples beforehand, see report/sample-cache.ts). Call refreshSamples when its answers change.
   */
  sampleSummary?: (table: TableInfo, sample: SampleSetting) => PartitionSample | undefined;
}

interface FileEntry {
  text: string;
  parse?: ParseResult;
  /** The parse of the previous text, handed to the parser for incremental reuse. */
  previous?: ParseResult;
  schema?: FileSchema;
  /** What `schema` was built from (its schema statements), to reuse it when an edit touches no DDL. */
  ddl?: DdlSignature;
  /** The previous text's schema and signature: reused when the new parse has the same schema statements. */
  previousSchema?: { schema: FileSchema; ddl: DdlSignature };
  lint?: {
    findings: Finding[]; model: SchemaModel; config: CqlintConfig | undefined; optionsVersion: number;
    /** The reference lookups the rules made: the findings are stale when one of them answers differently. */
    references: ReferenceDependency[];
  };
  /** The table references of `parse` (see schema/references.ts). */
  references?: IndexedReference[];
}

/** A referencesTo() answer a rule run depended on, to tell whether the answer has changed since. */
interface ReferenceDependency {
  table: TableInfo;
  references: readonly TableReference[];
  fingerprint: string;
}

/**
 * The statements a FileSchema is built from (USE, CREATE/ALTER/DROP ...), as AST objects, with their start
 * offsets when the schema was built and the `-- @shard` annotation above each CREATE TABLE. The incremental
 * parser hands back the very same statement objects (ranges shifted in place) for unchanged statement text,
 * so the same objects in the same order mean the same schema, only moved.
 */
interface DdlSignature {
  statements: Statement[];
  starts: number[];
  shards: string[];
}

/** Per-statement results of the statement-scoped rules (see RuleMeta.scope), reused while `key` is unchanged. */
interface StatementResult {
  /** Config, options and file the findings were computed under. */
  epoch: string;
  /** What the statement's findings depend on besides its own text: see Project.statementKey. */
  key: string;
  findings: Finding[];
  /**
   * Locations in the findings that lie inside the statement, with their offset from its start: they must
   * have moved with the statement (AST objects are shifted in place by the parser); if one did not, the
   * findings are recomputed.
   */
  anchors: { location: SourceLocation; relative: number }[];
  /** The referencesTo() answers the findings were computed from. */
  references: readonly ReferenceDependency[];
}

/** Shared by the statement results of rules that read no references (most). */
const NO_REFERENCES: readonly ReferenceDependency[] = [];

/** What a statement-scoped rule run may look up, from the statement's key; any other lookup makes it uncacheable. */
interface StatementScope {
  statement: Statement;
  start: number;
  /** Table names looked up, with the offsets the key resolved them at. */
  lookups: Map<QualifiedName, number[]>;
  /** Table names whose indexes the key covers. */
  names: Set<string>;
  defined?: TableInfo;
  latest?: TableInfo;
  /** Schema statements see user types (sizing); the key covers them. */
  types: boolean;
  cacheable: boolean;
  /** referencesTo() answers read (checked again before the result is reused); allocated on the first. */
  references?: ReferenceDependency[];
}

const isSchemaStatement = (stmt: Statement): boolean => stmt.kind === 'Use' || /^(Create|Alter|Drop)/.test(stmt.kind);

/** Table names a statement (or the statements of a batch) refers to, with the offset each is resolved at. */
function tableLookups(stmt: Statement, out: { name: QualifiedName; at: number }[] = []): { name: QualifiedName; at: number }[] {
  const at = stmt.range.start.offset;
  switch (stmt.kind) {
    case 'Select': out.push({ name: stmt.from, at }); break;
    case 'Insert': case 'Update': case 'Delete': out.push({ name: stmt.table, at }); break;
    case 'CreateIndex': out.push({ name: stmt.table, at }); break;
    case 'CreateMaterializedView': out.push({ name: stmt.from, at }); break;
    case 'AlterTable': out.push({ name: stmt.name, at }); break;
    case 'Truncate': out.push({ name: stmt.name, at }); break;
    case 'CreateTable': if (stmt.like) out.push({ name: stmt.like, at }); break;
    case 'Batch': for (const inner of stmt.statements) tableLookups(inner, out); break;
    default: break;
  }
  return out;
}

/** Mirrors the referencedNames of buildFileSchema (for a reused FileSchema). */
function referencedNamesOf(statements: readonly Statement[]): Set<string> {
  const names = new Set<string>();
  const visit = (stmt: Statement): void => {
    switch (stmt.kind) {
      case 'Select': case 'CreateMaterializedView': names.add(stmt.from.name.name); break;
      case 'Insert': case 'Update': case 'Delete': case 'CreateIndex': names.add(stmt.table.name.name); break;
      case 'Truncate': names.add(stmt.name.name.name); break;
      case 'Batch': for (const inner of stmt.statements) visit(inner); break;
      default: break;
    }
  };
  for (const s of statements) visit(s);
  return names;
}

/** JSON without source positions (objects with offset/line/column). */
function withoutLocations(value: unknown): string {
  return JSON.stringify(value, (_k, v: unknown) =>
    v && typeof v === 'object' && typeof (v as SourceLocation).offset === 'number' && typeof (v as SourceLocation).line === 'number' ? undefined : v) ?? '';
}

function isLocation(value: unknown): value is SourceLocation {
  return !!value && typeof value === 'object' && typeof (value as SourceLocation).offset === 'number' && typeof (value as SourceLocation).line === 'number' && typeof (value as SourceLocation).column === 'number';
}

/** Every location object in a finding (range, related, data), up to a small depth. */
function findingLocations(value: unknown, out: SourceLocation[], depth = 0): void {
  if (depth > 6 || !value || typeof value !== 'object') return;
  if (isLocation(value)) {
    out.push(value);
    return;
  }
  if (Array.isArray(value)) {
    for (const v of value) findingLocations(v, out, depth + 1);
    return;
  }
  for (const key in value as Record<string, unknown>) findingLocations((value as Record<string, unknown>)[key], out, depth + 1);
}

/** Interned strings and object ids for statement keys; cleared when it grows large (caches then miss once). */
const MAX_INTERNED = 200_000;

interface LoadedConfig {
  mtimeMs: number;
  config?: CqlintConfig;
  errors: ConfigError[];
}

const EMPTY_CONFIG: CqlintConfig = {};

function severityFor(level: RuleLevel | undefined, rule: RuleModule): Severity | undefined {
  if (level === 'off') return undefined;
  if (level === 'error') return 'error';
  if (level === 'warn') return 'warning';
  return rule.meta.defaultSeverity;
}

/** A rule's options: defaults from its meta, overridden by the config's `[level, options]` setting. */
function ruleOptions(rule: RuleModule, setting: unknown): Record<string, unknown> {
  const options: Record<string, unknown> = {};
  for (const [k, spec] of Object.entries(rule.meta.options ?? {})) if (spec.default !== undefined) options[k] = spec.default;
  if (Array.isArray(setting)) Object.assign(options, setting[1]);
  return options;
}

export class Project {
  private options: ProjectOptions;
  private optionsVersion = 0;
  private readonly entries = new Map<string, FileEntry>();
  private model?: SchemaModel;
  /** The file schemas (in merge order) `model` was merged from: the same objects mean the same model. */
  private modelInputs: FileSchema[] = [];
  /** False after a file changed: schema() then compares its inputs. */
  private modelChecked = false;
  /** Statement-scoped rule results by statement AST object (see runRules). */
  private statementResults = new WeakMap<Statement, StatementResult>();
  private objectIds = new WeakMap<object, number>();
  private nextObjectId = 1;
  private interned = new Map<string, number>();
  /** Table fingerprint ids, valid for one model (merging completes views in place). */
  private tableIds = new WeakMap<TableInfo, number>();
  private tableIdsModel?: SchemaModel;
  private indexIds = new Map<string, number>();
  private typesId?: number;
  /** Names each file defined before its latest change (for dependents()). */
  private readonly previousDefined = new Map<string, Set<string>>();
  private readonly configCache = new Map<string, LoadedConfig>();
  /** The reference index: table name (without keyspace) -> file -> that file's references to the name. */
  private readonly referenceIndex = new Map<string, Map<string, IndexedReference[]>>();
  /** Each file's references as they are in referenceIndex. */
  private readonly indexedReferences = new Map<string, IndexedReference[]>();
  /** Files whose references changed since the index was last brought up to date. */
  private readonly staleReferences = new Set<string>();
  /** Bumped for a name whenever a file's references to it are replaced. */
  private readonly referenceVersions = new Map<string, number>();
  /** referencesTo() answers by defining statement, valid for one model and name version. */
  private resolvedReferences = new WeakMap<Statement, { model: SchemaModel; version: number; references: readonly TableReference[] }>();
  private readonly referenceFingerprints = new WeakMap<readonly TableReference[], string>();
  /** Rule and fix crashes are contained (they must never take the server down); the last ones are kept here. */
  readonly internalErrors: { ruleId: string; filePath: string; error: unknown }[] = [];

  constructor(options: ProjectOptions = {}) {
    this.options = { ...options };
  }

  setOptions(options: ProjectOptions): void {
    this.options = { ...options };
    this.optionsVersion++;
  }

  /** The sampleSummary hook answers differently (a sample was read): findings are computed again. */
  refreshSamples(): void {
    this.optionsVersion++;
  }

  /** The read sample of a table, under the config of `filePath` (the file that defines it by default). */
  sampleSummary(table: TableInfo, filePath = table.filePath): PartitionSample | undefined {
    const setting = sampleFor(this.configFor(filePath), table.keyspace, table.name);
    const sample = setting ? this.options.sampleSummary?.(table, setting) : undefined;
    return sample && !sample.cancelled ? sample : undefined;
  }

  setFile(filePath: string, text: string): void {
    const old = this.entries.get(filePath);
    if (old && old.text === text) return;
    if (old?.schema) this.previousDefined.set(filePath, old.schema.definedNames);
    // The old schema can serve again only with the parse it was built from as `previous` (same AST objects).
    const previous = old?.parse ?? old?.previous;
    const previousSchema = old?.parse ? (old.schema && old.ddl ? { schema: old.schema, ddl: old.ddl } : undefined) : old?.previousSchema;
    this.entries.set(filePath, { text, previous, previousSchema });
    this.staleReferences.add(filePath);
    this.modelChecked = false;
    // The merged model is checked against its inputs in schema(): an edit that touches no DDL keeps it.
  }

  removeFile(filePath: string): void {
    const old = this.entries.get(filePath);
    if (!old) return;
    if (old.schema) this.previousDefined.set(filePath, old.schema.definedNames);
    this.entries.delete(filePath);
    this.staleReferences.add(filePath);
    this.modelChecked = false;
  }

  hasFile(filePath: string): boolean {
    return this.entries.has(filePath);
  }

  files(): string[] {
    return [...this.entries.keys()];
  }

  getText(filePath: string): string | undefined {
    return this.entries.get(filePath)?.text;
  }

  parse(filePath: string): ParseResult {
    const entry = this.entries.get(filePath);
    if (!entry) return { statements: [], comments: [], errors: [] };
    if (!entry.parse) {
      entry.parse = parseCql(entry.text, entry.previous ? { previous: entry.previous } : undefined);
      entry.previous = undefined;
    }
    return entry.parse;
  }

  /** Schema facts of one file (cached per parse; reused across edits that change no schema statement). */
  fileSchema(filePath: string): FileSchema | undefined {
    const entry = this.entries.get(filePath);
    if (!entry) return undefined;
    if (!entry.schema) {
      const parse = this.parse(filePath);
      const ddl = this.ddlSignature(entry.text, parse);
      const reused = entry.previousSchema && this.reuseFileSchema(entry.previousSchema, ddl, parse);
      entry.schema = reused || buildFileSchema(filePath, entry.text, parse);
      entry.ddl = ddl;
      entry.previousSchema = undefined;
    }
    return entry.schema;
  }

  private ddlSignature(text: string, parse: ParseResult): DdlSignature {
    const statements: Statement[] = [];
    const starts: number[] = [];
    const shards: string[] = [];
    for (const stmt of parse.statements) {
      if (!isSchemaStatement(stmt)) continue;
      statements.push(stmt);
      starts.push(stmt.range.start.offset);
      shards.push(stmt.kind === 'CreateTable'
        ? withoutLocations(shardAbove(parse.comments, text, stmt.range.start.offset)) + JSON.stringify(hintsAbove(parse.comments, text, stmt.range.start.offset) ?? null)
        : '');
    }
    return { statements, starts, shards };
  }

  /**
   * The previous FileSchema when the new parse has the same schema statements (same AST objects, same
   * @shard annotations): its offsets are moved to the statements' new positions, the @shard ranges and
   * the referenced names refreshed. Undefined when it cannot be reused.
   */
  private reuseFileSchema(previous: { schema: FileSchema; ddl: DdlSignature }, ddl: DdlSignature, parse: ParseResult): FileSchema | undefined {
    const old = previous.ddl;
    if (old.statements.length !== ddl.statements.length) return undefined;
    for (let i = 0; i < ddl.statements.length; i++) {
      if (old.statements[i] !== ddl.statements[i] || old.shards[i] !== ddl.shards[i]) return undefined;
    }
    const moved = new Map<number, number>();
    for (let i = 0; i < old.starts.length; i++) moved.set(old.starts[i]!, ddl.starts[i]!);
    const schema = previous.schema;
    const move = (offset: number): number | undefined => moved.get(offset);
    for (const use of schema.uses) if (move(use.offset) === undefined) return undefined;
    for (const list of schema.versions.values()) for (const v of list) if (move(v.offset) === undefined) return undefined;
    for (const use of schema.uses) use.offset = move(use.offset)!;
    for (const list of schema.versions.values()) for (const v of list) v.offset = move(v.offset)!;
    // @shard specs hold copies of the comment's ranges: refresh them from this parse's comments.
    for (const stmt of ddl.statements) {
      if (stmt.kind !== 'CreateTable') continue;
      const spec = schema.byStatement.get(stmt)?.shard;
      if (!spec) continue;
      const fresh = shardAbove(parse.comments, this.entryText(schema.filePath), stmt.range.start.offset);
      if (fresh) Object.assign(spec, fresh);
    }
    schema.referencedNames = referencedNamesOf(parse.statements);
    return schema;
  }

  private entryText(filePath: string): string {
    return this.entries.get(filePath)?.text ?? '';
  }

  /** The merged workspace schema (kept while every file's schema is the same object). */
  schema(): SchemaModel {
    if (this.model && this.modelChecked) return this.model;
    const files = [...this.entries.keys()].sort();
    const inputs = files.map((f) => this.fileSchema(f)!);
    if (!this.model || inputs.length !== this.modelInputs.length || inputs.some((fs, i) => fs !== this.modelInputs[i])) {
      this.model = mergeSchemas(inputs);
      this.modelInputs = inputs;
    }
    this.modelChecked = true;
    return this.model;
  }

  /**
   * Other files whose findings may change when `filePath` changes: those using a table or type it defines
   * (or defined), and those whose last lint read the references (referencesTo) of a table it uses.
   */
  dependents(filePath: string): string[] {
    const names = new Set<string>(this.previousDefined.get(filePath) ?? []);
    const own = this.entries.has(filePath) ? this.fileSchema(filePath) : undefined;
    for (const n of own?.definedNames ?? []) names.add(n);
    const used = own?.referencedNames;
    if (!names.size && !used?.size) return [];
    const out: string[] = [];
    for (const [other, entry] of this.entries) {
      if (other === filePath) continue;
      if (used?.size && entry.lint?.references.some((d) => used.has(d.table.name))) {
        out.push(other);
        continue;
      }
      if (!names.size) continue;
      const schema = this.fileSchema(other)!;
      for (const n of schema.referencedNames) {
        if (names.has(n)) {
          out.push(other);
          break;
        }
      }
    }
    return out.sort();
  }

  /**
   * The statements of the workspace that read or write `table` (SELECT, INSERT, UPDATE, DELETE, batch
   * members included): those whose name resolves, where they stand, to a definition made by the same
   * CREATE statement (its ALTERed states included): to tableFor's answer, or to any of the candidates
   * when the workspace holds several definitions of the same shape. Ordered by file, then position.
   * Reads only the references of the table's name.
   */
  referencesTo(table: TableInfo): readonly TableReference[] {
    this.syncReferences();
    const model = this.schema();
    const version = this.referenceVersions.get(table.name) ?? 0;
    const memo = this.resolvedReferences.get(table.statement);
    if (memo && memo.model === model && memo.version === version) return memo.references;
    const out: TableReference[] = [];
    const byFile = this.referenceIndex.get(table.name);
    for (const file of [...(byFile?.keys() ?? [])].sort()) {
      for (const entry of byFile!.get(file)!) {
        const candidates = this.resolveParts(file, entry.keyspace, entry.name, entry.reference.range.start.offset);
        const first = candidates[0];
        if (!first) continue;
        // Copies of one definition (migrations) all get the reference; of differing ones, the first (as tableFor).
        const matches = first.statement === table.statement
          || (candidates.some((c) => c.statement === table.statement) && candidates.every((c) => sameShape(c, first)));
        if (matches) out.push(entry.reference);
      }
    }
    this.resolvedReferences.set(table.statement, { model, version, references: out });
    return out;
  }

  /** The table references of one file, built from its parse (cached with it). */
  fileReferences(filePath: string): readonly TableReference[] {
    return this.indexedFileReferences(filePath).map((e) => e.reference);
  }

  private indexedFileReferences(filePath: string): IndexedReference[] {
    const entry = this.entries.get(filePath);
    if (!entry) return [];
    if (!entry.references) entry.references = buildFileReferences(filePath, this.parse(filePath));
    return entry.references;
  }

  /** Replaces the index entries of the files changed since the last lookup (and only theirs). */
  private syncReferences(): void {
    if (!this.staleReferences.size) return;
    for (const file of this.staleReferences) {
      const names = new Set<string>();
      for (const old of this.indexedReferences.get(file) ?? []) {
        names.add(old.name);
        this.referenceIndex.get(old.name)?.delete(file);
      }
      const current = this.entries.has(file) ? this.indexedFileReferences(file) : [];
      if (current.length) this.indexedReferences.set(file, current);
      else this.indexedReferences.delete(file);
      for (const entry of current) {
        names.add(entry.name);
        let byFile = this.referenceIndex.get(entry.name);
        if (!byFile) this.referenceIndex.set(entry.name, (byFile = new Map()));
        const list = byFile.get(file);
        if (list) list.push(entry);
        else byFile.set(file, [entry]);
      }
      for (const name of names) {
        this.referenceVersions.set(name, (this.referenceVersions.get(name) ?? 0) + 1);
        if (this.referenceIndex.get(name)?.size === 0) this.referenceIndex.delete(name);
      }
    }
    this.staleReferences.clear();
  }

  /** A small id for the content of a referencesTo() answer (positions included: findings may point at them). */
  private referencesFingerprint(references: readonly TableReference[]): string {
    let id = this.referenceFingerprints.get(references);
    if (id === undefined) {
      id = references.map((r) =>
        [r.file, r.kind, r.table, r.range.start.offset, r.range.end.offset, r.pinned.join(','), r.ranged.join(','), r.limit ?? '', r.allowFiltering, r.ttlSeconds ?? ''].join('\u0002')).join('\u0001');
      this.referenceFingerprints.set(references, id);
    }
    return id;
  }

  private referenceDependency(table: TableInfo): ReferenceDependency {
    const references = this.referencesTo(table);
    return { table, references, fingerprint: this.referencesFingerprint(references) };
  }

  /** True when every recorded referencesTo() answer is still the same. */
  private referencesUnchanged(dependencies: readonly ReferenceDependency[]): boolean {
    return dependencies.every((d) => {
      const now = this.referencesTo(d.table);
      return now === d.references || this.referencesFingerprint(now) === d.fingerprint;
    });
  }

  tableFor(filePath: string, name: QualifiedName | string, atOffset?: number): TableInfo | undefined {
    return this.resolveTable(filePath, name, atOffset ?? Number.MAX_SAFE_INTEGER)[0];
  }

  /** Resolution candidates, best first: the same-file definition alone, else every compatible workspace definition. */
  private resolveTable(filePath: string, name: QualifiedName | string, atOffset: number): TableInfo[] {
    if (typeof name !== 'string') return this.resolveParts(filePath, name.keyspace?.name, name.name.name, atOffset);
    const dot = name.indexOf('.');
    return dot >= 0
      ? this.resolveParts(filePath, name.slice(0, dot), name.slice(dot + 1), atOffset)
      : this.resolveParts(filePath, undefined, name, atOffset);
  }

  private resolveParts(filePath: string, keyspace: string | undefined, table: string, atOffset: number): TableInfo[] {
    // Merging completes views and LIKE tables whose base lives in another file, so merge first.
    const model = this.schema();
    const fs = this.fileSchema(filePath);
    if (!keyspace && fs) keyspace = keyspaceAt(fs, atOffset);
    const versions = fs?.versions.get(table);
    if (versions) {
      for (let i = versions.length - 1; i >= 0; i--) {
        const v = versions[i]!;
        if (v.offset >= atOffset) continue;
        if (keyspace && v.keyspace && v.keyspace !== keyspace) continue;
        return v.table ? [v.table] : [];
      }
    }
    const candidates = model.candidates(keyspace, table);
    if (candidates.length > 1) {
      const own = candidates.filter((c) => c.filePath === filePath);
      if (own.length) return [...own, ...candidates.filter((c) => c.filePath !== filePath)];
    }
    return candidates;
  }

  /**
   * Resolution for rules: like tableFor, but when the name is not defined in this file and the workspace
   * holds differing definitions of it (the Cassandra docs define `users` and `t` in many files), none:
   * guessing would produce noise.
   */
  private resolveForRules(filePath: string, name: QualifiedName, atOffset: number): TableInfo | undefined {
    const candidates = this.resolveTable(filePath, name, atOffset);
    const first = candidates[0];
    if (!first || candidates.length === 1 || first.filePath === filePath) return first;
    return candidates.every((c) => sameShape(c, first)) ? first : undefined;
  }

  /** The config that applies to a file: the explicit one, else the nearest .cqlint.json. */
  configFor(filePath: string): CqlintConfig {
    if (this.options.config) return this.options.config;
    return this.discoveredConfig(filePath)?.config ?? EMPTY_CONFIG;
  }

  /** Problems in the config that applies to a file (empty when it is fine or explicit). */
  configErrors(filePath: string): ConfigError[] {
    if (this.options.config) return [];
    return this.discoveredConfig(filePath)?.errors ?? [];
  }

  private discoveredConfig(filePath: string): LoadedConfig | undefined {
    const path = findConfigFor(filePath, this.options.configBoundaries);
    if (!path) return undefined;
    let mtimeMs = 0;
    try {
      mtimeMs = statSync(path).mtimeMs;
    } catch {
      return undefined;
    }
    const cached = this.configCache.get(path);
    if (cached && cached.mtimeMs === mtimeMs) return cached;
    const loaded = { mtimeMs, ...loadConfigFile(path) };
    this.configCache.set(path, loaded);
    return loaded;
  }

  /** A table's workload hints as the rules see them: its `-- @cqlint` comment, overridden key by key by the config of `filePath`. */
  tableHints(filePath: string, table: TableInfo): TableHints | undefined {
    return mergeHints(table.commentHints, hintsFor(this.configFor(filePath), table.keyspace, table.name));
  }

  targetFor(filePath: string): TargetId {
    return this.fileOptions(filePath).target ?? this.configFor(filePath).target ?? 'cassandra';
  }

  /** The target and rule overrides that apply to a file: its own (forFile), else the project's. */
  private fileOptions(filePath: string): Pick<ProjectOptions, 'target' | 'ruleOverrides'> {
    return this.options.forFile?.(filePath) ?? this.options;
  }

  lint(filePath: string): Finding[] {
    const entry = this.entries.get(filePath);
    if (!entry) return [];
    const parse = this.parse(filePath);
    const model = this.schema();
    const config = this.configFor(filePath);
    const cached = entry.lint;
    if (cached && cached.model === model && cached.config === config && cached.optionsVersion === this.optionsVersion && this.referencesUnchanged(cached.references)) {
      return cached.findings.slice();
    }
    const references: ReferenceDependency[] = [];
    const findings = this.runRules(filePath, entry.text, parse, model, config, references);
    entry.lint = { findings, model, config, optionsVersion: this.optionsVersion, references };
    return findings.slice();
  }

  private runRules(filePath: string, text: string, parse: ParseResult, model: SchemaModel, config: CqlintConfig, references: ReferenceDependency[]): Finding[] {
    const fs = this.fileSchema(filePath)!;
    const own = this.fileOptions(filePath);
    const target = targetInfo(own.target ?? config.target);
    const overrides = own.ruleOverrides ?? {};
    const findings: Finding[] = [];
    const latestCache = new Map<TableInfo, TableInfo>();
    const base = {
      filePath,
      text,
      parse,
      target,
      schema: model,
      tableFor: (name: QualifiedName, at: number) => this.resolveForRules(filePath, name, at),
      tableCandidates: (name: QualifiedName, at: number) => this.resolveTable(filePath, name, at),
      definedBy: (stmt: Statement) => fs.byStatement.get(stmt),
      latest: (table: TableInfo) => {
        let out = latestCache.get(table);
        if (!out) {
          out = latestVersion(fs, table);
          latestCache.set(table, out);
        }
        return out;
      },
      keyspaceAt: (offset: number) => keyspaceAt(fs, offset),
      keyspace: (name: string) => fs.keyspaces.filter((k) => k.name === name).pop() ?? model.keyspaces.get(name),
      indexesOn: (table: TableInfo) => model.indexesOn(table, filePath),
      indexesAt: (table: TableInfo, offset: number) => model.indexesAt(table, filePath, offset),
      hints: (table: TableInfo) => mergeHints(table.commentHints, hintsFor(config, table.keyspace, table.name)),
      sample: (table: TableInfo) => this.sampleSummary(table, filePath),
      referencesTo: (table: TableInfo) => {
        const dependency = this.referenceDependency(table);
        references.push(dependency);
        return dependency.references;
      },
    };

    // Statement-scoped rules run statement by statement through a context that only answers lookups
    // the statement's key covers (anything else marks the statement uncacheable); file-scoped rules run
    // over the whole file as before.
    let scope: StatementScope | undefined;
    let out: Finding[] = findings;
    const single: Statement[] = [];
    const uncacheable = (): void => {
      if (scope) scope.cacheable = false;
    };
    const lookupCovered = (name: QualifiedName, at: number): void => {
      if (scope && !scope.lookups.get(name)?.includes(at)) scope.cacheable = false;
    };
    const nameCovered = (table: TableInfo | undefined): void => {
      if (scope && (!table || !scope.names.has(table.name))) scope.cacheable = false;
    };
    const scopedSchema = new Proxy(model, {
      get: (target, prop, receiver) => {
        if (prop === 'allIndexesOn') return (table: TableInfo, column: string) => (nameCovered(table), target.allIndexesOn(table, column));
        if (prop === 'indexesOn') return (table: TableInfo, from?: string) => (nameCovered(table), target.indexesOn(table, from));
        if (prop === 'userType') return (keyspace: string | undefined, name: string) => {
          if (scope && !scope.types) scope.cacheable = false;
          return target.userType(keyspace, name);
        };
        uncacheable();
        const value = Reflect.get(target, prop, receiver) as unknown;
        return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
      },
    });
    const scopedParse: ParseResult = {
      statements: single,
      get comments() {
        uncacheable();
        return parse.comments;
      },
      get errors() {
        uncacheable();
        return parse.errors;
      },
    };
    const scopedBase = {
      ...base,
      parse: scopedParse,
      schema: scopedSchema,
      tableFor: (name: QualifiedName, at: number) => (lookupCovered(name, at), base.tableFor(name, at)),
      tableCandidates: (name: QualifiedName, at: number) => (lookupCovered(name, at), base.tableCandidates(name, at)),
      definedBy: (stmt: Statement) => {
        if (scope && stmt !== scope.statement) scope.cacheable = false;
        return base.definedBy(stmt);
      },
      latest: (table: TableInfo) => {
        if (scope && table !== scope.defined && table !== scope.latest) scope.cacheable = false;
        return base.latest(table);
      },
      keyspaceAt: (offset: number) => {
        if (scope && offset !== scope.start) scope.cacheable = false;
        return base.keyspaceAt(offset);
      },
      keyspace: (name: string) => (uncacheable(), base.keyspace(name)),
      indexesOn: (table: TableInfo) => (nameCovered(table), base.indexesOn(table)),
      // Allowed: the answer is recorded with the statement's result and compared before it is reused.
      referencesTo: (table: TableInfo) => {
        const dependency = this.referenceDependency(table);
        if (scope) (scope.references ??= []).push(dependency);
        references.push(dependency);
        return dependency.references;
      },
      indexesAt: (table: TableInfo, offset: number) => {
        if (scope && offset !== scope.start) scope.cacheable = false;
        nameCovered(table);
        return base.indexesAt(table, offset);
      },
    };

    const statementRules: { rule: RuleModule; ctx: RuleContext }[] = [];
    const epochParts: string[] = [filePath, String(this.optionsVersion), String(this.objectId(config)), target.id];
    for (const rule of allRules) {
      const setting = config.rules?.[rule.meta.id];
      const level = overrides[rule.meta.id] ?? (Array.isArray(setting) ? setting[0] : setting);
      const severity = severityFor(level, rule);
      if (!severity) continue;
      const options = ruleOptions(rule, setting);
      const report = (f: Parameters<RuleContext['report']>[0]): void => {
        out.push({ ruleId: rule.meta.id, ...f, severity: f.severity ?? severity });
      };
      if (rule.meta.scope === 'statement') {
        statementRules.push({ rule, ctx: { ...scopedBase, options, report } });
        epochParts.push(rule.meta.id);
        continue;
      }
      this.runRule(rule, { ...base, options, report }, filePath);
    }

    if (statementRules.length) {
      if (this.interned.size > MAX_INTERNED) this.resetInterning();
      if (this.tableIdsModel !== model) {
        this.tableIds = new WeakMap();
        this.tableIdsModel = model;
        this.indexIds.clear();
        this.typesId = undefined;
      }
      const epoch = epochParts.join('\u0000');
      for (const stmt of parse.statements) {
        const current = this.statementScope(filePath, fs, model, stmt);
        const key = current.key;
        const cached = this.statementResults.get(stmt);
        const start = stmt.range.start.offset;
        if (cached && cached.epoch === epoch && cached.key === key && cached.anchors.every((a) => a.location.offset - start === a.relative) && this.referencesUnchanged(cached.references)) {
          for (const f of cached.findings) findings.push(f);
          for (const d of cached.references) references.push(d);
          continue;
        }
        scope = current.scope;
        single[0] = stmt;
        out = [];
        for (const { rule, ctx } of statementRules) {
          if (!this.runRule(rule, ctx, filePath)) scope.cacheable = false;
        }
        for (const f of out) findings.push(f);
        if (scope.cacheable) this.statementResults.set(stmt, { epoch, key, findings: out, anchors: anchorsOf(out, stmt), references: scope.references ?? NO_REFERENCES });
        else this.statementResults.delete(stmt);
        scope = undefined;
        out = findings;
      }
      single.length = 0;
    }
    const kept = applySuppressions(findings, parse.comments);
    kept.sort((a, b) => a.range.start.offset - b.range.start.offset || a.range.end.offset - b.range.end.offset || a.ruleId.localeCompare(b.ruleId));
    return kept;
  }

  /** A rule's options for a file (defaults from meta, overridden by the config); undefined when the rule is off there. */
  ruleOptions(filePath: string, ruleId: string): Record<string, unknown> | undefined {
    const rule = allRules.find((r) => r.meta.id === ruleId);
    if (!rule) return undefined;
    const setting = this.configFor(filePath).rules?.[ruleId];
    const level = this.fileOptions(filePath).ruleOverrides?.[ruleId] ?? (Array.isArray(setting) ? setting[0] : setting);
    return severityFor(level, rule) ? ruleOptions(rule, setting) : undefined;
  }

  /** Runs one rule; a crash is recorded (a rule must never take the server down). False when it threw. */
  private runRule(rule: RuleModule, ctx: RuleContext, filePath: string): boolean {
    try {
      rule.check(ctx);
      return true;
    } catch (error) {
      this.recordInternalError(rule.meta.id, filePath, error);
      return false;
    }
  }

  /** Keeps a contained crash of a rule (or of a fix for its findings) for diagnosis; the last 20 are kept. */
  recordInternalError(ruleId: string, filePath: string, error: unknown): void {
    this.internalErrors.push({ ruleId, filePath, error });
    if (this.internalErrors.length > 20) this.internalErrors.shift();
  }

  /**
   * What the statement-scoped rules' findings on `stmt` depend on besides the statement's own text (the
   * statement object itself stands for its text: the parser reuses it only for identical text):
   * the keyspace in effect (USE), every table name it uses as resolved at its position (fingerprints of
   * all candidates), for a CREATE TABLE/VIEW the table it builds and its last ALTERed state, the indexes
   * on those names, and (schema statements) the user types. Fingerprints include the identity of the AST
   * nodes that findings point at (definitions' names and columns), so related locations stay right.
   */
  private statementScope(filePath: string, fs: FileSchema, model: SchemaModel, stmt: Statement): { key: string; scope: StatementScope } {
    const start = stmt.range.start.offset;
    const scope: StatementScope = { statement: stmt, start, lookups: new Map(), names: new Set(), types: false, cacheable: true };
    let key = keyspaceAt(fs, start) ?? '';
    for (const { name, at } of tableLookups(stmt)) {
      const list = scope.lookups.get(name);
      if (list) list.push(at);
      else scope.lookups.set(name, [at]);
      scope.names.add(name.name.name);
      key += '|';
      for (const t of this.resolveTable(filePath, name, at)) key += `${this.tableId(t)},`;
      key += `@${at - start}`;
    }
    if (stmt.kind === 'CreateTable' || stmt.kind === 'CreateMaterializedView') {
      const defined = fs.byStatement.get(stmt);
      if (defined) {
        scope.defined = defined;
        scope.latest = latestVersion(fs, defined);
        scope.names.add(defined.name);
        key += `|d${this.tableId(defined)}:${this.tableId(scope.latest)}`;
      }
    }
    if (isSchemaStatement(stmt)) {
      scope.types = true;
      key += `|t${this.typesFingerprint(model)}`;
    }
    for (const name of scope.names) key += `|i${this.indexFingerprint(model, name)}:${indexEventsBefore(model, name, filePath, start)}`;
    return { key, scope };
  }

  private objectId(value: object | undefined): number {
    if (!value) return 0;
    let id = this.objectIds.get(value);
    if (id === undefined) {
      id = this.nextObjectId++;
      this.objectIds.set(value, id);
    }
    return id;
  }

  private intern(text: string): number {
    let id = this.interned.get(text);
    if (id === undefined) {
      id = this.interned.size + 1;
      this.interned.set(text, id);
    }
    return id;
  }

  /** Forgets interned fingerprints (memory bound); every cached statement result misses once. */
  private resetInterning(): void {
    this.interned.clear();
    this.statementResults = new WeakMap();
    this.tableIds = new WeakMap();
    this.indexIds.clear();
    this.typesId = undefined;
  }

  /** A small id for a table's shape, where it is defined, and the AST nodes its locations are. */
  private tableId(table: TableInfo): number {
    let id = this.tableIds.get(table);
    if (id !== undefined) return id;
    const o = (x: object | undefined): number => this.objectId(x);
    const columns = table.columns.map((c) => `${c.name}:${c.typeText}:${c.type?.kind ?? ''}:${o(c.type)}:${c.role}:${c.keyPosition}:${c.order ?? ''}:${o(c.range)}`).join(';');
    const options = [...table.options].map(([k, v]) => `${k}=${o(v)}`).join(';');
    const shard = (table.shard ? withoutLocations(table.shard) : '') + (table.commentHints ? JSON.stringify(table.commentHints) : '');
    id = this.intern([
      table.kind, table.keyspace ?? '', table.name, table.qualifiedName, table.filePath, o(table.statement), o(table.range), o(table.nameRange),
      table.defaultTtlSeconds ?? '', table.baseTable ?? '', String(table.baseResolved), String(table.counter),
      table.partitionKey.map((c) => c.name).join(','), table.clustering.map((c) => c.name).join(','), columns, options, shard,
    ].join('\u0001'));
    this.tableIds.set(table, id);
    return id;
  }

  private indexFingerprint(model: SchemaModel, name: string): number {
    let id = this.indexIds.get(name);
    if (id === undefined) {
      const list = model.indexesByTable.get(name) ?? [];
      id = this.intern('idx\u0001' + list.map((i) => withoutLocations({ ...i, range: undefined })).join('\u0001'));
      this.indexIds.set(name, id);
    }
    return id;
  }

  private typesFingerprint(model: SchemaModel): number {
    if (this.typesId === undefined) {
      const parts: string[] = [];
      for (const list of model.types.values()) for (const t of list) parts.push(`${t.qualifiedName}(${t.fields.map((f) => `${f.name}:${f.typeText}`).join(',')})`);
      this.typesId = this.intern('types\u0001' + parts.join(';'));
    }
    return this.typesId;
  }
}

/** How many of this file's CREATE and DROP INDEX on `name` precede `offset` (which indexes are in effect there). */
function indexEventsBefore(model: SchemaModel, name: string, filePath: string, offset: number): number {
  let n = 0;
  for (const i of model.indexesByTable.get(name) ?? []) {
    if (i.filePath !== filePath) continue;
    if (i.range.start.offset < offset) n++;
    if (i.droppedBy && i.droppedBy.start.offset < offset) n++;
  }
  return n;
}

/** Locations inside the statement that the findings hold, with their offset from its start. */
function anchorsOf(findings: Finding[], stmt: Statement): StatementResult['anchors'] {
  const start = stmt.range.start.offset;
  const end = stmt.range.end.offset;
  const locations: SourceLocation[] = [];
  for (const f of findings) findingLocations(f, locations);
  const anchors: StatementResult['anchors'] = [];
  for (const location of locations) {
    if (location.offset >= start && location.offset <= end) anchors.push({ location, relative: location.offset - start });
  }
  return anchors;
}

/** The last version of a table this file defines (following its ALTERs up to a DROP or re-CREATE). */
function latestVersion(fs: FileSchema, table: TableInfo): TableInfo {
  const list = fs.versions.get(table.name);
  if (!list) return table;
  const start = list.findIndex((v) => v.table === table);
  if (start < 0) return table;
  let out = table;
  for (let i = start + 1; i < list.length; i++) {
    const v = list[i]!;
    if (!v.table || v.table.statement !== table.statement) break;
    out = v.table;
  }
  return out;
}

