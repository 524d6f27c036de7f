// Hand-built AST nodes for the token tests (the parser is developed separately).
import type {
  Comment,
  CreateTableStatement,
  Expression,
  Identifier,
  Literal,
  NativeTypeName,
  ParseResult,
  SourceRange,
} from '../../grammar/ast';

export function rangeAt(offset: number, length: number): SourceRange {
  return { start: offset, end: offset + length };
}
const R = rangeAt(0, 0);

export function ident(name: string, range: SourceRange = R): Identifier {
  return { kind: 'Identifier', name, text: name, quoted: false, range };
}

export function lit(literalKind: Literal['literalKind'], value: string, range: SourceRange = R): Literal {
  return {
    kind: 'Literal',
    literalKind,
    value,
    text: literalKind === 'string' ? `'${value.replace(/'/g, "''")}'` : value,
    range,
  };
}

export function neg(operand: Expression): Expression {
  return { kind: 'UnaryExpression', operator: '-', operand, range: R };
}

export function call(name: string, range: SourceRange = R): Expression {
  return { kind: 'FunctionCall', name: { kind: 'QualifiedName', name: ident(name), range: R }, args: [], range };
}

/** A `--` comment on `line` starting at `offset` (column 1). */
/** A line comment starting at `offset` of the file (at the start of its line). */
export function lineComment(text: string, offset: number): Comment {
  return {
    kind: 'Comment',
    style: 'line',
    text,
    value: text.replace(/^--/, '').trim(),
    range: rangeAt(offset, text.length),
  };
}

export function createTable(
  name: string,
  columns: [string, NativeTypeName][],
  partitionKey: string[],
  clustering: string[] = [],
  range: SourceRange = rangeAt(100, 50),
): CreateTableStatement {
  return {
    kind: 'CreateTable',
    columnFamily: false,
    terminated: true,
    ifNotExists: false,
    range,
    name: { kind: 'QualifiedName', name: ident(name), range: R },
    columns: columns.map(([n, t]) => ({
      kind: 'ColumnDefinition',
      name: ident(n),
      type: { kind: 'NativeType', name: t, range: R },
      isStatic: false,
      inlinePrimaryKey: false,
      range: R,
    })),
    primaryKey: {
      kind: 'PrimaryKey',
      form: 'clause',
      partitionKey: partitionKey.map((p) => ident(p)),
      clustering: clustering.map((c) => ident(c)),
      partitionKeyParenthesised: partitionKey.length > 1,
      range: R,
    },
  };
}

export function parseResult(statements: ParseResult['statements'], comments: Comment[]): ParseResult {
  return { statements, comments, errors: [] };
}
