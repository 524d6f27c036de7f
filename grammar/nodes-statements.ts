// The AST's statement nodes, one constructor per statement shape, from parts already built (grammar/nodes.ts
// makes the ranges, strings, names, expressions and clauses). Both ways to an AST use them: the CST builder
// (grammar/builder*.ts) and the direct reading (grammar/direct*.ts), so a statement has the same fields in the
// same order whichever way it was made.
import type { IToken } from './chevrotain';
import type * as A from './ast';
import { ownString, decodeString, inlinePrimaryKeyOf, SelectClause } from './nodes';

// ---------------------------------------------------------------------------------------------
// Statements

/** What every statement has: its range (`;` included) and whether it ends with `;`. */
export interface Base {
  range: A.SourceRange;
  terminated: boolean;
}

export interface SelectParts {
  json: boolean;
  distinct: boolean;
  /** Empty for `*`. */
  selectors: A.Selector[];
  star: boolean;
  from: A.QualifiedName;
  where: A.Relation[];
  whereRange: A.SourceRange | undefined;
  groupItems: A.Expression[];
  orderBy: A.Ordering[];
  perPartitionLimit: A.Expression | undefined;
  limit: A.Expression | undefined;
  allowFilteringRange: A.SourceRange | undefined;
}

export function selectOf(base: Base, p: SelectParts): A.SelectStatement {
  const { json, distinct, selectors, star, from, where, orderBy, whereRange } = p;
  const groupBy = p.groupItems.length ? p.groupItems.filter((g): g is A.ColumnRef => g.kind === 'ColumnRef').map((g) => g.name) : [];
  const allowFiltering = p.allowFilteringRange !== undefined;
  // The usual query (a WHERE, nothing after it) in one literal: one shape, its fields kept in the object.
  if (whereRange && !p.groupItems.length && !p.perPartitionLimit && !p.limit && !allowFiltering) {
    return { kind: 'Select', range: base.range, terminated: base.terminated, json, distinct, selectors, star, from, where, groupBy, orderBy, allowFiltering, whereRange };
  }
  const stmt: A.SelectStatement = { kind: 'Select', range: base.range, terminated: base.terminated, json, distinct, selectors, star, from, where, groupBy, orderBy, allowFiltering };
  if (whereRange) stmt.whereRange = whereRange;
  if (p.groupItems.length) stmt.groupByExpressions = p.groupItems;
  if (p.perPartitionLimit) stmt.perPartitionLimit = p.perPartitionLimit;
  if (p.limit) stmt.limit = p.limit;
  if (p.allowFilteringRange) stmt.allowFilteringRange = p.allowFilteringRange;
  return stmt;
}

export interface InsertParts {
  table: A.QualifiedName;
  columns: A.Identifier[];
  values: A.Expression[];
  ifNotExists: boolean;
  using: A.UsingClause[];
  columnsRange: A.SourceRange | undefined;
  valuesRange: A.SourceRange | undefined;
  /** `INSERT ... JSON value [DEFAULT NULL|UNSET]`. */
  json: A.Expression | undefined;
  jsonDefault: A.InsertStatement['jsonDefault'];
}

export function insertOf(base: Base, p: InsertParts): A.InsertStatement {
  const { table, columns, values, ifNotExists, using, columnsRange, valuesRange } = p;
  // The usual INSERT ... VALUES in one literal: one shape, its fields kept in the object.
  if (columnsRange && valuesRange && !p.json) return { kind: 'Insert', range: base.range, terminated: base.terminated, table, columns, values, ifNotExists, using, columnsRange, valuesRange };
  const stmt: A.InsertStatement = { kind: 'Insert', range: base.range, terminated: base.terminated, table, columns, values, ifNotExists, using };
  if (columnsRange) stmt.columnsRange = columnsRange;
  if (valuesRange) stmt.valuesRange = valuesRange;
  if (p.json) {
    stmt.json = p.json;
    if (p.jsonDefault) stmt.jsonDefault = p.jsonDefault;
  }
  return stmt;
}

/** What UPDATE and DELETE have in common: the table, USING, WHERE and IF. */
export interface WriteParts {
  table: A.QualifiedName;
  using: A.UsingClause[];
  where: A.Relation[];
  whereRange: A.SourceRange | undefined;
  conditions: A.Relation[];
  ifExists: boolean;
}

export interface UpdateParts extends WriteParts {
  assignments: A.Assignment[];
}

export function updateOf(base: Base, p: UpdateParts): A.UpdateStatement {
  const { whereRange } = p;
  // With its WHERE (the usual case) in the literal: one shape, kept in the object (the same field order).
  return whereRange
    ? { kind: 'Update', range: base.range, terminated: base.terminated, table: p.table, using: p.using, assignments: p.assignments, where: p.where, conditions: p.conditions, ifExists: p.ifExists, whereRange }
    : { kind: 'Update', range: base.range, terminated: base.terminated, table: p.table, using: p.using, assignments: p.assignments, where: p.where, conditions: p.conditions, ifExists: p.ifExists };
}

export interface DeleteParts extends WriteParts {
  selections: A.Expression[];
}

export function deleteOf(base: Base, p: DeleteParts): A.DeleteStatement {
  const { whereRange } = p;
  // As updateOf: the WHERE range in the literal when there is one.
  return whereRange
    ? { kind: 'Delete', range: base.range, terminated: base.terminated, selections: p.selections, table: p.table, using: p.using, where: p.where, conditions: p.conditions, ifExists: p.ifExists, whereRange }
    : { kind: 'Delete', range: base.range, terminated: base.terminated, selections: p.selections, table: p.table, using: p.using, where: p.where, conditions: p.conditions, ifExists: p.ifExists };
}

export function batchOf(base: Base, batchType: A.BatchStatement['batchType'], using: A.UsingClause[], statements: A.BatchStatement['statements']): A.BatchStatement {
  return { kind: 'Batch', range: base.range, terminated: base.terminated, batchType, using, statements };
}

/** A CREATE TABLE without its body, columns and options: the caller adds them (addTableElement, `options`). */
export function createTableOf(base: Base, table: IToken, name: A.QualifiedName, ifNotExists: boolean): A.CreateTableStatement {
  return {
    kind: 'CreateTable',
    range: base.range,
    terminated: base.terminated,
    columnFamily: table.image.toLowerCase() === 'columnfamily',
    name,
    ifNotExists,
    columns: [],
  };
}

/** A column definition of a CREATE TABLE body; the first primary key (inline or clause) is the table's. */
export function addColumn(stmt: A.CreateTableStatement, column: A.ColumnDefinition, primaryKeyRange: () => A.SourceRange): void {
  stmt.columns.push(column);
  if (column.inlinePrimaryKey && !stmt.primaryKey) stmt.primaryKey = inlinePrimaryKeyOf(column, primaryKeyRange());
}

export function createTypeOf(base: Base, name: A.QualifiedName, ifNotExists: boolean, fields: A.TypeField[]): A.CreateTypeStatement {
  return { kind: 'CreateType', range: base.range, terminated: base.terminated, name, ifNotExists, fields };
}

export function createKeyspaceOf(base: Base, name: A.Identifier, ifNotExists: boolean, properties: A.Property[]): A.CreateKeyspaceStatement {
  return { kind: 'CreateKeyspace', range: base.range, terminated: base.terminated, name, ifNotExists, properties };
}

export function indexTargetOf(column: A.Identifier, kind: IToken | undefined, range: A.SourceRange): A.IndexTarget {
  const indexKind = kind === undefined ? 'simple' : (kind.tokenType.name.toLowerCase() as A.IndexTarget['indexKind']);
  return { kind: 'IndexTarget', column, indexKind, range };
}

export interface CreateIndexParts {
  custom: boolean;
  ifNotExists: boolean;
  table: A.QualifiedName;
  targets: A.IndexTarget[];
  properties: A.Property[];
  name: A.Identifier | undefined;
  /** The `USING '...'` string token. */
  using: IToken | undefined;
}

export function createIndexOf(base: Base, p: CreateIndexParts): A.CreateIndexStatement {
  const stmt: A.CreateIndexStatement = {
    kind: 'CreateIndex',
    range: base.range,
    terminated: base.terminated,
    custom: p.custom,
    ifNotExists: p.ifNotExists,
    table: p.table,
    targets: p.targets,
    properties: p.properties,
  };
  if (p.name) stmt.name = p.name;
  if (p.using) stmt.using = ownString(decodeString(p.using.image));
  return stmt;
}

export interface CreateMaterializedViewParts {
  name: A.QualifiedName;
  ifNotExists: boolean;
  clause: SelectClause;
  from: A.QualifiedName;
  where: A.Relation[];
  primaryKey: A.PrimaryKey;
  options: A.TableOptions | undefined;
}

export function createMaterializedViewOf(base: Base, p: CreateMaterializedViewParts): A.CreateMaterializedViewStatement {
  return {
    kind: 'CreateMaterializedView',
    range: base.range,
    terminated: base.terminated,
    name: p.name,
    ifNotExists: p.ifNotExists,
    ...p.clause,
    from: p.from,
    where: p.where,
    primaryKey: p.primaryKey,
    ...(p.options ? { options: p.options } : {}),
  };
}

export interface CreateFunctionParts {
  orReplace: boolean;
  ifNotExists: boolean;
  name: A.QualifiedName;
  arguments: A.FunctionArgument[];
  calledOnNullInput: boolean;
  returnType: A.CqlType;
  language: A.Identifier;
  body: A.Literal;
}

export function createFunctionOf(base: Base, p: CreateFunctionParts): A.CreateFunctionStatement {
  return {
    kind: 'CreateFunction',
    range: base.range,
    terminated: base.terminated,
    orReplace: p.orReplace,
    ifNotExists: p.ifNotExists,
    name: p.name,
    arguments: p.arguments,
    calledOnNullInput: p.calledOnNullInput,
    returnType: p.returnType,
    language: p.language,
    body: p.body,
  };
}

export function functionArgumentOf(name: A.Identifier, type: A.CqlType, range: A.SourceRange): A.FunctionArgument {
  return { kind: 'FunctionArgument', name, type, range };
}

export function alterTableOf(base: Base, name: A.QualifiedName, ifExists: boolean, action: A.AlterTableAction): A.AlterTableStatement {
  return { kind: 'AlterTable', range: base.range, terminated: base.terminated, name, ifExists, action };
}

export function alterColumnTypeOf(ifExists: boolean, column: A.Identifier, type: A.CqlType, range: A.SourceRange): A.AlterTableAction {
  return { kind: 'AlterColumnType', ifExists, column, type, range };
}

/** `ALTER column MASKED WITH ...`, or without a mask `ALTER column DROP MASKED`. */
export function alterColumnMaskOf(ifExists: boolean, column: A.Identifier, mask: A.MaskClause | undefined, range: A.SourceRange): A.AlterTableAction {
  return { kind: 'AlterColumnMask', ifExists, column, ...(mask ? { mask } : {}), dropMask: !mask, range };
}

export function addColumnsOf(ifNotExists: boolean, columns: A.ColumnDefinition[], range: A.SourceRange): A.AlterTableAction {
  return { kind: 'AddColumns', ifNotExists, columns, range };
}

export function dropColumnsOf(ifExists: boolean, columns: A.Identifier[], timestamp: A.Expression | undefined, range: A.SourceRange): A.AlterTableAction {
  return { kind: 'DropColumns', ifExists, columns, ...(timestamp ? { timestamp } : {}), range };
}

export function renameColumnsOf(ifExists: boolean, renames: { from: A.Identifier; to: A.Identifier }[], range: A.SourceRange): A.AlterTableAction {
  return { kind: 'RenameColumns', ifExists, renames, range };
}

export function withOptionsOf(options: A.TableOptions, range: A.SourceRange): A.AlterTableAction {
  return { kind: 'WithOptions', options, range };
}

/** `DROP TABLE|INDEX|TYPE|MATERIALIZED VIEW [IF EXISTS] name`. */
export function dropOf<K extends 'DropTable' | 'DropIndex' | 'DropType' | 'DropMaterializedView'>(kind: K, base: Base, name: A.QualifiedName, ifExists: boolean): A.Statement & { kind: K } {
  return { kind, range: base.range, terminated: base.terminated, name, ifExists } as A.Statement & { kind: K };
}

/** A statement modelled by its words (`CREATE ROLE`, `GRANT`, ...) and the names it mentions, in source order. */
export function otherOf(base: Base, statementType: string, names: (A.Identifier | A.QualifiedName)[]): A.OtherStatement {
  return { kind: 'Other', range: base.range, terminated: base.terminated, statementType, names };
}

export function alterKeyspaceOf(base: Base, name: A.Identifier, ifExists: boolean, properties: A.Property[]): A.AlterKeyspaceStatement {
  return { kind: 'AlterKeyspace', range: base.range, terminated: base.terminated, name, ifExists, properties };
}

export function createTriggerOf(base: Base, ifNotExists: boolean, name: A.Identifier, table: A.QualifiedName, using: A.Literal): A.CreateTriggerStatement {
  return { kind: 'CreateTrigger', range: base.range, terminated: base.terminated, ifNotExists, name, table, using };
}

export function dropKeyspaceOf(base: Base, name: A.Identifier, ifExists: boolean): A.DropKeyspaceStatement {
  return { kind: 'DropKeyspace', range: base.range, terminated: base.terminated, name, ifExists };
}

/** `DROP FUNCTION|AGGREGATE [IF EXISTS] name [(types)]`. */
export function dropFunctionOf(kind: 'DropFunction' | 'DropAggregate', base: Base, ifExists: boolean, name: A.QualifiedName, argumentTypes: A.CqlType[] | undefined): A.DropFunctionStatement | A.DropAggregateStatement {
  const stmt: A.DropFunctionStatement | A.DropAggregateStatement = { kind, range: base.range, terminated: base.terminated, ifExists, name };
  if (argumentTypes) stmt.argumentTypes = argumentTypes;
  return stmt;
}

export function dropTriggerOf(base: Base, ifExists: boolean, name: A.Identifier, table: A.QualifiedName): A.DropTriggerStatement {
  return { kind: 'DropTrigger', range: base.range, terminated: base.terminated, ifExists, name, table };
}

export function useOf(base: Base, keyspace: A.Identifier): A.UseStatement {
  return { kind: 'Use', range: base.range, terminated: base.terminated, keyspace };
}

export function truncateOf(base: Base, name: A.QualifiedName): A.TruncateStatement {
  return { kind: 'Truncate', range: base.range, terminated: base.terminated, name };
}
