// How a table's evidence (figures measured on the cluster) is cited, and the measured rates, shares and
// growth the partition model (partition/measured.ts) judges: every message built from them says it was
// measured and quotes where ("nodetool tablestats, node 10.0.0.3, 2026-11-20: compacted partition maximum
// 1.3 GB (ops/node3.txt:42)").
import type { TableHints } from '../vocabulary/config';
import { formatBytes, formatCount } from '../util/format';
import type { BusyPartition, Cited, TableEvidence } from './combine';
import type { EvidenceOrigin, SamplerKind } from './types';

/** "nodetool tablestats, node 10.0.0.3, 2026-11-20". */
export function originText(origin: EvidenceOrigin): string {
  const parts: string[] = [origin.tool];
  if (origin.node) parts.push(`node ${origin.node}`);
  if (origin.captured)
    parts.push(origin.capturedFrom === 'file time' ? `file dated ${origin.captured}` : origin.captured);
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

export function evidenceFindingData(c: {
  origin: EvidenceOrigin;
  line: number;
  label: string;
  value: number;
  unit?: Cited['unit'];
}): EvidenceFindingData {
  return {
    tool: c.origin.tool,
    file: c.origin.file,
    line: c.line,
    ...(c.origin.node ? { node: c.origin.node } : {}),
    ...(c.origin.captured ? { captured: c.origin.captured } : {}),
    label: c.label,
    value: c.value,
    ...(c.unit ? { unit: c.unit } : {}),
  };
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
export function measuredRates(
  evidence: TableEvidence | undefined,
): Partial<Record<SamplerKind, BusyPartition & { perSecond: number }>> {
  const out: Partial<Record<SamplerKind, BusyPartition & { perSecond: number }>> = {};
  for (const kind of ['writes', 'reads'] as const) {
    const b = evidence?.busiest[kind];
    if (b?.perSecond !== undefined) out[kind] = b as BusyPartition & { perSecond: number };
  }
  return out;
}

/** The hints with the measured rates in place of the hinted ones (measured wins). */
export function hintsWithMeasuredRates(
  hints: TableHints | undefined,
  evidence: TableEvidence | undefined,
): TableHints | undefined {
  const rates = measuredRates(evidence);
  if (!rates.writes && !rates.reads) return hints;
  return {
    ...hints,
    ...(rates.writes ? { writesPerSecondPerPartition: Math.ceil(rates.writes.perSecond) } : {}),
    ...(rates.reads ? { readsPerSecondPerPartition: Math.ceil(rates.reads.perSecond) } : {}),
  };
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
  const rate =
    g.first.unit === 'bytes'
      ? `${formatBytes(Math.abs(g.perDay))}/day`
      : `${formatCount(Math.abs(g.perDay))} ${g.first.unit}/day`;
  return `measured on the cluster: ${citeText(g.first)} → ${citeText(g.last)}, ${g.growing ? `+${rate}` : g.perDay < 0 ? `−${rate}` : 'no growth'} over ${formatCount(g.days)} day${g.days === 1 ? '' : 's'}`;
}

// -------------------------------------------------------------------------------------------------
// The phrases the rules put in their messages (so that a rule's edit stays a few lines)

/** " (measured: nodetool toppartitions, node ..., date: 58,000 writes in 60 s on partition k (file:line))", else " (hinted)". */
export function measuredRateNote(b: BusyPartition | undefined): string {
  return b ? ` (measured: ${busyText(b)})` : ' (hinted)';
}

/** "measured on the cluster, partition k takes at least 91% of the writes sampled over 7 partitions (cite)". */
export function measuredHotText(b: BusyPartition): string {
  return `measured on the cluster, partition ${b.key} takes ${shareText(b)} (${busyText(b)})`;
}

/** "; at that pace the largest partition reaches 100 MB per partition in about 21 days" (for a bytes limit). */
export function measuredReachText(
  g: MeasuredGrowth,
  limitBytes: number | undefined,
  limitLabel: string | undefined,
): string {
  if (g.first.unit !== 'bytes' || !g.growing || limitBytes === undefined || !limitLabel) return '';
  const left = limitBytes - g.last.value;
  if (left <= 0) return `; the largest partition is already past ${limitLabel}`;
  return `; at that pace the largest partition reaches ${limitLabel} in about ${formatCount(Math.ceil(left / g.perDay))} days`;
}
