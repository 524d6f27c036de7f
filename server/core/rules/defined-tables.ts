// Handlers (RuleModule.handlers) for the tables a rule's file defines, read through the rule context.
import type { CreateMaterializedViewStatement, CreateTableStatement } from '../../../grammar/ast';
import type { TableInfo } from '../schema/model';
import type { RuleContext } from './types';

/** A CreateTable handler calling `visit` with the table the statement defines, as written (not ALTERed). */
export function withCreatedTable<M extends string>(
  visit: (stmt: CreateTableStatement, table: TableInfo, ctx: RuleContext<M>) => void,
): (stmt: CreateTableStatement, ctx: RuleContext<M>) => void {
  return (stmt, ctx) => {
    const table = ctx.definedBy(stmt);
    if (table) visit(stmt, table, ctx);
  };
}

/**
 * A CreateTable / CreateMaterializedView handler calling `visit` with the table or view the statement
 * defines, as its ALTERs left it (the shape that holds data).
 */
type TableOrView = CreateTableStatement | CreateMaterializedViewStatement;
export function withLatestTableOrView<M extends string>(
  visit: (stmt: TableOrView, table: TableInfo, ctx: RuleContext<M>) => void,
): (stmt: TableOrView, ctx: RuleContext<M>) => void {
  return (stmt, ctx) => {
    const defined = ctx.definedBy(stmt);
    if (defined) visit(stmt, ctx.latest(defined), ctx);
  };
}

/**
 * A CreateTable handler calling `visit` with the table (not views) as its ALTERs left it; `clustered`
 * keeps only tables with clustering columns, read from the statement before any lookup (a primary key
 * cannot be altered).
 */
export function withLatestCreatedTable<M extends string>(
  clustered: boolean,
  visit: (stmt: CreateTableStatement, table: TableInfo, ctx: RuleContext<M>) => void,
): (stmt: CreateTableStatement, ctx: RuleContext<M>) => void {
  return (stmt, ctx) => {
    if (clustered && !stmt.primaryKey?.clustering.length) return;
    const defined = ctx.definedBy(stmt);
    if (!defined) return;
    const table = ctx.latest(defined);
    // A key naming a column the table does not define has no such clustering column.
    if (!clustered || table.clustering.length) visit(stmt, table, ctx);
  };
}
