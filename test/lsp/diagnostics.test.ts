// The language server end to end, run in process, and a scripted client (scripts/lsp-client.ts).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type {
  Diagnostic,
  DocumentDiagnosticReport,
  FullDocumentDiagnosticReport,
} from 'vscode-languageserver-protocol';
import { capabilities, tempWorkspace, type LspTestClient } from '../../scripts/lsp-client';
import { startInProcessServer } from '../helpers/in-process-server';

const SCHEMA = 'CREATE TABLE ks.users (id uuid PRIMARY KEY, name text);\n';
const QUERY = 'SELECT email FROM ks.users WHERE id = ?;\n';
const HOT = 'CREATE TABLE ks.books (publish_date date, title text, author text, PRIMARY KEY (publish_date, title));\n';
const BROKEN = 'CREATE TABLE ks.t (id uuid PRIMARY KEY, v text;\n';

const codes = (diagnostics: Diagnostic[]): string[] => diagnostics.map((d) => String(d.code)).sort();
const byCode = (diagnostics: Diagnostic[], code: string): Diagnostic | undefined =>
  diagnostics.find((d) => d.code === code);
const full = (report: DocumentDiagnosticReport): FullDocumentDiagnosticReport => {
  assert.equal(report.kind, 'full', `expected a full report, got ${JSON.stringify(report)}`);
  return report as FullDocumentDiagnosticReport;
};

async function started(t: { after(fn: () => unknown): void }): Promise<LspTestClient> {
  const client = startInProcessServer();
  t.after(() => client.shutdown());
  return client;
}

describe('push diagnostics (client without pull support)', () => {
  test('publishes codes, ranges, severities, docs links and data; no diagnosticProvider advertised', async (t) => {
    const ws = tempWorkspace();
    t.after(() => ws.cleanup());
    const client = await started(t);
    const init = await client.initialize(capabilities.push, { workspaceFolders: [ws.dir] });
    assert.equal(init.capabilities.diagnosticProvider, undefined);
    assert.equal(init.serverInfo?.name, 'cqlint');

    const uri = ws.uri('books.cql');
    await client.open(uri, HOT + BROKEN);
    // While the workspace folder is indexed, the document's file-local findings may be published first
    // (syntax-error alone): the full set is the publication that has the table's findings too.
    const diagnostics = await client.waitForDiagnostics(uri, (list) => codes(list).includes('hot-partition'));
    assert.deepEqual(codes(diagnostics), ['hot-partition', 'syntax-error']);

    const hot = byCode(diagnostics, 'hot-partition')!;
    assert.equal(hot.severity, 2);
    assert.equal(hot.source, 'cqlint');
    const column = HOT.indexOf('publish_date, title)');
    assert.deepEqual(hot.range.start, { line: 0, character: column });
    assert.deepEqual(hot.range.end, { line: 0, character: column + 'publish_date'.length });
    assert.equal(hot.codeDescription?.href, 'https://github.com/cqlint/cqlint/blob/main/docs/rules/hot-partition.md');
    assert.equal((hot.data as { ruleId: string }).ruleId, 'hot-partition');
    assert.equal((hot.data as { table: string }).table, 'ks.books');

    const syntax = byCode(diagnostics, 'syntax-error')!;
    assert.equal(syntax.severity, 1);
    assert.equal(syntax.range.start.line, 1);
    assert.equal(syntax.range.start.character, BROKEN.indexOf(';'));
    assert.match(syntax.codeDescription?.href ?? '', /docs\/rules\/syntax-error\.md$/);

    // The publication carries the document version it describes.
    assert.equal(client.publications(uri).at(-1)?.version, 1);
  });

  test('incremental edits are applied and re-checked', async (t) => {
    const client = await started(t);
    await client.initialize(capabilities.push);
    const uri = 'untitled:Untitled-1';
    await client.open(uri, BROKEN);
    assert.deepEqual(codes(await client.waitForDiagnostics(uri)), ['syntax-error']);
    // Insert the missing ')' before ';' (line 0), then rename the table in a second change of the same batch.
    const semicolon = BROKEN.indexOf(';');
    await client.change(uri, [
      { range: { start: { line: 0, character: semicolon }, end: { line: 0, character: semicolon } }, text: ')' },
      { range: { start: { line: 0, character: 16 }, end: { line: 0, character: 17 } }, text: 'things' },
    ]);
    assert.equal(client.text(uri), 'CREATE TABLE ks.things (id uuid PRIMARY KEY, v text);\n');
    assert.deepEqual(await client.waitForDiagnostics(uri), []);
    assert.equal(client.publications(uri).at(-1)?.version, 2);
  });

  test('relatedInformation only when the client supports it', async (t) => {
    const ws = tempWorkspace({ 'schema.cql': SCHEMA });
    t.after(() => ws.cleanup());
    const withRelated = await started(t);
    await withRelated.initialize(capabilities.push, { workspaceFolders: [ws.dir] });
    await withRelated.open(ws.uri('q.cql'), QUERY);
    // The full set (an early report of the file-local findings may come first while the folder is indexed).
    const hasUnknown = (d: Diagnostic[]): boolean => byCode(d, 'unknown-column') !== undefined;
    const unknown = byCode(await withRelated.waitForDiagnostics(ws.uri('q.cql'), hasUnknown), 'unknown-column');
    assert.ok(unknown, 'unknown-column expected');
    assert.equal(unknown.relatedInformation?.[0]?.location.uri, ws.uri('schema.cql'));
    assert.match(unknown.relatedInformation?.[0]?.message ?? '', /defined here/);

    const without = await started(t);
    await without.initialize(capabilities.minimal, { workspaceFolders: [ws.dir] });
    await without.open(ws.uri('q.cql'), QUERY);
    const plain = byCode(await without.waitForDiagnostics(ws.uri('q.cql'), hasUnknown), 'unknown-column');
    assert.ok(plain);
    assert.equal(plain.relatedInformation, undefined);
  });

  test('workspace files on disk are published too, and closing a document reverts to the disk text', async (t) => {
    const ws = tempWorkspace({ 'schema.cql': SCHEMA, 'q.cql': QUERY });
    t.after(() => ws.cleanup());
    const client = await started(t);
    await client.initialize(capabilities.push, { workspaceFolders: [ws.dir] });
    const onDisk = await client.waitForDiagnostics(ws.uri('q.cql'), (d) => d.length > 0);
    assert.deepEqual(codes(onDisk), ['unknown-column']);

    await client.open(ws.uri('q.cql'), 'SELECT name FROM ks.users WHERE id = ?;\n');
    assert.deepEqual(await client.waitForDiagnostics(ws.uri('q.cql')), []);
    await client.close(ws.uri('q.cql'));
    assert.deepEqual(codes(await client.waitForDiagnostics(ws.uri('q.cql'), (d) => d.length > 0)), ['unknown-column']);
  });
});

describe('pull diagnostics', () => {
  test('textDocument/diagnostic answers full reports, then unchanged for the same resultId', async (t) => {
    const ws = tempWorkspace({ 'schema.cql': SCHEMA, 'other.cql': 'SELECT nope FROM ks.users WHERE id = ?;\n' });
    t.after(() => ws.cleanup());
    const client = await started(t);
    const init = await client.initialize(capabilities.pull, { workspaceFolders: [ws.dir] });
    assert.deepEqual(init.capabilities.diagnosticProvider, {
      identifier: 'cqlint',
      interFileDependencies: true,
      workspaceDiagnostics: true,
    });

    const uri = ws.uri('q.cql');
    await client.open(uri, QUERY);
    await client.whenIndexed();
    const first = full(await client.pullDiagnostics(uri));
    assert.deepEqual(codes(first.items), ['unknown-column']);
    assert.equal(first.items[0]!.range.start.character, QUERY.indexOf('email'));
    assert.ok(first.resultId);
    const again = await client.pullDiagnostics(uri, first.resultId);
    assert.equal(again.kind, 'unchanged');

    // No publishDiagnostics for pull clients.
    assert.deepEqual(client.publications(uri), []);

    // Files that are not open come through workspace/diagnostic.
    const workspace = await client.workspaceDiagnostics();
    const other = workspace.items.find((item) => item.uri === ws.uri('other.cql'));
    assert.ok(other && other.kind === 'full');
    assert.deepEqual(codes(other.items), ['unknown-column']);
    assert.equal(
      workspace.items.some((item) => item.uri === uri),
      false,
      'open documents are pulled one by one',
    );
    const unchanged = await client.workspaceDiagnostics([{ uri: other.uri, value: other.resultId! }]);
    assert.equal(unchanged.items.find((item) => item.uri === other.uri)?.kind, 'unchanged');
    // The server keeps a digest of a closed file's report, not its diagnostics: asked without the id,
    // it computes them again, and the same diagnostics keep the same result id.
    const recomputed = (await client.workspaceDiagnostics()).items.find((item) => item.uri === other.uri);
    assert.ok(recomputed && recomputed.kind === 'full');
    assert.deepEqual(recomputed.items, other.items);
    assert.equal(recomputed.resultId, other.resultId);
  });

  test('workspace/diagnostic comes in batches of partial results when the client asks for them', async (t) => {
    const files: Record<string, string> = { 'schema.cql': SCHEMA };
    for (let i = 0; i < 250; i++) files[`q${i}.cql`] = `SELECT nope${i} FROM ks.users WHERE id = ?;\n`;
    const ws = tempWorkspace(files);
    t.after(() => ws.cleanup());
    const client = await started(t);
    await client.initialize(capabilities.pull, { workspaceFolders: [ws.dir] });
    const whole = await client.workspaceDiagnostics();
    const summary = (items: { uri: string; kind: string; items?: Diagnostic[] }[]): string[] =>
      items.map((item) => `${item.uri} ${item.kind} ${codes(item.items ?? []).join(',')}`).sort();
    assert.equal(whole.items.length, 251);

    const token = 'workspace-diagnostics-1';
    const answer = (await client.connection.sendRequest('workspace/diagnostic', {
      previousResultIds: [],
      partialResultToken: token,
    })) as { items: unknown[] };
    assert.deepEqual(answer.items, [], 'with partial results the response itself is empty');
    const batches = client.progress
      .filter((p) => p.token === token)
      .map((p) => (p.value as unknown as { items: { uri: string; kind: string; items?: Diagnostic[] }[] }).items);
    assert.ok(batches.length >= 3, `250 files come in batches of at most 100, got ${batches.length} batch(es)`);
    assert.ok(batches.every((b) => b.length <= 100));
    assert.deepEqual(
      summary(batches.flat()),
      summary(whole.items as { uri: string; kind: string; items?: Diagnostic[] }[]),
    );
  });

  test('editing an open schema refreshes the queries that use it', async (t) => {
    const client = await started(t);
    await client.initialize(capabilities.pull);
    await client.open('untitled:schema', SCHEMA);
    await client.open('untitled:query', QUERY);
    const before = full(await client.pullDiagnostics('untitled:query'));
    assert.deepEqual(codes(before.items), ['unknown-column']);

    const refreshes = client.refreshCount;
    await client.change('untitled:schema', 'CREATE TABLE ks.users (id uuid PRIMARY KEY, name text, email text);\n');
    const after = full(await client.pullOnRefresh('untitled:query', before.resultId, refreshes));
    assert.deepEqual(after.items, []);
  });
});

describe('diagnostics after edits', () => {
  const hasOffsets = (value: unknown): boolean =>
    typeof value === 'object' &&
    value !== null &&
    (('start' in value && typeof (value as { start: unknown }).start === 'number') ||
      Object.values(value).some(hasOffsets));

  test('data holds no offsets; an edit moves the findings after it and changes those of its statement, as a fresh open shows', async (t) => {
    const ws = tempWorkspace();
    t.after(() => ws.cleanup());
    const client = await started(t);
    await client.initialize(capabilities.pull, { workspaceFolders: [ws.dir] });
    await client.whenIndexed();
    const sharded =
      '-- @shard shard = murmur3(title) % 16 + 1\nCREATE TABLE ks.posts (day date, shard int, title text, PRIMARY KEY ((day, shard), title));\n';
    const select = (shard: number, title: string): string =>
      `SELECT title FROM ks.posts WHERE day = '2024-05-01' AND shard = ${shard} AND title = '${title}';`;
    // Two queries on one line: an edit of the first moves the second's finding along the line.
    const uri = ws.uri('edited.cql');
    await client.open(uri, `${sharded}${HOT}${select(3, 'Dune')} ${select(4, 'Dune')}\n`);
    const before = full(await client.pullDiagnostics(uri)).items;
    assert.deepEqual(codes(before), ['hot-partition', 'shard-mismatch', 'shard-mismatch']);
    for (const d of before) assert.ok(!hasOffsets(d.data), `${String(d.code)}: ${JSON.stringify(d.data)}`);
    const edit = async (from: string, to: string): Promise<Diagnostic[]> => {
      const text = client.text(uri)!.split('\n')[3]!;
      const at = text.indexOf(from);
      await client.change(uri, [
        { range: { start: { line: 3, character: at }, end: { line: 3, character: at + from.length } }, text: to },
      ]);
      return full(await client.pullDiagnostics(uri)).items;
    };
    // The first lint of a statement keeps no findings for the next: a first edit, then the one looked at.
    await edit("title = 'Dune'", "title = 'Dunes'");
    const moved = await edit("title = 'Dunes'", "title = 'Dune Messiah'");
    const second = (items: Diagnostic[]): Diagnostic => items.filter((d) => d.code === 'shard-mismatch').at(-1)!;
    assert.equal(second(moved).range.start.character, second(before).range.start.character + ' Messiah'.length);
    const changed = await edit('shard = 3', 'shard = 5');
    await client.open(ws.uri('fresh.cql'), client.text(uri)!);
    assert.deepEqual(changed, full(await client.pullDiagnostics(ws.uri('fresh.cql'))).items);
    assert.notDeepEqual(
      changed.map((d) => d.message),
      moved.map((d) => d.message),
      'the edited value shows in its finding',
    );
  });
});

describe('cross-file', () => {
  test('push: a query is re-checked when the open schema document changes', async (t) => {
    const client = await started(t);
    await client.initialize(capabilities.push);
    await client.open('untitled:schema', SCHEMA);
    await client.open('untitled:query', QUERY);
    assert.deepEqual(codes(await client.waitForDiagnostics('untitled:query')), ['unknown-column']);
    await client.change('untitled:schema', 'CREATE TABLE ks.users (id uuid PRIMARY KEY, name text, email text);\n');
    assert.deepEqual(await client.waitForDiagnostics('untitled:query', (d) => d.length === 0), []);
    // And back: removing the column brings the error back.
    await client.change('untitled:schema', SCHEMA);
    assert.deepEqual(codes(await client.waitForDiagnostics('untitled:query', (d) => d.length > 0)), ['unknown-column']);
  });

  const dropIndex = {
    table: 'CREATE TABLE ks.people (id uuid PRIMARY KEY, name text, city text);\n',
    index: 'CREATE INDEX people_city ON ks.people (city);\n',
    query: "SELECT * FROM ks.people WHERE city = 'Lyon';\n",
    dropped: 'CREATE INDEX people_city ON ks.people (city);\nDROP INDEX ks.people_city;\n',
  };
  /** The table, its index and a query it serves, each in its own open document. */
  const openDropIndexFiles = async (client: LspTestClient): Promise<void> => {
    await client.open('untitled:tables', dropIndex.table);
    await client.open('untitled:indexes', dropIndex.index);
    await client.open('untitled:query', dropIndex.query);
  };

  test('pull: a DROP INDEX in a file of indexes re-checks the queries the index served', async (t) => {
    const client = await started(t);
    await client.initialize(capabilities.pull);
    await openDropIndexFiles(client);
    const before = full(await client.pullDiagnostics('untitled:query'));
    assert.deepEqual(codes(before.items), ['secondary-index-scan']);
    const refreshes = client.refreshCount;
    await client.change('untitled:indexes', dropIndex.dropped);
    assert.deepEqual(codes(full(await client.pullOnRefresh('untitled:query', before.resultId, refreshes)).items), [
      'unrestricted-partition-key',
    ]);
  });

  test('push: a DROP INDEX in a file of indexes re-checks the queries the index served', async (t) => {
    const client = await started(t);
    await client.initialize(capabilities.push);
    await openDropIndexFiles(client);
    assert.deepEqual(codes(await client.waitForDiagnostics('untitled:query', (d) => d.length > 0)), [
      'secondary-index-scan',
    ]);
    await client.change('untitled:indexes', dropIndex.dropped);
    assert.deepEqual(
      codes(
        await client.waitForDiagnostics('untitled:query', (d) =>
          d.some((x) => x.code === 'unrestricted-partition-key'),
        ),
      ),
      ['unrestricted-partition-key'],
    );
  });

  test('push: a schema file on disk, changed outside the editor (didChangeWatchedFiles)', async (t) => {
    const ws = tempWorkspace({ 'schema/users.cql': SCHEMA });
    t.after(() => ws.cleanup());
    const client = await started(t);
    await client.initialize(capabilities.push, { workspaceFolders: [ws.dir] });
    const registration = await client.waitForRegistration('workspace/didChangeWatchedFiles');
    const globs = (registration.registerOptions as { watchers: { globPattern: string }[] }).watchers.map(
      (w) => w.globPattern,
    );
    assert.ok(globs.includes('**/*.cql') && globs.includes('**/.cqlint.json'), globs.join(', '));

    const uri = ws.uri('queries/q.cql');
    await client.open(uri, QUERY);
    assert.deepEqual(codes(await client.waitForDiagnostics(uri, (d) => d.length > 0)), ['unknown-column']);

    ws.write('schema/users.cql', 'CREATE TABLE ks.users (id uuid PRIMARY KEY, name text, email text);\n');
    await client.filesChanged([{ uri: ws.uri('schema/users.cql'), type: 2 }]);
    assert.deepEqual(await client.waitForDiagnostics(uri, (d) => d.length === 0), []);

    // Changed back, then deleted: the error comes back, then goes (an unknown table's columns are not checked).
    ws.write('schema/users.cql', SCHEMA);
    await client.filesChanged([{ uri: ws.uri('schema/users.cql'), type: 2 }]);
    assert.deepEqual(codes(await client.waitForDiagnostics(uri, (d) => d.length > 0)), ['unknown-column']);
    ws.remove('schema/users.cql');
    await client.filesChanged([{ uri: ws.uri('schema/users.cql'), type: 3 }]);
    assert.deepEqual(await client.waitForDiagnostics(uri, (d) => d.length === 0), []);

    // A new file: created on disk, announced, loaded.
    ws.write('schema/again.cql', SCHEMA);
    await client.filesChanged([{ uri: ws.uri('schema/again.cql'), type: 1 }]);
    assert.deepEqual(codes(await client.waitForDiagnostics(uri, (d) => d.length > 0)), ['unknown-column']);
  });

  test('pull: disk changes trigger workspace/diagnostic/refresh', async (t) => {
    const ws = tempWorkspace({ 'schema.cql': SCHEMA });
    t.after(() => ws.cleanup());
    const client = await started(t);
    await client.initialize(capabilities.pull, { workspaceFolders: [ws.dir] });
    const uri = ws.uri('q.cql');
    await client.open(uri, QUERY);
    await client.whenIndexed();
    const before = full(await client.pullDiagnostics(uri));
    assert.deepEqual(codes(before.items), ['unknown-column']);
    const refreshes = client.refreshCount;
    ws.write('schema.cql', 'CREATE TABLE ks.users (id uuid PRIMARY KEY, name text, email text);\n');
    await client.filesChanged([{ uri: ws.uri('schema.cql'), type: 2 }]);
    assert.deepEqual(full(await client.pullOnRefresh(uri, before.resultId, refreshes)).items, []);
  });

  test('push: a workspace folder added later is scanned', async (t) => {
    const ws = tempWorkspace({ 'schema.cql': SCHEMA });
    t.after(() => ws.cleanup());
    const client = await started(t);
    await client.initialize(capabilities.push);
    await client.open('untitled:query', QUERY);
    assert.deepEqual(await client.waitForDiagnostics('untitled:query'), [], 'the table is unknown so far');
    await client.notify('workspace/didChangeWorkspaceFolders', {
      event: { added: [{ uri: ws.uri(''), name: 'ws' }], removed: [] },
    });
    assert.deepEqual(codes(await client.waitForDiagnostics('untitled:query', (d) => d.length > 0)), ['unknown-column']);
    await client.notify('workspace/didChangeWorkspaceFolders', {
      event: { added: [], removed: [{ uri: ws.uri(''), name: 'ws' }] },
    });
    assert.deepEqual(await client.waitForDiagnostics('untitled:query', (d) => d.length === 0), []);
  });
});

describe('headline and details', () => {
  test('the diagnostic is the headline; the hover over it shows the details as markdown with the rule page', async (t) => {
    const ws = tempWorkspace();
    t.after(() => ws.cleanup());
    const client = await started(t);
    await client.initialize(capabilities.push, { workspaceFolders: [ws.dir] });
    const uri = ws.uri('books.cql');
    await client.open(uri, HOT);
    // The publication with the table's findings (the file-local ones may go out first while the folder is indexed).
    const hot = byCode(
      await client.waitForDiagnostics(uri, (list) => byCode(list, 'hot-partition') !== undefined),
      'hot-partition',
    )!;
    assert.equal(hot.message, 'hot partition in ks.books: every write of the same publish_date goes to one partition');
    const hover = (await client.request('textDocument/hover', {
      textDocument: { uri },
      position: hot.range.start,
    })) as { contents: { kind: string; value: string } };
    assert.equal(hover.contents.kind, 'markdown');
    const value = hover.contents.value;
    assert.ok(
      value.includes(
        `**${hot.message}** · [hot-partition](https://github.com/cqlint/cqlint/blob/main/docs/rules/hot-partition.md)`,
      ),
      value,
    );
    assert.match(value, /Shard it: add a shard column to the partition key \(\(publish_date, shard\), title\)/);
    assert.match(value, /Apache Cassandra: a row ≈ \d+ B/);
    // Away from a finding, no details.
    const elsewhere = (await client.request('textDocument/hover', {
      textDocument: { uri },
      position: { line: 0, character: 2 },
    })) as { contents: { value: string } } | null;
    assert.doesNotMatch(elsewhere?.contents.value ?? '', /Shard it/);
  });
});

describe('pulled reports through a sequence of edits', () => {
  // The server keeps each diagnostic (and its encoded bytes) while its finding stands, and each document's result
  // id while its report's content holds: after every edit the client must hold what a server that never saw the
  // document answers for the same text, and be told `unchanged` exactly when that report is the one it holds.
  const START = [
    SCHEMA.trimEnd(),
    HOT.trimEnd(),
    '-- @shard shard = murmur3(title) % 16 + 1',
    'CREATE TABLE ks.posts (day date, shard int, title text, PRIMARY KEY ((day, shard), title));',
    QUERY.trimEnd(),
    `SELECT title FROM ks.posts WHERE day = '2024-05-01' AND shard = 3 AND title = 'Dune';`,
    'SELECT "émail" FROM ks.users WHERE id = ?;',
    `SELECT * FROM ks.books WHERE author = 'Zoë' ALLOW FILTERING;`,
    '',
  ].join('\n');
  /** [line, from, to]: each replaces `from` on that line (an empty `from` inserts at its start; '\n' joins the next line). */
  const EDITS: [number, string, string][] = [
    [5, "title = 'Dune'", "title = 'Dune Messiah'"], // a finding's message changes, none moves
    [0, '', '\n\n'], // everything below moves two lines down
    [7, 'shard = 3', 'shard = 5'],
    [0, '\n', ''], // and one line back up
    [7, '"émail"', '"émail", name'], // the same findings (a known column added): the client's report holds
    [7, 'WHERE id = ?', "WHERE id = ? AND name = '→'"],
    [1, 'CREATE TABLE ks.users', 'CREATE TABLE ks.users2'], // the queries on ks.users lose their table
    [1, 'ks.users2', 'ks.users'],
  ];

  test('each pull holds what a fresh server answers for the same text, unchanged exactly when that is the report held', async (t) => {
    const ws = tempWorkspace();
    t.after(() => ws.cleanup());
    const client = await started(t);
    await client.initialize(capabilities.pull, { workspaceFolders: [ws.dir] });
    await client.whenIndexed();
    const uri = ws.uri('edited.cql');
    await client.open(uri, START);
    let held = full(await client.pullDiagnostics(uri));
    const fresh = async (text: string): Promise<Diagnostic[]> => {
      const other = await started(t);
      await other.initialize(capabilities.pull, { workspaceFolders: [ws.dir] });
      await other.whenIndexed();
      await other.open(uri, text);
      const items = full(await other.pullDiagnostics(uri)).items;
      await other.shutdown();
      return items;
    };
    assert.deepEqual(held.items, await fresh(START));
    assert.ok(
      held.items.some((d) => /[^\u0000-\u007f]/.test(JSON.stringify(d.message))),
      'a message with a character past ASCII',
    );
    let unchangedCount = 0;
    for (const [line, from, to] of EDITS) {
      const text = client.text(uri)!.split('\n')[line]!;
      const at = from === '\n' ? text.length : text.indexOf(from);
      assert.ok(at >= 0, `${from} on line ${line}: ${text}`);
      const end = from === '\n' ? { line: line + 1, character: 0 } : { line, character: at + from.length };
      await client.change(uri, [{ range: { start: { line, character: at }, end }, text: to }]);
      const expected = await fresh(client.text(uri)!);
      const report = await client.pullDiagnostics(uri, held.resultId);
      const same = JSON.stringify(expected) === JSON.stringify(held.items);
      assert.equal(report.kind, same ? 'unchanged' : 'full', `after ${from} -> ${to}`);
      if (report.kind === 'unchanged') {
        unchangedCount++;
        assert.equal(report.resultId, held.resultId);
      } else {
        held = full(report);
        assert.deepEqual(held.items, expected, `after ${from} -> ${to}`);
      }
    }
    assert.ok(unchangedCount >= 1 && unchangedCount < EDITS.length, `${unchangedCount} unchanged`);
  });
});
