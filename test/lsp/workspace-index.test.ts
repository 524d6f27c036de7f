// The background index of the workspace: `initialize` answers before the folders are read, progress is
// reported, an open file waits only for the files its names need, and what happens during the index
// (opens, disk changes, deletions) leaves no stale result.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { rmSync, writeFileSync } from 'node:fs';
import type {
  Diagnostic,
  FullDocumentDiagnosticReport,
  WorkspaceDiagnosticReport,
} from 'vscode-languageserver-protocol';
import { Project } from '../../server/core/engine/project';
import { BackgroundIndex, type IndexHost } from '../../server/lsp/workspace-index';
import { capabilities, tempWorkspace, type LspTestClient } from '../../scripts/lsp-client';
import { startInProcessServer } from '../helpers/in-process-server';
import { mulberry32 } from '../helpers/random';

const SCHEMA =
  'CREATE TABLE shop.orders (customer_id uuid, order_id timeuuid, total decimal, PRIMARY KEY (customer_id, order_id));\n';
const QUERY = 'SELECT total, discount FROM shop.orders WHERE customer_id = ?;\n';
/** The query, and a statement that does not parse. */
const BROKEN_QUERY = `${QUERY}SELEC * FROM shop.orders;\n`;
/** A file that neither defines nor uses shop.orders. */
const filler = (i: number): string =>
  `CREATE TABLE misc.t${i} (id uuid PRIMARY KEY, v text);\nINSERT INTO misc.t${i} (id, v) VALUES (uuid(), 'x');\n`.repeat(
    20,
  );

function workspaceFiles(fillers: number, schemaLast = true): Record<string, string> {
  const files: Record<string, string> = {};
  if (!schemaLast) files['a/schema.cql'] = SCHEMA;
  for (let i = 0; i < fillers; i++) files[`f/${String(i).padStart(4, '0')}.cql`] = filler(i);
  if (schemaLast) files['z/schema.cql'] = SCHEMA;
  return files;
}

const codes = (diagnostics: Diagnostic[]): string[] =>
  diagnostics.map((d) => `${String(d.code)}@${d.range.start.line}:${d.range.start.character}`).sort();

async function started(t: { after(fn: () => unknown): void }): Promise<LspTestClient> {
  const client = startInProcessServer();
  t.after(() => client.shutdown());
  return client;
}

describe('background index (fake host)', () => {
  function host(texts: Map<string, string>, loadedOrder: string[]): IndexHost {
    return {
      project: new Project(),
      read: async (file) => texts.get(file),
      isOpen: () => false,
      inWorkspace: () => true,
      loaded: (file) => loadedOrder.push(file),
      progress: () => undefined,
    };
  }

  test('an open file waits for the files that spell its names, which are indexed first', async () => {
    const texts = new Map<string, string>();
    for (let i = 0; i < 60; i++) texts.set(`/ws/f${i}.cql`, filler(i));
    texts.set('/ws/z-schema.cql', SCHEMA);
    const order: string[] = [];
    const h = host(texts, order);
    h.project.setFile('/open/query.cql', QUERY);
    const index = new BackgroundIndex(h);
    const running = index.run(async () => [...texts.keys()]);
    await index.whenReady('/open/query.cql');
    // The schema, listed last, was indexed first: the only file that spells `orders`.
    assert.ok(h.project.hasFile('/ws/z-schema.cql'));
    assert.equal(order[0], '/ws/z-schema.cql');
    await running;
    assert.equal(order.length, texts.size);
    assert.ok(index.done);
  });

  test('a file forgotten during the index (changed or deleted on disk) is never loaded by it', async () => {
    const random = mulberry32(7);
    for (let round = 0; round < 20; round++) {
      const texts = new Map<string, string>();
      for (let i = 0; i < 30; i++) texts.set(`/ws/f${i}.cql`, filler(i));
      const order: string[] = [];
      const h = host(texts, order);
      const index = new BackgroundIndex(h);
      const forgotten = `/ws/f${Math.floor(random() * 30)}.cql`;
      const running = index.run(async () => [...texts.keys()]);
      // Forget at a random point of the run: before, during the reads, or during the parse.
      for (let i = Math.floor(random() * 40); i > 0; i--) await new Promise((r) => setImmediate(r));
      const alreadyIn = h.project.hasFile(forgotten);
      index.forget(forgotten);
      await running;
      if (!alreadyIn)
        assert.ok(!h.project.hasFile(forgotten), `round ${round}: ${forgotten} was loaded after it was forgotten`);
      assert.equal(order.length, alreadyIn ? 30 : 29);
    }
  });
});

describe('background index through the server', () => {
  test('initialize answers, then indexing progress begins and ends', async (t) => {
    const ws = tempWorkspace(workspaceFiles(150));
    t.after(() => ws.cleanup());
    const client = await started(t);
    await client.initialize(
      { ...capabilities.pull, window: { workDoneProgress: true } },
      { workspaceFolders: [ws.dir] },
    );
    await client.waitForProgressEnd(/cqlint: indexing/, 60_000);
    const begin = client.progress.find((p) => p.value.kind === 'begin')!;
    assert.match(begin.value.message ?? '', /^\d+\/151$/);
    const report = (await client.workspaceDiagnostics()) as WorkspaceDiagnosticReport;
    assert.equal(report.items.length, 151, 'every file is indexed');
  });

  test("an open file's diagnostics are the same whether it was opened during the index or after it", async (t) => {
    const ws = tempWorkspace(workspaceFiles(200));
    t.after(() => ws.cleanup());
    const early = await started(t);
    await early.initialize(
      { ...capabilities.pull, window: { workDoneProgress: true } },
      { workspaceFolders: [ws.dir] },
    );
    const uri = ws.uri('query.cql');
    await early.open(uri, QUERY);
    const first = (await early.pullDiagnostics(uri)) as FullDocumentDiagnosticReport;
    const doneEarly = early.progress.some((p) => p.value.kind === 'end');
    // The full set once the index is in (the first report may hold only the file-local findings).
    await early.waitForProgressEnd(/cqlint: indexing/, 60_000);
    const latest = await early.pullDiagnostics(uri, first.resultId);
    const during = latest.kind === 'full' ? latest : first;
    for (const code of codes(first.items))
      assert.ok(codes(during.items).includes(code), `${code} was shown, then withdrawn`);

    const late = await started(t);
    await late.initialize({ ...capabilities.pull, window: { workDoneProgress: true } }, { workspaceFolders: [ws.dir] });
    await late.waitForProgressEnd(/cqlint: indexing/, 60_000);
    await late.open(uri, QUERY);
    const after = (await late.pullDiagnostics(uri)) as FullDocumentDiagnosticReport;

    // The real finding (discount is not a column) and nothing else: total resolved through z/schema.cql.
    assert.deepEqual(codes(after.items), ['unknown-column@0:14']);
    assert.deepEqual(codes(during.items), codes(after.items), `opened ${doneEarly ? 'after' : 'during'} the index`);
  });

  test('pull: opened while the index runs, a file gets its file-local findings at once, then the full set on a refresh', async (t) => {
    // The schema comes last among 1,500 files: the query's unknown column can only be known at the end.
    const ws = tempWorkspace(workspaceFiles(1500));
    t.after(() => ws.cleanup());
    const client = await started(t);
    await client.initialize(
      { ...capabilities.pull, window: { workDoneProgress: true } },
      { workspaceFolders: [ws.dir] },
    );
    const uri = ws.uri('query.cql');
    await client.open(uri, BROKEN_QUERY);
    const refreshes = client.refreshCount;
    const first = (await client.pullDiagnostics(uri)) as FullDocumentDiagnosticReport;
    assert.ok(!client.progress.some((p) => p.value.kind === 'end'), 'answered before the index ended');
    assert.deepEqual(codes(first.items), ['syntax-error@1:0']);
    // When the files the query needs are in, the client is asked to pull again, and gets the rest (as VS Code
    // does, it pulls on every refresh: the end of the index asks too).
    const report = (await client.pullOnRefresh(uri, first.resultId, refreshes, 60_000)) as FullDocumentDiagnosticReport;
    assert.deepEqual(codes(report.items), ['syntax-error@1:0', 'unknown-column@0:14']);
    assert.deepEqual(
      report.items.find((d) => d.code === 'syntax-error'),
      first.items[0],
    );
  });

  test('push: opened while the index runs, a file is published with its file-local findings, then with the full set', async (t) => {
    const ws = tempWorkspace(workspaceFiles(1500));
    t.after(() => ws.cleanup());
    const client = await started(t);
    await client.initialize(
      { ...capabilities.push, window: { workDoneProgress: true } },
      { workspaceFolders: [ws.dir] },
    );
    const uri = ws.uri('query.cql');
    await client.open(uri, BROKEN_QUERY);
    const first = await client.waitForDiagnostics(uri, undefined, 60_000);
    assert.ok(!client.progress.some((p) => p.value.kind === 'end'), 'published before the index ended');
    assert.deepEqual(codes(first), ['syntax-error@1:0']);
    const final = await client.waitForDiagnostics(uri, (d) => d.length === 2, 60_000);
    assert.deepEqual(codes(final), ['syntax-error@1:0', 'unknown-column@0:14']);
    // Every report on the way held only diagnostics of the final set: nothing shown was withdrawn or changed.
    const shown = new Set(final.map((d) => JSON.stringify(d)));
    for (const publication of client.publications(uri))
      for (const d of publication.diagnostics) assert.ok(shown.has(JSON.stringify(d)), JSON.stringify(d));
  });

  test('push: the workspace files are published after the index in slices, and requests are answered meanwhile', async (t) => {
    const files = workspaceFiles(300);
    const ws = tempWorkspace(files);
    t.after(() => ws.cleanup());
    const client = await started(t);
    await client.initialize(
      { ...capabilities.push, window: { workDoneProgress: true } },
      { workspaceFolders: [ws.dir] },
    );
    const uris = Object.keys(files).map((file) => ws.uri(file));
    const published = (): number => uris.filter((uri) => client.publications(uri).length > 0).length;
    await client.waitForProgressEnd(/cqlint: indexing/, 60_000);
    // Once the re-check of the workspace has begun, a request goes in: it is answered before the last file
    // is published (a timer per file used to run all 301 lints in one go, deaf to the client meanwhile).
    await client.waitForDiagnostics(uris[0]!, undefined, 60_000);
    const symbols = await client.request('workspace/symbol', { query: 'orders' });
    const publishedWhenAnswered = published();
    assert.ok(Array.isArray(symbols));
    assert.ok(
      publishedWhenAnswered < uris.length,
      `answered after ${publishedWhenAnswered} of ${uris.length} files were published`,
    );
    for (const uri of uris) await client.waitForDiagnostics(uri, undefined, 60_000);
    assert.equal(published(), uris.length, 'every workspace file is published');
    assert.ok(
      uris.every((uri) => client.publications(uri).length === 1),
      'each file once',
    );
  });

  test('disk changes and deletions during the index leave no stale result', async (t) => {
    const ws = tempWorkspace(workspaceFiles(200, false));
    t.after(() => ws.cleanup());
    const client = await started(t);
    await client.initialize(
      { ...capabilities.pull, window: { workDoneProgress: true } },
      { workspaceFolders: [ws.dir] },
    );
    await client.waitForRegistration('workspace/didChangeWatchedFiles');
    // While the index runs: the schema gains `discount`, and a filler file is deleted.
    writeFileSync(ws.path('a/schema.cql'), SCHEMA.replace('total decimal,', 'total decimal, discount decimal,'));
    rmSync(ws.path('f/0005.cql'));
    await client.filesChanged([
      { uri: ws.uri('a/schema.cql'), type: 2 },
      { uri: ws.uri('f/0005.cql'), type: 3 },
    ]);
    await client.waitForProgressEnd(/cqlint: indexing/, 60_000);
    const uri = ws.uri('query.cql');
    await client.open(uri, QUERY);
    assert.deepEqual(((await client.pullDiagnostics(uri)) as FullDocumentDiagnosticReport).items, []);
    const report = (await client.workspaceDiagnostics()) as WorkspaceDiagnosticReport;
    const uris = report.items.map((item) => item.uri);
    assert.ok(!uris.includes(ws.uri('f/0005.cql')), 'the deleted file is not reported');
    assert.equal(uris.length, 200);
  });
});
