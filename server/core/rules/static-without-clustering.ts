// `static-without-clustering`: STATIC columns in a table without clustering columns, or a static column
// in the primary key. Cassandra rejects both ("Static columns are only useful (and thus allowed) if the
// table has at least one clustering column").
import type { MessageIdOf, RuleExamples, RuleModule } from './types';
import type { FindingData } from '../findings/findings-data';

export const rule: RuleModule<'inPrimaryKey' | 'noClustering' | 'addedWithoutClustering'> = {
  meta: {
    id: 'static-without-clustering',
    defaultSeverity: 'error',
    description: 'A static column in a table without clustering columns, or in the primary key.',
    messages: {
      inPrimaryKey: '{{column}} is part of the primary key of {{table}} and cannot be STATIC',
      noClustering: '{{column}} is STATIC but {{table}} has no clustering columns',
      addedWithoutClustering: '{{column}} is STATIC but {{table}} has no clustering columns; drop STATIC',
    },
    scope: 'statement',
  },
  handlers: {
    CreateTable(stmt, ctx) {
      const table = ctx.definedBy(stmt);
      if (!table || !stmt.primaryKey) return;
      for (const def of stmt.columns) {
        if (!def.isStatic) continue;
        const inKey =
          stmt.primaryKey.partitionKey.some((k) => k.name === def.name.name) ||
          stmt.primaryKey.clustering.some((k) => k.name === def.name.name) ||
          def.inlinePrimaryKey;
        if (inKey) {
          ctx.report({
            messageId: 'inPrimaryKey',
            values: { column: def.name.text, table: table.qualifiedName },
            range: def.name.range,
            data: {
              table: table.qualifiedName,
              column: def.name.name,
              reason: 'in-primary-key',
            } satisfies FindingData<'static-without-clustering'>,
          });
        } else if (stmt.primaryKey.clustering.length === 0) {
          ctx.report({
            messageId: 'noClustering',
            values: { column: def.name.text, table: table.qualifiedName },
            details: 'Every partition has one row, so static columns are not allowed.\n\nDrop STATIC.',
            range: def.name.range,
            data: {
              table: table.qualifiedName,
              column: def.name.name,
              reason: 'no-clustering',
            } satisfies FindingData<'static-without-clustering'>,
          });
        }
      }
    },
    AlterTable(stmt, ctx) {
      if (stmt.action.kind !== 'AddColumns') return;
      const table = ctx.tableFor(stmt.name, stmt.range.start);
      if (!table || table.kind !== 'table' || table.clustering.length) return;
      for (const def of stmt.action.columns) {
        if (!def.isStatic) continue;
        ctx.report({
          messageId: 'addedWithoutClustering',
          values: { column: def.name.text, table: table.qualifiedName },
          range: def.name.range,
          data: {
            table: table.qualifiedName,
            column: def.name.name,
            reason: 'no-clustering',
          } satisfies FindingData<'static-without-clustering'>,
        });
      }
    },
  },
};

export const examples: RuleExamples<MessageIdOf<typeof rule>> = {
  valid: ['CREATE TABLE ks.t (a int, b int, s text STATIC, PRIMARY KEY (a, b));'],
  invalid: [
    {
      code: 'CREATE TABLE ks.t (a int, s text STATIC, PRIMARY KEY (a));',
      at: 's text',
      messageId: 'noClustering',
      data: { reason: 'no-clustering' },
    },
    {
      code: 'CREATE TABLE ks.t (a int, b int STATIC, PRIMARY KEY (a, b));',
      at: 'b int STATIC',
      messageId: 'inPrimaryKey',
      data: { reason: 'in-primary-key' },
    },
    {
      code: 'CREATE TABLE ks.t (a int PRIMARY KEY, v int);\nALTER TABLE ks.t ADD s text STATIC;',
      at: 's text',
      messageId: 'addedWithoutClustering',
    },
  ],
};
