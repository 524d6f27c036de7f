// The AST's nodes, made from tokens and from parts already built: their ranges (shared where nodes start
// and end at the same token), their strings (one copy each during a parse), and one constructor per node
// shape (a statement's in its family file, grammar/syntax/*.ts). Both readings use them, so a node has the same
// fields in the same order whichever way it was made: the rules' actions and the reader beside them.
import type { IToken } from './chevrotain';
import type * as A from './ast';
import * as Lexer from './lexer';

// Token types as module constants: compiled to CommonJS (tsx: tests, bench), every use of an imported binding is a
// getter call, a few per cent of a parse in the hot paths.
const {
  QuotedName,
  EmptyQuotedName,
  StringLiteral,
  IntegerLiteral,
  FloatLiteral,
  DurationLiteral,
  NanLiteral,
  InfinityLiteral,
  BooleanLiteral,
  UuidLiteral,
  HexLiteral,
} = Lexer;

// ---------------------------------------------------------------------------------------------
// Ranges

/** The range of one token, made once and shared by every node that starts or ends there. */
function ownRange(t: IToken): A.SourceRange {
  return (t.astRange ??= { start: startOf(t), end: endOf(t) });
}

export function startOf(t: IToken): number {
  return t.startOffset;
}

export function endOf(t: IToken): number {
  return t.endOffset! + 1;
}

export function tokenRange(from: IToken, to: IToken = from): A.SourceRange {
  return from === to ? ownRange(from) : { start: startOf(from), end: endOf(to) };
}

export function spanRanges(a: A.SourceRange, b: A.SourceRange): A.SourceRange {
  return a === b ? a : { start: a.start, end: b.end };
}

/**
 * A list the AST keeps, at its size: an array grown by push keeps room for 16 or more further items, kept as
 * long as the parse is.
 */
export function sized<T>(list: T[]): T[] {
  return list.length ? list.slice() : list;
}

// ---------------------------------------------------------------------------------------------
// Strings

// Strings the AST keeps, one copy each during a parse (withSharedStrings): a name written a hundred times is
// kept once instead of as a hundred copies of the token's image.
let sharedStrings: Map<string, string> | undefined;
/** A string literal's shared value by its shared text (the same table's life): decoded once per distinct literal. */
let decodedStrings: Map<string, string> | undefined;

/** Runs `build` with the AST's strings shared; the tables are dropped afterwards, so they keep nothing alive. */
export function withSharedStrings<T>(build: () => T): T {
  if (sharedStrings) return build();
  sharedStrings = new Map();
  decodedStrings = new Map();
  try {
    return build();
  } finally {
    sharedStrings = undefined;
    decodedStrings = undefined;
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
 * file alive after the tree is dropped; slicing a concatenation copies the characters first (the result is a
 * view of that copy, a character larger: cheap for trees; server/core/util/strings.ts flatCopy makes exact
 * copies for strings kept long).
 */
export function ownString(s: string): string {
  return s.length < 13 ? s : (' ' + s).slice(1);
}

export function decodeString(image: string): string {
  if (image.startsWith('$$')) return image.slice(2, -2);
  return image.slice(1, -1).replace(/''/g, "'");
}

// ---------------------------------------------------------------------------------------------
// Names, literals, types

/** One string per native type name for the whole process (a fixed set of keywords): schemas keep thousands. */
const nativeTypeNames = new Map<string, A.NativeTypeName>();

function nativeTypeName(image: string): A.NativeTypeName {
  const lower = image.toLowerCase() as A.NativeTypeName;
  const known = nativeTypeNames.get(lower);
  if (known !== undefined) return known;
  nativeTypeNames.set(lower, lower);
  return lower;
}

export function identifierFromToken(t: IToken): A.Identifier {
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
  return {
    kind: 'Identifier',
    name,
    text: image,
    quoted: quoted || t.tokenType === StringLiteral,
    range: tokenRange(t),
  };
}

/** `[keyspace.]name`. */
export function qualifiedNameOf(keyspace: A.Identifier | undefined, name: A.Identifier): A.QualifiedName {
  return {
    kind: 'QualifiedName',
    keyspace,
    name,
    range: keyspace ? spanRanges(keyspace.range, name.range) : name.range,
  };
}

const SHARED_LITERAL_LENGTH = 24;

export function literalFromToken(t: IToken): A.Literal {
  const type = t.tokenType;
  let literalKind: A.LiteralKind;
  // Long literals are seldom repeated, and sharing costs a hash of the whole text.
  const text = t.image.length <= SHARED_LITERAL_LENGTH ? shared(t.image) : ownString(t.image);
  let value = text;
  if (type === StringLiteral) {
    literalKind = 'string';
    value = decodedValue(text);
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

/** A string literal's value, shared as its text is (the text itself is shared when short). */
function decodedValue(text: string): string {
  const cache = text.length <= SHARED_LITERAL_LENGTH ? decodedStrings : undefined;
  const known = cache?.get(text);
  if (known !== undefined) return known;
  const decoded = decodeString(text);
  const value = decoded.length <= SHARED_LITERAL_LENGTH ? shared(decoded) : ownString(decoded);
  cache?.set(text, value);
  return value;
}

export function nativeTypeOf(t: IToken, range: A.SourceRange): A.NativeType {
  return { kind: 'NativeType', name: nativeTypeName(t.image), range };
}

/** `'org.example.MyType'`: a type named by its Java class. */
export function customTypeOf(t: IToken): A.CqlType {
  return { kind: 'CustomType', className: ownString(decodeString(t.image)), range: tokenRange(t) };
}

export function collectionTypeOf(
  collection: A.CollectionType['collection'],
  elementTypes: A.CqlType[],
  range: A.SourceRange,
): A.CollectionType {
  return { kind: 'CollectionType', collection, elementTypes, range };
}

export function tupleTypeOf(elementTypes: A.CqlType[], range: A.SourceRange): A.TupleType {
  return { kind: 'TupleType', elementTypes, range };
}

export function vectorTypeOf(elementType: A.CqlType, dimension: IToken, range: A.SourceRange): A.VectorType {
  return { kind: 'VectorType', elementType, dimension: Number(dimension.image), range };
}

export function frozenTypeOf(inner: A.CqlType, range: A.SourceRange): A.FrozenType {
  return { kind: 'FrozenType', inner, range };
}

export function userTypeOf(name: A.QualifiedName, range: A.SourceRange): A.UserType {
  return { kind: 'UserType', name, range };
}

// ---------------------------------------------------------------------------------------------
// Expressions

export function columnRefOf(name: A.Identifier): A.ColumnRef {
  return { kind: 'ColumnRef', name, range: name.range };
}

export function bindMarkerOf(name: A.Identifier | undefined, range: A.SourceRange): A.BindMarker {
  return { kind: 'BindMarker', name, range };
}

export function starOf(star: IToken): A.StarExpression {
  return { kind: 'StarExpression', range: tokenRange(star) };
}

/** `name(args)`; `star`: the only argument is `*` (`count(*)`). */
export function functionCallOf(
  name: A.QualifiedName,
  args: A.Expression[],
  range: A.SourceRange,
  star: boolean,
): A.FunctionCall {
  const call: A.FunctionCall = { kind: 'FunctionCall', name, args, range };
  if (star) call.star = true;
  return call;
}

export function listLiteralOf(elements: A.Expression[], range: A.SourceRange): A.ListLiteral {
  return { kind: 'ListLiteral', elements, range };
}

/** `{...}` from its entries (each one expression, or a key and a value): a set, a user-type value or a map. */
export function braceLiteralOf(pairs: A.Expression[][], range: A.SourceRange): A.Expression {
  if (pairs.length === 0) return { kind: 'SetLiteral', elements: [], range };
  if (pairs.every((p) => p.length === 1)) return { kind: 'SetLiteral', elements: pairs.map((p) => p[0]), range };
  // `{name: value}` with plain names is a user-type value; anything else is a map.
  if (pairs.every((p) => p.length === 2 && p[0].kind === 'ColumnRef')) {
    return { kind: 'UdtLiteral', fields: pairs.map((p) => ({ name: (p[0] as A.ColumnRef).name, value: p[1] })), range };
  }
  return { kind: 'MapLiteral', entries: pairs.map((p) => ({ key: p[0], value: p[1] ?? p[0] })), range };
}

/** `(e)` is `e` itself; `(a, b, ...)` a tuple. */
export function parenthesizedOf(elements: A.Expression[], range: A.SourceRange): A.Expression {
  return elements.length === 1 ? elements[0] : { kind: 'TupleExpression', elements, range };
}

/** `-operand`: `-5` is one literal (Cassandra lexes it so); `- x` is a negation. */
export function negate(minus: IToken, operand: A.Expression): A.Expression {
  if (
    operand.kind === 'Literal' &&
    operand.range.start === minus.endOffset! + 1 &&
    (operand.literalKind === 'integer' ||
      operand.literalKind === 'float' ||
      operand.literalKind === 'duration' ||
      operand.literalKind === 'nan' ||
      operand.literalKind === 'infinity') &&
    !operand.text.startsWith('-')
  ) {
    const text = '-' + operand.text;
    return { ...operand, value: text, text, range: { start: startOf(minus), end: operand.range.end } };
  }
  return { kind: 'UnaryExpression', operator: '-', operand, range: { start: startOf(minus), end: operand.range.end } };
}

export function elementAccessOf(target: A.Expression, index: A.Expression, range: A.SourceRange): A.ElementAccess {
  return { kind: 'ElementAccess', target, index, range };
}

/** `target[index]`: its range runs from the target's start to the `]`. */
export function elementAccessAt(target: A.Expression, index: A.Expression, close: IToken): A.ElementAccess {
  return elementAccessOf(target, index, { start: target.range.start, end: endOf(close) });
}

/** `target[from..to]` (either bound may be missing): its range runs from the target's start to the `]`. */
export function sliceAccessOf(
  target: A.Expression,
  from: A.Expression | undefined,
  to: A.Expression | undefined,
  close: IToken,
): A.Expression {
  return { kind: 'SliceAccess', target, from, to, range: { start: target.range.start, end: endOf(close) } };
}

/** `(type) value`. */
export function typeHintOf(type: A.CqlType, expression: A.Expression, range: A.SourceRange): A.Expression {
  return { kind: 'TypeHint', type, expression, range };
}

export function castOf(expression: A.Expression, type: A.CqlType, range: A.SourceRange): A.CastExpression {
  return { kind: 'CastExpression', expression, type, range };
}

export function fieldAccessOf(target: A.Expression, field: A.Identifier): A.FieldAccess {
  return { kind: 'FieldAccess', target, field, range: spanRanges(target.range, field.range) };
}

const PRECEDENCE: Record<string, number> = { '+': 1, '-': 1, '*': 2, '/': 2, '%': 2 };

/**
 * `operands[0] op[0] operands[1] ...` with operator precedence (the grammar is flat): reduced with a
 * small operator stack. `operand(i)` builds the i-th operand when its turn comes.
 */
export function binaryChain(
  count: number,
  operand: (i: number) => A.Expression,
  operators: readonly string[],
): A.Expression {
  const first = operand(0);
  if (count === 1) return first;
  const values: A.Expression[] = [first];
  const pending: string[] = [];
  const reduce = () => {
    const right = values.pop()!;
    const left = values.pop()!;
    const operator = pending.pop() as A.BinaryExpression['operator'];
    values.push({ kind: 'BinaryExpression', operator, left, right, range: spanRanges(left.range, right.range) });
  };
  for (let i = 1; i < count; i++) {
    const op = operators[i - 1];
    while (pending.length && PRECEDENCE[pending[pending.length - 1]] >= PRECEDENCE[op]) reduce();
    pending.push(op);
    values.push(operand(i));
  }
  while (pending.length) reduce();
  return values[0];
}

// ---------------------------------------------------------------------------------------------
// Clauses

export function selectorOf(
  expression: A.Expression,
  alias: A.Identifier | undefined,
  range: A.SourceRange,
): A.Selector {
  return { kind: 'Selector', expression, alias, range };
}

export function relationOf(
  left: A.Expression,
  operator: A.RelationOperator,
  right: A.Expression[],
  range: A.SourceRange,
  inList: boolean | undefined,
): A.Relation {
  const relation: A.Relation = { kind: 'Relation', left, operator, right, range };
  if (inList !== undefined) relation.inList = inList;
  return relation;
}

export function orderingOf(
  column: A.Identifier,
  range: A.SourceRange,
  direction: A.Ordering['direction'],
  annOf: A.Expression | undefined,
): A.Ordering {
  const ordering: A.Ordering = { kind: 'Ordering', column, range };
  if (direction) ordering.direction = direction;
  if (annOf) ordering.annOf = annOf;
  return ordering;
}

export function usingClauseOf(
  option: A.UsingClause['option'],
  value: A.Expression,
  range: A.SourceRange,
): A.UsingClause {
  return { kind: 'UsingClause', option, value, range };
}

export function assignmentOf(
  target: A.Expression,
  operator: IToken,
  value: A.Expression,
  range: A.SourceRange,
): A.Assignment {
  return { kind: 'Assignment', target, operator: operator.image as A.Assignment['operator'], value, range };
}

export function propertyOf(name: A.Identifier, value: A.Expression, range: A.SourceRange): A.Property {
  return { kind: 'Property', name, value, range };
}

/** A table's options, filled in by the caller. */
export function tableOptionsOf(range: A.SourceRange): A.TableOptions {
  return { kind: 'TableOptions', properties: [], clusteringOrder: [], compactStorage: false, range };
}

export function clusteringOrderOf(column: A.Identifier, descending: boolean, range: A.SourceRange): A.ClusteringOrder {
  return { kind: 'ClusteringOrder', column, direction: descending ? 'DESC' : 'ASC', range };
}

export function columnDefinitionOf(
  name: A.Identifier,
  type: A.CqlType,
  isStatic: boolean,
  inlinePrimaryKey: boolean,
  range: A.SourceRange,
): A.ColumnDefinition {
  return { kind: 'ColumnDefinition', name, type, isStatic, inlinePrimaryKey, range };
}

/** `MASKED WITH DEFAULT` (no function) or `MASKED WITH f(args)`. */
export function maskOf(fn: A.FunctionCall | undefined, range: A.SourceRange): A.MaskClause {
  return { kind: 'MaskClause', function: fn, isDefault: !fn, range };
}

/** A user type's field: `name type`. */
export function typeFieldOf(name: A.Identifier, type: A.CqlType, range: A.SourceRange): A.TypeField {
  return { kind: 'TypeField', name, type, range };
}

/** `PRIMARY KEY (partition key, clustering...)`; `partitionKeyRange`: the partition key as written (parenthesised or one name). */
export function primaryKeyClauseOf(
  partitionKey: A.Identifier[],
  clustering: A.Identifier[],
  parenthesised: boolean,
  partitionKeyRange: A.SourceRange,
  range: A.SourceRange,
): A.PrimaryKey {
  return {
    kind: 'PrimaryKey',
    form: 'clause',
    partitionKey,
    clustering,
    partitionKeyParenthesised: parenthesised,
    partitionKeyRange,
    range,
  };
}

/** `col type PRIMARY KEY`: the primary key is that column alone; `range` is the `PRIMARY KEY` words'. */
export function inlinePrimaryKeyOf(column: A.ColumnDefinition, range: A.SourceRange): A.PrimaryKey {
  return {
    kind: 'PrimaryKey',
    form: 'inline',
    partitionKey: [{ ...column.name, range: column.name.range }],
    clustering: [],
    partitionKeyParenthesised: false,
    partitionKeyRange: column.name.range,
    range,
  };
}

/** A select clause: `*`, or its selectors. */
export interface SelectClause {
  selectors: A.Selector[];
  star: boolean;
}

/** `*` (no selectors) or the selectors, in the order of the clause's fields in the nodes that keep it. */
export function selectClauseOf(selectors: A.Selector[], star: boolean): SelectClause {
  return star ? { selectors: [], star } : { star, selectors };
}
