// The server reads .cqlint.json and ring files ahead, asynchronously, and answers from its caches: once
// they are warm, no request or notification makes a synchronous node:fs call (a slow or hung file system
// must not stall it). Run in-process, with node:fs's synchronous functions counted. And a change on disk,
// told by didChangeWatchedFiles, still changes the diagnostics and the hover.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { syncBuiltinESMExports } from 'node:module';
import type {
  Diagnostic,
  DocumentDiagnosticReport,
  Hover,
  InlayHint,
  MarkupContent,
} from 'vscode-languageserver-protocol';
import { capabilities, tempWorkspace } from '../../scripts/lsp-client';
import { startInProcessServer } from '../helpers/in-process-server';
import { RuleRunner } from '../../server/core/engine/rule-runner';
import { REFRESH_DEBOUNCE_MS as DIAGNOSTICS_REFRESH_MS } from '../../server/lsp/features/diagnostics';
import { REFRESH_DELAY_MS as HINTS_REFRESH_MS } from '../../server/lsp/features/inlay-hints';

type Client = ReturnType<typeof startInProcessServer>;

const SCHEMA = [
  "CREATE KEYSPACE ks WITH replication = {'class': 'NetworkTopologyStrategy', 'dc1': 2};",
  'CREATE TABLE ks.users (id int PRIMARY KEY, name text);',
  'CREATE TABLE ks.posts_by_day (publish_date date, title text, PRIMARY KEY (publish_date, title));',
  '',
].join('\n');
const QUERY = 'SELECT * FROM ks.users WHERE id = 1;\n';
const ON_KEY = { line: 0, character: QUERY.indexOf('= 1') + 2 };
// The token of int 1 (-4069959284402364209) lies in (-6e18, 0]: owned by the node holding token 0.
const ring = (owner: string) =>
  JSON.stringify({
    '10.0.0.1': { tokens: ['-6000000000000000000'], dc: 'dc1', rack: 'r1' },
    [owner]: { tokens: ['0'], dc: 'dc1', rack: 'r2' },
  });
const CONFIG = JSON.stringify({ ring: 'ring.json', rules: { 'hot-partition': 'error' } });

const SYNC_FUNCTIONS = [
  'statSync',
  'lstatSync',
  'fstatSync',
  'readFileSync',
  'openSync',
  'readSync',
  'existsSync',
  'readdirSync',
  'realpathSync',
  'accessSync',
  'opendirSync',
] as const;

/** Counts the calls of node:fs's synchronous functions while `counting` is on, with where they came from. */
function countSyncFs(t: { after(fn: () => unknown): void }) {
  const calls: string[] = [];
  const spy = { counting: false, calls };
  const target = fs as unknown as Record<string, (...args: unknown[]) => unknown>;
  for (const name of SYNC_FUNCTIONS) {
    const original = target[name];
    const counted = Object.assign(function (this: unknown, ...args: unknown[]) {
      if (spy.counting)
        calls.push(`${name}(${String(args[0])})\n${new Error().stack?.split('\n').slice(2, 8).join('\n')}`);
      return original.apply(this, args);
    }, original);
    target[name] = counted;
    t.after(() => {
      target[name] = original;
      syncBuiltinESMExports();
    });
  }
  syncBuiltinESMExports();
  return spy;
}

const withEverything = {
  ...capabilities.pull,
  textDocument: {
    ...capabilities.pull.textDocument,
    inlayHint: { dynamicRegistration: false },
    hover: { contentFormat: ['markdown' as const, 'plaintext' as const] },
    completion: { completionItem: { snippetSupport: true } },
    codeAction: { codeActionLiteralSupport: { codeActionKind: { valueSet: ['quickfix', 'refactor', 'source'] } } },
  },
  workspace: { ...capabilities.pull.workspace, inlayHint: { refreshSupport: true } },
};

async function start(t: { after(fn: () => unknown): void }) {
  const ws = tempWorkspace({
    '.cqlint.json': CONFIG,
    'ring.json': ring('10.0.0.2'),
    'schema.cql': SCHEMA,
    'q.cql': QUERY,
  });
  t.after(() => ws.cleanup());
  const client = startInProcessServer();
  t.after(() => client.shutdown());
  await client.initialize(withEverything, { workspaceFolders: [ws.dir], settings: { trace: { server: 'verbose' } } });
  await client.waitForLog(/cqlint: indexed \d+ CQL file/);
  await client.open(ws.uri('q.cql'), QUERY);
  await client.open(ws.uri('schema.cql'), SCHEMA);
  return { ws, client };
}

async function hoverText(client: Client, uri: string): Promise<string> {
  const hover = (await client.request('textDocument/hover', {
    textDocument: { uri },
    position: ON_KEY,
  })) as Hover | null;
  return hover ? (hover.contents as MarkupContent).value : '';
}

async function pulled(client: Client, uri: string): Promise<Diagnostic[]> {
  const report = (await client.pullDiagnostics(uri)) as DocumentDiagnosticReport & { items?: Diagnostic[] };
  return report.items ?? [];
}

/** Every request a document gets in an editor: hover, inlay hints, diagnostics, code actions, completion, tokenAt. */
async function answerEverything(
  client: Client,
  queryUri: string,
  schemaUri: string,
): Promise<{ hover: string; diagnostics: Diagnostic[] }> {
  const hover = await hoverText(client, queryUri);
  const hints = (await client.request('textDocument/inlayHint', {
    textDocument: { uri: queryUri },
    range: { start: { line: 0, character: 0 }, end: { line: 2, character: 0 } },
  })) as InlayHint[];
  assert.ok(hints.length > 0, 'inlay hints are answered');
  const diagnostics = await pulled(client, schemaUri);
  await pulled(client, queryUri);
  const hot = diagnostics.find((d) => d.code === 'hot-partition');
  if (hot) {
    const actions = (await client.request('textDocument/codeAction', {
      textDocument: { uri: schemaUri },
      range: hot.range,
      context: { diagnostics: [hot] },
    })) as unknown[];
    assert.ok(actions.length > 0, 'code actions are answered');
  }
  await client.request('textDocument/completion', {
    textDocument: { uri: queryUri },
    position: { line: 0, character: 14 },
  });
  await client.request('cqlint/tokenAt', { textDocument: { uri: queryUri }, position: ON_KEY });
  return { hover, diagnostics };
}

describe('the server reads files ahead, never synchronously on a request', () => {
  test('hover, inlay hints, diagnostics, code actions, completion and edits make no synchronous node:fs call', async (t) => {
    const spy = countSyncFs(t);
    const { ws, client } = await start(t);
    const queryUri = ws.uri('q.cql');
    const schemaUri = ws.uri('schema.cql');
    // Warm up: whatever loads lazily (modules, the parser's tables) loads now.
    await answerEverything(client, queryUri, schemaUri);

    spy.counting = true;
    await client.change(queryUri, `${QUERY}SELECT * FROM ks.users WHERE id = 2;\n`);
    const { hover, diagnostics } = await answerEverything(client, queryUri, schemaUri);
    spy.counting = false;

    // The answers use the .cqlint.json (hot-partition raised to an error) and its ring.
    assert.match(hover, /replicas: 10\.0\.0\.2 \(dc1\/r2\)/);
    assert.equal(diagnostics.find((d) => d.code === 'hot-partition')?.severity, 1);
    assert.deepEqual(spy.calls, []);
  });

  test('a .cqlint.json edited on disk changes the diagnostics (read asynchronously)', async (t) => {
    const spy = countSyncFs(t);
    const { ws, client } = await start(t);
    const schemaUri = ws.uri('schema.cql');
    assert.equal((await pulled(client, schemaUri)).find((d) => d.code === 'hot-partition')?.severity, 1);

    spy.counting = true;
    await writeFile(ws.path('.cqlint.json'), JSON.stringify({ ring: 'ring.json', rules: { 'hot-partition': 'off' } }));
    // The server reads it, then asks the client to pull again.
    await client.refreshesDiagnosticsAfter(() => client.filesChanged([{ uri: ws.uri('.cqlint.json'), type: 2 }]));
    const after = await pulled(client, schemaUri);
    spy.counting = false;

    assert.deepEqual(
      after.map((d) => d.code),
      [],
    );
    assert.deepEqual(spy.calls, []);
  });

  test('a ring file changed on disk changes the hover; the server watches the ring file', async (t) => {
    const spy = countSyncFs(t);
    const { ws, client } = await start(t);
    const queryUri = ws.uri('q.cql');
    assert.match(await hoverText(client, queryUri), /replicas: 10\.0\.0\.2 \(dc1\/r2\)/);
    const watching = client.registrations.some((r) => JSON.stringify(r.registerOptions).includes('ring.json'));
    assert.ok(watching, JSON.stringify(client.registrations));

    spy.counting = true;
    await writeFile(ws.path('ring.json'), ring('10.0.0.9'));
    // The server reads it, then asks the client to show the hints (which show the ring) again.
    await client.refreshesInlayHintsAfter(() => client.filesChanged([{ uri: ws.uri('ring.json'), type: 2 }]));
    const after = await hoverText(client, queryUri);
    spy.counting = false;

    assert.match(after, /replicas: 10\.0\.0\.9 \(dc1\/r2\)/);
    assert.deepEqual(spy.calls, []);
  });

  test('a ring file changed on disk refreshes the inlay hints and re-lints nothing (no rule reads the ring)', async (t) => {
    // The change's inlay hint refresh comes REFRESH_DELAY_MS after it; a diagnostics refresh it caused would
    // have come REFRESH_DEBOUNCE_MS after it, so before: the hint refresh is the event to check after.
    assert.ok(DIAGNOSTICS_REFRESH_MS < HINTS_REFRESH_MS, 'a diagnostics refresh would come before the hint refresh');
    const { ws, client } = await start(t);
    await pulled(client, ws.uri('q.cql'));
    // Rule runs, not Project.lint calls: the hover asks for the file's (kept) findings.
    const lints: string[] = [];
    const original = RuleRunner.prototype.run;
    RuleRunner.prototype.run = function (this: RuleRunner, input) {
      lints.push(input.filePath);
      return original.call(this, input);
    };
    t.after(() => {
      RuleRunner.prototype.run = original;
    });
    /** Writes the ring with `owner`, tells the server, and resolves once the hints were refreshed for it. */
    const changeRing = async (owner: string): Promise<void> => {
      await writeFile(ws.path('ring.json'), ring(owner));
      await client.refreshesInlayHintsAfter(() => client.filesChanged([{ uri: ws.uri('ring.json'), type: 2 }]));
    };
    // A first change: once its hint refresh is in, every refresh the start had pending (the index, the
    // opened documents: each debounced by at most as long) is in too, and the counts below stay put.
    await changeRing('10.0.0.8');
    assert.match(await hoverText(client, ws.uri('q.cql')), /replicas: 10\.0\.0\.8/);
    const diagnosticRefreshes = client.refreshCount;
    await changeRing('10.0.0.9');
    assert.match(await hoverText(client, ws.uri('q.cql')), /replicas: 10\.0\.0\.9/);
    assert.deepEqual(lints, [], 'no file linted again');
    assert.equal(client.refreshCount, diagnosticRefreshes, 'no workspace/diagnostic/refresh');
  });

  test('a client that cannot watch files: a .cqlint.json changed on disk applies when the document is opened again', async (t) => {
    const spy = countSyncFs(t);
    const ws = tempWorkspace({ '.cqlint.json': CONFIG, 'schema.cql': SCHEMA });
    t.after(() => ws.cleanup());
    const client = startInProcessServer();
    t.after(() => client.shutdown());
    await client.initialize(capabilities.minimal, { workspaceFolders: [ws.dir] });
    await client.waitForLog(/cqlint: indexed \d+ CQL file/);
    const uri = ws.uri('schema.cql');
    await client.open(uri, SCHEMA);
    assert.equal((await client.waitForDiagnostics(uri)).find((d) => d.code === 'hot-partition')?.severity, 1);

    spy.counting = true;
    await writeFile(ws.path('.cqlint.json'), JSON.stringify({ rules: { 'hot-partition': 'off' } }));
    await client.close(uri);
    await client.open(uri, SCHEMA);
    const reopened = await client.waitForDiagnostics(uri);
    spy.counting = false;

    assert.deepEqual(
      reopened.map((d) => d.code),
      [],
    );
    assert.deepEqual(spy.calls, []);
  });
});
