// `large-partition`: with a rowsPerPartition hint, the Cassandra data modeling guide's estimate
// (Nv = Nr (Nc - Npk - Ns) + Ns; St = Σpk + Σstatic + Nr (Σregular + Σclustering) + Nv × 8 bytes)
// exceeds the target's partition limits. Also a row above the target's row limit (Keyspaces 1 MB,
// ScyllaDB's 10 MB large-row warning) with or without hints. Without hints: no partition warning.
// Data: { table, rowsPerPartition?, estimatedBytes?, estimatedValues?, rowBytes, limit: string,
//         limitValue: number, source: string, rowsAtLimit?: number, target: TargetId }
import { docsUrl } from '../findings';
import { estimatePartition, rowSizes, rowsToReachBytes, rowsToReachValues, udtLookupFrom, CELL_METADATA_BYTES } from '../sizing';
import { formatBytes, formatCount } from '../targets';
import type { RuleExamples, RuleModule } from './types';
import { definedTablesAndViews } from './defined-tables';

export const rule: RuleModule = {
  meta: {
    id: 'large-partition',
    defaultSeverity: 'warning',
    description: "Estimated partition (or row) size above the target's limits, from workload hints.",
    docsUrl: docsUrl('large-partition'),
    scope: 'statement',
  },
  check(ctx) {
    const udts = udtLookupFrom(ctx.schema);
    const target = ctx.target;
    for (const { stmt, table } of definedTablesAndViews(ctx)) {
      const hints = ctx.hints(table);
      const range = stmt.name.range;
      const sizes = rowSizes(table, hints, udts);
      const perRow = sizes.rowBytes + sizes.valuesPerRow * CELL_METADATA_BYTES;
      const base = { table: table.qualifiedName, target: target.id, rowBytes: perRow };
      if (target.rowBytes && perRow > target.rowBytes.value) {
        ctx.report({
          message: `a row of ${table.qualifiedName} is estimated at ${formatBytes(perRow)}, above ${target.name}'s ${target.rowBytes.label} (${target.rowBytes.source})`,
          range,
          data: { ...base, limit: target.rowBytes.label, limitValue: target.rowBytes.value, source: target.rowBytes.source },
        });
      }
      const rows = hints?.rowsPerPartition;
      if (rows === undefined || !table.clustering.length) continue;
      const est = estimatePartition(table, rows, hints, udts);
      const over: { label: string; value: number; source: string; rowsAtLimit: number }[] = [];
      if (Number.isFinite(target.partitionBytes.value) && est.bytes > target.partitionBytes.value) {
        over.push({ ...target.partitionBytes, rowsAtLimit: rowsToReachBytes(sizes, target.partitionBytes.value) });
      }
      if (target.partitionRows) {
        // Cassandra's guidance counts values (cells); ScyllaDB's warning counts rows.
        const counted = target.id === 'cassandra' ? est.values : est.rows;
        if (counted > target.partitionRows.value) {
          const at = target.id === 'cassandra' ? rowsToReachValues(sizes, target.partitionRows.value) : target.partitionRows.value;
          over.push({ ...target.partitionRows, rowsAtLimit: at });
        }
      }
      if (!over.length) continue;
      const first = over[0]!;
      const ideal = target.idealPartitionBytes ? `; ${target.idealPartitionBytes.label}` : '';
      ctx.report({
        message:
          `${table.qualifiedName}: ${formatCount(rows)} rows per partition ≈ ${formatBytes(est.bytes)} and ${formatCount(est.values)} values, above ${target.name}'s ${over.map((o) => o.label).join(' and ')}${ideal} ` +
          `(reached at about ${formatCount(first.rowsAtLimit)} rows). Split partitions with a bucket in the partition key`,
        range,
        data: {
          ...base,
          rowsPerPartition: rows,
          estimatedBytes: est.bytes,
          estimatedValues: est.values,
          limit: first.label,
          limitValue: first.value,
          source: first.source,
          rowsAtLimit: first.rowsAtLimit,
        },
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
      name: 'Cassandra: 2 M rows of ~72 B',
      code: readings,
      config: { tables: { 'ks.readings': { rowsPerPartition: 2_000_000 } } },
      message: /100 MB per partition/,
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
      message: /1000 MB/,
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
