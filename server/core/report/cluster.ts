// The report's "On the cluster" panel: what the configured evidence measured of the table (partition-size
// percentiles against the target's limits, the top partitions with their exact tokens and, with a ring
// file, their replicas, the busiest partition's share) and the cure shown for that very key. Its own
// module with a small hook into data.ts and html.ts, so that the report can change around it.
import type { TableHints } from '../vocabulary/config';
import type { TableInfo } from '../schema/model';
import type { UdtLookup as SizingUdtLookup } from '../partition/sizing';
import { formatBytes, formatCount, formatDuration } from '../util/format';
import { type TargetInfo } from '../partition/targets';
import { replicasFor, replicationFromMap, type Ring } from '../token/ring';
import type { UdtLookup } from '../token/types';
import {
  decodePartitionKey,
  growthText,
  lineRef,
  originText,
  shareText,
  valueText,
  type BusyPartition,
  type Cited,
  type EvidenceOrigin,
  type TableEvidence,
} from '../evidence';
import { measuredSizeVerdict } from '../partition/measured';
import type { MeasuredHot } from '../partition/verdicts';
import { escapeHtml } from './svg';

interface KeyColumns {
  /** The printed key. */
  key: string;
  /** The key decoded into the table's partition key columns. */
  columns: { name: string; value: string }[];
  /** Murmur3Partitioner token, as `SELECT token(...)` returns it. */
  token?: string;
  /** The token the tool printed with the key (ScyllaDB), when it did. */
  printedToken?: string;
  /** Replicas of the token, with a ring file and the keyspace's replication. */
  replicas?: string[];
  /** Why the key could not be decoded or hashed. */
  problem?: string;
}

export interface ClusterTopRow extends KeyColumns {
  /** What the row counts: sampled writes or reads (toppartitions), rows (dsbulk) or bytes (ScyllaDB large partitions). */
  measure: 'writes' | 'reads' | 'rows' | 'bytes';
  value: number;
  perSecond?: number;
  /** Share of the sampled operations or of the table's rows (0..1). */
  share?: number;
  shareIsLowerBound?: boolean;
  /** The share is of the partitions listed (the output does not say how many the sampler saw). */
  shareOfListed?: boolean;
  /** "nodetool toppartitions, node 10.0.0.3, 2026-11-20 (top.txt:7)". */
  source: string;
}

export interface ClusterPanelData {
  sources: { name: string; tool: string; variant: string; node?: string; captured?: string }[];
  /** The largest partition, cited. */
  largest?: string;
  /** The measured largest partition against each of the target's limits it can be compared with. */
  reaches: { limit: string; source: string; measured: string; percent: number; over: boolean }[];
  /** tablehistograms percentiles (max over nodes), with the share of the target's bytes limit. */
  percentiles: { percentile: string; bytes?: number; cells?: number; percentOfLimit?: number }[];
  percentilesSource?: string;
  bytesLimit?: { label: string; value: number };
  top: ClusterTopRow[];
  /** The busiest partition: its share of the sampled traffic, and whether that makes it hot. */
  busiest?: { row: ClusterTopRow; text: string; hot: boolean };
  /** The cure of the report shown for the busiest (else largest) partition's own key. */
  keyFix?: string;
  growth?: string;
  nodes: {
    node: string;
    partitions?: number;
    maxBytes?: number;
    meanBytes?: number;
    writes?: number;
    reads?: number;
  }[];
}

/** What the panel needs of the rest of the report: the cure the fix would add. */
export interface ClusterContext {
  ring?: Ring;
  /** Keyspace replication (`{ class, dc1: 3 }`), for replicas. */
  replication?: Record<string, string | number>;
  /** The preferred fix: its shards and bucket period (either or both), in words. */
  cure?: { shardCount?: number; bucketSeconds?: number; description: string };
  suggestedKey?: string;
  /** hot-partition's measured verdict (partition/verdicts.ts measuredHot): the busiest partition, judged against the table's partitions. */
  hot?: MeasuredHot;
}

function sourceOf(origin: EvidenceOrigin, line: number): string {
  return `${originText(origin)} (${lineRef(origin, line)})`;
}

function keyColumns(
  printed: string,
  origin: EvidenceOrigin,
  table: TableInfo,
  udts: UdtLookup | undefined,
  context: ClusterContext,
  printedToken?: string,
): KeyColumns {
  const decoded = decodePartitionKey(printed, origin.tool, table, udts);
  const out: KeyColumns = {
    key: printed,
    columns:
      decoded.values.length === table.partitionKey.length
        ? table.partitionKey.map((c, i) => ({ name: c.name, value: decoded.values[i]! }))
        : [],
    ...(decoded.token ? { token: decoded.token } : {}),
    ...(printedToken ? { printedToken } : {}),
    ...(decoded.problem ? { problem: decoded.problem } : {}),
  };
  if (decoded.token && context.ring) {
    const replication = context.replication?.class
      ? replicationFromMap(context.replication)
      : { strategy: 'SimpleStrategy' as const, replicationFactor: 1 };
    out.replicas = replicasFor(context.ring, BigInt(decoded.token), replication).map((n) => n.address);
  }
  return out;
}

function busyRow(
  b: BusyPartition,
  table: TableInfo,
  udts: UdtLookup | undefined,
  context: ClusterContext,
): ClusterTopRow {
  return {
    ...keyColumns(b.key, b.origin, table, udts, context),
    measure: b.kind,
    value: b.count,
    ...(b.perSecond !== undefined ? { perSecond: b.perSecond } : {}),
    ...(b.share !== undefined
      ? { share: b.share, shareIsLowerBound: b.shareIsLowerBound, shareOfListed: b.shareOfListed }
      : {}),
    source: sourceOf(b.origin, b.line),
  };
}

/** The cure for one key: "((day, region, shard), ts): this partition becomes 16, about 3,625 writes each in 60 s". */
function keyFixText(row: ClusterTopRow, context: ClusterContext): string | undefined {
  const cure = context.cure;
  if (!cure || !context.suggestedKey) return undefined;
  const key = row.columns.map((c) => `${c.name} = ${c.value}`).join(', ') || row.key;
  const parts: string[] = [];
  if (cure.shardCount) {
    const each =
      row.measure === 'writes' || row.measure === 'reads'
        ? `, about ${formatCount(row.value / cure.shardCount)} ${row.measure} each where it took ${formatCount(row.value)}`
        : row.measure === 'rows'
          ? `, about ${formatCount(row.value / cure.shardCount)} rows each`
          : '';
    parts.push(`becomes ${cure.shardCount} partitions (one per shard value)${each}`);
  }
  if (cure.bucketSeconds)
    parts.push(
      `${cure.shardCount ? 'and its' : 'its'} rows go to a new partition every ${formatDuration(cure.bucketSeconds)} instead of growing one partition`,
    );
  if (!parts.length) return undefined;
  return `With the fix (${cure.description}), partition key ${context.suggestedKey}: the partition ${key} ${parts.join(', ')}.`;
}

/** The panel's data, or undefined when no evidence names the table. */
export function clusterPanelData(
  table: TableInfo,
  evidence: TableEvidence | undefined,
  target: TargetInfo,
  hints: TableHints | undefined,
  udts: { sizing?: SizingUdtLookup; token?: UdtLookup },
  context: ClusterContext = {},
): ClusterPanelData | undefined {
  if (!evidence) return undefined;
  const verdict = measuredSizeVerdict(table, target, hints, udts.sizing, evidence);
  const bytesLimit = Number.isFinite(target.partitionBytes.value)
    ? { label: target.partitionBytes.label, value: target.partitionBytes.value }
    : undefined;
  const cite = (c: Cited | undefined): string | undefined =>
    c ? `${valueText(c.value, c.unit)}: ${c.label}, ${sourceOf(c.origin, c.line)}` : undefined;
  const order = ['p50', 'p75', 'p95', 'p98', 'p99', 'min', 'max'] as const;
  const p = evidence.percentiles;
  const percentiles = p
    ? order
        .filter((k) => p.bytes[k] || p.cells[k])
        .map((k) => ({
          percentile: k === 'min' ? 'Min' : k === 'max' ? 'Max' : `${k.slice(1)}%`,
          ...(p.bytes[k] ? { bytes: p.bytes[k]!.value } : {}),
          ...(p.cells[k] ? { cells: p.cells[k]!.value } : {}),
          ...(p.bytes[k] && bytesLimit ? { percentOfLimit: (p.bytes[k]!.value / bytesLimit.value) * 100 } : {}),
        }))
    : [];
  const anyPercentile = p && (Object.values(p.bytes)[0] ?? Object.values(p.cells)[0]);
  const top: ClusterTopRow[] = [];
  for (const { partitions } of evidence.top)
    for (const b of partitions.slice(0, 10)) top.push(busyRow(b, table, udts.token, context));
  for (const c of evidence.counted?.partitions.slice(0, 10) ?? []) {
    top.push({
      ...keyColumns(c.key, c.origin, table, udts.token, context),
      measure: 'rows',
      value: c.rows ?? 0,
      ...(c.percent !== undefined ? { share: c.percent / 100 } : {}),
      source: sourceOf(c.origin, c.line),
    });
  }
  for (const l of evidence.large?.slice(0, 10) ?? []) {
    top.push({
      ...keyColumns(l.key, l.origin, table, udts.token, context, l.token),
      measure: 'bytes',
      value: l.bytes ?? 0,
      source: sourceOf(l.origin, l.line),
    });
  }
  const hotness = context.hot;
  const busiest = hotness
    ? { row: busyRow(hotness.busiest, table, udts.token, context), text: shareText(hotness.busiest), hot: hotness.hot }
    : undefined;
  const fixRow = busiest?.row ?? top[0];
  return {
    sources: evidence.origins.map((o) => ({
      name: o.name,
      tool: o.tool,
      variant: o.variant,
      ...(o.node ? { node: o.node } : {}),
      ...(o.captured ? { captured: o.captured } : {}),
    })),
    largest: cite(evidence.maxPartitionBytes),
    reaches: (verdict?.reaches ?? []).map((r) => ({
      limit: r.limitLabel,
      source: r.limitSource,
      measured: valueText(r.measured.value, r.measured.unit),
      percent: r.share * 100,
      over: r.share > 1,
    })),
    percentiles,
    ...(anyPercentile
      ? {
          percentilesSource: `nodetool tablehistograms, max over ${new Set(evidence.origins.filter((o) => o.tool === 'nodetool tablehistograms').map((o) => o.node ?? o.name)).size} node(s)`,
        }
      : {}),
    ...(bytesLimit ? { bytesLimit } : {}),
    top,
    ...(busiest ? { busiest } : {}),
    ...(fixRow && keyFixText(fixRow, context) ? { keyFix: keyFixText(fixRow, context) } : {}),
    ...(evidence.growth ? { growth: growthText({ ...evidence.growth, growing: evidence.growth.perDay > 0 }) } : {}),
    nodes: evidence.nodes.map((n) => ({
      node: n.node,
      partitions: n.partitionsEstimate,
      maxBytes: n.maxPartitionBytes,
      meanBytes: n.meanPartitionBytes,
      writes: n.localWrites,
      reads: n.localReads,
    })),
  };
}

const pct = (n: number): string => `${n >= 10 ? formatCount(n) : n.toFixed(1)}%`;

/** The panel's HTML (empty without evidence). */
export function clusterPanelHtml(data: ClusterPanelData | undefined, table: string): string {
  if (!data) return '';
  const e = escapeHtml;
  const parts: string[] = [
    `<section class="cluster" data-figure="cluster" aria-label="On the cluster: ${e(table)}"><h3>On the cluster</h3>`,
  ];
  parts.push(
    `<p class="muted" data-figure="cluster-sources">Measured by ${data.sources.map((s) => `${e(s.tool)} (${e(s.variant)}${s.node ? `, node ${e(s.node)}` : ''}${s.captured ? `, ${e(s.captured)}` : ''}; <code>${e(s.name)}</code>)`).join('; ')}. Measured figures win over workload hints in the diagnostics.</p>`,
  );
  if (data.largest) parts.push(`<p data-figure="cluster-largest">Largest partition: ${e(data.largest)}.</p>`);
  if (data.reaches.length) {
    parts.push(
      `<ul data-figure="cluster-limits">${data.reaches.map((r) => `<li class="${r.over ? 'sev-warning' : ''}" data-over="${r.over}">${e(r.measured)} is <strong>${pct(r.percent)}</strong> of <a href="${e(r.source)}">${e(r.limit)}</a>${r.over ? ': past it' : ''}</li>`).join('')}</ul>`,
    );
  }
  if (data.percentiles.length) {
    const limit = data.bytesLimit ? `<th class="num">of ${e(data.bytesLimit.label)}</th>` : '';
    parts.push(
      `<table data-figure="cluster-percentiles"><caption>Partition size and cells per partition (${e(data.percentilesSource ?? 'nodetool tablehistograms')})</caption><thead><tr><th>percentile</th><th class="num">partition size</th>${limit}<th class="num">cells</th></tr></thead><tbody>` +
        data.percentiles
          .map(
            (r) =>
              `<tr data-percentile="${e(r.percentile)}"><td>${e(r.percentile)}</td><td class="num" data-bytes="${r.bytes ?? ''}">${r.bytes !== undefined ? formatBytes(r.bytes) : '—'}</td>` +
              `${limit ? `<td class="num">${r.percentOfLimit !== undefined ? pct(r.percentOfLimit) : '—'}</td>` : ''}<td class="num">${r.cells !== undefined ? formatCount(r.cells) : '—'}</td></tr>`,
          )
          .join('') +
        '</tbody></table>',
    );
  }
  if (data.busiest) {
    const b = data.busiest;
    parts.push(
      `<p data-figure="cluster-busiest" class="${b.hot ? 'sev-warning' : ''}">Busiest partition: <code>${e(b.row.key)}</code> takes ${e(b.text)}${b.row.perSecond !== undefined ? `, ${formatCount(b.row.perSecond)} ${b.row.measure}/s` : ''}${b.hot ? ': a hot partition' : ''} (${e(b.row.source)}).</p>`,
    );
  }
  if (data.keyFix) parts.push(`<p data-figure="cluster-key-fix">${e(data.keyFix)}</p>`);
  if (data.top.length) {
    const replicas = data.top.some((r) => r.replicas);
    parts.push(
      `<table data-figure="cluster-top"><caption>Top partitions</caption><thead><tr><th>measured</th><th>partition key</th><th class="num">token</th>${replicas ? '<th>replicas</th>' : ''}<th class="num">count</th><th class="num">share</th><th>source</th></tr></thead><tbody>` +
        data.top
          .map((r) => {
            const key = r.columns.length ? r.columns.map((c) => `${e(c.name)} = ${e(c.value)}`).join(', ') : e(r.key);
            const value =
              r.measure === 'bytes'
                ? formatBytes(r.value)
                : `${formatCount(r.value)} ${r.measure}${r.perSecond !== undefined ? ` (${formatCount(r.perSecond)}/s)` : ''}`;
            const share =
              r.share !== undefined
                ? `${r.shareIsLowerBound ? '≥ ' : ''}${pct(r.share * 100)}${r.shareOfListed ? ' of listed' : ''}`
                : '—';
            return (
              `<tr data-measure="${r.measure}" data-key="${e(r.key)}"><td>${r.measure}</td><td class="mono">${key}${r.problem ? ` <span class="muted">(${e(r.problem)})</span>` : ''}</td>` +
              `<td class="num mono" data-token="${e(r.token ?? '')}">${e(r.token ?? '—')}${r.printedToken && r.printedToken !== r.token ? ` <span class="sev-warning">(printed ${e(r.printedToken)})</span>` : ''}</td>` +
              `${replicas ? `<td class="mono" data-replicas="${e((r.replicas ?? []).join(' '))}">${e((r.replicas ?? []).join(', ') || '—')}</td>` : ''}` +
              `<td class="num">${value}</td><td class="num">${share}</td><td class="muted">${e(r.source)}</td></tr>`
            );
          })
          .join('') +
        '</tbody></table>',
    );
  }
  if (data.growth) parts.push(`<p data-figure="cluster-growth">${e(data.growth)}.</p>`);
  if (data.nodes.length) {
    parts.push(
      `<table data-figure="cluster-nodes"><caption>Per node</caption><thead><tr><th>node</th><th class="num">partitions (estimate)</th><th class="num">largest</th><th class="num">mean</th><th class="num">local writes</th><th class="num">local reads</th></tr></thead><tbody>` +
        data.nodes
          .map(
            (n) =>
              `<tr><td class="mono">${e(n.node)}</td><td class="num">${n.partitions !== undefined ? formatCount(n.partitions) : '—'}</td><td class="num">${n.maxBytes !== undefined ? formatBytes(n.maxBytes) : '—'}</td>` +
              `<td class="num">${n.meanBytes !== undefined ? formatBytes(n.meanBytes) : '—'}</td><td class="num">${n.writes !== undefined ? formatCount(n.writes) : '—'}</td><td class="num">${n.reads !== undefined ? formatCount(n.reads) : '—'}</td></tr>`,
          )
          .join('') +
        '</tbody></table>',
    );
  }
  parts.push('</section>');
  return parts.join('');
}
