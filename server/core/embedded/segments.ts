// The segments of an embedded document's CQL text: where each run of it came from, and what the edit mapping
// needs of each statement. Shared by document.ts (which builds them) and host-edits.ts (which writes through them).
import type { TextPart } from './value';

/** Where a run of the CQL text came from. */
export type Segment =
  | { kind: 'text'; cqlStart: number; cqlEnd: number; statement: number; part: TextPart }
  | { kind: 'hole' | 'synth'; cqlStart: number; cqlEnd: number; statement: number; hostStart: number; hostEnd: number };

/** What the edit mapping needs of a statement beyond the public fields. */
export interface StatementLayout {
  /** The statement's own text in the CQL text (its literals and placeholders), without what cqlint adds after it. */
  textStart: number;
  textEnd: number;
  /** The end of what cqlint adds after it (`;` and the line break). */
  regionEnd: number;
  /** Host offsets above whose lines a bind comment goes: each call site, or the expression. */
  commentAt: number[];
  /** Writes CQL `?` and `%` the way the driver's parameters read them (Python `%s`, Spring `?0`). */
  encodeParameters?: (text: string) => string;
}

/** The index of the last item whose key is at or before `value` (items sorted by key), or -1. */
export function lastAtOrBefore<T>(items: readonly T[], value: number, keyOf: (item: T) => number): number {
  let lo = 0;
  let hi = items.length - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (keyOf(items[mid]!) <= value) {
      found = mid;
      lo = mid + 1;
    } else {
      hi = mid - 1;
    }
  }
  return found;
}
