// SELECT and the clauses other statements share with it (the selection, WHERE and its relations, ScyllaDB's
// TIMEOUT): the rules, the reading and the statement's node.
import type { IToken } from '../chevrotain';
import type * as A from '../ast';
import * as Lexer from '../lexer';
import * as Nodes from '../nodes';
import type { SelectClause } from '../nodes';
import { ExpressionReader, ExpressionRules } from './expressions';
import * as BaseModule from './base';
import type { Base } from './base';

// Module constants: compiled to CommonJS (tsx: tests, bench), every use of an imported binding is a getter call.
const { keywordTokens: K, Ident, DurationLiteral, Comma, LParen, RParen, LtEq, GtEq, NotEq, Lt, Gt, Eq, Star } = Lexer;
const {
  identifierFromToken,
  literalFromToken,
  orderingOf,
  relationOf,
  selectClauseOf,
  selectorOf,
  sized,
  tokenRange,
  usingClauseOf,
} = Nodes;
const { REJECT, keyWordAhead, modifierKeywordAhead } = BaseModule;

export interface SelectParts {
  json: boolean;
  distinct: boolean;
  /** Empty for `*`. */
  selectors: A.Selector[];
  star: boolean;
  from: A.QualifiedName;
  where: A.Relation[];
  whereRange: A.SourceRange | undefined;
  groupItems: A.Expression[];
  orderBy: A.Ordering[];
  perPartitionLimit: A.Expression | undefined;
  limit: A.Expression | undefined;
  allowFilteringRange: A.SourceRange | undefined;
  /** ScyllaDB's `BYPASS CACHE`. */
  bypassCacheRange: A.SourceRange | undefined;
  /** ScyllaDB's `USING TIMEOUT`. */
  using: A.UsingClause[] | undefined;
}

export function selectOf(base: Base, p: SelectParts): A.SelectStatement {
  const { json, distinct, selectors, star, from, where, orderBy, whereRange } = p;
  const groupBy = p.groupItems.length
    ? p.groupItems.filter((g): g is A.ColumnRef => g.kind === 'ColumnRef').map((g) => g.name)
    : [];
  const allowFiltering = p.allowFilteringRange !== undefined;
  // The usual query (a WHERE, nothing after it) in one literal: one shape, its fields kept in the object.
  if (
    whereRange &&
    !p.groupItems.length &&
    !p.perPartitionLimit &&
    !p.limit &&
    !allowFiltering &&
    !p.bypassCacheRange &&
    !p.using
  ) {
    return {
      kind: 'Select',
      range: base.range,
      terminated: base.terminated,
      json,
      distinct,
      selectors,
      star,
      from,
      where,
      groupBy,
      orderBy,
      allowFiltering,
      whereRange,
    };
  }
  const stmt: A.SelectStatement = {
    kind: 'Select',
    range: base.range,
    terminated: base.terminated,
    json,
    distinct,
    selectors,
    star,
    from,
    where,
    groupBy,
    orderBy,
    allowFiltering,
  };
  if (whereRange) stmt.whereRange = whereRange;
  if (p.groupItems.length) stmt.groupByExpressions = p.groupItems;
  if (p.perPartitionLimit) stmt.perPartitionLimit = p.perPartitionLimit;
  if (p.limit) stmt.limit = p.limit;
  if (p.allowFilteringRange) stmt.allowFilteringRange = p.allowFilteringRange;
  if (p.bypassCacheRange) stmt.bypassCacheRange = p.bypassCacheRange;
  if (p.using) stmt.using = p.using;
  return stmt;
}

/** A WHERE clause: its relations and its range. */
export interface Where {
  where: A.Relation[];
  whereRange: A.SourceRange;
}

/** What a relation's operator part reads: the operator, its right-hand values and, for IN, whether they are a list. */
interface RelationTail {
  operator: A.RelationOperator;
  right: A.Expression[];
  inList?: boolean;
}

export class SelectRules extends ExpressionRules {
  readonly selectStatement = this.RULE('selectStatement', (): SelectParts => {
    this.CONSUME(K.SELECT);
    // `json` and `distinct` are also valid column names (Parser.g uses syntactic predicates).
    const json = this.OPTION(
      (this.alts.selectStatementOption ??= {
        MAX_LOOKAHEAD: 2,
        GATE: () => modifierKeywordAhead(this.lookahead, K.JSON),
        DEF: () => this.CONSUME(K.JSON),
      }),
    );
    const distinct = this.OPTION2(
      (this.alts.selectStatementOption2 ??= {
        MAX_LOOKAHEAD: 2,
        GATE: () => modifierKeywordAhead(this.lookahead, K.DISTINCT),
        DEF: () => this.CONSUME(K.DISTINCT),
      }),
    );
    const clause = this.SUBRULE(this.selectClause);
    this.CONSUME(K.FROM);
    const from = this.SUBRULE(this.tableName);
    const where = this.OPTION3(() => this.SUBRULE(this.whereClause));
    const groupItems: A.Expression[] = [];
    this.OPTION4(() => {
      this.CONSUME(K.GROUP);
      this.CONSUME(K.BY);
      groupItems.push(this.SUBRULE(this.groupByItem));
      this.MANY(() => {
        this.CONSUME(Comma);
        groupItems.push(this.SUBRULE2(this.groupByItem));
      });
    });
    const orderBy: A.Ordering[] = [];
    this.OPTION5(() => {
      this.CONSUME(K.ORDER);
      this.CONSUME2(K.BY);
      orderBy.push(this.SUBRULE(this.ordering));
      this.MANY2(() => {
        this.CONSUME2(Comma);
        orderBy.push(this.SUBRULE2(this.ordering));
      });
    });
    const perPartitionLimit = this.OPTION6(() => this.SUBRULE(this.perPartitionLimit));
    const limit = this.OPTION7(() => this.SUBRULE(this.limitClause));
    const allowFilteringRange = this.OPTION8(() => {
      const allow = this.CONSUME(K.ALLOW);
      this.CONSUME(K.FILTERING);
      return this.rangeFrom(allow);
    });
    const bypassCacheRange = this.OPTION9(() => {
      const bypass = this.CONSUME(K.BYPASS);
      this.CONSUME(K.CACHE);
      return this.rangeFrom(bypass);
    });
    const timeout = this.option(10, () => {
      this.CONSUME(K.USING);
      return this.SUBRULE(this.timeoutOption);
    });
    return this.ACTION(() => ({
      json: json !== undefined,
      distinct: distinct !== undefined,
      ...clause,
      from,
      where: where?.where ?? [],
      whereRange: where?.whereRange,
      groupItems,
      orderBy,
      perPartitionLimit,
      limit,
      allowFilteringRange,
      bypassCacheRange,
      using: timeout && [timeout],
    }));
  });

  /** ScyllaDB's `TIMEOUT duration`: after USING in SELECT, and one of the writes' USING options. */
  readonly timeoutOption = this.RULE('timeoutOption', (): A.UsingClause => {
    const option = this.CONSUME(K.TIMEOUT);
    const value: A.Expression = this.OR(
      (this.alts.timeoutOptionOr ??= [
        { ALT: () => this.literal(this.CONSUME(DurationLiteral)) },
        { ALT: () => this.SUBRULE(this.bindMarker) },
      ]),
    );
    return this.ACTION(() => usingClauseOf('TIMEOUT', value, this.rangeFrom(option)));
  });

  readonly selectClause = this.RULE('selectClause', (): SelectClause =>
    this.OR(
      (this.alts.selectClauseOr ??= [
        {
          ALT: () => {
            this.CONSUME(Star);
            return selectClauseOf([], true);
          },
        },
        {
          ALT: () => {
            const selectors = [this.SUBRULE(this.selector)];
            this.MANY(() => {
              this.CONSUME(Comma);
              selectors.push(this.SUBRULE2(this.selector));
            });
            return selectClauseOf(selectors, false);
          },
        },
      ]),
    ),
  );

  readonly selector = this.RULE('selector', (): A.Selector => {
    const first = this.LA(1);
    const expression = this.SUBRULE(this.expression);
    const alias = this.OPTION(() => {
      this.CONSUME(K.AS);
      return this.SUBRULE(this.aliasName);
    });
    return this.ACTION(() => selectorOf(expression, alias, this.rangeFrom(first)));
  });

  readonly aliasName = this.RULE('aliasName', () => this.nameOf(this.CONSUME(Ident)));

  readonly groupByItem = this.RULE('groupByItem', () => this.SUBRULE(this.expression));

  readonly ordering = this.RULE('ordering', (): A.Ordering => {
    const first = this.LA(1);
    const column = this.SUBRULE(this.columnName);
    const annOf = this.OPTION(() => {
      this.CONSUME(K.ANN);
      this.CONSUME(K.OF);
      return this.SUBRULE(this.expression);
    });
    const direction = this.OPTION2((): IToken =>
      this.OR((this.alts.orderingOr ??= [{ ALT: () => this.token(K.ASC) }, { ALT: () => this.token(K.DESC) }])),
    );
    return this.ACTION(() =>
      orderingOf(
        column,
        this.rangeFrom(first),
        direction ? (direction.tokenType === K.DESC ? 'DESC' : 'ASC') : undefined,
        annOf,
      ),
    );
  });

  readonly perPartitionLimit = this.RULE('perPartitionLimit', () => {
    this.CONSUME(K.PER);
    this.CONSUME(K.PARTITION);
    this.CONSUME(K.LIMIT);
    return this.SUBRULE(this.intValue);
  });

  readonly limitClause = this.RULE('limitClause', () => {
    this.CONSUME(K.LIMIT);
    return this.SUBRULE(this.intValue);
  });

  readonly whereClause = this.RULE('whereClause', (): Where => {
    const first = this.CONSUME(K.WHERE);
    const where = [this.SUBRULE(this.relation)];
    this.MANY(() => {
      this.CONSUME(K.AND);
      where.push(this.SUBRULE2(this.relation));
    });
    return this.ACTION(() => ({ where, whereRange: this.rangeFrom(first) }));
  });

  readonly relation = this.RULE('relation', (): A.Relation => {
    const first = this.LA(1);
    const left = this.SUBRULE(this.expression);
    const tail: RelationTail = this.OR(
      (this.alts.relationOr ??= [
        {
          ALT: (): RelationTail => {
            const operator = this.SUBRULE(this.comparisonOperator);
            return { operator: operator.image as A.RelationOperator, right: [this.SUBRULE2(this.expression)] };
          },
        },
        {
          ALT: (): RelationTail => {
            this.CONSUME(K.IN);
            return { operator: 'IN', ...this.SUBRULE(this.inValues) };
          },
        },
        {
          ALT: (): RelationTail => {
            this.CONSUME(K.NOT);
            return this.OR2(
              (this.alts.relationOr2 ??= [
                {
                  ALT: (): RelationTail => {
                    this.CONSUME2(K.IN);
                    return { operator: 'NOT IN', ...this.SUBRULE2(this.inValues) };
                  },
                },
                {
                  ALT: (): RelationTail => {
                    this.CONSUME(K.CONTAINS);
                    const key = this.OPTION(
                      (this.alts.relationOption ??= {
                        MAX_LOOKAHEAD: 2,
                        GATE: () => keyWordAhead(this.lookahead),
                        DEF: () => this.CONSUME(K.KEY),
                      }),
                    );
                    return {
                      operator: key ? 'NOT CONTAINS KEY' : 'NOT CONTAINS',
                      right: [this.SUBRULE3(this.expression)],
                    };
                  },
                },
              ]),
            );
          },
        },
        {
          ALT: (): RelationTail => {
            this.CONSUME2(K.CONTAINS);
            const key = this.OPTION2(
              (this.alts.relationOption2 ??= {
                MAX_LOOKAHEAD: 2,
                GATE: () => keyWordAhead(this.lookahead),
                DEF: () => this.CONSUME2(K.KEY),
              }),
            );
            return { operator: key ? 'CONTAINS KEY' : 'CONTAINS', right: [this.SUBRULE4(this.expression)] };
          },
        },
        {
          ALT: (): RelationTail => {
            this.CONSUME(K.LIKE);
            return { operator: 'LIKE', right: [this.SUBRULE5(this.expression)] };
          },
        },
        {
          ALT: (): RelationTail => {
            this.CONSUME(K.IS);
            this.CONSUME2(K.NOT);
            this.CONSUME(K.NULL);
            return { operator: 'IS NOT NULL', right: [] };
          },
        },
        {
          ALT: (): RelationTail => {
            this.CONSUME(K.BETWEEN);
            const low = this.SUBRULE6(this.expression);
            this.CONSUME(K.AND);
            return { operator: 'BETWEEN', right: [low, this.SUBRULE7(this.expression)] };
          },
        },
      ]),
    );
    return this.ACTION(() => relationOf(left, tail.operator, tail.right, this.rangeFrom(first), tail.inList));
  });

  readonly comparisonOperator = this.RULE('comparisonOperator', () =>
    this.OR(
      (this.alts.comparisonOperatorOr ??= [
        { ALT: () => this.token(Eq) },
        { ALT: () => this.token(NotEq) },
        { ALT: () => this.token(Lt) },
        { ALT: () => this.token(LtEq) },
        { ALT: () => this.token(Gt) },
        { ALT: () => this.token(GtEq) },
      ]),
    ),
  );

  /** What IN takes: `(values...)` (a list) or a bind marker. */
  readonly inValues = this.RULE('inValues', (): { right: A.Expression[]; inList: boolean } =>
    this.OR(
      (this.alts.inValuesOr ??= [
        {
          ALT: () => {
            this.CONSUME(LParen);
            const right: A.Expression[] = [];
            this.OPTION(() => {
              right.push(this.SUBRULE(this.expression));
              this.MANY(() => {
                this.CONSUME(Comma);
                right.push(this.SUBRULE2(this.expression));
              });
            });
            this.CONSUME(RParen);
            return { right, inList: true };
          },
        },
        { ALT: () => ({ right: [this.SUBRULE(this.bindMarker)], inList: false }) },
      ]),
    ),
  );
}

const COMPARISONS = new Set([Eq, NotEq, Lt, LtEq, Gt, GtEq]);

/** SELECT and its clauses, as the rules above read them. */
export class SelectReader extends ExpressionReader {
  protected select(): SelectParts {
    this.expect(K.SELECT);
    const json = modifierKeywordAhead(this.la, K.JSON) && !!this.accept(K.JSON);
    const distinct = modifierKeywordAhead(this.la, K.DISTINCT) && !!this.accept(K.DISTINCT);
    const { selectors, star } = this.selectClause();
    this.expect(K.FROM);
    const from = this.tableName();
    const { where, whereRange } = this.is(K.WHERE) ? this.where() : { where: [], whereRange: undefined };
    let groupItems: A.Expression[] = [];
    if (this.accept(K.GROUP)) {
      this.expect(K.BY);
      groupItems = this.expressionList();
    }
    const orderBy: A.Ordering[] = [];
    if (this.accept(K.ORDER)) {
      this.expect(K.BY);
      do {
        const start = this.peek();
        const column = this.columnName();
        let annOf: A.Expression | undefined;
        if (this.accept(K.ANN)) {
          this.expect(K.OF);
          annOf = this.expression();
        }
        const direction = this.accept(K.DESC) ? 'DESC' : this.accept(K.ASC) ? 'ASC' : undefined;
        orderBy.push(orderingOf(column, tokenRange(start, this.previous()), direction, annOf));
      } while (this.accept(Comma));
    }
    let perPartitionLimit: A.Expression | undefined;
    if (this.accept(K.PER)) {
      this.expect(K.PARTITION);
      this.expect(K.LIMIT);
      perPartitionLimit = this.intValue();
    }
    const limit = this.accept(K.LIMIT) ? this.intValue() : undefined;
    const allow = this.accept(K.ALLOW);
    const allowFilteringRange = allow ? tokenRange(allow, this.expect(K.FILTERING)) : undefined;
    const bypass = this.accept(K.BYPASS);
    const bypassCacheRange = bypass ? tokenRange(bypass, this.expect(K.CACHE)) : undefined;
    const using = this.accept(K.USING) ? [this.timeoutOption()] : undefined;
    return {
      json,
      distinct,
      selectors,
      star,
      from,
      where,
      whereRange,
      groupItems,
      orderBy: sized(orderBy),
      perPartitionLimit,
      limit,
      allowFilteringRange,
      bypassCacheRange,
      using,
    };
  }

  /** `TIMEOUT duration` (a duration or a bind marker). */
  protected timeoutOption(): A.UsingClause {
    const option = this.expect(K.TIMEOUT);
    const value = this.is(DurationLiteral) ? literalFromToken(this.expect(DurationLiteral)) : this.bindMarker();
    return usingClauseOf('TIMEOUT', value, tokenRange(option, this.previous()));
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

  /** `WHERE relation (AND relation)*`: the relations and the clause's range. */
  protected where(): Where {
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
    this.pos++;
    let operator: A.RelationOperator;
    let right: A.Expression[];
    let inList: boolean | undefined;
    let not = false;
    if (type === K.NOT) {
      not = true;
      if (!this.is(K.IN) && !this.is(K.CONTAINS)) throw REJECT;
    }
    const op = not ? this.peek().tokenType : type;
    if (not) this.pos++;
    if (!not && COMPARISONS.has(type)) {
      operator = t.image as A.RelationOperator;
      right = [this.expression()];
    } else if (op === K.IN) {
      operator = not ? 'NOT IN' : 'IN';
      if (this.accept(LParen)) {
        inList = true;
        right = this.is(RParen) ? [] : this.expressionList();
        this.expect(RParen);
      } else {
        inList = false;
        right = [this.bindMarker()];
      }
    } else if (op === K.CONTAINS) {
      const key = this.is(K.KEY) && keyWordAhead(this.la);
      if (key) this.pos++;
      operator = `${not ? 'NOT ' : ''}${key ? 'CONTAINS KEY' : 'CONTAINS'}` as A.RelationOperator;
      right = [this.expression()];
    } else if (type === K.LIKE) {
      operator = 'LIKE';
      right = [this.expression()];
    } else if (type === K.IS) {
      this.expect(K.NOT);
      this.expect(K.NULL);
      operator = 'IS NOT NULL';
      right = [];
    } else if (type === K.BETWEEN) {
      operator = 'BETWEEN';
      const low = this.expression();
      this.expect(K.AND);
      right = [low, this.expression()];
    } else throw REJECT;
    return relationOf(left, operator, right, tokenRange(start, this.previous()), inList);
  }
}
