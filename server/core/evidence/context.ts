// What every format reader gets: the capture's header, where to report a line it cannot read, and the
// figures of a table by name (created on first use, at most EVIDENCE_BOUNDS.maxTables per file).
import { EVIDENCE_BOUNDS } from './bounds';
import { flatCopy } from '../util/strings';
import type { CaptureHeader } from './header';
import type { Measured, TableFigures } from './types';

export interface ReaderContext {
  readonly header: CaptureHeader;
  /** A line that could not be read; `limit` when a limit of the reader was reached (EvidenceProblem.limit). */
  problem(line: number, reason: string, limit?: boolean): void;
  /** The figures of `keyspace.table` (undefined once the file named too many tables). */
  table(name: string, line: number): TableFigures | undefined;
}

/** A reader of one output format: fed the lines after the header, in order. */
export interface FormatReader {
  line(text: string, line: number): void;
  /** The end of the file. */
  end(): void;
}

export class TableSet {
  readonly tables = new Map<string, TableFigures>();
  private refused = false;

  constructor(private readonly onProblem: (line: number, reason: string, limit?: boolean) => void) {}

  get(name: string, line: number): TableFigures | undefined {
    let figures = this.tables.get(name);
    if (figures) return figures;
    if (this.tables.size >= EVIDENCE_BOUNDS.maxTables) {
      if (!this.refused)
        this.onProblem(line, `more than ${EVIDENCE_BOUNDS.maxTables} tables in one file: the rest are not read`, true);
      this.refused = true;
      return undefined;
    }
    figures = { table: flatCopy(name) };
    this.tables.set(name, figures);
    return figures;
  }
}

export function measured(value: number | undefined, line: number): Measured | undefined {
  return value === undefined ? undefined : { value, line };
}

/**
 * Adds a partition to a list kept sorted by `by` (largest first) and bounded to maxPartitions: the
 * smallest falls off. The list never holds more than the bound, whatever the input.
 */
export function keepLargest<T>(list: T[], item: T, by: (p: T) => number): void {
  const max = EVIDENCE_BOUNDS.maxPartitions;
  const value = by(item);
  if (list.length >= max && value <= by(list[list.length - 1]!)) return;
  let i = list.length;
  while (i > 0 && by(list[i - 1]!) < value) i--;
  list.splice(i, 0, item);
  if (list.length > max) list.pop();
}
