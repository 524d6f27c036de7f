// `large-partition`: with a rowsPerPartition hint, the Cassandra data modeling guide's estimate
// (Nv = Nr (Nc - Npk - Ns) + Ns; St = Σpk + Σstatic + Nr (Σregular + Σclustering) + Nv × 8 bytes)
// exceeds the target's partition limits. Also a row above the target's row limit (Keyspaces 1 MB,
// ScyllaDB's 10 MB large-row warning) with or without hints. Without hints: no partition warning.
// The limit named is the one the partition passes first (fewest rows), never a softer one beside a harder.
// With a sample (.cqlint.json `samples`, read before the rules run), the sample's measured partitions
// replace the hint: the rule reports when the sample's largest partition passes a limit, citing the
// sample, and stays silent when it does not (measured rows beat a guess; growth over time is
// unbounded-partition's, which a sample does not silence).
// With evidence (.cqlint.json `evidence`: nodetool, dsbulk, system tables), the measured largest partition
// (bytes, cells, rows) wins over a sample and the hints: the rule reports when it is past a limit, quoting
// the source line, and stays silent when it is not. A measured large row (ScyllaDB large_rows) likewise
// replaces the estimated row.
// Without a rowsPerPartition hint, a time bucket in the key is judged against the rate (sizing.ts
// bucketFit): one bucket's rows (hinted or default rate × bucket length) past the limit hit first is
// reported here, with a smaller bucket or the shard count that fits. At a default rate on a key many
// entities share (a bucket alone, an enum) the verdict is hot-partition's, whose message states the same rows.
import { CELL_METADATA_BYTES, bucketFitText, figuresData, partitionNumbersText, rowSizes } from '../partition/sizing';
import { formatBytes, formatCount, formatDuration, formatRate } from '../util/format';
import { sampleFindingData } from '../partition/sample';
import { citeText, evidenceFindingData, valueText } from '../evidence';
import { measuredOverText } from '../partition/measured';
import type { MessageIdOf, RuleContext, RuleExamples, RuleModule } from './types';
import { withLatestTableOrView } from './defined-tables';
import type { FindingData } from '../findings/findings-data';
import { tablestatsOutput } from '../../../test/helpers/example-evidence';
import { targetUnderCluster } from './guardrail-text';
import { partitionInputs, type PartitionInputs } from '../partition/inputs';
import { sizeVerdict, workloadOf, type SizeVerdict } from '../partition/verdicts';
import { cureAdvice, partitionPlans, type PlanDemand } from '../partition/planner';
import type { TableInfo } from '../schema/model';
import type { TableWorkload } from '../schema/workload';

/** Judges the table or view a CREATE statement defines, as its ALTERs left it. */
type MessageId =
  | 'rowMeasured'
  | 'rowEstimated'
  | 'partitionMeasured'
  | 'partitionSampled'
  | 'bucketTooCoarse'
  | 'partitionHinted'
  | 'ttlKeepsTooMany';

const checkTable = withLatestTableOrView<MessageId>((stmt, table, ctx) => {
  // The team's own partition and row thresholds (its cassandra.yaml or scylla.yaml) over the target's.
  const target = targetUnderCluster(ctx.target, ctx.cluster());
  // The verdicts and the plans measure against the same limits: the team's thresholds where it has them. The
  // row is sized with the run's user type lookup and the hints the verdicts read (partitionInputs): the row
  // the figures below and the other partition rules size, not sized again for a lookup of its own.
  const inputs = partitionInputs(ctx, table, target);
  const range = stmt.name.range;
  const sizes = rowSizes(table, inputs.hints, inputs.udts);
  const perRow = sizes.rowBytes + sizes.valuesPerRow * CELL_METADATA_BYTES;
  const base = { table: table.qualifiedName, target: target.id, rowBytes: perRow };
  const evidence = ctx.evidence(table);
  const measuredRow = evidence?.maxRowBytes;
  if (target.rowBytes && measuredRow && measuredRow.value > target.rowBytes.value) {
    ctx.report({
      messageId: 'rowMeasured',
      values: { table: table.qualifiedName, size: formatBytes(measuredRow.value), target: target.name },
      details: `Measured on the cluster: ${citeText(measuredRow)}, above ${target.name}'s ${target.rowBytes.label} (${target.rowBytes.source}).\n\nSplit the large values into rows of their own (chunks in a clustering column).`,
      range,
      data: {
        ...base,
        limit: target.rowBytes.label,
        limitValue: target.rowBytes.value,
        source: target.rowBytes.source,
        evidence: evidenceFindingData(measuredRow),
      } satisfies FindingData<'large-partition'>,
    });
  } else if (target.rowBytes && !measuredRow && perRow > target.rowBytes.value) {
    ctx.report({
      messageId: 'rowEstimated',
      values: { table: table.qualifiedName, size: formatBytes(perRow), target: target.name },
      details: `The estimate is above ${target.name}'s ${target.rowBytes.label} (${target.rowBytes.source}).\n\nSplit the large values into rows of their own (chunks in a clustering column).`,
      range,
      data: {
        ...base,
        limit: target.rowBytes.label,
        limitValue: target.rowBytes.value,
        source: target.rowBytes.source,
      } satisfies FindingData<'large-partition'>,
    });
  }
  if (!table.clustering.length) return;
  const w = workloadOf(inputs);
  const verdict = sizeVerdict(inputs, w);
  if (!verdict) return;
  reportSize(ctx, stmt.name.range, table, inputs, w, verdict, base);
});

/** What a size verdict asks of the plans: a bucket where rows arrive by time (sized at the rate), else shards sized from the partition. */
function demandOf(w: TableWorkload, verdict: SizeVerdict, size: PlanDemand['size']): PlanDemand {
  if (verdict.kind === 'bucket')
    return {
      rule: 'large-partition',
      coarseBucket: { column: verdict.fit.column, seconds: verdict.fit.bucketSeconds },
    };
  // A rows= hint states a size a bucket would not change: shards. Otherwise a partition whose rows arrive by
  // time (measured, sampled, or kept by a TTL) needs a bound, not shards that only postpone it: a bucket, or
  // a finer one beside a bucket of the key already too coarse (a day of 1.3 GB).
  if (verdict.kind !== 'hinted' && w.growth?.by === 'time') {
    if (w.bound.kind === 'bucket' && w.bound.bucketSeconds !== undefined)
      return { rule: 'large-partition', coarseBucket: { column: w.bound.column!, seconds: w.bound.bucketSeconds } };
    if (w.bound.kind !== 'bucket') return { rule: 'large-partition', growth: { timeColumn: w.growth.column.name } };
  }
  return { rule: 'large-partition', spread: true, size };
}

/** The advice sentence from the first plan, or the generic one when the table gets none (a view). */
function adviceOf(table: TableInfo, plans: ReturnType<typeof partitionPlans>): string {
  const plan = plans[0];
  return plan ? `${cureAdvice(table, plan)}.` : 'Split partitions with a bucket in the partition key.';
}

function reportSize(
  ctx: RuleContext<MessageId>,
  range: { start: number; end: number },
  table: TableInfo,
  inputs: PartitionInputs,
  w: TableWorkload,
  verdict: SizeVerdict,
  base: { table: string; target: FindingData<'large-partition'>['target']; rowBytes: number },
): void {
  const target = inputs.target;
  const figures = verdict.figures;
  if (verdict.kind === 'measured') {
    const first = verdict.over[0]!;
    // A measured partition size, in the limit's own measure: its bytes as such, cells as the rows they make.
    const m = first.measured;
    const rows =
      m.unit === 'rows'
        ? m.value
        : m.unit === 'cells' && first.limitValue > 0
          ? (m.value / first.limitValue) * first.rowsAtLimit
          : undefined;
    const plans = partitionPlans(
      inputs,
      demandOf(
        w,
        verdict,
        m.unit === 'bytes'
          ? { bytes: m.value, limitBytes: first.limitValue }
          : rows !== undefined
            ? { rows, rowsLimit: first.rowsAtLimit }
            : undefined,
      ),
    );
    ctx.report({
      messageId: 'partitionMeasured',
      values: { table: table.qualifiedName, size: valueText(first.measured.value, first.measured.unit) },
      details: `${measuredOverText(verdict.over, target.name).replace(/^measured/, 'Measured')}.\n\n${adviceOf(table, plans)}\n\n${partitionNumbersText(figures)}`,
      range,
      data: {
        ...base,
        limit: first.limitLabel,
        limitValue: first.limitValue,
        source: first.limitSource,
        rowsAtLimit: first.rowsAtLimit,
        numbers: figuresData(figures),
        evidence: evidenceFindingData(first.measured),
        plans,
      } satisfies FindingData<'large-partition'>,
    });
    return;
  }
  if (verdict.kind === 'sampled') {
    const [first, ...others] = verdict.over;
    const also = others.length ? ` (and ${others.map((o) => o.limit.label).join(', ')})` : '';
    const what =
      first!.limit.measure === 'bytes' ? formatBytes(first!.measured) : `${formatCount(first!.measured)} rows`;
    const sample = verdict.verdict.sample;
    const plans = partitionPlans(
      inputs,
      demandOf(w, verdict, { rows: sample.rowsPerPartition.max, rowsLimit: first!.limit.rows }),
    );
    ctx.report({
      messageId: 'partitionSampled',
      values: { table: table.qualifiedName, size: what },
      details:
        `Measured ${verdict.verdict.text}; the largest partition (${what}) is past ${target.name}'s ${first!.limit.label}${also}.\n\n` +
        `${adviceOf(table, plans)}\n\n${partitionNumbersText(figures)}`,
      range,
      data: {
        ...base,
        limit: first!.limit.label,
        limitValue: first!.limit.value,
        source: first!.limit.source,
        rowsAtLimit: first!.limit.rows,
        numbers: figuresData(figures),
        sample: sampleFindingData(sample),
        plans,
      } satisfies FindingData<'large-partition'>,
    });
    return;
  }
  if (verdict.kind === 'bucket') {
    const fit = verdict.fit;
    const plans = partitionPlans(inputs, demandOf(w, verdict, undefined));
    ctx.report({
      messageId: 'bucketTooCoarse',
      values: { table: table.qualifiedName, bucket: fit.column, rate: formatRate(fit.rowsPerSecond) },
      details: `${sentence(
        bucketFitText(
          fit,
          table.partitionKey.map((c) => c.name),
        ),
      )}.\n\n${adviceOf(table, plans)}\n\n${partitionNumbersText(figures, { rate: false })}`,
      range,
      data: {
        ...base,
        limit: fit.limit.label,
        limitValue: figures.binding!.value,
        source: fit.limit.source,
        rowsAtLimit: fit.limit.rows,
        estimatedBytes: fit.bytesPerBucket,
        estimatedValues: fit.valuesPerBucket,
        numbers: figuresData(figures),
        bucket: {
          column: fit.column,
          bucketSeconds: fit.bucketSeconds,
          rowsPerSecond: fit.rowsPerSecond,
          rateHinted: fit.rateHinted,
          rateSource: fit.rateSource,
          rowsPerBucket: fit.rowsPerBucket,
          valuesPerBucket: fit.valuesPerBucket,
          bytesPerBucket: fit.bytesPerBucket,
          rowsAtLimit: fit.limit.rows,
          secondsToLimit: Math.round(fit.secondsToLimit!),
        },
        plans,
      } satisfies FindingData<'large-partition'>,
    });
    return;
  }
  // A rows= hint, or the rows a TTL keeps: every limit the partition passes, the one hit first first.
  const first = verdict.over[0]!;
  const also =
    verdict.over.length > 1
      ? ` (and ${verdict.over
          .slice(1)
          .map((o) => `${o.label} at ${formatCount(o.rows)} rows`)
          .join(', ')})`
      : '';
  const plans = partitionPlans(inputs, demandOf(w, verdict, { rows: verdict.rows, rowsLimit: first.rows }));
  const common = {
    ...base,
    estimatedBytes: verdict.bytes,
    estimatedValues: verdict.values,
    limit: first.label,
    limitValue: first.value,
    source: first.source,
    rowsAtLimit: first.rows,
    numbers: figuresData(figures),
    plans,
  };
  if (verdict.kind === 'ttl') {
    ctx.report({
      messageId: 'ttlKeepsTooMany',
      values: { table: table.qualifiedName, rows: formatCount(verdict.rows), size: formatBytes(verdict.bytes) },
      details:
        `Its ${verdict.ttl.source} of ${formatDuration(verdict.ttl.seconds)} bounds each partition, at ${formatCount(verdict.rows)} rows at ${formatRate(figures.rowsPerSecond ?? 0)} (${figures.rateNote}) ≈ ${formatBytes(verdict.bytes)} and ${formatCount(verdict.values)} values: past ${target.name}'s ${first.label}, reached at about ${formatCount(first.rows)} rows${also}.\n\n` +
        `${adviceOf(table, plans)} Or shorten the TTL.\n\n${partitionNumbersText(figures, { rate: false })}`,
      range,
      data: {
        ...common,
        ttl: { seconds: verdict.ttl.seconds, source: verdict.ttl.source, rowsKept: verdict.rows },
      } satisfies FindingData<'large-partition'>,
    });
    return;
  }
  ctx.report({
    messageId: 'partitionHinted',
    values: { table: table.qualifiedName, rows: formatCount(verdict.rows), size: formatBytes(verdict.bytes) },
    details:
      `${formatCount(verdict.rows)} rows per partition (hinted) ≈ ${formatBytes(verdict.bytes)} and ${formatCount(verdict.values)} values, past ${target.name}'s ${first.label}, reached at about ${formatCount(first.rows)} rows${also}.\n\n` +
      // The hint states the size: how long growth would take to reach it says nothing more.
      `${adviceOf(table, plans)}\n\n${partitionNumbersText(figures, { rate: false })}`,
    range,
    data: { ...common, rowsPerPartition: verdict.rows } satisfies FindingData<'large-partition'>,
  });
}

export const rule: RuleModule<MessageId> = {
  meta: {
    id: 'large-partition',
    defaultSeverity: 'warning',
    description:
      "Partition (or row) size above the target's limits: measured on the cluster (evidence), in a sample of real rows, estimated from workload hints, or a time bucket too coarse for the rate.",
    messages: {
      rowMeasured: "rows of {{table}} are too large: one measured on the cluster is {{size}}, over {{target}}'s limit",
      rowEstimated: "rows of {{table}} are too large: about {{size}} each, over {{target}}'s limit",
      partitionMeasured: 'partitions of {{table}} are too large: the largest measured on the cluster holds {{size}}',
      partitionSampled: 'partitions of {{table}} are too large: the largest in the sample holds {{size}}',
      bucketTooCoarse: 'partitions of {{table}} are too large: the time bucket {{bucket}} is too coarse for {{rate}}',
      partitionHinted: 'partitions of {{table}} are too large: {{rows}} rows each is about {{size}}',
      ttlKeepsTooMany: 'partitions of {{table}} are too large: the TTL keeps about {{rows}} rows ({{size}}) in each',
    },
    scope: 'statement',
  },
  handlers: { CreateTable: checkTable, CreateMaterializedView: checkTable },
};

const readings =
  'CREATE TABLE ks.readings (sensor_id uuid, day date, ts timestamp, value double, note text, PRIMARY KEY ((sensor_id, day), ts));';
const hourly =
  'CREATE TABLE iot.readings_by_hour (sensor_id uuid, hour timestamp, ts timestamp, value double, PRIMARY KEY ((sensor_id, hour), ts));';

/** A clause as a sentence: its first letter capitalised. */
function sentence(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** 25 int values a row: Cassandra's 100,000 values per partition are reached at 4,000 rows. */
const wide = `CREATE TABLE ks.metrics_by_host (host text, ts timestamp, ${Array.from({ length: 25 }, (_, i) => `m${i + 1} int`).join(', ')}, PRIMARY KEY (host, ts));`;
/** A cqlsh COPY of ks.metrics_by_host (header line first): `rows` rows in each named partition. */
function metricsCsv(partitions: Record<string, number>): string {
  const header = ['host', 'ts', ...Array.from({ length: 25 }, (_, i) => `m${i + 1}`)].join(',');
  const lines = [header];
  for (const [host, rows] of Object.entries(partitions)) {
    for (let i = 0; i < rows; i++)
      lines.push(
        `${host},${new Date(Date.UTC(2024, 0, 1) + i * 1000).toISOString().replace('T', ' ').replace('Z', '+0000')},${Array(
          25,
        )
          .fill(i % 100)
          .join(',')}`,
      );
  }
  return lines.join('\n');
}

export const examples: RuleExamples<MessageIdOf<typeof rule>> = {
  valid: [
    { name: 'no hints, no warning', code: readings },
    { name: 'small partitions', code: readings, config: { tables: { 'ks.readings': { rowsPerPartition: 1000 } } } },
    {
      name: 'Keyspaces has no partition size limit',
      code: readings,
      target: 'keyspaces',
      config: { tables: { 'ks.readings': { rowsPerPartition: 5_000_000 } } },
    },
    {
      name: 'bucket fit: an hour bucket at a hinted 20 rows/s holds 72,000 one-value rows',
      code: `-- @cqlint rate=20/s\n${hourly}`,
    },
    { name: 'bucket fit: a day bucket of a sensor at its default rate (1 row/min) fits', code: readings },
    {
      name: 'bucket fit on Keyspaces: no partition size limit',
      code: `-- @cqlint rate=500/s\n${hourly}`,
      target: 'keyspaces',
    },
    {
      name: "bucket fit at a default rate on a key many entities share is hot-partition's verdict",
      code: 'CREATE TABLE ks.posts_by_day (day date, posted_at timestamp, post_id uuid, author text, title text, body text, PRIMARY KEY (day, posted_at, post_id));',
    },
    {
      name: 'a rows= hint states the size: the bucket is not judged again',
      code: `-- @cqlint rate=500/s rows=1000\n${hourly}`,
    },
    {
      name: 'a TTL that keeps fewer rows than the limit bounds the partition under it',
      code: '-- @cqlint rate=1/s\nCREATE TABLE ks.readings (sensor_id uuid, reading_time timestamp, value double, PRIMARY KEY (sensor_id, reading_time)) WITH default_time_to_live = 3600;',
    },
    {
      name: 'a sample whose partitions are all under the limits: measured rows beat the 2,000,000-row hint, and the rule is silent',
      code: wide,
      config: { tables: { 'ks.metrics_by_host': { rowsPerPartition: 2_000_000 } } },
      sample: { table: 'ks.metrics_by_host', csv: () => metricsCsv({ web1: 300, web2: 120, db1: 40 }) },
    },
    {
      name: 'evidence of small partitions on the cluster: the measured 4.7 KB beats the 2,000,000-row hint',
      code: readings,
      config: { tables: { 'ks.readings': { rowsPerPartition: 2_000_000 } } },
      evidence: { 'node3.txt': tablestatsOutput('ks.readings', 4768) },
    },
  ],
  invalid: [
    {
      name: 'ScyllaDB evidence: system.large_rows recorded a 12 MB row, over the large-row warning',
      code: 'CREATE TABLE shop.carts (cart_id uuid, item int, payload blob, PRIMARY KEY (cart_id, item));',
      at: 'shop.carts',
      target: 'scylladb',
      evidence: {
        'large-rows.csv':
          '# node: 10.0.0.6\nkeyspace_name,table_name,sstable_name,row_size,partition_key,clustering_key,compaction_time\n' +
          'shop,carts,me-3gsv-big-Data.db,12582912,"{key: pk{00103f0c2a4e7d2b4c6e9a512b7f4c1d9e80}, token:-3220401724292620430}",7,2026-11-21 04:00:00.000000+0000',
      },
      messageId: 'rowMeasured',
      message: /^rows of shop\.carts are too large: one measured on the cluster is 12 MB, over ScyllaDB's limit/,
    },
    {
      name: 'evidence alone: nodetool tablestats measured a 1.3 GB partition, quoted with its node, date and line',
      code: readings,
      at: 'ks.readings',
      messageId: 'partitionMeasured',
      evidence: { 'node3.txt': tablestatsOutput('ks.readings', 1386179893) },
      message:
        /^partitions of ks\.readings are too large: the largest measured on the cluster holds 1\.3 GB Measured on the cluster: nodetool tablestats, node 10\.0\.0\.3, 2026-11-20: compacted partition maximum 1\.3 GB \(evidence\/node3\.txt:19\); the largest partition \(1\.3 GB\) is past Apache Cassandra's 100 MB per partition\./,
      data: {
        limit: '100 MB per partition',
        evidence: {
          tool: 'nodetool tablestats',
          file: '/virtual/cqlint-tests/evidence/node3.txt',
          line: 19,
          node: '10.0.0.3',
          captured: '2026-11-20',
          label: 'compacted partition maximum',
          value: 1386179893,
          unit: 'bytes',
        },
      },
    },
    {
      name: "evidence alone: a log that grows forever measured at 1.3 GB, with the node's uptime beside the write count: the hour bucket is sized at the rate they give, not the default",
      code: 'CREATE TABLE ks.logs (server text, log_time timeuuid, line text, PRIMARY KEY (server, log_time));',
      at: 'ks.logs',
      messageId: 'partitionMeasured',
      evidence: { 'node3.txt': tablestatsOutput('ks.logs', 1386179893, { uptimeSeconds: 2_592_000 }) },
      message:
        /Add a time bucket hour timestamp \(hourly partitions by log_time\) to the partition key: \(\(server, hour\), log_time\) \(no key change cures it alone: after it, the captures of the deployed table still show its 1\.3 GB partition until it is captured again\)\..*at 58\.1 rows\/min \(measured: 183,224,312 local writes over the node's 30 days uptime \(evidence\/node3\.txt\) at the largest partition's 1\.4% of the table's bytes\)/,
    },
    {
      name: 'ScyllaDB evidence: system.large_partitions recorded 1,480,000 rows in one partition',
      code: readings,
      at: 'ks.readings',
      messageId: 'partitionMeasured',
      target: 'scylladb',
      evidence: {
        'large.csv':
          '# node: 10.0.0.6\n# captured: 2026-11-21\nkeyspace_name,table_name,sstable_name,partition_size,partition_key,rows,compaction_time\n' +
          'ks,readings,me-1-big-Data.db,524288000,"{key: pk{001000000000000000000000000000000001000480005128}, token:7562025683505305289}",1480000,2026-11-21 03:12:40.000000+0000\n',
      },
      message:
        /^partitions of ks\.readings are too large: the largest measured on the cluster holds 1,480,000 rows Measured on the cluster: system\.large_partitions, node 10\.0\.0\.6, 2026-11-21: rows of large partition \(00000000-0000-0000-0000-000000000001, '2026-11-19'\) 1,480,000 rows \(evidence\/large\.csv:4\); the largest partition \(1,480,000 rows\) is past ScyllaDB's large-partition warning at 100,000 rows/,
    },
    {
      name: 'Cassandra: 2 M rows of ~72 B: the values guidance is hit first, the 100 MB limit after',
      code: readings,
      at: 'ks.readings',
      messageId: 'partitionHinted',
      config: { tables: { 'ks.readings': { rowsPerPartition: 2_000_000 } } },
      message:
        /past Apache Cassandra's 100,000 values per partition, reached at about 50,000 rows \(and 100 MB per partition at [\d,]+ rows\)/,
      data: { rowsPerPartition: 2_000_000, target: 'cassandra' },
    },
    {
      name: "the team's partition_size_warn_threshold from its cassandra.yaml wins over the 100 MB guidance",
      code: readings,
      at: 'ks.readings',
      messageId: 'partitionHinted',
      clusterYaml: 'partition_size_warn_threshold: 1MiB\n',
      config: { tables: { 'ks.readings': { rowsPerPartition: 20_000 } } },
      message: /partition_size_warn_threshold at 1 MiB.*cluster\.yaml:1/s,
    },
    {
      name: 'Cassandra values guidance',
      code: readings,
      at: 'ks.readings',
      messageId: 'partitionHinted',
      config: { tables: { readings: { rowsPerPartition: 60_000 } } },
      message: /100,000 values per partition/,
    },
    {
      name: 'column size hints',
      code: readings,
      at: 'ks.readings',
      messageId: 'partitionHinted',
      target: 'scylladb',
      config: { tables: { 'ks.readings': { rowsPerPartition: 50_000, columnSizes: { note: 40_000 } } } },
      message: /past ScyllaDB's large-partition warning at 1000 MB, reached at about 26,\d{3} rows/,
    },
    {
      name: 'wide rows: the byte limit binds before the row count',
      code: 'CREATE TABLE ks.docs_by_owner (owner_id uuid, doc_id timeuuid, body text, PRIMARY KEY (owner_id, doc_id));',
      at: 'ks.docs_by_owner',
      messageId: 'partitionHinted',
      config: { tables: { 'ks.docs_by_owner': { rowsPerPartition: 80_000, columnSizes: { body: 5000 } } } },
      message: /past Apache Cassandra's 100 MB per partition, reached at about 20,\d{3} rows\./,
      data: { limit: '100 MB per partition' },
    },
    {
      name: '-- @cqlint rows= hint',
      code: `-- @cqlint rows=2000000\n${readings}`,
      at: 'ks.readings',
      messageId: 'partitionHinted',
      message: /2,000,000 rows per partition \(hinted\)/,
    },
    {
      name: "a table keyed by tenant, sized by its largest tenant (176 shards): each tenant gets its own shard count, so that a small tenant's listing stays one partition (issue 35)",
      code: '-- @cqlint rows=5866000\nCREATE TABLE audit.events_by_tenant (tenant_id uuid, event_id timeuuid, actor text, action text, PRIMARY KEY (tenant_id, event_id)) WITH default_time_to_live = 7776000;\nSELECT event_id, actor, action FROM audit.events_by_tenant WHERE tenant_id = ? LIMIT 100;',
      at: 'audit.events_by_tenant',
      messageId: 'partitionHinted',
      message:
        /Add a shard column counted per tenant_id \(1 to 176 shards, the count kept in audit\.events_by_tenant_shards\) to the partition key: \(\(tenant_id, shard\), event_id\)\./,
    },
    {
      name: 'a table keyed by tenant that needs a few shards: one count for all (a table of counts would cost a read for little)',
      code: '-- @cqlint rows=150000\nCREATE TABLE audit.events_by_tenant (tenant_id uuid, event_id timeuuid, actor text, action text, PRIMARY KEY (tenant_id, event_id)) WITH default_time_to_live = 7776000;\nSELECT event_id, actor, action FROM audit.events_by_tenant WHERE tenant_id = ? LIMIT 100;',
      at: 'audit.events_by_tenant',
      messageId: 'partitionHinted',
      message: /Add a random shard column \(5 shards\) to the partition key: \(\(tenant_id, shard\), event_id\)\./,
    },
    {
      name: 'a sample with a huge partition: fires without any hint, citing the sample',
      code: wide,
      at: 'ks.metrics_by_host',
      messageId: 'partitionSampled',
      sample: { table: 'ks.metrics_by_host', csv: () => metricsCsv({ web1: 4500, web2: 12, db1: 3 }) },
      message:
        /^partitions of ks\.metrics_by_host are too large: the largest in the sample holds 4,500 rows Measured from sample samples\/sample\.csv: 3 partitions, largest 4,500 rows \/ 1\.3 MB; the largest partition \(4,500 rows\) is past Apache Cassandra's 100,000 values per partition\./,
      data: {
        limit: '100,000 values per partition',
        rowsAtLimit: 4000,
        sample: {
          file: '/virtual/cqlint-tests/samples/sample.csv',
          partitions: 3,
          maxRows: 4500,
          maxBytes: 4500 * (8 + 25 * 4 + 25 * 8) + 32,
          p99Rows: 4500,
          p99Bytes: 4500 * (8 + 25 * 4 + 25 * 8) + 32,
        },
      },
    },
    {
      name: 'bucket fit: an hour bucket at a hinted 500 rows/s holds 1.8 million rows',
      code: `-- @cqlint rate=500/s\n${hourly}`,
      at: 'iot.readings_by_hour',
      messageId: 'bucketTooCoarse',
      message:
        /the time bucket hour is too coarse for 500 rows\/s One sensor_id's hour bucket \(hour\) takes 1,800,000 rows at 500 rows\/s \(hinted\) ≈ [\d.]+ MB and 1,800,000 values, past 100,000 values per partition after 3\.3 minutes of each hour\. Add a random shard column \(27 shards\) to the partition key: \(\(sensor_id, hour, shard\), ts\)\./,
      data: { estimatedValues: 1_800_000, rowsAtLimit: 100_000, limit: '100,000 values per partition' },
    },
    {
      name: "bucket fit at a default rate: a sensor's month bucket of three values a row",
      code: 'CREATE TABLE iot.readings_by_month (sensor_id uuid, month text, ts timestamp, temperature double, humidity double, pressure double, PRIMARY KEY ((sensor_id, month), ts));',
      output: null,
      suggestion: {
        title: 'Add a time bucket day date (daily partitions by ts beside month)',
        output:
          'CREATE TABLE iot.readings_by_month (sensor_id uuid, month text, ts timestamp, temperature double, humidity double, pressure double, day date /* bucket: the UTC day of ts, set by the application */, PRIMARY KEY ((sensor_id, month, day), ts));',
      },
      at: 'iot.readings_by_month',
      messageId: 'bucketTooCoarse',
      message:
        /One sensor_id's month bucket \(month\) takes 43,829 rows at 1 row\/min \(the default for a machine source; correct it with rate= in a -- @cqlint comment\).*Add a time bucket day date \(daily partitions by ts beside month\) to the partition key: \(\(sensor_id, month, day\), ts\)\./,
    },
    {
      name: "bucket fit of a raw frame that is most of each row (issue 35): moved to a table read by the reading's key, a day fits without a shard",
      code: "-- @cqlint rate=0.5/s payload.bytes=20000\nCREATE TABLE iot.frames (sensor_id uuid, day date, ts timestamp, kind text, payload blob, PRIMARY KEY ((sensor_id, day), ts));\nINSERT INTO iot.frames (sensor_id, day, ts, kind, payload) VALUES (6c1f6f0e-3d5a-4b1e-9a77-0d2b4c6e8f10, '2026-11-29', '2026-11-29 10:00:00+0000', 'temp', 0xcafe);",
      output: null,
      suggestion: {
        title: 'Move payload to a table of its own, iot.frames_payload, read by id; rewrites 1 statement',
        output:
          "-- @cqlint rate=0.5/s\nCREATE TABLE iot.frames (sensor_id uuid, day date, ts timestamp, kind text, PRIMARY KEY ((sensor_id, day), ts));\n\n-- iot.frames_payload: payload of iot.frames, moved to a table of its own (it was most of each row), read by the row's key; written beside each row of iot.frames.\n-- Moving the data: create this table, write both (the rewritten statements do), copy payload of the existing rows here, then drop it from iot.frames.\n-- @cqlint payload.bytes=20000\nCREATE TABLE iot.frames_payload (\n    sensor_id uuid,\n    day date,\n    ts timestamp,\n    payload blob,\n    PRIMARY KEY ((sensor_id, day, ts))\n);\nBEGIN BATCH\n  INSERT INTO iot.frames (sensor_id, day, ts, kind) VALUES (6c1f6f0e-3d5a-4b1e-9a77-0d2b4c6e8f10, '2026-11-29', '2026-11-29 10:00:00+0000', 'temp');\n  INSERT INTO iot.frames_payload (sensor_id, day, ts, payload) VALUES (6c1f6f0e-3d5a-4b1e-9a77-0d2b4c6e8f10, '2026-11-29', '2026-11-29 10:00:00+0000', 0xcafe);\nAPPLY BATCH;",
      },
      at: 'iot.frames',
      messageId: 'bucketTooCoarse',
      message:
        /Move payload to a table of its own, iot\.frames_payload keyed by \(\(sensor_id, day, ts\)\), read by id where a read selects it\./,
    },
    {
      name: 'bucket fit on ScyllaDB: its 100,000-row warning',
      code: `-- @cqlint rate=5/s\n${readings}`,
      at: 'ks.readings',
      messageId: 'bucketTooCoarse',
      target: 'scylladb',
      message:
        /One sensor_id's day bucket \(day\) takes 432,000 rows at 5 rows\/s \(hinted\).*past large-partition warning at 100,000 rows after 5\.6 hours of each day\. Add a random shard column \(7 shards\) to the partition key: \(\(sensor_id, day, shard\), ts\)\./,
    },
    {
      name: 'bucket fit of an audit log per tenant and day at 5 rows/s, read by time ranges: an hour bucket beside the day, not 7 shards every range read would visit',
      code: 'CREATE TABLE audit.events_by_tenant (tenant_id uuid, day date, ts timestamp, actor text, action text, PRIMARY KEY ((tenant_id, day), ts));\nSELECT * FROM audit.events_by_tenant WHERE tenant_id = ? AND day = ? AND ts >= ? AND ts < ?;',
      config: { tables: { 'audit.events_by_tenant': { rowsPerSecondPerPartition: 5 } } },
      at: 'audit.events_by_tenant',
      messageId: 'bucketTooCoarse',
      message:
        /Add a time bucket hour timestamp \(hourly partitions by ts beside day\) to the partition key: \(\(tenant_id, day, hour\), ts\)\./,
    },
    {
      name: 'bucket fit at 2,000 rows/s: not even a minute fits alone, so a minute bucket and a few shards (a day would need thousands)',
      code: `-- @cqlint rate=2000/s\n${readings}`,
      at: 'ks.readings',
      messageId: 'bucketTooCoarse',
      message:
        /One sensor_id's day bucket \(day\) takes 172,800,000 rows at 2000 rows\/s \(hinted\).*Add a random shard column \(\d shards\) and a time bucket minute timestamp \(minute-by-minute partitions by ts beside day\) to the partition key: \(\(sensor_id, day, shard, minute\), ts\)\./,
    },
    {
      name: 'a one-day TTL bounds each partition at 172,800 rows at 2 rows/s: bounded, but past the 100,000 values',
      code: '-- @cqlint rate=2/s\nCREATE TABLE ks.readings (sensor_id uuid, reading_time timestamp, value double, PRIMARY KEY (sensor_id, reading_time)) WITH default_time_to_live = 86400;',
      at: 'ks.readings',
      messageId: 'ttlKeepsTooMany',
      message:
        /the TTL keeps about 172,800 rows \([\d.]+ MB\) in each Its default_time_to_live of 24 hours bounds each partition, at 172,800 rows at 2 rows\/s \(hinted\).*Add a time bucket hour timestamp \(hourly partitions by reading_time\) to the partition key: \(\(sensor_id, hour\), reading_time\)\. Or shorten the TTL\./,
      data: { ttl: { seconds: 86400, source: 'default_time_to_live', rowsKept: 172_800 } },
    },
    {
      name: 'a week-long TTL at a hinted 5 rows/s keeps 3 million rows in a partition',
      code: '-- @cqlint rate=5/s\nCREATE TABLE ks.readings (sensor_id uuid, reading_time timestamp, value double, PRIMARY KEY (sensor_id, reading_time)) WITH default_time_to_live = 604800;',
      at: 'ks.readings',
      messageId: 'ttlKeepsTooMany',
      message: /about 3,024,000 rows/,
    },
    {
      name: 'Keyspaces 1 MB row',
      code: 'CREATE TABLE ks.docs (id uuid PRIMARY KEY, body blob);',
      at: 'ks.docs',
      messageId: 'rowEstimated',
      target: 'keyspaces',
      config: { tables: { 'ks.docs': { columnSizes: { body: 2_000_000 } } } },
      message: /1 MB per row/,
    },
  ],
};
