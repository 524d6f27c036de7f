// `cqlint format [--check] [--keyword-case upper|lower|preserve] [--indent N] <files or folders>`
// Without --check, rewrites files in place (only those that change). With --check, lists the files
// that are not formatted and exits 1 if there are any. Exit 2 for usage and I/O errors.
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { formatText, type FormatOptions, type KeywordCase } from '../core/format/formatter';

/** Either plain functions or streams with write() (the CLI's CliIO). */
type Sink = ((s: string) => void) | { write(s: string): unknown };

export interface FormatCommandIO {
  stdout: Sink;
  stderr: Sink;
  /** Directory relative paths are resolved against; defaults to the process's. */
  cwd?: string;
}

export const FORMAT_USAGE = `Usage: cqlint format [options] <files or folders...>

Formats CQL files: keyword case, one column per line with aligned types, clauses on their own
lines. Comments are kept; statements with syntax errors are left exactly as written.

Options:
  --check                 Do not write; list files that would change and exit 1 if any
  --keyword-case <case>   upper (default), lower or preserve
  --indent <n>            Spaces per indentation level (default 4)
  -h, --help              Show this help
`;

const CQL_EXTENSIONS = new Set(['.cql', '.cqlsh']);
const SKIPPED_DIRS = new Set(['node_modules', '.git', 'dist', '.vscode-test']);

function writer(sink: Sink): (s: string) => void {
  return typeof sink === 'function' ? sink : (s) => void sink.write(s);
}

/** CQL files under a folder, sorted. */
function filesUnder(dir: string, out: string[]): void {
  for (const name of readdirSync(dir).sort()) {
    const full = path.join(dir, name);
    const stat = statSync(full);
    if (stat.isDirectory()) {
      if (!SKIPPED_DIRS.has(name)) filesUnder(full, out);
    } else if (CQL_EXTENSIONS.has(path.extname(name).toLowerCase())) {
      out.push(full);
    }
  }
}

export async function runFormatCommand(args: string[], io: FormatCommandIO): Promise<number> {
  const out = writer(io.stdout);
  const err = writer(io.stderr);
  const cwd = io.cwd ?? process.cwd();
  let check = false;
  const options: FormatOptions = {};
  const inputs: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    const value = (name: string): string | undefined => {
      const eq = arg.indexOf('=');
      if (eq >= 0) return arg.slice(eq + 1);
      const next = args[i + 1];
      if (next === undefined) {
        err(`cqlint format: ${name} needs a value\n\n${FORMAT_USAGE}`);
        return undefined;
      }
      i++;
      return next;
    };
    if (arg === '-h' || arg === '--help') {
      out(FORMAT_USAGE);
      return 0;
    } else if (arg === '--check') {
      check = true;
    } else if (arg === '--keyword-case' || arg.startsWith('--keyword-case=')) {
      const v = value('--keyword-case');
      if (v === undefined) return 2;
      if (v !== 'upper' && v !== 'lower' && v !== 'preserve') {
        err(`cqlint format: --keyword-case must be upper, lower or preserve (got "${v}")\n`);
        return 2;
      }
      options.keywordCase = v as KeywordCase;
    } else if (arg === '--indent' || arg.startsWith('--indent=')) {
      const v = value('--indent');
      if (v === undefined) return 2;
      const n = Number(v);
      if (!Number.isInteger(n) || n < 1 || n > 16) {
        err(`cqlint format: --indent must be an integer from 1 to 16 (got "${v}")\n`);
        return 2;
      }
      options.indentSize = n;
    } else if (arg === '--') {
      inputs.push(...args.slice(i + 1));
      break;
    } else if (arg.startsWith('-') && arg !== '-') {
      err(`cqlint format: unknown option ${arg}\n\n${FORMAT_USAGE}`);
      return 2;
    } else {
      inputs.push(arg);
    }
  }
  if (inputs.length === 0) {
    err(`cqlint format: no files or folders given\n\n${FORMAT_USAGE}`);
    return 2;
  }

  let failed = false;
  const files: string[] = [];
  for (const input of inputs) {
    const full = path.resolve(cwd, input);
    try {
      const stat = statSync(full);
      if (stat.isDirectory()) filesUnder(full, files);
      else files.push(full);
    } catch (error) {
      err(`cqlint format: cannot read ${input}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}\n`);
      failed = true;
    }
  }

  const unformatted: string[] = [];
  let written = 0;
  for (const file of [...new Set(files)]) {
    const shown = path.relative(cwd, file) || file;
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch (error) {
      err(`cqlint format: cannot read ${shown}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}\n`);
      failed = true;
      continue;
    }
    // A UTF-8 byte order mark is not CQL: format what follows it and put it back.
    const bom = text.charCodeAt(0) === 0xfeff ? '\ufeff' : '';
    if (bom) text = text.slice(1);
    let formatted: string;
    try {
      formatted = formatText(text, options);
    } catch (error) {
      err(`cqlint format: internal error formatting ${shown}: ${(error as Error).message}\n`);
      failed = true;
      continue;
    }
    if (formatted === text) continue;
    if (check) {
      unformatted.push(shown);
      continue;
    }
    try {
      writeFileSync(file, bom + formatted);
      written++;
      out(`${shown}\n`);
    } catch (error) {
      err(`cqlint format: cannot write ${shown}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}\n`);
      failed = true;
    }
  }

  if (check) {
    for (const f of unformatted) out(`${f}\n`);
    if (unformatted.length) err(`${unformatted.length} file${unformatted.length === 1 ? '' : 's'} not formatted (run cqlint format without --check to fix)\n`);
  } else if (written) {
    err(`formatted ${written} file${written === 1 ? '' : 's'}\n`);
  }
  if (failed) return 2;
  return unformatted.length ? 1 : 0;
}
