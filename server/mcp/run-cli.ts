// The MCP tools run cqlint's own commands in-process, as a user's terminal would, with their output captured:
// the verdicts an agent gets are the command line's, by construction. Only read-only forms are ever run (lint
// without --fix or --cache, fix --list and fix --dry-run, token), with every path inside the workspace root.
import { Readable } from 'node:stream';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import { InputError, UsageError, type CliIO, type CommandRunner } from '../cli/io';

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * A bad argument of a tool call: the SDK answers a request whose handler throws an error with a `code` with
 * that JSON-RPC error (here invalid params), not with a tool result. (Its McpError would say "MCP error
 * -32602:" twice: the client adds the prefix again.)
 */
export class InvalidParams extends Error {
  readonly code = ErrorCode.InvalidParams;
}

export function invalidParams(message: string): InvalidParams {
  return new InvalidParams(message);
}

/** The IO of one in-process command run: output captured, no colours, no worker threads, `cwd` the root. */
export function capturedIO(
  root: string,
  stdin?: string,
): { io: CliIO; output: () => { stdout: string; stderr: string } } {
  let stdout = '';
  let stderr = '';
  const io: CliIO = {
    stdout: {
      write: (text: string) => {
        stdout += text;
        return true;
      },
      isTTY: false,
    },
    stderr: {
      write: (text: string) => {
        stderr += text;
        return true;
      },
      isTTY: false,
    },
    cwd: root,
    env: { NO_COLOR: '1', CQLINT_WORKERS: '0' },
    stdin: Readable.from(stdin === undefined ? [] : [stdin]),
  };
  return { io, output: () => ({ stdout, stderr }) };
}

/**
 * Runs one command. A usage or input error (a file that does not exist, a table with no finding, a value
 * that is not a key) is the caller's bad argument: invalid params, with the command's own message.
 */
export async function runCli(runner: CommandRunner, args: string[], root: string, stdin?: string): Promise<CliRun> {
  const { io, output } = capturedIO(root, stdin);
  let code: number;
  try {
    code = await runner(args, io);
  } catch (error) {
    if (error instanceof UsageError || error instanceof InputError) throw invalidParams(error.message);
    throw error;
  }
  return { code, ...output() };
}

/** The command's failure message (its stderr, without the `cqlint <command>:` prefixes), for an error. */
export function failureText(run: CliRun): string {
  return (
    run.stderr
      .trim()
      .split('\n')
      .map((line) => line.replace(/^cqlint(?: \w+)?: (?:error: )?/, ''))
      .join('\n') || `exit status ${run.code}`
  );
}

/**
 * A path an agent gave, checked to be inside the workspace root (its real path too, when it exists: a link
 * out of the root is refused), relative to the root (`.` for the root itself). The tools pass paths after
 * `--`, so that a name such as `-x.cql` is not read as an option.
 */
export function pathInRoot(root: string, given: string, what = 'path'): string {
  if (typeof given !== 'string' || given.trim() === '' || given.includes('\0'))
    throw invalidParams(`${what} must be a non-empty path`);
  const resolved = path.resolve(root, given);
  const inside = (base: string, file: string): boolean => {
    const rel = path.relative(base, file);
    return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
  };
  if (!inside(root, resolved)) throw invalidParams(`${what} "${given}" is outside the workspace root ${root}`);
  let real: string | undefined;
  try {
    real = fs.realpathSync(resolved);
  } catch {
    real = undefined;
  }
  if (real !== undefined && !inside(fs.realpathSync(root), real))
    throw invalidParams(`${what} "${given}" leads outside the workspace root ${root}`);
  return path.relative(root, resolved) || '.';
}
