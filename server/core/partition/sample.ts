// What the partition rules, the table hover and the report read of a sample of real rows (a cqlsh
// `COPY ... TO` CSV named by .cqlint.json `samples`): its partitions measured. A SampleSummary
// (report/sample.ts) is one; the rules get it through their context (RuleContext.sample), already read,
// because they are synchronous. Judged against the target's limits by sampleVerdict (sizing.ts).
import { formatBytes, formatCount } from '../util/format';

export interface PartitionSample {
  /** The CSV's path. */
  file: string;
  /** How messages name it: as the .cqlint.json writes it (else the path). */
  name: string;
  rows: number;
  partitions: number;
  rowsPerPartition: { p50: number; p99: number; max: number; mean: number };
  /** Estimated bytes per partition: the sizing formula with each row's variable-size values measured. */
  bytesPerPartition: { p50: number; p99: number; max: number };
  /** Bytes one write or read of a row moves (partition key, the row, cell metadata), values measured. */
  rowOperationBytes: { mean: number; max: number };
  malformedCount: number;
  /** Reading stopped before the end: never handed to the rules. */
  cancelled?: boolean;
  /**
   * Set when the sample has more partitions than are tallied (io/input-limits.ts KEY_LIMITS): `partitions`
   * is then an estimate, the figures per partition cover the `tracked` largest ones (each at least the rows
   * shown), and no partition left out has more than `untrackedRowsAtMost` rows.
   */
  approximate?: { tracked: number; untrackedRowsAtMost: number };
}

/** "from sample samples/posts.csv: 1,234 partitions, largest 120,000 rows / 8.2 MB": how every message cites a sample. */
export function sampleSummaryText(sample: PartitionSample): string {
  return (
    `from sample ${sample.name}: ${sample.approximate ? 'about ' : ''}${formatCount(sample.partitions)} partition${sample.partitions === 1 ? '' : 's'}, ` +
    `largest ${formatCount(sample.rowsPerPartition.max)} row${sample.rowsPerPartition.max === 1 ? '' : 's'} / ${formatBytes(sample.bytesPerPartition.max)}` +
    (sample.cancelled ? ' (partial: its reading was cancelled)' : '')
  );
}

/** The sample's measured partitions as the partition rules' finding data carry them. */
export function sampleFindingData(sample: PartitionSample): {
  file: string;
  partitions: number;
  maxRows: number;
  maxBytes: number;
  p99Rows: number;
  p99Bytes: number;
} {
  return {
    file: sample.file,
    partitions: sample.partitions,
    maxRows: sample.rowsPerPartition.max,
    maxBytes: sample.bytesPerPartition.max,
    p99Rows: sample.rowsPerPartition.p99,
    p99Bytes: sample.bytesPerPartition.p99,
  };
}
