// `dsbulk count --stats.modes ...`. Format from DSBulk's DefaultReadResultCounter.reportTotals (stdout):
// with one mode its lines alone, with several each under a title: `Total rows:` (one number),
// `Total rows per node:` (`<endpoint> <rows> <percent>`; a row counts once per replica),
// `Total rows per token range:` (`<start> <end> <rows> <percent>`) and `Total rows per partition:`
// (`<key> <rows> <percent>`, the N largest; key parts are CQL literals joined by `|`, spaces turned into
// `_`). Percentages are `%.2f` in the JVM's locale (a decimal comma in some). The console lines dsbulk
// writes to stderr (operation directory, the progress table, "completed successfully") are skipped when
// both streams were captured. The table is named on the command line only.
import { boundedCell, EVIDENCE_BOUNDS } from './bounds';
import { flatCopy } from '../util/strings';
import { keepLargest, type FormatReader, type ReaderContext } from './context';
import { parseCount, parseNumber } from './numbers';
import type { TableFigures } from './types';

type Mode = 'global' | 'hosts' | 'ranges' | 'partitions';

const TITLES: Record<string, Mode> = {
  'total rows:': 'global',
  'total rows per node:': 'hosts',
  'total rows per host:': 'hosts',
  'total rows per token range:': 'ranges',
  'total rows per partition:': 'partitions',
};

/** dsbulk's own console lines (stderr), when captured with the results. */
const CONSOLE = [
  /^Operation directory:/i,
  /^Operation \S+ (completed|failed|interrupted|aborted)/i,
  /\s\|\s/, // the progress table (partition keys join their parts with a bare `|`)
  /^(Username and password provided|Setting executor\.|A cloud secure connect bundle|Continuous paging)/i,
  /^(WARN|INFO|ERROR|DEBUG)\b/,
  /^\[[^\]]+\]/,
];

const SHAPES: Record<Mode, string> = {
  global: 'the total row count',
  hosts: '`<host> <rows> <percent>`',
  ranges: '`<start token> <end token> <rows> <percent>`',
  partitions: '`<partition key> <rows> <percent>`',
};

/**
 * An endpoint as dsbulk prints it (`/10.0.0.1:9042`, `[::1]`-less IPv6, a host name with a dot): a `.`
 * or `:` after nothing but word characters, dots and dashes. By hand, as text-scan.ts says why.
 */
function isHost(text: string): boolean {
  if (!/^\/?[\w.:%-]*$/.test(text) || !/\d/.test(text)) return false;
  const host = text.startsWith('/') ? text.slice(1) : text;
  const other = host.search(/[^\w.-]/);
  const before = other < 0 ? host : host.slice(0, other);
  return before.includes('.') || host[other] === ':';
}

export class DsbulkCount implements FormatReader {
  private mode?: Mode;
  private figures?: TableFigures;
  private rangeCount = 0;
  private rangeRows = 0;

  constructor(private readonly ctx: ReaderContext) {
    const modes = ctx.header.modes;
    if (modes?.length === 1 && (['global', 'hosts', 'ranges', 'partitions'] as string[]).includes(modes[0]!))
      this.mode = modes[0] as Mode;
  }

  private table(line: number): TableFigures | undefined {
    if (this.figures) return this.figures;
    const name = this.ctx.header.table;
    if (!name) {
      this.ctx.problem(
        line,
        'which table? dsbulk prints no table name: put the `dsbulk count -k ks -t table ...` command line at the top of the file or set "table" in the configuration',
      );
      return undefined;
    }
    this.figures = this.ctx.table(name, line);
    return this.figures;
  }

  line(text: string, line: number): void {
    const body = text.trim();
    if (!body) return;
    if (body.endsWith(':')) {
      const title = TITLES[body.toLowerCase()];
      if (title) {
        this.mode = title;
        return;
      }
    }
    // The data lines first (millions of them); dsbulk's console lines only when a line is not one.
    if (this.data(body, line)) return;
    if (CONSOLE.some((re) => re.test(body))) return;
    this.ctx.problem(line, this.mode ? `expected ${SHAPES[this.mode]}` : 'not a `dsbulk count` line');
  }

  /** Reads a line of the current mode (or, without titles, of the mode its shape says); false when it is not one. */
  private data(body: string, line: number): boolean {
    const f = body.split(/\s+/);
    // With one mode and no title, the shape of the lines says which.
    const mode =
      this.mode ??
      (f.length === 1
        ? 'global'
        : f.length === 4
          ? 'ranges'
          : f.length === 3 && isHost(f[0]!)
            ? 'hosts'
            : f.length === 3
              ? 'partitions'
              : undefined);
    if (!mode) return false;
    if (mode === 'global') {
      const rows = f.length === 1 ? parseCount(f[0]!) : undefined;
      if (rows === undefined) return false;
      const t = this.table(line);
      if (t) t.totalRows = { value: rows, line };
      return true;
    }
    if (mode === 'ranges') {
      const rows = f.length === 4 && /^-?\d+$/.test(f[0]!) && /^-?\d+$/.test(f[1]!) ? parseCount(f[2]!) : undefined;
      const percent = f.length === 4 ? parseNumber(f[3]!) : undefined;
      if (rows === undefined || percent === undefined) return false;
      const t = this.table(line);
      if (!t) return true;
      this.rangeCount++;
      this.rangeRows += rows;
      const ranges = (t.ranges ??= { count: 0, totalRows: 0 });
      ranges.count = this.rangeCount;
      ranges.totalRows = this.rangeRows;
      if (!ranges.largest || rows > ranges.largest.rows)
        ranges.largest = { start: flatCopy(f[0]!), end: flatCopy(f[1]!), rows, percent, line };
      return true;
    }
    const rows = f.length === 3 ? parseCount(f[1]!) : undefined;
    const percent = f.length === 3 ? parseNumber(f[2]!) : undefined;
    if (rows === undefined || percent === undefined) return false;
    const t = this.table(line);
    if (!t) return true;
    if (mode === 'hosts') {
      const hosts = (t.hosts ??= []);
      if (hosts.length < EVIDENCE_BOUNDS.maxHosts)
        hosts.push({ host: boundedCell(f[0]!.replace(/^\//, '')), rows, percent, line });
      return true;
    }
    const list = (t.partitions ??= []);
    // Most partitions are smaller than the smallest kept: no key copied for them.
    if (list.length < EVIDENCE_BOUNDS.maxPartitions || rows > (list[list.length - 1]!.rows ?? 0))
      keepLargest(list, { key: boundedCell(f[0]!), rows, percent, line }, (p) => p.rows ?? 0);
    return true;
  }

  end(): void {}
}
