// `invalid-clustering-order`: CLUSTERING ORDER BY naming a column that is not a clustering column, or
// listing clustering columns in another order than the primary key. Cassandra rejects both.
import type { RuleContext, MessageIdOf, RuleExamples, RuleModule, StatementOf } from './types';
import type { FindingData } from '../findings/findings-data';

type MessageId = 'notClustering' | 'outOfOrder';

function checkOrder(stmt: StatementOf<'CreateTable' | 'CreateMaterializedView'>, ctx: RuleContext<MessageId>): void {
  const orders = stmt.options?.clusteringOrder ?? [];
  if (!orders.length || !stmt.primaryKey) return;
  const table = ctx.definedBy(stmt);
  const name = table?.qualifiedName ?? stmt.name.name.name;
  const clustering = stmt.primaryKey.clustering.map((c) => c.name);
  const columnNames = new Set(
    stmt.kind === 'CreateTable' ? stmt.columns.map((c) => c.name.name) : (table?.columns.map((c) => c.name) ?? []),
  );
  let expected = 0;
  for (const o of orders) {
    const index = clustering.indexOf(o.column.name);
    if (index < 0) {
      // unknown-column reports columns that do not exist at all
      if (!columnNames.has(o.column.name) && !(stmt.kind === 'CreateMaterializedView' && !table?.baseResolved))
        continue;
      ctx.report({
        messageId: 'notClustering',
        values: { column: o.column.text, table: name },
        details: `CLUSTERING ORDER BY may only name ${clustering.length ? clustering.join(', ') : 'clustering columns (this table has none)'}.`,
        range: o.column.range,
        data: { table: name, column: o.column.name, clustering } satisfies FindingData<'invalid-clustering-order'>,
      });
      continue;
    }
    if (index !== expected) {
      ctx.report({
        messageId: 'outOfOrder',
        values: { column: o.column.text },
        details: `It must list the clustering columns in primary key order (${clustering.join(', ')}).`,
        range: o.column.range,
        data: { table: name, column: o.column.name, clustering } satisfies FindingData<'invalid-clustering-order'>,
      });
      break; // one out-of-place report per statement; later tables are still checked
    }
    expected++;
  }
}

export const rule: RuleModule<MessageId> = {
  meta: {
    id: 'invalid-clustering-order',
    defaultSeverity: 'error',
    description: 'CLUSTERING ORDER BY on a non-clustering column or out of primary key order.',
    messages: {
      notClustering: '{{column}} is not a clustering column of {{table}}',
      outOfOrder: 'CLUSTERING ORDER BY lists {{column}} out of primary key order',
    },
    scope: 'statement',
  },
  handlers: { CreateTable: checkOrder, CreateMaterializedView: checkOrder },
};

export const examples: RuleExamples<MessageIdOf<typeof rule>> = {
  valid: [
    'CREATE TABLE ks.t (a int, b int, c int, v text, PRIMARY KEY (a, b, c)) WITH CLUSTERING ORDER BY (b DESC, c ASC);',
    'CREATE TABLE ks.t (a int, b int, c int, PRIMARY KEY (a, b, c)) WITH CLUSTERING ORDER BY (b DESC);',
  ],
  invalid: [
    {
      code: 'CREATE TABLE ks.t (a int, b int, v text, PRIMARY KEY (a, b)) WITH CLUSTERING ORDER BY (v DESC);',
      at: 'v DESC',
      messageId: 'notClustering',
      data: { column: 'v', clustering: ['b'] },
    },
    {
      code: 'CREATE TABLE ks.t (a int, b int, c int, PRIMARY KEY (a, b, c)) WITH CLUSTERING ORDER BY (c DESC, b ASC);',
      at: 'c DESC',
      messageId: 'outOfOrder',
    },
    {
      code: 'CREATE TABLE ks.t (a int PRIMARY KEY, v int) WITH CLUSTERING ORDER BY (a DESC);',
      at: 'a DESC',
      messageId: 'notClustering',
      message: /not a clustering column/,
    },
  ],
};
