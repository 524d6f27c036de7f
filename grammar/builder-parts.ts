// CST -> AST, the parts statements are made of: reading the Chevrotain CST (children by name, token spans as
// ranges), names, types, expressions and clauses. The statements are built from these in grammar/builder.ts
// (queries) and grammar/builder-ddl.ts (schema and the rest); the nodes themselves are made in grammar/nodes.ts.
import type { CstElement, CstNode, IToken } from './chevrotain';
import type * as A from './ast';
import type {
  OperandCstChildren, AssignmentCstNode, BindMarkerCstNode, ColumnDefinitionCstNode, ColumnMaskCstNode, CqlTypeCstNode, DeleteSelectionCstNode, ExpressionCstNode, FunctionCallCstNode, IfClauseCstNode, IntValueCstNode, OperandCstNode, PrimaryKeyClauseCstNode, PropertiesCstNode, PropertyCstNode, RelationCstNode, SelectClauseCstNode, TableOptionsCstNode, TypeFieldCstNode, TypeListCstNode, UsingClauseCstNode, WhereClauseCstNode,
} from './cst';
import {
  assignmentOf, binaryChain, bindMarkerOf, braceLiteralOf, castOf, elementAccessAt, maskOf, clusteringOrderOf, collectionTypeOf, columnDefinitionOf, columnRefOf, decodeString, elementAccessOf, endOf, fieldAccessOf, frozenTypeOf, functionCallOf, identifierFromToken, listLiteralOf, literalFromToken, nativeTypeOf, negate, ownString, parenthesizedOf, primaryKeyClauseOf, propertyOf, qualifiedNameOf, relationOf, selectorOf, spanRanges, starOf, tableOptionsOf, tokenRange, tupleTypeOf, typeFieldOf, usingClauseOf, userTypeOf, vectorTypeOf, type SelectClause, selectClauseOf,
} from './nodes';

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

export function firstOf(x: CstElement): IToken {
  return isToken(x) ? x : spanOf(x).first;
}

export function lastOf(x: CstElement): IToken {
  return isToken(x) ? x : spanOf(x).last!;
}

export function rangeOf(from: CstElement, to: CstElement = from): A.SourceRange {
  return tokenRange(firstOf(from), lastOf(to));
}

export function isToken(x: CstElement): x is IToken {
  return (x as IToken).image !== undefined;
}

// ---------------------------------------------------------------------------------------------
// Child access helpers

// Typed by the generated CST types (grammar/cst.ts): on a typed node, a child name the rule does not have does
// not compile, and the child comes back with its node type. On a plain CstNode any name is allowed.

type ChildrenOf<N extends CstNode> = N['children'];
type ChildName<N extends CstNode> = keyof ChildrenOf<N> & string;
type NodeChild<N extends CstNode, K extends ChildName<N>> = Extract<NonNullable<ChildrenOf<N>[K]> extends (infer E)[] ? E : never, CstNode>;

export function ch(node: CstNode): Children {
  return node.children as Children;
}
export function node<N extends CstNode, K extends ChildName<N>>(node: N, name: K, i = 0): NodeChild<N, K> | undefined {
  return ch(node)[name]?.[i] as NodeChild<N, K> | undefined;
}
export function nodes<N extends CstNode, K extends ChildName<N>>(node: N, name: K): NodeChild<N, K>[] {
  return (ch(node)[name] as NodeChild<N, K>[] | undefined) ?? [];
}
export function tok<N extends CstNode>(node: N, name: ChildName<N>, i = 0): IToken | undefined {
  return ch(node)[name]?.[i] as IToken | undefined;
}
export function toks<N extends CstNode>(node: N, name: ChildName<N>): IToken[] {
  return (ch(node)[name] as IToken[] | undefined) ?? [];
}
export function has<N extends CstNode>(node: N, name: ChildName<N>): boolean {
  return (ch(node)[name]?.length ?? 0) > 0;
}

// ---------------------------------------------------------------------------------------------
// Names

/** The single token of a name rule (`keyspaceName`, `columnName`, ...): the one it starts with. */
function nameToken(n: CstNode): IToken {
  return spanOf(n).first;
}

export function identifier(n: CstNode): A.Identifier {
  return identifierFromToken(nameToken(n));
}

/** `tableName`, `userTypeName`, `qualifiedIndexName`, `functionName`: `[ks.]name`. */
export function qualifiedName(n: CstNode): A.QualifiedName {
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
        const exprs = nodes(sub, 'expression').map(buildExpression);
        if (has(sub, 'Range')) {
          const rangeTok = tok(sub, 'Range')!;
          const first = exprs[0];
          const fromFirst = first !== undefined && first.range.start < rangeTok.startOffset;
          result = { kind: 'SliceAccess', target: result, from: fromFirst ? first : undefined, to: fromFirst ? exprs[1] : first, range: { start: result.range.start, end: endOf(closes[i]) } };
        } else {
          result = elementAccessAt(result, exprs[0], closes[i]);
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
  return castOf(buildExpression(node(cast, 'expression')!), buildType(node(cast, 'cqlType')!), rangeOf(cast));
}

export function buildBindMarker(n: BindMarkerCstNode): A.BindMarker {
  const nameTok = tok(n, 'Ident');
  return bindMarkerOf(nameTok ? identifierFromToken(nameTok) : undefined, rangeOf(n));
}

function buildFunctionCall(n: FunctionCallCstNode): A.FunctionCall {
  const args = nodes(n, 'functionArg');
  const star = args.length === 1 && has(args[0], 'Star');
  const name = qualifiedName(node(n, 'functionName')!);
  return functionCallOf(name, args.map((a) => (has(a, 'Star') ? starOf(tok(a, 'Star')!) : buildExpression(node(a, 'expression')!))), rangeOf(n), star);
}

export function buildIntValue(n: IntValueCstNode): A.Expression {
  const int = tok(n, 'IntegerLiteral');
  return int ? literalFromToken(int) : buildBindMarker(node(n, 'bindMarker')!);
}

// ---------------------------------------------------------------------------------------------
// Clauses

export function buildSelectors(n: SelectClauseCstNode): SelectClause {
  if (has(n, 'Star')) return selectClauseOf([], true);
  return selectClauseOf(nodes(n, 'selector').map((s) => {
    const expression = buildExpression(node(s, 'expression')!);
    const aliasNode = node(s, 'aliasName');
    return selectorOf(expression, aliasNode ? identifier(aliasNode) : undefined, rangeOf(s));
  }), false);
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
export function buildWhere(n: WhereClauseCstNode | undefined): A.Relation[] {
  return n ? nodes(n, 'relation').map(buildRelation) : [];
}

export function buildUsing(n: UsingClauseCstNode | undefined): A.UsingClause[] {
  if (!n) return [];
  return nodes(n, 'usingOption').map((o) => usingClauseOf(has(o, 'TTL') ? 'TTL' : 'TIMESTAMP', buildIntValue(node(o, 'intValue')!), rangeOf(o)));
}

function buildProperty(n: PropertyCstNode): A.Property {
  return propertyOf(identifier(node(n, 'propertyName')!), buildExpression(node(n, 'expression')!), rangeOf(n));
}

export function buildProperties(n: PropertiesCstNode | undefined): A.Property[] {
  return n ? nodes(n, 'property').map(buildProperty) : [];
}

export function buildTableOptions(n: TableOptionsCstNode): A.TableOptions {
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

export function buildPrimaryKeyClause(n: PrimaryKeyClauseCstNode): A.PrimaryKey {
  const pk = node(n, 'partitionKey')!;
  const partitionKey = nodes(pk, 'columnName').map(identifier);
  return primaryKeyClauseOf(partitionKey, nodes(n, 'columnName').map(identifier), has(pk, 'LParen'), rangeOf(pk), rangeOf(n));
}

export function buildMask(n: ColumnMaskCstNode): A.MaskClause {
  const fn = node(n, 'functionCall');
  return maskOf(fn ? buildFunctionCall(fn) : undefined, rangeOf(n));
}

export function buildColumnDefinition(n: ColumnDefinitionCstNode): A.ColumnDefinition {
  const maskNode = node(n, 'columnMask');
  const column = columnDefinitionOf(identifier(node(n, 'columnName')!), buildType(node(n, 'cqlType')!), has(n, 'STATIC'), has(n, 'PRIMARY'), rangeOf(n));
  if (maskNode) column.mask = buildMask(maskNode);
  return column;
}

export function buildTypeField(n: TypeFieldCstNode): A.TypeField {
  return typeFieldOf(identifier(node(n, 'fieldName')!), buildType(node(n, 'cqlType')!), rangeOf(n));
}

/**
 * `column`, `column[index]` or `column.field`: a DELETE selection, or the target of an assignment (whose value is
 * its last expression: a subscript is the first).
 */
export function buildTarget(n: DeleteSelectionCstNode | AssignmentCstNode): A.Expression {
  const name = identifier(node(n, 'columnName')!);
  const column = columnRefOf(name);
  if (has(n, 'LBracket')) return elementAccessOf(column, buildExpression(node(n, 'expression')!), spanRanges(name.range, tokenRange(tok(n, 'RBracket')!)));
  const field = node(n, 'fieldName');
  return field ? fieldAccessOf(column, identifier(field)) : column;
}

export function buildAssignment(n: AssignmentCstNode): A.Assignment {
  const exprs = nodes(n, 'expression');
  const value = buildExpression(exprs[exprs.length - 1]);
  return assignmentOf(buildTarget(n), (tok(n, 'Eq') ?? tok(n, 'PlusEq') ?? tok(n, 'MinusEq'))!, value, rangeOf(n));
}

export function buildConditions(n: IfClauseCstNode | undefined): A.Relation[] {
  return n ? nodes(n, 'relation').map(buildRelation) : [];
}

export function typeList(n: TypeListCstNode | undefined): A.CqlType[] | undefined {
  return n ? nodes(n, 'cqlType').map(buildType) : undefined;
}
