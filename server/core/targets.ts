// The databases cqlint lints for and the per-partition limits each one documents.
// Every number carries the page it comes from so messages and docs can cite it.

export type TargetId = 'cassandra' | 'scylladb' | 'keyspaces' | 'cosmosdb';

export const TARGET_IDS: readonly TargetId[] = ['cassandra', 'scylladb', 'keyspaces', 'cosmosdb'];

interface Limit {
  /** The threshold in the unit named by the field holding it (bytes, rows, values, units per second). */
  value: number;
  /** How the source phrases it, for messages: "100 MB per partition". */
  label: string;
  /** A page that states the limit. */
  source: string;
}

interface ThroughputLimit extends Limit {
  /** What one unit buys: Keyspaces' WCU is a 1 KB write, RCU a 4 KB LOCAL_QUORUM read. Absent: operations. */
  unitBytes?: number;
  /** Name of the unit: "WCU", "RCU", "RU/s", "ops/s". */
  unit: string;
}

export interface TargetInfo {
  id: TargetId;
  /** Display name: "Apache Cassandra". */
  name: string;
  /** Partition size above which the target warns or fails (bytes). */
  partitionBytes: Limit;
  /** The comfortable size the vendor recommends staying under (bytes), when it names one. */
  idealPartitionBytes?: Limit;
  /** Rows (or values) per partition the vendor flags. */
  partitionRows?: Limit;
  /** Largest row (bytes). */
  rowBytes?: Limit;
  /** Largest cell (bytes). */
  cellBytes?: Limit;
  /** Per-partition write and read throughput, where the target enforces one. */
  writesPerPartition?: ThroughputLimit;
  readsPerPartition?: ThroughputLimit;
}

const MB = 1024 * 1024;
const GB = 1024 * MB;

const CASSANDRA_MODELING = 'https://cassandra.apache.org/doc/latest/cassandra/developing/data-modeling/data-modeling_refining.html';
const DATASTAX_PARTITION_SIZE = 'https://docs.datastax.com/en/ddaccql/doc/cql/ddl/dataModelingAnalysis.html';
const SCYLLA_LARGE_PARTITIONS = 'https://docs.scylladb.com/manual/stable/troubleshooting/large-partition-table.html';
const SCYLLA_LARGE_ROWS = 'https://docs.scylladb.com/manual/stable/troubleshooting/large-rows-large-cells-tables.html';
const KEYSPACES_QUOTAS = 'https://docs.aws.amazon.com/keyspaces/latest/devguide/quotas.html';
const KEYSPACES_PARTITION_DESIGN = 'https://docs.aws.amazon.com/keyspaces/latest/devguide/bp-partition-key-design.html';
const COSMOS_LIMITS = 'https://learn.microsoft.com/en-us/azure/cosmos-db/concepts-limits';

const TARGETS: Record<TargetId, TargetInfo> = {
  cassandra: {
    id: 'cassandra',
    name: 'Apache Cassandra',
    partitionBytes: { value: 100 * MB, label: '100 MB per partition', source: CASSANDRA_MODELING },
    idealPartitionBytes: { value: 10 * MB, label: 'ideally under 10 MB per partition', source: CASSANDRA_MODELING },
    partitionRows: { value: 100_000, label: '100,000 values per partition', source: DATASTAX_PARTITION_SIZE },
  },
  scylladb: {
    id: 'scylladb',
    name: 'ScyllaDB',
    partitionBytes: { value: 1000 * MB, label: 'large-partition warning at 1000 MB', source: SCYLLA_LARGE_PARTITIONS },
    partitionRows: { value: 100_000, label: 'large-partition warning at 100,000 rows', source: SCYLLA_LARGE_PARTITIONS },
    rowBytes: { value: 10 * MB, label: 'large-row warning at 10 MB', source: SCYLLA_LARGE_ROWS },
    cellBytes: { value: 1 * MB, label: 'large-cell warning at 1 MB', source: SCYLLA_LARGE_ROWS },
  },
  keyspaces: {
    id: 'keyspaces',
    name: 'Amazon Keyspaces',
    // Keyspaces has no partition size limit; its hard limits are per row and per partition throughput.
    partitionBytes: { value: Number.POSITIVE_INFINITY, label: 'no partition size limit', source: KEYSPACES_QUOTAS },
    rowBytes: { value: 1 * MB, label: '1 MB per row', source: KEYSPACES_QUOTAS },
    writesPerPartition: { value: 1000, unit: 'WCU', unitBytes: 1024, label: '1,000 WCU per partition', source: KEYSPACES_PARTITION_DESIGN },
    readsPerPartition: { value: 3000, unit: 'RCU', unitBytes: 4096, label: '3,000 RCU per partition', source: KEYSPACES_PARTITION_DESIGN },
  },
  cosmosdb: {
    id: 'cosmosdb',
    name: 'Azure Cosmos DB for Apache Cassandra',
    partitionBytes: { value: 20 * GB, label: '20 GB per logical partition', source: COSMOS_LIMITS },
    // Request units depend on item size and indexing; one RU is roughly a 1 KB point read, writes cost about 5x.
    writesPerPartition: { value: 10_000, unit: 'RU/s', label: '10,000 RU/s per partition', source: COSMOS_LIMITS },
    readsPerPartition: { value: 10_000, unit: 'RU/s', label: '10,000 RU/s per partition', source: COSMOS_LIMITS },
  },
};

const DEFAULT_TARGET: TargetId = 'cassandra';

export function isTargetId(value: unknown): value is TargetId {
  return typeof value === 'string' && (TARGET_IDS as readonly string[]).includes(value);
}

export function targetInfo(id: TargetId | undefined): TargetInfo {
  return TARGETS[id ?? DEFAULT_TARGET];
}

/** "12.3 MB", "850 KB", "64 B". */
export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes)) return 'unlimited';
  if (bytes >= GB) return `${trim(bytes / GB)} GB`;
  if (bytes >= MB) return `${trim(bytes / MB)} MB`;
  if (bytes >= 1024) return `${trim(bytes / 1024)} KB`;
  return `${Math.round(bytes)} B`;
}

export function formatCount(n: number): string {
  if (!Number.isFinite(n)) return 'unlimited';
  const rounded = Math.round(n);
  // toLocaleString sets up a locale formatter on every call: a third of a partition rule's time on a
  // re-lint. Grouping the digits gives the same text for en-US.
  if (Math.abs(rounded) >= 1e21) return rounded.toLocaleString('en-US');
  return String(rounded).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

function trim(n: number): string {
  return n >= 100 ? String(Math.round(n)) : n.toFixed(1).replace(/\.0$/, '');
}
