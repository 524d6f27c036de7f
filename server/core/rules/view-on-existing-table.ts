// `view-on-existing-table`: CREATE MATERIALIZED VIEW on a table that existed before the migration. The
// view's build reads every row of the base table on every node and writes the view (I/O and CPU taken
// from the traffic for as long as it takes), the view answers incompletely until the build ends, and
// materialized views are experimental (off by default since Cassandra 4.0, materialized_views_enabled),
// with known cases of a view drifting from its base. Safer: a table keyed for the query, written by the
// application beside the base, backfilled with dsbulk. Migration folders only (docs/migrations.md).
import type { CreateMaterializedViewStatement } from '../../../grammar/ast';
import type { FindingData } from '../findings/findings-data';
import { existedBefore, largeTable } from './migration-plan';
import type { MessageIdOf, RuleContext, RuleExamples, RuleModule } from './types';

type MessageId = 'existing';

function checkView(stmt: CreateMaterializedViewStatement, ctx: RuleContext<MessageId>): void {
  const base = ctx.history(stmt.from, stmt.range.start)?.before;
  const existed = existedBefore(ctx, base);
  if (!base || !existed) return;
  const size = largeTable(ctx.evidence(base));
  const view = stmt.name.name.name;
  const viewName = ctx.text.slice(stmt.name.range.start, stmt.name.range.end);
  const ks = base.keyspace ?? '<keyspace>';
  ctx.report({
    messageId: 'existing',
    values: { view: viewName, table: base.qualifiedName },
    details: `Building ${viewName} reads every row of ${base.qualifiedName}${existed.createdIn ? ` (created by ${existed.createdIn})` : ''} on every node and writes the view: disk and CPU taken from the traffic while it runs, and the view answers incompletely until the build ends (nodetool viewbuildstatus).${size ? ` The evidence measures the table at ${size.measured}.` : ''} Materialized views are experimental (off by default since Cassandra 4.0) and may drift from their base.\n\nSafer: a table keyed for the query (${ks}.${view}), written by the application beside ${base.qualifiedName}, backfilled with dsbulk unload -k ${ks} -t ${base.name} -url ./${base.name}_export and dsbulk load -k ${ks} -t ${view} -url ./${base.name}_export, then read.`,
    range: stmt.name.range,
    data: {
      table: base.qualifiedName,
      ...(existed.createdIn ? { createdIn: existed.createdIn } : {}),
      ...(size ? { measured: size.measured } : {}),
      newTable: view,
    } satisfies FindingData<'view-on-existing-table'>,
  });
}

export const rule: RuleModule<MessageId> = {
  meta: {
    id: 'view-on-existing-table',
    defaultSeverity: 'warning',
    description:
      'A migration that creates a materialized view on a table that exists already: the build reads the whole base table.',
    messages: {
      existing: 'view {{view}} on {{table}}, which exists already: its build reads the whole table',
    },
  },
  handlers: { CreateMaterializedView: checkView },
};

const V001 = 'CREATE TABLE shop.orders (id uuid PRIMARY KEY, customer uuid, total int);';
const VIEW =
  'CREATE MATERIALIZED VIEW shop.orders_by_customer AS SELECT * FROM shop.orders WHERE customer IS NOT NULL AND id IS NOT NULL PRIMARY KEY (customer, id);';

export const examples: RuleExamples<MessageIdOf<typeof rule>> = {
  valid: [
    {
      name: 'a view created with its table',
      path: 'migrations/v002_x.cql',
      files: { 'migrations/v001_x.cql': 'SELECT now() FROM system.local;' },
      code: `${V001}\n${VIEW}`,
    },
    { name: 'a plain .cql file', code: `${V001}\n${VIEW}` },
  ],
  invalid: [
    {
      path: 'migrations/20240301090000_orders_by_customer.cql',
      files: { 'migrations/20240101090000_create.cql': V001 },
      code: VIEW,
      at: 'shop.orders_by_customer',
      data: { table: 'shop.orders', createdIn: '20240101090000_create.cql', newTable: 'orders_by_customer' },
    },
  ],
};
