// `partition-throughput`: with writesPerSecondPerPartition / readsPerSecondPerPartition hints, the
// per-partition traffic exceeds the target's per-partition limits (Keyspaces 1,000 WCU / 3,000 RCU,
// Cosmos DB 10,000 RU/s); the message says how many shards would spread it.
// Hints come from .cqlint.json `tables` or a `-- @cqlint writes=2000/s reads=500/s` comment above the table.
// With a sample (.cqlint.json `samples`), each write or read moves the sample's mean measured row (key, row
// and cell metadata) instead of the estimated one, and the message cites the sample.
// With evidence (`nodetool toppartitions`), the busiest partition's measured rate (its count over the
// sampling duration) replaces the hint of its kind; the headline says which it used (measured or hinted)
// and the details quote the sampler's line.
// On targets without a per-partition quota (Cassandra, ScyllaDB), a counter table's writes= hint is judged
// against the counterWritesPerSecond option: every increment of one counter partition is a read before
// write on the same replicas, so thousands a second make a hot counter whatever the key.
import { figuresData, operationBytes } from '../partition/sizing';
import { formatBytes, formatCount } from '../util/format';
import { sampleFindingData, sampleSummaryText } from '../partition/sample';
import { evidenceFindingData, measuredRateNote } from '../evidence';
import type { MessageIdOf, RuleExamples, RuleModule } from './types';
import { withLatestTableOrView } from './defined-tables';
import { keyText } from '../util/statements';
import type { FindingData } from '../findings/findings-data';
import { toppartitionsOutput } from '../../../test/helpers/example-evidence';
import { partitionInputs } from '../partition/inputs';
import { figuresOf, rowRate, throughputVerdict, workloadOf } from '../partition/verdicts';
import { cureAdvice, partitionPlans } from '../partition/planner';

/** Judges the table or view a CREATE statement defines, as its ALTERs left it. */
type MessageId = 'hotCounter' | 'overLimitMeasured' | 'overLimitHinted';

const checkTable = withLatestTableOrView<MessageId>((stmt, table, ctx) => {
  const inputs = partitionInputs(ctx, table);
  const options = { counterWritesPerSecond: Number(ctx.options['counterWritesPerSecond'] ?? 1000) };
  // Measured rates win over the hinted ones.
  const verdict = throughputVerdict(inputs, options);
  if (!verdict) return;
  const { hints, rates, counter } = verdict;
  const estimates = verdict.over;
  const udts = inputs.udts;
  const sample = inputs.sample;
  const w = workloadOf(inputs);
  const figures = figuresOf(inputs, rowRate(inputs, w));
  const measured = sample && sample.rows > 0 ? operationBytes(table, hints, udts, sample) : undefined;
  const row =
    measured !== undefined
      ? `a ${formatBytes(measured)} row on average, ${sampleSummaryText(sample!)}`
      : `a ${formatBytes(figures.rowBytes)} row`;
  for (const t of estimates) {
    const pk = table.partitionKey.map((c) => c.name);
    // The cures, planned once: the message words the first, the fix applies it.
    const plans = partitionPlans(inputs, {
      rule: 'partition-throughput',
      options,
      spread: true,
      throughput: { unitsPerSecond: t.unitsPerSecond, limit: t.limit, unit: t.unit },
    });
    const plan = plans[0];
    const key = keyText(
      [...pk, plan?.shard?.column ?? 'shard'],
      table.clustering.map((c) => c.name),
    );
    const already = table.shard ? ` (already sharded ${table.shard.count} ways: the hint is per shard partition)` : '';
    if (t === counter) {
      ctx.report({
        messageId: 'hotCounter',
        values: { table: table.qualifiedName, rate: formatCount(t.perSecond), limit: formatCount(t.limit) },
        details:
          `Past ${t.label}: each increment reads the counter before writing it (${t.source}), all of them on the same replicas${already}.\n\n` +
          `Spread it over at least ${t.shardsNeeded} counter rows: partition key ${key}, increment a random shard and sum the shards on read${plan ? ` (${cureAdvice(table, plan)})` : ''}.`,
        range: stmt.name.range,
        data: {
          table: table.qualifiedName,
          target: ctx.target.id,
          kind: 'writes',
          perSecond: t.perSecond,
          unitsPerSecond: t.unitsPerSecond,
          unit: t.unit,
          limit: t.limit,
          shardsNeeded: t.shardsNeeded,
          source: t.source,
          partitionKey: pk,
          numbers: figuresData(figures),
          counter: true,
          plans,
        } satisfies FindingData<'partition-throughput'>,
      });
      continue;
    }
    ctx.report({
      messageId: rates[t.kind] ? 'overLimitMeasured' : 'overLimitHinted',
      values: { kind: t.kind, table: table.qualifiedName, rate: formatCount(t.perSecond), limit: t.label },
      details:
        `${formatCount(t.perSecond)} ${t.kind}/s on one partition${measuredRateNote(rates[t.kind])} ≈ ${formatCount(t.unitsPerSecond)} ${t.unit} (${formatUnits(t.unitsPerSecond / t.perSecond)} per ${t.kind === 'writes' ? (t.writeKind === 'replace' ? 'replace (an UPDATE of an existing row: twice an insert)' : t.writeKind === 'insert' ? 'insert' : 'write') : 'read'} of ${row}${t.costSource ? `, by the published request charges: ${t.costSource}` : ''}), above ${ctx.target.name}'s ${t.label} (${t.source})${already}.\n\n` +
        `Spread it over at least ${t.shardsNeeded} shards: ${plan ? cureAdvice(table, plan) : `partition key ${key}`}.`,
      range: stmt.name.range,
      data: {
        table: table.qualifiedName,
        target: ctx.target.id,
        kind: t.kind,
        perSecond: t.perSecond,
        unitsPerSecond: t.unitsPerSecond,
        unit: t.unit,
        limit: t.limit,
        shardsNeeded: t.shardsNeeded,
        source: t.source,
        partitionKey: pk,
        numbers: figuresData(figures),
        plans,
        ...(measured !== undefined ? { rowOperationBytes: measured, sample: sampleFindingData(sample!) } : {}),
        ...(rates[t.kind]
          ? {
              evidence: {
                ...evidenceFindingData({
                  ...rates[t.kind]!,
                  label: `${t.kind} per second`,
                  value: rates[t.kind]!.perSecond,
                }),
                key: rates[t.kind]!.key,
              },
            }
          : {}),
      } satisfies FindingData<'partition-throughput'>,
    });
  }
});

export const rule: RuleModule<MessageId> = {
  meta: {
    id: 'partition-throughput',
    defaultSeverity: 'warning',
    description:
      "Per-partition reads or writes (measured by toppartitions, or from workload hints; rows measured in a sample) above the target's per-partition limit.",
    messages: {
      hotCounter: 'hot counter in {{table}}: {{rate}} increments/s on one partition, past {{limit}}/s',
      overLimitMeasured: 'too many {{kind}} for one partition of {{table}}: {{rate}}/s measured, over {{limit}}',
      overLimitHinted: 'too many {{kind}} for one partition of {{table}}: {{rate}}/s hinted, over {{limit}}',
    },
    scope: 'statement',
    options: {
      counterWritesPerSecond: {
        type: 'number',
        default: 1000,
        minimum: 1,
        description:
          "On targets without a per-partition quota (Cassandra, ScyllaDB): increments per second on one counter partition (a writes= hint) above which it is reported. cqlint's rule of thumb, not a vendor limit: each increment reads the counter before writing it, on the same replicas.",
      },
    },
  },
  handlers: { CreateTable: checkTable, CreateMaterializedView: checkTable },
};

/** Units per operation: whole numbers as they are, Cosmos DB's fractional request charges to one decimal. */
function formatUnits(n: number): string {
  return Number.isInteger(n) ? formatCount(n) : n.toFixed(1);
}

const hits = 'CREATE TABLE web.page_hits (page_id text PRIMARY KEY, hits counter);';
const posts = 'CREATE TABLE ks.posts (day date, id timeuuid, body text, PRIMARY KEY (day, id));';
/** A cqlsh COPY of ks.posts: 40 posts over 2 days, each body `bodyBytes` long. */
function postsCsv(bodyBytes: number): string {
  const lines = ['day,id,body'];
  for (let i = 0; i < 40; i++)
    lines.push(
      `2024-01-0${1 + (i % 2)},${(0x10000000 + i).toString(16)}-0000-1000-8000-000000000000,${'x'.repeat(bodyBytes)}`,
    );
  return lines.join('\n');
}

export const examples: RuleExamples<MessageIdOf<typeof rule>> = {
  valid: [
    { name: 'no hints', code: posts, target: 'keyspaces' },
    {
      name: 'within limits',
      code: posts,
      target: 'keyspaces',
      config: { tables: { 'ks.posts': { writesPerSecondPerPartition: 500 } } },
    },
    {
      name: 'Cassandra has no per-partition quota',
      code: posts,
      config: { tables: { 'ks.posts': { writesPerSecondPerPartition: 50_000 } } },
    },
    {
      name: 'hints win: a counter partition at 200 increments/s is no hot counter',
      code: `-- @cqlint writes=200/s\n${hits}`,
    },
    {
      name: 'hints win: the counter threshold is an option',
      code: `-- @cqlint writes=4000/s\n${hits}`,
      config: { rules: { 'partition-throughput': ['warn', { counterWritesPerSecond: 5000 }] } },
    },
    {
      name: 'a sample of short posts: 900 writes/s of measured rows stay within 1,000 WCU',
      code: posts,
      target: 'keyspaces',
      config: { tables: { 'ks.posts': { writesPerSecondPerPartition: 900 } } },
      sample: { table: 'ks.posts', csv: () => postsCsv(200) },
    },
    {
      name: 'evidence: toppartitions measured 300 writes/s on the busiest partition, so the 5,000/s hint no longer applies',
      code: posts,
      target: 'keyspaces',
      config: { tables: { 'ks.posts': { writesPerSecondPerPartition: 5000 } } },
      evidence: {
        'top.txt': toppartitionsOutput('ks.posts', 60_000, [
          ['2024-01-01', 18_000],
          ['2024-01-02', 9000],
        ]),
      },
    },
  ],
  invalid: [
    {
      name: 'evidence alone: 90,000 writes in 60 s on one partition, no hint',
      code: posts,
      output: null,
      suggestion: {
        title: 'Add a random shard column (3 shards)',
        output:
          '-- @shard shard = random(3)\nCREATE TABLE ks.posts (day date, id timeuuid, body text, shard int, PRIMARY KEY ((day, shard), id));',
      },
      at: 'ks.posts',
      messageId: 'overLimitMeasured',
      target: 'keyspaces',
      evidence: {
        'top.txt': toppartitionsOutput(
          'ks.posts',
          60_000,
          [
            ['2024-01-01', 90_000],
            ['2024-01-02', 300],
          ],
          { node: '10.0.0.7' },
        ),
      },
      message:
        /^too many writes for one partition of ks\.posts: 1,500\/s measured, over 1,000 WCU per partition 1,500 writes\/s on one partition \(measured: nodetool toppartitions, node 10\.0\.0\.7, 2026-11-20: 90,000 writes in 60 s on partition 2024-01-01 \(evidence\/top\.txt:7\)\) ≈ 1,500 WCU .*above Amazon Keyspaces's 1,000 WCU per partition/,
      data: {
        kind: 'writes',
        perSecond: 1500,
        shardsNeeded: 2,
        evidence: {
          tool: 'nodetool toppartitions',
          file: '/virtual/cqlint-tests/evidence/top.txt',
          line: 7,
          node: '10.0.0.7',
          captured: '2026-11-20',
          label: 'writes per second',
          value: 1500,
          key: '2024-01-01',
        },
      },
    },
    {
      code: posts,
      at: 'ks.posts',
      messageId: 'overLimitHinted',
      target: 'keyspaces',
      config: { tables: { 'ks.posts': { writesPerSecondPerPartition: 2000, readsPerSecondPerPartition: 100 } } },
      message:
        /^too many writes for one partition of ks\.posts: 2,000\/s hinted, .*2,000 writes\/s on one partition \(hinted\) ≈ .*1,000 WCU per partition.*at least 2 shards/,
      data: { kind: 'writes', shardsNeeded: 2, unit: 'WCU' },
    },
    {
      code: posts,
      at: 'ks.posts',
      messageId: 'overLimitHinted',
      target: 'keyspaces',
      config: { tables: { 'ks.posts': { readsPerSecondPerPartition: 10_000, columnSizes: { body: 6000 } } } },
      data: { kind: 'reads', unitsPerSecond: 20_000, shardsNeeded: 7 },
    },
    {
      name: 'Cosmos DB: an UPDATE of an existing row is a replace, charged at twice an insert (5,000 writes/s: 55,000 RU/s, 6 shards at least)',
      code: `${posts}\nUPDATE ks.posts SET body = ? WHERE day = ? AND id = ?;`,
      at: 'ks.posts',
      messageId: 'overLimitHinted',
      target: 'cosmosdb',
      config: { tables: { 'ks.posts': { writesPerSecondPerPartition: 5000 } } },
      message:
        /55,000 RU\/s \(11 per replace \(an UPDATE of an existing row: twice an insert\) of a \d+ B row.*Spread it over at least 6 shards/,
      data: { unitsPerSecond: 55_000, shardsNeeded: 6 },
    },
    {
      code: posts,
      at: 'ks.posts',
      messageId: 'overLimitHinted',
      target: 'cosmosdb',
      config: { tables: { 'ks.posts': { writesPerSecondPerPartition: 3000 } } },
      message:
        /16,500 RU\/s \(5\.5 per insert of a \d+ B row, by the published request charges: https:\/\/learn\.microsoft\.com\/en-us\/azure\/cosmos-db\/optimize-cost-reads-writes\), above Azure Cosmos DB for Apache Cassandra's 10,000 RU\/s per logical \(and physical\) partition/,
    },
    {
      name: 'a sample of long posts: the same 900 writes/s take 2 WCU each, citing the sample (the type estimate would say 1)',
      code: posts,
      at: 'ks.posts',
      messageId: 'overLimitHinted',
      target: 'keyspaces',
      config: { tables: { 'ks.posts': { writesPerSecondPerPartition: 900 } } },
      sample: { table: 'ks.posts', csv: () => postsCsv(1500) },
      message:
        /^too many writes for one partition of ks\.posts: 900\/s hinted, over 1,000 WCU per partition 900 writes\/s on one partition \(hinted\) ≈ 1,800 WCU \(2 per write of a 1\.5 KB row on average, from sample samples\/sample\.csv: 2 partitions, largest 20 rows \/ [\d.]+ KB\), above Amazon Keyspaces's 1,000 WCU per partition/,
      data: { kind: 'writes', unitsPerSecond: 1800, shardsNeeded: 2, rowOperationBytes: 4 + 16 + 1500 + 8 },
    },
    {
      name: 'hints win: a counter partition at 4,000 increments/s on Cassandra is a hot counter',
      code: `-- @cqlint writes=4000/s\n${hits}`,
      at: 'web.page_hits',
      messageId: 'hotCounter',
      message:
        /^hot counter in web\.page_hits: 4,000 increments\/s on one partition, past 1,000\/s Past 1,000 increments\/s per counter partition \(cqlint's default; option counterWritesPerSecond\): each increment reads the counter before writing it \(https:\/\/docs\.datastax\.com\/en\/cql\/3\.0\/cql\/ddl\/ddl_counters_c\.html\)[\s\S]*Spread it over at least 4 counter rows: partition key \(\(page_id, shard\)\)/,
      data: { kind: 'writes', shardsNeeded: 4, counter: true },
    },
    {
      name: 'hints win: a hot counter on ScyllaDB',
      code: `-- @cqlint writes=3000/s\n${hits}`,
      at: 'web.page_hits',
      messageId: 'hotCounter',
      target: 'scylladb',
      data: { shardsNeeded: 3, counter: true },
    },
    {
      name: 'hints win: a rate= hint counts as writes on Keyspaces',
      code: `-- @cqlint rate=2000/s\n${posts}`,
      at: 'ks.posts',
      messageId: 'overLimitHinted',
      target: 'keyspaces',
      data: { kind: 'writes', shardsNeeded: 2 },
    },
    {
      name: '-- @cqlint writes= hint',
      code: `-- @cqlint writes=1500/s\n${posts}`,
      at: 'ks.posts',
      messageId: 'overLimitHinted',
      target: 'keyspaces',
      message: /1,500 writes\/s.*1 per write of a \d+ B row/,
      data: { shardsNeeded: 2 },
    },
  ],
};
