// Tables and materialized views: CREATE and DROP, their columns, primary keys, options and properties (ALTER TABLE:
// grammar/syntax/alter-table.ts): the rules, the reading and the statements' nodes.
import type { IToken } from '../chevrotain';
import type * as A from '../ast';
import * as Chevrotain from '../chevrotain';
import * as Lexer from '../lexer';
import * as Nodes from '../nodes';
import type { SelectClause } from '../nodes';
import { ModifyReader, ModifyRules } from './modify';
import * as BaseModule from './base';
import type { Base, Pending } from './base';

// Module constants: compiled to CommonJS (tsx: tests, bench), every use of an imported binding is a getter call.
const { keywordTokens: K, Ident, EmptyQuotedName, Comma, LParen, RParen, Eq } = Lexer;
const { tokenMatcher } = Chevrotain;
const {
  clusteringOrderOf,
  columnDefinitionOf,
  identifierFromToken,
  inlinePrimaryKeyOf,
  maskOf,
  primaryKeyClauseOf,
  propertyOf,
  sized,
  tableOptionsOf,
  tokenRange,
} = Nodes;
const { defaultMaskAhead } = BaseModule;

// ---------------------------------------------------------------------------------------------
// The statements' nodes

/** A CREATE TABLE without its body, columns and options: the caller adds them (addColumn, `options`). */
export function createTableOf(
  base: Base,
  table: IToken,
  name: A.QualifiedName,
  ifNotExists: boolean,
): A.CreateTableStatement {
  return {
    kind: 'CreateTable',
    range: base.range,
    terminated: base.terminated,
    columnFamily: table.image.toLowerCase() === 'columnfamily',
    name,
    ifNotExists,
    columns: [],
  };
}

/** A column definition of a CREATE TABLE body; the first primary key (inline or clause) is the table's. */
export function addColumn(
  stmt: A.CreateTableStatement,
  column: A.ColumnDefinition,
  primaryKeyRange: () => A.SourceRange,
): void {
  stmt.columns.push(column);
  if (column.inlinePrimaryKey && !stmt.primaryKey) stmt.primaryKey = inlinePrimaryKeyOf(column, primaryKeyRange());
}

export interface CreateMaterializedViewParts {
  name: A.QualifiedName;
  ifNotExists: boolean;
  clause: SelectClause;
  from: A.QualifiedName;
  where: A.Relation[];
  primaryKey: A.PrimaryKey;
  options: A.TableOptions | undefined;
}

export function createMaterializedViewOf(
  base: Base,
  p: CreateMaterializedViewParts,
): A.CreateMaterializedViewStatement {
  return {
    kind: 'CreateMaterializedView',
    range: base.range,
    terminated: base.terminated,
    name: p.name,
    ifNotExists: p.ifNotExists,
    ...p.clause,
    from: p.from,
    where: p.where,
    primaryKey: p.primaryKey,
    ...(p.options ? { options: p.options } : {}),
  };
}

export function alterMaterializedViewOf(
  base: Base,
  name: A.QualifiedName,
  ifExists: boolean,
  options: A.TableOptions,
): A.AlterMaterializedViewStatement {
  return { kind: 'AlterMaterializedView', range: base.range, terminated: base.terminated, name, ifExists, options };
}

/** `DROP TABLE|INDEX|TYPE|MATERIALIZED VIEW [IF EXISTS] name`. */
export function dropOf<K extends 'DropTable' | 'DropIndex' | 'DropType' | 'DropMaterializedView'>(
  kind: K,
  base: Base,
  name: A.QualifiedName,
  ifExists: boolean,
): A.Statement & { kind: K } {
  return { kind, range: base.range, terminated: base.terminated, name, ifExists } as A.Statement & { kind: K };
}

/** A column definition, with the range of its `PRIMARY KEY` words (the table's key when it is the first one). */
export interface ColumnDef {
  column: A.ColumnDefinition;
  primaryKeyWords: A.SourceRange | undefined;
}

type TableElement = ColumnDef | { primaryKey: A.PrimaryKey };

/** A CREATE TABLE's body and the rest, as both readings have them before the statement is made. */
interface TableParts {
  table: IToken;
  name: A.QualifiedName;
  ifNotExists: boolean;
  bodyRange: A.SourceRange | undefined;
  elements: TableElement[];
  like: A.QualifiedName | undefined;
  options: A.TableOptions | undefined;
}

function createTableFrom(base: Base, p: TableParts): A.CreateTableStatement {
  const stmt = createTableOf(base, p.table, p.name, p.ifNotExists);
  if (p.bodyRange) stmt.bodyRange = p.bodyRange;
  for (const element of p.elements) {
    if ('column' in element) addColumn(stmt, element.column, () => element.primaryKeyWords!);
    else if (!stmt.primaryKey) stmt.primaryKey = element.primaryKey;
  }
  stmt.columns = sized(stmt.columns);
  if (p.like) stmt.like = p.like;
  if (p.options) stmt.options = p.options;
  return stmt;
}

/** A table option: `COMPACT STORAGE`, `CLUSTERING ORDER BY (...)` or `name = value`. */
type TableOption =
  { compact: true } | { clustering: A.ClusteringOrder[]; range: A.SourceRange } | { property: A.Property };

function tableOptionsFrom(range: A.SourceRange, list: readonly TableOption[]): A.TableOptions {
  const options = tableOptionsOf(range);
  const properties: A.Property[] = [];
  const clusteringOrder: A.ClusteringOrder[] = [];
  for (const option of list) {
    if ('property' in option) properties.push(option.property);
    else if ('clustering' in option) {
      options.clusteringOrderRange = option.range;
      clusteringOrder.push(...option.clustering);
    } else options.compactStorage = true;
  }
  options.properties = sized(properties);
  options.clusteringOrder = sized(clusteringOrder);
  return options;
}

// ---------------------------------------------------------------------------------------------
// The rules

export class TableRules extends ModifyRules {
  readonly properties = this.RULE('properties', () => {
    const properties = [this.SUBRULE(this.property)];
    this.MANY(() => {
      this.CONSUME(K.AND);
      properties.push(this.SUBRULE2(this.property));
    });
    return properties;
  });

  readonly property = this.RULE('property', (): A.Property => {
    const first = this.LA(1);
    const name = this.SUBRULE(this.propertyName);
    this.CONSUME(Eq);
    const value = this.SUBRULE(this.expression);
    return this.ACTION(() => propertyOf(name, value, this.rangeFrom(first)));
  });

  readonly propertyName = this.RULE('propertyName', () => this.nameOf(this.CONSUME(Ident)));

  readonly createTable = this.RULE('createTable', (): Pending => {
    const table = this.CONSUME(K.TABLE);
    const ifNotExists = !!this.OPTION(() => this.SUBRULE(this.ifNotExists));
    const name = this.SUBRULE(this.tableName);
    const rest: Pick<TableParts, 'bodyRange' | 'elements' | 'like' | 'options'> = this.OR(
      (this.alts.createTableOr ??= [
        {
          ALT: () => {
            const body = this.SUBRULE(this.tableBody);
            return { ...body, like: undefined, options: this.OPTION2(() => this.SUBRULE(this.tableOptions)) };
          },
        },
        {
          ALT: () => {
            this.CONSUME(K.LIKE);
            const like = this.SUBRULE2(this.tableName);
            return {
              bodyRange: undefined,
              elements: [],
              like,
              options: this.OPTION3(() => this.SUBRULE2(this.tableOptions)),
            };
          },
        },
      ]),
    );
    return (base) => createTableFrom(base, { table, name, ifNotExists, ...rest });
  });

  readonly tableBody = this.RULE('tableBody', () => {
    const first = this.CONSUME(LParen);
    const elements = [this.SUBRULE(this.tableElement)];
    this.MANY(() => {
      this.CONSUME(Comma);
      // Cassandra accepts a trailing comma.
      this.OPTION(() => elements.push(this.SUBRULE2(this.tableElement)));
    });
    this.CONSUME(RParen);
    return this.ACTION(() => ({ bodyRange: this.rangeFrom(first), elements }));
  });

  readonly tableElement = this.RULE('tableElement', (): TableElement =>
    this.OR(
      (this.alts.tableElementOr ??= [
        { ALT: () => ({ primaryKey: this.SUBRULE(this.primaryKeyClause) }) },
        { ALT: () => this.SUBRULE(this.columnDefinition) },
      ]),
    ),
  );

  readonly columnDefinition = this.RULE('columnDefinition', (): ColumnDef => {
    const first = this.LA(1);
    const name = this.SUBRULE(this.columnName);
    const type = this.SUBRULE(this.cqlType);
    const isStatic = this.OPTION(() => this.CONSUME(K.STATIC));
    const mask = this.OPTION2(() => this.SUBRULE(this.columnMask));
    const primary = this.OPTION3(() => {
      const start = this.CONSUME(K.PRIMARY);
      this.CONSUME(K.KEY);
      return this.rangeFrom(start);
    });
    return this.ACTION(() => {
      const column = columnDefinitionOf(
        name,
        type,
        isStatic !== undefined,
        primary !== undefined,
        this.rangeFrom(first),
      );
      if (mask) column.mask = mask;
      return { column, primaryKeyWords: primary };
    });
  });

  readonly columnMask = this.RULE('columnMask', (): A.MaskClause => {
    const first = this.CONSUME(K.MASKED);
    this.CONSUME(K.WITH);
    const fn: A.FunctionCall | undefined = this.OR(
      (this.alts.columnMaskOr ??= {
        MAX_LOOKAHEAD: 2,
        DEF: [
          {
            ALT: () => void this.CONSUME(K.DEFAULT),
            GATE: () => defaultMaskAhead(this.lookahead),
            IGNORE_AMBIGUITIES: true,
          },
          { ALT: () => this.SUBRULE(this.functionCall) },
        ],
      }),
    );
    return this.ACTION(() => maskOf(fn, this.rangeFrom(first)));
  });

  readonly primaryKeyClause = this.RULE('primaryKeyClause', (): A.PrimaryKey => {
    const first = this.CONSUME(K.PRIMARY);
    this.CONSUME(K.KEY);
    this.CONSUME(LParen);
    const partition = this.SUBRULE(this.partitionKey);
    const clustering: A.Identifier[] = [];
    this.MANY(() => {
      this.CONSUME(Comma);
      clustering.push(this.SUBRULE(this.columnName));
    });
    this.CONSUME(RParen);
    return this.ACTION(() =>
      primaryKeyClauseOf(partition.names, clustering, partition.parenthesised, partition.range, this.rangeFrom(first)),
    );
  });

  readonly partitionKey = this.RULE('partitionKey', () => {
    const first = this.LA(1);
    const key: { names: A.Identifier[]; parenthesised: boolean } = this.OR(
      (this.alts.partitionKeyOr ??= [
        { ALT: () => ({ names: [this.SUBRULE(this.columnName)], parenthesised: false }) },
        { ALT: () => ({ names: this.columnList(), parenthesised: true }) },
      ]),
    );
    return this.ACTION(() => ({ ...key, range: this.rangeFrom(first) }));
  });

  /** `(column, column, ...)`. Not a rule of its own: its DSL calls are the calling rule's (the second and third columnName). */
  protected columnList(): A.Identifier[] {
    this.CONSUME(LParen);
    const names = [this.SUBRULE2(this.columnName)];
    this.MANY(() => {
      this.CONSUME(Comma);
      names.push(this.SUBRULE3(this.columnName));
    });
    this.CONSUME(RParen);
    return names;
  }

  readonly tableOptions = this.RULE('tableOptions', (): A.TableOptions => {
    const first = this.CONSUME(K.WITH);
    const options = [this.SUBRULE(this.tableOption)];
    this.MANY(() => {
      this.CONSUME(K.AND);
      options.push(this.SUBRULE2(this.tableOption));
    });
    return this.ACTION(() => tableOptionsFrom(this.rangeFrom(first), options));
  });

  readonly tableOption = this.RULE('tableOption', (): TableOption =>
    this.OR(
      (this.alts.tableOptionOr ??= {
        MAX_LOOKAHEAD: 2,
        DEF: [
          {
            ALT: () => {
              this.CONSUME(K.COMPACT);
              this.CONSUME(K.STORAGE);
              return { compact: true };
            },
          },
          { ALT: () => this.SUBRULE(this.clusteringOrder) },
          { ALT: () => ({ property: this.SUBRULE(this.property) }) },
        ],
      }),
    ),
  );

  readonly clusteringOrder = this.RULE('clusteringOrder', () => {
    const first = this.CONSUME(K.CLUSTERING);
    this.CONSUME(K.ORDER);
    this.CONSUME(K.BY);
    this.CONSUME(LParen);
    const clustering = [this.SUBRULE(this.clusteringOrderItem)];
    this.MANY(() => {
      this.CONSUME(Comma);
      clustering.push(this.SUBRULE2(this.clusteringOrderItem));
    });
    this.CONSUME(RParen);
    return this.ACTION(() => ({ clustering, range: this.rangeFrom(first) }));
  });

  readonly clusteringOrderItem = this.RULE('clusteringOrderItem', (): A.ClusteringOrder => {
    const first = this.LA(1);
    const column = this.SUBRULE(this.columnName);
    const direction: IToken = this.OR(
      (this.alts.clusteringOrderItemOr ??= [{ ALT: () => this.token(K.ASC) }, { ALT: () => this.token(K.DESC) }]),
    );
    return this.ACTION(() => clusteringOrderOf(column, direction.tokenType === K.DESC, this.rangeFrom(first)));
  });

  readonly dropTable = this.RULE('dropTable', (): Pending => {
    this.CONSUME(K.TABLE);
    const ifExists = !!this.OPTION(() => this.SUBRULE(this.ifExists));
    const name = this.SUBRULE(this.tableName);
    return (base) => dropOf('DropTable', base, name, ifExists);
  });

  readonly createMaterializedView = this.RULE('createMaterializedView', (): Pending => {
    this.CONSUME(K.MATERIALIZED);
    this.CONSUME(K.VIEW);
    const ifNotExists = !!this.OPTION(() => this.SUBRULE(this.ifNotExists));
    const name = this.SUBRULE(this.tableName);
    this.CONSUME(K.AS);
    this.CONSUME(K.SELECT);
    const clause = this.SUBRULE(this.selectClause);
    this.CONSUME(K.FROM);
    const from = this.SUBRULE2(this.tableName);
    const where = this.OPTION2(() => this.SUBRULE(this.whereClause));
    const primaryKey = this.SUBRULE(this.primaryKeyClause);
    const options = this.OPTION3(() => this.SUBRULE(this.tableOptions));
    return (base) =>
      createMaterializedViewOf(base, {
        name,
        ifNotExists,
        clause,
        from,
        where: where?.where ?? [],
        primaryKey,
        options,
      });
  });

  readonly alterMaterializedView = this.RULE('alterMaterializedView', (): Pending => {
    this.CONSUME(K.MATERIALIZED);
    this.CONSUME(K.VIEW);
    const ifExists = !!this.OPTION(() => this.SUBRULE(this.ifExists));
    const name = this.SUBRULE(this.tableName);
    const options = this.SUBRULE(this.tableOptions);
    return (base) => alterMaterializedViewOf(base, name, ifExists, options);
  });

  readonly dropMaterializedView = this.RULE('dropMaterializedView', (): Pending => {
    this.CONSUME(K.MATERIALIZED);
    this.CONSUME(K.VIEW);
    const ifExists = !!this.OPTION(() => this.SUBRULE(this.ifExists));
    const name = this.SUBRULE(this.tableName);
    return (base) => dropOf('DropMaterializedView', base, name, ifExists);
  });
}

// ---------------------------------------------------------------------------------------------
// The reading

/** Tables and materialized views, as the rules above read them. */
export class TableReader extends ModifyReader {
  /** `TABLE [IF NOT EXISTS] name (body) [WITH options]` or `... LIKE source [WITH options]`, after CREATE. */
  protected createTable(base: Base): A.CreateTableStatement {
    const table = this.expect(K.TABLE);
    const ifNotExists = this.ifNotExists();
    const name = this.tableName();
    if (this.accept(K.LIKE)) {
      const like = this.tableName();
      return createTableFrom(base, {
        table,
        name,
        ifNotExists,
        bodyRange: undefined,
        elements: [],
        like,
        options: this.is(K.WITH) ? this.tableOptions() : undefined,
      });
    }
    const open = this.expect(LParen);
    const elements = [this.tableElement()];
    while (this.accept(Comma)) {
      // Cassandra accepts a trailing comma (and the grammar, empty elements).
      if (this.is(K.PRIMARY) || tokenMatcher(this.peek(), Ident) || this.is(EmptyQuotedName))
        elements.push(this.tableElement());
    }
    const bodyRange = tokenRange(open, this.expect(RParen));
    return createTableFrom(base, {
      table,
      name,
      ifNotExists,
      bodyRange,
      elements,
      like: undefined,
      options: this.is(K.WITH) ? this.tableOptions() : undefined,
    });
  }

  private tableElement(): TableElement {
    return this.is(K.PRIMARY) ? { primaryKey: this.primaryKeyClause() } : this.columnDefinition();
  }

  /** `name type [STATIC] [MASKED WITH ...] [PRIMARY KEY]`. */
  protected columnDefinition(): ColumnDef {
    const start = this.peek();
    const name = this.columnName();
    const type = this.cqlType();
    const isStatic = !!this.accept(K.STATIC);
    const mask = this.is(K.MASKED) ? this.columnMask() : undefined;
    const primary = this.accept(K.PRIMARY);
    const primaryKeyWords = primary && tokenRange(primary, this.expect(K.KEY));
    const column = columnDefinitionOf(name, type, isStatic, !!primary, tokenRange(start, this.previous()));
    if (mask) column.mask = mask;
    return { column, primaryKeyWords };
  }

  /** `MASKED WITH DEFAULT` or `MASKED WITH f(args)` (a function named default when a `(` or `.` follows). */
  protected columnMask(): A.MaskClause {
    const start = this.expect(K.MASKED);
    this.expect(K.WITH);
    const isDefault = defaultMaskAhead(this.la);
    if (isDefault) this.pos++;
    return maskOf(isDefault ? undefined : this.functionCall(), tokenRange(start, this.previous()));
  }

  protected primaryKeyClause(): A.PrimaryKey {
    const start = this.expect(K.PRIMARY);
    this.expect(K.KEY);
    this.expect(LParen);
    const partitionStart = this.peek();
    const parenthesised = !!this.accept(LParen);
    const partitionKey = [this.columnName()];
    if (parenthesised) {
      while (this.accept(Comma)) partitionKey.push(this.columnName());
      this.expect(RParen);
    }
    const partitionKeyRange = tokenRange(partitionStart, this.previous());
    const clustering: A.Identifier[] = [];
    while (this.accept(Comma)) clustering.push(this.columnName());
    return primaryKeyClauseOf(
      partitionKey.length > 1 ? sized(partitionKey) : partitionKey,
      sized(clustering),
      parenthesised,
      partitionKeyRange,
      tokenRange(start, this.expect(RParen)),
    );
  }

  protected tableOptions(): A.TableOptions {
    const start = this.expect(K.WITH);
    const options: TableOption[] = [];
    do {
      const t = this.peek();
      if (t.tokenType === K.COMPACT && this.la(2).tokenType === K.STORAGE) {
        this.pos += 2;
        options.push({ compact: true });
      } else if (t.tokenType === K.CLUSTERING && this.la(2).tokenType === K.ORDER) {
        this.pos += 2;
        this.expect(K.BY);
        this.expect(LParen);
        const clustering: A.ClusteringOrder[] = [];
        do {
          const column = this.peek();
          const name = this.columnName();
          const descending = !!this.accept(K.DESC);
          if (!descending) this.expect(K.ASC);
          clustering.push(clusteringOrderOf(name, descending, tokenRange(column, this.previous())));
        } while (this.accept(Comma));
        options.push({ clustering, range: tokenRange(t, this.expect(RParen)) });
      } else options.push({ property: this.property() });
    } while (this.accept(K.AND));
    return tableOptionsFrom(tokenRange(start, this.previous()), options);
  }

  /** `name = value (AND name = value)*`. */
  protected properties(): A.Property[] {
    const out: A.Property[] = [];
    do out.push(this.property());
    while (this.accept(K.AND));
    return sized(out);
  }

  protected property(): A.Property {
    const start = this.peek();
    const name = identifierFromToken(this.ident());
    this.expect(Eq);
    return propertyOf(name, this.expression(), tokenRange(start, this.previous()));
  }

  /** `MATERIALIZED VIEW [IF NOT EXISTS] name AS SELECT ... FROM table [WHERE ...] PRIMARY KEY (...) [WITH ...]`. */
  protected createMaterializedView(base: Base): A.CreateMaterializedViewStatement {
    this.expect(K.MATERIALIZED);
    this.expect(K.VIEW);
    const ifNotExists = this.ifNotExists();
    const name = this.tableName();
    this.expect(K.AS);
    this.expect(K.SELECT);
    const clause = this.selectClause();
    this.expect(K.FROM);
    const from = this.tableName();
    const where = this.is(K.WHERE) ? this.where().where : [];
    const primaryKey = this.primaryKeyClause();
    const options = this.is(K.WITH) ? this.tableOptions() : undefined;
    return createMaterializedViewOf(base, { name, ifNotExists, clause, from, where, primaryKey, options });
  }

  /** `MATERIALIZED VIEW [IF EXISTS] name WITH options`, after ALTER. */
  protected alterMaterializedView(base: Base): A.AlterMaterializedViewStatement {
    this.expect(K.MATERIALIZED);
    this.expect(K.VIEW);
    const ifExists = this.ifExists();
    const name = this.tableName();
    return alterMaterializedViewOf(base, name, ifExists, this.tableOptions());
  }
}
