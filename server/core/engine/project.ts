// The workspace as the linter sees it: CQL files by absolute path, their parses, the merged schema, and
// lint results with config, editor overrides and suppression comments applied. Used by the language
// server, the CLI and the tests alike; everything is computed lazily and cached per text.
import { statSync } from 'node:fs';

import type { ParseResult, QualifiedName } from '../../../grammar/ast';
import { forgetParse, parseCql } from '../../../grammar';
import { LineIndex, type SourcePositions } from '../../../grammar/line-index';
import { locateFindings, type Finding, type OffsetFinding } from '../findings/findings';
import { buildFileSchema, compactFileSchema, keyDefinitions, mergeSchemas, type FileSchema } from '../schema/build';
import { findMigrationFolders, type MigrationFolder } from '../schema/migrations';
import { allSameShape, resolveTableName } from '../schema/resolve';
import { type SchemaModel, type TableInfo } from '../schema/model';
import { mergeHints } from '../schema/workload';
import { forgetSchemaAnswers } from '../schema/forget';
import { buildFileReferences, type TableReference } from '../schema/references';
import type { TargetId } from '../partition/targets';
import {
  findConfigFor,
  hintsFor,
  loadConfigFile,
  sampleFor,
  type LoadedConfigFile,
  type SampleSetting,
  type TableHints,
} from '../config';
import type { PartitionSample } from '../partition/sample';
import type { ClusterSetting, ConfigError, CqlintConfig, EvidenceSetting, RuleLevel } from '../vocabulary/config';
import { ClusterSettings, clusterVersion, hasClusterSettings, type ClusterFile } from '../cluster';
import { combineEvidence, type EvidenceFile, type TableEvidence } from '../evidence';
import { udtLookupFor } from '../schema/key-values';
import { allRules } from '../rules';
import { forgetKeySignatures } from '../rules/conflicting-definition';
import { oneAnswerPerTable } from '../rules/one-answer';
import { RuleRunner, ruleOptions, severityFor, type ReferenceDependency } from './rule-runner';
import { ReferenceIndex } from './reference-index';
import { ddlSignature, reuseFileSchema } from './schema-reuse';
import { fileEntry, isWellFormed, packText, rawText, textOf, type FileEntry } from './project-entry';
import {
  hostLanguageOf,
  readEmbedded,
  type EmbeddedDocument,
  type HostEditResult,
  type HostLanguage,
} from '../embedded';
import type { TextEdit } from '../util/text-edit';
import { HostPositions, guessesAtHole, refusedDocument, suppressedInCode } from '../embedded/in-project';
import { analysisRefusal } from '../io/input-limits';

export type { TargetId } from '../partition/targets';
export type { CqlintConfig, RuleLevel, ConfigError } from '../vocabulary/config';

export interface ProjectOptions {
  /** Overrides the config's target (CLI --target, editor setting). */
  target?: TargetId;
  /** Explicit config (CLI --config F, already loaded); when absent, .cqlint.json is discovered upward from each file. */
  config?: CqlintConfig;
  /** Rule levels from the editor settings, applied over the config: { 'hot-partition': 'off' | 'warn' | 'error' } */
  ruleOverrides?: Record<string, RuleLevel>;
  /** CLI --report-unused-disable-directives: replaces the config's reportUnusedDisableDirectives. */
  reportUnusedDisableDirectives?: RuleLevel;
  /**
   * Per-file `target` and `ruleOverrides` (editor settings are per workspace folder or document), used
   * instead of the two above for the files it answers. Call setOptions again when its answers change.
   */
  forFile?: (filePath: string) => Pick<ProjectOptions, 'target' | 'ruleOverrides' | 'evidence' | 'cluster'> | undefined;
  /**
   * The discovered config of a file, from the caller's cache: the language server answers without
   * touching the disk (it loads .cqlint.json files ahead, asynchronously), the CLI from one lookup per
   * run (server/cli/io.ts). Must return the same object while the config is unchanged (lint results are
   * cached by it); call setOptions when it changes. Absent (tests, the bench): discovered on disk with
   * findConfigFor up to the file system root, cached by modification time.
   */
  configLookup?: (filePath: string) => LoadedConfigFile | undefined;
  /**
   * The read summary of the sample `.cqlint.json` names for a table (rules are synchronous: whoever owns
   * the Project reads samples beforehand, see report/sample-cache.ts). Call refreshSamples when its answers change.
   */
  sampleSummary?: (table: TableInfo, sample: SampleSetting) => PartitionSample | undefined;
  /**
   * Evidence for every file besides what its .cqlint.json names (`cqlint lint --evidence`, the editor's
   * `cqlint.evidence` setting).
   */
  evidence?: readonly EvidenceSetting[];
  /**
   * The evidence files read for these settings (rules are synchronous: whoever owns the Project reads them
   * beforehand, see evidence/files.ts EvidenceCache). Must return the same array while nothing changed.
   * Call refreshEvidence when its answers change.
   */
  evidenceFiles?: (settings: readonly EvidenceSetting[]) => readonly EvidenceFile[];
  /** The cluster as the command line (`--cluster-config`, `--cluster-version`) or the editor names it, over each .cqlint.json's `cluster`. */
  cluster?: ClusterSetting;
  /**
   * The cluster yaml files as read (rules are synchronous: whoever owns the Project reads them beforehand,
   * see cluster/files.ts ClusterFileCache). Call refreshCluster when its answers change.
   */
  clusterFile?: (file: string) => ClusterFile | undefined;
  /**
   * Whether a file is open in an editor, and so likely to be edited: its rule results are kept statement by
   * statement from its first lint, so that the first edit re-checks only what it touched. Other files' are
   * kept from their parse's second lint (most files are linted once: a workspace's, the CLI's).
   */
  editing?: (filePath: string) => boolean;
  /**
   * release() keeps a file's text as UTF-8 bytes instead of deflating it. For a run that ends and lints each
   * file once (the CLI): deflating every text and inflating it again to lint it took 5-7% of a 2,000-file run,
   * to save the 45 MB its texts take as they are. A long-lived process (the server) leaves it unset.
   */
  keepTexts?: boolean;
}

/**
 * What a Project keeps of a file it read and let go of (release()): its schema, its references and its
 * text deflated. Plain data (structured-cloneable): the CLI's worker threads index a share of the files
 * each and hand the others what they made (exportIndexed, adoptIndexed).
 */
export interface IndexedFile {
  filePath: string;
  schema: FileSchema;
  references: TableReference[];
  packed: Uint8Array;
  /** For application code: the host file's text, deflated (positions in it are read from it again). */
  hostPacked?: Uint8Array;
}

/**
 * Application code (a Java, Python, Go, JavaScript/TypeScript, Kotlin or C# file) as the Project holds it: the
 * engine reads the CQL text of its statements (the entry's text); findings show at host positions.
 */
interface HostFile {
  language: HostLanguage;
  /** The file's own text, or deflated once an adopted index is all the Project has of it. */
  hostText?: string;
  hostPacked?: Buffer;
  /** The keyspace of statements the code names none for, as the document was read with. */
  defaultKeyspace: string | undefined;
  /** Read when needed (an adopted index holds the host text only). */
  doc?: EmbeddedDocument;
  positions?: HostPositions;
}

interface LoadedConfig {
  mtimeMs: number;
  config?: CqlintConfig;
  errors: ConfigError[];
}

const EMPTY_CONFIG: CqlintConfig = {};
/** How many files' line indexes Project.lineIndex keeps. */
const KEPT_LINE_INDEXES = 8;

export class Project {
  private options: ProjectOptions;
  private optionsVersion = 0;
  private readonly entries = new Map<string, FileEntry>();
  private model?: SchemaModel;
  /** The file schemas (in merge order) `model` was merged from: the same objects mean the same model. */
  private modelInputs: FileSchema[] = [];
  /** The migration folders the model was merged with, as text (a change of folders or order merges again). */
  private modelFolders = '';
  /** False after a file changed: schema() then compares its inputs. */
  private modelChecked = false;
  private readonly runner = new RuleRunner({
    ruleTable: (filePath, candidates) => ruleTable(filePath, candidates),
    resolveTable: (filePath, name, at) => this.resolveTable(filePath, name, at),
    referenceDependency: (table) => this.references.referenceDependency(table),
    referencesUnchanged: (dependencies) => this.references.referencesUnchanged(dependencies),
    recordInternalError: (ruleId, filePath, error) => this.recordInternalError(ruleId, filePath, error),
    sampleSummary: (table, filePath) => this.sampleSummary(table, filePath),
    evidence: (table, filePath) => this.evidence(table, filePath),
    cluster: (filePath) => this.clusterSettings(filePath),
  });
  /** The settings in force per version and file read (`version|path`), while that reading stands. */
  private readonly clusters = new Map<string, { file: ClusterFile | undefined; settings: ClusterSettings }>();
  /** Combined evidence per table, for one array of files (the hook's answer). */
  private readonly combined = new WeakMap<readonly EvidenceFile[], WeakMap<TableInfo, TableEvidence | null>>();
  /** Line indexes of the files asked for last (related locations, the report), with the text they were made from. */
  private readonly lineIndexes = new Map<string, { source: string | Buffer; index: LineIndex }>();
  /** Names each file defined before its latest change (for dependents()). */
  private readonly previousDefined = new Map<string, Set<string>>();
  private readonly configCache = new Map<string, LoadedConfig>();
  /** The workspace's statements on each table name, resolved by referencesTo(). */
  private readonly references = new ReferenceIndex({
    fileReferences: (filePath) => this.fileReferences(filePath),
    schema: () => this.schema(),
    resolveParts: (filePath, keyspace, table, atOffset) => this.resolveParts(filePath, keyspace, table, atOffset),
  });
  /** The files of application code, by path (see HostFile). */
  private readonly hosts = new Map<string, HostFile>();
  /** Rule and fix crashes are contained (they must never take the server down); the last ones are kept here. */
  readonly internalErrors: { ruleId: string; filePath: string; error: unknown }[] = [];

  constructor(options: ProjectOptions = {}) {
    this.options = { ...options };
  }

  setOptions(options: ProjectOptions): void {
    this.options = { ...options };
    this.optionsVersion++;
    this.rereadHosts();
  }

  /** Application code whose default keyspace (its .cqlint.json's) is not the one it was read with is read again. */
  private rereadHosts(): void {
    for (const [filePath, host] of this.hosts) {
      if (this.defaultKeyspaceOf(filePath) === host.defaultKeyspace) continue;
      const hostText = this.sourceText(filePath);
      if (hostText !== undefined) this.setFile(filePath, hostText, { reread: true });
    }
  }

  private defaultKeyspaceOf(filePath: string): string | undefined {
    return this.configFor(filePath).defaultKeyspace;
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

  /** The evidenceFiles hook answers differently (evidence was read): findings are computed again. */
  refreshEvidence(): void {
    this.optionsVersion++;
  }

  /** The evidence settings that apply to a file: its .cqlint.json's, then the command line's or the editor's. */
  evidenceSettings(filePath: string): EvidenceSetting[] {
    return [
      ...(this.configFor(filePath).evidence ?? []),
      ...(this.fileOptions(filePath).evidence ?? this.options.evidence ?? []),
    ];
  }

  /** What the evidence says of a table, under the settings of `filePath` (the file that defines it by default). */
  evidence(table: TableInfo, filePath = table.filePath): TableEvidence | undefined {
    const settings = this.evidenceSettings(filePath);
    if (!settings.length || !this.options.evidenceFiles) return undefined;
    const files = this.options.evidenceFiles(settings);
    if (!files.length) return undefined;
    let perTable = this.combined.get(files);
    if (!perTable) {
      // Weak both ways: an edit makes new TableInfo objects, a new reading a new array of files.
      perTable = new WeakMap();
      this.combined.set(files, perTable);
    }
    let found = perTable.get(table);
    if (found === undefined) {
      found = combineEvidence(table, files, udtLookupFor(this.schema())) ?? null;
      perTable.set(table, found);
    }
    return found ?? undefined;
  }

  /** The cluster setting that applies to a file: its .cqlint.json's, with the command line's or the editor's over it. */
  clusterSetting(filePath: string): ClusterSetting | undefined {
    const own = this.configFor(filePath).cluster;
    const over = this.fileOptions(filePath).cluster ?? this.options.cluster;
    if (!over) return own;
    return {
      ...own,
      ...(over.version ? { version: over.version } : {}),
      ...(over.config
        ? { config: over.config, name: over.name, unconfined: over.unconfined, configFolder: over.configFolder }
        : {}),
    };
  }

  /**
   * The cluster's settings in force for a file (its version's defaults, the team's yaml over them);
   * undefined for targets without a yaml (Amazon Keyspaces, Cosmos DB).
   */
  clusterSettings(filePath: string): ClusterSettings | undefined {
    const target = this.targetFor(filePath);
    if (!hasClusterSettings(target)) return undefined;
    const setting = this.clusterSetting(filePath);
    const file = setting?.config ? this.options.clusterFile?.(setting.config) : undefined;
    const version = clusterVersion(setting, target, file);
    const key = `${version}|${setting?.config ?? ''}`;
    const kept = this.clusters.get(key);
    if (kept && kept.file === file) return kept.settings;
    const settings = new ClusterSettings(version, file);
    this.clusters.set(key, { file, settings });
    return settings;
  }

  /** The clusterFile hook answers differently (a yaml was read): findings are computed again. */
  refreshCluster(): void {
    this.optionsVersion++;
  }

  /**
   * Sets a file's text: CQL, or application code (hostLanguageOf: by its extension), whose statements are read
   * out of it (readEmbedded: the host languages must be loaded first, see loadHostLanguages) and linted as CQL.
   */
  setFile(filePath: string, text: string, { reread = false }: { reread?: boolean } = {}): void {
    const language = hostLanguageOf(filePath);
    if (language) {
      const old = this.hosts.get(filePath);
      const defaultKeyspace = this.defaultKeyspaceOf(filePath);
      if (!reread && old?.hostText === text && old.defaultKeyspace === defaultKeyspace && old.doc) return;
      const doc = readHostFile(language, text, defaultKeyspace);
      this.hosts.set(filePath, { language, hostText: text, defaultKeyspace, doc });
      text = doc.cqlText;
    }
    const old = this.entries.get(filePath);
    if (old && textOf(old) === text) return;
    if (old?.schema) this.previousDefined.set(filePath, old.schema.definedNames);
    // The old schema can serve again only with the parse it was built from as `previous` (same AST objects).
    const previous = old?.parse ?? old?.previous;
    // Its signature is made now, from the parse the schema was built for (intact until the next parse).
    const previousSchema = old?.parse
      ? old.schema && old.schemaParse === old.parse
        ? { schema: old.schema, ddl: old.ddl ?? ddlSignature(textOf(old), old.parse) }
        : undefined
      : old?.previousSchema;
    const previousReferences = old?.parse ? old.references : old?.previousReferences;
    // The references are those of `previous`'s statements (see buildFileReferences).
    const previousStatements = previousReferences && previous?.statements;
    this.entries.set(filePath, fileEntry({ text, previous, previousSchema, previousReferences, previousStatements }));
    this.references.markStale(filePath);
    this.modelChecked = false;
    // The merged model is checked against its inputs in schema(): an edit that touches no DDL keeps it.
  }

  removeFile(filePath: string): void {
    const old = this.entries.get(filePath);
    if (!old) return;
    if (old.schema) this.previousDefined.set(filePath, old.schema.definedNames);
    this.entries.delete(filePath);
    this.hosts.delete(filePath);
    this.references.markStale(filePath);
    this.modelChecked = false;
  }

  hasFile(filePath: string): boolean {
    return this.entries.has(filePath);
  }

  files(): string[] {
    return [...this.entries.keys()];
  }

  /** The CQL text of a file: its own text, or for application code the CQL text read out of it (see embedded/). */
  getText(filePath: string): string | undefined {
    const entry = this.entries.get(filePath);
    return entry && textOf(entry);
  }

  /** What the file itself holds: for application code its host text (what fixes edit and writers write), else getText. */
  sourceText(filePath: string): string | undefined {
    const host = this.hosts.get(filePath);
    if (!host) return this.getText(filePath);
    return host.hostText ?? (host.hostPacked ? textOf({ packed: host.hostPacked }) : undefined);
  }

  /** The application code a file is read as (its host language), or undefined for a CQL file. */
  hostLanguage(filePath: string): HostLanguage | undefined {
    return this.hosts.get(filePath)?.language;
  }

  /** The statements read out of a file of application code, and its map back to the host text. */
  embedded(filePath: string): EmbeddedDocument | undefined {
    const host = this.hosts.get(filePath);
    if (!host) return undefined;
    if (!host.doc) {
      const hostText = this.sourceText(filePath)!;
      host.doc = readHostFile(host.language, hostText, host.defaultKeyspace);
    }
    return host.doc;
  }

  /**
   * Edits of a file's CQL text (a fix's) as edits of what the file holds (sourceText): the same for a CQL file;
   * for application code, written into its string literals with the host's quoting (EmbeddedDocument.hostEdits),
   * or refused with why.
   */
  sourceEdits(filePath: string, edits: readonly TextEdit[]): HostEditResult {
    const doc = this.hosts.has(filePath) ? this.embedded(filePath) : undefined;
    return doc ? doc.hostEdits(edits) : { edits: [...edits] };
  }

  /** The lines of what the file holds (sourceText), for the positions of sourceEdits. */
  sourceLines(filePath: string): LineIndex | undefined {
    if (!this.hosts.has(filePath)) return this.lineIndex(filePath);
    return (this.positions(filePath) as HostPositions | undefined)?.hostLines;
  }

  /**
   * Where a file's offsets show to people: its own lines, or for application code the host file's (see
   * SourcePositions). Findings, related locations, the report's places and the editor's ranges go through it.
   */
  positions(filePath: string): SourcePositions | undefined {
    const host = this.hosts.get(filePath);
    if (!host) return this.lineIndex(filePath);
    if (!host.positions) {
      const doc = this.embedded(filePath);
      const hostText = this.sourceText(filePath);
      if (!doc || hostText === undefined) return undefined;
      host.positions = new HostPositions(doc, hostText);
    }
    return host.positions;
  }

  /**
   * The lines of a file's CQL text (the AST keeps offsets): its line index. The last few are kept, since a
   * file's findings point at the same few definitions. Where a range shows to people is positions(): for
   * application code, the host file's lines.
   */
  lineIndex(filePath: string): LineIndex | undefined {
    const entry = this.entries.get(filePath);
    const source = entry && (entry.text ?? entry.raw ?? entry.packed);
    const cached = this.lineIndexes.get(filePath);
    this.lineIndexes.delete(filePath);
    if (!entry || source === undefined) return undefined;
    // After an edit, the lines of the text before serve again but for the edited part (LineIndex.edited).
    const index =
      cached && cached.source === source
        ? cached.index
        : cached
          ? LineIndex.edited(cached.index, textOf(entry))
          : new LineIndex(textOf(entry));
    this.lineIndexes.set(filePath, { source, index });
    if (this.lineIndexes.size > KEPT_LINE_INDEXES) this.lineIndexes.delete(this.lineIndexes.keys().next().value!);
    return index;
  }

  parse(filePath: string): ParseResult {
    const entry = this.entries.get(filePath);
    if (!entry) return { statements: [], comments: [], errors: [] };
    if (!entry.parse) {
      // The text stays unpacked while its tree is kept: rules and fixes read both.
      entry.text = textOf(entry);
      entry.parse = parseCql(entry.text, entry.previous ? { previous: entry.previous } : undefined);
      entry.previous = undefined;
      if (entry.released) {
        entry.released = false;
        if (entry.schema) keyDefinitions(entry.schema, entry.parse);
      }
    }
    return entry.parse;
  }

  /**
   * Lets go of a file's syntax tree, keeping its text (deflated, unless keepTexts), schema and references (built first if need be)
   * and its findings unless `findings` is set, so that memory grows with the schema, not the text: the
   * CLI releases each file once it is indexed, and with its findings once they are written. A later
   * lookup parses the text again.
   */
  release(filePath: string, { findings = false }: { findings?: boolean } = {}): void {
    const entry = this.entries.get(filePath);
    if (findings && entry) entry.lint = undefined;
    if (!entry?.parse) return;
    // What the file keeps: built now, from the tree it is about to lose.
    this.fileSchema(filePath);
    this.fileReferences(filePath);
    // Neither tree will be parsed again incrementally: the grammar's memo of them must not keep them alive.
    forgetParse(entry.parse);
    if (entry.previous) forgetParse(entry.previous);
    entry.parse = undefined;
    entry.previous = undefined;
    entry.previousReferences = undefined;
    entry.previousStatements = undefined;
    entry.local = undefined; // made from the tree, and only ever reused with it
    // Kept deflated (a schema file compresses about 6x), or with keepTexts as UTF-8 outside the heap: read
    // back by textOf whenever it is needed. UTF-8 cannot carry a lone surrogate (an editor's text may hold
    // one): such a text stays as it is.
    if (entry.text !== undefined && isWellFormed(entry.text)) {
      if (this.options.keepTexts) entry.raw ??= rawText(entry.text);
      else entry.packed ??= packText(entry.text);
      entry.text = undefined;
    }
    // The schema lets go of the statements it was built from (and of the re-parse's, which key byStatement).
    if (entry.schema) compactFileSchema(entry.schema);
    // Reusing the schema across an edit needs the tree it was built from.
    entry.ddl = undefined;
    entry.schemaParse = undefined;
    entry.released = true;
    // Runs of thousands of files (the CLI, the server's index) release each in turn; keeping the heap near
    // what is alive is process policy, the entry points' (they call util/heap's keeper after each release).
  }

  /** A released file's index, to hand to another Project (see IndexedFile); undefined unless the file is released. */
  exportIndexed(filePath: string): IndexedFile | undefined {
    const entry = this.entries.get(filePath);
    if (!entry?.released || !entry.schema || !entry.references) return undefined;
    // A text kept as it is (keepTexts) is deflated for the copy.
    if (!entry.packed && (entry.raw || (entry.text !== undefined && isWellFormed(entry.text))))
      entry.packed = packText(entry.raw ?? entry.text!);
    if (!entry.packed) return undefined;
    const host = this.hosts.get(filePath);
    const hostPacked =
      host &&
      (host.hostPacked ??
        (host.hostText !== undefined && isWellFormed(host.hostText) ? packText(host.hostText) : undefined));
    return {
      filePath,
      schema: entry.schema,
      references: entry.references,
      packed: entry.packed,
      ...(hostPacked ? { hostPacked } : {}),
    };
  }

  /**
   * Takes a file another Project indexed (exportIndexed, as a copy): this Project knows it as if it had read
   * and released it itself. Its tree is made again if something needs it.
   */
  adoptIndexed(file: IndexedFile): void {
    const old = this.entries.get(file.filePath);
    if (old?.schema) this.previousDefined.set(file.filePath, old.schema.definedNames);
    const packed = Buffer.isBuffer(file.packed)
      ? file.packed
      : Buffer.from(file.packed.buffer, file.packed.byteOffset, file.packed.byteLength);
    this.entries.set(
      file.filePath,
      fileEntry({ packed, schema: file.schema, references: file.references, released: true }),
    );
    const language = hostLanguageOf(file.filePath);
    if (language && file.hostPacked) {
      const hostPacked = Buffer.isBuffer(file.hostPacked)
        ? file.hostPacked
        : Buffer.from(file.hostPacked.buffer, file.hostPacked.byteOffset, file.hostPacked.byteLength);
      this.hosts.set(file.filePath, { language, hostPacked, defaultKeyspace: this.defaultKeyspaceOf(file.filePath) });
    } else this.hosts.delete(file.filePath);
    this.references.markStale(file.filePath);
    this.modelChecked = false;
  }

  /** Schema facts of one file (cached per parse; reused across edits that change no schema statement). */
  fileSchema(filePath: string): FileSchema | undefined {
    const entry = this.entries.get(filePath);
    if (!entry) return undefined;
    if (!entry.schema) {
      const parse = this.parse(filePath);
      const text = textOf(entry);
      const ddl = entry.previousSchema && ddlSignature(text, parse);
      const reused = ddl && reuseFileSchema(entry.previousSchema!, ddl, parse, text);
      entry.schema = reused || buildFileSchema(filePath, text, parse);
      entry.ddl = ddl || undefined;
      entry.schemaParse = parse;
      entry.previousSchema = undefined;
    }
    return entry.schema;
  }

  /** The merged workspace schema (kept while every file's schema is the same object). */
  schema(): SchemaModel {
    if (this.model && this.modelChecked) return this.model;
    const files = [...this.entries.keys()].sort();
    const inputs = files.map((f) => this.fileSchema(f)!);
    const folders = this.migrationFolders(files);
    const foldersText = JSON.stringify(folders);
    if (
      !this.model ||
      foldersText !== this.modelFolders ||
      inputs.length !== this.modelInputs.length ||
      inputs.some((fs, i) => fs !== this.modelInputs[i])
    ) {
      this.model = mergeSchemas(inputs, folders);
      this.modelInputs = inputs;
      this.modelFolders = foldersText;
    }
    this.modelChecked = true;
    return this.model;
  }

  /**
   * The workspace's migration folders (docs/migrations.md): found by their files' names, unless the config
   * that applies to a folder names its migration folders (`migrations`), which then decides.
   */
  migrationFolders(files: readonly string[] = [...this.entries.keys()].sort()): MigrationFolder[] {
    return findMigrationFolders(files, (dir, sample) => {
      const setting = this.configFor(sample).migrations;
      if (setting === undefined) return undefined;
      return setting !== false && setting.some((folder) => samePath(folder, dir));
    });
  }

  /** The migration folder a file applies in, with its place there; undefined for other files. */
  migrationOf(filePath: string): { folder: MigrationFolder; index: number } | undefined {
    const step = this.schema().migrations.get(filePath);
    return step && { folder: step.folder, index: step.index };
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
    // The files a migration folder applies after this one meet the tables as it leaves them.
    const step = this.model?.migrations.get(filePath);
    const later = new Set(step ? step.folder.files.slice(step.index + 1) : []);
    if (!names.size && !used?.size && !later.size) return [];
    const out: string[] = [];
    for (const [other, entry] of this.entries) {
      if (other === filePath) continue;
      if (later.has(other)) {
        out.push(other);
        continue;
      }
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
   * members included), ordered by file, then position: see ReferenceIndex.referencesTo.
   */
  referencesTo(table: TableInfo): readonly TableReference[] {
    return this.references.referencesTo(table);
  }

  /**
   * Lets go of what the lookups of a pass over the whole workspace kept (resolved references, the model's candidates
   * and index histories, workloads, column profiles, key signatures, interned names), once that pass is done in a
   * long-lived process (the language server, after publishing every file): what it lints next asks again.
   */
  forgetLookups(): void {
    this.references.forgetResolutions();
    this.model?.forgetLookups();
    forgetSchemaAnswers();
    forgetKeySignatures();
  }

  /** The table references of one file, built from its parse (cached with it). */
  fileReferences(filePath: string): readonly TableReference[] {
    const entry = this.entries.get(filePath);
    if (!entry) return [];
    if (!entry.references) {
      entry.references = buildFileReferences(
        filePath,
        this.parse(filePath),
        entry.previousReferences,
        entry.previousStatements,
      );
      entry.previousReferences = undefined;
      entry.previousStatements = undefined;
    }
    return entry.references;
  }

  tableFor(filePath: string, name: QualifiedName | string, atOffset?: number): TableInfo | undefined {
    return this.resolveTable(filePath, name, atOffset ?? Number.MAX_SAFE_INTEGER)[0];
  }

  /** Resolution candidates, best first: the same-file definition alone, else every compatible workspace definition. */
  private resolveTable(filePath: string, name: QualifiedName | string, atOffset: number): readonly TableInfo[] {
    if (typeof name !== 'string') return this.resolveParts(filePath, name.keyspace?.name, name.name.name, atOffset);
    const dot = name.indexOf('.');
    return dot >= 0
      ? this.resolveParts(filePath, name.slice(0, dot), name.slice(dot + 1), atOffset)
      : this.resolveParts(filePath, undefined, name, atOffset);
  }

  private resolveParts(
    filePath: string,
    keyspace: string | undefined,
    table: string,
    atOffset: number,
  ): readonly TableInfo[] {
    // Merging completes views and LIKE tables whose base lives in another file, so merge first.
    const model = this.schema();
    return resolveTableName(model, this.fileSchema(filePath), { keyspace, name: table }, atOffset);
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

  private discoveredConfig(filePath: string): LoadedConfigFile | undefined {
    if (this.options.configLookup) return this.options.configLookup(filePath);
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

  /** A table's workload hints as the rules see them: its `-- @cqlint` comment, overridden key by key by the config of `filePath`. */
  tableHints(filePath: string, table: TableInfo): TableHints | undefined {
    return mergeHints(table.commentHints, hintsFor(this.configFor(filePath), table.keyspace, table.name));
  }

  targetFor(filePath: string): TargetId {
    return this.fileOptions(filePath).target ?? this.configFor(filePath).target ?? 'cassandra';
  }

  /** The target and rule overrides that apply to a file: its own (forFile), else the project's. */
  private fileOptions(filePath: string): Pick<ProjectOptions, 'target' | 'ruleOverrides' | 'evidence' | 'cluster'> {
    return this.options.forFile?.(filePath) ?? this.options;
  }

  lint(filePath: string): Finding[] {
    return this.located(filePath, this.lintOffsets(filePath));
  }

  /**
   * lint()'s findings before they are located: with the AST's offsets, which positions() places. The rule
   * runner hands back a statement's findings as the same objects while the statement stands, so a caller that
   * keeps what it made of each (the language server's diagnostics) locates only to compare, not to copy every
   * finding on every edit.
   */
  lintOffsets(filePath: string): readonly OffsetFinding[] {
    const entry = this.entries.get(filePath);
    if (!entry) return [];
    const parse = this.parse(filePath);
    const model = this.schema();
    const config = this.configFor(filePath);
    const cached = entry.lint;
    if (
      cached &&
      cached.model === model &&
      cached.config === config &&
      cached.optionsVersion === this.optionsVersion &&
      this.references.referencesUnchanged(cached.references)
    ) {
      return this.shown(filePath, cached.findings);
    }
    const references: ReferenceDependency[] = [];
    const own = this.fileOptions(filePath);
    const findings = this.runner.run({
      filePath,
      text: textOf(entry),
      lines: () => this.lineIndex(filePath)!,
      parse,
      model,
      fileSchema: this.fileSchema(filePath)!,
      config,
      target: own.target,
      overrides: own.ruleOverrides,
      unusedDirectives: this.options.reportUnusedDisableDirectives,
      optionsVersion: this.optionsVersion,
      references,
      local: this.localFindings(filePath, entry, parse, config),
      editing: this.options.editing?.(filePath) === true,
    });
    entry.lint = { findings, model, config, optionsVersion: this.optionsVersion, references };
    return this.shown(filePath, findings);
  }

  /** Whether the file's last lint read the workspace's queries (referencesTo): its findings then depend on them. */
  lintReadReferences(filePath: string): boolean {
    return (this.entries.get(filePath)?.lint?.references.length ?? 0) > 0;
  }

  /**
   * The findings of the file-local rules alone (RuleMeta.fileLocal): they read nothing but the file, so they
   * are right before the rest of the workspace is known, and lint() reports the very same ones among the others.
   * The language server shows them on an opened file while the workspace is indexed.
   */
  lintLocal(filePath: string): Finding[] {
    return this.located(filePath, this.lintLocalOffsets(filePath));
  }

  /** lintLocal()'s findings before they are located (see lintOffsets). */
  lintLocalOffsets(filePath: string): readonly OffsetFinding[] {
    const entry = this.entries.get(filePath);
    if (!entry) return [];
    const parse = this.parse(filePath);
    const local = this.localFindings(filePath, entry, parse, this.configFor(filePath));
    return this.shown(
      filePath,
      this.runner.settle(local.slice(), parse, () => this.lineIndex(filePath)!),
    );
  }

  /** The file-local rules' findings on the file's parse (cached with it), before suppressions. */
  private localFindings(filePath: string, entry: FileEntry, parse: ParseResult, config: CqlintConfig): OffsetFinding[] {
    const cached = entry.local;
    if (cached && cached.parse === parse && cached.config === config && cached.optionsVersion === this.optionsVersion)
      return cached.findings;
    const own = this.fileOptions(filePath);
    const findings = this.runner.runLocal({
      filePath,
      text: textOf(entry),
      parse,
      fileSchema: this.fileSchema(filePath)!,
      config,
      target: own.target,
      overrides: own.ruleOverrides,
    });
    entry.local = { findings, parse, config, optionsVersion: this.optionsVersion };
    return findings;
  }

  /** What of a file's findings shows: those no hole or comment in application code takes away, one answer per table. */
  private shown(filePath: string, findings: readonly OffsetFinding[]): readonly OffsetFinding[] {
    if (!findings.length) return [];
    // A statement read from code with a hole (a name or value the program computes): what touches or names it is a guess.
    const doc = this.hosts.has(filePath) ? this.embedded(filePath) : undefined;
    let shown = doc?.statements.some((s) => s.holes.length) ? findings.filter((f) => !guessesAtHole(doc, f)) : findings;
    // A suppression comment in the code (`// cqlint-disable-next-line rule` above the call).
    if (doc?.statements.some((s) => s.disabled)) shown = shown.filter((f) => !suppressedInCode(doc, f));
    // After every suppression: a finding another one's fix answers refers to it (rules/one-answer.ts).
    return oneAnswerPerTable(shown);
  }

  /** Findings with their lines and columns where they show now (see positions()). */
  private located(filePath: string, shown: readonly OffsetFinding[]): Finding[] {
    if (!shown.length) return [];
    return locateFindings(shown, filePath, this.positions(filePath)!, (other) => this.positions(other));
  }

  /** A rule's options for a file (defaults from meta, overridden by the config); undefined when the rule is off there. */
  ruleOptions(filePath: string, ruleId: string): Record<string, unknown> | undefined {
    const rule = allRules.find((r) => r.meta.id === ruleId);
    if (!rule) return undefined;
    const setting = this.configFor(filePath).rules?.[ruleId];
    return severityFor(rule, setting, this.fileOptions(filePath).ruleOverrides?.[ruleId])
      ? ruleOptions(rule, setting)
      : undefined;
  }

  /** Keeps a contained crash of a rule (or of a fix for its findings) for diagnosis; the last 20 are kept. */
  recordInternalError(ruleId: string, filePath: string, error: unknown): void {
    this.internalErrors.push({ ruleId, filePath, error });
    if (this.internalErrors.length > 20) this.internalErrors.shift();
  }
}

/**
 * The CQL of a file of application code, under the statement-size guard every CQL text analysed gets
 * (core/io/input-limits.ts): a literal holding a statement too large to parse refuses the file's CQL, with why.
 */
function readHostFile(language: HostLanguage, hostText: string, defaultKeyspace: string | undefined): EmbeddedDocument {
  const doc = readEmbedded(language, hostText, defaultKeyspace !== undefined ? { defaultKeyspace } : undefined);
  const refused = analysisRefusal(doc.cqlText);
  return refused === undefined
    ? doc
    : refusedDocument(language, hostText.length, `its CQL is not analysed: ${refused}`);
}

/** Two spellings of one folder (separators, a trailing slash). */
function samePath(a: string, b: string): boolean {
  const norm = (p: string) => p.replace(/\\/g, '/').replace(/\/+$/, '');
  return norm(a) === norm(b);
}

/**
 * Resolution for rules: like tableFor (the first candidate), but when the name is not defined in this file
 * and the workspace holds differing definitions of it (the Cassandra docs define `users` and `t` in many
 * files), none: guessing would produce noise.
 */
function ruleTable(filePath: string, candidates: readonly TableInfo[]): TableInfo | undefined {
  const first = candidates[0];
  if (!first || candidates.length === 1 || first.filePath === filePath) return first;
  return allSameShape(candidates) ? first : undefined;
}
