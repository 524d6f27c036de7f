// `large-partition`: with a rowsPerPartition hint, the Cassandra data modeling guide's estimate
// (Nv = Nr (Nc - Npk - Ns) + Ns; St = Σpk + Σstatic + Nr (Σregular + Σclustering) + Nv × 8 bytes)
// exceeds the target's partition limits. Also a row above the target's row limit (Keyspaces 1 MB,
// ScyllaDB's 10 MB large-row warning) with or without hints. Without hints: no partition warning.
// The limit named is the one the partition passes first (fewest rows), never a softer one beside a harder.
// With a sample (.cqlint.json `samples`, read before the rules run), the sample's measured partitions
// replace the hint: the rule reports when the sample's largest partition passes a limit, citing the
// sample, and stays silent when it does not (measured rows beat a guess; growth over time is
// unbounded-partition's, which a sample does not silence).
// Data: { table, rowsPerPartition?, estimatedBytes?, estimatedValues?, rowBytes, limit: string,
//         limitValue: number, source: string, rowsAtLimit?: number, target: TargetId, numbers?, sample? }
import { docsUrl } from '../findings';
import { estimatePartition, figuresData, partitionFigures, partitionNumbersText, rowSizes, sampleVerdict, udtLookupFrom, CELL_METADATA_BYTES } from '../sizing';
import { growthRateOf, tableWorkload } from '../schema/workload';
import { formatBytes, formatCount } from '../targets';
import { sampleFindingData } from '../sample-figures';
import type { RuleExamples, RuleModule } from './types';
import { definedTablesAndViews } from './defined-tables';
import type { FindingData } from '../findings-data';

export const rule: RuleModule = {
  meta: {
    id: 'large-partition',
    defaultSeverity: 'warning',
    description: "Estimated partition (or row) size above the target's limits, from workload hints or a sample of real rows.",
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
          message: `rows of ${table.qualifiedName} are too large: about ${formatBytes(perRow)} each, over ${target.name}'s limit`,
          details: `The estimate is above ${target.name}'s ${target.rowBytes.label} (${target.rowBytes.source}).\n\nSplit the large values into rows of their own (chunks in a clustering column).`,
          range,
          data: { ...base, limit: target.rowBytes.label, limitValue: target.rowBytes.value, source: target.rowBytes.source } satisfies FindingData<'large-partition'>,
        });
      }
      if (!table.clustering.length) continue;
      const sample = ctx.sample(table);
      if (sample) {
        const verdict = sampleVerdict(table, target, hints, udts, sample);
        const [first, ...others] = verdict.over;
        if (!first) continue;
        const figures = partitionFigures(table, target, hints, udts, growthRateOf(tableWorkload(table, hints)));
        const also = others.length ? ` (and ${others.map((o) => o.limit.label).join(', ')})` : '';
        const what = first.limit.measure === 'bytes' ? formatBytes(first.measured) : `${formatCount(first.measured)} rows`;
        ctx.report({
          message: `partitions of ${table.qualifiedName} are too large: the largest in the sample holds ${what}`,
          details:
            `Measured ${verdict.text}; the largest partition (${what}) is past ${target.name}'s ${first.limit.label}${also}.\n\n` +
            `Split partitions with a bucket in the partition key.\n\n${partitionNumbersText(figures)}`,
          range,
          data: {
            ...base,
            limit: first.limit.label,
            limitValue: first.limit.value,
            source: first.limit.source,
            rowsAtLimit: first.limit.rows,
            numbers: figuresData(figures),
            sample: sampleFindingData(sample),
          } satisfies FindingData<'large-partition'>,
        });
        continue;
      }
      const rows = hints?.rowsPerPartition;
      if (rows === undefined) continue;
      const est = estimatePartition(table, rows, hints, udts);
      const w = tableWorkload(table, hints);
      const figures = partitionFigures(table, target, hints, udts, growthRateOf(w));
      // Every limit the hinted partition passes, the one hit first first (figures.limits is sorted).
      const over = figures.limits.filter((l) => rows > l.rows);
      if (!over.length) continue;
      const first = over[0]!;
      const also = over.length > 1 ? ` (and ${over.slice(1).map((o) => `${o.label} at ${formatCount(o.rows)} rows`).join(', ')})` : '';
      ctx.report({
        message: `partitions of ${table.qualifiedName} are too large: ${formatCount(rows)} rows each is about ${formatBytes(est.bytes)}`,
        details:
          `${formatCount(rows)} rows per partition ≈ ${formatBytes(est.bytes)} and ${formatCount(est.values)} values, past ${target.name}'s ${first.label}, reached at about ${formatCount(first.rows)} rows${also}.\n\n` +
          `Split partitions with a bucket in the partition key.\n\n${partitionNumbersText(figures)}`,
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

/** 25 int values a row: Cassandra's 100,000 values per partition are reached at 4,000 rows. */
const wide = `CREATE TABLE ks.metrics_by_host (host text, ts timestamp, ${Array.from({ length: 25 }, (_, i) => `m${i + 1} int`).join(', ')}, PRIMARY KEY (host, ts));`;
/** A cqlsh COPY of ks.metrics_by_host (header line first): `rows` rows in each named partition. */
function metricsCsv(partitions: Record<string, number>): string {
  const header = ['host', 'ts', ...Array.from({ length: 25 }, (_, i) => `m${i + 1}`)].join(',');
  const lines = [header];
  for (const [host, rows] of Object.entries(partitions)) {
    for (let i = 0; i < rows; i++) lines.push(`${host},${new Date(Date.UTC(2024, 0, 1) + i * 1000).toISOString().replace('T', ' ').replace('Z', '+0000')},${Array(25).fill(i % 100).join(',')}`);
  }
  return lines.join('\n');
}

export const examples: RuleExamples = {
  valid: [
    { name: 'no hints, no warning', code: readings },
    { name: 'small partitions', code: readings, config: { tables: { 'ks.readings': { rowsPerPartition: 1000 } } } },
    { name: 'Keyspaces has no partition size limit', code: readings, target: 'keyspaces', config: { tables: { 'ks.readings': { rowsPerPartition: 5_000_000 } } } },
    {
      name: 'a sample whose partitions are all under the limits: measured rows beat the 2,000,000-row hint, and the rule is silent',
      code: wide,
      config: { tables: { 'ks.metrics_by_host': { rowsPerPartition: 2_000_000 } } },
      sample: { table: 'ks.metrics_by_host', csv: () => metricsCsv({ web1: 300, web2: 120, db1: 40 }) },
    },
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
      name: 'a sample with a huge partition: fires without any hint, citing the sample',
      code: wide,
      sample: { table: 'ks.metrics_by_host', csv: () => metricsCsv({ web1: 4500, web2: 12, db1: 3 }) },
      message: /^partitions of ks\.metrics_by_host are too large: the largest in the sample holds 4,500 rows Measured from sample samples\/sample\.csv: 3 partitions, largest 4,500 rows \/ 1\.3 MB; the largest partition \(4,500 rows\) is past Apache Cassandra's 100,000 values per partition\./,
      data: { limit: '100,000 values per partition', rowsAtLimit: 4000, sample: { file: '/virtual/cqlint-tests/samples/sample.csv', partitions: 3, maxRows: 4500, maxBytes: 4500 * (8 + 25 * 4 + 25 * 8) + 32, p99Rows: 4500, p99Bytes: 4500 * (8 + 25 * 4 + 25 * 8) + 32 } },
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
