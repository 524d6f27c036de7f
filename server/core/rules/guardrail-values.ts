// What the literals a statement writes weigh, as the guardrails on written values count them: the bytes
// of a value (UTF-8 text, hex blobs, fixed-size numbers), the elements of a collection literal, and the
// values an INSERT or UPDATE writes per column. Bind markers and function calls weigh nothing: only the
// application knows them (the docs say so).
import type { Expression, Statement } from '../../../grammar/ast';

/** Bytes of a fixed-size literal by its kind (text and blobs are measured). */
const FIXED_BYTES: Readonly<Record<string, number>> = {
  integer: 8,
  float: 8,
  boolean: 1,
  uuid: 16,
  duration: 12,
  nan: 8,
  infinity: 8,
  null: 0,
};

/** The bytes a literal expression serialises to, roughly (0 for what is not a literal). */
export function literalBytes(expr: Expression): number {
  switch (expr.kind) {
    case 'Literal':
      if (expr.literalKind === 'string') return Buffer.byteLength(expr.value, 'utf8');
      if (expr.literalKind === 'hex') return Math.max(0, Math.floor((expr.text.length - 2) / 2));
      return FIXED_BYTES[expr.literalKind] ?? 0;
    case 'ListLiteral':
    case 'SetLiteral':
    case 'TupleExpression':
      return expr.elements.reduce((sum, e) => sum + literalBytes(e), 0);
    case 'MapLiteral':
      return expr.entries.reduce((sum, e) => sum + literalBytes(e.key) + literalBytes(e.value), 0);
    case 'UdtLiteral':
      return expr.fields.reduce((sum, f) => sum + literalBytes(f.value), 0);
    case 'TypeHint':
    case 'CastExpression':
      return literalBytes(expr.expression);
    default:
      return 0;
  }
}

/** The elements of a collection literal (undefined for anything else). */
export function collectionItems(expr: Expression): number | undefined {
  if (expr.kind === 'ListLiteral' || expr.kind === 'SetLiteral') return expr.elements.length;
  if (expr.kind === 'MapLiteral') return expr.entries.length;
  return undefined;
}

/** A value a statement writes to a column. */
export interface WrittenValue {
  column: string;
  value: Expression;
}

/**
 * Whether one of the values writtenValues lists passes `test`, without making the list (asked of every
 * write: most write nothing a guardrail looks at).
 */
export function someWrittenValue(stmt: Statement, test: (value: Expression) => boolean): boolean {
  if (stmt.kind === 'Insert') {
    for (let i = 0; i < stmt.columns.length; i++) {
      const value = stmt.values[i];
      if (value !== undefined && test(value)) return true;
    }
    return false;
  }
  if (stmt.kind !== 'Update') return false;
  for (const a of stmt.assignments) {
    if (a.target.kind !== 'ColumnRef') continue;
    let value = a.value;
    if (value.kind === 'BinaryExpression') value = value.left.kind === 'ColumnRef' ? value.right : value.left;
    if (test(value)) return true;
  }
  return false;
}

/** The values an INSERT (VALUES) or UPDATE (SET col = v, col = col + v) writes, by column. */
export function writtenValues(stmt: Statement): WrittenValue[] {
  if (stmt.kind === 'Insert')
    return stmt.columns
      .map((c, i) => ({ column: c.name, value: stmt.values[i]! }))
      .filter((w) => w.value !== undefined);
  if (stmt.kind !== 'Update') return [];
  const out: WrittenValue[] = [];
  for (const a of stmt.assignments) {
    if (a.target.kind !== 'ColumnRef') continue;
    const column = a.target.name.name;
    // `c = c + [..]` appends its right side; `c = [..] + c` prepends its left.
    let value = a.value;
    if (value.kind === 'BinaryExpression') value = value.left.kind === 'ColumnRef' ? value.right : value.left;
    out.push({ column, value });
  }
  return out;
}
