// `cqlint format [--check | --diff] [--keyword-case upper|lower|preserve] [--indent N] <files or folders>`
// Without --check or --diff, rewrites files in place (only those that change). With --check, lists the
// files that are not formatted, with --diff prints what would change; both exit 1 if anything would.
// Files are formatted piece by piece (formatPieces), so memory stays a small multiple of the file.
// Exit 2 for usage and I/O errors (a file that is not UTF-8 is refused, as lint refuses it, rather than
// rewritten with replacement characters).
import {
  SLICE_CHARS,
  formatPieces,
  type FormatOptions,
  type FormattedPiece,
  type KeywordCase,
} from '../core/format/formatter';
import * as path from 'node:path';
import { createHeapKeeper } from '../core/util/heap';
import { withProgress, type Progress } from './progress';
import { fileDiff } from '../core/format/diff';
import { MAX_FILE_BYTES } from '../core/io/files';
import { HELP_OPTION, commandHelp, type CliOptions, type CommandSpec } from './options';
import { terminalStream } from './terminal';
import {
  EXIT,
  NO_IGNORE_OPTION,
  OutputFiles,
  UsageError,
  collectCqlFiles,
  discoveredConfigs,
  ignoreCheck,
  displayPath,
  failureReporter,
  parseCommandArgs,
  readInput,
  writeConfinement,
  type CliIO,
} from './io';

const FORMAT_OPTIONS = {
  check: { type: 'boolean', help: 'Do not write; list files that would change and exit 1 if any' },
  diff: {
    type: 'boolean',
    help: 'Do not write; print what would change as a unified diff (git apply or patch -p1 applies it) and exit 1 if anything would',
  },
  'keyword-case': { type: 'string', value: 'case', help: 'upper (default), lower or preserve' },
  indent: { type: 'string', value: 'n', help: 'Spaces per indentation level (default 4)' },
  stdin: {
    type: 'boolean',
    help: 'Format the text on stdin and write it to stdout (for editors that pipe through a formatter); with --check or --diff, only say what would change',
  },
  'stdin-filename': {
    type: 'string',
    value: 'path',
    help: "The file the stdin text stands for, in messages and for .cqlintignore and ignorePatterns (an ignored file's text is written back unchanged)",
  },
  ...NO_IGNORE_OPTION,
  ...HELP_OPTION,
} satisfies CliOptions;

export const FORMAT_COMMAND: CommandSpec = {
  name: 'format',
  summary: 'format CQL files in place (--check lists unformatted files and exits 1)',
  usage: ['[options] <files or folders...>', '[options] --stdin [--stdin-filename <path>]'],
  description: `Formats CQL files: keyword case, one column per line with aligned types, clauses on their own
lines. Comments, line endings and a byte order mark are kept; statements with syntax errors are left
exactly as written. Folders are searched for *.cql and *.cqlsh files (node_modules and .git are skipped).`,
  options: FORMAT_OPTIONS,
  notes: `With --stdin the formatted text goes to stdout and nothing else does; a statement with a syntax error is
written back exactly as it came (the rest is formatted), so a file half-way through an edit formats too. When
the text cannot be formatted (not UTF-8, too large) stdout stays empty and the reason goes to stderr, so that
an editor keeps its buffer as it is.`,
  exitStatus: `0 formatted (or nothing to do), 1 --check or --diff found unformatted files, 2 usage error or a file
(or stdin) that could not be read or written (not UTF-8, not a regular file, over ${MAX_FILE_BYTES.source / (1024 * 1024)} MiB).`,
};

interface FormatCommandOptions {
  check: boolean;
  diff: boolean;
  noIgnore: boolean;
  format: FormatOptions;
  inputs: string[];
  /** --stdin: the path the text on stdin stands for (absolute). */
  stdinPath?: string;
}

function parseFormatArgs(args: string[], cwd: string): FormatCommandOptions | 'help' {
  const { values, positionals } = parseCommandArgs(args, FORMAT_OPTIONS);
  if (values.help) return 'help';
  const format: FormatOptions = {};
  const keywordCase = values['keyword-case'];
  if (keywordCase !== undefined) {
    if (keywordCase !== 'upper' && keywordCase !== 'lower' && keywordCase !== 'preserve') {
      throw new UsageError(`--keyword-case must be upper, lower or preserve (got "${keywordCase}")`);
    }
    format.keywordCase = keywordCase as KeywordCase;
  }
  if (values.indent !== undefined) {
    const n = Number(values.indent);
    if (!/^\d+$/.test(values.indent.trim()) || !Number.isInteger(n) || n < 1 || n > 16) {
      throw new UsageError(`--indent must be an integer from 1 to 16 (got "${values.indent}")`);
    }
    format.indentSize = n;
  }
  if (values['stdin-filename'] !== undefined && !values.stdin) throw new UsageError('--stdin-filename needs --stdin');
  if (values['stdin-filename'] !== undefined && values['stdin-filename'].trim() === '')
    throw new UsageError('--stdin-filename expects a file name');
  if (values.stdin && positionals.length)
    throw new UsageError('--stdin formats the text on stdin: give no files or folders (--stdin-filename names it)');
  if (values.check && values.diff) throw new UsageError('--check and --diff cannot be used together');
  if (!positionals.length && !values.stdin) throw new UsageError('no files or folders given');
  return {
    check: values.check === true,
    diff: values.diff === true,
    noIgnore: values['no-ignore'] === true,
    format,
    inputs: positionals,
    stdinPath: values.stdin ? path.resolve(cwd, values['stdin-filename'] ?? '<stdin>') : undefined,
  };
}

export async function runFormatCommand(args: string[], io: CliIO): Promise<number> {
  const options = parseFormatArgs(args, io.cwd);
  if (options === 'help') {
    io.stdout.write(commandHelp(FORMAT_COMMAND));
    return EXIT.ok;
  }
  if (options.stdinPath !== undefined) return formatStdin(options, options.stdinPath, io);
  // A long run shows its progress on stderr (a terminal only).
  return withProgress(io, (io, bar) => formatFiles(options, io, bar));
}

async function formatFiles(options: FormatCommandOptions, io: CliIO, bar: Progress): Promise<number> {
  const report = failureReporter(io, 'cqlint format');
  // What .cqlintignore and the ignorePatterns of each file's .cqlint.json leave out is not formatted either.
  const configs = discoveredConfigs();
  const ignored = options.noIgnore ? undefined : ignoreCheck(io, report, (entry) => configs.lookup(entry)?.config);
  const files = await collectCqlFiles(options.inputs, io, report, ignored);

  const unformatted: string[] = [];
  // Every file that changes is staged as it is formatted and all are written at the end, or none.
  const outputs = new OutputFiles(io, report, await writeConfinement(options.inputs, io));
  for (const [i, file] of files.entries()) {
    bar.update('formatting', i, files.length);
    const shown = displayPath(file, io.cwd);
    const read = await readInput(file, io, report);
    if (!read) continue;
    let result: { changed: boolean; formatted?: string };
    try {
      result = options.diff
        ? writeDiff(read.text, read.bom, shown, options.format, io)
        : formatted(read.text, options.format, !options.check);
    } catch (error) {
      report.fail(`internal error formatting ${shown}: ${error instanceof Error ? error.message : String(error)}`);
      continue;
    }
    if (!result.changed) continue;
    if (options.check || options.diff) {
      unformatted.push(shown);
      continue;
    }
    if (!(await outputs.add(file, result.formatted!, read))) break;
  }
  let written = 0;
  if (outputs.files.length && (await outputs.commit())) {
    written = outputs.files.length;
    for (const file of outputs.files) terminalStream(io.stdout).write(`${displayPath(file, io.cwd)}\n`);
  }

  if (options.diff) {
    if (unformatted.length)
      io.stderr.write(
        `${unformatted.length} file${unformatted.length === 1 ? '' : 's'} not formatted (the diff above is what cqlint format would change)\n`,
      );
  } else if (options.check) {
    for (const f of unformatted) terminalStream(io.stdout).write(`${f}\n`);
    if (unformatted.length)
      io.stderr.write(
        `${unformatted.length} file${unformatted.length === 1 ? '' : 's'} not formatted (run cqlint format without --check to fix)\n`,
      );
  } else if (written) {
    io.stderr.write(`formatted ${written} file${written === 1 ? '' : 's'}\n`);
  }
  if (report.failed) return EXIT.failure;
  return unformatted.length ? EXIT.findings : EXIT.ok;
}

/**
 * --stdin: the formatted text on stdout, all of it or nothing (an editor replaces its buffer with what it gets).
 * A text the file's .cqlintignore or ignorePatterns leave out is written back as it came, as Prettier does.
 */
async function formatStdin(options: FormatCommandOptions, stdinPath: string, io: CliIO): Promise<number> {
  const report = failureReporter(io, 'cqlint format');
  const shown = displayPath(stdinPath, io.cwd);
  const configs = discoveredConfigs();
  const ignoredBy = options.noIgnore
    ? undefined
    : ignoreCheck(io, report, (entry) => configs.lookup(entry)?.config)?.(stdinPath, false);
  const read = await readInput(stdinPath, io, report, 'source', io.stdin ?? process.stdin);
  if (!read || report.failed) return EXIT.failure;
  const bom = read.bom ? '\uFEFF' : '';
  if (ignoredBy !== undefined) {
    if (!options.check && !options.diff) io.stdout.write(bom + read.text);
    return EXIT.ok;
  }
  try {
    if (options.diff) {
      const { changed } = writeDiff(read.text, read.bom, shown, options.format, io);
      if (changed) io.stderr.write(`${shown} is not formatted (the diff above is what cqlint format would change)\n`);
      return changed ? EXIT.findings : EXIT.ok;
    }
    const result = formatted(read.text, options.format, !options.check);
    if (options.check) {
      if (result.changed) io.stderr.write(`${shown} is not formatted (run cqlint format --stdin to fix)\n`);
      return result.changed ? EXIT.findings : EXIT.ok;
    }
    io.stdout.write(bom + result.formatted!);
    return EXIT.ok;
  } catch (error) {
    report.fail(`internal error formatting ${shown}: ${error instanceof Error ? error.message : String(error)}`);
    return EXIT.failure;
  }
}

/**
 * The pieces of a file's formatting (formatPieces), with a full collection whenever the heap has grown
 * past a small budget: each slice's syntax tree is garbage once it is formatted, and V8 left alone lets
 * gigabytes of it pile up on a 16 MB file.
 */
function* piecesOf(text: string, options: FormatOptions): Generator<FormattedPiece> {
  const keeper = createHeapKeeper(FORMAT_HEAP);
  let settled = 0;
  for (const piece of formatPieces(text, options)) {
    yield piece;
    if (piece.end - settled >= SLICE_CHARS) {
      keeper.settle();
      settled = piece.end;
    }
  }
}

const FORMAT_HEAP = { floorBytes: 48 * 1024 * 1024, growth: 1.3 };

/** Piece by piece: whether the text changes, and with `build` the new text. --check stops at the first change. */
function formatted(text: string, options: FormatOptions, build: boolean): { changed: boolean; formatted?: string } {
  let changed = false;
  let out = '';
  for (const piece of piecesOf(text, options)) {
    if (!changed && (piece.end - piece.start !== piece.text.length || !text.startsWith(piece.text, piece.start))) {
      changed = true;
      if (!build) break;
    }
    if (build) out += piece.text;
  }
  return build ? { changed, formatted: out } : { changed };
}

/** --diff: the file's unified diff on stdout (nothing when it is formatted). */
function writeDiff(text: string, bom: boolean, shown: string, options: FormatOptions, io: CliIO): { changed: boolean } {
  // The diff is of the bytes on disk: with the byte order mark the file starts with (written back as it was).
  const diff = fileDiff(text, bom, shown, (chunk) => io.stdout.write(chunk));
  for (const piece of piecesOf(text, options)) diff.edit(piece.start, piece.end, piece.text);
  return { changed: diff.end() };
}
