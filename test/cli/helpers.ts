// Runs the CLI in-process with captured output, and makes temporary folders of CQL files.
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { main } from '../../server/cli/main';

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
  env?: Record<string, string | undefined>;
}

export async function runCli(argv: string[], options: RunOptions = {}): Promise<CliRun> {
  let stdout = '';
  let stderr = '';
  const code = await main(argv, {
    stdout: { write: (text: string) => (stdout += text), isTTY: options.tty ?? false },
    stderr: { write: (text: string) => (stderr += text), isTTY: false },
    cwd: options.cwd ?? projectRoot,
    env: options.env ?? {},
  });
  return { code, stdout, stderr };
}

interface TempDir {
  dir: string;
  path(relative: string): string;
  write(relative: string, content: string | Uint8Array): string;
  cleanup(): void;
}

export function tempDir(files: Record<string, string | Uint8Array> = {}): TempDir {
  const dir = mkdtempSync(path.join(tmpdir(), 'cqlint-cli-'));
  const temp: TempDir = {
    dir,
    path: (relative) => path.join(dir, relative),
    write(relative, content) {
      const full = path.join(dir, relative);
      mkdirSync(path.dirname(full), { recursive: true });
      writeFileSync(full, content);
      return full;
    },
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
  for (const [relative, content] of Object.entries(files)) temp.write(relative, content);
  return temp;
}

/** ESLint JSON output, parsed. */
export interface JsonResult {
  filePath: string;
  messages: { ruleId: string; severity: 1 | 2; message: string; line: number; column: number; endLine: number; endColumn: number; fatal?: boolean }[];
  errorCount: number;
  warningCount: number;
  fatalErrorCount: number;
  fixableErrorCount: number;
  fixableWarningCount: number;
  source?: string;
}
