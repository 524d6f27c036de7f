// The partition report through the real server: a CodeLens above every CREATE TABLE / VIEW, and the
// cqlint/partitionReport request returning the page for the table named or under the cursor, following edits.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import type { CodeLens, Diagnostic, InitializeResult } from 'vscode-languageserver-protocol';
import { capabilities, tempWorkspace } from '../../scripts/lsp-client';
import { startInProcessServer } from '../helpers/in-process-server';

const SCHEMA = [
  'CREATE TABLE ks.posts_by_day (publish_date date, title text, body text, PRIMARY KEY (publish_date, title));',
  '',
  'CREATE TABLE ks.users (id uuid PRIMARY KEY, name text);',
  'CREATE MATERIALIZED VIEW ks.users_by_name AS SELECT * FROM ks.users WHERE name IS NOT NULL AND id IS NOT NULL PRIMARY KEY (name, id);',
  'SELECT * FROM ks.posts_by_day WHERE publish_date = ?;',
].join('\n');

test('CodeLens above each table and view; the report request answers the page with the same figures', async (t) => {
  const ws = tempWorkspace({
    'schema.cql': SCHEMA,
    '.cqlint.json': JSON.stringify({ tables: { 'ks.posts_by_day': { writesPerSecondPerPartition: 10 } } }),
  });
  t.after(() => ws.cleanup());
  const client = startInProcessServer();
  t.after(() => client.shutdown());
  const init = (await client.initialize(capabilities.pull, {
    workspaceFolders: [ws.dir],
    settings: { trace: { server: 'verbose' } },
  })) as InitializeResult;
  assert.ok(init.capabilities.codeLensProvider, 'codeLensProvider is advertised');
  // The workspace scan (logged at verbose trace) has read the .cqlint.json hints.
  await client.waitForLog(/cqlint: scan: /);
  const uri = ws.uri('schema.cql');
  await client.open(uri, SCHEMA);

  const lenses = (await client.request('textDocument/codeLens', { textDocument: { uri } })) as CodeLens[];
  assert.deepEqual(
    lenses.map((l) => [l.range.start.line, l.command?.title, l.command?.command, l.command?.arguments]),
    [
      [0, 'Partition report', 'cqlint.showPartitionReport', [uri, 'ks.posts_by_day']],
      [2, 'Partition report', 'cqlint.showPartitionReport', [uri, 'ks.users']],
      [3, 'Partition report', 'cqlint.showPartitionReport', [uri, 'ks.users_by_name']],
    ],
  );

  // The hover of the hot-partition finding links to the report of its table.
  const keyAt = SCHEMA.indexOf('publish_date, title)') + 2;
  const hover = (await client.request('textDocument/hover', {
    textDocument: { uri },
    position: { line: 0, character: keyAt },
  })) as { contents: { value: string } };
  const link = `command:cqlint.showPartitionReport?${encodeURIComponent(JSON.stringify([uri, 'ks.posts_by_day']))}`;
  assert.ok(hover.contents.value.includes(link), hover.contents.value);
  const noFinding = (await client.request('textDocument/hover', {
    textDocument: { uri },
    position: { line: 2, character: 15 },
  })) as { contents: { value: string } } | null;
  assert.ok(!noFinding?.contents.value.includes('command:'), 'no link where no partition rule reports');

  const named = (await client.request('cqlint/partitionReport', {
    textDocument: { uri },
    table: 'ks.posts_by_day',
  })) as { table: string; html: string };
  assert.equal(named.table, 'ks.posts_by_day');
  assert.match(named.html, /^<!DOCTYPE html>/);
  assert.match(named.html, /At 10 rows\/s into one partition \(hinted\)/);
  assert.match(named.html, /data-figure="queries"/, 'the query of the file is listed');
  // The keyspace of the table on top: its diagram and coverage, the page's links within the page.
  assert.match(named.html, /<section class="keyspace" id="keyspace-ks-1" data-keyspace="ks"/);
  assert.match(named.html, /<g class="kd-box sev-warning" data-table="ks\.posts_by_day"/);
  assert.match(named.html, /<a href="#table-ks-posts_by_day" aria-label="table ks\.posts_by_day/);
  // With the client's command, tables and queries open their source: [uri, line, character] (0-based).
  const linked = (await client.request('cqlint/partitionReport', {
    textDocument: { uri },
    table: 'ks.users',
    openSourceCommand: 'cqlint.openReportSource',
  })) as { html: string };
  const open = (line: number, character: number): string =>
    `command:cqlint.openReportSource?${encodeURIComponent(JSON.stringify([uri, line, character]))}`;
  const escaped = (text: string): string => text.replace(/&/g, '&amp;').replace(/"/g, '&quot;');
  assert.ok(
    linked.html.includes(`<a href="${escaped(open(2, 13))}" aria-label="table ks.users">`),
    'the box of ks.users opens its name',
  );
  assert.ok(linked.html.includes(`<a href="${escaped(open(4, 0))}" aria-label="Q1: SELECT`), 'Q1 opens its statement');
  assert.ok(
    linked.html.includes(`<a href="${escaped(open(2, 13))}" data-action="open-source">`),
    'the page names its file with a link to it',
  );
  assert.equal(
    (
      (await client.request('cqlint/partitionReport', {
        textDocument: { uri },
        table: 'ks.users',
        openSourceCommand: 'javascript:alert(1)',
      })) as { html: string }
    ).html.includes('javascript:'),
    false,
    'only a command name',
  );
  const atCursor = (await client.request('cqlint/partitionReport', {
    textDocument: { uri },
    position: { line: 3, character: 10 },
  })) as { table: string };
  assert.equal(atCursor.table, 'ks.users_by_name');

  // Edits show in the next answer: the key diagram follows the schema.
  const edited = SCHEMA.replace('body text,', 'body text, likes int static,');
  await client.change(uri, edited);
  const after = (await client.request('cqlint/partitionReport', {
    textDocument: { uri },
    table: 'ks.posts_by_day',
  })) as { html: string };
  assert.match(
    after.html,
    /data-column="likes"><td class="mono">likes<\/td><td class="mono">int<\/td><td class="mark"[^>]*>S</,
  );

  assert.equal(await client.request('cqlint/partitionReport', { textDocument: { uri }, table: 'ks.nope' }), null);
  assert.equal(await client.request('cqlint/partitionReport', { bogus: true }), null);
  assert.ok(client.alive);
});

const EVENTS = 'CREATE TABLE ks.events (host text, ts int, a int, b int, c int, d int, PRIMARY KEY (host, ts));\n';
/** A cqlsh COPY of ks.events with `rows` rows in partition web1 (Cassandra's values limit: 25,000 rows). */
const eventsCsv = (rows: number): string =>
  ['host,ts,a,b,c,d', ...Array.from({ length: rows }, (_, i) => `web1,${i},1,2,3,4`), 'web2,1,1,2,3,4'].join('\n');

test('configured samples are read in the background with work-done progress, and the diagnostics follow them', async (t) => {
  const ws = tempWorkspace({
    'schema.cql': EVENTS,
    'samples/events.csv': eventsCsv(25_001),
    '.cqlint.json': JSON.stringify({ samples: { 'ks.events': 'samples/events.csv' } }),
  });
  t.after(() => ws.cleanup());
  const client = startInProcessServer();
  t.after(() => client.shutdown());
  await client.initialize({ ...capabilities.push, window: { workDoneProgress: true } }, { workspaceFolders: [ws.dir] });
  const uri = ws.uri('schema.cql');
  await client.open(uri, EVENTS);
  const cites = (d: Diagnostic[]) =>
    d.some(
      (x) => x.code === 'large-partition' && /the largest in the sample holds 25,001 rows/.test(String(x.message)),
    );
  await client.waitForDiagnostics(uri, cites);
  await client.waitForProgressEnd(/cqlint: reading sample events\.csv/);

  // The CSV changes on disk: read again, and the finding goes (2 rows: far under the limits).
  ws.write('samples/events.csv', eventsCsv(2));
  await client.filesChanged([{ uri: ws.uri('samples/events.csv'), type: 2 }]);
  await client.waitForDiagnostics(uri, (d) => !d.some((x) => x.code === 'large-partition'));

  // The report reuses the summary and shows the same verdict as the diagnostics would.
  const report = (await client.request('cqlint/partitionReport', { textDocument: { uri }, table: 'ks.events' })) as {
    html: string;
  };
  assert.match(
    report.html,
    /data-figure="sample-verdict" class="">from sample samples\/events\.csv: 2 partitions, largest 2 rows/,
  );

  // Back to the large sample, then deleted: the finding comes back, then goes with the file.
  ws.write('samples/events.csv', eventsCsv(25_001));
  await client.filesChanged([{ uri: ws.uri('samples/events.csv'), type: 2 }]);
  await client.waitForDiagnostics(uri, cites);
  ws.remove('samples/events.csv');
  await client.filesChanged([{ uri: ws.uri('samples/events.csv'), type: 3 }]);
  await client.waitForDiagnostics(uri, (d) => !d.some((x) => x.code === 'large-partition'));
  assert.ok(client.alive);
});

test('a sample chosen in the report: progress on the request token, the page says diagnostics ignore it, and the edit that saves it', async (t) => {
  const config = '{\n  "target": "cassandra",\n  "rules": { "simple-strategy": "off" }\n}\n';
  const ws = tempWorkspace({ 'schema.cql': EVENTS, 'data/events.csv': eventsCsv(25_001), '.cqlint.json': config });
  t.after(() => ws.cleanup());
  const client = startInProcessServer();
  t.after(() => client.shutdown());
  await client.initialize({ ...capabilities.pull, window: { workDoneProgress: true } }, { workspaceFolders: [ws.dir] });
  const uri = ws.uri('schema.cql');
  await client.open(uri, EVENTS);
  const report = (await client.request('cqlint/partitionReport', {
    textDocument: { uri },
    table: 'ks.events',
    sample: { file: ws.path('data/events.csv') },
    workDoneToken: 'choose-1',
  })) as { html: string; chosenSample?: string };
  assert.equal(report.chosenSample, ws.path('data/events.csv'));
  assert.match(report.html, /data-figure="sample-chosen"/);
  assert.match(
    report.html,
    /from sample data\/events\.csv: 2 partitions, largest 25,001 rows \/ [\d.]+ MB \(p99 [\d,]+ rows/,
  );
  await client.waitForProgressEnd(/reading sample data\/events\.csv|reading sample events\.csv/);

  const result = (await client.request('cqlint/sampleConfigEdit', {
    textDocument: { uri },
    table: 'ks.events',
    file: ws.path('data/events.csv'),
  })) as { edit: { changes: Record<string, { newText: string; range: unknown }[]> }; config: string };
  assert.equal(result.config, ws.uri('.cqlint.json'));
  const [edit] = result.edit.changes[result.config]!;
  assert.deepEqual(edit, {
    range: { start: { line: 2, character: 39 }, end: { line: 2, character: 39 } },
    newText: ',\n  "samples": { "ks.events": "data/events.csv" }',
  });
  const outside = (await client.request('cqlint/sampleConfigEdit', {
    textDocument: { uri },
    table: 'ks.events',
    file: '/tmp/elsewhere.csv',
  })) as { error: string };
  assert.match(outside.error, /outside the workspace folder/);
});

test(
  'a bad sample (a folder, a FIFO) is logged with its reason and never blocks the server',
  { skip: process.platform === 'win32' },
  async (t) => {
    const ws = tempWorkspace({
      'schema.cql': EVENTS,
      '.cqlint.json': JSON.stringify({ samples: { 'ks.events': 'pipe.csv', events: 'x' } }),
    });
    t.after(() => ws.cleanup());
    const { spawnSync } = await import('node:child_process');
    assert.equal(spawnSync('mkfifo', [ws.path('pipe.csv')]).status, 0);
    const client = startInProcessServer();
    t.after(() => client.shutdown());
    await client.initialize(capabilities.push, { workspaceFolders: [ws.dir] });
    const uri = ws.uri('schema.cql');
    await client.open(uri, EVENTS);
    await client.waitForLog(/sample pipe\.csv of ks\.events: not a regular file \(a named pipe\)/);
    const report = (await client.request('cqlint/partitionReport', { textDocument: { uri }, table: 'ks.events' })) as {
      html: string;
    };
    assert.match(report.html, /^<!DOCTYPE html>/, 'the report is made without the sample');
    assert.ok(client.alive);
  },
);

test('the report link in a hover: a table name cannot end the link text or change where it goes', async (t) => {
  const name = 'posts) [x](http://example.invalid/a) ![i](http://example.invalid/p.png';
  const quoted = `"${name}"`;
  const text = `CREATE TABLE ks.${quoted} (publish_date date, title text, PRIMARY KEY (publish_date, title));\n`;
  const ws = tempWorkspace({ 'schema.cql': text });
  t.after(() => ws.cleanup());
  const client = startInProcessServer();
  t.after(() => client.shutdown());
  await client.initialize(capabilities.pull, { workspaceFolders: [ws.dir] });
  const uri = ws.uri('schema.cql');
  await client.open(uri, text);
  const hover = (await client.request('textDocument/hover', {
    textDocument: { uri },
    position: { line: 0, character: text.indexOf('publish_date,') + 2 },
  })) as { contents: { value: string } };
  const markdown = hover.contents.value;
  // One link: escaped text, then a target that runs to the one closing parenthesis, holding the whole name.
  const link = /\[Partition report of ((?:\\.|[^\]\\])*)\]\((command:cqlint\.showPartitionReport\?[^)\s]*)\)/.exec(
    markdown,
  );
  assert.ok(link, markdown);
  assert.doesNotMatch(link[1]!, /(?<!\\)[[\]]/, 'brackets in the name are escaped');
  const args = JSON.parse(decodeURIComponent(link[2]!.slice('command:cqlint.showPartitionReport?'.length))) as string[];
  assert.deepEqual(args, [uri, `ks.${name}`], 'the command gets the table, whatever its name');
});
