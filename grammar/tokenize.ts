// tokenize: every token of a text with its category, for formatting and highlighting.
import { type IToken, type TokenType } from './chevrotain';
import type * as A from './ast';
import {
  lexCql,
  keywordType,
  Keyword,
  StringLiteral,
  UnterminatedString,
  UnterminatedQuotedName,
  QuotedName,
  EmptyQuotedName,
  Identifier,
  IntegerLiteral,
  FloatLiteral,
  DurationLiteral,
  UuidLiteral,
  HexLiteral,
  BooleanLiteral,
  NanLiteral,
  InfinityLiteral,
  QMark,
  LineComment,
  BlockComment,
  Unknown,
  keywordTokens as K,
  RESERVED_KEYWORDS,
} from './lexer';
import { tokenRange } from './nodes';

export type TokenCategory =
  | 'keyword'
  | 'identifier'
  | 'quotedIdentifier'
  | 'string'
  | 'number'
  | 'boolean'
  | 'null'
  | 'uuid'
  | 'hex'
  | 'duration'
  | 'bindMarker'
  | 'operator'
  | 'punctuation'
  | 'comment'
  | 'unknown';

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

const RESERVED = new Set<TokenType>(
  [...RESERVED_KEYWORDS]
    .map((w) => keywordType(w))
    .filter((t): t is TokenType => !!t && t.CATEGORIES?.includes(Keyword) === true),
);
const OPERATORS = new Set(['<', '<=', '>', '>=', '=', '!=', '+=', '-=', '+', '-', '*', '/', '%']);
const LITERAL_KIND = new Map<TokenType, A.LiteralKind>([
  [StringLiteral, 'string'],
  [UnterminatedString, 'string'],
  [IntegerLiteral, 'integer'],
  [FloatLiteral, 'float'],
  [DurationLiteral, 'duration'],
  [UuidLiteral, 'uuid'],
  [HexLiteral, 'hex'],
  [BooleanLiteral, 'boolean'],
  [NanLiteral, 'nan'],
  [InfinityLiteral, 'infinity'],
  [K.NULL, 'null'],
]);

function classify(t: IToken): CqlToken {
  const type = t.tokenType;
  const isKeyword = type.CATEGORIES?.includes(Keyword) ?? false;
  const literalKind = LITERAL_KIND.get(type);
  let category: TokenCategory;
  if (type === LineComment || type === BlockComment) category = 'comment';
  else if (literalKind)
    category =
      literalKind === 'integer' || literalKind === 'float' || literalKind === 'nan' || literalKind === 'infinity'
        ? 'number'
        : literalKind === 'boolean'
          ? 'boolean'
          : literalKind === 'null'
            ? 'null'
            : (literalKind as TokenCategory);
  else if (isKeyword) category = 'keyword';
  else if (type === Identifier) category = 'identifier';
  else if (type === QuotedName || type === EmptyQuotedName || type === UnterminatedQuotedName)
    category = 'quotedIdentifier';
  else if (type === QMark) category = 'bindMarker';
  else if (type === Unknown) category = 'unknown';
  else if (OPERATORS.has(t.image)) category = 'operator';
  else category = 'punctuation';
  const out: CqlToken = {
    image: t.image,
    type: type.name,
    category,
    isKeyword,
    isReserved: isKeyword && RESERVED.has(type),
    range: tokenRange(t),
  };
  if (literalKind) out.literalKind = literalKind;
  if (
    type === UnterminatedString ||
    type === UnterminatedQuotedName ||
    (type === BlockComment && !(t.image.length >= 4 && t.image.endsWith('*/')))
  )
    out.unterminated = true;
  return out;
}

/** Every token of the text, comments included, in source order. Never throws. */
export function tokenize(text: string): CqlToken[] {
  const { tokens, comments } = lexCql(text);
  const all = comments.length ? [...tokens, ...comments].sort((a, b) => a.startOffset - b.startOffset) : tokens;
  return all.map(classify);
}
