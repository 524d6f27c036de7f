// The AST's statements, comments, errors and the parse result (grammar/ast.ts is the contract that re-exports
// them), made of the parts in grammar/ast-expressions.ts. Free of editor or LSP imports.
import type {
  SourceRange,
  Node,
  Identifier,
  QualifiedName,
  CqlType,
  Literal,
  Expression,
  Selector,
  Relation,
  Ordering,
  UsingClause,
  Property,
  TableOptions,
  PrimaryKey,
  MaskClause,
  ColumnDefinition,
} from './ast-expressions';

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
  | {
      kind: 'AlterColumnMask';
      ifExists: boolean;
      column: Identifier;
      mask?: MaskClause;
      dropMask: boolean;
      range: SourceRange;
    }
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
  /** Range of ScyllaDB's `BYPASS CACHE` words when present. */
  bypassCacheRange?: SourceRange;
  /** ScyllaDB's `USING TIMEOUT duration` (a TIMEOUT UsingClause) when present. */
  using?: UsingClause[];
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
  | CreateKeyspaceStatement
  | AlterKeyspaceStatement
  | DropKeyspaceStatement
  | UseStatement
  | CreateTableStatement
  | AlterTableStatement
  | DropTableStatement
  | TruncateStatement
  | CreateTypeStatement
  | AlterTypeStatement
  | DropTypeStatement
  | CreateIndexStatement
  | DropIndexStatement
  | CreateMaterializedViewStatement
  | AlterMaterializedViewStatement
  | DropMaterializedViewStatement
  | CreateFunctionStatement
  | DropFunctionStatement
  | CreateAggregateStatement
  | DropAggregateStatement
  | CreateTriggerStatement
  | DropTriggerStatement
  | SelectStatement
  | InsertStatement
  | UpdateStatement
  | DeleteStatement
  | BatchStatement
  | OtherStatement
  | ShellCommand
  | InvalidStatement;

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
