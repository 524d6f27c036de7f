// Which fixes a finding gets, and fix-all. Pure: the caller (LSP, CLI, tests) supplies the table
// lookup and the settings through FixEnvironment.
import type { CreateTableStatement, ParseResult, QualifiedName, SourceRange, Statement } from '../../../grammar/ast';
import type { Finding } from '../findings';
import { offsetsOf } from '../../../grammar/line-index';
import { isFindingOf, type FindingOf, type RuleWithData } from '../findings-data';
import type { TableInfo } from '../schema/model';
import type { TableHints } from '../config-types';
import { flatStatements } from '../util/ast-walk';
import type { Fix, TextEdit } from './types';
import { editsConflict, sortEdits } from './text';
import { freeName } from './identifiers';
import type { TableReference } from '../schema/references';
import { shardStatementFixes } from './shard-statements';
import { isDmlStatement } from './key-rewrite';
import { partitionPlans, type PlanContext, type PlanDemand } from './partition-plans';
import { applicationCountOf, keyChangeCopyFix, keyChangeFix, samePrimaryKey, type RefactorContext, type TableDefinitionSite, type WorkspaceStatement, type WorkspaceView } from './refactor';
import type { PartitionPlan } from './key-change';
import { shardAbove } from '../schema/shard';
import { targetInfo, type TargetInfo } from '../partition/targets';
import type { UdtLookup } from '../partition/sizing';
import { renameColumnFix, shardValueFix, suppressionIdFix } from './replace';
import { withRateHint } from './hint-comment';
import { twcsFixes } from './compaction';

export type { Fix, TextEdit } from './types';
export { applyEdits } from './text';

/** Finds a file's statement at a range (the reference index gives positions; a rewrite needs the AST). */
export type StatementLookup = (filePath: string, range: SourceRange) => { text: string; statement: Statement } | undefined;

export interface FixEnvironment {
  /**
   * Only the fixes that need no choice (`safeForFixAll`) are wanted (`--fix`, the CLI's fixable counts):
   * providers whose fixes all need one (the partition refactorings) skip their work.
   */
  safeOnly?: boolean;
  /** The table or view a statement's name refers to at an offset (other files included). */
  tableFor?(name: QualifiedName, offset: number): TableInfo | undefined;
  /** The `cqlint.shardCount` setting: shards to add when the finding carries no workload numbers. Default 16. */
  shardCount?: number;
  /** Largest shard count read with one `IN (...)`. Default 32. */
  maxInListShards?: number;
  /** The file the fixes are for (reads of a table in it are rewritten in the fix's own edits). */
  filePath?: string;
  /** The workspace's statements on a table (the reference index): the shard advice follows its reads. */
  referencesTo?(table: TableInfo): readonly TableReference[];
  /** A statement of a workspace file at a range, with the file's text. */
  statementAt?: StatementLookup;
  /** Whether some table or view of the workspace has this name (in any keyspace). */
  tableNameTaken?(name: string): boolean;
  /** Every finding of the file: workload numbers of one rule (partition-throughput) size another's fix. */
  findings?: readonly Finding[];
  /** Workload hints for a table (.cqlint.json `tables`): they size the shard count and the time bucket. */
  hintsFor?(table: TableInfo): TableHints | undefined;
  /** The database whose limits apply to the file (per-partition throughput, partition size). */
  target?: TargetInfo;
  /** User-defined types, to size rows that hold them. */
  udts?: UdtLookup;
  /** Every CREATE TABLE of the table in the workspace (a schema kept in several versions), with its table. */
  definitionsOf?(table: TableInfo): (TableDefinitionSite & { table: TableInfo })[];
  /** Materialized views on a table, every file: a key change extends their primary keys too. */
  viewsOf?(table: TableInfo): WorkspaceView[];
  /** 1-based line of an offset in a file (for the fixes' detail lines). */
  lineOf?(filePath: string, text: string, offset: number): number;
  /** How detail lines show a path (the CLI: relative to the working directory). */
  relativePath?(filePath: string): string;
  /**
   * Why a file cannot take edits of its text (application code whose string literals cannot hold them), or
   * undefined: a fix with such edits is marked `refused` and not preferred.
   */
  refusal?(filePath: string, edits: readonly TextEdit[]): string | undefined;
  /**
   * Called with the error when a fix throws (a bug), which then offers nothing. Without it the error
   * propagates, so that tests fail on it; the server and the CLI pass a logger.
   */
  onError?(error: unknown, finding: Finding): void;
}

/** Every fix offered for one finding (empty when none applies). */
export function fixesForFinding(text: string, parse: ParseResult, finding: Finding, env: FixEnvironment = {}): Fix[] {
  const provider = (PROVIDERS as Partial<Record<string, Provider<RuleWithData>>>)[finding.ruleId];
  if (!provider || !isFindingOf(finding, finding.ruleId as RuleWithData)) return [];
  try {
    const fixes = provider(text, parse, finding, env);
    return env.refusal ? fixes.map((fix) => writable(fix, env)) : fixes;
  } catch (error) {
    // A fix that throws is a bug: callers that must keep serving (server, CLI) report it and offer
    // nothing; everyone else (the tests) gets the error.
    if (!env.onError) throw error;
    env.onError(error, finding);
    return [];
  }
}

/**
 * The fix as it is when every file it edits can take its edits (env.refusal); else marked `refused`, with why in
 * its detail, and not preferred: a refactoring changes every file or none.
 */
function writable(fix: Fix, env: FixEnvironment): Fix {
  for (const { filePath, edits } of [{ filePath: env.filePath, edits: fix.edits }, ...(fix.otherFiles ?? [])]) {
    if (filePath === undefined || !edits.length) continue;
    const why = env.refusal!(filePath, edits);
    if (why === undefined) continue;
    const { isPreferred: _preferred, ...rest } = fix;
    const detail = `not possible: ${env.relativePath?.(filePath) ?? filePath} cannot take its edits: ${why}`;
    return { ...rest, refused: { filePath, reason: why }, detail: [...(fix.detail ?? []), detail] };
  }
  return fix;
}

/** The rule ids that have quick fixes. */
export function fixableRuleIds(): string[] {
  return Object.keys(PROVIDERS);
}

/** The fixes of one rule's findings, from the data that rule declares in findings-data.ts. */
type Provider<R extends RuleWithData> = (text: string, parse: ParseResult, finding: FindingOf<R>, env: FixEnvironment) => Fix[];

/** The CREATE TABLE a partition finding is on, its table, and what the plans and the refactoring need. */
function partitionContexts(text: string, parse: ParseResult, finding: Finding, env: FixEnvironment): { plan: PlanContext; refactor: RefactorContext } | undefined {
  const create = createTableAt(parse, offsetsOf(finding.range));
  if (!create?.primaryKey) return undefined;
  const table = env.tableFor?.(create.name, create.range.end);
  if (!table || table.kind !== 'table') return undefined;
  // Every definition of the table with the same key (the schema in several versions) is re-keyed, and every
  // statement on any of them rewritten; a table of the same name with another key is another design.
  const others = (env.definitionsOf?.(table) ?? []).filter((d) => d.create !== create && samePrimaryKey(d.create, create));
  const references = uniqueReferences([table, ...others.map((o) => o.table)].flatMap((t) => env.referencesTo?.(t) ?? []));
  const plan: PlanContext = {
    table,
    create,
    target: env.target ?? targetInfo(undefined),
    hints: env.hintsFor?.(table),
    udts: env.udts,
    references,
    shardCountSetting: env.shardCount,
  };
  const refactor: RefactorContext = {
    filePath: env.filePath ?? '',
    text,
    create,
    table,
    comments: parse.comments,
    otherDefinitions: others,
    statements: workspaceStatements(env, references),
    views: env.viewsOf?.(table),
    rewrite: { maxInList: env.maxInListShards ?? DEFAULT_MAX_IN_LIST, inForWrites: inForWrites(plan.target) },
    lineOf: env.lineOf,
  };
  return { plan, refactor };
}

/** Largest number of partitions a rewritten statement names with IN when large-in-partition-key says nothing. */
const DEFAULT_MAX_IN_LIST = 32;

/** Amazon Keyspaces and Cosmos DB take IN on the partition key in SELECT only. */
function inForWrites(target: TargetInfo): boolean {
  return target.id === 'cassandra' || target.id === 'scylladb';
}

function uniqueReferences(references: readonly TableReference[]): TableReference[] {
  const seen = new Set<string>();
  return references.filter((r) => {
    const key = `${r.file}\u0000${r.range.start}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** The statements of the references, found in their files' syntax trees. */
function workspaceStatements(env: FixEnvironment, references: readonly TableReference[]): WorkspaceStatement[] {
  const out: WorkspaceStatement[] = [];
  if (!env.statementAt) return out;
  for (const reference of references) {
    const found = env.statementAt(reference.file, reference.range);
    if (found && isDmlStatement(found.statement)) out.push({ filePath: reference.file, text: found.text, statement: found.statement });
  }
  return out;
}

/** The fixes of a partition finding: one per plan (the first preferred), then the copy, and the copy with its statements moved. */
function partitionFixes(text: string, parse: ParseResult, finding: Finding, env: FixEnvironment, demand: PlanDemand): Fix[] {
  // Every partition refactoring is a choice (refactor.ts: safeForFixAll false): none for --fix, and the
  // workspace they rewrite (other files parsed again) is not looked at for nothing.
  if (env.safeOnly) return [];
  const contexts = partitionContexts(text, parse, finding, env);
  if (!contexts) return [];
  // A table already sharded by an annotation gets no second shard column.
  if ((demand.spread || demand.throughput || demand.size) && shardAbove(parse.comments, text, contexts.plan.create.range.start)) return [];
  // A view's primary key must hold every key column of its base table: the views are re-keyed with the
  // partition columns a plan adds, but not (yet) with new clustering columns, so those plans wait.
  const plans = partitionPlans(contexts.plan, demand).filter((p) => !p.clustering?.length || !contexts.refactor.views?.length);
  const fixes: Fix[] = [];
  for (const [i, plan] of plans.entries()) {
    const fix = keyChangeFix(contexts.refactor, plan, { preferred: i === 0, relative: env.relativePath });
    if (fix) fixes.push(fix);
  }
  const first = plans[0];
  const firstFix = fixes[0]?.plan === first ? fixes[0] : undefined;
  if (first && env.tableNameTaken) {
    const base = contexts.plan.create.name.name.name;
    const suffix = first.shard ? 'sharded' : first.bucket ? `by_${first.bucket.granularity}` : `by_${first.moveToPartition?.join('_') ?? 'key'}`;
    const copyName = freeName([`${base}_${suffix}`], [], (n) => env.tableNameTaken!(n));
    for (const move of [false, true]) {
      const copy = keyChangeCopyFix(contexts.refactor, first, copyName, move, env.relativePath, firstFix && applicationCountOf(firstFix));
      if (copy) fixes.push(copy);
    }
  }
  return fixes;
}

/** The preferred plan for a partition finding (the report draws "with the fix" from it). */
export function preferredPartitionPlan(text: string, parse: ParseResult, finding: Finding, env: FixEnvironment): PartitionPlan | undefined {
  return fixesForFinding(text, parse, finding, env).find((f) => f.isPreferred && f.plan)?.plan;
}

const PROVIDERS: { [R in RuleWithData]?: Provider<R> } = {
  'hot-partition': (text, parse, finding, env) => {
    // A key of shards alone is spread by another shard no better: it needs a real key column.
    if (finding.data.reason === 'shard-only') return [];
    const { growth, overwrittenBy } = finding.data;
    return partitionFixes(text, parse, finding, env, { spread: true, ...(growth ? { growth: { timeColumn: growth.timeColumn } } : {}), ...(overwrittenBy?.length ? { overwrittenBy } : {}) });
  },
  'partition-throughput': (text, parse, finding, env) => {
    const { unitsPerSecond, limit, unit } = finding.data;
    return partitionFixes(text, parse, finding, env, { spread: true, throughput: { unitsPerSecond, limit, unit } });
  },
  // Verdicts that rest on the model's default rate also offer to write it down as a hint (fixes/hint-comment.ts).
  'unbounded-partition': withRateHint((text, parse, finding, env) => {
    const { timeColumn, suggestedBucket, clustering } = finding.data;
    // The message proposes moving a bucket that is already a clustering column into the key: so does the fix.
    const moveToPartition = clustering.includes(suggestedBucket) ? suggestedBucket : undefined;
    return partitionFixes(text, parse, finding, env, { growth: { timeColumn }, ...(moveToPartition ? { moveToPartition } : {}) });
  }),
  'large-partition': withRateHint((text, parse, finding, env) => {
    const { rowsPerPartition, sample, rowsAtLimit, evidence, limitValue, bucket } = finding.data;
    // A time bucket too coarse for the rate: its rows against the limit, which the shards split (a finer
    // bucket would change what the existing bucket column means to the application).
    if (bucket) return partitionFixes(text, parse, finding, env, { size: { rows: bucket.rowsPerBucket, rowsLimit: bucket.rowsAtLimit } });
    // A row over the target's row limit is no partition's fault: no key change helps.
    if (rowsAtLimit === undefined) return [];
    // A measured partition size, in the limit's own measure: its bytes as such, cells as the rows they make.
    if (evidence?.unit === 'bytes') return partitionFixes(text, parse, finding, env, { size: { bytes: evidence.value, limitBytes: limitValue } });
    const measuredRows = evidence?.unit === 'rows' ? evidence.value : evidence?.unit === 'cells' && limitValue > 0 ? (evidence.value / limitValue) * rowsAtLimit : undefined;
    const rows = measuredRows ?? rowsPerPartition ?? sample?.maxRows;
    if (rows === undefined) return [];
    return partitionFixes(text, parse, finding, env, { size: { rows, rowsLimit: rowsAtLimit } });
  }),
  'queue-table': withRateHint(),
  'ttl-without-twcs': (text, parse, finding) => twcsFixes(text, parse, finding),
  'shard-mismatch': (text, _parse, finding) => {
    const { expected, valueRange, shardColumn } = finding.data;
    if (expected === undefined) return [];
    return shardValueFix(text, valueRange, expected, shardColumn);
  },
  'unknown-column': (text, parse, finding) => {
    const { suggestion } = finding.data;
    if (!suggestion) return [];
    return renameColumnFix(text, parse, offsetsOf(finding.range), suggestion, true);
  },
  'invalid-suppression': (text, _parse, finding) => {
    const { id, suggestion } = finding.data;
    return suggestion ? suppressionIdFix(text, offsetsOf(finding.range), id, suggestion) : [];
  },
  'unrestricted-partition-key': (text, parse, finding, env) => shardQueryFixes(text, parse, offsetsOf(finding.range), finding.data.missing, env),
  'incomplete-key-write': (text, parse, finding, env) => shardQueryFixes(text, parse, offsetsOf(finding.range), finding.data.missing, env),
};

/** Fixes for a statement on a sharded table that does not name the shard column. */
function shardQueryFixes(text: string, parse: ParseResult, range: SourceRange, missing: readonly string[], env: FixEnvironment): Fix[] {
  const statement = innermostStatement(parse, range);
  if (!statement || !isDmlStatement(statement) || !env.tableFor) return [];
  const name = statement.kind === 'Select' ? statement.from : statement.table;
  const table = env.tableFor(name, statement.range.start);
  if (!table?.shard) return [];
  // Only when the shard column is all the statement is missing from the partition key.
  if (missing.some((m) => m !== table.shard!.shardColumn)) return [];
  const target = env.target ?? targetInfo(undefined);
  return shardStatementFixes(text, statement, table, { maxInList: env.maxInListShards ?? DEFAULT_MAX_IN_LIST, inForWrites: inForWrites(target) });
}

/**
 * Edits for every finding's fix that needs no choice (`safeForFixAll`), skipping fixes whose edits
 * would touch the same text as one already taken (the next run takes them). Applying the result
 * and linting again yields no more safe fixes for the same findings, so running it twice changes
 * nothing more than running it once.
 */
export function computeFixAll(text: string, parse: ParseResult, findings: readonly Finding[], env: FixEnvironment = {}): TextEdit[] {
  const taken: TextEdit[] = [];
  for (const finding of findings) {
    const fix = fixesForFinding(text, parse, finding, env).find((f) => f.safeForFixAll && !f.refused);
    if (!fix || editsConflict(taken, fix.edits)) continue;
    taken.push(...fix.edits);
  }
  return sortEdits(taken);
}

function createTableAt(parse: ParseResult, range: SourceRange): CreateTableStatement | undefined {
  const statement = innermostStatement(parse, range);
  return statement?.kind === 'CreateTable' ? statement : undefined;
}

/** The statement (a batch's member rather than the batch) whose range is exactly `range`. */
export function statementAt(parse: ParseResult, range: SourceRange): Statement | undefined {
  // Statements are in source order: find the last one starting at or before the range (binary search).
  const statements = parse.statements;
  let lo = 0;
  let hi = statements.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (statements[mid]!.range.start <= range.start) lo = mid;
    else hi = mid - 1;
  }
  const top = statements[lo];
  const same = (s: Statement): boolean => s.range.start === range.start && s.range.end === range.end;
  if (!top) return undefined;
  if (top.kind === 'Batch') return top.statements.find(same) ?? (same(top) ? top : undefined);
  return same(top) ? top : undefined;
}

/** The innermost statement (a batch's member before the batch) that contains the range. */
function innermostStatement(parse: ParseResult, range: SourceRange): Statement | undefined {
  let found: Statement | undefined;
  for (const s of flatStatements(parse)) {
    if (s.range.start <= range.start && range.end <= s.range.end) found = s;
  }
  return found;
}

