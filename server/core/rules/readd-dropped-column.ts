// `readd-dropped-column`: a migration that adds a column an earlier ALTER ... DROP removed from the same
// table. Cassandra remembers dropped columns (system_schema.dropped_columns) with the time of the drop:
// with another type it refuses the ADD (an incompatible type) or, in versions that let it through, reads
// the old cells with the new type; with the same type, the values written before the drop stay hidden,
// while any written with a client timestamp later than the drop (a clock ahead, a replayed batch) come back.
// Use a new name. Migration folders only (docs/migrations.md).
import type { AlterTableStatement } from '../../../grammar/ast';
import type { FindingData } from '../findings/findings-data';
import { typeText } from '../util/cql-type';
import { deployedBy } from './migration-plan';
import type { MessageIdOf, RuleContext, RuleExamples, RuleModule } from './types';

type MessageId = 'otherType' | 'sameType';

function checkAlter(stmt: AlterTableStatement, ctx: RuleContext<MessageId>): void {
  const action = stmt.action;
  if (action.kind !== 'AddColumns') return;
  const history = ctx.history(stmt.name, stmt.range.start);
  const table = history?.before;
  if (!history || !table) return;
  const createdIn = deployedBy(ctx, table);
  for (const def of action.columns) {
    const old = history.dropped.get(def.name.name);
    if (!old) continue;
    const after = typeText(def.type);
    const same = old.typeText === after;
    ctx.report({
      messageId: same ? 'sameType' : 'otherType',
      values: { table: table.qualifiedName, column: def.name.text, before: old.typeText, after },
      details: `${
        same
          ? `Cassandra keeps the drop's time for ${def.name.name}: the values written before it stay hidden (the column comes back empty), and any written with a client timestamp later than the drop (a clock ahead, a late retry) reappear.`
          : `Cassandra remembers ${def.name.name} as ${old.typeText}: it refuses to add it back as an incompatible type, so this migration fails on a live cluster (versions that let it through read the old cells with the new type).`
      } Give the new column a new name (${def.name.name}_v2).`,
      range: def.name.range,
      data: {
        table: table.qualifiedName,
        column: def.name.name,
        before: old.typeText,
        after,
        ...(createdIn ? { createdIn } : {}),
      } satisfies FindingData<'readd-dropped-column'>,
    });
  }
}

export const rule: RuleModule<MessageId> = {
  meta: {
    id: 'readd-dropped-column',
    defaultSeverity: 'warning',
    description: 'A migration that adds back a column an earlier migration dropped from the same table.',
    messages: {
      otherType:
        '{{column}} was dropped from {{table}} as {{before}} and comes back as {{after}}: Cassandra rejects or misreads it',
      sameType:
        '{{column}} was dropped from {{table}} and is added again: old values stay hidden, late writes reappear',
    },
  },
  handlers: { AlterTable: checkAlter },
};

const V001 = 'CREATE TABLE shop.users (id uuid PRIMARY KEY, email text, age int);';

export const examples: RuleExamples<MessageIdOf<typeof rule>> = {
  valid: [
    {
      name: 'a new name',
      path: 'migrations/v003_age.cql',
      files: { 'migrations/v001_create.cql': V001, 'migrations/v002_drop.cql': 'ALTER TABLE shop.users DROP age;' },
      code: 'ALTER TABLE shop.users ADD age_v2 text;',
    },
    {
      name: 'the table dropped and created again (a new table, no dropped column)',
      path: 'migrations/v003_age.cql',
      files: {
        'migrations/v001_create.cql': V001,
        'migrations/v002_drop.cql':
          'ALTER TABLE shop.users DROP age;\nDROP TABLE shop.users;\nCREATE TABLE shop.users (id uuid PRIMARY KEY, email text);',
      },
      code: 'ALTER TABLE shop.users ADD age text;',
    },
    {
      name: 'a plain .cql file',
      code: `${V001}\nALTER TABLE shop.users DROP age;\nALTER TABLE shop.users ADD age text;`,
    },
  ],
  invalid: [
    {
      name: 'another type, two migrations later',
      path: 'migrations/v003_age.cql',
      files: { 'migrations/v001_create.cql': V001, 'migrations/v002_drop.cql': 'ALTER TABLE shop.users DROP age;' },
      code: 'ALTER TABLE shop.users ADD age text;',
      at: 'age text',
      messageId: 'otherType',
      data: { table: 'shop.users', column: 'age', before: 'int', after: 'text', createdIn: 'v001_create.cql' },
    },
    {
      name: 'the same type, in the migration that dropped it',
      path: 'migrations/V2__age.cql',
      files: { 'migrations/V1__create.cql': V001 },
      code: 'ALTER TABLE shop.users DROP age;\nALTER TABLE shop.users ADD age int;',
      at: 'age int',
      messageId: 'sameType',
      data: { before: 'int', after: 'int' },
    },
  ],
};
