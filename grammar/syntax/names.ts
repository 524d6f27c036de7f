// Names: `[keyspace.]name` for every kind of object, and the IF [NOT] EXISTS clauses.
import type { IToken } from '../chevrotain';
import type * as A from '../ast';
import * as Lexer from '../lexer';
import * as Nodes from '../nodes';
import { CqlParserBase, TokenReader } from './base';

// Module constants: compiled to CommonJS (tsx: tests, bench), every use of an imported binding is a getter call.
const { keywordTokens: K, Ident, NonTypeIdent, StringLiteral, EmptyQuotedName, Dot } = Lexer;
const { identifierFromToken, qualifiedNameOf } = Nodes;

export class NameRules extends CqlParserBase {
  readonly ifNotExists = this.RULE('ifNotExists', () => {
    this.CONSUME(K.IF);
    this.CONSUME(K.NOT);
    this.CONSUME(K.EXISTS);
    return true;
  });

  readonly ifExists = this.RULE('ifExists', () => {
    this.CONSUME(K.IF);
    this.CONSUME(K.EXISTS);
    return true;
  });

  readonly userName = this.RULE('userName', () =>
    this.nameOf(
      this.OR((this.alts.userNameOr ??= [{ ALT: () => this.token(Ident) }, { ALT: () => this.token(StringLiteral) }])),
    ),
  );

  readonly keyspaceName = this.RULE('keyspaceName', () => this.nameOf(this.CONSUME(Ident)));

  readonly columnName = this.RULE('columnName', () =>
    this.nameOf(
      this.OR(
        (this.alts.columnNameOr ??= [{ ALT: () => this.token(Ident) }, { ALT: () => this.token(EmptyQuotedName) }]),
      ),
    ),
  );

  readonly fieldName = this.RULE('fieldName', () => this.nameOf(this.CONSUME(Ident)));

  readonly indexName = this.RULE('indexName', () => this.nameOf(this.CONSUME(Ident)));

  readonly roleName = this.RULE('roleName', () =>
    this.nameOf(
      this.OR((this.alts.roleNameOr ??= [{ ALT: () => this.token(Ident) }, { ALT: () => this.token(StringLiteral) }])),
    ),
  );

  /** `[keyspace.]table` */
  readonly tableName = this.RULE('tableName', () => {
    const keyspace = this.OPTION(this.keyspacePrefix());
    return this.qualified(keyspace, this.CONSUME(Ident));
  });

  readonly qualifiedIndexName = this.RULE('qualifiedIndexName', () => {
    const keyspace = this.OPTION(this.keyspacePrefix());
    const name = this.SUBRULE(this.indexName);
    return this.ACTION(() => qualifiedNameOf(keyspace, name));
  });

  readonly userTypeName = this.RULE('userTypeName', () => {
    const keyspace = this.OPTION(this.keyspacePrefix());
    return this.qualified(keyspace, this.CONSUME(NonTypeIdent));
  });

  readonly functionName = this.RULE('functionName', () => {
    const keyspace = this.OPTION(this.keyspacePrefix());
    return this.qualified(
      keyspace,
      this.OR((this.alts.functionNameOr ??= [{ ALT: () => this.token(Ident) }, { ALT: () => this.token(K.TOKEN) }])),
    );
  });

  /** `keyspace.` before a name (two tokens decide it: `ks.t` against `t`). */
  private keyspacePrefix(): { MAX_LOOKAHEAD: number; DEF: () => A.Identifier } {
    return (this.alts.keyspacePrefix ??= {
      MAX_LOOKAHEAD: 2,
      DEF: () => {
        const keyspace = this.SUBRULE(this.keyspaceName);
        this.CONSUME(Dot);
        return keyspace;
      },
    });
  }

  /** The Identifier of a name token (in an action). */
  protected nameOf(token: IToken): A.Identifier {
    return this.ACTION(() => identifierFromToken(token));
  }

  private qualified(keyspace: A.Identifier | undefined, name: IToken): A.QualifiedName {
    return this.ACTION(() => qualifiedNameOf(keyspace, identifierFromToken(name)));
  }
}

/** Names, as the rules above read them. */
export class NameReader extends TokenReader {
  /** A name token (`Ident`: identifiers, quoted names, unreserved keywords). */
  protected ident(): IToken {
    return this.expectMatch(Ident);
  }

  /** `columnName`: a name or `""`. */
  protected columnName(): A.Identifier {
    const t = this.peek();
    if (t.tokenType === EmptyQuotedName) this.pos++;
    else this.ident();
    return identifierFromToken(t);
  }

  /** `roleName` / `userName` / `identityName`: a name or a string. */
  protected roleName(): A.Identifier {
    const t = this.peek();
    if (t.tokenType === StringLiteral) this.pos++;
    else this.ident();
    return identifierFromToken(t);
  }

  /** The keyspace of `keyspace.name`, when a `.` follows the next token. */
  private keyspacePrefix(): A.Identifier | undefined {
    if (this.la(2).tokenType !== Dot) return undefined;
    const keyspace = identifierFromToken(this.ident());
    this.pos++;
    return keyspace;
  }

  /** `[keyspace.]table`. */
  protected tableName(): A.QualifiedName {
    const keyspace = this.keyspacePrefix();
    return qualifiedNameOf(keyspace, identifierFromToken(this.ident()));
  }

  /** `[keyspace.]index`. */
  protected qualifiedIndexName(): A.QualifiedName {
    return this.tableName();
  }

  /** `userTypeName`: `[keyspace.]name`, the name not a native type's. */
  protected userTypeName(): A.QualifiedName {
    const keyspace = this.keyspacePrefix();
    return qualifiedNameOf(keyspace, identifierFromToken(this.expectMatch(NonTypeIdent)));
  }

  /** `functionName`: `[keyspace.]name`, the name an identifier or `token`. */
  protected functionName(): A.QualifiedName {
    const keyspace = this.keyspacePrefix();
    const name = this.peek();
    if (name.tokenType === K.TOKEN) this.pos++;
    else this.ident();
    return qualifiedNameOf(keyspace, identifierFromToken(name));
  }

  /** `IF NOT EXISTS`, or nothing. */
  protected ifNotExists(): boolean {
    if (!this.accept(K.IF)) return false;
    this.expect(K.NOT);
    this.expect(K.EXISTS);
    return true;
  }

  /** `IF EXISTS`, or nothing. */
  protected ifExists(): boolean {
    if (!this.accept(K.IF)) return false;
    this.expect(K.EXISTS);
    return true;
  }
}
