// The databases cqlint lints for and the per-partition limits each one documents.
// Every number carries the page it comes from so messages and docs can cite it.
import type { TargetId } from '../vocabulary/config';

export type { TargetId } from '../vocabulary/config';

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
  /** Rows (or values) per partition the vendor flags. */
  partitionRows?: Limit;
  /** The hard limit of cells (values) per partition, beyond any guidance (Cassandra: 2 billion). */
  partitionCells?: Limit;
  /** Largest row (bytes). */
  rowBytes?: Limit;
  /** Largest cell (bytes). */
  cellBytes?: Limit;
  /** Per-partition write and read throughput, where the target enforces one. */
  writesPerPartition?: ThroughputLimit;
  readsPerPartition?: ThroughputLimit;
  /** How the target prices one operation in its throughput units, from the vendor's published figures. */
  unitCost?: UnitCost;
  /** Tombstones a read may scan before the node warns or fails it, and how long a tombstone stays (defaults). */
  tombstones?: TombstoneLimits;
  /** Whether the table's compaction strategy is the user's to choose (TTL tables want TimeWindowCompactionStrategy). */
  compactionChoice?: boolean;
  /** Whether conditional writes (IF NOT EXISTS, IF ...) run Paxos, serialised per partition. */
  paxosLwt?: boolean;
}

interface TombstoneLimits {
  /** cassandra.yaml tombstone_warn_threshold and tombstone_failure_threshold. */
  warn: number;
  fail: number;
  thresholdSource: string;
  /** The gc_grace_seconds table option's default. */
  gcGraceSeconds: number;
  gcGraceSource: string;
}

/**
 * A target's published cost of one operation by row size (Cosmos DB's request units): `reads` and `writes`
 * are [row bytes, units] points; between two points the cost is interpolated, past the last one it grows
 * in proportion to the size.
 */
interface UnitCost {
  /** A point read (one row by its whole primary key). A query costs at least this per row it returns. */
  reads: [number, number][];
  /** An insert of a new item. */
  writes: [number, number][];
  /** A replace of an existing item (an UPDATE, a counter's increment) costs this many inserts. */
  replaceFactor: number;
  /** What the figures assume and where they come from, for messages and docs. */
  note: string;
  source: string;
}

const MB = 1024 * 1024;
const GB = 1024 * MB;

// States "Cassandra's hard limit is 2 billion cells per partition" (and the sizing formula the estimates use).
const CASSANDRA_MODELING =
  'https://cassandra.apache.org/doc/latest/cassandra/developing/data-modeling/data-modeling_refining.html';
// States "keep the maximum number of values below 100,000 items and the disk size under 100MB".
const DATASTAX_PARTITION_SIZE = 'https://docs.datastax.com/en/ddaccql/doc/cql/ddl/dataModelingAnalysis.html';
// cassandra.yaml: compaction_large_partition_warning_threshold_mb, "Log a warning when compacting partitions
// larger than this value", default 100 (Cassandra 4.0; 4.1 spells it compaction_large_partition_warning_threshold: 100MiB).
export const CASSANDRA_YAML_LARGE_PARTITION =
  'https://cassandra.apache.org/doc/4.0/cassandra/configuration/cass_yaml_file.html#compaction_large_partition_warning_threshold_mb';
// States 1 RU for a 1 KB point read, 10 RUs for 100 KB, and ~5.5 RUs to insert a 1 KB item without indexing.
const COSMOS_REQUEST_COST = 'https://learn.microsoft.com/en-us/azure/cosmos-db/optimize-cost-reads-writes';
const SCYLLA_LARGE_PARTITIONS = 'https://docs.scylladb.com/manual/stable/troubleshooting/large-partition-table.html';
const SCYLLA_LARGE_ROWS = 'https://docs.scylladb.com/manual/stable/troubleshooting/large-rows-large-cells-tables.html';
const KEYSPACES_QUOTAS = 'https://docs.aws.amazon.com/keyspaces/latest/devguide/quotas.html';
const KEYSPACES_PARTITION_DESIGN = 'https://docs.aws.amazon.com/keyspaces/latest/devguide/bp-partition-key-design.html';
// States 20 GB per (logical) partition, 10,000 RUs per partition (logical & physical), and 2 MB per item.
const COSMOS_LIMITS = 'https://learn.microsoft.com/en-us/azure/cosmos-db/concepts-limits';

// States tombstone_warn_threshold (default 1000) and tombstone_failure_threshold (default 100000).
const CASSANDRA_YAML_TOMBSTONES =
  'https://cassandra.apache.org/doc/4.0/cassandra/configuration/cass_yaml_file.html#tombstone_warn_threshold';
// States that gc_grace_seconds defaults to 864000 seconds (ten days), and what a tombstone is.
export const CASSANDRA_TOMBSTONES =
  'https://cassandra.apache.org/doc/latest/cassandra/managing/operating/compaction/tombstones.html';

const TARGETS: Record<TargetId, TargetInfo> = {
  cassandra: {
    id: 'cassandra',
    name: 'Apache Cassandra',
    // DataStax's guidance, and the size at which cassandra.yaml's default logs a large-partition warning.
    partitionBytes: { value: 100 * MB, label: '100 MB per partition', source: DATASTAX_PARTITION_SIZE },
    partitionRows: { value: 100_000, label: '100,000 values per partition', source: DATASTAX_PARTITION_SIZE },
    partitionCells: {
      value: 2 ** 31,
      label: '2 billion cells per partition (the hard limit)',
      source: CASSANDRA_MODELING,
    },
    tombstones: {
      warn: 1000,
      fail: 100_000,
      thresholdSource: CASSANDRA_YAML_TOMBSTONES,
      gcGraceSeconds: 864_000,
      gcGraceSource: CASSANDRA_TOMBSTONES,
    },
    compactionChoice: true,
    paxosLwt: true,
  },
  scylladb: {
    id: 'scylladb',
    name: 'ScyllaDB',
    partitionBytes: { value: 1000 * MB, label: 'large-partition warning at 1000 MB', source: SCYLLA_LARGE_PARTITIONS },
    partitionRows: {
      value: 100_000,
      label: 'large-partition warning at 100,000 rows',
      source: SCYLLA_LARGE_PARTITIONS,
    },
    rowBytes: { value: 10 * MB, label: 'large-row warning at 10 MB', source: SCYLLA_LARGE_ROWS },
    cellBytes: { value: 1 * MB, label: 'large-cell warning at 1 MB', source: SCYLLA_LARGE_ROWS },
    compactionChoice: true,
    paxosLwt: true,
  },
  keyspaces: {
    id: 'keyspaces',
    name: 'Amazon Keyspaces',
    // Keyspaces has no partition size limit; its hard limits are per row and per partition throughput.
    partitionBytes: { value: Number.POSITIVE_INFINITY, label: 'no partition size limit', source: KEYSPACES_QUOTAS },
    rowBytes: { value: 1 * MB, label: '1 MB per row', source: KEYSPACES_QUOTAS },
    writesPerPartition: {
      value: 1000,
      unit: 'WCU',
      unitBytes: 1024,
      label: '1,000 WCU per partition',
      source: KEYSPACES_PARTITION_DESIGN,
    },
    readsPerPartition: {
      value: 3000,
      unit: 'RCU',
      unitBytes: 4096,
      label: '3,000 RCU per partition',
      source: KEYSPACES_PARTITION_DESIGN,
    },
  },
  cosmosdb: {
    id: 'cosmosdb',
    name: 'Azure Cosmos DB for Apache Cassandra',
    partitionBytes: { value: 20 * GB, label: '20 GB per logical partition', source: COSMOS_LIMITS },
    rowBytes: { value: 2 * MB, label: '2 MB per item (row)', source: COSMOS_LIMITS },
    // One logical partition lives in one physical partition: 10,000 RU/s is the most either can take.
    writesPerPartition: {
      value: 10_000,
      unit: 'RU/s',
      label: '10,000 RU/s per logical (and physical) partition',
      source: COSMOS_LIMITS,
    },
    readsPerPartition: {
      value: 10_000,
      unit: 'RU/s',
      label: '10,000 RU/s per logical (and physical) partition',
      source: COSMOS_LIMITS,
    },
    unitCost: {
      reads: [
        [1024, 1],
        [100 * 1024, 10],
      ],
      // Microsoft publishes the 1 KB insert only; larger rows are scaled by the read curve (10x at 100 KB).
      writes: [
        [1024, 5.5],
        [100 * 1024, 55],
      ],
      // A replace rewrites the item and its index entries: twice an insert of the same size.
      replaceFactor: 2,
      note: "Microsoft's published request charges by statement kind: a 1 KB point read 1 RU, 100 KB 10 RUs (a query at least that per row it returns); a 1 KB insert without indexing ~5.5 RUs (larger writes scaled like reads; indexing costs more); a replace (an UPDATE of an existing row, a counter's increment) twice an insert",
      source: COSMOS_REQUEST_COST,
    },
  },
};

const DEFAULT_TARGET: TargetId = 'cassandra';

export function targetInfo(id: TargetId | undefined): TargetInfo {
  return TARGETS[id ?? DEFAULT_TARGET];
}

/**
 * Units one read or write of a row of `bytes` costs by the target's published figures (UnitCost): a write
 * is an insert, or a replace of an existing row (`replace`).
 */
export function unitsPerOperation(cost: UnitCost, kind: 'reads' | 'writes', bytes: number, replace = false): number {
  const units = unitsOfCurve(cost[kind], bytes);
  return kind === 'writes' && replace ? units * cost.replaceFactor : units;
}

function unitsOfCurve(points: readonly [number, number][], bytes: number): number {
  const [first] = points;
  if (!first || bytes <= first[0]) return first ? first[1] : 1;
  for (let i = 1; i < points.length; i++) {
    const [x0, y0] = points[i - 1]!;
    const [x1, y1] = points[i]!;
    if (bytes <= x1) return y0 + ((bytes - x0) * (y1 - y0)) / (x1 - x0);
  }
  const [xl, yl] = points[points.length - 1]!;
  return (yl * bytes) / xl;
}
