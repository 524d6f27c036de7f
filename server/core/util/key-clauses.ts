// The clauses of a SELECT that must name every partition key column or none: `SELECT DISTINCT`, `token()`
// and `GROUP BY`. Cassandra rejects one that names part of the key ("SELECT DISTINCT queries must request all
// the partition key columns", "The token function arguments must be in the partition key order", a GROUP BY
// that is no prefix of the primary key). The partial-partition-key rule reports them; a key change rewrites
// them for the new key (fixes/key-rewrite.ts).
import type { Expression, FunctionCall, SelectStatement, SourceRange } from '../../../grammar/ast';

export interface KeyClause {
  kind: 'distinct' | 'token' | 'group-by';
  /** The partition key columns it names, in the order written. */
  named: string[];
  /** The clause (the DISTINCT selection, the token() call, the GROUP BY list). */
  range: SourceRange;
  /** Where the missing columns go: `, col` appended at this offset. */
  insertAt: number;
  /** A token() relation's other side, `token(?)`: its arguments grow with the key (`, ?` appended here). */
  bound?: { insertAt: number };
}

function tokenCall(expr: Expression | undefined): FunctionCall | undefined {
  return expr?.kind === 'FunctionCall' && !expr.name.keyspace && expr.name.name.name.toLowerCase() === 'token'
    ? expr
    : undefined;
}

/** The token() call's column arguments, or undefined when one is not a column. */
function columnArgs(call: FunctionCall): { names: string[]; end: number } | undefined {
  const names: string[] = [];
  for (const a of call.args) {
    if (a.kind !== 'ColumnRef') return undefined;
    names.push(a.name.name);
  }
  const last = call.args[call.args.length - 1];
  return last ? { names, end: last.range.end } : undefined;
}

/** The clauses of `stmt` that name partition key columns (of `partitionKey`), whole or in part. */
export function partitionKeyClauses(stmt: SelectStatement, partitionKey: readonly string[]): KeyClause[] {
  const out: KeyClause[] = [];
  const inKey = (name: string): boolean => partitionKey.includes(name);
  if (stmt.distinct && !stmt.star) {
    const named = stmt.selectors.flatMap((s) =>
      s.expression.kind === 'ColumnRef' && inKey(s.expression.name.name) ? [s.expression.name.name] : [],
    );
    const first = stmt.selectors[0];
    const last = stmt.selectors[stmt.selectors.length - 1];
    if (named.length && first && last)
      out.push({
        kind: 'distinct',
        named,
        range: { start: first.range.start, end: last.range.end },
        insertAt: last.range.end,
      });
  }
  const token = (call: FunctionCall | undefined, other?: Expression): void => {
    const args = call && columnArgs(call);
    if (!call || !args || !args.names.some(inKey)) return;
    const boundCall = tokenCall(other);
    const boundEnd = boundCall?.args[boundCall.args.length - 1]?.range.end;
    out.push({
      kind: 'token',
      named: args.names.filter(inKey),
      range: call.range,
      insertAt: args.end,
      ...(boundEnd !== undefined ? { bound: { insertAt: boundEnd } } : {}),
    });
  };
  for (const s of stmt.selectors) token(tokenCall(s.expression));
  for (const r of stmt.where) token(tokenCall(r.left), r.right[0]);
  const grouped = stmt.groupBy.filter((g) => inKey(g.name));
  const lastKey = grouped[grouped.length - 1];
  const firstGroup = stmt.groupBy[0];
  const lastGroup = stmt.groupBy[stmt.groupBy.length - 1];
  if (lastKey && firstGroup && lastGroup)
    out.push({
      kind: 'group-by',
      named: grouped.map((g) => g.name),
      range: { start: firstGroup.range.start, end: lastGroup.range.end },
      insertAt: lastKey.range.end,
    });
  return out;
}
