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
