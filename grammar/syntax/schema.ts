// The other schema objects: keyspaces, user types, indexes and triggers (CREATE, ALTER, DROP), and DROP of every
// schema object: the rules, the reading and the statements' nodes.
import type { IToken } from '../chevrotain';
import type * as A from '../ast';
import * as Chevrotain from '../chevrotain';
import * as Lexer from '../lexer';
import * as Nodes from '../nodes';
import { FunctionReader, FunctionRules, dropFunctionOf } from './functions';
import { dropOf } from './table';
import { type Base, type Pending, REJECT } from './base';

// Module constants: compiled to CommonJS (tsx: tests, bench), every use of an imported binding is a getter call.
const { keywordTokens: K, Ident, StringLiteral, Comma, LParen, RParen } = Lexer;
const { tokenMatcher } = Chevrotain;
const { decodeString, identifierFromToken, literalFromToken, ownString, sized, startOf, tokenRange, typeFieldOf } =
  Nodes;

// ---------------------------------------------------------------------------------------------
// The statements' nodes

export function createKeyspaceOf(
  base: Base,
  name: A.Identifier,
  ifNotExists: boolean,
  properties: A.Property[],
): A.CreateKeyspaceStatement {
  return { kind: 'CreateKeyspace', range: base.range, terminated: base.terminated, name, ifNotExists, properties };
}

export function alterKeyspaceOf(
  base: Base,
  name: A.Identifier,
  ifExists: boolean,
  properties: A.Property[],
): A.AlterKeyspaceStatement {
  return { kind: 'AlterKeyspace', range: base.range, terminated: base.terminated, name, ifExists, properties };
}

export function dropKeyspaceOf(base: Base, name: A.Identifier, ifExists: boolean): A.DropKeyspaceStatement {
  return { kind: 'DropKeyspace', range: base.range, terminated: base.terminated, name, ifExists };
}

export function createTypeOf(
  base: Base,
  name: A.QualifiedName,
  ifNotExists: boolean,
  fields: A.TypeField[],
): A.CreateTypeStatement {
  return { kind: 'CreateType', range: base.range, terminated: base.terminated, name, ifNotExists, fields };
}

export function alterTypeOf(
  base: Base,
  name: A.QualifiedName,
  ifExists: boolean,
  action: A.AlterTypeAction,
): A.AlterTypeStatement {
  return { kind: 'AlterType', range: base.range, terminated: base.terminated, name, ifExists, action };
}

export function indexTargetOf(column: A.Identifier, kind: IToken | undefined, range: A.SourceRange): A.IndexTarget {
  const indexKind = kind === undefined ? 'simple' : (kind.tokenType.name.toLowerCase() as A.IndexTarget['indexKind']);
  return { kind: 'IndexTarget', column, indexKind, range };
}

export interface CreateIndexParts {
  custom: boolean;
  ifNotExists: boolean;
  table: A.QualifiedName;
  targets: A.IndexTarget[];
  properties: A.Property[];
  name: A.Identifier | undefined;
  /** The `USING '...'` string token. */
  using: IToken | undefined;
}

export function createIndexOf(base: Base, p: CreateIndexParts): A.CreateIndexStatement {
  const stmt: A.CreateIndexStatement = {
    kind: 'CreateIndex',
    range: base.range,
    terminated: base.terminated,
    custom: p.custom,
    ifNotExists: p.ifNotExists,
    table: p.table,
    targets: p.targets,
    properties: p.properties,
  };
  if (p.name) stmt.name = p.name;
  if (p.using) stmt.using = ownString(decodeString(p.using.image));
  return stmt;
}

export function createTriggerOf(
  base: Base,
  ifNotExists: boolean,
  name: A.Identifier,
  table: A.QualifiedName,
  using: A.Literal,
): A.CreateTriggerStatement {
  return { kind: 'CreateTrigger', range: base.range, terminated: base.terminated, ifNotExists, name, table, using };
}

export function dropTriggerOf(
  base: Base,
  ifExists: boolean,
  name: A.Identifier,
  table: A.QualifiedName,
): A.DropTriggerStatement {
  return { kind: 'DropTrigger', range: base.range, terminated: base.terminated, ifExists, name, table };
}

// ---------------------------------------------------------------------------------------------
// The rules

export class SchemaRules extends FunctionRules {
  readonly keyspaceKeyword = this.RULE('keyspaceKeyword', () =>
    this.OR(
      (this.alts.keyspaceKeywordOr ??= [{ ALT: () => this.token(K.KEYSPACE) }, { ALT: () => this.token(K.SCHEMA) }]),
    ),
  );

  readonly createKeyspace = this.RULE('createKeyspace', (): Pending => {
    this.SUBRULE(this.keyspaceKeyword);
    const ifNotExists = !!this.OPTION(() => this.SUBRULE(this.ifNotExists));
    const name = this.SUBRULE(this.keyspaceName);
    this.CONSUME(K.WITH);
    const properties = this.SUBRULE(this.properties);
    return (base) => createKeyspaceOf(base, name, ifNotExists, properties);
  });

  readonly alterKeyspace = this.RULE('alterKeyspace', (): Pending => {
    this.SUBRULE(this.keyspaceKeyword);
    const ifExists = !!this.OPTION(() => this.SUBRULE(this.ifExists));
    const name = this.SUBRULE(this.keyspaceName);
    this.CONSUME(K.WITH);
    const properties = this.SUBRULE(this.properties);
    return (base) => alterKeyspaceOf(base, name, ifExists, properties);
  });

  readonly dropKeyspace = this.RULE('dropKeyspace', (): Pending => {
    this.SUBRULE(this.keyspaceKeyword);
    const ifExists = !!this.OPTION(() => this.SUBRULE(this.ifExists));
    const name = this.SUBRULE(this.keyspaceName);
    return (base) => dropKeyspaceOf(base, name, ifExists);
  });

  readonly createType = this.RULE('createType', (): Pending => {
    this.CONSUME(K.TYPE);
    const ifNotExists = !!this.OPTION(() => this.SUBRULE(this.ifNotExists));
    const name = this.SUBRULE(this.userTypeName);
    this.CONSUME(LParen);
    const fields = [this.SUBRULE(this.typeField)];
    this.MANY(() => {
      this.CONSUME(Comma);
      this.OPTION2(() => fields.push(this.SUBRULE2(this.typeField)));
    });
    this.CONSUME(RParen);
    return (base) => createTypeOf(base, name, ifNotExists, fields);
  });

  readonly typeField = this.RULE('typeField', (): A.TypeField => {
    const first = this.LA(1);
    const name = this.SUBRULE(this.fieldName);
    const type = this.SUBRULE(this.cqlType);
    return this.ACTION(() => typeFieldOf(name, type, this.rangeFrom(first)));
  });

  readonly alterType = this.RULE('alterType', (): Pending => {
    this.CONSUME(K.TYPE);
    const ifExists = !!this.OPTION(() => this.SUBRULE(this.ifExists));
    const name = this.SUBRULE(this.userTypeName);
    const action: A.AlterTypeAction = this.OR(
      (this.alts.alterTypeOr ??= [
        {
          ALT: (): A.AlterTypeAction => {
            const first = this.CONSUME(K.ALTER);
            const field = this.SUBRULE(this.fieldName);
            this.CONSUME2(K.TYPE);
            const type = this.SUBRULE(this.cqlType);
            return this.ACTION(() => ({
              kind: 'AlterFieldType',
              field,
              type,
              range: { start: startOf(first), end: type.range.end },
            }));
          },
        },
        {
          ALT: (): A.AlterTypeAction => {
            const first = this.CONSUME(K.ADD);
            const ifNotExists = !!this.OPTION2(() => this.SUBRULE(this.ifNotExists));
            const field = this.SUBRULE(this.typeField);
            return this.ACTION(() => ({
              kind: 'AddField',
              ifNotExists,
              field,
              range: { start: startOf(first), end: field.range.end },
            }));
          },
        },
        {
          ALT: (): A.AlterTypeAction => {
            const first = this.CONSUME(K.RENAME);
            const renameIfExists = !!this.OPTION3(() => this.SUBRULE2(this.ifExists));
            const renames = [this.SUBRULE(this.renameField)];
            this.MANY(() => {
              this.CONSUME(K.AND);
              renames.push(this.SUBRULE2(this.renameField));
            });
            return this.ACTION(() => ({
              kind: 'RenameFields',
              ifExists: renameIfExists,
              renames,
              range: this.rangeFrom(first),
            }));
          },
        },
      ]),
    );
    return (base) => alterTypeOf(base, name, ifExists, action);
  });

  readonly renameField = this.RULE('renameField', () => {
    const from = this.SUBRULE(this.fieldName);
    this.CONSUME(K.TO);
    const to = this.SUBRULE2(this.fieldName);
    return { from, to };
  });

  readonly dropType = this.RULE('dropType', (): Pending => {
    this.CONSUME(K.TYPE);
    const ifExists = !!this.OPTION(() => this.SUBRULE(this.ifExists));
    const name = this.SUBRULE(this.userTypeName);
    return (base) => dropOf('DropType', base, name, ifExists);
  });

  readonly createIndex = this.RULE('createIndex', (): Pending => {
    const custom = this.OPTION(() => this.CONSUME(K.CUSTOM));
    this.CONSUME(K.INDEX);
    const ifNotExists = !!this.OPTION2(() => this.SUBRULE(this.ifNotExists));
    const name = this.OPTION3(() => this.SUBRULE(this.indexName));
    this.CONSUME(K.ON);
    const table = this.SUBRULE(this.tableName);
    const targets: A.IndexTarget[] = [];
    this.CONSUME(LParen);
    this.OPTION4(() => {
      targets.push(this.SUBRULE(this.indexTarget));
      this.MANY(() => {
        this.CONSUME(Comma);
        targets.push(this.SUBRULE2(this.indexTarget));
      });
    });
    this.CONSUME(RParen);
    const using = this.OPTION5(() => {
      this.CONSUME(K.USING);
      return this.CONSUME(StringLiteral);
    });
    const properties = this.OPTION6(() => {
      this.CONSUME(K.WITH);
      return this.SUBRULE(this.properties);
    });
    return (base) =>
      createIndexOf(base, {
        custom: custom !== undefined,
        ifNotExists,
        table,
        targets,
        properties: properties ?? [],
        name,
        using,
      });
  });

  readonly indexTarget = this.RULE('indexTarget', (): A.IndexTarget => {
    const first = this.LA(1);
    const target: { kind: IToken | undefined; column: A.Identifier } = this.OR(
      (this.alts.indexTargetOr ??= {
        MAX_LOOKAHEAD: 2,
        DEF: [
          {
            ALT: () => {
              const kind = this.OR2(
                (this.alts.indexTargetOr2 ??= [
                  { ALT: () => this.token(K.KEYS) },
                  { ALT: () => this.token(K.VALUES) },
                  { ALT: () => this.token(K.ENTRIES) },
                  { ALT: () => this.token(K.FULL) },
                ]),
              );
              this.CONSUME(LParen);
              const column = this.SUBRULE(this.columnName);
              this.CONSUME(RParen);
              return { kind, column };
            },
          },
          { ALT: () => ({ kind: undefined, column: this.SUBRULE2(this.columnName) }) },
        ],
      }),
    );
    return this.ACTION(() => indexTargetOf(target.column, target.kind, this.rangeFrom(first)));
  });

  readonly dropIndex = this.RULE('dropIndex', (): Pending => {
    this.CONSUME(K.INDEX);
    const ifExists = !!this.OPTION(() => this.SUBRULE(this.ifExists));
    const name = this.SUBRULE(this.qualifiedIndexName);
    return (base) => dropOf('DropIndex', base, name, ifExists);
  });

  readonly createTrigger = this.RULE('createTrigger', (): Pending => {
    this.CONSUME(K.TRIGGER);
    const ifNotExists = !!this.OPTION(() => this.SUBRULE(this.ifNotExists));
    const name = this.SUBRULE(this.triggerName);
    this.CONSUME(K.ON);
    const table = this.SUBRULE(this.tableName);
    this.CONSUME(K.USING);
    const using = this.literal(this.CONSUME(StringLiteral)) as A.Literal;
    return (base) => createTriggerOf(base, ifNotExists, name, table, using);
  });

  readonly dropTrigger = this.RULE('dropTrigger', (): Pending => {
    this.CONSUME(K.TRIGGER);
    const ifExists = !!this.OPTION(() => this.SUBRULE(this.ifExists));
    const name = this.SUBRULE(this.triggerName);
    this.CONSUME(K.ON);
    const table = this.SUBRULE(this.tableName);
    return (base) => dropTriggerOf(base, ifExists, name, table);
  });

  readonly triggerName = this.RULE('triggerName', () => this.nameOf(this.CONSUME(Ident)));
}

// ---------------------------------------------------------------------------------------------
// The reading

/** Keyspaces, types, indexes, triggers and DROP, as the rules above read them. */
export class SchemaReader extends FunctionReader {
  /** `KEYSPACE|SCHEMA [IF NOT EXISTS] name WITH properties`, after CREATE. */
  protected createKeyspace(base: Base): A.CreateKeyspaceStatement {
    this.pos++;
    const ifNotExists = this.ifNotExists();
    const name = identifierFromToken(this.ident());
    this.expect(K.WITH);
    return createKeyspaceOf(base, name, ifNotExists, this.properties());
  }

  /** `KEYSPACE|SCHEMA [IF EXISTS] name WITH properties`, after ALTER. */
  protected alterKeyspace(base: Base): A.AlterKeyspaceStatement {
    this.pos++;
    const ifExists = this.ifExists();
    const name = identifierFromToken(this.ident());
    this.expect(K.WITH);
    return alterKeyspaceOf(base, name, ifExists, this.properties());
  }

  /** `TYPE [IF NOT EXISTS] [keyspace.]name (field type, ...)`, a trailing comma allowed (as the grammar does). */
  protected createType(base: Base): A.CreateTypeStatement {
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

  /** `TYPE [IF EXISTS] name` and `ALTER field TYPE type`, `ADD [IF NOT EXISTS] field type` or `RENAME [IF EXISTS] a TO b (AND ...)*`. */
  protected alterType(base: Base): A.AlterTypeStatement {
    this.expect(K.TYPE);
    const ifExists = this.ifExists();
    const name = this.userTypeName();
    const first = this.peek();
    this.pos++;
    let action: A.AlterTypeAction;
    if (first.tokenType === K.ALTER) {
      const field = identifierFromToken(this.ident());
      this.expect(K.TYPE);
      const type = this.cqlType();
      action = { kind: 'AlterFieldType', field, type, range: { start: startOf(first), end: type.range.end } };
    } else if (first.tokenType === K.ADD) {
      const ifNotExists = this.ifNotExists();
      const field = this.typeField();
      action = { kind: 'AddField', ifNotExists, field, range: { start: startOf(first), end: field.range.end } };
    } else if (first.tokenType === K.RENAME) {
      const renameIfExists = this.ifExists();
      const renames: { from: A.Identifier; to: A.Identifier }[] = [];
      do {
        const from = identifierFromToken(this.ident());
        this.expect(K.TO);
        renames.push({ from, to: identifierFromToken(this.ident()) });
      } while (this.accept(K.AND));
      action = {
        kind: 'RenameFields',
        ifExists: renameIfExists,
        renames: sized(renames),
        range: tokenRange(first, this.previous()),
      };
    } else throw REJECT;
    return alterTypeOf(base, name, ifExists, action);
  }

  /** `[CUSTOM] INDEX [IF NOT EXISTS] [name] ON table (targets) [USING 'class'] [WITH properties]`, after CREATE. */
  protected createIndex(base: Base): A.CreateIndexStatement {
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
        const kind =
          (type === K.KEYS || type === K.VALUES || type === K.ENTRIES || type === K.FULL) &&
          this.la(2).tokenType === LParen
            ? start
            : undefined;
        if (kind) this.pos += 2;
        const column = this.columnName();
        if (kind) this.expect(RParen);
        targets.push(indexTargetOf(column, kind, tokenRange(start, this.previous())));
      } while (this.accept(Comma));
    }
    this.expect(RParen);
    const using = this.accept(K.USING) && this.expect(StringLiteral);
    const properties = this.accept(K.WITH) ? this.properties() : [];
    return createIndexOf(base, {
      custom,
      ifNotExists,
      table,
      targets: sized(targets),
      properties,
      name,
      using: using || undefined,
    });
  }

  /** `TRIGGER [IF NOT EXISTS] name ON table USING 'class'`, after CREATE. */
  protected createTrigger(base: Base): A.CreateTriggerStatement {
    this.expect(K.TRIGGER);
    const ifNotExists = this.ifNotExists();
    const name = identifierFromToken(this.ident());
    this.expect(K.ON);
    const table = this.tableName();
    this.expect(K.USING);
    return createTriggerOf(base, ifNotExists, name, table, literalFromToken(this.expect(StringLiteral)));
  }

  /** DROP KEYSPACE, TABLE, TYPE, INDEX, MATERIALIZED VIEW, FUNCTION, AGGREGATE, TRIGGER, after DROP. */
  protected dropSchemaObject(base: Base): A.Statement {
    const what = this.peek().tokenType;
    this.pos++;
    if (what === K.MATERIALIZED) this.expect(K.VIEW);
    const ifExists = this.ifExists();
    if (what === K.TABLE) return dropOf('DropTable', base, this.tableName(), ifExists);
    if (what === K.INDEX) return dropOf('DropIndex', base, this.qualifiedIndexName(), ifExists);
    if (what === K.KEYSPACE || what === K.SCHEMA)
      return dropKeyspaceOf(base, identifierFromToken(this.ident()), ifExists);
    if (what === K.TYPE) return dropOf('DropType', base, this.userTypeName(), ifExists);
    if (what === K.MATERIALIZED) return dropOf('DropMaterializedView', base, this.tableName(), ifExists);
    if (what === K.FUNCTION || what === K.AGGREGATE) {
      const name = this.functionName();
      return dropFunctionOf(
        what === K.FUNCTION ? 'DropFunction' : 'DropAggregate',
        base,
        ifExists,
        name,
        this.is(LParen) ? this.typeList() : undefined,
      );
    }
    if (what === K.TRIGGER) {
      const name = identifierFromToken(this.ident());
      this.expect(K.ON);
      return dropTriggerOf(base, ifExists, name, this.tableName());
    }
    throw REJECT;
  }
}
