// CST -> AST: turns the Chevrotain CST of one statement into the typed AST of grammar/ast.ts, with exact
// source ranges (0-based offsets, end exclusive). The nodes themselves are made in grammar/nodes.ts, which
// grammar/direct.ts shares for the statements it reads straight from their tokens.
//
// This file builds the queries (SELECT, INSERT, UPDATE, DELETE, BATCH) and dispatches every statement; the schema
// statements are built in grammar/builder-ddl.ts, the parts all of them share in grammar/builder-parts.ts.
import type { CstNode, IToken } from './chevrotain';
import type * as A from './ast';
import type {
  BatchStatementCstNode, CqlStatementCstNode, DeleteStatementCstNode, InsertStatementCstNode, SelectStatementCstNode, UpdateStatementCstNode,
} from './cst';
import { literalFromToken, orderingOf, tokenRange } from './nodes';
import { type Base, type WriteParts, batchOf, truncateOf, useOf, deleteOf, insertOf, selectOf, updateOf } from './nodes-statements';
import {
  firstOf, lastOf, rangeOf, node, nodes, tok, toks, has, identifier, qualifiedName, buildExpression, buildBindMarker, buildIntValue, buildSelectors, buildWhere, buildUsing, buildTarget, buildAssignment, buildConditions,
} from './builder-parts';
import { buildAlter, buildCreate, buildDrop, buildOther, otherStatementType } from './builder-ddl';

// ---------------------------------------------------------------------------------------------
// Statements

function buildSelect(n: SelectStatementCstNode, base: Base): A.SelectStatement {
  const { selectors, star } = buildSelectors(node(n, 'selectClause')!);
  const perPartition = node(n, 'perPartitionLimit');
  const limit = node(n, 'limitClause');
  const allowTok = tok(n, 'ALLOW');
  const where = node(n, 'whereClause');
  return selectOf(base, {
    json: has(n, 'JSON'),
    distinct: has(n, 'DISTINCT'),
    selectors,
    star,
    from: qualifiedName(node(n, 'tableName')!),
    where: buildWhere(where),
    whereRange: where ? rangeOf(where) : undefined,
    groupItems: nodes(n, 'groupByItem').map((g) => buildExpression(node(g, 'expression')!)),
    orderBy: nodes(n, 'ordering').map((o) => {
      const ann = node(o, 'expression');
      return orderingOf(identifier(node(o, 'columnName')!), rangeOf(o), has(o, 'DESC') ? 'DESC' : has(o, 'ASC') ? 'ASC' : undefined, ann ? buildExpression(ann) : undefined);
    }),
    perPartitionLimit: perPartition ? buildIntValue(node(perPartition, 'intValue')!) : undefined,
    limit: limit ? buildIntValue(node(limit, 'intValue')!) : undefined,
    allowFilteringRange: allowTok ? tokenRange(allowTok, tok(n, 'FILTERING')!) : undefined,
  });
}

function buildInsert(n: InsertStatementCstNode, base: Base): A.InsertStatement {
  const cols = node(n, 'insertColumns');
  const vals = node(n, 'insertValues');
  const json = has(n, 'JSON');
  const str = tok(n, 'StringLiteral');
  return insertOf(base, {
    table: qualifiedName(node(n, 'tableName')!),
    columns: cols ? nodes(cols, 'columnName').map(identifier) : [],
    values: vals ? nodes(vals, 'expression').map(buildExpression) : [],
    ifNotExists: has(n, 'ifNotExists'),
    using: buildUsing(node(n, 'usingClause')),
    columnsRange: cols ? rangeOf(cols) : undefined,
    valuesRange: vals ? rangeOf(vals) : undefined,
    json: !json ? undefined : str ? literalFromToken(str) : buildBindMarker(node(n, 'bindMarker')!),
    jsonDefault: !has(n, 'DEFAULT') ? undefined : has(n, 'UNSET') ? 'UNSET' : 'NULL',
  });
}

/** What UPDATE and DELETE share: the table, USING, WHERE and IF. */
function writeParts(n: UpdateStatementCstNode | DeleteStatementCstNode): WriteParts {
  const where = node(n, 'whereClause');
  const ifClause = node(n, 'ifClause');
  return {
    table: qualifiedName(node(n, 'tableName')!),
    using: buildUsing(node(n, 'usingClause')),
    where: buildWhere(where),
    whereRange: where ? rangeOf(where) : undefined,
    conditions: buildConditions(ifClause),
    ifExists: ifClause !== undefined && has(ifClause, 'EXISTS'),
  };
}

function buildUpdate(n: UpdateStatementCstNode, base: Base): A.UpdateStatement {
  return updateOf(base, { ...writeParts(n), assignments: nodes(n, 'assignment').map(buildAssignment) });
}

function buildDelete(n: DeleteStatementCstNode, base: Base): A.DeleteStatement {
  return deleteOf(base, { ...writeParts(n), selections: nodes(n, 'deleteSelection').map(buildTarget) });
}

function buildBatch(n: BatchStatementCstNode, base: Base): A.BatchStatement {
  const semis = toks(n, 'Semicolon');
  const inner: { node: CstNode; build: (b: Base) => A.InsertStatement | A.UpdateStatement | A.DeleteStatement }[] = [
    ...nodes(n, 'insertStatement').map((s) => ({ node: s, build: (b: Base) => buildInsert(s, b) })),
    ...nodes(n, 'updateStatement').map((s) => ({ node: s, build: (b: Base) => buildUpdate(s, b) })),
    ...nodes(n, 'deleteStatement').map((s) => ({ node: s, build: (b: Base) => buildDelete(s, b) })),
  ].sort((a, b) => firstOf(a.node).startOffset - firstOf(b.node).startOffset);
  const statements = inner.map((s, i) => {
    const end = lastOf(s.node).endOffset!;
    const next = inner[i + 1];
    const nextStart = next ? firstOf(next.node).startOffset : Infinity;
    const semi = semis.find((t) => t.startOffset > end && t.startOffset < nextStart);
    const range = semi ? tokenRange(firstOf(s.node), semi) : rangeOf(s.node);
    return s.build({ range, terminated: !!semi });
  });
  return batchOf(base, has(n, 'UNLOGGED') ? 'UNLOGGED' : has(n, 'COUNTER') ? 'COUNTER' : 'LOGGED', buildUsing(node(n, 'usingClause')), statements);
}

/**
 * Builds the AST of one parsed statement. `tokens` are the statement's tokens (its first token starts
 * the statement's range, its last ends it, `;` included).
 */
export function buildStatement(cst: CqlStatementCstNode, tokens: IToken[]): A.Statement {
  const terminated = has(cst, 'Semicolon');
  const base: Base = { range: tokenRange(tokens[0], tokens[tokens.length - 1]), terminated };
  const c = cst.children;
  if (c.selectStatement) return buildSelect(c.selectStatement[0], base);
  if (c.insertStatement) return buildInsert(c.insertStatement[0], base);
  if (c.updateStatement) return buildUpdate(c.updateStatement[0], base);
  if (c.deleteStatement) return buildDelete(c.deleteStatement[0], base);
  if (c.batchStatement) return buildBatch(c.batchStatement[0], base);
  if (c.useStatement) return useOf(base, identifier(node(c.useStatement[0], 'keyspaceName')!));
  if (c.truncateStatement) return truncateOf(base, qualifiedName(node(c.truncateStatement[0], 'tableName')!));
  if (c.createStatement) return buildCreate(c.createStatement[0], base, otherStatementType(c.createStatement[0], tokens));
  if (c.alterStatement) return buildAlter(c.alterStatement[0], base, otherStatementType(c.alterStatement[0], tokens));
  if (c.dropStatement) return buildDrop(c.dropStatement[0], base, otherStatementType(c.dropStatement[0], tokens));
  // GRANT, REVOKE, LIST, DESCRIBE, ADD IDENTITY: modelled as OtherStatement.
  const s = (c.grantStatement ?? c.revokeStatement ?? c.listStatement ?? c.describeStatement ?? c.addIdentityStatement)![0];
  return buildOther(s, base, otherStatementType(s, tokens));
}
