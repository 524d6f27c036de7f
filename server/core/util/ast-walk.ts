// Generic traversal of the typed AST: every node is an object with `kind` and `range`, so editor
// features (selection ranges, semantic tokens, symbol collection) can walk any statement without a
// visitor per node kind.
import {
  isSourceRange,
  type BatchStatement,
  type Expression,
  type Node,
  type SourceRange,
  type Statement,
  type ParseResult,
} from '../../../grammar/ast';

function isNode(value: unknown): value is Node {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as Node).kind === 'string' &&
    typeof (value as Node).range === 'object'
  );
}

/** Direct child nodes of `node`, in property order (arrays and plain wrapper objects are looked through). */
function childNodes(node: object): Node[] {
  const out: Node[] = [];
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) {
      for (const item of value) visit(item);
    } else if (isNode(value)) {
      out.push(value);
    } else if (typeof value === 'object' && value !== null && !isSourceRange(value) && !(value instanceof Map)) {
      for (const v of Object.values(value)) visit(v);
    }
  };
  for (const [key, value] of Object.entries(node)) {
    if (key === 'range') continue;
    visit(value);
  }
  return out;
}

/** Calls `fn` for `node` and every node below it (pre-order), with the chain of ancestors. */
export function walk(node: Node, fn: (node: Node, parents: readonly Node[]) => void, parents: Node[] = []): void {
  fn(node, parents);
  parents.push(node);
  for (const child of childNodes(node)) walk(child, fn, parents);
  parents.pop();
}

/** Extra ranges a node carries for its clauses (`whereRange`, `bodyRange`, ...). */
export function clauseRanges(node: object): SourceRange[] {
  const out: SourceRange[] = [];
  for (const [key, value] of Object.entries(node)) {
    if (key !== 'range' && key.endsWith('Range') && isSourceRange(value)) out.push(value);
  }
  return out;
}

/** The top-level statement that starts last at or before `offset` (statements are in source order: a binary search). */
function lastStartingBy(parse: ParseResult, offset: number): Statement | undefined {
  const statements = parse.statements;
  let lo = 0;
  let hi = statements.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (statements[mid]!.range.start <= offset) lo = mid;
    else hi = mid - 1;
  }
  return statements[lo];
}

/** The statement (a batch's member rather than the batch) whose range is exactly `range`. */
export function statementWithRange(parse: ParseResult, range: SourceRange): Statement | undefined {
  const top = lastStartingBy(parse, range.start);
  const same = (s: Statement): boolean => s.range.start === range.start && s.range.end === range.end;
  if (!top) return undefined;
  if (top.kind === 'Batch') return top.statements.find(same) ?? (same(top) ? top : undefined);
  return same(top) ? top : undefined;
}

/** The BATCH of the parse that `statement` is a member of; undefined for a statement outside any batch. */
export function batchHolding(parse: ParseResult, statement: Statement): BatchStatement | undefined {
  const top = lastStartingBy(parse, statement.range.start);
  return top?.kind === 'Batch' && top !== statement && top.statements.some((s) => s === statement) ? top : undefined;
}

/** The statement whose range contains `offset` (end inclusive, so a cursor right after `;` still counts). */
export function statementAt(parse: ParseResult, offset: number): Statement | undefined {
  const list = parse.statements;
  let lo = 0;
  let hi = list.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const s = list[mid];
    if (s.range.end < offset) lo = mid + 1;
    else if (s.range.start > offset) hi = mid - 1;
    else return s;
  }
  return undefined;
}

/** Statements including those nested in a BATCH, in source order. */
export function flatStatements(parse: ParseResult): Statement[] {
  const out: Statement[] = [];
  for (const s of parse.statements) {
    out.push(s);
    if (s.kind === 'Batch') out.push(...s.statements);
  }
  return out;
}

/** The sub-expressions of an expression (a typed walk: no reflection, for hot paths). */
function expressionChildren(e: Expression): readonly (Expression | undefined)[] {
  switch (e.kind) {
    case 'ListLiteral':
    case 'SetLiteral':
    case 'TupleExpression':
      return e.elements;
    case 'MapLiteral':
      return e.entries.flatMap((x) => [x.key, x.value]);
    case 'UdtLiteral':
      return e.fields.map((f) => f.value);
    case 'FunctionCall':
      return e.args;
    case 'CastExpression':
    case 'TypeHint':
      return [e.expression];
    case 'BinaryExpression':
      return [e.left, e.right];
    case 'UnaryExpression':
      return [e.operand];
    case 'ElementAccess':
      return [e.target, e.index];
    case 'SliceAccess':
      return [e.target, e.from, e.to];
    case 'FieldAccess':
      return [e.target];
    default:
      return [];
  }
}

/** Whether `test` holds for the expression or any expression below it. */
export function someExpression(expr: Expression | undefined, test: (e: Expression) => boolean): boolean {
  if (!expr) return false;
  if (test(expr)) return true;
  for (const child of expressionChildren(expr)) if (someExpression(child, test)) return true;
  return false;
}
