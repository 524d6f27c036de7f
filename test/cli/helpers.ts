// Runs the CLI in-process with captured output, and makes temporary folders of CQL files.
import * as path from 'node:path';
import { Readable } from 'node:stream';
import { main } from '../../server/cli/main';
import { tempWorkspace, type TempWorkspace } from '../../scripts/temp-workspace';

export const projectRoot = path.resolve(__dirname, '..', '..');

interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

interface RunOptions {
  cwd?: string;
  /** Pretend stdout is a terminal. */
  tty?: boolean;
  /** Pretend stderr is a terminal. */
  stderrTty?: boolean;
  env?: Record<string, string | undefined>;
  /** What stdin holds (default: nothing, an empty stream). */
  stdin?: string | Uint8Array;
}

export async function runCli(argv: string[], options: RunOptions = {}): Promise<CliRun> {
  let stdout = '';
  let stderr = '';
  const code = await main(argv, {
    stdout: { write: (text: string) => (stdout += text), isTTY: options.tty ?? false },
    stderr: { write: (text: string) => (stderr += text), isTTY: options.stderrTty ?? false },
    cwd: options.cwd ?? projectRoot,
    env: options.env ?? {},
    stdin: Readable.from(
      options.stdin === undefined
        ? []
        : [typeof options.stdin === 'string' ? Buffer.from(options.stdin) : options.stdin],
    ),
  });
  return { code, stdout, stderr };
}

/** A temporary folder of CLI inputs, removed by `cleanup()`. */
export function tempDir(files: Record<string, string | Uint8Array> = {}): TempWorkspace {
  return tempWorkspace(files, 'cqlint-cli-');
}

/** ESLint JSON output, parsed. */
export interface JsonResult {
  filePath: string;
  messages: {
    ruleId: string;
    severity: 1 | 2;
    message: string;
    line: number;
    column: number;
    messageId: string;
    endLine: number;
    endColumn: number;
    fatal?: boolean;
  }[];
  errorCount: number;
  warningCount: number;
  fatalErrorCount: number;
  fixableErrorCount: number;
  fixableWarningCount: number;
  source?: string;
}
