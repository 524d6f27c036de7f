// Public API of the CQL grammar: parseCql (statements + comments + syntax errors, incremental), tokenize
// (for formatting and highlighting), expectedTokensAt (grammar-driven completion), keyword lists.
//
// How a file is parsed: the token stream is cut into statement chunks at top-level `;` (BEGIN BATCH ...
// APPLY BATCH is one chunk; cqlsh commands and DESCRIBE end at the end of their line). Each chunk is parsed
// on its own, so one broken statement never hides the rest and unchanged chunks can be reused from the
// previous result. Inside a chunk, a statement-start keyword where the statement cannot continue means a
// missing `;`: the chunk is split there and both parts are parsed.
import { EOF, type IRecognitionException, type IToken, type TokenType } from './chevrotain';
import type * as A from './ast';
import {
  lexCql, CqlScanner, type ScanPosition, keywordType, Keyword, Ident, NativeTypeKw, NonTypeIdent, PermissionKw, NumberLit, Semicolon,
  StringLiteral, UnterminatedString, UnterminatedQuotedName, QuotedName, EmptyQuotedName, Identifier,
  IntegerLiteral, FloatLiteral, DurationLiteral, UuidLiteral, HexLiteral, BooleanLiteral, NanLiteral,
  InfinityLiteral, QMark, Colon, LBracket, LBrace, Minus, LineComment, BlockComment, Unknown,
  keywordTokens as K, RESERVED_KEYWORDS, UNRESERVED_KEYWORDS, BASIC_UNRESERVED_KEYWORDS, NATIVE_TYPE_NAMES,
  SHELL_COMMANDS, OTHER_UNRESERVED_KEYWORDS,
} from './lexer';
import { CqlParser, getParser, STATEMENT_START, parserConstructionMs } from './parser';
import { buildStatement, tokenRange, decodeString } from './builder';
import { buildSyntaxMessage, describeFound, nextTokenTypes } from './errors';
import { LineIndex } from './line-index';

export type * from './ast';
export { CqlParser, getParser, parserConstructionMs };
export {
  RESERVED_KEYWORDS, UNRESERVED_KEYWORDS, BASIC_UNRESERVED_KEYWORDS, OTHER_UNRESERVED_KEYWORDS, NATIVE_TYPE_NAMES,
  SHELL_COMMANDS,
};
/** Permission names usable in GRANT / REVOKE / LIST. */
export const PERMISSIONS: readonly string[] = ['ALL', 'ALTER', 'AUTHORIZE', 'CREATE', 'DESCRIBE', 'DROP', 'EXECUTE', 'MODIFY', 'SELECT', 'UNMASK', 'SELECT_MASKED'];
/** Every CQL keyword (reserved and unreserved), upper-case. */
export const ALL_KEYWORDS: readonly string[] = [...new Set([...RESERVED_KEYWORDS, 'COLUMNFAMILY', 'TRUE', 'FALSE', ...UNRESERVED_KEYWORDS])].sort();

export interface ParseOptions {
  /** The previous result for an earlier version of the text: unchanged statements are reused (moved, ranges shifted in place). */
  previous?: ParseResult;
}
export type ParseResult = A.ParseResult;

// ---------------------------------------------------------------------------------------------
// Chunking

const SHELL_WORDS = new Set(SHELL_COMMANDS.map((w) => w.toLowerCase()));

function isWord(t: IToken): boolean {
  return t.tokenType === Identifier || (t.tokenType.CATEGORIES?.includes(Keyword) ?? false);
}

function isShellWord(t: IToken): boolean {
  return isWord(t) && SHELL_WORDS.has(t.image.toLowerCase());
}

/** Token access by index: an array, or a TokenWindow that lexes on demand. Undefined past the end. */
interface TokenSource {
  at(i: number): IToken | undefined;
}

/**
 * A sliding window over a CqlScanner: tokens are lexed when first asked for and dropped once their chunk is
 * taken, so a large file never holds all its tokens at once (they die young, which the GC likes).
 */
class TokenWindow implements TokenSource {
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
    const chunk = this.buffer.slice(start - this.base, end - this.base);
    this.buffer = this.buffer.slice(end - this.base);
    this.base = end;
    return chunk;
  }
}

function firstOnLine(tokens: TokenSource, i: number): boolean {
  return i === 0 || tokens.at(i)!.startLine! > tokens.at(i - 1)!.endLine!;
}

/** A token where a new statement may start: a statement keyword, or a cqlsh command at the start of a line. */
function startsStatement(tokens: TokenSource, i: number, requireLineStart: boolean): boolean {
  const t = tokens.at(i)!;
  if (STATEMENT_START.has(t.tokenType)) {
    if (t.tokenType === K.ADD && tokens.at(i + 1)?.tokenType !== K.IDENTITY) return false;
    return !requireLineStart || firstOnLine(tokens, i);
  }
  return isShellWord(t) && firstOnLine(tokens, i);
}

/** End (exclusive) of a cqlsh command starting at `i`: the end of its line, or `;`. COPY may span lines. */
function shellEnd(tokens: TokenSource, i: number, end = Infinity): number {
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
function chunkEnd(tokens: TokenSource, i: number): number {
  const t = tokens.at(i)!;
  if (isShellWord(t) || t.tokenType === K.DESCRIBE || t.tokenType === K.DESC) return shellEnd(tokens, i);
  if (t.tokenType === K.BEGIN) {
    for (let j = i + 1; tokens.at(j + 1) !== undefined; j++) {
      const u = tokens.at(j)!;
      if (u.tokenType === K.APPLY && tokens.at(j + 1)!.tokenType === K.BATCH) return tokens.at(j + 2)?.tokenType === Semicolon ? j + 3 : j + 2;
      // Another BEGIN BATCH before APPLY BATCH: this batch is not closed.
      if (u.tokenType === K.BEGIN && firstOnLine(tokens, j)) break;
    }
  }
  let j = i;
  for (let u = tokens.at(j); u !== undefined && u.tokenType !== Semicolon; u = tokens.at(++j));
  return tokens.at(j) !== undefined ? j + 1 : j;
}

/** Statement chunks [start, end) over a whole token array. */
function chunkTokens(tokens: IToken[]): [number, number][] {
  const chunks: [number, number][] = [];
  for (let i = 0; i < tokens.length; ) {
    const end = chunkEnd(tokens, i);
    chunks.push([i, end]);
    i = end;
  }
  return chunks;
}

// ---------------------------------------------------------------------------------------------
// Parsing one chunk

interface ChunkResult {
  statements: A.Statement[];
  errors: A.CqlSyntaxError[];
}

interface Attempt {
  cst?: import('./chevrotain').CstNode;
  exception?: IRecognitionException;
}

function attempt(parser: CqlParser, tokens: IToken[]): Attempt {
  parser.input = tokens;
  let cst;
  try {
    cst = parser.r.cqlStatement.call(parser);
  } catch (e) {
    // Recognition exceptions are caught by Chevrotain; anything else is a bug we must not let escape.
    return { exception: { name: 'InternalError', message: String(e), token: tokens[0], resyncedTokens: [], context: { ruleStack: [], ruleOccurrenceStack: [] } } as IRecognitionException };
  }
  if (parser.errors.length > 0) return { exception: parser.errors[0] };
  return { cst };
}

function errorIndexOf(tokens: IToken[], exception: IRecognitionException): number {
  const token = exception.token;
  if (!token || token.tokenType === EOF) return tokens.length;
  const i = tokens.indexOf(token);
  return i < 0 ? tokens.length : i;
}

function endOfInputRange(tokens: IToken[]): A.SourceRange {
  const last = tokens[tokens.length - 1];
  const end = tokenRange(last).end;
  return { start: { ...end }, end: { ...end } };
}

function invalidStatement(tokens: IToken[]): A.InvalidStatement {
  return { kind: 'Invalid', range: tokenRange(tokens[0], tokens[tokens.length - 1]), terminated: tokens[tokens.length - 1].tokenType === Semicolon };
}

function shellCommand(text: string, tokens: IToken[]): A.ShellCommand {
  const first = tokens[0];
  let command = first.image.toUpperCase();
  let argStart = 1;
  if (command === 'SERIAL' && tokens[1]?.image.toUpperCase() === 'CONSISTENCY') {
    command = 'SERIAL CONSISTENCY';
    argStart = 2;
  }
  const last = tokens[tokens.length - 1];
  const terminated = last.tokenType === Semicolon;
  const argTokens = tokens.slice(argStart, terminated ? -1 : undefined);
  const argument = argTokens.length ? text.slice(argTokens[0].startOffset, argTokens[argTokens.length - 1].endOffset! + 1).trim() : '';
  return { kind: 'ShellCommand', command, argument, terminated, range: tokenRange(first, last) };
}

function safeBuild(cst: import('./chevrotain').CstNode, tokens: IToken[], out: ChunkResult): void {
  try {
    out.statements.push(buildStatement(cst, tokens));
  } catch (e) {
    // A CST shape the builder does not expect: keep the statement visible as Invalid rather than crash.
    out.statements.push(invalidStatement(tokens));
    out.errors.push({ message: `internal error building the syntax tree: ${(e as Error).message}`, range: tokenRange(tokens[0]) });
  }
}

function parseChunk(text: string, parser: CqlParser, tokens: IToken[]): ChunkResult {
  const out: ChunkResult = { statements: [], errors: [] };
  let a = 0;
  const b = tokens.length;
  while (a < b) {
    if (isShellWord(tokens[a])) {
      const e = shellEnd(tokens, a, b);
      out.statements.push(shellCommand(text, tokens.slice(a, e)));
      a = e;
      continue;
    }
    const seg = a === 0 ? tokens : tokens.slice(a, b);
    const result = attempt(parser, seg);
    if (result.cst) {
      safeBuild(result.cst, seg, out);
      break;
    }
    const exception = result.exception!;
    const errIdx = errorIndexOf(seg, exception);
    // A new statement starts where this one cannot continue: a missing `;`.
    if (errIdx > 0 && errIdx < seg.length && startsStatement(seg, errIdx, false)) {
      const prefix = seg.slice(0, errIdx);
      const prefixResult = attempt(parser, prefix);
      if (prefixResult.cst) {
        safeBuild(prefixResult.cst, prefix, out);
        out.errors.push({ message: `missing ';' before ${describeFound(seg[errIdx])} (the previous statement is not terminated)`, range: tokenRange(seg[errIdx]) });
        a += errIdx;
        continue;
      }
      if (firstOnLine(seg, errIdx)) {
        const info = buildSyntaxMessage(parser, exception, seg, errIdx);
        out.errors.push({ message: info.message, range: tokenRange(seg[errIdx]) });
        out.statements.push(invalidStatement(prefix));
        a += errIdx;
        continue;
      }
    }
    const info = buildSyntaxMessage(parser, exception, seg, errIdx);
    out.errors.push({ message: info.message, range: info.token ? tokenRange(info.token) : endOfInputRange(seg) });
    // Resynchronise at the next statement keyword that starts a line.
    let k = -1;
    for (let j = Math.max(errIdx, 1); j < seg.length; j++) {
      if (startsStatement(seg, j, true)) {
        k = j;
        break;
      }
    }
    if (k < 0) {
      out.statements.push(invalidStatement(seg));
      break;
    }
    out.statements.push(invalidStatement(seg.slice(0, k)));
    a += k;
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Reuse between parses
//
// A parse remembers its chunks. The next parse of an edited text (options.previous):
//   - keeps the chunks before the edit as they are, without lexing them again: it resumes the scanner
//     where the last of them ended (a chunk boundary where the scanner had read nothing further);
//   - re-lexes from there; a chunk whose text equals an old chunk's reuses that chunk's AST, shifted;
//   - once the scanner reaches, past the edit, a clean boundary that the old parse also had, it takes all
//     the old chunks after it (shifted) and stops lexing: the rest of the text is unchanged.
// The shifts move each chunk's SourceLocations in place, from a flat list collected on its first shift.

interface ScanState extends ScanPosition {
  /** How many comments come before this position. */
  comments: number;
}

interface ChunkRecord {
  key: string;
  startOffset: number;
  startLine: number;
  startColumn: number;
  result: ChunkResult;
  /** Where the scanner stood once the chunk was cut, if it had read no token beyond it (else undefined). */
  after?: ScanState;
  /** Every SourceLocation of `result` (each once), collected on the first shift. */
  locations?: A.SourceLocation[];
}

interface ParseMemo {
  text: string;
  records: ChunkRecord[];
}

const parseMemo = new WeakMap<A.ParseResult, ParseMemo>();

/**
 * Chars past a chunk boundary the lexer may have looked at (a regex backtracking over `1e+` or a UUID
 * prefix): an edit closer than this to a boundary re-lexes the chunk before it too.
 */
const LEXER_LOOKAHEAD = 16;

function collectLocations(value: unknown, out: A.SourceLocation[], seen: Set<object>): void {
  if (Array.isArray(value)) {
    for (const v of value) collectLocations(v, out, seen);
    return;
  }
  if (value === null || typeof value !== 'object') return;
  const obj = value as Record<string, unknown>;
  if (typeof obj.offset === 'number' && typeof obj.line === 'number' && typeof obj.column === 'number') {
    // Location objects may be shared between nodes: each moves once.
    if (!seen.has(obj)) {
      seen.add(obj);
      out.push(obj as unknown as A.SourceLocation);
    }
    return;
  }
  for (const key in obj) collectLocations(obj[key], out, seen);
}

/** Moves every location by dOffset and dLine, and by dColumn those on `line` (before the move). */
function shiftLocations(locations: readonly A.SourceLocation[], line: number, dOffset: number, dLine: number, dColumn: number): void {
  for (const loc of locations) {
    if (loc.line === line) loc.column += dColumn;
    loc.offset += dOffset;
    loc.line += dLine;
  }
}

/** Moves a chunk's AST locations in place: by dOffset and dLine, and by dColumn those on `line`. */
function shiftResult(record: ChunkRecord, line: number, dOffset: number, dLine: number, dColumn: number): void {
  if (dOffset === 0 && dLine === 0 && dColumn === 0) return;
  if (!record.locations) {
    record.locations = [];
    collectLocations(record.result, record.locations, new Set());
  }
  shiftLocations(record.locations, line, dOffset, dLine, dColumn);
}

/**
 * Moves an old chunk's record in place, AST included, the same way (plus dComments on its comment count).
 * Only for the splice, after which the old records are not searched again.
 */
function moveRecord(record: ChunkRecord, line: number, dOffset: number, dLine: number, dColumn: number, dComments: number): void {
  shiftResult(record, line, dOffset, dLine, dColumn);
  if (record.startLine === line) record.startColumn += dColumn;
  record.startOffset += dOffset;
  record.startLine += dLine;
  const after = record.after;
  if (after) {
    if (after.line === line) after.column += dColumn;
    after.offset += dOffset;
    after.line += dLine;
    after.comments += dComments;
  }
}

// Block compares first (string equality runs in native code), then char by char inside the differing block.
const COMPARE_BLOCK = 2048;

function commonPrefixLength(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i + COMPARE_BLOCK <= n && a.slice(i, i + COMPARE_BLOCK) === b.slice(i, i + COMPARE_BLOCK)) i += COMPARE_BLOCK;
  while (i < n && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return i;
}

function commonSuffixLength(a: string, b: string, limit: number): number {
  let k = 0;
  while (k + COMPARE_BLOCK <= limit && a.slice(a.length - k - COMPARE_BLOCK, a.length - k) === b.slice(b.length - k - COMPARE_BLOCK, b.length - k)) k += COMPARE_BLOCK;
  while (k < limit && a.charCodeAt(a.length - 1 - k) === b.charCodeAt(b.length - 1 - k)) k++;
  return k;
}

/** The index of the old record (from `from`) whose chunk ended, with a clean boundary, exactly at `offset`. */
function recordEndingAt(records: readonly ChunkRecord[], from: number, offset: number): number | undefined {
  // Records are in source order: binary search on the start offset, then look at the record before.
  let lo = from;
  let hi = records.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (records[mid].startOffset < offset) lo = mid + 1;
    else hi = mid;
  }
  const i = lo - 1;
  return i >= from && records[i].after?.offset === offset ? i : undefined;
}

// ---------------------------------------------------------------------------------------------
// parseCql

function unterminatedComment(comment: A.Comment): A.CqlSyntaxError | undefined {
  if (comment.style !== 'block' || (comment.text.length >= 4 && comment.text.endsWith('*/'))) return undefined;
  return { message: "unterminated comment: '/*' without '*/'", range: { start: { ...comment.range.start }, end: { ...comment.range.end } } };
}

function buildComment(token: IToken): A.Comment {
  const text = token.image;
  const block = token.tokenType === BlockComment;
  let value: string;
  if (block) {
    const closed = text.length >= 4 && text.endsWith('*/');
    value = text.slice(2, closed ? -2 : undefined).trim();
  } else {
    value = text.slice(2).trim();
  }
  return { kind: 'Comment', style: block ? 'block' : 'line', text, value, range: tokenRange(token) };
}

/**
 * Parses a CQL file (or any text). Never throws.
 *
 * With `options.previous` (the result for an earlier version of the same document), only the edited part
 * is lexed and parsed again: unchanged statements keep their AST objects (and errors), moved into the new
 * result with their ranges shifted in place. So `previous` is consumed: do not read positions from it
 * afterwards, and passing it again falls back to a full parse. Statements before the edit are the very same
 * objects in both results.
 */
export function parseCql(text: string, options: ParseOptions = {}): ParseResult {
  try {
    return parseCqlUnsafe(text, options);
  } catch (e) {
    // Defensive: an internal failure must not take the language server down.
    const end = { offset: text.length, line: 1, column: 1 };
    return { statements: [], comments: [], errors: [{ message: `internal parser error: ${(e as Error).message}`, range: { start: { offset: 0, line: 1, column: 1 }, end } }] };
  }
}

function parseCqlUnsafe(text: string, options: ParseOptions): ParseResult {
  const parser = getParser();
  const chunkErrors: A.CqlSyntaxError[] = [];
  const statements: A.Statement[] = [];
  const comments: A.Comment[] = [];
  const records: ChunkRecord[] = [];
  const keep = (record: ChunkRecord): void => {
    records.push(record);
    for (const st of record.result.statements) statements.push(st);
    for (const e of record.result.errors) chunkErrors.push(e);
  };

  const memo = options.previous ? parseMemo.get(options.previous) : undefined;
  // The previous result's statements are moved into this one (and shifted in place): it can serve once.
  if (memo) parseMemo.delete(options.previous!);
  const oldRecords = memo?.records ?? [];
  const oldComments = options.previous?.comments ?? [];

  // 1. Old chunks before the edit, as they are; the scan resumes after the last one.
  let resume: ScanState | undefined;
  let firstOld = 0;
  let newChangeEnd = text.length;
  let delta = 0;
  if (memo) {
    const prefix = commonPrefixLength(memo.text, text);
    const suffix = commonSuffixLength(memo.text, text, Math.min(memo.text.length, text.length) - prefix);
    newChangeEnd = text.length - suffix;
    delta = text.length - memo.text.length;
    let last = -1;
    for (let i = 0; i < oldRecords.length; i++) {
      const after = oldRecords[i].after;
      if (after === undefined) continue;
      if (after.offset + LEXER_LOOKAHEAD > prefix) break;
      last = i;
    }
    if (last >= 0) {
      for (let i = 0; i <= last; i++) keep(oldRecords[i]);
      resume = oldRecords[last].after!;
      for (let i = 0; i < resume.comments; i++) comments.push(oldComments[i]);
      firstOld = last + 1;
    }
  }

  // Old chunks after the prefix by source text, for chunks that moved (built when first needed: a single
  // edit re-parses the chunk it touched and then splices the rest, and never asks).
  let byKey: Map<string, number[]> | undefined;
  const oldByKey = (): Map<string, number[]> => {
    if (byKey) return byKey;
    byKey = new Map();
    for (let i = firstOld; i < oldRecords.length; i++) {
      const list = byKey.get(oldRecords[i].key);
      if (list) list.push(i);
      else byKey.set(oldRecords[i].key, [i]);
    }
    return byKey;
  };
  let lastUsedOld = -1;
  let parsedChunks = 0;

  // 2. Lex and parse from there.
  const scanner = new CqlScanner(text, resume);
  const tokens = new TokenWindow(scanner);
  const commentBase = comments.length;
  const takeComments = (): void => {
    for (let i = comments.length - commentBase; i < scanner.comments.length; i++) comments.push(buildComment(scanner.comments[i]));
  };
  for (let start = 0; ; ) {
    if (memo && tokens.idle()) {
      // 3. Past the edit, at a boundary the old parse had too: the rest is the old parse, moved.
      const here = scanner.position();
      const old = here.offset >= newChangeEnd ? recordEndingAt(oldRecords, firstOld, here.offset - delta) : undefined;
      if (old !== undefined && lastUsedOld <= old) {
        takeComments();
        const boundary = oldRecords[old].after!;
        const dLine = here.line - boundary.line;
        const dColumn = here.column - boundary.column;
        const dComments = comments.length - boundary.comments;
        for (let i = old + 1; i < oldRecords.length; i++) {
          moveRecord(oldRecords[i], boundary.line, delta, dLine, dColumn, dComments);
          keep(oldRecords[i]);
        }
        const moved: A.SourceLocation[] = [];
        const seen = new Set<object>();
        for (let i = boundary.comments; i < oldComments.length; i++) {
          collectLocations(oldComments[i].range, moved, seen);
          comments.push(oldComments[i]);
        }
        shiftLocations(moved, boundary.line, delta, dLine, dColumn);
        break;
      }
    }
    if (tokens.at(start) === undefined) break;
    const end = chunkEnd(tokens, start);
    const chunk = tokens.take(start, end);
    start = end;
    const first = chunk[0];
    const last = chunk[chunk.length - 1];
    const key = text.slice(first.startOffset, last.endOffset! + 1);
    const after = tokens.idle() ? { ...scanner.position(), comments: commentBase + scanner.comments.length } : undefined;
    // The first chunk re-lexed holds the edit: its text is new.
    const candidates = memo && parsedChunks++ > 0 ? oldByKey().get(key) : undefined;
    let record: ChunkRecord;
    if (candidates && candidates.length) {
      // Prefer a chunk that did not move; otherwise take the first one left.
      let idx = candidates.findIndex((i) => oldRecords[i].startOffset === first.startOffset);
      if (idx < 0) idx = 0;
      const i = candidates.splice(idx, 1)[0];
      if (i > lastUsedOld) lastUsedOld = i;
      // A new record: the old one stays as it was for the splice's search (records in source order).
      const old = oldRecords[i];
      shiftResult(old, old.startLine, first.startOffset - old.startOffset, first.startLine! - old.startLine, first.startColumn! - old.startColumn);
      record = { key, startOffset: first.startOffset, startLine: first.startLine!, startColumn: first.startColumn!, result: old.result, after, locations: old.locations };
    } else {
      record = { key, startOffset: first.startOffset, startLine: first.startLine!, startColumn: first.startColumn!, result: parseChunk(text, parser, chunk), after };
    }
    keep(record);
  }
  if (comments.length - commentBase < scanner.comments.length) takeComments();

  // Comment errors first (as if comments were lexed before the statements): the sort below is stable.
  const errors: A.CqlSyntaxError[] = [];
  for (const comment of comments) {
    const error = unterminatedComment(comment);
    if (error) errors.push(error);
  }
  for (const e of chunkErrors) errors.push(e);
  errors.sort((x, y) => x.range.start.offset - y.range.start.offset);
  const parseResult: ParseResult = { statements, comments, errors };
  parseMemo.set(parseResult, { text, records });
  return parseResult;
}

/** Parses one chunk of tokens into a CST only (for the benchmark: parsing without the AST). */
export function parseCstOnly(text: string): number {
  const parser = getParser();
  const { tokens } = lexCql(text);
  let count = 0;
  for (const [start, end] of chunkTokens(tokens)) {
    if (isShellWord(tokens[start])) continue;
    const r = attempt(parser, tokens.slice(start, end));
    if (r.cst) count++;
  }
  return count;
}

// ---------------------------------------------------------------------------------------------
// tokenize

export type TokenCategory =
  | 'keyword' | 'identifier' | 'quotedIdentifier' | 'string' | 'number' | 'boolean' | 'null' | 'uuid' | 'hex'
  | 'duration' | 'bindMarker' | 'operator' | 'punctuation' | 'comment' | 'unknown';

export interface CqlToken {
  /** The source text of the token. */
  image: string;
  /** Chevrotain token type name: `SELECT`, `Identifier`, `StringLiteral`, `LParen`, `LineComment`, ... */
  type: string;
  category: TokenCategory;
  /** A keyword (reserved or not). Unreserved keywords may still be used as names (`key`, `type`, ...). */
  isKeyword: boolean;
  /** A reserved keyword: never a name unless quoted. */
  isReserved: boolean;
  /** For literals: the AST literal kind. */
  literalKind?: A.LiteralKind;
  /** The literal never closes (string, quoted name or block comment running to the end of input). */
  unterminated?: boolean;
  range: A.SourceRange;
}

const RESERVED = new Set<TokenType>([...RESERVED_KEYWORDS].map((w) => keywordType(w)).filter((t): t is TokenType => !!t && t.CATEGORIES?.includes(Keyword) === true));
const OPERATORS = new Set(['<', '<=', '>', '>=', '=', '!=', '+=', '-=', '+', '-', '*', '/', '%']);
const LITERAL_KIND = new Map<TokenType, A.LiteralKind>([
  [StringLiteral, 'string'], [UnterminatedString, 'string'], [IntegerLiteral, 'integer'], [FloatLiteral, 'float'],
  [DurationLiteral, 'duration'], [UuidLiteral, 'uuid'], [HexLiteral, 'hex'], [BooleanLiteral, 'boolean'],
  [NanLiteral, 'nan'], [InfinityLiteral, 'infinity'], [K.NULL, 'null'],
]);

function classify(t: IToken): CqlToken {
  const type = t.tokenType;
  const isKeyword = type.CATEGORIES?.includes(Keyword) ?? false;
  const literalKind = LITERAL_KIND.get(type);
  let category: TokenCategory;
  if (type === LineComment || type === BlockComment) category = 'comment';
  else if (literalKind) category = literalKind === 'integer' || literalKind === 'float' || literalKind === 'nan' || literalKind === 'infinity' ? 'number' : literalKind === 'boolean' ? 'boolean' : literalKind === 'null' ? 'null' : (literalKind as TokenCategory);
  else if (isKeyword) category = 'keyword';
  else if (type === Identifier) category = 'identifier';
  else if (type === QuotedName || type === EmptyQuotedName || type === UnterminatedQuotedName) category = 'quotedIdentifier';
  else if (type === QMark) category = 'bindMarker';
  else if (type === Unknown) category = 'unknown';
  else if (OPERATORS.has(t.image)) category = 'operator';
  else category = 'punctuation';
  const out: CqlToken = { image: t.image, type: type.name, category, isKeyword, isReserved: isKeyword && RESERVED.has(type), range: tokenRange(t) };
  if (literalKind) out.literalKind = literalKind;
  if (type === UnterminatedString || type === UnterminatedQuotedName || (type === BlockComment && !(t.image.length >= 4 && t.image.endsWith('*/')))) out.unterminated = true;
  return out;
}

/** Every token of the text, comments included, in source order. Never throws. */
export function tokenize(text: string): CqlToken[] {
  const { tokens, comments } = lexCql(text);
  const all = comments.length ? [...tokens, ...comments].sort((a, b) => a.startOffset - b.startOffset) : tokens;
  return all.map(classify);
}

// ---------------------------------------------------------------------------------------------
// expectedTokensAt (completion)

/** What a name at the cursor refers to, from the grammar rule that expects it. */
export type IdentifierKind =
  | 'keyspace' | 'table' | 'column' | 'field' | 'type' | 'function' | 'role' | 'index' | 'property' | 'alias'
  | 'trigger' | 'argument' | 'identity' | 'language';

const RULE_IDENTIFIER_KIND: Record<string, IdentifierKind> = {
  keyspaceName: 'keyspace', tableName: 'table', columnName: 'column', columnRef: 'column', fieldName: 'field',
  userTypeName: 'type', functionName: 'function', roleName: 'role', userName: 'role', indexName: 'index',
  qualifiedIndexName: 'index', operand: 'column', propertyName: 'property', aliasName: 'alias', triggerName: 'trigger',
  argumentName: 'argument', identityName: 'identity', createFunction: 'language', cqlType: 'type',
};

/**
 * What may be typed at `offset`, from the grammar (Chevrotain content assist on the statement containing
 * the offset). Shape:
 * - `keywords`: keywords valid next, upper-case (`['FROM', 'WHERE']`). Keywords that are only valid there
 *   as names are not listed; type constructors (`MAP`, `FROZEN`, ...) are listed only if a type is expected.
 * - `punctuation`: punctuation valid next (`'('`, `','`, `';'`, ...), as written.
 * - `expectsIdentifier` and `identifierKinds`: a name may come next, and of which kind(s)
 *   (`'keyspace'`, `'table'`, `'column'`, `'type'`, `'function'`, `'role'`, ...).
 * - `expectsType`: a CQL type may come next (see NATIVE_TYPE_NAMES, plus `frozen<`, `list<`, ...).
 * - `expectsValue`: a literal, bind marker or other value may come next.
 * - `atStatementStart`: a new statement may start here (then `shellCommands` lists cqlsh commands too).
 * - `prefix`/`prefixStart`: the partly typed word ending at the cursor (excluded from the analysis).
 * - `inCommentOrString`: the cursor is inside a comment or a string: nothing to complete.
 */
export interface ExpectedTokens {
  keywords: string[];
  punctuation: string[];
  expectsIdentifier: boolean;
  identifierKinds: IdentifierKind[];
  expectsType: boolean;
  expectsValue: boolean;
  atStatementStart: boolean;
  shellCommands: string[];
  prefix: string;
  prefixStart: number;
  inCommentOrString: boolean;
}

const VALUE_TYPES = new Set<TokenType>([StringLiteral, NumberLit, IntegerLiteral, FloatLiteral, DurationLiteral, UuidLiteral, HexLiteral, BooleanLiteral, NanLiteral, InfinityLiteral, K.NULL, QMark, Colon, LBracket, LBrace, Minus]);
const TYPE_CONSTRUCTORS = new Set<TokenType>([K.MAP, K.LIST, K.SET, K.TUPLE, K.VECTOR, K.FROZEN]);
const NAME_TYPES = new Set<TokenType>([Ident, NonTypeIdent, QuotedName, EmptyQuotedName, Identifier]);

export function expectedTokensAt(text: string, offset: number): ExpectedTokens {
  const result: ExpectedTokens = {
    keywords: [], punctuation: [], expectsIdentifier: false, identifierKinds: [], expectsType: false, expectsValue: false,
    atStatementStart: false, shellCommands: [], prefix: '', prefixStart: offset, inCommentOrString: false,
  };
  try {
    offset = Math.max(0, Math.min(offset, text.length));
    result.prefixStart = offset;
    const before = text.slice(0, offset);
    const { tokens, comments } = lexCql(before);
    const lastComment = comments[comments.length - 1];
    if (lastComment && lastComment.endOffset! + 1 >= offset) {
      const closed = lastComment.tokenType === BlockComment && lastComment.image.length >= 4 && lastComment.image.endsWith('*/');
      if (!closed && (lastComment.tokenType === LineComment || lastComment.tokenType === BlockComment)) {
        result.inCommentOrString = true;
        return result;
      }
    }
    let prefixTokens = tokens;
    const last = tokens[tokens.length - 1];
    if (last && (last.tokenType === UnterminatedString || last.tokenType === UnterminatedQuotedName)) {
      result.inCommentOrString = true;
      return result;
    }
    if (last && last.endOffset! + 1 === offset && (isWord(last) || last.tokenType === QuotedName)) {
      result.prefix = last.image;
      result.prefixStart = last.startOffset;
      prefixTokens = tokens.slice(0, -1);
    }
    const chunks = chunkTokens(prefixTokens);
    let stmt: IToken[] = [];
    const lastChunk = chunks[chunks.length - 1];
    if (lastChunk) {
      const [s, e] = lastChunk;
      const complete = prefixTokens[e - 1].tokenType === Semicolon && !(prefixTokens[s].tokenType === K.BEGIN && prefixTokens[e - 2]?.tokenType !== K.BATCH);
      if (isShellWord(prefixTokens[s])) {
        if (complete || prefixTokens[e - 1].endLine! < new LineIndex(before).location(offset).line) stmt = [];
        else return result;
      } else if (!complete) {
        stmt = prefixTokens.slice(s, e);
      }
    }
    const parser = getParser();
    let next = nextTokenTypes(parser, stmt);
    // The statement before the cursor may be missing its `;`: retry from the last statement keyword at a line start.
    if (next.types.length === 0 && stmt.length > 0) {
      for (let j = stmt.length - 1; j > 0; j--) {
        if (startsStatement(stmt, j, true)) {
          stmt = stmt.slice(j);
          next = nextTokenTypes(parser, stmt);
          break;
        }
      }
    }
    result.atStatementStart = stmt.length === 0;
    if (result.atStatementStart) result.shellCommands = [...SHELL_COMMANDS];
    const kinds = new Set<IdentifierKind>();
    const keywords = new Set<string>();
    const punctuation = new Set<string>();
    const expectsType = next.types.includes(NativeTypeKw);
    result.expectsType = expectsType;
    for (const t of next.types) {
      if (NAME_TYPES.has(t)) {
        result.expectsIdentifier = true;
        for (const stack of next.ruleStacks.get(t) ?? []) {
          const kind = RULE_IDENTIFIER_KIND[stack[stack.length - 1]];
          if (kind && !(kind === 'type' && t !== NonTypeIdent)) kinds.add(kind);
        }
      } else if (t === NativeTypeKw) {
        // covered by expectsType
      } else if (t === PermissionKw) {
        for (const p of PERMISSIONS) keywords.add(p);
      } else if (VALUE_TYPES.has(t)) {
        result.expectsValue = true;
        if (t === LBracket || t === LBrace || t === Minus || t === Colon || t === QMark) punctuation.add(t.LABEL!.slice(1, -1));
        if (t === K.NULL) keywords.add('NULL');
      } else if (t.CATEGORIES?.includes(Keyword)) {
        if (TYPE_CONSTRUCTORS.has(t) && !expectsType) continue;
        keywords.add(t.name);
      } else if (t.LABEL) {
        punctuation.add(t.LABEL.replace(/^'|'$/g, ''));
      }
    }
    if (next.types.includes(K.TOKEN)) keywords.add('TOKEN');
    result.identifierKinds = [...kinds];
    result.keywords = [...keywords].sort();
    result.punctuation = [...punctuation];
  } catch {
    // Completion must never throw; an empty answer is the safe fallback.
  }
  return result;
}

export { decodeString };
