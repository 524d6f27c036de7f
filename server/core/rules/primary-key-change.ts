// `primary-key-change`: a migration that changes a deployed table's primary key: the table dropped and
// created again with another key (every row lost on a live cluster), created again while it exists (the
// CREATE fails, or with IF NOT EXISTS does nothing), or an ALTER of a key column (Cassandra rejects it).
// The key decides where every row lives and in what order: it cannot change in place. The safer plan: a new
// table with the new key, dual writes, a dsbulk unload/load backfill, reads switched, the old table dropped.
// Migration folders only (docs/migrations.md): a plain .cql file describes a schema, it changes none.
import type { AlterTableStatement, CreateTableStatement } from '../../../grammar/ast';
import type { FindingData } from '../findings/findings-data';
import { columnNamed } from '../schema/model';
import { copyPlanSteps } from '../schema/key-change-plan';
import { copyName, deployedBy, keyIdentity, primaryKeyText } from './migration-plan';
import type { MessageIdOf, RuleContext, RuleExamples, RuleModule } from './types';

type MessageId = 'recreated' | 'exists' | 'alterKey';

function checkCreate(stmt: CreateTableStatement, ctx: RuleContext<MessageId>): void {
  const history = ctx.history(stmt.name, stmt.range.start);
  const previous = history?.previous;
  const table = ctx.definedBy(stmt);
  if (!history || !previous || !table || previous.kind !== 'table') return;
  // Only a table a file before this one created was deployed (one this file created and re-creates held no rows yet).
  const createdIn = deployedBy(ctx, previous);
  if (!createdIn || keyIdentity(previous) === keyIdentity(table)) return;
  const before = primaryKeyText(previous);
  const after = primaryKeyText(table);
  const newTable = copyName(previous);
  const plan = copyPlanSteps(previous, newTable, after);
  const stillThere = history.before !== undefined;
  ctx.report({
    messageId: stillThere ? 'exists' : 'recreated',
    values: { table: previous.qualifiedName, before, after },
    details: `${
      stillThere
        ? `${previous.qualifiedName} exists on every cluster ${createdIn} ran on: this CREATE TABLE fails there${stmt.ifNotExists ? ' (IF NOT EXISTS: it does nothing, and the table keeps its old key while cqlint and the code assume the new one)' : ''}.`
        : `Dropping ${previous.qualifiedName} (created by ${createdIn}) deletes every row on every cluster this runs on; the new table starts empty, and the application reads and writes it with the new key at once.`
    }\n\nThe primary key places and orders every row: it cannot change in place. A safer plan:\n${plan.join('\n')}`,
    range: stmt.name.range,
    data: {
      table: previous.qualifiedName,
      before,
      after,
      createdIn,
      newTable,
      plan,
    } satisfies FindingData<'primary-key-change'>,
  });
}

function checkAlter(stmt: AlterTableStatement, ctx: RuleContext<MessageId>): void {
  const history = ctx.history(stmt.name, stmt.range.start);
  const table = history?.before;
  if (!table || table.kind !== 'table') return;
  const action = stmt.action;
  const names =
    action.kind === 'DropColumns' ? action.columns : action.kind === 'AlterColumnType' ? [action.column] : [];
  for (const id of names) {
    const column = columnNamed(table, id.name);
    if (!column || (column.role !== 'partition' && column.role !== 'clustering')) continue;
    const newTable = copyName(table);
    const plan = copyPlanSteps(table, newTable);
    const before = primaryKeyText(table);
    ctx.report({
      messageId: 'alterKey',
      values: {
        table: table.qualifiedName,
        column: id.text,
        change: action.kind === 'DropColumns' ? 'drop' : 'retype',
      },
      details: `${column.name} is a ${column.role === 'partition' ? 'partition key' : 'clustering'} column of ${table.qualifiedName} ${before}: Cassandra refuses to drop or retype a primary key column, so this migration fails on a live cluster and the ones after it do not run.\n\nA safer plan:\n${plan.join('\n')}`,
      range: id.range,
      data: {
        table: table.qualifiedName,
        before,
        column: column.name,
        ...(deployedBy(ctx, table) ? { createdIn: deployedBy(ctx, table)! } : {}),
        newTable,
        plan,
      } satisfies FindingData<'primary-key-change'>,
    });
  }
}

export const rule: RuleModule<MessageId> = {
  meta: {
    id: 'primary-key-change',
    defaultSeverity: 'error',
    description:
      "A migration that changes a deployed table's primary key (re-created with another key, or an ALTER of a key column).",
    messages: {
      recreated: '{{table}} is re-created with primary key {{after}} (was {{before}}): a live cluster loses every row',
      exists: '{{table}} is created again with key {{after}} while it exists: this fails on a live cluster',
      alterKey:
        'ALTER cannot {{change}} {{column}}, a primary key column of {{table}}: Cassandra rejects it on a live cluster',
    },
  },
  handlers: { CreateTable: checkCreate, AlterTable: checkAlter },
};

const V001 = 'CREATE TABLE shop.events (user_id uuid, at timestamp, kind text, PRIMARY KEY (user_id, at));';

export const examples: RuleExamples<MessageIdOf<typeof rule>> = {
  valid: [
    {
      name: 'a new table with the new key',
      path: 'migrations/v002_by_day.cql',
      files: { 'migrations/v001_create.cql': V001 },
      code: 'CREATE TABLE shop.events_v2 (user_id uuid, day date, at timestamp, kind text, PRIMARY KEY ((user_id, day), at));',
    },
    {
      name: 'the same key re-created',
      path: 'migrations/v002_recreate.cql',
      files: { 'migrations/v001_create.cql': V001 },
      code: 'DROP TABLE shop.events;\nCREATE TABLE shop.events (user_id uuid, at timestamp, kind text, note text, PRIMARY KEY (user_id, at));',
    },
    {
      name: 'a plain .cql file that defines a table twice',
      code: `${V001}\nDROP TABLE shop.events;\nCREATE TABLE shop.events (id uuid PRIMARY KEY);`,
    },
    {
      name: 'a table the same migration created',
      path: 'migrations/v002_x.cql',
      files: { 'migrations/v001_create.cql': 'SELECT now() FROM system.local;' },
      code: `${V001}\nDROP TABLE shop.events;\nCREATE TABLE shop.events (id uuid PRIMARY KEY);`,
    },
  ],
  invalid: [
    {
      name: 'dropped and re-created with another key',
      path: 'migrations/v002_rekey.cql',
      files: { 'migrations/v001_create.cql': V001 },
      code: 'DROP TABLE shop.events;\nCREATE TABLE shop.events (user_id uuid, day date, at timestamp, kind text, PRIMARY KEY ((user_id, day), at));',
      at: 'shop.events (',
      messageId: 'recreated',
      message: /dsbulk unload -k shop -t events -url \.\/events_export.*dsbulk load -k shop -t events_v2/,
      data: {
        table: 'shop.events',
        before: '(user_id, at)',
        after: '((user_id, day), at)',
        createdIn: 'v001_create.cql',
        newTable: 'events_v2',
      },
    },
    {
      name: 'created again while it exists (Flyway names)',
      path: 'db/V2__rekey.cql',
      files: { 'db/V1__create.cql': V001 },
      code: 'CREATE TABLE IF NOT EXISTS shop.events (user_id uuid, at timestamp, kind text, PRIMARY KEY (user_id, at)) WITH CLUSTERING ORDER BY (at DESC);',
      at: 'shop.events',
      messageId: 'exists',
      data: { before: '(user_id, at)', after: '(user_id, at DESC)' },
    },
    {
      name: 'an ALTER that drops a clustering column',
      path: 'migrations/20240102000000_drop_at.cql',
      files: { 'migrations/20240101000000_create.cql': V001 },
      code: 'ALTER TABLE shop.events DROP at;',
      at: 'at;',
      messageId: 'alterKey',
      data: { column: 'at', createdIn: '20240101000000_create.cql' },
    },
  ],
};
