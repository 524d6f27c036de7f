// Comment annotations over CREATE TABLE (`-- @cqlint` workload hints, `-- @shard` formulas): the table each
// one stands directly above, and those above no table, which apply to nothing.
import type { Comment, CreateTableStatement, ParseResult } from '../../../grammar/ast';

export interface AnnotatedTables<A> {
  /** Each CREATE TABLE with annotations directly above it, and those annotations. */
  tables: { statement: CreateTableStatement; annotations: readonly A[] }[];
  /** The annotation comments no CREATE TABLE took, in file order. */
  detached: Comment[];
}

/** Each CREATE TABLE with what `above` finds directly over it, and the comments `isAnnotation` accepts that stand over none. */
export function annotatedTables<A extends { comment: Comment }>(
  parse: Pick<ParseResult, 'statements' | 'comments'>,
  above: (tableStart: number) => readonly A[],
  isAnnotation: (comment: Comment) => boolean,
): AnnotatedTables<A> {
  const attached = new Set<Comment>();
  const tables: AnnotatedTables<A>['tables'] = [];
  for (const statement of parse.statements) {
    if (statement.kind !== 'CreateTable') continue;
    const annotations = above(statement.range.start);
    if (!annotations.length) continue;
    for (const a of annotations) attached.add(a.comment);
    tables.push({ statement, annotations });
  }
  return { tables, detached: parse.comments.filter((c) => isAnnotation(c) && !attached.has(c)) };
}
