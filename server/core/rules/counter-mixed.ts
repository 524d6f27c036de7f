// `counter-mixed`: a table that mixes counter and non-counter columns outside the primary key, or a
// counter in the primary key. Cassandra rejects both: counters live in counter-only tables.
import { nativeName } from '../schema/types';
import type { MessageIdOf, RuleExamples, RuleModule } from './types';
import { withCreatedTable } from './defined-tables';
import { primaryKeyColumns } from '../util/statements';
import type { FindingData } from '../findings/findings-data';

export const rule: RuleModule<'counterInKey' | 'mixed'> = {
  meta: {
    id: 'counter-mixed',
    defaultSeverity: 'error',
    description: 'Counter columns mixed with other non-key columns, or a counter in the primary key.',
    messages: {
      counterInKey: '{{column}} is a counter and cannot be part of the primary key of {{table}}',
      mixed: '{{table}} mixes counter columns ({{counters}}) with {{column}} ({{type}})',
    },
    scope: 'statement',
  },
  handlers: {
    CreateTable: withCreatedTable((stmt, table, ctx) => {
      const nonKey = table.columns.filter((c) => c.role === 'regular' || c.role === 'static');
      const counters = nonKey.filter((c) => nativeName(c.type) === 'counter');
      for (const key of primaryKeyColumns(table)) {
        if (nativeName(key.type) === 'counter') {
          ctx.report({
            messageId: 'counterInKey',
            values: { column: key.name, table: table.qualifiedName },
            range: key.range,
            data: {
              table: table.qualifiedName,
              column: key.name,
              reason: 'in-primary-key',
            } satisfies FindingData<'counter-mixed'>,
          });
        }
      }
      if (!counters.length || counters.length === nonKey.length) return;
      for (const col of nonKey) {
        if (nativeName(col.type) === 'counter') continue;
        ctx.report({
          messageId: 'mixed',
          values: {
            table: table.qualifiedName,
            counters: counters.map((c) => c.name).join(', '),
            column: col.name,
            type: col.typeText,
          },
          details: `A table with counters may only have counters outside its primary key.\n\nMove ${col.name} to another table.`,
          range: col.range,
          data: {
            table: table.qualifiedName,
            column: col.name,
            reason: 'mixed',
            counters: counters.map((c) => c.name),
          } satisfies FindingData<'counter-mixed'>,
        });
      }
    }),
  },
};

export const examples: RuleExamples<MessageIdOf<typeof rule>> = {
  valid: ['CREATE TABLE ks.views (id uuid PRIMARY KEY, views counter, likes counter);'],
  invalid: [
    {
      code: 'CREATE TABLE ks.views (id uuid PRIMARY KEY, views counter, title text);',
      at: 'title',
      messageId: 'mixed',
      data: { reason: 'mixed', column: 'title' },
    },
    {
      code: 'CREATE TABLE ks.c (n counter, v counter, PRIMARY KEY (n));',
      at: 'n counter',
      messageId: 'counterInKey',
      data: { reason: 'in-primary-key' },
    },
  ],
};
