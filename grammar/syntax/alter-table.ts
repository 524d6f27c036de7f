// ALTER TABLE and its actions: the rules, the reading and the statement's nodes.
import type * as A from '../ast';
import * as Lexer from '../lexer';
import * as Nodes from '../nodes';
import { TableReader, TableRules } from './table';
import { type Base, type Pending, REJECT } from './base';

// Module constants: compiled to CommonJS (tsx: tests, bench), every use of an imported binding is a getter call.
const { keywordTokens: K, IntegerLiteral, Comma, LParen, RParen } = Lexer;
const { literalFromToken, sized, tokenRange } = Nodes;

// ---------------------------------------------------------------------------------------------
// The statement's nodes

export function alterTableOf(
  base: Base,
  name: A.QualifiedName,
  ifExists: boolean,
  action: A.AlterTableAction,
): A.AlterTableStatement {
  return { kind: 'AlterTable', range: base.range, terminated: base.terminated, name, ifExists, action };
}

export function alterColumnTypeOf(
  ifExists: boolean,
  column: A.Identifier,
  type: A.CqlType,
  range: A.SourceRange,
): A.AlterTableAction {
  return { kind: 'AlterColumnType', ifExists, column, type, range };
}

/** `ALTER column MASKED WITH ...`, or without a mask `ALTER column DROP MASKED`. */
export function alterColumnMaskOf(
  ifExists: boolean,
  column: A.Identifier,
  mask: A.MaskClause | undefined,
  range: A.SourceRange,
): A.AlterTableAction {
  return { kind: 'AlterColumnMask', ifExists, column, ...(mask ? { mask } : {}), dropMask: !mask, range };
}

export function addColumnsOf(
  ifNotExists: boolean,
  columns: A.ColumnDefinition[],
  range: A.SourceRange,
): A.AlterTableAction {
  return { kind: 'AddColumns', ifNotExists, columns, range };
}

export function dropColumnsOf(
  ifExists: boolean,
  columns: A.Identifier[],
  timestamp: A.Expression | undefined,
  range: A.SourceRange,
): A.AlterTableAction {
  return { kind: 'DropColumns', ifExists, columns, ...(timestamp ? { timestamp } : {}), range };
}

export function renameColumnsOf(
  ifExists: boolean,
  renames: { from: A.Identifier; to: A.Identifier }[],
  range: A.SourceRange,
): A.AlterTableAction {
  return { kind: 'RenameColumns', ifExists, renames, range };
}

export function withOptionsOf(options: A.TableOptions, range: A.SourceRange): A.AlterTableAction {
  return { kind: 'WithOptions', options, range };
}

// ---------------------------------------------------------------------------------------------
// The rules

export class AlterTableRules extends TableRules {
  readonly alterTable = this.RULE('alterTable', (): Pending => {
    this.CONSUME(K.TABLE);
    const ifExists = !!this.OPTION(() => this.SUBRULE(this.ifExists));
    const name = this.SUBRULE(this.tableName);
    const action: A.AlterTableAction = this.OR(
      (this.alts.alterTableOr ??= {
        MAX_LOOKAHEAD: 3,
        DEF: [
          { ALT: () => this.SUBRULE(this.alterColumn) },
          { ALT: () => this.SUBRULE(this.addColumns) },
          { ALT: () => this.SUBRULE(this.dropCompactStorage) },
          { ALT: () => this.SUBRULE(this.dropColumns) },
          { ALT: () => this.SUBRULE(this.renameColumns) },
          {
            ALT: () => {
              const first = this.LA(1);
              const options = this.SUBRULE(this.tableOptions);
              return this.ACTION(() => withOptionsOf(options, this.rangeFrom(first)));
            },
          },
        ],
      }),
    );
    return (base) => alterTableOf(base, name, ifExists, action);
  });

  readonly alterColumn = this.RULE('alterColumn', (): A.AlterTableAction => {
    const first = this.CONSUME(K.ALTER);
    const ifExists = !!this.OPTION(() => this.SUBRULE(this.ifExists));
    const column = this.SUBRULE(this.columnName);
    const change: { type: A.CqlType } | { mask: A.MaskClause | undefined } = this.OR(
      (this.alts.alterColumnOr ??= [
        {
          ALT: () => {
            this.CONSUME(K.TYPE);
            return { type: this.SUBRULE(this.cqlType) };
          },
        },
        { ALT: () => ({ mask: this.SUBRULE(this.columnMask) }) },
        {
          ALT: () => {
            this.CONSUME(K.DROP);
            this.CONSUME(K.MASKED);
            return { mask: undefined };
          },
        },
      ]),
    );
    return this.ACTION(() =>
      'type' in change
        ? alterColumnTypeOf(ifExists, column, change.type, this.rangeFrom(first))
        : alterColumnMaskOf(ifExists, column, change.mask, this.rangeFrom(first)),
    );
  });

  readonly addColumns = this.RULE('addColumns', (): A.AlterTableAction => {
    const first = this.CONSUME(K.ADD);
    const ifNotExists = !!this.OPTION(() => this.SUBRULE(this.ifNotExists));
    const columns: A.ColumnDefinition[] = this.OR(
      (this.alts.addColumnsOr ??= [
        { ALT: () => [this.SUBRULE(this.columnDefinition).column] },
        {
          ALT: () => {
            this.CONSUME(LParen);
            const defs = [this.SUBRULE2(this.columnDefinition).column];
            this.MANY(() => {
              this.CONSUME(Comma);
              defs.push(this.SUBRULE3(this.columnDefinition).column);
            });
            this.CONSUME(RParen);
            return defs;
          },
        },
      ]),
    );
    return this.ACTION(() => addColumnsOf(ifNotExists, columns, this.rangeFrom(first)));
  });

  readonly dropCompactStorage = this.RULE('dropCompactStorage', (): A.AlterTableAction => {
    const first = this.CONSUME(K.DROP);
    this.CONSUME(K.COMPACT);
    this.CONSUME(K.STORAGE);
    return this.ACTION(() => ({ kind: 'DropCompactStorage', range: this.rangeFrom(first) }));
  });

  readonly dropColumns = this.RULE('dropColumns', (): A.AlterTableAction => {
    const first = this.CONSUME(K.DROP);
    const ifExists = !!this.OPTION(() => this.SUBRULE(this.ifExists));
    const columns: A.Identifier[] = this.OR(
      (this.alts.dropColumnsOr ??= [{ ALT: () => [this.SUBRULE(this.columnName)] }, { ALT: () => this.columnList() }]),
    );
    const timestamp = this.OPTION2(() => {
      this.CONSUME(K.USING);
      this.CONSUME(K.TIMESTAMP);
      return this.literal(this.CONSUME(IntegerLiteral));
    });
    return this.ACTION(() => dropColumnsOf(ifExists, columns, timestamp, this.rangeFrom(first)));
  });

  readonly renameColumns = this.RULE('renameColumns', (): A.AlterTableAction => {
    const first = this.CONSUME(K.RENAME);
    const ifExists = !!this.OPTION(() => this.SUBRULE(this.ifExists));
    const renames = [this.SUBRULE(this.renamePair)];
    this.MANY(() => {
      this.CONSUME(K.AND);
      renames.push(this.SUBRULE2(this.renamePair));
    });
    return this.ACTION(() => renameColumnsOf(ifExists, renames, this.rangeFrom(first)));
  });

  readonly renamePair = this.RULE('renamePair', () => {
    const from = this.SUBRULE(this.columnName);
    this.CONSUME(K.TO);
    const to = this.SUBRULE2(this.columnName);
    return { from, to };
  });
}

// ---------------------------------------------------------------------------------------------
// The reading

/** ALTER TABLE, as the rules above read it. */
export class AlterTableReader extends TableReader {
  /** `ALTER TABLE [IF EXISTS] name` and one action. */
  protected alterTable(base: Base): A.AlterTableStatement {
    this.expect(K.TABLE);
    const ifExists = this.ifExists();
    const name = this.tableName();
    return alterTableOf(base, name, ifExists, this.alterTableAction());
  }

  private alterTableAction(): A.AlterTableAction {
    const t = this.peek();
    const type = t.tokenType;
    if (type === K.WITH) {
      const options = this.tableOptions();
      return withOptionsOf(options, tokenRange(t, this.previous()));
    }
    this.pos++;
    if (type === K.ALTER) {
      const ifExists = this.ifExists();
      const column = this.columnName();
      if (this.is(K.MASKED))
        return alterColumnMaskOf(ifExists, column, this.columnMask(), tokenRange(t, this.previous()));
      if (this.accept(K.DROP)) {
        this.expect(K.MASKED);
        return alterColumnMaskOf(ifExists, column, undefined, tokenRange(t, this.previous()));
      }
      this.expect(K.TYPE);
      const columnType = this.cqlType();
      return alterColumnTypeOf(ifExists, column, columnType, tokenRange(t, this.previous()));
    }
    if (type === K.ADD) {
      const ifNotExists = this.ifNotExists();
      const columns = this.parenthesisedList(() => this.columnDefinition().column);
      return addColumnsOf(ifNotExists, columns, tokenRange(t, this.previous()));
    }
    if (type === K.DROP) {
      if (this.is(K.COMPACT) && this.la(2).tokenType === K.STORAGE) {
        this.pos += 2;
        return { kind: 'DropCompactStorage', range: tokenRange(t, this.previous()) };
      }
      const ifExists = this.ifExists();
      const columns = this.parenthesisedList(() => this.columnName());
      let timestamp: A.Expression | undefined;
      if (this.accept(K.USING)) {
        this.expect(K.TIMESTAMP);
        timestamp = literalFromToken(this.expect(IntegerLiteral));
      }
      return dropColumnsOf(ifExists, columns, timestamp, tokenRange(t, this.previous()));
    }
    if (type === K.RENAME) {
      const ifExists = this.ifExists();
      const renames: { from: A.Identifier; to: A.Identifier }[] = [];
      do {
        const from = this.columnName();
        this.expect(K.TO);
        renames.push({ from, to: this.columnName() });
      } while (this.accept(K.AND));
      return renameColumnsOf(ifExists, sized(renames), tokenRange(t, this.previous()));
    }
    throw REJECT;
  }

  /** One item, or `(item, item, ...)`. */
  private parenthesisedList<T>(item: () => T): T[] {
    if (!this.accept(LParen)) return [item()];
    const items = [item()];
    while (this.accept(Comma)) items.push(item());
    this.expect(RParen);
    return sized(items);
  }
}
