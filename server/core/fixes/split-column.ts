// The split of a dominant column (partition/split.ts): the column leaves the table for a table of its own,
// keyed by every primary key column of the original (one moved value a partition, read by the row's key),
// and every statement of the workspace on the table follows. An INSERT or UPDATE writing the column becomes
// the original without it and a write of the new table with the same key values, kept together in a logged
// BATCH (or in the batch it stood in); a SELECT reading it becomes the original without it and a read of the
// new table by the key; a DELETE of the row deletes in both. What the rewrite cannot make exactly (the key
// not pinned by value, a conditional write, bind markers the application now binds twice) is written as
// valid CQL with a note for the application, and in application code the fix is refused: a string the
// driver executes holds one statement, bound as it was.
import type {
  BatchStatement,
  Comment,
  CreateTableStatement,
  Expression,
  Relation,
  SourceRange,
} from '../../../grammar/ast';
import { hintCommentsAbove } from '../schema/hint-comments';
import { nextMigrationName } from '../schema/migrations';
import type { TableInfo } from '../schema/model';
import { someExpression } from '../util/ast-walk';
import { quoteName } from '../util/names';
import { keyText, statementTable } from '../util/statements';
import type { PartitionPlan, SplitPlan } from '../partition/plan';
import { planId, planText } from '../partition/planner';
import { isServerGenerated, type DmlStatement } from './key-rewrite';
import { baseName, type MigrationTarget } from './migration-fix';
import { applicationLine, migrationLine, refusedLine, sizingLines } from './detail-lines';
import { deferredFix, type RefactorContext, type WorkspaceStatement } from './refactor';
import { commentAboveEdit, identifierText, statementAfterEdit } from './table-edits';
import { applyEdits, indentAt, lineBreakAt, lineStart, restOfLineAfter, startsLine } from './text';
import type { FixOffer, NewFile, TextEdit } from './types';

/** How one statement fares: rewritten exactly, rewritten with a note for the application, or left alone. */
type SplitOutcome = 'exact' | 'application' | 'unchanged';

interface StatementSplit {
  outcome: SplitOutcome;
  /** The statement's replacement (its whole range, terminator included). */
  edit?: TextEdit;
  /** What the application must do, in words (written as a comment above the statement in CQL files). */
  note?: string;
  /** The rewrite is two statements outside a batch (application code holds one statement a string). */
  twoStatements?: boolean;
}

/** The new table's bare name. */
function bareName(qualified: string): string {
  return qualified.slice(qualified.lastIndexOf('.') + 1);
}

/** The statement's text without its terminator, and whether it had one. */
function bodyOf(text: string, range: SourceRange): { body: string; semicolon: boolean } {
  const raw = text.slice(range.start, range.end).trimEnd();
  const semicolon = raw.endsWith(';');
  return { body: semicolon ? raw.slice(0, -1).trimEnd() : raw, semicolon };
}

/** `ks.posts_body` as the statement names its table: with its keyspace when it writes one. */
function newTableAsWritten(statement: DmlStatement, split: SplitPlan): string {
  const name = statementTable(statement);
  return name.keyspace
    ? `${identifierText(name.keyspace)}.${quoteName(bareName(split.table))}`
    : quoteName(bareName(split.table));
}

function mentions(expr: Expression | undefined, column: string): boolean {
  return someExpression(expr, (e) => e.kind === 'ColumnRef' && e.name.name === column);
}

function hasMarker(exprs: readonly (Expression | undefined)[]): boolean {
  return exprs.some((e) => someExpression(e, (x) => x.kind === 'BindMarker'));
}

/**
 * The WHERE clause of the new table's statement: the original's, when it restricts every key column (and
 * nothing else) by `=` or `IN`, which the new table's partition key takes as it is (exact); otherwise each key
 * column by the value the original gives it, or a bind marker the application fills (not exact).
 */
function keyWhere(text: string, where: readonly Relation[], split: SplitPlan): { text: string; exact: boolean } {
  const restricted = new Set<string>();
  const byValue = new Map<string, string>();
  let exact = true;
  for (const r of where) {
    const keyed = r.left.kind === 'ColumnRef' && split.key.includes(r.left.name.name);
    if (!keyed || (r.operator !== '=' && r.operator !== 'IN')) exact = false;
    if (r.left.kind !== 'ColumnRef') continue;
    restricted.add(r.left.name.name);
    if (r.operator === '=' && r.right.length === 1)
      byValue.set(r.left.name.name, text.slice(r.right[0]!.range.start, r.right[0]!.range.end));
  }
  if (exact && split.key.every((k) => restricted.has(k)))
    return { text: `WHERE ${where.map((r) => text.slice(r.range.start, r.range.end)).join(' AND ')}`, exact: true };
  return {
    text: `WHERE ${split.key.map((k) => `${quoteName(k)} = ${byValue.get(k) ?? '?'}`).join(' AND ')}`,
    exact: false,
  };
}

/** `USING TTL 5 AND TIMESTAMP 3` as the statement writes it ('' without one). */
function usingText(text: string, using: readonly { range: SourceRange; option: string }[]): string {
  const kept = using.filter((u) => u.option !== 'TIMEOUT');
  return kept.length ? ` USING ${kept.map((u) => text.slice(u.range.start, u.range.end)).join(' AND ')}` : '';
}

/** The statement's text with the items of one list at `ranges` replaced by those kept (`, ` between them). */
function keepItems(text: string, ranges: readonly SourceRange[], keep: (i: number) => boolean): TextEdit {
  const kept = ranges.filter((_, i) => keep(i)).map((r) => text.slice(r.start, r.end));
  return { start: ranges[0]!.start, end: ranges.at(-1)!.end, newText: kept.join(', ') };
}

/** The statement's body after edits inside it. */
function editedBody(text: string, statement: DmlStatement, edits: readonly TextEdit[]): string {
  const { start } = statement.range;
  const { body } = bodyOf(text, statement.range);
  return applyEdits(
    body,
    edits.map((e) => ({ ...e, start: e.start - start, end: e.end - start })),
  );
}

/**
 * The replacement of a write by two: inside a batch both stay members; outside, a logged BATCH holds them
 * (one atomic write of the row and its moved value). A conditional write cannot share a batch with another
 * table: the two follow each other, and the note says the second follows the first's outcome.
 */
function pairEdit(
  text: string,
  statement: DmlStatement,
  first: string | undefined,
  second: string,
  batch: BatchStatement | undefined,
  conditional: boolean,
): { edit: TextEdit; twoStatements: boolean } {
  // A statement on a line of its own puts each statement on a line with its indentation; one that shares its
  // line (mostly a string of application code, where a line break would be an escape) keeps them on it.
  const ownLine = startsLine(text, statement.range.start);
  const next = ownLine ? `${lineBreakAt(text, statement.range.start)}${indentAt(text, statement.range.start)}` : ' ';
  const inner = ownLine ? `${next}  ` : ' ';
  // The statement's text up to its terminator, which stays where it is (in application code, where cqlint
  // adds one after the statement, an edit must not cover it).
  const range = bodyRange(text, statement);
  if (first === undefined) return { edit: { ...range, newText: second }, twoStatements: false };
  if (batch || conditional) return { edit: { ...range, newText: `${first};${next}${second}` }, twoStatements: !batch };
  return {
    edit: { ...range, newText: `BEGIN BATCH${inner}${first};${inner}${second};${next}APPLY BATCH` },
    twoStatements: false,
  };
}

/** The range of a statement without its terminator. */
function bodyRange(text: string, statement: DmlStatement): SourceRange {
  const { body } = bodyOf(text, statement.range);
  return { start: statement.range.start, end: statement.range.start + body.length };
}

/** One statement on the table rewritten for the split. */
function splitStatement(
  text: string,
  statement: DmlStatement,
  split: SplitPlan,
  table: TableInfo,
  batch: BatchStatement | undefined,
): StatementSplit {
  const column = split.column;
  const target = newTableAsWritten(statement, split);
  const name = quoteName(column);
  const markerNote = `binds the key values twice: once for ${statementTable(statement).name.name} and once for ${split.table}`;
  switch (statement.kind) {
    case 'Insert': {
      if (statement.json)
        return {
          outcome: 'application',
          note: `a JSON insert: write ${name} to ${split.table} by the row's key, not in this JSON`,
        };
      const at = statement.columns.findIndex((c) => c.name === column);
      if (at < 0 || statement.values.length !== statement.columns.length) return { outcome: 'unchanged' };
      const values = new Map(statement.columns.map((c, i) => [c.name, statement.values[i]!] as const));
      if (!split.key.every((k) => values.has(k)))
        return { outcome: 'application', note: `write ${name} to ${split.table} by the row's key` };
      const first = editedBody(text, statement, [
        keepItems(
          text,
          statement.columns.map((c) => c.range),
          (i) => i !== at,
        ),
        keepItems(
          text,
          statement.values.map((v) => v.range),
          (i) => i !== at,
        ),
      ]);
      const cols = [...split.key.map(quoteName), name].join(', ');
      // A key value the server makes (now(), uuid()) differs in each statement: the second binds it.
      const generated = split.key.filter((k) => isServerGenerated(values.get(k)!));
      const vals = [...split.key.map((k) => values.get(k)!), values.get(column)!]
        .map((v, i) =>
          i < split.key.length && generated.includes(split.key[i]!) ? '?' : text.slice(v.range.start, v.range.end),
        )
        .join(', ');
      const second = `INSERT INTO ${target} (${cols}) VALUES (${vals})${usingText(text, statement.using)}`;
      const { edit, twoStatements } = pairEdit(text, statement, first, second, batch, statement.ifNotExists);
      const markers = hasMarker(split.key.map((k) => values.get(k)));
      const note = generated.length
        ? `generate ${generated.map(quoteName).join(', ')} in the application and bind the same value in both statements (the server's value differs in each)`
        : statement.ifNotExists
          ? `write ${split.table} only when the INSERT IF NOT EXISTS applied (a conditional write cannot share a batch with another table)`
          : markers
            ? markerNote
            : undefined;
      return { outcome: note ? 'application' : 'exact', edit, ...(note ? { note } : {}), twoStatements };
    }
    case 'Update': {
      const moved = statement.assignments.filter((a) => mentions(a.target, column));
      if (!moved.length) {
        return statement.conditions.some((c) => mentions(c.left, column) || c.right.some((r) => mentions(r, column)))
          ? { outcome: 'application', note: `its condition reads ${name}, which is now in ${split.table}` }
          : { outcome: 'unchanged' };
      }
      const where = keyWhere(text, statement.where, split);
      const conditional = statement.ifExists || statement.conditions.length > 0;
      const kept = statement.assignments.filter((a) => !moved.includes(a));
      const first = kept.length
        ? editedBody(text, statement, [
            keepItems(
              text,
              statement.assignments.map((a) => a.range),
              (i) => !moved.includes(statement.assignments[i]!),
            ),
          ])
        : undefined;
      const second = `UPDATE ${target}${usingText(text, statement.using)} SET ${moved.map((a) => text.slice(a.range.start, a.range.end)).join(', ')} ${where.text}`;
      const { edit, twoStatements } = pairEdit(text, statement, first, second, batch, conditional && !!first);
      const note = !where.exact
        ? `set ${name} in ${split.table} for each row this UPDATE sets (its key ${keyText(split.key, [])})`
        : conditional
          ? `set ${name} in ${split.table} only when the conditional UPDATE applied`
          : hasMarker(statement.where.flatMap((r) => r.right))
            ? markerNote
            : undefined;
      return { outcome: note ? 'application' : 'exact', edit, ...(note ? { note } : {}), twoStatements };
    }
    case 'Delete': {
      const whole = statement.selections.length === 0;
      const moved = statement.selections.filter((s) => mentions(s, column));
      if (!whole && !moved.length) return { outcome: 'unchanged' };
      const where = keyWhere(text, statement.where, split);
      const conditional = statement.ifExists || statement.conditions.length > 0;
      const first =
        whole || moved.length < statement.selections.length
          ? whole
            ? bodyOf(text, statement.range).body
            : editedBody(text, statement, [
                keepItems(
                  text,
                  statement.selections.map((s) => s.range),
                  (i) => !moved.includes(statement.selections[i]!),
                ),
              ])
          : undefined;
      const second = `DELETE FROM ${target}${usingText(text, statement.using)} ${where.text}`;
      const { edit, twoStatements } = pairEdit(text, statement, first, second, batch, conditional && !!first);
      const note = !where.exact
        ? `delete ${whole ? 'the row' : name} from ${split.table} for each row this DELETE deletes (its key ${keyText(split.key, [])})`
        : conditional
          ? `delete from ${split.table} only when the conditional DELETE applied`
          : hasMarker(statement.where.flatMap((r) => r.right))
            ? markerNote
            : undefined;
      return { outcome: note ? 'application' : 'exact', edit, ...(note ? { note } : {}), twoStatements };
    }
    case 'Select': {
      const moved = statement.selectors.filter((s) => mentions(s.expression, column));
      if (!statement.star && !moved.length) {
        return statement.where.some((r) => mentions(r.left, column))
          ? { outcome: 'application', note: `it filters on ${name}, which is now in ${split.table}` }
          : { outcome: 'unchanged' };
      }
      const where = keyWhere(text, statement.where, split);
      const rest = table.columns.filter((c) => c.name !== column).map((c) => quoteName(c.name));
      let first: string;
      if (statement.star) {
        const star = text.indexOf('*', statement.range.start);
        first = editedBody(text, statement, [{ start: star, end: star + 1, newText: rest.join(', ') }]);
      } else if (moved.length < statement.selectors.length) {
        first = editedBody(text, statement, [
          keepItems(
            text,
            statement.selectors.map((s) => s.range),
            (i) => !moved.includes(statement.selectors[i]!),
          ),
        ]);
      } else {
        // Only the moved column was read: the rows' keys are what the application reads it by.
        first = editedBody(text, statement, [
          keepItems(
            text,
            statement.selectors.map((s) => s.range),
            () => false,
          ),
        ]).replace(
          /^(\s*SELECT\s+(?:JSON\s+)?(?:DISTINCT\s+)?)(?=\s*FROM)/i,
          `$1${split.key.map(quoteName).join(', ')} `,
        );
      }
      const selected = statement.star ? name : moved.map((s) => text.slice(s.range.start, s.range.end)).join(', ');
      if (!where.exact) {
        return {
          outcome: 'application',
          edit: { ...bodyRange(text, statement), newText: first },
          note: `read ${selected} from ${split.table} by each row's key ${keyText(split.key, [])}`,
        };
      }
      const second = `SELECT ${statement.json ? 'JSON ' : ''}${selected} FROM ${target} ${where.text}`;
      const { edit } = pairEdit(text, statement, first, second, undefined, true);
      const markers = hasMarker(statement.where.flatMap((r) => r.right));
      return {
        outcome: markers ? 'application' : 'exact',
        edit,
        ...(markers ? { note: markerNote } : {}),
        twoStatements: true,
      };
    }
  }
}

/** The split's rewrite of the workspace's statements: edits by file, and what is left to the application. */
interface SplitRewrite {
  byFile: Map<string, TextEdit[]>;
  rewritten: number;
  files: Set<string>;
  application: { filePath: string; line?: number; note: string }[];
  /** The first statement of application code the rewrite cannot make exactly: the fix is refused. */
  refused?: { filePath: string; reason: string };
}

function rewriteStatements(
  ctx: Pick<RefactorContext, 'lineOf' | 'applicationCode'>,
  statements: readonly WorkspaceStatement[],
  split: SplitPlan,
  table: TableInfo,
  relative: (path: string) => string,
): SplitRewrite {
  const out: SplitRewrite = { byFile: new Map(), rewritten: 0, files: new Set(), application: [] };
  for (const { filePath, text, statement, batch } of statements) {
    const result = splitStatement(text, statement, split, table, batch);
    if (result.outcome === 'unchanged') continue;
    out.rewritten++;
    out.files.add(filePath);
    const line = ctx.lineOf?.(filePath, text, statement.range.start);
    const app = ctx.applicationCode?.(filePath) ?? false;
    if (app && !out.refused && (result.outcome === 'application' || result.twoStatements))
      out.refused = {
        filePath,
        reason: `cqlint cannot make this change in the code: the statement${line !== undefined ? ` at line ${line}` : ''} ${result.note ? `needs the application: ${result.note}` : 'becomes two statements (a read of the moved column beside the read of the row), and one string holds one'}`,
      };
    let edit = result.edit;
    if (result.note) {
      out.application.push({ filePath, ...(line !== undefined ? { line } : {}), note: result.note });
      // In a CQL file the note is a comment line above the statement, in the same edit (from the line's start,
      // its indentation written again after the comment).
      if (!app) {
        const start = statement.range.start;
        const note = commentAboveEdit(text, start, [`${split.column} moved: ${result.note}`]);
        edit = {
          start: note.start,
          end: edit?.end ?? start,
          newText: `${note.newText}${text.slice(note.start, start)}${edit ? edit.newText : ''}`,
        };
      }
    }
    if (edit) out.byFile.set(filePath, [...(out.byFile.get(filePath) ?? []), edit]);
  }
  return out;
}

/** The edit that takes the column's definition out of a CREATE TABLE (its line, when it has one of its own). */
function dropColumnEdit(text: string, create: CreateTableStatement, column: string): TextEdit | undefined {
  const at = create.columns.findIndex((c) => c.name.name === column);
  const def = create.columns[at];
  if (!def || def.inlinePrimaryKey) return undefined;
  const rest = restOfLineAfter(text, def.range.end);
  if (rest?.comma && startsLine(text, def.range.start)) {
    const start = lineStart(text, def.range.start);
    let end = rest.lineEnd;
    if (text.startsWith('\r\n', end)) end += 2;
    else if (text[end] === '\n' || text[end] === '\r') end += 1;
    return { start, end, newText: '' };
  }
  // On a shared line: the definition and the comma after it (or before it, for the last element).
  const after = /^\s*,\s*/.exec(text.slice(def.range.end));
  if (after) return { start: def.range.start, end: def.range.end + after[0].length, newText: '' };
  const before = /,\s*$/.exec(text.slice(create.range.start, def.range.start));
  if (!before) return undefined;
  return { start: def.range.start - before[0].length, end: def.range.end, newText: '' };
}

/** The `-- @cqlint` size hint of the moved column (`body.bytes=60000`) above the table: removed there, carried to the new table. */
function movedHint(
  text: string,
  comments: readonly Comment[] | undefined,
  create: CreateTableStatement,
  column: string,
): { edits: TextEdit[]; hint?: string } {
  if (!comments) return { edits: [] };
  const pattern = new RegExp(`\\s*\\b${column.replace(/[^A-Za-z0-9_]/g, '\\$&')}\\.bytes=\\S+`, 'i');
  for (const found of hintCommentsAbove(comments, text, create.range.start)) {
    const { start, end } = found.comment.range;
    const comment = text.slice(start, end);
    const m = pattern.exec(comment);
    if (!m) continue;
    const hint = m[0].trim();
    const left = comment.slice(0, m.index) + comment.slice(m.index + m[0].length);
    // A comment left with no hint is an error of its own (`@cqlint: no hints`): its line goes.
    if (/@cqlint\s*(\*\/)?\s*$/i.test(left)) {
      const lineAt = lineStart(text, start);
      let lineEnd = end;
      if (text.startsWith('\r\n', lineEnd)) lineEnd += 2;
      else if (text[lineEnd] === '\n' || text[lineEnd] === '\r') lineEnd += 1;
      return { edits: [{ start: lineAt, end: lineEnd, newText: '' }], hint };
    }
    return { edits: [{ start, end, newText: left }], hint };
  }
  return { edits: [] };
}

/** The CREATE TABLE of the new table: the key columns and the moved one, every key column in the partition key. */
function newTableStatement(
  text: string,
  create: CreateTableStatement,
  table: TableInfo,
  split: SplitPlan,
  qualified: string,
): string | undefined {
  const eol = lineBreakAt(text, create.range.start);
  const first = create.columns[0];
  const indent = first && startsLine(text, first.range.start) ? indentAt(text, first.range.start) : '    ';
  const columns = [...split.key, split.column].map((name) => table.columns.find((c) => c.name === name));
  if (columns.some((c) => !c)) return undefined;
  const lines = columns.map((c) => `${indent}${quoteName(c!.name)} ${c!.typeText}`);
  lines.push(`${indent}PRIMARY KEY ((${split.key.map(quoteName).join(', ')}))`);
  return `CREATE TABLE ${qualified} (${eol}${lines.join(`,${eol}`)}${eol});`;
}

/** The keyspace of a CREATE TABLE as written, else the table's (a migration file has no USE). */
function keyspaceOf(create: CreateTableStatement, table: TableInfo): string | undefined {
  return create.name.keyspace ? identifierText(create.name.keyspace) : table.keyspace && quoteName(table.keyspace);
}

/** `ks.posts_body` as the CREATE TABLE of the original writes its name (keyspace as written). */
function qualifiedNew(create: CreateTableStatement, table: TableInfo, split: SplitPlan): string {
  const keyspace = keyspaceOf(create, table);
  const bare = quoteName(bareName(split.table));
  return keyspace ? `${keyspace}.${bare}` : bare;
}

function titleOf(plan: PartitionPlan, rewrite: SplitRewrite): string {
  const n = rewrite.rewritten;
  const files = rewrite.files.size;
  const app = rewrite.application.length;
  const summary = n
    ? `; rewrites ${n} statement${n === 1 ? '' : 's'}${files > 1 ? ` in ${files} files` : ''}${app ? `, ${app} left to the application` : ''}`
    : '';
  return `Move ${planText(plan).replace(/ moved to /, ' to ')}${summary}${plan.cures || !plan.leaves ? '' : ` (leaves: ${plan.leaves})`}`;
}

function detailOf(plan: PartitionPlan, rewrite: SplitRewrite, relative: (path: string) => string): string[] {
  return [
    ...(rewrite.refused ? [refusedLine(relative, rewrite.refused.filePath, rewrite.refused.reason)] : []),
    ...sizingLines(plan),
    ...rewrite.application.map((a) => applicationLine(relative, a)),
  ];
}

/** Whether the split can be made on this table's definition: the column is defined in the CREATE, not in its key, and no view reads the table. */
function splittable(ctx: RefactorContext, split: SplitPlan): boolean {
  if (ctx.views?.length) return false;
  const def = ctx.create.columns.find((c) => c.name.name === split.column);
  return !!def && !def.inlinePrimaryKey && !def.isStatic;
}

/**
 * The fix that moves the plan's column to its table: the column out of the CREATE TABLE (and of its size
 * hint), the new table's CREATE after it, and every statement of the workspace rewritten. Undefined when the
 * table cannot take it (the column is not in its CREATE, a view reads the table).
 */
export function splitColumnFix(
  ctx: RefactorContext,
  plan: PartitionPlan,
  options: { preferred?: boolean; relative?: (path: string) => string } = {},
): FixOffer | undefined {
  const split = plan.split;
  if (!split || !splittable(ctx, split)) return undefined;
  const relative = options.relative ?? ((p: string) => p);
  const drop = dropColumnEdit(ctx.text, ctx.create, split.column);
  const qualified = qualifiedNew(ctx.create, ctx.table, split);
  const statement = newTableStatement(ctx.text, ctx.create, ctx.table, split, qualified);
  if (!drop || !statement) return undefined;
  const hint = movedHint(ctx.text, ctx.comments, ctx.create, split.column);
  const rewrite = rewriteStatements(ctx, ctx.statements, split, ctx.table, relative);
  const original = ctx.table.qualifiedName;
  const created = statementAfterEdit(
    ctx.text,
    ctx.create,
    [
      `${qualified}: ${quoteName(split.column)} of ${original}, moved to a table of its own (it was most of each row), read by the row's key; written beside each row of ${original}.`,
      `Moving the data: create this table, write both (the rewritten statements do), copy ${quoteName(split.column)} of the existing rows here, then drop it from ${original}.`,
      ...(hint.hint ? [`@cqlint ${hint.hint}`] : []),
    ],
    statement,
  );
  rewrite.files.add(ctx.filePath);
  const offer = deferredFix(
    {
      id: planId(plan),
      title: titleOf(plan, rewrite),
      kind: 'quickfix',
      ...(options.preferred && !rewrite.refused ? { isPreferred: true } : {}),
      safeForFixAll: false,
      plan,
      ...(rewrite.refused ? { refused: rewrite.refused } : {}),
    },
    ctx.filePath,
    () => {
      const byFile = new Map(rewrite.byFile);
      byFile.set(ctx.filePath, [drop, ...hint.edits, created, ...(byFile.get(ctx.filePath) ?? [])]);
      return byFile;
    },
    detailOf(plan, rewrite, relative),
  );
  return offer;
}

/**
 * The split on a table a migration created (docs/migrations.md): no migration is edited. The folder's next
 * migration creates the new table, the one after it drops the column from the original (applied once the
 * column is copied and the statements that use the new table are live: the drop loses the column's data);
 * the statements outside the folder are rewritten, those inside it (applied) are left as they are.
 */
export function splitMigrationFix(
  ctx: RefactorContext,
  target: MigrationTarget,
  plan: PartitionPlan,
  options: { preferred?: boolean; relative?: (path: string) => string } = {},
): FixOffer | undefined {
  const split = plan.split;
  if (
    !split ||
    ctx.views?.length ||
    !target.current.columns.some((c) => c.name === split.column && c.role === 'regular')
  )
    return undefined;
  const relative = options.relative ?? ((p: string) => p);
  const keyspace = keyspaceOf(ctx.create, ctx.table);
  const original = keyspace
    ? `${keyspace}.${identifierText(ctx.create.name.name)}`
    : identifierText(ctx.create.name.name);
  const qualified = qualifiedNew(ctx.create, ctx.table, split);
  const statement = newTableStatement(ctx.text, ctx.create, target.current, split, qualified);
  if (!statement) return undefined;
  const applied = new Set(target.folder.files);
  const movable = ctx.statements.filter((s) => !applied.has(s.filePath));
  const left = ctx.statements.filter((s) => applied.has(s.filePath));
  const rewrite = rewriteStatements(ctx, movable, split, target.current, relative);
  const eol = lineBreakAt(ctx.text, ctx.create.range.end);
  const hint = movedHint(ctx.text, ctx.comments, ctx.create, split.column).hint;
  const createPath = nextMigrationName(target.folder, bareName(split.table));
  const dropPath = nextMigrationName(
    { ...target.folder, files: [...target.folder.files, createPath] },
    `drop_${split.column}_from_${ctx.create.name.name.name}`,
  );
  const createdIn = baseName(ctx.filePath);
  const lines = (comments: string[]): string => comments.map((c) => `-- ${c}${eol}`).join('');
  const files: NewFile[] = [
    {
      filePath: createPath,
      text: `${lines([
        `${qualified}: ${quoteName(split.column)} of ${original} (created by ${createdIn}, which has run and is not edited), moved to a table of its own (it was most of each row), read by the row's key.`,
        `1. Apply this migration; 2. release the statements that write and read ${qualified} beside ${original}; 3. copy ${quoteName(split.column)} of the existing rows here (dsbulk unload of ${original} (${[...split.key, split.column].join(', ')}), load into ${qualified}); 4. apply ${baseName(dropPath)}.`,
        ...(hint ? [`@cqlint ${hint}`] : []),
      ])}${statement}${eol}`,
    },
    {
      filePath: dropPath,
      text: `${lines([
        `Drops ${quoteName(split.column)} from ${original}, now kept in ${qualified} (${baseName(createPath)}): apply it only once the column is copied there and the statements that read it from ${qualified} are live; its data in ${original} is gone after it.`,
      ])}ALTER TABLE ${original} DROP ${quoteName(split.column)};${eol}`,
    },
  ];
  const leftLines = left.map((s) =>
    migrationLine(
      relative,
      { filePath: s.filePath, line: ctx.lineOf?.(s.filePath, s.text, s.statement.range.start) },
      ctx.table.qualifiedName,
    ),
  );
  return deferredFix(
    {
      id: planId(plan),
      title: `Create migrations ${baseName(createPath)} and ${baseName(dropPath)}: ${titleOf(plan, rewrite).replace(/^Move /, 'move ')}`,
      kind: 'quickfix',
      ...(options.preferred && !rewrite.refused ? { isPreferred: true } : {}),
      safeForFixAll: false,
      newFiles: files,
      plan,
      ...(rewrite.refused ? { refused: rewrite.refused } : {}),
    },
    ctx.filePath,
    () => new Map(rewrite.byFile),
    [...detailOf(plan, rewrite, relative), ...leftLines],
  );
}
