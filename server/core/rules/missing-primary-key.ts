// `missing-primary-key`: CREATE TABLE without a PRIMARY KEY (Cassandra: "No PRIMARY KEY specified").
import { qualify } from '../schema/model';
import type { FileLocalRuleModule, MessageIdOf, RuleExamples } from './types';
import type { FindingData } from '../findings/findings-data';

export const rule: FileLocalRuleModule<'missing'> = {
  meta: {
    id: 'missing-primary-key',
    defaultSeverity: 'error',
    description: 'A CREATE TABLE without a primary key.',
    messages: {
      missing: '{{table}} has no PRIMARY KEY',
    },
    fileLocal: true,
  },
  handlers: {
    CreateTable(stmt, ctx) {
      if (stmt.like || stmt.primaryKey || !stmt.columns.length) return;
      // The name the schema gives the table it defines: the statement's keyspace, else the USE in effect.
      const table = qualify(stmt.name.keyspace?.name ?? ctx.keyspaceAt(stmt.range.start), stmt.name.name.name);
      ctx.report({
        messageId: 'missing',
        values: { table },
        details: 'Add PRIMARY KEY ((partition key columns), clustering columns).',
        range: stmt.name.range,
        data: { table, columns: stmt.columns.map((c) => c.name.name) } satisfies FindingData<'missing-primary-key'>,
      });
    },
  },
};

export const examples: RuleExamples<MessageIdOf<typeof rule>> = {
  valid: ['CREATE TABLE ks.t (id uuid PRIMARY KEY);', 'CREATE TABLE ks.t2 LIKE ks.t;'],
  invalid: [{ code: 'CREATE TABLE ks.t (id uuid, v text);', at: 'ks.t' }],
};
