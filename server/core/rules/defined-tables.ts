// The tables a rule's file defines, read through the rule context.
import type { CreateMaterializedViewStatement, CreateTableStatement } from '../../../grammar/ast';
import type { TableInfo } from '../schema/model';
import type { RuleContext } from './types';

/** The tables this file's CREATE TABLE statements define (not views), in statement order. */
export function* createdTables(ctx: RuleContext): Generator<TableInfo> {
  for (const stmt of ctx.parse.statements) {
    if (stmt.kind !== 'CreateTable') continue;
    const table = ctx.definedBy(stmt);
    if (table) yield table;
  }
}

/**
 * Each CREATE TABLE and CREATE MATERIALIZED VIEW of this file with the table it defines, as its ALTERs
 * left it (the shape that holds data), in statement order.
 */
export function* definedTablesAndViews(ctx: RuleContext): Generator<{ stmt: CreateTableStatement | CreateMaterializedViewStatement; table: TableInfo }> {
  for (const stmt of ctx.parse.statements) {
    if (stmt.kind !== 'CreateTable' && stmt.kind !== 'CreateMaterializedView') continue;
    const defined = ctx.definedBy(stmt);
    if (defined) yield { stmt, table: ctx.latest(defined) };
  }
}

/**
 * Calls `visit` for each CREATE TABLE of this file (not views) with the table as its ALTERs left it;
 * `clustered` keeps only tables with clustering columns, read from the statement before any lookup (a
 * primary key cannot be altered). A plain loop: statement rules run once per statement of the file.
 */
export function forEachCreatedTable(ctx: RuleContext, clustered: boolean, visit: (stmt: CreateTableStatement, table: TableInfo) => void): void {
  for (const stmt of ctx.parse.statements) {
    if (stmt.kind !== 'CreateTable' || (clustered && !stmt.primaryKey?.clustering.length)) continue;
    const defined = ctx.definedBy(stmt);
    if (!defined) continue;
    const table = ctx.latest(defined);
    // A key naming a column the table does not define has no such clustering column.
    if (!clustered || table.clustering.length) visit(stmt, table);
  }
}
