// What the partition rules, the table hover and the report say of a table's evidence (figures measured on
// the cluster): how a figure is cited, and the verdicts the rules reach from it. Measured figures win over
// workload hints, which win over the model's defaults; every message built here says it was measured and
// quotes where ("nodetool tablestats, node 10.0.0.3, 2026-11-20: compacted partition maximum 1.3 GB
// (ops/node3.txt:42)").
import type { TableHints } from '../config-types';
import type { TableInfo } from '../schema/model';
import type { GrowthRate } from '../schema/workload';
import { partitionFigures, type UdtLookup } from '../partition/sizing';
import { formatBytes, formatCount } from '../util/format';
import { type TargetInfo } from '../partition/targets';
import { inlineCode, markdownText } from '../markdown';
import type { BusyPartition, Cited, TableEvidence } from './combine';
import type { EvidenceOrigin, SamplerKind } from './types';

/** "nodetool tablestats, node 10.0.0.3, 2026-11-20". */
export function originText(origin: EvidenceOrigin): string {
  const parts: string[] = [origin.tool];
  if (origin.node) parts.push(`node ${origin.node}`);
  if (origin.captured) parts.push(origin.capturedFrom === 'file time' ? `file dated ${origin.captured}` : origin.captured);
  return parts.join(', ');
}

export function valueText(value: number, unit: Cited['unit']): string {
  if (unit === 'bytes') return formatBytes(value);
  if (unit === 'cells') return `${formatCount(value)} cells`;
  if (unit === 'rows') return `${formatCount(value)} rows`;
  return formatCount(value);
}

/** Where a line is: `ops/node3.txt:42`. */
export function lineRef(origin: EvidenceOrigin, line: number): string {
  return `${origin.name}:${line}`;
}

/** "nodetool tablestats, node 10.0.0.3, 2026-11-20: compacted partition maximum 1.3 GB (ops/node3.txt:42)". */
export function citeText(c: Cited): string {
  return `${originText(c.origin)}: ${c.label} ${valueText(c.value, c.unit)} (${lineRef(c.origin, c.line)})`;
}

/** A measured figure as the partition rules' finding data carry it. */
export interface EvidenceFindingData {
  tool: string;
  file: string;
  line: number;
  node?: string;
  captured?: string;
  label: string;
  value: number;
  /** What the value counts, when it is a size (a partition's bytes, cells or rows). */
  unit?: Cited['unit'];
}

export function evidenceFindingData(c: { origin: EvidenceOrigin; line: number; label: string; value: number; unit?: Cited['unit'] }): EvidenceFindingData {
  return {
    tool: c.origin.tool, file: c.origin.file, line: c.line,
    ...(c.origin.node ? { node: c.origin.node } : {}),
    ...(c.origin.captured ? { captured: c.origin.captured } : {}),
    label: c.label, value: c.value,
    ...(c.unit ? { unit: c.unit } : {}),
  };
}

// -------------------------------------------------------------------------------------------------
// Sizes: large-partition

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
export function measuredSizeVerdict(table: TableInfo, target: TargetInfo, hints: TableHints | undefined, udts: UdtLookup | undefined, evidence: TableEvidence | undefined): { reaches: MeasuredReach[]; over: MeasuredReach[] } | undefined {
  if (!evidence) return undefined;
  const figures = partitionFigures(table, target, hints, udts);
  const reaches: MeasuredReach[] = [];
  for (const limit of figures.limits) {
    const measured = limit.measure === 'bytes' ? evidence.maxPartitionBytes : limit.measure === 'values' ? evidence.maxCells : evidence.maxRows;
    if (!measured) continue;
    reaches.push({ limitLabel: limit.label, limitSource: limit.source, limitValue: limit.value, rowsAtLimit: limit.rows, measured, share: limit.value > 0 ? measured.value / limit.value : Infinity });
  }
  // Nothing comparable (Keyspaces has no partition size limit): the measured size still stands, healthy.
  if (!reaches.length && !evidence.maxPartitionBytes && !evidence.maxCells && !evidence.maxRows) return undefined;
  reaches.sort((a, b) => b.share - a.share);
  return { reaches, over: reaches.filter((r) => r.share > 1) };
}

// -------------------------------------------------------------------------------------------------
// Traffic: partition-throughput and hot-partition

/** "nodetool toppartitions, node 10.0.0.3, 2026-11-20: 58,000 writes in 60 s on partition 2026-11-20:eu-west (ops/top.txt:7)". */
export function busyText(b: BusyPartition): string {
  const during = b.durationMs ? ` in ${formatCount(b.durationMs / 1000)} s` : '';
  return `${originText(b.origin)}: ${formatCount(b.count)} ${b.kind}${during} on partition ${b.key} (${lineRef(b.origin, b.line)})`;
}

/**
 * The measured per-partition rates that replace the `writesPerSecondPerPartition` and
 * `readsPerSecondPerPartition` hints: the busiest partition's count over the sampler's duration.
 */
export function measuredRates(evidence: TableEvidence | undefined): Partial<Record<SamplerKind, BusyPartition & { perSecond: number }>> {
  const out: Partial<Record<SamplerKind, BusyPartition & { perSecond: number }>> = {};
  for (const kind of ['writes', 'reads'] as const) {
    const b = evidence?.busiest[kind];
    if (b?.perSecond !== undefined) out[kind] = b as BusyPartition & { perSecond: number };
  }
  return out;
}

/** The hints with the measured rates in place of the hinted ones (measured wins). */
export function hintsWithMeasuredRates(hints: TableHints | undefined, evidence: TableEvidence | undefined): TableHints | undefined {
  const rates = measuredRates(evidence);
  if (!rates.writes && !rates.reads) return hints;
  return {
    ...hints,
    ...(rates.writes ? { writesPerSecondPerPartition: Math.ceil(rates.writes.perSecond) } : {}),
    ...(rates.reads ? { readsPerSecondPerPartition: Math.ceil(rates.reads.perSecond) } : {}),
  };
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

export function shareText(b: BusyPartition): string {
  const pct = `${b.share! >= 0.1 ? Math.round(b.share! * 100) : (b.share! * 100).toFixed(1)}%`;
  if (b.shareOfListed) return `${pct} of the ${b.kind} of the ${formatCount(b.distinct)} partitions listed`;
  return `${b.shareIsLowerBound ? 'at least ' : ''}${pct} of the ${b.kind} sampled over ${formatCount(b.distinct)} partitions`;
}

// -------------------------------------------------------------------------------------------------
// Growth: unbounded-partition

export interface MeasuredGrowth {
  first: Cited;
  last: Cited;
  days: number;
  /** Bytes (or rows) per day the largest partition grew. */
  perDay: number;
  growing: boolean;
}

export function measuredGrowth(evidence: TableEvidence | undefined): MeasuredGrowth | undefined {
  const g = evidence?.growth;
  if (!g) return undefined;
  return { ...g, growing: g.perDay > 0 };
}

export function growthText(g: MeasuredGrowth): string {
  const rate = g.first.unit === 'bytes' ? `${formatBytes(Math.abs(g.perDay))}/day` : `${formatCount(Math.abs(g.perDay))} ${g.first.unit}/day`;
  return `measured on the cluster: ${citeText(g.first)} → ${citeText(g.last)}, ${g.growing ? `+${rate}` : g.perDay < 0 ? `−${rate}` : 'no growth'} over ${formatCount(g.days)} day${g.days === 1 ? '' : 's'}`;
}

// -------------------------------------------------------------------------------------------------
// The phrases the rules put in their messages (so that a rule's edit stays a few lines)

/** "measured on the cluster: <cite>; the largest partition (1.3 GB) is past Apache Cassandra's 100 MB per partition (and ...)". */
export function measuredOverText(over: readonly MeasuredReach[], targetName: string): string {
  const [first, ...others] = over;
  const also = others.length ? ` (and ${others.map((o) => o.limitLabel).join(', ')})` : '';
  return `measured on the cluster: ${citeText(first!.measured)}; the largest partition (${valueText(first!.measured.value, first!.measured.unit)}) is past ${targetName}'s ${first!.limitLabel}${also}`;
}

/** " (measured: nodetool toppartitions, node ..., date: 58,000 writes in 60 s on partition k (file:line))", else " (hinted)". */
export function measuredRateNote(b: BusyPartition | undefined): string {
  return b ? ` (measured: ${busyText(b)})` : ' (hinted)';
}

/** "measured on the cluster, partition k takes at least 91% of the writes sampled over 7 partitions (cite)". */
export function measuredHotText(b: BusyPartition): string {
  return `measured on the cluster, partition ${b.key} takes ${shareText(b)} (${busyText(b)})`;
}

/** The rows per second the measured growth amounts to (at `rowBytes` a row when measured in bytes), as a growth rate. */
export function measuredGrowthRate(g: MeasuredGrowth, rowBytes: number): GrowthRate {
  const rowsPerDay = g.first.unit === 'bytes' ? g.perDay / Math.max(1, rowBytes) : g.perDay;
  // Measured, so stated like a hint: not a default the user is asked to correct.
  return { rowsPerSecond: rowsPerDay / 86_400, note: g.first.unit === 'bytes' ? 'measured: the growth between the captures, at the estimated row size' : 'measured: the growth between the captures', hinted: true };
}

/** "; at that pace the largest partition reaches 100 MB per partition in about 21 days" (for a bytes limit). */
export function measuredReachText(g: MeasuredGrowth, limitBytes: number | undefined, limitLabel: string | undefined): string {
  if (g.first.unit !== 'bytes' || !g.growing || limitBytes === undefined || !limitLabel) return '';
  const left = limitBytes - g.last.value;
  if (left <= 0) return `; the largest partition is already past ${limitLabel}`;
  return `; at that pace the largest partition reaches ${limitLabel} in about ${formatCount(Math.ceil(left / g.perDay))} days`;
}

// -------------------------------------------------------------------------------------------------
// The table hover: the measured figures beside the model's

const EVIDENCE_DOCS = 'https://github.com/cqlint/cqlint/blob/main/docs/evidence.md';

/** Markdown lines for the table hover: what was measured on the cluster, each figure with its source. */
export function evidenceMarkdown(table: TableInfo, target: TargetInfo, hints: TableHints | undefined, udts: UdtLookup | undefined, evidence: TableEvidence | undefined): string[] {
  if (!evidence) return [];
  const cited = (c: Cited): string => `${markdownText(valueText(c.value, c.unit))} (${markdownText(`${c.label}; ${originText(c.origin)}, ${lineRef(c.origin, c.line)}`)})`;
  const lines: string[] = [`On the cluster ([measured](${EVIDENCE_DOCS}), it wins over the model's estimate):`];
  const verdict = measuredSizeVerdict(table, target, hints, udts, evidence);
  if (evidence.maxPartitionBytes) lines.push(`- largest partition: ${cited(evidence.maxPartitionBytes)}`);
  if (evidence.maxCells) lines.push(`- most cells in a partition: ${cited(evidence.maxCells)}`);
  if (evidence.maxRows) lines.push(`- most rows in a partition: ${cited(evidence.maxRows)}`);
  for (const r of verdict?.reaches ?? []) lines.push(`  - ${r.share > 1 ? '**past**' : 'within'} ${markdownText(r.limitLabel)}: ${r.share >= 0.1 ? formatCount(r.share * 100) : (r.share * 100).toFixed(1)}%`);
  const p = evidence.percentiles;
  if (p?.bytes.p99 || p?.bytes.p50) {
    lines.push(`- partition size p50 / p99 / max: ${[p.bytes.p50, p.bytes.p99, p.bytes.max].map((c) => (c ? formatBytes(c.value) : '—')).join(' / ')} (${markdownText('nodetool tablehistograms')})`);
  }
  for (const kind of ['writes', 'reads'] as const) {
    const b = evidence.busiest[kind];
    if (!b) continue;
    const rate = b.perSecond !== undefined ? `, ${formatCount(b.perSecond)} ${kind}/s` : '';
    lines.push(`- busiest partition (${kind}): ${inlineCode(b.key)}${rate}${b.share !== undefined ? `, ${markdownText(shareText(b))}` : ''} (${markdownText(`${originText(b.origin)}, ${lineRef(b.origin, b.line)}`)})`);
  }
  const g = measuredGrowth(evidence);
  if (g) lines.push(`- growth: ${markdownText(growthText(g))}`);
  return lines;
}
