// parseCql: each statement chunk parsed on its own, and the incremental parse that reuses the previous result's
// unchanged chunks. Inside a chunk, a statement-start keyword where the statement cannot continue means a
// missing `;`: the chunk is split there and both parts are parsed.
import { EOF, type IRecognitionException, type IToken } from './chevrotain';
import type * as A from './ast';
import { isSourceRange } from './ast';
import * as Lexer from './lexer';
import type { ScanPosition } from './lexer';
import * as Parser from './parser';
import type { CqlParser } from './parser';
import * as Nodes from './nodes';
import { commonPrefixLength, commonSuffixLength } from './text-diff';
import { buildSyntaxMessage, describeFound } from './errors';
import * as Chunks from './chunks';
import { TOO_DEEP_MESSAGE, TooDeep } from './syntax/base';

// Module constants: compiled to CommonJS (tsx: tests, bench), every use of an imported binding is a getter call,
// and these are called for every statement or token.
const { lexCql, CqlScanner, Semicolon, BlockComment } = Lexer;
const { getParser, readStatement } = Parser;
const { tokenRange, withSharedStrings } = Nodes;
const { isShellWord, firstOnLine, startsStatement, shellEnd, chunkEnd, chunkTokens, TokenWindow } = Chunks;

export interface ParseOptions {
  /** The previous result for an earlier version of the text: unchanged statements are reused (moved, ranges shifted in place). */
  previous?: ParseResult;
}
export type ParseResult = A.ParseResult;

// ---------------------------------------------------------------------------------------------
// Parsing one chunk

interface ChunkResult {
  statements: A.Statement[];
  errors: A.CqlSyntaxError[];
}

/** What the parser made of a statement's tokens: the statement, its first syntax error, or a failure of its own. */
interface Attempt {
  statement?: A.Statement;
  exception?: IRecognitionException;
  /** An exception that is not a syntax error (a rule's action failed): a bug, reported rather than thrown. */
  internal?: unknown;
}

function attempt(parser: CqlParser, tokens: IToken[]): Attempt {
  parser.input = tokens;
  let statement;
  try {
    statement = parser.cqlStatement();
  } catch (e) {
    // Recognition exceptions are caught by Chevrotain; anything else is a bug we must not let escape.
    return { internal: e };
  }
  if (parser.errors.length > 0) return { exception: parser.errors[0] };
  return { statement };
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
  return { start: end, end };
}

function invalidStatement(tokens: IToken[]): A.InvalidStatement {
  return {
    kind: 'Invalid',
    range: tokenRange(tokens[0], tokens[tokens.length - 1]),
    terminated: tokens[tokens.length - 1].tokenType === Semicolon,
  };
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
  const argument = argTokens.length
    ? text.slice(argTokens[0].startOffset, argTokens[argTokens.length - 1].endOffset! + 1).trim()
    : '';
  return { kind: 'ShellCommand', command, argument, terminated, range: tokenRange(first, last) };
}

/** A statement whose reading failed inside the parser: kept visible as Invalid, with the failure as its error. */
function internalFailure(tokens: IToken[], e: unknown, out: ChunkResult): void {
  out.statements.push(invalidStatement(tokens));
  out.errors.push({
    message: `internal error building the syntax tree: ${(e as Error)?.message ?? String(e)}`,
    range: tokenRange(tokens[0]),
  });
}

const NO_STATEMENTS: A.Statement[] = [];

/** The errors of a chunk that has none: one shared array (each chunk's result lives as long as its parse). */
const NO_ERRORS: readonly A.CqlSyntaxError[] = Object.freeze([]);

/** A chunk's statements as a record keeps them: one statement alone, else an array. */
type Kept = A.Statement | A.Statement[];

function parseChunk(text: string, parser: CqlParser, tokens: IToken[], record: ChunkRecord): void {
  // Most chunks are one statement of the forms read straight from their tokens: no lists to gather.
  const direct = isShellWord(tokens[0]) ? undefined : readStatement(tokens);
  if (direct) {
    record.statements = direct;
    record.errors = NO_ERRORS as A.CqlSyntaxError[];
    return;
  }
  const out = parseChunkInto(text, parser, tokens);
  // Most chunks hold one statement: keep it without an array. Arrays grown by push keep spare capacity: keep
  // exact copies, as the result lives as long as the parse.
  record.statements = out.statements.length === 1 ? out.statements[0] : out.statements.slice();
  record.errors = out.errors.length ? out.errors.slice() : (NO_ERRORS as A.CqlSyntaxError[]);
}

/** A chunk the reader did not take (parseChunk tried it on the whole chunk): the rules read it. */
function parseChunkInto(text: string, parser: CqlParser, tokens: IToken[]): ChunkResult {
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
    if (result.statement) {
      out.statements.push(result.statement);
      break;
    }
    if (result.internal !== undefined) {
      if (result.internal instanceof TooDeep) {
        out.statements.push(invalidStatement(seg));
        out.errors.push({ message: TOO_DEEP_MESSAGE, range: tokenRange(result.internal.token) });
      } else internalFailure(seg, result.internal, out);
      break;
    }
    const exception = result.exception!;
    const errIdx = errorIndexOf(seg, exception);
    // A new statement starts where this one cannot continue: a missing `;`.
    if (errIdx > 0 && errIdx < seg.length && startsStatement(seg, errIdx, false)) {
      const prefix = seg.slice(0, errIdx);
      const prefixResult = attempt(parser, prefix);
      if (prefixResult.statement) {
        out.statements.push(prefixResult.statement);
        out.errors.push({
          message: `missing ';' before ${describeFound(seg[errIdx])} (the previous statement is not terminated)`,
          range: tokenRange(seg[errIdx]),
        });
        a += errIdx;
        continue;
      }
      if (firstOnLine(seg, errIdx)) {
        const info = buildSyntaxMessage(exception, seg, errIdx);
        out.errors.push({ message: info.message, range: tokenRange(seg[errIdx]) });
        out.statements.push(invalidStatement(prefix));
        a += errIdx;
        continue;
      }
    }
    const info = buildSyntaxMessage(exception, seg, errIdx);
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
// The shifts move each chunk's SourceRanges in place, from a flat list collected on its first shift.

interface ScanState extends ScanPosition {
  /** How many comments come before this position. */
  comments: number;
}

interface ChunkRecord {
  /** The chunk's length in the text: its text (what an edited text's chunks are matched by) is read when needed. */
  length: number;
  startOffset: number;
  /** The chunk's statements (one alone, not in an array) and errors. */
  statements: Kept;
  errors: A.CqlSyntaxError[];
  /**
   * Where the scanner stood once the chunk was cut, if it had read no token beyond it (else afterOffset is -1):
   * a ScanState held in the record's own fields (afterOf), since a parse keeps one record per statement.
   */
  afterOffset: number;
  afterLine: number;
  afterColumn: number;
  afterComments: number;
  /** Every SourceRange of the chunk's statements and errors (each once), collected on the first shift. */
  ranges: A.SourceRange[] | undefined;
}

/** Where the scanner stood after a record's chunk, if it had read nothing beyond it. */
function afterOf(record: ChunkRecord): ScanState | undefined {
  return record.afterOffset < 0
    ? undefined
    : {
        offset: record.afterOffset,
        line: record.afterLine,
        column: record.afterColumn,
        comments: record.afterComments,
      };
}

interface ParseMemo {
  text: string;
  records: ChunkRecord[];
}

const parseMemo = new WeakMap<A.ParseResult, ParseMemo>();

/**
 * Lets go of what a parse keeps for an incremental re-parse (its text and chunk records): for a tree that
 * will never be passed as `previous` (a Project releasing a file). The memo sits in a long-lived WeakMap,
 * whose values V8's young-generation collections keep alive whatever the key: until the next full
 * collection, each of them copies the whole tree, then promotes it. On the CLI's 2,000-file run that was
 * 8 MB of dead trees promoted per scavenge, and a fifth of the run's CPU time.
 */
export function forgetParse(parse: A.ParseResult): void {
  parseMemo.delete(parse);
}

/**
 * Chars past a chunk boundary the lexer may have looked at (a regex backtracking over `1e+` or a UUID
 * prefix): an edit closer than this to a boundary re-lexes the chunk before it too.
 */
const LEXER_LOOKAHEAD = 16;

/**
 * Every SourceRange in `value`, each once (range objects are shared between nodes: a token's, a node and its only
 * child), added to `out`. With a stack of its own: a chain of 20,000 operators is a tree 20,000 deep.
 */
function collectRanges(value: unknown, out: A.SourceRange[], seen: Set<object>): void {
  const pending: unknown[] = [value];
  while (pending.length) {
    const item = pending.pop();
    if (item === null || typeof item !== 'object') continue;
    if (Array.isArray(item)) {
      for (const v of item) pending.push(v);
      continue;
    }
    if (isSourceRange(item)) {
      if (!seen.has(item)) {
        seen.add(item);
        out.push(item);
      }
      continue;
    }
    const obj = item as Record<string, unknown>;
    for (const key in obj) pending.push(obj[key]);
  }
}

function shiftRanges(ranges: readonly A.SourceRange[], dOffset: number): void {
  for (const range of ranges) {
    range.start += dOffset;
    range.end += dOffset;
  }
}

/** Moves a chunk's AST ranges in place by dOffset. */
function shiftResult(record: ChunkRecord, dOffset: number): void {
  if (dOffset === 0) return;
  if (!record.ranges) {
    record.ranges = [];
    const seen = new Set<object>();
    collectRanges(record.statements, record.ranges, seen);
    collectRanges(record.errors, record.ranges, seen);
  }
  shiftRanges(record.ranges, dOffset);
}

/**
 * Moves an old chunk's record in place, AST included, the same way (plus dComments on its comment count).
 * Only for the splice, after which the old records are not searched again.
 */
function moveRecord(
  record: ChunkRecord,
  line: number,
  dOffset: number,
  dLine: number,
  dColumn: number,
  dComments: number,
): void {
  shiftResult(record, dOffset);
  record.startOffset += dOffset;
  if (record.afterOffset >= 0) {
    if (record.afterLine === line) record.afterColumn += dColumn;
    record.afterOffset += dOffset;
    record.afterLine += dLine;
    record.afterComments += dComments;
  }
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
  return i >= from && records[i].afterOffset === offset ? i : undefined;
}

// ---------------------------------------------------------------------------------------------
// parseCql

function unterminatedComment(comment: A.Comment): A.CqlSyntaxError | undefined {
  if (comment.style !== 'block' || (comment.text.length >= 4 && comment.text.endsWith('*/'))) return undefined;
  return {
    message: "unterminated comment: '/*' without '*/'",
    range: { start: comment.range.start, end: comment.range.end },
  };
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
    return withSharedStrings(() => parseCqlUnsafe(text, options));
  } catch (e) {
    // Defensive: an internal failure must not take the language server down.
    return {
      statements: [],
      comments: [],
      errors: [{ message: `internal parser error: ${(e as Error).message}`, range: { start: 0, end: text.length } }],
    };
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
    const kept = record.statements;
    if (Array.isArray(kept)) for (const st of kept) statements.push(st);
    else statements.push(kept);
    for (const e of record.errors) chunkErrors.push(e);
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
  let prefix = 0;
  if (memo) {
    prefix = commonPrefixLength(memo.text, text);
    const suffix = commonSuffixLength(memo.text, text, Math.min(memo.text.length, text.length) - prefix);
    newChangeEnd = text.length - suffix;
    delta = text.length - memo.text.length;
    let last = -1;
    for (let i = 0; i < oldRecords.length; i++) {
      const afterOffset = oldRecords[i].afterOffset;
      if (afterOffset < 0) continue;
      if (afterOffset + LEXER_LOOKAHEAD > prefix) break;
      last = i;
    }
    if (last >= 0) {
      for (let i = 0; i <= last; i++) keep(oldRecords[i]);
      resume = afterOf(oldRecords[last])!;
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
      const old = oldRecords[i];
      const key = memo!.text.slice(old.startOffset, old.startOffset + old.length);
      const list = byKey.get(key);
      if (list) list.push(i);
      else byKey.set(key, [i]);
    }
    return byKey;
  };
  let lastUsedOld = -1;
  let parsedChunks = 0;

  // 2. Lex and parse from there.
  const scanner = new CqlScanner(text, resume);
  const tokens = new TokenWindow(scanner);
  // The scanner's comment tokens become Comment nodes chunk by chunk: held to the end, a file's comment tokens
  // lived through every collection of the young heap and were copied with the tree.
  const takeComments = (): void => {
    const pending = scanner.comments;
    if (pending.length === 0) return;
    for (let i = 0; i < pending.length; i++) comments.push(buildComment(pending[i]));
    pending.length = 0;
  };
  for (let start = 0; ;) {
    if (memo && tokens.idle()) {
      // 3. Past the edit, at a boundary the old parse had too: the rest is the old parse, moved.
      const here = scanner.position();
      const old = here.offset >= newChangeEnd ? recordEndingAt(oldRecords, firstOld, here.offset - delta) : undefined;
      if (old !== undefined && lastUsedOld <= old) {
        takeComments();
        const boundary = afterOf(oldRecords[old])!;
        const dLine = here.line - boundary.line;
        const dColumn = here.column - boundary.column;
        const dComments = comments.length - boundary.comments;
        for (let i = old + 1; i < oldRecords.length; i++) {
          moveRecord(oldRecords[i], boundary.line, delta, dLine, dColumn, dComments);
          keep(oldRecords[i]);
        }
        const moved: A.SourceRange[] = [];
        const seen = new Set<object>();
        for (let i = boundary.comments; i < oldComments.length; i++) {
          collectRanges(oldComments[i].range, moved, seen);
          comments.push(oldComments[i]);
        }
        shiftRanges(moved, delta);
        break;
      }
    }
    if (tokens.at(start) === undefined) break;
    const end = chunkEnd(tokens, start);
    const chunk = tokens.take(start, end);
    start = end;
    takeComments();
    const first = chunk[0];
    const last = chunk[chunk.length - 1];
    const length = last.endOffset! + 1 - first.startOffset;
    // A literal of one shape (a spread made a new hidden class per record, kept as long as the parse).
    const at = tokens.idle() ? scanner.position() : undefined;
    const afterOffset = at ? at.offset : -1;
    const afterLine = at ? at.line : 0;
    const afterColumn = at ? at.column : 0;
    const afterComments = at ? comments.length : 0;
    // The first chunk re-lexed holds the edit (its text is new) unless it ends before the edit: the lexer looked
    // past its boundary, into the edit, but it is the old chunk's text in the old chunk's place (typing at the start
    // of a statement re-lexes the one before it, which then kept its statement objects, and the file its schema).
    let candidates: number[] | undefined;
    if (memo && parsedChunks++ > 0)
      candidates = oldByKey().get(text.slice(first.startOffset, first.startOffset + length));
    else if (memo && first.startOffset + length <= prefix) {
      const old = oldRecords[firstOld];
      // firstOld++: the old chunks looked up by text for the later ones (oldByKey) start after it.
      if (old && old.startOffset === first.startOffset && old.length === length) candidates = [firstOld++];
    }
    let record: ChunkRecord;
    if (candidates && candidates.length) {
      // Prefer a chunk that did not move; otherwise take the first one left.
      let idx = candidates.findIndex((i) => oldRecords[i].startOffset === first.startOffset);
      if (idx < 0) idx = 0;
      const i = candidates.splice(idx, 1)[0];
      if (i > lastUsedOld) lastUsedOld = i;
      // A new record: the old one stays as it was for the splice's search (records in source order).
      const old = oldRecords[i];
      shiftResult(old, first.startOffset - old.startOffset);
      record = {
        length,
        startOffset: first.startOffset,
        statements: old.statements,
        errors: old.errors,
        afterOffset,
        afterLine,
        afterColumn,
        afterComments,
        ranges: old.ranges,
      };
    } else {
      record = {
        length,
        startOffset: first.startOffset,
        statements: NO_STATEMENTS,
        errors: NO_ERRORS as A.CqlSyntaxError[],
        afterOffset,
        afterLine,
        afterColumn,
        afterComments,
        ranges: undefined,
      };
      parseChunk(text, parser, chunk, record);
    }
    keep(record);
  }
  takeComments();

  // Comment errors first (as if comments were lexed before the statements): the sort below is stable.
  const errors: A.CqlSyntaxError[] = [];
  for (const comment of comments) {
    const error = unterminatedComment(comment);
    if (error) errors.push(error);
  }
  for (const e of chunkErrors) errors.push(e);
  errors.sort((x, y) => x.range.start - y.range.start);
  const parseResult: ParseResult = { statements, comments, errors };
  parseMemo.set(parseResult, { text, records });
  return parseResult;
}

/**
 * Parses every statement chunk of a text with the Chevrotain rules alone, their actions included (the reader
 * skipped): for the benchmark, what the reader saves. Returns the number of statements parsed.
 */
export function parseWithRulesOnly(text: string): number {
  const parser = getParser();
  const { tokens } = lexCql(text);
  let count = 0;
  withSharedStrings(() => {
    for (const [start, end] of chunkTokens(tokens)) {
      if (isShellWord(tokens[start])) continue;
      if (attempt(parser, tokens.slice(start, end)).statement) count++;
    }
  });
  return count;
}
