// The lines a capture may start with (docs/evidence.md): the command that made the output, as typed
// (`$ nodetool -h 10.0.0.3 toppartitions shop carts 60000`), and `# node:`, `# captured:`, `# table:`,
// `# duration:` comments. The command says what the output alone does not: the node (`-h`), the table
// (dsbulk and Cassandra 3.x toppartitions print none) and the sampling duration.

export interface CaptureHeader {
  node?: string;
  captured?: string;
  table?: string;
  durationMs?: number;
  /**
   * The node's uptime when the capture was taken (`# uptime: 30d`, or nodetool info's `Uptime (seconds) :
   * 2592000` line): tablestats' local write count is counted since the node started, so with it the count
   * is a rate.
   */
  uptimeSeconds?: number;
  /** The command's program and subcommand: `nodetool toppartitions`, `dsbulk count`, `cqlsh`. */
  command?: string;
  /** dsbulk's `--stats.modes` (global, hosts, ranges, partitions). */
  modes?: string[];
}

/** Splits a command line into words (single and double quotes group; no expansion). */
function words(line: string): string[] {
  const out: string[] = [];
  const re = /"([^"]*)"|'([^']*)'|(\S+)/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(line))) out.push(m[1] ?? m[2] ?? m[3]!);
  return out;
}

/** `60s`, `2m`, `60000ms`, `60000` (milliseconds, as nodetool takes it), `3h`, `30d`. */
export function parseDuration(text: string, bareUnit: 'ms' | 's'): number | undefined {
  const m = /^(\d+(?:\.\d+)?)\s*(ms|s|m|min|h|d)?$/i.exec(text.trim());
  if (!m) return undefined;
  const n = Number(m[1]);
  const unit = (m[2] ?? bareUnit).toLowerCase();
  const ms =
    unit === 'ms'
      ? n
      : unit === 's'
        ? n * 1000
        : unit === 'h'
          ? n * 3_600_000
          : unit === 'd'
            ? n * 86_400_000
            : n * 60_000;
  return Number.isFinite(ms) && ms > 0 ? ms : undefined;
}

/** Options of nodetool and its subcommands that take a value (the rest are flags). */
const NODETOOL_VALUED = new Set([
  '-h',
  '--host',
  '-p',
  '--port',
  '-u',
  '--username',
  '-pw',
  '--password',
  '-pwf',
  '--password-file',
  '-s',
  '--size',
  '--capacity',
  '-k',
  '--top-count',
  '-a',
  '--samplers',
  '-d',
  '--duration',
  '--ks-filters',
  '--cf-filters',
  '-F',
  '--format',
  '-t',
  '--sort',
  '-i',
  '--interval',
]);

function nodetool(args: string[], header: CaptureHeader): void {
  let sub: string | undefined;
  const positional: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    const eq = a.indexOf('=');
    const name = a.startsWith('-') && eq > 0 ? a.slice(0, eq) : a;
    const inline = a.startsWith('-') && eq > 0 ? a.slice(eq + 1) : undefined;
    if (name.startsWith('-') && NODETOOL_VALUED.has(name)) {
      const value = inline ?? args[++i];
      if (value === undefined) break;
      if (name === '-h' || name === '--host') header.node ??= value;
      if ((name === '-d' || name === '--duration') && sub) header.durationMs ??= parseDuration(value, 'ms');
      continue;
    }
    if (name.startsWith('-')) continue;
    if (!sub) sub = a;
    else positional.push(a);
  }
  if (!sub) return;
  header.command = `nodetool ${sub}`;
  const ks = positional[0];
  if (sub === 'toppartitions' || sub === 'profileload') {
    if (positional.length >= 3) {
      if (positional[1] !== '*') header.table ??= `${ks}.${positional[1]}`;
      header.durationMs ??= parseDuration(positional[2]!, 'ms');
    } else if (positional.length === 1) header.durationMs ??= parseDuration(positional[0]!, 'ms');
  } else if (sub === 'tablehistograms' || sub === 'cfhistograms') {
    if (positional.length >= 2) header.table ??= `${ks}.${positional[1]}`;
    else if (ks?.includes('.')) header.table ??= ks;
  }
}

function dsbulk(args: string[], header: CaptureHeader): void {
  header.command = `dsbulk ${args[0] ?? ''}`.trim();
  let keyspace: string | undefined;
  let table: string | undefined;
  for (let i = 1; i < args.length; i++) {
    const a = args[i]!;
    const eq = a.indexOf('=');
    const name = eq > 0 ? a.slice(0, eq) : a;
    const value = eq > 0 ? a.slice(eq + 1) : args[i + 1];
    if (name === '-k' || name === '--schema.keyspace' || name === '--dsbulk.schema.keyspace') keyspace = value;
    else if (name === '-t' || name === '--schema.table' || name === '--dsbulk.schema.table') table = value;
    else if (name === '--stats.modes' || name === '--dsbulk.stats.modes')
      header.modes = value
        ?.split(',')
        .map((m) => m.trim().toLowerCase())
        .filter(Boolean);
    else continue;
    if (eq < 0) i++;
  }
  if (keyspace && table) header.table ??= `${keyspace}.${table}`;
}

/** Whole seconds of a duration in milliseconds; undefined for none or zero. */
function secondsOf(ms: number | undefined): number | undefined {
  return ms !== undefined && ms >= 1000 && Number.isFinite(ms) ? Math.round(ms / 1000) : undefined;
}

/**
 * Reads one line of a capture's header into `header`. Returns false when the line is not a header line
 * (the output starts there).
 */
export function readHeaderLine(line: string, header: CaptureHeader): boolean {
  const text = line.trim();
  if (!text) return true;
  const comment = /^#\s*([A-Za-z]+)\s*:\s*(.*)$/.exec(text);
  if (comment) {
    const key = comment[1]!.toLowerCase();
    const value = comment[2]!.trim();
    if (key === 'node' || key === 'host') header.node ??= value;
    else if (key === 'captured' || key === 'date') header.captured ??= value;
    else if (key === 'table') header.table ??= value;
    else if (key === 'duration') header.durationMs ??= parseDuration(value, 's');
    else if (key === 'uptime') header.uptimeSeconds ??= secondsOf(parseDuration(value, 's'));
    else if (key === 'command') readHeaderLine(`$ ${value}`, header);
    return true;
  }
  // nodetool info's line, pasted above the output (the rest of nodetool info is not read).
  const uptime = /^uptime \(seconds\)\s*:\s*(\d+)$/i.exec(text);
  if (uptime) {
    header.uptimeSeconds ??= secondsOf(Number(uptime[1]) * 1000);
    return true;
  }
  const command = /^(?:\$|#\s*\$|>)?\s*(\S*(?:nodetool|dsbulk|cqlsh)(?:\.bat|\.sh)?)\s+(.*)$/.exec(text);
  if (command) {
    const program = command[1]!.replace(/^.*[\\/]/, '').replace(/\.(bat|sh)$/, '');
    const args = words(command[2]!);
    if (program === 'nodetool') nodetool(args, header);
    else if (program === 'dsbulk') dsbulk(args, header);
    else header.command = 'cqlsh';
    return true;
  }
  // Other comment lines (a note the operator added) belong to the header too.
  return text.startsWith('#') || text.startsWith('$ ');
}
