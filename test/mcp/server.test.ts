// `cqlint mcp` end to end: the MCP TypeScript SDK's own Client over its StdioClientTransport starts the built
// CLI (node bin/cqlint.js mcp) in a temporary workspace, lists the tools, calls each, and sends bad arguments,
// which must come back as JSON-RPC invalid-params errors while the server keeps serving. No call may write:
// the workspace's files, their contents and times, are the same after every call.
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, readdirSync, readFileSync, statSync, symlinkSync } from 'node:fs';
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ErrorCode, McpError, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { projectRoot } from '../cli/helpers';
import { tempWorkspace, type TempWorkspace } from '../../scripts/temp-workspace';
import { driverToken } from '../token/helpers';

const cliBin = path.join(projectRoot, 'bin', 'cqlint.js');

const SCHEMA = `CREATE KEYSPACE shop WITH replication = {'class': 'NetworkTopologyStrategy', 'dc1': 3};
CREATE TABLE shop.events (day date, id timeuuid, payload text, PRIMARY KEY (day, id));
INSERT INTO shop.events (day, id, payload) VALUES ('2024-01-01', now(), 'x');
SELECT * FROM shop.events WHERE day = '2024-01-01';
`;

/** Every file under `dir` with its content and modification time: what "nothing was written" compares. */
function snapshot(dir: string): Map<string, string> {
  const files = new Map<string, string>();
  const walk = (folder: string): void => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const full = path.join(folder, entry.name);
      if (entry.isDirectory()) walk(full);
      else
        files.set(
          path.relative(dir, full),
          `${statSync(full).mtimeMs}:${entry.isSymbolicLink() ? 'link' : readFileSync(full, 'utf8')}`,
        );
    }
  };
  walk(dir);
  return files;
}

/** The SDK's client connected to `cqlint mcp` (the built CLI, built first when missing) started in `dir`. */
async function connectedClient(dir: string): Promise<Client> {
  if (!existsSync(path.join(projectRoot, 'dist', 'cli.js'))) {
    const build = spawnSync(process.execPath, ['scripts/build.mjs'], { cwd: projectRoot, encoding: 'utf8' });
    assert.equal(build.status, 0, `npm run build failed:\n${build.stderr}`);
  }
  const client = new Client({ name: 'cqlint-test', version: '1.0.0' });
  await client.connect(
    new StdioClientTransport({ command: process.execPath, args: [cliBin, 'mcp'], cwd: dir, stderr: 'pipe' }),
  );
  return client;
}

const textOf = (result: CallToolResult): string => (result.content[0] as { text: string }).text;

describe('cqlint mcp (the SDK client against the built CLI)', () => {
  let workspace: TempWorkspace;
  let outside: TempWorkspace;
  let client: Client;
  let before_: Map<string, string>;

  before(async () => {
    workspace = tempWorkspace({ 'schema/shop.cql': SCHEMA, 'notes.txt': 'not CQL\n' }, 'cqlint-mcp-');
    outside = tempWorkspace({ 'secret.cql': 'CREATE TABLE ks.secret (id int PRIMARY KEY);\n' }, 'cqlint-mcp-out-');
    symlinkSync(outside.dir, workspace.path('escape'));
    before_ = snapshot(workspace.dir);
    client = await connectedClient(workspace.dir);
  });

  after(async () => {
    await client?.close();
    workspace?.cleanup();
    outside?.cleanup();
  });

  /** The call must be refused with invalid params, its message matching. */
  async function refused(name: string, args: Record<string, unknown>, message: RegExp): Promise<void> {
    await assert.rejects(client.callTool({ name, arguments: args }), (error: unknown) => {
      assert.ok(error instanceof McpError, String(error));
      assert.equal(error.code, ErrorCode.InvalidParams, error.message);
      assert.match(error.message, message);
      return true;
    });
  }

  test('tools/list: the four tools, each with an input schema that names its arguments', async () => {
    const { tools } = await client.listTools();
    assert.deepEqual(tools.map((t) => t.name).sort(), ['fixes', 'lint', 'partition_figures', 'token']);
    const schema = (name: string) =>
      tools.find((t) => t.name === name)!.inputSchema as {
        type: string;
        properties: Record<string, unknown>;
        required?: string[];
        additionalProperties?: boolean;
      };
    for (const tool of tools) {
      assert.equal(schema(tool.name).type, 'object');
      assert.equal(schema(tool.name).additionalProperties, false, `${tool.name} refuses unknown arguments`);
      assert.ok(tool.description && tool.description.length > 40);
    }
    assert.deepEqual(Object.keys(schema('lint').properties).sort(), ['filename', 'paths', 'target', 'text']);
    assert.deepEqual(schema('token').required, ['values']);
    assert.deepEqual(schema('partition_figures').required, ['table']);
  });

  test('lint: the workspace (findings as JSON, paths relative to the root), and text with files as its context', async () => {
    const all = (await client.callTool({ name: 'lint', arguments: {} })) as CallToolResult;
    const report = JSON.parse(textOf(all)) as {
      errorCount: number;
      warningCount: number;
      results: { filePath: string; messages: { ruleId: string; line: number }[] }[];
    };
    assert.deepEqual(
      report.results.map((r) => r.filePath),
      ['schema/shop.cql'],
    );
    assert.ok(
      report.results[0]!.messages.some((m) => m.ruleId === 'hot-partition' && m.line === 2),
      JSON.stringify(report.results[0]!.messages),
    );
    assert.equal(report.warningCount + report.errorCount, report.results[0]!.messages.length);

    const text = (await client.callTool({
      name: 'lint',
      arguments: {
        text: "SELECT payload FROM shop.events WHERE id = now();\nSELECT nope FROM shop.events WHERE day = '2024-01-02';\n",
        paths: ['schema'],
      },
    })) as CallToolResult;
    const textReport = JSON.parse(textOf(text)) as {
      results: { filePath: string; messages: { ruleId: string; line: number }[] }[];
    };
    assert.deepEqual(
      textReport.results.map((r) => r.filePath),
      ['input.cql'],
      'the context files are not reported',
    );
    const rules = textReport.results[0]!.messages.map((m) => `${m.line}:${m.ruleId}`);
    assert.ok(rules.includes('1:unrestricted-partition-key') && rules.includes('2:unknown-column'), rules.join(', '));

    const alone = (await client.callTool({
      name: 'lint',
      arguments: { text: 'SELECT nope FROM shop.events;' },
    })) as CallToolResult;
    assert.ok(
      !textOf(alone).includes('unknown-column'),
      'without paths the text has no context: the table is unknown, not its column',
    );
  });

  test('fixes: the preferred partition fix as a unified diff and the list of fixes; a named fix; nothing written', async () => {
    const result = (await client.callTool({ name: 'fixes', arguments: { table: 'shop.events' } })) as CallToolResult;
    const { fix, diff, list } = result.structuredContent as { fix: string; diff: string; list: string };
    assert.match(diff, /^--- a\/schema\/shop\.cql\n\+\+\+ b\/schema\/shop\.cql\n@@ /);
    assert.match(
      diff,
      /^-CREATE TABLE shop\.events \(day date, id timeuuid, payload text, PRIMARY KEY \(day, id\)\);$/m,
    );
    assert.match(diff, /^\+CREATE TABLE shop\.events \(.*PRIMARY KEY \(\(day, \w+\), id\)\);$/m, diff);
    assert.ok(fix.length > 10 && textOf(result).startsWith(fix));
    assert.match(list, /^schema\/shop\.cql:2:\d+ {2}hot-partition {2}shop\.events$/m);
    const ids = [...list.matchAll(/^ {2}[* ] (\S+)$/gm)].map((m) => m[1]!);
    assert.ok(ids.length >= 2, list);
    const other = ids.find((id) => !list.includes(`* ${id}\n`))!;
    const named = (await client.callTool({
      name: 'fixes',
      arguments: { table: 'events', fix: other },
    })) as CallToolResult;
    assert.notEqual((named.structuredContent as { diff: string }).diff, diff, `fix ${other} is another change`);
    assert.deepEqual(snapshot(workspace.dir), before_);
  });

  test("token: by types (the driver's token), by a table's partition key, negative values read as values", async () => {
    const typed = (await client.callTool({
      name: 'token',
      arguments: { types: ['int'], values: ['-5'] },
    })) as CallToolResult;
    const key = Buffer.alloc(4);
    key.writeInt32BE(-5);
    assert.equal((typed.structuredContent as { token: string }).token, driverToken(key).toString());
    const byTable = (await client.callTool({
      name: 'token',
      arguments: { table: 'shop.events', schema: 'schema', values: ['2024-01-01'] },
    })) as CallToolResult;
    const day = Buffer.alloc(4);
    day.writeUInt32BE(2 ** 31 + Date.UTC(2024, 0, 1) / 86_400_000);
    assert.equal((byTable.structuredContent as { token: string }).token, driverToken(day).toString());
  });

  test("partition_figures: the report's figures of a table (key, row size, size terms, findings), by its short name", async () => {
    const result = (await client.callTool({
      name: 'partition_figures',
      arguments: { table: 'events' },
    })) as CallToolResult;
    const figures = result.structuredContent as {
      table: string;
      file: string;
      partitionKey: string[];
      clustering: string[];
      rowSizes: { partitionKeyBytes: number };
      sizeTerms: { terms: { id: string; bytes: number }[] };
      findings: { ruleId: string }[];
    };
    assert.equal(figures.table, 'shop.events');
    assert.equal(figures.file, 'schema/shop.cql');
    assert.deepEqual([figures.partitionKey, figures.clustering], [['day'], ['id']]);
    assert.equal(figures.rowSizes.partitionKeyBytes, 4, 'a date is 4 bytes');
    assert.deepEqual(
      figures.sizeTerms.terms.map((t) => t.id),
      ['pk', 'static', 'rows', 'metadata'],
    );
    assert.ok(figures.findings.some((f) => f.ruleId === 'hot-partition'));
  });

  test('bad arguments are invalid params (schema, paths outside the root, unknown files, tables and tools), and the server keeps serving', async () => {
    await refused('lint', { bogus: 1 }, /Unrecognized key/);
    await refused('lint', { paths: 'schema' }, /paths/);
    await refused('lint', { paths: ['../'] }, /outside the workspace root/);
    await refused('lint', { paths: ['/etc/passwd'] }, /outside the workspace root/);
    await refused('lint', { paths: ['escape/secret.cql'] }, /leads outside the workspace root/);
    await refused('lint', { paths: ['missing.cql'] }, /missing\.cql/);
    await refused('lint', { filename: 'x.cql' }, /filename goes with text/);
    await refused('fixes', { table: 'shop.nothing' }, /no partition finding matches/);
    await refused('fixes', { table: 'shop.events', fix: 'no-such-fix' }, /no fix "no-such-fix"/);
    await refused('fixes', { rule: 'unknown-column' }, /rule/);
    await refused('token', { values: [] }, /values/);
    await refused('token', { values: ['1'] }, /either types or table/);
    await refused('token', { types: ['int'], values: ['not a number'] }, /./);
    await refused('token', { types: ['--help'], values: ['1'] }, /./);
    await refused('partition_figures', {}, /table/);
    await refused('partition_figures', { table: 'nope' }, /no table "nope"/);
    await refused('nope', {}, /unknown tool "nope"/);
    const still = (await client.callTool({
      name: 'token',
      arguments: { types: ['int'], values: ['1'] },
    })) as CallToolResult;
    assert.ok(!still.isError && /"token"/.test(textOf(still)));
    assert.deepEqual(snapshot(workspace.dir), before_, 'no call wrote a file');
  });
});

describe('cqlint mcp: a fix on a table a migration created (issue 38 item 3)', () => {
  let workspace: TempWorkspace;
  let client: Client;

  before(async () => {
    const fixture = path.join(projectRoot, 'test', 'fixtures', 'migrations', 'fix-cassandra-migrate', 'before');
    workspace = tempWorkspace({}, 'cqlint-mcp-migrations-');
    cpSync(fixture, workspace.dir, { recursive: true });
    client = await connectedClient(workspace.dir);
  });

  after(async () => {
    await client?.close();
    workspace?.cleanup();
  });

  test('fixes: the next migration as a new file in the diff (from /dev/null), the old ones untouched; nothing written', async () => {
    const before_ = snapshot(workspace.dir);
    const result = (await client.callTool({ name: 'fixes', arguments: { table: 'shop.events' } })) as CallToolResult;
    const { diff } = result.structuredContent as { diff: string };
    assert.match(
      diff,
      /^--- \/dev\/null\n\+\+\+ b\/migrations\/v003_events_by_minute\.cql\n@@ -0,0 \+1,\d+ @@$/m,
      diff,
    );
    assert.match(diff, /^\+CREATE TABLE shop\.events_by_minute \($/m);
    assert.match(diff, /^\+-- 3\. Copy the rows .*: dsbulk unload -k shop -t events -url \.\/events_export$/m);
    assert.doesNotMatch(diff, /^\+\+\+ b\/migrations\/v00[12]_/m, 'no applied migration is edited');
    assert.deepEqual(snapshot(workspace.dir), before_);
  });
});
