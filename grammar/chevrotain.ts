// Chevrotain 11 is published as ES modules only, and its `require` entry pulls in sub-packages that only
// export an `import` condition. Under tsx (tests, bench) and in CommonJS builds that breaks, so we load the
// package's self-contained bundle by path: Node (require(esm), Node >= 20.19), tsx and esbuild all accept
// it, and esbuild inlines it into dist/. Types come from the package itself.
import type * as ChevrotainApi from 'chevrotain' with { 'resolution-mode': 'import' };
import type { SourceRange } from './ast';

const chevrotain: typeof ChevrotainApi = require('../node_modules/chevrotain/lib/chevrotain.mjs');

export const {
  createToken,
  Lexer,
  EmbeddedActionsParser,
  EOF,
  tokenMatcher,
  tokenLabel,
  LLkLookaheadStrategy,
  getLookaheadPaths,
} = chevrotain;
/** The grammar's productions (GAST), as getGAstProductions gives them. */
export const {
  Rule,
  Terminal,
  NonTerminal,
  Option,
  Repetition,
  RepetitionMandatory,
  RepetitionWithSeparator,
  RepetitionMandatoryWithSeparator,
  Alternation,
  Alternative,
} = chevrotain;

/**
 * Chevrotain's token, plus the single-token AST range made for it (grammar/nodes.ts): every node that starts or ends
 * at the token shares its locations (the lexer creates the field, so tokens keep one shape).
 */
export interface IToken extends ChevrotainApi.IToken {
  astRange?: SourceRange;
}
export type TokenType = ChevrotainApi.TokenType;
export type IRecognitionException = ChevrotainApi.IRecognitionException;
