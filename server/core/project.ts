// The workspace as the linter sees it: CQL files by absolute path, their parses, the merged schema, and
// lint results with config, editor overrides and suppression comments applied. Used by the language
// server, the CLI and the tests alike; everything is computed lazily and cached per text.
import { statSync } from 'node:fs';

import type { ParseResult, QualifiedName, Statement } from '../../grammar/ast';
import { parseCql } from '../../grammar';
import type { Finding, Severity } from './findings';
import { buildFileSchema, keyspaceAt, mergeSchemas, type FileSchema } from './schema/build';
import { type SchemaModel, type TableInfo, sameShape } from './schema/model';
import { type TargetId, targetInfo } from './targets';
import { findConfigFor, hintsFor, loadConfigFile } from './config';
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
}

interface FileEntry {
  text: string;
  parse?: ParseResult;
  /** The parse of the previous text, handed to the parser for incremental reuse. */
  previous?: ParseResult;
  schema?: FileSchema;
  lint?: { findings: Finding[]; model: SchemaModel; config: CqlintConfig | undefined; optionsVersion: number };
}

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

export class Project {
  private options: ProjectOptions;
  private optionsVersion = 0;
  private readonly entries = new Map<string, FileEntry>();
  private model?: SchemaModel;
  /** Names each file defined before its latest change (for dependents()). */
  private readonly previousDefined = new Map<string, Set<string>>();
  private readonly configCache = new Map<string, LoadedConfig>();
  /** Rule crashes are contained (a rule must never take the server down); the last ones are kept here. */
  readonly internalErrors: { ruleId: string; filePath: string; error: unknown }[] = [];

  constructor(options: ProjectOptions = {}) {
    this.options = { ...options };
  }

  setOptions(options: ProjectOptions): void {
    this.options = { ...options };
    this.optionsVersion++;
  }

  setFile(filePath: string, text: string): void {
    const old = this.entries.get(filePath);
    if (old && old.text === text) return;
    if (old?.schema) this.previousDefined.set(filePath, old.schema.definedNames);
    this.entries.set(filePath, { text, previous: old?.parse ?? old?.previous });
    this.model = undefined;
  }

  removeFile(filePath: string): void {
    const old = this.entries.get(filePath);
    if (!old) return;
    if (old.schema) this.previousDefined.set(filePath, old.schema.definedNames);
    this.entries.delete(filePath);
    this.model = undefined;
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

  /** Schema facts of one file (cached per parse). */
  fileSchema(filePath: string): FileSchema | undefined {
    const entry = this.entries.get(filePath);
    if (!entry) return undefined;
    if (!entry.schema) entry.schema = buildFileSchema(filePath, entry.text, this.parse(filePath));
    return entry.schema;
  }

  /** The merged workspace schema. */
  schema(): SchemaModel {
    if (!this.model) {
      const files = [...this.entries.keys()].sort();
      this.model = mergeSchemas(files.map((f) => this.fileSchema(f)!));
    }
    return this.model;
  }

  /** Other files whose findings may change when `filePath` changes: those using a table or type it defines (or defined). */
  dependents(filePath: string): string[] {
    const names = new Set<string>(this.previousDefined.get(filePath) ?? []);
    const own = this.entries.has(filePath) ? this.fileSchema(filePath) : undefined;
    for (const n of own?.definedNames ?? []) names.add(n);
    if (!names.size) return [];
    const out: string[] = [];
    for (const other of this.entries.keys()) {
      if (other === filePath) continue;
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

  tableFor(filePath: string, name: QualifiedName | string, atOffset?: number): TableInfo | undefined {
    return this.resolveTable(filePath, name, atOffset ?? Number.MAX_SAFE_INTEGER)[0];
  }

  /** Resolution candidates, best first: the same-file definition alone, else every compatible workspace definition. */
  private resolveTable(filePath: string, name: QualifiedName | string, atOffset: number): TableInfo[] {
    // Merging completes views and LIKE tables whose base lives in another file, so merge first.
    const model = this.schema();
    const fs = this.fileSchema(filePath);
    let keyspace: string | undefined;
    let table: string;
    if (typeof name === 'string') {
      const dot = name.indexOf('.');
      keyspace = dot >= 0 ? name.slice(0, dot) : undefined;
      table = dot >= 0 ? name.slice(dot + 1) : name;
    } else {
      keyspace = name.keyspace?.name;
      table = name.name.name;
    }
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
    const path = findConfigFor(filePath);
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

  targetFor(filePath: string): TargetId {
    return this.options.target ?? this.configFor(filePath).target ?? 'cassandra';
  }

  lint(filePath: string): Finding[] {
    const entry = this.entries.get(filePath);
    if (!entry) return [];
    const parse = this.parse(filePath);
    const model = this.schema();
    const config = this.configFor(filePath);
    const cached = entry.lint;
    if (cached && cached.model === model && cached.config === config && cached.optionsVersion === this.optionsVersion) {
      return cached.findings.slice();
    }
    const findings = this.runRules(filePath, entry.text, parse, model, config);
    entry.lint = { findings, model, config, optionsVersion: this.optionsVersion };
    return findings.slice();
  }

  private runRules(filePath: string, text: string, parse: ParseResult, model: SchemaModel, config: CqlintConfig): Finding[] {
    const fs = this.fileSchema(filePath)!;
    const target = targetInfo(this.options.target ?? config.target);
    const overrides = this.options.ruleOverrides ?? {};
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
      hints: (table: TableInfo) => hintsFor(config, table.keyspace, table.name),
    };
    for (const rule of allRules) {
      const setting = config.rules?.[rule.meta.id];
      const level = overrides[rule.meta.id] ?? (Array.isArray(setting) ? setting[0] : setting);
      const severity = severityFor(level, rule);
      if (!severity) continue;
      const options: Record<string, unknown> = {};
      for (const [k, spec] of Object.entries(rule.meta.options ?? {})) if (spec.default !== undefined) options[k] = spec.default;
      if (Array.isArray(setting)) Object.assign(options, setting[1]);
      const ctx: RuleContext = {
        ...base,
        options,
        report: (f) => findings.push({ ruleId: rule.meta.id, severity, ...f }),
      };
      try {
        rule.check(ctx);
      } catch (error) {
        this.internalErrors.push({ ruleId: rule.meta.id, filePath, error });
        if (this.internalErrors.length > 20) this.internalErrors.shift();
      }
    }
    const kept = applySuppressions(findings, parse.comments);
    kept.sort((a, b) => a.range.start.offset - b.range.start.offset || a.range.end.offset - b.range.end.offset || a.ruleId.localeCompare(b.ruleId));
    return kept;
  }
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

