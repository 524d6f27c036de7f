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
  lexCql, CqlScanner, keywordType, Keyword, Ident, NativeTypeKw, NonTypeIdent, PermissionKw, NumberLit, Semicolon,
  StringLiteral, UnterminatedString, UnterminatedQuotedName, QuotedName, EmptyQuotedName, Identifier,
  IntegerLiteral, FloatLiteral, DurationLiteral, UuidLiteral, HexLiteral, BooleanLiteral, NanLiteral,
  InfinityLiteral, QMark, Colon, LBracket, LBrace, Minus, LineComment, BlockComment, Unknown,
  keywordTokens as K, RESERVED_KEYWORDS, UNRESERVED_KEYWORDS, BASIC_UNRESERVED_KEYWORDS, NATIVE_TYPE_NAMES,
  SHELL_COMMANDS, OTHER_UNRESERVED_KEYWORDS,
} from './lexer';
import { CqlParser, getParser, STATEMENT_START, parserConstructionMs } from './parser';
import { buildStatement, tokenRange, decodeString } from './builder';
import { buildSyntaxMessage, describeFound, nextTokenTypes } from './errors';

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

interface ChunkRecord {
  key: string;
  startOffset: number;
  startLine: number;
  startColumn: number;
  result: ChunkResult;
}

const chunkCache = new WeakMap<A.ParseResult, ChunkRecord[]>();

/**
 * Moves every SourceLocation in `value`, in place: offsets by dOffset, lines by dLine, and columns by dColumn
 * on the chunk's first line. `seen` guards against location objects shared between nodes.
 */
function shiftInPlace(value: unknown, firstLine: number, dOffset: number, dLine: number, dColumn: number, seen: Set<object>): void {
  if (Array.isArray(value)) {
    for (const v of value) shiftInPlace(v, firstLine, dOffset, dLine, dColumn, seen);
    return;
  }
  if (value === null || typeof value !== 'object') return;
  const obj = value as Record<string, unknown>;
  if (typeof obj.offset === 'number' && typeof obj.line === 'number' && typeof obj.column === 'number') {
    if (seen.has(obj)) return;
    seen.add(obj);
    if (obj.line === firstLine) obj.column = (obj.column as number) + dColumn;
    obj.offset = (obj.offset as number) + dOffset;
    obj.line = (obj.line as number) + dLine;
    return;
  }
  for (const key in obj) shiftInPlace(obj[key], firstLine, dOffset, dLine, dColumn, seen);
}

// ---------------------------------------------------------------------------------------------
// parseCql

function buildComment(token: IToken, errors: A.CqlSyntaxError[]): A.Comment {
  const text = token.image;
  const block = token.tokenType === BlockComment;
  let value: string;
  if (block) {
    const closed = text.length >= 4 && text.endsWith('*/');
    if (!closed) errors.push({ message: "unterminated comment: '/*' without '*/'", range: tokenRange(token) });
    value = text.slice(2, closed ? -2 : undefined).trim();
  } else {
    value = text.slice(2).trim();
  }
  return { kind: 'Comment', style: block ? 'block' : 'line', text, value, range: tokenRange(token) };
}

/**
 * Parses a CQL file (or any text). Never throws.
 *
 * With `options.previous` (the result for an earlier version of the same document), statements whose source
 * text is unchanged are not re-parsed: their AST objects (and errors) are moved into the new result and their
 * ranges shifted in place. So `previous` is consumed: do not read positions from it afterwards, and passing it
 * again falls back to a full parse. Statements that did not move are the very same objects in both results.
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
  const scanner = new CqlScanner(text);
  const tokens = new TokenWindow(scanner);
  const chunkErrors: A.CqlSyntaxError[] = [];
  const statements: A.Statement[] = [];
  const records: ChunkRecord[] = [];

  // Previous chunks by source text (a list per text: the same statement may occur several times).
  const previous = new Map<string, ChunkRecord[]>();
  const previousRecords = options.previous ? chunkCache.get(options.previous) : undefined;
  if (previousRecords) {
    // The previous result's statements are moved into this one (and shifted in place): it can serve once.
    chunkCache.delete(options.previous!);
    for (const record of previousRecords) {
      const list = previous.get(record.key);
      if (list) list.push(record);
      else previous.set(record.key, [record]);
    }
  }

  for (let start = 0; tokens.at(start) !== undefined; ) {
    const end = chunkEnd(tokens, start);
    const chunk = tokens.take(start, end);
    start = end;
    const first = chunk[0];
    const last = chunk[chunk.length - 1];
    const key = text.slice(first.startOffset, last.endOffset! + 1);
    let result: ChunkResult | undefined;
    const candidates = previous.get(key);
    if (candidates && candidates.length) {
      // Prefer a chunk that did not move; otherwise take the first one left.
      let idx = candidates.findIndex((c) => c.startOffset === first.startOffset);
      if (idx < 0) idx = 0;
      const old = candidates.splice(idx, 1)[0];
      const dOffset = first.startOffset - old.startOffset;
      const dLine = first.startLine! - old.startLine;
      const dColumn = first.startColumn! - old.startColumn;
      result = old.result;
      if (dOffset !== 0 || dLine !== 0 || dColumn !== 0) shiftInPlace(result, old.startLine, dOffset, dLine, dColumn, new Set());
    }
    if (!result) result = parseChunk(text, parser, chunk);
    records.push({ key, startOffset: first.startOffset, startLine: first.startLine!, startColumn: first.startColumn!, result });
    for (const s of result.statements) statements.push(s);
    for (const e of result.errors) chunkErrors.push(e);
  }

  // Comment errors first (as if comments were lexed before the statements): the sort below is stable.
  const errors: A.CqlSyntaxError[] = [];
  const comments = scanner.comments.map((c) => buildComment(c, errors));
  for (const e of chunkErrors) errors.push(e);
  errors.sort((x, y) => x.range.start.offset - y.range.start.offset);
  const parseResult: ParseResult = { statements, comments, errors };
  chunkCache.set(parseResult, records);
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
        if (complete || prefixTokens[e - 1].endLine! < (lineOf(text, offset))) stmt = [];
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

function lineOf(text: string, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}

export { decodeString };
