// Roles, users, permissions, identities, LIST and DESCRIBE.
import * as Lexer from '../lexer';
import { DdlRules } from './ddl';

// Module constants: compiled to CommonJS (tsx: tests, bench), every use of an imported binding is a getter call.
const { keywordTokens: K, Ident, PermissionKw, StringLiteral, BooleanLiteral, Comma, LBrace, RBrace, Eq } = Lexer;

export class AdminRules extends DdlRules {
  readonly createRole = this.RULE('createRole', () => {
    this.CONSUME(K.ROLE);
    this.OPTION(() => this.SUBRULE(this.ifNotExists));
    this.SUBRULE(this.roleName);
    this.OPTION2(() => {
      this.CONSUME(K.WITH);
      this.SUBRULE(this.roleOptions);
    });
  });

  readonly alterRole = this.RULE('alterRole', () => {
    this.CONSUME(K.ROLE);
    this.OPTION(() => this.SUBRULE(this.ifExists));
    this.SUBRULE(this.roleName);
    this.OPTION2(() => {
      this.CONSUME(K.WITH);
      this.SUBRULE(this.roleOptions);
    });
  });

  readonly dropRole = this.RULE('dropRole', () => {
    this.CONSUME(K.ROLE);
    this.OPTION(() => this.SUBRULE(this.ifExists));
    this.SUBRULE(this.roleName);
  });

  readonly roleOptions = this.RULE('roleOptions', () => {
    this.SUBRULE(this.roleOption);
    this.MANY(() => {
      this.CONSUME(K.AND);
      this.SUBRULE2(this.roleOption);
    });
  });

  readonly roleOption = this.RULE('roleOption', () => {
    this.OR((this.alts.roleOptionOr ??= [
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
          this.SUBRULE(this.braceLiteral);
        },
      },
      {
        ALT: () => {
          this.OR2((this.alts.roleOptionOr2 ??= [{ ALT: () => this.CONSUME(K.SUPERUSER) }, { ALT: () => this.CONSUME(K.LOGIN) }]));
          this.CONSUME4(Eq);
          this.CONSUME(BooleanLiteral);
        },
      },
      {
        ALT: () => {
          this.CONSUME(K.ACCESS);
          this.OR3((this.alts.roleOptionOr3 ??= [
            {
              ALT: () => {
                this.CONSUME(K.TO);
                this.OR4((this.alts.roleOptionOr4 ??= [
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
                ]));
              },
            },
            {
              ALT: () => {
                this.CONSUME(K.FROM);
                this.OR5((this.alts.roleOptionOr5 ??= [
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
                ]));
              },
            },
          ]));
        },
      },
    ]));
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

  readonly createUser = this.RULE('createUser', () => {
    this.CONSUME(K.USER);
    this.OPTION(() => this.SUBRULE(this.ifNotExists));
    this.SUBRULE(this.userName);
    this.OPTION2(() => {
      this.CONSUME(K.WITH);
      this.SUBRULE(this.userPassword);
    });
    this.OPTION3(() => this.OR((this.alts.createUserOr ??= [{ ALT: () => this.CONSUME(K.SUPERUSER) }, { ALT: () => this.CONSUME(K.NOSUPERUSER) }])));
  });

  readonly alterUser = this.RULE('alterUser', () => {
    this.CONSUME(K.USER);
    this.OPTION(() => this.SUBRULE(this.ifExists));
    this.SUBRULE(this.userName);
    this.OPTION2(() => {
      this.CONSUME(K.WITH);
      this.SUBRULE(this.userPassword);
    });
    this.OPTION3(() => this.OR((this.alts.alterUserOr ??= [{ ALT: () => this.CONSUME(K.SUPERUSER) }, { ALT: () => this.CONSUME(K.NOSUPERUSER) }])));
  });

  readonly dropUser = this.RULE('dropUser', () => {
    this.CONSUME(K.USER);
    this.OPTION(() => this.SUBRULE(this.ifExists));
    this.SUBRULE(this.userName);
  });

  readonly userPassword = this.RULE('userPassword', () => {
    this.OR((this.alts.userPasswordOr ??= [
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
    ]));
  });

  readonly grantStatement = this.RULE('grantStatement', () => {
    this.CONSUME(K.GRANT);
    this.OR((this.alts.grantStatementOr ??= [
      {
        ALT: () => {
          this.SUBRULE(this.permissions);
          this.CONSUME(K.ON);
          this.SUBRULE(this.resource);
          this.CONSUME(K.TO);
          this.SUBRULE(this.roleName);
        },
      },
      {
        ALT: () => {
          this.SUBRULE2(this.roleName);
          this.CONSUME2(K.TO);
          this.SUBRULE3(this.roleName);
        },
      },
    ]));
  });

  readonly revokeStatement = this.RULE('revokeStatement', () => {
    this.CONSUME(K.REVOKE);
    this.OR((this.alts.revokeStatementOr ??= [
      {
        ALT: () => {
          this.SUBRULE(this.permissions);
          this.CONSUME(K.ON);
          this.SUBRULE(this.resource);
          this.CONSUME(K.FROM);
          this.SUBRULE(this.roleName);
        },
      },
      {
        ALT: () => {
          this.SUBRULE2(this.roleName);
          this.CONSUME2(K.FROM);
          this.SUBRULE3(this.roleName);
        },
      },
    ]));
  });

  readonly permissions = this.RULE('permissions', () => {
    this.OR((this.alts.permissionsOr ??= [
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
    ]));
  });

  readonly permission = this.RULE('permission', () => {
    this.CONSUME(PermissionKw);
    this.OPTION(() => this.CONSUME(K.PERMISSION));
  });

  readonly resource = this.RULE('resource', () => {
    this.OR((this.alts.resourceOr ??= [
      {
        ALT: () => {
          this.CONSUME(K.ALL);
          this.OR2((this.alts.resourceOr2 ??= [
            { ALT: () => this.CONSUME(K.KEYSPACES) },
            {
              ALT: () => {
                this.CONSUME(K.TABLES);
                this.CONSUME(K.IN);
                this.CONSUME(K.KEYSPACE);
                this.SUBRULE(this.keyspaceName);
              },
            },
            { ALT: () => this.CONSUME(K.ROLES) },
            {
              ALT: () => {
                this.CONSUME(K.FUNCTIONS);
                this.OPTION(() => {
                  this.CONSUME2(K.IN);
                  this.CONSUME2(K.KEYSPACE);
                  this.SUBRULE2(this.keyspaceName);
                });
              },
            },
            { ALT: () => this.CONSUME(K.MBEANS) },
          ]));
        },
        IGNORE_AMBIGUITIES: true,
      },
      {
        ALT: () => {
          this.CONSUME3(K.KEYSPACE);
          this.SUBRULE3(this.keyspaceName);
        },
      },
      {
        ALT: () => {
          this.CONSUME(K.ROLE);
          this.SUBRULE(this.roleName);
        },
        IGNORE_AMBIGUITIES: true,
      },
      {
        ALT: () => {
          this.CONSUME(K.FUNCTION);
          this.SUBRULE(this.functionName);
          this.SUBRULE(this.typeList);
        },
        IGNORE_AMBIGUITIES: true,
      },
      {
        ALT: () => {
          this.OR3((this.alts.resourceOr3 ??= [{ ALT: () => this.CONSUME(K.MBEAN) }, { ALT: () => this.CONSUME2(K.MBEANS) }]));
          this.CONSUME(StringLiteral);
        },
        IGNORE_AMBIGUITIES: true,
      },
      {
        ALT: () => {
          this.OPTION2(() => this.CONSUME(K.TABLE));
          this.SUBRULE(this.tableName);
        },
      },
    ]));
  });

  readonly listStatement = this.RULE('listStatement', () => {
    this.CONSUME(K.LIST);
    this.OR((this.alts.listStatementOr ??= [
      {
        ALT: () => {
          this.OR2((this.alts.listStatementOr2 ??= [{ ALT: () => this.CONSUME(K.ROLES) }, { ALT: () => this.CONSUME(K.USERS) }, { ALT: () => this.CONSUME(K.SUPERUSERS) }]));
          this.OPTION(() => {
            this.CONSUME(K.OF);
            this.SUBRULE(this.roleName);
          });
          this.OPTION2(() => this.CONSUME(K.NORECURSIVE));
        },
      },
      {
        ALT: () => {
          this.SUBRULE(this.permissions);
          this.OPTION3(() => {
            this.CONSUME(K.ON);
            this.SUBRULE(this.resource);
          });
          this.OPTION4(() => {
            this.CONSUME2(K.OF);
            this.SUBRULE2(this.roleName);
          });
          this.OPTION5(() => this.CONSUME2(K.NORECURSIVE));
        },
      },
    ]));
  });

  readonly describeStatement = this.RULE('describeStatement', () => {
    this.OR((this.alts.describeStatementOr ??= [{ ALT: () => this.CONSUME(K.DESCRIBE) }, { ALT: () => this.CONSUME(K.DESC) }]));
    this.OR2((this.alts.describeStatementOr2 ??= [
      { ALT: () => this.CONSUME(K.CLUSTER), IGNORE_AMBIGUITIES: true },
      {
        ALT: () => {
          this.OPTION(() => this.CONSUME(K.FULL));
          this.CONSUME(K.SCHEMA);
        },
      },
      { ALT: () => this.CONSUME(K.KEYSPACES), IGNORE_AMBIGUITIES: true },
      {
        ALT: () => {
          this.OPTION2(() => this.CONSUME(K.ONLY));
          this.CONSUME(K.KEYSPACE);
          this.OPTION3(() => this.SUBRULE(this.keyspaceName));
        },
        IGNORE_AMBIGUITIES: true,
      },
      { ALT: () => this.CONSUME(K.TABLES), IGNORE_AMBIGUITIES: true },
      {
        ALT: () => {
          this.CONSUME(K.TABLE);
          this.SUBRULE(this.tableName);
        },
      },
      {
        ALT: () => {
          this.CONSUME(K.INDEX);
          this.SUBRULE(this.qualifiedIndexName);
        },
      },
      {
        ALT: () => {
          this.CONSUME(K.MATERIALIZED);
          this.CONSUME(K.VIEW);
          this.SUBRULE2(this.tableName);
        },
      },
      { ALT: () => this.CONSUME(K.TYPES), IGNORE_AMBIGUITIES: true },
      {
        ALT: () => {
          this.CONSUME(K.TYPE);
          this.SUBRULE(this.userTypeName);
        },
        IGNORE_AMBIGUITIES: true,
      },
      { ALT: () => this.CONSUME(K.FUNCTIONS), IGNORE_AMBIGUITIES: true },
      {
        ALT: () => {
          this.CONSUME(K.FUNCTION);
          this.SUBRULE(this.functionName);
        },
        IGNORE_AMBIGUITIES: true,
      },
      { ALT: () => this.CONSUME(K.AGGREGATES), IGNORE_AMBIGUITIES: true },
      {
        ALT: () => {
          this.CONSUME(K.AGGREGATE);
          this.SUBRULE2(this.functionName);
        },
        IGNORE_AMBIGUITIES: true,
      },
      { ALT: () => this.SUBRULE3(this.tableName) },
    ]));
    this.OPTION4(() => {
      this.CONSUME(K.WITH);
      this.CONSUME(K.INTERNALS);
    });
  });

  readonly addIdentityStatement = this.RULE('addIdentityStatement', () => {
    this.CONSUME(K.ADD);
    this.CONSUME(K.IDENTITY);
    this.OPTION(() => this.SUBRULE(this.ifNotExists));
    this.SUBRULE(this.identityName);
    this.CONSUME(K.TO);
    this.CONSUME(K.ROLE);
    this.SUBRULE(this.roleName);
  });

  readonly dropIdentity = this.RULE('dropIdentity', () => {
    this.CONSUME(K.IDENTITY);
    this.OPTION(() => this.SUBRULE(this.ifExists));
    this.SUBRULE(this.identityName);
  });

  readonly identityName = this.RULE('identityName', () => this.OR((this.alts.identityNameOr ??= [{ ALT: () => this.CONSUME(Ident) }, { ALT: () => this.CONSUME(StringLiteral) }])));
}
