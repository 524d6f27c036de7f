// `missing-primary-key`: CREATE TABLE without a PRIMARY KEY (Cassandra: "No PRIMARY KEY specified").
// Data: { table: string, columns: string[] }
import { docsUrl } from '../findings';
import type { RuleExamples, RuleModule } from './types';
import type { FindingData } from '../findings-data';

export const rule: RuleModule = {
  meta: {
    id: 'missing-primary-key',
    defaultSeverity: 'error',
    description: 'A CREATE TABLE without a primary key.',
    docsUrl: docsUrl('missing-primary-key'),
    scope: 'statement',
  },
  check(ctx) {
    for (const stmt of ctx.parse.statements) {
      if (stmt.kind !== 'CreateTable' || stmt.like || stmt.primaryKey || !stmt.columns.length) continue;
      const table = ctx.definedBy(stmt);
      ctx.report({
        message: `${table?.qualifiedName ?? stmt.name.name.name} has no PRIMARY KEY`,
        details: 'Add PRIMARY KEY ((partition key columns), clustering columns).',
        range: stmt.name.range,
        data: { table: table?.qualifiedName ?? stmt.name.name.name, columns: stmt.columns.map((c) => c.name.name) } satisfies FindingData<'missing-primary-key'>,
      });
    }
  },
};

export const examples: RuleExamples = {
  valid: ['CREATE TABLE ks.t (id uuid PRIMARY KEY);', 'CREATE TABLE ks.t2 LIKE ks.t;'],
  invalid: [{ code: 'CREATE TABLE ks.t (id uuid, v text);', at: 'ks.t' }],
};
