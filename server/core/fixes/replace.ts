// Fixes that replace one piece of text with a known right one: a wrong shard literal with the computed
// value, a misspelt column with the close match.
import type { ParseResult, SourceRange } from '../../../grammar/ast';
import { quoteName } from '../util/names';
import type { Fix } from './types';

/** Replace the shard literal at `range` with `expected` (the value the annotation's formula gives). */
export function shardValueFix(text: string, range: SourceRange, expected: number, column?: string): Fix[] {
  if (!Number.isInteger(expected)) return [];
  const current = text.slice(range.start, range.end);
  // Only a plain integer literal is replaced; anything else (a bind marker, an expression) is not ours to rewrite.
  if (!/^[+-]?\d+$/.test(current.trim()) || Number(current) === expected) return [];
  return [
    {
      title: `Change ${column ? `${quoteName(column)} ` : 'the shard '}to ${expected}`,
      kind: 'quickfix',
      isPreferred: true,
      safeForFixAll: true,
      edits: [{ start: range.start, end: range.end, newText: String(expected) }],
    },
  ];
}

/**
 * Rename the column name at `range` to `suggestion` (a name as Cassandra sees it; written quoted
 * when it needs quotes). Safe for fix-all only when it is the single close match.
 */
export function renameColumnFix(
  text: string,
  _parse: ParseResult,
  range: SourceRange,
  suggestion: string,
  single: boolean,
): Fix[] {
  const current = text.slice(range.start, range.end);
  const newText = quoteName(suggestion);
  if (!current || current === newText) return [];
  return [
    {
      title: `Change to ${newText}`,
      kind: 'quickfix',
      isPreferred: single,
      safeForFixAll: single,
      edits: [{ start: range.start, end: range.end, newText }],
    },
  ];
}

/**
 * Replace the unknown rule id a suppression comment names (`hot-partiton`) with the close one cqlint has:
 * the comment then suppresses what it was written for. Safe for fix-all: the id is the nearest one within
 * a few letters, and only the id changes.
 */
export function suppressionIdFix(text: string, range: SourceRange, id: string, suggestion: string): Fix[] {
  if (text.slice(range.start, range.end) !== id) return [];
  return [
    {
      title: `Change "${id}" to "${suggestion}"`,
      kind: 'quickfix',
      isPreferred: true,
      safeForFixAll: true,
      edits: [{ start: range.start, end: range.end, newText: suggestion }],
    },
  ];
}
