// `unknown-column`: a column the table does not have, in a PRIMARY KEY, CLUSTERING ORDER BY, index,
// view, or SELECT/INSERT/UPDATE/DELETE. Only when the table is known.
import type { Expression, Identifier, Statement } from '../../../grammar/ast';
import { type TableInfo, hasColumn } from '../schema/model';
import type { RuleContext, MessageIdOf, RuleExamples, RuleModule } from './types';
import { namedTable, suggestColumn } from '../util/statements';
import type { FindingData } from '../findings/findings-data';

type MessageId = 'noColumn' | 'noColumnDidYouMean';

const PSEUDO_COLUMNS = new Set(['token', 'writetime', 'ttl', 'maxwritetime']);

function report(ctx: RuleContext<MessageId>, table: TableInfo, id: Identifier): void {
  if (hasColumn(table, id.name)) return;
  const suggestion = suggestColumn(id.name, table);
  ctx.report({
    messageId: suggestion ? 'noColumnDidYouMean' : 'noColumn',
    values: {
      kind: table.kind === 'view' ? 'view' : 'table',
      table: table.qualifiedName,
      column: id.text,
      ...(suggestion ? { suggestion } : {}),
    },
    range: id.range,
    data: {
      table: table.qualifiedName,
      column: id.name,
      ...(suggestion ? { suggestion } : {}),
      columns: table.columns.map((c) => c.name),
    } satisfies FindingData<'unknown-column'>,
    related: [{ filePath: table.filePath, range: table.nameRange, message: `${table.qualifiedName} is defined here` }],
  });
}

/** Column references inside an expression (selectors, values, relation sides). */
function columnRefs(expr: Expression | undefined, out: (id: Identifier) => void): void {
  if (!expr) return;
  switch (expr.kind) {
    case 'ColumnRef':
      out(expr.name);
      break;
    case 'FunctionCall':
      // token(pk), writetime(c), ttl(c), similarity_*(vec, [..]): arguments name columns
      for (const a of expr.args) columnRefs(a, out);
      break;
    case 'CastExpression':
      columnRefs(expr.expression, out);
      break;
    case 'TypeHint':
      break;
    case 'BinaryExpression':
      columnRefs(expr.left, out);
      columnRefs(expr.right, out);
      break;
    case 'UnaryExpression':
      columnRefs(expr.operand, out);
      break;
    case 'ElementAccess':
      columnRefs(expr.target, out);
      break;
    case 'SliceAccess':
      columnRefs(expr.target, out);
      break;
    case 'FieldAccess':
      columnRefs(expr.target, out);
      break;
    case 'TupleExpression':
      for (const e of expr.elements) columnRefs(e, out);
      break;
    default:
      break;
  }
}

function checkDefinition(stmt: Statement, ctx: RuleContext<MessageId>): void {
  if (stmt.kind !== 'CreateTable' && stmt.kind !== 'CreateMaterializedView') return;
  const table = ctx.definedBy(stmt);
  if (!table) return;
  if (stmt.kind === 'CreateTable' && stmt.like) return;
  if (stmt.kind === 'CreateMaterializedView' && !table.baseResolved) return;
  const baseTable = stmt.kind === 'CreateMaterializedView' ? ctx.tableFor(stmt.from, stmt.range.start) : undefined;
  if (stmt.kind === 'CreateMaterializedView' && !baseTable) return;
  const definedIn = baseTable ?? table;
  for (const id of stmt.primaryKey?.partitionKey ?? []) report(ctx, definedIn, id);
  for (const id of stmt.primaryKey?.clustering ?? []) report(ctx, definedIn, id);
  for (const o of stmt.options?.clusteringOrder ?? []) report(ctx, table, o.column);
  if (stmt.kind === 'CreateMaterializedView' && baseTable) {
    const inBase = (id: Identifier): void => report(ctx, baseTable, id);
    for (const sel of stmt.selectors) columnRefs(sel.expression, inBase);
    for (const rel of stmt.where) columnRefs(rel.left, inBase);
  }
}

/** A query or CREATE INDEX (the handlers below give it no other statement): the columns it names in its table. */
function checkStatement(stmt: Statement, ctx: RuleContext<MessageId>): void {
  const name = namedTable(stmt);
  if (!name) return;
  // Ambiguous names (several differing definitions elsewhere) resolve to nothing: no guessing.
  const table = ctx.tableFor(name, stmt.range.start);
  if (!table) return;
  if (table.kind === 'view' && !table.baseResolved) return;
  // Each column named, in the statement's order, checked as it is met (no list of them per statement).
  const check = (id: Identifier): void => {
    if (!id.quoted && PSEUDO_COLUMNS.has(id.name)) return;
    report(ctx, table, id);
  };
  switch (stmt.kind) {
    case 'Select': {
      for (const sel of stmt.selectors) columnRefs(sel.expression, check);
      for (const rel of stmt.where) columnRefs(rel.left, check);
      for (const id of stmt.groupBy) check(id);
      // ORDER BY may name a selector alias only in ANN queries; keep real columns.
      for (const o of stmt.orderBy)
        if (!stmt.selectors.some((s) => !!s.alias?.name && s.alias.name === o.column.name)) check(o.column);
      break;
    }
    case 'Insert':
      for (const id of stmt.columns) check(id);
      break;
    case 'Update':
      for (const a of stmt.assignments) columnRefs(a.target, check);
      for (const rel of stmt.where) columnRefs(rel.left, check);
      for (const rel of stmt.conditions) columnRefs(rel.left, check);
      break;
    case 'Delete':
      for (const s of stmt.selections) columnRefs(s, check);
      for (const rel of stmt.where) columnRefs(rel.left, check);
      for (const rel of stmt.conditions) columnRefs(rel.left, check);
      break;
    case 'CreateIndex':
      for (const t of stmt.targets) check(t.column);
      break;
    default:
      break;
  }
}

export const rule: RuleModule<MessageId> = {
  meta: {
    id: 'unknown-column',
    defaultSeverity: 'error',
    description: 'A column the table does not have (with a "did you mean" suggestion).',
    messages: {
      noColumn: '{{kind}} {{table}} has no column {{column}}',
      noColumnDidYouMean: '{{kind}} {{table}} has no column {{column}}; did you mean {{suggestion}}?',
    },
    scope: 'statement',
    batchMembers: true,
  },
  handlers: {
    CreateTable: checkDefinition,
    CreateMaterializedView: checkDefinition,
    Select: checkStatement,
    Insert: checkStatement,
    Update: checkStatement,
    Delete: checkStatement,
    CreateIndex: checkStatement,
  },
};

export const examples: RuleExamples<MessageIdOf<typeof rule>> = {
  valid: [
    'CREATE TABLE ks.t (id uuid, ts timestamp, v text, PRIMARY KEY (id, ts)) WITH CLUSTERING ORDER BY (ts DESC);',
    'CREATE TABLE ks.t (id uuid PRIMARY KEY, v text);\nSELECT id, v, writetime(v) FROM ks.t WHERE id = ?;',
    'SELECT nothing FROM ks.unknown_table WHERE whatever = 1;',
    {
      name: 'query resolves against another file',
      code: 'SELECT body FROM ks.posts WHERE id = ?;',
      files: { 'schema.cql': 'CREATE TABLE ks.posts (id uuid PRIMARY KEY, body text);' },
    },
    {
      name: 'USE context',
      code: "USE ks;\nCREATE TABLE t (id uuid PRIMARY KEY, v text);\nINSERT INTO ks.t (id, v) VALUES (uuid(), 'x');",
    },
    {
      name: 'ALTER ADD makes the column known',
      code: "CREATE TABLE ks.t (id uuid PRIMARY KEY);\nALTER TABLE ks.t ADD v text;\nUPDATE ks.t SET v = 'a' WHERE id = ?;",
    },
  ],
  invalid: [
    {
      code: 'CREATE TABLE ks.t (id uuid, ts timestamp, PRIMARY KEY (id, tss));',
      output: 'CREATE TABLE ks.t (id uuid, ts timestamp, PRIMARY KEY (id, ts));',
      at: 'tss',
      messageId: 'noColumnDidYouMean',
      data: { table: 'ks.t', column: 'tss', suggestion: 'ts' },
    },
    {
      code: 'CREATE TABLE ks.t (id uuid PRIMARY KEY, v text);\nSELECT vv FROM ks.t WHERE id = ?;',
      output: 'CREATE TABLE ks.t (id uuid PRIMARY KEY, v text);\nSELECT v FROM ks.t WHERE id = ?;',
      at: 'vv FROM',
      messageId: 'noColumnDidYouMean',
      data: { suggestion: 'v' },
      message: /did you mean v\?/,
    },
    {
      code: 'CREATE TABLE ks.t (id uuid PRIMARY KEY, v text);\nINSERT INTO ks.t (id, value) VALUES (?, ?);',
      // No column is close enough to guess: nothing to fix.
      output: null,
      at: 'value',
      messageId: 'noColumn',
      data: { column: 'value', suggestion: undefined },
    },
    {
      name: 'dropped column',
      code: 'CREATE TABLE ks.t (id uuid PRIMARY KEY, v text);\nALTER TABLE ks.t DROP v;\nSELECT v FROM ks.t WHERE id = ?;',
      at: 'v FROM',
      messageId: 'noColumn',
    },
    {
      code: 'CREATE TABLE ks.t (id uuid PRIMARY KEY, v text);\nCREATE INDEX ON ks.t (vv);',
      output: 'CREATE TABLE ks.t (id uuid PRIMARY KEY, v text);\nCREATE INDEX ON ks.t (v);',
      at: 'vv',
      messageId: 'noColumnDidYouMean',
      data: { suggestion: 'v' },
    },
    {
      code: 'CREATE TABLE ks.t (id uuid PRIMARY KEY, title text);\nSELECT titel FROM ks.t WHERE id = ?;',
      output: 'CREATE TABLE ks.t (id uuid PRIMARY KEY, title text);\nSELECT title FROM ks.t WHERE id = ?;',
      at: 'titel',
      messageId: 'noColumnDidYouMean',
      data: { suggestion: 'title' },
      message: /did you mean title\?/,
    },
    {
      code: 'CREATE TABLE ks.t (id uuid, c int, PRIMARY KEY (id, c)) WITH CLUSTERING ORDER BY (cc DESC);',
      output: 'CREATE TABLE ks.t (id uuid, c int, PRIMARY KEY (id, c)) WITH CLUSTERING ORDER BY (c DESC);',
      at: 'cc DESC',
      messageId: 'noColumnDidYouMean',
    },
    {
      name: 'other file',
      code: 'SELECT id FROM ks.posts WHERE idd = ?;',
      output: 'SELECT id FROM ks.posts WHERE id = ?;',
      at: 'idd',
      messageId: 'noColumnDidYouMean',
      files: { 'schema.cql': 'CREATE TABLE ks.posts (id uuid PRIMARY KEY, body text);' },
      data: { suggestion: 'id' },
    },
  ],
};
