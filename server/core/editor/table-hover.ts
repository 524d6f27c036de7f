// The hover of a table or view: its key, columns with roles and estimated sizes, the partition figures the
// partition rules cite (partition/sizing.ts), the bucket fit, the workload model's view, the hints, the
// sample's and the cluster's measured figures, throughput per partition, and the cure the planner chose for
// the table's findings (shown, never computed here).
import type { TableHints } from '../vocabulary/config';
import type { ColumnInfo, SchemaModel, TableInfo } from '../schema/model';
import type { TableReference } from '../schema/references';
import { describeProfile, tableWorkload, type PartitionBound } from '../schema/workload';
import type { TableEvidence } from '../evidence';
import type { PartitionPlan } from '../partition/plan';
import { cureAdvice } from '../partition/planner';
import { rowRate } from '../partition/verdicts';
import { inlineCode, markdownText, tableCell } from '../util/markdown';
import { formatBytes, formatCount, formatDuration, formatRate } from '../util/format';
import { keyText } from '../util/statements';
import type { PartitionSample } from '../partition/sample';
import {
  CELL_METADATA_BYTES,
  SIZING_SOURCE,
  bucketFit,
  bucketFitText,
  estimatePartition,
  operationBytes,
  partitionFigures,
  rowSizes,
  sampleVerdict,
  sampleVerdictText,
  throughputEstimates,
  udtLookupFrom,
  type PartitionFigures,
} from '../partition/sizing';
import { targetInfo, type TargetId } from '../partition/targets';

export interface DescribeHints extends TableHints {
  /** The workspace schema, to size user-defined types. */
  schema?: SchemaModel;
  /** The workspace's statements on the table (their USING TTL bounds partitions). */
  references?: readonly TableReference[];
  /** The table's sample (.cqlint.json `samples`), read: its measured partitions and rows. */
  sample?: PartitionSample;
  /** Markdown lines of what the evidence measured on the cluster (partition/measured.ts evidenceMarkdown), shown beside the model's figures. */
  measured?: string[];
  /** The table's evidence: its measured rate wins over the hint and the default in the figures. */
  evidence?: TableEvidence;
  /** The first plan of each partition finding on the table (their finding data): shown as the fixes apply them. */
  cures?: { rule: string; plan: PartitionPlan }[];
}

const PARTITION_MODEL_DOCS = 'https://github.com/cqlint/cqlint/blob/main/docs/partition-model.md';

function boundText(b: PartitionBound): string {
  switch (b.kind) {
    case 'bucket':
      return `time bucket ${inlineCode(String(b.column))} in the key`;
    case 'split':
      return `split column ${inlineCode(String(b.column))} in the key`;
    case 'natural':
      return `${inlineCode(String(b.column))} names something that ends`;
    case 'ttl':
      return `${b.ttlSource} of ${formatDuration(b.ttlSeconds!)}`;
    default:
      return 'none';
  }
}

/** The workload hints in effect, as the `-- @cqlint` comment would write them. */
function hintsText(hints: TableHints | undefined): string {
  if (!hints) return '';
  const parts: string[] = [];
  if (hints.rowsPerSecondPerPartition !== undefined)
    parts.push(`rate=${formatRate(hints.rowsPerSecondPerPartition).replace(/ rows?/, '')}`);
  if (hints.writesPerSecondPerPartition !== undefined) parts.push(`writes=${hints.writesPerSecondPerPartition}/s`);
  if (hints.readsPerSecondPerPartition !== undefined) parts.push(`reads=${hints.readsPerSecondPerPartition}/s`);
  if (hints.rowsPerPartition !== undefined) parts.push(`rows=${hints.rowsPerPartition}`);
  for (const [c, f] of Object.entries(hints.columns ?? {}))
    if (f.distinct !== undefined) parts.push(`${c}.distinct=${f.distinct}`);
  for (const [c, b] of Object.entries(hints.columnSizes ?? {})) parts.push(`${c}.bytes=${b}`);
  return parts.map(inlineCode).join(' ');
}

const ROLE_LABEL: Record<ColumnInfo['role'], string> = {
  partition: 'partition key',
  clustering: 'clustering',
  static: 'static',
  regular: '',
};

/**
 * Markdown summary of a table for hovers: key, columns with roles, estimated row size, how many rows
 * per partition reach each of the target's limits, and throughput per partition when hints say.
 */
export function describeTable(table: TableInfo, target: TargetId, hints?: DescribeHints): string {
  const info = targetInfo(target);
  const udts = udtLookupFrom(hints?.schema);
  const sizes = rowSizes(table, hints, udts);
  const lines: string[] = [];
  const kind = table.kind === 'view' ? 'Materialized view' : 'Table';
  lines.push(`**${kind} ${inlineCode(table.qualifiedName)}**`);
  lines.push('');
  lines.push(
    `Primary key: ${inlineCode(
      keyText(
        table.partitionKey.map((c) => c.name),
        table.clustering.map((c) => c.name + (c.order === 'DESC' ? ' DESC' : '')),
      ),
    )}`,
  );
  if (table.defaultTtlSeconds) lines.push(`  \ndefault_time_to_live: ${formatCount(table.defaultTtlSeconds)} s`);
  if (table.shard) lines.push(`  \nWrite-sharded: ${inlineCode(table.shard.text)} (${table.shard.count} shards)`);
  lines.push('');
  lines.push('| column | type | role | est. bytes |');
  lines.push('|---|---|---|---|');
  for (const col of table.columns) {
    const s = sizes.columns.find((c) => c.name === col.name);
    const role = col.role === 'clustering' ? `clustering ${col.order ?? 'ASC'}` : ROLE_LABEL[col.role];
    lines.push(
      `| ${markdownText(col.name)} | ${tableCell(inlineCode(col.typeText))} | ${role} | ${s ? `${s.bytes}${s.hinted ? ' (hint)' : ''}` : '?'} |`,
    );
  }
  lines.push('');
  const perRow = sizes.rowBytes + sizes.valuesPerRow * CELL_METADATA_BYTES;
  lines.push(
    `Estimated row: ${formatBytes(perRow)} (${sizes.valuesPerRow} values); per partition once: ${formatBytes(sizes.partitionKeyBytes + sizes.staticBytes)}.`,
  );
  // The same model, rate (measured, hinted or the default) and figures the partition rules' messages cite.
  const workload = tableWorkload(table, hints, hints?.references);
  const rate = rowRate(
    {
      table,
      target: info,
      hints,
      udts,
      references: hints?.references ?? [],
      evidence: hints?.evidence,
      sample: hints?.sample,
    },
    workload,
  );
  const figures = partitionFigures(table, info, hints, udts, rate);
  lines.push('');
  lines.push(...partitionFiguresMarkdown(figures));
  if (hints?.measured?.length) lines.push('', ...hints.measured);
  // The same bucket fit large-partition reports.
  const fit = bucketFit(table, info, hints, udts, workload, rate);
  if (fit) {
    lines.push('');
    lines.push(
      `Time bucket: ${markdownText(
        bucketFitText(
          fit,
          table.partitionKey.map((c) => c.name),
        ),
      )}.`,
    );
  }
  // The cures the planner chose for the table's findings, as their fixes apply them.
  for (const { rule, plan } of hints?.cures ?? []) {
    lines.push('');
    lines.push(
      `Cure (${inlineCode(rule)}, ${plan.cures ? 'the preferred fix' : 'no fix cures it'}): ${markdownText(cureAdvice(table, plan))}.`,
    );
  }
  lines.push('');
  lines.push(`Workload model ([how it decides](${PARTITION_MODEL_DOCS})):`);
  for (const p of workload.partitionKey) lines.push(`- ${inlineCode(p.name)}: ${describeProfile(p)}`);
  lines.push(
    `- rows ${workload.growth ? `arrive per event (${markdownText(workload.growth.column.name)}: ${markdownText(workload.growth.signal)})` : 'do not arrive per event'}; bound: ${boundText(workload.bound)}`,
  );
  const hintText = hintsText(hints);
  if (hintText) lines.push(`- hints: ${hintText}`);
  if (hints?.rowsPerPartition !== undefined) {
    const est = estimatePartition(table, hints.rowsPerPartition, hints, udts);
    lines.push('');
    lines.push(
      `With ${formatCount(est.rows)} rows per partition: ${formatBytes(est.bytes)}, ${formatCount(est.values)} values.`,
    );
  }
  if (hints?.sample) {
    lines.push('');
    lines.push(
      `Sample: ${markdownText(sampleVerdictText(sampleVerdict(table, info, hints, udts, hints.sample), info.name))}.`,
    );
  }
  for (const t of throughputEstimates(table, info, hints, udts, hints?.sample)) {
    lines.push('');
    lines.push(
      `${t.kind === 'writes' ? 'Writes' : 'Reads'}: ${formatCount(t.perSecond)}/s per partition ≈ ${formatCount(t.unitsPerSecond)} ${t.unit} of ${t.label}` +
        (hints?.sample && hints.sample.rows > 0
          ? ` (rows of ${formatBytes(operationBytes(table, hints, udts, hints.sample))} measured in the sample)`
          : '') +
        (t.shardsNeeded > 1 ? ` — needs ${t.shardsNeeded} shards.` : ' — fits.'),
    );
  }
  lines.push('');
  lines.push(`Sizing: [Cassandra data modeling guide](${SIZING_SOURCE}).`);
  return lines.join('\n');
}

/** The figures as a small markdown table for the hover (same numbers as the messages). */
function partitionFiguresMarkdown(f: PartitionFigures): string[] {
  const lines: string[] = [];
  const bounded = f.rowsBound !== undefined;
  const rate = f.rowsPerSecond !== undefined && !bounded ? ` at ${formatRate(f.rowsPerSecond)} (${f.rateNote})` : '';
  lines.push(`| ${f.targetName} limit | rows per partition to reach it | time${rate} |`);
  lines.push('|---|---|---|');
  const rows = [...f.limits];
  for (const l of rows) {
    const first = l === f.binding ? ' **(hit first)**' : '';
    // A partition stops taking rows when its time bucket closes: a limit past its rows is never reached.
    const time =
      !f.rowsPerSecond || bounded
        ? '—'
        : f.bucket && l.rows >= f.bucket.rows
          ? `never: its ${markdownText(f.bucket.column)} bucket closes after ${formatDuration(f.bucket.seconds)}, at ${formatCount(f.bucket.rows)} rows`
          : formatDuration(l.rows / f.rowsPerSecond);
    lines.push(`| [${l.label}](${l.source})${first} | ${formatCount(l.rows)} | ${time} |`);
  }
  if (!rows.length) lines.push(`| no partition size limit | — | — |`);
  if (f.rowsBound)
    lines.push(
      `| at most ${formatCount(f.rowsBound.rows)} row${f.rowsBound.rows === 1 ? '' : 's'} per partition (${markdownText(f.rowsBound.signal)}) | — | it does not grow with time |`,
    );
  if (f.writeQuota)
    lines.push(
      `| [${f.writeQuota.label}](${f.writeQuota.source}) | ${formatCount(f.writeQuota.rowsPerSecond)} writes/s of this row (${f.writeQuota.unitsPerRow} ${f.writeQuota.unit.replace('/s', '')} each) | — |`,
    );
  if (f.rowLimit)
    lines.push(
      `| [${f.rowLimit.label}](${f.rowLimit.source}) | a row ≈ ${formatBytes(f.rowBytes)}: ${f.rowLimit.fits ? 'fits' : '**exceeds it**'} | — |`,
    );
  return lines;
}
