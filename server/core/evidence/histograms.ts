// `nodetool tablehistograms` (cfhistograms). Format from Cassandra's TableHistograms: per table a
// `ks/table histograms` line, a header naming the columns, a units line, then the rows 50%, 75%, 95%,
// 98%, 99%, Min and Max. The column order changed between versions (3.x and early 4.0: Percentile,
// SSTables, Write Latency, Read Latency, Partition Size, Cell Count; later: Percentile, Read Latency,
// Write Latency, SSTables, Partition Size, Cell Count), so the header decides. Values the histogram
// cannot give print NaN (with a note line: "No SSTables exists, unable to calculate ...").
import type { FormatReader, ReaderContext } from './context';
import { parseNumber } from './numbers';
import { histogramTitle } from './text-scan';
import type { Percentiles, TableFigures } from './types';

const COLUMNS = ['SSTables', 'Write Latency', 'Read Latency', 'Partition Size', 'Cell Count'] as const;
type Column = (typeof COLUMNS)[number];

const ROWS: Record<string, keyof Percentiles> = {
  '50%': 'p50',
  '75%': 'p75',
  '95%': 'p95',
  '98%': 'p98',
  '99%': 'p99',
  min: 'min',
  max: 'max',
};

export class TablehistogramsText implements FormatReader {
  private current?: TableFigures;
  private order?: Column[];

  constructor(private readonly ctx: ReaderContext) {}

  private start(name: string, line: number): void {
    this.current = this.ctx.table(name, line);
    if (this.current) this.current.histogram ??= { partitionBytes: {}, cellCount: {} };
    this.order = undefined;
  }

  line(text: string, line: number): void {
    const body = text.trim();
    if (!body) return;
    const title = histogramTitle(body);
    if (title) return this.start(title, line);
    if (/^Percentile\b/.test(body)) {
      const found = COLUMNS.map((c) => ({ c, at: body.indexOf(c) }))
        .filter((x) => x.at >= 0)
        .sort((a, b) => a.at - b.at)
        .map((x) => x.c);
      if (found.length !== COLUMNS.length) {
        this.ctx.problem(line, 'a histogram header without its five columns');
        this.order = undefined;
        return;
      }
      this.order = found;
      // A single table's output without the title line: the command line named it.
      if (!this.current && this.ctx.header.table) this.start(this.ctx.header.table, line);
      return;
    }
    if (/^\(micros\)/.test(body)) return;
    if (/unable to calculate/i.test(body)) return; // the NaN rows that follow say it
    const fields = body.split(/\s+/);
    const row = ROWS[fields[0]!.toLowerCase()];
    if (!row || fields.length !== 6) {
      this.ctx.problem(line, 'not a `nodetool tablehistograms` line');
      return;
    }
    if (!this.order || !this.current) {
      this.ctx.problem(line, 'a histogram row before its table and header');
      return;
    }
    this.order.forEach((column, i) => {
      const raw = fields[i + 1]!;
      const value = parseNumber(raw);
      if (value === undefined && !/^nan$/i.test(raw)) this.ctx.problem(line, `${column}: "${raw}" is not a number`);
      if (value === undefined) return;
      if (column === 'Partition Size') this.current!.histogram!.partitionBytes[row] = { value, line };
      else if (column === 'Cell Count') this.current!.histogram!.cellCount[row] = { value, line };
    });
  }

  end(): void {}
}
