// The AST straight from the tokens, for the statements most CQL files are made of: INSERT, SELECT, UPDATE,
// DELETE, BATCH and CREATE TABLE in their usual forms. A statement read here gets the very AST that the parser
// and the CST builder give it: the same node constructors (grammar/nodes.ts), the same decisions where the
// grammar needs lookahead (the parser's gate functions, grammar/syntax/base.ts), checked against the parser on
// the corpus and on mutated statements (test/grammar/direct.test.ts). It costs a fraction of the parse: no
// recogniser, no CST. Anything else (an error, a rare clause or form) gives up, and the parser reads the
// statement: error recovery, messages and content assist are the parser's alone.
import { EOF, tokenMatcher, type IToken, type TokenType } from './chevrotain';
import type * as A from './ast';
import * as Lexer from './lexer';
import * as Base from './syntax/base';
import {
  type Base as StatementBase, type CreateIndexParts, type DeleteParts, type InsertParts, type SelectParts, type UpdateParts, addColumn, assignmentOf, batchOf, binaryChain,
  bindMarkerOf, braceLiteralOf, clusteringOrderOf, collectionTypeOf, columnDefinitionOf, columnRefOf, createIndexOf, createKeyspaceOf, createTableOf, deleteOf, dropOf, elementAccessOf, endOf,
  fieldAccessOf, frozenTypeOf, functionCallOf, identifierFromToken, indexTargetOf, insertOf, listLiteralOf, literalFromToken, nativeTypeOf, negate, orderingOf,
  parenthesizedOf, primaryKeyClauseOf, propertyOf, qualifiedNameOf, relationOf, selectOf, selectorOf, sized, spanRanges, starOf, startOf, tableOptionsOf,
  tokenRange, truncateOf, tupleTypeOf, updateOf, useOf, userTypeOf, usingClauseOf, vectorTypeOf,
} from './nodes';

// Module constants: compiled to CommonJS (tsx: tests, bench), every use of an imported binding is a getter call.
const {
  keywordTokens: K, Ident, NonTypeIdent, NativeTypeKw, NumberLit, StringLiteral, EmptyQuotedName, UuidLiteral, HexLiteral, BooleanLiteral,
  IntegerLiteral, Semicolon, Comma, Dot, LParen, RParen, LBracket, RBracket, LBrace, RBrace, Lt, Gt, Eq, NotEq, LtEq, GtEq, PlusEq, MinusEq,
  Plus, Minus, Star, Slash, Percent, Colon, QMark,
} = Lexer;
const { functionCallAhead, typeHintAhead, existsEndsAhead, keyWordAhead } = Base;

/** Thrown (one object, no stack) when the statement is not one this reader takes: the parser reads it. */
const GIVE_UP = { giveUp: true };

/** What the parser's lookahead sees past the last token. */
const END: IToken = { image: '', startOffset: NaN, endOffset: NaN, startLine: NaN, endLine: NaN, startColumn: NaN, endColumn: NaN, tokenTypeIdx: EOF.tokenTypeIdx!, tokenType: EOF };

const COMPARISONS = new Set([Eq, NotEq, Lt, LtEq, Gt, GtEq]);
const ARITHMETIC = new Set([Plus, Minus, Star, Slash, Percent]);

/**
 * The AST of one statement chunk (its tokens, `;` included), or undefined when it is not one of the forms read
 * here: then the parser must read it.
 */
export function readStatement(tokens: IToken[]): A.Statement | undefined {
  reader.tokens = tokens;
  reader.pos = 0;
  try {
    return reader.statement();
  } catch {
    // GIVE_UP, or a token this reader did not expect at all: either way the parser reads the statement.
    return undefined;
  } finally {
    reader.tokens = NO_TOKENS;
  }
}

const NO_TOKENS: IToken[] = [];

class DirectReader {
  tokens: IToken[] = NO_TOKENS;
  pos = 0;
  /** The parser's lookahead over these tokens (the gate functions take it). */
  private readonly la = (i: number): IToken => this.tokens[this.pos + i - 1] ?? END;

  statement(): A.Statement {
    const tokens = this.tokens;
    const last = tokens[tokens.length - 1]!;
    const base: StatementBase = { range: tokenRange(tokens[0]!, last), terminated: last.tokenType === Semicolon };
    const type = tokens[0]!.tokenType;
    let stmt: A.Statement;
    if (type === K.INSERT) stmt = insertOf(base, this.insert());
    else if (type === K.SELECT) stmt = selectOf(base, this.select());
    else if (type === K.UPDATE) stmt = updateOf(base, this.update());
    else if (type === K.DELETE) stmt = deleteOf(base, this.delete());
    else if (type === K.BEGIN) stmt = this.batch(base);
    else if (type === K.CREATE) stmt = this.create(base);
    else if (type === K.DROP) stmt = this.drop(base);
    else if (type === K.USE) {
      this.pos++;
      stmt = useOf(base, identifierFromToken(this.ident()));
    } else if (type === K.TRUNCATE) {
      this.pos++;
      this.accept(K.TABLE);
      stmt = truncateOf(base, this.tableName());
    } else throw GIVE_UP;
    if (this.pos < tokens.length && tokens[this.pos]!.tokenType === Semicolon) this.pos++;
    if (this.pos !== tokens.length) throw GIVE_UP;
    return stmt;
  }

  // -------------------------------------------------------------------------------------------
  // Tokens

  private peek(): IToken {
    return this.tokens[this.pos] ?? END;
  }

  private is(type: TokenType): boolean {
    return this.peek().tokenType === type;
  }

  /** The next token, which must be of `type`. */
  private expect(type: TokenType): IToken {
    const t = this.peek();
    if (t.tokenType !== type) throw GIVE_UP;
    this.pos++;
    return t;
  }

  /** The next token if it is of `type`. */
  private accept(type: TokenType): IToken | undefined {
    const t = this.peek();
    if (t.tokenType !== type) return undefined;
    this.pos++;
    return t;
  }

  /** The token just read. */
  private previous(): IToken {
    return this.tokens[this.pos - 1]!;
  }

  /** A name token (`Ident`: identifiers, quoted names, unreserved keywords). */
  private ident(): IToken {
    const t = this.peek();
    if (!tokenMatcher(t, Ident)) throw GIVE_UP;
    this.pos++;
    return t;
  }

  /** `columnName`: a name or `""`. */
  private columnName(): A.Identifier {
    const t = this.peek();
    if (!tokenMatcher(t, Ident) && t.tokenType !== EmptyQuotedName) throw GIVE_UP;
    this.pos++;
    return identifierFromToken(t);
  }

  /** `[keyspace.]table`. */
  private tableName(): A.QualifiedName {
    let keyspace: IToken | undefined;
    if (this.la(2).tokenType === Dot) {
      keyspace = this.ident();
      this.pos++;
    }
    const name = identifierFromToken(this.ident());
    return qualifiedNameOf(keyspace && identifierFromToken(keyspace), name);
  }

  // -------------------------------------------------------------------------------------------
  // Expressions

  private expression(): A.Expression {
    const first = this.operand();
    if (!ARITHMETIC.has(this.peek().tokenType)) return first;
    const operands = [first];
    const operators: string[] = [];
    while (ARITHMETIC.has(this.peek().tokenType)) {
      operators.push(this.peek().image);
      this.pos++;
      operands.push(this.operand());
    }
    return binaryChain(operands.length, (i) => operands[i]!, operators);
  }

  private operand(): A.Expression {
    const minuses = this.pos;
    while (this.is(Minus)) this.pos++;
    const firstMinus = minuses;
    const lastMinus = this.pos - 1;
    let result = this.primary();
    // `x[i]`, `x.field`: the parser reads them.
    if (this.is(LBracket) || this.is(Dot)) throw GIVE_UP;
    for (let i = lastMinus; i >= firstMinus; i--) result = negate(this.tokens[i]!, result);
    return result;
  }

  private primary(): A.Expression {
    const t = this.peek();
    const type = t.tokenType;
    if (type === StringLiteral || tokenMatcher(t, NumberLit) || type === BooleanLiteral || type === UuidLiteral || type === HexLiteral || type === K.NULL) {
      this.pos++;
      return literalFromToken(t);
    }
    if (type === QMark || type === Colon) return this.bindMarker();
    if (type === LBracket) {
      this.pos++;
      const elements = this.is(RBracket) ? [] : this.expressionList();
      return listLiteralOf(elements, tokenRange(t, this.expect(RBracket)));
    }
    if (type === LBrace) return this.braceLiteral();
    if (type === LParen) {
      if (typeHintAhead(this.la)) throw GIVE_UP;
      this.pos++;
      const elements = this.expressionList();
      return parenthesizedOf(elements, tokenRange(t, this.expect(RParen)));
    }
    if (type === K.CAST && this.la(2).tokenType === LParen) throw GIVE_UP;
    if (functionCallAhead(this.la)) return this.functionCall();
    if (tokenMatcher(t, Ident) || type === EmptyQuotedName) {
      this.pos++;
      return columnRefOf(identifierFromToken(t));
    }
    throw GIVE_UP;
  }

  /** `expression (, expression)*`. */
  private expressionList(): A.Expression[] {
    const out = [this.expression()];
    while (this.accept(Comma)) out.push(this.expression());
    return out.length > 1 ? sized(out) : out;
  }

  /** `?` or `:name`. */
  private bindMarker(): A.BindMarker {
    const t = this.peek();
    this.pos++;
    if (t.tokenType === QMark) return bindMarkerOf(undefined, tokenRange(t));
    if (t.tokenType !== Colon) throw GIVE_UP;
    const name = this.ident();
    return bindMarkerOf(identifierFromToken(name), tokenRange(t, name));
  }

  private braceLiteral(): A.Expression {
    const open = this.expect(LBrace);
    const pairs: A.Expression[][] = [];
    if (!this.is(RBrace)) {
      do {
        const entry = [this.expression()];
        if (this.accept(Colon)) entry.push(this.expression());
        pairs.push(entry);
      } while (this.accept(Comma));
    }
    return braceLiteralOf(pairs, tokenRange(open, this.expect(RBrace)));
  }

  /** `[ks.]name(args)`, `token(...)` included (functionCallAhead said so). */
  private functionCall(): A.FunctionCall {
    const first = this.peek();
    let keyspace: IToken | undefined;
    if (this.la(2).tokenType === Dot) {
      keyspace = this.ident();
      this.pos++;
    }
    const nameToken = this.peek();
    if (!tokenMatcher(nameToken, Ident) && nameToken.tokenType !== K.TOKEN) throw GIVE_UP;
    this.pos++;
    const name = qualifiedNameOf(keyspace && identifierFromToken(keyspace), identifierFromToken(nameToken));
    this.expect(LParen);
    const args: A.Expression[] = [];
    if (!this.is(RParen)) {
      do {
        const star = this.accept(Star);
        args.push(star ? starOf(star) : this.expression());
      } while (this.accept(Comma));
    }
    // `count(*)`: an expression is never a StarExpression, so the one argument is the `*`.
    const star = args.length === 1 && args[0]!.kind === 'StarExpression';
    return functionCallOf(name, sized(args), tokenRange(first, this.expect(RParen)), star);
  }

  /** `intValue`: an integer or a bind marker. */
  private intValue(): A.Expression {
    const t = this.peek();
    if (t.tokenType === IntegerLiteral) {
      this.pos++;
      return literalFromToken(t);
    }
    return this.bindMarker();
  }

  // -------------------------------------------------------------------------------------------
  // Clauses

  /** `WHERE relation (AND relation)*`: the relations and the clause's range. */
  private where(): { where: A.Relation[]; whereRange: A.SourceRange } {
    const start = this.expect(K.WHERE);
    const where = this.relations();
    return { where, whereRange: tokenRange(start, this.previous()) };
  }

  private relations(): A.Relation[] {
    const out = [this.relation()];
    while (this.accept(K.AND)) out.push(this.relation());
    return out.length > 1 ? sized(out) : out;
  }

  private relation(): A.Relation {
    const start = this.peek();
    const left = this.expression();
    const t = this.peek();
    const type = t.tokenType;
    let operator: A.RelationOperator;
    let right: A.Expression[];
    let inList: boolean | undefined;
    if (COMPARISONS.has(type)) {
      this.pos++;
      operator = t.image as A.RelationOperator;
      right = [this.expression()];
    } else if (type === K.IN) {
      this.pos++;
      operator = 'IN';
      if (this.accept(LParen)) {
        inList = true;
        right = this.is(RParen) ? [] : this.expressionList();
        this.expect(RParen);
      } else {
        inList = false;
        right = [this.bindMarker()];
      }
    } else if (type === K.CONTAINS) {
      this.pos++;
      const key = this.is(K.KEY) && keyWordAhead(this.la);
      if (key) this.pos++;
      operator = key ? 'CONTAINS KEY' : 'CONTAINS';
      right = [this.expression()];
    } else if (type === K.LIKE) {
      this.pos++;
      operator = 'LIKE';
      right = [this.expression()];
    } else if (type === K.IS) {
      this.pos++;
      this.expect(K.NOT);
      this.expect(K.NULL);
      operator = 'IS NOT NULL';
      right = [];
    } else if (type === K.BETWEEN) {
      this.pos++;
      operator = 'BETWEEN';
      const low = this.expression();
      this.expect(K.AND);
      right = [low, this.expression()];
    } else throw GIVE_UP;
    return relationOf(left, operator, right, tokenRange(start, this.previous()), inList);
  }

  /** `USING (TTL|TIMESTAMP) value (AND ...)*`, or nothing. */
  private using(): A.UsingClause[] {
    if (!this.accept(K.USING)) return [];
    const out: A.UsingClause[] = [];
    do {
      const option = this.peek();
      if (option.tokenType !== K.TTL && option.tokenType !== K.TIMESTAMP) throw GIVE_UP;
      this.pos++;
      const value = this.intValue();
      out.push(usingClauseOf(option.tokenType === K.TTL ? 'TTL' : 'TIMESTAMP', value, tokenRange(option, this.previous())));
    } while (this.accept(K.AND));
    return sized(out);
  }

  /** `IF EXISTS` or `IF condition (AND condition)*`, or nothing. */
  private ifClause(): { conditions: A.Relation[]; ifExists: boolean } {
    if (!this.accept(K.IF)) return { conditions: [], ifExists: false };
    if (this.is(K.EXISTS) && existsEndsAhead(this.la)) {
      this.pos++;
      return { conditions: [], ifExists: true };
    }
    return { conditions: this.relations(), ifExists: false };
  }

  /** `column`, `column[index]` or `column.field` (the target of an assignment or a DELETE). */
  private target(): A.Expression {
    const name = this.columnName();
    const column = columnRefOf(name);
    if (this.accept(LBracket)) {
      const index = this.expression();
      return elementAccessOf(column, index, spanRanges(name.range, tokenRange(this.expect(RBracket))));
    }
    if (this.accept(Dot)) return fieldAccessOf(column, identifierFromToken(this.ident()));
    return column;
  }

  // -------------------------------------------------------------------------------------------
  // Statements

  private select(): SelectParts {
    this.expect(K.SELECT);
    // `SELECT JSON` / `SELECT DISTINCT` or columns of those names: the parser decides.
    if (this.is(K.JSON) || this.is(K.DISTINCT)) throw GIVE_UP;
    const selectors: A.Selector[] = [];
    const star = !!this.accept(Star);
    if (!star) {
      do {
        const start = this.peek();
        const expression = this.expression();
        const alias = this.accept(K.AS) ? identifierFromToken(this.ident()) : undefined;
        selectors.push(selectorOf(expression, alias, tokenRange(start, this.previous())));
      } while (this.accept(Comma));
    }
    this.expect(K.FROM);
    const from = this.tableName();
    const { where, whereRange } = this.is(K.WHERE) ? this.where() : { where: [], whereRange: undefined };
    let groupItems: A.Expression[] = [];
    if (this.accept(K.GROUP)) {
      this.expect(K.BY);
      groupItems = this.expressionList();
    }
    const orderBy: A.Ordering[] = [];
    if (this.accept(K.ORDER)) {
      this.expect(K.BY);
      do {
        const column = this.columnName();
        // ANN OF: the parser reads it.
        const direction = this.accept(K.DESC) ? 'DESC' : this.accept(K.ASC) ? 'ASC' : undefined;
        orderBy.push(orderingOf(column, tokenRange(this.tokens[this.pos - (direction ? 2 : 1)]!, this.previous()), direction, undefined));
      } while (this.accept(Comma));
    }
    let perPartitionLimit: A.Expression | undefined;
    if (this.accept(K.PER)) {
      this.expect(K.PARTITION);
      this.expect(K.LIMIT);
      perPartitionLimit = this.intValue();
    }
    const limit = this.accept(K.LIMIT) ? this.intValue() : undefined;
    const allow = this.accept(K.ALLOW);
    const allowFilteringRange = allow ? tokenRange(allow, this.expect(K.FILTERING)) : undefined;
    return { json: false, distinct: false, selectors: sized(selectors), star, from, where, whereRange, groupItems, orderBy: sized(orderBy), perPartitionLimit, limit, allowFilteringRange };
  }

  private insert(): InsertParts {
    this.expect(K.INSERT);
    this.expect(K.INTO);
    const table = this.tableName();
    // INSERT ... JSON: the parser reads it.
    const open = this.expect(LParen);
    const columns = [this.columnName()];
    while (this.accept(Comma)) columns.push(this.columnName());
    const columnsRange = tokenRange(open, this.expect(RParen));
    this.expect(K.VALUES);
    const valuesOpen = this.expect(LParen);
    const values = this.expressionList();
    const valuesRange = tokenRange(valuesOpen, this.expect(RParen));
    const ifNotExists = this.ifNotExists();
    const using = this.using();
    return { table, columns: columns.length > 1 ? sized(columns) : columns, values, ifNotExists, using, columnsRange, valuesRange, json: undefined, jsonDefault: undefined };
  }

  private update(): UpdateParts {
    this.expect(K.UPDATE);
    const table = this.tableName();
    const using = this.using();
    this.expect(K.SET);
    const assignments: A.Assignment[] = [];
    do {
      const start = this.peek();
      const target = this.target();
      const operator = this.peek();
      if (operator.tokenType !== Eq && operator.tokenType !== PlusEq && operator.tokenType !== MinusEq) throw GIVE_UP;
      this.pos++;
      const value = this.expression();
      assignments.push(assignmentOf(target, operator, value, tokenRange(start, this.previous())));
    } while (this.accept(Comma));
    const { where, whereRange } = this.where();
    return { table, using, assignments: sized(assignments), where, whereRange, ...this.ifClause() };
  }

  private delete(): DeleteParts {
    this.expect(K.DELETE);
    const selections: A.Expression[] = [];
    if (!this.is(K.FROM)) {
      do selections.push(this.target());
      while (this.accept(Comma));
    }
    this.expect(K.FROM);
    const table = this.tableName();
    const using = this.using();
    const { where, whereRange } = this.where();
    return { selections: sized(selections), table, using, where, whereRange, ...this.ifClause() };
  }

  private batch(base: StatementBase): A.BatchStatement {
    this.expect(K.BEGIN);
    const kind = this.accept(K.UNLOGGED) ? 'UNLOGGED' : this.accept(K.COUNTER) ? 'COUNTER' : 'LOGGED';
    this.expect(K.BATCH);
    const using = this.using();
    const statements: A.BatchStatement['statements'] = [];
    for (;;) {
      const first = this.peek();
      const type = first.tokenType;
      if (type !== K.INSERT && type !== K.UPDATE && type !== K.DELETE) break;
      const parts = type === K.INSERT ? this.insert() : type === K.UPDATE ? this.update() : this.delete();
      const semi = this.accept(Semicolon);
      const inner: StatementBase = { range: tokenRange(first, semi ?? this.previous()), terminated: !!semi };
      statements.push(type === K.INSERT ? insertOf(inner, parts as InsertParts) : type === K.UPDATE ? updateOf(inner, parts as UpdateParts) : deleteOf(inner, parts as DeleteParts));
    }
    this.expect(K.APPLY);
    this.expect(K.BATCH);
    return batchOf(base, kind, using, sized(statements));
  }

  /** CREATE TABLE, INDEX, KEYSPACE. */
  private create(base: StatementBase): A.Statement {
    this.expect(K.CREATE);
    const type = this.peek().tokenType;
    if (type === K.TABLE) return this.createTable(base);
    if (type === K.INDEX || type === K.CUSTOM) return createIndexOf(base, this.createIndex());
    if (type === K.KEYSPACE || type === K.SCHEMA) {
      this.pos++;
      const ifNotExists = this.ifNotExists();
      const name = identifierFromToken(this.ident());
      this.expect(K.WITH);
      return createKeyspaceOf(base, name, ifNotExists, this.properties());
    }
    throw GIVE_UP;
  }

  /** DROP TABLE, INDEX. */
  private drop(base: StatementBase): A.Statement {
    this.expect(K.DROP);
    const what = this.peek().tokenType;
    if (what !== K.TABLE && what !== K.INDEX) throw GIVE_UP;
    this.pos++;
    let ifExists = false;
    if (this.accept(K.IF)) {
      this.expect(K.EXISTS);
      ifExists = true;
    }
    return dropOf(what === K.TABLE ? 'DropTable' : 'DropIndex', base, this.tableName(), ifExists);
  }

  /** `IF NOT EXISTS`, or nothing. */
  private ifNotExists(): boolean {
    if (!this.accept(K.IF)) return false;
    this.expect(K.NOT);
    this.expect(K.EXISTS);
    return true;
  }

  /** `name = value (AND name = value)*`. */
  private properties(): A.Property[] {
    const out: A.Property[] = [];
    do out.push(this.property());
    while (this.accept(K.AND));
    return sized(out);
  }

  private property(): A.Property {
    const start = this.peek();
    const name = identifierFromToken(this.ident());
    this.expect(Eq);
    return propertyOf(name, this.expression(), tokenRange(start, this.previous()));
  }

  private createIndex(): CreateIndexParts {
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

  private createTable(base: StatementBase): A.CreateTableStatement {
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
    if (this.is(K.WITH)) stmt.options = this.tableOptions();
    return stmt;
  }

  private tableElement(stmt: A.CreateTableStatement): void {
    const start = this.peek();
    if (start.tokenType === K.PRIMARY) {
      const primaryKey = this.primaryKeyClause();
      if (!stmt.primaryKey) stmt.primaryKey = primaryKey;
      return;
    }
    const name = this.columnName();
    const type = this.cqlType();
    const isStatic = !!this.accept(K.STATIC);
    // MASKED WITH ...: the parser reads it.
    const primary = this.accept(K.PRIMARY);
    const key = primary && this.expect(K.KEY);
    addColumn(stmt, columnDefinitionOf(name, type, isStatic, !!primary, tokenRange(start, this.previous())), () => tokenRange(primary!, key!));
  }

  private primaryKeyClause(): A.PrimaryKey {
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

  private tableOptions(): A.TableOptions {
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
    options.properties = properties;
    options.clusteringOrder = clusteringOrder;
    options.compactStorage = compactStorage;
    if (clusteringOrderRange) options.clusteringOrderRange = clusteringOrderRange;
    return options;
  }

  private cqlType(): A.CqlType {
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
    // A user type, `[ks.]name`.
    let keyspace: IToken | undefined;
    if (this.la(2).tokenType === Dot) {
      keyspace = this.ident();
      this.pos++;
    }
    const name = this.peek();
    if (!tokenMatcher(name, NonTypeIdent)) throw GIVE_UP;
    this.pos++;
    return userTypeOf(qualifiedNameOf(keyspace && identifierFromToken(keyspace), identifierFromToken(name)), tokenRange(t, name));
  }
}

const reader = new DirectReader();
