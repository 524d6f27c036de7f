// A partition fix as a refactoring of the whole workspace, in the way rust-analyzer's "change signature"
// rewrites every call site: the CREATE TABLE gets the new key columns (and its `-- @shard` annotation), and
// every statement on the table, in every file, names them (key-rewrite.ts). The result is one Fix whose
// edits span the files, with a title that says how many statements it rewrites and how many need the
// application, and detail lines that list those.
import type {
  BatchStatement,
  Comment,
  CreateMaterializedViewStatement,
  CreateTableStatement,
} from '../../../grammar/ast';
import { hintCommentsAbove, scaledHintEdits, type HintScale } from '../schema/hint-comments';
import type { TableInfo } from '../schema/model';
import { quoteName } from '../util/names';
import { statementTable } from '../util/statements';
import {
  addedKeyColumns,
  keyChangeOf,
  shardFormulaText,
  type BucketGranularity,
  type KeyChange,
  type PartitionPlan,
} from '../partition/plan';
import { planId, planText, replaceText } from '../partition/planner';
import { applicationLine, sizingLines } from './detail-lines';
import {
  classifyForKeyChange,
  rewriteForKeyChange,
  type DmlStatement,
  type RewriteOptions,
  type RewriteOutcome,
} from './key-rewrite';
import {
  addBodyElements,
  commentAboveEdit,
  identifierText,
  partitionKeyEdits,
  statementAfterEdit,
  type BodyElement,
} from './table-edits';
import { applyEdits, indentAt, lineBreakAt, restOfLineAfter, startsLine } from './text';
import type { Fix, FixOffer, TextEdit } from './types';

/** A statement on the table somewhere in the workspace. */
export interface WorkspaceStatement {
  filePath: string;
  text: string;
  statement: DmlStatement;
  /** The BATCH the statement is a member of, in the same parse (none outside a batch). */
  batch?: BatchStatement;
}

/** A materialized view on the table somewhere in the workspace: its primary key must keep every base key column. */
export interface WorkspaceView {
  filePath: string;
  text: string;
  statement: CreateMaterializedViewStatement;
}

/** Another CREATE TABLE of the same table (a workspace with the schema twice: versions, dialects): re-keyed alike. */
export interface TableDefinitionSite {
  filePath: string;
  text: string;
  create: CreateTableStatement;
  comments: readonly Comment[];
}

export interface RefactorContext {
  /** The file of the CREATE TABLE (the fix's own edits) and its text. */
  filePath: string;
  text: string;
  create: CreateTableStatement;
  table: TableInfo;
  /** The comments of the CREATE TABLE's file (its `-- @cqlint` hints are rescaled with the key). */
  comments?: readonly Comment[];
  /** The table's other definitions in the workspace (not `create`). */
  otherDefinitions?: readonly TableDefinitionSite[];
  /** Every statement on the table in the workspace (the reference index), every file. */
  statements: readonly WorkspaceStatement[];
  views?: readonly WorkspaceView[];
  rewrite: Omit<RewriteOptions, 'pickRandomShard'>;
  /** 1-based line of an offset in a file, for the detail lines. */
  lineOf?(filePath: string, text: string, offset: number): number;
  /** The file the fix is for when it is not the CREATE TABLE's (a finding on a read): its edits are the fix's own. */
  findingFilePath?: string;
  /** Whether a file is application code (fixes/split-column.ts refuses what one string cannot hold). */
  applicationCode?(filePath: string): boolean;
}

/** What rewriting the workspace's statements for a key change reads of a refactoring's context. */
export type WorkspaceRewrite = Pick<RefactorContext, 'statements' | 'views' | 'rewrite' | 'lineOf'>;

const BUCKET_DESCRIPTION: Record<BucketGranularity, (source: string | undefined) => string> = {
  minute: (s) => (s ? `${s} truncated to the UTC minute` : 'the UTC minute the row is written'),
  hour: (s) => (s ? `${s} truncated to the UTC hour` : 'the UTC hour the row is written'),
  day: (s) => (s ? `the UTC day of ${s}` : 'the UTC day the row is written'),
  month: (s) => (s ? `the UTC month of ${s} as 'YYYY-MM'` : "the UTC month the row is written, as 'YYYY-MM'"),
  year: (s) => (s ? `the UTC year of ${s}` : 'the UTC year the row is written'),
};

/** How the application computes a bucket's value: "the UTC day of ts". */
export function bucketDescription(bucket: NonNullable<PartitionPlan['bucket']>): string {
  return BUCKET_DESCRIPTION[bucket.granularity](bucket.source ? quoteName(bucket.source) : undefined);
}

/** The column definitions a plan adds to the table body. */
export function addedElements(plan: PartitionPlan): BodyElement[] {
  const elements: BodyElement[] = [];
  if (plan.shard) elements.push({ sql: `${quoteName(plan.shard.column)} int` });
  if (plan.bucket) {
    elements.push({
      sql: `${quoteName(plan.bucket.column)} ${plan.bucket.type}`,
      comment: `bucket: ${bucketDescription(plan.bucket)}, set by the application`,
    });
  }
  return elements;
}

/** Edits to a CREATE TABLE that add the plan's columns to it and to its partition key; undefined when the key cannot take them. */
export function keyChangeSchemaEdits(
  text: string,
  create: CreateTableStatement,
  plan: PartitionPlan,
): TextEdit[] | undefined {
  if (plan.moveToPartition?.length) return movedKeyEdits(text, create, plan.moveToPartition);
  if (plan.bucket?.replaces) {
    // The coarser bucket takes the fine one's place in the partition key; the fine one stays a column.
    const fine = create.primaryKey?.partitionKey.find((c) => c.name === plan.bucket!.replaces!.column);
    const body = fine && addBodyElements(text, create, addedElements(plan));
    if (!fine || !body) return undefined;
    return [{ start: fine.range.start, end: fine.range.end, newText: quoteName(plan.bucket.column) }, ...body];
  }
  const key = partitionKeyEdits(text, create, addedKeyColumns(plan), plan.clustering);
  if (!key) return undefined;
  const elements = [...addedElements(plan), ...(key.clause ? [key.clause] : [])];
  // Clustering columns alone add no column: the key clause is edited in place.
  if (!elements.length) return key.edits;
  const body = addBodyElements(text, create, elements);
  if (!body) return undefined;
  return [...key.edits, ...body];
}

/**
 * The PRIMARY KEY clause written again with `moved` clustering columns at the end of the partition key:
 * `PRIMARY KEY (userid, posted_month, posted_time)` -> `PRIMARY KEY ((userid, posted_month), posted_time)`.
 * Undefined for a key written inline, a clause with comments inside, or a CLUSTERING ORDER naming a moved
 * column (its order would have to go too: left to the user).
 */
function movedKeyEdits(text: string, create: CreateTableStatement, moved: readonly string[]): TextEdit[] | undefined {
  const pk = create.primaryKey;
  if (!pk || pk.form !== 'clause' || !moved.every((m) => pk.clustering.some((c) => c.name === m))) return undefined;
  const clause = text.slice(pk.range.start, pk.range.end);
  if (/--|\/\/|\/\*/.test(clause)) return undefined;
  if (create.options?.clusteringOrder.some((o) => moved.includes(o.column.name))) return undefined;
  const partition = [...pk.partitionKey, ...pk.clustering.filter((c) => moved.includes(c.name))].map(identifierText);
  const clustering = pk.clustering.filter((c) => !moved.includes(c.name)).map(identifierText);
  const words = /^PRIMARY\s+KEY/i.exec(clause)?.[0] ?? 'PRIMARY KEY';
  return [
    {
      start: pk.range.start,
      end: pk.range.end,
      newText: `${words} ((${partition.join(', ')})${clustering.map((c) => `, ${c}`).join('')})`,
    },
  ];
}

/** The `-- @shard` annotation line a plan writes above the table. */
export function shardAnnotation(plan: PartitionPlan): string | undefined {
  return plan.shard ? `@shard ${quoteName(plan.shard.column)} = ${shardFormulaText(plan.shard, quoteName)}` : undefined;
}

/** What a key change does to the workspace's statements, counted for the fix's title and detail. */
export interface WorkspaceSummary {
  rewritten: number;
  files: Set<string>;
  outcomes: Record<RewriteOutcome, number>;
  /** "queries/q.cql:12: bind shard = ..." for each statement left to the application. */
  application: { filePath: string; line?: number; note: string }[];
}

function rewriteOptions(ctx: Pick<RefactorContext, 'rewrite'>, change: KeyChange): RewriteOptions {
  let next = 0;
  const count = change.shard?.count ?? 1;
  return { ...ctx.rewrite, pickRandomShard: () => (next++ % count) + 1 };
}

/** The summary of rewriteWorkspace without building its edits (classifyForKeyChange per statement). */
export function summarizeWorkspace(
  ctx: WorkspaceRewrite,
  change: KeyChange,
  tableName: string,
  views = ctx.views ?? [],
): WorkspaceSummary {
  const options = rewriteOptions(ctx, change);
  const summary: WorkspaceSummary = {
    rewritten: 0,
    files: new Set(),
    outcomes: { exact: 0, 'fan-out': 0, application: 0, unchanged: 0 },
    application: [],
  };
  for (const { filePath, text, statement } of ctx.statements) {
    const { outcome, notes } = classifyForKeyChange(text, statement, change, options, tableName);
    summary.outcomes[outcome]++;
    if (outcome === 'unchanged') continue;
    summary.rewritten++;
    summary.files.add(filePath);
    if (outcome === 'application') {
      const line = ctx.lineOf?.(filePath, text, statement.range.start);
      for (const note of notes) summary.application.push({ filePath, ...(line !== undefined ? { line } : {}), note });
    }
  }
  for (const view of views) {
    if (!viewKeyEdits(view.text, view.statement, addedKeyColumns(change)).length) continue;
    summary.rewritten++;
    summary.files.add(view.filePath);
  }
  return summary;
}

/** Every statement of the workspace rewritten for the key change, and the views' keys extended: edits by file. */
export function rewriteWorkspace(
  ctx: WorkspaceRewrite,
  change: KeyChange,
  tableName = change.table.qualifiedName,
  views = ctx.views ?? [],
): Map<string, TextEdit[]> {
  const options = rewriteOptions(ctx, change);
  const byFile = new Map<string, TextEdit[]>();
  const add = (filePath: string, edits: readonly TextEdit[]): void => {
    if (edits.length) byFile.set(filePath, [...(byFile.get(filePath) ?? []), ...edits]);
  };
  for (const { filePath, text, statement } of ctx.statements)
    add(filePath, rewriteForKeyChange(text, statement, change, options, tableName).edits);
  for (const view of views) add(view.filePath, viewKeyEdits(view.text, view.statement, addedKeyColumns(change)));
  return byFile;
}

/**
 * A view keeps every base primary key column in its own primary key: the new columns are selected (unless
 * `SELECT *`), required `IS NOT NULL`, and appended to the view's clustering columns.
 */
function viewKeyEdits(text: string, view: CreateMaterializedViewStatement, columns: readonly string[]): TextEdit[] {
  const pk = view.primaryKey;
  const lastKey = pk ? [...pk.partitionKey, ...pk.clustering].at(-1) : undefined;
  const lastWhere = view.where.at(-1);
  if (!pk || !lastKey || !lastWhere) return [];
  const names = columns.map(quoteName);
  const edits: TextEdit[] = [];
  const lastSelector = view.selectors.at(-1);
  if (!view.star && lastSelector)
    edits.push({
      start: lastSelector.range.end,
      end: lastSelector.range.end,
      newText: names.map((n) => `, ${n}`).join(''),
    });
  edits.push({
    start: lastWhere.range.end,
    end: lastWhere.range.end,
    newText: names.map((n) => ` AND ${n} IS NOT NULL`).join(''),
  });
  if (pk.clustering.length === 0 && !pk.partitionKeyParenthesised && pk.form !== 'inline') {
    // PRIMARY KEY (k) -> PRIMARY KEY ((k), shard): the single key column must become the partition key.
    edits.push({ start: lastKey.range.start, end: lastKey.range.start, newText: '(' });
    edits.push({
      start: lastKey.range.end,
      end: lastKey.range.end,
      newText: `)${names.map((n) => `, ${n}`).join('')}`,
    });
  } else {
    edits.push({ start: lastKey.range.end, end: lastKey.range.end, newText: names.map((n) => `, ${n}`).join('') });
  }
  return edits;
}

function leftToApplication(summary: WorkspaceSummary): string {
  const app = summary.outcomes.application;
  return app ? `, ${app} left to the application` : '';
}

export function summaryText(summary: WorkspaceSummary): string {
  if (!summary.rewritten) return '';
  const files = summary.files.size;
  return `; rewrites ${summary.rewritten} statement${summary.rewritten === 1 ? '' : 's'}${files > 1 ? ` in ${files} files` : ''}${leftToApplication(summary)}`;
}

export function detailLines(
  plan: PartitionPlan,
  summary: WorkspaceSummary,
  relative: (path: string) => string,
): string[] {
  return [...sizingLines(plan), ...summary.application.map((a) => applicationLine(relative, a))];
}

/**
 * An offer whose edits (and, when `detail` is a function, detail lines) are built by `resolve()`, once: a
 * light bulb asks for every fix of a finding and shows their titles; the edits of a refactoring over
 * hundreds of statements are wanted for one of them at most.
 */
export function deferredFix(
  offer: Omit<FixOffer, 'resolve' | 'detail'>,
  filePath: string,
  build: () => Map<string, TextEdit[]>,
  detail: string[] | (() => string[]),
): FixOffer {
  let resolved: Fix | undefined;
  return {
    ...offer,
    ...(Array.isArray(detail) ? { detail } : {}),
    resolve: () => {
      if (resolved) return resolved;
      const byFile = build();
      const elsewhere = [...byFile]
        .filter(([path]) => path !== filePath)
        .map(([path, edits]) => ({ filePath: path, edits }));
      resolved = {
        ...offer,
        edits: byFile.get(filePath) ?? [],
        ...(elsewhere.length ? { otherFiles: elsewhere } : {}),
        detail: Array.isArray(detail) ? detail : detail(),
      };
      return resolved;
    },
  };
}

/** Edits that re-key one definition: its columns and key, its `-- @shard` line, its hints rescaled. */
function definitionEdits(
  text: string,
  create: CreateTableStatement,
  comments: readonly Comment[] | undefined,
  plan: PartitionPlan,
): TextEdit[] | undefined {
  const schema = keyChangeSchemaEdits(text, create, plan);
  if (!schema) return undefined;
  const annotation = shardAnnotation(plan);
  if (annotation) schema.push(commentAboveEdit(text, create.range.start, [annotation]));
  if (plan.shard && comments) schema.push(...scaledHintEdits(comments, text, create.range.start, hintScale(plan)));
  return schema;
}

/** The table's hints describe its partitions: after the shard, each is an Nth of what they were (reads of whole partitions visit every random shard). */
function hintScale(plan: PartitionPlan): HintScale {
  const n = plan.shard?.count ?? 1;
  return { writes: n, rows: n, reads: plan.shard?.method === 'random' ? 1 : n };
}

/** Two CREATE TABLEs with the same partition key and clustering columns, in order. */
export function samePrimaryKey(a: CreateTableStatement, b: CreateTableStatement): boolean {
  const key = (c: CreateTableStatement): string =>
    JSON.stringify([c.primaryKey?.partitionKey.map((k) => k.name), c.primaryKey?.clustering.map((k) => k.name)]);
  return !!a.primaryKey && !!b.primaryKey && key(a) === key(b);
}

/**
 * Whether another definition is the same table in another version: the same primary key (partition key and
 * clustering columns, in order), the columns the plan reads, and none of those it adds. A table of the same
 * name with another key is another design, which the plan was not made for.
 */
function definitionFits(create: CreateTableStatement, original: CreateTableStatement, plan: PartitionPlan): boolean {
  if (!samePrimaryKey(create, original)) return false;
  const names = new Set(create.columns.map((c) => c.name.name));
  const needed = [
    ...(plan.shard?.sources ?? []),
    ...(plan.bucket?.source ? [plan.bucket.source] : []),
    ...(plan.clustering ?? []),
  ];
  return needed.every((c) => names.has(c)) && !addedKeyColumns(plan).some((c) => names.has(c));
}

/**
 * The fix that applies a plan to the table and to every statement on it. Undefined when the table's key
 * cannot take the columns (it did not parse). A plan that does not cure says in its title what it leaves.
 */
export function keyChangeFix(
  ctx: RefactorContext,
  plan: PartitionPlan,
  options: { preferred?: boolean; relative?: (path: string) => string } = {},
): FixOffer | undefined {
  const schema = definitionEdits(ctx.text, ctx.create, ctx.comments, plan);
  if (!schema) return undefined;
  const counts = tenantCountsEdit(ctx, plan);
  if (counts) schema.push(counts);
  const change = keyChangeOf(ctx.table, plan);
  const others = (ctx.otherDefinitions ?? []).filter((d) => definitionFits(d.create, ctx.create, plan));
  const summary = summarizeWorkspace(ctx, change, ctx.table.qualifiedName);
  summary.files.add(ctx.filePath);
  for (const other of others) summary.files.add(other.filePath);
  const action =
    plan.moveToPartition?.length && !plan.shard && !plan.bucket
      ? `Move ${plan.moveToPartition.map(quoteName).join(', ')} into the partition key`
      : plan.bucket?.replaces
        ? replaceText(plan)
        : `Add ${planText(plan)}`;
  const offer = deferredFix(
    {
      id: planId(plan),
      title: `${action}${summaryText(summary)}${plan.cures || !plan.leaves ? '' : ` (leaves: ${plan.leaves})`}`,
      kind: 'quickfix',
      ...(options.preferred ? { isPreferred: true } : {}),
      safeForFixAll: false,
      plan,
    },
    ctx.findingFilePath ?? ctx.filePath,
    () => {
      const byFile = rewriteWorkspace(ctx, change);
      byFile.set(ctx.filePath, [...schema, ...(byFile.get(ctx.filePath) ?? [])]);
      for (const other of others) {
        const edits = definitionEdits(other.text, other.create, other.comments, plan);
        if (edits) byFile.set(other.filePath, [...edits, ...(byFile.get(other.filePath) ?? [])]);
      }
      return byFile;
    },
    detailLines(plan, summary, options.relative ?? ((p) => p)),
  );
  applicationCounts.set(offer, summary.outcomes.application);
  return offer;
}

/** A shard counted per tenant: the table of each tenant's count, created below the table. */
function tenantCountsEdit(
  ctx: Pick<RefactorContext, 'text' | 'create' | 'table'>,
  plan: PartitionPlan,
): TextEdit | undefined {
  const perTenant = plan.shard?.perTenant;
  if (!perTenant) return undefined;
  const tenant = ctx.table.columns.find((c) => c.name === perTenant.column);
  const tenantName = quoteName(perTenant.column);
  return statementAfterEdit(
    ctx.text,
    ctx.create,
    [
      `The shards of each ${tenantName} of ${ctx.table.qualifiedName} (1..${plan.shard!.count}), set by the application as its rows grow: read it before each statement on ${ctx.table.qualifiedName} (no row here: shard 1 only).`,
      `When a count grows, new rows spread over the new shards and the old ones stay where they were: reads take 1..the new count.`,
    ],
    `CREATE TABLE ${perTenant.table} (${tenantName} ${tenant?.typeText ?? 'text'} PRIMARY KEY, shards int);`,
  );
}

/** The statements a key change fix leaves to the application (its copy-and-move twin has as many). */
const applicationCounts = new WeakMap<FixOffer, number>();

export function applicationCountOf(fix: FixOffer): number | undefined {
  return applicationCounts.get(fix);
}

/**
 * "Create a copy": the table again under `copyName` with the plan's key, its `-- @shard` line and a note
 * on moving the data, inserted after the original, which stays exactly as it is (a deployed table's
 * primary key cannot be altered). With `move`, every statement of the workspace also moves to the copy,
 * rewritten for its key.
 */
export function keyChangeCopyFix(
  ctx: RefactorContext,
  plan: PartitionPlan,
  copyName: string,
  move: boolean,
  relative: (path: string) => string = (p) => p,
  /** The statements the in-place fix of the same plan leaves to the application (known: not counted again). */
  applicationCount?: number,
): FixOffer | undefined {
  const { text, create } = ctx;
  if (move && !ctx.statements.length) return undefined;
  const start = create.range.start;
  const end = create.range.end;
  const inside = keyChangeSchemaEdits(text, create, plan);
  if (!inside) return undefined;
  const rename: TextEdit = {
    start: create.name.name.range.start,
    end: create.name.name.range.end,
    newText: quoteName(copyName),
  };
  const statement = applyEdits(
    text.slice(start, end),
    [...inside, rename].map((e) => ({ ...e, start: e.start - start, end: e.end - start })),
  );
  const original = ctx.table.qualifiedName;
  const copyQualified = create.name.keyspace
    ? `${identifierText(create.name.keyspace)}.${quoteName(copyName)}`
    : quoteName(copyName);
  const eol = lineBreakAt(text, end);
  const indent = startsLine(text, start) ? indentAt(text, start) : '';
  const annotation = shardAnnotation(plan);
  // The copy keeps the original's workload hints, divided as the in-place fix divides them: it is judged at
  // the same rates.
  const hints = copiedHints(ctx, plan);
  const comments = [
    `${copyQualified}: a copy of ${original} keyed for ${planText(plan)}; a deployed table's primary key cannot be altered.`,
    move
      ? `Moving the data: copy the rows of ${original} here (computing the new key columns) before the statements that now use this table go live, then drop ${original}.`
      : `Moving the data: write to both tables, copy the existing rows (computing the new key columns), move the reads here, then drop ${original}.`,
    ...(annotation ? [annotation] : []),
    ...hints,
  ];
  // After the statement's line when only comments follow it there, so that they stay with the original.
  const rest = restOfLineAfter(text, end);
  const at = rest && !rest.comma ? rest.lineEnd : end;
  const block = `${eol}${eol}${comments.map((c) => `${indent}-- ${c}${eol}`).join('')}${indent}${statement}`;
  const schemaEdit: TextEdit = { start: at, end: at, newText: block };
  const what = `a copy of ${original}: ${copyQualified}, ${planText(plan)}`;
  if (!move) {
    const fix: Fix = {
      id: `copy:${planId(plan)}`,
      title: `Create ${what}`,
      kind: 'quickfix',
      safeForFixAll: false,
      edits: [schemaEdit],
      plan,
    };
    return { ...fix, resolve: () => fix };
  }
  const copyTable: TableInfo = {
    ...ctx.table,
    name: copyName,
    qualifiedName: ctx.table.keyspace ? `${ctx.table.keyspace}.${copyName}` : copyName,
  };
  const change = keyChangeOf(copyTable, plan);
  // The views stay on the original table, which stays as it is. The statements fare as in the in-place fix
  // (the copy has the same columns): its count serves the title, and the detail waits until it is read.
  const summary = (): WorkspaceSummary => summarizeWorkspace(ctx, change, copyTable.qualifiedName, []);
  const left = applicationCount ?? summary().outcomes.application;
  const moved = ctx.statements.length;
  return deferredFix(
    {
      id: `copy-move:${planId(plan)}`,
      title: `Create ${what}, and move ${moved} statement${moved === 1 ? '' : 's'} to it${left ? `, ${left} left to the application` : ''}`,
      kind: 'quickfix',
      safeForFixAll: false,
      plan,
    },
    ctx.filePath,
    () => {
      const byFile = moveStatements(ctx, change, copyName);
      byFile.set(ctx.filePath, [schemaEdit, ...(byFile.get(ctx.filePath) ?? [])]);
      return byFile;
    },
    () => detailLines(plan, summary(), relative),
  );
}

/**
 * Every statement of `ctx` moved to the copy `copyName` (the table of `change`): rewritten for its key, and
 * naming the copy instead of the original (its keyspace as the statement wrote it). Edits by file.
 */
export function moveStatements(ctx: WorkspaceRewrite, change: KeyChange, copyName: string): Map<string, TextEdit[]> {
  const byFile = rewriteWorkspace(ctx, change, change.table.qualifiedName, []);
  for (const { filePath, statement } of ctx.statements) {
    const name = statementTable(statement);
    const edit: TextEdit = { start: name.name.range.start, end: name.name.range.end, newText: quoteName(copyName) };
    byFile.set(filePath, [...(byFile.get(filePath) ?? []), edit]);
  }
  return byFile;
}

/**
 * The `-- @cqlint` lines the copy carries: the original's hints, each line as written with its per-partition
 * figures divided as the in-place fix divides them (hints describe partitions, and the copy's are smaller).
 */
export function copiedHints(ctx: Pick<RefactorContext, 'comments' | 'text' | 'create'>, plan: PartitionPlan): string[] {
  if (!ctx.comments) return [];
  const lines: string[] = [];
  for (const comment of hintCommentsAbove(ctx.comments, ctx.text, ctx.create.range.start)) {
    const text = ctx.text.slice(comment.comment.range.start, comment.comment.range.end);
    const scaled = plan.shard
      ? scaledHintEdits([comment.comment], ctx.text, ctx.create.range.start, hintScale(plan))
      : [];
    const start = comment.comment.range.start;
    const value = applyEdits(
      text,
      scaled.map((e) => ({ ...e, start: e.start - start, end: e.end - start })),
    );
    lines.push(value.replace(/^--\s?|^\/\/\s?|^\/\*\s?|\s?\*\/$/g, ''));
  }
  return lines;
}
