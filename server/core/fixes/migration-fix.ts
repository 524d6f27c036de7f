// A partition fix on a table that a migration created (docs/migrations.md): that migration has run on every
// cluster and is never edited. The fix writes the folder's next migration instead: the table again under a
// new name with the plan's key (its `-- @shard` line and workspace hints carried over, the columns later
// migrations added included), the data-copy plan as comments with its dsbulk commands (the plan
// primary-key-change prints: schema/key-change-plan.ts), and, for the move, every statement on the table
// outside the migration folder rewritten to the new table, as the copy-and-move fix does elsewhere.
import { parseCql } from '../../../grammar/parse';
import type { Comment } from '../../../grammar/ast';
import { copyPlanSteps } from '../schema/key-change-plan';
import { nextMigrationName, type MigrationFolder } from '../schema/migrations';
import type { TableInfo } from '../schema/model';
import { shardAnnotationAbove } from '../schema/shard';
import { quoteName } from '../util/names';
import { keyText } from '../util/statements';
import { changedPartitionKey, keyChangeOf, shardFormulaText, type PartitionPlan } from '../partition/plan';
import { planId, planText } from '../partition/planner';
import { addBodyElements, identifierText, type BodyElement } from './table-edits';
import {
  bucketDescription,
  copiedHints,
  deferredFix,
  detailLines,
  keyChangeSchemaEdits,
  moveStatements,
  shardAnnotation,
  summarizeWorkspace,
  type RefactorContext,
} from './refactor';
import { applyEdits, lineBreakAt } from './text';
import type { FixOffer, NewFile, TextEdit } from './types';
import { migrationLine } from './detail-lines';

/** Where a partition fix on a table of a migration folder writes: the folder, and the table as it stands at its end. */
export interface MigrationTarget {
  folder: MigrationFolder;
  /** The table as the folder's last file leaves it (columns later ALTERs added included). */
  current: TableInfo;
}

/** The file name of a path (either separator). */
export function baseName(path: string): string {
  return path.slice(Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\')) + 1);
}

/**
 * The CREATE TABLE of the copy: the original's text with the columns later migrations added, the plan's key
 * and the copy's name (keyspace-qualified, as a migration file has no USE). Undefined when the text cannot
 * take it: the key cannot take the plan, or a later migration dropped or re-keyed a column of the original.
 */
function copyStatement(
  ctx: RefactorContext,
  target: MigrationTarget,
  plan: PartitionPlan,
  qualified: string,
): string | undefined {
  const { text, create, table } = ctx;
  const { current } = target;
  const key = (t: TableInfo) =>
    keyText(
      t.partitionKey.map((c) => c.name),
      t.clustering.map((c) => c.name),
    );
  if (key(current) !== key(table) || table.columns.some((c) => !current.columns.some((o) => o.name === c.name)))
    return undefined;
  const added: BodyElement[] = current.columns
    .filter((c) => !table.columns.some((o) => o.name === c.name))
    .map((c) => ({ sql: `${quoteName(c.name)} ${c.typeText}${c.role === 'static' ? ' STATIC' : ''}` }));
  const start = create.range.start;
  const slice = text.slice(start, create.range.end);
  const grown = added.length
    ? applyEdits(
        slice,
        (addBodyElements(text, create, added) ?? []).map((e) => ({ ...e, start: e.start - start, end: e.end - start })),
      )
    : slice;
  const again = parseCql(grown).statements[0];
  if (again?.kind !== 'CreateTable') return undefined;
  const inside = keyChangeSchemaEdits(grown, again, plan);
  if (!inside) return undefined;
  const rename: TextEdit = { start: again.name.range.start, end: again.name.range.end, newText: qualified };
  return applyEdits(grown, [...inside, rename]);
}

/** The new key columns the old rows lack, each as `column = how it is computed`, for the backfill. */
function computedColumns(plan: PartitionPlan): string[] {
  const out: string[] = [];
  if (plan.shard) out.push(`${quoteName(plan.shard.column)} = ${shardFormulaText(plan.shard, quoteName)}`);
  if (plan.bucket) out.push(`${quoteName(plan.bucket.column)} = ${bucketDescription(plan.bucket)}`);
  return out;
}

/** The `-- @shard` line above the original (text as written), when the plan writes none of its own. */
function keptShardLine(ctx: RefactorContext, plan: PartitionPlan): string[] {
  if (plan.shard || !ctx.comments) return [];
  const found = shardAnnotationAbove(ctx.comments as Comment[], ctx.text, ctx.create.range.start);
  if (!found) return [];
  const { start, end } = found.comment.range;
  return [ctx.text.slice(start, end).replace(/^--\s?|^\/\/\s?|^\/\*\s?|\s?\*\/$/g, '')];
}

/**
 * "Create migration v004_events_by_day.cql": the copy of the table keyed for `plan` in the folder's next
 * migration, and with `move` every statement on the table outside the folder moved to it (statements in the
 * folder's files are applied migrations: left as they are, each said in the detail). Undefined when the
 * copy's text cannot be made, or `move` has nothing to move.
 */
export function migrationCopyFix(
  ctx: RefactorContext,
  target: MigrationTarget,
  plan: PartitionPlan,
  copyName: string,
  move: boolean,
  options: { preferred?: boolean; relative?: (path: string) => string } = {},
): FixOffer | undefined {
  const relative = options.relative ?? ((p: string) => p);
  const applied = new Set(target.folder.files);
  const movable = ctx.statements.filter((s) => !applied.has(s.filePath));
  if (move && !movable.length) return undefined;
  const original = ctx.table.qualifiedName;
  const keyspace = ctx.create.name.keyspace
    ? identifierText(ctx.create.name.keyspace)
    : ctx.table.keyspace && quoteName(ctx.table.keyspace);
  const qualified = keyspace ? `${keyspace}.${quoteName(copyName)}` : quoteName(copyName);
  const statement = copyStatement(ctx, target, plan, qualified);
  if (statement === undefined) return undefined;
  const copyTable: TableInfo = {
    ...target.current,
    name: copyName,
    qualifiedName: ctx.table.keyspace ? `${ctx.table.keyspace}.${copyName}` : copyName,
  };
  const change = keyChangeOf(copyTable, plan);
  const moved = plan.moveToPartition ?? [];
  const newKey = keyText(
    changedPartitionKey(
      ctx.table.partitionKey.map((c) => c.name),
      plan,
    ),
    [...ctx.table.clustering.map((c) => c.name).filter((c) => !moved.includes(c)), ...(plan.clustering ?? [])],
  );
  const filePath = nextMigrationName(target.folder, copyName);
  const createdIn = baseName(ctx.filePath);
  const eol = lineBreakAt(ctx.text, ctx.create.range.end);
  const left = ctx.statements.filter((s) => applied.has(s.filePath));
  const annotation = shardAnnotation(plan);
  const comments = [
    `${qualified}: a copy of ${original} (created by ${createdIn}, which has run and is not edited) keyed for ${planText(plan)}; a deployed table's primary key cannot be altered.`,
    move
      ? `This change moves the statements on ${original} to ${qualified}: release them with step 4, once the copy is complete.`
      : `The statements still use ${original}: move them with step 4.`,
    ...copyPlanSteps(ctx.table, copyName, newKey, computedColumns(plan)),
    ...(annotation ? [annotation] : keptShardLine(ctx, plan)),
    ...copiedHints(ctx, plan),
  ];
  const newFile: NewFile = {
    filePath,
    text: `${comments.map((c) => `-- ${c}${eol}`).join('')}${statement}${eol}`,
  };
  const what = `Create migration ${baseName(filePath)}: ${qualified}, a copy of ${original} keyed for ${planText(plan)}`;
  const leftLines = left.map((s) =>
    migrationLine(
      relative,
      { filePath: s.filePath, line: ctx.lineOf?.(s.filePath, s.text, s.statement.range.start) },
      original,
    ),
  );
  if (!move) {
    const fix = {
      id: `copy:${planId(plan)}`,
      title: what,
      kind: 'quickfix' as const,
      ...(options.preferred ? { isPreferred: true } : {}),
      safeForFixAll: false,
      edits: [],
      newFiles: [newFile],
      plan,
    };
    return { ...fix, resolve: () => fix };
  }
  const moving: RefactorContext = { ...ctx, statements: movable };
  const summary = summarizeWorkspace(moving, change, copyTable.qualifiedName, []);
  const app = summary.outcomes.application;
  return deferredFix(
    {
      id: `copy-move:${planId(plan)}`,
      title: `${what}, and move ${movable.length} statement${movable.length === 1 ? '' : 's'} to it${app ? `, ${app} left to the application` : ''}`,
      kind: 'quickfix',
      ...(options.preferred ? { isPreferred: true } : {}),
      safeForFixAll: false,
      newFiles: [newFile],
      plan,
    },
    ctx.findingFilePath ?? ctx.filePath,
    () => moveStatements(moving, change, copyName),
    [...detailLines(plan, summary, relative), ...leftLines],
  );
}
