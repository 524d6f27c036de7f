// The token stream editor features work on (formatting, completion context, semantic tokens,
// keyword hovers): the grammar's lexer output, comments merged in, reduced to a few categories.
import { tokenize, NATIVE_TYPE_NAMES, type CqlToken } from '../../../grammar';

type TokenCategory =
  'keyword' | 'identifier' | 'quotedName' | 'string' | 'number' | 'literalWord' | 'comment' | 'punctuation' | 'unknown';

export interface EditorToken {
  category: TokenCategory;
  /** The lexer's token type name (`Semicolon`, `SELECT`, `Identifier`, `LineComment`, ...). */
  type: string;
  image: string;
  /** Half-open offsets. */
  start: number;
  end: number;
  /** Keywords: true for native type names (`int`, `text`), which may also be names. */
  nativeType?: boolean;
  /** Keywords that Cassandra accepts as names (unreserved). */
  unreserved?: boolean;
  /** Comments: `--`/`//` (line) or block. */
  lineComment?: boolean;
}

const NATIVE_TYPE_WORDS = new Set(NATIVE_TYPE_NAMES.map((n) => n.toUpperCase()));

function categorize(token: CqlToken, offset: number): EditorToken {
  const base = {
    type: token.type,
    image: token.image,
    start: token.range.start + offset,
    end: token.range.end + offset,
  };
  switch (token.category) {
    case 'keyword':
      return {
        ...base,
        category: 'keyword',
        nativeType: NATIVE_TYPE_WORDS.has(token.type),
        unreserved: !token.isReserved,
      };
    case 'identifier':
      return { ...base, category: 'identifier' };
    case 'quotedIdentifier':
      return { ...base, category: 'quotedName' };
    case 'string':
      return { ...base, category: 'string' };
    case 'number':
    case 'uuid':
    case 'hex':
    case 'duration':
      return { ...base, category: 'number' };
    case 'boolean':
    case 'null':
      return { ...base, category: 'literalWord' };
    case 'comment':
      return { ...base, category: 'comment', lineComment: token.type === 'LineComment' };
    case 'unknown':
      return { ...base, category: 'unknown' };
    default:
      return { ...base, category: 'punctuation' };
  }
}

/**
 * Every token of `text` in source order, comments included (the grammar's tokenize), with offsets moved by
 * `offset` (the position of `text` in its document). Never throws.
 */
export function editorTokens(text: string, offset = 0): EditorToken[] {
  return tokenize(text).map((token) => categorize(token, offset));
}

/** Index of the token containing `offset` or ending exactly at it (binary search). */
export function tokenIndexAt(tokens: readonly EditorToken[], offset: number): number {
  let lo = 0;
  let hi = tokens.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const t = tokens[mid];
    if (t.end < offset) lo = mid + 1;
    else if (t.start > offset) hi = mid - 1;
    else {
      if (t.end === offset && mid + 1 < tokens.length && tokens[mid + 1].start === offset) return mid + 1;
      return mid;
    }
  }
  return -1;
}
