// Facts read off CQL statements and tables, shared by rules, fixes and the size estimate: WHERE clause
// analysis, column suggestions, statement walking, key text.
import type {
  DeleteStatement,
  Expression,
  Identifier,
  InsertStatement,
  QualifiedName,
  Relation,
  SelectStatement,
  Statement,
  UpdateStatement,
} from '../../../grammar/ast';
import { nearest } from './edit-distance';

/** The statements that read or write a table's rows by key. */
export type KeyedStatement = InsertStatement | UpdateStatement | DeleteStatement | SelectStatement;

/** The statement's table name. */
export function statementTable(stmt: KeyedStatement): QualifiedName {
  return stmt.kind === 'Select' ? stmt.from : stmt.table;
}

/**
 * The table a statement names without defining or changing it: a query's, CREATE INDEX's, a materialized
 * view's base, TRUNCATE's (none for any other statement). The schema counts these as the file's references;
 * unknown-column checks the columns of the queries and of CREATE INDEX against it.
 */
export function namedTable(stmt: Statement): QualifiedName | undefined {
  switch (stmt.kind) {
    case 'Select':
    case 'CreateMaterializedView':
      return stmt.from;
    case 'Insert':
    case 'Update':
    case 'Delete':
    case 'CreateIndex':
      return stmt.table;
    case 'Truncate':
      return stmt.name;
    default:
      return undefined;
  }
}

/** What these helpers read of a table (schema/model's TableInfo has it): util sits below schema. */
interface KeyedTable<C extends { name: string }> {
  columns: readonly C[];
  partitionKey: readonly C[];
  clustering: readonly C[];
}

interface ColumnRestriction {
  /** '=' (one value), 'IN' (values counted), 'range', 'token', 'other' (CONTAINS, LIKE, !=, ...). */
  kind: 'eq' | 'in' | 'range' | 'other';
  /** Number of values for IN lists; undefined for `IN ?`. */
  inCount?: number;
  relation: Relation;
}

interface WhereAnalysis {
  /** Restrictions by column name. */
  byColumn: Map<string, ColumnRestriction[]>;
  /** A `token(...)` relation is present. */
  token: boolean;
}

function columnOf(expr: Expression): Identifier | undefined {
  return expr.kind === 'ColumnRef' ? expr.name : undefined;
}

export function analyseWhere(where: readonly Relation[]): WhereAnalysis {
  const byColumn = new Map<string, ColumnRestriction[]>();
  let token = false;
  const add = (name: string, r: ColumnRestriction): void => {
    const list = byColumn.get(name);
    if (list) list.push(r);
    else byColumn.set(name, [r]);
  };
  for (const rel of where) {
    if (rel.left.kind === 'FunctionCall' && rel.left.name.name.name.toLowerCase() === 'token') {
      token = true;
      continue;
    }
    const kind: ColumnRestriction['kind'] =
      rel.operator === '='
        ? 'eq'
        : rel.operator === 'IN'
          ? 'in'
          : rel.operator === '<' ||
              rel.operator === '<=' ||
              rel.operator === '>' ||
              rel.operator === '>=' ||
              rel.operator === 'BETWEEN'
            ? 'range'
            : 'other';
    if (rel.left.kind === 'TupleExpression') {
      // (a, b) = (1, 2) / (a, b) IN ((..), (..)) / (a, b) > (..)
      for (const el of rel.left.elements) {
        const id = columnOf(el);
        if (id)
          add(id.name, {
            kind,
            relation: rel,
            inCount: kind === 'in' && rel.inList !== false ? rel.right.length : undefined,
          });
      }
      continue;
    }
    const id = columnOf(rel.left);
    if (id) {
      add(id.name, {
        kind,
        relation: rel,
        inCount: kind === 'in' && rel.inList !== false ? rel.right.length : undefined,
      });
    } else if (rel.left.kind === 'ElementAccess' || rel.left.kind === 'FieldAccess') {
      const target = columnOf(rel.left.target);
      if (target) add(target.name, { kind: 'other', relation: rel });
    }
  }
  return { byColumn, token };
}

/** Partition key columns not restricted by = or IN. */
export function unrestrictedPartitionColumns(
  table: Pick<KeyedTable<{ name: string }>, 'partitionKey'>,
  where: WhereAnalysis,
): string[] {
  return table.partitionKey
    .filter((c) => !(where.byColumn.get(c.name) ?? []).some((r) => r.kind === 'eq' || r.kind === 'in'))
    .map((c) => c.name);
}

/** The closest column name, when close enough to be a plausible typo. */
export function suggestColumn(
  name: string,
  table: Pick<KeyedTable<{ name: string }>, 'columns'> | readonly string[],
): string | undefined {
  const names = isNameList(table) ? table : table.columns.map((c) => c.name);
  const found = nearest(name, names);
  if (!found) return undefined;
  const limit = Math.max(1, Math.min(3, Math.floor(Math.max(name.length, found.best.length) / 3)));
  return found.distance <= limit ? found.best : undefined;
}

function isNameList(value: unknown): value is readonly string[] {
  return Array.isArray(value);
}

export function isSystemKeyspace(keyspace: string | undefined): boolean {
  return !!keyspace && (keyspace.startsWith('system') || keyspace === 'dse_system');
}

/** Top-level statements plus the statements inside batches. */
export function* allStatements(statements: readonly Statement[]): Generator<Statement> {
  for (const s of statements) {
    yield s;
    if (s.kind === 'Batch') yield* s.statements;
  }
}

/** The primary key columns: partition key, then clustering columns. */
export function primaryKeyColumns<C extends { name: string }>(
  table: Pick<KeyedTable<C>, 'partitionKey' | 'clustering'>,
): C[] {
  return [...table.partitionKey, ...table.clustering];
}

/** The source text of an expression, whitespace-normalised (to compare values across statements). */
export function exprText(text: string, expr: Expression): string {
  return text.slice(expr.range.start, expr.range.end).replace(/\s+/g, ' ').trim();
}

/** `t (a, b)` → "((a, b), c)"-style key text. */
export function keyText(partition: readonly string[], clustering: readonly string[]): string {
  const pk = partition.length === 1 ? partition[0]! : `(${partition.join(', ')})`;
  return clustering.length ? `(${pk}, ${clustering.join(', ')})` : `(${pk})`;
}
