// The statement entry points of both readings of CQL (grammar/syntax/base.ts says what each is for): the
// Chevrotain parser's `cqlStatement` (Apache Cassandra 5.0 Parser.g, plus ScyllaDB's clauses) and the reader's
// dispatch by the statement's first words.
//
// One statement is parsed at a time (grammar/chunks.ts splits the file into statement chunks). Where Parser.g
// relies on ANTLR syntactic predicates we left-factor, use small token-scanning gates (type hints, SELECT
// JSON/DISTINCT) or accept a slightly larger language and let the AST decide (expressions are one grammar for
// selectors, terms and relation operands).
// Rule names double as completion contexts (`expectedTokensAt` reports them): keep them descriptive.
import type { IToken } from './chevrotain';
import type * as A from './ast';
import * as Lexer from './lexer';
import * as Nodes from './nodes';
import { AdminReader, AdminRules } from './syntax/admin';
import * as BaseModule from './syntax/base';
import type { Base, CqlParserOptions, Pending, Verdict } from './syntax/base';
import { selectOf } from './syntax/select';
import { batchOf, deleteOf, insertOf, truncateOf, updateOf, useOf } from './syntax/modify';

// Module constants: compiled to CommonJS (tsx: tests, bench), every use of an imported binding is a getter call.
const { keywordTokens: K, Semicolon } = Lexer;
const { identifierFromToken, tokenRange } = Nodes;
const { LeftToParser, NO_TOKENS, REJECT } = BaseModule;

export { STATEMENT_START, type CqlParserOptions } from './syntax/base';

/** Rules a text may be parsed from on its own: a statement, or a term or type (grammar/fragments.ts). */
export type EntryRule = 'cqlStatement' | 'expression' | 'cqlType' | 'cqlTypes';

/** The whole grammar: the statement families (grammar/syntax/*) and the statement entry point. */
export class CqlParser extends AdminRules {
  readonly cqlStatement = this.RULE('cqlStatement', (): A.Statement => {
    const first = this.LA(1);
    const statement: Pending = this.OR(
      (this.alts.cqlStatementOr ??= [
        {
          ALT: (): Pending => {
            const parts = this.SUBRULE(this.selectStatement);
            return (base) => selectOf(base, parts);
          },
        },
        {
          ALT: (): Pending => {
            const parts = this.SUBRULE(this.insertStatement);
            return (base) => insertOf(base, parts);
          },
        },
        {
          ALT: (): Pending => {
            const parts = this.SUBRULE(this.updateStatement);
            return (base) => updateOf(base, parts);
          },
        },
        {
          ALT: (): Pending => {
            const parts = this.SUBRULE(this.deleteStatement);
            return (base) => deleteOf(base, parts);
          },
        },
        {
          ALT: (): Pending => {
            const parts = this.SUBRULE(this.batchStatement);
            return (base) => batchOf(base, parts.batchType, parts.using, parts.statements);
          },
        },
        {
          ALT: (): Pending => {
            const keyspace = this.SUBRULE(this.useStatement);
            return (base) => useOf(base, keyspace);
          },
        },
        {
          ALT: (): Pending => {
            const name = this.SUBRULE(this.truncateStatement);
            return (base) => truncateOf(base, name);
          },
        },
        { ALT: () => this.SUBRULE(this.createStatement) },
        { ALT: () => this.SUBRULE(this.alterStatement) },
        { ALT: () => this.SUBRULE(this.dropStatement) },
        { ALT: () => this.SUBRULE(this.grantStatement) },
        { ALT: () => this.SUBRULE(this.revokeStatement) },
        { ALT: () => this.SUBRULE(this.listStatement) },
        { ALT: () => this.SUBRULE(this.describeStatement) },
        { ALT: () => this.SUBRULE(this.addIdentityStatement) },
      ]),
    );
    const semicolon = this.OPTION(() => this.CONSUME(Semicolon));
    return this.ACTION(() => statement({ range: this.rangeFrom(first), terminated: semicolon !== undefined }));
  });

  readonly createStatement = this.RULE('createStatement', (): Pending => {
    this.CONSUME(K.CREATE);
    // `OR REPLACE FUNCTION` against `OR REPLACE AGGREGATE`: three tokens.
    return this.OR(
      (this.alts.createStatementOr ??= {
        MAX_LOOKAHEAD: 3,
        DEF: [
          { ALT: () => this.SUBRULE(this.createKeyspace) },
          { ALT: () => this.SUBRULE(this.createTable) },
          { ALT: () => this.SUBRULE(this.createType) },
          { ALT: () => this.SUBRULE(this.createIndex) },
          { ALT: () => this.SUBRULE(this.createMaterializedView) },
          { ALT: () => this.SUBRULE(this.createFunction) },
          { ALT: () => this.SUBRULE(this.createAggregate) },
          { ALT: () => this.SUBRULE(this.createTrigger) },
          { ALT: () => this.SUBRULE(this.createRole) },
          { ALT: () => this.SUBRULE(this.createUser) },
        ],
      }),
    );
  });

  readonly alterStatement = this.RULE('alterStatement', (): Pending => {
    this.CONSUME(K.ALTER);
    return this.OR(
      (this.alts.alterStatementOr ??= [
        { ALT: () => this.SUBRULE(this.alterKeyspace) },
        { ALT: () => this.SUBRULE(this.alterTable) },
        { ALT: () => this.SUBRULE(this.alterType) },
        { ALT: () => this.SUBRULE(this.alterMaterializedView) },
        { ALT: () => this.SUBRULE(this.alterRole) },
        { ALT: () => this.SUBRULE(this.alterUser) },
      ]),
    );
  });

  readonly dropStatement = this.RULE('dropStatement', (): Pending => {
    this.CONSUME(K.DROP);
    return this.OR(
      (this.alts.dropStatementOr ??= [
        { ALT: () => this.SUBRULE(this.dropKeyspace) },
        { ALT: () => this.SUBRULE(this.dropTable) },
        { ALT: () => this.SUBRULE(this.dropType) },
        { ALT: () => this.SUBRULE(this.dropIndex) },
        { ALT: () => this.SUBRULE(this.dropMaterializedView) },
        { ALT: () => this.SUBRULE(this.dropFunction) },
        { ALT: () => this.SUBRULE(this.dropAggregate) },
        { ALT: () => this.SUBRULE(this.dropTrigger) },
        { ALT: () => this.SUBRULE(this.dropRole) },
        { ALT: () => this.SUBRULE(this.dropUser) },
        { ALT: () => this.SUBRULE(this.dropIdentity) },
      ]),
    );
  });

  constructor(options: CqlParserOptions = {}) {
    super(options);
    // Every rule is a member, created by the time the subclass fields are initialised: analyse them now.
    this.performSelfAnalysis();
  }
}

let instance: CqlParser | undefined;
let constructionMs = 0;

/** The shared parser (grammar analysis is done once, on first use). */
export function getParser(): CqlParser {
  if (!instance) {
    const start = performance.now();
    instance = new CqlParser();
    constructionMs = performance.now() - start;
  }
  return instance;
}

/** How long building the grammar took (ms), for the benchmark. */
export function parserConstructionMs(): number {
  getParser();
  return constructionMs;
}

// ---------------------------------------------------------------------------------------------
// The reader's entry point

/** The statement reader: every family's reading (grammar/syntax/*), dispatched by the statement's first words. */
class StatementReader extends AdminReader {
  statement(): A.Statement {
    const tokens = this.tokens;
    const last = tokens[tokens.length - 1]!;
    const base: Base = { range: tokenRange(tokens[0]!, last), terminated: last.tokenType === Semicolon };
    const type = tokens[0]!.tokenType;
    const second = this.la(2).tokenType;
    let stmt: A.Statement;
    if (type === K.INSERT) stmt = insertOf(base, this.insert());
    else if (type === K.SELECT) stmt = selectOf(base, this.select());
    else if (type === K.UPDATE) stmt = updateOf(base, this.update());
    else if (type === K.DELETE) stmt = deleteOf(base, this.delete());
    else if (type === K.BEGIN) stmt = this.batch(base);
    else if ((type === K.CREATE || type === K.ALTER) && (second === K.ROLE || second === K.USER))
      stmt = this.roleOrUser(base);
    else if (type === K.GRANT || type === K.REVOKE) stmt = this.grantOrRevoke(base);
    else if (type === K.LIST) stmt = this.list(base);
    else if (type === K.DESCRIBE || type === K.DESC) stmt = this.describe(base);
    else if (type === K.CREATE) stmt = this.create(base);
    else if (type === K.ALTER) stmt = this.alter(base);
    else if (type === K.DROP) {
      this.pos++;
      stmt =
        second === K.ROLE || second === K.USER || second === K.IDENTITY
          ? this.dropRoleOrUser(base)
          : this.dropSchemaObject(base);
    } else if (type === K.USE) {
      this.pos++;
      stmt = useOf(base, identifierFromToken(this.ident()));
    } else if (type === K.TRUNCATE) {
      this.pos++;
      this.accept(K.TABLE);
      stmt = truncateOf(base, this.tableName());
    } else if (type === K.ADD) stmt = this.addIdentity(base);
    else throw REJECT;
    this.accept(Semicolon);
    if (this.pos !== tokens.length) throw REJECT;
    return stmt;
  }

  /** CREATE KEYSPACE, TABLE, TYPE, INDEX, MATERIALIZED VIEW, FUNCTION, AGGREGATE, TRIGGER (ROLE and USER: roleOrUser). */
  private create(base: Base): A.Statement {
    this.expect(K.CREATE);
    let type = this.peek().tokenType;
    // `OR REPLACE FUNCTION` / `OR REPLACE AGGREGATE`.
    if (type === K.OR) type = this.la(3).tokenType;
    if (type === K.TABLE) return this.createTable(base);
    if (type === K.TYPE) return this.createType(base);
    if (type === K.INDEX || type === K.CUSTOM) return this.createIndex(base);
    if (type === K.MATERIALIZED) return this.createMaterializedView(base);
    if (type === K.FUNCTION) return this.createFunction(base);
    if (type === K.AGGREGATE) return this.createAggregate(base);
    if (type === K.TRIGGER) return this.createTrigger(base);
    if (type === K.KEYSPACE || type === K.SCHEMA) return this.createKeyspace(base);
    throw REJECT;
  }

  /** ALTER KEYSPACE, TABLE, TYPE, MATERIALIZED VIEW (ROLE and USER: roleOrUser). */
  private alter(base: Base): A.Statement {
    this.expect(K.ALTER);
    const type = this.peek().tokenType;
    if (type === K.KEYSPACE || type === K.SCHEMA) return this.alterKeyspace(base);
    if (type === K.TABLE) return this.alterTable(base);
    if (type === K.TYPE) return this.alterType(base);
    if (type === K.MATERIALIZED) return this.alterMaterializedView(base);
    throw REJECT;
  }
}

const reader = new StatementReader();

/**
 * The reader's verdict on one statement chunk (its tokens, `;` included): the statement's AST, not a statement of
 * the grammar, or a form the reader leaves to the parser. An unexpected exception (a bug) is thrown.
 */
export function readVerdict(tokens: IToken[]): Verdict {
  reader.tokens = tokens;
  reader.pos = 0;
  reader.depth = 0;
  try {
    return { statement: reader.statement() };
  } catch (e) {
    if (e === REJECT) return { rejected: true };
    if (e instanceof LeftToParser) return { leftToParser: e.reason };
    throw e;
  } finally {
    reader.tokens = NO_TOKENS;
  }
}

/**
 * The AST of one statement chunk read straight from its tokens, or undefined when the parser must read it (a form
 * left to the parser, a syntax error, or any failure of the reader: the parser then decides).
 */
export function readStatement(tokens: IToken[]): A.Statement | undefined {
  reader.tokens = tokens;
  reader.pos = 0;
  reader.depth = 0;
  try {
    return reader.statement();
  } catch {
    return undefined;
  } finally {
    reader.tokens = NO_TOKENS;
  }
}
