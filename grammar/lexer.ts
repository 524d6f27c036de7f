// The CQL lexer (Apache Cassandra 5.0 Lexer.g, plus cqlsh words).
//
// Keywords are not lexed by 150 case-insensitive regexes: every word is lexed as `Identifier` and then
// re-typed by a case-insensitive lookup of the whole word (`keywordByLowerImage`, which the scanner reads
// through a table keyed by a hash it computes as it reads the word: `keywordSlot`). That is Cassandra's behaviour
// (keywords are case-insensitive, `longer_alt` semantics come for free because the whole word is
// matched first) and several times faster than trying each keyword pattern in turn.
// Unreserved keywords carry the `Ident` category so the parser accepts them wherever a name is expected.
// The token definitions below are the specification; `lexCql` / `CqlScanner` is a hand-written scanner that
// produces exactly Chevrotain's tokens for them (checked against `referenceLexCql` in
// test/grammar/lexer-equivalence.test.ts), faster and one statement at a time.
import { createToken, Lexer, type IToken, type TokenType } from './chevrotain';

// ---------------------------------------------------------------------------------------------
// Categories (abstract token types used by the parser)

/** Anything usable as a name: identifiers, quoted names, unreserved keywords. */
export const Ident = createToken({ name: 'Ident', pattern: Lexer.NA });
/** Names allowed for user-defined types (`non_type_ident`): no native type names. */
export const NonTypeIdent = createToken({ name: 'NonTypeIdent', pattern: Lexer.NA });
/** Native type keywords (`int`, `text`, ...). */
export const NativeTypeKw = createToken({ name: 'NativeTypeKw', pattern: Lexer.NA });
/** Every keyword, reserved or not. */
export const Keyword = createToken({ name: 'Keyword', pattern: Lexer.NA });
/** Permissions usable in GRANT / REVOKE / LIST. */
export const PermissionKw = createToken({ name: 'PermissionKw', pattern: Lexer.NA });
/** Numeric-ish constants. */
export const NumberLit = createToken({ name: 'NumberLit', pattern: Lexer.NA });

// ---------------------------------------------------------------------------------------------
// Trivia

const WhiteSpace = createToken({
  name: 'WhiteSpace',
  pattern: /[ \t\r\n\f\v\u00a0\ufeff]+/,
  group: Lexer.SKIPPED,
  line_breaks: true,
});
export const LineComment = createToken({ name: 'LineComment', pattern: /(?:--|\/\/)[^\n\r]*/, group: 'comments' });
/** A block comment; unterminated ones run to the end of input (reported by the parser front end). */
export const BlockComment = createToken({
  name: 'BlockComment',
  pattern: /\/\*[^]*?(?:\*\/|$(?![^]))/,
  group: 'comments',
  line_breaks: true,
  start_chars_hint: ['/'],
});

// ---------------------------------------------------------------------------------------------
// Literals

/** `'text'` with `''` escapes, or `$$text$$`. */
export const StringLiteral = createToken({
  name: 'StringLiteral',
  pattern: /'[^']*(?:''[^']*)*'|\$\$[^]*?\$\$/,
  line_breaks: true,
  start_chars_hint: ["'", '$'],
});
/** A string that never closes: runs to the end of input; never accepted by the grammar. */
export const UnterminatedString = createToken({
  name: 'UnterminatedString',
  pattern: /'[^']*(?:''[^']*)*|\$\$[^]*/,
  line_breaks: true,
  start_chars_hint: ["'", '$'],
});
export const QuotedName = createToken({
  name: 'QuotedName',
  pattern: /"(?:[^"]|"")+"/,
  categories: [Ident, NonTypeIdent],
  line_breaks: true,
  start_chars_hint: ['"'],
});
export const EmptyQuotedName = createToken({ name: 'EmptyQuotedName', pattern: /""/ });
export const UnterminatedQuotedName = createToken({
  name: 'UnterminatedQuotedName',
  pattern: /"[^"]*/,
  line_breaks: true,
  start_chars_hint: ['"'],
});

const HEX = '[0-9a-fA-F]';
export const UuidLiteral = createToken({
  name: 'UuidLiteral',
  pattern: new RegExp(`${HEX}{8}-${HEX}{4}-${HEX}{4}-${HEX}{4}-${HEX}{12}(?![0-9A-Za-z_])`),
  start_chars_hint: [...'0123456789abcdefABCDEF'],
});
export const HexLiteral = createToken({
  name: 'HexLiteral',
  pattern: /0[xX][0-9a-fA-F]*(?![0-9A-Za-z_])/,
  start_chars_hint: ['0'],
});
const UNIT = '(?:[mM][oOsS]|[uUnN][sS]|\u00b5[sS]|[yYwWdDhHmMsS])';
const ISO_TIME = '(?:\\d+H(?:\\d+M)?(?:\\d+S)?|\\d+M(?:\\d+S)?|\\d+S)';
/** `1h30m`, `P1Y2M3D`, `PT5S`, `P2W`, `P0001-02-03T04:05:06` (the leading `-` is a unary minus). */
export const DurationLiteral = createToken({
  name: 'DurationLiteral',
  pattern: new RegExp(
    `(?:\\d+${UNIT}(?:\\d+${UNIT})*|P\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}|PT${ISO_TIME}|P\\d+W|P(?:\\d+Y(?:\\d+M)?(?:\\d+D)?|\\d+M(?:\\d+D)?|\\d+D)(?:T${ISO_TIME})?)(?![0-9A-Za-z_])`,
  ),
  categories: [NumberLit],
  start_chars_hint: [...'0123456789P'],
  label: 'a duration',
});
/** `1.5`, `1e10`, `1.` (but `1..2` is INTEGER RANGE INTEGER, as in Lexer.g). */
export const FloatLiteral = createToken({
  name: 'FloatLiteral',
  pattern: /\d+(?:\.(?!\.)\d*(?:[eE][+-]?\d+)?|[eE][+-]?\d+)/,
  categories: [NumberLit],
});
export const IntegerLiteral = createToken({ name: 'IntegerLiteral', pattern: /\d+/, categories: [NumberLit] });

export const Identifier = createToken({
  name: 'Identifier',
  pattern: /[a-zA-Z][a-zA-Z0-9_]*/,
  categories: [Ident, NonTypeIdent],
});

// ---------------------------------------------------------------------------------------------
// Punctuation

export const Semicolon = createToken({ name: 'Semicolon', pattern: ';', label: "';'" });
export const Comma = createToken({ name: 'Comma', pattern: ',', label: "','" });
export const Range = createToken({ name: 'Range', pattern: '..', label: "'..'" });
export const Dot = createToken({ name: 'Dot', pattern: '.', label: "'.'" });
export const LParen = createToken({ name: 'LParen', pattern: '(', label: "'('" });
export const RParen = createToken({ name: 'RParen', pattern: ')', label: "')'" });
export const LBracket = createToken({ name: 'LBracket', pattern: '[', label: "'['" });
export const RBracket = createToken({ name: 'RBracket', pattern: ']', label: "']'" });
export const LBrace = createToken({ name: 'LBrace', pattern: '{', label: "'{'" });
export const RBrace = createToken({ name: 'RBrace', pattern: '}', label: "'}'" });
export const LtEq = createToken({ name: 'LtEq', pattern: '<=', label: "'<='" });
export const GtEq = createToken({ name: 'GtEq', pattern: '>=', label: "'>='" });
export const NotEq = createToken({ name: 'NotEq', pattern: '!=', label: "'!='" });
export const PlusEq = createToken({ name: 'PlusEq', pattern: '+=', label: "'+='" });
export const MinusEq = createToken({ name: 'MinusEq', pattern: '-=', label: "'-='" });
export const Lt = createToken({ name: 'Lt', pattern: '<', label: "'<'" });
export const Gt = createToken({ name: 'Gt', pattern: '>', label: "'>'" });
export const Eq = createToken({ name: 'Eq', pattern: '=', label: "'='" });
export const Plus = createToken({ name: 'Plus', pattern: '+', label: "'+'" });
export const Minus = createToken({ name: 'Minus', pattern: '-', label: "'-'" });
export const Star = createToken({ name: 'Star', pattern: '*', label: "'*'" });
export const Slash = createToken({ name: 'Slash', pattern: '/', label: "'/'" });
export const Percent = createToken({ name: 'Percent', pattern: '%', label: "'%'" });
export const Colon = createToken({ name: 'Colon', pattern: ':', label: "':'" });
export const QMark = createToken({ name: 'QMark', pattern: '?', label: "'?'" });
/** Any other character: lexing never fails, the parser reports it. */
export const Unknown = createToken({ name: 'Unknown', pattern: /[\u0000-\uffff]/ });

// ---------------------------------------------------------------------------------------------
// Keywords

/** Reserved keywords of Cassandra 5.0 (cannot be used as unquoted names). */
export const RESERVED_KEYWORDS: readonly string[] = [
  'ADD',
  'ALLOW',
  'ALTER',
  'AND',
  'APPLY',
  'ASC',
  'AUTHORIZE',
  'BATCH',
  'BEGIN',
  'BY',
  'COLUMNFAMILY',
  'CREATE',
  'DELETE',
  'DESC',
  'DESCRIBE',
  'DROP',
  'ENTRIES',
  'EXECUTE',
  'FROM',
  'FULL',
  'GRANT',
  'IF',
  'IN',
  'INDEX',
  'INFINITY',
  'INSERT',
  'INTO',
  'IS',
  'KEYSPACE',
  'LIMIT',
  'MATERIALIZED',
  'MODIFY',
  'NAN',
  'NORECURSIVE',
  'NOT',
  'NULL',
  'OF',
  'ON',
  'OR',
  'ORDER',
  'PRIMARY',
  'RENAME',
  'REVOKE',
  'SCHEMA',
  'SELECT',
  'SET',
  'TABLE',
  'TO',
  'TOKEN',
  'TRUNCATE',
  'UNLOGGED',
  'UPDATE',
  'USE',
  'USING',
  'VIEW',
  'WHERE',
  'WITH',
  // Not in Cassandra's reserved list but lexed as keywords and used only structurally.
  'OF',
  'DESC',
];

/** The 21 native type names (unreserved: usable as names). */
export const NATIVE_TYPE_NAMES: readonly string[] = [
  'ascii',
  'bigint',
  'blob',
  'boolean',
  'counter',
  'date',
  'decimal',
  'double',
  'duration',
  'float',
  'inet',
  'int',
  'smallint',
  'text',
  'time',
  'timestamp',
  'timeuuid',
  'tinyint',
  'uuid',
  'varchar',
  'varint',
];

/** Parser.g `basic_unreserved_keyword` (5.0, plus BETWEEN and ScyllaDB's words). Usable as any name, including type names. */
export const BASIC_UNRESERVED_KEYWORDS: readonly string[] = [
  'KEYS',
  'AS',
  'CLUSTER',
  'CLUSTERING',
  'COMPACT',
  'STORAGE',
  'TABLES',
  'TYPE',
  'TYPES',
  'VALUES',
  'MAP',
  'LIST',
  'FILTERING',
  'PERMISSION',
  'PERMISSIONS',
  'KEYSPACES',
  'ALL',
  'USER',
  'USERS',
  'ROLE',
  'ROLES',
  'IDENTITY',
  'SUPERUSER',
  'SUPERUSERS',
  'NOSUPERUSER',
  'LOGIN',
  'NOLOGIN',
  'OPTIONS',
  'PASSWORD',
  'GENERATED',
  'HASHED',
  'EXISTS',
  'CUSTOM',
  'TRIGGER',
  'CONTAINS',
  'INTERNALS',
  'ONLY',
  'STATIC',
  'FROZEN',
  'TUPLE',
  'FUNCTION',
  'FUNCTIONS',
  'AGGREGATE',
  'AGGREGATES',
  'SFUNC',
  'STYPE',
  'FINALFUNC',
  'INITCOND',
  'RETURNS',
  'LANGUAGE',
  'CALLED',
  'INPUT',
  'LIKE',
  'PER',
  'PARTITION',
  'GROUP',
  'DATACENTERS',
  'CIDRS',
  'ACCESS',
  'DEFAULT',
  'MBEAN',
  'MBEANS',
  'REPLACE',
  'UNSET',
  'MASKED',
  'UNMASK',
  'SELECT_MASKED',
  'VECTOR',
  'ANN',
  'BETWEEN',
  // ScyllaDB: SELECT ... BYPASS CACHE, USING TIMEOUT.
  'BYPASS',
  'CACHE',
  'TIMEOUT',
];

/** Parser.g `unreserved_keyword` additions: usable as column names but not as type names. */
export const OTHER_UNRESERVED_KEYWORDS: readonly string[] = [
  'TTL',
  'COUNT',
  'WRITETIME',
  'MAXWRITETIME',
  'KEY',
  'CAST',
  'JSON',
  'DISTINCT',
];

/** All unreserved keywords (basic, native type names upper-cased, and the others). */
export const UNRESERVED_KEYWORDS: readonly string[] = [
  ...BASIC_UNRESERVED_KEYWORDS,
  ...NATIVE_TYPE_NAMES.map((n) => n.toUpperCase()),
  ...OTHER_UNRESERVED_KEYWORDS,
];

/** cqlsh commands (not CQL): recognised as ShellCommand statements. */
export const SHELL_COMMANDS: readonly string[] = [
  'CAPTURE',
  'CLEAR',
  'CLS',
  'CONSISTENCY',
  'COPY',
  'DEBUG',
  'EXIT',
  'EXPAND',
  'HELP',
  'HISTORY',
  'LOGIN',
  'PAGING',
  'QUIT',
  'SERIAL',
  'SHOW',
  'SOURCE',
  'TRACING',
  'UNICODE',
  'ELAPSED',
];

/** The keyword token types, by upper-case keyword. `TABLE` and `COLUMNFAMILY` share a type, as in Lexer.g. */
export const keywordTokens: Record<string, TokenType> = {};
const keywordByLowerImage = new Map<string, TokenType>();

function defineKeyword(word: string, categories: TokenType[], aliases: string[] = []): TokenType {
  const tokenType = createToken({
    name: word,
    pattern: Lexer.NA,
    categories: [Keyword, ...categories],
    label: `'${word}'`,
  });
  keywordTokens[word] = tokenType;
  keywordByLowerImage.set(word.toLowerCase(), tokenType);
  for (const alias of aliases) keywordByLowerImage.set(alias.toLowerCase(), tokenType);
  return tokenType;
}

const PERMISSION_WORDS = new Set([
  'CREATE',
  'ALTER',
  'DROP',
  'SELECT',
  'MODIFY',
  'AUTHORIZE',
  'DESCRIBE',
  'EXECUTE',
  'UNMASK',
  'SELECT_MASKED',
]);
for (const word of new Set(RESERVED_KEYWORDS)) {
  defineKeyword(word, PERMISSION_WORDS.has(word) ? [PermissionKw] : [], word === 'TABLE' ? ['COLUMNFAMILY'] : []);
}
// COLUMNFAMILY is an alias of TABLE (one token type, like Lexer.g's K_COLUMNFAMILY).
delete keywordTokens.COLUMNFAMILY;
keywordByLowerImage.set('columnfamily', keywordTokens.TABLE);
for (const word of BASIC_UNRESERVED_KEYWORDS) {
  defineKeyword(
    word,
    PERMISSION_WORDS.has(word) ? [Ident, NonTypeIdent, PermissionKw] : [Ident, NonTypeIdent],
    word === 'TABLES' ? ['COLUMNFAMILIES'] : [],
  );
}
for (const name of NATIVE_TYPE_NAMES) defineKeyword(name.toUpperCase(), [Ident, NativeTypeKw]);
for (const word of OTHER_UNRESERVED_KEYWORDS) defineKeyword(word, word === 'KEY' ? [Ident, NonTypeIdent] : [Ident]);

/** `true` / `false`. */
export const BooleanLiteral = createToken({ name: 'BooleanLiteral', pattern: Lexer.NA, label: 'a boolean' });
keywordByLowerImage.set('true', BooleanLiteral);
keywordByLowerImage.set('false', BooleanLiteral);
export const NanLiteral = createToken({
  name: 'NanLiteral',
  pattern: Lexer.NA,
  categories: [NumberLit],
  label: "'NaN'",
});
export const InfinityLiteral = createToken({
  name: 'InfinityLiteral',
  pattern: Lexer.NA,
  categories: [NumberLit],
  label: "'Infinity'",
});
keywordByLowerImage.set('nan', NanLiteral);
keywordByLowerImage.set('infinity', InfinityLiteral);
delete keywordTokens.NAN;
delete keywordTokens.INFINITY;

// Token order matters: the first pattern that matches wins.
const lexerTokens: TokenType[] = [
  WhiteSpace,
  LineComment,
  BlockComment,
  StringLiteral,
  UnterminatedString,
  EmptyQuotedName,
  QuotedName,
  UnterminatedQuotedName,
  UuidLiteral,
  HexLiteral,
  DurationLiteral,
  FloatLiteral,
  IntegerLiteral,
  Identifier,
  Semicolon,
  Comma,
  Range,
  Dot,
  LParen,
  RParen,
  LBracket,
  RBracket,
  LBrace,
  RBrace,
  LtEq,
  GtEq,
  NotEq,
  PlusEq,
  MinusEq,
  Lt,
  Gt,
  Eq,
  Plus,
  Minus,
  Star,
  Slash,
  Percent,
  Colon,
  QMark,
  Unknown,
];

/** Every token type the parser knows (lexer tokens, keywords, categories). */
export const allTokenTypes: TokenType[] = [
  Ident,
  NonTypeIdent,
  NativeTypeKw,
  Keyword,
  PermissionKw,
  NumberLit,
  ...lexerTokens,
  BooleanLiteral,
  NanLiteral,
  InfinityLiteral,
  ...new Set(Object.values(keywordTokens)),
];

/**
 * Chevrotain's lexer for the token definitions above: the reference `lexCql` must agree with token for token
 * (test/grammar/lexer-equivalence.test.ts). Built on first use; the parser only needs the token types.
 */
let referenceLexer: InstanceType<typeof Lexer> | undefined;
function getReferenceLexer(): InstanceType<typeof Lexer> {
  return (referenceLexer ??= new Lexer(lexerTokens, {
    positionTracking: 'full',
    ensureOptimizations: true,
    // Every character is matched by some token (Unknown), so the lexer never reports errors.
    recoveryEnabled: true,
    skipValidations: process.env.CQLINT_VALIDATE_LEXER !== '1',
  }));
}

interface LexResult {
  /** Significant tokens (keywords re-typed), in order. */
  tokens: IToken[];
  /** Comment tokens, in order. */
  comments: IToken[];
}

/** Lexes with Chevrotain's lexer (the executable specification of `lexCql`, for tests). */
export function referenceLexCql(text: string): LexResult {
  const result = getReferenceLexer().tokenize(text);
  const tokens = result.tokens;
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i];
    if (token.tokenType === Identifier) {
      const keyword = keywordByLowerImage.get(token.image.toLowerCase());
      if (keyword !== undefined) {
        token.tokenType = keyword;
        token.tokenTypeIdx = keyword.tokenTypeIdx!;
      }
    }
  }
  return { tokens, comments: (result.groups.comments as IToken[] | undefined) ?? [] };
}

// ---------------------------------------------------------------------------------------------
// The lexer: a hand-written scanner that produces exactly the tokens of the definitions above (first
// matching pattern wins, Chevrotain's line/column rules), several times faster than trying regexes per
// token. Common tokens (whitespace, words, punctuation, plain integers, strings, names, comments) are
// scanned by hand; numbers with suffixes and words that may be UUIDs or durations run the token's own
// regex (sticky), in the token order.

/**
 * The keywords in an open-addressing table keyed by a hash of a word's case-folded characters, which the
 * scanner computes as it reads the word: a word is looked up without an image of its own, a toLowerCase or a
 * hash of a new string (Map.get of each word's fresh image was a third of the lexer's time on the 2,000-file
 * CLI run). A keyword written all in lower or all in upper case takes the table's string as its image.
 */
const KEYWORD_SLOTS = 2048;
const KEYWORD_MASK = KEYWORD_SLOTS - 1;
const keywordLower: (string | undefined)[] = new Array<string | undefined>(KEYWORD_SLOTS).fill(undefined);
const keywordUpper: string[] = new Array<string>(KEYWORD_SLOTS).fill('');
const keywordTypeAt: (TokenType | undefined)[] = new Array<TokenType | undefined>(KEYWORD_SLOTS).fill(undefined);
/** A character code with ASCII upper-case letters lower-cased (words are ASCII). */
function folded(code: number): number {
  return code >= 65 && code <= 90 ? code + 32 : code;
}
/** FNV-1a over the folded character codes. */
const FOLD_SEED = 0x811c9dc5 | 0;
function foldStep(hash: number, code: number): number {
  return Math.imul(hash ^ folded(code), 0x01000193);
}
let longestKeyword = 0;
for (const [word, type] of keywordByLowerImage) {
  if (!/^[a-z0-9_]+$/.test(word)) throw new Error(`keyword ${word} is not an ASCII word`);
  let hash = FOLD_SEED;
  for (let i = 0; i < word.length; i++) hash = foldStep(hash, word.charCodeAt(i));
  let slot = hash & KEYWORD_MASK;
  while (keywordLower[slot] !== undefined) slot = (slot + 1) & KEYWORD_MASK;
  keywordLower[slot] = word;
  keywordUpper[slot] = word.toUpperCase();
  keywordTypeAt[slot] = type;
  longestKeyword = Math.max(longestKeyword, word.length);
}
if (keywordByLowerImage.size * 4 > KEYWORD_SLOTS) throw new Error('the keyword table is too full');

/** The slot of the keyword `text` holds from `start` (`length` characters, folded hash `hash`), or -1. */
function keywordSlot(text: string, start: number, length: number, hash: number): number {
  if (length > longestKeyword) return -1;
  for (let slot = hash & KEYWORD_MASK; ; slot = (slot + 1) & KEYWORD_MASK) {
    const word = keywordLower[slot];
    if (word === undefined) return -1;
    if (word.length !== length) continue;
    let i = 0;
    for (; i < length; i++) {
      if (folded(text.charCodeAt(start + i)) !== word.charCodeAt(i)) break;
    }
    if (i === length) return slot;
  }
}

function sticky(t: TokenType): RegExp {
  return new RegExp((t.PATTERN as RegExp).source, 'y');
}
const UUID_Y = sticky(UuidLiteral);
const HEX_Y = sticky(HexLiteral);
const DURATION_Y = sticky(DurationLiteral);
const FLOAT_Y = sticky(FloatLiteral);
const INTEGER_Y = sticky(IntegerLiteral);

/** Character classes (ASCII): 1 digit, 2 hex letter, 4 other letter, 8 whitespace. */
const CLASS = new Uint8Array(128);
for (let c = 48; c <= 57; c++) CLASS[c] = 1;
for (const c of 'abcdefABCDEF') CLASS[c.charCodeAt(0)] = 2;
for (const c of 'ghijklmnopqrstuvwxyzGHIJKLMNOPQRSTUVWXYZ') CLASS[c.charCodeAt(0)] = 4;
for (const c of ' \t\r\n\f\v') CLASS[c.charCodeAt(0)] = 8;
const DIGIT = 1;
const LETTER = 2 | 4;
const WORD = 1 | 2 | 4;

/** Single-character punctuation by char code (multi-character operators are checked first). */
const PUNCT: (TokenType | undefined)[] = [];
for (const t of [
  Semicolon,
  Comma,
  Dot,
  LParen,
  RParen,
  LBracket,
  RBracket,
  LBrace,
  RBrace,
  Lt,
  Gt,
  Eq,
  Plus,
  Minus,
  Star,
  Slash,
  Percent,
  Colon,
  QMark,
]) {
  PUNCT[(t.PATTERN as string).charCodeAt(0)] = t;
}

function isHexCode(c: number): boolean {
  return c < 128 && (CLASS[c] & 3) !== 0;
}

/** `text` at `offset` could start a UUID: 8 hex digits then `-`. */
function maybeUuid(text: string, offset: number): boolean {
  for (let i = 0; i < 8; i++) if (!isHexCode(text.charCodeAt(offset + i))) return false;
  return text.charCodeAt(offset + 8) === 45;
}

function matchAt(re: RegExp, text: string, offset: number): number {
  re.lastIndex = offset;
  return re.test(text) ? re.lastIndex - offset : -1;
}

/** End (exclusive) of a `'...'` string starting at `start`, or -1 if it never closes (then it is unterminated). */
function quotedEnd(text: string, start: number, quote: number): number {
  // '[^']*(?:''[^']*)*' with backtracking: a doubled quote is an escape, unless no closing quote follows at
  // all, in which case the first quote of the last doubled pair closes the literal.
  let lastPair = -1;
  let i = start + 1;
  const n = text.length;
  for (;;) {
    const q = text.indexOf(quote === 39 ? "'" : '"', i);
    if (q < 0) return lastPair < 0 ? -1 : lastPair + 1;
    if (text.charCodeAt(q + 1) === quote) {
      lastPair = q;
      i = q + 2;
      if (i > n) return lastPair + 1;
      continue;
    }
    return q + 1;
  }
}

/** A scanner position: offset with its 1-based line and column. */
export interface ScanPosition {
  offset: number;
  line: number;
  column: number;
}

/**
 * Streams the significant tokens of a text (`next()`, keywords re-typed); comments are collected in `comments`.
 * parseCql lexes one statement at a time with it, so tokens die young instead of living through the parse.
 */
export class CqlScanner {
  readonly comments: IToken[] = [];
  private offset: number;
  private line: number;
  private column: number;

  /** `start`: resume at a position of an earlier scan of the same text (where a token may begin). */
  constructor(
    readonly text: string,
    start?: ScanPosition,
  ) {
    this.offset = start?.offset ?? 0;
    this.line = start?.line ?? 1;
    this.column = start?.column ?? 1;
  }

  /** How far the scanner has read: everything before `offset` has been consumed. */
  position(): ScanPosition {
    return { offset: this.offset, line: this.line, column: this.column };
  }

  /** The next significant token, or undefined at the end of the text. */
  next(): IToken | undefined {
    const text = this.text;
    const n = text.length;
    let offset = this.offset;
    let line = this.line;
    let column = this.column;
    while (offset < n) {
      const c = text.charCodeAt(offset);
      const cls = c < 128 ? CLASS[c] : 0;
      let len: number;
      let type: TokenType;
      let multiline = false;
      if (cls === 8 || c === 0xa0 || c === 0xfeff) {
        // WhiteSpace (skipped): only lines and columns move.
        let i = offset;
        for (;;) {
          const d = text.charCodeAt(i);
          if (d === 10) {
            line++;
            column = 1;
          } else if (d === 13) {
            if (text.charCodeAt(i + 1) === 10) i++;
            line++;
            column = 1;
          } else if (d === 32 || d === 9 || d === 12 || d === 11 || d === 0xa0 || d === 0xfeff) {
            column++;
          } else break;
          i++;
        }
        offset = i;
        continue;
      }
      if (cls & LETTER) {
        // Identifier or keyword, unless a UUID (hex letter) or a duration (`P...`) matches first.
        if (cls === 2 && maybeUuid(text, offset) && (len = matchAt(UUID_Y, text, offset)) > 0) {
          type = UuidLiteral;
        } else if (c === 80 && (len = matchAt(DURATION_Y, text, offset)) > 0) {
          type = DurationLiteral;
        } else {
          let i = offset + 1;
          let upper = c < 97;
          let lower = !upper;
          let hash = foldStep(FOLD_SEED, c);
          for (;;) {
            const d = text.charCodeAt(i);
            if (d < 128 && (CLASS[d] & WORD) !== 0) {
              if (d >= 97) lower = true;
              else if (d >= 65) upper = true;
            } else if (d !== 95) break;
            hash = foldStep(hash, d);
            i++;
          }
          len = i - offset;
          const slot = keywordSlot(text, offset, len, hash);
          const keyword = slot < 0 ? undefined : keywordTypeAt[slot];
          const image =
            slot < 0 || (upper && lower)
              ? text.substring(offset, i)
              : upper
                ? keywordUpper[slot]!
                : keywordLower[slot]!;
          const token: IToken = {
            image,
            startOffset: offset,
            endOffset: i - 1,
            startLine: line,
            endLine: line,
            startColumn: column,
            endColumn: column + len - 1,
            tokenTypeIdx: 0,
            tokenType: Identifier,
            astRange: undefined,
          };
          if (keyword !== undefined) {
            token.tokenType = keyword;
            token.tokenTypeIdx = keyword.tokenTypeIdx!;
          } else token.tokenTypeIdx = Identifier.tokenTypeIdx!;
          this.offset = i;
          this.line = line;
          this.column = column + len;
          return token;
        }
      } else if (cls === DIGIT) {
        let i = offset + 1;
        while (i < n && text.charCodeAt(i) < 128 && CLASS[text.charCodeAt(i)] === DIGIT) i++;
        const d = text.charCodeAt(i);
        if (i >= n || !((d < 128 && (CLASS[d] & WORD) !== 0) || d === 46 || d === 45 || d === 95 || d === 0xb5)) {
          // Nothing that could extend the digits into another literal follows: a plain integer.
          len = i - offset;
          type = IntegerLiteral;
        } else if (maybeUuid(text, offset) && (len = matchAt(UUID_Y, text, offset)) > 0) type = UuidLiteral;
        else if (c === 48 && (len = matchAt(HEX_Y, text, offset)) > 0) type = HexLiteral;
        else if ((len = matchAt(DURATION_Y, text, offset)) > 0) type = DurationLiteral;
        else if ((len = matchAt(FLOAT_Y, text, offset)) > 0) type = FloatLiteral;
        else {
          len = matchAt(INTEGER_Y, text, offset);
          type = IntegerLiteral;
        }
      } else if (c === 39 || c === 36) {
        // 'string', $$string$$ or an unterminated one (to the end of input); a lone `$` is Unknown.
        if (c === 39) {
          const end = quotedEnd(text, offset, 39);
          type = end < 0 ? UnterminatedString : StringLiteral;
          len = (end < 0 ? n : end) - offset;
          multiline = true;
        } else if (text.charCodeAt(offset + 1) === 36) {
          const end = text.indexOf('$$', offset + 2);
          type = end < 0 ? UnterminatedString : StringLiteral;
          len = (end < 0 ? n : end + 2) - offset;
          multiline = true;
        } else {
          len = 1;
          type = Unknown;
        }
      } else if (c === 34) {
        if (text.charCodeAt(offset + 1) === 34) {
          len = 2;
          type = EmptyQuotedName;
        } else {
          const end = quotedEnd(text, offset, 34);
          type = end < 0 ? UnterminatedQuotedName : QuotedName;
          len = (end < 0 ? n : end) - offset;
          multiline = true;
        }
      } else if ((c === 45 && text.charCodeAt(offset + 1) === 45) || (c === 47 && text.charCodeAt(offset + 1) === 47)) {
        // LineComment: to the end of the line.
        let i = offset + 2;
        while (i < n) {
          const d = text.charCodeAt(i);
          if (d === 10 || d === 13) break;
          i++;
        }
        len = i - offset;
        type = LineComment;
      } else if (c === 47 && text.charCodeAt(offset + 1) === 42) {
        const end = text.indexOf('*/', offset + 2);
        len = (end < 0 ? n : end + 2) - offset;
        type = BlockComment;
        multiline = true;
      } else {
        const d = text.charCodeAt(offset + 1);
        if (d === 61 && (c === 60 || c === 62 || c === 33 || c === 43 || c === 45)) {
          len = 2;
          type = c === 60 ? LtEq : c === 62 ? GtEq : c === 33 ? NotEq : c === 43 ? PlusEq : MinusEq;
        } else if (c === 46 && d === 46) {
          len = 2;
          type = Range;
        } else {
          len = 1;
          type = (c < 128 ? PUNCT[c] : undefined) ?? Unknown;
        }
      }
      const image = text.substring(offset, offset + len);
      const token: IToken = {
        image,
        startOffset: offset,
        endOffset: offset + len - 1,
        startLine: line,
        endLine: line,
        startColumn: column,
        endColumn: column + len - 1,
        tokenTypeIdx: type.tokenTypeIdx!,
        tokenType: type,
        astRange: undefined,
      };
      offset += len;
      if (!multiline) column += len;
      else {
        // Chevrotain's line tracking for tokens that may span lines (line terminators: \n, \r\n, \r).
        let count = 0;
        let lastLtEnd = -1;
        for (let i = 0; i < len; i++) {
          const d = image.charCodeAt(i);
          if (d === 10) {
            count++;
            lastLtEnd = i;
          } else if (d === 13) {
            if (image.charCodeAt(i + 1) === 10) i++;
            count++;
            lastLtEnd = i;
          }
        }
        if (count === 0) column += len;
        else {
          line += count;
          column = len - lastLtEnd;
          const endsInLt = lastLtEnd === len - 1;
          if (!(count === 1 && endsInLt)) {
            token.endLine = endsInLt ? line - 1 : line;
            token.endColumn = endsInLt ? column : column - 1;
          }
        }
      }
      if (type === LineComment || type === BlockComment) {
        this.comments.push(token);
        continue;
      }
      this.offset = offset;
      this.line = line;
      this.column = column;
      return token;
    }
    this.offset = offset;
    this.line = line;
    this.column = column;
    return undefined;
  }
}

/** Lexes CQL; words that are keywords get their keyword token type. Never throws. */
export function lexCql(text: string): LexResult {
  const scanner = new CqlScanner(text);
  const tokens: IToken[] = [];
  for (let t = scanner.next(); t !== undefined; t = scanner.next()) tokens.push(t);
  return { tokens, comments: scanner.comments };
}

/** The keyword token type of a word (any case), if it is a keyword. */
export function keywordType(word: string): TokenType | undefined {
  return keywordByLowerImage.get(word.toLowerCase());
}

export function isKeywordType(tokenType: TokenType): boolean {
  return tokenType.CATEGORIES?.includes(Keyword) ?? false;
}
