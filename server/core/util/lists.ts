// Small list helpers the schema model, its builder and the rules' keys share.

/** Adds `value` to the list `map` keeps for `key`, making the list on the first one. */
export function addTo<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

/** How many of `sorted`'s items (ascending by `offsetOf`) come before `offset`: a binary search. */
export function countBefore<T>(sorted: readonly T[], offset: number, offsetOf: (item: T) => number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (offsetOf(sorted[mid]!) < offset) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * How many items two lists share at their head and at their tail, by identity (the tail not overlapping the
 * head): what lies between is what changed. An incremental parse keeps the statements an edit did not touch
 * (and what is made from them) as the same objects, so this finds the edited part with pointer compares.
 */
export function commonEnds<T>(before: readonly T[], after: readonly T[]): { head: number; tail: number } {
  let head = 0;
  while (head < before.length && head < after.length && before[head] === after[head]) head++;
  let tail = 0;
  while (
    tail < before.length - head &&
    tail < after.length - head &&
    before[before.length - 1 - tail] === after[after.length - 1 - tail]
  )
    tail++;
  return { head, tail };
}
