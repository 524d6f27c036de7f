// `cqlint fix [options] <files or folders>`: applies one partition refactoring (a shard column, a time
// bucket, a copy of the table) to the schema and every statement on the table, in every file given, as the
// editor's quick fix does. `--list` shows the findings and their fixes; `--dry-run` prints a unified diff.
// Exit 0 applied or listed, 2 usage, no matching finding or fix, a file with syntax errors, or I/O failure.
import { promises as fs } from 'node:fs';
import { fileDiff, newFileDiff } from '../core/format/diff';
import { applyEdits, sortEdits } from '../core/fixes/text';
import type { Finding } from '../core/findings/findings';
import { fixesForFinding } from '../core/fixes';
import { projectFixContext } from '../core/fixes/environment';
import type { Fix, TextEdit } from '../core/fixes/types';
import { Project } from '../core/engine/project';
import { EMBEDDED_OPTION, collectSourceFiles, embeddedOption, keepSourceFile } from './sources';
import type { EmbeddedLanguageName } from '../core/vocabulary/config';
import type { ClusterSetting } from '../core/vocabulary/config';
import { CLUSTER_OPTIONS, EVIDENCE_OPTION, ProjectFacts, clusterOption, evidenceOption } from './project-facts';
import type { TargetId } from '../core/partition/targets';
import { HELP_OPTION, commandHelp, type CliOptions, type CommandSpec } from './options';
import { terminalStream } from './terminal';
import { detailKind } from '../core/fixes/detail-lines';
import {
  CONFIG_OPTIONS,
  EXIT,
  InputError,
  NO_IGNORE_OPTION,
  UsageError,
  discoveredConfigs,
  displayPath,
  explicitConfig,
  failureReporter,
  ignoreCheck,
  inputFolders,
  parseCommandArgs,
  parseTargetOption,
  readInput,
  writeConfinement,
  OutputFiles,
  type CliIO,
  type ReadBack,
} from './io';

/** The findings whose fixes re-key a table (over-partitioned-read's is on the read: the table is re-keyed wherever it is defined). */
export const PARTITION_RULES = [
  'hot-partition',
  'unbounded-partition',
  'large-partition',
  'partition-throughput',
  'over-partitioned-read',
] as const;

const FIX_OPTIONS = {
  rule: { type: 'string', short: 'r', value: 'id', help: `The finding's rule: ${PARTITION_RULES.join(', ')}` },
  table: { type: 'string', value: 'ks.table', help: 'The table whose finding to fix' },
  fix: { type: 'string', value: 'id', help: 'The fix, by the id --list shows (default: the preferred fix)' },
  at: {
    type: 'string',
    value: 'file:line',
    help: 'The finding at this line of this file, when several match (--list shows where each is)',
  },
  list: { type: 'boolean', short: 'l', help: 'List the partition findings and their fixes, change nothing' },
  'dry-run': { type: 'boolean', help: 'Print the change as a unified diff (git apply / patch -p1) and write nothing' },
  ...CONFIG_OPTIONS,
  ...NO_IGNORE_OPTION,
  ...EVIDENCE_OPTION,
  ...EMBEDDED_OPTION,
  ...CLUSTER_OPTIONS,
  ...HELP_OPTION,
} satisfies CliOptions;

export const FIX_COMMAND: CommandSpec = {
  name: 'fix',
  summary: 'apply a partition refactoring (shard, time bucket, copy) to a table and every statement on it',
  usage: ['[options] <files or folders...>'],
  description: `Applies a partition refactoring to a table and to every statement on it, in every file given: a shard
column, a time bucket, or a copy of the table with the new key. Statements get the exact shard and bucket
values their literals give; the rest get a bind marker with a comment saying what the application computes.
All inputs are analysed together, as cqlint lint does; files the ignore patterns name are neither read nor
changed (--no-ignore includes them).`,
  options: FIX_OPTIONS,
  exitStatus: `0 applied or listed; 2 usage error, no finding or fix matching the choice, a file to change
that has syntax errors, or a file that could not be read or written.`,
};

interface FixCommandOptions {
  rule?: string;
  table?: string;
  fix?: string;
  /** --at file:line: the finding's place. */
  at?: { file: string; line: number };
  list: boolean;
  dryRun: boolean;
  target?: TargetId;
  configPath?: string;
  noConfig: boolean;
  noIgnore: boolean;
  /** --evidence: files or folders of evidence for every table. */
  evidence: string[];
  /** --embedded: the application languages whose CQL is read (and rewritten). */
  embedded?: readonly EmbeddedLanguageName[];
  /** --cluster-config, --cluster-version. */
  cluster?: ClusterSetting;
  inputs: string[];
}

function parseFixArgs(args: string[], cwd: string): FixCommandOptions | 'help' {
  const parsed = parseCommandArgs(args, FIX_OPTIONS);
  const v = parsed.values;
  if (v.help) return 'help';
  if (v.rule !== undefined && !(PARTITION_RULES as readonly string[]).includes(v.rule)) {
    throw new UsageError(
      `--rule "${v.rule}" has no partition refactoring; use one of ${PARTITION_RULES.join(', ')} (cqlint lint --fix applies the other rules' fixes)`,
    );
  }
  if (v.table !== undefined && v.table.trim() === '')
    throw new UsageError('--table expects a table name, e.g. --table ks.events');
  if (v.fix !== undefined && v.fix.trim() === '') throw new UsageError('--fix expects a fix id, as --list shows them');
  const at = v.at === undefined ? undefined : /^(.+):(\d+)$/.exec(v.at.trim());
  if (v.at !== undefined && !at)
    throw new UsageError(
      `--at expects file:line, as --list shows the findings (e.g. --at schema.cql:12), got "${v.at}"`,
    );
  if (v.list && (v.fix !== undefined || v['dry-run']))
    throw new UsageError('--list changes nothing: it goes without --fix and --dry-run');
  if (v.config !== undefined && v['no-config'])
    throw new UsageError('--config and --no-config cannot be used together');
  if (!parsed.positionals.length) throw new UsageError('no files or folders given');
  return {
    rule: v.rule,
    table: v.table?.trim(),
    fix: v.fix?.trim(),
    ...(at ? { at: { file: at[1]!, line: Number(at[2]) } } : {}),
    list: v.list === true,
    dryRun: v['dry-run'] === true,
    target: parseTargetOption(v.target),
    configPath: v.config,
    noConfig: v['no-config'] === true,
    noIgnore: v['no-ignore'] === true,
    evidence: evidenceOption(v.evidence),
    embedded: embeddedOption(v.embedded),
    cluster: clusterOption(v, cwd),
    inputs: parsed.positionals,
  };
}

export async function runFixCommand(args: string[], io: CliIO): Promise<number> {
  const options = parseFixArgs(args, io.cwd);
  if (options === 'help') {
    io.stdout.write(commandHelp(FIX_COMMAND));
    return EXIT.ok;
  }
  return runFix(options, io);
}

interface Located {
  filePath: string;
  finding: Finding;
  table: string;
}

/** `ks.events` matches the table `ks.events`, and `events` any keyspace's `events` (case as Cassandra folds it). */
export function tableMatches(wanted: string, table: string): boolean {
  const fold = (name: string): string =>
    name
      .split('.')
      .map((part) => (/^".*"$/.test(part) ? part.slice(1, -1) : part.toLowerCase()))
      .join('.');
  const w = fold(wanted);
  const t = fold(table);
  return w === t || (!w.includes('.') && t.endsWith(`.${w}`));
}

/** Whether the finding is at `at` (a path as given, relative to the working directory, or absolute, and a 1-based line). */
function isAt(located: Located, at: { file: string; line: number }, io: CliIO): boolean {
  const { line } = located.finding.range.start;
  return (
    line === at.line &&
    (displayPath(located.filePath, io.cwd) === at.file ||
      located.filePath === at.file ||
      located.filePath.endsWith(`/${at.file}`))
  );
}

function where(located: Located, io: CliIO): string {
  const { line, column } = located.finding.range.start;
  return `${displayPath(located.filePath, io.cwd)}:${line}:${column}`;
}

async function runFix(options: FixCommandOptions, io: CliIO): Promise<number> {
  const report = failureReporter(io, 'cqlint fix');
  const config = explicitConfig(options, io, report);
  // The samples and evidence lint reads: the fix sizes from the figures the finding cites.
  const facts = new ProjectFacts(options.evidence, io.cwd, options.cluster);
  // What a .cqlint.json names is read only inside its own folder and the inputs' folders (as lint).
  const roots = await inputFolders(options.inputs, io);
  const configs = discoveredConfigs(roots);
  const ignored = options.noIgnore
    ? undefined
    : ignoreCheck(io, report, (entry) => config ?? configs.lookup(entry)?.config);
  const files = await collectSourceFiles(options.inputs, io, report, ignored, {
    override: options.embedded,
    configFor: (entry) => config ?? configs.lookup(entry)?.config,
  });
  const project = new Project({
    target: options.target,
    config,
    configLookup: configs.lookup,
    ...facts.projectOptions(),
  });
  // Each file's byte order mark and stamp: the writer keeps the one and refuses a file edited since the read.
  const boms = new Map<string, ReadBack>();
  for (const file of files) {
    const read = await readInput(file, io, report);
    if (!read) continue;
    project.setFile(file, read.text);
    if (!keepSourceFile(project, file, io)) continue;
    boms.set(file, { bom: read.bom, stamp: read.stamp });
  }
  if (config === undefined) {
    for (const file of boms.keys()) configs.lookup(file);
    for (const [, loaded] of configs.found()) for (const error of loaded.errors) report.fail(error.message);
  }
  await facts.read(project, [...boms.keys()], {
    roots,
    fail: (m) => report.fail(m),
    warn: (m) => io.stderr.write(`cqlint: warning: ${m}\n`),
  });
  // A refactoring over files that could not all be read would leave the unread ones broken.
  if (report.failed) return EXIT.failure;

  const found: Located[] = [];
  for (const filePath of boms.keys()) {
    for (const finding of project.lint(filePath)) {
      if (!(PARTITION_RULES as readonly string[]).includes(finding.ruleId)) continue;
      const table = (finding.data as { table?: string } | undefined)?.table ?? '';
      if (options.rule !== undefined && finding.ruleId !== options.rule) continue;
      if (options.table !== undefined && !tableMatches(options.table, table)) continue;
      found.push({ filePath, finding, table });
    }
  }
  // A finding another one's fix answers (rules/one-answer.ts: unbounded-partition under a hot-partition fix
  // that bounds the growth too) is no second choice unless its rule is asked for.
  if (options.rule === undefined) {
    const answered = found.filter((l) => {
      const by = (l.finding.data as { curedBy?: string } | undefined)?.curedBy;
      return (
        by !== undefined &&
        found.some((o) => o.finding.ruleId === by && o.table === l.table && o.filePath === l.filePath)
      );
    });
    for (const l of answered) found.splice(found.indexOf(l), 1);
  }
  const settings = {
    relativePath: (p: string) => displayPath(p, io.cwd),
    onError: (error: unknown, finding: Finding) =>
      report.fail(
        `internal error in the ${finding.ruleId} fix: ${error instanceof Error ? error.message : String(error)}`,
      ),
  };
  const fixesOf = (located: Located): Fix[] => {
    const ctx = projectFixContext(project, located.filePath, settings);
    return fixesForFinding(project.getText(located.filePath)!, project.parse(located.filePath), located.finding, ctx);
  };

  // What is printed for people: file names, table names and titles escaped for the terminal (terminal.ts).
  const print = terminalStream(io.stdout);
  if (options.list) {
    if (!found.length) print.write('No partition findings with fixes.\n');
    for (const located of found) {
      print.write(`${where(located, io)}  ${located.finding.ruleId}  ${located.table}\n`);
      const fixes = fixesOf(located);
      if (!fixes.length) print.write('    (no fix applies)\n');
      for (const fix of fixes) {
        print.write(`  ${fix.isPreferred ? '*' : ' '} ${fix.id ?? '?'}\n      ${fix.title}\n`);
        for (const line of fix.detail ?? []) print.write(`        ${line}\n`);
      }
    }
    return EXIT.ok;
  }

  const choice =
    [
      options.rule && `--rule ${options.rule}`,
      options.table && `--table ${options.table}`,
      options.at && `--at ${options.at.file}:${options.at.line}`,
    ]
      .filter(Boolean)
      .join(' ') || 'the inputs';
  const chosen = options.at ? found.filter((l) => isAt(l, options.at!, io)) : found;
  if (!chosen.length)
    throw new InputError(
      `no partition finding matches ${choice}; cqlint fix --list shows the findings and their fixes`,
    );
  // The same finding on every definition of one table (a file that drops and creates it again): one fix
  // re-keys every definition with the same key, as the editor's does, so the first one stands for them all.
  const same = chosen.every(
    (l) =>
      l.finding.ruleId === chosen[0]!.finding.ruleId &&
      l.table === chosen[0]!.table &&
      l.finding.message === chosen[0]!.finding.message,
  );
  if (chosen.length > 1 && !same) {
    const list = chosen
      .map(
        (l) =>
          `  ${where(l, io)}  --rule ${l.finding.ruleId} --table ${l.table} --at ${displayPath(l.filePath, io.cwd)}:${l.finding.range.start.line}`,
      )
      .join('\n');
    throw new UsageError(`${chosen.length} partition findings match ${choice}; choose one:\n${list}`);
  }
  if (chosen.length > 1)
    io.stderr.write(
      `cqlint fix: ${chosen.length} definitions of ${chosen[0]!.table} have the same ${chosen[0]!.finding.ruleId} finding: the fix re-keys every definition with the same key\n`,
    );
  const located = chosen[0]!;
  const fixes = fixesOf(located);
  if (!fixes.length)
    throw new InputError(
      `no fix applies to the ${located.finding.ruleId} finding on ${located.table} (${where(located, io)})`,
    );
  const fix =
    options.fix === undefined
      ? (fixes.find((f) => f.isPreferred) ?? fixes[0]!)
      : fixes.find((f) => f.id === options.fix);
  if (!fix)
    throw new InputError(
      `no fix "${options.fix}" for the ${located.finding.ruleId} finding on ${located.table}; its fixes: ${fixes.map((f) => f.id).join(', ')}`,
    );
  // A fix that application code cannot take as a whole (fixes/split-column.ts says so itself) is not made.
  if (fix.refused)
    throw new InputError(
      `${fix.title}: ${displayPath(fix.refused.filePath, io.cwd)} cannot take its edits: ${fix.refused.reason}; nothing was changed`,
    );

  const changes: { filePath: string; before: string; edits: TextEdit[]; after: string }[] = [];
  for (const { filePath, edits: cqlEdits } of [
    { filePath: located.filePath, edits: fix.edits },
    ...(fix.otherFiles ?? []),
  ]) {
    const before = project.sourceText(filePath);
    if (before === undefined || !cqlEdits.length) continue;
    // The edits are exact for the statements they were computed from; a file that does not parse may hide others.
    if (project.parse(filePath).errors.length)
      throw new InputError(
        `${displayPath(filePath, io.cwd)} has syntax errors: fix them first (cqlint lint shows them); nothing was changed`,
      );
    // Application code takes them in its string literals, with its quoting, or the refactoring is not made at all.
    const source = project.sourceEdits(filePath, cqlEdits);
    if ('refused' in source)
      throw new InputError(
        `${fix.title}: ${displayPath(filePath, io.cwd)} cannot take its edits: ${source.refused}; nothing was changed`,
      );
    const edits = sortEdits(source.edits);
    changes.push({ filePath, before, edits, after: applyEdits(before, edits) });
  }

  // A new file (a partition fix's next migration) is created, never written over one: one there already
  // (a file the inputs hold, or on disk) stops the fix before anything is changed.
  const created = fix.newFiles ?? [];
  for (const { filePath } of created) {
    if (project.getText(filePath) !== undefined || (await fs.lstat(filePath).catch(() => undefined)))
      throw new InputError(
        `${fix.title}: ${displayPath(filePath, io.cwd)} exists already, and the fix creates it (it never replaces a file); nothing was changed`,
      );
  }

  if (options.dryRun) {
    // The diff of the edits themselves, as format --diff writes its own (git apply and patch -p1 read it).
    for (const { filePath, before, edits } of changes) {
      const diff = fileDiff(before, boms.get(filePath)?.bom ?? false, displayPath(filePath, io.cwd), (chunk) =>
        io.stdout.write(chunk),
      );
      for (const edit of edits) diff.edit(edit.start, edit.end, edit.newText);
      diff.end();
    }
    for (const { filePath, text } of created)
      newFileDiff(text, displayPath(filePath, io.cwd), (chunk) => io.stdout.write(chunk));
    io.stderr.write(`cqlint fix: ${fix.title} (dry run: nothing written)\n`);
    return EXIT.ok;
  }
  // All or nothing: a file that cannot be written (read-only, edited since it was read, a link out of
  // the project) is seen before any is replaced, and then none is.
  const outputs = new OutputFiles(io, report, await writeConfinement(options.inputs, io));
  for (const { filePath, after } of changes)
    if (!(await outputs.add(filePath, after, boms.get(filePath) ?? { bom: false }))) break;
  // After a refusal add() stages nothing more (and says false).
  for (const { filePath, text } of created) if (!(await outputs.add(filePath, text, 'create'))) break;
  if (!(await outputs.commit())) return EXIT.failure;
  const news = new Set(created.map((f) => f.filePath));
  const list = (files: string[]) => files.map((file) => displayPath(file, io.cwd)).join(', ');
  const written = outputs.files.filter((f) => !news.has(f));
  const made = outputs.files.filter((f) => news.has(f));
  print.write(
    `${fix.title}\n${written.length ? `  wrote ${list(written)}\n` : ''}${made.length ? `  created ${list(made)}\n` : ''}`,
  );
  const left = fix.detail ?? [];
  const inMigrations = left.filter((d) => detailKind(d) === 'migration');
  const toApplication = left.filter((d) => detailKind(d) === 'application');
  if (toApplication.length)
    print.write(
      `  left to the application (a comment above each statement says what to bind):\n${toApplication.map((d) => `    ${d}\n`).join('')}`,
    );
  if (inMigrations.length)
    print.write(`  left in applied migrations:\n${inMigrations.map((d) => `    ${d}\n`).join('')}`);
  return EXIT.ok;
}
