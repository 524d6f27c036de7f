// `cqlint mcp`'s command line (its options, help and README reference), apart from the server: the CLI loads
// the server, the MCP SDK and zod only when the command runs (cli/main.ts), not on every `cqlint lint`.
import { HELP_OPTION, type CliOptions, type CommandSpec } from '../cli/options';

export const MCP_OPTIONS = {
  root: {
    type: 'string',
    value: 'folder',
    help: 'The workspace root: the tools read files and folders inside it only (default: the working directory)',
  },
  ...HELP_OPTION,
} satisfies CliOptions;

export const MCP_COMMAND: CommandSpec = {
  name: 'mcp',
  summary: 'serve the engine to coding agents over the Model Context Protocol (stdio)',
  usage: ['[--root <folder>]'],
  description: `Serves cqlint over the Model Context Protocol on stdin and stdout, for an MCP client (a coding agent, an
editor's chat) to start. Its tools: lint (CQL text or files: the findings as JSON), fixes (a partition
finding's refactoring as a unified diff, never written), token (the token of a partition key, a table's
shard value) and partition_figures (a table's figures as the partition report computes them). The tools
read the files inside the root and write none. See docs/mcp.md for a client configuration.`,
  options: MCP_OPTIONS,
  exitStatus: '0 when the client closes the connection, 2 usage error (a root that is not a folder).',
};
