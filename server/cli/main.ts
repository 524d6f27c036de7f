// The `cqlint` command line (dist/cli.js; bin/cqlint.js calls main(argv) and exits with its result).
// Subcommands live in one table: adding one is one entry.
import { FORMAT_COMMAND, runFormatCommand } from './format';
import { LINT_COMMAND, runLintCommand } from './lint';
import { TOKEN_COMMAND, runTokenCommand } from './token';
import { REPORT_COMMAND, runReportCommand } from './report';
import { FIX_COMMAND, runFixCommand } from './fix-command';
import { MCP_COMMAND } from '../mcp/command';
import { EXPLAIN_COMMAND, runExplainCommand } from './explain';
import type { CommandSpec } from './options';
import { EXIT, InputError, UsageError, resolveIO, type CliIO, type CommandRunner } from './io';
import packageJson from '../../package.json';
import { BATCH_HEAP, useHeapBudget } from '../core/util/heap';
import { terminalStream } from './terminal';

export type { CliIO } from './io';

interface Command {
  /** The command's options, forms and help (options.ts): what its --help and the README reference say. */
  spec: CommandSpec;
  run: CommandRunner;
}

const command = (spec: CommandSpec, run: CommandRunner): [string, Command] => [spec.name, { spec, run }];

export const commands: Record<string, Command> = Object.fromEntries([
  command(LINT_COMMAND, runLintCommand),
  command(TOKEN_COMMAND, runTokenCommand),
  command(FORMAT_COMMAND, runFormatCommand),
  command(REPORT_COMMAND, runReportCommand),
  command(FIX_COMMAND, runFixCommand),
  // Loaded when run: the MCP SDK and zod are evaluated for `cqlint mcp` only.
  command(MCP_COMMAND, async (args, io) => (await import('../mcp/server.js')).runMcpCommand(args, io)),
  command(EXPLAIN_COMMAND, runExplainCommand),
]);

function helpText(): string {
  const width = Math.max(...Object.keys(commands).map((name) => name.length));
  const lines = Object.entries(commands).map(([name, command]) => `  ${name.padEnd(width)}  ${command.spec.summary}`);
  return `cqlint ${packageJson.version}: catches partition-key design mistakes in CQL

Usage: cqlint <command> [options]

Commands:
${lines.join('\n')}

Options:
  -h, --help     Show this help (cqlint <command> --help for a command's options)
  -v, --version  Show the version

Run 'cqlint <command> --help' for a command's options, e.g. 'cqlint lint --help'.
`;
}

/** Runs the command line; resolves to the exit code. Never throws: internal errors exit 2. */
export async function main(argv: string[], ioOverrides: Partial<CliIO> = {}): Promise<number> {
  const resolved = resolveIO(ioOverrides);
  // Every message shows the control characters of a name or a path escaped (terminal.ts).
  const io: CliIO = { ...resolved, stderr: terminalStream(resolved.stderr) };
  // A run ends: it may keep a little more garbage between full collections than the language server.
  useHeapBudget(BATCH_HEAP);
  const [first, ...rest] = argv;
  try {
    if (first === undefined || first === '-h' || first === '--help' || first === 'help') {
      (first === undefined ? io.stderr : io.stdout).write(helpText());
      return first === undefined ? EXIT.failure : EXIT.ok;
    }
    if (first === '-v' || first === '--version' || first === 'version') {
      io.stdout.write(`${packageJson.version}\n`);
      return EXIT.ok;
    }
    const command = Object.prototype.hasOwnProperty.call(commands, first) ? commands[first] : undefined;
    if (!command) {
      io.stderr.write(`cqlint: unknown command "${first}"\n\n${helpText()}`);
      return EXIT.failure;
    }
    return await command.run(rest, io);
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr.write(`cqlint ${first}: ${error.message}\nRun 'cqlint ${first} --help' for usage.\n`);
      return EXIT.failure;
    }
    if (error instanceof InputError) {
      io.stderr.write(`cqlint ${first}: ${error.message}\n`);
      return EXIT.failure;
    }
    // A bug, not bad input: one line for the user; the stack only when asked for (CQLINT_DEBUG=1).
    const detail =
      error instanceof Error ? (io.env.CQLINT_DEBUG ? (error.stack ?? error.message) : error.message) : String(error);
    io.stderr.write(`cqlint: internal error: ${detail}\n`);
    return EXIT.failure;
  }
}
