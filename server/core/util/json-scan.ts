// Reading JSON text without building it: where a value ends, the members of one object with their
// offsets (config/json-edit.ts edits `.cqlint.json` as text with them), and where invalid JSON goes wrong
// (config/index.ts names the line and column instead of quoting the file, which JSON.parse's message
// does). Iterative: a value nested a million levels deep is scanned, never recursed into.

/** Invalid JSON at `offset`. */
export class JsonScanError extends SyntaxError {
  constructor(readonly offset: number) {
    super(`not valid JSON at offset ${offset}`);
    this.name = 'JsonScanError';
  }
}

export interface JsonMember {
  key: string;
  keyStart: number;
  valueStart: number;
  /** Offset just after the value. */
  valueEnd: number;
}

const OPEN_BRACE = 123;
const CLOSE_BRACE = 125;
const OPEN_BRACKET = 91;
const CLOSE_BRACKET = 93;
const QUOTE = 34;
const COMMA = 44;
const COLON = 58;
const BACKSLASH = 92;
const LITERAL = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null/y;

/** The offset of the first character after JSON whitespace at `pos`. */
export function skipSpace(text: string, pos: number): number {
  for (;;) {
    const c = text.charCodeAt(pos);
    if (c !== 32 && c !== 9 && c !== 10 && c !== 13) return pos;
    pos++;
  }
}

/** The offset after the string starting at `pos` (a `"`). */
function skipString(text: string, pos: number): number {
  if (text.charCodeAt(pos) !== QUOTE) throw new JsonScanError(pos);
  for (let i = pos + 1; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) return i + 1;
    if (c === BACKSLASH) i++;
    else if (c < 0x20) throw new JsonScanError(i);
  }
  throw new JsonScanError(text.length);
}

/** The offset after `"key" :` and the space after it, at `pos`. */
function skipKey(text: string, pos: number): number {
  pos = skipSpace(text, skipString(text, pos));
  if (text.charCodeAt(pos) !== COLON) throw new JsonScanError(pos);
  return skipSpace(text, pos + 1);
}

/** The offset after the JSON value at `pos` (space before it skipped). Throws JsonScanError. */
export function skipJsonValue(text: string, pos: number): number {
  /** The open containers: `{` or `[`. */
  const open: number[] = [];
  pos = skipSpace(text, pos);
  for (;;) {
    // A value starts at pos.
    const c = text.charCodeAt(pos);
    if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      const close = c === OPEN_BRACE ? CLOSE_BRACE : CLOSE_BRACKET;
      pos = skipSpace(text, pos + 1);
      if (text.charCodeAt(pos) !== close) {
        open.push(c);
        if (c === OPEN_BRACE) pos = skipKey(text, pos);
        continue;
      }
      pos++;
    } else if (c === QUOTE) {
      pos = skipString(text, pos);
    } else {
      LITERAL.lastIndex = pos;
      const literal = LITERAL.exec(text);
      if (!literal) throw new JsonScanError(pos);
      pos += literal[0].length;
    }
    // After a value: close what ends here, or go on after a comma.
    for (;;) {
      const top = open[open.length - 1];
      if (top === undefined) return pos;
      pos = skipSpace(text, pos);
      const d = text.charCodeAt(pos);
      if (d === COMMA) {
        pos = skipSpace(text, pos + 1);
        if (top === OPEN_BRACE) pos = skipKey(text, pos);
        break;
      }
      if (d !== (top === OPEN_BRACE ? CLOSE_BRACE : CLOSE_BRACKET)) throw new JsonScanError(pos);
      open.pop();
      pos++;
    }
  }
}

/** The members of the object starting at `pos` (a `{`), and the offset of its closing brace. Throws JsonScanError. */
export function jsonObjectMembers(text: string, pos: number): { start: number; end: number; members: JsonMember[] } {
  if (text.charCodeAt(pos) !== OPEN_BRACE) throw new JsonScanError(pos);
  const start = pos;
  const members: JsonMember[] = [];
  pos = skipSpace(text, pos + 1);
  if (text.charCodeAt(pos) === CLOSE_BRACE) return { start, end: pos, members };
  for (;;) {
    const keyStart = pos;
    const keyEnd = skipString(text, pos);
    let key: string;
    try {
      key = JSON.parse(text.slice(keyStart, keyEnd)) as string;
    } catch {
      throw new JsonScanError(keyStart); // a bad escape
    }
    const valueStart = skipKey(text, pos);
    const valueEnd = skipJsonValue(text, valueStart);
    members.push({ key, keyStart, valueStart, valueEnd });
    pos = skipSpace(text, valueEnd);
    const d = text.charCodeAt(pos);
    if (d === CLOSE_BRACE) return { start, end: pos, members };
    if (d !== COMMA) throw new JsonScanError(pos);
    pos = skipSpace(text, pos + 1);
  }
}

/**
 * The offset of the first `{` or `[` of `text` (JSON, valid or not) nested deeper than `max`, or undefined: a
 * linear look before JSON.parse, which takes a second over a megabyte of `[` (strings are skipped).
 */
export function nestingPast(text: string, max: number): number | undefined {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      for (i++; i < text.length; i++) {
        const d = text.charCodeAt(i);
        if (d === BACKSLASH) i++;
        else if (d === QUOTE) break;
      }
    } else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      if (++depth > max) return i;
    } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) depth--;
  }
  return undefined;
}

/** Where `text` stops being one valid JSON value (with space around it); undefined when it is one. */
export function jsonErrorOffset(text: string): number | undefined {
  try {
    const end = skipSpace(text, skipJsonValue(text, 0));
    return end === text.length ? undefined : end;
  } catch (error) {
    if (error instanceof JsonScanError) return error.offset;
    throw error;
  }
}
