// The direct reading of the schema statements most files hold (grammar/direct.ts): CREATE TABLE, INDEX, KEYSPACE,
// TYPE, MATERIALIZED VIEW, FUNCTION, ALTER TABLE and DROP (but ROLE, USER, IDENTITY), with their column types, options and properties.
// Anything else gives up to the parser.
import * as Chevrotain from './chevrotain';
import type { IToken } from './chevrotain';
import type * as A from './ast';
import * as Lexer from './lexer';
import * as Nodes from './nodes';
import * as Statements from './nodes-statements';
import type { Base as StatementBase, CreateIndexParts, CreateFunctionParts, CreateMaterializedViewParts } from './nodes-statements';
import * as Expressions from './direct-expressions';

// Module constants: compiled to CommonJS (tsx: tests, bench), every use of an imported binding is a getter call.
const {
  keywordTokens: K, Ident, NonTypeIdent, NativeTypeKw, StringLiteral, EmptyQuotedName, IntegerLiteral, Comma, Dot, LParen, RParen, Lt, Gt, Eq,
} = Lexer;
const { tokenMatcher } = Chevrotain;
const {
  literalFromToken, clusteringOrderOf, collectionTypeOf, columnDefinitionOf, endOf, frozenTypeOf, identifierFromToken, nativeTypeOf, primaryKeyClauseOf, propertyOf, qualifiedNameOf, sized, startOf, tableOptionsOf, tokenRange, tupleTypeOf, typeFieldOf, userTypeOf, vectorTypeOf, maskOf,
} = Nodes;
const {
  createTypeOf, createFunctionOf, createMaterializedViewOf, functionArgumentOf, addColumn, createIndexOf, createKeyspaceOf, createTableOf, dropOf, indexTargetOf,
  alterKeyspaceOf, createTriggerOf, alterTableOf, alterColumnTypeOf, alterColumnMaskOf, addColumnsOf, dropColumnsOf, renameColumnsOf, withOptionsOf, dropKeyspaceOf, dropFunctionOf, dropTriggerOf,
} = Statements;
const { GIVE_UP, TokenReader } = Expressions;

/** The schema statements read here: CREATE TABLE, INDEX, KEYSPACE, MATERIALIZED VIEW, FUNCTION, ALTER TABLE, DROP TABLE, INDEX. */
export class SchemaReader extends TokenReader {
  /** CREATE TABLE, INDEX, KEYSPACE, MATERIALIZED VIEW, FUNCTION. */
  protected create(base: StatementBase): A.Statement {
    this.expect(K.CREATE);
    const type = this.peek().tokenType;
    if (type === K.TABLE) return this.createTable(base);
    if (type === K.TYPE) return this.createType(base);
    if (type === K.INDEX || type === K.CUSTOM) return createIndexOf(base, this.createIndex());
    if (type === K.MATERIALIZED) return createMaterializedViewOf(base, this.createMaterializedView());
    if (type === K.FUNCTION || type === K.OR) return createFunctionOf(base, this.createFunction());
    if (type === K.TRIGGER) {
      this.pos++;
      const ifNotExists = this.ifNotExists();
      const name = identifierFromToken(this.ident());
      this.expect(K.ON);
      const table = this.tableName();
      this.expect(K.USING);
      return createTriggerOf(base, ifNotExists, name, table, literalFromToken(this.expect(StringLiteral)));
    }
    if (type === K.KEYSPACE || type === K.SCHEMA) {
      this.pos++;
      const ifNotExists = this.ifNotExists();
      const name = identifierFromToken(this.ident());
      this.expect(K.WITH);
      return createKeyspaceOf(base, name, ifNotExists, this.properties());
    }
    throw GIVE_UP;
  }

  /** `TYPE [IF NOT EXISTS] [keyspace.]name (field type, ...)`, a trailing comma allowed (as the grammar does). */
  protected createType(base: StatementBase): A.CreateTypeStatement {
    this.expect(K.TYPE);
    const ifNotExists = this.ifNotExists();
    const name = this.userTypeName();
    this.expect(LParen);
    const fields = [this.typeField()];
    while (this.accept(Comma)) {
      if (tokenMatcher(this.peek(), Ident)) fields.push(this.typeField());
    }
    this.expect(RParen);
    return createTypeOf(base, name, ifNotExists, fields.length > 1 ? sized(fields) : fields);
  }

  /** `fieldName cqlType`. */
  protected typeField(): A.TypeField {
    const start = this.ident();
    const type = this.cqlType();
    return typeFieldOf(identifierFromToken(start), type, tokenRange(start, this.previous()));
  }

  /** `MATERIALIZED VIEW [IF NOT EXISTS] name AS SELECT ... FROM table [WHERE ...] PRIMARY KEY (...) [WITH ...]`. */
  protected createMaterializedView(): CreateMaterializedViewParts {
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
    return { name, ifNotExists, clause, from, where, primaryKey, options };
  }

  /** `[OR REPLACE] FUNCTION [IF NOT EXISTS] name (args) (CALLED | RETURNS NULL) ON NULL INPUT RETURNS type LANGUAGE l AS body`. */
  protected createFunction(): CreateFunctionParts {
    const orReplace = !!this.accept(K.OR);
    if (orReplace) this.expect(K.REPLACE);
    this.expect(K.FUNCTION);
    const ifNotExists = this.ifNotExists();
    const name = this.functionName();
    this.expect(LParen);
    const args: A.FunctionArgument[] = [];
    if (!this.is(RParen)) {
      do {
        const start = this.ident();
        const type = this.cqlType();
        args.push(functionArgumentOf(identifierFromToken(start), type, tokenRange(start, this.previous())));
      } while (this.accept(Comma));
    }
    this.expect(RParen);
    const calledOnNullInput = !!this.accept(K.CALLED);
    if (!calledOnNullInput) {
      this.expect(K.RETURNS);
      this.expect(K.NULL);
    }
    this.expect(K.ON);
    this.expect(K.NULL);
    this.expect(K.INPUT);
    this.expect(K.RETURNS);
    const returnType = this.cqlType();
    this.expect(K.LANGUAGE);
    const language = identifierFromToken(this.ident());
    this.expect(K.AS);
    const body = literalFromToken(this.expect(StringLiteral));
    return { orReplace, ifNotExists, name, arguments: sized(args), calledOnNullInput, returnType, language, body };
  }

  /**
   * `ALTER TABLE name` and one action: `ALTER column TYPE type`, `ADD column`, `DROP column`, `RENAME a TO b (AND ...)*`
   * or `WITH options`. IF [NOT] EXISTS, masks, lists in parentheses, DROP COMPACT STORAGE and USING TIMESTAMP: the
   * parser reads them.
   */
  protected alter(base: StatementBase): A.AlterTableStatement | A.AlterKeyspaceStatement {
    this.expect(K.ALTER);
    if (this.is(K.KEYSPACE) || this.is(K.SCHEMA)) {
      this.pos++;
      let ifExists = false;
      if (this.accept(K.IF)) {
        this.expect(K.EXISTS);
        ifExists = true;
      }
      const name = identifierFromToken(this.ident());
      this.expect(K.WITH);
      return alterKeyspaceOf(base, name, ifExists, this.properties());
    }
    this.expect(K.TABLE);
    if (this.is(K.IF)) throw GIVE_UP;
    const name = this.tableName();
    return alterTableOf(base, name, false, this.alterTableAction());
  }

  private alterTableAction(): A.AlterTableAction {
    const t = this.peek();
    const type = t.tokenType;
    if (type === K.WITH) {
      const options = this.tableOptions();
      return withOptionsOf(options, tokenRange(t, this.previous()));
    }
    this.pos++;
    if (this.is(K.IF)) throw GIVE_UP;
    if (type === K.ALTER) {
      const column = this.columnName();
      if (this.is(K.MASKED)) return alterColumnMaskOf(false, column, this.columnMask(), tokenRange(t, this.previous()));
      if (this.accept(K.DROP)) {
        this.expect(K.MASKED);
        return alterColumnMaskOf(false, column, undefined, tokenRange(t, this.previous()));
      }
      this.expect(K.TYPE);
      const columnType = this.cqlType();
      return alterColumnTypeOf(false, column, columnType, tokenRange(t, this.previous()));
    }
    if (type === K.ADD) {
      const column = this.columnDefinition();
      return addColumnsOf(false, [column], tokenRange(t, this.previous()));
    }
    if (type === K.DROP) {
      if (this.is(K.COMPACT)) throw GIVE_UP;
      const column = this.columnName();
      return dropColumnsOf(false, [column], undefined, tokenRange(t, this.previous()));
    }
    if (type === K.RENAME) {
      const renames: { from: A.Identifier; to: A.Identifier }[] = [];
      do {
        const from = this.columnName();
        this.expect(K.TO);
        renames.push({ from, to: this.columnName() });
      } while (this.accept(K.AND));
      return renameColumnsOf(false, sized(renames), tokenRange(t, this.previous()));
    }
    throw GIVE_UP;
  }

  /** DROP KEYSPACE, TABLE, TYPE, INDEX, MATERIALIZED VIEW, FUNCTION, AGGREGATE, TRIGGER. */
  protected drop(base: StatementBase): A.Statement {
    this.expect(K.DROP);
    const what = this.peek().tokenType;
    this.pos++;
    if (what === K.MATERIALIZED) this.expect(K.VIEW);
    let ifExists = false;
    if (this.accept(K.IF)) {
      this.expect(K.EXISTS);
      ifExists = true;
    }
    if (what === K.TABLE || what === K.INDEX) return dropOf(what === K.TABLE ? 'DropTable' : 'DropIndex', base, this.tableName(), ifExists);
    if (what === K.KEYSPACE || what === K.SCHEMA) return dropKeyspaceOf(base, identifierFromToken(this.ident()), ifExists);
    if (what === K.TYPE) return dropOf('DropType', base, this.userTypeName(), ifExists);
    if (what === K.MATERIALIZED) return dropOf('DropMaterializedView', base, this.tableName(), ifExists);
    if (what === K.FUNCTION || what === K.AGGREGATE) {
      const name = this.functionName();
      return dropFunctionOf(what === K.FUNCTION ? 'DropFunction' : 'DropAggregate', base, ifExists, name, this.is(LParen) ? this.typeList() : undefined);
    }
    if (what === K.TRIGGER) {
      const name = identifierFromToken(this.ident());
      this.expect(K.ON);
      return dropTriggerOf(base, ifExists, name, this.tableName());
    }
    throw GIVE_UP;
  }

  /** `typeList`: `([type (, type)*])`. */
  private typeList(): A.CqlType[] {
    this.expect(LParen);
    const types: A.CqlType[] = [];
    if (!this.is(RParen)) {
      do types.push(this.cqlType());
      while (this.accept(Comma));
    }
    this.expect(RParen);
    return sized(types);
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

  protected createIndex(): CreateIndexParts {
    const custom = !!this.accept(K.CUSTOM);
    this.expect(K.INDEX);
    const ifNotExists = this.ifNotExists();
    const name = this.is(K.ON) ? undefined : identifierFromToken(this.ident());
    this.expect(K.ON);
    const table = this.tableName();
    this.expect(LParen);
    const targets: A.IndexTarget[] = [];
    if (!this.is(RParen)) {
      do {
        const start = this.peek();
        const type = start.tokenType;
        const kind = (type === K.KEYS || type === K.VALUES || type === K.ENTRIES || type === K.FULL) && this.la(2).tokenType === LParen ? start : undefined;
        if (kind) this.pos += 2;
        const column = this.columnName();
        if (kind) this.expect(RParen);
        targets.push(indexTargetOf(column, kind, tokenRange(start, this.previous())));
      } while (this.accept(Comma));
    }
    this.expect(RParen);
    const using = this.accept(K.USING) && this.expect(StringLiteral);
    const properties = this.accept(K.WITH) ? this.properties() : [];
    return { custom, ifNotExists, table, targets: sized(targets), properties, name, using: using || undefined };
  }

  protected createTable(base: StatementBase): A.CreateTableStatement {
    const table = this.expect(K.TABLE);
    const ifNotExists = this.ifNotExists();
    const stmt = createTableOf(base, table, this.tableName(), ifNotExists);
    // CREATE TABLE ... LIKE: the parser reads it.
    const open = this.expect(LParen);
    // The body's range comes before the primary key among the statement's fields (as the builder sets them).
    const bodyRange = { start: startOf(open), end: -1 };
    stmt.bodyRange = bodyRange;
    this.tableElement(stmt);
    while (this.accept(Comma)) {
      // Cassandra accepts a trailing comma (and the grammar, empty elements).
      if (this.is(K.PRIMARY) || tokenMatcher(this.peek(), Ident) || this.is(EmptyQuotedName)) this.tableElement(stmt);
    }
    bodyRange.end = endOf(this.expect(RParen));
    stmt.columns = sized(stmt.columns);
    if (this.is(K.WITH)) stmt.options = this.tableOptions();
    return stmt;
  }

  protected tableElement(stmt: A.CreateTableStatement): void {
    if (this.is(K.PRIMARY)) {
      const primaryKey = this.primaryKeyClause();
      if (!stmt.primaryKey) stmt.primaryKey = primaryKey;
      return;
    }
    // An inline PRIMARY KEY is the definition's last two tokens.
    addColumn(stmt, this.columnDefinition(), () => tokenRange(this.tokens[this.pos - 2]!, this.previous()));
  }

  /** `name type [STATIC] [MASKED WITH ...] [PRIMARY KEY]`. */
  protected columnDefinition(): A.ColumnDefinition {
    const start = this.peek();
    const name = this.columnName();
    const type = this.cqlType();
    const isStatic = !!this.accept(K.STATIC);
    const mask = this.is(K.MASKED) ? this.columnMask() : undefined;
    const primary = this.accept(K.PRIMARY);
    if (primary) this.expect(K.KEY);
    const column = columnDefinitionOf(name, type, isStatic, !!primary, tokenRange(start, this.previous()));
    if (mask) column.mask = mask;
    return column;
  }

  /** `MASKED WITH DEFAULT` or `MASKED WITH f(args)` (a function named default when a `(` or `.` follows). */
  protected columnMask(): A.MaskClause {
    const start = this.expect(K.MASKED);
    this.expect(K.WITH);
    const next = this.la(2).tokenType;
    const isDefault = this.is(K.DEFAULT) && next !== LParen && next !== Dot;
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
    return primaryKeyClauseOf(partitionKey.length > 1 ? sized(partitionKey) : partitionKey, sized(clustering), parenthesised, partitionKeyRange, tokenRange(start, this.expect(RParen)));
  }

  protected tableOptions(): A.TableOptions {
    const start = this.expect(K.WITH);
    const properties: A.Property[] = [];
    const clusteringOrder: A.ClusteringOrder[] = [];
    let clusteringOrderRange: A.SourceRange | undefined;
    let compactStorage = false;
    do {
      const t = this.peek();
      if (t.tokenType === K.COMPACT && this.la(2).tokenType === K.STORAGE) {
        this.pos += 2;
        compactStorage = true;
      } else if (t.tokenType === K.CLUSTERING && this.la(2).tokenType === K.ORDER) {
        this.pos += 2;
        this.expect(K.BY);
        this.expect(LParen);
        do {
          const column = this.peek();
          const name = this.columnName();
          const descending = !!this.accept(K.DESC);
          if (!descending) this.expect(K.ASC);
          clusteringOrder.push(clusteringOrderOf(name, descending, tokenRange(column, this.previous())));
        } while (this.accept(Comma));
        clusteringOrderRange = tokenRange(t, this.expect(RParen));
      } else properties.push(this.property());
    } while (this.accept(K.AND));
    const options = tableOptionsOf(tokenRange(start, this.previous()));
    options.properties = sized(properties);
    options.clusteringOrder = sized(clusteringOrder);
    options.compactStorage = compactStorage;
    if (clusteringOrderRange) options.clusteringOrderRange = clusteringOrderRange;
    return options;
  }

  protected override cqlType(): A.CqlType {
    const t = this.peek();
    const type = t.tokenType;
    if (tokenMatcher(t, NativeTypeKw)) {
      this.pos++;
      return nativeTypeOf(t, tokenRange(t));
    }
    if (this.la(2).tokenType === Lt) {
      if (type === K.MAP || type === K.LIST || type === K.SET) {
        this.pos += 2;
        const elementTypes = [this.cqlType()];
        if (type === K.MAP) {
          this.expect(Comma);
          elementTypes.push(this.cqlType());
        }
        return collectionTypeOf(type === K.MAP ? 'map' : type === K.LIST ? 'list' : 'set', elementTypes.length > 1 ? sized(elementTypes) : elementTypes, tokenRange(t, this.expect(Gt)));
      }
      if (type === K.FROZEN) {
        this.pos += 2;
        const inner = this.cqlType();
        return frozenTypeOf(inner, tokenRange(t, this.expect(Gt)));
      }
      if (type === K.TUPLE) {
        this.pos += 2;
        const elementTypes = [this.cqlType()];
        while (this.accept(Comma)) elementTypes.push(this.cqlType());
        return tupleTypeOf(elementTypes.length > 1 ? sized(elementTypes) : elementTypes, tokenRange(t, this.expect(Gt)));
      }
      if (type === K.VECTOR) {
        this.pos += 2;
        const elementType = this.cqlType();
        this.expect(Comma);
        const dimension = this.expect(IntegerLiteral);
        return vectorTypeOf(elementType, dimension, tokenRange(t, this.expect(Gt)));
      }
    }
    return userTypeOf(this.userTypeName(), tokenRange(t, this.previous()));
  }

  /** `userTypeName`: `[keyspace.]name`, the name not a native type's. */
  protected userTypeName(): A.QualifiedName {
    let keyspace: IToken | undefined;
    if (this.la(2).tokenType === Dot) {
      keyspace = this.ident();
      this.pos++;
    }
    const name = this.peek();
    if (!tokenMatcher(name, NonTypeIdent)) throw GIVE_UP;
    this.pos++;
    return qualifiedNameOf(keyspace && identifierFromToken(keyspace), identifierFromToken(name));
  }
}
