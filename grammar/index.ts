// Public API of the CQL grammar: parseCql (statements + comments + syntax errors, incremental; grammar/parse.ts,
// over the statement chunks of grammar/chunks.ts), tokenize (for formatting and highlighting), expectedTokensAt
// (grammar-driven completion, grammar/content-assist.ts), a term or a type alone (grammar/fragments.ts), keyword lists.
import {
  RESERVED_KEYWORDS,
  UNRESERVED_KEYWORDS,
  BASIC_UNRESERVED_KEYWORDS,
  NATIVE_TYPE_NAMES,
  SHELL_COMMANDS,
  OTHER_UNRESERVED_KEYWORDS,
} from './lexer';
import { CqlParser, getParser, parserConstructionMs } from './parser';

export type * from './ast';
export { CqlParser, getParser, parserConstructionMs };
export {
  RESERVED_KEYWORDS,
  UNRESERVED_KEYWORDS,
  BASIC_UNRESERVED_KEYWORDS,
  OTHER_UNRESERVED_KEYWORDS,
  NATIVE_TYPE_NAMES,
  SHELL_COMMANDS,
};
export { parseCql, parseWithRulesOnly, forgetParse, type ParseOptions, type ParseResult } from './parse';
export { tokenize, type CqlToken, type TokenCategory } from './tokenize';
export {
  expectedTokensAt,
  PERMISSIONS,
  type ExpectedTokens,
  type IdentifierKind,
  type NamePath,
} from './content-assist';
export { parseTerm, parseCqlType, parseCqlTypes, type FragmentResult } from './fragments';
export { decodeString } from './nodes';
