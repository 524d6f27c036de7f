// Permissions and the shell-like statements: GRANT, REVOKE, LIST and DESCRIBE, modelled as OtherStatement (their
// words and the names they mention): the rules and the reading.
import type { IToken, TokenType } from '../chevrotain';
import type * as A from '../ast';
import * as Chevrotain from '../chevrotain';
import * as Lexer from '../lexer';
import * as Nodes from '../nodes';
import { type Name, RoleReader, RoleRules, namesIn, otherOf } from './roles';
import { type Base, type Pending, REJECT } from './base';

// Module constants: compiled to CommonJS (tsx: tests, bench), every use of an imported binding is a getter call.
const { keywordTokens: K, Ident, PermissionKw, StringLiteral, Comma } = Lexer;
const { tokenMatcher } = Chevrotain;
const { identifierFromToken } = Nodes;

/** What DESCRIBE describes: its words after DESCRIBE, and the name it names. */
interface Described {
  words: string;
  names: Name[];
}

export class AdminRules extends RoleRules {
  readonly grantStatement = this.RULE('grantStatement', (): Pending => {
    this.CONSUME(K.GRANT);
    const names: Name[] = this.OR(
      (this.alts.grantStatementOr ??= {
        MAX_LOOKAHEAD: 2,
        DEF: [
          {
            ALT: () => {
              this.SUBRULE(this.permissions);
              this.CONSUME(K.ON);
              const resource = this.SUBRULE(this.resource);
              this.CONSUME(K.TO);
              const role = this.SUBRULE(this.roleName);
              return this.ACTION(() => [...resource, role]);
            },
          },
          {
            ALT: () => {
              const role = this.SUBRULE2(this.roleName);
              this.CONSUME2(K.TO);
              return [role, this.SUBRULE3(this.roleName)];
            },
          },
        ],
      }),
    );
    return (base) => otherOf(base, 'GRANT', names);
  });

  readonly revokeStatement = this.RULE('revokeStatement', (): Pending => {
    this.CONSUME(K.REVOKE);
    const names: Name[] = this.OR(
      (this.alts.revokeStatementOr ??= {
        MAX_LOOKAHEAD: 2,
        DEF: [
          {
            ALT: () => {
              this.SUBRULE(this.permissions);
              this.CONSUME(K.ON);
              const resource = this.SUBRULE(this.resource);
              this.CONSUME(K.FROM);
              const role = this.SUBRULE(this.roleName);
              return this.ACTION(() => [...resource, role]);
            },
          },
          {
            ALT: () => {
              const role = this.SUBRULE2(this.roleName);
              this.CONSUME2(K.FROM);
              return [role, this.SUBRULE3(this.roleName)];
            },
          },
        ],
      }),
    );
    return (base) => otherOf(base, 'REVOKE', names);
  });

  readonly permissions = this.RULE('permissions', () => {
    this.OR(
      (this.alts.permissionsOr ??= [
        {
          ALT: () => {
            this.CONSUME(K.ALL);
            this.OPTION(() => this.CONSUME(K.PERMISSIONS));
          },
        },
        {
          ALT: () => {
            this.SUBRULE(this.permission);
            this.MANY(() => {
              this.CONSUME(Comma);
              this.SUBRULE2(this.permission);
            });
          },
        },
      ]),
    );
  });

  readonly permission = this.RULE('permission', () => {
    this.CONSUME(PermissionKw);
    this.OPTION(() => this.CONSUME(K.PERMISSION));
  });

  /** A resource; it returns the names it mentions. */
  readonly resource = this.RULE('resource', (): Name[] =>
    this.OR(
      (this.alts.resourceOr ??= {
        MAX_LOOKAHEAD: 2,
        DEF: [
          {
            ALT: () => {
              this.CONSUME(K.ALL);
              return this.OR2(
                (this.alts.resourceOr2 ??= [
                  { ALT: () => (this.CONSUME(K.KEYSPACES), []) },
                  {
                    ALT: () => {
                      this.CONSUME(K.TABLES);
                      this.CONSUME(K.IN);
                      this.CONSUME(K.KEYSPACE);
                      return [this.SUBRULE(this.keyspaceName)];
                    },
                  },
                  { ALT: () => (this.CONSUME(K.ROLES), []) },
                  {
                    ALT: () => {
                      this.CONSUME(K.FUNCTIONS);
                      const keyspace = this.OPTION(() => {
                        this.CONSUME2(K.IN);
                        this.CONSUME2(K.KEYSPACE);
                        return this.SUBRULE2(this.keyspaceName);
                      });
                      return keyspace ? [keyspace] : [];
                    },
                  },
                  { ALT: () => (this.CONSUME(K.MBEANS), []) },
                ]),
              );
            },
            IGNORE_AMBIGUITIES: true,
          },
          {
            ALT: () => {
              this.CONSUME3(K.KEYSPACE);
              return [this.SUBRULE3(this.keyspaceName)];
            },
          },
          {
            ALT: () => {
              this.CONSUME(K.ROLE);
              return [this.SUBRULE(this.roleName)];
            },
            IGNORE_AMBIGUITIES: true,
          },
          {
            ALT: () => {
              this.CONSUME(K.FUNCTION);
              const names: Name[] = [this.SUBRULE(this.functionName)];
              const types = this.SUBRULE(this.typeList);
              this.ACTION(() => namesIn(types, names));
              return names;
            },
            IGNORE_AMBIGUITIES: true,
          },
          {
            ALT: () => {
              this.OR3(
                (this.alts.resourceOr3 ??= [
                  { ALT: () => this.CONSUME(K.MBEAN) },
                  { ALT: () => this.CONSUME2(K.MBEANS) },
                ]),
              );
              this.CONSUME(StringLiteral);
              return [];
            },
            IGNORE_AMBIGUITIES: true,
          },
          {
            ALT: () => {
              this.OPTION2(() => this.CONSUME(K.TABLE));
              return [this.SUBRULE(this.tableName)];
            },
          },
        ],
      }),
    ),
  );

  readonly listStatement = this.RULE('listStatement', (): Pending => {
    this.CONSUME(K.LIST);
    const listed: { words: string; names: Name[] } = this.OR(
      (this.alts.listStatementOr ??= [
        {
          ALT: () => {
            const what: IToken = this.OR2(
              (this.alts.listStatementOr2 ??= [
                { ALT: () => this.token(K.ROLES) },
                { ALT: () => this.token(K.USERS) },
                { ALT: () => this.token(K.SUPERUSERS) },
              ]),
            );
            const role = this.OPTION(() => {
              this.CONSUME(K.OF);
              return this.SUBRULE(this.roleName);
            });
            this.OPTION2(() => this.CONSUME(K.NORECURSIVE));
            return this.ACTION(() => ({ words: `LIST ${what.image.toUpperCase()}`, names: role ? [role] : [] }));
          },
        },
        {
          ALT: () => {
            this.SUBRULE(this.permissions);
            const names =
              this.OPTION3(() => {
                this.CONSUME(K.ON);
                return this.SUBRULE(this.resource);
              }) ?? [];
            const role = this.OPTION4(() => {
              this.CONSUME2(K.OF);
              return this.SUBRULE2(this.roleName);
            });
            this.OPTION5(() => this.CONSUME2(K.NORECURSIVE));
            return { words: 'LIST PERMISSIONS', names: this.ACTION(() => (role ? [...names, role] : names)) };
          },
        },
      ]),
    );
    return (base) => otherOf(base, listed.words, listed.names);
  });

  readonly describeStatement = this.RULE('describeStatement', (): Pending => {
    this.OR(
      (this.alts.describeStatementOr ??= [
        { ALT: () => this.CONSUME(K.DESCRIBE) },
        { ALT: () => this.CONSUME(K.DESC) },
      ]),
    );
    const described: Described = this.OR2(
      (this.alts.describeStatementOr2 ??= {
        MAX_LOOKAHEAD: 2,
        DEF: [
          { ALT: () => (this.CONSUME(K.CLUSTER), { words: 'DESCRIBE CLUSTER', names: [] }), IGNORE_AMBIGUITIES: true },
          {
            ALT: () => {
              const full = this.OPTION(() => this.CONSUME(K.FULL));
              this.CONSUME(K.SCHEMA);
              return { words: full ? 'DESCRIBE FULL SCHEMA' : 'DESCRIBE SCHEMA', names: [] };
            },
          },
          {
            ALT: () => (this.CONSUME(K.KEYSPACES), { words: 'DESCRIBE KEYSPACES', names: [] }),
            IGNORE_AMBIGUITIES: true,
          },
          {
            ALT: () => {
              const only = this.OPTION2(() => this.CONSUME(K.ONLY));
              this.CONSUME(K.KEYSPACE);
              const keyspace = this.OPTION3(() => this.SUBRULE(this.keyspaceName));
              return {
                words: only ? 'DESCRIBE ONLY KEYSPACE' : 'DESCRIBE KEYSPACE',
                names: keyspace ? [keyspace] : [],
              };
            },
            IGNORE_AMBIGUITIES: true,
          },
          { ALT: () => (this.CONSUME(K.TABLES), { words: 'DESCRIBE TABLES', names: [] }), IGNORE_AMBIGUITIES: true },
          {
            ALT: () => {
              this.CONSUME(K.TABLE);
              return { words: 'DESCRIBE TABLE', names: [this.SUBRULE(this.tableName)] };
            },
          },
          {
            ALT: () => {
              this.CONSUME(K.INDEX);
              return { words: 'DESCRIBE INDEX', names: [this.SUBRULE(this.qualifiedIndexName)] };
            },
          },
          {
            ALT: () => {
              this.CONSUME(K.MATERIALIZED);
              this.CONSUME(K.VIEW);
              return { words: 'DESCRIBE MATERIALIZED VIEW', names: [this.SUBRULE2(this.tableName)] };
            },
          },
          { ALT: () => (this.CONSUME(K.TYPES), { words: 'DESCRIBE TYPES', names: [] }), IGNORE_AMBIGUITIES: true },
          {
            ALT: () => {
              this.CONSUME(K.TYPE);
              return { words: 'DESCRIBE TYPE', names: [this.SUBRULE(this.userTypeName)] };
            },
            IGNORE_AMBIGUITIES: true,
          },
          {
            ALT: () => (this.CONSUME(K.FUNCTIONS), { words: 'DESCRIBE FUNCTIONS', names: [] }),
            IGNORE_AMBIGUITIES: true,
          },
          {
            ALT: () => {
              this.CONSUME(K.FUNCTION);
              return { words: 'DESCRIBE FUNCTION', names: [this.SUBRULE(this.functionName)] };
            },
            IGNORE_AMBIGUITIES: true,
          },
          {
            ALT: () => (this.CONSUME(K.AGGREGATES), { words: 'DESCRIBE AGGREGATES', names: [] }),
            IGNORE_AMBIGUITIES: true,
          },
          {
            ALT: () => {
              this.CONSUME(K.AGGREGATE);
              return { words: 'DESCRIBE AGGREGATE', names: [this.SUBRULE2(this.functionName)] };
            },
            IGNORE_AMBIGUITIES: true,
          },
          { ALT: () => ({ words: 'DESCRIBE', names: [this.SUBRULE3(this.tableName)] }) },
        ],
      }),
    );
    this.OPTION4(() => {
      this.CONSUME(K.WITH);
      this.CONSUME(K.INTERNALS);
    });
    return (base) => otherOf(base, described.words, described.names);
  });
}

/** GRANT, REVOKE, LIST and DESCRIBE, as the rules above read them. */
export class AdminReader extends RoleReader {
  /** `GRANT|REVOKE permissions ON resource TO|FROM role`, or `GRANT|REVOKE role TO|FROM role`. */
  protected grantOrRevoke(base: Base): A.OtherStatement {
    const verb = this.peek();
    this.pos++;
    const toward = verb.tokenType === K.GRANT ? K.TO : K.FROM;
    const names: Name[] = [];
    // A role then TO / FROM: the role alternative (no permission list reads so).
    if (this.la(2).tokenType === toward) names.push(this.roleName());
    else {
      this.permissions();
      this.expect(K.ON);
      this.resource(names);
    }
    this.expect(toward);
    names.push(this.roleName());
    return otherOf(base, verb.image.toUpperCase(), names);
  }

  /** `LIST ROLES|USERS|SUPERUSERS [OF role] [NORECURSIVE]` or `LIST permissions [ON resource] [OF role] [NORECURSIVE]`. */
  protected list(base: Base): A.OtherStatement {
    this.expect(K.LIST);
    const t = this.peek();
    const names: Name[] = [];
    let words = 'LIST PERMISSIONS';
    if (t.tokenType === K.ROLES || t.tokenType === K.USERS || t.tokenType === K.SUPERUSERS) {
      this.pos++;
      words = `LIST ${t.image.toUpperCase()}`;
    } else {
      this.permissions();
      if (this.accept(K.ON)) this.resource(names);
    }
    if (this.accept(K.OF)) names.push(this.roleName());
    this.accept(K.NORECURSIVE);
    return otherOf(base, words, names);
  }

  /** `DESCRIBE|DESC` then `KEYSPACE [ks]`, `TABLE t`, `INDEX i`, `MATERIALIZED VIEW v` or `[FULL] SCHEMA`, `[WITH INTERNALS]`. */
  protected describe(base: Base): A.OtherStatement {
    this.pos++;
    const type = this.peek().tokenType;
    this.pos++;
    const names: Name[] = [];
    let words: string;
    if (type === K.KEYSPACE) {
      words = 'DESCRIBE KEYSPACE';
      if (tokenMatcher(this.peek(), Ident)) names.push(identifierFromToken(this.ident()));
    } else if (type === K.TABLE || type === K.INDEX) {
      words = type === K.TABLE ? 'DESCRIBE TABLE' : 'DESCRIBE INDEX';
      names.push(this.tableName());
    } else if (type === K.MATERIALIZED) {
      words = 'DESCRIBE MATERIALIZED VIEW';
      this.expect(K.VIEW);
      names.push(this.tableName());
    } else if (type === K.FULL) {
      words = 'DESCRIBE FULL SCHEMA';
      this.expect(K.SCHEMA);
    } else if (type === K.SCHEMA) words = 'DESCRIBE SCHEMA';
    else this.leave('DESCRIBE led by an unreserved word (CLUSTER, TYPES, ONLY, a table name, ...)');
    if (this.accept(K.WITH)) this.expect(K.INTERNALS);
    return otherOf(base, words, names);
  }

  /** `ALL [PERMISSIONS]` or `permission [PERMISSION] (, ...)*`. */
  private permissions(): void {
    if (this.accept(K.ALL)) {
      this.accept(K.PERMISSIONS);
      return;
    }
    do {
      if (!tokenMatcher(this.peek(), PermissionKw)) throw REJECT;
      this.pos++;
      this.accept(K.PERMISSION);
    } while (this.accept(Comma));
  }

  /**
   * `ALL KEYSPACES|ROLES|MBEANS`, `ALL TABLES IN KEYSPACE ks`, `ALL FUNCTIONS [IN KEYSPACE ks]`, `KEYSPACE ks`,
   * `ROLE role` or `[TABLE] table`, its names added to `names`. Where ALL or ROLE could be a table's name
   * (unreserved words), the parser reads it unless the word's own alternative follows.
   */
  private resource(names: Name[]): void {
    const type = this.peek().tokenType;
    if (type === K.ALL) {
      const what: TokenType = this.la(2).tokenType;
      if (what !== K.KEYSPACES && what !== K.ROLES && what !== K.MBEANS && what !== K.TABLES && what !== K.FUNCTIONS)
        this.leave('a table named ALL');
      this.pos += 2;
      if (what === K.TABLES) {
        this.expect(K.IN);
        this.expect(K.KEYSPACE);
        names.push(identifierFromToken(this.ident()));
      } else if (what === K.FUNCTIONS && this.accept(K.IN)) {
        this.expect(K.KEYSPACE);
        names.push(identifierFromToken(this.ident()));
      }
      return;
    }
    if (type === K.KEYSPACE) {
      this.pos++;
      names.push(identifierFromToken(this.ident()));
      return;
    }
    if (type === K.ROLE) {
      const next = this.la(2);
      if (!tokenMatcher(next, Ident) && next.tokenType !== StringLiteral) this.leave('a table named ROLE');
      this.pos++;
      names.push(this.roleName());
      return;
    }
    if (type === K.FUNCTION || type === K.MBEAN || type === K.MBEANS) this.leave('a FUNCTION or MBEAN resource');
    this.accept(K.TABLE);
    names.push(this.tableName());
  }
}
