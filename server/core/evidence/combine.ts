// Several files' figures for one table, combined into what the rules, the hover and the report read.
// Each combined figure keeps the line it came from. How figures of several nodes combine:
// - partition sizes, cell counts, rows: the maximum over nodes (the largest partition is the one that
//   hurts; every replica holds it), naming the node it was measured on;
// - tablehistograms percentiles: each percentile's maximum over nodes;
// - toppartitions: per key, the maximum over nodes (each replica samples the same writes, so a sum would
//   count them RF times), per sampler kind; its duration turns counts into rates;
// - partitions (estimate) and local write counts: per node (listed);
// - size_estimates: summed over nodes (each node reports its own primary ranges);
// - growth: per capture date the maximum over nodes, the first date against the last.
import type {
  CountedPartition,
  EvidenceFile,
  EvidenceOrigin,
  Measured,
  Percentiles,
  SamplerKind,
  TableFigures,
} from './types';
import type { TableInfo } from '../schema/model';
import type { UdtLookup } from '../token/types';
import { decodePartitionKey, keyFitsColumns } from './keys';

export type FigureUnit = 'bytes' | 'count' | 'cells' | 'rows';

/** A figure with where it was read: the file (tool, node, date) and the line. */
export interface Cited {
  value: number;
  unit: FigureUnit;
  /** What it is, as messages say it: "compacted partition maximum". */
  label: string;
  origin: EvidenceOrigin;
  line: number;
}

export interface BusyPartition {
  kind: SamplerKind;
  key: string;
  count: number;
  error: number;
  /** count / duration, when the duration is known. */
  perSecond?: number;
  durationMs?: number;
  /** Share of the sampled operations (0..1): exact when every sampled partition is listed, else a lower bound. */
  share?: number;
  /** True when `share` is a lower bound (the sampler saw more partitions than it listed). */
  shareIsLowerBound: boolean;
  /**
   * True when the output does not say how many partitions the sampler saw (Cassandra 4.0+): the share is
   * then of the partitions listed only.
   */
  shareOfListed: boolean;
  /** Partitions the sampler saw. */
  distinct: number;
  origin: EvidenceOrigin;
  line: number;
}

export interface TableEvidence {
  /** `keyspace.table`. */
  table: string;
  /** Every file with figures for the table. */
  origins: EvidenceOrigin[];
  /** The largest partition in bytes: the maximum of every measure of it, with its source. */
  maxPartitionBytes?: Cited;
  /** The most cells in a partition (tablehistograms' Cell Count Max). */
  maxCells?: Cited;
  /** The most rows in a partition (dsbulk partitions, ScyllaDB large_partitions rows). */
  maxRows?: Cited;
  /** The largest row in bytes (ScyllaDB large_rows). */
  maxRowBytes?: Cited;
  /** tablehistograms: each percentile's maximum over nodes. */
  percentiles?: { bytes: Partial<Record<keyof Percentiles, Cited>>; cells: Partial<Record<keyof Percentiles, Cited>> };
  /** Per node: what tablestats and size_estimates say of the node's share of the table. */
  nodes: {
    node: string;
    partitionsEstimate?: number;
    maxPartitionBytes?: number;
    meanPartitionBytes?: number;
    localWrites?: number;
    localReads?: number;
    origin: EvidenceOrigin;
  }[];
  /** size_estimates summed over the nodes given. */
  estimatedPartitions?: Cited;
  /** toppartitions per kind: the partitions, busiest first, per key the maximum over nodes. */
  top: { kind: SamplerKind; partitions: BusyPartition[] }[];
  /** The busiest partition of each kind the samplers saw. */
  busiest: Partial<Record<SamplerKind, BusyPartition>>;
  /** dsbulk partitions (largest first) and the table's total rows. */
  counted?: { partitions: (CountedPartition & { origin: EvidenceOrigin })[]; totalRows?: number };
  /** ScyllaDB's recorded large partitions (largest first), with the token it printed. */
  large?: (CountedPartition & { origin: EvidenceOrigin })[];
  /** dsbulk hosts: rows per replica. */
  hosts?: { host: string; rows: number; percent: number }[];
  /** The largest partition measured at two or more capture dates: the first and the last. */
  growth?: { first: Cited; last: Cited; days: number; perDay: number };
}

const CASSANDRA_HISTOGRAM_LABEL = 'partition size';

function cite(m: Measured | undefined, unit: FigureUnit, label: string, origin: EvidenceOrigin): Cited | undefined {
  return m ? { value: m.value, unit, label, origin, line: m.line } : undefined;
}

function larger(a: Cited | undefined, b: Cited | undefined): Cited | undefined {
  if (!a) return b;
  if (!b) return a;
  return b.value > a.value ? b : a;
}

/** A key as messages show it: ScyllaDB's `pk{<hex>}` decoded into the key's values. */
type KeyText = (printed: string, origin: EvidenceOrigin) => string;

/** Every measure of the largest partition's bytes one file gives for a table. */
function partitionBytesOf(f: TableFigures, origin: EvidenceOrigin, keyText: KeyText): Cited | undefined {
  let best = cite(f.partitionBytes?.max, 'bytes', 'compacted partition maximum', origin);
  best = larger(best, cite(f.histogram?.partitionBytes.max, 'bytes', `${CASSANDRA_HISTOGRAM_LABEL} Max`, origin));
  const top = f.largePartitions?.[0];
  if (top?.bytes !== undefined) {
    best = larger(best, {
      value: top.bytes,
      unit: 'bytes',
      label:
        origin.tool === 'nodetool tablestats'
          ? `top partition by size (${keyText(top.key, origin)})`
          : `large partition ${keyText(top.key, origin)}`,
      origin,
      line: top.line,
    });
  }
  return best;
}

/** The table names a file may use for a table: `ks.name`, and `name` alone when the schema names no keyspace. */
export function tableMatches(fileTable: string, keyspace: string | undefined, name: string): boolean {
  const dot = fileTable.indexOf('.');
  const ks = dot >= 0 ? fileTable.slice(0, dot) : undefined;
  const tn = dot >= 0 ? fileTable.slice(dot + 1) : fileTable;
  const norm = (s: string): string => (/^".*"$/.test(s) ? s.slice(1, -1) : s.toLowerCase());
  if (norm(tn) !== name.toLowerCase() && tn.replace(/^"|"$/g, '') !== name) return false;
  return keyspace === undefined
    ? true
    : ks !== undefined && (norm(ks) === keyspace.toLowerCase() || ks.replace(/^"|"$/g, '') === keyspace);
}

function dayOf(origin: EvidenceOrigin): number | undefined {
  if (!origin.captured) return undefined;
  const t = Date.parse(origin.captured.length === 10 ? `${origin.captured}T00:00:00Z` : origin.captured);
  return Number.isFinite(t) ? t / 86_400_000 : undefined;
}

/** The figures of `files` for one table, combined; undefined when no file has any. */
export function combineEvidence(
  table: Pick<TableInfo, 'keyspace' | 'name' | 'partitionKey'>,
  files: readonly EvidenceFile[],
  udts?: UdtLookup,
): TableEvidence | undefined {
  const { keyspace, name } = table;
  const columns = table.partitionKey.length;
  const keyText: KeyText = (printed, origin) => {
    if (!printed.startsWith('pk{')) return printed;
    const decoded = decodePartitionKey(printed, origin.tool, table as TableInfo, udts);
    return decoded.problem ? printed : `(${decoded.values.join(', ')})`;
  };
  const matched: { figures: TableFigures; origin: EvidenceOrigin }[] = [];
  for (const file of files) {
    if (file.cancelled) continue;
    for (const figures of file.tables)
      if (tableMatches(figures.table, keyspace, name)) matched.push({ figures, origin: file.origin });
  }
  if (!matched.length) return undefined;
  const evidence: TableEvidence = {
    table: keyspace ? `${keyspace}.${name}` : name,
    origins: [...new Set(matched.map((m) => m.origin))],
    nodes: [],
    top: [],
    busiest: {},
  };
  const byKind = new Map<SamplerKind, Map<string, BusyPartition>>();
  const byDate = new Map<number, Cited>();
  let estimated: { partitions: number; line: number; origin: EvidenceOrigin } | undefined;
  for (const { figures: f, origin } of matched) {
    const bytes = partitionBytesOf(f, origin, keyText);
    evidence.maxPartitionBytes = larger(evidence.maxPartitionBytes, bytes);
    const day = dayOf(origin);
    if (bytes && day !== undefined) byDate.set(day, larger(byDate.get(day), bytes)!);
    evidence.maxCells = larger(evidence.maxCells, cite(f.histogram?.cellCount.max, 'cells', 'cell count Max', origin));
    if (f.histogram) {
      const p = (evidence.percentiles ??= { bytes: {}, cells: {} });
      for (const k of Object.keys(f.histogram.partitionBytes) as (keyof Percentiles)[])
        p.bytes[k] = larger(p.bytes[k], cite(f.histogram.partitionBytes[k], 'bytes', `partition size ${k}`, origin));
      for (const k of Object.keys(f.histogram.cellCount) as (keyof Percentiles)[])
        p.cells[k] = larger(p.cells[k], cite(f.histogram.cellCount[k], 'cells', `cell count ${k}`, origin));
    }
    const fitting = f.partitions?.filter((p) => keyFitsColumns(p.key, origin.tool, columns));
    const counted = fitting?.[0];
    if (counted?.rows !== undefined)
      evidence.maxRows = larger(evidence.maxRows, {
        value: counted.rows,
        unit: 'rows',
        label: `rows of partition ${counted.key}`,
        origin,
        line: counted.line,
      });
    const large = f.largePartitions?.find((p) => p.rows !== undefined);
    if (large?.rows !== undefined && origin.tool === 'system.large_partitions')
      evidence.maxRows = larger(evidence.maxRows, {
        value: large.rows,
        unit: 'rows',
        label: `rows of large partition ${keyText(large.key, origin)}`,
        origin,
        line: large.line,
      });
    const row = f.largeRows?.[0];
    if (row?.bytes !== undefined)
      evidence.maxRowBytes = larger(evidence.maxRowBytes, {
        value: row.bytes,
        unit: 'bytes',
        label: `large row in partition ${keyText(row.key, origin)}`,
        origin,
        line: row.line,
      });
    if (fitting?.length) {
      const c = (evidence.counted ??= { partitions: [] });
      c.partitions.push(...fitting.map((p) => ({ ...p, origin })));
      if (f.totalRows) c.totalRows = Math.max(c.totalRows ?? 0, f.totalRows.value);
    }
    if (f.largePartitions?.length) (evidence.large ??= []).push(...f.largePartitions.map((p) => ({ ...p, origin })));
    if (f.hosts?.length) evidence.hosts = f.hosts.map(({ host, rows, percent }) => ({ host, rows, percent }));
    if (f.sizeEstimates) {
      estimated = {
        partitions: (estimated?.partitions ?? 0) + f.sizeEstimates.partitions.value,
        line: f.sizeEstimates.partitions.line,
        origin,
      };
    }
    if (f.partitionsEstimate || f.partitionBytes || f.localWrites || f.sizeEstimates) {
      evidence.nodes.push({
        node: origin.node ?? origin.name,
        partitionsEstimate: f.partitionsEstimate?.value ?? f.sizeEstimates?.partitions.value,
        maxPartitionBytes: f.partitionBytes?.max?.value,
        meanPartitionBytes: f.partitionBytes?.mean?.value ?? f.sizeEstimates?.meanPartitionBytes.value,
        localWrites: f.localWrites?.value,
        localReads: f.localReads?.value,
        origin,
      });
    }
    for (const sampler of f.samplers ?? []) {
      // Partitions of another key (the table re-keyed since the capture) are not this table's.
      const s = {
        ...sampler,
        partitions: sampler.partitions.filter((p) => keyFitsColumns(p.key, origin.tool, columns)),
      };
      if (!s.partitions.length) continue;
      const listed = s.partitions.reduce((sum, p) => sum + p.count, 0);
      const smallest = s.partitions.length ? s.partitions[s.partitions.length - 1]!.count : 0;
      const distinct = Math.max(s.cardinality ?? 0, s.partitions.length);
      // Partitions seen but not listed each had at most the smallest listed count.
      const total = listed + Math.max(0, distinct - s.partitions.length) * smallest;
      const keys = byKind.get(s.kind) ?? new Map<string, BusyPartition>();
      byKind.set(s.kind, keys);
      for (const p of s.partitions) {
        const busy: BusyPartition = {
          kind: s.kind,
          key: p.key,
          count: p.count,
          error: p.error,
          ...(s.durationMs ? { perSecond: p.count / (s.durationMs / 1000), durationMs: s.durationMs } : {}),
          ...(total > 0 ? { share: p.count / total } : {}),
          shareIsLowerBound: distinct > s.partitions.length,
          shareOfListed: s.cardinality === undefined,
          distinct,
          origin,
          line: p.line,
        };
        const known = keys.get(p.key);
        if (!known || busy.count > known.count) keys.set(p.key, busy);
      }
    }
  }
  for (const [kind, keys] of byKind) {
    const partitions = [...keys.values()].sort((a, b) => b.count - a.count);
    evidence.top.push({ kind, partitions });
    if (partitions[0]) evidence.busiest[kind] = partitions[0];
  }
  if (evidence.counted) {
    evidence.counted.partitions.sort((a, b) => (b.rows ?? 0) - (a.rows ?? 0));
    evidence.counted.partitions.splice(100);
  }
  if (evidence.large) {
    evidence.large.sort((a, b) => (b.bytes ?? 0) - (a.bytes ?? 0));
    evidence.large.splice(100);
  }
  if (estimated)
    evidence.estimatedPartitions = {
      value: estimated.partitions,
      unit: 'count',
      label: 'estimated partitions (system.size_estimates, summed over the nodes given)',
      origin: estimated.origin,
      line: estimated.line,
    };
  if (byDate.size >= 2) {
    const days = [...byDate.keys()].sort((a, b) => a - b);
    const first = byDate.get(days[0]!)!;
    const last = byDate.get(days[days.length - 1]!)!;
    const span = days[days.length - 1]! - days[0]!;
    if (span > 0) evidence.growth = { first, last, days: span, perDay: (last.value - first.value) / span };
  }
  return evidence;
}
