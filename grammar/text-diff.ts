// Where two versions of a text differ: their common prefix and suffix (the incremental parse and the
// statement-size scan of an edited document resume from them).

// Block compares first (string equality runs in native code), then char by char inside the differing block.
const COMPARE_BLOCK = 2048;

/** How many characters a and b share at their start. */
export function commonPrefixLength(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i + COMPARE_BLOCK <= n && a.slice(i, i + COMPARE_BLOCK) === b.slice(i, i + COMPARE_BLOCK)) i += COMPARE_BLOCK;
  while (i < n && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return i;
}

/** How many characters a and b share at their end, at most `limit` (what their common prefix leaves). */
export function commonSuffixLength(a: string, b: string, limit: number): number {
  let k = 0;
  while (
    k + COMPARE_BLOCK <= limit &&
    a.slice(a.length - k - COMPARE_BLOCK, a.length - k) === b.slice(b.length - k - COMPARE_BLOCK, b.length - k)
  )
    k += COMPARE_BLOCK;
  while (k < limit && a.charCodeAt(a.length - 1 - k) === b.charCodeAt(b.length - 1 - k)) k++;
  return k;
}
