// Where a CLI command reads and writes. main() gets the real process streams; tests inject buffers.
export interface CliStream {
  write(text: string): unknown;
  /** True when the stream is a terminal (stylish output is coloured only then). */
  isTTY?: boolean;
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

export function processIO(): CliIO {
  return { stdout: process.stdout, stderr: process.stderr, cwd: process.cwd(), env: process.env, stdin: process.stdin };
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

/** Thrown for bad command lines; main() prints it with the command's usage and exits 2. */
export class UsageError extends Error {
  override name = 'UsageError';
}

/** Exit codes shared by every command. */
export const EXIT = { ok: 0, findings: 1, failure: 2 } as const;
