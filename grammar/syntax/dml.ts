// Data statements: SELECT, INSERT, UPDATE, DELETE, BATCH, USE, TRUNCATE, and their clauses.
import * as Lexer from '../lexer';
import { ExpressionRules } from './expressions';
import { existsEndsAhead, keyWordAhead } from './base';

// Module constants: compiled to CommonJS (tsx: tests, bench), every use of an imported binding is a getter call.
const { keywordTokens: K, Ident, StringLiteral, IntegerLiteral, Semicolon, Comma, Dot, LParen, RParen, LBracket, RBracket, LtEq, GtEq, NotEq, PlusEq, MinusEq, Lt, Gt, Eq, Star } = Lexer;

export class DmlRules extends ExpressionRules {
  readonly useStatement = this.RULE('useStatement', () => {
    this.CONSUME(K.USE);
    this.SUBRULE(this.keyspaceName);
  });

  readonly truncateStatement = this.RULE('truncateStatement', () => {
    this.CONSUME(K.TRUNCATE);
    this.OPTION(() => this.CONSUME(K.TABLE));
    this.SUBRULE(this.tableName);
  });

  readonly selectStatement = this.RULE('selectStatement', () => {
    this.CONSUME(K.SELECT);
    // `json` and `distinct` are also valid column names (Parser.g uses syntactic predicates).
    this.OPTION((this.alts.selectStatementOption ??= { GATE: () => this.isModifierKeyword(K.JSON), DEF: () => this.CONSUME(K.JSON) }));
    this.OPTION2((this.alts.selectStatementOption2 ??= { GATE: () => this.isModifierKeyword(K.DISTINCT), DEF: () => this.CONSUME(K.DISTINCT) }));
    this.SUBRULE(this.selectClause);
    this.CONSUME(K.FROM);
    this.SUBRULE(this.tableName);
    this.OPTION3(() => this.SUBRULE(this.whereClause));
    this.OPTION4(() => {
      this.CONSUME(K.GROUP);
      this.CONSUME(K.BY);
      this.SUBRULE(this.groupByItem);
      this.MANY(() => {
        this.CONSUME(Comma);
        this.SUBRULE2(this.groupByItem);
      });
    });
    this.OPTION5(() => {
      this.CONSUME(K.ORDER);
      this.CONSUME2(K.BY);
      this.SUBRULE(this.ordering);
      this.MANY2(() => {
        this.CONSUME2(Comma);
        this.SUBRULE2(this.ordering);
      });
    });
    this.OPTION6(() => this.SUBRULE(this.perPartitionLimit));
    this.OPTION7(() => this.SUBRULE(this.limitClause));
    this.OPTION8(() => {
      this.CONSUME(K.ALLOW);
      this.CONSUME(K.FILTERING);
    });
  });

  readonly selectClause = this.RULE('selectClause', () => {
    this.OR((this.alts.selectClauseOr ??= [
      { ALT: () => this.CONSUME(Star) },
      {
        ALT: () => {
          this.SUBRULE(this.selector);
          this.MANY(() => {
            this.CONSUME(Comma);
            this.SUBRULE2(this.selector);
          });
        },
      },
    ]));
  });

  readonly selector = this.RULE('selector', () => {
    this.SUBRULE(this.expression);
    this.OPTION(() => {
      this.CONSUME(K.AS);
      this.SUBRULE(this.aliasName);
    });
  });

  readonly aliasName = this.RULE('aliasName', () => this.CONSUME(Ident));

  readonly groupByItem = this.RULE('groupByItem', () => this.SUBRULE(this.expression));

  readonly ordering = this.RULE('ordering', () => {
    this.SUBRULE(this.columnName);
    this.OPTION(() => {
      this.CONSUME(K.ANN);
      this.CONSUME(K.OF);
      this.SUBRULE(this.expression);
    });
    this.OPTION2(() => this.OR((this.alts.orderingOr ??= [{ ALT: () => this.CONSUME(K.ASC) }, { ALT: () => this.CONSUME(K.DESC) }])));
  });

  readonly perPartitionLimit = this.RULE('perPartitionLimit', () => {
    this.CONSUME(K.PER);
    this.CONSUME(K.PARTITION);
    this.CONSUME(K.LIMIT);
    this.SUBRULE(this.intValue);
  });

  readonly limitClause = this.RULE('limitClause', () => {
    this.CONSUME(K.LIMIT);
    this.SUBRULE(this.intValue);
  });

  readonly intValue = this.RULE('intValue', () => {
    this.OR((this.alts.intValueOr ??= [{ ALT: () => this.CONSUME(IntegerLiteral) }, { ALT: () => this.SUBRULE(this.bindMarker) }]));
  });

  readonly whereClause = this.RULE('whereClause', () => {
    this.CONSUME(K.WHERE);
    this.SUBRULE(this.relation);
    this.MANY(() => {
      this.CONSUME(K.AND);
      this.SUBRULE2(this.relation);
    });
  });

  readonly relation = this.RULE('relation', () => {
    this.SUBRULE(this.expression);
    this.OR((this.alts.relationOr ??= [
      {
        ALT: () => {
          this.SUBRULE(this.comparisonOperator);
          this.SUBRULE2(this.expression);
        },
      },
      {
        ALT: () => {
          this.CONSUME(K.IN);
          this.SUBRULE(this.inValues);
        },
      },
      {
        ALT: () => {
          this.CONSUME(K.NOT);
          this.OR2((this.alts.relationOr2 ??= [
            {
              ALT: () => {
                this.CONSUME2(K.IN);
                this.SUBRULE2(this.inValues);
              },
            },
            {
              ALT: () => {
                this.CONSUME(K.CONTAINS);
                this.OPTION((this.alts.relationOption ??= { GATE: () => keyWordAhead(this.lookahead), DEF: () => this.CONSUME(K.KEY) }));
                this.SUBRULE3(this.expression);
              },
            },
          ]));
        },
      },
      {
        ALT: () => {
          this.CONSUME2(K.CONTAINS);
          this.OPTION2((this.alts.relationOption2 ??= { GATE: () => keyWordAhead(this.lookahead), DEF: () => this.CONSUME2(K.KEY) }));
          this.SUBRULE4(this.expression);
        },
      },
      {
        ALT: () => {
          this.CONSUME(K.LIKE);
          this.SUBRULE5(this.expression);
        },
      },
      {
        ALT: () => {
          this.CONSUME(K.IS);
          this.CONSUME2(K.NOT);
          this.CONSUME(K.NULL);
        },
      },
      {
        ALT: () => {
          this.CONSUME(K.BETWEEN);
          this.SUBRULE6(this.expression);
          this.CONSUME(K.AND);
          this.SUBRULE7(this.expression);
        },
      },
    ]));
  });

  readonly comparisonOperator = this.RULE('comparisonOperator', () => {
    this.OR((this.alts.comparisonOperatorOr ??= [
      { ALT: () => this.CONSUME(Eq) },
      { ALT: () => this.CONSUME(NotEq) },
      { ALT: () => this.CONSUME(Lt) },
      { ALT: () => this.CONSUME(LtEq) },
      { ALT: () => this.CONSUME(Gt) },
      { ALT: () => this.CONSUME(GtEq) },
    ]));
  });

  readonly inValues = this.RULE('inValues', () => {
    this.OR((this.alts.inValuesOr ??= [
      {
        ALT: () => {
          this.CONSUME(LParen);
          this.OPTION(() => {
            this.SUBRULE(this.expression);
            this.MANY(() => {
              this.CONSUME(Comma);
              this.SUBRULE2(this.expression);
            });
          });
          this.CONSUME(RParen);
        },
      },
      { ALT: () => this.SUBRULE(this.bindMarker) },
    ]));
  });

  readonly insertStatement = this.RULE('insertStatement', () => {
    this.CONSUME(K.INSERT);
    this.CONSUME(K.INTO);
    this.SUBRULE(this.tableName);
    this.OR((this.alts.insertStatementOr ??= [
      {
        ALT: () => {
          this.SUBRULE(this.insertColumns);
          this.CONSUME(K.VALUES);
          this.SUBRULE(this.insertValues);
        },
      },
      {
        ALT: () => {
          this.CONSUME(K.JSON);
          this.OR2((this.alts.insertStatementOr2 ??= [{ ALT: () => this.CONSUME(StringLiteral) }, { ALT: () => this.SUBRULE(this.bindMarker) }]));
          this.OPTION(() => {
            this.CONSUME(K.DEFAULT);
            this.OR3((this.alts.insertStatementOr3 ??= [{ ALT: () => this.CONSUME(K.NULL) }, { ALT: () => this.CONSUME(K.UNSET) }]));
          });
        },
      },
    ]));
    this.OPTION2(() => this.SUBRULE(this.ifNotExists));
    this.OPTION3(() => this.SUBRULE(this.usingClause));
  });

  readonly insertColumns = this.RULE('insertColumns', () => {
    this.CONSUME(LParen);
    this.SUBRULE(this.columnName);
    this.MANY(() => {
      this.CONSUME(Comma);
      this.SUBRULE2(this.columnName);
    });
    this.CONSUME(RParen);
  });

  readonly insertValues = this.RULE('insertValues', () => {
    this.CONSUME(LParen);
    this.SUBRULE(this.expression);
    this.MANY(() => {
      this.CONSUME(Comma);
      this.SUBRULE2(this.expression);
    });
    this.CONSUME(RParen);
  });

  readonly usingClause = this.RULE('usingClause', () => {
    this.CONSUME(K.USING);
    this.SUBRULE(this.usingOption);
    this.MANY(() => {
      this.CONSUME(K.AND);
      this.SUBRULE2(this.usingOption);
    });
  });

  readonly usingOption = this.RULE('usingOption', () => {
    this.OR((this.alts.usingOptionOr ??= [{ ALT: () => this.CONSUME(K.TTL) }, { ALT: () => this.CONSUME(K.TIMESTAMP) }]));
    this.SUBRULE(this.intValue);
  });

  readonly updateStatement = this.RULE('updateStatement', () => {
    this.CONSUME(K.UPDATE);
    this.SUBRULE(this.tableName);
    this.OPTION(() => this.SUBRULE(this.usingClause));
    this.CONSUME(K.SET);
    this.SUBRULE(this.assignment);
    this.MANY(() => {
      this.CONSUME(Comma);
      this.SUBRULE2(this.assignment);
    });
    this.SUBRULE(this.whereClause);
    this.OPTION2(() => this.SUBRULE(this.ifClause));
  });

  readonly assignment = this.RULE('assignment', () => {
    this.columnTarget();
    this.OR2((this.alts.assignmentOr2 ??= [{ ALT: () => this.CONSUME(Eq) }, { ALT: () => this.CONSUME(PlusEq) }, { ALT: () => this.CONSUME(MinusEq) }]));
    this.SUBRULE2(this.expression);
  });

  readonly ifClause = this.RULE('ifClause', () => {
    this.CONSUME(K.IF);
    this.OR((this.alts.ifClauseOr ??= [
      // `IF EXISTS` vs a condition on a column named `exists`.
      { GATE: () => existsEndsAhead(this.lookahead), ALT: () => this.CONSUME(K.EXISTS) },
      {
        ALT: () => {
          this.SUBRULE(this.relation);
          this.MANY(() => {
            this.CONSUME(K.AND);
            this.SUBRULE2(this.relation);
          });
        },
      },
    ]));
  });

  readonly deleteStatement = this.RULE('deleteStatement', () => {
    this.CONSUME(K.DELETE);
    this.OPTION(() => {
      this.SUBRULE(this.deleteSelection);
      this.MANY(() => {
        this.CONSUME(Comma);
        this.SUBRULE2(this.deleteSelection);
      });
    });
    this.CONSUME(K.FROM);
    this.SUBRULE(this.tableName);
    this.OPTION2(() => this.SUBRULE(this.usingClause));
    this.SUBRULE(this.whereClause);
    this.OPTION3(() => this.SUBRULE(this.ifClause));
  });

  readonly deleteSelection = this.RULE('deleteSelection', () => this.columnTarget());

  /**
   * `column`, `column[index]` or `column.field`: what an assignment sets and a DELETE removes. Not a rule of its
   * own: its tokens and subrules are the calling rule's children (the builder reads both the same way).
   */
  private columnTarget(): void {
    this.SUBRULE(this.columnName);
    this.OPTION(() =>
      this.OR((this.alts.columnTargetOr ??= [
        {
          ALT: () => {
            this.CONSUME(LBracket);
            this.SUBRULE(this.expression);
            this.CONSUME(RBracket);
          },
        },
        {
          ALT: () => {
            this.CONSUME(Dot);
            this.SUBRULE(this.fieldName);
          },
        },
      ])),
    );
  }

  readonly batchStatement = this.RULE('batchStatement', () => {
    this.CONSUME(K.BEGIN);
    this.OPTION(() => this.OR((this.alts.batchStatementOr ??= [{ ALT: () => this.CONSUME(K.UNLOGGED) }, { ALT: () => this.CONSUME(K.COUNTER) }])));
    this.CONSUME(K.BATCH);
    this.OPTION2(() => this.SUBRULE(this.usingClause));
    this.MANY(() => {
      this.OR2((this.alts.batchStatementOr2 ??= [
        { ALT: () => this.SUBRULE(this.insertStatement) },
        { ALT: () => this.SUBRULE(this.updateStatement) },
        { ALT: () => this.SUBRULE(this.deleteStatement) },
      ]));
      this.OPTION3(() => this.CONSUME(Semicolon));
    });
    this.CONSUME(K.APPLY);
    this.CONSUME2(K.BATCH);
  });
}
