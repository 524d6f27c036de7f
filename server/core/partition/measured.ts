// What the partition model makes of figures measured on the cluster (evidence/): the measured largest
// partition against the target's limits, whether the samplers show a hot partition, the growth between two
// captures as a rate, and the hover's lines. Measured figures win over workload hints, which win over the
// model's defaults.
import type { TableHints } from '../vocabulary/config';
import type { TableInfo } from '../schema/model';
import type { GrowthRate } from '../schema/workload';
import { formatBytes, formatCount } from '../util/format';
import { inlineCode, markdownText } from '../util/markdown';
import {
  citeText,
  growthText,
  lineRef,
  measuredGrowth,
  originText,
  shareText,
  valueText,
  type BusyPartition,
  type Cited,
  type MeasuredGrowth,
  type TableEvidence,
} from '../evidence';
import { partitionFigures, type UdtLookup } from './sizing';
import type { TargetInfo } from './targets';

/** One of the target's partition limits against the measured largest partition. */
export interface MeasuredReach {
  limitLabel: string;
  limitSource: string;
  limitValue: number;
  /** The rows at which the model reaches it (for the finding data). */
  rowsAtLimit: number;
  measured: Cited;
  /** measured / limit (1 = at the limit). */
  share: number;
}

/**
 * The measured largest partition against each of the target's partition limits it can be compared with:
 * bytes limits take the largest partition's bytes, Cassandra's values guidance the most cells (a cell is a
 * value), row limits the most rows. Undefined when the evidence measures none of them.
 */
export function measuredSizeVerdict(
  table: TableInfo,
  target: TargetInfo,
  hints: TableHints | undefined,
  udts: UdtLookup | undefined,
  evidence: TableEvidence | undefined,
): { reaches: MeasuredReach[]; over: MeasuredReach[] } | undefined {
  if (!evidence) return undefined;
  const figures = partitionFigures(table, target, hints, udts);
  const reaches: MeasuredReach[] = [];
  for (const limit of figures.limits) {
    const measured =
      limit.measure === 'bytes'
        ? evidence.maxPartitionBytes
        : limit.measure === 'values'
          ? evidence.maxCells
          : evidence.maxRows;
    if (!measured) continue;
    reaches.push({
      limitLabel: limit.label,
      limitSource: limit.source,
      limitValue: limit.value,
      rowsAtLimit: limit.rows,
      measured,
      share: limit.value > 0 ? measured.value / limit.value : Infinity,
    });
  }
  // Nothing comparable (Keyspaces has no partition size limit): the measured size still stands, healthy.
  if (!reaches.length && !evidence.maxPartitionBytes && !evidence.maxCells && !evidence.maxRows) return undefined;
  reaches.sort((a, b) => b.share - a.share);
  return { reaches, over: reaches.filter((r) => r.share > 1) };
}

/** A partition is hot when it takes at least this share of the sampled operations ... */
export const HOT_SHARE = 0.2;
/** ... and at least this many times an even share (1 / partitions seen). */
export const HOT_OVER_EVEN = 5;

export interface MeasuredHotness {
  /** The busiest partition of the kind that decided (writes first). */
  busiest: BusyPartition;
  hot: boolean;
}

/**
 * Whether the samplers show a hot partition: one partition takes at least HOT_SHARE of the sampled writes
 * (or reads) and HOT_OVER_EVEN times an even share. Undefined when no sampler recorded a partition.
 */
export function measuredHotness(evidence: TableEvidence | undefined): MeasuredHotness | undefined {
  let seen: BusyPartition | undefined;
  for (const kind of ['writes', 'reads'] as const) {
    const b = evidence?.busiest[kind];
    if (!b || b.share === undefined) continue;
    if (b.share >= HOT_SHARE && b.share * b.distinct >= HOT_OVER_EVEN) return { busiest: b, hot: true };
    seen ??= b;
  }
  return seen ? { busiest: seen, hot: false } : undefined;
}

/** "measured on the cluster: <cite>; the largest partition (1.3 GB) is past Apache Cassandra's 100 MB per partition (and ...)". */
export function measuredOverText(over: readonly MeasuredReach[], targetName: string): string {
  const [first, ...others] = over;
  const also = others.length ? ` (and ${others.map((o) => o.limitLabel).join(', ')})` : '';
  return `measured on the cluster: ${citeText(first!.measured)}; the largest partition (${valueText(first!.measured.value, first!.measured.unit)}) is past ${targetName}'s ${first!.limitLabel}${also}`;
}

/** The rows per second the measured growth amounts to (at `rowBytes` a row when measured in bytes), as a growth rate. */
export function measuredGrowthRate(g: MeasuredGrowth, rowBytes: number): GrowthRate {
  const rowsPerDay = g.first.unit === 'bytes' ? g.perDay / Math.max(1, rowBytes) : g.perDay;
  // Measured, so stated like a hint: not a default the user is asked to correct.
  return {
    rowsPerSecond: rowsPerDay / 86_400,
    note:
      g.first.unit === 'bytes'
        ? 'measured: the growth between the captures, at the estimated row size'
        : 'measured: the growth between the captures',
    source: 'measured',
    hinted: true,
  };
}

const EVIDENCE_DOCS = 'https://github.com/cqlint/cqlint/blob/main/docs/evidence.md';

/** Markdown lines for the table hover: what was measured on the cluster, each figure with its source. */
export function evidenceMarkdown(
  table: TableInfo,
  target: TargetInfo,
  hints: TableHints | undefined,
  udts: UdtLookup | undefined,
  evidence: TableEvidence | undefined,
): string[] {
  if (!evidence) return [];
  const cited = (c: Cited): string =>
    `${markdownText(valueText(c.value, c.unit))} (${markdownText(`${c.label}; ${originText(c.origin)}, ${lineRef(c.origin, c.line)}`)})`;
  const lines: string[] = [`On the cluster ([measured](${EVIDENCE_DOCS}), it wins over the model's estimate):`];
  const verdict = measuredSizeVerdict(table, target, hints, udts, evidence);
  if (evidence.maxPartitionBytes) lines.push(`- largest partition: ${cited(evidence.maxPartitionBytes)}`);
  if (evidence.maxCells) lines.push(`- most cells in a partition: ${cited(evidence.maxCells)}`);
  if (evidence.maxRows) lines.push(`- most rows in a partition: ${cited(evidence.maxRows)}`);
  for (const r of verdict?.reaches ?? [])
    lines.push(
      `  - ${r.share > 1 ? '**past**' : 'within'} ${markdownText(r.limitLabel)}: ${r.share >= 0.1 ? formatCount(r.share * 100) : (r.share * 100).toFixed(1)}%`,
    );
  const p = evidence.percentiles;
  if (p?.bytes.p99 || p?.bytes.p50) {
    lines.push(
      `- partition size p50 / p99 / max: ${[p.bytes.p50, p.bytes.p99, p.bytes.max].map((c) => (c ? formatBytes(c.value) : '—')).join(' / ')} (${markdownText('nodetool tablehistograms')})`,
    );
  }
  for (const kind of ['writes', 'reads'] as const) {
    const b = evidence.busiest[kind];
    if (!b) continue;
    const rate = b.perSecond !== undefined ? `, ${formatCount(b.perSecond)} ${kind}/s` : '';
    lines.push(
      `- busiest partition (${kind}): ${inlineCode(b.key)}${rate}${b.share !== undefined ? `, ${markdownText(shareText(b))}` : ''} (${markdownText(`${originText(b.origin)}, ${lineRef(b.origin, b.line)}`)})`,
    );
  }
  const g = measuredGrowth(evidence);
  if (g) lines.push(`- growth: ${markdownText(growthText(g))}`);
  return lines;
}
