// The direct reading's base (grammar/direct.ts): tokens, names, expressions and the clauses statements share,
// read exactly as the parser reads them (its gate functions, grammar/syntax/base.ts) into the nodes of
// grammar/nodes.ts. Anything it does not expect gives up (GIVE_UP), and the parser reads the statement.
import * as Chevrotain from './chevrotain';
import type { IToken, TokenType } from './chevrotain';
import type * as A from './ast';
import * as Lexer from './lexer';
import * as Base from './syntax/base';
import * as Nodes from './nodes';
import type { SelectClause } from './nodes';

// Module constants: compiled to CommonJS (tsx: tests, bench), every use of an imported binding is a getter call.
const {
  keywordTokens: K, Ident, NumberLit, StringLiteral, EmptyQuotedName, UuidLiteral, HexLiteral, BooleanLiteral, IntegerLiteral, Comma, Dot, Range,
  LParen, RParen, LBracket, RBracket, LBrace, RBrace, Lt, Gt, Eq, NotEq, LtEq, GtEq, Plus, Minus, Star, Slash, Percent, Colon, QMark,
} = Lexer;
const { functionCallAhead, typeHintAhead, existsEndsAhead, keyWordAhead } = Base;
const { EOF, tokenMatcher } = Chevrotain;
const {
  binaryChain, bindMarkerOf, braceLiteralOf, castOf, columnRefOf, elementAccessAt, elementAccessOf, fieldAccessOf, functionCallOf, identifierFromToken, listLiteralOf, literalFromToken, negate, parenthesizedOf, qualifiedNameOf, relationOf, sized, spanRanges, starOf, tokenRange, usingClauseOf, selectClauseOf, selectorOf,
} = Nodes;

/** Thrown (one object, no stack) when the statement is not one this reader takes: the parser reads it. */
export const GIVE_UP = { giveUp: true };

/** What the parser's lookahead sees past the last token. */
const END: IToken = { image: '', startOffset: NaN, endOffset: NaN, startLine: NaN, endLine: NaN, startColumn: NaN, endColumn: NaN, tokenTypeIdx: EOF.tokenTypeIdx!, tokenType: EOF };

const COMPARISONS = new Set([Eq, NotEq, Lt, LtEq, Gt, GtEq]);
const ARITHMETIC = new Set([Plus, Minus, Star, Slash, Percent]);

/** What a reader holds between statements (it keeps no tokens alive). */
export const NO_TOKENS: IToken[] = [];

/** Reads tokens, names, expressions and clauses as the parser does; gives up (GIVE_UP) on anything else. */
export class TokenReader {
  tokens: IToken[] = NO_TOKENS;
  pos = 0;
  /** The parser's lookahead over these tokens (the gate functions take it). */
  protected readonly la = (i: number): IToken => this.tokens[this.pos + i - 1] ?? END;

  // -------------------------------------------------------------------------------------------
  // Tokens

  protected peek(): IToken {
    return this.tokens[this.pos] ?? END;
  }

  protected is(type: TokenType): boolean {
    return this.peek().tokenType === type;
  }

  /** The next token, which must be of `type`. */
  protected expect(type: TokenType): IToken {
    const t = this.peek();
    if (t.tokenType !== type) throw GIVE_UP;
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

  /** The token just read. */
  protected previous(): IToken {
    return this.tokens[this.pos - 1]!;
  }

  /** A name token (`Ident`: identifiers, quoted names, unreserved keywords). */
  protected ident(): IToken {
    const t = this.peek();
    if (!tokenMatcher(t, Ident)) throw GIVE_UP;
    this.pos++;
    return t;
  }

  /** `columnName`: a name or `""`. */
  protected columnName(): A.Identifier {
    const t = this.peek();
    if (!tokenMatcher(t, Ident) && t.tokenType !== EmptyQuotedName) throw GIVE_UP;
    this.pos++;
    return identifierFromToken(t);
  }

  /** `[keyspace.]table`. */
  protected tableName(): A.QualifiedName {
    let keyspace: IToken | undefined;
    if (this.la(2).tokenType === Dot) {
      keyspace = this.ident();
      this.pos++;
    }
    const name = identifierFromToken(this.ident());
    return qualifiedNameOf(keyspace && identifierFromToken(keyspace), name);
  }

  // -------------------------------------------------------------------------------------------
  // Expressions

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
    const minuses = this.pos;
    while (this.is(Minus)) this.pos++;
    const firstMinus = minuses;
    const lastMinus = this.pos - 1;
    let result = this.primary();
    // `x[i]` and `x.field`, in source order (slices `x[a..b]`: the parser reads them), then the minuses.
    for (let type = this.peek().tokenType; type === LBracket || type === Dot; type = this.peek().tokenType) {
      this.pos++;
      if (type === Dot) {
        result = fieldAccessOf(result, identifierFromToken(this.ident()));
        continue;
      }
      if (this.is(Range)) throw GIVE_UP;
      const index = this.expression();
      if (this.is(Range)) throw GIVE_UP;
      result = elementAccessAt(result, index, this.expect(RBracket));
    }
    for (let i = lastMinus; i >= firstMinus; i--) result = negate(this.tokens[i]!, result);
    return result;
  }

  /** A type (the schema reading's; this base reads none). */
  protected cqlType(): A.CqlType {
    throw GIVE_UP;
  }

  protected primary(): A.Expression {
    const t = this.peek();
    const type = t.tokenType;
    if (type === StringLiteral || tokenMatcher(t, NumberLit) || type === BooleanLiteral || type === UuidLiteral || type === HexLiteral || type === K.NULL) {
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
      if (typeHintAhead(this.la)) throw GIVE_UP;
      this.pos++;
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
    throw GIVE_UP;
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
    this.pos++;
    if (t.tokenType === QMark) return bindMarkerOf(undefined, tokenRange(t));
    if (t.tokenType !== Colon) throw GIVE_UP;
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
  /** `functionName`: `[keyspace.]name`, the name an identifier or `token`. */
  protected functionName(): A.QualifiedName {
    let keyspace: IToken | undefined;
    if (this.la(2).tokenType === Dot) {
      keyspace = this.ident();
      this.pos++;
    }
    const nameToken = this.peek();
    if (!tokenMatcher(nameToken, Ident) && nameToken.tokenType !== K.TOKEN) throw GIVE_UP;
    this.pos++;
    return qualifiedNameOf(keyspace && identifierFromToken(keyspace), identifierFromToken(nameToken));
  }

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

  // -------------------------------------------------------------------------------------------
  // Clauses

  /** `WHERE relation (AND relation)*`: the relations and the clause's range. */
  protected where(): { where: A.Relation[]; whereRange: A.SourceRange } {
    const start = this.expect(K.WHERE);
    const where = this.relations();
    return { where, whereRange: tokenRange(start, this.previous()) };
  }

  protected relations(): A.Relation[] {
    const out = [this.relation()];
    while (this.accept(K.AND)) out.push(this.relation());
    return out.length > 1 ? sized(out) : out;
  }

  protected relation(): A.Relation {
    const start = this.peek();
    const left = this.expression();
    const t = this.peek();
    const type = t.tokenType;
    let operator: A.RelationOperator;
    let right: A.Expression[];
    let inList: boolean | undefined;
    if (COMPARISONS.has(type)) {
      this.pos++;
      operator = t.image as A.RelationOperator;
      right = [this.expression()];
    } else if (type === K.IN) {
      this.pos++;
      operator = 'IN';
      if (this.accept(LParen)) {
        inList = true;
        right = this.is(RParen) ? [] : this.expressionList();
        this.expect(RParen);
      } else {
        inList = false;
        right = [this.bindMarker()];
      }
    } else if (type === K.CONTAINS) {
      this.pos++;
      const key = this.is(K.KEY) && keyWordAhead(this.la);
      if (key) this.pos++;
      operator = key ? 'CONTAINS KEY' : 'CONTAINS';
      right = [this.expression()];
    } else if (type === K.LIKE) {
      this.pos++;
      operator = 'LIKE';
      right = [this.expression()];
    } else if (type === K.IS) {
      this.pos++;
      this.expect(K.NOT);
      this.expect(K.NULL);
      operator = 'IS NOT NULL';
      right = [];
    } else if (type === K.BETWEEN) {
      this.pos++;
      operator = 'BETWEEN';
      const low = this.expression();
      this.expect(K.AND);
      right = [low, this.expression()];
    } else throw GIVE_UP;
    return relationOf(left, operator, right, tokenRange(start, this.previous()), inList);
  }

  /** `USING (TTL|TIMESTAMP) value (AND ...)*`, or nothing. */
  protected using(): A.UsingClause[] {
    if (!this.accept(K.USING)) return [];
    const out: A.UsingClause[] = [];
    do {
      const option = this.peek();
      if (option.tokenType !== K.TTL && option.tokenType !== K.TIMESTAMP) throw GIVE_UP;
      this.pos++;
      const value = this.intValue();
      out.push(usingClauseOf(option.tokenType === K.TTL ? 'TTL' : 'TIMESTAMP', value, tokenRange(option, this.previous())));
    } while (this.accept(K.AND));
    return sized(out);
  }

  /** `IF EXISTS` or `IF condition (AND condition)*`, or nothing. */
  protected ifClause(): { conditions: A.Relation[]; ifExists: boolean } {
    if (!this.accept(K.IF)) return { conditions: [], ifExists: false };
    if (this.is(K.EXISTS) && existsEndsAhead(this.la)) {
      this.pos++;
      return { conditions: [], ifExists: true };
    }
    return { conditions: this.relations(), ifExists: false };
  }

  /** `column`, `column[index]` or `column.field` (the target of an assignment or a DELETE). */
  protected target(): A.Expression {
    const name = this.columnName();
    const column = columnRefOf(name);
    if (this.accept(LBracket)) {
      const index = this.expression();
      return elementAccessOf(column, index, spanRanges(name.range, tokenRange(this.expect(RBracket))));
    }
    if (this.accept(Dot)) return fieldAccessOf(column, identifierFromToken(this.ident()));
    return column;
  }

  /** `*` or `selector [AS alias] (, selector [AS alias])*`. */
  protected selectClause(): SelectClause {
    if (this.accept(Star)) return selectClauseOf([], true);
    const selectors: A.Selector[] = [];
    do {
      const start = this.peek();
      const expression = this.expression();
      const alias = this.accept(K.AS) ? identifierFromToken(this.ident()) : undefined;
      selectors.push(selectorOf(expression, alias, tokenRange(start, this.previous())));
    } while (this.accept(Comma));
    return selectClauseOf(sized(selectors), false);
  }

  /** `IF NOT EXISTS`, or nothing. */
  protected ifNotExists(): boolean {
    if (!this.accept(K.IF)) return false;
    this.expect(K.NOT);
    this.expect(K.EXISTS);
    return true;
  }

}
