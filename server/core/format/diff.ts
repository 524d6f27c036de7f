// A unified diff (`diff -u`, what `git apply` and `patch` read) of a text and its rewrite, built from the
// rewrite's edits as they come (formatPieces), so that a large file's diff never needs a line-by-line
// comparison. A hunk holds offsets into the original and the new text only: a file reformatted throughout
// (one hunk) costs about its new text, not the diff's. Lines end at `\n` (a `\r` before it is part of the
// line, as diff sees it).

/** Lines of context around each change, as `diff -u`. */
const CONTEXT = 3;
/** Output is written in chunks of about this many characters. */
const WRITE_CHARS = 64 * 1024;

/** Part of a hunk: original lines (context or removed), or new text (added lines). */
type HunkPart = { mark: ' ' | '-'; start: number; end: number } | { mark: '+'; text: string };

interface Region {
  /** Offsets of whole original lines: `start` at a line start, `end` after a `\n` (or the end of the text). */
  start: number;
  end: number;
  /** 0-based line of `start`. */
  line: number;
  edits: { start: number; end: number; text: string }[];
}

interface Hunk {
  /** 0-based first original and new lines. */
  oldStart: number;
  newStart: number;
  oldCount: number;
  newCount: number;
  parts: HunkPart[];
  /** 0-based original line after the last one the hunk holds, and the offset where it starts. */
  oldEnd: number;
  oldEndOffset: number;
}

/** Lines in a text (the last one may lack its `\n`). */
function lineCount(text: string, start = 0, end = text.length): number {
  let count = 0;
  for (let at = text.indexOf('\n', start); at >= 0 && at < end; at = text.indexOf('\n', at + 1)) count++;
  return end > start && text.charCodeAt(end - 1) !== 10 ? count + 1 : count;
}

export class UnifiedDiff {
  /** Where line counting has got to: an offset at a line start, and its 0-based line. */
  private counted = 0;
  private countedLine = 0;
  private region?: Region;
  private hunk?: Hunk;
  /** New lines minus old lines of the regions before the current one. */
  private delta = 0;
  private written = false;
  private buffer = '';

  constructor(
    private readonly original: string,
    private readonly header: { from: string; to: string },
    private readonly write: (text: string) => void,
  ) {}

  /** An edit of the original: replace [start, end) by `text`. Edits come in order and do not overlap. */
  edit(start: number, end: number, text: string): void {
    if (end - start === text.length && this.original.startsWith(text, start)) return;
    const lineStart = this.lineStartOf(start);
    const newline = this.original.indexOf('\n', end > start ? end - 1 : start);
    const lineEnd = newline < 0 ? this.original.length : newline + 1;
    if (this.region && lineStart < this.region.end) {
      this.region.end = Math.max(this.region.end, lineEnd);
      this.region.edits.push({ start, end, text });
      return;
    }
    if (this.region) this.flushRegion(this.region);
    this.region = { start: lineStart, end: lineEnd, line: this.lineOf(lineStart), edits: [{ start, end, text }] };
  }

  /** Writes what is left; true when the texts differ (something was written). */
  end(): boolean {
    if (this.region) this.flushRegion(this.region);
    this.region = undefined;
    if (this.hunk) this.flushHunk(this.hunk, CONTEXT);
    this.hunk = undefined;
    if (this.buffer) this.write(this.buffer);
    this.buffer = '';
    return this.written;
  }

  /** The start of the line holding `offset` (lastIndexOf reads a negative start as 0: not what is meant). */
  private lineStartOf(offset: number): number {
    return offset <= 0 ? 0 : this.original.lastIndexOf('\n', offset - 1) + 1;
  }

  /** 0-based line of a line-start offset at or after the last one asked for. */
  private lineOf(offset: number): number {
    for (
      let at = this.original.indexOf('\n', this.counted);
      at >= 0 && at < offset;
      at = this.original.indexOf('\n', at + 1)
    )
      this.countedLine++;
    this.counted = offset;
    return this.countedLine;
  }

  /** The offset `count` lines (at most) before the line start `offset`. */
  private linesBack(offset: number, count: number): number {
    for (let i = 0; i < count && offset > 0; i++) offset = this.lineStartOf(offset - 1);
    return offset;
  }

  /** The offset `count` lines (at most) after the line start `offset`. */
  private linesForward(offset: number, count: number): number {
    for (let i = 0; i < count && offset < this.original.length; i++) {
      const newline = this.original.indexOf('\n', offset);
      offset = newline < 0 ? this.original.length : newline + 1;
    }
    return offset;
  }

  private addContext(hunk: Hunk, start: number, end: number): void {
    if (end <= start) return;
    const lines = lineCount(this.original, start, end);
    hunk.parts.push({ mark: ' ', start, end });
    hunk.oldCount += lines;
    hunk.newCount += lines;
  }

  private flushRegion(region: Region): void {
    let rewritten = '';
    let at = region.start;
    for (const edit of region.edits) {
      rewritten += this.original.slice(at, edit.start) + edit.text;
      at = edit.end;
    }
    rewritten += this.original.slice(at, region.end);
    const oldLines = lineCount(this.original, region.start, region.end);
    const newLines = lineCount(rewritten);
    let hunk = this.hunk;
    const gap = hunk ? region.line - hunk.oldEnd : Number.POSITIVE_INFINITY;
    if (hunk && gap <= 2 * CONTEXT) {
      // Close enough to the hunk before: the lines between are its context.
      this.addContext(hunk, hunk.oldEndOffset, region.start);
    } else {
      if (hunk) this.flushHunk(hunk, CONTEXT);
      const contextStart = this.linesBack(region.start, CONTEXT);
      const before = lineCount(this.original, contextStart, region.start);
      hunk = this.hunk = {
        oldStart: region.line - before,
        newStart: region.line - before + this.delta,
        oldCount: 0,
        newCount: 0,
        parts: [],
        oldEnd: region.line,
        oldEndOffset: region.start,
      };
      this.addContext(hunk, contextStart, region.start);
    }
    hunk.parts.push({ mark: '-', start: region.start, end: region.end }, { mark: '+', text: rewritten });
    hunk.oldCount += oldLines;
    hunk.newCount += newLines;
    hunk.oldEnd = region.line + oldLines;
    hunk.oldEndOffset = region.end;
    this.delta += newLines - oldLines;
  }

  private flushHunk(hunk: Hunk, trailing: number): void {
    this.addContext(hunk, hunk.oldEndOffset, this.linesForward(hunk.oldEndOffset, trailing));
    if (!this.written) this.out(`--- ${this.header.from}\n+++ ${this.header.to}\n`);
    this.written = true;
    // diff -u numbers lines from 1; an empty side names the line before it.
    const range = (start: number, count: number): string =>
      `${count === 0 ? start : start + 1}${count === 1 ? '' : `,${count}`}`;
    this.out(`@@ -${range(hunk.oldStart, hunk.oldCount)} +${range(hunk.newStart, hunk.newCount)} @@\n`);
    for (const part of hunk.parts) {
      if (part.mark === '+') this.lines('+', part.text, 0, part.text.length);
      else this.lines(part.mark, this.original, part.start, part.end);
    }
  }

  /** The lines of text[start, end), each after its mark, with diff's note on a last line without `\n`. */
  private lines(mark: string, text: string, start: number, end: number): void {
    while (start < end) {
      const newline = text.indexOf('\n', start);
      const lineEnd = newline < 0 || newline >= end ? end : newline + 1;
      this.out(mark + text.slice(start, lineEnd));
      if (text.charCodeAt(lineEnd - 1) !== 10) this.out('\n\\ No newline at end of file\n');
      start = lineEnd;
    }
  }

  private out(text: string): void {
    this.buffer += text;
    if (this.buffer.length >= WRITE_CHARS) {
      this.write(this.buffer);
      this.buffer = '';
    }
  }
}

/** The unified diff that creates a file with `text` (`--- /dev/null`), as git apply and patch -p1 read it. */
export function newFileDiff(text: string, shown: string, write: (chunk: string) => void): void {
  const diff = new UnifiedDiff('', { from: '/dev/null', to: `b/${shown}` }, write);
  diff.edit(0, 0, text);
  diff.end();
}

/**
 * The unified diff of a file as its bytes are on disk, under `a/<name>` and `b/<name>` (`name` as shown,
 * separators made `/`): `text` is what the read gave (without its byte order mark) and `bom` whether the
 * file starts with one, which the diff's context then carries, so that `git apply` finds the lines it
 * patches. Edits are offsets into `text`, in order.
 */
export function fileDiff(
  text: string,
  bom: boolean,
  name: string,
  write: (text: string) => void,
): { edit(start: number, end: number, text: string): void; end(): boolean } {
  const shown = name.split(/[\\/]/).join('/');
  const shift = bom ? 1 : 0;
  const diff = new UnifiedDiff(bom ? `\uFEFF${text}` : text, { from: `a/${shown}`, to: `b/${shown}` }, write);
  return { edit: (start, end, newText) => diff.edit(start + shift, end + shift, newText), end: () => diff.end() };
}
