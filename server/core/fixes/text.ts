// Text helpers for fixes: applying edits and reading the layout (indentation, line endings) that
// added lines must follow so that a fix never reformats what it does not touch.
import type { TextEdit } from './types';

/** Edits sorted by position; throws when two edits overlap (a bug in a fix, never user input). */
export function sortEdits(edits: readonly TextEdit[]): TextEdit[] {
  const sorted = edits
    .map((edit, index) => ({ edit, index }))
    // Insertions at the same offset keep their given order.
    .sort((a, b) => a.edit.start - b.edit.start || a.edit.end - b.edit.end || a.index - b.index)
    .map(({ edit }) => edit);
  for (let i = 1; i < sorted.length; i++) {
    if (sorted[i].start < sorted[i - 1].end) {
      throw new Error(
        `overlapping edits at ${sorted[i - 1].start}-${sorted[i - 1].end} and ${sorted[i].start}-${sorted[i].end}`,
      );
    }
  }
  return sorted;
}

/** Applies non-overlapping edits (offsets into `text`), from the end so earlier offsets stay valid. */
export function applyEdits(text: string, edits: readonly TextEdit[]): string {
  const sorted = sortEdits(edits);
  for (const edit of sorted) {
    if (edit.start < 0 || edit.end > text.length || edit.start > edit.end) {
      throw new Error(`edit ${edit.start}-${edit.end} is outside the text (length ${text.length})`);
    }
  }
  let result = text;
  for (let i = sorted.length - 1; i >= 0; i--) {
    const { start, end, newText } = sorted[i];
    result = result.slice(0, start) + newText + result.slice(end);
  }
  return result;
}

/** True when no edit of `a` overlaps an edit of `b` (touching insertions at one point count as overlapping). */
export function editsConflict(a: readonly TextEdit[], b: readonly TextEdit[]): boolean {
  return a.some((x) => b.some((y) => (x.start === y.start && x.end === y.end) || (x.start < y.end && y.start < x.end)));
}

export function lineStart(text: string, offset: number): number {
  let i = offset;
  while (i > 0 && text[i - 1] !== '\n' && text[i - 1] !== '\r') i--;
  return i;
}

/** Offset of the line break ending the line that holds `offset` (or the text's length). */
function lineEnd(text: string, offset: number): number {
  let i = offset;
  while (i < text.length && text[i] !== '\n' && text[i] !== '\r') i++;
  return i;
}

/** The spaces and tabs that start the line holding `offset`. */
export function indentAt(text: string, offset: number): string {
  const start = lineStart(text, offset);
  let i = start;
  while (i < text.length && (text[i] === ' ' || text[i] === '\t')) i++;
  return text.slice(start, i);
}

/** True when only spaces and tabs stand between the start of the line and `offset`. */
export function startsLine(text: string, offset: number): boolean {
  return text.slice(lineStart(text, offset), offset).trim() === '';
}

/** The line break used at the end of the line holding `offset`, else the file's first, else `\n`. */
export function lineBreakAt(text: string, offset: number): string {
  const end = lineEnd(text, offset);
  if (text.startsWith('\r\n', end)) return '\r\n';
  if (text[end] === '\n') return '\n';
  if (text[end] === '\r') return '\r';
  const first = /\r\n|\n|\r/.exec(text);
  return first ? first[0] : '\n';
}

/**
 * What follows `offset` on its line, when it is nothing but an optional comma, spaces and comments
 * (e.g. `, -- note`): returns whether a comma is there and where the line ends. Undefined when code
 * follows on the same line.
 */
export function restOfLineAfter(
  text: string,
  offset: number,
): { comma: boolean; commaOffset: number; lineEnd: number } | undefined {
  let i = offset;
  let comma = false;
  let commaOffset = -1;
  for (;;) {
    while (i < text.length && (text[i] === ' ' || text[i] === '\t')) i++;
    if (i >= text.length || text[i] === '\n' || text[i] === '\r') return { comma, commaOffset, lineEnd: i };
    if (text[i] === ',' && !comma) {
      comma = true;
      commaOffset = i;
      i++;
      continue;
    }
    if (text.startsWith('--', i) || text.startsWith('//', i)) return { comma, commaOffset, lineEnd: lineEnd(text, i) };
    if (text.startsWith('/*', i)) {
      const close = text.indexOf('*/', i + 2);
      if (close < 0) return undefined;
      const body = text.slice(i, close + 2);
      if (/[\r\n]/.test(body)) return undefined;
      i = close + 2;
      continue;
    }
    return undefined;
  }
}
