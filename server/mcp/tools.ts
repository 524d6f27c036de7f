// The tools `cqlint mcp` serves: lint, fixes, token and partition_figures. Each has a zod schema (its MCP
// input schema is generated from it, and a call's arguments are checked against it: a bad one is invalid
// params) and a handler that runs a read-only form of a cqlint command inside the workspace root.
import * as path from 'node:path';
import { z } from 'zod';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { runLintCommand } from '../cli/lint';
import { runFixCommand, PARTITION_RULES } from '../cli/fix-command';
import { runTokenCommand } from '../cli/token';
import { TARGET_IDS } from '../core/vocabulary/config';
import type { TargetId } from '../core/partition/targets';
import { failureText, invalidParams, pathInRoot, runCli } from './run-cli';
import { partitionFigures } from './figures';

const target = z
  .enum(TARGET_IDS as [TargetId, ...TargetId[]])
  .optional()
  .describe("The database whose limits apply (default: the nearest .cqlint.json's target, else cassandra)");
const paths = z
  .array(z.string().min(1))
  .min(1)
  .max(1000)
  .optional()
  .describe('CQL files or folders, relative to the workspace root (default: the whole root)');

const lintArgs = z.strictObject({
  text: z
    .string()
    .max(10 * 1024 * 1024)
    .optional()
    .describe('CQL text to lint (a schema or statements); the files in `paths` are its context'),
  filename: z
    .string()
    .min(1)
    .optional()
    .describe(
      'The file the text stands for, relative to the root (default: input.cql): its .cqlint.json applies and the findings name it',
    ),
  paths: paths.describe(
    'CQL files or folders to lint, relative to the workspace root (default: the whole root; with `text`: its context, not reported)',
  ),
  target,
});

const fixesArgs = z.strictObject({
  paths,
  rule: z.enum(PARTITION_RULES).optional().describe("The finding's rule"),
  table: z.string().min(1).optional().describe('The table whose finding to fix (ks.table, or table)'),
  at: z
    .strictObject({ file: z.string().min(1), line: z.number().int().min(1) })
    .optional()
    .describe('The finding at this line of this file, when several match'),
  fix: z.string().min(1).optional().describe('The fix id, as `list` shows (default: the preferred fix)'),
  target,
});

const tokenArgs = z
  .strictObject({
    values: z
      .array(z.string())
      .min(1)
      .max(64)
      .describe(
        "The partition key's values as CQL literals in key order (quotes optional for text, dates, uuids), or col=value for a table's named columns",
      ),
    types: z
      .array(z.string().min(1))
      .min(1)
      .max(64)
      .optional()
      .describe('The partition key\'s column types in key order (e.g. ["date", "int"]); or give `table`'),
    table: z
      .string()
      .min(1)
      .optional()
      .describe(
        'keyspace.table whose partition key gives the types (its @shard value is computed when the source columns are given)',
      ),
    schema: z
      .string()
      .min(1)
      .optional()
      .describe('The CQL file or folder that defines `table`, relative to the root (default: the root)'),
    replication: z.string().min(1).optional().describe("SimpleStrategy RF ('3') or per-DC RFs ('dc1:3,dc2:2')"),
  })
  .refine((a) => (a.types === undefined) !== (a.table === undefined), { message: 'give either types or table' });

const figuresArgs = z.strictObject({
  table: z.string().min(1).describe('The table or view (ks.table, or table when only one keyspace has it)'),
  paths,
  target,
});

interface ToolSpec {
  name: string;
  description: string;
  schema: z.ZodType;
  run(args: never, root: string): Promise<CallToolResult>;
}

const text = (value: string): CallToolResult['content'] => [{ type: 'text', text: value }];
const json = (value: unknown): CallToolResult => ({
  content: text(JSON.stringify(value, null, 2)),
  structuredContent: value as Record<string, unknown>,
});

/** The inputs, checked to be inside the root, relative to it; the root itself when none are given. */
function inputsOf(root: string, given: readonly string[] | undefined): string[] {
  return (given ?? ['.']).map((p) => pathInRoot(root, p));
}

/** Options as --name=value, so that a value starting with '-' is not read as an option. */
const targetArgs = (value: TargetId | undefined): string[] => (value ? [`--target=${value}`] : []);

async function lint(args: z.infer<typeof lintArgs>, root: string): Promise<CallToolResult> {
  const argv = ['--format', 'json', ...targetArgs(args.target)];
  if (args.text !== undefined) {
    argv.push('--stdin', `--stdin-filename=${pathInRoot(root, args.filename ?? 'input.cql', 'filename')}`);
    // The context files, if any: stdin alone otherwise.
    if (args.paths) argv.push('--', ...inputsOf(root, args.paths));
  } else {
    if (args.filename !== undefined) throw invalidParams('filename goes with text');
    argv.push('--', ...inputsOf(root, args.paths));
  }
  const run = await runCli(runLintCommand, argv, root, args.text);
  if (run.code === 2) throw invalidParams(failureText(run));
  const results = JSON.parse(run.stdout) as {
    filePath: string;
    messages: unknown[];
    errorCount: number;
    warningCount: number;
  }[];
  const files = results.map((r) => ({ ...r, filePath: path.relative(root, r.filePath) || r.filePath }));
  return json({
    errorCount: files.reduce((n, r) => n + r.errorCount, 0),
    warningCount: files.reduce((n, r) => n + r.warningCount, 0),
    results: files,
  });
}

async function fixes(args: z.infer<typeof fixesArgs>, root: string): Promise<CallToolResult> {
  const inputs = inputsOf(root, args.paths);
  const choice = [
    ...(args.rule ? [`--rule=${args.rule}`] : []),
    ...(args.table ? [`--table=${args.table}`] : []),
    ...(args.at ? [`--at=${pathInRoot(root, args.at.file, 'at.file')}:${args.at.line}`] : []),
    ...targetArgs(args.target),
  ];
  const list = await runCli(runFixCommand, ['--list', ...choice, '--', ...inputs], root);
  if (list.code !== 0) throw invalidParams(failureText(list));
  const dry = await runCli(
    runFixCommand,
    ['--dry-run', ...choice, ...(args.fix ? [`--fix=${args.fix}`] : []), '--', ...inputs],
    root,
  );
  if (dry.code !== 0) throw invalidParams(failureText(dry));
  const title = /^cqlint fix: (.*) \(dry run: nothing written\)$/m.exec(dry.stderr)?.[1] ?? '';
  return {
    content: text(
      `${title}\n\n${dry.stdout}\nAll the partition findings and their fixes (* preferred):\n${list.stdout}`,
    ),
    structuredContent: { fix: title, diff: dry.stdout, list: list.stdout },
  };
}

async function token(args: z.infer<typeof tokenArgs>, root: string): Promise<CallToolResult> {
  const argv = ['--json', ...(args.replication ? [`--replication=${args.replication}`] : [])];
  if (args.types) argv.push(`--types=${args.types.join(',')}`, '--', ...args.values);
  else argv.push(`--schema=${pathInRoot(root, args.schema ?? '.', 'schema')}`, '--', args.table!, ...args.values);
  const run = await runCli(runTokenCommand, argv, root);
  if (run.code !== 0) throw invalidParams(failureText(run));
  return json(JSON.parse(run.stdout));
}

async function figures(args: z.infer<typeof figuresArgs>, root: string): Promise<CallToolResult> {
  return json(await partitionFigures(root, inputsOf(root, args.paths), args.table, args.target));
}

export const TOOLS: readonly ToolSpec[] = [
  {
    name: 'lint',
    description:
      "Lint CQL (schemas and statements) with cqlint's rules: partition-key design (hot, unbounded, large partitions), unknown columns, guardrails, syntax. Returns the findings as ESLint-style JSON (rule, severity, message, details, position) per file.",
    schema: lintArgs,
    run: lint as ToolSpec['run'],
  },
  {
    name: 'fixes',
    description:
      'The partition refactoring of a finding (a shard column, a time bucket, a copy of the table) as a unified diff over the schema and every statement on the table, never written; with the list of all partition findings and their fix ids.',
    schema: fixesArgs,
    run: fixes as ToolSpec['run'],
  },
  {
    name: 'token',
    description:
      "The Murmur3 token of a partition key (exactly as SELECT token(...) returns it), by column types or by a table's partition key; for a table with a calculated @shard, its shard value from the source columns.",
    schema: tokenArgs,
    run: token as ToolSpec['run'],
  },
  {
    name: 'partition_figures',
    description:
      "A table's partition figures as cqlint's partition report and hover compute them: row and partition sizes term by term, growth against the target's limits, hot-key traffic, shard spread, throughput, findings and the statements on it.",
    schema: figuresArgs,
    run: figures as ToolSpec['run'],
  },
];

/** The tools as tools/list describes them, input schemas generated from the zod schemas. */
export function toolList(): Tool[] {
  return TOOLS.map((tool) => {
    const { $schema: _schema, ...inputSchema } = z.toJSONSchema(tool.schema, { io: 'input' }) as Record<
      string,
      unknown
    >;
    return {
      name: tool.name,
      description: tool.description,
      inputSchema: inputSchema as Tool['inputSchema'],
      annotations: { readOnlyHint: true, openWorldHint: false },
    };
  });
}

/** Runs a tools/call: an unknown tool or arguments that do not fit its schema are invalid params. */
export async function callTool(name: string, args: unknown, root: string): Promise<CallToolResult> {
  const tool = TOOLS.find((t) => t.name === name);
  if (!tool) throw invalidParams(`unknown tool "${name}"; the tools are ${TOOLS.map((t) => t.name).join(', ')}`);
  const parsed = tool.schema.safeParse(args ?? {});
  if (!parsed.success) throw invalidParams(`invalid arguments for ${name}: ${z.prettifyError(parsed.error)}`);
  return tool.run(parsed.data as never, root);
}
