// Reusing a file's schema across an edit that touches no schema statement (the language server re-parses on
// every keystroke; most edits are to queries): the DDL signature says what a FileSchema was built from.
import type { Comment, ParseResult, Statement } from '../../../grammar/ast';
import type { FileSchema } from '../schema/build';
import { commentsDirectlyAbove, shardAbove } from '../schema/shard';
import { hintsAbove } from '../schema/hint-comments';
import { isSchemaStatement, withoutRanges } from './statement-keys';
import { commonEnds } from '../util/lists';

/**
 * The statements a FileSchema is built from (USE, CREATE/ALTER/DROP ...), as AST objects, with their start
 * offsets when the schema was built and the `-- @shard` annotation above each CREATE TABLE. The incremental
 * parser hands back the very same statement objects (ranges shifted in place) for unchanged statement text,
 * so the same objects in the same order mean the same schema, only moved.
 */
export interface DdlSignature {
  statements: Statement[];
  starts: number[];
  shards: string[];
  /** Every statement of the parse the signature was made from (the next reuse finds the edited ones between the same head and tail). */
  all: readonly Statement[];
  /**
   * How many of `all` (a batch's members each) refer to each table name: the schema's referencedNames, kept as
   * counts so that a reuse reads only the statements the edit replaced. Made by the first reuse.
   */
  nameCounts?: Map<string, number>;
}

/** Adds `by` to the count of each table name a statement refers to (as buildFileSchema's referencedNames reads them). */
function countReferencedNames(stmt: Statement, counts: Map<string, number>, by: 1 | -1): void {
  let name: string;
  switch (stmt.kind) {
    case 'Select':
    case 'CreateMaterializedView':
      name = stmt.from.name.name;
      break;
    case 'Insert':
    case 'Update':
    case 'Delete':
    case 'CreateIndex':
      name = stmt.table.name.name;
      break;
    case 'Truncate':
      name = stmt.name.name.name;
      break;
    case 'Batch':
      for (const inner of stmt.statements) countReferencedNames(inner, counts, by);
      return;
    default:
      return;
  }
  const n = (counts.get(name) ?? 0) + by;
  if (n) counts.set(name, n);
  else counts.delete(name);
}

/**
 * The referenced-name counts of `now`, from those of the previous parse's statements: the incremental parse
 * keeps the statements an edit did not touch as the same objects, so only those between the common head and
 * tail (by identity) are read. The first reuse of a file counts every statement. `previous`'s counts are
 * taken over (the previous signature is not used again).
 */
function referencedCounts(previous: DdlSignature, now: readonly Statement[]): Map<string, number> {
  const counts = previous.nameCounts;
  if (!counts) {
    const fresh = new Map<string, number>();
    for (const stmt of now) countReferencedNames(stmt, fresh, 1);
    return fresh;
  }
  const before = previous.all;
  const { head, tail } = commonEnds(before, now);
  for (let i = head; i < before.length - tail; i++) countReferencedNames(before[i]!, counts, -1);
  for (let i = head; i < now.length - tail; i++) countReferencedNames(now[i]!, counts, 1);
  previous.nameCounts = undefined;
  return counts;
}

/**
 * The annotations' text of a run of comments above a table, by the run's last comment: the incremental parse keeps
 * the comments an edit did not touch as the same objects (their ranges moved in place), and the text holds no
 * position, so a run of the same comments has the same text. Weak: a dropped parse leaves nothing here.
 */
const annotationTexts = new WeakMap<Comment, { run: readonly Comment[]; value: string }>();

function sameRun(a: readonly Comment[], b: readonly Comment[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i] || a[i]!.text !== b[i]!.text) return false;
  return true;
}

/**
 * The `@shard` and `@cqlint` annotations above a CREATE TABLE, as text. Most tables have no comment right above
 * them: then nothing is read or encoded (the signature is made on every edit, for every table of the file); the
 * others' text is made once for their comments (annotationTexts), not on every edit.
 */
function annotationsAbove(parse: ParseResult, text: string, start: number): string {
  const run = commentsDirectlyAbove(parse.comments, text, start);
  if (!run.length) return '';
  const last = run[run.length - 1]!;
  const kept = annotationTexts.get(last);
  if (kept && sameRun(kept.run, run)) return kept.value;
  const value =
    withoutRanges(shardAbove(parse.comments, text, start)) +
    JSON.stringify(hintsAbove(parse.comments, text, start) ?? null);
  annotationTexts.set(last, { run, value });
  return value;
}

export function ddlSignature(text: string, parse: ParseResult): DdlSignature {
  const statements: Statement[] = [];
  const starts: number[] = [];
  const shards: string[] = [];
  for (const stmt of parse.statements) {
    if (!isSchemaStatement(stmt)) continue;
    statements.push(stmt);
    starts.push(stmt.range.start);
    shards.push(stmt.kind === 'CreateTable' ? annotationsAbove(parse, text, stmt.range.start) : '');
  }
  return { statements, starts, shards, all: parse.statements };
}

/**
 * The previous FileSchema when the new parse has the same schema statements (same AST objects, same
 * @shard annotations): its offsets are moved to the statements' new positions, the @shard ranges and
 * the referenced names refreshed. Undefined when it cannot be reused.
 */
export function reuseFileSchema(
  previous: { schema: FileSchema; ddl: DdlSignature },
  ddl: DdlSignature,
  parse: ParseResult,
  text: string,
): FileSchema | undefined {
  const old = previous.ddl;
  if (old.statements.length !== ddl.statements.length) return undefined;
  for (let i = 0; i < ddl.statements.length; i++) {
    if (old.statements[i] !== ddl.statements[i] || old.shards[i] !== ddl.shards[i]) return undefined;
  }
  const moved = new Map<number, number>();
  for (let i = 0; i < old.starts.length; i++) moved.set(old.starts[i]!, ddl.starts[i]!);
  const schema = previous.schema;
  const move = (offset: number): number | undefined => moved.get(offset);
  for (const use of schema.uses) if (move(use.offset) === undefined) return undefined;
  for (const list of schema.versions.values()) for (const v of list) if (move(v.offset) === undefined) return undefined;
  for (const use of schema.uses) use.offset = move(use.offset)!;
  for (const list of schema.versions.values()) for (const v of list) v.offset = move(v.offset)!;
  // @shard specs hold copies of the comment's ranges: refresh them from this parse's comments.
  for (const stmt of ddl.statements) {
    if (stmt.kind !== 'CreateTable') continue;
    const spec = schema.byStatement.get(stmt)?.shard;
    if (!spec) continue;
    const fresh = shardAbove(parse.comments, text, stmt.range.start);
    if (fresh) Object.assign(spec, fresh);
  }
  ddl.nameCounts = referencedCounts(old, parse.statements);
  schema.referencedNames = new Set(ddl.nameCounts.keys());
  return schema;
}
