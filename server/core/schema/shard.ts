// Which `-- @shard` annotation belongs to a table: the one place that finds it (schema model, rules, fixes
// and the CLI ask here). There is one @shard parser, `parseShardAnnotation` in server/core/token/shard.ts;
// this module finds the comment directly above a CREATE TABLE and hands it over:
//   -- @shard shard = murmur3(title) % 16 + 1      values 1..16
//   -- @shard shard = codepoints(title) % 200 + 1  values 1..200
//   -- @shard shard = random(8)                    values 1..8
import type { Comment } from '../../../grammar/ast';
import { isShardAnnotation, parseShardAnnotation, type ShardParseResult, type ShardSpec } from '../token/shard';

/**
 * The comments directly above `offset`: the run of comments that ends right before it with nothing but
 * whitespace between them (no blank line). `comments` is in source order; found by binary search.
 */
export function commentsDirectlyAbove(comments: readonly Comment[], text: string, offset: number): Comment[] {
  let lo = 0;
  let hi = comments.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (comments[mid]!.range.end <= offset) lo = mid + 1;
    else hi = mid;
  }
  const out: Comment[] = [];
  let boundary = offset;
  for (let i = lo - 1; i >= 0; i--) {
    const c = comments[i]!;
    const gap = text.slice(c.range.end, boundary);
    // A blank line ends the run, whatever the file's line ends (LF, CRLF or a lone CR).
    if (!/^\s*$/.test(gap) || (gap.match(/\r\n|\r|\n/g)?.length ?? 0) > 1) break;
    out.unshift(c);
    boundary = c.range.start;
  }
  return out;
}

/** The `@shard` comment that applies to a table starting at `offset` (the nearest one directly above), parsed. */
export function shardAnnotationAbove(
  comments: readonly Comment[],
  text: string,
  offset: number,
): { comment: Comment; result: ShardParseResult } | undefined {
  const run = commentsDirectlyAbove(comments, text, offset);
  for (let i = run.length - 1; i >= 0; i--) {
    const comment = run[i]!;
    if (!isShardAnnotation(comment)) continue;
    const result = readingOf(comment);
    if (result) return { comment, result };
  }
  return undefined;
}

/**
 * Each `@shard` comment's reading, while the comment stands where it was read. Every edit asks for every
 * table's annotation several times (the DDL signature, the file's schema, invalid-shard-annotation), and the
 * incremental parse keeps the comments the edit did not touch as the same objects, moving their ranges in
 * place: a comment that moved is read again (the reading's ranges are the comment's), the others are not.
 * Keyed weakly by the comment, so a dropped parse leaves nothing here.
 */
const readings = new WeakMap<Comment, { start: number; result: ShardParseResult | undefined }>();

function readingOf(comment: Comment): ShardParseResult | undefined {
  const kept = readings.get(comment);
  if (kept && kept.start === comment.range.start) return kept.result;
  const result = parseShardAnnotation(comment);
  readings.set(comment, { start: comment.range.start, result });
  return result;
}

/** The table's shard spec when the annotation above it is well-formed. */
export function shardAbove(comments: readonly Comment[], text: string, offset: number): ShardSpec | undefined {
  const found = shardAnnotationAbove(comments, text, offset);
  return found?.result.ok ? found.result.spec : undefined;
}
