// What a rule is and what it gets to look at. Rules are pure: they read the parse result and the schema
// through the context and report findings; they never talk to LSP.
import type {
  BatchStatement,
  ParseResult,
  QualifiedName,
  SourceRange,
  Statement,
  StatementKind,
} from '../../../grammar/ast';
import type { MessageValues, OffsetFinding, Severity } from '../findings/findings';
import type { Markdown } from '../util/markdown';
import type { TableInfo, IndexInfo, KeyspaceInfo, MigrationStep, UserTypeInfo } from '../schema/model';
import type { HistoryAt } from '../schema/history';
import type { Mention } from '../schema/versions';
import type { TargetId, TargetInfo } from '../partition/targets';
import type { CqlintConfig, RuleOptionSpec, TableHints } from '../vocabulary/config';
import type { TableReference } from '../schema/references';
import type { PartitionSample } from '../partition/sample';
import type { TableEvidence } from '../evidence';
import type { ClusterSettings } from '../cluster';

export interface RuleMeta<M extends string = string> {
  /**
   * Stable id: diagnostic code, CLI ruleId, suppression name, docs page name. The docs page's URL is
   * derived from it (findings.ts docsUrl(id): docs/rules/<id>.md), never written by hand.
   */
  id: string;
  defaultSeverity: Severity;
  /** One line: what the rule catches. */
  description: string;
  /**
   * ESLint's `meta.messages`: every headline the rule reports, by message id. A template's `{{name}}`
   * placeholders are filled from the report's `values`; a headline that reads differently case by case is
   * several ids, not a template that hides the choice. The id is stable (JSON `messageId`, SARIF
   * `message.id`), the text may be reworded.
   */
  messages: Readonly<Record<M, string>>;
  /** Options accepted in `"rules": { "<id>": ["warn", { ... }] }`. */
  options?: Record<string, RuleOptionSpec>;
  /**
   * `'statement'`: the rule judges each top-level statement on its own, so the Project may run it one
   * statement at a time (its handler for the statement's kind; or check() with ctx.parse.statements holding
   * that one statement) and reuse its findings while the
   * statement's text and what it looks up are unchanged. Such a rule reports only on its statement and
   * reads the rest of the workspace through the context's lookups only: tableFor/tableCandidates for the
   * names the statement uses, definedBy/latest for the table it creates, keyspaceAt(its start),
   * indexesOn, indexesAt(table, its start; a CREATE INDEX's end too), hints, sample, evidence, referencesTo, userType on schema statements, and
   * ctx.text inside the statement. Other reads (ctx.parse.comments or errors, fileStatements(), now(), userType elsewhere,
   * keyspace(), history()) still work but turn the reuse off for that statement; definitionsOf(), workspaceDefinitions()
   * and migration() keep it only while the workspace's merged schema is the same (an edit that changes no DDL). Default `'file'`: the rule sees the whole file on
   * every lint (its handlers called in one walk over the statements).
   */
  scope?: 'statement' | 'file';
  /**
   * `true`: the rule's findings on a file depend on that file alone (its text and parse, the target, the
   * rule's options), never on another file. Such a rule is a FileLocalRuleModule: it runs with a
   * FileRuleContext, which offers nothing else, and the language server shows its findings on an opened
   * file at once, while the workspace is still being indexed. Every other rule waits for the files its
   * lookups could need, so that a verdict once shown is never withdrawn. Default: not file-local.
   */
  fileLocal?: boolean;
  /**
   * `true`: the runner calls the rule's `Insert`, `Update` and `Delete` handlers on each member of a BATCH
   * too, in order, after its `Batch` handler if it has one (which then judges the batch as a whole only),
   * with `ctx.batch` the batch. The members' findings belong to the batch's run (its statement cache,
   * when `scope: 'statement'`). Default: a BATCH's members are not visited on their own.
   */
  batchMembers?: boolean;
}

/**
 * What a rule reports: a declared message id and the values of its template's placeholders, never a
 * headline of its own (`message` is made from the template by the runner).
 */
export type ReportedFinding<M extends string = string> = Omit<
  OffsetFinding,
  'ruleId' | 'severity' | 'message' | 'messageId' | 'values' | 'details'
> & {
  /**
   * The figures, the cure and the sources. A string is plain text: the runner escapes it for markdown
   * (every name in it shows as written in the hover and SARIF, never as a link, an image or HTML); markdown
   * of the rule's own (code spans, links) is built with `md` (core/util/markdown.ts), which escapes what it
   * interpolates.
   */
  details?: string | Markdown;
  /** A key of the rule's `meta.messages`. */
  messageId: M;
  /** The template's placeholders: `{{table}}` is filled from `values.table`. */
  values?: MessageValues;
  message?: never;
  /** `'info'`: a note on a cost worth knowing rather than a mistake, shown as information whatever the rule's level. */
  severity?: 'info';
};

export interface RuleContext<M extends string = string> {
  readonly filePath: string;
  readonly text: string;
  readonly parse: ParseResult;
  readonly target: TargetInfo;
  /** The rule's options: defaults from meta, overridden by the config. */
  readonly options: Readonly<Record<string, unknown>>;
  /** Every rule id cqlint has (what a suppression comment may name). */
  readonly ruleIds: readonly string[];
  /** The BATCH whose member a handler is called on (RuleMeta.batchMembers); undefined on a top-level statement. */
  readonly batch?: BatchStatement;
  /** A user type as named at `mention` (a column's definition: schema/resolve.ts rule 3), else the workspace's (for sizing frozen UDT columns). */
  userType(keyspace: string | undefined, name: string, mention?: Mention): UserTypeInfo | undefined;
  /** The table or view a name refers to at `atOffset` (USE context, same file first, then workspace). */
  tableFor(name: QualifiedName, atOffset: number): TableInfo | undefined;
  /**
   * Every definition the name may refer to: the same-file one alone when there is one, else every
   * workspace definition (the docs define some tables in several files, not always alike).
   */
  tableCandidates(name: QualifiedName, atOffset: number): readonly TableInfo[];
  /**
   * Every workspace definition of a table's keyspace and name, this file's included, in file order (what
   * tableCandidates gives from the start of a file that defines the table, without putting this file's
   * first: a new list per file and name, quadratic in a workspace of migrations).
   */
  definitionsOf(table: TableInfo): readonly TableInfo[];
  /** The table built by a CREATE TABLE / CREATE MATERIALIZED VIEW statement of this file. */
  definedBy(statement: Statement): TableInfo | undefined;
  /** The last state of a table defined in this file (after its ALTERs), or the table itself. */
  latest(table: TableInfo): TableInfo;
  /** The keyspace in effect at an offset (USE), if any. */
  keyspaceAt(offset: number): string | undefined;
  keyspace(name: string): KeyspaceInfo | undefined;
  indexesOn(table: TableInfo): readonly IndexInfo[];
  /** The indexes on a table in effect at an offset of this file (its CREATE/DROP INDEX up to there). */
  indexesAt(table: TableInfo, offset: number): readonly IndexInfo[];
  /** Workload hints from the config for a table. */
  hints(table: TableInfo): TableHints | undefined;
  /**
   * The table's sample (.cqlint.json `samples`) as already read: the CLI reads samples before linting and
   * the server in the background, so this never reads a file. Undefined when none is configured or read yet.
   */
  sample(table: TableInfo): PartitionSample | undefined;
  /**
   * What the configured evidence (.cqlint.json `evidence`, `--evidence`, the editor setting) measured of
   * the table on the cluster, already read (never reads a file). Undefined when none names the table.
   */
  evidence(table: TableInfo): TableEvidence | undefined;
  /**
   * The workspace's SELECT/INSERT/UPDATE/DELETE statements on a table (see Project.referencesTo). A
   * statement-scoped rule may call it: its cached findings are recomputed when the answer changes.
   */
  referencesTo(table: TableInfo): readonly TableReference[];
  /**
   * The cluster's settings in force for this file: the team's cassandra.yaml or scylla.yaml over its
   * version's defaults (.cqlint.json `cluster`); undefined for targets without one. Never reads a file.
   */
  cluster(): ClusterSettings | undefined;
  /**
   * Every keyspace and every table or view definition of the workspace (the guardrails on their counts).
   * A list of the whole schema: ask only when a count matters.
   */
  workspaceDefinitions(): { keyspaces: readonly KeyspaceInfo[]; tables: readonly TableInfo[] };
  /** The materialized views whose base is the table, anywhere in the workspace (SchemaModel.viewsOf). */
  viewsOf(table: TableInfo): readonly TableInfo[];
  /** This file's place in its migration folder (docs/migrations.md); undefined for a file in none. */
  migration(): MigrationStep | undefined;
  /**
   * What the statement at `atOffset` of this migration file meets of a table name: the table as the history
   * has it just before (files before this one applied), its last definition (a dropped one too) and the
   * columns ALTERs dropped from it. Undefined for a file in no migration folder.
   */
  history(name: QualifiedName, atOffset: number): HistoryAt | undefined;
  /**
   * Every top-level statement of the file (ctx.parse.statements holds only its own statement in a
   * statement-scoped run): a statement-scoped rule that reads it is not reused on that statement.
   */
  fileStatements(): readonly Statement[];
  /** The time of the lint (Date.now()): a statement-scoped rule that reads it is not reused on that statement (the clock moves). */
  now(): number;
  report(finding: ReportedFinding<M>): void;
}

/** The top-level statement of one kind. */
export type StatementOf<K extends StatementKind> = Extract<Statement, { kind: K }>;

/**
 * ESLint-style handlers: the runner walks the file's top-level statements once and calls, for each, the
 * handler of its kind (a BATCH's members only for a rule with RuleMeta.batchMembers; a rule that judges a
 * batch as a whole handles `Batch`). With `scope: 'statement'` each call is the statement's own run (cached with it); a rule
 * without a handler for a statement's kind is not run on it at all.
 */
export type StatementHandlers<C> = { [K in StatementKind]?: (stmt: StatementOf<K>, ctx: C) => void };

/**
 * A rule: its metadata and either `handlers` by statement kind (most rules) or `check`, which sees the
 * whole file (scope 'file') or each statement as ctx.parse.statements (scope 'statement') — for rules
 * that read comments, errors, or every statement of any kind. Exactly one of the two.
 */
export interface RuleModule<M extends string = string> {
  meta: RuleMeta<M>;
  check?(ctx: RuleContext<M>): void;
  handlers?: StatementHandlers<RuleContext<M>>;
}

/** What a file-local rule (RuleMeta.fileLocal) sees: the file itself, nothing of the workspace. */
export type FileRuleContext<M extends string = string> = Pick<
  RuleContext<M>,
  'filePath' | 'text' | 'parse' | 'target' | 'options' | 'keyspaceAt' | 'cluster' | 'report' | 'batch'
>;

/** A rule whose findings depend on its file alone (RuleMeta.fileLocal): it is given a FileRuleContext. */
export interface FileLocalRuleModule<M extends string = string> extends RuleModule<M> {
  meta: RuleMeta<M> & { fileLocal: true };
  check?(ctx: FileRuleContext<M>): void;
  handlers?: StatementHandlers<FileRuleContext<M>>;
}

/** A case of the examples table: CQL text, optionally with a target, config, or other workspace files. */
export interface ExampleCase {
  code: string;
  /** Why this case is here (shows in test names). */
  name?: string;
  target?: TargetId;
  config?: CqlintConfig;
  /** Other files of the workspace: path (relative) → CQL. */
  files?: Record<string, string>;
  /**
   * Where `code` is (relative), when not `main.cql`: a migration file (`migrations/v002_x.cql`) whose
   * folder's other files are in `files`.
   */
  path?: string;
  /**
   * A sample of real rows for a table, configured as .cqlint.json `samples` would (as samples/sample.csv)
   * and read before the rules run: cqlsh CSV text, or a function making it (large samples).
   */
  sample?: { table: string; csv: string | (() => string) };
  /**
   * Evidence files, configured as .cqlint.json `evidence` would (`evidence/<name>`) and read before the
   * rules run: name -> the tool's output.
   */
  evidence?: Record<string, string>;
  /**
   * The cluster's cassandra.yaml or scylla.yaml text, configured as .cqlint.json `cluster.config` would
   * (`cluster.yaml`, with the case's `config.cluster.version` if any) and read before the rules run.
   */
  clusterYaml?: string;
}

/** The message ids a rule declares (its `RuleModule<M>`'s M), for its examples table. */
export type MessageIdOf<R> = R extends RuleModule<infer M> ? M : never;

export interface InvalidExampleCase<M extends string = string> extends ExampleCase {
  /** How many findings of this rule (default 1). */
  count?: number;
  /** Every finding's message, headline and details, must match. */
  message?: RegExp;
  /** Every finding's message id (ESLint's `errors: [{ messageId }]`). */
  messageId?: M;
  /** Every finding's severity (default: the rule's default severity). */
  severity?: Severity;
  /** The first finding's data must contain these entries (deep-equal per key). */
  data?: Record<string, unknown>;
  /** Where the first finding starts: this text's first occurrence in `code` (every invalid case is located). */
  at: string;
  /**
   * ESLint's `output`, for a rule with quick fixes: `code` after one pass of fix-all (`cqlint lint --fix`) over
   * this rule's findings, the fixes that need no choice (`safeForFixAll`); `null`: fix-all changes nothing
   * here (the fixes are choices, or there is none). A case whose fix-all changes the code must state it.
   */
  output?: string | null;
  /**
   * ESLint's suggestion: a fix of the first finding that fix-all does not take (a choice), named by its title,
   * and `code` with that fix alone applied (this file's edits; a fix's edits to other files are not shown).
   */
  suggestion?: { title: string; output: string };
}

/** A rule's examples; `RuleExamples<MessageIdOf<typeof rule>>` checks the message ids its invalid cases pin. */
export interface RuleExamples<M extends string = string> {
  valid: (string | ExampleCase)[];
  invalid: InvalidExampleCase<M>[];
}

export type { SourceRange };
