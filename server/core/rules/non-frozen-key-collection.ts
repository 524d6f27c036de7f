// `non-frozen-key-collection`: a collection or user-defined type in the primary key that is not frozen.
// Cassandra only accepts frozen collections/UDTs in primary keys (their value is compared as a whole).
import { codeSpan, md } from '../util/markdown';
import type { MessageIdOf, RuleExamples, RuleModule } from './types';
import { withCreatedTable } from './defined-tables';
import { primaryKeyColumns } from '../util/statements';
import type { FindingData } from '../findings/findings-data';

export const rule: RuleModule<'notFrozen'> = {
  meta: {
    id: 'non-frozen-key-collection',
    defaultSeverity: 'error',
    description: 'A non-frozen collection or user-defined type in the primary key.',
    messages: {
      notFrozen: '{{column}} ({{type}}) is in the primary key of {{table}} but not frozen',
    },
    scope: 'statement',
  },
  handlers: {
    CreateTable: withCreatedTable((stmt, table, ctx) => {
      for (const col of primaryKeyColumns(table)) {
        const kind = col.type?.kind;
        if (kind !== 'CollectionType' && kind !== 'UserType') continue;
        const suggestedType = `frozen<${col.typeText}>`;
        ctx.report({
          messageId: 'notFrozen',
          values: { column: col.name, type: col.typeText, table: table.qualifiedName },
          details: md`Key columns must be frozen: ${codeSpan(suggestedType)}.`,
          range: col.range,
          data: {
            table: table.qualifiedName,
            column: col.name,
            type: col.typeText,
            suggestedType,
          } satisfies FindingData<'non-frozen-key-collection'>,
        });
      }
    }),
  },
};

export const examples: RuleExamples<MessageIdOf<typeof rule>> = {
  valid: [
    'CREATE TABLE ks.t (tags frozen<set<text>>, id uuid, PRIMARY KEY (tags, id));',
    'CREATE TABLE ks.t (id uuid PRIMARY KEY, tags set<text>);',
  ],
  invalid: [
    {
      code: 'CREATE TABLE ks.t (tags set<text>, id uuid, PRIMARY KEY (tags, id));',
      at: 'tags set',
      data: { suggestedType: 'frozen<set<text>>' },
    },
    {
      code: 'CREATE TYPE ks.addr (street text);\nCREATE TABLE ks.t (id uuid, a addr, PRIMARY KEY (id, a));',
      at: 'a addr',
    },
  ],
};
