// The parser's foundation: Chevrotain configuration, CST nodes located by tokens, cheap error raising and the
// hand-written gates. The rules build on it one statement family per file (names -> types -> expressions ->
// dml -> ddl -> admin), and grammar/parser.ts adds the statement entry point.
import * as Chevrotain from '../chevrotain';
import type { CstNode, IRecognitionException, IToken, TokenType } from '../chevrotain';
import * as Lexer from '../lexer';
import type { TokenSpan } from '../builder-parts';

// Module constants: compiled to CommonJS (tsx: tests, bench), every use of an imported binding is a getter call.
const { CstParser, EOF, EarlyExitException, NoViableAltException, tokenMatcher } = Chevrotain;
const { allTokenTypes, Semicolon, keywordTokens: K, Ident, NonTypeIdent, NativeTypeKw, NumberLit, StringLiteral, UuidLiteral, HexLiteral, IntegerLiteral, BooleanLiteral, Comma, Dot, LParen, RParen, LBracket, LBrace, Lt, Gt, Plus, Minus, Star, Slash, Percent, Colon, QMark } = Lexer;

/** Tokens after which a `(`...`)` group is a type hint rather than a parenthesised value. */
const TYPE_STARTERS = new Set<TokenType>([K.FROZEN, K.MAP, K.LIST, K.SET, K.TUPLE, K.VECTOR]);

/** Keywords that begin a CQL statement. */
export const STATEMENT_START = new Set<TokenType>([
  K.SELECT, K.INSERT, K.UPDATE, K.DELETE, K.BEGIN, K.USE, K.TRUNCATE, K.CREATE, K.ALTER, K.DROP, K.GRANT,
  K.REVOKE, K.LIST, K.DESCRIBE, K.DESC, K.ADD,
]);

export interface CqlParserOptions {
  /**
   * Run Chevrotain's grammar validations (ambiguities, left recursion, ...) while building the parser. They
   * cost more than the rest of the construction together, so the shared parser skips them and a test builds
   * one with `validate: true` to keep the grammar checked.
   */
  validate?: boolean;
}

/** Token lookahead: `la(1)` is the next token; past the end, an EOF token. */
export type Lookahead = (i: number) => IToken;

/**
 * The hand-written lookahead where LL(k) cannot decide, as functions of the tokens ahead: the parser's gates
 * call them, and so does grammar/direct.ts, which must read a statement exactly as the parser does.
 */

/** `name(` or `ks.name(`: a function call rather than a column. */
export function functionCallAhead(la: Lookahead): boolean {
  const first = la(1).tokenType;
  if (!(tokenMatcher(la(1), Ident) || first === K.TOKEN)) return false;
  if (la(2).tokenType === LParen) return true;
  return la(2).tokenType === Dot && (tokenMatcher(la(3), Ident) || la(3).tokenType === K.TOKEN) && la(4).tokenType === LParen;
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
    } else if (!(t === Comma || t === Dot || t === IntegerLiteral || t === StringLiteral || tokenMatcher(la(i), Ident))) return false;
    if (depth === 0 && t === Comma) return false;
  }
  if (i >= 64) return false;
  const after = la(i + 1);
  const afterType = after.tokenType;
  const simpleValue =
    tokenMatcher(after, NumberLit) || afterType === StringLiteral || afterType === UuidLiteral || afterType === HexLiteral ||
    afterType === BooleanLiteral || afterType === QMark || afterType === Colon || afterType === LBracket || afterType === LBrace || afterType === K.NULL;
  if (simpleValue) return true;
  // A name or a parenthesis after `(x)` only makes it a hint when `x` is clearly a type.
  if (isNative || isTypeCtor) return tokenMatcher(after, Ident) || afterType === LParen || afterType === Minus || afterType === K.TOKEN;
  return false;
}

/** After IF: `EXISTS` that ends the statement is `IF EXISTS`, else a condition on a column named `exists`. */
export function existsEndsAhead(la: Lookahead): boolean {
  const next = la(2);
  return next.tokenType === EOF || next.tokenType === Semicolon || next.tokenType === K.APPLY || STATEMENT_START.has(next.tokenType);
}

/** After CONTAINS: `KEY` followed by a value is `CONTAINS KEY`, else the value is a column named `key`. */
export function keyWordAhead(la: Lookahead): boolean {
  const next = la(2).tokenType;
  return next !== EOF && next !== Semicolon && next !== K.AND;
}

/** A CST node that is its own TokenSpan (builder.ts). */
interface TokenSpanNode extends TokenSpan {
  name: string;
  children: Record<string, unknown[]>;
  location: undefined;
}

export class CqlParserBase extends CstParser {
  /**
   * Alternatives and gated options, built once per parser and reused (Chevrotain's recommended OR caching:
   * rebuilding them on every call costs more than the parsing itself), by rule and DSL method (`relationOr2`).
   */
  protected readonly alts: Record<string, any> = {};
  /** This parser's lookahead, for the gate functions above. */
  protected readonly lookahead: Lookahead = (i) => this.LA(i);

  constructor(options: CqlParserOptions = {}) {
    super(allTokenTypes, { maxLookahead: 4, recoveryEnabled: false, nodeLocationTracking: 'full', skipValidations: !options.validate });
    this.trackNodesByTokens();
  }

  // -------------------------------------------------------------------------------------------
  // CST node locations: the first and last tokens (builder.ts TokenSpan) rather than Chevrotain's six numbers
  // per node, so that AST ranges share their tokens' locations and no location is copied. The node is its own
  // span (one object per node instead of two).

  private trackNodesByTokens(): void {
    // With 'full' tracking and no recovery, Chevrotain makes a node and sets its location only in these two hooks.
    const hooks = this as unknown as { CST_STACK: CstNode[]; cstInvocationStateUpdate(ruleName: string): void; cstPostRule(node: CstNode): void };
    hooks.cstInvocationStateUpdate = (ruleName) => {
      // Plain-object children (Chevrotain's are prototype-less dictionaries, slower to make and to read).
      const node: TokenSpanNode = { name: ruleName, children: {}, location: undefined, first: this.LA(1), last: undefined };
      hooks.CST_STACK.push(node as unknown as CstNode);
    };
    hooks.cstPostRule = (node) => {
      const span = node as unknown as TokenSpanNode;
      const previous = this.LA(0);
      // A rule that consumed nothing starts after the previous token: it has no last token.
      if (span.first.startOffset <= previous.startOffset) span.last = previous;
    };
  }

  // -------------------------------------------------------------------------------------------
  // Errors. Chevrotain words its own message for a failed OR / AT_LEAST_ONE by computing every lookahead path
  // of the production at maxLookahead, uncached: over a second for `operand` (e.g. `... WHERE` at the end of
  // input). errors.ts writes our messages from content assist instead, so raise the same exceptions cheaply.

  /** @internal Overrides Chevrotain's ErrorHandler method. */
  raiseNoAltException(): never {
    throw this.saveRecognitionError(new NoViableAltException('no viable alternative', this.LA(1), this.LA(0)));
  }

  /** @internal Overrides Chevrotain's ErrorHandler method. */
  raiseEarlyExitException(): never {
    throw this.saveRecognitionError(new EarlyExitException('expected at least one iteration', this.LA(1), this.LA(0)));
  }

  private saveRecognitionError(error: IRecognitionException): IRecognitionException {
    // SAVE_ERROR records the rule stack (`context`) and the error in `errors`, as Chevrotain's own raise does.
    return (this as unknown as { SAVE_ERROR(e: IRecognitionException): IRecognitionException }).SAVE_ERROR(error);
  }

  // -------------------------------------------------------------------------------------------
  // Gates (hand-written lookahead where LL(k) cannot decide).

  protected la(i: number): TokenType {
    return this.LA(i).tokenType;
  }

  /** `SELECT JSON ...` / `SELECT DISTINCT ...` vs a column named `json` / `distinct`. */
  protected isModifierKeyword(keyword: TokenType): boolean {
    if (this.la(1) !== keyword) return false;
    const next = this.la(2);
    if (next === K.FROM || next === Comma || next === K.AS || next === Dot || next === LBracket || next === LParen || next === EOF) return false;
    if (next === Plus || next === Minus || next === Slash || next === Percent) return false;
    // `SELECT JSON * FROM` vs `SELECT json * 2 FROM`.
    if (next === Star) return this.la(3) === K.FROM;
    return true;
  }

  /** `name(` or `ks.name(`: a function call rather than a column. */
  protected isFunctionCall(): boolean {
    return functionCallAhead(this.lookahead);
  }

  /** `(type) value`: the parenthesised tokens form a type and a value follows. */
  protected isTypeHint(): boolean {
    return typeHintAhead(this.lookahead);
  }
}
