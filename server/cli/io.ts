// The toolkit every `cqlint` command shares: where it reads and writes (CliIO), exit codes, the one
// usage-error path, argument parsing (node:util parseArgs), the folder walk and the file reader and
// writer (server/core/io/files.ts). A command is `(args, io) => Promise<exit code>`; see main.ts.
import { existsSync, promises as fs } from 'node:fs';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import {
  describeFileType,
  describeIoError,
  findCqlFiles,
  isInside,
  readTextFile,
  readTextFileSync,
  readTextStream,
  type FileKind,
  type ReadResult,
} from '../core/io/files';
import { analysisRefusal, DOCUMENT_LIMITS } from '../core/io/input-limits';
import { IGNORE_FILE_NAME, ignoreFileSource, ignoredBy, type IgnoreSource } from '../core/config/ignore';
import { findConfigFor, loadConfigFile, type CqlintConfig, type LoadedConfigFile } from '../core/config';
import { TARGET_IDS, isTargetId } from '../core/vocabulary/config';
import { type TargetId } from '../core/partition/targets';
import { hostLanguageOf } from '../core/embedded';
import { parseArgsOptions, type CliOptions } from './options';

import { BatchWriteError, WriteBatch } from '../core/io/write';

export { writeTextFile } from '../core/io/write';

export interface CliStream {
  write(text: string): unknown;
  /**
   * Set on a stream whose writes show control characters escaped (terminal.ts terminalStream): writes
   * terminal control sequences as they are (the progress line's erase).
   */
  writeControl?(text: string): unknown;
  /** True when the stream is a terminal (stylish output is coloured only then). */
  isTTY?: boolean;
  /** The terminal's width, when it is one (stylish output wraps details to it). */
  columns?: number;
}

export interface CliIO {
  stdout: CliStream;
  stderr: CliStream;
  /** Directory relative paths are resolved against (and SARIF URIs are made relative to). */
  cwd: string;
  env: Record<string, string | undefined>;
  /** For commands that read input (cqlint token --json); defaults to process.stdin. */
  stdin?: NodeJS.ReadableStream;
}

let processStdout: CliStream | undefined;

/**
 * The process's stdout. When its reader goes away before the end (`cqlint lint | head`), the rest of
 * the output is dropped and the command finishes as usual, instead of dying on EPIPE with a stack trace.
 */
function stdoutOfProcess(): CliStream {
  if (processStdout) return processStdout;
  let closed = false;
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    closed = true;
    if (error.code !== 'EPIPE') process.stderr.write(`cqlint: cannot write the output: ${error.message}\n`);
  });
  processStdout = {
    write: (text: string) => (closed ? false : process.stdout.write(text)),
    get isTTY() {
      return process.stdout.isTTY;
    },
    get columns() {
      return process.stdout.isTTY ? process.stdout.columns : undefined;
    },
  };
  return processStdout;
}

function processIO(): CliIO {
  return {
    stdout: stdoutOfProcess(),
    stderr: process.stderr,
    cwd: process.cwd(),
    env: process.env,
    stdin: process.stdin,
  };
}

/** Fills what a caller left out with the process's own streams. */
export function resolveIO(io: Partial<CliIO> = {}): CliIO {
  const base = processIO();
  return {
    stdout: io.stdout ?? base.stdout,
    stderr: io.stderr ?? base.stderr,
    cwd: io.cwd ?? base.cwd,
    env: io.env ?? base.env,
    stdin: io.stdin ?? base.stdin,
  };
}

/** A command: takes the arguments after its name, returns the exit code (0 ok, 1 findings, 2 usage/I/O). */
export type CommandRunner = (args: string[], io: CliIO) => Promise<number>;

/** Thrown for bad command lines; main() prints it with the command's usage hint and exits 2. */
export class UsageError extends Error {
  override name = 'UsageError';
}

/**
 * Thrown for input the command cannot use (a file it cannot read, a table that does not exist): main()
 * prints the message alone and exits 2.
 */
export class InputError extends Error {
  override name = 'InputError';
}

/** Exit codes shared by every command. */
export const EXIT = { ok: 0, findings: 1, failure: 2 } as const;

/** What parseCommandArgs gives for options declared as `O`. */
interface ParsedArgs<O extends CliOptions> {
  values: {
    [K in keyof O]?: O[K]['type'] extends 'string' ? (O[K]['multiple'] extends true ? string[] : string) : boolean;
  };
  positionals: string[];
}

/**
 * node:util parseArgs over a command's declared options (options.ts), strict, with positionals; its
 * errors become UsageErrors. A negative number after an option that takes a value is that value
 * (`--max-warnings -1`), which parseArgs alone refuses as ambiguous.
 */
export function parseCommandArgs<O extends CliOptions>(args: string[], declared: O): ParsedArgs<O> {
  const options = parseArgsOptions(declared);
  const joined: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === '--') {
      joined.push(...args.slice(i));
      break;
    }
    const next = args[i + 1];
    const option = arg.startsWith('--')
      ? options[arg.slice(2)]
      : arg.length === 2 && arg[0] === '-'
        ? Object.values(options).find((o) => o.short === arg[1])
        : undefined;
    if (option?.type === 'string' && next !== undefined && /^-\d/.test(next) && !arg.includes('=')) {
      joined.push(
        `${arg.startsWith('--') ? arg : `--${Object.keys(options).find((k) => options[k] === option)}`}=${next}`,
      );
      i++;
      continue;
    }
    joined.push(arg);
  }
  try {
    const parsed = parseArgs({ args: joined, options, allowPositionals: true, strict: true });
    return { values: parsed.values as ParsedArgs<O>['values'], positionals: parsed.positionals };
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
}

/** The options of the commands that lint under a configuration (lint, report): what explicitConfig and parseTargetOption read. */
export const CONFIG_OPTIONS = {
  target: {
    type: 'string',
    short: 't',
    value: 'db',
    help: `Target database: ${TARGET_IDS.join(', ')} (default: from .cqlint.json, else cassandra)`,
  },
  config: {
    type: 'string',
    short: 'c',
    value: 'file',
    help: 'Use this configuration file instead of looking for .cqlint.json files',
  },
  'no-config': { type: 'boolean', help: 'Ignore .cqlint.json files' },
} satisfies CliOptions;

/** `--target T` (any case); undefined when not given. */
export function parseTargetOption(value: string | undefined): TargetId | undefined {
  if (value === undefined) return undefined;
  const wanted = value.toLowerCase();
  if (!isTargetId(wanted)) throw new UsageError(`unknown target "${value}"; use one of ${TARGET_IDS.join(', ')}`);
  return wanted;
}

/**
 * The configuration `--no-config` or `--config F` asks for (a broken file is a failure, its valid rest
 * still applies); undefined when neither is given: each file's nearest .cqlint.json then.
 */
export function explicitConfig(
  options: { noConfig: boolean; configPath?: string },
  io: CliIO,
  report: FailureReporter,
): CqlintConfig | undefined {
  if (options.noConfig) return {};
  if (options.configPath === undefined) return undefined;
  const loaded = loadConfigFile(path.resolve(io.cwd, options.configPath));
  for (const error of loaded.errors) report.fail(error.message);
  return loaded.config ?? {};
}

/** Each file's nearest .cqlint.json for one run: see discoveredConfigs. */
export interface DiscoveredConfigs {
  /** The Project's configLookup. */
  lookup(filePath: string): LoadedConfigFile | undefined;
  /** Every config file looked up so far, by path, in path order. */
  found(): [string, LoadedConfigFile][];
}

/**
 * Each file's nearest .cqlint.json for one run (the Project's configLookup): a run reads a snapshot of
 * the tree, so each folder is looked up and each config loaded once, not for every question a rule asks.
 * A config found is read only if its real path is inside its own folder or one of `roots` (the inputs'
 * folders, inputFolders): a .cqlint.json linked to a file elsewhere is refused, never read or quoted.
 */
export function discoveredConfigs(roots: readonly string[] = []): DiscoveredConfigs {
  const byFolder = new Map<string, LoadedConfigFile | undefined>();
  const byPath = new Map<string, LoadedConfigFile>();
  return {
    lookup(filePath) {
      const folder = path.dirname(filePath);
      if (byFolder.has(folder)) return byFolder.get(folder);
      const found = findConfigFor(filePath);
      let loaded = found === undefined ? undefined : byPath.get(found);
      if (found !== undefined && !loaded)
        byPath.set(found, (loaded = loadConfigFile(found, { roots: [path.dirname(found), ...roots] })));
      byFolder.set(folder, loaded);
      return loaded;
    },
    found: () => [...byPath].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
  };
}

/** Fails the run for each error of the .cqlint.json files that apply to `files` (their valid rest still applies). */
export function reportConfigErrors(configs: DiscoveredConfigs, files: Iterable<string>, report: FailureReporter): void {
  for (const file of files) configs.lookup(file);
  for (const [, loaded] of configs.found()) for (const error of loaded.errors) report.fail(error.message);
}

/** A path as the user would write it: relative to the working directory when inside it. */
export function displayPath(filePath: string, cwd: string): string {
  const relative = path.relative(cwd, filePath);
  return relative && !relative.startsWith('..') && !path.isAbsolute(relative) ? relative : filePath;
}

/** Reports a failure (exit 2 at the end) and carries on: one bad input must not hide the others. */
interface FailureReporter {
  fail(message: string): void;
  readonly failed: boolean;
}

export function failureReporter(io: CliIO, prefix: string): FailureReporter {
  let failed = false;
  return {
    fail(message: string) {
      failed = true;
      io.stderr.write(`${prefix}: ${message}\n`);
    },
    get failed() {
      return failed;
    },
  };
}

/** Whether ignore patterns keep an entry out: the file that says so, else undefined. */
export type IgnoreCheck = (entry: string, isDirectory: boolean) => string | undefined;

/** `--no-ignore`, for the commands that walk folders. */
export const NO_IGNORE_OPTION = {
  'no-ignore': {
    type: 'boolean',
    help: `Lint files that .cqlintignore or the ignorePatterns of .cqlint.json leave out`,
  },
} satisfies CliOptions;

/**
 * The ignore patterns of a run (server/core/config/ignore.ts): the working folder's .cqlintignore, then
 * the `ignorePatterns` of the config that applies to the entry. A .cqlintignore that cannot be read, or
 * a line of it that cannot be used, is a failure (its other lines still apply); like a .cqlint.json, it
 * is read only if its real path is inside its folder (a link to a file elsewhere is refused, never read).
 */
export function ignoreCheck(
  io: CliIO,
  report: FailureReporter,
  configFor: (entry: string) => CqlintConfig | undefined,
): IgnoreCheck {
  const file = path.join(io.cwd, IGNORE_FILE_NAME);
  let root: IgnoreSource | undefined;
  if (existsSync(file)) {
    const read = readTextFileSync(file, { kind: 'config', roots: [io.cwd] });
    if (read.ok) {
      const loaded = ignoreFileSource(read.text, file);
      root = loaded.source;
      for (const problem of loaded.problems) report.fail(`${displayPath(file, io.cwd)}: ${problem}`);
    } else report.fail(`cannot read ${displayPath(file, io.cwd)}: ${read.message}`);
  }
  return (entry, isDirectory) => ignoredBy(entry, [root, configFor(entry)?.ignorePatterns], isDirectory);
}

/**
 * The CQL files the command-line inputs name, in input order, each once: files as given, folders walked
 * (*.cql, *.cqlsh; node_modules and .git skipped). What cannot be used is reported and skipped: a missing
 * path, a FIFO or device, an unreadable subfolder (named), a folder without CQL files, a link that leads
 * out of the folder walked (a repository's link to another project's file is neither read nor, by fix
 * or format, written: naming the file on the command line includes it). What `ignored` keeps out is
 * left out: a file or folder named on the command line with a warning.
 */
export async function collectCqlFiles(
  inputs: readonly string[],
  io: CliIO,
  report: FailureReporter,
  ignored?: IgnoreCheck,
  accept?: (name: string) => boolean,
): Promise<string[]> {
  const files: string[] = [];
  const seen = new Set<string>();
  const add = (file: string): void => {
    if (seen.has(file)) return;
    seen.add(file);
    files.push(file);
  };
  for (const input of inputs) {
    const resolved = path.resolve(io.cwd, input);
    let stat;
    try {
      stat = await fs.stat(resolved);
    } catch (error) {
      report.fail(`cannot read ${input}: ${describeIoError(error)}`);
      continue;
    }
    const ignoredAt = ignored?.(resolved, stat.isDirectory());
    if (ignoredAt !== undefined) {
      io.stderr.write(
        `cqlint: warning: ${input} is ignored by ${displayPath(ignoredAt, io.cwd)} (--no-ignore includes it)\n`,
      );
      continue;
    }
    if (stat.isDirectory()) {
      const walk = await findCqlFiles(resolved, {
        roots: [resolved],
        ...(ignored ? { skip: (entry, isDirectory) => ignored(entry, isDirectory) !== undefined } : {}),
        ...(accept ? { accept } : {}),
      });
      for (const error of walk.errors)
        report.fail(`cannot read folder ${displayPath(error.path, io.cwd)}: ${error.message}`);
      for (const skipped of walk.skipped)
        io.stderr.write(
          `cqlint: skipping ${displayPath(skipped.path, io.cwd)}: ${skipped.message}${skipped.outside ? ` (name it on the command line to include it)` : ''}\n`,
        );
      if (!walk.files.length && !walk.errors.length) {
        report.fail(
          `no CQL files (*.cql, *.cqlsh${accept ? ', or application code' : ''}) in ${input}${walk.ignored ? ` (${walk.ignored} ignored: .cqlintignore or ignorePatterns)` : ''}`,
        );
      }
      walk.files.forEach(add);
    } else if (stat.isFile()) {
      add(resolved);
    } else {
      report.fail(`cannot read ${input}: not a regular file or folder (${describeFileType(stat)})`);
    }
  }
  return files;
}

/**
 * The folders the command-line inputs name (a folder itself, a file's folder): with each config's own
 * folder, where the samples, rings and configs a .cqlint.json names may be read from. A path named on
 * the command line (--config, --ring) is read wherever it is.
 */
export async function inputFolders(inputs: readonly string[], io: CliIO): Promise<string[]> {
  const folders = new Set<string>();
  for (const input of inputs) {
    const resolved = path.resolve(io.cwd, input);
    const stat = await fs.stat(resolved).catch(() => undefined);
    if (stat) folders.add(stat.isDirectory() ? resolved : path.dirname(resolved));
  }
  return [...folders];
}

/**
 * Where a command may write back each file it read (the one confinement rule for writes, core/io/write.ts
 * `roots`): a file named on the command line wherever it is, a file a folder walk found inside that
 * folder (its real path: a link swapped in since the walk is refused).
 */
export async function writeConfinement(
  inputs: readonly string[],
  io: CliIO,
): Promise<(file: string) => readonly string[] | undefined> {
  const named = new Set<string>();
  const folders: string[] = [];
  for (const input of inputs) {
    const resolved = path.resolve(io.cwd, input);
    const stat = await fs.stat(resolved).catch(() => undefined);
    if (stat?.isDirectory()) folders.push(resolved);
    else named.add(resolved);
  }
  return (file) => {
    if (named.has(file)) return undefined;
    const within = folders.filter((folder) => isInside(folder, file));
    return within.length ? within : [io.cwd];
  };
}

/**
 * Reads an input through the one safe reader, the one input path of every command: a file, or with
 * `stdin` the text on that stream (lint --stdin), under the same guards (the kind's size cap, strict
 * UTF-8, and for a CQL source the statement-size guard of core/io/input-limits.ts: one statement too large
 * would take the parser minutes and gigabytes). A failure is reported (naming the file, or stdin) and
 * undefined returned.
 */
export async function readInput(
  filePath: string,
  io: CliIO,
  report: FailureReporter,
  kind: FileKind = 'source',
  stdin?: AsyncIterable<string | Uint8Array>,
): Promise<Extract<ReadResult, { ok: true }> | undefined> {
  const read = stdin ? await readTextStream(stdin, { kind }) : await readTextFile(filePath, { kind });
  return checkedInput(filePath, read, io, report, kind, stdin !== undefined);
}

/** readInput's verdict on what was read: reported (a failure or a skipped file) here, in the caller's order. */
function checkedInput(
  filePath: string,
  read: ReadResult,
  io: CliIO,
  report: FailureReporter,
  kind: FileKind,
  stdin: boolean,
): Extract<ReadResult, { ok: true }> | undefined {
  const shown = stdin ? 'stdin' : displayPath(filePath, io.cwd);
  if (
    !read.ok &&
    !stdin &&
    kind === 'source' &&
    hostLanguageOf(filePath) &&
    (read.reason === 'binary' || read.reason === 'encoding' || read.reason === 'too-large')
  ) {
    // Application code is read for the CQL it may hold: a file of it that is not text is skipped, not a failure.
    io.stderr.write(`cqlint: warning: skipping ${shown}: ${read.message}\n`);
    return undefined;
  }
  if (!read.ok) {
    report.fail(`cannot read ${shown}: ${read.message}`);
    return undefined;
  }
  // Application code is not CQL: the guard applies to the CQL read out of it (Project.setFile).
  const refused =
    kind === 'source' && !hostLanguageOf(filePath) ? analysisRefusal(read.text, SOURCE_LIMITS) : undefined;
  if (refused === undefined) return read;
  report.fail(`cannot analyse ${shown}: ${refused}`);
  return undefined;
}

/**
 * How many source files' reads ReadAhead keeps in flight. A read is five round trips to libuv's thread pool
 * (stat, open, fstat, read, close) that the main thread awaited between parsing one file and the next: 5.7%
 * of a one-thread 2,000-file run was idle. A few reads ahead cover it; more only hold more texts at once.
 */
const READ_AHEAD = 4;

/**
 * Reads a run's source files (readInput) in their order, the next few started while the caller works on the
 * one it has: read(file) answers as readInput would, and reports a file that cannot be read when that file's
 * turn comes, so messages keep the files' order. A file not among the next few is read there and then.
 */
export class ReadAhead {
  private readonly queue: { filePath: string; read: Promise<ReadResult> }[] = [];
  private next = 0;

  constructor(
    private readonly files: readonly string[],
    private readonly io: CliIO,
    private readonly report: FailureReporter,
    private readonly depth = READ_AHEAD,
  ) {}

  async read(filePath: string): Promise<Extract<ReadResult, { ok: true }> | undefined> {
    this.fill(1);
    // A file the caller skipped is dropped with its read (readTextFile never throws).
    const at = this.queue.findIndex((queued) => queued.filePath === filePath);
    const ahead = at >= 0 ? this.queue.splice(0, at + 1)[at]!.read : undefined;
    // The next ones are read while this one is parsed.
    this.fill(this.depth);
    const read = await (ahead ?? readTextFile(filePath, { kind: 'source' }));
    return checkedInput(filePath, read, this.io, this.report, 'source', false);
  }

  private fill(size: number): void {
    while (this.queue.length < size && this.next < this.files.length) {
      const filePath = this.files[this.next++]!;
      this.queue.push({ filePath, read: readTextFile(filePath, { kind: 'source' }) });
    }
  }
}

/** The command line caps a source's bytes where it reads it (MAX_FILE_BYTES), and its statements here. */
const SOURCE_LIMITS = { maxStatementTokens: DOCUMENT_LIMITS.maxStatementTokens };

/**
 * Reads a file the command cannot do without (a ring, a --config): throws an InputError naming it. `roots`
 * when a .cqlint.json named it (it must then be inside them); none for a path given on the command line.
 */
export async function readRequiredInput(
  filePath: string,
  io: CliIO,
  what: string,
  kind: FileKind,
  roots?: readonly string[],
): Promise<string> {
  const read = await readTextFile(path.resolve(io.cwd, filePath), { kind, roots });
  if (!read.ok)
    throw new InputError(`cannot read ${what} ${displayPath(path.resolve(io.cwd, filePath), io.cwd)}: ${read.message}`);
  return read.text;
}

/** What a command read of a file it may write back: its BOM and its stamp (writeTextFile's `expected`). */
export type ReadBack = Pick<Extract<ReadResult, { ok: true }>, 'bom' | 'stamp'>;

/**
 * The files a command writes back (`fix`, `lint --fix`, `format`), all or nothing (core/io/write.ts
 * WriteBatch): each is checked and staged as it comes (kept where it was read, its BOM kept, only while it
 * is still what was read, inside its confinement), and `commit` replaces them all. A file that cannot be
 * written is reported and nothing is: every condition that would stop a write is seen before the first one.
 */
export class OutputFiles {
  private readonly batch = new WriteBatch();
  private refused = false;
  /** The files staged, in order (written once `commit` says so). */
  readonly files: string[] = [];

  constructor(
    private readonly io: CliIO,
    private readonly report: FailureReporter,
    private readonly rootsOf: (file: string) => readonly string[] | undefined,
  ) {}

  /**
   * Stages a changed file (`read`: what its read said), or with `create` a new one (never replacing a file);
   * false once a file was refused (nothing will be written).
   */
  async add(filePath: string, text: string, read: ReadBack | 'create'): Promise<boolean> {
    if (this.refused) return false;
    try {
      const options = read === 'create' ? { create: true } : { bom: read.bom, expected: read.stamp };
      await this.batch.add(filePath, text, { ...options, roots: this.rootsOf(filePath) });
      this.files.push(filePath);
      return true;
    } catch (error) {
      return this.refuse(error);
    }
  }

  /** Writes every staged file, or none (reported); true when they were written. */
  async commit(): Promise<boolean> {
    if (this.refused) return false;
    try {
      await this.batch.commit();
      return true;
    } catch (error) {
      return this.refuse(error);
    }
  }

  private refuse(error: unknown): false {
    this.refused = true;
    const file = error instanceof BatchWriteError ? error.path : undefined;
    const others = this.files.filter((f) => f !== file).length;
    // The writer's "not written" is said for the whole batch here.
    const reason = (error instanceof Error ? error.message : String(error)).replace(/; not written\b/, '');
    const left =
      others === 1 ? ' (1 other file left as it was)' : others ? ` (${others} other files left as they were)` : '';
    this.report.fail(
      `cannot write ${file === undefined ? 'the files' : displayPath(file, this.io.cwd)}: ${reason}; nothing was written${left}`,
    );
    return false;
  }
}
