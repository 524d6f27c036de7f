// Roles, users and identities: CREATE, ALTER and DROP ROLE and USER, ADD and DROP IDENTITY. The AST models them
// as OtherStatement: their words and the names they mention. The rules, the reading and the statements' node.
import type { IToken } from '../chevrotain';
import type * as A from '../ast';
import * as Lexer from '../lexer';
import * as Nodes from '../nodes';
import { SchemaReader, SchemaRules } from './schema';
import { type Base, type Pending, REJECT } from './base';

// Module constants: compiled to CommonJS (tsx: tests, bench), every use of an imported binding is a getter call.
const { keywordTokens: K, StringLiteral, BooleanLiteral, Comma, LBrace, RBrace, Eq } = Lexer;
const { sized } = Nodes;

export type Name = A.Identifier | A.QualifiedName;

/** A statement modelled by its words (`CREATE ROLE`, `GRANT`, ...) and the names it mentions, in source order. */
export function otherOf(base: Base, statementType: string, names: Name[]): A.OtherStatement {
  return {
    kind: 'Other',
    range: base.range,
    terminated: base.terminated,
    statementType,
    names: sized(names.sort((a, b) => a.range.start - b.range.start)),
  };
}

/**
 * The names a value or a type mentions, added to `out`: the functions it calls and the user types it names (a
 * role's `OPTIONS = {...}`, a function resource's argument types).
 */
export function namesIn(value: unknown, out: Name[]): void {
  if (Array.isArray(value)) {
    for (const v of value) namesIn(v, out);
    return;
  }
  if (value === null || typeof value !== 'object') return;
  const node = value as { kind?: string; name?: A.QualifiedName; args?: A.Expression[]; range?: unknown };
  if (node.kind === 'UserType') {
    out.push(node.name!);
    return;
  }
  if (node.kind === 'FunctionCall') {
    out.push(node.name!);
    namesIn(node.args, out);
    return;
  }
  for (const key in node) if (key !== 'range') namesIn((node as Record<string, unknown>)[key], out);
}

export class RoleRules extends SchemaRules {
  readonly createRole = this.RULE('createRole', (): Pending => {
    this.CONSUME(K.ROLE);
    this.OPTION(() => this.SUBRULE(this.ifNotExists));
    const names = [this.SUBRULE(this.roleName)];
    this.OPTION2(() => {
      this.CONSUME(K.WITH);
      this.SUBRULE(this.roleOptions, { ARGS: [names] });
    });
    return (base) => otherOf(base, 'CREATE ROLE', names);
  });

  readonly alterRole = this.RULE('alterRole', (): Pending => {
    this.CONSUME(K.ROLE);
    this.OPTION(() => this.SUBRULE(this.ifExists));
    const names = [this.SUBRULE(this.roleName)];
    this.OPTION2(() => {
      this.CONSUME(K.WITH);
      this.SUBRULE(this.roleOptions, { ARGS: [names] });
    });
    return (base) => otherOf(base, 'ALTER ROLE', names);
  });

  readonly dropRole = this.RULE('dropRole', (): Pending => {
    this.CONSUME(K.ROLE);
    this.OPTION(() => this.SUBRULE(this.ifExists));
    const name = this.SUBRULE(this.roleName);
    return (base) => otherOf(base, 'DROP ROLE', [name]);
  });

  /** The options, the names their values mention added to `names`. */
  readonly roleOptions = this.RULE('roleOptions', (names: Name[]) => {
    this.SUBRULE(this.roleOption, { ARGS: [names] });
    this.MANY(() => {
      this.CONSUME(K.AND);
      this.SUBRULE2(this.roleOption, { ARGS: [names] });
    });
  });

  readonly roleOption = this.RULE('roleOption', (names: Name[]) => {
    const options = this.OR(
      (this.alts.roleOptionOr ??= [
        {
          ALT: () => {
            this.CONSUME(K.PASSWORD);
            this.CONSUME(Eq);
            this.CONSUME(StringLiteral);
          },
        },
        {
          ALT: () => {
            this.CONSUME(K.HASHED);
            this.CONSUME2(K.PASSWORD);
            this.CONSUME2(Eq);
            this.CONSUME2(StringLiteral);
          },
        },
        {
          ALT: () => {
            this.CONSUME(K.GENERATED);
            this.CONSUME3(K.PASSWORD);
          },
        },
        {
          ALT: () => {
            this.CONSUME(K.OPTIONS);
            this.CONSUME3(Eq);
            return this.SUBRULE(this.braceLiteral);
          },
        },
        {
          ALT: () => {
            this.OR2(
              (this.alts.roleOptionOr2 ??= [
                { ALT: () => this.CONSUME(K.SUPERUSER) },
                { ALT: () => this.CONSUME(K.LOGIN) },
              ]),
            );
            this.CONSUME4(Eq);
            this.CONSUME(BooleanLiteral);
          },
        },
        {
          ALT: () => {
            this.CONSUME(K.ACCESS);
            this.OR3(
              (this.alts.roleOptionOr3 ??= [
                {
                  ALT: () => {
                    this.CONSUME(K.TO);
                    this.OR4(
                      (this.alts.roleOptionOr4 ??= [
                        {
                          ALT: () => {
                            this.CONSUME(K.ALL);
                            this.CONSUME(K.DATACENTERS);
                          },
                        },
                        {
                          ALT: () => {
                            this.CONSUME2(K.DATACENTERS);
                            this.SUBRULE(this.stringSet);
                          },
                        },
                      ]),
                    );
                  },
                },
                {
                  ALT: () => {
                    this.CONSUME(K.FROM);
                    this.OR5(
                      (this.alts.roleOptionOr5 ??= [
                        {
                          ALT: () => {
                            this.CONSUME2(K.ALL);
                            this.CONSUME(K.CIDRS);
                          },
                        },
                        {
                          ALT: () => {
                            this.CONSUME2(K.CIDRS);
                            this.SUBRULE2(this.stringSet);
                          },
                        },
                      ]),
                    );
                  },
                },
              ]),
            );
          },
        },
      ]),
    );
    if (options) this.ACTION(() => namesIn(options, names));
  });

  readonly stringSet = this.RULE('stringSet', () => {
    this.CONSUME(LBrace);
    this.CONSUME(StringLiteral);
    this.MANY(() => {
      this.CONSUME(Comma);
      this.CONSUME2(StringLiteral);
    });
    this.CONSUME(RBrace);
  });

  readonly createUser = this.RULE('createUser', (): Pending => {
    this.CONSUME(K.USER);
    this.OPTION(() => this.SUBRULE(this.ifNotExists));
    const name = this.SUBRULE(this.userName);
    this.userOptions();
    return (base) => otherOf(base, 'CREATE USER', [name]);
  });

  readonly alterUser = this.RULE('alterUser', (): Pending => {
    this.CONSUME(K.USER);
    this.OPTION(() => this.SUBRULE(this.ifExists));
    const name = this.SUBRULE(this.userName);
    this.userOptions();
    return (base) => otherOf(base, 'ALTER USER', [name]);
  });

  /** `[WITH password] [SUPERUSER | NOSUPERUSER]`. Not a rule of its own: its DSL calls are the calling rule's. */
  private userOptions(): void {
    this.OPTION2(() => {
      this.CONSUME(K.WITH);
      this.SUBRULE(this.userPassword);
    });
    this.OPTION3(() =>
      this.OR(
        (this.alts.userSuperuserOr ??= [
          { ALT: () => this.CONSUME(K.SUPERUSER) },
          { ALT: () => this.CONSUME(K.NOSUPERUSER) },
        ]),
      ),
    );
  }

  readonly dropUser = this.RULE('dropUser', (): Pending => {
    this.CONSUME(K.USER);
    this.OPTION(() => this.SUBRULE(this.ifExists));
    const name = this.SUBRULE(this.userName);
    return (base) => otherOf(base, 'DROP USER', [name]);
  });

  readonly userPassword = this.RULE('userPassword', () => {
    this.OR(
      (this.alts.userPasswordOr ??= [
        {
          ALT: () => {
            this.CONSUME(K.PASSWORD);
            this.CONSUME(StringLiteral);
          },
        },
        {
          ALT: () => {
            this.CONSUME(K.HASHED);
            this.CONSUME2(K.PASSWORD);
            this.CONSUME2(StringLiteral);
          },
        },
        {
          ALT: () => {
            this.CONSUME(K.GENERATED);
            this.CONSUME3(K.PASSWORD);
          },
        },
      ]),
    );
  });

  readonly addIdentityStatement = this.RULE('addIdentityStatement', (): Pending => {
    this.CONSUME(K.ADD);
    this.CONSUME(K.IDENTITY);
    this.OPTION(() => this.SUBRULE(this.ifNotExists));
    const identity = this.SUBRULE(this.identityName);
    this.CONSUME(K.TO);
    this.CONSUME(K.ROLE);
    const role = this.SUBRULE(this.roleName);
    return (base) => otherOf(base, 'ADD IDENTITY', [identity, role]);
  });

  readonly dropIdentity = this.RULE('dropIdentity', (): Pending => {
    this.CONSUME(K.IDENTITY);
    this.OPTION(() => this.SUBRULE(this.ifExists));
    const identity = this.SUBRULE(this.identityName);
    return (base) => otherOf(base, 'DROP IDENTITY', [identity]);
  });

  readonly identityName = this.RULE('identityName', () =>
    this.nameOf(
      this.OR(
        (this.alts.identityNameOr ??= [
          { ALT: () => this.token(Lexer.Ident) },
          { ALT: () => this.token(StringLiteral) },
        ]),
      ),
    ),
  );
}

/** Roles, users and identities, as the rules above read them. */
export class RoleReader extends SchemaReader {
  /** `CREATE|ALTER ROLE [IF [NOT] EXISTS] name [WITH option (AND option)*]`, `CREATE|ALTER USER [IF [NOT] EXISTS] name [WITH password] [[NO]SUPERUSER]`. */
  protected roleOrUser(base: Base): A.OtherStatement {
    const verb = this.peek();
    this.pos++;
    const what = this.peek();
    this.pos++;
    if (verb.tokenType === K.CREATE) this.ifNotExists();
    else this.ifExists();
    const names: Name[] = [this.roleName()];
    if (what.tokenType === K.ROLE) {
      if (this.accept(K.WITH)) {
        do this.roleOption(names);
        while (this.accept(K.AND));
      }
    } else {
      if (this.accept(K.WITH)) this.userPassword();
      if (!this.accept(K.SUPERUSER)) this.accept(K.NOSUPERUSER);
    }
    return otherOf(base, `${verb.image.toUpperCase()} ${what.image.toUpperCase()}`, names);
  }

  /** `ROLE|USER [IF EXISTS] name` or `IDENTITY [IF EXISTS] identity`, after DROP. */
  protected dropRoleOrUser(base: Base): A.OtherStatement {
    const what = this.peek();
    this.pos++;
    this.ifExists();
    return otherOf(base, `DROP ${what.image.toUpperCase()}`, [this.roleName()]);
  }

  /** `ADD IDENTITY [IF NOT EXISTS] identity TO ROLE role`. */
  protected addIdentity(base: Base): A.OtherStatement {
    this.expect(K.ADD);
    this.expect(K.IDENTITY);
    this.ifNotExists();
    const identity = this.roleName();
    this.expect(K.TO);
    this.expect(K.ROLE);
    return otherOf(base, 'ADD IDENTITY', [identity, this.roleName()]);
  }

  private roleOption(names: Name[]): void {
    const type = this.peek().tokenType;
    this.pos++;
    if (type === K.PASSWORD) this.passwordValue();
    else if (type === K.HASHED) {
      this.expect(K.PASSWORD);
      this.passwordValue();
    } else if (type === K.GENERATED) this.expect(K.PASSWORD);
    else if (type === K.OPTIONS) {
      this.expect(Eq);
      namesIn(this.braceLiteral(), names);
    } else if (type === K.SUPERUSER || type === K.LOGIN) {
      this.expect(Eq);
      this.expect(BooleanLiteral);
    } else if (type === K.ACCESS) {
      const to = !!this.accept(K.TO);
      if (!to) this.expect(K.FROM);
      const all = !!this.accept(K.ALL);
      this.expect(to ? K.DATACENTERS : K.CIDRS);
      if (!all) this.stringSet();
    } else throw REJECT;
  }

  private passwordValue(): void {
    this.expect(Eq);
    this.expect(StringLiteral);
  }

  /** `PASSWORD 'p'`, `HASHED PASSWORD 'h'` or `GENERATED PASSWORD` (a user's: no `=`). */
  private userPassword(): void {
    const t: IToken = this.peek();
    this.pos++;
    if (t.tokenType === K.HASHED) this.expect(K.PASSWORD);
    else if (t.tokenType === K.GENERATED) {
      this.expect(K.PASSWORD);
      return;
    } else if (t.tokenType !== K.PASSWORD) throw REJECT;
    this.expect(StringLiteral);
  }

  /** `{'a', 'b', ...}`. */
  private stringSet(): void {
    this.expect(LBrace);
    do this.expect(StringLiteral);
    while (this.accept(Comma));
    this.expect(RBrace);
  }
}
