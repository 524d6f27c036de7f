// `cqlint format [--check] [--keyword-case upper|lower|preserve] [--indent N] <files or folders>`
// Without --check, rewrites files in place (only those that change). With --check, lists the files
// that are not formatted and exits 1 if there are any. Exit 2 for usage and I/O errors (a file that is
// not UTF-8 is refused, as lint refuses it, rather than rewritten with replacement characters).
import { formatText, type FormatOptions, type KeywordCase } from '../core/format/formatter';
import { MAX_FILE_BYTES } from '../core/io/files';
import { commandHelp, type CliOptions, type CommandSpec } from './options';
import { EXIT, NO_IGNORE_OPTION, UsageError, collectCqlFiles, discoveredConfigs, ignoreCheck, displayPath, failureReporter, parseCommandArgs, readInput, writeOutput, type CliIO } from './io';

const FORMAT_OPTIONS = {
  check: { type: 'boolean', help: 'Do not write; list files that would change and exit 1 if any' },
  'keyword-case': { type: 'string', value: 'case', help: 'upper (default), lower or preserve' },
  indent: { type: 'string', value: 'n', help: 'Spaces per indentation level (default 4)' },
  ...NO_IGNORE_OPTION,
  help: { type: 'boolean', short: 'h', help: 'Show this help' },
} satisfies CliOptions;

export const FORMAT_COMMAND: CommandSpec = {
  name: 'format',
  summary: 'format CQL files in place (--check lists unformatted files and exits 1)',
  usage: ['[options] <files or folders...>'],
  description: `Formats CQL files: keyword case, one column per line with aligned types, clauses on their own
lines. Comments, line endings and a byte order mark are kept; statements with syntax errors are left
exactly as written. Folders are searched for *.cql and *.cqlsh files (node_modules and .git are skipped).`,
  options: FORMAT_OPTIONS,
  exitStatus: `0 formatted (or nothing to do), 1 --check found unformatted files, 2 usage error or a file
that could not be read or written (not UTF-8, not a regular file, over ${MAX_FILE_BYTES.source / (1024 * 1024)} MiB).`,
};

interface FormatCommandOptions {
  check: boolean;
  noIgnore: boolean;
  format: FormatOptions;
  inputs: string[];
}

function parseFormatArgs(args: string[]): FormatCommandOptions | 'help' {
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
  if (!positionals.length) throw new UsageError('no files or folders given');
  return { check: values.check === true, noIgnore: values['no-ignore'] === true, format, inputs: positionals };
}

export async function runFormatCommand(args: string[], io: CliIO): Promise<number> {
  const options = parseFormatArgs(args);
  if (options === 'help') {
    io.stdout.write(commandHelp(FORMAT_COMMAND));
    return EXIT.ok;
  }
  const report = failureReporter(io, 'cqlint format');
  // What .cqlintignore and the ignorePatterns of each file's .cqlint.json leave out is not formatted either.
  const configs = discoveredConfigs();
  const ignored = options.noIgnore ? undefined : ignoreCheck(io, report, (entry) => configs.lookup(entry)?.config);
  const files = await collectCqlFiles(options.inputs, io, report, ignored);

  const unformatted: string[] = [];
  let written = 0;
  for (const file of files) {
    const shown = displayPath(file, io.cwd);
    const read = await readInput(file, io, report);
    if (!read) continue;
    let formatted: string;
    try {
      formatted = formatText(read.text, options.format);
    } catch (error) {
      report.fail(`internal error formatting ${shown}: ${error instanceof Error ? error.message : String(error)}`);
      continue;
    }
    if (formatted === read.text) continue;
    if (options.check) {
      unformatted.push(shown);
      continue;
    }
    if (await writeOutput(file, formatted, read.bom, io, report)) {
      written++;
      io.stdout.write(`${shown}\n`);
    }
  }

  if (options.check) {
    for (const f of unformatted) io.stdout.write(`${f}\n`);
    if (unformatted.length) io.stderr.write(`${unformatted.length} file${unformatted.length === 1 ? '' : 's'} not formatted (run cqlint format without --check to fix)\n`);
  } else if (written) {
    io.stderr.write(`formatted ${written} file${written === 1 ? '' : 's'}\n`);
  }
  if (report.failed) return EXIT.failure;
  return unformatted.length ? EXIT.findings : EXIT.ok;
}
