// Expressions: one grammar for selectors, terms and relation operands. They are kept flat (two rule levels per
// value) because they dominate INSERT-heavy files: operator precedence is applied when the AST is made
// (binaryChain, grammar/nodes.ts).
import type { IToken } from '../chevrotain';
import type * as A from '../ast';
import * as Chevrotain from '../chevrotain';
import * as Lexer from '../lexer';
import * as Nodes from '../nodes';
import { TypeReader, TypeRules } from './types';
import * as BaseModule from './base';

// Module constants: compiled to CommonJS (tsx: tests, bench), every use of an imported binding is a getter call.
const {
  keywordTokens: K,
  Ident,
  NumberLit,
  StringLiteral,
  EmptyQuotedName,
  UuidLiteral,
  HexLiteral,
  BooleanLiteral,
  IntegerLiteral,
  Comma,
  Range,
  Dot,
  LParen,
  RParen,
  LBracket,
  RBracket,
  LBrace,
  RBrace,
  Plus,
  Minus,
  Star,
  Slash,
  Percent,
  Colon,
  QMark,
} = Lexer;
const { tokenMatcher } = Chevrotain;
const {
  binaryChain,
  bindMarkerOf,
  braceLiteralOf,
  castOf,
  columnRefOf,
  elementAccessAt,
  fieldAccessOf,
  functionCallOf,
  identifierFromToken,
  listLiteralOf,
  literalFromToken,
  negate,
  parenthesizedOf,
  sized,
  sliceAccessOf,
  starOf,
  tokenRange,
  typeHintOf,
} = Nodes;
const { REJECT, functionCallAhead, typeHintAhead } = BaseModule;

/** What follows a primary value: `[index]`, `[from..to]` or `.field`, applied in source order. */
type Postfix =
  | { close: IToken; index: A.Expression; slice: false }
  | { close: IToken; from: A.Expression | undefined; to: A.Expression | undefined; slice: true }
  | { field: A.Identifier };

/** What a subscript holds: an index, or a slice's bounds. */
type Subscript =
  { index: A.Expression; slice: false } | { from: A.Expression | undefined; to: A.Expression | undefined; slice: true };

function applyPostfix(target: A.Expression, step: Postfix): A.Expression {
  if ('field' in step) return fieldAccessOf(target, step.field);
  return step.slice
    ? sliceAccessOf(target, step.from, step.to, step.close)
    : elementAccessAt(target, step.index, step.close);
}

/** The operand's minuses, innermost (last written) first. */
function negateAll(minuses: readonly IToken[], operand: A.Expression): A.Expression {
  let result = operand;
  for (let i = minuses.length - 1; i >= 0; i--) result = negate(minuses[i]!, result);
  return result;
}

export class ExpressionRules extends TypeRules {
  readonly expression = this.RULE('expression', (): A.Expression => {
    const first = this.SUBRULE(this.operand);
    let operands: A.Expression[] | undefined;
    const operators: string[] = [];
    this.MANY(() => {
      const operator: IToken = this.OR(
        (this.alts.expressionOr ??= [
          { ALT: () => this.token(Plus) },
          { ALT: () => this.token(Minus) },
          { ALT: () => this.token(Star) },
          { ALT: () => this.token(Slash) },
          { ALT: () => this.token(Percent) },
        ]),
      );
      const operand = this.SUBRULE2(this.operand);
      (operands ??= [first]).push(operand);
      operators.push(operator.image);
    });
    return operands ? this.ACTION(() => binaryChain(operands!.length, (i) => operands![i]!, operators)) : first;
  });

  /** `-`* primary (`[index]` | `[a..b]` | `.field`)* */
  readonly operand = this.RULE('operand', (): A.Expression => {
    this.ACTION(() => this.enterNesting());
    const minuses: IToken[] = [];
    this.MANY(() => minuses.push(this.CONSUME(Minus)));
    // One token of lookahead: the alternatives that share a first token are told apart by their gates, and
    // LL(4) analysis of this OR (names, calls, casts, hints and tuples all overlap) took over a second.
    let result: A.Expression = this.OR(
      (this.alts.operandOr ??= {
        MAX_LOOKAHEAD: 1,
        DEF: [
          { ALT: () => this.literal(this.CONSUME(StringLiteral)) },
          { ALT: () => this.literal(this.CONSUME(NumberLit)) },
          { ALT: () => this.literal(this.CONSUME(BooleanLiteral)) },
          { ALT: () => this.literal(this.CONSUME(UuidLiteral)) },
          { ALT: () => this.literal(this.CONSUME(HexLiteral)) },
          { ALT: () => this.literal(this.CONSUME(K.NULL)) },
          { ALT: () => this.SUBRULE(this.bindMarker) },
          { ALT: () => this.SUBRULE(this.listLiteral) },
          { ALT: () => this.SUBRULE(this.braceLiteral) },
          {
            ALT: () => this.SUBRULE(this.typeHint),
            GATE: () => typeHintAhead(this.lookahead),
            IGNORE_AMBIGUITIES: true,
          },
          { ALT: () => this.SUBRULE(this.parenthesized) },
          { ALT: () => this.SUBRULE(this.castExpression), GATE: () => this.la(2) === LParen, IGNORE_AMBIGUITIES: true },
          {
            ALT: () => this.SUBRULE(this.functionCall),
            GATE: () => functionCallAhead(this.lookahead),
            IGNORE_AMBIGUITIES: true,
          },
          { ALT: () => this.column(this.CONSUME(Ident)) },
          { ALT: () => this.column(this.CONSUME(EmptyQuotedName)) },
        ],
      }),
    );
    this.MANY2(() => {
      const step: Postfix = this.OR2(
        (this.alts.operandOr2 ??= [
          {
            ALT: (): Postfix => {
              this.CONSUME(LBracket);
              const subscript = this.SUBRULE(this.subscript);
              const close = this.CONSUME(RBracket);
              return { ...subscript, close };
            },
          },
          {
            ALT: (): Postfix => {
              this.CONSUME(Dot);
              return { field: this.SUBRULE(this.fieldName) };
            },
          },
        ]),
      );
      result = this.ACTION(() => applyPostfix(result, step));
    });
    this.ACTION(() => this.leaveNesting());
    return minuses.length ? this.ACTION(() => negateAll(minuses, result)) : result;
  });

  readonly subscript = this.RULE('subscript', (): Subscript =>
    this.OR(
      (this.alts.subscriptOr ??= [
        {
          ALT: (): Subscript => {
            this.CONSUME(Range);
            return { from: undefined, to: this.SUBRULE(this.expression), slice: true };
          },
        },
        {
          ALT: (): Subscript => {
            const first = this.SUBRULE2(this.expression);
            const end = this.OPTION(() => {
              this.CONSUME2(Range);
              return { to: this.OPTION2(() => this.SUBRULE3(this.expression)) };
            });
            return end ? { from: first, to: end.to, slice: true } : { index: first, slice: false };
          },
        },
      ]),
    ),
  );

  readonly bindMarker = this.RULE('bindMarker', (): A.BindMarker => {
    const first = this.LA(1);
    const name: IToken | undefined = this.OR(
      (this.alts.bindMarkerOr ??= [
        { ALT: () => void this.CONSUME(QMark) },
        {
          ALT: () => {
            this.CONSUME(Colon);
            return this.CONSUME(Ident);
          },
        },
      ]),
    );
    return this.ACTION(() => bindMarkerOf(name ? identifierFromToken(name) : undefined, this.rangeFrom(first)));
  });

  readonly listLiteral = this.RULE('listLiteral', (): A.Expression => {
    const first = this.CONSUME(LBracket);
    const elements: A.Expression[] = [];
    this.OPTION(() => {
      elements.push(this.SUBRULE(this.expression));
      this.MANY(() => {
        this.CONSUME(Comma);
        elements.push(this.SUBRULE2(this.expression));
      });
    });
    this.CONSUME(RBracket);
    return this.ACTION(() => listLiteralOf(elements, this.rangeFrom(first)));
  });

  /** `{}`; `{a, b}` (set); `{k: v, ...}` (map or user type value). */
  readonly braceLiteral = this.RULE('braceLiteral', (): A.Expression => {
    const first = this.CONSUME(LBrace);
    const entries: A.Expression[][] = [];
    this.OPTION(() => {
      entries.push(this.SUBRULE(this.braceEntry));
      this.MANY(() => {
        this.CONSUME(Comma);
        entries.push(this.SUBRULE2(this.braceEntry));
      });
    });
    this.CONSUME(RBrace);
    return this.ACTION(() => braceLiteralOf(entries, this.rangeFrom(first)));
  });

  readonly braceEntry = this.RULE('braceEntry', () => {
    const entry = [this.SUBRULE(this.expression)];
    this.OPTION(() => {
      this.CONSUME(Colon);
      entry.push(this.SUBRULE2(this.expression));
    });
    return entry;
  });

  readonly typeHint = this.RULE('typeHint', (): A.Expression => {
    const first = this.CONSUME(LParen);
    const type = this.SUBRULE(this.cqlType);
    this.CONSUME(RParen);
    const expression = this.SUBRULE(this.operand);
    return this.ACTION(() => typeHintOf(type, expression, this.rangeFrom(first)));
  });

  /** `(expr)` or a tuple `(a, b, ...)`. */
  readonly parenthesized = this.RULE('parenthesized', (): A.Expression => {
    const first = this.CONSUME(LParen);
    const elements = [this.SUBRULE(this.expression)];
    this.MANY(() => {
      this.CONSUME(Comma);
      elements.push(this.SUBRULE2(this.expression));
    });
    this.CONSUME(RParen);
    return this.ACTION(() => parenthesizedOf(elements, this.rangeFrom(first)));
  });

  readonly castExpression = this.RULE('castExpression', (): A.Expression => {
    const first = this.CONSUME(K.CAST);
    this.CONSUME(LParen);
    const expression = this.SUBRULE(this.expression);
    this.CONSUME(K.AS);
    const type = this.SUBRULE(this.cqlType);
    this.CONSUME(RParen);
    return this.ACTION(() => castOf(expression, type, this.rangeFrom(first)));
  });

  readonly functionCall = this.RULE('functionCall', (): A.FunctionCall => {
    const first = this.LA(1);
    const name = this.SUBRULE(this.functionName);
    const args: A.Expression[] = [];
    this.CONSUME(LParen);
    this.OPTION(() => {
      args.push(this.SUBRULE(this.functionArg));
      this.MANY(() => {
        this.CONSUME(Comma);
        args.push(this.SUBRULE2(this.functionArg));
      });
    });
    this.CONSUME(RParen);
    // `count(*)`: an expression is never a StarExpression, so the one argument is the `*`.
    return this.ACTION(() =>
      functionCallOf(name, args, this.rangeFrom(first), args.length === 1 && args[0]!.kind === 'StarExpression'),
    );
  });

  readonly functionArg = this.RULE('functionArg', (): A.Expression =>
    this.OR(
      (this.alts.functionArgOr ??= [
        {
          ALT: () => {
            const star = this.CONSUME(Star);
            return this.ACTION(() => starOf(star));
          },
        },
        { ALT: () => this.SUBRULE(this.expression) },
      ]),
    ),
  );

  /** An integer or a bind marker (LIMIT, TTL, TIMESTAMP). */
  readonly intValue = this.RULE('intValue', (): A.Expression =>
    this.OR(
      (this.alts.intValueOr ??= [
        { ALT: () => this.literal(this.CONSUME(IntegerLiteral)) },
        { ALT: () => this.SUBRULE(this.bindMarker) },
      ]),
    ),
  );

  /** The Literal of a token (in an action). */
  protected literal(token: IToken): A.Expression {
    return this.ACTION(() => literalFromToken(token));
  }

  private column(token: IToken): A.Expression {
    return this.ACTION(() => columnRefOf(identifierFromToken(token)));
  }
}

const ARITHMETIC = new Set([Plus, Minus, Star, Slash, Percent]);

/** Expressions, as the rules above read them. */
export class ExpressionReader extends TypeReader {
  protected expression(): A.Expression {
    const first = this.operand();
    if (!ARITHMETIC.has(this.peek().tokenType)) return first;
    const operands = [first];
    const operators: string[] = [];
    while (ARITHMETIC.has(this.peek().tokenType)) {
      operators.push(this.peek().image);
      this.pos++;
      operands.push(this.operand());
    }
    return binaryChain(operands.length, (i) => operands[i]!, operators);
  }

  protected operand(): A.Expression {
    this.enterNesting();
    const firstMinus = this.pos;
    while (this.is(Minus)) this.pos++;
    const lastMinus = this.pos - 1;
    let result = this.primary();
    // `x[i]`, `x[a..b]` and `x.field`, in source order, then the minuses.
    for (let type = this.peek().tokenType; type === LBracket || type === Dot; type = this.peek().tokenType) {
      this.pos++;
      if (type === Dot) {
        result = fieldAccessOf(result, identifierFromToken(this.ident()));
        continue;
      }
      if (this.accept(Range)) {
        const to = this.expression();
        result = sliceAccessOf(result, undefined, to, this.expect(RBracket));
        continue;
      }
      const index = this.expression();
      if (this.accept(Range)) {
        const to = this.is(RBracket) ? undefined : this.expression();
        result = sliceAccessOf(result, index, to, this.expect(RBracket));
        continue;
      }
      result = elementAccessAt(result, index, this.expect(RBracket));
    }
    for (let i = lastMinus; i >= firstMinus; i--) result = negate(this.tokens[i]!, result);
    this.depth--;
    return result;
  }

  protected primary(): A.Expression {
    const t = this.peek();
    const type = t.tokenType;
    if (
      type === StringLiteral ||
      tokenMatcher(t, NumberLit) ||
      type === BooleanLiteral ||
      type === UuidLiteral ||
      type === HexLiteral ||
      type === K.NULL
    ) {
      this.pos++;
      return literalFromToken(t);
    }
    if (type === QMark || type === Colon) return this.bindMarker();
    if (type === LBracket) {
      this.pos++;
      const elements = this.is(RBracket) ? [] : this.expressionList();
      return listLiteralOf(elements, tokenRange(t, this.expect(RBracket)));
    }
    if (type === LBrace) return this.braceLiteral();
    if (type === LParen) {
      const hint = typeHintAhead(this.la);
      this.pos++;
      if (hint) {
        const hinted = this.cqlType();
        this.expect(RParen);
        const expression = this.operand();
        return typeHintOf(hinted, expression, tokenRange(t, this.previous()));
      }
      const elements = this.expressionList();
      return parenthesizedOf(elements, tokenRange(t, this.expect(RParen)));
    }
    if (type === K.CAST && this.la(2).tokenType === LParen) {
      this.pos += 2;
      const expression = this.expression();
      this.expect(K.AS);
      const castType = this.cqlType();
      return castOf(expression, castType, tokenRange(t, this.expect(RParen)));
    }
    if (functionCallAhead(this.la)) return this.functionCall();
    if (tokenMatcher(t, Ident) || type === EmptyQuotedName) {
      this.pos++;
      return columnRefOf(identifierFromToken(t));
    }
    throw REJECT;
  }

  /** `expression (, expression)*`. */
  protected expressionList(): A.Expression[] {
    const out = [this.expression()];
    while (this.accept(Comma)) out.push(this.expression());
    return out.length > 1 ? sized(out) : out;
  }

  /** `?` or `:name`. */
  protected bindMarker(): A.BindMarker {
    const t = this.peek();
    if (t.tokenType === QMark) {
      this.pos++;
      return bindMarkerOf(undefined, tokenRange(t));
    }
    this.expect(Colon);
    const name = this.ident();
    return bindMarkerOf(identifierFromToken(name), tokenRange(t, name));
  }

  protected braceLiteral(): A.Expression {
    const open = this.expect(LBrace);
    const pairs: A.Expression[][] = [];
    if (!this.is(RBrace)) {
      do {
        const entry = [this.expression()];
        if (this.accept(Colon)) entry.push(this.expression());
        pairs.push(entry);
      } while (this.accept(Comma));
    }
    return braceLiteralOf(pairs, tokenRange(open, this.expect(RBrace)));
  }

  /** `[ks.]name(args)`, `token(...)` included (functionCallAhead said so). */
  protected functionCall(): A.FunctionCall {
    const first = this.peek();
    const name = this.functionName();
    this.expect(LParen);
    const args: A.Expression[] = [];
    if (!this.is(RParen)) {
      do {
        const star = this.accept(Star);
        args.push(star ? starOf(star) : this.expression());
      } while (this.accept(Comma));
    }
    // `count(*)`: an expression is never a StarExpression, so the one argument is the `*`.
    const star = args.length === 1 && args[0]!.kind === 'StarExpression';
    return functionCallOf(name, sized(args), tokenRange(first, this.expect(RParen)), star);
  }

  /** `intValue`: an integer or a bind marker. */
  protected intValue(): A.Expression {
    const t = this.peek();
    if (t.tokenType === IntegerLiteral) {
      this.pos++;
      return literalFromToken(t);
    }
    return this.bindMarker();
  }
}
