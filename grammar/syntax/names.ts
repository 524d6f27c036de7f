// Names: `[keyspace.]name` for every kind of object, and the IF [NOT] EXISTS clauses.
import * as Lexer from '../lexer';
import { CqlParserBase } from './base';

// Module constants: compiled to CommonJS (tsx: tests, bench), every use of an imported binding is a getter call.
const { keywordTokens: K, Ident, NonTypeIdent, StringLiteral, EmptyQuotedName, Dot } = Lexer;

export class NameRules extends CqlParserBase {
  readonly ifNotExists = this.RULE('ifNotExists', () => {
    this.CONSUME(K.IF);
    this.CONSUME(K.NOT);
    this.CONSUME(K.EXISTS);
  });

  readonly ifExists = this.RULE('ifExists', () => {
    this.CONSUME(K.IF);
    this.CONSUME(K.EXISTS);
  });

  readonly userName = this.RULE('userName', () => this.OR((this.alts.userNameOr ??= [{ ALT: () => this.CONSUME(Ident) }, { ALT: () => this.CONSUME(StringLiteral) }])));

  readonly keyspaceName = this.RULE('keyspaceName', () => this.CONSUME(Ident));

  readonly columnName = this.RULE('columnName', () => this.OR((this.alts.columnNameOr ??= [{ ALT: () => this.CONSUME(Ident) }, { ALT: () => this.CONSUME(EmptyQuotedName) }])));

  readonly fieldName = this.RULE('fieldName', () => this.CONSUME(Ident));

  readonly indexName = this.RULE('indexName', () => this.CONSUME(Ident));

  readonly roleName = this.RULE('roleName', () => this.OR((this.alts.roleNameOr ??= [{ ALT: () => this.CONSUME(Ident) }, { ALT: () => this.CONSUME(StringLiteral) }])));

  /** `[keyspace.]table` */
  readonly tableName = this.RULE('tableName', () => {
    this.OPTION(() => {
      this.SUBRULE(this.keyspaceName);
      this.CONSUME(Dot);
    });
    this.CONSUME(Ident);
  });

  readonly qualifiedIndexName = this.RULE('qualifiedIndexName', () => {
    this.OPTION(() => {
      this.SUBRULE(this.keyspaceName);
      this.CONSUME(Dot);
    });
    this.SUBRULE(this.indexName);
  });

  readonly userTypeName = this.RULE('userTypeName', () => {
    this.OPTION(() => {
      this.SUBRULE(this.keyspaceName);
      this.CONSUME(Dot);
    });
    this.CONSUME(NonTypeIdent);
  });

  readonly functionName = this.RULE('functionName', () => {
    this.OPTION(() => {
      this.SUBRULE(this.keyspaceName);
      this.CONSUME(Dot);
    });
    this.OR((this.alts.functionNameOr ??= [{ ALT: () => this.CONSUME(Ident) }, { ALT: () => this.CONSUME(K.TOKEN) }]));
  });
}
