// Fixes that replace one piece of text with a known right one: a wrong shard literal with the computed
// value, a misspelt column with the close match, an unused suppression comment with nothing.
import type { Comment, ParseResult, SourceRange } from '../../../grammar/ast';
import { suppressionDirectives, type UnusedDirectiveData } from '../findings/suppression';
import { quoteName } from '../util/names';
import type { Fix, TextEdit } from './types';

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

/**
 * Remove what an unused-directive finding names (findings/suppression.ts): the id at `range` with the comma
 * and blanks between it and its neighbour, or, when nothing else in the comment silences anything, the whole
 * comment (its line too, when it stood alone there). Nothing else is touched: a description after ` -- `
 * stays with the ids that remain.
 */
export function unusedDirectiveFix(
  text: string,
  comments: readonly Comment[],
  range: SourceRange,
  data: UnusedDirectiveData,
): Fix[] {
  const comment = comments.find((c) => c.range.start <= range.start && range.end <= c.range.end);
  const found = comment && suppressionDirectives([comment])[0];
  if (!comment || found?.directive !== data.directive) return [];
  let edit: TextEdit;
  let title: string;
  if (data.removes === 'id') {
    const i = found.rules.findIndex((r) => r.start === range.start && r.id === data.id);
    const next = found.rules[i + 1];
    const previous = found.rules[i - 1];
    // The last id of a comment is never removed alone: the comment would then silence every rule.
    if (i < 0 || (!next && !previous)) return [];
    edit = next
      ? { start: found.rules[i]!.start, end: next.start, newText: '' }
      : { start: previous!.end, end: found.rules[i]!.end, newText: '' };
    title = `Remove '${data.id}' from the ${data.directive} comment`;
  } else {
    edit = commentRemoval(text, comment.range);
    title = `Remove the unused ${data.directive} comment`;
  }
  return [{ title, kind: 'quickfix', isPreferred: true, safeForFixAll: true, edits: [edit] }];
}

/** A comment removed: with its line when nothing else is on it, else with the blanks that set it apart. */
function commentRemoval(text: string, range: SourceRange): TextEdit {
  const lineStart = text.lastIndexOf('\n', range.start - 1) + 1;
  const newline = text.indexOf('\n', range.end);
  const lineEnd = newline < 0 ? text.length : newline;
  const before = text.slice(lineStart, range.start);
  const after = text.slice(range.end, lineEnd);
  if (!before.trim() && !after.trim())
    return { start: lineStart, end: newline < 0 ? lineEnd : newline + 1, newText: '' };
  if (!after.trim()) {
    let start = range.start;
    while (start > lineStart && (text[start - 1] === ' ' || text[start - 1] === '\t')) start--;
    return { start, end: range.end, newText: '' };
  }
  let end = range.end;
  while (end < lineEnd && (text[end] === ' ' || text[end] === '\t')) end++;
  return { start: range.start, end, newText: '' };
}
