// What a sample of real rows (a cqlsh COPY ... TO CSV) says about a table's partitions: partitions, rows
// and estimated bytes per partition, the largest partitions with their exact tokens, the spread over shards
// and nodes. Streamed, in memory bounded by the bounded-input policy (io/input-limits.ts): a record over
// its caps is reported by line and skipped, a key cell over Cassandra's key size is refused before the
// value parser sees it, and the partitions are tallied in at most KEY_LIMITS.maxDistinctKeys entries
// (every count exact below that; past it the largest partitions are kept, the rest counted).
import type { CqlType } from '../../../grammar/ast';
import type { TableHints } from '../vocabulary/config';
import { type ColumnInfo, type SchemaModel, type TableInfo, columnNamed, hasColumn } from '../schema/model';
import { nativeName } from '../schema/types';
import { udtLookupFor } from '../schema/key-values';
import { bytesPerRowOperation, estimatePartition, rowSizes, udtLookupFrom } from '../partition/sizing';
import { openRegularFile } from '../io/files';
import type { PartitionSample } from '../partition/sample';
import { ownerIndex, type Ring } from '../token/ring';
import { codepointsMod, formatShardFormula, murmur3SourceHash, type ShardSpec } from '../token/shard';
import { ShardTally, type ShardCounts } from '../token/skew';
import { KEY_LIMITS, KeyTally, type KeyLimits } from '../io/input-limits';
import { KeyEncoder } from '../token/token';
import { keyTypeFromAst, keyTypeProblem, type KeyType } from '../token/types';
import { parseKeyValue } from '../token/values';
import { CsvReader, type CsvField } from '../io/csv';
export interface SamplePartition {
  /** The partition key values as written in the CSV. */
  key: string[];
  /** Rows (at least this many when the sample had more partitions than are tallied: see `approximate`). */
  rows: number;
  /** Estimated bytes (the sizing formula with the row's measured value sizes). */
  bytes: number;
  /** The Murmur3Partitioner token, as `SELECT token(...)` returns it. */
  token?: string;
}

export interface SampleSummary extends PartitionSample {
  /** Rows that could not be read, first ones by line (the count covers all). */
  malformed: { line: number; reason: string }[];
  rowsPerPartition: PartitionSample['rowsPerPartition'] & {
    histogram: { from: number; to: number; partitions: number }[];
  };
  largest: SamplePartition[];
  /** Rows per shard under the table's (or the proposed) shard formula, and under the other formula. */
  spread?: { formula: string; rows: number; counts: ShardCounts; comparisonCounts?: ShardCounts };
  /** Partitions and rows per node, with a ring. */
  nodes?: { address: string; partitions: number; rows: number }[];
  /** True when reading stopped before the end (cancelled). */
  cancelled?: boolean;
}

// -------------------------------------------------------------------------------------------------
// Reading a sample

/** How the report reads a sample's columns: a header row, the config's list, or COPY's default order. */
export interface SampleOptions {
  /** The file's path, for the summary. */
  file: string;
  /** How messages name it (as .cqlint.json writes it); default `file`. */
  name?: string;
  /** Column order of a file without a header (the config's `columns`); default COPY's order. */
  columns?: readonly string[];
  /** The shard formula to spread rows with (the table's @shard, or what the shard fix would add). */
  shard?: Pick<ShardSpec, 'method' | 'sources' | 'count' | 'offset'>;
  /** Token ring: partitions and rows per node. */
  ring?: Ring;
  /** Largest partitions listed. Default 10. */
  largest?: number;
  /** Called every `progressEvery` rows (default 100,000) and at the end. */
  onProgress?: (progress: { rows: number; chars: number }) => void;
  progressEvery?: number;
  /** Checked between chunks: reading stops (the summary says `cancelled`) once it returns true. */
  isCancelled?: () => boolean;
  /** Malformed rows listed by line (the count covers all). Default 50. */
  maxProblems?: number;
  /** The caps on the partitions tallied (default KEY_LIMITS). */
  keyLimits?: Readonly<KeyLimits>;
}

/**
 * The column order of `COPY ks.t TO` without a column list: cqlsh takes the driver's table metadata,
 * which lists the partition key, then the clustering columns, then the other columns by name.
 */
export function copyDefaultColumnOrder(table: TableInfo): string[] {
  const rest = table.columns
    .filter((c) => c.role !== 'partition' && c.role !== 'clustering')
    .map((c) => c.name)
    .sort();
  return [...table.partitionKey.map((c) => c.name), ...table.clustering.map((c) => c.name), ...rest];
}

const TEXT_TYPES = new Set(['text', 'varchar', 'ascii']);
/** Timestamps as cqlsh prints them carry microseconds (`17:00:00.000000+0000`); Cassandra keeps milliseconds. */
const MICROSECONDS = /(\d\d:\d\d:\d\d\.\d{3})\d+(?=\s*(?:[+-]\d\d:?\d\d|Z))/g;

/** A field as cqlsh writes it -> CQL literal text the value parser reads (null for cqlsh's null). */
function cqlshFieldValue(type: KeyType, field: CsvField): string | null {
  if (!field.quoted && field.text === '') return null;
  if (type.kind === 'native') {
    if (TEXT_TYPES.has(type.name)) return field.text;
    if (type.name === 'boolean') return field.text.trim().toLowerCase();
  }
  return field.text.replace(MICROSECONDS, '$1');
}

/** Bytes a value takes, for the columns whose size the type does not fix (text, blobs, collections ...). */
function measuredBytes(type: CqlType | undefined, text: string): number | undefined {
  const native = nativeName(type);
  if (native && TEXT_TYPES.has(native)) return Buffer.byteLength(text, 'utf8');
  if (native === 'blob')
    return text.startsWith('0x') ? Math.ceil((text.length - 2) / 2) : Buffer.byteLength(text, 'utf8');
  if (native === 'varint' || native === 'decimal')
    return Math.ceil((text.replace(/\D/g, '').length * Math.log2(10)) / 8) + (native === 'decimal' ? 4 : 0);
  // Collections, tuples and UDTs: the length of their CQL text, a rough but data-driven size.
  if (!native && type) return Buffer.byteLength(text, 'utf8');
  return undefined;
}

interface PartitionEntry {
  key: string[];
  /** Σ measured bytes of the variable-size columns over the partition's rows. */
  variableBytes: number;
  token?: bigint;
}

function percentile(sorted: Float64Array | number[], p: number): number {
  if (!sorted.length) return 0;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))]!;
}

/** Where a sample's columns are: from its header, or the configured or default order, on the first record. */
interface SampleLayout {
  columns: ColumnInfo[];
  /** The partition key columns' fields, in key order. */
  keyIndexes: number[];
  clusteringIndexes: number[];
  /** The columns whose size their type does not fix: measured row by row. */
  variable: { index: number; column: ColumnInfo }[];
  /** The shard formula's source fields (none: the spread is not measured) and their types. */
  shardIndexes: number[];
  shardTypes: KeyType[];
  /** One text source: codepoints() applies too, so the other formula is measured beside it. */
  textSource: boolean;
}

/** The layout of `names` (a header or the configured order), or why the sample cannot be read with it. */
function sampleLayout(
  table: TableInfo,
  names: readonly string[],
  shard: SampleOptions['shard'],
  udts: ReturnType<typeof udtLookupFor>,
): SampleLayout | { problem: string } {
  const columns: ColumnInfo[] = [];
  for (const name of names) {
    const col = columnNamed(table, name);
    if (!col) return { problem: `${name} is not a column of ${table.qualifiedName}` };
    columns.push(col);
  }
  const keyIndexes = table.partitionKey.map((c) => columns.indexOf(c));
  const missing = table.partitionKey.filter((_, i) => keyIndexes[i]! < 0).map((c) => c.name);
  if (missing.length)
    return { problem: `the sample has no ${missing.join(', ')} column: the partition key cannot be read` };
  const layout: SampleLayout = {
    columns,
    keyIndexes,
    clusteringIndexes: columns.flatMap((c, i) => (c.role === 'clustering' ? [i] : [])),
    variable: columns
      .map((column, index) => ({ index, column }))
      .filter(
        ({ column }) =>
          (column.role === 'clustering' || column.role === 'regular') && measuredBytes(column.type, '') !== undefined,
      ),
    shardIndexes: [],
    shardTypes: [],
    textSource: false,
  };
  if (shard && shard.method !== 'random') {
    const shardIndexes = shard.sources.map((s) => columns.findIndex((c) => c.name === s));
    layout.shardTypes = shard.sources.map((s) => {
      const c = columnNamed(table, s);
      return c?.type ? keyTypeFromAst(c.type, udts) : { kind: 'unsupported', text: s, reason: 'unknown column' };
    });
    if (!shardIndexes.some((i) => i < 0)) layout.shardIndexes = shardIndexes;
    const only = layout.shardTypes.length === 1 ? layout.shardTypes[0]! : undefined;
    layout.textSource = only?.kind === 'native' && TEXT_TYPES.has(only.name);
  }
  return layout;
}

/**
 * The tallies of a sample's records: partitions (bounded by the key limits), rows, measured bytes and the
 * spread over shards. Memory grows with the partitions up to the tally's cap, never with rows.
 */
class SampleTally {
  readonly partitions: KeyTally<PartitionEntry>;
  rows = 0;
  /** Σ and max of a row's measured variable-size bytes (the measured row size; memory stays constant). */
  variableTotal = 0;
  variableMax = 0;
  /** Shard counts are numbers, not sizes: tallied in at most MAX_SHARD_BARS bars (token/skew.ts). */
  readonly spreadCounts: ShardTally | undefined;
  comparisonCounts: ShardTally | undefined;
  readonly encoder: KeyEncoder | undefined;
  layout: SampleLayout | undefined;
  private layoutFailed = false;
  private readonly keyLimits: Readonly<KeyLimits>;
  private readonly udts: ReturnType<typeof udtLookupFor>;

  constructor(
    private readonly table: TableInfo,
    schema: SchemaModel,
    private readonly options: SampleOptions,
    private readonly problem: (line: number, reason: string) => void,
  ) {
    this.udts = udtLookupFor(schema);
    this.keyLimits = options.keyLimits ?? KEY_LIMITS;
    this.partitions = new KeyTally<PartitionEntry>(this.keyLimits);
    const shard = options.shard;
    this.spreadCounts = shard && shard.method !== 'random' ? new ShardTally(shard.count) : undefined;
    const keyTypes = table.partitionKey.map((c) => (c.type ? keyTypeFromAst(c.type, this.udts) : undefined));
    this.encoder = keyTypes.every((t): t is KeyType => !!t && !keyTypeProblem(t))
      ? new KeyEncoder(keyTypes as KeyType[], { columns: table.partitionKey.map((c) => c.name) })
      : undefined;
  }

  /** Sets the layout from `names`; false (and the reason reported) when the sample cannot be read. */
  private useLayout(names: readonly string[], line: number): boolean {
    const layout = sampleLayout(this.table, names, this.options.shard, this.udts);
    if ('problem' in layout) {
      this.problem(line, layout.problem);
      this.layoutFailed = true;
      return false;
    }
    this.layout = layout;
    return true;
  }

  /** One CSV record: the header, or a row tallied (a malformed row is reported by line and skipped). */
  record(fields: CsvField[], line: number): void {
    if (this.layoutFailed) return;
    const table = this.table;
    if (!this.layout) {
      const names = fields.map((f) => f.text.trim());
      // HEADER = true: the first record names distinct columns of the table, the partition key among them.
      const isHeader =
        names.every((n, i) => hasColumn(table, n) && names.indexOf(n) === i) &&
        table.partitionKey.every((c) => names.includes(c.name));
      if (isHeader) {
        this.useLayout(names, line);
        return;
      }
      if (
        !this.useLayout(this.options.columns?.length ? [...this.options.columns] : copyDefaultColumnOrder(table), line)
      )
        return;
    }
    const layout = this.layout!;
    const cols = layout.columns;
    if (fields.length !== cols.length) {
      this.problem(
        line,
        `expected ${cols.length} fields (${cols.map((c) => c.name).join(', ')}), found ${fields.length}`,
      );
      return;
    }
    const keyTexts = this.keyTexts(fields, line);
    if (!keyTexts) return;
    const entry = this.partitionOf(keyTexts, fields, line);
    if (!entry) return;
    let rowVariable = 0;
    for (const { index, column } of layout.variable) {
      const f = fields[index]!;
      if (!f.quoted && f.text === '') continue;
      rowVariable += measuredBytes(column.type, f.text) ?? 0;
    }
    entry.variableBytes += rowVariable;
    this.variableTotal += rowVariable;
    if (rowVariable > this.variableMax) this.variableMax = rowVariable;
    this.spread(fields);
    this.rows++;
  }

  /** The partition key's texts, or undefined (reported) when a key or clustering cell cannot be one. */
  private keyTexts(fields: CsvField[], line: number): string[] | undefined {
    const { keyIndexes, clusteringIndexes, columns } = this.layout!;
    const keyTexts: string[] = [];
    for (let k = 0; k < keyIndexes.length; k++) {
      const f = fields[keyIndexes[k]!]!;
      if (!f.quoted && f.text === '') {
        this.problem(line, `null in partition key column ${this.table.partitionKey[k]!.name}`);
        return undefined;
      }
      // Cassandra refuses keys over 64 KiB: a larger cell is not a key, and never reaches the value parser.
      if (f.text.length > this.keyLimits.maxKeyLength) {
        this.problem(
          line,
          `partition key column ${this.table.partitionKey[k]!.name} holds ${f.text.length} characters, over the ${this.keyLimits.maxKeyLength} a key may have`,
        );
        return undefined;
      }
      keyTexts.push(f.text);
    }
    for (const k of clusteringIndexes) {
      const f = fields[k]!;
      if (!f.quoted && f.text === '') {
        this.problem(line, `null in clustering column ${columns[k]!.name}`);
        return undefined;
      }
    }
    return keyTexts;
  }

  /** The tally's entry of the row's partition (its token computed when it is first seen). */
  private partitionOf(keyTexts: string[], fields: CsvField[], line: number): PartitionEntry | undefined {
    const { keyIndexes } = this.layout!;
    const encoder = this.encoder;
    const mapKey = keyTexts.length === 1 ? keyTexts[0]! : keyTexts.join('\u0000');
    try {
      return this.partitions.add(mapKey, () => {
        let token: bigint | undefined;
        if (encoder) {
          const values = encoder.parse(
            keyTexts.map((t, k) => cqlshFieldValue(encoder.types[k]!, fields[keyIndexes[k]!]!) ?? t),
          );
          token = encoder.token(values);
        }
        return { key: keyTexts, variableBytes: 0, token };
      }).value;
    } catch (error) {
      this.problem(line, error instanceof Error ? error.message : String(error));
      return undefined;
    }
  }

  /** The row's shard under the formula (and under the other formula, for one text source). */
  private spread(fields: CsvField[]): void {
    const { shardIndexes, shardTypes, textSource } = this.layout!;
    const shard = this.options.shard;
    if (!this.spreadCounts || !shard || !shardIndexes.length) return;
    const sources = shardIndexes.map((i) => fields[i]!);
    if (!sources.every((f) => f.quoted || f.text !== '')) return;
    if (shard.method === 'codepoints') {
      this.spreadCounts.add(codepointsMod(sources[0]!.text, shard.count));
      if (textSource)
        (this.comparisonCounts ??= new ShardTally(shard.count)).add(
          murmur3SourceHash(shardTypes, [sources[0]!.text]) % shard.count,
        );
      return;
    }
    try {
      const values = sources.map((f, i) => parseKeyValue(shardTypes[i]!, cqlshFieldValue(shardTypes[i]!, f) ?? ''));
      this.spreadCounts.add(murmur3SourceHash(shardTypes, values) % shard.count);
      if (textSource)
        (this.comparisonCounts ??= new ShardTally(shard.count)).add(codepointsMod(sources[0]!.text, shard.count));
    } catch {
      // A source value the shard maths cannot read: the row still counts for its partition.
    }
  }
}

/**
 * Reads a cqlsh CSV sample of `table` from a stream of text chunks (any chunk size). Memory is bounded
 * (see the top of this file): it grows with the partitions up to the tally's cap, never with rows.
 * Malformed rows are counted and listed by line; they never stop the reading.
 */
export async function readSample(
  chunks: AsyncIterable<string> | Iterable<string>,
  table: TableInfo,
  schema: SchemaModel,
  options: SampleOptions,
): Promise<SampleSummary> {
  const maxProblems = options.maxProblems ?? 50;
  const malformed: SampleSummary['malformed'] = [];
  let malformedCount = 0;
  const problem = (line: number, reason: string): void => {
    malformedCount++;
    if (malformed.length < maxProblems) malformed.push({ line, reason });
  };
  const tally = new SampleTally(table, schema, options, problem);
  const progressEvery = options.progressEvery ?? 100_000;
  let chars = 0;
  const reader = new CsvReader(
    (fields, line) => {
      const before = tally.rows;
      tally.record(fields, line);
      if (options.onProgress && tally.rows !== before && tally.rows % progressEvery === 0)
        options.onProgress({ rows: tally.rows, chars });
    },
    (p) => problem(p.line, p.reason),
  );
  let cancelled = false;
  for await (const chunk of chunks) {
    if (options.isCancelled?.()) {
      cancelled = true;
      break;
    }
    chars += chunk.length;
    reader.push(chunk);
  }
  if (!cancelled) reader.end();
  options.onProgress?.({ rows: tally.rows, chars });
  return summarise(tally, table, schema, options, { malformed, malformedCount, cancelled });
}

/** The summary of a sample's tallies: sizes from the sizing formula with the variable-size columns measured. */
function summarise(
  tally: SampleTally,
  table: TableInfo,
  schema: SchemaModel,
  options: SampleOptions,
  reading: Pick<SampleSummary, 'malformed' | 'malformedCount'> & { cancelled: boolean },
): SampleSummary {
  const { partitions, rows, encoder, spreadCounts } = tally;
  const variable = tally.layout?.variable ?? [];
  const zeroed: TableHints = { columnSizes: Object.fromEntries(variable.map(({ column }) => [column.name, 0])) };
  const sizeUdts = udtLookupFrom(schema);
  const fixedPart = (n: number): number => estimatePartition(table, n, zeroed, sizeUdts).bytes;
  const fixedOperation = bytesPerRowOperation(rowSizes(table, zeroed, sizeUdts));
  // The partitions tallied (all of them unless the sample had more than the tally holds): rows counted
  // since each was taken in, a lower bound of its rows when it had been dropped before.
  const entries = [...partitions.entries()];
  const rowCounts = new Float64Array(entries.length);
  const byteCounts = new Float64Array(entries.length);
  entries.forEach((e, i) => {
    rowCounts[i] = e.count;
    byteCounts[i] = fixedPart(e.count) + e.value.variableBytes;
  });
  const largestIdx = entries
    .map((_, i) => i)
    .sort((a, b) => rowCounts[b]! - rowCounts[a]! || byteCounts[b]! - byteCounts[a]!)
    .slice(0, options.largest ?? 10);
  const sortedRows = rowCounts.slice().sort();
  const sortedBytes = byteCounts.slice().sort();
  const max = sortedRows.length ? sortedRows[sortedRows.length - 1]! : 0;
  const histogram: SampleSummary['rowsPerPartition']['histogram'] = [];
  for (let from = 1; from <= Math.max(1, max); from *= 2) {
    const to = from * 2 - 1;
    let count = 0;
    for (const r of rowCounts) if (r >= from && r <= to) count++;
    histogram.push({ from, to, partitions: count });
  }
  let nodes: SampleSummary['nodes'];
  if (options.ring && encoder) {
    const ring = options.ring;
    const perNode = new Map<string, { address: string; partitions: number; rows: number }>(
      ring.nodes.map((n) => [n.address, { address: n.address, partitions: 0, rows: 0 }]),
    );
    for (const e of entries) {
      if (e.value.token === undefined) continue;
      const owner = perNode.get(ring.entries[ownerIndex(ring, e.value.token)]!.node.address)!;
      owner.partitions++;
      owner.rows += e.count;
    }
    nodes = [...perNode.values()];
  }
  const partitionCount = partitions.distinct();
  const shard = options.shard;
  return {
    file: options.file,
    name: options.name ?? options.file,
    rows,
    partitions: partitionCount,
    malformed: reading.malformed,
    malformedCount: reading.malformedCount,
    rowsPerPartition: {
      p50: percentile(sortedRows, 0.5),
      p99: percentile(sortedRows, 0.99),
      max,
      mean: partitionCount ? rows / partitionCount : 0,
      histogram,
    },
    bytesPerPartition: {
      p50: percentile(sortedBytes, 0.5),
      p99: percentile(sortedBytes, 0.99),
      max: sortedBytes.length ? sortedBytes[sortedBytes.length - 1]! : 0,
    },
    rowOperationBytes: {
      mean: rows ? fixedOperation + tally.variableTotal / rows : 0,
      max: rows ? fixedOperation + tally.variableMax : 0,
    },
    largest: largestIdx.map((i) => ({
      key: entries[i]!.value.key,
      rows: entries[i]!.count,
      bytes: byteCounts[i]!,
      token: entries[i]!.value.token?.toString(),
    })),
    spread:
      shard && spreadCounts
        ? {
            formula: formatShardFormula(shard),
            rows: spreadCounts.counts().total,
            counts: spreadCounts.counts(),
            comparisonCounts: tally.comparisonCounts?.counts(),
          }
        : undefined,
    nodes,
    cancelled: reading.cancelled || undefined,
    ...(partitions.approximate
      ? { approximate: { tracked: partitions.size, untrackedRowsAtMost: partitions.dropped() } }
      : {}),
  };
}

/** Why a sample file could not be read (missing, not a regular file, outside the workspace ...). */
export class SampleReadError extends Error {}

/**
 * Reads a sample file as a stream (UTF-8, a BOM dropped), opened through io/files (a regular file only,
 * inside `roots` when given: a FIFO is refused, never waited on). Throws SampleReadError with the reason.
 */
export async function readSampleFile(
  path: string,
  table: TableInfo,
  schema: SchemaModel,
  options: Omit<SampleOptions, 'file'> & { file?: string; roots?: readonly string[] },
): Promise<SampleSummary> {
  const opened = await openRegularFile(path, { roots: options.roots });
  if (!opened.ok) throw new SampleReadError(opened.message);
  const stream = opened.handle.createReadStream({ encoding: 'utf8', highWaterMark: 256 * 1024, autoClose: true });
  let first = true;
  async function* chunks(): AsyncIterable<string> {
    for await (const chunk of stream as AsyncIterable<string>) {
      yield first && chunk.startsWith('\uFEFF') ? chunk.slice(1) : chunk;
      first = false;
    }
  }
  try {
    return await readSample(chunks(), table, schema, { ...options, file: options.file ?? path });
  } catch (error) {
    throw error instanceof SampleReadError
      ? error
      : new SampleReadError(error instanceof Error ? error.message : String(error));
  } finally {
    stream.destroy();
    await opened.handle.close().catch(() => undefined);
  }
}
