// System tables exported with cqlsh `COPY system.<table> TO 'f.csv' WITH HEADER = true` (the header
// names the columns, so their order does not matter):
// - ScyllaDB system.large_partitions (troubleshooting/large-partition-table): keyspace_name, table_name,
//   sstable_name, partition_size, partition_key, rows, compaction_time (+ dead_rows, range_tombstones);
//   partition_key as ScyllaDB writes it, e.g. `{key: pk{000400000001}, token:-4069959284402364209}`.
// - ScyllaDB system.large_rows: ..., row_size, partition_key, clustering_key, compaction_time.
// - Cassandra system.size_estimates (and 4.0's system.table_estimates, whose range_type is kept to
//   'primary'): keyspace_name, table_name, range_start, range_end, mean_partition_size, partitions_count,
//   for the node's own ranges: summed here, and over nodes when several nodes' files are given.
// These tables are local to each node: the file's node is the one the figures are for.
import { boundedCell, EVIDENCE_BOUNDS } from './bounds';
import { flatCopy } from '../util/strings';
import { keepLargest, type FormatReader, type ReaderContext } from './context';
import { parseCount } from './numbers';
import type { EvidenceTool } from './types';
import { CsvReader, type CsvField } from '../io/csv';

const REQUIRED: Record<Extract<EvidenceTool, `system.${string}`>, string[]> = {
  'system.large_partitions': ['keyspace_name', 'table_name', 'partition_size', 'partition_key'],
  'system.large_rows': ['keyspace_name', 'table_name', 'row_size', 'partition_key'],
  'system.size_estimates': ['keyspace_name', 'table_name', 'mean_partition_size', 'partitions_count'],
};

export type SystemTable = keyof typeof REQUIRED;

/** Which system table a CSV header line names, if any. */
export function systemTableOf(headerLine: string): SystemTable | undefined {
  const names = new Set(headerLine.split(',').map((n) => n.trim().replace(/^"|"$/g, '').toLowerCase()));
  return (Object.keys(REQUIRED) as SystemTable[]).find((t) => REQUIRED[t].every((c) => names.has(c)));
}

/** ScyllaDB's `{key: pk{<hex>}, token:<n>}` (or the key text as it is). */
function scyllaKey(text: string): { key: string; token?: string } {
  const m = /^\{\s*key:\s*(.*?),\s*token:\s*(-?\d+)\s*\}$/.exec(text.trim());
  return m ? { key: m[1]!, token: m[2] } : { key: text };
}

export class SystemTableCsv implements FormatReader {
  private readonly csv: CsvReader;
  private columns?: Map<string, number>;
  private lineOffset?: number;
  private readonly estimates = new Map<string, { ranges: number; partitions: number; bytes: number; line: number }>();

  constructor(
    private readonly ctx: ReaderContext,
    private readonly kind: SystemTable,
  ) {
    this.csv = new CsvReader(
      (fields, line) => this.record(fields, line),
      (p) => ctx.problem(p.line + (this.lineOffset ?? 0), p.reason),
    );
  }

  line(text: string, line: number): void {
    this.lineOffset ??= line - 1;
    this.csv.push(`${text}\n`);
  }

  private record(fields: CsvField[], csvLine: number): void {
    const line = csvLine + (this.lineOffset ?? 0);
    if (!this.columns) {
      this.columns = new Map(fields.map((f, i) => [f.text.trim().toLowerCase(), i]));
      return;
    }
    if (fields.length !== this.columns.size)
      return this.ctx.problem(line, `expected ${this.columns.size} fields, found ${fields.length}`);
    const get = (name: string): string | undefined => {
      const i = this.columns!.get(name);
      return i === undefined ? undefined : fields[i]!.text;
    };
    const table = `${get('keyspace_name')}.${get('table_name')}`;
    if (this.kind === 'system.size_estimates') {
      const type = get('range_type');
      if (type !== undefined && type !== 'primary') return;
      const partitions = parseCount(get('partitions_count') ?? '');
      const mean = parseCount(get('mean_partition_size') ?? '');
      if (partitions === undefined || mean === undefined)
        return this.ctx.problem(line, 'partitions_count and mean_partition_size must be numbers');
      let e = this.estimates.get(table);
      if (!e) {
        if (this.estimates.size >= EVIDENCE_BOUNDS.maxTables) return;
        e = { ranges: 0, partitions: 0, bytes: 0, line };
        this.estimates.set(table, e);
      }
      e.ranges++;
      e.partitions += partitions;
      e.bytes += partitions * mean;
      return;
    }
    const figures = this.ctx.table(table, line);
    if (!figures) return;
    const size = parseCount(get(this.kind === 'system.large_rows' ? 'row_size' : 'partition_size') ?? '');
    if (size === undefined)
      return this.ctx.problem(
        line,
        `${this.kind === 'system.large_rows' ? 'row_size' : 'partition_size'} must be a number`,
      );
    const { key, token } = scyllaKey(get('partition_key') ?? '');
    const rows = parseCount(get('rows') ?? '');
    const entry = {
      key: boundedCell(key),
      bytes: size,
      ...(rows !== undefined ? { rows } : {}),
      ...(token ? { token: flatCopy(token) } : {}),
      line,
    };
    if (this.kind === 'system.large_rows') {
      const clustering = get('clustering_key');
      keepLargest(
        (figures.largeRows ??= []),
        { ...entry, ...(clustering ? { clustering: boundedCell(clustering) } : {}) },
        (p) => p.bytes ?? 0,
      );
    } else {
      // The same partition appears once per SSTable that holds a large part of it: keep its largest.
      const list = (figures.largePartitions ??= []);
      const same = list.findIndex((p) => p.key === entry.key);
      if (same >= 0) {
        if ((list[same]!.bytes ?? 0) >= size) return;
        list.splice(same, 1);
      }
      keepLargest(list, entry, (p) => p.bytes ?? 0);
    }
  }

  end(): void {
    this.csv.end();
    for (const [table, e] of this.estimates) {
      const figures = this.ctx.table(table, e.line);
      if (!figures) continue;
      figures.sizeEstimates = {
        ranges: e.ranges,
        partitions: { value: e.partitions, line: e.line },
        meanPartitionBytes: { value: e.partitions ? e.bytes / e.partitions : 0, line: e.line },
      };
    }
  }
}
