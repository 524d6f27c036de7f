// `destructive-migration`: DROP TABLE, DROP KEYSPACE, ALTER ... DROP (a column) or TRUNCATE in a migration:
// it deletes data on every cluster the migration runs on, at once (a snapshot is kept only where
// auto_snapshot is on, and restoring it is an operator's job on every node), while application versions
// that still read or write it fail. Not reported for what the same migration created (it held no rows yet).
// A key column's drop is primary-key-change's (Cassandra refuses it). Migration folders only.
import type {
  AlterTableStatement,
  DropKeyspaceStatement,
  DropTableStatement,
  TruncateStatement,
} from '../../../grammar/ast';
import type { FindingData } from '../findings/findings-data';
import { columnNamed } from '../schema/model';
import type { MessageIdOf, RuleContext, RuleExamples, RuleModule } from './types';

type MessageId = 'dropTable' | 'dropKeyspace' | 'dropColumn' | 'truncate';

const LIVE =
  'on every cluster this migration runs on, at once (a snapshot is kept only where auto_snapshot is on, and restoring it is work on every node), while deployed code that still uses it fails.';
const SAFER =
  'Safer: stop the application from using it first (one release), keep a backup (nodetool snapshot, or dsbulk unload), and drop it in a migration of its own, reviewed as such.';

function qualified(ctx: RuleContext<MessageId>, name: DropTableStatement['name'], at: number): string {
  const ks = name.keyspace?.name ?? ctx.keyspaceAt(at);
  return ks ? `${ks}.${name.name.name}` : name.name.name;
}

/** A table this migration created itself (no row of it existed before). */
function createdHere(ctx: RuleContext<MessageId>, name: DropTableStatement['name'], at: number): boolean {
  const previous = ctx.history(name, at)?.previous;
  return previous?.filePath === ctx.filePath;
}

function checkDropTable(stmt: DropTableStatement, ctx: RuleContext<MessageId>): void {
  if (!ctx.migration() || createdHere(ctx, stmt.name, stmt.range.start)) return;
  const table = qualified(ctx, stmt.name, stmt.range.start);
  ctx.report({
    messageId: 'dropTable',
    values: { table },
    details: `DROP TABLE deletes every row of ${table} ${LIVE}\n\n${SAFER}`,
    range: stmt.range,
    data: { table } satisfies FindingData<'destructive-migration'>,
  });
}

function checkTruncate(stmt: TruncateStatement, ctx: RuleContext<MessageId>): void {
  if (!ctx.migration() || createdHere(ctx, stmt.name, stmt.range.start)) return;
  const table = qualified(ctx, stmt.name, stmt.range.start);
  ctx.report({
    messageId: 'truncate',
    values: { table },
    details: `TRUNCATE deletes every row of ${table} ${LIVE} It also needs every node up, or it fails half done.\n\n${SAFER}`,
    range: stmt.range,
    data: { table } satisfies FindingData<'destructive-migration'>,
  });
}

function checkDropKeyspace(stmt: DropKeyspaceStatement, ctx: RuleContext<MessageId>): void {
  if (!ctx.migration() || ctx.keyspace(stmt.name.name)?.filePath === ctx.filePath) return;
  const keyspace = stmt.name.name;
  ctx.report({
    messageId: 'dropKeyspace',
    values: { keyspace },
    details: `DROP KEYSPACE deletes every table of ${keyspace} and their rows ${LIVE}\n\n${SAFER}`,
    range: stmt.range,
    data: { table: keyspace } satisfies FindingData<'destructive-migration'>,
  });
}

function checkAlter(stmt: AlterTableStatement, ctx: RuleContext<MessageId>): void {
  const action = stmt.action;
  if (action.kind !== 'DropColumns' || !ctx.migration() || createdHere(ctx, stmt.name, stmt.range.start)) return;
  const before = ctx.history(stmt.name, stmt.range.start)?.before;
  const table = before?.qualifiedName ?? qualified(ctx, stmt.name, stmt.range.start);
  for (const id of action.columns) {
    const role = columnNamed(before, id.name)?.role;
    if (role === 'partition' || role === 'clustering') continue;
    ctx.report({
      messageId: 'dropColumn',
      values: { table, column: id.text },
      details: `ALTER ... DROP deletes ${id.name} from every row of ${table} ${LIVE} Adding it back later does not bring the values back (see readd-dropped-column).\n\n${SAFER}`,
      range: id.range,
      data: { table, column: id.name } satisfies FindingData<'destructive-migration'>,
    });
  }
}

export const rule: RuleModule<MessageId> = {
  meta: {
    id: 'destructive-migration',
    defaultSeverity: 'warning',
    description:
      'DROP TABLE, DROP KEYSPACE, ALTER ... DROP or TRUNCATE in a migration: data deleted on every cluster it runs on.',
    messages: {
      dropTable: 'DROP TABLE {{table}} in a migration deletes its rows on every cluster it runs on',
      dropKeyspace: 'DROP KEYSPACE {{keyspace}} in a migration deletes all its tables on every cluster it runs on',
      dropColumn: 'dropping {{table}}.{{column}} in a migration deletes its values on every cluster it runs on',
      truncate: 'TRUNCATE {{table}} in a migration deletes its rows on every cluster it runs on',
    },
  },
  handlers: {
    DropTable: checkDropTable,
    Truncate: checkTruncate,
    DropKeyspace: checkDropKeyspace,
    AlterTable: checkAlter,
  },
};

const V001 =
  "CREATE KEYSPACE shop WITH replication = {'class': 'NetworkTopologyStrategy', 'dc1': 3};\nCREATE TABLE shop.carts (id uuid PRIMARY KEY, items list<text>, coupon text);";
const FILES = { 'migrations/v001_create.cql': V001 };

export const examples: RuleExamples<MessageIdOf<typeof rule>> = {
  valid: [
    {
      name: 'a table the same migration created and dropped',
      path: 'migrations/v002_tmp.cql',
      files: FILES,
      code: 'CREATE TABLE shop.tmp (id int PRIMARY KEY);\nTRUNCATE shop.tmp;\nDROP TABLE shop.tmp;',
    },
    { name: 'a plain .cql file', code: `${V001}\nDROP TABLE shop.carts;` },
  ],
  invalid: [
    {
      path: 'migrations/v002_drop.cql',
      files: FILES,
      code: 'DROP TABLE IF EXISTS shop.carts;',
      at: 'DROP TABLE',
      messageId: 'dropTable',
      data: { table: 'shop.carts' },
    },
    {
      path: 'migrations/v002_drop.cql',
      files: FILES,
      code: 'ALTER TABLE shop.carts DROP coupon;',
      at: 'coupon',
      messageId: 'dropColumn',
      data: { table: 'shop.carts', column: 'coupon' },
    },
    {
      path: 'migrations/1700000100_reset.cql',
      files: { 'migrations/1700000000_create.cql': V001 },
      code: 'USE shop;\nTRUNCATE carts;',
      at: 'TRUNCATE',
      messageId: 'truncate',
      data: { table: 'shop.carts' },
    },
    {
      path: 'migrations/v002_drop.cql',
      files: FILES,
      code: 'DROP KEYSPACE shop;',
      at: 'DROP KEYSPACE',
      messageId: 'dropKeyspace',
      data: { table: 'shop' },
    },
  ],
};
