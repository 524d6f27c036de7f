// Names a fix or a plan adds to a table must not collide with the names already there.
import type { Identifier } from '../../../grammar/ast';

/** A column name compared the way a free name must be: case-insensitively, to avoid look-alikes. */
export function sameName(a: string, b: string): boolean {
  return a.toLowerCase() === b.toLowerCase();
}

/**
 * The first of `candidates` that no existing name uses (in `taken`, or by `isTaken`), else the first
 * with a number appended.
 */
export function freeName(
  candidates: readonly string[],
  taken: readonly (Identifier | string)[],
  isTaken?: (name: string) => boolean,
): string {
  const names = taken.map((t) => (typeof t === 'string' ? t : t.name));
  const isFree = (n: string) => !names.some((t) => sameName(t, n)) && !isTaken?.(n);
  for (const candidate of candidates) if (isFree(candidate)) return candidate;
  for (let i = 2; ; i++) {
    const numbered = `${candidates[0]}${i}`;
    if (isFree(numbered)) return numbered;
  }
}
