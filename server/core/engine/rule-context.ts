// The contexts the rule runner gives rules (RuleContext): the file's lookups, answered by its schema and the
// Project (fileContext), and the statement-scoped rules' context, which marks a statement's cached results
// unusable when a rule reads what the statement's key does not cover (statementContext).
import type { ParseResult, QualifiedName, Statement } from '../../../grammar/ast';
import type { LineIndex } from '../../../grammar/line-index';
import type { OffsetFinding } from '../findings/findings';
import { keyspaceAt, type FileSchema } from '../schema/build';
import type { KeyspaceInfo, SchemaModel, TableInfo } from '../schema/model';
import type { Mention } from '../schema/versions';
import { mergeHints } from '../schema/workload';
import { historyAt } from '../schema/history';
import type { PartitionSample } from '../partition/sample';
import type { TableEvidence } from '../evidence';
import type { ClusterSettings } from '../cluster';
import type { TargetId } from '../partition/targets';
import { hintsFor } from '../config';
import type { CqlintConfig, RuleLevel } from '../vocabulary/config';
import { allRules } from '../rules';
import type { RuleContext } from '../rules/types';
import { latestVersion, type ReferenceDependency, type StatementScope } from './statement-keys';

let allRuleIds: readonly string[] | undefined;
/** Every rule's id (the registry is fixed once loaded). */
function ruleIds(): readonly string[] {
  return (allRuleIds ??= allRules.map((rule) => rule.meta.id));
}

/** Every keyspace and table of a model, listed once per model (a count guardrail asks on every CREATE). */
const definitionLists = new WeakMap<
  SchemaModel,
  { keyspaces: readonly KeyspaceInfo[]; tables: readonly TableInfo[] }
>();
function workspaceDefinitions(model: SchemaModel): {
  keyspaces: readonly KeyspaceInfo[];
  tables: readonly TableInfo[];
} {
  let lists = definitionLists.get(model);
  if (!lists)
    definitionLists.set(model, (lists = { keyspaces: [...model.keyspaces.values()], tables: model.allTables() }));
  return lists;
}

/** What the runner asks of the Project. */
export interface RuleRunHost {
  /** The definition a name refers to for the rules, from its resolution candidates (none when the workspace's definitions differ). */
  ruleTable(filePath: string, candidates: readonly TableInfo[]): TableInfo | undefined;
  /** Resolution candidates, best first. */
  resolveTable(filePath: string, name: QualifiedName, atOffset: number): readonly TableInfo[];
  /** A referencesTo() answer, recorded so that findings computed from it can be checked later. */
  referenceDependency(table: TableInfo): ReferenceDependency;
  /** True when every recorded answer still holds. */
  referencesUnchanged(dependencies: readonly ReferenceDependency[]): boolean;
  /** A rule crashed: kept for diagnosis (it must never take the server down). */
  recordInternalError(ruleId: string, filePath: string, error: unknown): void;
  /** The read sample of a table under the config of `filePath` (see Project.sampleSummary). */
  sampleSummary(table: TableInfo, filePath: string): PartitionSample | undefined;
  /** What the configured evidence says of a table under the config of `filePath` (see Project.evidence). */
  evidence(table: TableInfo, filePath: string): TableEvidence | undefined;
  /** The cluster settings in force for a file (see Project.clusterSettings). */
  cluster(filePath: string): ClusterSettings | undefined;
}

/** One file to lint, with what it is linted under. */
export interface RuleRunInput {
  filePath: string;
  text: string;
  /** The line index of `text` (suppression comments match lines), the one its findings are located with. */
  lines: () => LineIndex;
  parse: ParseResult;
  model: SchemaModel;
  fileSchema: FileSchema;
  config: CqlintConfig;
  /** The file's own target (editor override), else the config's. */
  target?: TargetId;
  overrides?: Record<string, RuleLevel>;
  /** `--report-unused-disable-directives`: replaces the config's `reportUnusedDisableDirectives`. */
  unusedDirectives?: RuleLevel;
  /** Bumped by the Project when its options change: cached statement results then miss. */
  optionsVersion: number;
  /** Receives the referencesTo() answers the run depended on. */
  references: ReferenceDependency[];
  /** The file-local rules' findings on this parse (runLocal), which the run adds to the others'. */
  local: readonly OffsetFinding[];
  /** The file is open in an editor: its statements' results are kept from their first lint (not lintedOnce). */
  editing: boolean;
}

/**
 * What the statement-scoped rules of one run share: the statement a rule runs on (its scope: the lookups
 * its key covers), where findings go (the run's list, or one rule's on one statement), and the one-statement
 * list their context's parse shows.
 */
export interface StatementRun {
  scope: StatementScope | undefined;
  out: OffsetFinding[];
  single: Statement[];
}

/**
 * The parse a statement-scoped rule sees: its statement alone; reading the file's comments or errors marks
 * the statement uncacheable. A class, not an object literal with getters: such a literal's getters are new
 * closures on every run, so every run made a new hidden class, kept in the old generation, pointing at them
 * and through them at the file's tree. V8's young-generation collections keep alive whatever an old object
 * points at: on the CLI's lint pass every tree linted was promoted (300 KB a file) and freed only by a full
 * collection.
 */
class ScopedParse implements ParseResult {
  readonly statements: Statement[];
  constructor(
    private readonly whole: ParseResult,
    private readonly run: StatementRun,
  ) {
    this.statements = run.single;
  }

  get comments(): ParseResult['comments'] {
    if (this.run.scope) this.run.scope.cacheable = false;
    return this.whole.comments;
  }

  get errors(): ParseResult['errors'] {
    if (this.run.scope) this.run.scope.cacheable = false;
    return this.whole.errors;
  }
}

/** Everything a rule's context has but its options and report. */
export type BaseContext = Omit<RuleContext, 'options' | 'report'>;

/** The last few name lookups of a run (a ring of RECENT_LOOKUPS): names by identity, with the offset asked at. */
class RecentLookups {
  private readonly names: (QualifiedName | undefined)[] = new Array<QualifiedName | undefined>(RECENT_LOOKUPS).fill(
    undefined,
  );
  private readonly offsets: number[] = new Array<number>(RECENT_LOOKUPS).fill(0);
  private readonly answers: (readonly TableInfo[])[] = new Array<readonly TableInfo[]>(RECENT_LOOKUPS).fill([]);
  private next = 0;

  get(name: QualifiedName, at: number): readonly TableInfo[] | undefined {
    for (let i = 0; i < RECENT_LOOKUPS; i++)
      if (this.names[i] === name && this.offsets[i] === at) return this.answers[i];
    return undefined;
  }

  set(name: QualifiedName, at: number, answer: readonly TableInfo[]): void {
    this.names[this.next] = name;
    this.offsets[this.next] = at;
    this.answers[this.next] = answer;
    this.next = (this.next + 1) % RECENT_LOOKUPS;
  }
}
const RECENT_LOOKUPS = 4;

/** The lookups of a file's rules: the file, its schema versions and the host's workspace answers. */
export function fileContext(host: RuleRunHost, input: RuleRunInput, target: RuleContext['target']): BaseContext {
  const { filePath, text, parse, model, config, references } = input;
  const fs = input.fileSchema;
  const latestCache = new Map<TableInfo, TableInfo>();
  // Several rules look up the same name of the same statement in a row (a batch's members: a few names in
  // turn): the last few answers serve again (the model stands for the run). Not a map of every name of the
  // file: an entry per statement, read only while its statement runs.
  const recent = new RecentLookups();
  let cluster: ClusterSettings | null | undefined;
  const candidatesOf = (name: QualifiedName, at: number): readonly TableInfo[] => {
    const hit = recent.get(name, at);
    if (hit) return hit;
    const candidates = host.resolveTable(filePath, name, at);
    recent.set(name, at, candidates);
    return candidates;
  };
  // Several rules ask for the indexes on the same statement's table in a row: the last answer serves again.
  let lastIndexes: { table: TableInfo; offset: number; indexes: ReturnType<SchemaModel['indexesAt']> } | undefined;
  return {
    filePath,
    text,
    parse,
    target,
    ruleIds: ruleIds(),
    userType: (keyspace: string | undefined, name: string, mention?: Mention) =>
      model.userType(keyspace, name, mention),
    tableFor: (name: QualifiedName, at: number) => host.ruleTable(filePath, candidatesOf(name, at)),
    tableCandidates: candidatesOf,
    definitionsOf: (table: TableInfo) => model.candidates(table.keyspace, table.name),
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
    indexesAt: (table: TableInfo, offset: number) => {
      if (lastIndexes?.table !== table || lastIndexes.offset !== offset)
        lastIndexes = { table, offset, indexes: model.indexesAt(table, filePath, offset) };
      return lastIndexes.indexes;
    },
    hints: (table: TableInfo) => mergeHints(table.commentHints, hintsFor(config, table.keyspace, table.name)),
    sample: (table: TableInfo) => host.sampleSummary(table, filePath),
    evidence: (table: TableInfo) => host.evidence(table, filePath),
    // The same answer for the whole run (rules ask it for every statement).
    cluster: () => (cluster === undefined ? (cluster = host.cluster(filePath) ?? null) : cluster) ?? undefined,
    workspaceDefinitions: () => workspaceDefinitions(model),
    viewsOf: (table: TableInfo) => model.viewsOf(table),
    migration: () => model.migrations.get(filePath),
    history: (name: QualifiedName, at: number) =>
      historyAt(model, filePath, name.keyspace?.name ?? keyspaceAt(fs, at), name.name.name, at),
    referencesTo: (table: TableInfo) => {
      const dependency = host.referenceDependency(table);
      references.push(dependency);
      return dependency.references;
    },
    fileStatements: () => parse.statements,
    now: () => Date.now(),
  };
}

/**
 * The context of statement-scoped rules: it answers only the lookups the statement's key covers (anything
 * else marks the statement uncacheable), and its parse shows the one statement (comments and errors, read,
 * mark it too).
 */
export function statementContext(
  host: RuleRunHost,
  input: RuleRunInput,
  base: BaseContext,
  run: StatementRun,
): BaseContext {
  const { filePath, parse, references } = input;
  const uncacheable = (): void => {
    if (run.scope) run.scope.cacheable = false;
  };
  /** The statement key's answer for a lookup; none (and the statement is not cacheable) when the key does not cover it. */
  const covered = (name: QualifiedName, at: number): readonly TableInfo[] | undefined => {
    const scope = run.scope;
    if (!scope) return undefined;
    const answers = scope.lookups.get(name);
    if (answers) for (const a of answers) if (a.offset === at - scope.start) return a.candidates;
    scope.cacheable = false;
    return undefined;
  };
  /** A read of the workspace's definitions: the result then stands while the model is the same object. */
  const modelBound = (): void => {
    if (run.scope) run.scope.modelBound = true;
  };
  const nameCovered = (table: TableInfo | undefined): void => {
    if (run.scope && (!table || !run.scope.names.has(table.name))) run.scope.cacheable = false;
  };
  return {
    ...base,
    parse: new ScopedParse(parse, run),
    // Schema statements' keys cover the user types (sizing); on any other statement the reuse stops.
    userType: (keyspace: string | undefined, name: string, mention?: Mention) => {
      if (run.scope && !run.scope.types) run.scope.cacheable = false;
      return base.userType(keyspace, name, mention);
    },
    tableFor: (name: QualifiedName, at: number) => {
      const candidates = covered(name, at);
      return candidates ? host.ruleTable(filePath, candidates) : base.tableFor(name, at);
    },
    tableCandidates: (name: QualifiedName, at: number) => covered(name, at) ?? base.tableCandidates(name, at),
    // The CREATE statement's own table's definitions are covered by its key (StatementScope.definitions).
    definitionsOf: (table: TableInfo) => {
      const scope = run.scope;
      if (scope?.definitions && table === scope.latest) return scope.definitions;
      modelBound();
      return base.definitionsOf(table);
    },
    definedBy: (stmt: Statement) => {
      if (run.scope && stmt !== run.scope.statement) run.scope.cacheable = false;
      return base.definedBy(stmt);
    },
    latest: (table: TableInfo) => {
      if (run.scope && table !== run.scope.defined && table !== run.scope.latest) run.scope.cacheable = false;
      return base.latest(table);
    },
    keyspaceAt: (offset: number) => {
      if (run.scope && offset !== run.scope.start) run.scope.cacheable = false;
      return base.keyspaceAt(offset);
    },
    keyspace: (name: string) => (uncacheable(), base.keyspace(name)),
    workspaceDefinitions: () => (modelBound(), base.workspaceDefinitions()),
    viewsOf: (table: TableInfo) => (modelBound(), base.viewsOf(table)),
    fileStatements: () => (uncacheable(), base.fileStatements()),
    now: () => (uncacheable(), base.now()),
    migration: () => (modelBound(), base.migration()),
    history: (name: QualifiedName, at: number) => (uncacheable(), base.history(name, at)),
    indexesOn: (table: TableInfo) => (nameCovered(table), base.indexesOn(table)),
    // Allowed: the answer is recorded with the statement's result and compared before it is reused.
    referencesTo: (table: TableInfo) => {
      const dependency = host.referenceDependency(table);
      if (run.scope) (run.scope.references ??= []).push(dependency);
      references.push(dependency);
      return dependency.references;
    },
    indexesAt: (table: TableInfo, offset: number) => {
      if (run.scope && offset !== run.scope.start && offset !== run.scope.end) run.scope.cacheable = false;
      nameCovered(table);
      return base.indexesAt(table, offset);
    },
  };
}
