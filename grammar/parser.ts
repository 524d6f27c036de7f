// The CQL parser (Apache Cassandra 5.0 Parser.g), as a Chevrotain CstParser.
//
// One statement is parsed at a time (grammar/index.ts splits the file into statement chunks), starting at
// `cqlStatement`. Where Parser.g relies on ANTLR syntactic predicates we left-factor, use small token-scanning
// gates (type hints, SELECT JSON/DISTINCT) or accept a slightly larger language and let the AST builder decide
// (expressions are one grammar for selectors, terms and relation operands).
// Rule names double as completion contexts (`expectedTokensAt` reports them): keep them descriptive.
import { CstParser, EOF, EarlyExitException, NoViableAltException, tokenMatcher, type CstNode, type IRecognitionException, type IToken, type ParserMethod, type TokenType } from './chevrotain';
import {
  allTokenTypes, keywordTokens as K, Ident, NonTypeIdent, NativeTypeKw, PermissionKw, NumberLit,
  StringLiteral, QuotedName, EmptyQuotedName, UuidLiteral, HexLiteral, IntegerLiteral, BooleanLiteral,
  Identifier, Semicolon, Comma, Range, Dot, LParen, RParen, LBracket, RBracket, LBrace, RBrace, LtEq, GtEq,
  NotEq, PlusEq, MinusEq, Lt, Gt, Eq, Plus, Minus, Star, Slash, Percent, Colon, QMark, DurationLiteral,
  FloatLiteral, NanLiteral, InfinityLiteral,
} from './lexer';
import type { TokenSpan } from './builder';

type Rule = ParserMethod<[], CstNode>;

/** Tokens after which a `(`...`)` group is a type hint rather than a parenthesised value. */
const TYPE_STARTERS = new Set<TokenType>([K.FROZEN, K.MAP, K.LIST, K.SET, K.TUPLE, K.VECTOR]);

export interface CqlParserOptions {
  /**
   * Run Chevrotain's grammar validations (ambiguities, left recursion, ...) while building the parser. They
   * cost more than the rest of the construction together, so the shared parser skips them and a test builds
   * one with `validate: true` to keep the grammar checked.
   */
  validate?: boolean;
}

export class CqlParser extends CstParser {
  // Rules are created in the constructor; this record gives them names for SUBRULE and for callers.
  readonly r: Record<string, Rule> = {};

  constructor(options: CqlParserOptions = {}) {
    super(allTokenTypes, { maxLookahead: 4, recoveryEnabled: false, nodeLocationTracking: 'full', skipValidations: !options.validate });
    this.trackNodesByTokens();
    const $ = this;
    const r = this.r;
    const rule = (name: string, impl: () => void): Rule => (r[name] = $.RULE(name, impl));
    // Alternatives are built once and reused (Chevrotain's recommended OR caching): rebuilding them on every
    // call costs more than the parsing itself.
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    const c: any[] = [];

    // -----------------------------------------------------------------------------------------
    // Statements

    rule('cqlStatement', () => {
      $.OR((c[0] ??= [
        { ALT: () => $.SUBRULE(r.selectStatement) },
        { ALT: () => $.SUBRULE(r.insertStatement) },
        { ALT: () => $.SUBRULE(r.updateStatement) },
        { ALT: () => $.SUBRULE(r.deleteStatement) },
        { ALT: () => $.SUBRULE(r.batchStatement) },
        { ALT: () => $.SUBRULE(r.useStatement) },
        { ALT: () => $.SUBRULE(r.truncateStatement) },
        { ALT: () => $.SUBRULE(r.createStatement) },
        { ALT: () => $.SUBRULE(r.alterStatement) },
        { ALT: () => $.SUBRULE(r.dropStatement) },
        { ALT: () => $.SUBRULE(r.grantStatement) },
        { ALT: () => $.SUBRULE(r.revokeStatement) },
        { ALT: () => $.SUBRULE(r.listStatement) },
        { ALT: () => $.SUBRULE(r.describeStatement) },
        { ALT: () => $.SUBRULE(r.addIdentityStatement) },
      ]));
      $.OPTION(() => $.CONSUME(Semicolon));
    });

    rule('useStatement', () => {
      $.CONSUME(K.USE);
      $.SUBRULE(r.keyspaceName);
    });

    rule('truncateStatement', () => {
      $.CONSUME(K.TRUNCATE);
      $.OPTION(() => $.CONSUME(K.TABLE));
      $.SUBRULE(r.tableName);
    });

    // SELECT ------------------------------------------------------------------------------------
    rule('selectStatement', () => {
      $.CONSUME(K.SELECT);
      // `json` and `distinct` are also valid column names (Parser.g uses syntactic predicates).
      $.OPTION((c[1] ??= { GATE: () => this.isModifierKeyword(K.JSON), DEF: () => $.CONSUME(K.JSON) }));
      $.OPTION2((c[2] ??= { GATE: () => this.isModifierKeyword(K.DISTINCT), DEF: () => $.CONSUME(K.DISTINCT) }));
      $.SUBRULE(r.selectClause);
      $.CONSUME(K.FROM);
      $.SUBRULE(r.tableName);
      $.OPTION3(() => $.SUBRULE(r.whereClause));
      $.OPTION4(() => {
        $.CONSUME(K.GROUP);
        $.CONSUME(K.BY);
        $.SUBRULE(r.groupByItem);
        $.MANY(() => {
          $.CONSUME(Comma);
          $.SUBRULE2(r.groupByItem);
        });
      });
      $.OPTION5(() => {
        $.CONSUME(K.ORDER);
        $.CONSUME2(K.BY);
        $.SUBRULE(r.ordering);
        $.MANY2(() => {
          $.CONSUME2(Comma);
          $.SUBRULE2(r.ordering);
        });
      });
      $.OPTION6(() => $.SUBRULE(r.perPartitionLimit));
      $.OPTION7(() => $.SUBRULE(r.limitClause));
      $.OPTION8(() => {
        $.CONSUME(K.ALLOW);
        $.CONSUME(K.FILTERING);
      });
    });

    rule('selectClause', () => {
      $.OR((c[3] ??= [
        { ALT: () => $.CONSUME(Star) },
        {
          ALT: () => {
            $.SUBRULE(r.selector);
            $.MANY(() => {
              $.CONSUME(Comma);
              $.SUBRULE2(r.selector);
            });
          },
        },
      ]));
    });

    rule('selector', () => {
      $.SUBRULE(r.expression);
      $.OPTION(() => {
        $.CONSUME(K.AS);
        $.SUBRULE(r.aliasName);
      });
    });

    rule('aliasName', () => $.CONSUME(Ident));

    rule('groupByItem', () => $.SUBRULE(r.expression));

    rule('ordering', () => {
      $.SUBRULE(r.columnName);
      $.OPTION(() => {
        $.CONSUME(K.ANN);
        $.CONSUME(K.OF);
        $.SUBRULE(r.expression);
      });
      $.OPTION2(() => $.OR((c[4] ??= [{ ALT: () => $.CONSUME(K.ASC) }, { ALT: () => $.CONSUME(K.DESC) }])));
    });

    rule('perPartitionLimit', () => {
      $.CONSUME(K.PER);
      $.CONSUME(K.PARTITION);
      $.CONSUME(K.LIMIT);
      $.SUBRULE(r.intValue);
    });

    rule('limitClause', () => {
      $.CONSUME(K.LIMIT);
      $.SUBRULE(r.intValue);
    });

    rule('intValue', () => {
      $.OR((c[5] ??= [{ ALT: () => $.CONSUME(IntegerLiteral) }, { ALT: () => $.SUBRULE(r.bindMarker) }]));
    });

    rule('whereClause', () => {
      $.CONSUME(K.WHERE);
      $.SUBRULE(r.relation);
      $.MANY(() => {
        $.CONSUME(K.AND);
        $.SUBRULE2(r.relation);
      });
    });

    rule('relation', () => {
      $.SUBRULE(r.expression);
      $.OR((c[6] ??= [
        {
          ALT: () => {
            $.SUBRULE(r.comparisonOperator);
            $.SUBRULE2(r.expression);
          },
        },
        {
          ALT: () => {
            $.CONSUME(K.IN);
            $.SUBRULE(r.inValues);
          },
        },
        {
          ALT: () => {
            $.CONSUME(K.NOT);
            $.OR2((c[7] ??= [
              {
                ALT: () => {
                  $.CONSUME2(K.IN);
                  $.SUBRULE2(r.inValues);
                },
              },
              {
                ALT: () => {
                  $.CONSUME(K.CONTAINS);
                  $.OPTION((c[8] ??= { GATE: () => this.LA(2).tokenType !== EOF && this.LA(2).tokenType !== Semicolon && this.LA(2).tokenType !== K.AND, DEF: () => $.CONSUME(K.KEY) }));
                  $.SUBRULE3(r.expression);
                },
              },
            ]));
          },
        },
        {
          ALT: () => {
            $.CONSUME2(K.CONTAINS);
            $.OPTION2((c[9] ??= { GATE: () => this.LA(2).tokenType !== EOF && this.LA(2).tokenType !== Semicolon && this.LA(2).tokenType !== K.AND, DEF: () => $.CONSUME2(K.KEY) }));
            $.SUBRULE4(r.expression);
          },
        },
        {
          ALT: () => {
            $.CONSUME(K.LIKE);
            $.SUBRULE5(r.expression);
          },
        },
        {
          ALT: () => {
            $.CONSUME(K.IS);
            $.CONSUME2(K.NOT);
            $.CONSUME(K.NULL);
          },
        },
        {
          ALT: () => {
            $.CONSUME(K.BETWEEN);
            $.SUBRULE6(r.expression);
            $.CONSUME(K.AND);
            $.SUBRULE7(r.expression);
          },
        },
      ]));
    });

    rule('comparisonOperator', () => {
      $.OR((c[10] ??= [
        { ALT: () => $.CONSUME(Eq) },
        { ALT: () => $.CONSUME(NotEq) },
        { ALT: () => $.CONSUME(Lt) },
        { ALT: () => $.CONSUME(LtEq) },
        { ALT: () => $.CONSUME(Gt) },
        { ALT: () => $.CONSUME(GtEq) },
      ]));
    });

    rule('inValues', () => {
      $.OR((c[11] ??= [
        {
          ALT: () => {
            $.CONSUME(LParen);
            $.OPTION(() => {
              $.SUBRULE(r.expression);
              $.MANY(() => {
                $.CONSUME(Comma);
                $.SUBRULE2(r.expression);
              });
            });
            $.CONSUME(RParen);
          },
        },
        { ALT: () => $.SUBRULE(r.bindMarker) },
      ]));
    });

    // INSERT / UPDATE / DELETE / BATCH ----------------------------------------------------------
    rule('insertStatement', () => {
      $.CONSUME(K.INSERT);
      $.CONSUME(K.INTO);
      $.SUBRULE(r.tableName);
      $.OR((c[12] ??= [
        {
          ALT: () => {
            $.SUBRULE(r.insertColumns);
            $.CONSUME(K.VALUES);
            $.SUBRULE(r.insertValues);
          },
        },
        {
          ALT: () => {
            $.CONSUME(K.JSON);
            $.OR2((c[13] ??= [{ ALT: () => $.CONSUME(StringLiteral) }, { ALT: () => $.SUBRULE(r.bindMarker) }]));
            $.OPTION(() => {
              $.CONSUME(K.DEFAULT);
              $.OR3((c[14] ??= [{ ALT: () => $.CONSUME(K.NULL) }, { ALT: () => $.CONSUME(K.UNSET) }]));
            });
          },
        },
      ]));
      $.OPTION2(() => $.SUBRULE(r.ifNotExists));
      $.OPTION3(() => $.SUBRULE(r.usingClause));
    });

    rule('insertColumns', () => {
      $.CONSUME(LParen);
      $.SUBRULE(r.columnName);
      $.MANY(() => {
        $.CONSUME(Comma);
        $.SUBRULE2(r.columnName);
      });
      $.CONSUME(RParen);
    });

    rule('insertValues', () => {
      $.CONSUME(LParen);
      $.SUBRULE(r.expression);
      $.MANY(() => {
        $.CONSUME(Comma);
        $.SUBRULE2(r.expression);
      });
      $.CONSUME(RParen);
    });

    rule('usingClause', () => {
      $.CONSUME(K.USING);
      $.SUBRULE(r.usingOption);
      $.MANY(() => {
        $.CONSUME(K.AND);
        $.SUBRULE2(r.usingOption);
      });
    });

    rule('usingOption', () => {
      $.OR((c[15] ??= [{ ALT: () => $.CONSUME(K.TTL) }, { ALT: () => $.CONSUME(K.TIMESTAMP) }]));
      $.SUBRULE(r.intValue);
    });

    rule('updateStatement', () => {
      $.CONSUME(K.UPDATE);
      $.SUBRULE(r.tableName);
      $.OPTION(() => $.SUBRULE(r.usingClause));
      $.CONSUME(K.SET);
      $.SUBRULE(r.assignment);
      $.MANY(() => {
        $.CONSUME(Comma);
        $.SUBRULE2(r.assignment);
      });
      $.SUBRULE(r.whereClause);
      $.OPTION2(() => $.SUBRULE(r.ifClause));
    });

    rule('assignment', () => {
      $.SUBRULE(r.columnName);
      $.OPTION(() =>
        $.OR((c[16] ??= [
          {
            ALT: () => {
              $.CONSUME(LBracket);
              $.SUBRULE(r.expression);
              $.CONSUME(RBracket);
            },
          },
          {
            ALT: () => {
              $.CONSUME(Dot);
              $.SUBRULE(r.fieldName);
            },
          },
        ])),
      );
      $.OR2((c[17] ??= [{ ALT: () => $.CONSUME(Eq) }, { ALT: () => $.CONSUME(PlusEq) }, { ALT: () => $.CONSUME(MinusEq) }]));
      $.SUBRULE2(r.expression);
    });

    rule('ifClause', () => {
      $.CONSUME(K.IF);
      $.OR((c[18] ??= [
        // `IF EXISTS` vs a condition on a column named `exists`.
        { GATE: () => this.LA(2).tokenType === EOF || this.LA(2).tokenType === Semicolon || this.LA(2).tokenType === K.APPLY || this.isStatementStart(this.LA(2)), ALT: () => $.CONSUME(K.EXISTS) },
        {
          ALT: () => {
            $.SUBRULE(r.relation);
            $.MANY(() => {
              $.CONSUME(K.AND);
              $.SUBRULE2(r.relation);
            });
          },
        },
      ]));
    });

    rule('deleteStatement', () => {
      $.CONSUME(K.DELETE);
      $.OPTION(() => {
        $.SUBRULE(r.deleteSelection);
        $.MANY(() => {
          $.CONSUME(Comma);
          $.SUBRULE2(r.deleteSelection);
        });
      });
      $.CONSUME(K.FROM);
      $.SUBRULE(r.tableName);
      $.OPTION2(() => $.SUBRULE(r.usingClause));
      $.SUBRULE(r.whereClause);
      $.OPTION3(() => $.SUBRULE(r.ifClause));
    });

    rule('deleteSelection', () => {
      $.SUBRULE(r.columnName);
      $.OPTION(() =>
        $.OR((c[19] ??= [
          {
            ALT: () => {
              $.CONSUME(LBracket);
              $.SUBRULE(r.expression);
              $.CONSUME(RBracket);
            },
          },
          {
            ALT: () => {
              $.CONSUME(Dot);
              $.SUBRULE(r.fieldName);
            },
          },
        ])),
      );
    });

    rule('batchStatement', () => {
      $.CONSUME(K.BEGIN);
      $.OPTION(() => $.OR((c[20] ??= [{ ALT: () => $.CONSUME(K.UNLOGGED) }, { ALT: () => $.CONSUME(K.COUNTER) }])));
      $.CONSUME(K.BATCH);
      $.OPTION2(() => $.SUBRULE(r.usingClause));
      $.MANY(() => {
        $.OR2((c[21] ??= [
          { ALT: () => $.SUBRULE(r.insertStatement) },
          { ALT: () => $.SUBRULE(r.updateStatement) },
          { ALT: () => $.SUBRULE(r.deleteStatement) },
        ]));
        $.OPTION3(() => $.CONSUME(Semicolon));
      });
      $.CONSUME(K.APPLY);
      $.CONSUME2(K.BATCH);
    });

    // CREATE / ALTER / DROP ---------------------------------------------------------------------
    rule('createStatement', () => {
      $.CONSUME(K.CREATE);
      $.OR((c[22] ??= [
        { ALT: () => $.SUBRULE(r.createKeyspace) },
        { ALT: () => $.SUBRULE(r.createTable) },
        { ALT: () => $.SUBRULE(r.createType) },
        { ALT: () => $.SUBRULE(r.createIndex) },
        { ALT: () => $.SUBRULE(r.createMaterializedView) },
        { ALT: () => $.SUBRULE(r.createFunction) },
        { ALT: () => $.SUBRULE(r.createAggregate) },
        { ALT: () => $.SUBRULE(r.createTrigger) },
        { ALT: () => $.SUBRULE(r.createRole) },
        { ALT: () => $.SUBRULE(r.createUser) },
      ]));
    });

    rule('alterStatement', () => {
      $.CONSUME(K.ALTER);
      $.OR((c[23] ??= [
        { ALT: () => $.SUBRULE(r.alterKeyspace) },
        { ALT: () => $.SUBRULE(r.alterTable) },
        { ALT: () => $.SUBRULE(r.alterType) },
        { ALT: () => $.SUBRULE(r.alterMaterializedView) },
        { ALT: () => $.SUBRULE(r.alterRole) },
        { ALT: () => $.SUBRULE(r.alterUser) },
      ]));
    });

    rule('dropStatement', () => {
      $.CONSUME(K.DROP);
      $.OR((c[24] ??= [
        { ALT: () => $.SUBRULE(r.dropKeyspace) },
        { ALT: () => $.SUBRULE(r.dropTable) },
        { ALT: () => $.SUBRULE(r.dropType) },
        { ALT: () => $.SUBRULE(r.dropIndex) },
        { ALT: () => $.SUBRULE(r.dropMaterializedView) },
        { ALT: () => $.SUBRULE(r.dropFunction) },
        { ALT: () => $.SUBRULE(r.dropAggregate) },
        { ALT: () => $.SUBRULE(r.dropTrigger) },
        { ALT: () => $.SUBRULE(r.dropRole) },
        { ALT: () => $.SUBRULE(r.dropUser) },
        { ALT: () => $.SUBRULE(r.dropIdentity) },
      ]));
    });

    rule('ifNotExists', () => {
      $.CONSUME(K.IF);
      $.CONSUME(K.NOT);
      $.CONSUME(K.EXISTS);
    });

    rule('ifExists', () => {
      $.CONSUME(K.IF);
      $.CONSUME(K.EXISTS);
    });

    rule('keyspaceKeyword', () => $.OR((c[25] ??= [{ ALT: () => $.CONSUME(K.KEYSPACE) }, { ALT: () => $.CONSUME(K.SCHEMA) }])));

    rule('createKeyspace', () => {
      $.SUBRULE(r.keyspaceKeyword);
      $.OPTION(() => $.SUBRULE(r.ifNotExists));
      $.SUBRULE(r.keyspaceName);
      $.CONSUME(K.WITH);
      $.SUBRULE(r.properties);
    });

    rule('alterKeyspace', () => {
      $.SUBRULE(r.keyspaceKeyword);
      $.OPTION(() => $.SUBRULE(r.ifExists));
      $.SUBRULE(r.keyspaceName);
      $.CONSUME(K.WITH);
      $.SUBRULE(r.properties);
    });

    rule('dropKeyspace', () => {
      $.SUBRULE(r.keyspaceKeyword);
      $.OPTION(() => $.SUBRULE(r.ifExists));
      $.SUBRULE(r.keyspaceName);
    });

    rule('properties', () => {
      $.SUBRULE(r.property);
      $.MANY(() => {
        $.CONSUME(K.AND);
        $.SUBRULE2(r.property);
      });
    });

    rule('property', () => {
      $.SUBRULE(r.propertyName);
      $.CONSUME(Eq);
      $.SUBRULE(r.expression);
    });

    rule('propertyName', () => $.CONSUME(Ident));

    rule('createTable', () => {
      $.CONSUME(K.TABLE);
      $.OPTION(() => $.SUBRULE(r.ifNotExists));
      $.SUBRULE(r.tableName);
      $.OR((c[26] ??= [
        {
          ALT: () => {
            $.SUBRULE(r.tableBody);
            $.OPTION2(() => $.SUBRULE(r.tableOptions));
          },
        },
        {
          ALT: () => {
            $.CONSUME(K.LIKE);
            $.SUBRULE2(r.tableName);
            $.OPTION3(() => $.SUBRULE2(r.tableOptions));
          },
        },
      ]));
    });

    rule('tableBody', () => {
      $.CONSUME(LParen);
      $.SUBRULE(r.tableElement);
      $.MANY(() => {
        $.CONSUME(Comma);
        // Cassandra accepts a trailing comma.
        $.OPTION(() => $.SUBRULE2(r.tableElement));
      });
      $.CONSUME(RParen);
    });

    rule('tableElement', () => {
      $.OR((c[27] ??= [{ ALT: () => $.SUBRULE(r.primaryKeyClause) }, { ALT: () => $.SUBRULE(r.columnDefinition) }]));
    });

    rule('columnDefinition', () => {
      $.SUBRULE(r.columnName);
      $.SUBRULE(r.cqlType);
      $.OPTION(() => $.CONSUME(K.STATIC));
      $.OPTION2(() => $.SUBRULE(r.columnMask));
      $.OPTION3(() => {
        $.CONSUME(K.PRIMARY);
        $.CONSUME(K.KEY);
      });
    });

    rule('columnMask', () => {
      $.CONSUME(K.MASKED);
      $.CONSUME(K.WITH);
      $.OR((c[28] ??= [
        { ALT: () => $.CONSUME(K.DEFAULT), GATE: () => this.la(2) !== LParen && this.la(2) !== Dot, IGNORE_AMBIGUITIES: true },
        { ALT: () => $.SUBRULE(r.functionCall) },
      ]));
    });

    rule('primaryKeyClause', () => {
      $.CONSUME(K.PRIMARY);
      $.CONSUME(K.KEY);
      $.CONSUME(LParen);
      $.SUBRULE(r.partitionKey);
      $.MANY(() => {
        $.CONSUME(Comma);
        $.SUBRULE(r.columnName);
      });
      $.CONSUME(RParen);
    });

    rule('partitionKey', () => {
      $.OR((c[29] ??= [
        { ALT: () => $.SUBRULE(r.columnName) },
        {
          ALT: () => {
            $.CONSUME(LParen);
            $.SUBRULE2(r.columnName);
            $.MANY(() => {
              $.CONSUME(Comma);
              $.SUBRULE3(r.columnName);
            });
            $.CONSUME(RParen);
          },
        },
      ]));
    });

    rule('tableOptions', () => {
      $.CONSUME(K.WITH);
      $.SUBRULE(r.tableOption);
      $.MANY(() => {
        $.CONSUME(K.AND);
        $.SUBRULE2(r.tableOption);
      });
    });

    rule('tableOption', () => {
      $.OR((c[30] ??= [
        {
          ALT: () => {
            $.CONSUME(K.COMPACT);
            $.CONSUME(K.STORAGE);
          },
        },
        { ALT: () => $.SUBRULE(r.clusteringOrder) },
        { ALT: () => $.SUBRULE(r.property) },
      ]));
    });

    rule('clusteringOrder', () => {
      $.CONSUME(K.CLUSTERING);
      $.CONSUME(K.ORDER);
      $.CONSUME(K.BY);
      $.CONSUME(LParen);
      $.SUBRULE(r.clusteringOrderItem);
      $.MANY(() => {
        $.CONSUME(Comma);
        $.SUBRULE2(r.clusteringOrderItem);
      });
      $.CONSUME(RParen);
    });

    rule('clusteringOrderItem', () => {
      $.SUBRULE(r.columnName);
      $.OR((c[31] ??= [{ ALT: () => $.CONSUME(K.ASC) }, { ALT: () => $.CONSUME(K.DESC) }]));
    });

    rule('alterTable', () => {
      $.CONSUME(K.TABLE);
      $.OPTION(() => $.SUBRULE(r.ifExists));
      $.SUBRULE(r.tableName);
      $.OR((c[32] ??= [
        { ALT: () => $.SUBRULE(r.alterColumn) },
        { ALT: () => $.SUBRULE(r.addColumns) },
        { ALT: () => $.SUBRULE(r.dropCompactStorage) },
        { ALT: () => $.SUBRULE(r.dropColumns) },
        { ALT: () => $.SUBRULE(r.renameColumns) },
        { ALT: () => $.SUBRULE(r.tableOptions) },
      ]));
    });

    rule('alterColumn', () => {
      $.CONSUME(K.ALTER);
      $.OPTION(() => $.SUBRULE(r.ifExists));
      $.SUBRULE(r.columnName);
      $.OR((c[33] ??= [
        {
          ALT: () => {
            $.CONSUME(K.TYPE);
            $.SUBRULE(r.cqlType);
          },
        },
        { ALT: () => $.SUBRULE(r.columnMask) },
        {
          ALT: () => {
            $.CONSUME(K.DROP);
            $.CONSUME(K.MASKED);
          },
        },
      ]));
    });

    rule('addColumns', () => {
      $.CONSUME(K.ADD);
      $.OPTION(() => $.SUBRULE(r.ifNotExists));
      $.OR((c[34] ??= [
        { ALT: () => $.SUBRULE(r.columnDefinition) },
        {
          ALT: () => {
            $.CONSUME(LParen);
            $.SUBRULE2(r.columnDefinition);
            $.MANY(() => {
              $.CONSUME(Comma);
              $.SUBRULE3(r.columnDefinition);
            });
            $.CONSUME(RParen);
          },
        },
      ]));
    });

    rule('dropCompactStorage', () => {
      $.CONSUME(K.DROP);
      $.CONSUME(K.COMPACT);
      $.CONSUME(K.STORAGE);
    });

    rule('dropColumns', () => {
      $.CONSUME(K.DROP);
      $.OPTION(() => $.SUBRULE(r.ifExists));
      $.OR((c[35] ??= [
        { ALT: () => $.SUBRULE(r.columnName) },
        {
          ALT: () => {
            $.CONSUME(LParen);
            $.SUBRULE2(r.columnName);
            $.MANY(() => {
              $.CONSUME(Comma);
              $.SUBRULE3(r.columnName);
            });
            $.CONSUME(RParen);
          },
        },
      ]));
      $.OPTION2(() => {
        $.CONSUME(K.USING);
        $.CONSUME(K.TIMESTAMP);
        $.CONSUME(IntegerLiteral);
      });
    });

    rule('renameColumns', () => {
      $.CONSUME(K.RENAME);
      $.OPTION(() => $.SUBRULE(r.ifExists));
      $.SUBRULE(r.renamePair);
      $.MANY(() => {
        $.CONSUME(K.AND);
        $.SUBRULE2(r.renamePair);
      });
    });

    rule('renamePair', () => {
      $.SUBRULE(r.columnName);
      $.CONSUME(K.TO);
      $.SUBRULE2(r.columnName);
    });

    rule('dropTable', () => {
      $.CONSUME(K.TABLE);
      $.OPTION(() => $.SUBRULE(r.ifExists));
      $.SUBRULE(r.tableName);
    });

    rule('createType', () => {
      $.CONSUME(K.TYPE);
      $.OPTION(() => $.SUBRULE(r.ifNotExists));
      $.SUBRULE(r.userTypeName);
      $.CONSUME(LParen);
      $.SUBRULE(r.typeField);
      $.MANY(() => {
        $.CONSUME(Comma);
        $.OPTION2(() => $.SUBRULE2(r.typeField));
      });
      $.CONSUME(RParen);
    });

    rule('typeField', () => {
      $.SUBRULE(r.fieldName);
      $.SUBRULE(r.cqlType);
    });

    rule('alterType', () => {
      $.CONSUME(K.TYPE);
      $.OPTION(() => $.SUBRULE(r.ifExists));
      $.SUBRULE(r.userTypeName);
      $.OR((c[36] ??= [
        {
          ALT: () => {
            $.CONSUME(K.ALTER);
            $.SUBRULE(r.fieldName);
            $.CONSUME2(K.TYPE);
            $.SUBRULE(r.cqlType);
          },
        },
        {
          ALT: () => {
            $.CONSUME(K.ADD);
            $.OPTION2(() => $.SUBRULE(r.ifNotExists));
            $.SUBRULE(r.typeField);
          },
        },
        {
          ALT: () => {
            $.CONSUME(K.RENAME);
            $.OPTION3(() => $.SUBRULE2(r.ifExists));
            $.SUBRULE(r.renameField);
            $.MANY(() => {
              $.CONSUME(K.AND);
              $.SUBRULE2(r.renameField);
            });
          },
        },
      ]));
    });

    rule('renameField', () => {
      $.SUBRULE(r.fieldName);
      $.CONSUME(K.TO);
      $.SUBRULE2(r.fieldName);
    });

    rule('dropType', () => {
      $.CONSUME(K.TYPE);
      $.OPTION(() => $.SUBRULE(r.ifExists));
      $.SUBRULE(r.userTypeName);
    });

    rule('createIndex', () => {
      $.OPTION(() => $.CONSUME(K.CUSTOM));
      $.CONSUME(K.INDEX);
      $.OPTION2(() => $.SUBRULE(r.ifNotExists));
      $.OPTION3(() => $.SUBRULE(r.indexName));
      $.CONSUME(K.ON);
      $.SUBRULE(r.tableName);
      $.CONSUME(LParen);
      $.OPTION4(() => {
        $.SUBRULE(r.indexTarget);
        $.MANY(() => {
          $.CONSUME(Comma);
          $.SUBRULE2(r.indexTarget);
        });
      });
      $.CONSUME(RParen);
      $.OPTION5(() => {
        $.CONSUME(K.USING);
        $.CONSUME(StringLiteral);
      });
      $.OPTION6(() => {
        $.CONSUME(K.WITH);
        $.SUBRULE(r.properties);
      });
    });

    rule('indexTarget', () => {
      $.OR((c[37] ??= [
        {
          ALT: () => {
            $.OR2((c[38] ??= [
              { ALT: () => $.CONSUME(K.KEYS) },
              { ALT: () => $.CONSUME(K.VALUES) },
              { ALT: () => $.CONSUME(K.ENTRIES) },
              { ALT: () => $.CONSUME(K.FULL) },
            ]));
            $.CONSUME(LParen);
            $.SUBRULE(r.columnName);
            $.CONSUME(RParen);
          },
        },
        { ALT: () => $.SUBRULE2(r.columnName) },
      ]));
    });

    rule('dropIndex', () => {
      $.CONSUME(K.INDEX);
      $.OPTION(() => $.SUBRULE(r.ifExists));
      $.SUBRULE(r.qualifiedIndexName);
    });

    rule('createMaterializedView', () => {
      $.CONSUME(K.MATERIALIZED);
      $.CONSUME(K.VIEW);
      $.OPTION(() => $.SUBRULE(r.ifNotExists));
      $.SUBRULE(r.tableName);
      $.CONSUME(K.AS);
      $.CONSUME(K.SELECT);
      $.SUBRULE(r.selectClause);
      $.CONSUME(K.FROM);
      $.SUBRULE2(r.tableName);
      $.OPTION2(() => $.SUBRULE(r.whereClause));
      $.SUBRULE(r.primaryKeyClause);
      $.OPTION3(() => $.SUBRULE(r.tableOptions));
    });

    rule('alterMaterializedView', () => {
      $.CONSUME(K.MATERIALIZED);
      $.CONSUME(K.VIEW);
      $.OPTION(() => $.SUBRULE(r.ifExists));
      $.SUBRULE(r.tableName);
      $.SUBRULE(r.tableOptions);
    });

    rule('dropMaterializedView', () => {
      $.CONSUME(K.MATERIALIZED);
      $.CONSUME(K.VIEW);
      $.OPTION(() => $.SUBRULE(r.ifExists));
      $.SUBRULE(r.tableName);
    });

    rule('orReplace', () => {
      $.CONSUME(K.OR);
      $.CONSUME(K.REPLACE);
    });

    rule('createFunction', () => {
      $.OPTION(() => $.SUBRULE(r.orReplace));
      $.CONSUME(K.FUNCTION);
      $.OPTION2(() => $.SUBRULE(r.ifNotExists));
      $.SUBRULE(r.functionName);
      $.CONSUME(LParen);
      $.OPTION3(() => {
        $.SUBRULE(r.functionArgument);
        $.MANY(() => {
          $.CONSUME(Comma);
          $.SUBRULE2(r.functionArgument);
        });
      });
      $.CONSUME(RParen);
      $.OR((c[39] ??= [
        {
          ALT: () => {
            $.CONSUME(K.RETURNS);
            $.CONSUME(K.NULL);
          },
        },
        { ALT: () => $.CONSUME(K.CALLED) },
      ]));
      $.CONSUME(K.ON);
      $.CONSUME2(K.NULL);
      $.CONSUME(K.INPUT);
      $.CONSUME2(K.RETURNS);
      $.SUBRULE(r.cqlType);
      $.CONSUME(K.LANGUAGE);
      $.CONSUME(Ident);
      $.CONSUME(K.AS);
      $.CONSUME(StringLiteral);
    });

    rule('functionArgument', () => {
      $.SUBRULE(r.argumentName);
      $.SUBRULE(r.cqlType);
    });

    rule('argumentName', () => $.CONSUME(Ident));

    rule('typeList', () => {
      $.CONSUME(LParen);
      $.OPTION(() => {
        $.SUBRULE(r.cqlType);
        $.MANY(() => {
          $.CONSUME(Comma);
          $.SUBRULE2(r.cqlType);
        });
      });
      $.CONSUME(RParen);
    });

    rule('createAggregate', () => {
      $.OPTION(() => $.SUBRULE(r.orReplace));
      $.CONSUME(K.AGGREGATE);
      $.OPTION2(() => $.SUBRULE(r.ifNotExists));
      $.SUBRULE(r.functionName);
      $.SUBRULE(r.typeList);
      $.CONSUME(K.SFUNC);
      $.SUBRULE2(r.functionName);
      $.CONSUME(K.STYPE);
      $.SUBRULE(r.cqlType);
      $.OPTION3(() => {
        $.CONSUME(K.FINALFUNC);
        $.SUBRULE3(r.functionName);
      });
      $.OPTION4(() => {
        $.CONSUME(K.INITCOND);
        $.SUBRULE(r.expression);
      });
    });

    rule('dropFunction', () => {
      $.CONSUME(K.FUNCTION);
      $.OPTION(() => $.SUBRULE(r.ifExists));
      $.SUBRULE(r.functionName);
      $.OPTION2(() => $.SUBRULE(r.typeList));
    });

    rule('dropAggregate', () => {
      $.CONSUME(K.AGGREGATE);
      $.OPTION(() => $.SUBRULE(r.ifExists));
      $.SUBRULE(r.functionName);
      $.OPTION2(() => $.SUBRULE(r.typeList));
    });

    rule('createTrigger', () => {
      $.CONSUME(K.TRIGGER);
      $.OPTION(() => $.SUBRULE(r.ifNotExists));
      $.SUBRULE(r.triggerName);
      $.CONSUME(K.ON);
      $.SUBRULE(r.tableName);
      $.CONSUME(K.USING);
      $.CONSUME(StringLiteral);
    });

    rule('dropTrigger', () => {
      $.CONSUME(K.TRIGGER);
      $.OPTION(() => $.SUBRULE(r.ifExists));
      $.SUBRULE(r.triggerName);
      $.CONSUME(K.ON);
      $.SUBRULE(r.tableName);
    });

    rule('triggerName', () => $.CONSUME(Ident));

    // Roles, users, permissions, identities ---------------------------------------------------
    rule('createRole', () => {
      $.CONSUME(K.ROLE);
      $.OPTION(() => $.SUBRULE(r.ifNotExists));
      $.SUBRULE(r.roleName);
      $.OPTION2(() => {
        $.CONSUME(K.WITH);
        $.SUBRULE(r.roleOptions);
      });
    });

    rule('alterRole', () => {
      $.CONSUME(K.ROLE);
      $.OPTION(() => $.SUBRULE(r.ifExists));
      $.SUBRULE(r.roleName);
      $.OPTION2(() => {
        $.CONSUME(K.WITH);
        $.SUBRULE(r.roleOptions);
      });
    });

    rule('dropRole', () => {
      $.CONSUME(K.ROLE);
      $.OPTION(() => $.SUBRULE(r.ifExists));
      $.SUBRULE(r.roleName);
    });

    rule('roleOptions', () => {
      $.SUBRULE(r.roleOption);
      $.MANY(() => {
        $.CONSUME(K.AND);
        $.SUBRULE2(r.roleOption);
      });
    });

    rule('roleOption', () => {
      $.OR((c[40] ??= [
        {
          ALT: () => {
            $.CONSUME(K.PASSWORD);
            $.CONSUME(Eq);
            $.CONSUME(StringLiteral);
          },
        },
        {
          ALT: () => {
            $.CONSUME(K.HASHED);
            $.CONSUME2(K.PASSWORD);
            $.CONSUME2(Eq);
            $.CONSUME2(StringLiteral);
          },
        },
        {
          ALT: () => {
            $.CONSUME(K.GENERATED);
            $.CONSUME3(K.PASSWORD);
          },
        },
        {
          ALT: () => {
            $.CONSUME(K.OPTIONS);
            $.CONSUME3(Eq);
            $.SUBRULE(r.braceLiteral);
          },
        },
        {
          ALT: () => {
            $.OR2((c[41] ??= [{ ALT: () => $.CONSUME(K.SUPERUSER) }, { ALT: () => $.CONSUME(K.LOGIN) }]));
            $.CONSUME4(Eq);
            $.CONSUME(BooleanLiteral);
          },
        },
        {
          ALT: () => {
            $.CONSUME(K.ACCESS);
            $.OR3((c[42] ??= [
              {
                ALT: () => {
                  $.CONSUME(K.TO);
                  $.OR4((c[43] ??= [
                    {
                      ALT: () => {
                        $.CONSUME(K.ALL);
                        $.CONSUME(K.DATACENTERS);
                      },
                    },
                    {
                      ALT: () => {
                        $.CONSUME2(K.DATACENTERS);
                        $.SUBRULE(r.stringSet);
                      },
                    },
                  ]));
                },
              },
              {
                ALT: () => {
                  $.CONSUME(K.FROM);
                  $.OR5((c[44] ??= [
                    {
                      ALT: () => {
                        $.CONSUME2(K.ALL);
                        $.CONSUME(K.CIDRS);
                      },
                    },
                    {
                      ALT: () => {
                        $.CONSUME2(K.CIDRS);
                        $.SUBRULE2(r.stringSet);
                      },
                    },
                  ]));
                },
              },
            ]));
          },
        },
      ]));
    });

    rule('stringSet', () => {
      $.CONSUME(LBrace);
      $.CONSUME(StringLiteral);
      $.MANY(() => {
        $.CONSUME(Comma);
        $.CONSUME2(StringLiteral);
      });
      $.CONSUME(RBrace);
    });

    rule('createUser', () => {
      $.CONSUME(K.USER);
      $.OPTION(() => $.SUBRULE(r.ifNotExists));
      $.SUBRULE(r.userName);
      $.OPTION2(() => {
        $.CONSUME(K.WITH);
        $.SUBRULE(r.userPassword);
      });
      $.OPTION3(() => $.OR((c[45] ??= [{ ALT: () => $.CONSUME(K.SUPERUSER) }, { ALT: () => $.CONSUME(K.NOSUPERUSER) }])));
    });

    rule('alterUser', () => {
      $.CONSUME(K.USER);
      $.OPTION(() => $.SUBRULE(r.ifExists));
      $.SUBRULE(r.userName);
      $.OPTION2(() => {
        $.CONSUME(K.WITH);
        $.SUBRULE(r.userPassword);
      });
      $.OPTION3(() => $.OR((c[46] ??= [{ ALT: () => $.CONSUME(K.SUPERUSER) }, { ALT: () => $.CONSUME(K.NOSUPERUSER) }])));
    });

    rule('dropUser', () => {
      $.CONSUME(K.USER);
      $.OPTION(() => $.SUBRULE(r.ifExists));
      $.SUBRULE(r.userName);
    });

    rule('userPassword', () => {
      $.OR((c[47] ??= [
        {
          ALT: () => {
            $.CONSUME(K.PASSWORD);
            $.CONSUME(StringLiteral);
          },
        },
        {
          ALT: () => {
            $.CONSUME(K.HASHED);
            $.CONSUME2(K.PASSWORD);
            $.CONSUME2(StringLiteral);
          },
        },
        {
          ALT: () => {
            $.CONSUME(K.GENERATED);
            $.CONSUME3(K.PASSWORD);
          },
        },
      ]));
    });

    rule('userName', () => $.OR((c[48] ??= [{ ALT: () => $.CONSUME(Ident) }, { ALT: () => $.CONSUME(StringLiteral) }])));

    rule('grantStatement', () => {
      $.CONSUME(K.GRANT);
      $.OR((c[49] ??= [
        {
          ALT: () => {
            $.SUBRULE(r.permissions);
            $.CONSUME(K.ON);
            $.SUBRULE(r.resource);
            $.CONSUME(K.TO);
            $.SUBRULE(r.roleName);
          },
        },
        {
          ALT: () => {
            $.SUBRULE2(r.roleName);
            $.CONSUME2(K.TO);
            $.SUBRULE3(r.roleName);
          },
        },
      ]));
    });

    rule('revokeStatement', () => {
      $.CONSUME(K.REVOKE);
      $.OR((c[50] ??= [
        {
          ALT: () => {
            $.SUBRULE(r.permissions);
            $.CONSUME(K.ON);
            $.SUBRULE(r.resource);
            $.CONSUME(K.FROM);
            $.SUBRULE(r.roleName);
          },
        },
        {
          ALT: () => {
            $.SUBRULE2(r.roleName);
            $.CONSUME2(K.FROM);
            $.SUBRULE3(r.roleName);
          },
        },
      ]));
    });

    rule('permissions', () => {
      $.OR((c[51] ??= [
        {
          ALT: () => {
            $.CONSUME(K.ALL);
            $.OPTION(() => $.CONSUME(K.PERMISSIONS));
          },
        },
        {
          ALT: () => {
            $.SUBRULE(r.permission);
            $.MANY(() => {
              $.CONSUME(Comma);
              $.SUBRULE2(r.permission);
            });
          },
        },
      ]));
    });

    rule('permission', () => {
      $.CONSUME(PermissionKw);
      $.OPTION(() => $.CONSUME(K.PERMISSION));
    });

    rule('resource', () => {
      $.OR((c[52] ??= [
        {
          ALT: () => {
            $.CONSUME(K.ALL);
            $.OR2((c[53] ??= [
              { ALT: () => $.CONSUME(K.KEYSPACES) },
              {
                ALT: () => {
                  $.CONSUME(K.TABLES);
                  $.CONSUME(K.IN);
                  $.CONSUME(K.KEYSPACE);
                  $.SUBRULE(r.keyspaceName);
                },
              },
              { ALT: () => $.CONSUME(K.ROLES) },
              {
                ALT: () => {
                  $.CONSUME(K.FUNCTIONS);
                  $.OPTION(() => {
                    $.CONSUME2(K.IN);
                    $.CONSUME2(K.KEYSPACE);
                    $.SUBRULE2(r.keyspaceName);
                  });
                },
              },
              { ALT: () => $.CONSUME(K.MBEANS) },
            ]));
          },
          IGNORE_AMBIGUITIES: true,
        },
        {
          ALT: () => {
            $.CONSUME3(K.KEYSPACE);
            $.SUBRULE3(r.keyspaceName);
          },
        },
        {
          ALT: () => {
            $.CONSUME(K.ROLE);
            $.SUBRULE(r.roleName);
          },
          IGNORE_AMBIGUITIES: true,
        },
        {
          ALT: () => {
            $.CONSUME(K.FUNCTION);
            $.SUBRULE(r.functionName);
            $.SUBRULE(r.typeList);
          },
          IGNORE_AMBIGUITIES: true,
        },
        {
          ALT: () => {
            $.OR3((c[54] ??= [{ ALT: () => $.CONSUME(K.MBEAN) }, { ALT: () => $.CONSUME2(K.MBEANS) }]));
            $.CONSUME(StringLiteral);
          },
          IGNORE_AMBIGUITIES: true,
        },
        {
          ALT: () => {
            $.OPTION2(() => $.CONSUME(K.TABLE));
            $.SUBRULE(r.tableName);
          },
        },
      ]));
    });

    rule('listStatement', () => {
      $.CONSUME(K.LIST);
      $.OR((c[55] ??= [
        {
          ALT: () => {
            $.OR2((c[56] ??= [{ ALT: () => $.CONSUME(K.ROLES) }, { ALT: () => $.CONSUME(K.USERS) }, { ALT: () => $.CONSUME(K.SUPERUSERS) }]));
            $.OPTION(() => {
              $.CONSUME(K.OF);
              $.SUBRULE(r.roleName);
            });
            $.OPTION2(() => $.CONSUME(K.NORECURSIVE));
          },
        },
        {
          ALT: () => {
            $.SUBRULE(r.permissions);
            $.OPTION3(() => {
              $.CONSUME(K.ON);
              $.SUBRULE(r.resource);
            });
            $.OPTION4(() => {
              $.CONSUME2(K.OF);
              $.SUBRULE2(r.roleName);
            });
            $.OPTION5(() => $.CONSUME2(K.NORECURSIVE));
          },
        },
      ]));
    });

    rule('describeStatement', () => {
      $.OR((c[57] ??= [{ ALT: () => $.CONSUME(K.DESCRIBE) }, { ALT: () => $.CONSUME(K.DESC) }]));
      $.OR2((c[58] ??= [
        { ALT: () => $.CONSUME(K.CLUSTER), IGNORE_AMBIGUITIES: true },
        {
          ALT: () => {
            $.OPTION(() => $.CONSUME(K.FULL));
            $.CONSUME(K.SCHEMA);
          },
        },
        { ALT: () => $.CONSUME(K.KEYSPACES), IGNORE_AMBIGUITIES: true },
        {
          ALT: () => {
            $.OPTION2(() => $.CONSUME(K.ONLY));
            $.CONSUME(K.KEYSPACE);
            $.OPTION3(() => $.SUBRULE(r.keyspaceName));
          },
          IGNORE_AMBIGUITIES: true,
        },
        { ALT: () => $.CONSUME(K.TABLES), IGNORE_AMBIGUITIES: true },
        {
          ALT: () => {
            $.CONSUME(K.TABLE);
            $.SUBRULE(r.tableName);
          },
        },
        {
          ALT: () => {
            $.CONSUME(K.INDEX);
            $.SUBRULE(r.qualifiedIndexName);
          },
        },
        {
          ALT: () => {
            $.CONSUME(K.MATERIALIZED);
            $.CONSUME(K.VIEW);
            $.SUBRULE2(r.tableName);
          },
        },
        { ALT: () => $.CONSUME(K.TYPES), IGNORE_AMBIGUITIES: true },
        {
          ALT: () => {
            $.CONSUME(K.TYPE);
            $.SUBRULE(r.userTypeName);
          },
          IGNORE_AMBIGUITIES: true,
        },
        { ALT: () => $.CONSUME(K.FUNCTIONS), IGNORE_AMBIGUITIES: true },
        {
          ALT: () => {
            $.CONSUME(K.FUNCTION);
            $.SUBRULE(r.functionName);
          },
          IGNORE_AMBIGUITIES: true,
        },
        { ALT: () => $.CONSUME(K.AGGREGATES), IGNORE_AMBIGUITIES: true },
        {
          ALT: () => {
            $.CONSUME(K.AGGREGATE);
            $.SUBRULE2(r.functionName);
          },
          IGNORE_AMBIGUITIES: true,
        },
        { ALT: () => $.SUBRULE3(r.tableName) },
      ]));
      $.OPTION4(() => {
        $.CONSUME(K.WITH);
        $.CONSUME(K.INTERNALS);
      });
    });

    rule('addIdentityStatement', () => {
      $.CONSUME(K.ADD);
      $.CONSUME(K.IDENTITY);
      $.OPTION(() => $.SUBRULE(r.ifNotExists));
      $.SUBRULE(r.identityName);
      $.CONSUME(K.TO);
      $.CONSUME(K.ROLE);
      $.SUBRULE(r.roleName);
    });

    rule('dropIdentity', () => {
      $.CONSUME(K.IDENTITY);
      $.OPTION(() => $.SUBRULE(r.ifExists));
      $.SUBRULE(r.identityName);
    });

    rule('identityName', () => $.OR((c[59] ??= [{ ALT: () => $.CONSUME(Ident) }, { ALT: () => $.CONSUME(StringLiteral) }])));

    // -----------------------------------------------------------------------------------------
    // Names

    rule('keyspaceName', () => $.CONSUME(Ident));
    rule('columnName', () => $.OR((c[60] ??= [{ ALT: () => $.CONSUME(Ident) }, { ALT: () => $.CONSUME(EmptyQuotedName) }])));
    rule('fieldName', () => $.CONSUME(Ident));
    rule('indexName', () => $.CONSUME(Ident));
    rule('roleName', () => $.OR((c[61] ??= [{ ALT: () => $.CONSUME(Ident) }, { ALT: () => $.CONSUME(StringLiteral) }])));

    /** `[keyspace.]table` */
    rule('tableName', () => {
      $.OPTION(() => {
        $.SUBRULE(r.keyspaceName);
        $.CONSUME(Dot);
      });
      $.CONSUME(Ident);
    });

    rule('qualifiedIndexName', () => {
      $.OPTION(() => {
        $.SUBRULE(r.keyspaceName);
        $.CONSUME(Dot);
      });
      $.SUBRULE(r.indexName);
    });

    rule('userTypeName', () => {
      $.OPTION(() => {
        $.SUBRULE(r.keyspaceName);
        $.CONSUME(Dot);
      });
      $.CONSUME(NonTypeIdent);
    });

    rule('functionName', () => {
      $.OPTION(() => {
        $.SUBRULE(r.keyspaceName);
        $.CONSUME(Dot);
      });
      $.OR((c[62] ??= [{ ALT: () => $.CONSUME(Ident) }, { ALT: () => $.CONSUME(K.TOKEN) }]));
    });

    // -----------------------------------------------------------------------------------------
    // Types

    rule('cqlType', () => {
      $.OR((c[63] ??= [
        { ALT: () => $.CONSUME(NativeTypeKw) },
        { ALT: () => $.SUBRULE(r.collectionType) },
        { ALT: () => $.SUBRULE(r.tupleType) },
        { ALT: () => $.SUBRULE(r.vectorType) },
        { ALT: () => $.SUBRULE(r.frozenType) },
        { ALT: () => $.SUBRULE(r.userTypeName) },
        { ALT: () => $.CONSUME(StringLiteral) },
      ]));
    });

    /** `type, type, ...` on its own (a command line's list of key types); not part of any statement. */
    rule('cqlTypes', () => {
      $.SUBRULE(r.cqlType);
      $.MANY(() => {
        $.CONSUME(Comma);
        $.SUBRULE2(r.cqlType);
      });
    });

    rule('collectionType', () => {
      $.OR((c[64] ??= [
        {
          ALT: () => {
            $.CONSUME(K.MAP);
            $.CONSUME(Lt);
            $.SUBRULE(r.cqlType);
            $.CONSUME(Comma);
            $.SUBRULE2(r.cqlType);
            $.CONSUME(Gt);
          },
        },
        {
          ALT: () => {
            $.OR2((c[65] ??= [{ ALT: () => $.CONSUME(K.LIST) }, { ALT: () => $.CONSUME(K.SET) }]));
            $.CONSUME2(Lt);
            $.SUBRULE3(r.cqlType);
            $.CONSUME2(Gt);
          },
        },
      ]));
    });

    rule('tupleType', () => {
      $.CONSUME(K.TUPLE);
      $.CONSUME(Lt);
      $.SUBRULE(r.cqlType);
      $.MANY(() => {
        $.CONSUME(Comma);
        $.SUBRULE2(r.cqlType);
      });
      $.CONSUME(Gt);
    });

    rule('vectorType', () => {
      $.CONSUME(K.VECTOR);
      $.CONSUME(Lt);
      $.SUBRULE(r.cqlType);
      $.CONSUME(Comma);
      $.CONSUME(IntegerLiteral);
      $.CONSUME(Gt);
    });

    rule('frozenType', () => {
      $.CONSUME(K.FROZEN);
      $.CONSUME(Lt);
      $.SUBRULE(r.cqlType);
      $.CONSUME(Gt);
    });

    // -----------------------------------------------------------------------------------------
    // Expressions: one grammar for selectors, terms and relation operands.

    // Expressions are kept flat (two rule levels per value) because they dominate INSERT-heavy files:
    // operator precedence is applied by the AST builder.
    rule('expression', () => {
      $.SUBRULE(r.operand);
      $.MANY(() => {
        $.OR((c[66] ??= [
          { ALT: () => $.CONSUME(Plus) },
          { ALT: () => $.CONSUME(Minus) },
          { ALT: () => $.CONSUME(Star) },
          { ALT: () => $.CONSUME(Slash) },
          { ALT: () => $.CONSUME(Percent) },
        ]));
        $.SUBRULE2(r.operand);
      });
    });

    /** `-`* primary (`[index]` | `[a..b]` | `.field`)* */
    rule('operand', () => {
      $.MANY(() => $.CONSUME(Minus));
      // One token of lookahead: the alternatives that share a first token are told apart by their gates, and
      // LL(4) analysis of this OR (names, calls, casts, hints and tuples all overlap) took over a second.
      $.OR((c[71] ??= { MAX_LOOKAHEAD: 1, DEF: [
        { ALT: () => $.CONSUME(StringLiteral) },
        { ALT: () => $.CONSUME(NumberLit) },
        { ALT: () => $.CONSUME(BooleanLiteral) },
        { ALT: () => $.CONSUME(UuidLiteral) },
        { ALT: () => $.CONSUME(HexLiteral) },
        { ALT: () => $.CONSUME(K.NULL) },
        { ALT: () => $.SUBRULE(r.bindMarker) },
        { ALT: () => $.SUBRULE(r.listLiteral) },
        { ALT: () => $.SUBRULE(r.braceLiteral) },
        { ALT: () => $.SUBRULE(r.typeHint), GATE: () => this.isTypeHint(), IGNORE_AMBIGUITIES: true },
        { ALT: () => $.SUBRULE(r.parenthesized) },
        { ALT: () => $.SUBRULE(r.castExpression), GATE: () => this.LA(2).tokenType === LParen, IGNORE_AMBIGUITIES: true },
        { ALT: () => $.SUBRULE(r.functionCall), GATE: () => this.isFunctionCall(), IGNORE_AMBIGUITIES: true },
        { ALT: () => $.CONSUME(Ident) },
        { ALT: () => $.CONSUME(EmptyQuotedName) },
      ] }));
      $.MANY2(() => {
        $.OR2((c[69] ??= [
          {
            ALT: () => {
              $.CONSUME(LBracket);
              $.SUBRULE(r.subscript);
              $.CONSUME(RBracket);
            },
          },
          {
            ALT: () => {
              $.CONSUME(Dot);
              $.SUBRULE(r.fieldName);
            },
          },
        ]));
      });
    });

    rule('subscript', () => {
      $.OR((c[70] ??= [
        {
          ALT: () => {
            $.CONSUME(Range);
            $.SUBRULE(r.expression);
          },
        },
        {
          ALT: () => {
            $.SUBRULE2(r.expression);
            $.OPTION(() => {
              $.CONSUME2(Range);
              $.OPTION2(() => $.SUBRULE3(r.expression));
            });
          },
        },
      ]));
    });

    rule('bindMarker', () => {
      $.OR((c[73] ??= [
        { ALT: () => $.CONSUME(QMark) },
        {
          ALT: () => {
            $.CONSUME(Colon);
            $.CONSUME(Ident);
          },
        },
      ]));
    });

    rule('listLiteral', () => {
      $.CONSUME(LBracket);
      $.OPTION(() => {
        $.SUBRULE(r.expression);
        $.MANY(() => {
          $.CONSUME(Comma);
          $.SUBRULE2(r.expression);
        });
      });
      $.CONSUME(RBracket);
    });

    /** `{}`; `{a, b}` (set); `{k: v, ...}` (map or user type value). */
    rule('braceLiteral', () => {
      $.CONSUME(LBrace);
      $.OPTION(() => {
        $.SUBRULE(r.braceEntry);
        $.MANY(() => {
          $.CONSUME(Comma);
          $.SUBRULE2(r.braceEntry);
        });
      });
      $.CONSUME(RBrace);
    });

    rule('braceEntry', () => {
      $.SUBRULE(r.expression);
      $.OPTION(() => {
        $.CONSUME(Colon);
        $.SUBRULE2(r.expression);
      });
    });

    rule('typeHint', () => {
      $.CONSUME(LParen);
      $.SUBRULE(r.cqlType);
      $.CONSUME(RParen);
      $.SUBRULE(r.operand);
    });

    /** `(expr)` or a tuple `(a, b, ...)`. */
    rule('parenthesized', () => {
      $.CONSUME(LParen);
      $.SUBRULE(r.expression);
      $.MANY(() => {
        $.CONSUME(Comma);
        $.SUBRULE2(r.expression);
      });
      $.CONSUME(RParen);
    });

    rule('castExpression', () => {
      $.CONSUME(K.CAST);
      $.CONSUME(LParen);
      $.SUBRULE(r.expression);
      $.CONSUME(K.AS);
      $.SUBRULE(r.cqlType);
      $.CONSUME(RParen);
    });

    rule('functionCall', () => {
      $.SUBRULE(r.functionName);
      $.CONSUME(LParen);
      $.OPTION(() => {
        $.SUBRULE(r.functionArg);
        $.MANY(() => {
          $.CONSUME(Comma);
          $.SUBRULE2(r.functionArg);
        });
      });
      $.CONSUME(RParen);
    });

    rule('functionArg', () => {
      $.OR((c[74] ??= [{ ALT: () => $.CONSUME(Star) }, { ALT: () => $.SUBRULE(r.expression) }]));
    });


    this.performSelfAnalysis();
  }

  // -------------------------------------------------------------------------------------------
  // CST node locations: the first and last tokens (builder.ts TokenSpan) rather than Chevrotain's six numbers
  // per node, so that AST ranges share their tokens' locations and no location is copied.

  private trackNodesByTokens(): void {
    // With 'full' tracking and no recovery, Chevrotain makes a node and sets its location only in these two hooks.
    const hooks = this as unknown as { CST_STACK: CstNode[]; cstInvocationStateUpdate(ruleName: string): void; cstPostRule(node: CstNode): void };
    hooks.cstInvocationStateUpdate = (ruleName) => {
      // Plain objects for children (Chevrotain's are prototype-less dictionaries, slower to make and to read).
      const span: TokenSpan = { first: this.LA(1), last: undefined };
      hooks.CST_STACK.push({ name: ruleName, children: {}, location: span as unknown as CstNode['location'] });
    };
    hooks.cstPostRule = (node) => {
      const span = node.location as unknown as TokenSpan;
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

  private la(i: number): TokenType {
    return this.LA(i).tokenType;
  }

  /** `SELECT JSON ...` / `SELECT DISTINCT ...` vs a column named `json` / `distinct`. */
  private isModifierKeyword(keyword: TokenType): boolean {
    if (this.la(1) !== keyword) return false;
    const next = this.la(2);
    if (next === K.FROM || next === Comma || next === K.AS || next === Dot || next === LBracket || next === LParen || next === EOF) return false;
    if (next === Plus || next === Minus || next === Slash || next === Percent) return false;
    // `SELECT JSON * FROM` vs `SELECT json * 2 FROM`.
    if (next === Star) return this.la(3) === K.FROM;
    return true;
  }

  /** `name(` or `ks.name(`: a function call rather than a column. */
  private isFunctionCall(): boolean {
    const first = this.la(1);
    if (!(tokenMatcher(this.LA(1), Ident) || first === K.TOKEN)) return false;
    if (this.la(2) === LParen) return true;
    return this.la(2) === Dot && (tokenMatcher(this.LA(3), Ident) || this.la(3) === K.TOKEN) && this.la(4) === LParen;
  }

  /** `(type) value`: the parenthesised tokens form a type and a value follows. */
  private isTypeHint(): boolean {
    if (this.la(1) !== LParen) return false;
    const first = this.LA(2);
    const firstType = first.tokenType;
    const isNative = tokenMatcher(first, NativeTypeKw);
    const isTypeCtor = TYPE_STARTERS.has(firstType) && this.la(3) === Lt;
    if (!isNative && !isTypeCtor && !tokenMatcher(first, NonTypeIdent) && firstType !== StringLiteral) return false;
    // Find the closing parenthesis; only type-ish tokens may appear in between.
    let depth = 0;
    let i = 2;
    for (; i < 64; i++) {
      const t = this.la(i);
      if (t === EOF) return false;
      if (t === Lt) depth++;
      else if (t === Gt) depth--;
      else if (t === RParen) {
        if (depth !== 0) return false;
        break;
      } else if (!(t === Comma || t === Dot || t === IntegerLiteral || t === StringLiteral || tokenMatcher(this.LA(i), Ident))) return false;
      if (depth === 0 && t === Comma) return false;
    }
    if (i >= 64) return false;
    const after = this.LA(i + 1);
    const afterType = after.tokenType;
    const simpleValue =
      tokenMatcher(after, NumberLit) || afterType === StringLiteral || afterType === UuidLiteral || afterType === HexLiteral ||
      afterType === BooleanLiteral || afterType === QMark || afterType === Colon || afterType === LBracket || afterType === LBrace || afterType === K.NULL;
    if (simpleValue) return true;
    // A name or a parenthesis after `(x)` only makes it a hint when `x` is clearly a type.
    if (isNative || isTypeCtor) return tokenMatcher(after, Ident) || afterType === LParen || afterType === Minus || afterType === K.TOKEN;
    return false;
  }

  /** A token that starts a statement (used by gates deciding whether a statement ended). */
  isStatementStart(token: IToken): boolean {
    return STATEMENT_START.has(token.tokenType);
  }
}

/** Keywords that begin a CQL statement. */
export const STATEMENT_START = new Set<TokenType>([
  K.SELECT, K.INSERT, K.UPDATE, K.DELETE, K.BEGIN, K.USE, K.TRUNCATE, K.CREATE, K.ALTER, K.DROP, K.GRANT,
  K.REVOKE, K.LIST, K.DESCRIBE, K.DESC, K.ADD,
]);

// Silence "unused" for tokens only referenced via categories in the grammar.
void [QuotedName, Identifier, DurationLiteral, FloatLiteral, NanLiteral, InfinityLiteral];

let instance: CqlParser | undefined;
let constructionMs = 0;

/** The shared parser (grammar analysis is done once, on first use). */
export function getParser(): CqlParser {
  if (!instance) {
    const start = performance.now();
    instance = new CqlParser();
    constructionMs = performance.now() - start;
  }
  return instance;
}

/** How long building the grammar took (ms), for the benchmark. */
export function parserConstructionMs(): number {
  getParser();
  return constructionMs;
}
