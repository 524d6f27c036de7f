// CST -> AST: turns the Chevrotain CST of one statement into the typed AST of grammar/ast.ts, with exact
// source ranges (0-based offsets, end exclusive). The nodes themselves are made in grammar/nodes.ts, which
// grammar/direct.ts shares for the statements it reads straight from their tokens.
import type { CstElement, CstNode, IToken } from './chevrotain';
import type * as A from './ast';
import type {
  OperandCstChildren, AlterStatementCstNode, AlterTableCstNode, AssignmentCstNode, BatchStatementCstNode, BindMarkerCstNode, ColumnDefinitionCstNode, ColumnMaskCstNode, CqlStatementCstNode, CqlTypeCstNode, CreateStatementCstNode, DeleteSelectionCstNode, DeleteStatementCstNode, DropStatementCstNode, ExpressionCstNode, FunctionCallCstNode, IfClauseCstNode, InsertStatementCstNode, IntValueCstNode, OperandCstNode, PrimaryKeyClauseCstNode, PropertiesCstNode, PropertyCstNode, RelationCstNode, SelectClauseCstNode, SelectStatementCstNode, TableOptionsCstNode, TypeFieldCstNode, TypeListCstNode, UpdateStatementCstNode, UsingClauseCstNode, WhereClauseCstNode,
} from './cst';
import * as Lexer from './lexer';
import {
  type Base, addColumn, assignmentOf, batchOf, binaryChain, bindMarkerOf, braceLiteralOf, clusteringOrderOf, collectionTypeOf, columnDefinitionOf,
  columnRefOf, createIndexOf, createKeyspaceOf, createTableOf, decodeString, dropOf, indexTargetOf, truncateOf, useOf, deleteOf, elementAccessOf, endOf, fieldAccessOf, frozenTypeOf, functionCallOf, identifierFromToken,
  insertOf, listLiteralOf, literalFromToken, nativeTypeOf, negate, orderingOf, ownString, parenthesizedOf, primaryKeyClauseOf, propertyOf,
  qualifiedNameOf, relationOf, selectOf, selectorOf, spanRanges, starOf, startOf, tableOptionsOf, tokenRange, tupleTypeOf, updateOf,
  usingClauseOf, userTypeOf, vectorTypeOf,
} from './nodes';

// Token types as module constants: compiled to CommonJS (tsx: tests, bench), every use of an imported binding is a
// getter call, a few per cent of a parse in the builder's hot paths.
const { keywordTokens: K } = Lexer;

type Children = Record<string, CstElement[] | undefined>;

// ---------------------------------------------------------------------------------------------
// Ranges

/**
 * Where a CST node starts and ends, as tokens (the parser keeps these on the node instead of Chevrotain's location
 * object of six numbers). `last` is undefined for a rule that consumed nothing.
 */
export interface TokenSpan {
  first: IToken;
  last: IToken | undefined;
}

function spanOf(n: CstNode): TokenSpan {
  // The parser's CST nodes are their own spans (syntax/base.ts).
  return n as unknown as TokenSpan;
}

function firstOf(x: CstElement): IToken {
  return isToken(x) ? x : spanOf(x).first;
}

function lastOf(x: CstElement): IToken {
  return isToken(x) ? x : spanOf(x).last!;
}

export function rangeOf(from: CstElement, to: CstElement = from): A.SourceRange {
  return tokenRange(firstOf(from), lastOf(to));
}

function isToken(x: CstElement): x is IToken {
  return (x as IToken).image !== undefined;
}

// ---------------------------------------------------------------------------------------------
// Child access helpers

// Typed by the generated CST types (grammar/cst.ts): on a typed node, a child name the rule does not have does
// not compile, and the child comes back with its node type. On a plain CstNode any name is allowed.

type ChildrenOf<N extends CstNode> = N['children'];
type ChildName<N extends CstNode> = keyof ChildrenOf<N> & string;
type NodeChild<N extends CstNode, K extends ChildName<N>> = Extract<NonNullable<ChildrenOf<N>[K]> extends (infer E)[] ? E : never, CstNode>;

function ch(node: CstNode): Children {
  return node.children as Children;
}
function node<N extends CstNode, K extends ChildName<N>>(node: N, name: K, i = 0): NodeChild<N, K> | undefined {
  return ch(node)[name]?.[i] as NodeChild<N, K> | undefined;
}
export function nodes<N extends CstNode, K extends ChildName<N>>(node: N, name: K): NodeChild<N, K>[] {
  return (ch(node)[name] as NodeChild<N, K>[] | undefined) ?? [];
}
function tok<N extends CstNode>(node: N, name: ChildName<N>, i = 0): IToken | undefined {
  return ch(node)[name]?.[i] as IToken | undefined;
}
function toks<N extends CstNode>(node: N, name: ChildName<N>): IToken[] {
  return (ch(node)[name] as IToken[] | undefined) ?? [];
}
function has<N extends CstNode>(node: N, name: ChildName<N>): boolean {
  return (ch(node)[name]?.length ?? 0) > 0;
}
/** The first token of a CST element (children are not ordered across keys, so compare offsets). */
function firstTokenOf(el: CstElement): IToken {
  if (isToken(el)) return el;
  let best: IToken | undefined;
  for (const list of Object.values(el.children)) {
    for (const child of list) {
      const t = firstTokenOf(child);
      if (!best || t.startOffset < best.startOffset) best = t;
    }
  }
  return best!;
}

// ---------------------------------------------------------------------------------------------
// Names

/** The single token of a name rule (`keyspaceName`, `columnName`, ...): the one it starts with. */
function nameToken(n: CstNode): IToken {
  return spanOf(n).first;
}

function identifier(n: CstNode): A.Identifier {
  return identifierFromToken(nameToken(n));
}

/** `tableName`, `userTypeName`, `qualifiedIndexName`, `functionName`: `[ks.]name`. */
function qualifiedName(n: CstNode): A.QualifiedName {
  const ks = node(n, 'keyspaceName');
  let nameTok: IToken | undefined;
  const inner = node(n, 'indexName');
  if (inner) nameTok = nameToken(inner);
  else nameTok = tok(n, 'Ident') ?? tok(n, 'NonTypeIdent') ?? tok(n, 'TOKEN');
  const name = identifierFromToken(nameTok!);
  return qualifiedNameOf(ks ? identifier(ks) : undefined, name);
}

// ---------------------------------------------------------------------------------------------
// Types

export function buildType(n: CqlTypeCstNode): A.CqlType {
  const range = rangeOf(n);
  const native = tok(n, 'NativeTypeKw');
  if (native) return nativeTypeOf(native, range);
  const str = tok(n, 'StringLiteral');
  if (str) return { kind: 'CustomType', className: ownString(decodeString(str.image)), range };
  const coll = node(n, 'collectionType');
  if (coll) return collectionTypeOf(has(coll, 'MAP') ? 'map' : has(coll, 'LIST') ? 'list' : 'set', nodes(coll, 'cqlType').map(buildType), range);
  const tuple = node(n, 'tupleType');
  if (tuple) return tupleTypeOf(nodes(tuple, 'cqlType').map(buildType), range);
  const vector = node(n, 'vectorType');
  if (vector) return vectorTypeOf(buildType(node(vector, 'cqlType')!), tok(vector, 'IntegerLiteral')!, range);
  const frozen = node(n, 'frozenType');
  if (frozen) return frozenTypeOf(buildType(node(frozen, 'cqlType')!), range);
  return userTypeOf(qualifiedName(node(n, 'userTypeName')!), range);
}

// ---------------------------------------------------------------------------------------------
// Expressions

/** Merges operator tokens with their operands (CST children lose the interleaving order). */
function sortedTokens(n: CstNode, names: string[]): IToken[] {
  const out: IToken[] = [];
  for (const name of names) out.push(...toks(n, name));
  return out.sort((a, b) => a.startOffset - b.startOffset);
}

export function buildExpression(n: ExpressionCstNode): A.Expression {
  const operandNodes = nodes(n, 'operand');
  const ops = operandNodes.length === 1 ? [] : sortedTokens(n, ['Plus', 'Minus', 'Star', 'Slash', 'Percent']).map((t) => t.image);
  return binaryChain(operandNodes.length, (i) => buildOperand(operandNodes[i]), ops);
}

const LITERAL_KEYS = ['StringLiteral', 'NumberLit', 'BooleanLiteral', 'UuidLiteral', 'HexLiteral', 'NULL'];

function buildOperand(n: OperandCstNode): A.Expression {
  const c = ch(n);
  let result: A.Expression | undefined;
  for (const key of LITERAL_KEYS) {
    const list = c[key];
    if (list) {
      result = literalFromToken(list[0] as IToken);
      break;
    }
  }
  if (!result) result = buildPrimary(n.children);
  if (c.LBracket || c.Dot) result = applyPostfix(n, result);
  const minuses = c.Minus as IToken[] | undefined;
  if (minuses) {
    for (let i = minuses.length - 1; i >= 0; i--) result = negate(minuses[i], result);
  }
  return result;
}

function applyPostfix(n: OperandCstNode, target: A.Expression): A.Expression {
  let result = target;
  const brackets = toks(n, 'LBracket');
  const closes = toks(n, 'RBracket');
  const dots = toks(n, 'Dot');
  const subscripts = nodes(n, 'subscript');
  const fields = nodes(n, 'fieldName');
  const steps: { offset: number; apply: () => void }[] = [];
  brackets.forEach((open, i) => {
    steps.push({
      offset: open.startOffset,
      apply: () => {
        const sub = subscripts[i];
        const range = { start: result.range.start, end: endOf(closes[i]) };
        const exprs = nodes(sub, 'expression').map(buildExpression);
        if (has(sub, 'Range')) {
          const rangeTok = tok(sub, 'Range')!;
          const first = exprs[0];
          const fromFirst = first !== undefined && first.range.start < rangeTok.startOffset;
          result = { kind: 'SliceAccess', target: result, from: fromFirst ? first : undefined, to: fromFirst ? exprs[1] : first, range };
        } else {
          result = elementAccessOf(result, exprs[0], range);
        }
      },
    });
  });
  dots.forEach((dot, i) => {
    steps.push({
      offset: dot.startOffset,
      apply: () => {
        result = fieldAccessOf(result, identifier(fields[i]));
      },
    });
  });
  steps.sort((a, b) => a.offset - b.offset).forEach((s) => s.apply());
  return result;
}

function buildPrimary(c: OperandCstChildren): A.Expression {
  const name = c.Ident ?? c.EmptyQuotedName;
  if (name) return columnRefOf(identifierFromToken(name[0]));
  if (c.functionCall) return buildFunctionCall(c.functionCall[0]);
  if (c.bindMarker) return buildBindMarker(c.bindMarker[0]);
  if (c.listLiteral) {
    const list = c.listLiteral[0];
    return listLiteralOf(nodes(list, 'expression').map(buildExpression), rangeOf(list));
  }
  if (c.braceLiteral) {
    const brace = c.braceLiteral[0];
    return braceLiteralOf(nodes(brace, 'braceEntry').map((e) => nodes(e, 'expression').map(buildExpression)), rangeOf(brace));
  }
  if (c.parenthesized) {
    const p = c.parenthesized[0];
    return parenthesizedOf(nodes(p, 'expression').map(buildExpression), rangeOf(p));
  }
  if (c.typeHint) {
    const h = c.typeHint[0];
    return { kind: 'TypeHint', type: buildType(node(h, 'cqlType')!), expression: buildOperand(node(h, 'operand')!), range: rangeOf(h) };
  }
  const cast = c.castExpression![0];
  return { kind: 'CastExpression', expression: buildExpression(node(cast, 'expression')!), type: buildType(node(cast, 'cqlType')!), range: rangeOf(cast) };
}

function buildBindMarker(n: BindMarkerCstNode): A.BindMarker {
  const nameTok = tok(n, 'Ident');
  return bindMarkerOf(nameTok ? identifierFromToken(nameTok) : undefined, rangeOf(n));
}

function buildFunctionCall(n: FunctionCallCstNode): A.FunctionCall {
  const args = nodes(n, 'functionArg');
  const star = args.length === 1 && has(args[0], 'Star');
  const name = qualifiedName(node(n, 'functionName')!);
  return functionCallOf(name, args.map((a) => (has(a, 'Star') ? starOf(tok(a, 'Star')!) : buildExpression(node(a, 'expression')!))), rangeOf(n), star);
}

function buildIntValue(n: IntValueCstNode): A.Expression {
  const int = tok(n, 'IntegerLiteral');
  return int ? literalFromToken(int) : buildBindMarker(node(n, 'bindMarker')!);
}

// ---------------------------------------------------------------------------------------------
// Clauses

function buildSelectors(n: SelectClauseCstNode): { selectors: A.Selector[]; star: boolean } {
  if (has(n, 'Star')) return { selectors: [], star: true };
  return {
    star: false,
    selectors: nodes(n, 'selector').map((s) => {
      const expression = buildExpression(node(s, 'expression')!);
      const aliasNode = node(s, 'aliasName');
      return selectorOf(expression, aliasNode ? identifier(aliasNode) : undefined, rangeOf(s));
    }),
  };
}

function buildRelation(n: RelationCstNode): A.Relation {
  const exprs = nodes(n, 'expression').map(buildExpression);
  const left = exprs[0];
  const range = rangeOf(n);
  let operator: A.RelationOperator;
  let right: A.Expression[] = exprs.slice(1);
  let inList: boolean | undefined;
  const cmp = node(n, 'comparisonOperator');
  if (cmp) operator = nameToken(cmp).image as A.RelationOperator;
  else if (has(n, 'IN')) {
    operator = has(n, 'NOT') ? 'NOT IN' : 'IN';
    const values = node(n, 'inValues')!;
    inList = has(values, 'LParen');
    right = inList ? nodes(values, 'expression').map(buildExpression) : [buildBindMarker(node(values, 'bindMarker')!)];
  } else if (has(n, 'CONTAINS')) {
    operator = `${has(n, 'NOT') ? 'NOT ' : ''}CONTAINS${has(n, 'KEY') ? ' KEY' : ''}` as A.RelationOperator;
  } else if (has(n, 'LIKE')) operator = 'LIKE';
  else if (has(n, 'IS')) operator = 'IS NOT NULL';
  else operator = 'BETWEEN';
  return relationOf(left, operator, right, range, inList);
}

/** The relations of a WHERE clause (its range is the clause's: `rangeOf`). */
function buildWhere(n: WhereClauseCstNode | undefined): A.Relation[] {
  return n ? nodes(n, 'relation').map(buildRelation) : [];
}

function buildUsing(n: UsingClauseCstNode | undefined): A.UsingClause[] {
  if (!n) return [];
  return nodes(n, 'usingOption').map((o) => usingClauseOf(has(o, 'TTL') ? 'TTL' : 'TIMESTAMP', buildIntValue(node(o, 'intValue')!), rangeOf(o)));
}

function buildProperty(n: PropertyCstNode): A.Property {
  return propertyOf(identifier(node(n, 'propertyName')!), buildExpression(node(n, 'expression')!), rangeOf(n));
}

function buildProperties(n: PropertiesCstNode | undefined): A.Property[] {
  return n ? nodes(n, 'property').map(buildProperty) : [];
}

function buildTableOptions(n: TableOptionsCstNode): A.TableOptions {
  const options = tableOptionsOf(rangeOf(n));
  for (const option of nodes(n, 'tableOption')) {
    const property = node(option, 'property');
    const clustering = node(option, 'clusteringOrder');
    if (property) options.properties.push(buildProperty(property));
    else if (clustering) {
      options.clusteringOrderRange = rangeOf(clustering);
      for (const item of nodes(clustering, 'clusteringOrderItem')) {
        options.clusteringOrder.push(clusteringOrderOf(identifier(node(item, 'columnName')!), has(item, 'DESC'), rangeOf(item)));
      }
    } else options.compactStorage = true;
  }
  return options;
}

function buildPrimaryKeyClause(n: PrimaryKeyClauseCstNode): A.PrimaryKey {
  const pk = node(n, 'partitionKey')!;
  const partitionKey = nodes(pk, 'columnName').map(identifier);
  return primaryKeyClauseOf(partitionKey, nodes(n, 'columnName').map(identifier), has(pk, 'LParen'), rangeOf(pk), rangeOf(n));
}

function buildMask(n: ColumnMaskCstNode): A.MaskClause {
  const fn = node(n, 'functionCall');
  return { kind: 'MaskClause', function: fn ? buildFunctionCall(fn) : undefined, isDefault: !fn, range: rangeOf(n) };
}

function buildColumnDefinition(n: ColumnDefinitionCstNode): A.ColumnDefinition {
  const maskNode = node(n, 'columnMask');
  const column = columnDefinitionOf(identifier(node(n, 'columnName')!), buildType(node(n, 'cqlType')!), has(n, 'STATIC'), has(n, 'PRIMARY'), rangeOf(n));
  if (maskNode) column.mask = buildMask(maskNode);
  return column;
}

function buildTypeField(n: TypeFieldCstNode): A.TypeField {
  return { kind: 'TypeField', name: identifier(node(n, 'fieldName')!), type: buildType(node(n, 'cqlType')!), range: rangeOf(n) };
}

function buildAssignmentTarget(n: DeleteSelectionCstNode): A.Expression {
  const name = identifier(node(n, 'columnName')!);
  const column = columnRefOf(name);
  const index = node(n, 'expression');
  const field = node(n, 'fieldName');
  if (has(n, 'LBracket') && index) return elementAccessOf(column, buildExpression(index), spanRanges(name.range, tokenRange(tok(n, 'RBracket')!)));
  if (field) return fieldAccessOf(column, identifier(field));
  return column;
}

function buildAssignment(n: AssignmentCstNode): A.Assignment {
  const exprs = nodes(n, 'expression');
  const value = buildExpression(exprs[exprs.length - 1]);
  const name = identifier(node(n, 'columnName')!);
  const column = columnRefOf(name);
  let target: A.Expression = column;
  if (has(n, 'LBracket')) target = elementAccessOf(column, buildExpression(exprs[0]), spanRanges(name.range, tokenRange(tok(n, 'RBracket')!)));
  else if (has(n, 'fieldName')) target = fieldAccessOf(column, identifier(node(n, 'fieldName')!));
  return assignmentOf(target, (tok(n, 'Eq') ?? tok(n, 'PlusEq') ?? tok(n, 'MinusEq'))!, value, rangeOf(n));
}

function buildConditions(n: IfClauseCstNode | undefined): A.Relation[] {
  return n ? nodes(n, 'relation').map(buildRelation) : [];
}

function typeList(n: TypeListCstNode | undefined): A.CqlType[] | undefined {
  return n ? nodes(n, 'cqlType').map(buildType) : undefined;
}

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

function buildUpdate(n: UpdateStatementCstNode, base: Base): A.UpdateStatement {
  const where = node(n, 'whereClause');
  const ifClause = node(n, 'ifClause');
  return updateOf(base, {
    table: qualifiedName(node(n, 'tableName')!),
    using: buildUsing(node(n, 'usingClause')),
    assignments: nodes(n, 'assignment').map(buildAssignment),
    where: buildWhere(where),
    whereRange: where ? rangeOf(where) : undefined,
    conditions: buildConditions(ifClause),
    ifExists: ifClause !== undefined && has(ifClause, 'EXISTS'),
  });
}

function buildDelete(n: DeleteStatementCstNode, base: Base): A.DeleteStatement {
  const where = node(n, 'whereClause');
  const ifClause = node(n, 'ifClause');
  return deleteOf(base, {
    selections: nodes(n, 'deleteSelection').map(buildAssignmentTarget),
    table: qualifiedName(node(n, 'tableName')!),
    using: buildUsing(node(n, 'usingClause')),
    where: buildWhere(where),
    whereRange: where ? rangeOf(where) : undefined,
    conditions: buildConditions(ifClause),
    ifExists: ifClause !== undefined && has(ifClause, 'EXISTS'),
  });
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

function buildCreate(n: CreateStatementCstNode, base: Base, nameWords: string[]): A.Statement {
  const c = n.children;
  if (c.createKeyspace) {
    const s = c.createKeyspace[0];
    return createKeyspaceOf(base, identifier(node(s, 'keyspaceName')!), has(s, 'ifNotExists'), buildProperties(node(s, 'properties')));
  }
  if (c.createTable) {
    const s = c.createTable[0];
    const names = nodes(s, 'tableName');
    const body = node(s, 'tableBody');
    const stmt = createTableOf(base, tok(s, 'TABLE')!, qualifiedName(names[0]), has(s, 'ifNotExists'));
    if (body) {
      stmt.bodyRange = rangeOf(body);
      for (const el of nodes(body, 'tableElement')) {
        const def = node(el, 'columnDefinition');
        if (def) {
          addColumn(stmt, buildColumnDefinition(def), () => tokenRange(tok(def, 'PRIMARY')!, tok(def, 'KEY')!));
        } else if (!stmt.primaryKey) {
          stmt.primaryKey = buildPrimaryKeyClause(node(el, 'primaryKeyClause')!);
        }
      }
    } else {
      stmt.like = qualifiedName(names[1]);
    }
    const options = node(s, 'tableOptions');
    if (options) stmt.options = buildTableOptions(options);
    return stmt;
  }
  if (c.createType) {
    const s = c.createType[0];
    return { kind: 'CreateType', range: base.range, terminated: base.terminated, name: qualifiedName(node(s, 'userTypeName')!), ifNotExists: has(s, 'ifNotExists'), fields: nodes(s, 'typeField').map(buildTypeField) };
  }
  if (c.createIndex) {
    const s = c.createIndex[0];
    const nameNode = node(s, 'indexName');
    return createIndexOf(base, {
      custom: has(s, 'CUSTOM'),
      ifNotExists: has(s, 'ifNotExists'),
      table: qualifiedName(node(s, 'tableName')!),
      targets: nodes(s, 'indexTarget').map((t) => indexTargetOf(identifier(node(t, 'columnName')!), tok(t, 'KEYS') ?? tok(t, 'VALUES') ?? tok(t, 'ENTRIES') ?? tok(t, 'FULL'), rangeOf(t))),
      properties: buildProperties(node(s, 'properties')),
      name: nameNode ? identifier(nameNode) : undefined,
      using: tok(s, 'StringLiteral'),
    });
  }
  if (c.createMaterializedView) {
    const s = c.createMaterializedView[0];
    const names = nodes(s, 'tableName');
    const options = node(s, 'tableOptions');
    return {
      kind: 'CreateMaterializedView',
      range: base.range,
      terminated: base.terminated,
      name: qualifiedName(names[0]),
      ifNotExists: has(s, 'ifNotExists'),
      ...buildSelectors(node(s, 'selectClause')!),
      from: qualifiedName(names[1]),
      where: buildWhere(node(s, 'whereClause')),
      primaryKey: buildPrimaryKeyClause(node(s, 'primaryKeyClause')!),
      ...(options ? { options: buildTableOptions(options) } : {}),
    };
  }
  if (c.createFunction) {
    const s = c.createFunction[0];
    return {
      kind: 'CreateFunction',
      range: base.range,
      terminated: base.terminated,
      orReplace: has(s, 'orReplace'),
      ifNotExists: has(s, 'ifNotExists'),
      name: qualifiedName(node(s, 'functionName')!),
      arguments: nodes(s, 'functionArgument').map((a) => ({ kind: 'FunctionArgument', name: identifier(node(a, 'argumentName')!), type: buildType(node(a, 'cqlType')!), range: rangeOf(a) })),
      calledOnNullInput: has(s, 'CALLED'),
      returnType: buildType(node(s, 'cqlType')!),
      language: identifierFromToken(tok(s, 'Ident')!),
      body: literalFromToken(tok(s, 'StringLiteral')!),
    };
  }
  if (c.createAggregate) {
    const s = c.createAggregate[0];
    const fns = nodes(s, 'functionName').map(qualifiedName);
    const stmt: A.CreateAggregateStatement = {
      kind: 'CreateAggregate',
      range: base.range,
      terminated: base.terminated,
      orReplace: has(s, 'orReplace'),
      ifNotExists: has(s, 'ifNotExists'),
      name: fns[0],
      argumentTypes: typeList(node(s, 'typeList')) ?? [],
      stateFunction: fns[1],
      stateType: buildType(node(s, 'cqlType')!),
    };
    if (fns[2]) stmt.finalFunction = fns[2];
    const init = node(s, 'expression');
    if (init) stmt.initialCondition = buildExpression(init);
    return stmt;
  }
  if (c.createTrigger) {
    const s = c.createTrigger[0];
    return { kind: 'CreateTrigger', range: base.range, terminated: base.terminated, ifNotExists: has(s, 'ifNotExists'), name: identifier(node(s, 'triggerName')!), table: qualifiedName(node(s, 'tableName')!), using: literalFromToken(tok(s, 'StringLiteral')!) };
  }
  return buildOther(n, base, nameWords);
}

function buildAlter(n: AlterStatementCstNode, base: Base, nameWords: string[]): A.Statement {
  const c = n.children;
  if (c.alterKeyspace) {
    const s = c.alterKeyspace[0];
    return { kind: 'AlterKeyspace', range: base.range, terminated: base.terminated, name: identifier(node(s, 'keyspaceName')!), ifExists: has(s, 'ifExists'), properties: buildProperties(node(s, 'properties')) };
  }
  if (c.alterTable) {
    const s = c.alterTable[0];
    return { kind: 'AlterTable', range: base.range, terminated: base.terminated, name: qualifiedName(node(s, 'tableName')!), ifExists: has(s, 'ifExists'), action: buildAlterTableAction(s) };
  }
  if (c.alterType) {
    const s = c.alterType[0];
    const name = qualifiedName(node(s, 'userTypeName')!);
    const ifs = nodes(s, 'ifExists');
    // The first IF EXISTS (right after TYPE) is the type's, a second one belongs to RENAME.
    const typeIfExists = ifs.length > 0 && firstOf(ifs[0]).startOffset < name.range.start;
    let action: A.AlterTypeAction;
    if (has(s, 'ADD')) {
      const field = buildTypeField(node(s, 'typeField')!);
      action = { kind: 'AddField', ifNotExists: has(s, 'ifNotExists'), field, range: { start: startOf(tok(s, 'ADD')!), end: field.range.end } };
    } else if (has(s, 'RENAME')) {
      const pairs = nodes(s, 'renameField');
      action = {
        kind: 'RenameFields',
        ifExists: ifs.length > (typeIfExists ? 1 : 0),
        renames: pairs.map((p) => {
          const [from, to] = nodes(p, 'fieldName').map(identifier);
          return { from, to };
        }),
        range: tokenRange(tok(s, 'RENAME')!, lastOf(pairs[pairs.length - 1])),
      };
    } else {
      const type = buildType(node(s, 'cqlType')!);
      action = { kind: 'AlterFieldType', field: identifier(node(s, 'fieldName')!), type, range: { start: startOf(tok(s, 'ALTER')!), end: type.range.end } };
    }
    return { kind: 'AlterType', range: base.range, terminated: base.terminated, name, ifExists: typeIfExists, action };
  }
  if (c.alterMaterializedView) {
    const s = c.alterMaterializedView[0];
    return { kind: 'AlterMaterializedView', range: base.range, terminated: base.terminated, name: qualifiedName(node(s, 'tableName')!), ifExists: has(s, 'ifExists'), options: buildTableOptions(node(s, 'tableOptions')!) };
  }
  return buildOther(n, base, nameWords);
}

function buildAlterTableAction(s: AlterTableCstNode): A.AlterTableAction {
  const alter = node(s, 'alterColumn');
  if (alter) {
    const column = identifier(node(alter, 'columnName')!);
    const range = rangeOf(alter);
    const ifExists = has(alter, 'ifExists');
    if (has(alter, 'TYPE')) return { kind: 'AlterColumnType', ifExists, column, type: buildType(node(alter, 'cqlType')!), range };
    const mask = node(alter, 'columnMask');
    return { kind: 'AlterColumnMask', ifExists, column, ...(mask ? { mask: buildMask(mask) } : {}), dropMask: !mask, range };
  }
  const add = node(s, 'addColumns');
  if (add) return { kind: 'AddColumns', ifNotExists: has(add, 'ifNotExists'), columns: nodes(add, 'columnDefinition').map(buildColumnDefinition), range: rangeOf(add) };
  const drop = node(s, 'dropColumns');
  if (drop) {
    const ts = tok(drop, 'IntegerLiteral');
    return { kind: 'DropColumns', ifExists: has(drop, 'ifExists'), columns: nodes(drop, 'columnName').map(identifier), ...(ts ? { timestamp: literalFromToken(ts) } : {}), range: rangeOf(drop) };
  }
  const rename = node(s, 'renameColumns');
  if (rename) {
    return {
      kind: 'RenameColumns',
      ifExists: has(rename, 'ifExists'),
      renames: nodes(rename, 'renamePair').map((p) => {
        const [from, to] = nodes(p, 'columnName').map(identifier);
        return { from, to };
      }),
      range: rangeOf(rename),
    };
  }
  const dropCompact = node(s, 'dropCompactStorage');
  if (dropCompact) return { kind: 'DropCompactStorage', range: rangeOf(dropCompact) };
  const options = node(s, 'tableOptions')!;
  return { kind: 'WithOptions', options: buildTableOptions(options), range: rangeOf(options) };
}

function buildDrop(n: DropStatementCstNode, base: Base, nameWords: string[]): A.Statement {
  const c = n.children;
  if (c.dropKeyspace) {
    const s = c.dropKeyspace[0];
    return { kind: 'DropKeyspace', range: base.range, terminated: base.terminated, name: identifier(node(s, 'keyspaceName')!), ifExists: has(s, 'ifExists') };
  }
  if (c.dropTable) {
    const s = c.dropTable[0];
    return dropOf('DropTable', base, qualifiedName(node(s, 'tableName')!), has(s, 'ifExists'));
  }
  if (c.dropType) {
    const s = c.dropType[0];
    return dropOf('DropType', base, qualifiedName(node(s, 'userTypeName')!), has(s, 'ifExists'));
  }
  if (c.dropIndex) {
    const s = c.dropIndex[0];
    return dropOf('DropIndex', base, qualifiedName(node(s, 'qualifiedIndexName')!), has(s, 'ifExists'));
  }
  if (c.dropMaterializedView) {
    const s = c.dropMaterializedView[0];
    return dropOf('DropMaterializedView', base, qualifiedName(node(s, 'tableName')!), has(s, 'ifExists'));
  }
  if (c.dropFunction || c.dropAggregate) {
    const s = (c.dropFunction ?? c.dropAggregate)![0];
    const argumentTypes = typeList(node(s, 'typeList'));
    return {
      kind: c.dropFunction ? 'DropFunction' : 'DropAggregate',
      range: base.range,
      terminated: base.terminated,
      ifExists: has(s, 'ifExists'),
      name: qualifiedName(node(s, 'functionName')!),
      ...(argumentTypes ? { argumentTypes } : {}),
    };
  }
  if (c.dropTrigger) {
    const s = c.dropTrigger[0];
    return { kind: 'DropTrigger', range: base.range, terminated: base.terminated, ifExists: has(s, 'ifExists'), name: identifier(node(s, 'triggerName')!), table: qualifiedName(node(s, 'tableName')!) };
  }
  return buildOther(n, base, nameWords);
}

const QUALIFIED_RULES = new Set(['tableName', 'userTypeName', 'qualifiedIndexName', 'functionName']);
const NAME_RULES = new Set(['keyspaceName', 'roleName', 'userName', 'identityName', 'indexName', 'columnName', 'triggerName']);

/** Names mentioned by a statement modelled as OtherStatement, in source order. */
function collectNames(n: CstNode, out: (A.Identifier | A.QualifiedName)[]): void {
  for (const [key, list] of Object.entries(ch(n))) {
    for (const child of list!) {
      if (isToken(child)) continue;
      if (QUALIFIED_RULES.has(key)) out.push(qualifiedName(child));
      else if (NAME_RULES.has(key)) out.push(identifier(child));
      else collectNames(child, out);
    }
  }
}

function buildOther(n: CstNode, base: Base, words: string[]): A.OtherStatement {
  const names: (A.Identifier | A.QualifiedName)[] = [];
  collectNames(n, names);
  names.sort((a, b) => a.range.start - b.range.start);
  return { kind: 'Other', range: base.range, terminated: base.terminated, statementType: words.join(' '), names };
}

/** `statementType` words for statements modelled as OtherStatement. */
function otherStatementType(n: CstNode, tokens: IToken[]): string[] {
  const first = tokens[0].tokenType;
  const second = tokens[1]?.tokenType;
  if (first === K.DESCRIBE || first === K.DESC) {
    const d = n;
    const words = ['DESCRIBE'];
    for (const w of ['FULL', 'ONLY', 'CLUSTER', 'SCHEMA', 'KEYSPACES', 'KEYSPACE', 'TABLES', 'TABLE', 'INDEX', 'MATERIALIZED', 'VIEW', 'TYPES', 'TYPE', 'FUNCTIONS', 'FUNCTION', 'AGGREGATES', 'AGGREGATE']) {
      if (has(d, w)) words.push(w);
    }
    return words;
  }
  if (first === K.LIST) {
    if (second === K.ROLES || second === K.USERS || second === K.SUPERUSERS) return ['LIST', tokens[1].image.toUpperCase()];
    return ['LIST', 'PERMISSIONS'];
  }
  if (first === K.GRANT || first === K.REVOKE) return [tokens[0].image.toUpperCase()];
  return [tokens[0].image.toUpperCase(), tokens[1]?.image.toUpperCase() ?? ''].filter(Boolean);
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

export { firstTokenOf };
