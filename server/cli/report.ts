// `cqlint report [--out report.html] [--target T] <files or folders>`: one self-contained HTML file with the
// partition report of every table and view the inputs define, an index sorted by severity first. Meant as
// a CI artifact: exits 0 whatever it finds, 2 when an input (or a .cqlint.json, or a sample it names) cannot be read.
import * as path from 'node:path';
import { Project } from '../core/project';
import { TARGET_IDS, type TargetId } from '../core/targets';
import { SampleCache, renderReportHtml, sampleSummaryHook, tableReportWithSample, tablesDefinedIn } from '../core/report';
import { EXIT, UsageError, collectCqlFiles, discoveredConfigs, displayPath, explicitConfig, failureReporter, inputFolders, parseCommandArgs, parseTargetOption, readInput, writeTextFile, type CliIO } from './io';
import { describeIoError } from '../core/io/files';

const REPORT_USAGE = `Usage: cqlint report [options] <files or folders...>

Writes the partition report (key diagram, partition growth against the target's limits, shard spread,
throughput, and sample data when .cqlint.json names a sample) of every table in the inputs as one
self-contained HTML file.

Options:
  -o, --out <file>          Where to write the HTML (default: report.html): a file is replaced
                            atomically; a named pipe or device (/dev/stdout) is written into
  -t, --target <db>         Target database: ${TARGET_IDS.join(', ')} (default: from .cqlint.json, else cassandra)
  -c, --config <file>       Use this configuration file instead of looking for .cqlint.json files
      --no-config           Ignore .cqlint.json files
  -h, --help                Show this help

Exit status: 0 the report was written (whatever it shows), 2 usage error or an input that could not be
read or written.
`;

interface ReportCliOptions {
  out: string;
  target?: TargetId;
  configPath?: string;
  noConfig: boolean;
  inputs: string[];
}

function parseReportArgs(args: string[]): ReportCliOptions | 'help' {
  const parsed = parseCommandArgs(args, {
    out: { type: 'string', short: 'o' },
    target: { type: 'string', short: 't' },
    config: { type: 'string', short: 'c' },
    'no-config': { type: 'boolean' },
    help: { type: 'boolean', short: 'h' },
  });
  const values = parsed.values;
  if (values.help) return 'help';
  const target = parseTargetOption(values.target);
  if (values.out !== undefined && values.out.trim() === '') throw new UsageError('--out expects a file name');
  if (values.config !== undefined && values['no-config']) throw new UsageError('--config and --no-config cannot be used together');
  if (!parsed.positionals.length) throw new UsageError('no files or folders given');
  return { out: values.out ?? 'report.html', target, configPath: values.config, noConfig: values['no-config'] === true, inputs: parsed.positionals };
}

export async function runReportCommand(args: string[], io: CliIO): Promise<number> {
  const options = parseReportArgs(args);
  if (options === 'help') {
    io.stdout.write(REPORT_USAGE);
    return EXIT.ok;
  }
  const report = failureReporter(io, 'cqlint report');
  const fail = (message: string): void => report.fail(message);

  const config = explicitConfig(options, io, report);

  // The findings shown cite the samples too: the rules get each summary once it is read. What a
  // .cqlint.json names is read only inside its own folder and the inputs' folders.
  const roots = await inputFolders(options.inputs, io);
  const samples = new SampleCache();
  const configs = discoveredConfigs(roots);
  const project = new Project({ target: options.target, config, configLookup: configs.lookup, sampleSummary: sampleSummaryHook(samples) });
  const loaded: string[] = [];
  for (const file of await collectCqlFiles(options.inputs, io, report)) {
    const read = await readInput(file, io, report);
    if (!read) continue;
    project.setFile(file, read.text);
    loaded.push(file);
  }

  // Discovered configuration files: a broken or refused one is a failure, as in lint (its valid rest applies).
  if (config === undefined) {
    for (const file of loaded) configs.lookup(file);
    for (const [, found] of configs.found()) for (const error of found.errors) fail(error.message);
  }

  const reports = [];
  for (const table of tablesDefinedIn(project, loaded)) reports.push(await tableReportWithSample(project, table, { onProblem: fail, cache: samples, roots }));
  const html = renderReportHtml(reports, {
    title: 'cqlint partition report',
    subtitle: `${reports.length} table${reports.length === 1 ? '' : 's'} from ${options.inputs.join(', ')}`,
    index: true,
    displayPath: (file) => displayPath(file, io.cwd),
  });
  const out = path.resolve(io.cwd, options.out);
  let written;
  try {
    // A named pipe or a device (/dev/stdout, /dev/null) is written into, never replaced.
    written = await writeTextFile(out, html, { bom: false, special: 'stream' });
  } catch (error) {
    fail(`cannot write ${options.out}: ${describeIoError(error)}`);
    return EXIT.failure;
  }
  // Streamed output may be stdout itself: the summary then goes to stderr, out of the HTML's way.
  (written === 'streamed' ? io.stderr : io.stdout).write(`cqlint report: wrote ${options.out} (${reports.length} table${reports.length === 1 ? '' : 's'})\n`);
  return report.failed ? EXIT.failure : EXIT.ok;
}
