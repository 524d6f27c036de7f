// `compaction-change-on-large-table`: ALTER TABLE ... WITH compaction on a table that existed before the
// migration. Every node then rewrites the table's SSTables under the new strategy: disk I/O and, for a
// change to LCS, up to the table's size again in free disk, with latency raised while it runs. A warning when
// the evidence (docs/evidence.md: nodetool tablestats, dsbulk count) measures the table large (1 GiB on a
// node, or 100 million rows); with no evidence, a note (information) that the table exists already; nothing
// when the evidence measures it small. Migration folders only (docs/migrations.md).
import type { AlterTableStatement, Expression } from '../../../grammar/ast';
import { mapLiteralStrings } from '../schema/definitions';
import type { FindingData } from '../findings/findings-data';
import { exprText } from '../util/statements';
import { existedBefore, largeTable } from './migration-plan';
import type { MessageIdOf, RuleContext, RuleExamples, RuleModule } from './types';
import { tablestatsOutput } from '../../../test/helpers/example-evidence';

type MessageId = 'large' | 'existing';

/** The strategy a compaction option names, without its package (`LeveledCompactionStrategy`). */
function strategyOf(value: Expression | undefined): string | undefined {
  const cls = value ? mapLiteralStrings(value)['class'] : undefined;
  return cls?.replace(/^org\.apache\.cassandra\.db\.compaction\./i, '');
}

function checkAlter(stmt: AlterTableStatement, ctx: RuleContext<MessageId>): void {
  const action = stmt.action;
  if (action.kind !== 'WithOptions') return;
  const option = action.options.properties.find((p) => p.name.name.toLowerCase() === 'compaction');
  if (!option) return;
  const table = ctx.history(stmt.name, stmt.range.start)?.before;
  const existed = existedBefore(ctx, table);
  if (!table || !existed) return;
  const before = strategyOf(table.options.get('compaction'));
  const after = strategyOf(option.value) ?? exprText(ctx.text, option.value);
  const size = largeTable(ctx.evidence(table));
  if (size && !size.large) return;
  const rewrite = `Every node rewrites all of ${table.qualifiedName}'s SSTables under ${after}: disk and CPU taken from the traffic while it runs${/leveled/i.test(after) ? ", and a change to LCS may need free disk up to the table's size" : ''}.`;
  const safer =
    'Safer: try it on one node first (nodetool setcompactionthreshold / JMX setCompactionParametersJson change one node only), watch the pending compactions, then alter the table outside peak hours.';
  ctx.report({
    messageId: size ? 'large' : 'existing',
    values: { table: table.qualifiedName },
    details: `${rewrite}${size ? ` The evidence measures the table at ${size.measured}.` : ' No evidence measures the table (docs/evidence.md): its size decides the cost.'}\n\n${safer}`,
    range: option.range,
    ...(size ? {} : { severity: 'info' as const }),
    data: {
      table: table.qualifiedName,
      ...(before ? { before } : {}),
      after,
      ...(existed.createdIn ? { createdIn: existed.createdIn } : {}),
      ...(size ? { measured: size.measured } : {}),
    } satisfies FindingData<'compaction-change-on-large-table'>,
  });
}

export const rule: RuleModule<MessageId> = {
  meta: {
    id: 'compaction-change-on-large-table',
    defaultSeverity: 'warning',
    description:
      'A migration that changes the compaction of a table that exists already (large by the evidence: a warning; unmeasured: a note).',
    messages: {
      large: 'compaction change on {{table}}, measured large: every node rewrites the whole table',
      existing: 'compaction change on {{table}}, a table that exists already: every node rewrites it',
    },
  },
  handlers: { AlterTable: checkAlter },
};

const V001 = 'CREATE TABLE shop.events (id uuid, at timestamp, body text, PRIMARY KEY (id, at));';
const LCS = "ALTER TABLE shop.events WITH compaction = {'class': 'LeveledCompactionStrategy'};";

export const examples: RuleExamples<MessageIdOf<typeof rule>> = {
  valid: [
    {
      name: 'the evidence measures it small',
      path: 'migrations/v002_lcs.cql',
      files: { 'migrations/v001_create.cql': V001 },
      code: LCS,
      evidence: { 'node1.txt': tablestatsOutput('shop.events', 200_000) },
    },
    {
      name: 'the table the same migration creates',
      path: 'migrations/v002_lcs.cql',
      files: { 'migrations/v001_x.cql': 'SELECT now() FROM system.local;' },
      code: `${V001}\n${LCS}`,
    },
    { name: 'a plain .cql file', code: `${V001}\n${LCS}` },
  ],
  invalid: [
    {
      name: 'measured large by nodetool tablestats',
      path: 'migrations/v002_lcs.cql',
      files: { 'migrations/v001_create.cql': V001 },
      code: LCS,
      evidence: { 'node1.txt': tablestatsOutput('shop.events', 20_000_000, { partitions: 5_000_000 }) },
      at: 'compaction = ',
      messageId: 'large',
      data: { table: 'shop.events', after: 'LeveledCompactionStrategy', createdIn: 'v001_create.cql' },
    },
    {
      name: 'no evidence: a note',
      path: 'migrations/v002_lcs.cql',
      files: { 'migrations/v001_create.cql': V001 },
      code: LCS,
      at: 'compaction = ',
      messageId: 'existing',
      severity: 'info',
    },
  ],
};
