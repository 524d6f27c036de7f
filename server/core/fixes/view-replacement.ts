// A materialized view cannot take a shard or a time bucket: its primary key follows its base table's, and
// Cassandra maintains it. The cure of a partition finding on a view (planner.ts: a plan with `replacesView`)
// is a table of the same name with the new key, which the application writes beside the base table: the
// CREATE MATERIALIZED VIEW becomes that CREATE TABLE (with its `-- @shard` line and how to deploy it), every
// read of the view is rewritten for the new key as a table's would be (key-rewrite.ts), and every write of
// the base table gets a note to write the new table too (left to the application: a view's row follows
// its base row, which a statement of the base table alone does not say).
import type { CreateMaterializedViewStatement } from '../../../grammar/ast';
import type { TableInfo } from '../schema/model';
import { quoteName } from '../util/names';
import { addedKeyColumns, keepsClustering, keyChangeOf, shardFormulaText, type PartitionPlan } from '../partition/plan';
import { planId, planText, plannedKeyText } from '../partition/planner';
import {
  addedElements,
  bucketDescription,
  deferredFix,
  detailLines,
  rewriteWorkspace,
  shardAnnotation,
  summarizeWorkspace,
  summaryText,
  type WorkspaceRewrite,
  type WorkspaceStatement,
} from './refactor';
import { commentAboveEdit } from './table-edits';
import { indentAt, lineBreakAt, startsLine } from './text';
import type { FixOffer, TextEdit } from './types';

export interface ViewReplacement extends WorkspaceRewrite {
  /** The file of the CREATE MATERIALIZED VIEW and its text. */
  filePath: string;
  text: string;
  view: CreateMaterializedViewStatement;
  /** The view as the schema has it (its columns and types). */
  table: TableInfo;
  /** The writes of the base table in the workspace: each gets a note to write the new table too. */
  baseWrites: readonly WorkspaceStatement[];
}

/**
 * The CREATE TABLE that replaces the view: the view's columns with their types, the plan's columns, and the
 * plan's key; the view's options (its CLUSTERING ORDER among them) as written. Undefined for a plan that
 * moves or adds clustering columns (a CLUSTERING ORDER would have to change: left to the user).
 */
function tableText(r: ViewReplacement, plan: PartitionPlan): string | undefined {
  const { view, text, table } = r;
  if (!view.primaryKey || !keepsClustering(plan)) return undefined;
  const eol = lineBreakAt(text, view.range.start);
  const indent = startsLine(text, view.range.start) ? indentAt(text, view.range.start) : '';
  const inner = `${indent}    `;
  const key = new Set([...table.partitionKey, ...table.clustering].map((c) => c.name));
  const columns = [...table.partitionKey, ...table.clustering, ...table.columns.filter((c) => !key.has(c.name))];
  const lines = [
    ...columns.map((c) => `${inner}${quoteName(c.name)} ${c.typeText},`),
    ...addedElements(plan).map((e) => `${inner}${e.sql},${e.comment ? ` -- ${e.comment}` : ''}`),
    `${inner}PRIMARY KEY ${plannedKeyText(table, plan)}`,
  ];
  const name = text.slice(view.name.range.start, view.name.range.end);
  // The view's options, as written: WITH CLUSTERING ORDER BY (...) AND ..., and its semicolon.
  const rest = text.slice(view.primaryKey.range.end, view.range.end);
  return `CREATE TABLE ${view.ifNotExists ? 'IF NOT EXISTS ' : ''}${name} (${eol}${lines.join(eol)}${eol}${indent})${rest}`;
}

/** The note above a write of the base table: write the table that replaces the view too. */
function baseWriteNote(r: ViewReplacement, plan: PartitionPlan): string {
  const added = addedKeyColumns(plan).map((c) =>
    plan.shard?.column === c
      ? `${quoteName(c)} = ${shardFormulaText(plan.shard, quoteName)}`
      : `${quoteName(c)} = ${bucketDescription(plan.bucket!)}`,
  );
  return `also write ${r.table.qualifiedName} (a table in place of the view): the row as the view had it${added.length ? `, ${added.join(', ')}` : ''}, in a logged batch with this statement (where it changes ${r.table.partitionKey.map((c) => quoteName(c.name)).join(', ')}, delete the old row there)`;
}

/**
 * The fix that replaces the view with a table keyed by the plan; undefined when the plan changes the
 * clustering columns or the view did not parse whole.
 */
export function viewReplacementFix(
  r: ViewReplacement,
  plan: PartitionPlan,
  options: { preferred?: boolean; relative?: (path: string) => string } = {},
): FixOffer | undefined {
  const replacement = tableText(r, plan);
  if (!replacement || !plan.replacesView) return undefined;
  const { view, text } = r;
  const base = plan.replacesView.base;
  const name = r.table.qualifiedName;
  const annotation = shardAnnotation(plan);
  const header = commentAboveEdit(text, view.range.start, [
    `${name}: a table in place of the materialized view on ${base}, whose key could not take ${planText(plan)}; the application writes it with every write of ${base}.`,
    `Deploying it: DROP MATERIALIZED VIEW ${text.slice(view.name.range.start, view.name.range.end)}, create this table, copy the rows of ${base} into it (computing the new key columns), then deploy the writes and the reads.`,
    ...(annotation ? [annotation] : []),
  ]);
  // One edit from the comment's line to the view's end: the comment above, the table in its place.
  const schema: TextEdit[] = [
    {
      start: header.start,
      end: view.range.end,
      newText: `${header.newText}${text.slice(header.end, view.range.start)}${replacement}`,
    },
  ];
  const change = keyChangeOf({ ...r.table, kind: 'table' }, plan);
  const summary = summarizeWorkspace(r, change, name, []);
  // Every write of the base table is left to the application: it must write the new table too.
  const note = baseWriteNote(r, plan);
  for (const w of r.baseWrites) {
    summary.rewritten++;
    summary.outcomes.application++;
    summary.files.add(w.filePath);
    summary.application.push({
      filePath: w.filePath,
      ...(r.lineOf ? { line: r.lineOf(w.filePath, w.text, w.statement.range.start) } : {}),
      note,
    });
  }
  summary.files.add(r.filePath);
  return deferredFix(
    {
      id: planId(plan),
      title: `Replace the view with a table the application writes beside ${base}: ${planText(plan)}${summaryText(summary)}${plan.cures || !plan.leaves ? '' : ` (leaves: ${plan.leaves})`}`,
      kind: 'quickfix',
      ...(options.preferred ? { isPreferred: true } : {}),
      safeForFixAll: false,
      plan,
    },
    r.filePath,
    () => {
      const byFile = rewriteWorkspace(r, change, name, []);
      byFile.set(r.filePath, [...schema, ...(byFile.get(r.filePath) ?? [])]);
      for (const w of r.baseWrites)
        byFile.set(w.filePath, [
          ...(byFile.get(w.filePath) ?? []),
          commentAboveEdit(w.text, w.statement.range.start, [note]),
        ]);
      return byFile;
    },
    detailLines(plan, summary, options.relative ?? ((p) => p)),
  );
}
