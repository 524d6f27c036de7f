// `duplicate-column`: a column defined twice in CREATE TABLE, added again by ALTER TABLE ADD, or named
// twice in the PRIMARY KEY. Cassandra rejects all of these.
import type { Identifier } from '../../../grammar/ast';
import type { MessageIdOf, RuleExamples, RuleModule } from './types';
import type { FindingData } from '../findings/findings-data';
import { columnNamed } from '../schema/model';

export const rule: RuleModule<'definedTwice' | 'keyDeclaredTwice' | 'keyColumnTwice' | 'alreadyHasColumn'> = {
  meta: {
    id: 'duplicate-column',
    defaultSeverity: 'error',
    description: 'A column defined twice, or named twice in the primary key.',
    messages: {
      definedTwice: 'column {{column}} is defined twice in {{table}}',
      keyDeclaredTwice: '{{table}} declares its primary key more than once',
      keyColumnTwice: 'column {{column}} appears twice in the primary key of {{table}}',
      alreadyHasColumn: '{{table}} already has a column {{column}}',
    },
    scope: 'statement',
  },
  handlers: {
    CreateTable(stmt, ctx) {
      const table = `${stmt.name.keyspace ? `${stmt.name.keyspace.name}.` : ''}${stmt.name.name.name}`;
      const seen = new Map<string, Identifier>();
      for (const def of stmt.columns) {
        const first = seen.get(def.name.name);
        if (first) {
          ctx.report({
            messageId: 'definedTwice',
            values: { column: def.name.text, table },
            range: def.name.range,
            data: { table, column: def.name.name, firstRange: first.range } satisfies FindingData<'duplicate-column'>,
            related: [{ filePath: ctx.filePath, range: first.range, message: 'first defined here' }],
          });
        } else seen.set(def.name.name, def.name);
      }
      const inline = stmt.columns.filter((c) => c.inlinePrimaryKey);
      if (inline.length > 1 || (inline.length === 1 && stmt.primaryKey?.form === 'clause')) {
        const extra = inline.length > 1 ? inline[1]! : inline[0]!;
        ctx.report({
          messageId: 'keyDeclaredTwice',
          values: { table },
          range: extra.name.range,
          data: { table, column: extra.name.name } satisfies FindingData<'duplicate-column'>,
        });
      }
      const keySeen = new Map<string, Identifier>();
      for (const id of [...(stmt.primaryKey?.partitionKey ?? []), ...(stmt.primaryKey?.clustering ?? [])]) {
        const first = keySeen.get(id.name);
        if (first) {
          ctx.report({
            messageId: 'keyColumnTwice',
            values: { column: id.text, table },
            range: id.range,
            data: { table, column: id.name, firstRange: first.range } satisfies FindingData<'duplicate-column'>,
          });
        } else keySeen.set(id.name, id);
      }
    },
    AlterTable(stmt, ctx) {
      if (stmt.action.kind !== 'AddColumns' || stmt.action.ifNotExists) return;
      const table = ctx.tableFor(stmt.name, stmt.range.start);
      for (const def of stmt.action.columns) {
        const existing = columnNamed(table, def.name.name);
        // A table another file defines is looked up as the merge left it, with the columns this ALTER adds.
        if (table && existing && existing.range !== def.name.range) {
          ctx.report({
            messageId: 'alreadyHasColumn',
            values: { table: table.qualifiedName, column: def.name.text },
            range: def.name.range,
            data: {
              table: table.qualifiedName,
              column: def.name.name,
              firstRange: existing.range,
            } satisfies FindingData<'duplicate-column'>,
            related: [
              { filePath: existing.filePath ?? table.filePath, range: existing.range, message: 'defined here' },
            ],
          });
        }
      }
    },
  },
};

export const examples: RuleExamples<MessageIdOf<typeof rule>> = {
  valid: [
    'CREATE TABLE ks.t (id uuid PRIMARY KEY, v text);\nALTER TABLE ks.t ADD w text;',
    'CREATE TABLE ks.t (id uuid PRIMARY KEY, v text);\nALTER TABLE ks.t ADD IF NOT EXISTS v text;',
    {
      name: 'the table defined in another file',
      code: 'ALTER TABLE ks.t ADD w text;',
      files: { 'schema.cql': 'CREATE TABLE ks.t (id uuid PRIMARY KEY, v text);' },
    },
  ],
  invalid: [
    {
      code: 'CREATE TABLE ks.t (id uuid PRIMARY KEY, v text, v int);',
      at: 'v int',
      messageId: 'definedTwice',
      data: { column: 'v' },
    },
    { code: 'CREATE TABLE ks.t (a int, b int, PRIMARY KEY (a, a));', at: 'a))', messageId: 'keyColumnTwice' },
    {
      code: 'CREATE TABLE ks.t (id uuid PRIMARY KEY, v text);\nALTER TABLE ks.t ADD v text;',
      at: 'v text;',
      messageId: 'alreadyHasColumn',
    },
    {
      name: 'the table defined in another file',
      code: 'ALTER TABLE ks.t ADD v text;',
      files: { 'schema.cql': 'CREATE TABLE ks.t (id uuid PRIMARY KEY, v text);' },
      at: 'v text;',
      messageId: 'alreadyHasColumn',
    },
    {
      name: 'two inline PRIMARY KEYs',
      code: 'CREATE TABLE ks.t (id uuid PRIMARY KEY, v text PRIMARY KEY);',
      at: 'v text PRIMARY',
      messageId: 'keyDeclaredTwice',
      data: { column: 'v' },
    },
  ],
};
