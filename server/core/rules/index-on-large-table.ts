// `index-on-large-table`: CREATE INDEX (secondary, SASI or SAI) on a table that existed before the
// migration. Every node builds the index by reading all its data of the table: I/O and CPU taken from the
// traffic, and until the build ends, queries that need the index miss rows or fail. A warning when the
// evidence (docs/evidence.md) measures the table large (1 GiB on a node, or 100 million rows); with no
// evidence, a note (information) that the table exists already; nothing when the evidence measures it
// small. Migration folders only (docs/migrations.md).
import type { CreateIndexStatement } from '../../../grammar/ast';
import type { FindingData } from '../findings/findings-data';
import { existedBefore, largeTable } from './migration-plan';
import type { MessageIdOf, RuleContext, RuleExamples, RuleModule } from './types';
import { tablestatsOutput } from '../../../test/helpers/example-evidence';

type MessageId = 'large' | 'existing';

function checkIndex(stmt: CreateIndexStatement, ctx: RuleContext<MessageId>): void {
  const table = ctx.history(stmt.table, stmt.range.start)?.before;
  const existed = existedBefore(ctx, table);
  if (!table || !existed) return;
  const size = largeTable(ctx.evidence(table));
  if (size && !size.large) return;
  const index = stmt.name?.text ?? `an index on ${table.qualifiedName}`;
  ctx.report({
    messageId: size ? 'large' : 'existing',
    values: { table: table.qualifiedName },
    details: `Every node builds ${index} by reading all its data of ${table.qualifiedName}: disk and CPU taken from the traffic, and until the build ends the queries that need the index miss rows or fail.${size ? ` The evidence measures the table at ${size.measured}.` : ' No evidence measures the table (docs/evidence.md): its size decides how long the build takes.'}\n\nSafer: create the index outside peak hours, watch the build (nodetool compactionstats shows it as a secondary index build), and deploy the queries that use it only once it is built on every node; or serve the query from a table keyed for it.`,
    range: stmt.range,
    ...(size ? {} : { severity: 'info' as const }),
    data: {
      table: table.qualifiedName,
      ...(existed.createdIn ? { createdIn: existed.createdIn } : {}),
      ...(size ? { measured: size.measured } : {}),
    } satisfies FindingData<'index-on-large-table'>,
  });
}

export const rule: RuleModule<MessageId> = {
  meta: {
    id: 'index-on-large-table',
    defaultSeverity: 'warning',
    description:
      'A migration that creates an index on a table that exists already (large by the evidence: a warning; unmeasured: a note).',
    messages: {
      large: 'an index on {{table}}, measured large: every node reads the whole table to build it',
      existing: 'an index on {{table}}, a table that exists already: every node reads all of it to build it',
    },
  },
  handlers: { CreateIndex: checkIndex },
};

const V001 = 'CREATE TABLE shop.users (id uuid PRIMARY KEY, email text, country text);';
const INDEX = "CREATE INDEX users_by_email ON shop.users (email) USING 'sai';";

export const examples: RuleExamples<MessageIdOf<typeof rule>> = {
  valid: [
    {
      name: 'an index created with its table',
      path: 'migrations/v002_x.cql',
      files: { 'migrations/v001_x.cql': 'SELECT now() FROM system.local;' },
      code: `${V001}\n${INDEX}`,
    },
    {
      name: 'the evidence measures it small',
      path: 'migrations/v002_email.cql',
      files: { 'migrations/v001_create.cql': V001 },
      code: INDEX,
      evidence: { 'node1.txt': tablestatsOutput('shop.users', 2_000) },
    },
    { name: 'a plain .cql file', code: `${V001}\n${INDEX}` },
  ],
  invalid: [
    {
      name: 'measured large by nodetool tablestats',
      path: 'migrations/v002_email.cql',
      files: { 'migrations/v001_create.cql': V001 },
      code: INDEX,
      evidence: { 'node1.txt': tablestatsOutput('shop.users', 40_000, { partitions: 900_000_000 }) },
      at: 'CREATE INDEX',
      messageId: 'large',
      data: { table: 'shop.users', createdIn: 'v001_create.cql' },
    },
    {
      name: 'no evidence: a note',
      path: 'migrations/V2__email.cql',
      files: { 'migrations/V1__create.cql': V001 },
      code: INDEX,
      at: 'CREATE INDEX',
      messageId: 'existing',
      severity: 'info',
    },
  ],
};
