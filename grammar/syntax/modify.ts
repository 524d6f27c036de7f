// The statements that write: INSERT, UPDATE, DELETE and BATCH, with USE and TRUNCATE: the rules, the reading and
// the statements' nodes.
import type { IToken } from '../chevrotain';
import type * as A from '../ast';
import * as Lexer from '../lexer';
import * as Nodes from '../nodes';
import { SelectReader, SelectRules, type Where } from './select';
import * as BaseModule from './base';
import type { Base } from './base';

// Module constants: compiled to CommonJS (tsx: tests, bench), every use of an imported binding is a getter call.
const {
  keywordTokens: K,
  StringLiteral,
  Semicolon,
  Comma,
  Dot,
  LParen,
  RParen,
  LBracket,
  RBracket,
  PlusEq,
  MinusEq,
  Eq,
} = Lexer;
const {
  assignmentOf,
  columnRefOf,
  elementAccessOf,
  fieldAccessOf,
  identifierFromToken,
  literalFromToken,
  sized,
  spanRanges,
  tokenRange,
  usingClauseOf,
} = Nodes;
const { REJECT, existsEndsAhead } = BaseModule;

// ---------------------------------------------------------------------------------------------
// The statements' nodes

export interface InsertParts {
  table: A.QualifiedName;
  columns: A.Identifier[];
  values: A.Expression[];
  ifNotExists: boolean;
  using: A.UsingClause[];
  columnsRange: A.SourceRange | undefined;
  valuesRange: A.SourceRange | undefined;
  /** `INSERT ... JSON value [DEFAULT NULL|UNSET]`. */
  json: A.Expression | undefined;
  jsonDefault: A.InsertStatement['jsonDefault'];
}

export function insertOf(base: Base, p: InsertParts): A.InsertStatement {
  const { table, columns, values, ifNotExists, using, columnsRange, valuesRange } = p;
  // The usual INSERT ... VALUES in one literal: one shape, its fields kept in the object.
  if (columnsRange && valuesRange && !p.json)
    return {
      kind: 'Insert',
      range: base.range,
      terminated: base.terminated,
      table,
      columns,
      values,
      ifNotExists,
      using,
      columnsRange,
      valuesRange,
    };
  const stmt: A.InsertStatement = {
    kind: 'Insert',
    range: base.range,
    terminated: base.terminated,
    table,
    columns,
    values,
    ifNotExists,
    using,
  };
  if (columnsRange) stmt.columnsRange = columnsRange;
  if (valuesRange) stmt.valuesRange = valuesRange;
  if (p.json) {
    stmt.json = p.json;
    if (p.jsonDefault) stmt.jsonDefault = p.jsonDefault;
  }
  return stmt;
}

/** What UPDATE and DELETE have in common: the table, USING, WHERE and IF. */
export interface WriteParts {
  table: A.QualifiedName;
  using: A.UsingClause[];
  where: A.Relation[];
  whereRange: A.SourceRange | undefined;
  conditions: A.Relation[];
  ifExists: boolean;
}

export interface UpdateParts extends WriteParts {
  assignments: A.Assignment[];
}

export function updateOf(base: Base, p: UpdateParts): A.UpdateStatement {
  const { whereRange } = p;
  // With its WHERE (the usual case) in the literal: one shape, kept in the object (the same field order).
  return whereRange
    ? {
        kind: 'Update',
        range: base.range,
        terminated: base.terminated,
        table: p.table,
        using: p.using,
        assignments: p.assignments,
        where: p.where,
        conditions: p.conditions,
        ifExists: p.ifExists,
        whereRange,
      }
    : {
        kind: 'Update',
        range: base.range,
        terminated: base.terminated,
        table: p.table,
        using: p.using,
        assignments: p.assignments,
        where: p.where,
        conditions: p.conditions,
        ifExists: p.ifExists,
      };
}

export interface DeleteParts extends WriteParts {
  selections: A.Expression[];
}

export function deleteOf(base: Base, p: DeleteParts): A.DeleteStatement {
  const { whereRange } = p;
  // As updateOf: the WHERE range in the literal when there is one.
  return whereRange
    ? {
        kind: 'Delete',
        range: base.range,
        terminated: base.terminated,
        selections: p.selections,
        table: p.table,
        using: p.using,
        where: p.where,
        conditions: p.conditions,
        ifExists: p.ifExists,
        whereRange,
      }
    : {
        kind: 'Delete',
        range: base.range,
        terminated: base.terminated,
        selections: p.selections,
        table: p.table,
        using: p.using,
        where: p.where,
        conditions: p.conditions,
        ifExists: p.ifExists,
      };
}

export type BatchType = A.BatchStatement['batchType'];
type BatchMember = A.BatchStatement['statements'][number];

export function batchOf(
  base: Base,
  batchType: BatchType,
  using: A.UsingClause[],
  statements: BatchMember[],
): A.BatchStatement {
  return { kind: 'Batch', range: base.range, terminated: base.terminated, batchType, using, statements };
}

export function useOf(base: Base, keyspace: A.Identifier): A.UseStatement {
  return { kind: 'Use', range: base.range, terminated: base.terminated, keyspace };
}

export function truncateOf(base: Base, name: A.QualifiedName): A.TruncateStatement {
  return { kind: 'Truncate', range: base.range, terminated: base.terminated, name };
}

/** An IF clause: its conditions, or IF EXISTS. */
interface IfParts {
  conditions: A.Relation[];
  ifExists: boolean;
}

/** No IF clause (a new object each time: the AST's arrays are its own). */
function noConditions(): IfParts {
  return { conditions: [], ifExists: false };
}

/** What follows the column of an assignment's or a DELETE's target: `[index]` or `.field`. */
type TargetTail = { index: A.Expression; close: IToken } | { field: A.Identifier };

function targetOf(name: A.Identifier, tail: TargetTail | undefined): A.Expression {
  const column = columnRefOf(name);
  if (!tail) return column;
  if ('field' in tail) return fieldAccessOf(column, tail.field);
  return elementAccessOf(column, tail.index, spanRanges(name.range, tokenRange(tail.close)));
}

// ---------------------------------------------------------------------------------------------
// The rules

export class ModifyRules extends SelectRules {
  readonly useStatement = this.RULE('useStatement', () => {
    this.CONSUME(K.USE);
    return this.SUBRULE(this.keyspaceName);
  });

  readonly truncateStatement = this.RULE('truncateStatement', () => {
    this.CONSUME(K.TRUNCATE);
    this.OPTION(() => this.CONSUME(K.TABLE));
    return this.SUBRULE(this.tableName);
  });

  readonly insertStatement = this.RULE('insertStatement', (): InsertParts => {
    this.CONSUME(K.INSERT);
    this.CONSUME(K.INTO);
    const table = this.SUBRULE(this.tableName);
    const body: Pick<InsertParts, 'columns' | 'values' | 'columnsRange' | 'valuesRange' | 'json' | 'jsonDefault'> =
      this.OR(
        (this.alts.insertStatementOr ??= [
          {
            ALT: () => {
              const columns = this.SUBRULE(this.insertColumns);
              this.CONSUME(K.VALUES);
              const values = this.SUBRULE(this.insertValues);
              return {
                columns: columns.names,
                values: values.values,
                columnsRange: columns.range,
                valuesRange: values.range,
                json: undefined,
                jsonDefault: undefined,
              };
            },
          },
          {
            ALT: () => {
              this.CONSUME(K.JSON);
              const json: A.Expression = this.OR2(
                (this.alts.insertStatementOr2 ??= [
                  { ALT: () => this.literal(this.CONSUME(StringLiteral)) },
                  { ALT: () => this.SUBRULE(this.bindMarker) },
                ]),
              );
              const jsonDefault = this.OPTION(() => {
                this.CONSUME(K.DEFAULT);
                return this.OR3(
                  (this.alts.insertStatementOr3 ??= [
                    { ALT: () => (this.CONSUME(K.NULL), 'NULL' as const) },
                    { ALT: () => (this.CONSUME(K.UNSET), 'UNSET' as const) },
                  ]),
                );
              });
              return { columns: [], values: [], columnsRange: undefined, valuesRange: undefined, json, jsonDefault };
            },
          },
        ]),
      );
    const ifNotExists = !!this.OPTION2(() => this.SUBRULE(this.ifNotExists));
    const using = this.OPTION3(() => this.SUBRULE(this.usingClause)) ?? [];
    return this.ACTION(() => ({ table, ...body, ifNotExists, using }));
  });

  readonly insertColumns = this.RULE('insertColumns', () => {
    const first = this.CONSUME(LParen);
    const names = [this.SUBRULE(this.columnName)];
    this.MANY(() => {
      this.CONSUME(Comma);
      names.push(this.SUBRULE2(this.columnName));
    });
    this.CONSUME(RParen);
    return this.ACTION(() => ({ names, range: this.rangeFrom(first) }));
  });

  readonly insertValues = this.RULE('insertValues', () => {
    const first = this.CONSUME(LParen);
    const values = [this.SUBRULE(this.expression)];
    this.MANY(() => {
      this.CONSUME(Comma);
      values.push(this.SUBRULE2(this.expression));
    });
    this.CONSUME(RParen);
    return this.ACTION(() => ({ values, range: this.rangeFrom(first) }));
  });

  readonly usingClause = this.RULE('usingClause', () => {
    this.CONSUME(K.USING);
    const options = [this.SUBRULE(this.usingOption)];
    this.MANY(() => {
      this.CONSUME(K.AND);
      options.push(this.SUBRULE2(this.usingOption));
    });
    return options;
  });

  readonly usingOption = this.RULE('usingOption', (): A.UsingClause =>
    this.OR(
      (this.alts.usingOptionOr ??= [
        {
          ALT: () => {
            const option: IToken = this.OR2(
              (this.alts.usingOptionOr2 ??= [{ ALT: () => this.token(K.TTL) }, { ALT: () => this.token(K.TIMESTAMP) }]),
            );
            const value = this.SUBRULE(this.intValue);
            return this.ACTION(() =>
              usingClauseOf(option.tokenType === K.TTL ? 'TTL' : 'TIMESTAMP', value, this.rangeFrom(option)),
            );
          },
        },
        { ALT: () => this.SUBRULE(this.timeoutOption) },
      ]),
    ),
  );

  readonly updateStatement = this.RULE('updateStatement', (): UpdateParts => {
    this.CONSUME(K.UPDATE);
    const table = this.SUBRULE(this.tableName);
    const using = this.OPTION(() => this.SUBRULE(this.usingClause)) ?? [];
    this.CONSUME(K.SET);
    const assignments = [this.SUBRULE(this.assignment)];
    this.MANY(() => {
      this.CONSUME(Comma);
      assignments.push(this.SUBRULE2(this.assignment));
    });
    const where = this.SUBRULE(this.whereClause);
    const ifParts = this.OPTION2(() => this.SUBRULE(this.ifClause)) ?? noConditions();
    return this.ACTION(() => ({ table, using, assignments, ...where, ...ifParts }));
  });

  readonly assignment = this.RULE('assignment', (): A.Assignment => {
    const first = this.LA(1);
    const target = this.columnTarget();
    const operator: IToken = this.OR2(
      (this.alts.assignmentOr2 ??= [
        { ALT: () => this.token(Eq) },
        { ALT: () => this.token(PlusEq) },
        { ALT: () => this.token(MinusEq) },
      ]),
    );
    const value = this.SUBRULE2(this.expression);
    return this.ACTION(() => assignmentOf(target, operator, value, this.rangeFrom(first)));
  });

  readonly ifClause = this.RULE('ifClause', (): IfParts => {
    this.CONSUME(K.IF);
    return this.OR(
      (this.alts.ifClauseOr ??= {
        MAX_LOOKAHEAD: 2,
        DEF: [
          // `IF EXISTS` vs a condition on a column named `exists`.
          {
            GATE: () => existsEndsAhead(this.lookahead),
            ALT: () => (this.CONSUME(K.EXISTS), { conditions: [], ifExists: true }),
          },
          {
            ALT: () => {
              const conditions = [this.SUBRULE(this.relation)];
              this.MANY(() => {
                this.CONSUME(K.AND);
                conditions.push(this.SUBRULE2(this.relation));
              });
              return { conditions, ifExists: false };
            },
          },
        ],
      }),
    );
  });

  readonly deleteStatement = this.RULE('deleteStatement', (): DeleteParts => {
    this.CONSUME(K.DELETE);
    const selections: A.Expression[] = [];
    this.OPTION(() => {
      selections.push(this.SUBRULE(this.deleteSelection));
      this.MANY(() => {
        this.CONSUME(Comma);
        selections.push(this.SUBRULE2(this.deleteSelection));
      });
    });
    this.CONSUME(K.FROM);
    const table = this.SUBRULE(this.tableName);
    const using = this.OPTION2(() => this.SUBRULE(this.usingClause)) ?? [];
    const where = this.SUBRULE(this.whereClause);
    const ifParts = this.OPTION3(() => this.SUBRULE(this.ifClause)) ?? noConditions();
    return this.ACTION(() => ({ selections, table, using, ...where, ...ifParts }));
  });

  readonly deleteSelection = this.RULE('deleteSelection', () => this.columnTarget());

  /**
   * `column`, `column[index]` or `column.field`: what an assignment sets and a DELETE removes. Not a rule of its
   * own: its tokens and subrules are the calling rule's, as completion names them.
   */
  private columnTarget(): A.Expression {
    const name = this.SUBRULE(this.columnName);
    const tail = this.OPTION((): TargetTail =>
      this.OR(
        (this.alts.columnTargetOr ??= [
          {
            ALT: (): TargetTail => {
              this.CONSUME(LBracket);
              const index = this.SUBRULE(this.expression);
              return { index, close: this.CONSUME(RBracket) };
            },
          },
          {
            ALT: (): TargetTail => {
              this.CONSUME(Dot);
              return { field: this.SUBRULE(this.fieldName) };
            },
          },
        ]),
      ),
    );
    return this.ACTION(() => targetOf(name, tail));
  }

  readonly batchStatement = this.RULE('batchStatement', () => {
    this.CONSUME(K.BEGIN);
    const kind = this.OPTION((): IToken =>
      this.OR(
        (this.alts.batchStatementOr ??= [{ ALT: () => this.token(K.UNLOGGED) }, { ALT: () => this.token(K.COUNTER) }]),
      ),
    );
    this.CONSUME(K.BATCH);
    const using = this.OPTION2(() => this.SUBRULE(this.usingClause)) ?? [];
    const statements: BatchMember[] = [];
    this.MANY(() => {
      const first = this.LA(1);
      const member: (base: Base) => BatchMember = this.OR2(
        (this.alts.batchStatementOr2 ??= [
          {
            ALT: () => {
              const parts = this.SUBRULE(this.insertStatement);
              return (base: Base) => insertOf(base, parts);
            },
          },
          {
            ALT: () => {
              const parts = this.SUBRULE(this.updateStatement);
              return (base: Base) => updateOf(base, parts);
            },
          },
          {
            ALT: () => {
              const parts = this.SUBRULE(this.deleteStatement);
              return (base: Base) => deleteOf(base, parts);
            },
          },
        ]),
      );
      const semi = this.OPTION3(() => this.CONSUME(Semicolon));
      statements.push(this.ACTION(() => member({ range: this.rangeFrom(first), terminated: semi !== undefined })));
    });
    this.CONSUME(K.APPLY);
    this.CONSUME2(K.BATCH);
    return this.ACTION(() => ({
      batchType: (kind ? kind.image.toUpperCase() : 'LOGGED') as BatchType,
      using,
      statements,
    }));
  });
}

// ---------------------------------------------------------------------------------------------
// The reading

/** INSERT, UPDATE, DELETE, BATCH, USE and TRUNCATE, as the rules above read them. */
export class ModifyReader extends SelectReader {
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
    return {
      table,
      columns: columns.length > 1 ? sized(columns) : columns,
      values,
      ifNotExists,
      using,
      columnsRange,
      valuesRange,
      json: undefined,
      jsonDefault: undefined,
    };
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
    return {
      table,
      columns: [],
      values: [],
      ifNotExists,
      using,
      columnsRange: undefined,
      valuesRange: undefined,
      json,
      jsonDefault,
    };
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
      if (operator.tokenType !== Eq && operator.tokenType !== PlusEq && operator.tokenType !== MinusEq) throw REJECT;
      this.pos++;
      const value = this.expression();
      assignments.push(assignmentOf(target, operator, value, tokenRange(start, this.previous())));
    } while (this.accept(Comma));
    const { where, whereRange }: Where = this.where();
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

  protected batch(base: Base): A.BatchStatement {
    this.expect(K.BEGIN);
    const kind = this.accept(K.UNLOGGED) ? 'UNLOGGED' : this.accept(K.COUNTER) ? 'COUNTER' : 'LOGGED';
    this.expect(K.BATCH);
    const using = this.using();
    const statements: BatchMember[] = [];
    for (;;) {
      const first = this.peek();
      const type = first.tokenType;
      if (type !== K.INSERT && type !== K.UPDATE && type !== K.DELETE) break;
      const parts = type === K.INSERT ? this.insert() : type === K.UPDATE ? this.update() : this.delete();
      const semi = this.accept(Semicolon);
      const inner: Base = { range: tokenRange(first, semi ?? this.previous()), terminated: !!semi };
      statements.push(
        type === K.INSERT
          ? insertOf(inner, parts as InsertParts)
          : type === K.UPDATE
            ? updateOf(inner, parts as UpdateParts)
            : deleteOf(inner, parts as DeleteParts),
      );
    }
    this.expect(K.APPLY);
    this.expect(K.BATCH);
    return batchOf(base, kind, using, sized(statements));
  }

  /** `USING (TTL|TIMESTAMP) value (AND ...)*` (or ScyllaDB's `TIMEOUT duration`), or nothing. */
  protected using(): A.UsingClause[] {
    if (!this.accept(K.USING)) return [];
    const out: A.UsingClause[] = [];
    do {
      const option = this.peek();
      if (option.tokenType === K.TIMEOUT) {
        out.push(this.timeoutOption());
        continue;
      }
      if (option.tokenType !== K.TTL && option.tokenType !== K.TIMESTAMP) throw REJECT;
      this.pos++;
      const value = this.intValue();
      out.push(
        usingClauseOf(option.tokenType === K.TTL ? 'TTL' : 'TIMESTAMP', value, tokenRange(option, this.previous())),
      );
    } while (this.accept(K.AND));
    return sized(out);
  }

  /** `IF EXISTS` or `IF condition (AND condition)*`, or nothing. */
  protected ifClause(): IfParts {
    if (!this.accept(K.IF)) return noConditions();
    if (this.is(K.EXISTS) && existsEndsAhead(this.la)) {
      this.pos++;
      return { conditions: [], ifExists: true };
    }
    return { conditions: this.relations(), ifExists: false };
  }

  /** `column`, `column[index]` or `column.field` (the target of an assignment or a DELETE). */
  protected target(): A.Expression {
    const name = this.columnName();
    if (this.accept(LBracket)) {
      const index = this.expression();
      return targetOf(name, { index, close: this.expect(RBracket) });
    }
    if (this.accept(Dot)) return targetOf(name, { field: identifierFromToken(this.ident()) });
    return targetOf(name, undefined);
  }
}
