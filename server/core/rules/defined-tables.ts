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
