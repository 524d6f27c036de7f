// `nodetool tablestats` (formerly cfstats). Formats from Cassandra's TableStatsPrinter and
// TableStatsHolder (3.x, 4.0, 4.1, 5.0) and ScyllaDB's nodetool docs (stats-output.rst):
// - text: `Keyspace : ks` (4.x) or `Keyspace: ks` (5.x, ScyllaDB), then per table `Table: name` (or
//   `Table (index): name`, skipped) and `Label: value` lines; `-s`/`-t` (sorted) prints `Table: ks.name`
//   without the keyspace line. Sizes are bytes, or with `-H` `1.3 GiB`; before 4.0 some labels end in
//   `, bytes` and partitions were `Number of keys (estimate)`. 5.x adds a `Top partitions by size` list.
// - `-F json` / `-F yaml`: a map `total_number_of_tables`, then keyspace -> { tables: { name: {...} } },
//   or `ks.name` -> {...} when sorted, with snake_case keys (compacted_partition_maximum_bytes, ...).
import { keepLargest, type FormatReader, type ReaderContext } from './context';
import { boundedCell } from './bounds';
import { labelled, parseByteSize, parseCount, parseNumber } from './numbers';
import type { Measured, TableFigures } from './types';
import { JsonEvents, YamlEvents } from './structured';
import { trailingFields } from './text-scan';

type Field =
  | 'partitionsEstimate'
  | 'min'
  | 'mean'
  | 'max'
  | 'spaceUsedLive'
  | 'localReads'
  | 'localWrites'
  | 'localReadLatencyMs'
  | 'localWriteLatencyMs'
  | 'liveMean'
  | 'liveMax'
  | 'tombMean'
  | 'tombMax';

/** Text labels (lower case, `, bytes` and ` (ms)` suffixes removed) -> field. */
const TEXT_LABELS: Record<string, Field> = {
  'number of partitions (estimate)': 'partitionsEstimate',
  'number of keys (estimate)': 'partitionsEstimate',
  'compacted partition minimum bytes': 'min',
  'compacted partition maximum bytes': 'max',
  'compacted partition mean bytes': 'mean',
  'compacted row minimum bytes': 'min',
  'compacted row maximum bytes': 'max',
  'compacted row mean bytes': 'mean',
  'space used (live)': 'spaceUsedLive',
  'local read count': 'localReads',
  'local write count': 'localWrites',
  'local read latency': 'localReadLatencyMs',
  'local write latency': 'localWriteLatencyMs',
  'average live cells per slice (last five minutes)': 'liveMean',
  'maximum live cells per slice (last five minutes)': 'liveMax',
  'average tombstones per slice (last five minutes)': 'tombMean',
  'maximum tombstones per slice (last five minutes)': 'tombMax',
};

/** `-F json|yaml` keys -> field. */
const MAP_KEYS: Record<string, Field> = {
  number_of_partitions_estimate: 'partitionsEstimate',
  compacted_partition_minimum_bytes: 'min',
  compacted_partition_maximum_bytes: 'max',
  compacted_partition_mean_bytes: 'mean',
  space_used_live: 'spaceUsedLive',
  local_read_count: 'localReads',
  local_write_count: 'localWrites',
  local_read_latency_ms: 'localReadLatencyMs',
  local_write_latency_ms: 'localWriteLatencyMs',
  average_live_cells_per_slice_last_five_minutes: 'liveMean',
  maximum_live_cells_per_slice_last_five_minutes: 'liveMax',
  average_tombstones_per_slice_last_five_minutes: 'tombMean',
  maximum_tombstones_per_slice_last_five_minutes: 'tombMax',
};

const BYTE_FIELDS = new Set<Field>(['min', 'mean', 'max', 'spaceUsedLive']);

function setField(t: TableFigures, field: Field, raw: string, line: number): boolean {
  const value = BYTE_FIELDS.has(field)
    ? parseByteSize(raw)
    : field.endsWith('LatencyMs')
      ? parseNumber(withoutMs(raw))
      : parseCount(raw);
  // NaN latencies and empty histograms are printed as NaN: no figure, not a problem.
  if (value === undefined) return /nan/i.test(raw);
  const m: Measured = { value, line };
  switch (field) {
    case 'min':
    case 'mean':
    case 'max':
      (t.partitionBytes ??= {})[field] = m;
      break;
    case 'liveMean':
      (t.liveCellsPerSlice ??= {}).mean = m;
      break;
    case 'liveMax':
      (t.liveCellsPerSlice ??= {}).max = m;
      break;
    case 'tombMean':
      (t.tombstonesPerSlice ??= {}).mean = m;
      break;
    case 'tombMax':
      (t.tombstonesPerSlice ??= {}).max = m;
      break;
    default:
      t[field] = m;
  }
  return true;
}

/** A latency without its ` ms` (or ` ms.`) unit. */
function withoutMs(raw: string): string {
  const t = raw.trimEnd();
  const unit = t.endsWith('ms.') ? 3 : t.endsWith('ms') ? 2 : 0;
  return unit ? t.slice(0, -unit) : t;
}

/** The units a size of `Top partitions by size` may end with, as a field of its own. */
const SIZE_UNIT = /^(?:bytes|[KMGT]i?B)$/;
const SIZE = /^-?[\d.,]+(?:[eE][-+]?\d+)?(?:bytes|[KMGT]i?B)?$/;

/** A row of `Top partitions by size`: the key (inner spaces kept) and the size (`1386`, `1.3 GiB`, `1.3GiB`). */
function topSizeRow(text: string): { key: string; size: string } | undefined {
  const withUnit = trailingFields(text, 2, () => true);
  if (withUnit && SIZE_UNIT.test(withUnit.fields[1]!) && SIZE.test(withUnit.fields[0]!)) {
    const key = withUnit.head.trim();
    return key ? { key, size: `${withUnit.fields[0]} ${withUnit.fields[1]}` } : undefined;
  }
  const bare = trailingFields(text, 1, (f) => SIZE.test(f));
  const key = bare?.head.trim();
  return key ? { key, size: bare!.fields[0]! } : undefined;
}

function addTopBySize(t: TableFigures, key: string, size: string, line: number): boolean {
  const bytes = parseByteSize(size);
  if (bytes === undefined) return false;
  keepLargest((t.largePartitions ??= []), { key: boundedCell(key), bytes, line }, (p) => p.bytes ?? 0);
  return true;
}

/** The text form. */
export class TablestatsText implements FormatReader {
  private keyspace?: string;
  private current?: TableFigures;
  /** Inside a `Top partitions by ...` list: 'size' rows are kept, 'other' skipped. */
  private list?: 'size' | 'other';

  constructor(private readonly ctx: ReaderContext) {}

  line(text: string, line: number): void {
    if (!text.trim() || /^-+$/.test(text.trim())) {
      this.list = undefined;
      return;
    }
    const ks = /^\s*Keyspace\s*:\s*(\S+)\s*$/.exec(text);
    if (ks) {
      this.keyspace = ks[1];
      this.current = undefined;
      this.list = undefined;
      return;
    }
    const table = /^\s*Table( \(index\))?\s*:\s*(\S+)\s*$/.exec(text);
    if (table) {
      this.list = undefined;
      if (table[1]) {
        this.current = undefined; // secondary index tables: not the user's tables
        return;
      }
      const name = table[2]!.includes('.') || !this.keyspace ? table[2]! : `${this.keyspace}.${table[2]}`;
      this.current = name.includes('.') ? this.ctx.table(name, line) : undefined;
      if (!name.includes('.')) this.ctx.problem(line, `table ${name} without a keyspace`);
      return;
    }
    if (/^\s*Top partitions by size\b.*:\s*$/i.test(text)) {
      this.list = 'size';
      return;
    }
    if (/^\s*Top partitions by\b.*:\s*$/i.test(text)) {
      this.list = 'other';
      return;
    }
    if (this.list) {
      if (/^\s*Key\s+(Size|Count)\s*$/.test(text) || this.list === 'other') return;
      const row = topSizeRow(text);
      if (row && this.current && addTopBySize(this.current, row.key, row.size, line)) return;
      this.list = undefined;
    }
    const entry = labelled(text);
    if (!entry) {
      this.ctx.problem(line, 'not a `nodetool tablestats` line');
      return;
    }
    if (/^total number of tables$/i.test(entry.label)) return;
    const label = entry.label
      .toLowerCase()
      .replace(/,\s*bytes$/, '')
      .replace(/\s*\(ms\)$/, '');
    const field = TEXT_LABELS[label];
    if (!field || !this.current) return;
    if (!setField(this.current, field, entry.value, line))
      this.ctx.problem(line, `${entry.label}: "${boundedCell(entry.value)}" is not a number`);
  }

  end(): void {}
}

/** `-F json` and `-F yaml`: the same map, as events. */
export class TablestatsMap implements FormatReader {
  private readonly events: FormatReader;

  constructor(
    private readonly ctx: ReaderContext,
    format: 'json' | 'yaml',
  ) {
    const onScalar = (path: readonly string[], value: string, line: number): void => this.scalar(path, value, line);
    const onProblem = (line: number, reason: string, limit?: boolean): void => ctx.problem(line, reason, limit);
    this.events = format === 'json' ? new JsonEvents(onScalar, onProblem) : new YamlEvents(onScalar, onProblem);
  }

  private scalar(path: readonly string[], value: string, line: number): void {
    // keyspace -> tables -> name -> key [-> partition key], or (sorted) ks.name -> key [-> partition key].
    let table: string | undefined;
    let rest: readonly string[];
    if (path.length >= 4 && path[1] === 'tables') {
      table = path[2]!.includes('.') ? undefined : `${path[0]}.${path[2]}`; // a dot: an index table
      rest = path.slice(3);
    } else if (path.length >= 2 && path[0]!.includes('.')) {
      table = path[0];
      rest = path.slice(1);
    } else return;
    if (!table) return;
    const figures = this.ctx.table(table, line);
    if (!figures) return;
    if (rest[0] === 'top_size_partitions' && rest.length === 2) {
      if (!addTopBySize(figures, rest[1]!, value, line))
        this.ctx.problem(line, `top_size_partitions: "${boundedCell(value)}" is not a size`);
      return;
    }
    const field = rest.length === 1 ? MAP_KEYS[rest[0]!] : undefined;
    if (field && !setField(figures, field, value, line))
      this.ctx.problem(line, `${rest[0]}: "${boundedCell(value)}" is not a number`);
  }

  line(text: string, line: number): void {
    this.events.line(text, line);
  }

  end(): void {
    this.events.end();
  }
}
