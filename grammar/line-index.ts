// The one offset <-> line conversion of the engine (grammar and server/core): a line ends at LF, CRLF or a
// lone CR, as in Chevrotain's line tracking. Positions are 0-based lines and UTF-16 characters (LSP's
// convention); `location` and `locate` give the 1-based positions that findings carry and the CLI prints.
// The LSP layer uses TextDocument for open documents.
import type { SourceRange } from './ast';
import { commonPrefixLength, commonSuffixLength } from './text-diff';

/** A point in the source as shown to people: `offset` is 0-based (UTF-16 code units); `line` and `column` are 1-based. */
export interface SourceLocation {
  offset: number;
  line: number;
  column: number;
}

/** A SourceRange with its lines and columns: what a finding carries. */
export interface LocatedRange {
  start: SourceLocation;
  end: SourceLocation;
}

/** A located range's offsets. */
export function offsetsOf(range: LocatedRange): SourceRange {
  return { start: range.start.offset, end: range.end.offset };
}

interface Position {
  line: number;
  character: number;
}

/**
 * Where the offsets of a CQL text show to people. For a CQL file, its own lines (a LineIndex); for the CQL read
 * out of application code, the host file's lines (server/core/embedded). Offsets stay offsets into the CQL text
 * (the AST's); lines, columns and positions are where they show.
 */
export interface SourcePositions {
  /** The 1-based line and column where `offset` shows; `offset` itself is kept as it is (clamped). */
  location(offset: number): SourceLocation;
  /** A range's 1-based lines and columns. */
  locate(range: SourceRange): LocatedRange;
  /** LSP's 0-based position of `offset`. */
  positionAt(offset: number): Position;
  /** The offset shown at an LSP position; undefined where the position shows none of the text (host code around the CQL). */
  offsetAt(position: Position): number | undefined;
}

export class LineIndex implements SourcePositions {
  /** Offset of the first character of every line. */
  readonly lineStarts: number[];

  constructor(
    readonly text: string,
    /** The line starts, when the caller has them already (LineIndex.edited). */
    known?: number[],
  ) {
    if (known) {
      this.lineStarts = known;
      return;
    }
    const starts = [0];
    if (text.indexOf('\r') < 0) {
      // LF only (most texts): the native search is several times faster than a loop over the characters.
      for (let at = text.indexOf('\n'); at >= 0; at = text.indexOf('\n', at + 1)) starts.push(at + 1);
      this.lineStarts = starts;
      return;
    }
    for (let i = 0; i < text.length; i++) {
      const ch = text.charCodeAt(i);
      if (ch === 13 /* \r */) {
        if (text.charCodeAt(i + 1) === 10) i++;
        starts.push(i + 1);
      } else if (ch === 10 /* \n */) {
        starts.push(i + 1);
      }
    }
    this.lineStarts = starts;
  }

  /**
   * The index of `text`, an edit of the text `previous` indexes: the line starts before the edit and after it
   * are taken from `previous` (those after it moved by the edit's change of length), and only the edited part
   * is read (an editor's keystroke in a 10,000-line file reads a few characters, not every line). The same
   * starts as `new LineIndex(text)`.
   */
  static edited(previous: LineIndex, text: string): LineIndex {
    const before = previous.text;
    const prefix = commonPrefixLength(before, text);
    const suffix = commonSuffixLength(before, text, Math.min(before.length, text.length) - prefix);
    // A text replaced rather than edited is read by the constructor's native search.
    if (text.length - suffix - prefix > text.length / 2) return new LineIndex(text);
    const old = previous.lineStarts;
    const delta = text.length - before.length;
    // A line starts at q when the character before it ends a line: a '\n', or a '\r' that no '\n' follows.
    // Its two characters are in the common prefix for q <= prefix - 1 (the same start as before), in the
    // common suffix for q >= text.length - suffix + 1 (the start before, moved by delta); the rest are read.
    const starts = [0];
    let i = 1;
    while (i < old.length && old[i]! <= prefix - 1) starts.push(old[i++]!);
    const middleEnd = text.length - suffix;
    for (let q = Math.max(1, prefix); q <= middleEnd; q++) {
      const ch = text.charCodeAt(q - 1);
      if (ch === 10 /* \n */ || (ch === 13 /* \r */ && text.charCodeAt(q) !== 10)) starts.push(q);
    }
    const kept = before.length - suffix + 1;
    let j = old.length;
    while (j > 1 && old[j - 1]! >= kept) j--;
    for (; j < old.length; j++) starts.push(old[j]! + delta);
    return new LineIndex(text, starts);
  }

  get lineCount(): number {
    return this.lineStarts.length;
  }

  /** 0-based line containing `offset`. */
  lineAt(offset: number): number {
    const starts = this.lineStarts;
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid] <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  positionAt(offset: number): Position {
    const clamped = Math.max(0, Math.min(offset, this.text.length));
    const line = this.lineAt(clamped);
    return { line, character: clamped - this.lineStarts[line] };
  }

  /** The AST's 1-based location of `offset` (clamped into the text). */
  location(offset: number): SourceLocation {
    const clamped = Math.max(0, Math.min(offset, this.text.length));
    const line = this.lineAt(clamped);
    return { offset: clamped, line: line + 1, column: clamped - this.lineStarts[line] + 1 };
  }

  /** A range's 1-based lines and columns in this text. */
  locate(range: SourceRange): LocatedRange {
    return { start: this.location(range.start), end: this.location(range.end) };
  }

  offsetAt(position: Position): number {
    if (position.line < 0) return 0;
    if (position.line >= this.lineStarts.length) return this.text.length;
    const start = this.lineStarts[position.line];
    const end = this.lineEnd(position.line);
    return Math.min(start + Math.max(0, position.character), end);
  }

  /** Offset of the end of the line's content (before its line break). */
  lineEnd(line: number): number {
    const next = line + 1 < this.lineStarts.length ? this.lineStarts[line + 1] : this.text.length;
    let end = next;
    if (end > this.lineStarts[line] && this.text.charCodeAt(end - 1) === 10) end--;
    if (end > this.lineStarts[line] && this.text.charCodeAt(end - 1) === 13) end--;
    return end;
  }
}
