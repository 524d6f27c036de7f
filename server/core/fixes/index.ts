// Which fixes a finding gets, and fix-all. Pure: the caller (LSP, CLI, tests) supplies what the fixes read
// of the workspace through one FixContext, built in one place (fixes/environment.ts projectFixContext).
// Partition fixes apply the plans their finding carries (partition/planner.ts): they size nothing.
import type { CreateTableStatement, ParseResult, QualifiedName, SourceRange, Statement } from '../../../grammar/ast';
import type { Finding } from '../findings/findings';
import { offsetsOf } from '../../../grammar/line-index';
import { isFindingOf, type FindingOf, type RuleWithData } from '../findings/findings-data';
import type { TableInfo } from '../schema/model';
import { flatStatements } from '../util/ast-walk';
import { statementTable } from '../util/statements';
import { offerOf, type Fix, type FixOffer, type TextEdit } from './types';
import { editsConflict, sortEdits } from './text';
import { freeName } from '../util/identifiers';
import { shardStatementFixes } from './shard-statements';
import { viewReplacementFix, type ViewReplacement } from './view-replacement';
import { isDmlStatement } from './key-rewrite';
import { planId, withShardCountSetting } from '../partition/planner';
import type { PartitionPlan } from '../partition/plan';
import {
  applicationCountOf,
  keyChangeCopyFix,
  keyChangeFix,
  samePrimaryKey,
  type RefactorContext,
  type TableDefinitionSite,
  type WorkspaceStatement,
  type WorkspaceView,
} from './refactor';
import { shardAbove } from '../schema/shard';
import { migrationCopyFix, type MigrationTarget } from './migration-fix';
import { refusedLine } from './detail-lines';
import { splitColumnFix, splitMigrationFix } from './split-column';
import type { TargetInfo } from '../partition/targets';
import { renameColumnFix, shardValueFix, suppressionIdFix, unusedDirectiveFix } from './replace';
import { isUnusedDirective } from '../findings/suppression';
import { withRateHint } from './rate-hint';
import { twcsFixes } from './compaction';

export { offerOf, type Fix, type FixOffer, type TextEdit } from './types';
export { applyEdits } from './text';

/** Finds a file's statement at a range (the reference index gives positions; a rewrite needs the AST). */
export type StatementLookup = (
  filePath: string,
  range: SourceRange,
) => { text: string; statement: Statement } | undefined;

/**
 * What the fixes read of the workspace and the settings, every member required (fixes/environment.ts builds
 * it from a Project; nothing else does).
 */
export interface FixContext {
  /** The file the fixes are for (reads of a table in it are rewritten in the fix's own edits). */
  filePath: string;
  /**
   * Only the fixes that need no choice (`safeForFixAll`) are wanted (`--fix`, the CLI's fixable counts):
   * providers whose fixes all need one (the partition refactorings) skip their work.
   */
  safeOnly: boolean;
  /** The database whose limits apply to the file (IN on the partition key in writes). */
  target: TargetInfo;
  /** The `cqlint.shardCount` setting: replaces a shard count only the model's defaults sized. */
  shardCount: number | undefined;
  /** Largest shard count read with one `IN (...)`. */
  maxInListShards: number;
  /** The table or view a statement's name refers to at an offset (other files included). */
  tableFor(name: QualifiedName, offset: number): TableInfo | undefined;
  /** The workspace's statements on a table (the reference index), found in their files' syntax trees. */
  statementsOn(table: TableInfo): WorkspaceStatement[];
  /** Every CREATE TABLE of the table in the workspace (a schema kept in several versions), with its table. */
  definitionsOf(table: TableInfo): (TableDefinitionSite & { table: TableInfo })[];
  /** Materialized views on a table, every file: a key change extends their primary keys too. */
  viewsOf(table: TableInfo): WorkspaceView[];
  /**
   * When `filePath` is a file of a migration folder (docs/migrations.md): the folder, and `table` as its last
   * file leaves it (later ALTERs included). A partition fix there writes the folder's next migration.
   */
  migration(filePath: string, table: TableInfo): MigrationTarget | undefined;
  /** Whether some table or view of the workspace has this name (in any keyspace). */
  tableNameTaken(name: string): boolean;
  /** 1-based line of an offset in a file (for the fixes' detail lines). */
  lineOf(filePath: string, text: string, offset: number): number;
  /** How detail lines show a path (the CLI: relative to the working directory). */
  relativePath(filePath: string): string;
  /**
   * Why a file cannot take edits of its text (application code whose string literals cannot hold them), or
   * undefined: a fix with such edits is marked `refused` and not preferred (resolveOffer).
   */
  refusal(filePath: string, edits: readonly TextEdit[]): string | undefined;
  /** Whether a file is application code (its statements are string literals the driver executes one at a time). */
  applicationCode(filePath: string): boolean;
  /**
   * Called with the error when a fix throws (a bug), which then offers nothing; undefined: the error
   * propagates, so that tests fail on it. The server and the CLI pass a logger.
   */
  onError: ((error: unknown, finding: Finding) => void) | undefined;
}

/**
 * Every fix offered for one finding, unresolved: titles, ids, plans and detail, with the edits built only
 * when `resolve()` is called (a light bulb lists every fix of a finding and applies one at most). `only`:
 * the id of the one fix wanted (codeAction/resolve, `cqlint fix --fix`): the others are not built.
 */
export function fixOffers(
  text: string,
  parse: ParseResult,
  finding: Finding,
  ctx: FixContext,
  only?: string,
): FixOffer[] {
  const provider = (PROVIDERS as Partial<Record<string, Provider<RuleWithData>>>)[finding.ruleId];
  const unused = isUnusedDirective(finding);
  if (!unused && (!provider || !isFindingOf(finding, finding.ruleId as RuleWithData))) return [];
  try {
    const offers = unused
      ? unusedDirectiveFix(text, parse.comments, offsetsOf(finding.range), finding.data).map(offerOf)
      : provider!(text, parse, finding as FindingOf<RuleWithData>, ctx, only);
    return only === undefined ? offers : offers.filter((o) => o.id === only);
  } catch (error) {
    // A fix that throws is a bug: callers that must keep serving (server, CLI) report it and offer
    // nothing; everyone else (the tests) gets the error.
    if (!ctx.onError) throw error;
    ctx.onError(error, finding);
    return [];
  }
}

/** Every fix for one finding, resolved (the CLI and the tests apply them; the editor resolves the one picked). */
export function fixesForFinding(text: string, parse: ParseResult, finding: Finding, ctx: FixContext): Fix[] {
  const out: Fix[] = [];
  for (const offer of fixOffers(text, parse, finding, ctx)) {
    const fix = resolveOffer(offer, finding, ctx);
    if (fix) out.push(fix);
  }
  return out;
}

/**
 * An offer's fix, its errors handled as fixOffers handles them, and marked `refused` when a file it edits
 * cannot take its edits (writable).
 */
export function resolveOffer(offer: FixOffer, finding: Finding, ctx: FixContext): Fix | undefined {
  try {
    return writable(offer.resolve(), ctx);
  } catch (error) {
    if (!ctx.onError) throw error;
    ctx.onError(error, finding);
    return undefined;
  }
}

/**
 * The fix as it is when every file it edits can take its edits (ctx.refusal); else marked `refused`, with why in
 * its detail, and not preferred: a refactoring changes every file or none.
 */
function writable(fix: Fix, ctx: FixContext): Fix {
  for (const { filePath, edits } of [{ filePath: ctx.filePath, edits: fix.edits }, ...(fix.otherFiles ?? [])]) {
    if (filePath === undefined || !edits.length) continue;
    const why = ctx.refusal(filePath, edits);
    if (why === undefined) continue;
    const { isPreferred: _preferred, ...rest } = fix;
    const detail = refusedLine(ctx.relativePath, filePath, why);
    return { ...rest, refused: { filePath, reason: why }, detail: [...(fix.detail ?? []), detail] };
  }
  return fix;
}

/** The rule ids that have quick fixes. */
export function fixableRuleIds(): string[] {
  return Object.keys(PROVIDERS);
}

/** The fixes of one rule's findings, from the data that rule declares in findings-data.ts. */
type Provider<R extends RuleWithData> = (
  text: string,
  parse: ParseResult,
  finding: FindingOf<R>,
  ctx: FixContext,
  only?: string,
) => FixOffer[];

/** Amazon Keyspaces and Cosmos DB take IN on the partition key in SELECT only. */
function inForWrites(target: TargetInfo): boolean {
  return target.id === 'cassandra' || target.id === 'scylladb';
}

/** The CREATE TABLE a partition finding is on, and what the refactoring needs of the workspace. */
function refactorContext(
  text: string,
  parse: ParseResult,
  finding: Finding,
  ctx: FixContext,
): RefactorContext | undefined {
  const create = createTableAt(parse, offsetsOf(finding.range));
  if (!create?.primaryKey) return undefined;
  const table = ctx.tableFor(create.name, create.range.end);
  if (!table || table.kind !== 'table') return undefined;
  // Every definition of the table with the same key (the schema in several versions) is re-keyed, and every
  // statement on any of them rewritten; a table of the same name with another key is another design.
  const others = ctx.definitionsOf(table).filter((d) => d.create !== create && samePrimaryKey(d.create, create));
  return {
    filePath: ctx.filePath,
    text,
    create,
    table,
    comments: parse.comments,
    otherDefinitions: others,
    statements: uniqueStatements([table, ...others.map((o) => o.table)].flatMap((t) => ctx.statementsOn(t))),
    views: ctx.viewsOf(table),
    rewrite: { maxInList: ctx.maxInListShards, inForWrites: inForWrites(ctx.target) },
    lineOf: ctx.lineOf,
    applicationCode: ctx.applicationCode,
  };
}

function uniqueStatements(statements: readonly WorkspaceStatement[]): WorkspaceStatement[] {
  const seen = new Set<WorkspaceStatement['statement']>();
  return statements.filter((s) => !seen.has(s.statement) && !!seen.add(s.statement));
}

/**
 * The fixes of a partition finding: its plans as the planner made them (the finding's data), applied; the
 * first is preferred when it cures; then the copy of the table keyed for that plan, and the copy with the
 * statements moved to it.
 */
function partitionFixes(
  text: string,
  parse: ParseResult,
  finding: Finding,
  ctx: FixContext,
  planned: readonly PartitionPlan[] | undefined,
  only?: string,
): FixOffer[] {
  // Every partition refactoring is a choice (refactor.ts: safeForFixAll false): none for --fix, and the
  // workspace they rewrite (other files parsed again) is not looked at for nothing.
  if (ctx.safeOnly || !planned?.length) return [];
  if (planned[0]!.replacesView) return viewFixes(text, parse, finding, ctx, planned, only);
  const refactor = refactorContext(text, parse, finding, ctx);
  if (!refactor || planned[0]!.table !== refactor.table.qualifiedName) return [];
  // A table already sharded by an annotation gets no second shard column. A view's primary key must hold
  // every key column of its base table: the views are re-keyed with the partition columns a plan adds, but
  // not (yet) with new clustering columns, so those plans wait.
  const sharded = !!shardAbove(parse.comments, text, refactor.create.range.start);
  // A shard counted per tenant creates its table of counts: not where a table of that name exists.
  const countsTaken = (p: PartitionPlan): boolean =>
    !!p.shard?.perTenant && ctx.tableNameTaken(p.shard.perTenant.table.split('.').pop()!);
  const plans = planned
    .filter((p) => !(sharded && p.shard) && (!p.clustering?.length || !refactor.views?.length) && !countsTaken(p))
    .map((p) => withShardCountSetting(p, ctx.shardCount));
  const offers: FixOffer[] = [];
  // One fix asked for by its id (codeAction/resolve): the others, and their workspace summaries, are not built.
  const wanted = (id: string): boolean => only === undefined || only === id;
  const copyName = (plan: PartitionPlan): string =>
    freeName([`${refactor.create.name.name.name}_${copySuffix(plan)}`], [], (n) => ctx.tableNameTaken(n));
  const migration = ctx.migration(ctx.filePath, refactor.table);
  // A column moved to a table of its own (fixes/split-column.ts): that table is created, not where one of its name exists.
  const splits = plans.filter((p) => p.split && !ctx.tableNameTaken(p.split.table.split('.').pop()!));
  const splitOffers = (preferred: boolean): FixOffer[] =>
    splits.flatMap((plan) => {
      if (!wanted(planId(plan))) return [];
      const options = { preferred: preferred && plan === plans[0] && plan.cures, relative: ctx.relativePath };
      const offer = migration
        ? splitMigrationFix(refactor, migration, plan, options)
        : splitColumnFix(refactor, plan, options);
      return offer ? [offer] : [];
    });
  const keyed = plans.filter((p) => !p.split);
  if (migration) {
    const moved = splitOffers(true);
    const others = migrationFixes(refactor, migration, keyed, copyName, ctx.relativePath, wanted, !plans[0]?.split);
    return plans[0]?.split ? [...moved, ...others] : [...others, ...moved];
  }
  if (plans[0]?.split) offers.push(...splitOffers(true));
  for (const [i, plan] of keyed.entries()) {
    if (!wanted(planId(plan))) continue;
    const preferred = i === 0 && plan.cures && plans[0] === plan;
    const offer = keyChangeFix(refactor, plan, { preferred, relative: ctx.relativePath });
    if (offer) offers.push(offer);
  }
  const first = keyed[0];
  const firstOffer = offers[0]?.plan === first ? offers[0] : undefined;
  // A copy keyed per tenant would need its own table of counts: the key change alone is offered.
  if (first?.cures && !first.shard?.perTenant && (only === undefined || only.startsWith('copy'))) {
    for (const move of [false, true]) {
      const copy = keyChangeCopyFix(
        refactor,
        first,
        copyName(first),
        move,
        ctx.relativePath,
        firstOffer && applicationCountOf(firstOffer),
      );
      if (copy) offers.push(copy);
    }
  }
  if (!plans[0]?.split) offers.push(...splitOffers(false));
  return offers;
}

/** What a copy of the table keyed for a plan is called after: `<table>_sharded`, `<table>_by_day`. */
function copySuffix(plan: PartitionPlan): string {
  if (plan.shard) return 'sharded';
  if (plan.bucket) return `by_${plan.bucket.granularity}`;
  return `by_${plan.moveToPartition?.join('_') ?? 'key'}`;
}

/**
 * The partition fixes of a table a migration created (docs/migrations.md): none edits that migration. Each
 * plan's copy in the folder's next migration with the statements outside the folder moved to it (the first
 * preferred when it cures), or the copy alone when no statement can move; and the first plan's copy alone too.
 */
function migrationFixes(
  refactor: RefactorContext,
  target: MigrationTarget,
  plans: readonly PartitionPlan[],
  copyName: (plan: PartitionPlan) => string,
  relative: (path: string) => string,
  wanted: (id: string) => boolean,
  /** Whether the first plan's fix may be preferred (not when a split comes first). */
  mayPrefer = true,
): FixOffer[] {
  const offers: FixOffer[] = [];
  for (const [i, plan] of plans.entries()) {
    // A copy keyed per tenant would need its own table of counts in the migration too: not offered there.
    if (plan.shard?.perTenant) continue;
    const options = { preferred: mayPrefer && i === 0 && plan.cures, relative };
    const moved = wanted(`copy-move:${planId(plan)}`)
      ? migrationCopyFix(refactor, target, plan, copyName(plan), true, options)
      : undefined;
    if (moved) offers.push(moved);
    if (moved && i > 0) continue;
    if (!wanted(`copy:${planId(plan)}`)) continue;
    const copy = migrationCopyFix(refactor, target, plan, copyName(plan), false, moved ? { relative } : options);
    if (copy) offers.push(copy);
  }
  return offers;
}

/** A partition finding on a materialized view: its plans applied to a table that replaces the view. */
function viewFixes(
  text: string,
  parse: ParseResult,
  finding: Finding,
  ctx: FixContext,
  planned: readonly PartitionPlan[],
  only?: string,
): FixOffer[] {
  const view = innermostStatement(parse, offsetsOf(finding.range));
  if (view?.kind !== 'CreateMaterializedView' || !view.primaryKey) return [];
  const table = ctx.tableFor(view.name, view.range.end);
  const base = ctx.tableFor(view.from, view.range.start);
  if (table?.kind !== 'view' || !base || planned[0]!.table !== table.qualifiedName) return [];
  // A view a migration created is replaced by a later migration (drop it, create the table), not by editing
  // that one: not written yet (docs/migrations.md), so nothing is offered there.
  if (ctx.migration(ctx.filePath, table)) return [];
  const replacement: ViewReplacement = {
    filePath: ctx.filePath,
    text,
    view,
    table,
    statements: ctx.statementsOn(table),
    baseWrites: ctx.statementsOn(base).filter((s) => s.statement.kind !== 'Select'),
    rewrite: { maxInList: ctx.maxInListShards, inForWrites: inForWrites(ctx.target) },
    lineOf: ctx.lineOf,
  };
  const offers: FixOffer[] = [];
  for (const [i, plan] of planned.map((p) => withShardCountSetting(p, ctx.shardCount)).entries()) {
    if (only !== undefined && only !== planId(plan)) continue;
    const offer = viewReplacementFix(replacement, plan, {
      preferred: i === 0 && plan.cures,
      relative: ctx.relativePath,
    });
    if (offer) offers.push(offer);
  }
  return offers;
}

/**
 * over-partitioned-read's fix: its plan (the coarser bucket in place of the fine one) applied to the table's
 * definition, wherever it is, and to every statement on it; the finding is on a read, so the refactoring's
 * own edits are those of the read's file. In a migration folder, the folder's next migration, as the other
 * partition fixes write it. The plan is preferred when it cures.
 */
function readBucketFixes(
  text: string,
  parse: ParseResult,
  finding: FindingOf<'over-partitioned-read'>,
  ctx: FixContext,
  only?: string,
): FixOffer[] {
  const plan = finding.data.plans[0];
  if (ctx.safeOnly || !plan) return [];
  const read = innermostStatement(parse, offsetsOf(finding.range));
  if (read?.kind !== 'Select') return [];
  const table = ctx.tableFor(read.from, read.range.start);
  if (table?.kind !== 'table' || table.qualifiedName !== plan.table || ctx.viewsOf(table).length) return [];
  const definitions = ctx.definitionsOf(table);
  const site = definitions.find((d) => d.table === table) ?? definitions[0];
  if (!site?.create.primaryKey) return [];
  const others = definitions.filter((d) => d !== site && samePrimaryKey(d.create, site.create));
  const refactor: RefactorContext = {
    filePath: site.filePath,
    findingFilePath: ctx.filePath,
    text: site.text,
    create: site.create,
    table: site.table,
    comments: site.comments,
    otherDefinitions: others,
    statements: uniqueStatements([site.table, ...others.map((o) => o.table)].flatMap((t) => ctx.statementsOn(t))),
    views: [],
    rewrite: { maxInList: ctx.maxInListShards, inForWrites: inForWrites(ctx.target) },
    lineOf: ctx.lineOf,
  };
  const wanted = (id: string): boolean => only === undefined || only === id;
  const migration = ctx.migration(site.filePath, site.table);
  if (migration) {
    const copyName = freeName([`${site.create.name.name.name}_${copySuffix(plan)}`], [], (n) => ctx.tableNameTaken(n));
    return migrationFixes(refactor, migration, [plan], () => copyName, ctx.relativePath, wanted);
  }
  if (!wanted(planId(plan))) return [];
  const offer = keyChangeFix(refactor, plan, { preferred: plan.cures, relative: ctx.relativePath });
  return offer ? [offer] : [];
}

/** The first plan of each partition finding of `table` among `findings` (the hover shows them as the fixes apply them). */
export function firstPlansOf(findings: readonly Finding[], table: string): { rule: string; plan: PartitionPlan }[] {
  const out: { rule: string; plan: PartitionPlan }[] = [];
  for (const f of findings) {
    const data = f.data as { table?: string; plans?: PartitionPlan[] } | undefined;
    if (data?.table === table && data.plans?.[0]) out.push({ rule: f.ruleId, plan: data.plans[0] });
  }
  return out;
}

/** The plan a partition finding's preferred fix applies, when one cures it (the report draws "with the fix" from it). */
export function preferredPlan(finding: Finding): PartitionPlan | undefined {
  const plan = (finding.data as { plans?: PartitionPlan[] } | undefined)?.plans?.[0];
  return plan?.cures ? plan : undefined;
}

const PROVIDERS: { [R in RuleWithData]?: Provider<R> } = {
  'hot-partition': (text, parse, finding, ctx, only) =>
    partitionFixes(text, parse, finding, ctx, finding.data.plans, only),
  'partition-throughput': (text, parse, finding, ctx, only) =>
    partitionFixes(text, parse, finding, ctx, finding.data.plans, only),
  // Verdicts that rest on the model's default rate also offer to write it down as a hint (fixes/rate-hint.ts).
  'unbounded-partition': withRateHint((text, parse, finding, ctx, only) =>
    partitionFixes(text, parse, finding, ctx, finding.data.plans, only),
  ),
  'large-partition': withRateHint((text, parse, finding, ctx, only) =>
    partitionFixes(text, parse, finding, ctx, finding.data.plans, only),
  ),
  'over-partitioned-read': (text, parse, finding, ctx, only) => readBucketFixes(text, parse, finding, ctx, only),
  'queue-table': withRateHint(),
  'ttl-without-twcs': (text, parse, finding) => twcsFixes(text, parse, finding).map(offerOf),
  'shard-mismatch': (text, _parse, finding) => {
    const { expected, valueRange, shardColumn } = finding.data;
    if (expected === undefined) return [];
    return shardValueFix(text, valueRange, expected, shardColumn).map(offerOf);
  },
  'unknown-column': (text, parse, finding) => {
    const { suggestion } = finding.data;
    if (!suggestion) return [];
    return renameColumnFix(text, parse, offsetsOf(finding.range), suggestion, true).map(offerOf);
  },
  'invalid-suppression': (text, _parse, finding) => {
    const { id, suggestion } = finding.data;
    return suggestion ? suppressionIdFix(text, offsetsOf(finding.range), id, suggestion).map(offerOf) : [];
  },
  'unrestricted-partition-key': (text, parse, finding, ctx) =>
    shardQueryFixes(text, parse, offsetsOf(finding.range), finding.data.missing, ctx).map(offerOf),
  'incomplete-key-write': (text, parse, finding, ctx) =>
    shardQueryFixes(text, parse, offsetsOf(finding.range), finding.data.missing, ctx).map(offerOf),
};

/** Fixes for a statement on a sharded table that does not name the shard column. */
function shardQueryFixes(
  text: string,
  parse: ParseResult,
  range: SourceRange,
  missing: readonly string[],
  ctx: FixContext,
): Fix[] {
  const statement = innermostStatement(parse, range);
  if (!statement || !isDmlStatement(statement)) return [];
  const table = ctx.tableFor(statementTable(statement), statement.range.start);
  if (!table?.shard) return [];
  // Only when the shard column is all the statement is missing from the partition key.
  if (missing.some((m) => m !== table.shard!.shardColumn)) return [];
  return shardStatementFixes(text, statement, table, {
    maxInList: ctx.maxInListShards,
    inForWrites: inForWrites(ctx.target),
  });
}

/**
 * The first fix of a finding that fix-all may take: safe, not refused by a file it edits, and creating no file
 * (fix-all edits the file it fixes; no safe fix creates one today, and one that did would lose its new file).
 */
export function safeFix(text: string, parse: ParseResult, finding: Finding, ctx: FixContext): Fix | undefined {
  for (const offer of fixOffers(text, parse, finding, ctx)) {
    if (!offer.safeForFixAll || offer.newFiles?.length) continue;
    const fix = resolveOffer(offer, finding, ctx);
    if (fix && !fix.refused) return fix;
  }
  return undefined;
}

/**
 * Edits for every finding's fix that needs no choice (`safeForFixAll`), skipping fixes whose edits
 * would touch the same text as one already taken (the next run takes them). Applying the result
 * and linting again yields no more safe fixes for the same findings, so running it twice changes
 * nothing more than running it once.
 */
export function computeFixAll(
  text: string,
  parse: ParseResult,
  findings: readonly Finding[],
  ctx: FixContext,
): TextEdit[] {
  const taken: TextEdit[] = [];
  for (const finding of findings) {
    const fix = safeFix(text, parse, finding, ctx);
    if (!fix || editsConflict(taken, fix.edits)) continue;
    taken.push(...fix.edits);
  }
  return sortEdits(taken);
}

function createTableAt(parse: ParseResult, range: SourceRange): CreateTableStatement | undefined {
  const statement = innermostStatement(parse, range);
  return statement?.kind === 'CreateTable' ? statement : undefined;
}

/** The innermost statement (a batch's member before the batch) that contains the range. */
function innermostStatement(parse: ParseResult, range: SourceRange): Statement | undefined {
  let found: Statement | undefined;
  for (const s of flatStatements(parse)) {
    if (s.range.start <= range.start && range.end <= s.range.end) found = s;
  }
  return found;
}
