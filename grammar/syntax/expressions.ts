// Expressions: one grammar for selectors, terms and relation operands. They are kept flat (two rule levels per
// value) because they dominate INSERT-heavy files: operator precedence is applied by the AST builder.
import * as Lexer from '../lexer';
import { TypeRules } from './types';

// Module constants: compiled to CommonJS (tsx: tests, bench), every use of an imported binding is a getter call.
const { keywordTokens: K, Ident, NumberLit, StringLiteral, EmptyQuotedName, UuidLiteral, HexLiteral, BooleanLiteral, Comma, Range, Dot, LParen, RParen, LBracket, RBracket, LBrace, RBrace, Plus, Minus, Star, Slash, Percent, Colon, QMark } = Lexer;

export class ExpressionRules extends TypeRules {
  readonly expression = this.RULE('expression', () => {
    this.SUBRULE(this.operand);
    this.MANY(() => {
      this.OR((this.alts.expressionOr ??= [
        { ALT: () => this.CONSUME(Plus) },
        { ALT: () => this.CONSUME(Minus) },
        { ALT: () => this.CONSUME(Star) },
        { ALT: () => this.CONSUME(Slash) },
        { ALT: () => this.CONSUME(Percent) },
      ]));
      this.SUBRULE2(this.operand);
    });
  });

  /** `-`* primary (`[index]` | `[a..b]` | `.field`)* */
  readonly operand = this.RULE('operand', () => {
    this.MANY(() => this.CONSUME(Minus));
    // One token of lookahead: the alternatives that share a first token are told apart by their gates, and
    // LL(4) analysis of this OR (names, calls, casts, hints and tuples all overlap) took over a second.
    this.OR((this.alts.operandOr ??= { MAX_LOOKAHEAD: 1, DEF: [
      { ALT: () => this.CONSUME(StringLiteral) },
      { ALT: () => this.CONSUME(NumberLit) },
      { ALT: () => this.CONSUME(BooleanLiteral) },
      { ALT: () => this.CONSUME(UuidLiteral) },
      { ALT: () => this.CONSUME(HexLiteral) },
      { ALT: () => this.CONSUME(K.NULL) },
      { ALT: () => this.SUBRULE(this.bindMarker) },
      { ALT: () => this.SUBRULE(this.listLiteral) },
      { ALT: () => this.SUBRULE(this.braceLiteral) },
      { ALT: () => this.SUBRULE(this.typeHint), GATE: () => this.isTypeHint(), IGNORE_AMBIGUITIES: true },
      { ALT: () => this.SUBRULE(this.parenthesized) },
      { ALT: () => this.SUBRULE(this.castExpression), GATE: () => this.LA(2).tokenType === LParen, IGNORE_AMBIGUITIES: true },
      { ALT: () => this.SUBRULE(this.functionCall), GATE: () => this.isFunctionCall(), IGNORE_AMBIGUITIES: true },
      { ALT: () => this.CONSUME(Ident) },
      { ALT: () => this.CONSUME(EmptyQuotedName) },
    ] }));
    this.MANY2(() => {
      this.OR2((this.alts.operandOr2 ??= [
        {
          ALT: () => {
            this.CONSUME(LBracket);
            this.SUBRULE(this.subscript);
            this.CONSUME(RBracket);
          },
        },
        {
          ALT: () => {
            this.CONSUME(Dot);
            this.SUBRULE(this.fieldName);
          },
        },
      ]));
    });
  });

  readonly subscript = this.RULE('subscript', () => {
    this.OR((this.alts.subscriptOr ??= [
      {
        ALT: () => {
          this.CONSUME(Range);
          this.SUBRULE(this.expression);
        },
      },
      {
        ALT: () => {
          this.SUBRULE2(this.expression);
          this.OPTION(() => {
            this.CONSUME2(Range);
            this.OPTION2(() => this.SUBRULE3(this.expression));
          });
        },
      },
    ]));
  });

  readonly bindMarker = this.RULE('bindMarker', () => {
    this.OR((this.alts.bindMarkerOr ??= [
      { ALT: () => this.CONSUME(QMark) },
      {
        ALT: () => {
          this.CONSUME(Colon);
          this.CONSUME(Ident);
        },
      },
    ]));
  });

  readonly listLiteral = this.RULE('listLiteral', () => {
    this.CONSUME(LBracket);
    this.OPTION(() => {
      this.SUBRULE(this.expression);
      this.MANY(() => {
        this.CONSUME(Comma);
        this.SUBRULE2(this.expression);
      });
    });
    this.CONSUME(RBracket);
  });

  /** `{}`; `{a, b}` (set); `{k: v, ...}` (map or user type value). */
  readonly braceLiteral = this.RULE('braceLiteral', () => {
    this.CONSUME(LBrace);
    this.OPTION(() => {
      this.SUBRULE(this.braceEntry);
      this.MANY(() => {
        this.CONSUME(Comma);
        this.SUBRULE2(this.braceEntry);
      });
    });
    this.CONSUME(RBrace);
  });

  readonly braceEntry = this.RULE('braceEntry', () => {
    this.SUBRULE(this.expression);
    this.OPTION(() => {
      this.CONSUME(Colon);
      this.SUBRULE2(this.expression);
    });
  });

  readonly typeHint = this.RULE('typeHint', () => {
    this.CONSUME(LParen);
    this.SUBRULE(this.cqlType);
    this.CONSUME(RParen);
    this.SUBRULE(this.operand);
  });

  /** `(expr)` or a tuple `(a, b, ...)`. */
  readonly parenthesized = this.RULE('parenthesized', () => {
    this.CONSUME(LParen);
    this.SUBRULE(this.expression);
    this.MANY(() => {
      this.CONSUME(Comma);
      this.SUBRULE2(this.expression);
    });
    this.CONSUME(RParen);
  });

  readonly castExpression = this.RULE('castExpression', () => {
    this.CONSUME(K.CAST);
    this.CONSUME(LParen);
    this.SUBRULE(this.expression);
    this.CONSUME(K.AS);
    this.SUBRULE(this.cqlType);
    this.CONSUME(RParen);
  });

  readonly functionCall = this.RULE('functionCall', () => {
    this.SUBRULE(this.functionName);
    this.CONSUME(LParen);
    this.OPTION(() => {
      this.SUBRULE(this.functionArg);
      this.MANY(() => {
        this.CONSUME(Comma);
        this.SUBRULE2(this.functionArg);
      });
    });
    this.CONSUME(RParen);
  });

  readonly functionArg = this.RULE('functionArg', () => {
    this.OR((this.alts.functionArgOr ??= [{ ALT: () => this.CONSUME(Star) }, { ALT: () => this.SUBRULE(this.expression) }]));
  });
}
