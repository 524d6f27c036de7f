// The AST's building blocks (grammar/ast.ts is the contract that re-exports them): source ranges, names, types,
// expressions and the clauses statements are made of. Free of editor or LSP imports.

/**
 * A half-open range of 0-based offsets (UTF-16 code units): `start` is the first character, `end` just after
 * the last one. Lines and columns come from the file's LineIndex (grammar/line-index.ts) where they are
 * shown: kept as objects on every node, they were the largest part of what a parse and a schema hold.
 */
export interface SourceRange {
  start: number;
  end: number;
}

/** A SourceRange: an object with numeric `start` and `end` and nothing else (how walkers over the AST, findings and their data tell one). */
export function isSourceRange(value: unknown): value is SourceRange {
  if (typeof value !== 'object' || value === null) return false;
  const range = value as Record<string, unknown>;
  if (typeof range.start !== 'number' || typeof range.end !== 'number') return false;
  for (const key in range) if (key !== 'start' && key !== 'end') return false;
  return true;
}

export interface Node {
  kind: string;
  range: SourceRange;
}

// ---------------------------------------------------------------------------------------------
// Names

/**
 * A name as written. `name` is how Cassandra sees it: unquoted names are folded to lower case,
 * quoted names keep their case with `""` unescaped. `text` is the raw source text.
 */
export interface Identifier extends Node {
  kind: 'Identifier';
  name: string;
  text: string;
  quoted: boolean;
}

/** `[keyspace.]name` for tables, views, types, functions, indexes. */
export interface QualifiedName extends Node {
  kind: 'QualifiedName';
  keyspace?: Identifier;
  name: Identifier;
}

// ---------------------------------------------------------------------------------------------
// Types

export type NativeTypeName =
  | 'ascii'
  | 'bigint'
  | 'blob'
  | 'boolean'
  | 'counter'
  | 'date'
  | 'decimal'
  | 'double'
  | 'duration'
  | 'float'
  | 'inet'
  | 'int'
  | 'smallint'
  | 'text'
  | 'time'
  | 'timestamp'
  | 'timeuuid'
  | 'tinyint'
  | 'uuid'
  | 'varchar'
  | 'varint';

export interface NativeType extends Node {
  kind: 'NativeType';
  name: NativeTypeName;
}

export interface CollectionType extends Node {
  kind: 'CollectionType';
  collection: 'list' | 'set' | 'map';
  /** One element type for list/set, key and value types for map. */
  elementTypes: CqlType[];
}

export interface FrozenType extends Node {
  kind: 'FrozenType';
  inner: CqlType;
}

export interface TupleType extends Node {
  kind: 'TupleType';
  elementTypes: CqlType[];
}

export interface VectorType extends Node {
  kind: 'VectorType';
  elementType: CqlType;
  dimension: number;
}

/** A user-defined type reference, `[ks.]name`. */
export interface UserType extends Node {
  kind: 'UserType';
  name: QualifiedName;
}

/** `'org.apache.cassandra.db.marshal.SomeType'` used as a type. */
export interface CustomType extends Node {
  kind: 'CustomType';
  className: string;
}

export type CqlType = NativeType | CollectionType | FrozenType | TupleType | VectorType | UserType | CustomType;

// ---------------------------------------------------------------------------------------------
// Expressions (terms, selectors, relation operands)

export type LiteralKind =
  'string' | 'integer' | 'float' | 'boolean' | 'null' | 'uuid' | 'hex' | 'duration' | 'nan' | 'infinity';

export interface Literal extends Node {
  kind: 'Literal';
  literalKind: LiteralKind;
  /**
   * The value: for strings the decoded content (`''` unescaped, `$$` stripped); for every other
   * kind the source text (numbers keep their spelling so that decimals keep their scale).
   */
  value: string;
  /** Raw source text. */
  text: string;
}

/** `?` or `:name`. */
export interface BindMarker extends Node {
  kind: 'BindMarker';
  name?: Identifier;
}

/** A column named in a selector, relation, assignment or DELETE selection. */
export interface ColumnRef extends Node {
  kind: 'ColumnRef';
  name: Identifier;
}

export interface ListLiteral extends Node {
  kind: 'ListLiteral';
  elements: Expression[];
}

export interface SetLiteral extends Node {
  kind: 'SetLiteral';
  elements: Expression[];
}

export interface MapLiteral extends Node {
  kind: 'MapLiteral';
  entries: { key: Expression; value: Expression }[];
}

/** `{field: value, ...}` for user-defined type values. */
export interface UdtLiteral extends Node {
  kind: 'UdtLiteral';
  fields: { name: Identifier; value: Expression }[];
}

/** `(a, b, ...)`: a tuple value or a tuple of columns on the left of a relation. */
export interface TupleExpression extends Node {
  kind: 'TupleExpression';
  elements: Expression[];
}

/** `name(args)`, including `token(...)`, `now()`, `writetime(col)`, `ttl(col)`, `count(*)`. */
export interface FunctionCall extends Node {
  kind: 'FunctionCall';
  name: QualifiedName;
  args: Expression[];
  /** True for `count(*)`-style calls whose only argument is `*`. */
  star?: boolean;
}

/** `CAST(expr AS type)`. */
export interface CastExpression extends Node {
  kind: 'CastExpression';
  expression: Expression;
  type: CqlType;
}

/** `(type) term` type hint. */
export interface TypeHint extends Node {
  kind: 'TypeHint';
  type: CqlType;
  expression: Expression;
}

export interface BinaryExpression extends Node {
  kind: 'BinaryExpression';
  operator: '+' | '-' | '*' | '/' | '%';
  left: Expression;
  right: Expression;
}

export interface UnaryExpression extends Node {
  kind: 'UnaryExpression';
  operator: '-';
  operand: Expression;
}

/** `col[key]`: collection element. */
export interface ElementAccess extends Node {
  kind: 'ElementAccess';
  target: Expression;
  index: Expression;
}

/** `col[from..to]`: collection slice (either bound may be omitted). */
export interface SliceAccess extends Node {
  kind: 'SliceAccess';
  target: Expression;
  from?: Expression;
  to?: Expression;
}

/** `col.field`: UDT field. */
export interface FieldAccess extends Node {
  kind: 'FieldAccess';
  target: Expression;
  field: Identifier;
}

/** `*` where a selector or function argument allows it. */
export interface StarExpression extends Node {
  kind: 'StarExpression';
}

export type Expression =
  | Literal
  | BindMarker
  | ColumnRef
  | ListLiteral
  | SetLiteral
  | MapLiteral
  | UdtLiteral
  | TupleExpression
  | FunctionCall
  | CastExpression
  | TypeHint
  | BinaryExpression
  | UnaryExpression
  | ElementAccess
  | SliceAccess
  | FieldAccess
  | StarExpression;

// ---------------------------------------------------------------------------------------------
// Clauses

export interface Selector extends Node {
  kind: 'Selector';
  expression: Expression;
  alias?: Identifier;
}

export type RelationOperator =
  | '='
  | '!='
  | '<'
  | '<='
  | '>'
  | '>='
  | 'IN'
  | 'NOT IN'
  | 'CONTAINS'
  | 'CONTAINS KEY'
  | 'NOT CONTAINS'
  | 'NOT CONTAINS KEY'
  | 'LIKE'
  | 'IS NOT NULL'
  | 'BETWEEN';

/**
 * One `WHERE` (or `IF`) condition. `left` is a ColumnRef, a TupleExpression of ColumnRefs,
 * a `token(...)` FunctionCall, an ElementAccess (`map['k'] = ...`) or a FieldAccess.
 * `right` holds: one operand for comparisons; each listed value for `IN (...)` (a single BindMarker
 * for `IN ?`); two for `BETWEEN`; none for `IS NOT NULL`.
 */
export interface Relation extends Node {
  kind: 'Relation';
  left: Expression;
  operator: RelationOperator;
  right: Expression[];
  /** True when the IN list was written as a parenthesised list, false for `IN ?`/`IN :name`. */
  inList?: boolean;
}

/** `ORDER BY col [ASC|DESC]` or `ORDER BY col ANN OF [..]`. */
export interface Ordering extends Node {
  kind: 'Ordering';
  column: Identifier;
  direction?: 'ASC' | 'DESC';
  annOf?: Expression;
}

/** `USING TTL n AND TIMESTAMP n`. */
export interface UsingClause extends Node {
  kind: 'UsingClause';
  option: 'TTL' | 'TIMESTAMP' | 'TIMEOUT';
  value: Expression;
}

/** `name = value` in WITH clauses (keyspace/table/view/role/index options). */
export interface Property extends Node {
  kind: 'Property';
  name: Identifier;
  value: Expression;
}

export interface ClusteringOrder extends Node {
  kind: 'ClusteringOrder';
  column: Identifier;
  direction: 'ASC' | 'DESC';
}

/** Everything after `WITH` on a table or view. */
export interface TableOptions extends Node {
  kind: 'TableOptions';
  properties: Property[];
  clusteringOrder: ClusteringOrder[];
  /** Range of the whole `CLUSTERING ORDER BY (...)` clause when present. */
  clusteringOrderRange?: SourceRange;
  compactStorage: boolean;
}

/**
 * The primary key, however it was written.
 * - `form: 'inline'`: `col type PRIMARY KEY` (range is that of the `PRIMARY KEY` words);
 * - `form: 'clause'`: `PRIMARY KEY (a, b, c)` or `PRIMARY KEY ((a, b), c)`.
 * `partitionKeyParenthesised` tells whether the partition key had its own parentheses.
 */
export interface PrimaryKey extends Node {
  kind: 'PrimaryKey';
  form: 'inline' | 'clause';
  partitionKey: Identifier[];
  clustering: Identifier[];
  partitionKeyParenthesised: boolean;
  /** Range of the inner `(a, b)` group when parenthesised, else of the single partition key column. */
  partitionKeyRange?: SourceRange;
}

export interface MaskClause extends Node {
  kind: 'MaskClause';
  /** `MASKED WITH fn(args)` or `MASKED WITH DEFAULT`. */
  function?: FunctionCall;
  isDefault: boolean;
}

export interface ColumnDefinition extends Node {
  kind: 'ColumnDefinition';
  name: Identifier;
  type: CqlType;
  isStatic: boolean;
  /** True when written `col type PRIMARY KEY`. */
  inlinePrimaryKey: boolean;
  mask?: MaskClause;
}
