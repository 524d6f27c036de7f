// Attacks on the BUILT language server (node bin/cqlint-language-server.js --stdio, as editors run it):
// dense documents, broken framing, repeated initialize, cancelled queued requests, huge varint literals
// and markdown in names. Each case checks that the server still answers a normal request afterwards (or,
// after a framing error, that it exits non-zero so the client restarts it) and, where it can be measured,
// that its memory stays bounded. Not timed: the timeouts are generous and only catch hangs.
//
// CQLINT_SERVER_JS=<path to a server.js bundle> runs the suite against another build (e.g. an old one).
import { describe, test, before } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import type { ClientCapabilities, Diagnostic, Hover, InlayHint } from 'vscode-languageserver-protocol';
import {
  capabilities,
  projectRoot,
  startServerCommand,
  tempWorkspace,
  type SpawnedLspClient,
} from '../../scripts/lsp-client';
import { outsideCodeSpans } from '../helpers/markdown';

const serverJs = process.env.CQLINT_SERVER_JS ?? path.join(projectRoot, 'bin', 'cqlint-language-server.js');
const SLOW_MS = 120_000;
/** Peak resident memory the server may reach in any of these cases (it idles at ~100 MB). */
const MAX_PEAK_RSS_KB = 1024 * 1024;

const withInlayHints: ClientCapabilities = {
  ...capabilities.pull,
  textDocument: {
    ...capabilities.pull.textDocument,
    inlayHint: { dynamicRegistration: false },
    hover: { contentFormat: ['markdown'] },
  },
};

function start(): SpawnedLspClient {
  return startServerCommand(process.execPath, [serverJs, '--stdio']);
}

/** Peak resident set size of a live process (VmHWM), in kB; undefined where /proc is not available. */
function peakRssKb(pid: number | undefined): number | undefined {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const match = /VmHWM:\s+(\d+) kB/.exec(status);
    return match ? Number(match[1]) : undefined;
  } catch {
    return undefined;
  }
}

function assertMemoryBounded(client: SpawnedLspClient): void {
  const peak = peakRssKb(client.process.pid);
  if (peak !== undefined) assert.ok(peak < MAX_PEAK_RSS_KB, `peak RSS ${Math.round(peak / 1024)} MB`);
}

function exitCode(client: SpawnedLspClient, timeoutMs: number): Promise<number | null> {
  const child = client.process;
  if (child.exitCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the server did not exit within ${timeoutMs} ms`)), timeoutMs);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve(code);
    });
  });
}

/** The server still works: a fresh document gets its syntax error. */
async function assertStillServing(client: SpawnedLspClient, uri = 'untitled:still-serving'): Promise<void> {
  await client.open(uri, 'CREATE TABLE ks.alive (id uuid PRIMARY KEY, v text;\n');
  const report = (await client.pullDiagnostics(uri)) as { items: Diagnostic[] };
  assert.deepEqual(
    report.items.map((d) => d.code),
    ['syntax-error'],
  );
}

function frame(message: object, lengthError = 0): Buffer {
  const body = Buffer.from(JSON.stringify(message), 'utf8');
  return Buffer.concat([Buffer.from(`Content-Length: ${body.length + lengthError}\r\n\r\n`, 'ascii'), body]);
}

/** A 3 MB document that is one SELECT of 1,000,000 items. */
const DENSE = `CREATE TABLE ks.t (id int PRIMARY KEY, a int, b int);\nSELECT ${'a, '.repeat(1_000_000)}b FROM ks.t WHERE id = 1;\n`;

describe('robustness of the built server', () => {
  before(() => {
    if (process.env.CQLINT_SERVER_JS || existsSync(path.join(projectRoot, 'dist', 'server.js'))) return;
    const build = spawnSync(process.execPath, ['scripts/build.mjs'], { cwd: projectRoot, encoding: 'utf8' });
    assert.equal(build.status, 0, `npm run build failed:\n${build.stderr}`);
  });

  test(
    'a dense 3 MB statement: every feature answers, the user is told why, memory stays bounded',
    { timeout: SLOW_MS * 3 },
    async (t) => {
      const client = start();
      t.after(() => client.shutdown());
      await client.initialize(withInlayHints);
      const uri = 'untitled:dense';
      await client.open(uri, DENSE);
      const textDocument = { textDocument: { uri } };
      const whole = { start: { line: 0, character: 0 }, end: { line: 2, character: 0 } };

      const report = (await client.pullDiagnostics(uri)) as { items: Diagnostic[] };
      assert.equal(report.items.length, 1);
      assert.match(String(report.items[0]!.message), /statement at line 2 too large to analyse/);
      await client.waitForLog(/dense.*not analysed/);
      // Formatting leaves the text alone rather than dying; the others answer empty.
      assert.deepEqual(
        await client.request('textDocument/formatting', {
          ...textDocument,
          options: { tabSize: 4, insertSpaces: true },
        }),
        [],
      );
      assert.deepEqual(
        await client.request('textDocument/rangeFormatting', {
          ...textDocument,
          range: whole,
          options: { tabSize: 4, insertSpaces: true },
        }),
        [],
      );
      assert.deepEqual(await client.request('textDocument/semanticTokens/full', textDocument), { data: [] });
      assert.deepEqual(await client.request('textDocument/foldingRange', textDocument), []);
      assert.equal(
        await client.request('textDocument/hover', { ...textDocument, position: { line: 1, character: 10 } }),
        null,
      );
      assert.deepEqual((await client.request('textDocument/inlayHint', { ...textDocument, range: whole })) ?? [], []);

      await assertStillServing(client);
      assertMemoryBounded(client);
    },
  );

  test(
    'a dense statement behind lone-CR line ends, in an open document and in a closed workspace file: not analysed, memory bounded',
    { timeout: SLOW_MS * 3 },
    async (t) => {
      const crDense = `-- a comment the guard must end at CR, as the lexer does\r${DENSE.replace(/\n/g, '\r')}`;
      // Closed: under the 2 MiB the workspace index reads, so only the statement guard can keep it out.
      const ws = tempWorkspace({
        'closed.cql': `-- x\r${DENSE.slice(0, 1_900_000)} FROM ks.t;\r`,
        'ok.cql': 'CREATE TABLE ks.ok (id int PRIMARY KEY);\n',
      });
      t.after(() => ws.cleanup());
      const client = start();
      t.after(() => client.shutdown());
      await client.initialize(capabilities.pull, { workspaceFolders: [ws.dir] });
      await client.waitForLog(/skipping .*closed\.cql: statement at line 3 too large to analyse/);
      const uri = 'untitled:cr-dense';
      await client.open(uri, crDense);
      const report = (await client.pullDiagnostics(uri)) as { items: Diagnostic[] };
      assert.equal(report.items.length, 1);
      assert.match(String(report.items[0]!.message), /statement at line 3 too large to analyse/);
      assert.equal(
        await client.request('textDocument/hover', { textDocument: { uri }, position: { line: 2, character: 10 } }),
        null,
      );
      await assertStillServing(client);
      assertMemoryBounded(client);
    },
  );

  test('a dense statement in a push client: one informational diagnostic', { timeout: SLOW_MS }, async (t) => {
    const client = start();
    t.after(() => client.shutdown());
    await client.initialize(capabilities.push);
    await client.open('untitled:dense', DENSE);
    const diagnostics = await client.waitForDiagnostics('untitled:dense', undefined, SLOW_MS);
    assert.equal(diagnostics.length, 1);
    assert.equal(diagnostics[0]!.severity, 3);
    await client.open('untitled:after', 'CREATE TABLE ks.t (id uuid PRIMARY KEY, v text;\n');
    assert.deepEqual(
      (await client.waitForDiagnostics('untitled:after')).map((d) => d.code),
      ['syntax-error'],
    );
    assertMemoryBounded(client);
  });

  test(
    'a large ordinary document: formatting, semantic tokens and folding answer partially and say so once',
    { timeout: SLOW_MS },
    async (t) => {
      const client = start();
      t.after(() => client.shutdown());
      await client.initialize(capabilities.pull);
      let text = 'CREATE TABLE ks.t (id int, ts timestamp, a text, PRIMARY KEY ((id), ts));\n';
      for (let i = 0; text.length < 700_000; i++)
        text += `insert into ks.t (id, ts, a) values (${i}, '2024-01-01', 'row ${i}');\n`;
      const uri = 'untitled:large';
      await client.open(uri, text);
      const textDocument = { textDocument: { uri } };
      const lineCount = text.split('\n').length - 1;

      const edits = (await client.request('textDocument/formatting', {
        ...textDocument,
        options: { tabSize: 4, insertSpaces: true },
      })) as { newText: string }[];
      assert.equal(edits.length, 1);
      // The start is formatted (upper-case keywords), the rest is left exactly as it was.
      assert.match(edits[0]!.newText, /^CREATE TABLE[\s\S]*\nINSERT INTO ks\.t/);
      assert.ok(edits[0]!.newText.endsWith(text.slice(text.lastIndexOf('insert into'))), 'the tail is kept as is');
      await client.waitForLog(/formatting: formatted before line \d+ only/);

      const tokens = (await client.request('textDocument/semanticTokens/full', textDocument)) as { data: number[] };
      let line = 0;
      for (let i = 0; i < tokens.data.length; i += 5) line += tokens.data[i]!;
      assert.ok(tokens.data.length > 0 && line < lineCount - 1, `highlighted up to line ${line} of ${lineCount}`);
      await client.waitForLog(/semanticTokens: highlighted before line \d+ only/);

      // A range far down the document is still highlighted: the budget counts the range, not what is before it.
      const far = (await client.request('textDocument/semanticTokens/range', {
        ...textDocument,
        range: { start: { line: lineCount - 3, character: 0 }, end: { line: lineCount - 1, character: 0 } },
      })) as { data: number[] };
      assert.equal(far.data[0], lineCount - 3);

      await assertStillServing(client);
      assertMemoryBounded(client);
    },
  );

  test(
    'a bad command line (a port that is no number, an unknown option, two transports): one line and the usage, exit 2, no stack trace',
    { timeout: SLOW_MS },
    () => {
      const cases: [string[], RegExp][] = [
        [['--socket=abc'], /^cqlint-language-server: --socket expects a port number from 1 to 65535, got "abc"\n/],
        [['--socket', '70000'], /--socket expects a port number from 1 to 65535, got "70000"/],
        [['--pipe='], /--pipe expects a value/],
        [['--clientProcessId=me', '--stdio'], /--clientProcessId expects a process id, got "me"/],
        [['--stdio', '--node-ipc'], /--node-ipc: only one transport can be given/],
        [['--verbose'], /unknown option "--verbose"/],
      ];
      for (const [args, message] of cases) {
        const run = spawnSync(process.execPath, [serverJs, ...args], { encoding: 'utf8', input: '', timeout: SLOW_MS });
        assert.equal(run.status, 2, `${args.join(' ')}: ${run.stderr}`);
        assert.match(run.stderr, message);
        assert.match(run.stderr, /\nUsage: cqlint-language-server \[--stdio/);
        assert.doesNotMatch(run.stderr, /\n\s+at |Error \[ERR_/);
      }
      const help = spawnSync(process.execPath, [serverJs, '--help'], { encoding: 'utf8', input: '' });
      assert.deepEqual([help.status, help.stdout.startsWith('Usage: cqlint-language-server')], [0, true]);
    },
  );

  test(
    'a Content-Length 10 bytes short ends the server with a log line and a non-zero exit',
    { timeout: SLOW_MS },
    async (t) => {
      const client = start();
      t.after(() => client.shutdown());
      await client.initialize(capabilities.pull);
      const hover = {
        jsonrpc: '2.0',
        id: 9001,
        method: 'textDocument/hover',
        params: { textDocument: { uri: 'untitled:x' }, position: { line: 0, character: 0 } },
      };
      client.process.stdin.write(frame(hover, -10));
      client.process.stdin.write(frame({ ...hover, id: 9002 }));
      const code = await exitCode(client, 30_000);
      assert.notEqual(code, 0);
      assert.match(client.stderr, /protocol error/);
    },
  );

  test('an unparsable header ends the server the same way', { timeout: SLOW_MS }, async (t) => {
    const client = start();
    t.after(() => client.shutdown());
    await client.initialize(capabilities.pull);
    client.process.stdin.write('Content-Length: ten\r\n\r\n{}');
    assert.notEqual(await exitCode(client, 30_000), 0);
    assert.match(client.stderr, /protocol error/);
  });

  test(
    'well-framed but unusable messages (a body that is not JSON, a JSON value that is no message, $/cancelRequest without an id) cost only themselves',
    { timeout: SLOW_MS },
    async (t) => {
      const client = start();
      t.after(() => client.shutdown());
      await client.initialize(capabilities.pull);
      const raw = (body: string): Buffer =>
        Buffer.concat([
          Buffer.from(`Content-Length: ${Buffer.byteLength(body)}\r\n\r\n`, 'ascii'),
          Buffer.from(body, 'utf8'),
        ]);
      client.process.stdin.write(
        Buffer.concat([
          raw('{"jsonrpc": "2.0", "id": 7, "method": "textDocument/hover", '),
          raw('null'),
          raw('[1, 2]'),
          raw('42'),
          raw('{"jsonrpc": "2.0", "method": "$/cancelRequest", "params": {"id": null}}'),
          raw('{"jsonrpc": "2.0", "method": "$/cancelRequest"}'),
          raw('{"jsonrpc": "2.0", "method": "$/cancelRequest", "params": [1]}'),
          raw('{"jsonrpc": "2.0", "method": "$/cancelRequest", "params": null}'),
        ]),
      );
      await client.waitForLog(/ignored a message body that is not JSON/);
      await client.waitForLog(/ignored \$\/cancelRequest without a request id/);
      await assertStillServing(client);
      assert.equal(client.alive, true);
    },
  );

  test(
    'initialize with workspaceFolders [null]: the bad entry is skipped and the server serves',
    { timeout: SLOW_MS },
    async (t) => {
      const client = start();
      t.after(() => client.shutdown());
      const result = (await client.request('initialize', {
        processId: process.pid,
        rootUri: null,
        workspaceFolders: [null, { uri: 7 }],
        capabilities: capabilities.pull,
      })) as { capabilities: { hoverProvider?: unknown } };
      assert.ok(result.capabilities.hoverProvider, 'the features registered');
      await client.notify('initialized', {});
      await assertStillServing(client);
    },
  );

  test(
    'cqlint/sampleConfigEdit on a .cqlint.json nested 400,000 levels deep: an answer, never a stack trace',
    { timeout: SLOW_MS },
    async (t) => {
      const ws = tempWorkspace({ 'schema.cql': 'CREATE TABLE ks.t (id int PRIMARY KEY);\n', 'samples/t.csv': '1\n' });
      t.after(() => ws.cleanup());
      const client = start();
      t.after(() => client.shutdown());
      await client.initialize(capabilities.pull, { workspaceFolders: [ws.dir] });
      const textDocument = { uri: ws.uri('schema.cql') };
      for (const config of [`{"x": ${'['.repeat(400_000)}${']'.repeat(400_000)}}`, `{"x": ${'['.repeat(400_000)}}`]) {
        ws.write('.cqlint.json', config);
        const answer = (await client.request('cqlint/sampleConfigEdit', {
          textDocument,
          table: 'ks.t',
          file: ws.path('samples/t.csv'),
        })) as { edit?: unknown; error?: string };
        assert.ok(
          answer.edit !== undefined || /not valid JSON at offset \d+$/.test(answer.error ?? ''),
          JSON.stringify(answer).slice(0, 300),
        );
        assert.doesNotMatch(JSON.stringify(answer), /\n\s+at |RangeError|stack/);
      }
      await assertStillServing(client);
    },
  );

  test(
    'initialize five times: the 2nd..5th get InvalidRequest and a change publishes its diagnostics once',
    { timeout: SLOW_MS },
    async (t) => {
      const client = start();
      t.after(() => client.shutdown());
      await client.initialize(capabilities.push);
      const params = { processId: process.pid, rootUri: null, capabilities: capabilities.push };
      for (let i = 2; i <= 5; i++) {
        await assert.rejects(
          client.request('initialize', params),
          (error: { code?: number }) => error.code === -32600,
          `initialize #${i}`,
        );
        await client.notify('initialized', {});
      }
      const uri = 'untitled:once';
      await client.open(uri, 'CREATE TABLE ks.t (id uuid PRIMARY KEY, v text;\n');
      await client.waitForDiagnostics(uri);
      // Observable barrier: a later document's diagnostics arrive after any duplicate of the first's.
      await client.open('untitled:barrier', 'SELECT * FROM ks.t;\n');
      await client.waitForDiagnostics('untitled:barrier');
      assert.equal(client.publications(uri).filter((p) => p.version === 1).length, 1);
      assert.equal(client.publications('untitled:barrier').length, 1);
    },
  );

  test(
    'requests cancelled while queued behind a long one answer RequestCancelled and do not run',
    { timeout: SLOW_MS },
    async (t) => {
      const client = start();
      t.after(() => client.shutdown());
      // Verbose trace: each code action request that runs writes a log line, so "did not run" is observable.
      await client.initialize(capabilities.pull, { settings: { trace: { server: 'verbose' } } });
      let text = 'CREATE TABLE ks.t (id int, ts timestamp, a text, PRIMARY KEY ((id), ts));\n';
      for (let i = 0; i < 2500; i++) text += `insert into ks.t (id, ts, a) values (${i}, '2024-01-01', 'row ${i}');\n`;
      await client.open('untitled:long', text);
      await client.open('untitled:queued', 'SELECT * FROM ks.t WHERE a = 1;\n');
      await client.pullDiagnostics('untitled:long');

      const codeAction = (uri: string) => ({
        textDocument: { uri },
        range: { start: { line: 0, character: 0 }, end: { line: 0, character: 5 } },
        context: { diagnostics: [] },
      });
      const long = client.request('textDocument/formatting', {
        textDocument: { uri: 'untitled:long' },
        options: { tabSize: 4, insertSpaces: true },
      });
      // The queued requests and their cancellations arrive together (one write), as they do when the client
      // sent them while the server was busy; raw, with ids of our own, so their answers are read off stdout.
      const ids = [9101, 9102, 9103, 9104, 9105];
      const requests = ids.map((id) =>
        frame({ jsonrpc: '2.0', id, method: 'textDocument/codeAction', params: codeAction('untitled:queued') }),
      );
      const cancels = ids.map((id) => frame({ jsonrpc: '2.0', method: '$/cancelRequest', params: { id } }));
      const answers = answersOnStdout(client, ids, SLOW_MS);
      client.process.stdin.write(Buffer.concat([...requests, ...cancels]));
      for (const [id, answer] of await answers)
        assert.equal(
          (answer.error as { code?: number } | undefined)?.code,
          -32800,
          `request ${id}: ${JSON.stringify(answer)}`,
        );
      await long;
      // Barrier: a request that does run logs its line; the cancelled ones never logged theirs before it.
      await client.request('textDocument/codeAction', codeAction('untitled:long'));
      await client.waitForLog(/codeAction untitled:long/);
      assert.deepEqual(
        client.logs.filter((line) => /codeAction untitled:queued/.test(line)),
        [],
      );
      await assertStillServing(client);
    },
  );

  test(
    'a 600 kB varint partition key: inlay hints and hover answer, the literal is refused by name',
    { timeout: SLOW_MS },
    async (t) => {
      const client = start();
      t.after(() => client.shutdown());
      await client.initialize(withInlayHints);
      const uri = 'untitled:varint';
      const digits = '7'.repeat(600_000);
      await client.open(
        uri,
        `CREATE TABLE ks.v (k varint PRIMARY KEY, x int);\nINSERT INTO ks.v (k, x) VALUES (${digits}, 1);\n`,
      );
      const hints = (await client.request('textDocument/inlayHint', {
        textDocument: { uri },
        range: { start: { line: 0, character: 0 }, end: { line: 2, character: 0 } },
      })) as InlayHint[] | null;
      assert.ok(Array.isArray(hints ?? []));
      const hover = (await client.request('textDocument/hover', {
        textDocument: { uri },
        position: { line: 1, character: 40 },
      })) as Hover | null;
      const markdown = (hover?.contents as { value?: string } | undefined)?.value ?? '';
      assert.match(markdown, /varint literal of 600000 digits .*too long to compute a token/);
      await assertStillServing(client);
      assertMemoryBounded(client);
    },
  );

  test('markdown in a column name stays text in the hover', { timeout: SLOW_MS }, async (t) => {
    const client = start();
    t.after(() => client.shutdown());
    await client.initialize(withInlayHints);
    const uri = 'untitled:names';
    const name = 'x`| ![i](http://example.invalid/p.png) [l](http://example.invalid) <b>';
    const quoted = `"${name}"`;
    await client.open(
      uri,
      `CREATE TABLE ks.m (id int PRIMARY KEY, ${quoted} text);\nSELECT ${quoted} FROM ks.m WHERE id = 1;\n`,
    );
    const markdownAt = async (line: number, character: number): Promise<string> => {
      const hover = (await client.request('textDocument/hover', {
        textDocument: { uri },
        position: { line, character },
      })) as Hover | null;
      return (hover?.contents as { value?: string } | undefined)?.value ?? '';
    };
    for (const markdown of [await markdownAt(0, 16) /* the table */, await markdownAt(1, 9) /* the column */]) {
      assert.ok(markdown.length > 0);
      const prose = outsideCodeSpans(markdown);
      // Outside code spans the name may show as escaped text, never as a link, an image or HTML.
      assert.doesNotMatch(
        prose,
        /(?<!\\)\]\(http:\/\/example|(?<!\\)<b>/,
        `markup from the name escaped its code span:\n${markdown}`,
      );
      // Table rows keep their cells: a pipe in the name does not add one (GFM splits on unescaped pipes).
      const cells = (row: string): number => row.split(/(?<!\\)\|/).length;
      let header: string | undefined;
      for (const line of markdown.split('\n')) {
        if (!line.startsWith('|'))
          header = undefined; // a table ends at the first line that is not a row
        else if (header === undefined) header = line;
        else assert.equal(cells(line), cells(header), line);
      }
    }
    await assertStillServing(client);
  });
});

/** The responses with these ids, read off the server's stdout (the harness connection ignores ids it did not send). */
function answersOnStdout(
  client: SpawnedLspClient,
  ids: number[],
  timeoutMs: number,
): Promise<Map<number, Record<string, unknown>>> {
  return new Promise((resolve, reject) => {
    let seen = '';
    const found = new Map<number, Record<string, unknown>>();
    const timer = setTimeout(() => {
      client.process.stdout.off('data', onData);
      reject(new Error(`answers for ${ids.filter((id) => !found.has(id)).join(', ')} did not arrive`));
    }, timeoutMs);
    const onData = (chunk: Buffer): void => {
      seen += chunk.toString('utf8');
      // Each message body is one JSON object after a blank line; ours are small and contain no blank line.
      for (const body of seen.split('\r\n\r\n')) {
        const end = body.indexOf('Content-Length:');
        const json = end < 0 ? body : body.slice(0, end);
        if (!json.startsWith('{')) continue;
        try {
          const message = JSON.parse(json) as Record<string, unknown>;
          if (typeof message.id === 'number' && ids.includes(message.id) && !('method' in message))
            found.set(message.id, message);
        } catch {
          // an incomplete body: the rest comes with the next chunk
        }
      }
      if (found.size === ids.length) {
        clearTimeout(timer);
        client.process.stdout.off('data', onData);
        resolve(found);
      }
    };
    client.process.stdout.on('data', onData);
  });
}
