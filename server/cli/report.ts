// `cqlint report [--out report.html] [--diagram keyspaces.svg] [--target T] <files or folders>`: the
// partition report of every table and view the inputs define, with each keyspace's diagram, coverage
// matrix and logical writes on top, as self-contained HTML (a CI artifact). Up to PAGE_TABLES tables it
// is one file; beyond, an index file and a folder of pages beside it, one per keyspace (or part of one).
// `--diagram` writes the keyspace diagrams as one standalone SVG. Exit 0 whatever the report shows;
// 2 for usage errors, a broken .cqlint.json, and inputs, samples or rings that cannot be read (what can be
// read is still reported), or an output that cannot be written. A file is replaced atomically; a named pipe or a
// device (/dev/stdout) is written into, never replaced. Nothing is announced as written before a
// failure: with one, the note of what was written goes to stderr after it.
import * as path from 'node:path';
import { mkdir } from 'node:fs/promises';
import { Project } from '../core/engine/project';
import type { TargetId } from '../core/partition/targets';
import { keyspaceViews, tablesDefinedIn } from '../core/report';
import type { ClusterSetting } from '../core/vocabulary/config';
import { CLUSTER_OPTIONS, EVIDENCE_OPTION, ProjectFacts, clusterOption, evidenceOption } from './project-facts';
import { lintMemo } from '../core/report/table-findings';
import { PAGE_TABLES, reportPages } from '../core/report/pages';
import { keyspacesSvg } from '../core/report/diagram';
import {
  CONFIG_OPTIONS,
  EXIT,
  UsageError,
  discoveredConfigs,
  ignoreCheck,
  displayPath,
  explicitConfig,
  failureReporter,
  inputFolders,
  parseCommandArgs,
  parseTargetOption,
  readInput,
  reportConfigErrors,
  writeTextFile,
  type CliIO,
} from './io';
import { describeIoError } from '../core/io/files';
import { EMBEDDED_OPTION, collectSourceFiles, embeddedOption, keepSourceFile } from './sources';
import type { EmbeddedLanguageName } from '../core/vocabulary/config';
import { HELP_OPTION, commandHelp, type CliOptions, type CommandSpec } from './options';
import { terminalStream } from './terminal';

const REPORT_OPTIONS = {
  out: {
    type: 'string',
    short: 'o',
    value: 'file',
    help: 'Where to write the HTML (default: report.html; with --diagram alone, none): a file is replaced atomically; a named pipe or device (/dev/stdout) is written into',
  },
  diagram: { type: 'string', value: 'file', help: 'Also write the keyspace diagrams as one standalone SVG' },
  ...CONFIG_OPTIONS,
  ...EVIDENCE_OPTION,
  ...EMBEDDED_OPTION,
  ...CLUSTER_OPTIONS,
  ...HELP_OPTION,
} satisfies CliOptions;

export const REPORT_COMMAND: CommandSpec = {
  name: 'report',
  summary: 'write the partition report (diagrams and charts of every table) as one HTML file',
  usage: ['[options] <files or folders...>'],
  description: `Writes the partition report of every table in the inputs as self-contained HTML: each keyspace's
diagram (tables with their keys, the inputs' queries as arrows), which table answers each query, the
logical writes and their duplication factor; per table the partition size term by term, its growth
against the target's limits, the traffic of a hot key, the shard spread, throughput, and sample data
when .cqlint.json names a sample. Over ${PAGE_TABLES} tables, the HTML file is an index and the pages go in
a folder beside it (report-pages/ for report.html).`,
  options: REPORT_OPTIONS,
  exitStatus: `0 the report was written (whatever it shows), 2 usage error, bad configuration, or an input
that could not be read or an output that could not be written.`,
};

interface ReportCliOptions {
  out?: string;
  /** --out was given (else the default report.html, which stays inside the working folder). */
  outNamed: boolean;
  diagram?: string;
  target?: TargetId;
  configPath?: string;
  noConfig: boolean;
  /** --evidence: files or folders of evidence for every table. */
  evidence: string[];
  /** --embedded: the application languages whose CQL is read. */
  embedded?: readonly EmbeddedLanguageName[];
  /** --cluster-config, --cluster-version. */
  cluster?: ClusterSetting;
  inputs: string[];
}

function parseReportArgs(args: string[], cwd: string): ReportCliOptions | 'help' {
  const parsed = parseCommandArgs(args, REPORT_OPTIONS);
  const values = parsed.values;
  if (values.help) return 'help';
  const target = parseTargetOption(values.target);
  if (values.out !== undefined && values.out.trim() === '') throw new UsageError('--out expects a file name');
  if (values.diagram !== undefined && values.diagram.trim() === '')
    throw new UsageError('--diagram expects a file name');
  if (values.config !== undefined && values['no-config'])
    throw new UsageError('--config and --no-config cannot be used together');
  if (!parsed.positionals.length) throw new UsageError('no files or folders given');
  // --diagram alone writes the diagram only; the HTML too when --out says where.
  const out = values.out ?? (values.diagram === undefined ? 'report.html' : undefined);
  return {
    out,
    outNamed: values.out !== undefined,
    diagram: values.diagram,
    target,
    configPath: values.config,
    noConfig: values['no-config'] === true,
    evidence: evidenceOption(values.evidence),
    embedded: embeddedOption(values.embedded),
    cluster: clusterOption(values, cwd),
    inputs: parsed.positionals,
  };
}

export async function runReportCommand(args: string[], io: CliIO): Promise<number> {
  const options = parseReportArgs(args, io.cwd);
  if (options === 'help') {
    io.stdout.write(commandHelp(REPORT_COMMAND));
    return EXIT.ok;
  }
  const report = failureReporter(io, 'cqlint report');
  // A sample or ring that cannot be read is said once, however many tables name it.
  const said = new Set<string>();
  const fail = (message: string): void => {
    if (said.has(message)) return;
    said.add(message);
    report.fail(message);
  };

  const config = explicitConfig(options, io, report);

  // The findings shown cite the samples too: the rules get each summary once it is read. What a
  // .cqlint.json names is read only inside its own folder and the inputs' folders.
  const roots = await inputFolders(options.inputs, io);
  const facts = new ProjectFacts(options.evidence, io.cwd, options.cluster);
  const configs = discoveredConfigs(roots);
  const project = new Project({
    target: options.target,
    config,
    configLookup: configs.lookup,
    ...facts.projectOptions(),
  });
  const loaded: string[] = [];
  const ignored = ignoreCheck(io, report, (entry) => config ?? configs.lookup(entry)?.config);
  for (const file of await collectSourceFiles(options.inputs, io, report, ignored, {
    override: options.embedded,
    configFor: (entry) => config ?? configs.lookup(entry)?.config,
  })) {
    const read = await readInput(file, io, report);
    if (!read) continue;
    project.setFile(file, read.text);
    if (keepSourceFile(project, file, io)) loaded.push(file);
  }
  // A broken .cqlint.json fails the run as it fails `lint` (its valid rest still applies).
  if (config === undefined) reportConfigErrors(configs, loaded, report);
  if (!loaded.length) {
    fail('no report written: no input could be read');
    return EXIT.failure;
  }

  const show = (file: string): string => displayPath(file, io.cwd);
  const tables = tablesDefinedIn(project, loaded);
  // The samples and evidence first, so that the findings and the "On the cluster" panels cite them (as
  // lint's do); then each file is linted once for the whole report.
  await facts.read(project, loaded, {
    roots,
    fail,
    warn: (warning) => io.stderr.write(`cqlint: warning: ${warning}\n`),
  });
  const lint = lintMemo(project);
  const views = keyspaceViews(project, tables, { displayPath: (file) => path.basename(file), lint });
  const written: string[] = [];
  let streamed = false;
  // A file is replaced atomically; a named pipe or a device (/dev/stdout, /dev/null) is written into, never
  // replaced. A path the user named is written where it is; the default report.html stays inside the
  // working folder and the pages inside the report's folder (a committed link out of them is refused).
  // A path the user named gets its missing folders (`-o build/cqlint/report.html`), as other tools' --out does.
  const writeArtifact = async (file: string, text: string, roots?: readonly string[]): Promise<boolean> => {
    try {
      if (!roots) await mkdir(path.dirname(file), { recursive: true });
      if ((await writeTextFile(file, text, { bom: false, special: 'stream', roots })) === 'streamed') streamed = true;
      return true;
    } catch (error) {
      fail(`cannot write ${displayPath(file, io.cwd)}: ${describeIoError(error)}`);
      return false;
    }
  };
  if (options.diagram !== undefined) {
    const file = path.resolve(io.cwd, options.diagram);
    if (await writeArtifact(file, keyspacesSvg(views))) written.push(options.diagram);
  }
  if (options.out !== undefined) {
    const out = path.resolve(io.cwd, options.out);
    const base = path.basename(out).replace(/\.html?$/i, '');
    const pagesFolder = `${base}-pages`;
    let pages = 0;
    let count = 0;
    let folderMade = false;
    try {
      for await (const page of reportPages(project, tables, views, {
        title: 'cqlint partition report',
        subtitle: `${tables.length} table${tables.length === 1 ? '' : 's'} from ${options.inputs.join(', ')}`,
        displayPath: show,
        indexName: path.basename(out),
        pagesFolder,
        cache: facts.samples,
        onProblem: fail,
        roots,
        lint,
      })) {
        const target = page.path ? path.join(path.dirname(out), page.path) : out;
        if (page.path && !folderMade) {
          // Beside the index file, whose folder must exist (as for a report of one page).
          await mkdir(path.dirname(target)).catch((error: NodeJS.ErrnoException) => {
            if (error.code !== 'EEXIST') throw error;
          });
          folderMade = true;
        }
        if (
          !(await writeArtifact(
            target,
            page.html,
            page.path ? [path.dirname(out)] : options.outNamed ? undefined : [io.cwd],
          ))
        )
          break;
        if (page.path) pages++;
        else count = page.tables;
      }
    } catch (error) {
      fail(`cannot write ${options.out}: ${describeIoError(error)}`);
    }
    if (count || !tables.length)
      written.push(
        `${options.out}${pages ? ` and ${pages} page${pages === 1 ? '' : 's'} in ${path.join(path.dirname(options.out), pagesFolder)}${path.sep}` : ''} (${tables.length} table${tables.length === 1 ? '' : 's'})`,
      );
  }
  if (!written.length) return EXIT.failure;
  if (report.failed) {
    io.stderr.write(`cqlint report: wrote ${written.join(' and ')} with what could be read\n`);
    return EXIT.failure;
  }
  // Streamed output may be stdout itself: the summary then goes to stderr, out of the HTML's way.
  (streamed ? io.stderr : terminalStream(io.stdout)).write(`cqlint report: wrote ${written.join(' and ')}\n`);
  return EXIT.ok;
}
