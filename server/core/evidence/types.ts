// What the evidence readers produce: per file, the figures each table's lines state, every figure with
// the line it was read from, so that rules, hovers and the report can quote it. Pure data (no I/O).

export type EvidenceTool =
  | 'nodetool tablestats'
  | 'nodetool tablehistograms'
  | 'nodetool toppartitions'
  | 'dsbulk count'
  | 'system.large_partitions'
  | 'system.large_rows'
  | 'system.size_estimates';

/** Where a file's figures come from: the tool and its variant, the node, the capture date. */
export interface EvidenceOrigin {
  /** The file's path. */
  file: string;
  /** How messages name it (as the config or the command line wrote it). */
  name: string;
  tool: EvidenceTool;
  /** The output variant read: "text", "JSON (-F json)", "Cassandra 4.x+", "ScyllaDB", ... */
  variant: string;
  /** The node the output was taken on (config, the header's `-h`, or `# node:`). */
  node?: string;
  /** Capture date, `YYYY-MM-DD` or an ISO time. */
  captured?: string;
  /** Where the capture date came from: the configuration, the file's `# captured:` header, or its modification time. */
  capturedFrom?: 'config' | 'header' | 'file time';
  /** The node's uptime when captured, in seconds (the header's `# uptime:`): the span tablestats' counts cover. */
  uptimeSeconds?: number;
}

/** A number read from a line of an evidence file. */
export interface Measured {
  value: number;
  /** 1-based line of the file. */
  line: number;
}

/** The seven figures `nodetool tablehistograms` prints per column. */
export interface Percentiles {
  p50?: Measured;
  p75?: Measured;
  p95?: Measured;
  p98?: Measured;
  p99?: Measured;
  min?: Measured;
  max?: Measured;
}

export type SamplerKind = 'writes' | 'reads';

/** One partition of a toppartitions sampler. */
export interface TopPartition {
  /** The key as printed (Cassandra's partition key type text: composite parts joined by `:`). */
  key: string;
  count: number;
  /** The ± error of the count. */
  error: number;
  line: number;
}

/** One sampler's output (WRITES or READS) for one table. */
export interface TopSampler {
  kind: SamplerKind;
  /** The sampling duration in milliseconds (from the command line or the configuration); unknown otherwise. */
  durationMs?: number;
  /** Distinct partitions the sampler saw ("Cardinality: ~N"), when the version prints it. */
  cardinality?: number;
  /** The sampled partitions, busiest first (at most EVIDENCE_BOUNDS.maxPartitions). */
  partitions: TopPartition[];
  line: number;
}

/** A partition dsbulk counted, or one ScyllaDB recorded as large. */
export interface CountedPartition {
  /** The key as printed (dsbulk: CQL literals joined by `|`; ScyllaDB: its key text). */
  key: string;
  rows?: number;
  bytes?: number;
  /** Share of the table's rows (dsbulk's percentage, 0..100). */
  percent?: number;
  /** The token ScyllaDB printed with the key, when it did. */
  token?: string;
  line: number;
}

/** The figures one file states for one table. */
export interface TableFigures {
  /** `keyspace.table` as the file names it. */
  table: string;
  /** nodetool tablestats. */
  partitionsEstimate?: Measured;
  partitionBytes?: { min?: Measured; mean?: Measured; max?: Measured };
  spaceUsedLive?: Measured;
  localReads?: Measured;
  localWrites?: Measured;
  localReadLatencyMs?: Measured;
  localWriteLatencyMs?: Measured;
  liveCellsPerSlice?: { mean?: Measured; max?: Measured };
  tombstonesPerSlice?: { mean?: Measured; max?: Measured };
  /** nodetool tablehistograms: partition size (bytes) and cell count percentiles. */
  histogram?: { partitionBytes: Percentiles; cellCount: Percentiles };
  /** nodetool toppartitions. */
  samplers?: TopSampler[];
  /** dsbulk count. */
  totalRows?: Measured;
  partitions?: CountedPartition[];
  hosts?: { host: string; rows: number; percent: number; line: number }[];
  ranges?: {
    count: number;
    totalRows: number;
    largest?: { start: string; end: string; rows: number; percent: number; line: number };
  };
  /** ScyllaDB system.large_partitions, largest first. */
  largePartitions?: CountedPartition[];
  /** ScyllaDB system.large_rows, largest first. */
  largeRows?: (CountedPartition & { clustering?: string })[];
  /** system.size_estimates: the node's ranges summed. */
  sizeEstimates?: { ranges: number; partitions: Measured; meanPartitionBytes: Measured };
}

export interface EvidenceProblem {
  line: number;
  reason: string;
  /**
   * A limit of the reader was reached (a line over the record cap, nesting too deep, too many tables):
   * what it says was not read. Listed before the other problems, so that messages always show it.
   */
  limit?: true;
}

/** One evidence file as read. */
export interface EvidenceFile {
  origin: EvidenceOrigin;
  tables: TableFigures[];
  /** Lines that could not be read, the first ones (the count covers all). */
  problems: EvidenceProblem[];
  problemCount: number;
  /** Lines read (for progress and the docs' numbers). */
  lines: number;
  /** True when reading stopped before the end (cancelled). */
  cancelled?: boolean;
}

/** What the configuration or the command line says about an evidence file or folder (declared with the rest of the configuration). */
export type { EvidenceSetting } from '../vocabulary/config';
