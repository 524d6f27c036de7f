// Reads one evidence file from a stream of text chunks: its header (the command line, `# node:` ...),
// then its format, recognised by content (never by file name) from the first lines, then every line
// through that format's reader. Memory stays bounded (bounds.ts) whatever the file's size.
import { EVIDENCE_BOUNDS } from './bounds';
import { flatCopy } from '../util/strings';
import type { RecordLimits } from '../io/input-limits';
import { TableSet, type FormatReader, type ReaderContext } from './context';
import { DsbulkCount } from './dsbulk';
import { readHeaderLine, type CaptureHeader } from './header';
import { TablehistogramsText } from './histograms';
import { hasSpace, histogramTitle, scyllaTablePrefix } from './text-scan';
import { LineSplitter } from './lines';
import { SystemTableCsv, systemTableOf } from './system-tables';
import { TablestatsMap, TablestatsText } from './tablestats';
import { ToppartitionsText } from './toppartitions';
import type { EvidenceFile, EvidenceOrigin, EvidenceProblem, EvidenceSetting, EvidenceTool } from './types';

/** A file that is not evidence cqlint can read (empty, garbage, another tool's output). */
export class EvidenceReadError extends Error {
  override name = 'EvidenceReadError';
}

export interface EvidenceReadOptions {
  /** The file's path (for the summary). */
  file: string;
  /** How messages name it; default `file`. */
  name?: string;
  /** What the configuration says of it (node, capture date, table, duration). */
  setting?: Omit<EvidenceSetting, 'path' | 'name'>;
  /** The file's modification time: the capture date when nothing else says. */
  fileTime?: Date;
  /** Checked between chunks: reading stops (the result says `cancelled`) once it returns true. */
  isCancelled?: () => boolean;
  /** The caps of one line (default the bounded-input policy's RECORD_LIMITS; tests pass smaller ones). */
  recordLimits?: Readonly<RecordLimits>;
}

interface Detected {
  tool: EvidenceTool;
  variant: string;
  make: (ctx: ReaderContext) => FormatReader;
}

/** Lines looked at to recognise a format (after the header). */
const LOOKAHEAD_LINES = 64;

export const KNOWN_FORMATS =
  'nodetool tablestats (text, -F json, -F yaml), nodetool tablehistograms, nodetool toppartitions, dsbulk count, or a cqlsh COPY of system.large_partitions, system.large_rows or system.size_estimates WITH HEADER = true';

const DSBULK_LINE =
  /^(\S+ \d+ -?\d+[.,]\d{2}|-?\d+ -?\d+ \d+ \d+[.,]\d{2}|Total rows( per (node|host|token range|partition))?:|Operation directory:.*)$/i;

/** `Table: ks.name` (tablestats sorted with -s / -t), read by hand (text-scan.ts). */
function isSortedTableLine(line: string): boolean {
  if (!line.startsWith('Table:')) return false;
  const name = line.slice('Table:'.length).trimStart();
  return !hasSpace(name) && name.slice(1, -1).includes('.');
}

function detect(lines: readonly string[], header: CaptureHeader): Detected | undefined {
  const content = lines.map((l) => l.trim()).filter(Boolean);
  const first = content[0];
  if (first === undefined) return undefined;
  const tablestats = (): Detected | undefined => {
    if (first.startsWith('{'))
      return { tool: 'nodetool tablestats', variant: 'JSON (-F json)', make: (ctx) => new TablestatsMap(ctx, 'json') };
    if (
      content.some((l) => /^total_number_of_tables:\s*\d+$/.test(l)) ||
      lines.some((l) => /^\s+tables:\s*$/.test(l))
    ) {
      return { tool: 'nodetool tablestats', variant: 'YAML (-F yaml)', make: (ctx) => new TablestatsMap(ctx, 'yaml') };
    }
    if (/^Total number of tables:/.test(first) || /^Keyspace\s*:/.test(first) || isSortedTableLine(first)) {
      const variant = content.some((l) => /^Keyspace :/.test(l))
        ? 'text (Cassandra 3.x/4.x)'
        : 'text (Cassandra 5.x, ScyllaDB)';
      return { tool: 'nodetool tablestats', variant, make: (ctx) => new TablestatsText(ctx) };
    }
    return undefined;
  };
  const histograms = (): Detected | undefined =>
    histogramTitle(first) !== undefined || /^Percentile\s/.test(first)
      ? {
          tool: 'nodetool tablehistograms',
          variant: content.some((l) => /^Percentile\s+SSTables/.test(l))
            ? 'text (Cassandra 3.x)'
            : 'text (Cassandra 4.x/5.x, ScyllaDB)',
          make: (ctx) => new TablehistogramsText(ctx),
        }
      : undefined;
  const toppartitions = (): Detected | undefined => {
    if (/^Frequency of \w+( \w+)? by partition:$/i.test(first))
      return { tool: 'nodetool toppartitions', variant: 'Cassandra 4.0+', make: (ctx) => new ToppartitionsText(ctx) };
    if (/^[A-Z_]+ Sampler:$/.test(first)) {
      const scylla = content.some((l) => scyllaTablePrefix(l) !== undefined);
      return {
        tool: 'nodetool toppartitions',
        variant: scylla ? 'ScyllaDB' : 'Cassandra 3.x',
        make: (ctx) => new ToppartitionsText(ctx),
      };
    }
    return undefined;
  };
  const dsbulk = (): Detected | undefined =>
    content.slice(0, 8).every((l) => DSBULK_LINE.test(l) || /\s\|\s/.test(l) || /^Operation \S+ /.test(l)) &&
    content.some((l) => DSBULK_LINE.test(l))
      ? { tool: 'dsbulk count', variant: 'text', make: (ctx) => new DsbulkCount(ctx) }
      : undefined;
  const system = systemTableOf(first);
  if (system)
    return {
      tool: system,
      variant: 'cqlsh COPY ... WITH HEADER = true',
      make: (ctx) => new SystemTableCsv(ctx, system),
    };
  switch (header.command) {
    case 'nodetool tablestats':
    case 'nodetool cfstats':
      return tablestats();
    case 'nodetool tablehistograms':
    case 'nodetool cfhistograms':
      return histograms();
    case 'nodetool toppartitions':
    case 'nodetool profileload':
      return toppartitions();
    case 'dsbulk count':
      return { tool: 'dsbulk count', variant: 'text', make: (ctx) => new DsbulkCount(ctx) };
    default:
      return tablestats() ?? histograms() ?? toppartitions() ?? dsbulk();
  }
}

/** The date part of a capture date when it is a date-time, for messages. */
function isoDate(date: Date): string {
  return date.toISOString().slice(0, 10);
}

/**
 * Reads an evidence file from text chunks (any chunk size). Throws EvidenceReadError when the content
 * is not a format cqlint knows; lines it cannot read are counted and listed, never fatal.
 */
export async function readEvidence(
  chunks: AsyncIterable<string> | Iterable<string>,
  options: EvidenceReadOptions,
): Promise<EvidenceFile> {
  const problems: EvidenceProblem[] = [];
  let problemCount = 0;
  const problem = (line: number, reason: string, limit = false): void => {
    problemCount++;
    if (!limit) {
      if (problems.length < EVIDENCE_BOUNDS.maxProblems) problems.push({ line, reason });
      return;
    }
    // A limit goes before the other problems (the first few are what messages show), within its own cap.
    const limits = problems.findIndex((p) => !p.limit);
    const count = limits < 0 ? problems.length : limits;
    if (count >= EVIDENCE_BOUNDS.maxProblems) return;
    problems.splice(count, 0, { line, reason, limit: true });
    if (problems.length > EVIDENCE_BOUNDS.maxProblems) problems.pop();
  };
  const header: CaptureHeader = {};
  const setting = options.setting ?? {};
  // What the configuration says overrides the header: it is the user's word for this file.
  if (setting.table) header.table = setting.table;
  if (setting.durationSeconds !== undefined) header.durationMs = setting.durationSeconds * 1000;
  if (setting.node) header.node = setting.node;
  let inHeader = true;
  const pending: { text: string; line: number }[] = [];
  let reader: FormatReader | undefined;
  let detected: Detected | undefined;
  const tables = new TableSet(problem);
  const ctx: ReaderContext = { header, problem, table: (name, line) => tables.get(name, line) };
  let lines = 0;

  const start = (force: boolean): void => {
    if (reader || (!force && pending.length < LOOKAHEAD_LINES)) return;
    detected = detect(
      pending.map((p) => p.text),
      header,
    );
    if (!detected) {
      throw new EvidenceReadError(
        pending.some((p) => p.text.trim())
          ? `not a format cqlint reads (expected ${KNOWN_FORMATS})`
          : 'the file holds no output (empty, or only a header)',
      );
    }
    reader = detected.make(ctx);
    for (const p of pending) reader.line(p.text, p.line);
    pending.length = 0;
  };
  const splitter = new LineSplitter(
    (text, line) => {
      lines = line;
      if (inHeader) {
        if (readHeaderLine(text, header)) return;
        inHeader = false;
      }
      if (reader) reader.line(text, line);
      else {
        pending.push({ text, line });
        start(false);
      }
    },
    (line, reason) => problem(line, `${reason}: skipped`, true),
    options.recordLimits,
  );

  let cancelled = false;
  for await (const chunk of chunks) {
    if (options.isCancelled?.()) {
      cancelled = true;
      break;
    }
    splitter.push(chunk);
  }
  splitter.end();
  start(true);
  reader!.end();

  const captured = setting.captured ?? header.captured ?? (options.fileTime ? isoDate(options.fileTime) : undefined);
  const origin: EvidenceOrigin = {
    file: options.file,
    name: options.name ?? options.file,
    tool: detected!.tool,
    variant: detected!.variant,
    ...(header.node ? { node: flatCopy(header.node) } : {}),
    ...(captured
      ? {
          captured: flatCopy(captured),
          capturedFrom: setting.captured ? 'config' : header.captured ? 'header' : 'file time',
        }
      : {}),
    ...(header.uptimeSeconds ? { uptimeSeconds: header.uptimeSeconds } : {}),
  };
  return {
    origin,
    tables: [...tables.tables.values()],
    problems,
    problemCount,
    lines,
    ...(cancelled ? { cancelled } : {}),
  };
}
