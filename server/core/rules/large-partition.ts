// `large-partition`: with a rowsPerPartition hint, the Cassandra data modeling guide's estimate
// (Nv = Nr (Nc - Npk - Ns) + Ns; St = Σpk + Σstatic + Nr (Σregular + Σclustering) + Nv × 8 bytes)
// exceeds the target's partition limits. Also a row above the target's row limit (Keyspaces 1 MB,
// ScyllaDB's 10 MB large-row warning) with or without hints. Without hints: no partition warning.
// The limit named is the one the partition passes first (fewest rows), never a softer one beside a harder.
// Data: { table, rowsPerPartition?, estimatedBytes?, estimatedValues?, rowBytes, limit: string,
//         limitValue: number, source: string, rowsAtLimit?: number, target: TargetId, numbers? }
import { docsUrl } from '../findings';
import { estimatePartition, figuresData, partitionFigures, partitionNumbersText, rowSizes, udtLookupFrom, CELL_METADATA_BYTES } from '../sizing';
import { growthRateOf, tableWorkload } from '../schema/workload';
import { formatBytes, formatCount } from '../targets';
import type { RuleExamples, RuleModule } from './types';
import { definedTablesAndViews } from './defined-tables';
import type { FindingData } from '../findings-data';

export const rule: RuleModule = {
  meta: {
    id: 'large-partition',
    defaultSeverity: 'warning',
    description: "Estimated partition (or row) size above the target's limits, from workload hints.",
    docsUrl: docsUrl('large-partition'),
    scope: 'statement',
  },
  check(ctx) {
    const udts = udtLookupFrom(ctx);
    const target = ctx.target;
    for (const { stmt, table } of definedTablesAndViews(ctx)) {
      const hints = ctx.hints(table);
      const range = stmt.name.range;
      const sizes = rowSizes(table, hints, udts);
      const perRow = sizes.rowBytes + sizes.valuesPerRow * CELL_METADATA_BYTES;
      const base = { table: table.qualifiedName, target: target.id, rowBytes: perRow };
      if (target.rowBytes && perRow > target.rowBytes.value) {
        ctx.report({
          message: `a row of ${table.qualifiedName} is estimated at ${formatBytes(perRow)}, above ${target.name}'s ${target.rowBytes.label} (${target.rowBytes.source}): split the large values into rows of their own (chunks in a clustering column)`,
          range,
          data: { ...base, limit: target.rowBytes.label, limitValue: target.rowBytes.value, source: target.rowBytes.source } satisfies FindingData<'large-partition'>,
        });
      }
      const rows = hints?.rowsPerPartition;
      if (rows === undefined || !table.clustering.length) continue;
      const est = estimatePartition(table, rows, hints, udts);
      const w = tableWorkload(table, hints);
      const figures = partitionFigures(table, target, hints, udts, growthRateOf(w));
      // Every limit the hinted partition passes, the one hit first first (figures.limits is sorted).
      const over = figures.limits.filter((l) => rows > l.rows);
      if (!over.length) continue;
      const first = over[0]!;
      const also = over.length > 1 ? ` (and ${over.slice(1).map((o) => `${o.label} at ${formatCount(o.rows)} rows`).join(', ')})` : '';
      ctx.report({
        message:
          `${table.qualifiedName}: ${formatCount(rows)} rows per partition ≈ ${formatBytes(est.bytes)} and ${formatCount(est.values)} values, past ${target.name}'s ${first.label}, reached at about ${formatCount(first.rows)} rows${also}. ` +
          `Split partitions with a bucket in the partition key. ${partitionNumbersText(figures)}`,
        range,
        data: {
          ...base,
          rowsPerPartition: rows,
          estimatedBytes: est.bytes,
          estimatedValues: est.values,
          limit: first.label,
          limitValue: first.value,
          source: first.source,
          rowsAtLimit: first.rows,
          numbers: figuresData(figures),
        } satisfies FindingData<'large-partition'>,
      });
    }
  },
};

const readings = 'CREATE TABLE ks.readings (sensor_id uuid, day date, ts timestamp, value double, note text, PRIMARY KEY ((sensor_id, day), ts));';

export const examples: RuleExamples = {
  valid: [
    { name: 'no hints, no warning', code: readings },
    { name: 'small partitions', code: readings, config: { tables: { 'ks.readings': { rowsPerPartition: 1000 } } } },
    { name: 'Keyspaces has no partition size limit', code: readings, target: 'keyspaces', config: { tables: { 'ks.readings': { rowsPerPartition: 5_000_000 } } } },
  ],
  invalid: [
    {
      name: 'Cassandra: 2 M rows of ~72 B: the values guidance is hit first, the 100 MB limit after',
      code: readings,
      config: { tables: { 'ks.readings': { rowsPerPartition: 2_000_000 } } },
      message: /past Apache Cassandra's 100,000 values per partition, reached at about 50,000 rows \(and 100 MB per partition at [\d,]+ rows\)/,
      data: { rowsPerPartition: 2_000_000, target: 'cassandra' },
    },
    {
      name: 'Cassandra values guidance',
      code: readings,
      config: { tables: { readings: { rowsPerPartition: 60_000 } } },
      message: /100,000 values per partition/,
    },
    {
      name: 'column size hints',
      code: readings,
      target: 'scylladb',
      config: { tables: { 'ks.readings': { rowsPerPartition: 50_000, columnSizes: { note: 40_000 } } } },
      message: /past ScyllaDB's large-partition warning at 1000 MB, reached at about 26,\d{3} rows/,
    },
    {
      name: 'wide rows: the byte limit binds before the row count',
      code: 'CREATE TABLE ks.docs_by_owner (owner_id uuid, doc_id timeuuid, body text, PRIMARY KEY (owner_id, doc_id));',
      config: { tables: { 'ks.docs_by_owner': { rowsPerPartition: 80_000, columnSizes: { body: 5000 } } } },
      message: /past Apache Cassandra's 100 MB per partition, reached at about 20,\d{3} rows\./,
      data: { limit: '100 MB per partition' },
    },
    {
      name: '-- @cqlint rows= hint',
      code: `-- @cqlint rows=2000000\n${readings}`,
      message: /2,000,000 rows per partition/,
    },
    {
      name: 'Keyspaces 1 MB row',
      code: 'CREATE TABLE ks.docs (id uuid PRIMARY KEY, body blob);',
      target: 'keyspaces',
      config: { tables: { 'ks.docs': { columnSizes: { body: 2_000_000 } } } },
      message: /1 MB per row/,
    },
  ],
};
