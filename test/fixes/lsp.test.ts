// Quick fixes end to end through the language server (scripts/lsp-client.ts plays a VS Code-like client):
// textDocument/codeAction on the diagnostics the server reported, the edits applied the way the client
// applies them, then the document is re-linted and the finding must be gone.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type {
  ClientCapabilities,
  CodeAction,
  Diagnostic,
  DocumentDiagnosticReport,
  InitializeResult,
  TextDocumentEdit,
  TextEdit,
  WorkspaceEdit,
} from 'vscode-languageserver-protocol';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { filesBelow } from './workspace';
import { capabilities, tempWorkspace, type LspTestClient } from '../../scripts/lsp-client';
import { startInProcessServer } from '../helpers/in-process-server';

// What VS Code 1.9x sends: pull diagnostics, code action literals, versioned workspace edits.
const VSCODE_LIKE: ClientCapabilities = {
  ...capabilities.pull,
  textDocument: {
    ...capabilities.pull.textDocument,
    codeAction: {
      dynamicRegistration: true,
      isPreferredSupport: true,
      disabledSupport: true,
      dataSupport: true,
      honorsChangeAnnotations: true,
      resolveSupport: { properties: ['edit'] },
      codeActionLiteralSupport: {
        codeActionKind: {
          valueSet: [
            '',
            'quickfix',
            'refactor',
            'refactor.extract',
            'refactor.inline',
            'refactor.rewrite',
            'source',
            'source.organizeImports',
          ],
        },
      },
    },
  },
  workspace: { ...capabilities.pull.workspace, workspaceEdit: { documentChanges: true } },
};

const HOT = [
  'CREATE TABLE books_by_date (',
  '  publish_date date,',
  '  isbn text,',
  '  title text,',
  '  PRIMARY KEY (publish_date)',
  ');',
  '',
].join('\n');

const BOOKS =
  'CREATE TABLE ks.books (\n    publish_date date,\n    title text,\n    author text,\n    PRIMARY KEY (publish_date, title)\n);\n';
const READINGS =
  'CREATE TABLE ks.readings (\n  sensor_id uuid,\n  reading_time timestamp,\n  value double,\n  PRIMARY KEY (sensor_id, reading_time)\n);\n';
const SHARDED =
  '-- @shard shard = murmur3(title) % 16 + 1\nCREATE TABLE ks.books (publish_date date, shard int, title text, author text, PRIMARY KEY ((publish_date, shard), title));\n';

interface Session {
  client: LspTestClient;
  init: InitializeResult;
}

async function session(
  t: { after(fn: () => unknown): void },
  options: Parameters<LspTestClient['initialize']>[1] = {},
  caps = VSCODE_LIKE,
): Promise<Session> {
  const client = startInProcessServer();
  t.after(() => client.shutdown());
  const init = await client.initialize(caps, options);
  // Until `initialized` is handled (settings fetched, workspace scanned) the server's diagnostics cache
  // is only reset by the scan event, which also asks pull clients to refresh: wait for that.
  if (caps.textDocument?.diagnostic) await client.waitForRefresh(0);
  // A document opened while the folders are indexed shows its file-local findings first: wait for the index.
  if (caps.textDocument?.diagnostic && options.workspaceFolders?.length) await client.whenIndexed();
  return { client, init };
}

async function diagnostics(client: LspTestClient, uri: string): Promise<Diagnostic[]> {
  const report = (await client.pullDiagnostics(uri)) as DocumentDiagnosticReport & { items?: Diagnostic[] };
  assert.equal(report.kind, 'full');
  return report.items ?? [];
}

async function diagnostic(client: LspTestClient, uri: string, ruleId: string): Promise<Diagnostic> {
  const found = (await diagnostics(client, uri)).find((d) => d.code === ruleId);
  assert.ok(found, `no ${ruleId} diagnostic`);
  return found;
}

/** textDocument/codeAction the way VS Code asks for the light bulb on a diagnostic. */
async function codeActions(
  client: LspTestClient,
  uri: string,
  diag: Diagnostic,
  only?: string[],
): Promise<CodeAction[]> {
  const result = await client.request('textDocument/codeAction', {
    textDocument: { uri },
    range: diag.range,
    context: { diagnostics: [diag], triggerKind: 1, ...(only ? { only } : {}) },
  });
  const actions = (result ?? []) as CodeAction[];
  // Resolved one by one, as VS Code resolves the action the user picks.
  return Promise.all(actions.map((a) => resolved(client, a)));
}

/** The action with its edit: resolved (codeAction/resolve) when it came without one, as VS Code does for the chosen action. */
async function resolved(client: LspTestClient, action: CodeAction): Promise<CodeAction> {
  if (action.edit) return action;
  assert.ok(action.data, `${action.title}: no edit and no data to resolve it`);
  return (await client.request('codeAction/resolve', action)) as CodeAction;
}

/** Applies a workspace edit to the harness's copy of the document and sends it as a change. */
async function applyEdit(client: LspTestClient, uri: string, edit: WorkspaceEdit | undefined): Promise<string> {
  assert.ok(edit, 'the action has no edit');
  let edits: TextEdit[];
  if (edit.documentChanges) {
    assert.equal(edit.documentChanges.length, 1);
    const change = edit.documentChanges[0] as TextDocumentEdit;
    assert.equal(change.textDocument.uri, uri);
    assert.equal(change.textDocument.version, version(client, uri), 'the edit is for the current version');
    edits = change.edits as TextEdit[];
  } else {
    edits = edit.changes?.[uri] ?? [];
  }
  const text = client.text(uri)!;
  const next = TextDocument.applyEdits(TextDocument.create(uri, 'cql', 0, text), edits);
  await client.change(uri, next);
  return next;
}

const versions = new WeakMap<LspTestClient, Map<string, number>>();
function version(client: LspTestClient, uri: string): number {
  return versions.get(client)?.get(uri) ?? 1;
}
async function open(client: LspTestClient, uri: string, text: string): Promise<void> {
  await client.open(uri, text);
  const map = versions.get(client) ?? new Map<string, number>();
  map.set(uri, 1);
  versions.set(client, map);
}
async function change(client: LspTestClient, uri: string, edit: WorkspaceEdit | undefined): Promise<string> {
  const next = await applyEdit(client, uri, edit);
  versions.get(client)!.set(uri, version(client, uri) + 1);
  return next;
}

const titles = (actions: CodeAction[]): string[] => actions.map((a) => a.title);
/**
 * The fixes for HOT: one row per day that every new book overwrites, so isbn becomes a clustering column
 * and the shard is computed from it (no statement on the table).
 */
const HOT_FIXES = (n: number) => [
  `Add isbn as a clustering column, and a calculated shard column from isbn (${n} shards)`,
  `Add isbn as a clustering column, and a random shard column (${n} shards)`,
  `Create a copy of books_by_date: books_by_date_sharded, isbn as a clustering column, and a calculated shard column from isbn (${n} shards)`,
];
const codes = (list: Diagnostic[]): string[] => list.map((d) => String(d.code));

describe('textDocument/codeAction through the server', () => {
  test('advertises quickfix and source.fixAll.cqlint to clients with code action literals, and nothing to others', async (t) => {
    const { init } = await session(t);
    assert.deepEqual(init.capabilities.codeActionProvider, {
      codeActionKinds: ['quickfix', 'source.fixAll.cqlint'],
      resolveProvider: true,
    });
    const eager = await session(
      t,
      {},
      {
        ...VSCODE_LIKE,
        textDocument: {
          ...VSCODE_LIKE.textDocument,
          codeAction: { ...VSCODE_LIKE.textDocument!.codeAction, resolveSupport: undefined },
        },
      },
    );
    assert.deepEqual(eager.init.capabilities.codeActionProvider, {
      codeActionKinds: ['quickfix', 'source.fixAll.cqlint'],
      resolveProvider: false,
    });
    const plain = await session(t, {}, capabilities.push);
    assert.equal(plain.init.capabilities.codeActionProvider, undefined);
  });

  test('hot partition: the shard fix, tied to the diagnostic, clears it', async (t) => {
    const { client } = await session(t);
    const uri = 'untitled:hot';
    await open(client, uri, HOT);
    const diag = await diagnostic(client, uri, 'hot-partition');
    assert.ok(diag.data, 'the diagnostic carries the finding data');
    const actions = await codeActions(client, uri, diag);
    assert.deepEqual(titles(actions), HOT_FIXES(2));
    for (const action of actions) {
      assert.equal(action.kind, 'quickfix');
      assert.deepEqual(action.diagnostics, [diag], 'the action links the diagnostic the client sent');
    }
    const fixed = await change(client, uri, actions[0]!.edit);
    assert.match(fixed, /PRIMARY KEY \(\(publish_date, shard\), isbn\)/);
    assert.match(fixed, /^-- @shard shard = murmur3\(isbn\) % 2 \+ 1\n/);
    const after = codes(await diagnostics(client, uri));
    assert.ok(
      !after.includes('hot-partition') && !after.includes('syntax-error'),
      `after the fix: ${after.join(', ')}`,
    );
    assert.deepEqual(await codeActions(client, uri, diag), [], 'nothing left to fix there');
  });

  test("the order of the shard fixes follows the workspace's reads, and the fix rewrites the reads in their files", async (t) => {
    const cases = [
      {
        queries: "SELECT author FROM ks.books WHERE publish_date = '2024-05-01' AND title = 'Dune';\n",
        first: /^Add a calculated shard column from title \(2 shards\); rewrites 1 statement in 2 files$/,
        read: /^SELECT author FROM ks\.books WHERE publish_date = '2024-05-01' AND title = 'Dune' AND shard = [12];\n$/,
      },
      {
        queries: "SELECT title FROM ks.books WHERE publish_date = '2024-05-01';\n",
        first: /^Add a random shard column \(2 shards\); rewrites 1 statement in 2 files$/,
        read: /^-- reads both shards: merge the rows\nSELECT title FROM ks\.books WHERE publish_date = '2024-05-01' AND shard IN \(1, 2\);\n$/,
      },
    ];
    for (const { queries, first, read } of cases) {
      const ws = tempWorkspace({ 'books.cql': BOOKS, 'queries.cql': queries });
      t.after(() => ws.cleanup());
      const { client } = await session(t, { workspaceFolders: [ws.dir] });
      const uri = ws.uri('books.cql');
      await open(client, uri, BOOKS);
      const actions = await codeActions(client, uri, await diagnostic(client, uri, 'hot-partition'));
      assert.match(actions[0]?.title ?? '', first, titles(actions).join('\n'));
      assert.equal(actions[0]?.isPreferred, true);
      assert.ok(
        actions.slice(1).every((a) => !a.isPreferred),
        'one preferred fix',
      );
      // The statement in the other (closed) file is rewritten in the same workspace edit.
      const changes = actions[0]!.edit!.documentChanges as TextDocumentEdit[];
      assert.deepEqual(
        changes.map((c) => [c.textDocument.uri, c.textDocument.version]),
        [
          [uri, 1],
          [ws.uri('queries.cql'), null],
        ],
      );
      assert.match(
        TextDocument.applyEdits(
          TextDocument.create(ws.uri('queries.cql'), 'cql', 0, queries),
          changes[1]!.edits as TextEdit[],
        ),
        read,
      );
    }
  });

  test('another file the editor holds open gets its version in the edit of a partition fix, not null', async (t) => {
    const queries = "SELECT author FROM ks.books WHERE publish_date = '2024-05-01' AND title = 'Dune';\n";
    const ws = tempWorkspace({ 'books.cql': BOOKS, 'queries.cql': queries });
    t.after(() => ws.cleanup());
    const { client } = await session(t, { workspaceFolders: [ws.dir] });
    const uri = ws.uri('books.cql');
    await open(client, uri, BOOKS);
    const other = ws.uri('queries.cql');
    await open(client, other, queries);
    await client.notify('textDocument/didChange', {
      textDocument: { uri: other, version: 2 },
      contentChanges: [{ text: `${queries}-- a note\n` }],
    });
    const actions = await codeActions(client, uri, await diagnostic(client, uri, 'hot-partition'));
    const changes = actions[0]!.edit!.documentChanges as TextDocumentEdit[];
    assert.deepEqual(
      changes.map((c) => [c.textDocument.uri, c.textDocument.version]),
      [
        [uri, 1],
        [other, 2],
      ],
      'the open document with its version, not null',
    );
    assert.match(
      TextDocument.applyEdits(
        TextDocument.create(other, 'cql', 2, `${queries}-- a note\n`),
        changes[1]!.edits as TextEdit[],
      ),
      /AND shard = [12];\n-- a note\n$/,
    );
  });

  test('a table a migration created: a client that creates files gets CreateFile and the new migration; one that cannot, no such fix', async (t) => {
    const fixture = join(__dirname, '..', 'fixtures', 'migrations', 'fix-cassandra-migrate');
    const ws = tempWorkspace(Object.fromEntries(filesBelow(join(fixture, 'before'))));
    t.after(() => ws.cleanup());
    const created = 'migrations/v003_events_by_minute.cql';
    const expected = readFileSync(join(fixture, 'after', created), 'utf8');
    const creating: ClientCapabilities = {
      ...VSCODE_LIKE,
      workspace: {
        ...VSCODE_LIKE.workspace,
        workspaceEdit: { documentChanges: true, resourceOperations: ['create', 'rename', 'delete'] },
      },
    };
    for (const caps of [creating, VSCODE_LIKE]) {
      const { client } = await session(t, { workspaceFolders: [ws.dir] }, caps);
      const uri = ws.uri('migrations/v001_create.cql');
      await open(client, uri, readFileSync(ws.path('migrations/v001_create.cql'), 'utf8'));
      const actions = await codeActions(client, uri, await diagnostic(client, uri, 'unbounded-partition'));
      const touched = actions.flatMap((a) =>
        (a.edit?.documentChanges ?? []).map((c) => ('kind' in c ? c.kind : c.textDocument.uri)),
      );
      assert.ok(!touched.includes(uri), 'no action edits the applied migration');
      const migrations = actions.filter((a) => a.title.startsWith('Create migration v003_events_by_minute.cql'));
      if (caps === VSCODE_LIKE) {
        assert.deepEqual(titles(migrations), [], 'a client that cannot create files is not offered them');
        continue;
      }
      assert.deepEqual(
        migrations.map((a) => a.isPreferred ?? false),
        [true, false],
      );
      const changes = migrations[0]!.edit!.documentChanges!;
      assert.deepEqual(changes.slice(-2), [
        { kind: 'create', uri: ws.uri(created), options: { overwrite: false, ignoreIfExists: false } },
        {
          textDocument: { uri: ws.uri(created), version: null },
          edits: [{ range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, newText: expected }],
        },
      ]);
      assert.deepEqual(
        (changes.slice(0, -2) as TextDocumentEdit[]).map((c) => c.textDocument.uri),
        [ws.uri('queries.cql')],
        'the statements outside the folder move; v002 (applied) is left as it is',
      );
      // The copy alone: the new file only.
      assert.equal(migrations[1]!.edit!.documentChanges!.length, 2);
    }
  });

  test('a client that resolves edits gets the partition fixes without their edits, and each edit on codeAction/resolve', async (t) => {
    const ws = tempWorkspace({
      'books.cql': BOOKS,
      'queries.cql': "SELECT title FROM ks.books WHERE publish_date = '2024-05-01';\n",
    });
    t.after(() => ws.cleanup());
    const { client } = await session(t, { workspaceFolders: [ws.dir] });
    const uri = ws.uri('books.cql');
    await open(client, uri, BOOKS);
    const diag = await diagnostic(client, uri, 'hot-partition');
    const raw = (await client.request('textDocument/codeAction', {
      textDocument: { uri },
      range: diag.range,
      context: { diagnostics: [diag], triggerKind: 1 },
    })) as CodeAction[];
    assert.ok(raw.length >= 2);
    for (const action of raw) {
      assert.equal(action.edit, undefined, `${action.title}: the edit waits for resolve`);
      const full = (await client.request('codeAction/resolve', action)) as CodeAction;
      assert.equal(full.title, action.title);
      assert.ok((full.edit?.documentChanges?.length ?? 0) >= 1, `${action.title}: resolved with its edit`);
    }
    const first = (await client.request('codeAction/resolve', raw[0])) as CodeAction;
    assert.deepEqual(
      (first.edit!.documentChanges as TextDocumentEdit[]).map((c) => c.textDocument.uri),
      [uri, ws.uri('queries.cql')],
    );
  });

  test('asked while the workspace is still indexed, a partition fix waits for the index: its edit covers every file', async (t) => {
    const files: Record<string, string> = { 'books.cql': BOOKS };
    for (let i = 0; i < 120; i++)
      files[`queries/q${String(i).padStart(3, '0')}.cql`] =
        `SELECT author FROM ks.books WHERE publish_date = '2024-05-01' AND title = 'Book ${i}';\n`;
    const ws = tempWorkspace(files);
    t.after(() => ws.cleanup());
    const client = startInProcessServer();
    t.after(() => client.shutdown());
    await client.initialize(VSCODE_LIKE, { workspaceFolders: [ws.dir] });
    const uri = ws.uri('books.cql');
    await open(client, uri, BOOKS);
    // No wait for the index: the request is sent at once, as a light bulb may be.
    const range = { start: { line: 4, character: 17 }, end: { line: 4, character: 29 } };
    const raw = (await client.request('textDocument/codeAction', {
      textDocument: { uri },
      range,
      context: { diagnostics: [], only: ['quickfix'] },
    })) as CodeAction[];
    const first = await resolved(
      client,
      raw.find((a) => a.isPreferred)!,
    );
    assert.match(first.title, /rewrites 120 statements in 121 files/);
    assert.equal((first.edit!.documentChanges as TextDocumentEdit[]).length, 121);
  });

  test('the cqlint.shardCount setting sizes the shards when the workload is not stated', async (t) => {
    const { client } = await session(t, { settings: { shardCount: 8 } });
    await open(client, 'untitled:hot', HOT);
    const actions = await codeActions(
      client,
      'untitled:hot',
      await diagnostic(client, 'untitled:hot', 'hot-partition'),
    );
    assert.deepEqual(titles(actions), HOT_FIXES(8));
  });

  test('the shard count follows the workload hints of .cqlint.json over the setting, also with partition-throughput off', async (t) => {
    // Keyspaces: 3,000 one-WCU writes/s on a 1,000 WCU partition, with 1.5x headroom: ceil(4.5) = 5 shards.
    const hints = { target: 'keyspaces', tables: { 'ks.books': { writesPerSecondPerPartition: 3000 } } };
    for (const rules of [{}, { 'partition-throughput': 'off' }]) {
      const ws = tempWorkspace({ '.cqlint.json': JSON.stringify({ ...hints, rules }), 'books.cql': BOOKS });
      t.after(() => ws.cleanup());
      const { client } = await session(t, { workspaceFolders: [ws.dir], settings: { shardCount: 8 } });
      const uri = ws.uri('books.cql');
      await open(client, uri, BOOKS);
      const found = await diagnostics(client, uri);
      assert.equal(
        found.some((d) => d.code === 'partition-throughput'),
        Object.keys(rules).length === 0,
      );
      const actions = await codeActions(
        client,
        uri,
        found.find((d) => d.code === 'hot-partition')!,
      );
      assert.deepEqual(titles(actions), [
        'Add a calculated shard column from title (5 shards)',
        'Add a random shard column (5 shards)',
        'Create a copy of ks.books: ks.books_sharded, a calculated shard column from title (5 shards)',
      ]);
      const fixed = await change(client, uri, actions[0].edit);
      assert.match(fixed, /^-- @shard shard = murmur3\(title\) % 5 \+ 1\n/);
      assert.ok(!codes(await diagnostics(client, uri)).includes('hot-partition'));
    }
  });

  test('unbounded partition: a time bucket, monthly at the stated default rate, by the minute for 1,000 rows/s, with shards for 5,000, and it clears the warning', async (t) => {
    const cases = [
      // The rule's stated default for a sensor stream, 1 row/min: a month is ~44,000 rows, under 100,000 values.
      { config: {}, preferred: /^Add a time bucket month text \(monthly partitions by reading_time\)$/ },
      // 1,000 rows/s: an hour is 3.6 million rows, far past 100,000 values, a minute 60,000: a minute bucket.
      {
        config: { tables: { 'ks.readings': { writesPerSecondPerPartition: 1000 } } },
        preferred: /^Add a time bucket minute timestamp \(minute-by-minute partitions by reading_time\)$/,
      },
      // 5,000 rows/s (a -- @cqlint rate the fix divides by the shards): not even a minute fits: a minute bucket and shards.
      {
        config: {},
        hint: '-- @cqlint rate=5000/s\n',
        preferred:
          /^Add a random shard column \(\d+ shards\) and a time bucket minute timestamp \(minute-by-minute partitions by reading_time\)$/,
      },
    ];
    for (const { config, preferred, hint } of cases) {
      const text = `${hint ?? ''}${READINGS}`;
      const ws = tempWorkspace({ '.cqlint.json': JSON.stringify(config), 'readings.cql': text });
      t.after(() => ws.cleanup());
      const { client } = await session(t, { workspaceFolders: [ws.dir] });
      const uri = ws.uri('readings.cql');
      await open(client, uri, text);
      const actions = await codeActions(client, uri, await diagnostic(client, uri, 'unbounded-partition'));
      const chosen = actions.filter((a) => a.isPreferred);
      assert.equal(chosen.length, 1, titles(actions).join(' | '));
      assert.match(chosen[0]!.title, preferred);
      await change(client, uri, chosen[0]!.edit);
      assert.ok(!codes(await diagnostics(client, uri)).includes('unbounded-partition'));
    }
  });

  test('unknown column: the rename is preferred and clears the error', async (t) => {
    const { client } = await session(t);
    const uri = 'untitled:q';
    await open(client, uri, `${BOOKS}SELECT autor FROM ks.books WHERE publish_date = '2024-01-01';\n`);
    const actions = await codeActions(client, uri, await diagnostic(client, uri, 'unknown-column'));
    assert.deepEqual(
      actions.map((a) => [a.title, a.isPreferred]),
      [['Change to author', true]],
    );
    const fixed = await change(client, uri, actions[0].edit);
    assert.ok(fixed.includes('SELECT author FROM ks.books'));
    assert.ok(!codes(await diagnostics(client, uri)).includes('unknown-column'));
  });

  test('unrestricted partition key on a sharded table: read every shard, or the computed shard', async (t) => {
    const { client } = await session(t);
    const uri = 'untitled:sharded';
    await open(
      client,
      uri,
      `${SHARDED}SELECT title FROM ks.books WHERE publish_date = '2024-05-01';\nSELECT author FROM ks.books WHERE publish_date = '2024-05-01' AND title = 'Dune';\n`,
    );
    const found = (await diagnostics(client, uri)).filter((d) => d.code === 'unrestricted-partition-key');
    assert.equal(found.length, 2);
    const readAll = await codeActions(client, uri, found[0]);
    assert.equal(readAll[0].title, 'Read all 16 shards: run once per shard (1..16) and merge client-side');
    assert.equal(readAll[0].isPreferred, true);
    const computed = await codeActions(client, uri, found[1]);
    assert.match(computed[0].title, /^Add shard = \d+ \(murmur3\(title\) % 16 \+ 1\)$/);
    await change(client, uri, readAll[0].edit);
    const left = (await diagnostics(client, uri)).filter((d) => d.code === 'unrestricted-partition-key');
    assert.equal(left.length, 1, 'the other SELECT still lacks its shard');
    await change(client, uri, (await codeActions(client, uri, left[0]))[0].edit);
    assert.deepEqual(
      (await diagnostics(client, uri)).filter((d) => d.code === 'unrestricted-partition-key'),
      [],
    );
  });

  test("shard mismatch: the wrong literal becomes the formula's value and the error clears", async (t) => {
    const { client } = await session(t);
    const uri = 'untitled:mismatch';
    await open(
      client,
      uri,
      `${SHARDED}SELECT author FROM ks.books WHERE publish_date = '2024-05-01' AND shard = 3 AND title = 'Dune';\n`,
    );
    const diag = await diagnostic(client, uri, 'shard-mismatch');
    const actions = await codeActions(client, uri, diag);
    const expected = (diag.data as { expected?: number }).expected;
    assert.equal(typeof expected, 'number');
    assert.deepEqual(
      actions.map((a) => [a.title, a.isPreferred]),
      [[`Change shard to ${expected}`, true]],
    );
    const fixed = await change(client, uri, actions[0].edit);
    assert.ok(fixed.includes(`AND shard = ${expected} AND title = 'Dune'`), fixed);
    assert.ok(!codes(await diagnostics(client, uri)).includes('shard-mismatch'));
  });

  test('source.fixAll.cqlint applies only what needs no choice, and a second run changes nothing', async (t) => {
    const { client } = await session(t);
    const uri = 'untitled:messy';
    const messy =
      `${SHARDED}${BOOKS.replace('ks.books', 'ks.plain')}SELECT autor FROM ks.plain WHERE publish_date = '2024-01-01';\n` +
      "INSERT INTO ks.books (publish_date, title, autor) VALUES ('2024-05-01', 'Dune', 'Frank Herbert');\n";
    await open(client, uri, messy);
    const before = await diagnostics(client, uri);
    const whole = { range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, diagnostics: [] };
    const ask = (only?: string[]) =>
      client.request('textDocument/codeAction', {
        textDocument: { uri },
        range: whole.range,
        context: { diagnostics: [], triggerKind: 2, ...(only ? { only } : {}) },
      }) as Promise<CodeAction[]>;
    assert.ok(!(await ask()).some((a) => a.kind === 'source.fixAll.cqlint'), 'not in the light bulb');
    assert.deepEqual(await ask(['quickfix']), []);
    for (const only of [['source.fixAll'], ['source'], ['source.fixAll.cqlint']]) {
      assert.deepEqual(
        (await ask(only)).map((a) => [a.title, a.kind]),
        [['Fix all auto-fixable cqlint problems', 'source.fixAll.cqlint']],
        only.join(),
      );
    }
    const [fixAll] = await ask(['source.fixAll']);
    const fixed = await change(client, uri, fixAll.edit);
    assert.ok(fixed.includes('SELECT author FROM ks.plain'), fixed);
    assert.match(
      fixed,
      /INSERT INTO ks\.books \(publish_date, title, author, shard\) VALUES \('2024-05-01', 'Dune', 'Frank Herbert', \d+\);/,
    );
    assert.ok(fixed.includes('PRIMARY KEY (publish_date, title)'), 'the hot partition is a choice: left alone');
    const after = codes(await diagnostics(client, uri));
    assert.ok(!after.includes('unknown-column') && !after.includes('incomplete-key-write'), after.join(', '));
    assert.ok(after.includes('hot-partition') && codes(before).includes('hot-partition'));
    assert.deepEqual(await ask(['source.fixAll']), [], 'idempotent: nothing left for a second run');
  });

  test('no actions for a document the server does not know', async (t) => {
    const { client } = await session(t);
    const answer = await client.request('textDocument/codeAction', {
      textDocument: { uri: 'untitled:never-opened' },
      range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
      context: { diagnostics: [] },
    });
    assert.deepEqual(answer, []);
  });

  test('diagnostics the client sends back incomplete (no range, as Neovim 0.7 can) still get the fixes', async (t) => {
    const { client } = await session(t);
    await open(client, 'untitled:hot', HOT);
    const diag = await diagnostic(client, 'untitled:hot', 'hot-partition');
    const line = { start: { line: 4, character: 0 }, end: { line: 4, character: 30 } };
    for (const sent of [[{ code: diag.code, data: diag.data }], [null], [{ code: diag.code, range: {} }]]) {
      const actions = (await client.request('textDocument/codeAction', {
        textDocument: { uri: 'untitled:hot' },
        range: line,
        context: { diagnostics: sent },
      })) as CodeAction[];
      assert.deepEqual(titles(actions), HOT_FIXES(2), JSON.stringify(sent));
      assert.deepEqual(actions[0].diagnostics?.[0].range, diag.range, 'a full diagnostic is attached');
    }
  });
});
