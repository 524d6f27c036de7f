// Compares ASTs modulo source ranges: the formatter's proof that it changed layout, not meaning.
import type { ParseResult, Statement } from '../../../grammar/ast';

function isRangeKey(key: string): boolean {
  return key === 'range' || key.endsWith('Range');
}

/** A copy of any AST value without its ranges (`range`, `whereRange`, `bodyRange`, ...). */
export function stripRanges(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(stripRanges);
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value).sort()) {
      if (isRangeKey(key)) continue;
      const v = (value as Record<string, unknown>)[key];
      if (v === undefined) continue;
      out[key] = stripRanges(v);
    }
    return out;
  }
  return value;
}

export function sameStatement(a: Statement, b: Statement): boolean {
  return JSON.stringify(stripRanges(a)) === JSON.stringify(stripRanges(b));
}

/** The first difference between two values modulo ranges, as a path (`statements[3].where[0].operator`), or undefined. */
function firstDifference(a: unknown, b: unknown, path = ''): string | undefined {
  const sa = stripRanges(a);
  const sb = stripRanges(b);
  const walk = (x: unknown, y: unknown, p: string): string | undefined => {
    if (x === y) return undefined;
    if (Array.isArray(x) && Array.isArray(y)) {
      if (x.length !== y.length) return `${p} (length ${x.length} vs ${y.length})`;
      for (let i = 0; i < x.length; i++) {
        const d = walk(x[i], y[i], `${p}[${i}]`);
        if (d) return d;
      }
      return undefined;
    }
    if (x && y && typeof x === 'object' && typeof y === 'object') {
      const keys = new Set([...Object.keys(x), ...Object.keys(y)]);
      for (const k of keys) {
        const d = walk((x as Record<string, unknown>)[k], (y as Record<string, unknown>)[k], p ? `${p}.${k}` : k);
        if (d) return d;
      }
      return undefined;
    }
    return `${p}: ${JSON.stringify(x)} vs ${JSON.stringify(y)}`;
  };
  return walk(sa, sb, path);
}

/**
 * True when two parses mean the same: same statements modulo ranges, same comment texts in order,
 * same number of syntax errors.
 */
export function sameMeaning(a: ParseResult, b: ParseResult): boolean {
  return describeMeaningDifference(a, b) === undefined;
}

export function describeMeaningDifference(a: ParseResult, b: ParseResult): string | undefined {
  const d = firstDifference(a.statements, b.statements, 'statements');
  if (d) return d;
  const ca = a.comments.map((c) => c.text);
  const cb = b.comments.map((c) => c.text);
  if (ca.length !== cb.length) return `comments: ${ca.length} vs ${cb.length}`;
  for (let i = 0; i < ca.length; i++)
    if (ca[i] !== cb[i]) return `comments[${i}]: ${JSON.stringify(ca[i])} vs ${JSON.stringify(cb[i])}`;
  if (a.errors.length !== b.errors.length) return `errors: ${a.errors.length} vs ${b.errors.length}`;
  return undefined;
}
