// `cqlint mcp [--root <folder>]`: serves cqlint's engine over the Model Context Protocol on stdio (the
// official TypeScript SDK's Server and StdioServerTransport), so that a coding agent designing CQL gets the
// verdicts cqlint gives in the terminal and the editor. The tools (tools.ts) read the files inside the root
// (default: the working directory) and write nothing. The server runs until its client closes stdin.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import packageJson from '../../package.json';
import { EXIT, UsageError, parseCommandArgs, type CliIO } from '../cli/io';
import { commandHelp } from '../cli/options';
import { MCP_COMMAND, MCP_OPTIONS } from './command';
import { callTool, toolList } from './tools';

/** The MCP server of one workspace root (not connected). */
export function createMcpServer(root: string): Server {
  const server = new Server(
    { name: 'cqlint', version: packageJson.version },
    {
      capabilities: { tools: {} },
      instructions:
        'cqlint checks CQL (Cassandra, ScyllaDB, Amazon Keyspaces, Azure Cosmos DB) for partition-key design mistakes. Lint a schema and its queries together: a query is judged against the tables and the workload the workspace describes.',
    },
  );
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: toolList() }));
  server.setRequestHandler(CallToolRequestSchema, (request) =>
    callTool(request.params.name, request.params.arguments, root),
  );
  return server;
}

export async function runMcpCommand(args: string[], io: CliIO): Promise<number> {
  const parsed = parseCommandArgs(args, MCP_OPTIONS);
  if (parsed.values.help) {
    io.stdout.write(commandHelp(MCP_COMMAND));
    return EXIT.ok;
  }
  if (parsed.positionals.length)
    throw new UsageError(`unexpected argument "${parsed.positionals[0]}" (the workspace is --root)`);
  const root = path.resolve(io.cwd, parsed.values.root ?? '.');
  if (!fs.statSync(root, { throwIfNoEntry: false })?.isDirectory())
    throw new UsageError(`--root ${parsed.values.root}: not a folder`);
  const server = createMcpServer(fs.realpathSync(root));
  const closed = new Promise<void>((resolve) => {
    server.onclose = resolve;
    process.stdin.once('end', resolve);
    process.stdin.once('close', resolve);
  });
  await server.connect(new StdioServerTransport());
  await closed;
  await server.close();
  return EXIT.ok;
}
