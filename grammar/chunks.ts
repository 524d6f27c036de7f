// Cutting a token stream into statement chunks: at top-level `;` (BEGIN BATCH ... APPLY BATCH is one chunk;
// cqlsh commands and DESCRIBE end at the end of their line). Each chunk is parsed on its own (grammar/parse.ts),
// so one broken statement never hides the rest and unchanged chunks can be reused by the next parse.
import type { IToken, TokenType } from './chevrotain';
import * as Lexer from './lexer';
import type { CqlScanner } from './lexer';
import * as Parser from './parser';

// Module constants: compiled to CommonJS (tsx: tests, bench), every use of an imported binding is a getter call,
// and these are read for every token.
const { Keyword, Semicolon, Identifier, keywordTokens: K, SHELL_COMMANDS, keywordType, isKeywordType } = Lexer;
const { STATEMENT_START } = Parser;

const SHELL_WORDS = new Set(SHELL_COMMANDS.map((w) => w.toLowerCase()));
/** The keyword token types that are cqlsh commands too (`LOGIN`): a keyword's image is its word in any case. */
const SHELL_KEYWORDS = new Set(
  [...SHELL_WORDS].map(keywordType).filter((t): t is TokenType => t !== undefined && isKeywordType(t)),
);

export function isWord(t: IToken): boolean {
  return t.tokenType === Identifier || (t.tokenType.CATEGORIES?.includes(Keyword) ?? false);
}

export function isShellWord(t: IToken): boolean {
  // Read at every statement's start: a keyword's type says it without lower-casing the image.
  return t.tokenType === Identifier ? SHELL_WORDS.has(t.image.toLowerCase()) : SHELL_KEYWORDS.has(t.tokenType);
}

/** Token access by index: an array, or a TokenWindow that lexes on demand. Undefined past the end. */
interface TokenSource {
  at(i: number): IToken | undefined;
}

/**
 * A sliding window over a CqlScanner: tokens are lexed when first asked for and dropped once their chunk is
 * taken, so a large file never holds all its tokens at once (they die young, which the GC likes).
 */
export class TokenWindow implements TokenSource {
  private buffer: IToken[] = [];
  private base = 0;
  private done = false;

  constructor(private readonly scanner: CqlScanner) {}

  at(i: number): IToken | undefined {
    const k = i - this.base;
    while (k >= this.buffer.length && !this.done) {
      const t = this.scanner.next();
      if (t === undefined) this.done = true;
      else this.buffer.push(t);
    }
    return this.buffer[k];
  }

  /** True when no token beyond those taken has been read: the scanner's position is a clean chunk boundary. */
  idle(): boolean {
    return this.buffer.length === 0;
  }

  /** Tokens [start, end), releasing everything before `end`. */
  take(start: number, end: number): IToken[] {
    if (start === this.base && end - this.base === this.buffer.length) {
      // The usual case: the window holds the chunk and nothing beyond it (read up to its `;`): hand it over.
      const whole = this.buffer;
      this.buffer = [];
      this.base = end;
      return whole;
    }
    const chunk = this.buffer.slice(start - this.base, end - this.base);
    this.buffer = this.buffer.slice(end - this.base);
    this.base = end;
    return chunk;
  }
}

export function firstOnLine(tokens: TokenSource, i: number): boolean {
  return i === 0 || tokens.at(i)!.startLine! > tokens.at(i - 1)!.endLine!;
}

/** A token where a new statement may start: a statement keyword, or a cqlsh command at the start of a line. */
export function startsStatement(tokens: TokenSource, i: number, requireLineStart: boolean): boolean {
  const t = tokens.at(i)!;
  if (STATEMENT_START.has(t.tokenType)) {
    if (t.tokenType === K.ADD && tokens.at(i + 1)?.tokenType !== K.IDENTITY) return false;
    return !requireLineStart || firstOnLine(tokens, i);
  }
  return isShellWord(t) && firstOnLine(tokens, i);
}

/** End (exclusive) of a cqlsh command starting at `i`: the end of its line, or `;`. COPY may span lines. */
export function shellEnd(tokens: TokenSource, i: number, end = Infinity): number {
  const copy = tokens.at(i)!.image.toLowerCase() === 'copy';
  const line = tokens.at(i)!.startLine;
  let j = i + 1;
  for (; j < end; j++) {
    const t = tokens.at(j);
    if (t === undefined) break;
    if (copy) {
      if (firstOnLine(tokens, j) && startsStatement(tokens, j, true)) return j;
    } else if (t.startLine !== line) return j;
    if (t.tokenType === Semicolon) return j + 1;
  }
  return j;
}

/** End (exclusive) of the statement chunk starting at token `i` (which exists). */
export function chunkEnd(tokens: TokenSource, i: number): number {
  const t = tokens.at(i)!;
  if (isShellWord(t) || t.tokenType === K.DESCRIBE || t.tokenType === K.DESC) return shellEnd(tokens, i);
  if (t.tokenType === K.BEGIN) {
    for (let j = i + 1; tokens.at(j) !== undefined; j++) {
      const u = tokens.at(j)!;
      // APPLY is reserved, so the first one ends the batch, even when BATCH is missing after it (`APPLY;`):
      // the batch is then one chunk whose only error is at the APPLY, rather than a batch cut at its first `;`
      // that also reports a bogus "expected 'APPLY'".
      if (u.tokenType === K.APPLY) {
        const end = tokens.at(j + 1)?.tokenType === K.BATCH ? j + 2 : j + 1;
        return tokens.at(end)?.tokenType === Semicolon ? end + 1 : end;
      }
      // Another BEGIN BATCH before APPLY: this batch is not closed.
      if (u.tokenType === K.BEGIN && firstOnLine(tokens, j)) break;
    }
  }
  let j = i;
  for (let u = tokens.at(j); u !== undefined && u.tokenType !== Semicolon; u = tokens.at(++j));
  return tokens.at(j) !== undefined ? j + 1 : j;
}

/** Statement chunks [start, end) over a whole token array. */
export function chunkTokens(tokens: IToken[]): [number, number][] {
  const chunks: [number, number][] = [];
  for (let i = 0; i < tokens.length;) {
    const end = chunkEnd(tokens, i);
    chunks.push([i, end]);
    i = end;
  }
  return chunks;
}
