// The one bounded-input policy: how much of what a user's files hold cqlint analyses, for every reader of
// untrusted input (CQL documents in the editor and the CLI, sample CSVs, and the evidence files of
// nodetool / dsbulk output). File sizes per kind are capped where files are read (io/files.ts
// MAX_FILE_BYTES); past that, work and memory grow with what is inside a file, and these caps bound it:
//
// - Documents and sources: `analysisRefusal(text)` says why a text is too large to analyse (characters
//   of a document, estimated tokens of one statement: the parser's time and memory grow with a
//   statement's tokens). Its statement scan counts lines as the lexer does (CR, CRLF and LF each end one)
//   and ends `--` / `//` comments where the lexer does, so no line ending hides a statement from it.
// - Records (a CSV row, a line of tool output): `RECORD_LIMITS` caps the characters of one record (every
//   character: quoted or not, delimiters included), its fields and each field; `RecordGuard` does the
//   counting for a streaming reader, which skips a record over a cap to its end (reported by line).
// - Structure: `MAX_NESTING` levels of a JSON or YAML document are read, and no more.
// - Keys (partitions of a sample, tables of an evidence file): `KeyTally` keeps at most
//   `KEY_LIMITS.maxDistinctKeys` distinct keys (and their characters), with exact counts for every key while
//   there are fewer, and past that the keys whose count could exceed what it dropped (the largest, which
//   are what the rules judge), each with a bound on its error; the number of distinct keys is then estimated.
// Pure (no Node or LSP imports).
import { commonPrefixLength, commonSuffixLength } from '../../../grammar/text-diff';
import { murmur3x86_32 } from '../token/murmur3';

// -------------------------------------------------------------------------------------------------
// Documents and statements

export interface AnalysisLimits {
  /** Characters of one document analysed; undefined: no cap (the CLI caps the file's bytes instead). */
  maxDocumentChars?: number;
  /** Estimated tokens of one statement (largestStatement). */
  maxStatementTokens: number;
}

/**
 * The caps for documents. A statement of 1,000,000 items takes the parser half a minute and 3 GB; real
 * statements stay far below 50,000 tokens (Cassandra refuses batches over 50 kB). The editor analyses
 * open documents up to 4 MiB of text.
 */
export const DOCUMENT_LIMITS: Readonly<Required<AnalysisLimits>> = Object.freeze({
  maxDocumentChars: 4 * 1024 * 1024,
  maxStatementTokens: 50_000,
});

/** Why a text is too large to analyse (a sentence for the user), or undefined when it is not. */
export function analysisRefusal(text: string, limits: AnalysisLimits = DOCUMENT_LIMITS): string | undefined {
  return refusalOf(text, limits, largestStatement);
}

/**
 * analysisRefusal of a text that replaces another (an edited document), with the statement scan resumed from
 * the other's (StatementScan): the scan to keep for the next edit comes back with the verdict.
 */
export function editedTextRefusal(
  text: string,
  previous: StatementScan | undefined,
  limits: AnalysisLimits = DOCUMENT_LIMITS,
): { refusal?: string; scan?: StatementScan } {
  let scan: StatementScan | undefined;
  const refusal = refusalOf(text, limits, () => (scan = StatementScan.of(text, previous)).largest);
  return { refusal, scan };
}

function refusalOf(
  text: string,
  limits: AnalysisLimits,
  largestOf: (text: string) => DenseStatement,
): string | undefined {
  const { maxDocumentChars, maxStatementTokens } = limits;
  if (maxDocumentChars !== undefined && text.length > maxDocumentChars)
    return `file too large to analyse (${text.length} characters, limit ${maxDocumentChars})`;
  // A statement cannot hold more tokens than characters: short texts need no scan.
  if (text.length <= maxStatementTokens) return undefined;
  const largest = largestOf(text);
  if (largest.tokens <= maxStatementTokens) return undefined;
  return `statement at line ${largest.line} too large to analyse (about ${largest.tokens} tokens, limit ${maxStatementTokens})`;
}

interface DenseStatement {
  /** Estimated tokens of the largest statement (an upper bound on what the lexer finds, roughly). */
  tokens: number;
  /** 1-based line where that statement starts (lines as the lexer counts them). */
  line: number;
}

const LF = 10;
const CR = 13;

/**
 * The largest statement of a text, by estimated token count, without lexing or parsing it: a linear scan
 * that counts token starts and splits at semicolons outside quotes and comments. Over-estimates inside
 * quoted text, which only makes it cautious. Line comments end at CR or LF, as the lexer ends them, and
 * CR, CRLF and LF each end one line.
 */
export function largestStatement(text: string): DenseStatement {
  let best: DenseStatement = { tokens: 0, line: 1 };
  const tail = scanStatements(text, 0, 1, (tokens, line) => {
    if (tokens > best.tokens) best = { tokens, line };
    return false;
  })!;
  return tail.tokens > best.tokens ? tail : best;
}

/**
 * The statement scan of largestStatement from `from`, a statement boundary (the text's start, or just after a
 * `;` that ended a statement) on line `line`. `ended` is told of each statement a `;` ends: its tokens, its
 * first line, the offset after its `;` and the line there; answering true stops the scan. Answers the
 * unfinished statement after the last `;` (tokens 0 and line 1 when there is none), or undefined when stopped.
 * What it finds after a boundary depends on nothing before it but the line count: a statement's scan
 * reads no character past its `;`, and a boundary resets the whole state (a batch starts with its own
 * first word).
 */
function scanStatements(
  text: string,
  from: number,
  line: number,
  ended: (tokens: number, line: number, end: number, endLine: number) => boolean,
): DenseStatement | undefined {
  let count = 0;
  let startLine = line;
  let inBatch = false;
  const lastWords = ['', ''];
  /** Counts the line ends in text[from, to) (CRLF once). */
  const linesIn = (from: number, to: number): void => {
    for (let j = from; j < to; j++) {
      const d = text.charCodeAt(j);
      if (d === LF || (d === CR && text.charCodeAt(j + 1) !== LF)) line++;
    }
  };
  for (let i = from; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === LF || (c === CR && text.charCodeAt(i + 1) !== LF)) line++;
    // Quoted text and comments: skipped to their end (a ';' inside them ends nothing).
    let end = -1;
    let token = true;
    if (c === 39 /* ' */ || c === 34 /* " */) {
      const at = text.indexOf(c === 39 ? "'" : '"', i + 1);
      end = at < 0 ? text.length : at + 1;
    } else if (c === 36 /* $ */ && text.charCodeAt(i + 1) === 36) {
      const at = text.indexOf('$$', i + 2);
      end = at < 0 ? text.length : at + 2;
    } else if (
      (c === 45 /* - */ && text.charCodeAt(i + 1) === 45) ||
      (c === 47 /* / */ && text.charCodeAt(i + 1) === 47)
    ) {
      // To the line end, which is not part of the comment (the loop counts it).
      end = i + 2;
      while (end < text.length && text.charCodeAt(end) !== LF && text.charCodeAt(end) !== CR) end++;
      token = false;
    } else if (c === 47 && text.charCodeAt(i + 1) === 42 /* * */) {
      const at = text.indexOf('*/', i + 2);
      end = at < 0 ? text.length : at + 2;
      token = false;
    }
    if (end >= 0) {
      // Comments are not the parser's tokens; quoted text is one token.
      if (token) {
        if (count === 0) startLine = line;
        count++;
      }
      linesIn(i + 1, end);
      i = end - 1;
      continue;
    }
    if (c === 59 /* ; */) {
      // A lone `;` is a statement of its own line (not of the one before).
      if (count === 0) startLine = line;
      count++;
      // A batch is one statement for the parser: its inner statements' semicolons end nothing.
      if (!inBatch || (lastWords[0] === 'apply' && lastWords[1] === 'batch')) {
        if (ended(count, startLine, i + 1, line)) return undefined;
        count = 0;
        inBatch = false;
      }
      continue;
    }
    if (c === 32 || c === 9 || c === LF || c === CR || c === 12 || c === 11) continue;
    if (count === 0) startLine = line;
    count++;
    if (!isWordChar(c)) continue;
    let wordEnd = i + 1;
    while (wordEnd < text.length && isWordChar(text.charCodeAt(wordEnd))) wordEnd++;
    // Only the words that open and close a batch matter.
    const word = wordEnd - i === 5 ? text.slice(i, wordEnd).toLowerCase() : '';
    if (count === 1 && word === 'begin') inBatch = true;
    lastWords[0] = lastWords[1];
    lastWords[1] = word;
    i = wordEnd - 1;
  }
  return count ? { tokens: count, line: startLine } : { tokens: 0, line: 1 };
}

/** Fields per statement in StatementScan.statements: the offset after its `;`, the line there, its tokens, its first line. */
const STRIDE = 4;

/**
 * A text's statements as largestStatement scans them, kept so that the scan of the text's next version (an
 * edit in the editor) resumes: the statements that end before the edit are kept, the scan restarts after the
 * last of them, and it stops at the first boundary past the edit that was a boundary of the old text too
 * (after it, everything is the old scan moved by the edit's characters and lines). An edit costs the compare
 * of the two texts (native, by blocks) and the scan of the statements it touched, not a scan of the whole.
 */
export class StatementScan {
  /** The largest statement (as largestStatement answers). */
  readonly largest: DenseStatement;

  private constructor(
    readonly text: string,
    /** STRIDE numbers per statement a `;` ended, in order. */
    private readonly statements: number[],
    /** The statement after the last `;` (tokens 0 and line 1 when none). */
    private readonly tail: DenseStatement,
  ) {
    let best: DenseStatement = { tokens: 0, line: 1 };
    for (let i = 0; i < statements.length; i += STRIDE)
      if (statements[i + 2]! > best.tokens) best = { tokens: statements[i + 2]!, line: statements[i + 3]! };
    this.largest = tail.tokens > best.tokens ? tail : best;
  }

  static of(text: string, previous?: StatementScan): StatementScan {
    const out: number[] = [];
    let from = 0;
    let line = 1;
    // Offsets from changeEnd on hold the old text's from changeEnd - delta on.
    let changeEnd = 0;
    let delta = 0;
    if (previous) {
      if (previous.text === text) return previous;
      const old = previous.statements;
      const prefix = commonPrefixLength(previous.text, text);
      changeEnd =
        text.length - commonSuffixLength(previous.text, text, Math.min(previous.text.length, text.length) - prefix);
      delta = text.length - previous.text.length;
      // The statements that end inside the common prefix read nothing after it: kept as they are.
      let kept = 0;
      while (kept < old.length && old[kept]! <= prefix) kept += STRIDE;
      for (let i = 0; i < kept; i++) out.push(old[i]!);
      if (kept) [from, line] = [old[kept - STRIDE]!, old[kept - STRIDE + 1]!];
    }
    let resumedTail: DenseStatement | undefined;
    const tail = scanStatements(text, from, line, (tokens, startLine, end, endLine) => {
      out.push(end, endLine, tokens, startLine);
      if (!previous || end < changeEnd) return false;
      const at = previous.statementEndingAt(end - delta);
      if (at < 0) return false;
      // The same boundary in both texts: the rest is the old scan, moved.
      const old = previous.statements;
      const lines = endLine - old[at + 1]!;
      for (let i = at + STRIDE; i < old.length; i += STRIDE)
        out.push(old[i]! + delta, old[i + 1]! + lines, old[i + 2]!, old[i + 3]! + lines);
      resumedTail = previous.tail.tokens
        ? { tokens: previous.tail.tokens, line: previous.tail.line + lines }
        : previous.tail;
      return true;
    });
    return new StatementScan(text, out, tail ?? resumedTail!);
  }

  /** The index in `statements` of the statement that ends at `offset`, or -1. */
  private statementEndingAt(offset: number): number {
    const s = this.statements;
    let lo = 0;
    let hi = s.length / STRIDE;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (s[mid * STRIDE]! < offset) lo = mid + 1;
      else hi = mid;
    }
    return lo * STRIDE < s.length && s[lo * STRIDE] === offset ? lo * STRIDE : -1;
  }
}

function isWordChar(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95 || c > 127;
}

// -------------------------------------------------------------------------------------------------
// Records

export interface RecordLimits {
  /** Characters of one record, every one counted (quoted or not, delimiters and quotes included). */
  maxRecordChars: number;
  /** Fields of one record. */
  maxFields: number;
  /** Characters of one field. */
  maxFieldChars: number;
}

/**
 * Caps for one record of a sample or evidence file: a cqlsh row of a wide table with a few large blobs
 * fits; a file of commas or one runaway quoted field does not take the process's memory.
 */
export const RECORD_LIMITS: Readonly<RecordLimits> = Object.freeze({
  maxRecordChars: 16 * 1024 * 1024,
  maxFields: 4096,
  maxFieldChars: 8 * 1024 * 1024,
});

/**
 * Levels of nesting a reader of a structured format (JSON, YAML: nodetool's -F json / -F yaml, and any
 * new one) follows; past it, it says so with the line and reads no deeper. Real documents are a few
 * levels deep (nodetool's five), and a reader that keeps a path per value does depth x values of work:
 * with this bound every reader stays linear in its input. A reader's lines are bounded by RECORD_LIMITS,
 * and its patterns must not backtrack (evidence/text-scan.ts says how); `npm run bench -- hostile` times
 * each reader's worst generated input (bench/hostile-readers.ts: a new reader adds itself there).
 */
export const MAX_NESTING = 64;

/**
 * The counting a streaming record reader does against RECORD_LIMITS: it tells the guard what it takes
 * (characters, a field ended, a field's length) and, once a cap is passed, gets the reason to report; it
 * then skips to the end of the record without keeping anything.
 */
export class RecordGuard {
  private chars = 0;
  private fields = 0;

  constructor(readonly limits: Readonly<RecordLimits> = RECORD_LIMITS) {}

  /** A new record starts. */
  reset(): void {
    this.chars = 0;
    this.fields = 0;
  }

  /** `n` more characters of the record; the reason once the record is too long. */
  take(n: number): string | undefined {
    this.chars += n;
    return this.chars > this.limits.maxRecordChars
      ? `record longer than ${this.limits.maxRecordChars} characters (an unclosed quote?)`
      : undefined;
  }

  /** A field of `length` characters is growing or ended; the reason once it is too long. */
  field(length: number): string | undefined {
    return length > this.limits.maxFieldChars
      ? `a field longer than ${this.limits.maxFieldChars} characters`
      : undefined;
  }

  /** A field ended; the reason once there are too many. */
  endField(): string | undefined {
    this.fields++;
    return this.fields > this.limits.maxFields ? `more than ${this.limits.maxFields} fields` : undefined;
  }
}

// -------------------------------------------------------------------------------------------------
// Keys

export interface KeyLimits {
  /** Distinct keys held at once. */
  maxDistinctKeys: number;
  /** Characters of the keys held, together. */
  maxKeyChars: number;
  /** Characters of one key (Cassandra's limit for a partition key is 65,535 bytes). */
  maxKeyLength: number;
}

/** About 100 MB for the keys of a sample at most, whatever the file holds (9 million keys took 4.3 GB). */
export const KEY_LIMITS: Readonly<KeyLimits> = Object.freeze({
  maxDistinctKeys: 200_000,
  maxKeyChars: 32 * 1024 * 1024,
  maxKeyLength: 65_535,
});

export interface TalliedKey<V> {
  key: string;
  /** Occurrences since the key was (last) taken in: exact when `error` is 0. */
  count: number;
  /** Occurrences it may have had before (when it had been dropped): the true count is count..count + error. */
  error: number;
  /** The caller's data for the key (made when it is taken in). */
  value: V;
}

/**
 * Counts keys in bounded memory. While there are at most `maxDistinctKeys` distinct keys (and their
 * characters fit), every count is exact. Past that, the keys with the smallest counts are dropped (half
 * of them, at once) and a later occurrence of a dropped key starts again with an error bound; any key that
 * occurred more than `dropped()` times is still held, so the largest keys are never lost.
 * `distinct()` is exact until the first drop and an estimate (HyperLogLog, ~1% error) after it.
 */
export class KeyTally<V> {
  private readonly keys = new Map<string, TalliedKey<V>>();
  private chars = 0;
  /** No key that is not held occurred more than this many times. */
  private floor = 0;
  private readonly sketch = new DistinctSketch();
  private pruned = false;

  constructor(readonly limits: Readonly<KeyLimits> = KEY_LIMITS) {}

  /** The entry of `key`, counted once more; `make` gives a new key's data (when it throws, nothing is counted). */
  add(key: string, make: () => V): TalliedKey<V> {
    let entry = this.keys.get(key);
    if (entry) {
      entry.count++;
      return entry;
    }
    const value = make(); // first: a make that throws takes nothing in
    this.sketch.add(key);
    entry = { key, count: 1, error: this.floor, value };
    this.keys.set(key, entry);
    this.chars += key.length;
    if (this.keys.size > this.limits.maxDistinctKeys || this.chars > this.limits.maxKeyChars) this.prune(entry);
    return entry;
  }

  /** The keys held (the largest ones once some were dropped). */
  entries(): IterableIterator<TalliedKey<V>> {
    return this.keys.values();
  }

  get size(): number {
    return this.keys.size;
  }

  /** Distinct keys seen: exact until keys were dropped, then an estimate. */
  distinct(): number {
    return this.pruned ? Math.max(this.keys.size, Math.round(this.sketch.estimate())) : this.keys.size;
  }

  /** Whether keys were dropped (counts and percentiles then cover the largest keys only). */
  get approximate(): boolean {
    return this.pruned;
  }

  /** A key not held occurred at most this many times. */
  dropped(): number {
    return this.floor;
  }

  /**
   * Drops the keys with the smallest upper bounds (never `keep`, the key being added) until at most half
   * the caps are used: each round drops the lower half, so the largest keys stay.
   */
  private prune(keep: TalliedKey<V>): void {
    this.pruned = true;
    const { maxDistinctKeys, maxKeyChars } = this.limits;
    while ((this.keys.size > maxDistinctKeys / 2 || this.chars > maxKeyChars / 2) && this.keys.size > 1) {
      const bounds = new Float64Array(this.keys.size);
      let i = 0;
      for (const e of this.keys.values()) bounds[i++] = e.count + e.error;
      bounds.sort();
      const threshold = bounds[Math.floor((bounds.length - 1) / 2)]!;
      for (const [key, e] of this.keys) {
        if (e !== keep && e.count + e.error <= threshold) {
          this.keys.delete(key);
          this.chars -= key.length;
        }
      }
      this.floor = Math.max(this.floor, threshold);
    }
  }
}

/** HyperLogLog with 2^14 registers (16 KB): the number of distinct strings within about 1%. */
class DistinctSketch {
  private static readonly BITS = 14;
  private readonly registers = new Uint8Array(1 << DistinctSketch.BITS);
  private readonly encoder = new TextEncoder();

  add(value: string): void {
    const bytes = this.encoder.encode(value);
    const hash = murmur3x86_32(bytes, bytes.length);
    const index = hash >>> (32 - DistinctSketch.BITS);
    const rest = (hash << DistinctSketch.BITS) | (1 << (DistinctSketch.BITS - 1));
    const rank = Math.clz32(rest) + 1;
    if (rank > this.registers[index]!) this.registers[index] = rank;
  }

  estimate(): number {
    const m = this.registers.length;
    let sum = 0;
    let zeros = 0;
    for (const r of this.registers) {
      sum += 2 ** -r;
      if (r === 0) zeros++;
    }
    const raw = ((0.7213 / (1 + 1.079 / m)) * m * m) / sum;
    // Small ranges: linear counting is the better estimate.
    return raw <= 2.5 * m && zeros ? m * Math.log(m / zeros) : raw;
  }
}
