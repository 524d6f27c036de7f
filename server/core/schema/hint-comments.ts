// `-- @cqlint` workload hints written directly above a CREATE TABLE, the comment form of the
// .cqlint.json `tables` hints (docs/partition-model.md):
//   -- @cqlint rate=50/s country.distinct=5
//   -- @cqlint rows=2000000 writes=1200/s reads=300/s body.bytes=4000
// Found with the same "comments directly above" lookup as `-- @shard` (schema/shard.ts).
import type { Comment, SourceRange } from '../../../grammar/ast';
import { nameRecord, ownEntry } from '../util/names';
import type { TableHints } from '../vocabulary/config';
import { commentsDirectlyAbove } from './shard';

interface HintCommentError {
  message: string;
  range: SourceRange;
}

interface HintCommentResult {
  comment: Comment;
  hints: TableHints;
  errors: HintCommentError[];
}

const USAGE =
  'expected key=value pairs such as `rate=50/s`, `writes=1200/s`, `reads=300/s`, `rows=2000000`, `country.distinct=5`, `body.bytes=4000`';
const PER_UNIT = new Map<string, number>(
  Object.entries({ s: 1, sec: 1, second: 1, min: 60, minute: 60, h: 3600, hour: 3600, d: 86400, day: 86400 }),
);

/** Whether a comment is a `@cqlint` hint comment (well-formed or not). */
export function isHintComment(comment: Comment): boolean {
  return /^@cqlint\b/i.test(comment.value.trim());
}

function parseNumber(text: string): number | undefined {
  const plain = text.replace(/_/g, '');
  return /^\d+(\.\d+)?$/.test(plain) ? Number(plain) : undefined;
}

/** A `rate=` (`writes=`, `reads=`) value as a hint comment states it (`50/s`, `2/min`, `1/h`, `3`): per second. */
export function parseRateValue(value: string): number | undefined {
  const rm = /^([^/]+)(?:\/(\w+))?$/.exec(value);
  const n = rm ? parseNumber(rm[1]!) : undefined;
  const per = rm?.[2] ? PER_UNIT.get(rm[2].toLowerCase()) : 1;
  return n === undefined || per === undefined ? undefined : n / per;
}

/** Parses one `@cqlint` comment: the hints it sets and an error per pair it cannot use. */
function parseHintComment(comment: Comment): HintCommentResult | undefined {
  const m = /^@cqlint\b/i.exec(comment.value);
  const valueIndex = comment.text.indexOf(comment.value);
  if (!m || valueIndex < 0) return undefined;
  const hints: TableHints = {};
  const errors: HintCommentError[] = [];
  const rangeOf = (from: number, to: number): SourceRange => ({
    start: comment.range.start + valueIndex + from,
    end: comment.range.start + valueIndex + Math.max(to, from + 1),
  });
  const pairs = /\S+/g;
  pairs.lastIndex = m[0].length;
  let found = 0;
  for (let pair = pairs.exec(comment.value); pair; pair = pairs.exec(comment.value)) {
    found++;
    const text = pair[0];
    const from = pair.index;
    const fail = (message: string): void => {
      errors.push({ message: `@cqlint: ${message}`, range: rangeOf(from, from + text.length) });
    };
    const eq = text.indexOf('=');
    if (eq <= 0 || eq === text.length - 1) {
      fail(`'${text}' is not a key=value pair; ${USAGE}`);
      continue;
    }
    const key = text.slice(0, eq);
    const value = text.slice(eq + 1);
    const lower = key.toLowerCase();
    if (lower === 'rate' || lower === 'writes' || lower === 'reads') {
      const perSecond = parseRateValue(value);
      if (perSecond === undefined) {
        fail(
          `${key} must be a number of rows per second, minute, hour or day (e.g. ${key}=50/s or ${key}=2/min), got '${value}'`,
        );
        continue;
      }
      if (lower === 'rate') hints.rowsPerSecondPerPartition = perSecond;
      else if (lower === 'writes') hints.writesPerSecondPerPartition = perSecond;
      else hints.readsPerSecondPerPartition = perSecond;
      continue;
    }
    if (lower === 'rows') {
      const n = parseNumber(value);
      if (n === undefined)
        fail(`rows must be the number of rows in the largest partition (e.g. rows=2000000), got '${value}'`);
      else hints.rowsPerPartition = n;
      continue;
    }
    const dot = key.lastIndexOf('.');
    const column = dot > 0 ? key.slice(0, dot) : '';
    const fact = dot > 0 ? key.slice(dot + 1).toLowerCase() : '';
    if (fact === 'distinct') {
      const n = parseNumber(value);
      if (n === undefined || !Number.isInteger(n) || n < 1)
        fail(`${key} must be a whole number of distinct values >= 1, got '${value}'`);
      else (hints.columns ??= nameRecord())[column] = { ...ownEntry(hints.columns, column), distinct: n };
      continue;
    }
    if (fact === 'bytes') {
      const n = parseNumber(value);
      if (n === undefined) fail(`${key} must be the column's average size in bytes, got '${value}'`);
      else (hints.columnSizes ??= nameRecord())[column] = n;
      continue;
    }
    fail(`unknown hint '${key}'; ${USAGE}`);
  }
  if (!found) errors.push({ message: `@cqlint: no hints; ${USAGE}`, range: rangeOf(0, m[0].length) });
  return { comment, hints, errors };
}

/** The `@cqlint` comments directly above a CREATE TABLE at `offset`, parsed (several lines merge, later ones win). */
export function hintCommentsAbove(comments: readonly Comment[], text: string, offset: number): HintCommentResult[] {
  const out: HintCommentResult[] = [];
  for (const comment of commentsDirectlyAbove(comments, text, offset)) {
    if (!isHintComment(comment)) continue;
    const parsed = parseHintComment(comment);
    if (parsed) out.push(parsed);
  }
  return out;
}

/** The hints the `@cqlint` comments above a table set (valid pairs only), or undefined when there are none. */
export function hintsAbove(comments: readonly Comment[], text: string, offset: number): TableHints | undefined {
  const found = hintCommentsAbove(comments, text, offset);
  if (!found.length) return undefined;
  const hints: TableHints = {};
  for (const f of found) {
    for (const [k, v] of Object.entries(f.hints)) {
      if (k === 'columns' || k === 'columnSizes')
        Object.assign(((hints as Record<string, object>)[k] ??= nameRecord()), v);
      else (hints as Record<string, unknown>)[k] = v;
    }
  }
  return hints;
}

/** How a key change divides the per-partition figures its table's hints state (a shard count, for each kind). */
export interface HintScale {
  /** `rate=` and `writes=`: rows and writes arrive in one of N partitions. */
  writes?: number;
  /** `reads=`: point reads find one of N partitions (reads of whole partitions visit them all: 1). */
  reads?: number;
  /** `rows=`: a partition holds a Nth of the rows. */
  rows?: number;
}

const SCALED_KEYS: Record<string, keyof HintScale> = { rate: 'writes', writes: 'writes', reads: 'reads', rows: 'rows' };

/** A figure as a hint writes it: whole numbers as they are, others to three significant digits, never in exponent form. */
function hintNumber(n: number): string {
  if (Number.isInteger(n)) return String(n);
  const short = Number(n.toPrecision(3));
  const text = String(short);
  return text.includes('e') ? short.toFixed(12).replace(/0+$/, '') : text;
}

/**
 * Edits that divide the per-partition figures of the `@cqlint` comments above a table by `scale`, keeping
 * each pair's unit (`writes=3000/s` over 4 shards: `writes=750/s`; `rows=2000000`: `rows=500000`): after a
 * key change the hints describe the new, smaller partitions.
 */
export function scaledHintEdits(
  comments: readonly Comment[],
  text: string,
  offset: number,
  scale: HintScale,
): { start: number; end: number; newText: string }[] {
  const edits: { start: number; end: number; newText: string }[] = [];
  for (const comment of commentsDirectlyAbove(comments, text, offset)) {
    if (!isHintComment(comment)) continue;
    const valueIndex = comment.text.indexOf(comment.value);
    if (valueIndex < 0) continue;
    const pairs = /(\w+)=([^\s/]+)(\/\w+)?/g;
    for (let pair = pairs.exec(comment.value); pair; pair = pairs.exec(comment.value)) {
      const kind = SCALED_KEYS[pair[1]!.toLowerCase()];
      const divisor = kind ? scale[kind] : undefined;
      const n = parseNumber(pair[2]!);
      if (!divisor || divisor === 1 || n === undefined) continue;
      const scaled = kind === 'rows' ? Math.ceil(n / divisor) : n / divisor;
      const start = comment.range.start + valueIndex + pair.index + pair[1]!.length + 1;
      edits.push({ start, end: start + pair[2]!.length, newText: hintNumber(scaled) });
    }
  }
  return edits;
}
