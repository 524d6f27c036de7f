// Typed AST for CQL (Apache Cassandra 5.0 grammar plus cqlsh shell commands).
// Every node carries its exact source range so that diagnostics, hovers and text edits can point at it.
// This file is the contract between the parser and everything that reads CQL: keep it free of
// editor or LSP imports.

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
  | 'ascii' | 'bigint' | 'blob' | 'boolean' | 'counter' | 'date' | 'decimal' | 'double'
  | 'duration' | 'float' | 'inet' | 'int' | 'smallint' | 'text' | 'time' | 'timestamp'
  | 'timeuuid' | 'tinyint' | 'uuid' | 'varchar' | 'varint';

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
  | 'string' | 'integer' | 'float' | 'boolean' | 'null' | 'uuid' | 'hex' | 'duration' | 'nan' | 'infinity';

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
  | Literal | BindMarker | ColumnRef | ListLiteral | SetLiteral | MapLiteral | UdtLiteral
  | TupleExpression | FunctionCall | CastExpression | TypeHint | BinaryExpression | UnaryExpression
  | ElementAccess | SliceAccess | FieldAccess | StarExpression;

// ---------------------------------------------------------------------------------------------
// Clauses

export interface Selector extends Node {
  kind: 'Selector';
  expression: Expression;
  alias?: Identifier;
}

export type RelationOperator =
  | '=' | '!=' | '<' | '<=' | '>' | '>=' | 'IN' | 'NOT IN' | 'CONTAINS' | 'CONTAINS KEY'
  | 'NOT CONTAINS' | 'NOT CONTAINS KEY' | 'LIKE' | 'IS NOT NULL' | 'BETWEEN';

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

// ---------------------------------------------------------------------------------------------
// Statements

interface StatementBase extends Node {
  /** Whether the statement ended with `;`. */
  terminated: boolean;
}

export interface CreateKeyspaceStatement extends StatementBase {
  kind: 'CreateKeyspace';
  name: Identifier;
  ifNotExists: boolean;
  properties: Property[];
}

export interface AlterKeyspaceStatement extends StatementBase {
  kind: 'AlterKeyspace';
  name: Identifier;
  ifExists: boolean;
  properties: Property[];
}

export interface DropKeyspaceStatement extends StatementBase {
  kind: 'DropKeyspace';
  name: Identifier;
  ifExists: boolean;
}

export interface UseStatement extends StatementBase {
  kind: 'Use';
  keyspace: Identifier;
}

export interface CreateTableStatement extends StatementBase {
  kind: 'CreateTable';
  /** True for the legacy `CREATE COLUMNFAMILY`. */
  columnFamily: boolean;
  name: QualifiedName;
  ifNotExists: boolean;
  columns: ColumnDefinition[];
  /** The primary key, inline or as a clause; absent only for `CREATE TABLE ... LIKE` or invalid input. */
  primaryKey?: PrimaryKey;
  /** `CREATE TABLE t LIKE source`. */
  like?: QualifiedName;
  options?: TableOptions;
  /** Range of the `( ... )` column list, parentheses included. */
  bodyRange?: SourceRange;
}

export type AlterTableAction =
  | { kind: 'AddColumns'; ifNotExists: boolean; columns: ColumnDefinition[]; range: SourceRange }
  | { kind: 'DropColumns'; ifExists: boolean; columns: Identifier[]; timestamp?: Expression; range: SourceRange }
  | { kind: 'RenameColumns'; ifExists: boolean; renames: { from: Identifier; to: Identifier }[]; range: SourceRange }
  | { kind: 'AlterColumnType'; ifExists: boolean; column: Identifier; type: CqlType; range: SourceRange }
  | { kind: 'AlterColumnMask'; ifExists: boolean; column: Identifier; mask?: MaskClause; dropMask: boolean; range: SourceRange }
  | { kind: 'WithOptions'; options: TableOptions; range: SourceRange }
  | { kind: 'DropCompactStorage'; range: SourceRange };

export interface AlterTableStatement extends StatementBase {
  kind: 'AlterTable';
  name: QualifiedName;
  ifExists: boolean;
  action: AlterTableAction;
}

export interface DropTableStatement extends StatementBase {
  kind: 'DropTable';
  name: QualifiedName;
  ifExists: boolean;
}

export interface TruncateStatement extends StatementBase {
  kind: 'Truncate';
  name: QualifiedName;
}

export interface TypeField extends Node {
  kind: 'TypeField';
  name: Identifier;
  type: CqlType;
}

export interface CreateTypeStatement extends StatementBase {
  kind: 'CreateType';
  name: QualifiedName;
  ifNotExists: boolean;
  fields: TypeField[];
}

export type AlterTypeAction =
  | { kind: 'AddField'; ifNotExists: boolean; field: TypeField; range: SourceRange }
  | { kind: 'RenameFields'; ifExists: boolean; renames: { from: Identifier; to: Identifier }[]; range: SourceRange }
  | { kind: 'AlterFieldType'; field: Identifier; type: CqlType; range: SourceRange };

export interface AlterTypeStatement extends StatementBase {
  kind: 'AlterType';
  name: QualifiedName;
  ifExists: boolean;
  action: AlterTypeAction;
}

export interface DropTypeStatement extends StatementBase {
  kind: 'DropType';
  name: QualifiedName;
  ifExists: boolean;
}

export interface IndexTarget extends Node {
  kind: 'IndexTarget';
  column: Identifier;
  /** `simple` for `(col)`; the others for `KEYS(col)`, `VALUES(col)`, `ENTRIES(col)`, `FULL(col)`. */
  indexKind: 'simple' | 'keys' | 'values' | 'entries' | 'full';
}

export interface CreateIndexStatement extends StatementBase {
  kind: 'CreateIndex';
  custom: boolean;
  name?: Identifier;
  ifNotExists: boolean;
  table: QualifiedName;
  targets: IndexTarget[];
  /** The `USING 'class'` string (e.g. `sai`, `StorageAttachedIndex`), decoded. */
  using?: string;
  /** `WITH OPTIONS = {...}` and other WITH properties. */
  properties: Property[];
}

export interface DropIndexStatement extends StatementBase {
  kind: 'DropIndex';
  name: QualifiedName;
  ifExists: boolean;
}

export interface CreateMaterializedViewStatement extends StatementBase {
  kind: 'CreateMaterializedView';
  name: QualifiedName;
  ifNotExists: boolean;
  /** Selected columns; empty with `star` true for `SELECT *`. */
  selectors: Selector[];
  star: boolean;
  from: QualifiedName;
  where: Relation[];
  primaryKey?: PrimaryKey;
  options?: TableOptions;
}

export interface AlterMaterializedViewStatement extends StatementBase {
  kind: 'AlterMaterializedView';
  name: QualifiedName;
  ifExists: boolean;
  options: TableOptions;
}

export interface DropMaterializedViewStatement extends StatementBase {
  kind: 'DropMaterializedView';
  name: QualifiedName;
  ifExists: boolean;
}

export interface FunctionArgument extends Node {
  kind: 'FunctionArgument';
  name: Identifier;
  type: CqlType;
}

export interface CreateFunctionStatement extends StatementBase {
  kind: 'CreateFunction';
  orReplace: boolean;
  ifNotExists: boolean;
  name: QualifiedName;
  arguments: FunctionArgument[];
  calledOnNullInput: boolean;
  returnType: CqlType;
  language: Identifier;
  /** The body string literal (`'...'` or `$$...$$`). */
  body: Literal;
}

export interface DropFunctionStatement extends StatementBase {
  kind: 'DropFunction';
  ifExists: boolean;
  name: QualifiedName;
  argumentTypes?: CqlType[];
}

export interface CreateAggregateStatement extends StatementBase {
  kind: 'CreateAggregate';
  orReplace: boolean;
  ifNotExists: boolean;
  name: QualifiedName;
  argumentTypes: CqlType[];
  stateFunction: QualifiedName;
  stateType: CqlType;
  finalFunction?: QualifiedName;
  initialCondition?: Expression;
}

export interface DropAggregateStatement extends StatementBase {
  kind: 'DropAggregate';
  ifExists: boolean;
  name: QualifiedName;
  argumentTypes?: CqlType[];
}

export interface CreateTriggerStatement extends StatementBase {
  kind: 'CreateTrigger';
  ifNotExists: boolean;
  name: Identifier;
  table: QualifiedName;
  using: Literal;
}

export interface DropTriggerStatement extends StatementBase {
  kind: 'DropTrigger';
  ifExists: boolean;
  name: Identifier;
  table: QualifiedName;
}

export interface SelectStatement extends StatementBase {
  kind: 'Select';
  json: boolean;
  distinct: boolean;
  /** Empty with `star` true for `SELECT *`. */
  selectors: Selector[];
  star: boolean;
  from: QualifiedName;
  where: Relation[];
  /** Range of the `WHERE ...` clause when present. */
  whereRange?: SourceRange;
  groupBy: Identifier[];
  /** Every GROUP BY item as written (columns and function calls such as `floor(ts, 1h)`); absent without GROUP BY. */
  groupByExpressions?: Expression[];
  orderBy: Ordering[];
  perPartitionLimit?: Expression;
  limit?: Expression;
  allowFiltering: boolean;
  /** Range of the `ALLOW FILTERING` words when present. */
  allowFilteringRange?: SourceRange;
}

export interface InsertStatement extends StatementBase {
  kind: 'Insert';
  table: QualifiedName;
  /** `INSERT INTO t (cols) VALUES (values)`; empty for `INSERT ... JSON`. */
  columns: Identifier[];
  values: Expression[];
  /** Range of the `(cols)` list and the `(values)` list, parentheses included. */
  columnsRange?: SourceRange;
  valuesRange?: SourceRange;
  /** `INSERT INTO t JSON '...'`. */
  json?: Expression;
  jsonDefault?: 'NULL' | 'UNSET';
  ifNotExists: boolean;
  using: UsingClause[];
}

export interface Assignment extends Node {
  kind: 'Assignment';
  /** ColumnRef, ElementAccess (`m['k'] = v`) or FieldAccess (`udt.f = v`). */
  target: Expression;
  operator: '=' | '+=' | '-=';
  /** For `c = c + x` the whole right side is a BinaryExpression. */
  value: Expression;
}

export interface UpdateStatement extends StatementBase {
  kind: 'Update';
  table: QualifiedName;
  using: UsingClause[];
  assignments: Assignment[];
  where: Relation[];
  whereRange?: SourceRange;
  /** `IF cond AND ...`. */
  conditions: Relation[];
  ifExists: boolean;
}

export interface DeleteStatement extends StatementBase {
  kind: 'Delete';
  /** Columns or elements deleted (`DELETE a, m['k'] FROM`); empty for whole rows. */
  selections: Expression[];
  table: QualifiedName;
  using: UsingClause[];
  where: Relation[];
  whereRange?: SourceRange;
  conditions: Relation[];
  ifExists: boolean;
}

export interface BatchStatement extends StatementBase {
  kind: 'Batch';
  batchType: 'LOGGED' | 'UNLOGGED' | 'COUNTER';
  using: UsingClause[];
  statements: (InsertStatement | UpdateStatement | DeleteStatement)[];
}

/**
 * Statements that cqlint parses fully but does not model in detail: roles, users, permissions,
 * DESCRIBE, identities, LIST ... (`statementType` is the leading keywords upper-cased and
 * space-separated, e.g. `CREATE ROLE`, `GRANT`, `LIST ROLES`, `DESCRIBE TABLE`, `ADD IDENTITY`).
 * `names` holds the identifiers and qualified names it mentions, in source order.
 */
export interface OtherStatement extends StatementBase {
  kind: 'Other';
  statementType: string;
  names: (Identifier | QualifiedName)[];
}

/** A cqlsh command (`SOURCE 'f'`, `CONSISTENCY ONE`, `COPY ...`, `EXPAND ON`, `EXIT`, ...). */
export interface ShellCommand extends StatementBase {
  kind: 'ShellCommand';
  /** Upper-cased command word(s), e.g. `SOURCE`, `SERIAL CONSISTENCY`, `COPY`. */
  command: string;
  /** The argument text after the command, trimmed. */
  argument: string;
}

/** A statement that did not parse; its errors are in ParseResult.errors. */
export interface InvalidStatement extends StatementBase {
  kind: 'Invalid';
}

export type Statement =
  | CreateKeyspaceStatement | AlterKeyspaceStatement | DropKeyspaceStatement | UseStatement
  | CreateTableStatement | AlterTableStatement | DropTableStatement | TruncateStatement
  | CreateTypeStatement | AlterTypeStatement | DropTypeStatement
  | CreateIndexStatement | DropIndexStatement
  | CreateMaterializedViewStatement | AlterMaterializedViewStatement | DropMaterializedViewStatement
  | CreateFunctionStatement | DropFunctionStatement | CreateAggregateStatement | DropAggregateStatement
  | CreateTriggerStatement | DropTriggerStatement
  | SelectStatement | InsertStatement | UpdateStatement | DeleteStatement | BatchStatement
  | OtherStatement | ShellCommand | InvalidStatement;

export type StatementKind = Statement['kind'];

// ---------------------------------------------------------------------------------------------
// Comments, errors, results

export interface Comment extends Node {
  kind: 'Comment';
  style: 'line' | 'block';
  /** Raw text including `--`, `//` or `/* *\/`. */
  text: string;
  /** Content without the comment markers, trimmed. */
  value: string;
}

export interface CqlSyntaxError {
  /** In the user's words: "expected ')' or ',' after column definition, found ';'". */
  message: string;
  /** The offending token (or the end of input). */
  range: SourceRange;
}

export interface ParseResult {
  statements: Statement[];
  /** All comments of the file in source order. */
  comments: Comment[];
  errors: CqlSyntaxError[];
}
