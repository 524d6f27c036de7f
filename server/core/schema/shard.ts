// Just enough of the `-- @shard` annotation to know a table is write-sharded:
//   -- @shard shard = murmur3(title) % 16 + 1
//   -- @shard shard = codepoints(title) % 200 + 1
//   -- @shard shard = random(8)
// server/core/token/ owns the full grammar and the shard maths.
import type { Comment } from '../../../grammar/ast';
import type { ShardSpec } from './model';

const CALCULATED = /^@shard\s+("[^"]+"|[A-Za-z_][\w$]*)\s*=\s*\(?\s*(murmur3|codepoints|hash)\s*\(([^)]*)\)\s*\)?\s*%\s*(\d+)\s*\)?\s*(?:\+\s*(\d+))?\s*$/i;
const RANDOM = /^@shard\s+("[^"]+"|[A-Za-z_][\w$]*)\s*=\s*random\s*\(\s*(\d+)\s*\)\s*(?:\+\s*(\d+))?\s*$/i;

function columnName(raw: string): string {
  return raw.startsWith('"') ? raw.slice(1, -1) : raw.toLowerCase();
}

/** Parses one comment's content (markers stripped); undefined when it is not a well-formed @shard. */
export function parseShardComment(comment: Comment): ShardSpec | undefined {
  const value = comment.value.trim();
  if (!value.toLowerCase().startsWith('@shard')) return undefined;
  const calc = CALCULATED.exec(value);
  if (calc) {
    const count = Number(calc[4]);
    if (!(count >= 1)) return undefined;
    const fn = calc[2]!.toLowerCase();
    return {
      column: columnName(calc[1]!),
      count,
      method: fn === 'codepoints' ? 'codepoints' : 'murmur3',
      sourceColumns: calc[3]!.split(',').map((s) => s.trim()).filter(Boolean).map(columnName),
      offset: calc[5] ? Number(calc[5]) : 0,
      text: value.slice('@shard'.length).trim(),
      range: comment.range,
    };
  }
  const rnd = RANDOM.exec(value);
  if (rnd) {
    const count = Number(rnd[2]);
    if (!(count >= 1)) return undefined;
    return {
      column: columnName(rnd[1]!),
      count,
      method: 'random',
      sourceColumns: [],
      offset: rnd[3] ? Number(rnd[3]) : 0,
      text: value.slice('@shard'.length).trim(),
      range: comment.range,
    };
  }
  return undefined;
}

/**
 * The comments directly above `offset`: the run of comments that ends right before it with nothing but
 * whitespace between them. `comments` is in source order; found by binary search.
 */
export function commentsDirectlyAbove(comments: readonly Comment[], text: string, offset: number): Comment[] {
  let lo = 0;
  let hi = comments.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (comments[mid]!.range.end.offset <= offset) lo = mid + 1;
    else hi = mid;
  }
  const out: Comment[] = [];
  let boundary = offset;
  for (let i = lo - 1; i >= 0; i--) {
    const c = comments[i]!;
    const gap = text.slice(c.range.end.offset, boundary);
    if (!/^\s*$/.test(gap) || (gap.match(/\n/g)?.length ?? 0) > 1) break;
    out.unshift(c);
    boundary = c.range.start.offset;
  }
  return out;
}

export function shardAbove(comments: readonly Comment[], text: string, offset: number): ShardSpec | undefined {
  for (const c of commentsDirectlyAbove(comments, text, offset)) {
    const spec = parseShardComment(c);
    if (spec) return spec;
  }
  return undefined;
}
