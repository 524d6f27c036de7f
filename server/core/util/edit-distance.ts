// Edit distance for "did you mean" suggestions.
/**
 * Optimal string alignment distance (Levenshtein plus adjacent transpositions), for small strings.
 * Transpositions count as one edit because swapped letters (`titel`) are the commonest typo.
 */
export function editDistance(a: string, b: string): number {
  const rows = a.length + 1;
  const cols = b.length + 1;
  const d: number[] = new Array(rows * cols);
  for (let i = 0; i < rows; i++) d[i * cols] = i;
  for (let j = 0; j < cols; j++) d[j] = j;
  for (let i = 1; i < rows; i++) {
    for (let j = 1; j < cols; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(d[(i - 1) * cols + j]! + 1, d[i * cols + j - 1]! + 1, d[(i - 1) * cols + j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        best = Math.min(best, d[(i - 2) * cols + j - 2]! + 1);
      }
      d[i * cols + j] = best;
    }
  }
  return d[rows * cols - 1]!;
}

/** The option nearest to `word` (case-insensitive; the first of equals wins) and its distance. */
export function nearest(word: string, options: Iterable<string>): { best: string; distance: number } | undefined {
  const lower = word.toLowerCase();
  let found: { best: string; distance: number } | undefined;
  for (const option of options) {
    const distance = editDistance(lower, option.toLowerCase());
    if (!found || distance < found.distance) found = { best: option, distance };
  }
  return found;
}
