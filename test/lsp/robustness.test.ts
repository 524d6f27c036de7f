// The server keeps serving after any input, and never loses text.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Diagnostic } from 'vscode-languageserver-protocol';
import { capabilities, tempWorkspace } from '../../scripts/lsp-client';
import { startInProcessServer } from '../helpers/in-process-server';
import { corpusFiles, readText } from '../helpers/corpus';
import { mulberry32 } from '../helpers/random';

const GOOD = 'CREATE TABLE ks.users (id uuid PRIMARY KEY, name text);\n';
const codes = (diagnostics: Diagnostic[]): string[] => diagnostics.map((d) => String(d.code)).sort();

/** Bytes 0..255 repeated, decoded as Latin-1: control characters, NUL, lone high characters. */
function binaryJunk(length: number): string {
  let out = '';
  for (let i = 0; i < length; i++) out += String.fromCharCode((i * 131 + 7) % 256);
  return out + '\uD800\uDFFF\uFFFE\uD83D'; // and a lone surrogate at the end
}

describe('robustness', () => {
  test('garbage documents get diagnostics, and the server still answers afterwards', async (t) => {
    const client = startInProcessServer();
    t.after(() => client.shutdown());
    await client.initialize(capabilities.push);

    const inputs: Record<string, string> = {
      'untitled:binary': binaryJunk(5000),
      'untitled:huge-line': `SELECT ${'a, '.repeat(60_000)}b FROM ks.t WHERE id = 1;\n`,
      'untitled:long-string': `INSERT INTO ks.t (id, v) VALUES (1, '${'x'.repeat(300_000)}');\n`,
      'untitled:unterminated-dollar':
        'CREATE FUNCTION ks.f (a int) CALLED ON NULL INPUT RETURNS int LANGUAGE java AS $$ return a;\n\nSELECT * FROM ks.t;\n',
      'untitled:unterminated-quote': "SELECT * FROM ks.t WHERE id = 'abc\n",
      'untitled:unbalanced':
        '((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((;\n',
      'untitled:only-semicolons': ';'.repeat(10_000),
      'untitled:empty': '',
    };
    for (const [uri, text] of Object.entries(inputs)) await client.open(uri, text);
    for (const uri of Object.keys(inputs)) {
      const diagnostics = await client.waitForDiagnostics(uri, () => true, 60_000);
      assert.ok(Array.isArray(diagnostics), uri);
    }
    assert.ok(codes(client.lastDiagnostics('untitled:unterminated-dollar')!).includes('syntax-error'));
    assert.ok(codes(client.lastDiagnostics('untitled:binary')!).includes('syntax-error'));
    assert.deepEqual(client.lastDiagnostics('untitled:empty'), []);

    // Edits with positions past the end of the document are clamped, not rejected.
    await client.change('untitled:empty', [
      { range: { start: { line: 99, character: 5 }, end: { line: 120, character: 0 } }, text: GOOD },
    ]);
    assert.deepEqual(await client.waitForDiagnostics('untitled:empty'), []);

    // Unknown requests fail cleanly; malformed params do not take the server down.
    await assert.rejects(client.request('cqlint/doesNotExist', {}));
    await client.notify('textDocument/didChange', {
      textDocument: { uri: 'untitled:never-opened', version: 3 },
      contentChanges: [{ text: 'x' }],
    });
    await client.notify('textDocument/didOpen', { textDocument: { uri: 'untitled:bad' } });
    await client.notify('workspace/didChangeWatchedFiles', {
      changes: [
        { uri: 'not a uri', type: 2 },
        { uri: 'file:///nonexistent/x.cql', type: 1 },
      ],
    });
    await client.notify('workspace/didChangeConfiguration', { settings: 42 });
    await client
      .request('textDocument/diagnostic', { textDocument: { uri: 'untitled:never-opened' } })
      .catch(() => undefined);

    // Still serving: a fresh document gets its diagnostics.
    await client.open('untitled:after', 'CREATE TABLE ks.t (id uuid PRIMARY KEY, v text;\n');
    assert.deepEqual(codes(await client.waitForDiagnostics('untitled:after')), ['syntax-error']);
    assert.ok(client.alive);
  });

  test('a document too large to analyse keeps its text and gets one informational diagnostic', async (t) => {
    const client = startInProcessServer();
    t.after(() => client.shutdown());
    await client.initialize(capabilities.push);
    const big = `-- ${'x'.repeat(5 * 1024 * 1024)}\n`;
    await client.open('untitled:big', big);
    const diagnostics = await client.waitForDiagnostics('untitled:big', undefined, 60_000);
    assert.equal(diagnostics.length, 1);
    assert.equal(diagnostics[0]!.severity, 3);
    assert.match(String(diagnostics[0]!.message), /too large/);
    // Shrinking it brings analysis back.
    await client.change('untitled:big', 'CREATE TABLE ks.t (id uuid PRIMARY KEY, v text;\n');
    assert.deepEqual(codes(await client.waitForDiagnostics('untitled:big')), ['syntax-error']);
  });

  test('edits that make a statement too large and back: the verdict follows each edit, on the right line', async (t) => {
    const client = startInProcessServer();
    t.after(() => client.shutdown());
    const ws = tempWorkspace({});
    t.after(() => ws.cleanup());
    await client.initialize(capabilities.pull, { workspaceFolders: [ws.dir] });
    // The (empty) folder indexed: the server is past its start (it asks for the settings first).
    await client.whenIndexed();
    const uri = ws.uri('growing.cql');
    // Enough statements that the statement-size scan runs (and resumes from the last one on each edit).
    const lines = Array.from({ length: 4000 }, (_, i) => `SELECT v FROM ks.t WHERE id = ${i};`);
    await client.open(uri, `${lines.join('\n')}\n`);
    const messages = async (): Promise<string[]> =>
      ((await client.pullDiagnostics(uri)) as { items: Diagnostic[] }).items.map((d) => String(d.message));
    assert.ok(!(await messages()).some((m) => /too large/.test(m)));
    const line = (n: number, text: string) => ({
      range: { start: { line: n, character: 0 }, end: { line: n, character: lines[n]!.length } },
      text,
    });
    // Line 3000's statement grows past the limit: refused, at its line.
    const dense = `SELECT ${'a, '.repeat(60_000)}b FROM ks.t;`;
    await client.change(uri, [line(3000, dense)]);
    assert.deepEqual(await messages(), [
      'cqlint: statement at line 3001 too large to analyse (about 120007 tokens, limit 50000)',
    ]);
    // An edit far above it: still refused, and the line follows the lines added above.
    await client.change(uri, [
      {
        range: { start: { line: 10, character: 0 }, end: { line: 10, character: 0 } },
        text: 'SELECT v FROM ks.t;\nSELECT v FROM ks.t;\n',
      },
    ]);
    assert.deepEqual(await messages(), [
      'cqlint: statement at line 3003 too large to analyse (about 120007 tokens, limit 50000)',
    ]);
    // A quote opened above makes the rest one string: no large statement any more (a syntax error instead).
    await client.change(uri, [
      { range: { start: { line: 20, character: 0 }, end: { line: 20, character: 0 } }, text: "'" },
    ]);
    assert.ok(!(await messages()).some((m) => /too large/.test(m)));
    await client.change(uri, [
      { range: { start: { line: 20, character: 0 }, end: { line: 20, character: 1 } }, text: '' },
    ]);
    assert.deepEqual(await messages(), [
      'cqlint: statement at line 3003 too large to analyse (about 120007 tokens, limit 50000)',
    ]);
    // Back to its short self: analysed again.
    await client.change(uri, [
      {
        range: { start: { line: 3002, character: 0 }, end: { line: 3002, character: dense.length } },
        text: 'SELECT v FROM ks.t;',
      },
    ]);
    assert.ok(!(await messages()).some((m) => /too large/.test(m)));
  });

  test('binary and non-UTF-8 files in the workspace are skipped with a log line; the rest is analysed', async (t) => {
    const ws = tempWorkspace({
      'schema.cql': GOOD,
      'latin1.cql': Buffer.from([0x2d, 0x2d, 0x20, 0xe9, 0x74, 0xe9, 0x0a]), // "-- été" in Latin-1
      'blob.cql': Buffer.from([0x00, 0x01, 0x02, 0xff, 0x00]),
      'node_modules/dep/ignored.cql': 'SELECT nope FROM ks.users WHERE id = ?;\n',
      'q.cql': 'SELECT nope FROM ks.users WHERE id = ?;\n',
    });
    t.after(() => ws.cleanup());
    const client = startInProcessServer();
    t.after(() => client.shutdown());
    await client.initialize(capabilities.push, { workspaceFolders: [ws.dir] });
    await client.waitForLog(/skipping .*latin1\.cql: file is not valid UTF-8/);
    await client.waitForLog(/skipping .*blob\.cql: file looks binary/);
    assert.deepEqual(codes(await client.waitForDiagnostics(ws.uri('q.cql'), (d) => d.length > 0)), ['unknown-column']);
    assert.equal(client.publications(ws.uri('latin1.cql')).length, 0);
    // node_modules is not indexed: the index's own count says so (schema.cql and q.cql; the two skipped
    // files and node_modules/dep/ignored.cql are not loaded), and the publications that follow it
    // (schema.cql's among them) include none for it.
    await client.waitForLog(/indexed 2 CQL file\(s\) in/);
    await client.waitForDiagnostics(ws.uri('schema.cql'), () => true);
    assert.equal(client.publications(ws.uri('node_modules/dep/ignored.cql')).length, 0);

    // The editor decoded the Latin-1 file its own way and opens it: the server lints what it was given.
    await client.open(ws.uri('latin1.cql'), '-- été\nSELECT nope FROM ks.users WHERE id = ?;\n');
    assert.deepEqual(codes(await client.waitForDiagnostics(ws.uri('latin1.cql'))), ['unknown-column']);
  });
});

describe('editing through the server', () => {
  test('after a burst of incremental edits the diagnostics equal those of the final text opened fresh', async (t) => {
    const client = startInProcessServer();
    t.after(() => client.shutdown());
    await client.initialize(capabilities.pull);
    // Deterministic pseudo-random edits: typing, deleting, pasting and new lines.
    const random = mulberry32(20261122);
    const files = corpusFiles('killrvideo');
    const uri = 'untitled:edited';
    await client.open(uri, files.map(readText).join('\n'));
    await client.pullDiagnostics(uri);
    const positionAt = (text: string, offset: number) => {
      const before = text.slice(0, offset);
      const line = before.split('\n').length - 1;
      return { line, character: offset - (before.lastIndexOf('\n') + 1) };
    };
    for (let step = 0; step < 120; step++) {
      const text = client.text(uri)!;
      const at = Math.floor(random() * text.length);
      const roll = random();
      const length = roll < 0.3 ? 1 + Math.floor(random() * 30) : 0;
      const inserted =
        roll < 0.3
          ? ''
          : roll < 0.6
            ? 'x'
            : roll < 0.8
              ? ';\n'
              : text.slice(Math.floor(random() * text.length)).slice(0, 120);
      const range = { start: positionAt(text, at), end: positionAt(text, Math.min(text.length, at + length)) };
      await client.change(uri, [{ range, text: inserted }]);
      // Pull now and then, as an editor does while the user types.
      if (step % 10 === 9) await client.pullDiagnostics(uri);
    }
    const strip = (d: Diagnostic) => ({
      code: d.code,
      range: d.range,
      message: d.message,
      severity: d.severity,
      data: d.data,
    });
    const edited = (await client.pullDiagnostics(uri)) as { items: Diagnostic[] };
    await client.open('untitled:fresh', client.text(uri)!);
    const fresh = (await client.pullDiagnostics('untitled:fresh')) as { items: Diagnostic[] };
    assert.ok(fresh.items.length > 0, 'the edited text has findings to compare');
    assert.deepEqual(edited.items.map(strip), fresh.items.map(strip));
  });
});
