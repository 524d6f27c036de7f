// `partition-throughput`: with writesPerSecondPerPartition / readsPerSecondPerPartition hints, the
// per-partition traffic exceeds the target's per-partition limits (Keyspaces 1,000 WCU / 3,000 RCU,
// Cosmos DB 10,000 RU/s); the message says how many shards would spread it.
// Hints come from .cqlint.json `tables` or a `-- @cqlint writes=2000/s reads=500/s` comment above the table.
// Data: { table, target, kind: 'writes' | 'reads', perSecond, unitsPerSecond, unit, limit, shardsNeeded, source, partitionKey: string[], numbers }
import { docsUrl } from '../findings';
import { figuresData, partitionFigures, throughputEstimates, udtLookupFrom } from '../sizing';
import { growthRateOf, tableWorkload } from '../schema/workload';
import { formatBytes, formatCount } from '../targets';
import type { RuleExamples, RuleModule } from './types';
import { definedTablesAndViews } from './defined-tables';
import { keyText } from '../util/statements';
import type { FindingData } from '../findings-data';

export const rule: RuleModule = {
  meta: {
    id: 'partition-throughput',
    defaultSeverity: 'warning',
    description: "Per-partition reads or writes (from workload hints) above the target's per-partition limit.",
    docsUrl: docsUrl('partition-throughput'),
    scope: 'statement',
  },
  check(ctx) {
    const udts = udtLookupFrom(ctx);
    for (const { stmt, table } of definedTablesAndViews(ctx)) {
      const hints = ctx.hints(table);
      if (!hints) continue;
      const estimates = throughputEstimates(table, ctx.target, hints, udts);
      if (!estimates.some((t) => t.shardsNeeded > 1)) continue;
      const figures = partitionFigures(table, ctx.target, hints, udts, growthRateOf(tableWorkload(table, hints)));
      for (const t of estimates) {
        if (t.shardsNeeded <= 1) continue;
        const pk = table.partitionKey.map((c) => c.name);
        const already = table.shard ? ` (already sharded ${table.shard.count} ways: the hint is per shard partition)` : '';
        ctx.report({
          message:
            `${formatCount(t.perSecond)} ${t.kind}/s on one partition of ${table.qualifiedName} ≈ ${formatCount(t.unitsPerSecond)} ${t.unit} (${formatCount(t.unitsPerSecond / t.perSecond)} per ${t.kind === 'writes' ? 'write' : 'read'} of a ${formatBytes(figures.rowBytes)} row), above ${ctx.target.name}'s ${t.label} (${t.source})${already}. ` +
            `Spread it over at least ${t.shardsNeeded} shards: partition key ${keyText([...pk, 'shard'], table.clustering.map((c) => c.name))}`,
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
          } satisfies FindingData<'partition-throughput'>,
        });
      }
    }
  },
};

const posts = 'CREATE TABLE ks.posts (day date, id timeuuid, body text, PRIMARY KEY (day, id));';

export const examples: RuleExamples = {
  valid: [
    { name: 'no hints', code: posts, target: 'keyspaces' },
    { name: 'within limits', code: posts, target: 'keyspaces', config: { tables: { 'ks.posts': { writesPerSecondPerPartition: 500 } } } },
    { name: 'Cassandra has no per-partition quota', code: posts, config: { tables: { 'ks.posts': { writesPerSecondPerPartition: 50_000 } } } },
  ],
  invalid: [
    {
      code: posts,
      target: 'keyspaces',
      config: { tables: { 'ks.posts': { writesPerSecondPerPartition: 2000, readsPerSecondPerPartition: 100 } } },
      message: /1,000 WCU per partition.*at least 2 shards/,
      data: { kind: 'writes', shardsNeeded: 2, unit: 'WCU' },
    },
    {
      code: posts,
      target: 'keyspaces',
      config: { tables: { 'ks.posts': { readsPerSecondPerPartition: 10_000, columnSizes: { body: 6000 } } } },
      data: { kind: 'reads', unitsPerSecond: 20_000, shardsNeeded: 7 },
    },
    { code: posts, target: 'cosmosdb', config: { tables: { 'ks.posts': { writesPerSecondPerPartition: 3000 } } }, message: /15,000 RU\/s \(5 per write of a \d+ B row\), above Azure Cosmos DB for Apache Cassandra's 10,000 RU\/s per partition/ },
    { name: '-- @cqlint writes= hint', code: `-- @cqlint writes=1500/s\n${posts}`, target: 'keyspaces', message: /1,500 writes\/s.*1 per write of a \d+ B row/, data: { shardsNeeded: 2 } },
  ],
};
