// The value of a constant expression of the host language, as the reader builds it: the decoded characters of its
// literals, each with the host range it was written as (an escape: the whole escape), and holes for the parts that
// are not literals. The CQL text and its map are built from these (document.ts).

/** One literal of the host file, as decoded: what writing inside it must respect. */
export interface HostLiteral {
  /** Host range of the whole literal, delimiters and prefix included. */
  readonly start: number;
  readonly end: number;
  /**
   * The host text that writes `text` inside this literal at host offset `at` (quotes and backslashes escaped,
   * line breaks as the literal allows), or why it cannot be written there.
   */
  encode(text: string, at: number): string | { refused: string };
}

/** Decoded characters of one literal: `starts[i]`/`ends[i]` is the host range that wrote `text[i]`. */
export interface TextPart {
  readonly kind: 'text';
  readonly literal: HostLiteral;
  text: string;
  starts: number[];
  ends: number[];
  /**
   * Runs of characters (`[from, to)` indexes into `text`) that stand for one host construct which an edit must
   * replace whole or leave alone: a Python `%s` read as `?`, a Spring `?0` read as `?`.
   */
  atomic: [number, number][];
}

/** A part that is not a literal (a variable, a call, a format argument): the CQL text gets a placeholder. */
export interface HolePart {
  readonly kind: 'hole';
  /** Host range of the expression (or of the format specifier that stands for it). */
  readonly start: number;
  readonly end: number;
}

export type Part = TextPart | HolePart;

/** Appends decoded characters and holes, merging the characters of one literal into one part. */
export class ValueBuilder {
  readonly parts: Part[] = [];
  private current: TextPart | undefined;

  /** One decoded character (or a surrogate pair, or several characters of one escape) written at host [start, end). */
  char(literal: HostLiteral, text: string, start: number, end: number): void {
    let part = this.current;
    if (!part || part.literal !== literal) {
      part = { kind: 'text', literal, text: '', starts: [], ends: [], atomic: [] };
      this.parts.push(part);
      this.current = part;
    }
    for (let i = 0; i < text.length; i++) {
      part.starts.push(start);
      part.ends.push(end);
    }
    part.text += text;
  }

  /** Characters copied as they are from host [start, start + text.length). */
  verbatim(literal: HostLiteral, text: string, start: number): void {
    for (let i = 0; i < text.length; i++) this.char(literal, text[i]!, start + i, start + i + 1);
  }

  hole(start: number, end: number): void {
    this.parts.push({ kind: 'hole', start, end });
    this.current = undefined;
  }

  /** Appends the parts of another value (a constant's), as they are. */
  append(parts: readonly Part[]): void {
    for (const part of parts) this.parts.push(part.kind === 'text' ? copyText(part) : part);
    this.current = undefined;
  }
}

function copyText(part: TextPart): TextPart {
  return { ...part, starts: part.starts.slice(), ends: part.ends.slice(), atomic: part.atomic.map(([a, b]) => [a, b]) };
}

/**
 * An escape read at a backslash: the decoded text and how many host characters it takes; or a template's name
 * (Kotlin `$name`), whose value the decoder asks for.
 */
export type Escape = { text: string; length: number } | { name: string; length: number };

/** The value of a name used at a host offset (a constant's), or undefined (a hole). */
export type NameValue = (name: string, at: number) => readonly Part[] | undefined;

/** How a literal's escapes read: undefined when the character at `i` does not start one. */
export type EscapeReader = (src: string, i: number, end: number) => Escape | undefined;

/** A part of a literal's content that is not its text: an interpolation, with its value when it is a constant. */
export interface Interpolation {
  start: number;
  end: number;
  parts?: readonly Part[];
}

/**
 * Decodes host [from, to) of a literal's content: escapes (read by `escape` at each character of `triggers`, a
 * backslash unless told) and interpolations (sorted host ranges inside the content), everything else verbatim.
 */
export function decodeRange(
  out: ValueBuilder,
  literal: HostLiteral,
  src: string,
  from: number,
  to: number,
  escape?: EscapeReader,
  holes: readonly Interpolation[] = [],
  triggers = '\\',
  nameValue?: NameValue,
): void {
  let h = 0;
  while (h < holes.length && holes[h]!.end <= from) h++;
  let i = from;
  while (i < to) {
    const hole = holes[h];
    if (hole && hole.start <= i) {
      if (hole.parts) out.append(hole.parts);
      else out.hole(hole.start, hole.end);
      i = Math.max(i, hole.end);
      h++;
      continue;
    }
    const stop = Math.min(to, hole ? hole.start : to);
    // Runs without an escape are copied verbatim.
    let plainEnd = stop;
    if (escape) {
      plainEnd = i;
      while (plainEnd < stop && !triggers.includes(src[plainEnd]!)) plainEnd++;
    }
    if (plainEnd > i) {
      out.verbatim(literal, src.slice(i, plainEnd), i);
      i = plainEnd;
      continue;
    }
    const read = escape!(src, i, stop);
    if (read && 'name' in read) {
      const value = nameValue?.(read.name, i);
      if (value) out.append(value);
      else out.hole(i, i + read.length);
      i += read.length;
    } else if (read) {
      out.char(literal, read.text, i, i + read.length);
      i += read.length;
    } else {
      out.char(literal, src[i]!, i, i + 1);
      i++;
    }
  }
}

/** Hex digits at `i` (between `min` and `max` of them) as a number, with how many were read. */
export function readHex(
  src: string,
  i: number,
  end: number,
  min: number,
  max: number,
): { value: number; length: number } | undefined {
  let n = 0;
  while (n < max && i + n < end && /[0-9a-fA-F]/.test(src[i + n]!)) n++;
  if (n < min) return undefined;
  return { value: parseInt(src.slice(i, i + n), 16), length: n };
}

/** The string of a code point, or undefined when it is not one. */
export function codePoint(value: number): string | undefined {
  return value >= 0 && value <= 0x10ffff ? String.fromCodePoint(value) : undefined;
}

/** Lines of host [from, to): each line's range without its break, and the break's range (empty on the last line). */
export function linesOf(src: string, from: number, to: number): { start: number; end: number; breakEnd: number }[] {
  const lines: { start: number; end: number; breakEnd: number }[] = [];
  let start = from;
  for (let i = from; i < to; i++) {
    const c = src.charCodeAt(i);
    if (c === 10 || c === 13) {
      const breakEnd = c === 13 && src.charCodeAt(i + 1) === 10 && i + 1 < to ? i + 2 : i + 1;
      lines.push({ start, end: i, breakEnd });
      start = breakEnd;
      i = breakEnd - 1;
    }
  }
  lines.push({ start, end: to, breakEnd: to });
  return lines;
}

/** Width of the leading white space of host [start, end). */
export function indentWidth(src: string, start: number, end: number): number {
  let i = start;
  while (i < end && (src[i] === ' ' || src[i] === '\t')) i++;
  return i - start;
}

/** True when host [start, end) is only white space. */
export function isBlank(src: string, start: number, end: number): boolean {
  return indentWidth(src, start, end) === end - start;
}

/** The text of a value without holes (undefined when it has one): a keyspace name, a format template. */
export function plainText(parts: readonly Part[]): string | undefined {
  let text = '';
  for (const part of parts) {
    if (part.kind === 'hole') return undefined;
    text += part.text;
  }
  return text;
}

/**
 * Rewrites matches of `pattern` (global) in the text parts: each match inside one part is replaced by what
 * `replace` gives: text (its characters span the match's host range, kept atomic when longer than nothing) or a
 * hole (at the match's host range), or parts (a constant's value). Matches across parts are left alone.
 */
export function rewriteMatches(
  parts: readonly Part[],
  pattern: RegExp,
  replace: (match: RegExpExecArray) => { text: string } | { hole: true } | { parts: readonly Part[] } | undefined,
): Part[] {
  const out: Part[] = [];
  for (const part of parts) {
    if (part.kind === 'hole') {
      out.push(part);
      continue;
    }
    let last = 0;
    let current: TextPart | undefined;
    const keep = (from: number, to: number): void => {
      if (from >= to) return;
      if (!current) {
        current = { kind: 'text', literal: part.literal, text: '', starts: [], ends: [], atomic: [] };
        out.push(current);
      }
      const offset = current.text.length - from;
      current.text += part.text.slice(from, to);
      current.starts.push(...part.starts.slice(from, to));
      current.ends.push(...part.ends.slice(from, to));
      for (const [a, b] of part.atomic) if (a >= from && b <= to) current.atomic.push([a + offset, b + offset]);
    };
    pattern.lastIndex = 0;
    for (let m = pattern.exec(part.text); m; m = pattern.exec(part.text)) {
      if (m[0].length === 0) {
        pattern.lastIndex++;
        continue;
      }
      const replacement = replace(m);
      if (!replacement) continue;
      keep(last, m.index);
      const hostStart = part.starts[m.index]!;
      const hostEnd = part.ends[m.index + m[0].length - 1]!;
      last = m.index + m[0].length;
      if ('text' in replacement) {
        if (!current) {
          current = { kind: 'text', literal: part.literal, text: '', starts: [], ends: [], atomic: [] };
          out.push(current);
        }
        const at = current.text.length;
        current.text += replacement.text;
        for (let i = 0; i < replacement.text.length; i++) {
          current.starts.push(hostStart);
          current.ends.push(hostEnd);
        }
        if (replacement.text.length > 0) current.atomic.push([at, at + replacement.text.length]);
      } else if ('hole' in replacement) {
        out.push({ kind: 'hole', start: hostStart, end: hostEnd });
        current = undefined;
      } else {
        for (const p of replacement.parts) out.push(p.kind === 'text' ? copyText(p) : p);
        current = undefined;
      }
    }
    keep(last, part.text.length);
  }
  return out;
}
