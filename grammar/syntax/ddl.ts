// Schema statements: CREATE / ALTER / DROP of keyspaces, tables, types, indexes, materialized views, functions,
// aggregates and triggers.
import * as Lexer from '../lexer';
import { DmlRules } from './dml';

// Module constants: compiled to CommonJS (tsx: tests, bench), every use of an imported binding is a getter call.
const { keywordTokens: K, Ident, StringLiteral, IntegerLiteral, Comma, Dot, LParen, RParen, Eq } = Lexer;

export class DdlRules extends DmlRules {
  readonly keyspaceKeyword = this.RULE('keyspaceKeyword', () => this.OR((this.alts.keyspaceKeywordOr ??= [{ ALT: () => this.CONSUME(K.KEYSPACE) }, { ALT: () => this.CONSUME(K.SCHEMA) }])));

  readonly createKeyspace = this.RULE('createKeyspace', () => {
    this.SUBRULE(this.keyspaceKeyword);
    this.OPTION(() => this.SUBRULE(this.ifNotExists));
    this.SUBRULE(this.keyspaceName);
    this.CONSUME(K.WITH);
    this.SUBRULE(this.properties);
  });

  readonly alterKeyspace = this.RULE('alterKeyspace', () => {
    this.SUBRULE(this.keyspaceKeyword);
    this.OPTION(() => this.SUBRULE(this.ifExists));
    this.SUBRULE(this.keyspaceName);
    this.CONSUME(K.WITH);
    this.SUBRULE(this.properties);
  });

  readonly dropKeyspace = this.RULE('dropKeyspace', () => {
    this.SUBRULE(this.keyspaceKeyword);
    this.OPTION(() => this.SUBRULE(this.ifExists));
    this.SUBRULE(this.keyspaceName);
  });

  readonly properties = this.RULE('properties', () => {
    this.SUBRULE(this.property);
    this.MANY(() => {
      this.CONSUME(K.AND);
      this.SUBRULE2(this.property);
    });
  });

  readonly property = this.RULE('property', () => {
    this.SUBRULE(this.propertyName);
    this.CONSUME(Eq);
    this.SUBRULE(this.expression);
  });

  readonly propertyName = this.RULE('propertyName', () => this.CONSUME(Ident));

  readonly createTable = this.RULE('createTable', () => {
    this.CONSUME(K.TABLE);
    this.OPTION(() => this.SUBRULE(this.ifNotExists));
    this.SUBRULE(this.tableName);
    this.OR((this.alts.createTableOr ??= [
      {
        ALT: () => {
          this.SUBRULE(this.tableBody);
          this.OPTION2(() => this.SUBRULE(this.tableOptions));
        },
      },
      {
        ALT: () => {
          this.CONSUME(K.LIKE);
          this.SUBRULE2(this.tableName);
          this.OPTION3(() => this.SUBRULE2(this.tableOptions));
        },
      },
    ]));
  });

  readonly tableBody = this.RULE('tableBody', () => {
    this.CONSUME(LParen);
    this.SUBRULE(this.tableElement);
    this.MANY(() => {
      this.CONSUME(Comma);
      // Cassandra accepts a trailing comma.
      this.OPTION(() => this.SUBRULE2(this.tableElement));
    });
    this.CONSUME(RParen);
  });

  readonly tableElement = this.RULE('tableElement', () => {
    this.OR((this.alts.tableElementOr ??= [{ ALT: () => this.SUBRULE(this.primaryKeyClause) }, { ALT: () => this.SUBRULE(this.columnDefinition) }]));
  });

  readonly columnDefinition = this.RULE('columnDefinition', () => {
    this.SUBRULE(this.columnName);
    this.SUBRULE(this.cqlType);
    this.OPTION(() => this.CONSUME(K.STATIC));
    this.OPTION2(() => this.SUBRULE(this.columnMask));
    this.OPTION3(() => {
      this.CONSUME(K.PRIMARY);
      this.CONSUME(K.KEY);
    });
  });

  readonly columnMask = this.RULE('columnMask', () => {
    this.CONSUME(K.MASKED);
    this.CONSUME(K.WITH);
    this.OR((this.alts.columnMaskOr ??= [
      { ALT: () => this.CONSUME(K.DEFAULT), GATE: () => this.la(2) !== LParen && this.la(2) !== Dot, IGNORE_AMBIGUITIES: true },
      { ALT: () => this.SUBRULE(this.functionCall) },
    ]));
  });

  readonly primaryKeyClause = this.RULE('primaryKeyClause', () => {
    this.CONSUME(K.PRIMARY);
    this.CONSUME(K.KEY);
    this.CONSUME(LParen);
    this.SUBRULE(this.partitionKey);
    this.MANY(() => {
      this.CONSUME(Comma);
      this.SUBRULE(this.columnName);
    });
    this.CONSUME(RParen);
  });

  readonly partitionKey = this.RULE('partitionKey', () => {
    this.OR((this.alts.partitionKeyOr ??= [
      { ALT: () => this.SUBRULE(this.columnName) },
      {
        ALT: () => {
          this.CONSUME(LParen);
          this.SUBRULE2(this.columnName);
          this.MANY(() => {
            this.CONSUME(Comma);
            this.SUBRULE3(this.columnName);
          });
          this.CONSUME(RParen);
        },
      },
    ]));
  });

  readonly tableOptions = this.RULE('tableOptions', () => {
    this.CONSUME(K.WITH);
    this.SUBRULE(this.tableOption);
    this.MANY(() => {
      this.CONSUME(K.AND);
      this.SUBRULE2(this.tableOption);
    });
  });

  readonly tableOption = this.RULE('tableOption', () => {
    this.OR((this.alts.tableOptionOr ??= [
      {
        ALT: () => {
          this.CONSUME(K.COMPACT);
          this.CONSUME(K.STORAGE);
        },
      },
      { ALT: () => this.SUBRULE(this.clusteringOrder) },
      { ALT: () => this.SUBRULE(this.property) },
    ]));
  });

  readonly clusteringOrder = this.RULE('clusteringOrder', () => {
    this.CONSUME(K.CLUSTERING);
    this.CONSUME(K.ORDER);
    this.CONSUME(K.BY);
    this.CONSUME(LParen);
    this.SUBRULE(this.clusteringOrderItem);
    this.MANY(() => {
      this.CONSUME(Comma);
      this.SUBRULE2(this.clusteringOrderItem);
    });
    this.CONSUME(RParen);
  });

  readonly clusteringOrderItem = this.RULE('clusteringOrderItem', () => {
    this.SUBRULE(this.columnName);
    this.OR((this.alts.clusteringOrderItemOr ??= [{ ALT: () => this.CONSUME(K.ASC) }, { ALT: () => this.CONSUME(K.DESC) }]));
  });

  readonly alterTable = this.RULE('alterTable', () => {
    this.CONSUME(K.TABLE);
    this.OPTION(() => this.SUBRULE(this.ifExists));
    this.SUBRULE(this.tableName);
    this.OR((this.alts.alterTableOr ??= [
      { ALT: () => this.SUBRULE(this.alterColumn) },
      { ALT: () => this.SUBRULE(this.addColumns) },
      { ALT: () => this.SUBRULE(this.dropCompactStorage) },
      { ALT: () => this.SUBRULE(this.dropColumns) },
      { ALT: () => this.SUBRULE(this.renameColumns) },
      { ALT: () => this.SUBRULE(this.tableOptions) },
    ]));
  });

  readonly alterColumn = this.RULE('alterColumn', () => {
    this.CONSUME(K.ALTER);
    this.OPTION(() => this.SUBRULE(this.ifExists));
    this.SUBRULE(this.columnName);
    this.OR((this.alts.alterColumnOr ??= [
      {
        ALT: () => {
          this.CONSUME(K.TYPE);
          this.SUBRULE(this.cqlType);
        },
      },
      { ALT: () => this.SUBRULE(this.columnMask) },
      {
        ALT: () => {
          this.CONSUME(K.DROP);
          this.CONSUME(K.MASKED);
        },
      },
    ]));
  });

  readonly addColumns = this.RULE('addColumns', () => {
    this.CONSUME(K.ADD);
    this.OPTION(() => this.SUBRULE(this.ifNotExists));
    this.OR((this.alts.addColumnsOr ??= [
      { ALT: () => this.SUBRULE(this.columnDefinition) },
      {
        ALT: () => {
          this.CONSUME(LParen);
          this.SUBRULE2(this.columnDefinition);
          this.MANY(() => {
            this.CONSUME(Comma);
            this.SUBRULE3(this.columnDefinition);
          });
          this.CONSUME(RParen);
        },
      },
    ]));
  });

  readonly dropCompactStorage = this.RULE('dropCompactStorage', () => {
    this.CONSUME(K.DROP);
    this.CONSUME(K.COMPACT);
    this.CONSUME(K.STORAGE);
  });

  readonly dropColumns = this.RULE('dropColumns', () => {
    this.CONSUME(K.DROP);
    this.OPTION(() => this.SUBRULE(this.ifExists));
    this.OR((this.alts.dropColumnsOr ??= [
      { ALT: () => this.SUBRULE(this.columnName) },
      {
        ALT: () => {
          this.CONSUME(LParen);
          this.SUBRULE2(this.columnName);
          this.MANY(() => {
            this.CONSUME(Comma);
            this.SUBRULE3(this.columnName);
          });
          this.CONSUME(RParen);
        },
      },
    ]));
    this.OPTION2(() => {
      this.CONSUME(K.USING);
      this.CONSUME(K.TIMESTAMP);
      this.CONSUME(IntegerLiteral);
    });
  });

  readonly renameColumns = this.RULE('renameColumns', () => {
    this.CONSUME(K.RENAME);
    this.OPTION(() => this.SUBRULE(this.ifExists));
    this.SUBRULE(this.renamePair);
    this.MANY(() => {
      this.CONSUME(K.AND);
      this.SUBRULE2(this.renamePair);
    });
  });

  readonly renamePair = this.RULE('renamePair', () => {
    this.SUBRULE(this.columnName);
    this.CONSUME(K.TO);
    this.SUBRULE2(this.columnName);
  });

  readonly dropTable = this.RULE('dropTable', () => {
    this.CONSUME(K.TABLE);
    this.OPTION(() => this.SUBRULE(this.ifExists));
    this.SUBRULE(this.tableName);
  });

  readonly createType = this.RULE('createType', () => {
    this.CONSUME(K.TYPE);
    this.OPTION(() => this.SUBRULE(this.ifNotExists));
    this.SUBRULE(this.userTypeName);
    this.CONSUME(LParen);
    this.SUBRULE(this.typeField);
    this.MANY(() => {
      this.CONSUME(Comma);
      this.OPTION2(() => this.SUBRULE2(this.typeField));
    });
    this.CONSUME(RParen);
  });

  readonly typeField = this.RULE('typeField', () => {
    this.SUBRULE(this.fieldName);
    this.SUBRULE(this.cqlType);
  });

  readonly alterType = this.RULE('alterType', () => {
    this.CONSUME(K.TYPE);
    this.OPTION(() => this.SUBRULE(this.ifExists));
    this.SUBRULE(this.userTypeName);
    this.OR((this.alts.alterTypeOr ??= [
      {
        ALT: () => {
          this.CONSUME(K.ALTER);
          this.SUBRULE(this.fieldName);
          this.CONSUME2(K.TYPE);
          this.SUBRULE(this.cqlType);
        },
      },
      {
        ALT: () => {
          this.CONSUME(K.ADD);
          this.OPTION2(() => this.SUBRULE(this.ifNotExists));
          this.SUBRULE(this.typeField);
        },
      },
      {
        ALT: () => {
          this.CONSUME(K.RENAME);
          this.OPTION3(() => this.SUBRULE2(this.ifExists));
          this.SUBRULE(this.renameField);
          this.MANY(() => {
            this.CONSUME(K.AND);
            this.SUBRULE2(this.renameField);
          });
        },
      },
    ]));
  });

  readonly renameField = this.RULE('renameField', () => {
    this.SUBRULE(this.fieldName);
    this.CONSUME(K.TO);
    this.SUBRULE2(this.fieldName);
  });

  readonly dropType = this.RULE('dropType', () => {
    this.CONSUME(K.TYPE);
    this.OPTION(() => this.SUBRULE(this.ifExists));
    this.SUBRULE(this.userTypeName);
  });

  readonly createIndex = this.RULE('createIndex', () => {
    this.OPTION(() => this.CONSUME(K.CUSTOM));
    this.CONSUME(K.INDEX);
    this.OPTION2(() => this.SUBRULE(this.ifNotExists));
    this.OPTION3(() => this.SUBRULE(this.indexName));
    this.CONSUME(K.ON);
    this.SUBRULE(this.tableName);
    this.CONSUME(LParen);
    this.OPTION4(() => {
      this.SUBRULE(this.indexTarget);
      this.MANY(() => {
        this.CONSUME(Comma);
        this.SUBRULE2(this.indexTarget);
      });
    });
    this.CONSUME(RParen);
    this.OPTION5(() => {
      this.CONSUME(K.USING);
      this.CONSUME(StringLiteral);
    });
    this.OPTION6(() => {
      this.CONSUME(K.WITH);
      this.SUBRULE(this.properties);
    });
  });

  readonly indexTarget = this.RULE('indexTarget', () => {
    this.OR((this.alts.indexTargetOr ??= [
      {
        ALT: () => {
          this.OR2((this.alts.indexTargetOr2 ??= [
            { ALT: () => this.CONSUME(K.KEYS) },
            { ALT: () => this.CONSUME(K.VALUES) },
            { ALT: () => this.CONSUME(K.ENTRIES) },
            { ALT: () => this.CONSUME(K.FULL) },
          ]));
          this.CONSUME(LParen);
          this.SUBRULE(this.columnName);
          this.CONSUME(RParen);
        },
      },
      { ALT: () => this.SUBRULE2(this.columnName) },
    ]));
  });

  readonly dropIndex = this.RULE('dropIndex', () => {
    this.CONSUME(K.INDEX);
    this.OPTION(() => this.SUBRULE(this.ifExists));
    this.SUBRULE(this.qualifiedIndexName);
  });

  readonly createMaterializedView = this.RULE('createMaterializedView', () => {
    this.CONSUME(K.MATERIALIZED);
    this.CONSUME(K.VIEW);
    this.OPTION(() => this.SUBRULE(this.ifNotExists));
    this.SUBRULE(this.tableName);
    this.CONSUME(K.AS);
    this.CONSUME(K.SELECT);
    this.SUBRULE(this.selectClause);
    this.CONSUME(K.FROM);
    this.SUBRULE2(this.tableName);
    this.OPTION2(() => this.SUBRULE(this.whereClause));
    this.SUBRULE(this.primaryKeyClause);
    this.OPTION3(() => this.SUBRULE(this.tableOptions));
  });

  readonly alterMaterializedView = this.RULE('alterMaterializedView', () => {
    this.CONSUME(K.MATERIALIZED);
    this.CONSUME(K.VIEW);
    this.OPTION(() => this.SUBRULE(this.ifExists));
    this.SUBRULE(this.tableName);
    this.SUBRULE(this.tableOptions);
  });

  readonly dropMaterializedView = this.RULE('dropMaterializedView', () => {
    this.CONSUME(K.MATERIALIZED);
    this.CONSUME(K.VIEW);
    this.OPTION(() => this.SUBRULE(this.ifExists));
    this.SUBRULE(this.tableName);
  });

  readonly orReplace = this.RULE('orReplace', () => {
    this.CONSUME(K.OR);
    this.CONSUME(K.REPLACE);
  });

  readonly createFunction = this.RULE('createFunction', () => {
    this.OPTION(() => this.SUBRULE(this.orReplace));
    this.CONSUME(K.FUNCTION);
    this.OPTION2(() => this.SUBRULE(this.ifNotExists));
    this.SUBRULE(this.functionName);
    this.CONSUME(LParen);
    this.OPTION3(() => {
      this.SUBRULE(this.functionArgument);
      this.MANY(() => {
        this.CONSUME(Comma);
        this.SUBRULE2(this.functionArgument);
      });
    });
    this.CONSUME(RParen);
    this.OR((this.alts.createFunctionOr ??= [
      {
        ALT: () => {
          this.CONSUME(K.RETURNS);
          this.CONSUME(K.NULL);
        },
      },
      { ALT: () => this.CONSUME(K.CALLED) },
    ]));
    this.CONSUME(K.ON);
    this.CONSUME2(K.NULL);
    this.CONSUME(K.INPUT);
    this.CONSUME2(K.RETURNS);
    this.SUBRULE(this.cqlType);
    this.CONSUME(K.LANGUAGE);
    this.CONSUME(Ident);
    this.CONSUME(K.AS);
    this.CONSUME(StringLiteral);
  });

  readonly functionArgument = this.RULE('functionArgument', () => {
    this.SUBRULE(this.argumentName);
    this.SUBRULE(this.cqlType);
  });

  readonly argumentName = this.RULE('argumentName', () => this.CONSUME(Ident));

  readonly createAggregate = this.RULE('createAggregate', () => {
    this.OPTION(() => this.SUBRULE(this.orReplace));
    this.CONSUME(K.AGGREGATE);
    this.OPTION2(() => this.SUBRULE(this.ifNotExists));
    this.SUBRULE(this.functionName);
    this.SUBRULE(this.typeList);
    this.CONSUME(K.SFUNC);
    this.SUBRULE2(this.functionName);
    this.CONSUME(K.STYPE);
    this.SUBRULE(this.cqlType);
    this.OPTION3(() => {
      this.CONSUME(K.FINALFUNC);
      this.SUBRULE3(this.functionName);
    });
    this.OPTION4(() => {
      this.CONSUME(K.INITCOND);
      this.SUBRULE(this.expression);
    });
  });

  readonly dropFunction = this.RULE('dropFunction', () => {
    this.CONSUME(K.FUNCTION);
    this.OPTION(() => this.SUBRULE(this.ifExists));
    this.SUBRULE(this.functionName);
    this.OPTION2(() => this.SUBRULE(this.typeList));
  });

  readonly dropAggregate = this.RULE('dropAggregate', () => {
    this.CONSUME(K.AGGREGATE);
    this.OPTION(() => this.SUBRULE(this.ifExists));
    this.SUBRULE(this.functionName);
    this.OPTION2(() => this.SUBRULE(this.typeList));
  });

  readonly createTrigger = this.RULE('createTrigger', () => {
    this.CONSUME(K.TRIGGER);
    this.OPTION(() => this.SUBRULE(this.ifNotExists));
    this.SUBRULE(this.triggerName);
    this.CONSUME(K.ON);
    this.SUBRULE(this.tableName);
    this.CONSUME(K.USING);
    this.CONSUME(StringLiteral);
  });

  readonly dropTrigger = this.RULE('dropTrigger', () => {
    this.CONSUME(K.TRIGGER);
    this.OPTION(() => this.SUBRULE(this.ifExists));
    this.SUBRULE(this.triggerName);
    this.CONSUME(K.ON);
    this.SUBRULE(this.tableName);
  });

  readonly triggerName = this.RULE('triggerName', () => this.CONSUME(Ident));
}
