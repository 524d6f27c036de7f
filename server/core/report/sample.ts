// What a sample of real rows (a cqlsh COPY ... TO CSV) says about a table's partitions.
export interface SamplePartition {
  /** The partition key values as written in the CSV. */
  key: string[];
  rows: number;
  /** Estimated bytes (the sizing formula with the row's measured value sizes). */
  bytes: number;
  /** The Murmur3Partitioner token, as `SELECT token(...)` returns it. */
  token?: string;
}

export interface SampleSummary {
  file: string;
  rows: number;
  partitions: number;
  /** Rows that could not be read, first ones by line (the count covers all). */
  malformed: { line: number; reason: string }[];
  malformedCount: number;
  rowsPerPartition: { p50: number; p99: number; max: number; mean: number; histogram: { from: number; to: number; partitions: number }[] };
  bytesPerPartition: { p50: number; p99: number; max: number };
  largest: SamplePartition[];
  /** Rows per shard under the table's (or the proposed) shard formula, and under the other formula. */
  spread?: { formula: string; rows: number; counts: number[]; comparisonCounts?: number[] };
  /** Partitions and rows per node, with a ring. */
  nodes?: { address: string; partitions: number; rows: number }[];
  /** True when reading stopped before the end (cancelled). */
  cancelled?: boolean;
}
