// The CQL parser (Apache Cassandra 5.0 Parser.g), as a Chevrotain CstParser.
//
// One statement is parsed at a time (grammar/index.ts splits the file into statement chunks), starting at
// `cqlStatement`. Where Parser.g relies on ANTLR syntactic predicates we left-factor, use small token-scanning
// gates (type hints, SELECT JSON/DISTINCT) or accept a slightly larger language and let the AST builder decide
// (expressions are one grammar for selectors, terms and relation operands).
// Rule names double as completion contexts (`expectedTokensAt` reports them): keep them descriptive.
import * as Lexer from './lexer';
import { AdminRules } from './syntax/admin';
import type { CqlParserOptions } from './syntax/base';

// Module constants: compiled to CommonJS (tsx: tests, bench), every use of an imported binding is a getter call.
const { keywordTokens: K, Semicolon } = Lexer;

export { STATEMENT_START, type CqlParserOptions } from './syntax/base';

/** Rules a text may be parsed from on its own: a statement, or a term or type (grammar/fragments.ts). */
export type EntryRule = 'cqlStatement' | 'expression' | 'cqlType' | 'cqlTypes';

/** The whole grammar: the statement families (grammar/syntax/*) and the statement entry point. */
export class CqlParser extends AdminRules {
  readonly cqlStatement = this.RULE('cqlStatement', () => {
    this.OR((this.alts.cqlStatementOr ??= [
      { ALT: () => this.SUBRULE(this.selectStatement) },
      { ALT: () => this.SUBRULE(this.insertStatement) },
      { ALT: () => this.SUBRULE(this.updateStatement) },
      { ALT: () => this.SUBRULE(this.deleteStatement) },
      { ALT: () => this.SUBRULE(this.batchStatement) },
      { ALT: () => this.SUBRULE(this.useStatement) },
      { ALT: () => this.SUBRULE(this.truncateStatement) },
      { ALT: () => this.SUBRULE(this.createStatement) },
      { ALT: () => this.SUBRULE(this.alterStatement) },
      { ALT: () => this.SUBRULE(this.dropStatement) },
      { ALT: () => this.SUBRULE(this.grantStatement) },
      { ALT: () => this.SUBRULE(this.revokeStatement) },
      { ALT: () => this.SUBRULE(this.listStatement) },
      { ALT: () => this.SUBRULE(this.describeStatement) },
      { ALT: () => this.SUBRULE(this.addIdentityStatement) },
    ]));
    this.OPTION(() => this.CONSUME(Semicolon));
  });

  readonly createStatement = this.RULE('createStatement', () => {
    this.CONSUME(K.CREATE);
    this.OR((this.alts.createStatementOr ??= [
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
    ]));
  });

  readonly alterStatement = this.RULE('alterStatement', () => {
    this.CONSUME(K.ALTER);
    this.OR((this.alts.alterStatementOr ??= [
      { ALT: () => this.SUBRULE(this.alterKeyspace) },
      { ALT: () => this.SUBRULE(this.alterTable) },
      { ALT: () => this.SUBRULE(this.alterType) },
      { ALT: () => this.SUBRULE(this.alterMaterializedView) },
      { ALT: () => this.SUBRULE(this.alterRole) },
      { ALT: () => this.SUBRULE(this.alterUser) },
    ]));
  });

  readonly dropStatement = this.RULE('dropStatement', () => {
    this.CONSUME(K.DROP);
    this.OR((this.alts.dropStatementOr ??= [
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
    ]));
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
