// `nodetool toppartitions` (and `profileload`, which it became in Cassandra 4.0). Formats:
// - Cassandra 3.x (TopPartitions) and ScyllaDB (scylla-nodetool toppartitions): `WRITES Sampler:`,
//   `  Cardinality: ~N (256 capacity)`, `  Top 10 partitions:`, then a tab-indented table
//   `Partition  Count  +/-` (or `Nothing recorded during sampling period...`). ScyllaDB prints all
//   tables at once and prefixes each key with `(ks:table) `.
// - Cassandra 4.0+ (SamplingManager.formatResult): `Frequency of writes by partition:` and a table
//   `Table Partition Count +/-` whose rows name `ks.table`; the other sections (cas contentions,
//   mutation sizes, read times, 5.x's rows/tombstones/sstables per read) are skipped.
// Keys are printed as Cassandra's partition key type text (composite parts joined by `:`); the counts
// are over the duration given on the command line, which the output does not repeat.
import { boundedCell } from './bounds';
import { keepLargest, type FormatReader, type ReaderContext } from './context';
import type { SamplerKind, TableFigures, TopSampler } from './types';
import { isDigits, scyllaTablePrefix, trailingFields } from './text-scan';

export class ToppartitionsText implements FormatReader {
  private kind?: SamplerKind | 'other';
  private cardinality?: number;
  private format?: 'sampler' | 'frequency';
  private headerLine = 0;
  /** The samplers of this section, per table (each table gets its own list). */
  private section = new Map<TableFigures, TopSampler>();

  constructor(private readonly ctx: ReaderContext) {}

  private samplerOf(table: string, line: number): TopSampler | undefined {
    if (this.kind === undefined || this.kind === 'other') return undefined;
    const figures = this.ctx.table(table, line);
    if (!figures) return undefined;
    let sampler = this.section.get(figures);
    if (!sampler) {
      sampler = {
        kind: this.kind,
        durationMs: this.ctx.header.durationMs,
        cardinality: this.cardinality,
        partitions: [],
        line: this.headerLine,
      };
      (figures.samplers ??= []).push(sampler);
      this.section.set(figures, sampler);
    }
    return sampler;
  }

  private begin(kind: SamplerKind | 'other', format: 'sampler' | 'frequency', line: number): void {
    this.kind = kind;
    this.format = format;
    this.cardinality = undefined;
    this.headerLine = line;
    this.section = new Map();
    // A sampler that recorded nothing for the named table still says so (an idle table is evidence too).
    const table = this.ctx.header.table;
    if (kind !== 'other' && table && format === 'sampler') this.samplerOf(table, line);
  }

  line(text: string, line: number): void {
    const body = text.trim();
    if (!body) return;
    const sampler = /^(WRITES|READS|CAS_CONTENTIONS|[A-Z_]+) Sampler:$/.exec(body);
    if (sampler)
      return this.begin(
        sampler[1] === 'WRITES' ? 'writes' : sampler[1] === 'READS' ? 'reads' : 'other',
        'sampler',
        line,
      );
    const frequency = /^Frequency of (reads|writes|cas contentions?) by partition:$/i.exec(body);
    if (frequency)
      return this.begin(
        frequency[1]!.toLowerCase() === 'writes'
          ? 'writes'
          : frequency[1]!.toLowerCase() === 'reads'
            ? 'reads'
            : 'other',
        'frequency',
        line,
      );
    if (/^[A-Z][\w ,/-]*:$/.test(body) && !/^Top \d+ partitions:$/.test(body))
      return this.begin('other', 'frequency', line);
    if (this.kind === undefined) {
      this.ctx.problem(line, 'not a `nodetool toppartitions` line');
      return;
    }
    if (this.kind === 'other') return;
    const cardinality = /^Cardinality:\s*~?(\d+)/.exec(body);
    if (cardinality) {
      this.cardinality = Number(cardinality[1]);
      for (const s of this.section.values()) s.cardinality = this.cardinality;
      return;
    }
    if (/^Top \d+ partitions:$/.test(body) || /^Nothing recorded during sampling period/.test(body)) return;
    if (/^(Table\s+)?Partition\s+Count\s+\+\/-$/.test(body)) return;
    // Keys keep their inner spaces: only the two numbers at the end are split off (by hand: text-scan.ts).
    if (this.format === 'frequency') {
      const row = trailingFields(body, 2, isDigits);
      const table = row && /^\S+/.exec(row.head)?.[0];
      const key = table !== undefined ? row!.head.slice(table.length).trim() : '';
      if (!row || !key) return this.ctx.problem(line, 'not a `Table Partition Count +/-` row');
      this.add(table!, key, Number(row.fields[0]), Number(row.fields[1]), line);
      return;
    }
    const row = trailingFields(text.replace(/^\t/, '').replace(/^ {4}/, ''), 2, isDigits);
    if (!row) return this.ctx.problem(line, 'not a `Partition Count +/-` row');
    let key = row.head;
    let table = this.ctx.header.table;
    const scylla = scyllaTablePrefix(key);
    if (scylla) ({ table, key } = scylla);
    if (!table)
      return this.ctx.problem(
        line,
        'which table? Cassandra 3.x prints no table name: put the command line at the top of the file or set "table" in the configuration',
      );
    this.add(table, key, Number(row.fields[0]), Number(row.fields[1]), line);
  }

  private add(table: string, key: string, count: number, error: number, line: number): void {
    const sampler = this.samplerOf(table, line);
    if (!sampler) return;
    keepLargest(sampler.partitions, { key: boundedCell(key), count, error, line }, (p) => p.count);
  }

  end(): void {}
}
