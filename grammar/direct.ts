// The AST straight from the tokens, for the statements most CQL files are made of: INSERT, SELECT, UPDATE,
// DELETE, BATCH, CREATE TABLE, TYPE, MATERIALIZED VIEW, FUNCTION, ALTER TABLE, DROP, CREATE / ALTER ROLE and USER,
// GRANT, REVOKE, LIST and DESCRIBE in their usual forms. A statement
// read here gets the very AST that the parser and the CST builder give it: the same node constructors
// (grammar/nodes*.ts), the same decisions where the grammar needs lookahead (the parser's gate functions,
// grammar/syntax/base.ts), checked against the parser on the corpus and on mutated statements
// (test/grammar/direct.test.ts). It costs a fraction of the parse: no recogniser, no CST. Anything else (an
// error, a rare clause or form) gives up, and the parser reads the statement: error recovery, messages and
// content assist are the parser's alone.
//
// The reading is split along the statement kinds: grammar/direct-expressions.ts (tokens, names, expressions,
// clauses), grammar/direct-schema.ts (CREATE, ALTER TABLE, DROP), grammar/direct-admin.ts (roles, users, permissions) and this
// file (queries, BATCH, the dispatch).
import type { IToken } from './chevrotain';
import type * as A from './ast';
import * as Lexer from './lexer';
import * as Nodes from './nodes';
import * as Statements from './nodes-statements';
import type { Base as StatementBase, DeleteParts, InsertParts, SelectParts, UpdateParts } from './nodes-statements';
import * as Expressions from './direct-expressions';
import { AdminReader } from './direct-admin';

// Module constants: compiled to CommonJS (tsx: tests, bench), every use of an imported binding is a getter call.
const {
  keywordTokens: K, Semicolon, Comma, LParen, RParen, Eq, PlusEq, MinusEq, StringLiteral,
} = Lexer;
const { assignmentOf, identifierFromToken, literalFromToken, orderingOf, sized, tokenRange } = Nodes;
const { batchOf, deleteOf, insertOf, selectOf, truncateOf, updateOf, useOf } = Statements;
const { GIVE_UP, NO_TOKENS } = Expressions;

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

class DirectReader extends AdminReader {
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
    else if ((type === K.CREATE || type === K.ALTER) && this.isRoleOrUser()) stmt = this.roleOrUser(base);
    else if (type === K.GRANT || type === K.REVOKE) stmt = this.grantOrRevoke(base);
    else if (type === K.LIST) stmt = this.list(base);
    else if (type === K.DESCRIBE || type === K.DESC) stmt = this.describe(base);
    else if (type === K.CREATE) stmt = this.create(base);
    else if (type === K.DROP) stmt = this.drop(base);
    else if (type === K.ALTER) stmt = this.alter(base);
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
  // Statements

  protected select(): SelectParts {
    this.expect(K.SELECT);
    // `SELECT JSON` / `SELECT DISTINCT` or columns of those names: the parser decides.
    if (this.is(K.JSON) || this.is(K.DISTINCT)) throw GIVE_UP;
    const { selectors, star } = this.selectClause();
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
        const start = this.peek();
        const column = this.columnName();
        let annOf: A.Expression | undefined;
        if (this.accept(K.ANN)) {
          this.expect(K.OF);
          annOf = this.expression();
        }
        const direction = this.accept(K.DESC) ? 'DESC' : this.accept(K.ASC) ? 'ASC' : undefined;
        orderBy.push(orderingOf(column, tokenRange(start, this.previous()), direction, annOf));
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
    return { json: false, distinct: false, selectors, star, from, where, whereRange, groupItems, orderBy: sized(orderBy), perPartitionLimit, limit, allowFilteringRange };
  }

  protected insert(): InsertParts {
    this.expect(K.INSERT);
    this.expect(K.INTO);
    const table = this.tableName();
    if (this.accept(K.JSON)) return this.insertJson(table);
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

  /** `INSERT INTO table JSON (string | bind marker) [DEFAULT NULL|UNSET] [IF NOT EXISTS] [USING ...]`, after JSON. */
  private insertJson(table: A.QualifiedName): InsertParts {
    const json = this.is(StringLiteral) ? literalFromToken(this.expect(StringLiteral)) : this.bindMarker();
    let jsonDefault: InsertParts['jsonDefault'];
    if (this.accept(K.DEFAULT)) {
      if (this.accept(K.NULL)) jsonDefault = 'NULL';
      else {
        this.expect(K.UNSET);
        jsonDefault = 'UNSET';
      }
    }
    const ifNotExists = this.ifNotExists();
    const using = this.using();
    return { table, columns: [], values: [], ifNotExists, using, columnsRange: undefined, valuesRange: undefined, json, jsonDefault };
  }

  protected update(): UpdateParts {
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

  protected delete(): DeleteParts {
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

  protected batch(base: StatementBase): A.BatchStatement {
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

}

const reader = new DirectReader();
