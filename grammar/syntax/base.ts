// The two readings of CQL start here. The Chevrotain parser (CqlParserBase and the rule classes of each family
// file) is the statement of what CQL is: its rules decide what parses, word the syntax errors (grammar/errors.ts)
// and answer completion (grammar/content-assist.ts), and their embedded actions build the AST. The reader
// (TokenReader and the reader class beside the rules in each family file) reads the common statements straight
// from their tokens into the very same AST, several times faster; test/grammar/oracle.test.ts checks that it
// accepts exactly what the rules accept. The families build on each other one file at a time: names -> types ->
// expressions -> select -> modify -> table -> alter-table -> functions -> schema -> roles -> admin, and
// grammar/parser.ts adds the statement entry points of both.
import * as Chevrotain from '../chevrotain';
import type { IToken, TokenType } from '../chevrotain';
import type * as ChevrotainApi from 'chevrotain' with { 'resolution-mode': 'import' };
import type * as A from '../ast';
import * as Lexer from '../lexer';
import * as Nodes from '../nodes';

// Module constants: compiled to CommonJS (tsx: tests, bench), every use of an imported binding is a getter call.
const { EmbeddedActionsParser, EOF, tokenMatcher } = Chevrotain;
const {
  allTokenTypes,
  Semicolon,
  keywordTokens: K,
  Ident,
  NonTypeIdent,
  NativeTypeKw,
  NumberLit,
  StringLiteral,
  UuidLiteral,
  HexLiteral,
  IntegerLiteral,
  BooleanLiteral,
  Comma,
  Dot,
  LParen,
  RParen,
  LBracket,
  LBrace,
  Lt,
  Gt,
  Plus,
  Minus,
  Star,
  Slash,
  Percent,
  Colon,
  QMark,
} = Lexer;
const { tokenRange } = Nodes;

/** Tokens after which a `(`...`)` group is a type hint rather than a parenthesised value. */
const TYPE_STARTERS = new Set<TokenType>([K.FROZEN, K.MAP, K.LIST, K.SET, K.TUPLE, K.VECTOR]);

/** Keywords that begin a CQL statement. */
export const STATEMENT_START = new Set<TokenType>([
  K.SELECT,
  K.INSERT,
  K.UPDATE,
  K.DELETE,
  K.BEGIN,
  K.USE,
  K.TRUNCATE,
  K.CREATE,
  K.ALTER,
  K.DROP,
  K.GRANT,
  K.REVOKE,
  K.LIST,
  K.DESCRIBE,
  K.DESC,
  K.ADD,
]);

/**
 * The lookahead content assist prunes alternatives at (grammar/next-tokens.ts: completion and the words of a
 * syntax error). A parse decides with one token of lookahead, except where a rule says `MAX_LOOKAHEAD`: a failed
 * decision makes Chevrotain enumerate the decision's paths at the parser's lookahead for its own message (which
 * errors.ts does not use), and at 4 tokens that took seconds for `operand` (`... WHERE` at the end of the input);
 * at 1 it is a fraction of a millisecond. test/grammar/lookahead.test.ts checks that every decision sees as far
 * as LL(4) would.
 */
export const CONTENT_ASSIST_LOOKAHEAD = 4;

/**
 * How deep values and types may nest in one another (parentheses, brackets, braces, calls, casts, type hints, the
 * `<...>` of a type). Both readings recurse once a level, and a stack overflow would come at a depth that depends
 * on the thread (a lint worker's stack is larger than the main thread's): past this the statement is a syntax
 * error on every thread and stack size (test/grammar/nesting.test.ts: the rules take about 5 KB of stack a level
 * of maps or calls, so 64 levels fit a worker's stack of half a megabyte). Real CQL nests a few levels.
 */
export const MAX_NESTING = 64;

/** Thrown by either reading when a statement nests deeper than MAX_NESTING, at the token where it does. */
export class TooDeep {
  constructor(readonly token: IToken) {}
}

/** The syntax error of a statement that nests too deep. */
export const TOO_DEEP_MESSAGE = `nested too deep: more than ${MAX_NESTING} levels of parentheses, brackets, braces, calls, casts, type hints or type arguments`;

export interface CqlParserOptions {
  /**
   * Run Chevrotain's grammar validations (ambiguities, left recursion, ...) while building the parser. They
   * cost more than the rest of the construction together, so the shared parser skips them and a test builds
   * one with `validate: true` to keep the grammar checked.
   */
  validate?: boolean;
  /** Chevrotain's lookahead strategy (a test records the lookahead each decision is built with). */
  lookaheadStrategy?: ChevrotainApi.ILookaheadStrategy;
  /**
   * The parser's lookahead where a rule says none (1): a test builds Chevrotain 11's own content assist, which
   * prunes at the parser's lookahead, with CONTENT_ASSIST_LOOKAHEAD.
   */
  maxLookahead?: number;
}

/** Token lookahead: `la(1)` is the next token; past the end, an EOF token. */
export type Lookahead = (i: number) => IToken;

/**
 * The hand-written lookahead where LL(k) cannot decide, as functions of the tokens ahead: the parser's gates
 * call them, and so does the reader, which must read a statement exactly as the parser does.
 */

/** `SELECT JSON ...` / `SELECT DISTINCT ...` vs a column named `json` / `distinct` (la(1) is the keyword). */
export function modifierKeywordAhead(la: Lookahead, keyword: TokenType): boolean {
  if (la(1).tokenType !== keyword) return false;
  const next = la(2).tokenType;
  if (
    next === K.FROM ||
    next === Comma ||
    next === K.AS ||
    next === Dot ||
    next === LBracket ||
    next === LParen ||
    next === EOF
  )
    return false;
  if (next === Plus || next === Minus || next === Slash || next === Percent) return false;
  // `SELECT JSON * FROM` vs `SELECT json * 2 FROM`.
  if (next === Star) return la(3).tokenType === K.FROM;
  return true;
}

/** `name(` or `ks.name(`: a function call rather than a column. */
export function functionCallAhead(la: Lookahead): boolean {
  const first = la(1).tokenType;
  if (!(tokenMatcher(la(1), Ident) || first === K.TOKEN)) return false;
  if (la(2).tokenType === LParen) return true;
  return (
    la(2).tokenType === Dot && (tokenMatcher(la(3), Ident) || la(3).tokenType === K.TOKEN) && la(4).tokenType === LParen
  );
}

/** `(type) value`: the parenthesised tokens form a type and a value follows. */
export function typeHintAhead(la: Lookahead): boolean {
  if (la(1).tokenType !== LParen) return false;
  const first = la(2);
  const firstType = first.tokenType;
  const isNative = tokenMatcher(first, NativeTypeKw);
  const isTypeCtor = TYPE_STARTERS.has(firstType) && la(3).tokenType === Lt;
  if (!isNative && !isTypeCtor && !tokenMatcher(first, NonTypeIdent) && firstType !== StringLiteral) return false;
  // Find the closing parenthesis; only type-ish tokens may appear in between.
  let depth = 0;
  let i = 2;
  for (; i < 64; i++) {
    const t = la(i).tokenType;
    if (t === EOF) return false;
    if (t === Lt) depth++;
    else if (t === Gt) depth--;
    else if (t === RParen) {
      if (depth !== 0) return false;
      break;
    } else if (!(t === Comma || t === Dot || t === IntegerLiteral || t === StringLiteral || tokenMatcher(la(i), Ident)))
      return false;
    if (depth === 0 && t === Comma) return false;
  }
  if (i >= 64) return false;
  const after = la(i + 1);
  const afterType = after.tokenType;
  const simpleValue =
    tokenMatcher(after, NumberLit) ||
    afterType === StringLiteral ||
    afterType === UuidLiteral ||
    afterType === HexLiteral ||
    afterType === BooleanLiteral ||
    afterType === QMark ||
    afterType === Colon ||
    afterType === LBracket ||
    afterType === LBrace ||
    afterType === K.NULL;
  if (simpleValue) return true;
  // A name or a parenthesis after `(x)` only makes it a hint when `x` is clearly a type.
  if (isNative || isTypeCtor)
    return tokenMatcher(after, Ident) || afterType === LParen || afterType === Minus || afterType === K.TOKEN;
  return false;
}

/** After IF: `EXISTS` that ends the statement is `IF EXISTS`, else a condition on a column named `exists`. */
export function existsEndsAhead(la: Lookahead): boolean {
  const next = la(2);
  return (
    next.tokenType === EOF ||
    next.tokenType === Semicolon ||
    next.tokenType === K.APPLY ||
    STATEMENT_START.has(next.tokenType)
  );
}

/** After CONTAINS: `KEY` followed by a value is `CONTAINS KEY`, else the value is a column named `key`. */
export function keyWordAhead(la: Lookahead): boolean {
  const next = la(2).tokenType;
  return next !== EOF && next !== Semicolon && next !== K.AND;
}

/** After MASKED WITH: `DEFAULT` is the default mask unless a function named `default` is called. */
export function defaultMaskAhead(la: Lookahead): boolean {
  const next = la(2).tokenType;
  return la(1).tokenType === K.DEFAULT && next !== LParen && next !== Dot;
}

/** What every statement has: its range (`;` included) and whether it ends with `;`. */
export interface Base {
  range: A.SourceRange;
  terminated: boolean;
}

/** A statement the rules have read but not yet placed: the statement rule gives it its range once it has ended. */
export type Pending = (base: Base) => A.Statement;

// ---------------------------------------------------------------------------------------------
// The parser

export class CqlParserBase extends EmbeddedActionsParser {
  /**
   * Alternatives and gated options, built once per parser and reused (Chevrotain's recommended OR caching:
   * rebuilding them on every call costs more than the parsing itself), by rule and DSL method (`relationOr2`).
   * A cached alternative is shared by every call of its rule: it returns what it reads and never writes into a
   * variable of the call.
   */
  protected readonly alts: Record<string, any> = {};
  /** This parser's lookahead, for the gate functions above. */
  protected readonly lookahead: Lookahead = (i) => this.LA(i);

  constructor(options: CqlParserOptions = {}) {
    super(allTokenTypes, {
      maxLookahead: options.maxLookahead ?? 1,
      recoveryEnabled: false,
      skipValidations: !options.validate,
      ...(options.lookaheadStrategy ? { lookaheadStrategy: options.lookaheadStrategy } : {}),
    });
  }

  /** How deep the statement being parsed nests at this point (MAX_NESTING). */
  private nesting = 0;

  /** Chevrotain's reset, before each input: the nesting starts again. */
  override reset(): void {
    super.reset();
    this.nesting = 0;
  }

  /**
   * One level deeper (in an action, where a value or type starts; the statement's own value or type is the first):
   * past MAX_NESTING levels inside it the statement is refused.
   */
  protected enterNesting(): void {
    if (++this.nesting > MAX_NESTING + 1) throw new TooDeep(this.LA(1));
  }

  protected leaveNesting(): void {
    this.nesting--;
  }

  protected la(i: number): TokenType {
    return this.LA(i).tokenType;
  }

  /**
   * The range from `first` (the token the node started at, `LA(1)` when it began) to the last token read: the
   * token's own shared range when the node is one token. Called in an action, when the node has ended.
   */
  protected rangeFrom(first: IToken): A.SourceRange {
    return tokenRange(first, this.LA(0));
  }

  /** `CONSUME(type)` as a value (an AST literal or name is made of it in the caller's action). */
  protected token(type: TokenType): IToken {
    return this.CONSUME(type);
  }
}

// ---------------------------------------------------------------------------------------------
// The reader

/** Thrown (one object, no stack) when the tokens are not a statement of the grammar: a token it does not allow. */
export const REJECT = { rejected: true };

/** Thrown when the statement is a form the reader leaves to the parser, with the reason (the oracle reads it). */
export class LeftToParser {
  constructor(readonly reason: string) {}
}

/** What the reader says of a statement's tokens (test/grammar/oracle.ts compares it with the parser's verdict). */
export type Verdict = { statement: A.Statement } | { rejected: true } | { leftToParser: string };

/** What the parser's lookahead sees past the last token. */
const END: IToken = {
  image: '',
  startOffset: NaN,
  endOffset: NaN,
  startLine: NaN,
  endLine: NaN,
  startColumn: NaN,
  endColumn: NaN,
  tokenTypeIdx: EOF.tokenTypeIdx!,
  tokenType: EOF,
};

/** What a reader holds between statements (it keeps no tokens alive). */
export const NO_TOKENS: IToken[] = [];

/** Reads tokens as the parser does: REJECT where the grammar allows no such token, LeftToParser for forms it leaves. */
export class TokenReader {
  tokens: IToken[] = NO_TOKENS;
  pos = 0;
  /** How deep the statement read nests at this point (MAX_NESTING). */
  depth = 0;
  /** The parser's lookahead over these tokens (the gate functions take it). */
  protected readonly la = (i: number): IToken => this.tokens[this.pos + i - 1] ?? END;

  protected peek(): IToken {
    return this.tokens[this.pos] ?? END;
  }

  protected is(type: TokenType): boolean {
    return this.peek().tokenType === type;
  }

  /** The next token, which must be of `type`. */
  protected expect(type: TokenType): IToken {
    const t = this.peek();
    if (t.tokenType !== type) throw REJECT;
    this.pos++;
    return t;
  }

  /** The next token if it is of `type`. */
  protected accept(type: TokenType): IToken | undefined {
    const t = this.peek();
    if (t.tokenType !== type) return undefined;
    this.pos++;
    return t;
  }

  /** The next token, which must match `type` or one of its categories (`Ident`, `NonTypeIdent`, ...). */
  protected expectMatch(type: TokenType): IToken {
    const t = this.peek();
    if (!tokenMatcher(t, type)) throw REJECT;
    this.pos++;
    return t;
  }

  /** The token just read. */
  protected previous(): IToken {
    return this.tokens[this.pos - 1]!;
  }

  /** A form this reader leaves to the parser. */
  protected leave(reason: string): never {
    throw new LeftToParser(reason);
  }

  /** One level deeper (where a value or type starts, as the rules count): past MAX_NESTING the parser reads it (and refuses it). */
  protected enterNesting(): void {
    if (++this.depth > MAX_NESTING + 1) this.leave('nested deeper than MAX_NESTING');
  }
}
