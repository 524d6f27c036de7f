// `column-type-change`: a migration that changes the type of a deployed table's column: ALTER ... TYPE
// (refused by Cassandra since 3.0.11 and 3.10, and in the versions that took it, existing cells were read
// with the new type), or the table dropped and created again with the column of another type (every row
// lost, and code still writing the old type fails). The safer change is a new column of the new type,
// written beside the old one, backfilled, then read; the old one dropped last. A key column's type is
// primary-key-change's. Migration folders only (docs/migrations.md).
import type { AlterTableStatement, CreateTableStatement } from '../../../grammar/ast';
import type { FindingData } from '../findings/findings-data';
import { columnNamed } from '../schema/model';
import { typeText } from '../util/cql-type';
import { deployedBy, keyIdentity } from './migration-plan';
import type { MessageIdOf, RuleContext, RuleExamples, RuleModule } from './types';

type MessageId = 'alterType' | 'recreated';

function saferPlan(table: string, column: string, after: string): string {
  return `A safer change: add a new column (ALTER TABLE ${table} ADD ${column}_v2 ${after}), write both from the application, backfill the new one from the old (a dsbulk unload of the key and ${column}, converted, then a dsbulk load into ${column}_v2), switch the reads, and drop ${column} in a later migration.`;
}

function checkAlter(stmt: AlterTableStatement, ctx: RuleContext<MessageId>): void {
  const action = stmt.action;
  if (action.kind !== 'AlterColumnType') return;
  const table = ctx.history(stmt.name, stmt.range.start)?.before;
  const column = columnNamed(table, action.column.name);
  if (!table || !column || column.role === 'partition' || column.role === 'clustering') return;
  const after = typeText(action.type);
  const createdIn = deployedBy(ctx, table);
  ctx.report({
    messageId: 'alterType',
    values: { table: table.qualifiedName, column: action.column.text, before: column.typeText, after },
    details: `Cassandra 3.0.11, 3.10 and later refuse ALTER ... TYPE, so this migration fails on a live cluster; where it was accepted, the cells already written were read with the new type (only a few compatible pairs, such as int to varint, kept their values).\n\n${saferPlan(table.qualifiedName, column.name, after)}`,
    range: action.range,
    data: {
      table: table.qualifiedName,
      column: column.name,
      before: column.typeText,
      after,
      ...(createdIn ? { createdIn } : {}),
    } satisfies FindingData<'column-type-change'>,
  });
}

function checkCreate(stmt: CreateTableStatement, ctx: RuleContext<MessageId>): void {
  const history = ctx.history(stmt.name, stmt.range.start);
  const previous = history?.previous;
  const table = ctx.definedBy(stmt);
  if (!previous || !table || history.before || previous.kind !== 'table') return;
  const createdIn = deployedBy(ctx, previous);
  // Another key is primary-key-change's finding.
  if (!createdIn || keyIdentity(previous) !== keyIdentity(table)) return;
  for (const column of table.columns) {
    const old = columnNamed(previous, column.name);
    if (!old || old.typeText === column.typeText) continue;
    ctx.report({
      messageId: 'recreated',
      values: { table: previous.qualifiedName, column: column.name, before: old.typeText, after: column.typeText },
      details: `${previous.qualifiedName} was created by ${createdIn} and is dropped and created again: every row is lost on a live cluster, and application code still writing ${column.name} as ${old.typeText} fails until it is deployed anew.\n\n${saferPlan(previous.qualifiedName, column.name, column.typeText)}`,
      range: column.range,
      data: {
        table: previous.qualifiedName,
        column: column.name,
        before: old.typeText,
        after: column.typeText,
        createdIn,
      } satisfies FindingData<'column-type-change'>,
    });
  }
}

export const rule: RuleModule<MessageId> = {
  meta: {
    id: 'column-type-change',
    defaultSeverity: 'warning',
    description:
      "A migration that changes the type of a deployed table's column (ALTER ... TYPE, or the table re-created with another type).",
    messages: {
      alterType:
        '{{table}}.{{column}} changes type from {{before}} to {{after}}: Cassandra 3.10+ rejects ALTER ... TYPE on a live cluster',
      recreated:
        "{{table}} is re-created with {{column}} as {{after}} (was {{before}}): a live cluster loses the table's rows",
    },
  },
  handlers: { AlterTable: checkAlter, CreateTable: checkCreate },
};

const V001 = 'CREATE TABLE shop.orders (id uuid PRIMARY KEY, total int, note text);';

export const examples: RuleExamples<MessageIdOf<typeof rule>> = {
  valid: [
    {
      name: 'a new column of the new type',
      path: 'migrations/v002_total.cql',
      files: { 'migrations/v001_create.cql': V001 },
      code: 'ALTER TABLE shop.orders ADD total_v2 decimal;',
    },
    { name: 'ALTER TYPE in a plain .cql file', code: `${V001}\nALTER TABLE shop.orders ALTER total TYPE varint;` },
  ],
  invalid: [
    {
      path: 'migrations/v002_total.cql',
      files: { 'migrations/v001_create.cql': V001 },
      code: 'ALTER TABLE shop.orders ALTER total TYPE varint;',
      at: 'ALTER total',
      messageId: 'alterType',
      data: { table: 'shop.orders', column: 'total', before: 'int', after: 'varint', createdIn: 'v001_create.cql' },
    },
    {
      name: 'dropped and re-created with another type',
      path: 'migrations/0002-orders.cql',
      files: { 'migrations/0001-create.cql': V001 },
      code: 'DROP TABLE shop.orders;\nCREATE TABLE shop.orders (id uuid PRIMARY KEY, total decimal, note text);',
      at: 'total decimal',
      messageId: 'recreated',
      data: { column: 'total', before: 'int', after: 'decimal' },
    },
  ],
};
