// `cqlint lint [options] <files or folders>`: every input goes into one Project (so queries resolve
// against tables defined in other inputs), each file is linted and the findings are printed.
// Exit 0 clean (warnings allowed), 1 errors or too many warnings, 2 usage, config or I/O failure;
// a file that cannot be read is reported on stderr and the others are still linted.
import { Project } from '../core/engine/project';
import { heapKeeper } from '../core/util/heap';
import { allRules } from '../core/rules';
import { docsUrl } from '../core/findings/findings';
import type { TargetId } from '../core/partition/targets';
import * as path from 'node:path';
import { statSync } from 'node:fs';
import { MAX_FILE_BYTES, describeIoError } from '../core/io/files';
import { DEFAULT_CACHE_FILE, LintCache, RunInputs, definesSchema } from './cache';
import { withProgress, type Progress } from './progress';
import type { ClusterSetting } from '../core/vocabulary/config';
import { CLUSTER_OPTIONS, EVIDENCE_OPTION, ProjectFacts, clusterOption, evidenceOption } from './project-facts';
import {
  FORMAT_NAMES,
  countFindings,
  resultWriter,
  type FileResult,
  type FormatName,
  type ResultWriter,
  type RuleDescription,
} from './formatters';
import { applyFixesToText, fixableFindings } from './fix';
import { EMBEDDED_OPTION, collectSourceFiles, embeddedOption, hostLanguagesOf, keepSourceFile } from './sources';
import { embeddedLanguageFor } from '../core/embedded/selection';
import { loadHostLanguages } from '../core/embedded';
import type { CqlintConfig, EmbeddedLanguageName, RuleLevel } from '../core/vocabulary/config';
import { RULE_LEVELS } from '../core/vocabulary/config';
import {
  CONFIG_OPTIONS,
  EXIT,
  NO_IGNORE_OPTION,
  UsageError,
  writeTextFile,
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
  writeConfinement,
  OutputFiles,
  ReadAhead,
  type CliIO,
  type ReadBack,
} from './io';
import { HELP_OPTION, commandHelp, type CliOptions, type CommandSpec } from './options';
import { lintInWorkers, workerCount } from './lint-workers';
import { fingerprintPath, fingerprints } from './fingerprint';
import { baselineEntry, baselineText, readBaseTree, readBaseline, type BaselineEntry } from './changed';
import { mkdir } from 'node:fs/promises';
import packageJson from '../../package.json';

const LINT_OPTIONS = {
  format: {
    type: 'string',
    short: 'f',
    value: 'name',
    help: `Output format: ${FORMAT_NAMES.join(', ')} (default: stylish; compact is one line per problem; github writes GitHub Actions annotations; markdown a job summary or pull-request comment)`,
  },
  ...CONFIG_OPTIONS,
  stdin: {
    type: 'boolean',
    help: 'Lint the text on stdin. Files and folders given too are read as its context (their tables resolve its queries) and not reported',
  },
  'stdin-filename': {
    type: 'string',
    value: 'path',
    help: "The file the stdin text stands for: its .cqlint.json applies, it replaces that file among the inputs, and results name it (default: '<stdin>' in the working directory)",
  },
  ...NO_IGNORE_OPTION,
  quiet: {
    type: 'boolean',
    help: 'Report errors only: warnings and information are not shown (--max-warnings still counts the warnings)',
  },
  'max-warnings': {
    type: 'string',
    value: 'n',
    help: 'Exit with 1 when there are more than n warnings (default: -1, no limit)',
  },
  'report-unused-disable-directives': {
    type: 'boolean',
    help: "Report the cqlint-disable comments that silence nothing as errors (id unused-disable-directive; --fix removes them), whatever the configuration's reportUnusedDisableDirectives says",
  },
  'report-unused-disable-directives-severity': {
    type: 'string',
    value: 'level',
    help: 'Like --report-unused-disable-directives, at this level: off, warn or error',
  },
  ...EVIDENCE_OPTION,
  ...EMBEDDED_OPTION,
  ...CLUSTER_OPTIONS,
  fix: {
    type: 'boolean',
    help: 'Apply the fixes that need no choice (renames, computed shard values, ...), write the changed files, then report the problems that remain (a file with syntax errors is left as it is; a file edited meanwhile is not written)',
  },
  'fix-dry-run': {
    type: 'boolean',
    help: 'Like --fix, but write nothing (json output carries the fixed text as "output")',
  },
  'output-file': {
    type: 'string',
    short: 'o',
    value: 'file',
    help: 'Write the output to this file instead of stdout (its folders are created; the file is replaced atomically; no colours unless --color)',
  },
  color: { type: 'boolean', help: 'Force colours (default: colours when stdout is a terminal and NO_COLOR is unset)' },
  'no-color': { type: 'boolean', help: 'Disable colours' },
  since: {
    type: 'string',
    value: 'git ref',
    help: 'Report only the findings the branch introduces: the working tree is linted, and so are the same inputs at the merge-base of HEAD and the ref (read with git, the working tree untouched); a finding whose fingerprint the merge-base has is not reported. Exit 2 outside a git repository or for an unknown ref',
  },
  baseline: {
    type: 'string',
    value: 'file',
    help: 'Report only the findings not in this baseline file (accepted findings, matched by fingerprint); a missing or malformed file is an error (exit 2)',
  },
  'update-baseline': {
    type: 'boolean',
    help: 'Write every finding of this run to the --baseline file (created, with its folders, or replaced) and report none of them',
  },
  cache: {
    type: 'boolean',
    help: `Keep each file's findings in a cache and reuse them while nothing they depend on has changed (the file, the schema, the queries it reads, the configuration, cqlint itself); not used with --fix, --fix-dry-run or --stdin`,
  },
  'cache-location': {
    type: 'string',
    value: 'file',
    help: `Where --cache keeps its file (default: ${DEFAULT_CACHE_FILE} in the working directory)`,
  },
  ...HELP_OPTION,
} satisfies CliOptions;

export const LINT_COMMAND: CommandSpec = {
  name: 'lint',
  summary: 'lint CQL files and folders (stylish, json or sarif output; --fix applies safe fixes)',
  usage: ['[options] <files or folders...>', '[options] --stdin [--stdin-filename <path>] [<files or folders...>]'],
  description: `Lints CQL files. Folders are searched for *.cql and *.cqlsh files (node_modules and .git are skipped).
All inputs are analysed together, so queries resolve against tables defined in any of them.`,
  options: LINT_OPTIONS,
  notes: `Each problem has a headline (what is wrong and where, about 100 characters) and most have details
(the figures, the cure and the sources, as markdown): stylish shows the details wrapped under the headline,
compact the headline alone. json is ESLint's JSON formatter shape, the headline as "message" with its
"messageId" (which of the rule's declared messages it is) and the details in an added "details" field; sarif
is SARIF 2.1.0 for code-scanning uploads, the headline as message.text with message.id and arguments (the
rule's messageStrings), and headline and details as message.markdown.

Runs of 1,000 files or more parse and lint them in worker threads, whose heaps are sized for it: one per
two cores, up to 4 and one per 1,000 files (the output is the same as on the main thread); CQLINT_WORKERS=n
sets how many (0: none, at most 16). --fix, --fix-dry-run, --stdin and --cache run on the main thread.`,
  exitStatus: `0 no errors (and warnings within --max-warnings), 1 errors or too many warnings, 2 usage error,
bad configuration or a file that could not be read. Files over ${MAX_FILE_BYTES.source / (1024 * 1024)} MiB are refused (exit 2): cqlint checks
schemas and queries, not data dumps.`,
};

interface LintOptions {
  format: FormatName;
  target?: TargetId;
  configPath?: string;
  noConfig: boolean;
  maxWarnings: number;
  /** --quiet: show errors only. */
  quiet: boolean;
  color?: boolean;
  inputs: string[];
  /** --fix: apply the safe fixes and write the files that change, then report what remains. */
  fix?: boolean;
  /** --fix-dry-run: apply them in memory only. */
  fixDryRun?: boolean;
  /** --no-ignore: lint what .cqlintignore and ignorePatterns leave out. */
  noIgnore: boolean;
  /** --cache: the cache file (absolute), when the cache is used. */
  cacheFile?: string;
  /** The cache file is the default one (confined to the working folder), not one --cache-location named. */
  defaultCacheFile?: boolean;
  /** --stdin: the path the text on stdin is linted as (the inputs are then its context). */
  stdinPath?: string;
  /** --report-unused-disable-directives(-severity): the level, over each config's reportUnusedDisableDirectives. */
  unusedDirectives?: RuleLevel;
  /** --evidence: files or folders of evidence for every table. */
  evidence: string[];
  /** --embedded: the application languages whose CQL is read (undefined: each .cqlint.json's, else all). */
  embedded?: readonly EmbeddedLanguageName[];
  /** --cluster-config, --cluster-version. */
  cluster?: ClusterSetting;
  /** --since: the git ref whose merge-base with HEAD holds the findings not reported. */
  since?: string;
  /** --baseline: the baseline file (absolute). */
  baseline?: string;
  /** --update-baseline: write it instead of reading it. */
  updateBaseline?: boolean;
  /** Internal (the merge-base's run of --since): gets each file's fingerprints, writes no output. */
  collect?: (fingerprints: readonly string[]) => void;
  /** --output-file: where the output goes (absolute) instead of stdout. */
  outputFile?: string;
  /** Internal: what the fingerprints' file paths are relative to (default: the working directory). */
  fingerprintRoot?: string;
}

const INFORMATION_URI = 'https://github.com/cqlint/cqlint';

function parseLintArgs(args: string[], cwd: string): LintOptions | 'help' {
  const parsed = parseCommandArgs(args, LINT_OPTIONS);
  const values = parsed.values;
  if (values.help) return 'help';

  const formatName = values.format ?? 'stylish';
  if (!(FORMAT_NAMES as readonly string[]).includes(formatName)) {
    throw new UsageError(`unknown format "${formatName}"; use one of ${FORMAT_NAMES.join(', ')}`);
  }
  const target = parseTargetOption(values.target);
  let maxWarnings = -1;
  if (values['max-warnings'] !== undefined) {
    const text = values['max-warnings'].trim();
    if (!/^-?\d+$/.test(text) || Number(text) < -1 || !Number.isSafeInteger(Number(text))) {
      throw new UsageError(`--max-warnings expects a whole number (-1 for no limit), got "${values['max-warnings']}"`);
    }
    maxWarnings = Number(text);
  }
  if (values.config !== undefined && values['no-config'])
    throw new UsageError('--config and --no-config cannot be used together');
  if (values.config !== undefined && values.config.trim() === '') throw new UsageError('--config expects a file name');
  if (values.color && values['no-color']) throw new UsageError('--color and --no-color cannot be used together');
  if (values.fix && values['fix-dry-run']) throw new UsageError('--fix and --fix-dry-run cannot be used together');
  if (values['stdin-filename'] !== undefined && !values.stdin) throw new UsageError('--stdin-filename needs --stdin');
  if (values['stdin-filename'] !== undefined && values['stdin-filename'].trim() === '')
    throw new UsageError('--stdin-filename expects a file name');
  if (values.stdin && values.fix)
    throw new UsageError(
      '--fix cannot write stdin back: use --fix-dry-run (json output carries the fixed text as "output")',
    );
  if (!parsed.positionals.length && !values.stdin) throw new UsageError('no files or folders given');
  const evidence = evidenceOption(values.evidence);
  if (values['cache-location'] !== undefined && !values.cache) throw new UsageError('--cache-location needs --cache');
  if (values['cache-location'] !== undefined && values['cache-location'].trim() === '')
    throw new UsageError('--cache-location expects a file name');
  if (values['output-file'] !== undefined && values['output-file'].trim() === '')
    throw new UsageError('--output-file expects a file name');
  if (values['update-baseline'] && values.baseline === undefined)
    throw new UsageError('--update-baseline needs --baseline <file>');
  if (values.baseline !== undefined && values.baseline.trim() === '')
    throw new UsageError('--baseline expects a file name');
  if (values.since !== undefined && values.stdin)
    throw new UsageError('--since lints files against their merge-base, not stdin');
  if (values.since !== undefined && values['update-baseline'])
    throw new UsageError('--update-baseline writes every finding; it cannot be used with --since');
  const unusedSeverity = values['report-unused-disable-directives-severity'];
  if (unusedSeverity !== undefined && values['report-unused-disable-directives'])
    throw new UsageError(
      '--report-unused-disable-directives and --report-unused-disable-directives-severity cannot be used together',
    );
  if (unusedSeverity !== undefined && !(RULE_LEVELS as readonly string[]).includes(unusedSeverity))
    throw new UsageError(
      `--report-unused-disable-directives-severity expects off, warn or error, got "${unusedSeverity}"`,
    );
  // Fixing changes the texts the keys are made of, and stdin is a text of the moment: no cache for them.
  const cached = values.cache === true && !values.fix && !values['fix-dry-run'] && !values.stdin;

  return {
    format: formatName as FormatName,
    target,
    configPath: values.config,
    noConfig: values['no-config'] === true,
    maxWarnings,
    quiet: values.quiet === true,
    noIgnore: values['no-ignore'] === true,
    color: values.color ? true : values['no-color'] ? false : undefined,
    inputs: parsed.positionals,
    fix: values.fix === true,
    fixDryRun: values['fix-dry-run'] === true,
    stdinPath: values.stdin ? path.resolve(cwd, values['stdin-filename'] ?? '<stdin>') : undefined,
    cacheFile: cached ? path.resolve(cwd, values['cache-location'] ?? DEFAULT_CACHE_FILE) : undefined,
    defaultCacheFile: values['cache-location'] === undefined,
    unusedDirectives: values['report-unused-disable-directives'] ? 'error' : (unusedSeverity as RuleLevel | undefined),
    evidence,
    embedded: embeddedOption(values.embedded),
    cluster: clusterOption(values, cwd),
    since: values.since,
    baseline: values.baseline === undefined ? undefined : path.resolve(cwd, values.baseline),
    updateBaseline: values['update-baseline'] === true,
    outputFile: values['output-file'] === undefined ? undefined : path.resolve(cwd, values['output-file']),
  };
}

function ruleDescriptions(): RuleDescription[] {
  const rules: RuleDescription[] = allRules.map((rule) => ({
    id: rule.meta.id,
    defaultSeverity: rule.meta.defaultSeverity,
    description: rule.meta.description,
    docsUrl: docsUrl(rule.meta.id),
    messages: rule.meta.messages,
  }));
  return rules;
}

export async function runLintCommand(args: string[], io: CliIO): Promise<number> {
  const options = parseLintArgs(args, io.cwd);
  if (options === 'help') {
    io.stdout.write(commandHelp(LINT_COMMAND));
    return EXIT.ok;
  }
  return runLint(options, io);
}

/** What a sample file is now, for the cache key (its content is read only when the rules need it). */
function fileStamp(file: string): string {
  try {
    const stat = statSync(file);
    return `${stat.size}:${stat.mtimeMs}:${stat.ino}`;
  } catch {
    return 'missing';
  }
}

/** --quiet: a file's result with its errors only (fixable kept in step). */
function errorsOnly(result: FileResult): FileResult {
  const kept = result.findings.map((finding, i) => i).filter((i) => result.findings[i].severity === 'error');
  if (kept.length === result.findings.length) return result;
  return {
    ...result,
    findings: kept.map((i) => result.findings[i]),
    fixable: result.fixable && kept.map((i) => result.fixable![i]),
  };
}

/** Lints per `options`; returns the exit code. */
function runLint(options: LintOptions, terminal: CliIO): Promise<number> {
  // A long run shows its progress on stderr (a terminal only).
  return withProgress(terminal, (io, bar) => lintFiles(options, io, bar));
}

async function lintFiles(options: LintOptions, io: CliIO, bar: Progress): Promise<number> {
  const report = failureReporter(io, 'cqlint');
  const fail = (message: string): void => report.fail(message);
  // --since, --baseline: the fingerprints not reported (read before anything is linted: a bad ref or
  // baseline file stops the run with exit 2).
  const known = await knownFindings(options, io, bar);

  // Configuration: an explicit file, none at all, or each file's nearest .cqlint.json (the Project finds it).
  const config = explicitConfig(options, io, report);

  // What a .cqlint.json names is read only inside its own folder and the inputs' folders.
  const roots = await inputFolders(options.inputs, io);
  const configs = discoveredConfigs(roots);
  const ignored = options.noIgnore
    ? undefined
    : ignoreCheck(io, report, (entry) => config ?? configs.lookup(entry)?.config);
  const configFor = (entry: string): CqlintConfig | undefined => config ?? configs.lookup(entry)?.config;
  const files = options.inputs.length
    ? await collectSourceFiles(options.inputs, io, report, ignored, { override: options.embedded, configFor })
    : [];
  const stdinLanguage =
    options.stdinPath === undefined
      ? undefined
      : embeddedLanguageFor(options.stdinPath, configFor(options.stdinPath)?.embedded, options.embedded);
  if (stdinLanguage) await loadHostLanguages([stdinLanguage]);
  // --output-file: the output is gathered and written at the end (atomically, its folders created).
  let gathered = '';
  const toFile = options.outputFile !== undefined;
  const sink = toFile ? { write: (text: string) => (gathered += text) } : io.stdout;
  const terminal = !toFile && io.stdout.isTTY === true;
  const color = options.color ?? (terminal && !io.env.NO_COLOR);
  const writer = (): ResultWriter =>
    resultWriter(options.format, sink, {
      cwd: io.cwd,
      color,
      // The rule ids link to their pages (OSC 8) on a terminal only: a log or a file would show the codes.
      hyperlinks: color && terminal && io.env.TERM !== 'dumb',
      columns: terminal ? io.stdout.columns : undefined,
      rules: ruleDescriptions(),
      toolVersion: packageJson.version,
      informationUri: INFORMATION_URI,
    });
  const counts = { errorCount: 0, warningCount: 0 };
  const root = options.fingerprintRoot ?? io.cwd;
  const write = (out: ResultWriter, linted: FileResult): void => {
    // Fingerprints only where they are read: --since, the baseline (and SARIF, whose formatter makes its own).
    if (options.collect) return options.collect(fingerprints(linted.findings, linted.filePath, linted.source, root));
    const result = known.matches
      ? known.keep({ ...linted, fingerprints: fingerprints(linted.findings, linted.filePath, linted.source, root) })
      : linted;
    out.file(options.quiet ? errorsOnly(result) : result);
    const fileCounts = countFindings(result.findings);
    counts.errorCount += fileCounts.errorCount;
    counts.warningCount += fileCounts.warningCount;
  };
  const lintFailed = (filePath: string, message: string): void =>
    fail(`internal error while linting ${displayPath(filePath, io.cwd)}: ${message}`);

  // Many files: worker threads parse and lint them (see lint-workers.ts). Fixing edits the texts, stdin is one
  // text, and the cache skips the files it holds: those runs stay on the main thread.
  const oneThread =
    options.fix || options.fixDryRun || options.stdinPath !== undefined || options.cacheFile !== undefined;
  const workers = oneThread ? 0 : workerCount(files.length, io.env);
  if (workers > 0) {
    if (io.env.CQLINT_DEBUG)
      io.stderr.write(`cqlint: linting ${files.length} files in ${workers} worker thread${workers === 1 ? '' : 's'}\n`);
    const out = writer();
    const reads = new ReadAhead(files, io, report);
    let read = 0;
    let written = 0;
    await lintInWorkers({
      workers,
      setup: {
        target: options.target,
        config,
        roots,
        evidence: options.evidence,
        cluster: options.cluster,
        cwd: io.cwd,
        unusedDirectives: options.unusedDirectives,
        languages: hostLanguagesOf(files),
      },
      files,
      read: async (file) => {
        bar.update('reading', read++, files.length);
        return (await reads.read(file))?.text;
      },
      allRead: (readFiles) => {
        if (config === undefined) reportConfigErrors(configs, readFiles, report);
      },
      problem: fail,
      warning: (warning) => io.stderr.write(`cqlint: warning: ${warning}\n`),
      result: (result) => {
        bar.update('linting', written++, files.length);
        write(out, result);
      },
      failed: lintFailed,
    });
    out.end();
    await known.end(fail);
    await writeOutputFile(options, gathered, io, fail);
    return exitCode(report.failed, counts, options.maxWarnings, io);
  }

  // Rules are synchronous: the samples and evidence are read before they run, and handed to them here
  // (--evidence is the user's own word: it may name files anywhere).
  const facts = new ProjectFacts(options.evidence, io.cwd, options.cluster);
  const project = new Project({
    target: options.target,
    config,
    configLookup: configs.lookup,
    keepTexts: true,
    reportUnusedDisableDirectives: options.unusedDirectives,
    ...facts.projectOptions(),
  });
  // The files read, in order, each with its byte order mark and stamp (--fix keeps the one and checks the
  // other when it writes). Their texts live in the project only.
  const readFiles = new Map<string, ReadBack>();
  // --cache: what each file's findings depend on (see cache.ts), gathered as the files are indexed.
  const inputs = options.cacheFile !== undefined ? new RunInputs() : undefined;
  // The text on stdin stands for its file.
  const reads = new ReadAhead(
    files.filter((file) => file !== options.stdinPath),
    io,
    report,
  );
  for (const [i, file] of files.entries()) {
    bar.update('reading', i, files.length);
    if (file === options.stdinPath) continue;
    const read = await reads.read(file);
    if (!read) continue;
    project.setFile(file, read.text);
    if (!keepSourceFile(project, file, io)) continue;
    readFiles.set(file, { bom: read.bom, stamp: read.stamp });
    // Index the file (its schema and references), then let go of its tree: the run's memory grows with
    // the schema, not with the text. Linting parses each file again, one at a time.
    const schema = project.fileSchema(file);
    inputs?.file(file, read.text, definesSchema(schema), project.fileReferences(file).length > 0);
    project.release(file);
    heapKeeper().settle();
  }

  const stdinIgnoredBy = options.stdinPath === undefined ? undefined : ignored?.(options.stdinPath, false);
  if (stdinIgnoredBy !== undefined) {
    io.stderr.write(
      `cqlint: warning: ${displayPath(options.stdinPath!, io.cwd)} is ignored by ${displayPath(stdinIgnoredBy, io.cwd)} (--no-ignore includes it)\n`,
    );
  } else if (options.stdinPath !== undefined) {
    const read = await readInput(options.stdinPath, io, report, 'source', io.stdin ?? process.stdin);
    if (read) {
      readFiles.set(options.stdinPath, { bom: read.bom });
      project.setFile(options.stdinPath, read.text);
      // Application code on stdin is reported even without CQL (it is what was asked for), with what could not be read.
      for (const problem of project.embedded(options.stdinPath)?.problems ?? [])
        io.stderr.write(`cqlint: warning: ${displayPath(options.stdinPath, io.cwd)}: ${problem.message}
`);
    }
  }
  // What is reported: every file read, or with --stdin its text alone (the files are its context).
  const reported =
    options.stdinPath === undefined
      ? [...readFiles.keys()]
      : readFiles.has(options.stdinPath)
        ? [options.stdinPath]
        : [];

  // Discovered configuration files: a broken one is a failure (its valid rest still applies).
  if (config === undefined) reportConfigErrors(configs, readFiles.keys(), report);

  // A configured sample or evidence file that cannot be read is an I/O failure (exit 2), the rules then go
  // without it; lines not read and tables the workspace does not define are warnings.
  const evidenceFiles = await facts.read(project, [...readFiles.keys()], {
    roots,
    fail,
    warn: (warning) => io.stderr.write(`cqlint: warning: ${warning}\n`),
  });

  const cache =
    options.cacheFile !== undefined
      ? await LintCache.load(options.cacheFile, options.defaultCacheFile ? [io.cwd] : undefined)
      : undefined;
  if (inputs) {
    inputs.setting('target', options.target ?? '');
    const used =
      config !== undefined
        ? [['--config', config] as const]
        : configs.found().map(([file, loaded]) => [file, loaded.config] as const);
    for (const [file, loaded] of used) {
      inputs.setting(`config ${file}`, JSON.stringify(loaded ?? null));
      for (const sample of Object.values(loaded?.samples ?? {}))
        inputs.setting(`sample ${sample.file}`, fileStamp(sample.file));
    }
    // Evidence changes findings too: every file read (whatever names it) is part of the key.
    inputs.setting('evidence', JSON.stringify(options.evidence));
    inputs.setting('unused directives', options.unusedDirectives ?? '');
    inputs.setting('cluster', JSON.stringify(options.cluster ?? null));
    for (const file of new Set(reported.map((f) => project.clusterSetting(f)?.config)))
      if (file) inputs.setting(`cluster ${file}`, fileStamp(file));
    for (const file of evidenceFiles) inputs.setting(`evidence ${file}`, fileStamp(file));
  }

  // --fix / --fix-dry-run: every file is fixed first (the project keeps the fixed texts, so a fixed
  // schema is what the queries of other files are checked against), then everything is linted. --fix
  // writes the changed files all or nothing (a fix of a schema file and of the queries on it go together).
  const outputs = new Map<string, string>();
  // The problems before fixing, for the "fixed N problems" line (the problems after are counted as reported).
  let problemsBefore: number | undefined;
  let problemsAfter = 0;
  if (options.fix || options.fixDryRun) {
    const originals = new Map<string, string>();
    problemsBefore = 0;
    for (const filePath of reported) {
      try {
        problemsBefore += project.lint(filePath).length;
      } catch {
        // Linting it again below reports the failure.
      }
    }
    for (const filePath of reported) {
      const original = project.sourceText(filePath)!;
      let fixed;
      try {
        fixed = applyFixesToText(project, filePath);
      } catch (error) {
        fail(
          `internal error while fixing ${displayPath(filePath, io.cwd)}: ${error instanceof Error ? error.message : String(error)}`,
        );
        continue;
      }
      if (fixed.skipped) io.stderr.write(`cqlint: not fixing ${displayPath(filePath, io.cwd)}: ${fixed.skipped}\n`);
      if (!fixed.changed) continue;
      originals.set(filePath, original);
      outputs.set(filePath, fixed.output);
    }
    if (options.fix && outputs.size) {
      const written = new OutputFiles(io, report, await writeConfinement(options.inputs, io));
      for (const [filePath, text] of outputs) if (!(await written.add(filePath, text, readFiles.get(filePath)!))) break;
      if (!(await written.commit())) {
        // Report against what is on disk, not against fixes that were not saved.
        for (const [filePath, original] of originals) project.setFile(filePath, original);
        outputs.clear();
      }
    }
  }

  // Each file's result is written as soon as it is linted: a run over many files never holds its whole
  // output as one string.
  const out = writer();
  for (const [i, filePath] of reported.entries()) {
    bar.update('linting', i, reported.length);
    const hit = inputs && cache?.lookup(filePath, inputs);
    let findings;
    try {
      findings = hit ? hit.findings : project.lint(filePath);
    } catch (error) {
      lintFailed(filePath, error instanceof Error ? error.message : String(error));
      continue;
    }
    let fixable: boolean[] | undefined = hit?.fixable;
    try {
      fixable ??= fixableFindings(project, filePath, findings);
    } catch {
      // The fixable counts are a hint; a fix that cannot be computed is simply not counted.
    }
    if (inputs)
      cache?.store(filePath, inputs, hit ? hit.readsQueries : project.lintReadReferences(filePath), findings, fixable);
    problemsAfter += findings.length;
    const output = outputs.get(filePath);
    const result: FileResult = {
      filePath,
      findings,
      source: output ?? project.sourceText(filePath)!,
      fixable,
      ...(output !== undefined ? { output } : {}),
    };
    write(out, result);
    project.release(filePath, { findings: true });
    heapKeeper().settle();
  }
  out.end();
  await known.end(fail);
  await writeOutputFile(options, gathered, io, fail);
  // As ESLint's users expect after --fix: how many problems the fixes took away (on stderr: the output stays the format's).
  const fixedProblems = outputs.size && problemsBefore !== undefined ? problemsBefore - problemsAfter : 0;
  if (fixedProblems > 0) {
    const counted = `${fixedProblems} problem${fixedProblems === 1 ? '' : 's'} in ${outputs.size} file${outputs.size === 1 ? '' : 's'}`;
    io.stderr.write(
      options.fix
        ? `cqlint: fixed ${counted}\n`
        : `cqlint: --fix would fix ${counted} (nothing written: --fix-dry-run)\n`,
    );
  }
  if (cache) {
    // Not worth failing the run for: the results stand, the next run starts afresh.
    await cache
      .save()
      .catch((error: unknown) =>
        io.stderr.write(
          `cqlint: warning: cannot write the cache ${displayPath(options.cacheFile!, io.cwd)}: ${describeIoError(error)}\n`,
        ),
      );
  }

  return exitCode(report.failed, counts, options.maxWarnings, io);
}

/** --output-file: writes the run's output (creating the file's folders); a failure is exit 2. */
async function writeOutputFile(
  options: LintOptions,
  text: string,
  io: CliIO,
  fail: (message: string) => void,
): Promise<void> {
  if (options.outputFile === undefined) return;
  try {
    await mkdir(path.dirname(options.outputFile), { recursive: true });
    await writeTextFile(options.outputFile, text, { special: 'stream' });
  } catch (error) {
    fail(`cannot write ${displayPath(options.outputFile, io.cwd)}: ${describeIoError(error)}`);
  }
}

/** What --since and --baseline leave out of a run's results, and what --update-baseline writes at its end. */
interface KnownFindings {
  /** Whether keep() reads the results' fingerprints (--since, --baseline or --update-baseline): else it need not run. */
  matches: boolean;
  keep(result: FileResult): FileResult;
  end(fail: (message: string) => void): Promise<void>;
}

async function knownFindings(options: LintOptions, io: CliIO, bar: Progress): Promise<KnownFindings> {
  const sets: { set: Set<string>; where: string }[] = [];
  if (options.since !== undefined) {
    const inputs = options.inputs.map((input) => path.resolve(io.cwd, input));
    const base = readBaseTree(io.cwd, options.since, inputs);
    try {
      const set = new Set<string>();
      if (base.inputs.length) {
        let said = '';
        const quiet = { write: () => true };
        // The merge-base's configuration files are its own; its evidence and --config are the run's.
        await lintFiles(
          {
            ...options,
            inputs: base.inputs,
            format: 'json',
            fix: false,
            fixDryRun: false,
            cacheFile: undefined,
            since: undefined,
            baseline: undefined,
            updateBaseline: false,
            outputFile: undefined,
            fingerprintRoot: base.cwd,
            collect: (prints) => prints.forEach((p) => set.add(p)),
          },
          { ...io, stdout: quiet, stderr: { write: (text: string) => (said += text) } },
          bar,
        );
        if (said)
          io.stderr.write(
            `cqlint: warning: linting the merge-base ${base.commit.slice(0, 12)} (--since ${options.since}) said:\n${said.replace(/^(?=.)/gm, '  ')}`,
          );
      }
      sets.push({ set, where: `at the merge-base ${base.commit.slice(0, 12)} (--since ${options.since})` });
    } finally {
      base.dispose();
    }
  }
  const shownBaseline = options.baseline === undefined ? '' : displayPath(options.baseline, io.cwd);
  if (options.baseline !== undefined && !options.updateBaseline)
    sets.push({ set: await readBaseline(options.baseline, shownBaseline), where: `in the baseline ${shownBaseline}` });
  const accepted: BaselineEntry[] = [];
  const hidden = sets.map(() => 0);
  const root = options.fingerprintRoot ?? io.cwd;
  return {
    matches: options.updateBaseline || sets.length > 0,
    keep(result) {
      if (!options.updateBaseline && !sets.length) return result;
      const prints = result.fingerprints!;
      if (options.updateBaseline) {
        const file = fingerprintPath(result.filePath, root);
        result.findings.forEach((finding, i) => accepted.push(baselineEntry(finding, prints[i]!, file)));
      }
      const kept = result.findings
        .map((_, i) => i)
        .filter((i) => {
          if (options.updateBaseline) return false;
          const at = sets.findIndex(({ set }) => set.has(prints[i]!));
          if (at >= 0) hidden[at]!++;
          return at < 0;
        });
      if (kept.length === result.findings.length) return result;
      const pick = <T>(list: readonly T[] | undefined): T[] | undefined => list && kept.map((i) => list[i]!);
      return { ...result, findings: pick(result.findings)!, fixable: pick(result.fixable), fingerprints: pick(prints) };
    },
    async end(fail) {
      const plural = (n: number): string => `${n} finding${n === 1 ? '' : 's'}`;
      sets.forEach(({ where }, i) => {
        if (hidden[i]) io.stderr.write(`cqlint: ${plural(hidden[i]!)} not reported: already ${where}\n`);
      });
      if (!options.updateBaseline || options.baseline === undefined) return;
      try {
        await mkdir(path.dirname(options.baseline), { recursive: true });
        await writeTextFile(options.baseline, baselineText(accepted));
        io.stderr.write(`cqlint: wrote ${plural(accepted.length)} to the baseline ${shownBaseline}\n`);
      } catch (error) {
        fail(`cannot write the baseline ${shownBaseline}: ${describeIoError(error)}`);
      }
    },
  };
}

/** 2 after a failure, 1 with errors or too many warnings, else 0. */
function exitCode(
  failed: boolean,
  counts: { errorCount: number; warningCount: number },
  maxWarnings: number,
  io: CliIO,
): number {
  if (failed) return EXIT.failure;
  if (counts.errorCount > 0) return EXIT.findings;
  if (maxWarnings >= 0 && counts.warningCount > maxWarnings) {
    io.stderr.write(
      `cqlint: too many warnings (${counts.warningCount}); at most ${maxWarnings} allowed (--max-warnings)\n`,
    );
    return EXIT.findings;
  }
  return EXIT.ok;
}
