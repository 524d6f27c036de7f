// CST -> AST: turns the Chevrotain CST of one statement into the typed AST of grammar/ast.ts, with exact
// source ranges (0-based offsets, end exclusive).
import type { CstElement, CstNode, IToken } from './chevrotain';
import type * as A from './ast';
import type {
  OperandCstChildren, AlterStatementCstNode, AlterTableCstNode, AssignmentCstNode, BatchStatementCstNode, BindMarkerCstNode, BraceLiteralCstNode, ColumnDefinitionCstNode, ColumnMaskCstNode, CqlStatementCstNode, CqlTypeCstNode, CreateStatementCstNode, DeleteSelectionCstNode, DeleteStatementCstNode, DropStatementCstNode, ExpressionCstNode, FunctionCallCstNode, IfClauseCstNode, InsertStatementCstNode, IntValueCstNode, OperandCstNode, PrimaryKeyClauseCstNode, PropertiesCstNode, PropertyCstNode, RelationCstNode, SelectClauseCstNode, SelectStatementCstNode, TableOptionsCstNode, TypeFieldCstNode, TypeListCstNode, UpdateStatementCstNode, UsingClauseCstNode, WhereClauseCstNode,
} from './cst';
import * as Lexer from './lexer';

// Token types as module constants: compiled to CommonJS (tsx: tests, bench), every use of an imported binding is a
// getter call, a few per cent of a parse in the builder's hot paths.
const { QuotedName, EmptyQuotedName, StringLiteral, IntegerLiteral, FloatLiteral, DurationLiteral, NanLiteral, InfinityLiteral, BooleanLiteral, UuidLiteral, HexLiteral, keywordTokens: K } = Lexer;

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

/** The range of one token, made once and shared by every node that starts or ends there. */
function ownRange(t: IToken): A.SourceRange {
  return (t.astRange ??= { start: startOf(t), end: endOf(t) });
}

function startOf(t: IToken): number {
  return t.startOffset;
}

function endOf(t: IToken): number {
  return t.endOffset! + 1;
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

export function tokenRange(from: IToken, to: IToken = from): A.SourceRange {
  return from === to ? ownRange(from) : { start: startOf(from), end: endOf(to) };
}

function spanRanges(a: A.SourceRange, b: A.SourceRange): A.SourceRange {
  return a === b ? a : { start: a.start, end: b.end };
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
// Names and literals

// Strings the AST keeps, one copy each during a parse (withSharedStrings): a name written a hundred times is
// kept once instead of as a hundred copies of the token's image.
let sharedStrings: Map<string, string> | undefined;

/** Runs `build` with the AST's strings shared; the table is dropped afterwards, so it keeps nothing alive. */
export function withSharedStrings<T>(build: () => T): T {
  if (sharedStrings) return build();
  sharedStrings = new Map();
  try {
    return build();
  } finally {
    sharedStrings = undefined;
  }
}

function shared(s: string): string {
  if (sharedStrings === undefined) return ownString(s);
  const known = sharedStrings.get(s);
  if (known !== undefined) return known;
  const own = ownString(s);
  sharedStrings.set(own, own);
  return own;
}

/**
 * A copy of `s` that does not hold the source text. V8 makes a slice of 13 or more characters a view
 * of the whole string it was cut from, so one long name kept by a schema summary would keep its whole
 * file alive after the tree is dropped; slicing a concatenation copies the characters first.
 */
function ownString(s: string): string {
  return s.length < 13 ? s : (' ' + s).slice(1);
}

/** One string per native type name for the whole process (a fixed set of keywords): schemas keep thousands. */
const nativeTypeNames = new Map<string, A.NativeTypeName>();

function nativeTypeName(image: string): A.NativeTypeName {
  const lower = image.toLowerCase() as A.NativeTypeName;
  const known = nativeTypeNames.get(lower);
  if (known !== undefined) return known;
  nativeTypeNames.set(lower, lower);
  return lower;
}

function identifierFromToken(t: IToken): A.Identifier {
  const image = shared(t.image);
  const quoted = t.tokenType === QuotedName || t.tokenType === EmptyQuotedName;
  let name: string;
  if (quoted) name = shared(image.slice(1, -1).replace(/""/g, '"'));
  else if (t.tokenType === StringLiteral) name = shared(decodeString(image));
  else {
    // Most names are written in lower case already: keep one string for both `name` and `text` then.
    const lower = image.toLowerCase();
    name = lower === image ? image : shared(lower);
  }
  return { kind: 'Identifier', name, text: image, quoted: quoted || t.tokenType === StringLiteral, range: tokenRange(t) };
}

/** The single token of a name rule (`keyspaceName`, `columnName`, ...): the one it starts with. */
function nameToken(n: CstNode): IToken {
  return spanOf(n).first;
}

function identifier(n: CstNode): A.Identifier {
  return identifierFromToken(nameToken(n));
}

export function decodeString(image: string): string {
  if (image.startsWith('$$')) return image.slice(2, -2);
  return image.slice(1, -1).replace(/''/g, "'");
}

/** `tableName`, `userTypeName`, `qualifiedIndexName`, `functionName`: `[ks.]name`. */
function qualifiedName(n: CstNode): A.QualifiedName {
  const ks = node(n, 'keyspaceName');
  let nameTok: IToken | undefined;
  const inner = node(n, 'indexName');
  if (inner) nameTok = nameToken(inner);
  else nameTok = tok(n, 'Ident') ?? tok(n, 'NonTypeIdent') ?? tok(n, 'TOKEN');
  const name = identifierFromToken(nameTok!);
  const keyspace = ks ? identifier(ks) : undefined;
  return { kind: 'QualifiedName', keyspace, name, range: keyspace ? spanRanges(keyspace.range, name.range) : name.range };
}

const SHARED_LITERAL_LENGTH = 24;

function literalFromToken(t: IToken): A.Literal {
  const type = t.tokenType;
  let literalKind: A.LiteralKind;
  // Long literals are seldom repeated, and sharing costs a hash of the whole text.
  const text = t.image.length <= SHARED_LITERAL_LENGTH ? shared(t.image) : ownString(t.image);
  let value = text;
  if (type === StringLiteral) {
    literalKind = 'string';
    value = decodeString(text);
    value = value.length <= SHARED_LITERAL_LENGTH ? shared(value) : ownString(value);
  } else if (type === IntegerLiteral) literalKind = 'integer';
  else if (type === FloatLiteral) literalKind = 'float';
  else if (type === DurationLiteral) literalKind = 'duration';
  else if (type === NanLiteral) literalKind = 'nan';
  else if (type === InfinityLiteral) literalKind = 'infinity';
  else if (type === BooleanLiteral) literalKind = 'boolean';
  else if (type === UuidLiteral) literalKind = 'uuid';
  else if (type === HexLiteral) literalKind = 'hex';
  else literalKind = 'null';
  return { kind: 'Literal', literalKind, value, text, range: tokenRange(t) };
}

// ---------------------------------------------------------------------------------------------
// Types

export function buildType(n: CqlTypeCstNode): A.CqlType {
  const range = rangeOf(n);
  const native = tok(n, 'NativeTypeKw');
  if (native) return { kind: 'NativeType', name: nativeTypeName(native.image), range };
  const str = tok(n, 'StringLiteral');
  if (str) return { kind: 'CustomType', className: ownString(decodeString(str.image)), range };
  const coll = node(n, 'collectionType');
  if (coll) {
    const collection = has(coll, 'MAP') ? 'map' : has(coll, 'LIST') ? 'list' : 'set';
    return { kind: 'CollectionType', collection, elementTypes: nodes(coll, 'cqlType').map(buildType), range };
  }
  const tuple = node(n, 'tupleType');
  if (tuple) return { kind: 'TupleType', elementTypes: nodes(tuple, 'cqlType').map(buildType), range };
  const vector = node(n, 'vectorType');
  if (vector) {
    return { kind: 'VectorType', elementType: buildType(node(vector, 'cqlType')!), dimension: Number(tok(vector, 'IntegerLiteral')!.image), range };
  }
  const frozen = node(n, 'frozenType');
  if (frozen) return { kind: 'FrozenType', inner: buildType(node(frozen, 'cqlType')!), range };
  return { kind: 'UserType', name: qualifiedName(node(n, 'userTypeName')!), range };
}

// ---------------------------------------------------------------------------------------------
// Expressions

/** Merges operator tokens with their operands (CST children lose the interleaving order). */
function sortedTokens(n: CstNode, names: string[]): IToken[] {
  const out: IToken[] = [];
  for (const name of names) out.push(...toks(n, name));
  return out.sort((a, b) => a.startOffset - b.startOffset);
}

const PRECEDENCE: Record<string, number> = { '+': 1, '-': 1, '*': 2, '/': 2, '%': 2 };

export function buildExpression(n: ExpressionCstNode): A.Expression {
  const operandNodes = nodes(n, 'operand');
  const first = buildOperand(operandNodes[0]);
  if (operandNodes.length === 1) return first;
  const ops = sortedTokens(n, ['Plus', 'Minus', 'Star', 'Slash', 'Percent']);
  // Operator precedence (the grammar is flat): reduce with a small operator stack.
  const values: A.Expression[] = [first];
  const pending: string[] = [];
  const reduce = () => {
    const right = values.pop()!;
    const left = values.pop()!;
    const operator = pending.pop() as A.BinaryExpression['operator'];
    values.push({ kind: 'BinaryExpression', operator, left, right, range: spanRanges(left.range, right.range) });
  };
  for (let i = 1; i < operandNodes.length; i++) {
    const op = ops[i - 1].image;
    while (pending.length && PRECEDENCE[pending[pending.length - 1]] >= PRECEDENCE[op]) reduce();
    pending.push(op);
    values.push(buildOperand(operandNodes[i]));
  }
  while (pending.length) reduce();
  return values[0];
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

function negate(minus: IToken, operand: A.Expression): A.Expression {
  // `-5` is one literal (Cassandra lexes it so); `- x` is a negation.
  if (operand.kind === 'Literal' && operand.range.start === minus.endOffset! + 1 &&
      (operand.literalKind === 'integer' || operand.literalKind === 'float' || operand.literalKind === 'duration' || operand.literalKind === 'nan' || operand.literalKind === 'infinity') &&
      !operand.text.startsWith('-')) {
    const text = '-' + operand.text;
    return { ...operand, value: text, text, range: { start: startOf(minus), end: operand.range.end } };
  }
  return { kind: 'UnaryExpression', operator: '-', operand, range: { start: startOf(minus), end: operand.range.end } };
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
          result = { kind: 'ElementAccess', target: result, index: exprs[0], range };
        }
      },
    });
  });
  dots.forEach((dot, i) => {
    steps.push({
      offset: dot.startOffset,
      apply: () => {
        const field = identifier(fields[i]);
        result = { kind: 'FieldAccess', target: result, field, range: spanRanges(result.range, field.range) };
      },
    });
  });
  steps.sort((a, b) => a.offset - b.offset).forEach((s) => s.apply());
  return result;
}

function buildPrimary(c: OperandCstChildren): A.Expression {
  const name = c.Ident ?? c.EmptyQuotedName;
  if (name) {
    const id = identifierFromToken(name[0]);
    return { kind: 'ColumnRef', name: id, range: id.range };
  }
  if (c.functionCall) return buildFunctionCall(c.functionCall[0]);
  if (c.bindMarker) return buildBindMarker(c.bindMarker[0]);
  if (c.listLiteral) {
    const list = c.listLiteral[0];
    return { kind: 'ListLiteral', elements: nodes(list, 'expression').map(buildExpression), range: rangeOf(list) };
  }
  if (c.braceLiteral) return buildBraceLiteral(c.braceLiteral[0]);
  if (c.parenthesized) {
    const p = c.parenthesized[0];
    const elements = nodes(p, 'expression').map(buildExpression);
    if (elements.length === 1) return elements[0];
    return { kind: 'TupleExpression', elements, range: rangeOf(p) };
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
  return { kind: 'BindMarker', name: nameTok ? identifierFromToken(nameTok) : undefined, range: rangeOf(n) };
}

function buildFunctionCall(n: FunctionCallCstNode): A.FunctionCall {
  const args = nodes(n, 'functionArg');
  const star = args.length === 1 && has(args[0], 'Star');
  const call: A.FunctionCall = {
    kind: 'FunctionCall',
    name: qualifiedName(node(n, 'functionName')!),
    args: args.map((a) => (has(a, 'Star') ? ({ kind: 'StarExpression', range: tokenRange(tok(a, 'Star')!) } as A.StarExpression) : buildExpression(node(a, 'expression')!))),
    range: rangeOf(n),
  };
  if (star) call.star = true;
  return call;
}

function buildBraceLiteral(n: BraceLiteralCstNode): A.Expression {
  const range = rangeOf(n);
  const entries = nodes(n, 'braceEntry');
  if (entries.length === 0) return { kind: 'SetLiteral', elements: [], range };
  const pairs = entries.map((e) => nodes(e, 'expression').map(buildExpression));
  if (pairs.every((p) => p.length === 1)) return { kind: 'SetLiteral', elements: pairs.map((p) => p[0]), range };
  // `{name: value}` with plain names is a user-type value; anything else is a map.
  if (pairs.every((p) => p.length === 2 && p[0].kind === 'ColumnRef')) {
    return { kind: 'UdtLiteral', fields: pairs.map((p) => ({ name: (p[0] as A.ColumnRef).name, value: p[1] })), range };
  }
  return { kind: 'MapLiteral', entries: pairs.map((p) => ({ key: p[0], value: p[1] ?? p[0] })), range };
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
      const alias = aliasNode ? identifier(aliasNode) : undefined;
      return { kind: 'Selector', expression, alias, range: rangeOf(s) };
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
  const relation: A.Relation = { kind: 'Relation', left, operator, right, range };
  if (inList !== undefined) relation.inList = inList;
  return relation;
}

/** The relations of a WHERE clause (its range is the clause's: `rangeOf`). */
function buildWhere(n: WhereClauseCstNode | undefined): A.Relation[] {
  return n ? nodes(n, 'relation').map(buildRelation) : [];
}

function buildUsing(n: UsingClauseCstNode | undefined): A.UsingClause[] {
  if (!n) return [];
  return nodes(n, 'usingOption').map((o) => ({
    kind: 'UsingClause',
    option: has(o, 'TTL') ? 'TTL' : 'TIMESTAMP',
    value: buildIntValue(node(o, 'intValue')!),
    range: rangeOf(o),
  }));
}

function buildProperty(n: PropertyCstNode): A.Property {
  return { kind: 'Property', name: identifier(node(n, 'propertyName')!), value: buildExpression(node(n, 'expression')!), range: rangeOf(n) };
}

function buildProperties(n: PropertiesCstNode | undefined): A.Property[] {
  return n ? nodes(n, 'property').map(buildProperty) : [];
}

function buildTableOptions(n: TableOptionsCstNode): A.TableOptions {
  const options: A.TableOptions = { kind: 'TableOptions', properties: [], clusteringOrder: [], compactStorage: false, range: rangeOf(n) };
  for (const option of nodes(n, 'tableOption')) {
    const property = node(option, 'property');
    const clustering = node(option, 'clusteringOrder');
    if (property) options.properties.push(buildProperty(property));
    else if (clustering) {
      options.clusteringOrderRange = rangeOf(clustering);
      for (const item of nodes(clustering, 'clusteringOrderItem')) {
        options.clusteringOrder.push({ kind: 'ClusteringOrder', column: identifier(node(item, 'columnName')!), direction: has(item, 'DESC') ? 'DESC' : 'ASC', range: rangeOf(item) });
      }
    } else options.compactStorage = true;
  }
  return options;
}

function buildPrimaryKeyClause(n: PrimaryKeyClauseCstNode): A.PrimaryKey {
  const pk = node(n, 'partitionKey')!;
  const parenthesised = has(pk, 'LParen');
  const partitionKey = nodes(pk, 'columnName').map(identifier);
  return {
    kind: 'PrimaryKey',
    form: 'clause',
    partitionKey,
    clustering: nodes(n, 'columnName').map(identifier),
    partitionKeyParenthesised: parenthesised,
    partitionKeyRange: rangeOf(pk),
    range: rangeOf(n),
  };
}

function buildMask(n: ColumnMaskCstNode): A.MaskClause {
  const fn = node(n, 'functionCall');
  return { kind: 'MaskClause', function: fn ? buildFunctionCall(fn) : undefined, isDefault: !fn, range: rangeOf(n) };
}

function buildColumnDefinition(n: ColumnDefinitionCstNode): A.ColumnDefinition {
  const maskNode = node(n, 'columnMask');
  const column: A.ColumnDefinition = {
    kind: 'ColumnDefinition',
    name: identifier(node(n, 'columnName')!),
    type: buildType(node(n, 'cqlType')!),
    isStatic: has(n, 'STATIC'),
    inlinePrimaryKey: has(n, 'PRIMARY'),
    range: rangeOf(n),
  };
  if (maskNode) column.mask = buildMask(maskNode);
  return column;
}

function buildTypeField(n: TypeFieldCstNode): A.TypeField {
  return { kind: 'TypeField', name: identifier(node(n, 'fieldName')!), type: buildType(node(n, 'cqlType')!), range: rangeOf(n) };
}

function buildAssignmentTarget(n: DeleteSelectionCstNode): A.Expression {
  const name = identifier(node(n, 'columnName')!);
  const column: A.ColumnRef = { kind: 'ColumnRef', name, range: name.range };
  const index = node(n, 'expression');
  const field = node(n, 'fieldName');
  if (has(n, 'LBracket') && index) {
    return { kind: 'ElementAccess', target: column, index: buildExpression(index), range: spanRanges(name.range, tokenRange(tok(n, 'RBracket')!)) };
  }
  if (field) {
    const f = identifier(field);
    return { kind: 'FieldAccess', target: column, field: f, range: spanRanges(name.range, f.range) };
  }
  return column;
}

function buildAssignment(n: AssignmentCstNode): A.Assignment {
  const exprs = nodes(n, 'expression');
  const value = buildExpression(exprs[exprs.length - 1]);
  const name = identifier(node(n, 'columnName')!);
  const column: A.ColumnRef = { kind: 'ColumnRef', name, range: name.range };
  let target: A.Expression = column;
  if (has(n, 'LBracket')) {
    target = { kind: 'ElementAccess', target: column, index: buildExpression(exprs[0]), range: spanRanges(name.range, tokenRange(tok(n, 'RBracket')!)) };
  } else if (has(n, 'fieldName')) {
    const f = identifier(node(n, 'fieldName')!);
    target = { kind: 'FieldAccess', target: column, field: f, range: spanRanges(name.range, f.range) };
  }
  const operator = (tok(n, 'Eq') ?? tok(n, 'PlusEq') ?? tok(n, 'MinusEq'))!.image as A.Assignment['operator'];
  return { kind: 'Assignment', target, operator, value, range: rangeOf(n) };
}

function buildConditions(n: IfClauseCstNode | undefined): A.Relation[] {
  return n ? nodes(n, 'relation').map(buildRelation) : [];
}

function typeList(n: TypeListCstNode | undefined): A.CqlType[] | undefined {
  return n ? nodes(n, 'cqlType').map(buildType) : undefined;
}

// ---------------------------------------------------------------------------------------------
// Statements

type Base = { range: A.SourceRange; terminated: boolean };

function buildSelect(n: SelectStatementCstNode, base: Base): A.SelectStatement {
  const { selectors, star } = buildSelectors(node(n, 'selectClause')!);
  const groupItems = nodes(n, 'groupByItem').map((g) => buildExpression(node(g, 'expression')!));
  const perPartition = node(n, 'perPartitionLimit');
  const limit = node(n, 'limitClause');
  const allowTok = tok(n, 'ALLOW');
  const where = node(n, 'whereClause');
  const stmt: A.SelectStatement = {
    kind: 'Select',
    range: base.range,
    terminated: base.terminated,
    json: has(n, 'JSON'),
    distinct: has(n, 'DISTINCT'),
    selectors,
    star,
    from: qualifiedName(node(n, 'tableName')!),
    where: buildWhere(where),
    groupBy: groupItems.filter((g): g is A.ColumnRef => g.kind === 'ColumnRef').map((g) => g.name),
    orderBy: nodes(n, 'ordering').map((o) => {
      const ordering: A.Ordering = { kind: 'Ordering', column: identifier(node(o, 'columnName')!), range: rangeOf(o) };
      if (has(o, 'ASC')) ordering.direction = 'ASC';
      if (has(o, 'DESC')) ordering.direction = 'DESC';
      const ann = node(o, 'expression');
      if (ann) ordering.annOf = buildExpression(ann);
      return ordering;
    }),
    allowFiltering: !!allowTok,
  };
  if (where) stmt.whereRange = rangeOf(where);
  if (groupItems.length) stmt.groupByExpressions = groupItems;
  if (perPartition) stmt.perPartitionLimit = buildIntValue(node(perPartition, 'intValue')!);
  if (limit) stmt.limit = buildIntValue(node(limit, 'intValue')!);
  if (allowTok) stmt.allowFilteringRange = tokenRange(allowTok, tok(n, 'FILTERING')!);
  return stmt;
}

function buildInsert(n: InsertStatementCstNode, base: Base): A.InsertStatement {
  const cols = node(n, 'insertColumns');
  const vals = node(n, 'insertValues');
  const stmt: A.InsertStatement = {
    kind: 'Insert',
    range: base.range,
    terminated: base.terminated,
    table: qualifiedName(node(n, 'tableName')!),
    columns: cols ? nodes(cols, 'columnName').map(identifier) : [],
    values: vals ? nodes(vals, 'expression').map(buildExpression) : [],
    ifNotExists: has(n, 'ifNotExists'),
    using: buildUsing(node(n, 'usingClause')),
  };
  if (cols) stmt.columnsRange = rangeOf(cols);
  if (vals) stmt.valuesRange = rangeOf(vals);
  if (has(n, 'JSON')) {
    const str = tok(n, 'StringLiteral');
    stmt.json = str ? literalFromToken(str) : buildBindMarker(node(n, 'bindMarker')!);
    if (has(n, 'DEFAULT')) stmt.jsonDefault = has(n, 'UNSET') ? 'UNSET' : 'NULL';
  }
  return stmt;
}

function buildUpdate(n: UpdateStatementCstNode, base: Base): A.UpdateStatement {
  const where = node(n, 'whereClause');
  const ifClause = node(n, 'ifClause');
  const stmt: A.UpdateStatement = {
    kind: 'Update',
    range: base.range,
    terminated: base.terminated,
    table: qualifiedName(node(n, 'tableName')!),
    using: buildUsing(node(n, 'usingClause')),
    assignments: nodes(n, 'assignment').map(buildAssignment),
    where: buildWhere(where),
    conditions: buildConditions(ifClause),
    ifExists: ifClause !== undefined && has(ifClause, 'EXISTS'),
  };
  if (where) stmt.whereRange = rangeOf(where);
  return stmt;
}

function buildDelete(n: DeleteStatementCstNode, base: Base): A.DeleteStatement {
  const where = node(n, 'whereClause');
  const ifClause = node(n, 'ifClause');
  const stmt: A.DeleteStatement = {
    kind: 'Delete',
    range: base.range,
    terminated: base.terminated,
    selections: nodes(n, 'deleteSelection').map(buildAssignmentTarget),
    table: qualifiedName(node(n, 'tableName')!),
    using: buildUsing(node(n, 'usingClause')),
    where: buildWhere(where),
    conditions: buildConditions(ifClause),
    ifExists: ifClause !== undefined && has(ifClause, 'EXISTS'),
  };
  if (where) stmt.whereRange = rangeOf(where);
  return stmt;
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
  return {
    kind: 'Batch',
    range: base.range,
    terminated: base.terminated,
    batchType: has(n, 'UNLOGGED') ? 'UNLOGGED' : has(n, 'COUNTER') ? 'COUNTER' : 'LOGGED',
    using: buildUsing(node(n, 'usingClause')),
    statements,
  };
}

function buildCreate(n: CreateStatementCstNode, base: Base, nameWords: string[]): A.Statement {
  const c = n.children;
  if (c.createKeyspace) {
    const s = c.createKeyspace[0];
    return { kind: 'CreateKeyspace', range: base.range, terminated: base.terminated, name: identifier(node(s, 'keyspaceName')!), ifNotExists: has(s, 'ifNotExists'), properties: buildProperties(node(s, 'properties')) };
  }
  if (c.createTable) {
    const s = c.createTable[0];
    const names = nodes(s, 'tableName');
    const body = node(s, 'tableBody');
    const stmt: A.CreateTableStatement = {
      kind: 'CreateTable',
      range: base.range,
      terminated: base.terminated,
      columnFamily: tok(s, 'TABLE')!.image.toLowerCase() === 'columnfamily',
      name: qualifiedName(names[0]),
      ifNotExists: has(s, 'ifNotExists'),
      columns: [],
    };
    if (body) {
      stmt.bodyRange = rangeOf(body);
      for (const el of nodes(body, 'tableElement')) {
        const def = node(el, 'columnDefinition');
        if (def) {
          const column = buildColumnDefinition(def);
          stmt.columns.push(column);
          if (column.inlinePrimaryKey && !stmt.primaryKey) {
            stmt.primaryKey = {
              kind: 'PrimaryKey',
              form: 'inline',
              partitionKey: [{ ...column.name, range: column.name.range }],
              clustering: [],
              partitionKeyParenthesised: false,
              partitionKeyRange: column.name.range,
              range: tokenRange(tok(def, 'PRIMARY')!, tok(def, 'KEY')!),
            };
          }
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
    const using = tok(s, 'StringLiteral');
    const stmt: A.CreateIndexStatement = {
      kind: 'CreateIndex',
      range: base.range,
      terminated: base.terminated,
      custom: has(s, 'CUSTOM'),
      ifNotExists: has(s, 'ifNotExists'),
      table: qualifiedName(node(s, 'tableName')!),
      targets: nodes(s, 'indexTarget').map((t) => ({
        kind: 'IndexTarget',
        column: identifier(node(t, 'columnName')!),
        indexKind: has(t, 'KEYS') ? 'keys' : has(t, 'VALUES') ? 'values' : has(t, 'ENTRIES') ? 'entries' : has(t, 'FULL') ? 'full' : 'simple',
        range: rangeOf(t),
      })),
      properties: buildProperties(node(s, 'properties')),
    };
    if (nameNode) stmt.name = identifier(nameNode);
    if (using) stmt.using = ownString(decodeString(using.image));
    return stmt;
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
    return { kind: 'DropTable', range: base.range, terminated: base.terminated, name: qualifiedName(node(s, 'tableName')!), ifExists: has(s, 'ifExists') };
  }
  if (c.dropType) {
    const s = c.dropType[0];
    return { kind: 'DropType', range: base.range, terminated: base.terminated, name: qualifiedName(node(s, 'userTypeName')!), ifExists: has(s, 'ifExists') };
  }
  if (c.dropIndex) {
    const s = c.dropIndex[0];
    return { kind: 'DropIndex', range: base.range, terminated: base.terminated, name: qualifiedName(node(s, 'qualifiedIndexName')!), ifExists: has(s, 'ifExists') };
  }
  if (c.dropMaterializedView) {
    const s = c.dropMaterializedView[0];
    return { kind: 'DropMaterializedView', range: base.range, terminated: base.terminated, name: qualifiedName(node(s, 'tableName')!), ifExists: has(s, 'ifExists') };
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
  if (c.useStatement) return { kind: 'Use', range: base.range, terminated: base.terminated, keyspace: identifier(node(c.useStatement[0], 'keyspaceName')!) };
  if (c.truncateStatement) return { kind: 'Truncate', range: base.range, terminated: base.terminated, name: qualifiedName(node(c.truncateStatement[0], 'tableName')!) };
  if (c.createStatement) return buildCreate(c.createStatement[0], base, otherStatementType(c.createStatement[0], tokens));
  if (c.alterStatement) return buildAlter(c.alterStatement[0], base, otherStatementType(c.alterStatement[0], tokens));
  if (c.dropStatement) return buildDrop(c.dropStatement[0], base, otherStatementType(c.dropStatement[0], tokens));
  // GRANT, REVOKE, LIST, DESCRIBE, ADD IDENTITY: modelled as OtherStatement.
  const s = (c.grantStatement ?? c.revokeStatement ?? c.listStatement ?? c.describeStatement ?? c.addIdentityStatement)![0];
  return buildOther(s, base, otherStatementType(s, tokens));
}

export { firstTokenOf };
