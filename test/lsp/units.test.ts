// The server's pure parts: conversions, settings parsing, the handler guard, file decoding.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { offsetAt, pathToUri, toRange, uriToPath } from '../../server/lsp/conversions';
import { parseSettings, DEFAULT_SETTINGS } from '../../server/lsp/settings';
import { CORE_OWNED_REGISTRATIONS, guardConnection, safeHandler } from '../../server/lsp/safe';
import { decodeText, findCqlFiles } from '../../server/core/io/files';
import { createStages, findingToDiagnostic } from '../../server/lsp/features/diagnostics';
import type { FilesChangedEvent } from '../../server/lsp/context';
import { mergeCapabilities } from '../../server/lsp/session';
import { tempWorkspace } from '../../scripts/lsp-client';
import { LineIndex } from '../../grammar/line-index';
import { messageBytes, messageEncoder } from '../../server/lsp/message-encoder';

describe('conversions', () => {
  test('SourceRange (1-based) <-> LSP Range (0-based)', () => {
    const range = toRange({ start: { offset: 5, line: 2, column: 3 }, end: { offset: 9, line: 2, column: 7 } });
    assert.deepEqual(range, { start: { line: 1, character: 2 }, end: { line: 1, character: 6 } });
  });

  test('positions and offsets over \\n, \\r\\n and \\r line ends, clamped', () => {
    const text = 'ab\r\ncd\reé\nlast';
    assert.equal(offsetAt(text, { line: 1, character: 1 }), 5);
    assert.equal(offsetAt(text, { line: 2, character: 2 }), 9);
    assert.equal(offsetAt(text, { line: 0, character: 99 }), 2, 'clamped to the end of the line, before \\r\\n');
    assert.equal(offsetAt(text, { line: 99, character: 0 }), text.length);
    // The engine's LineIndex agrees with LSP's positions.
    const lines = new LineIndex(text);
    assert.deepEqual(lines.location(5), { offset: 5, line: 2, column: 2 });
    assert.deepEqual(lines.location(10), { offset: 10, line: 4, column: 1 });
    assert.deepEqual(lines.location(offsetAt(text, { line: 3, character: 4 })), { offset: 14, line: 4, column: 5 });
    // Astral characters count as two UTF-16 units on both sides.
    assert.deepEqual(new LineIndex('😀x').location(2), { offset: 2, line: 1, column: 3 });
  });

  test('file URIs <-> paths; other schemes are their own key', () => {
    assert.equal(uriToPath('file:///tmp/a%20b/c.cql'), '/tmp/a b/c.cql');
    assert.equal(pathToUri('/tmp/a b/c.cql'), 'file:///tmp/a%20b/c.cql');
    assert.equal(uriToPath('untitled:Untitled-1'), 'untitled:Untitled-1');
    assert.equal(pathToUri('untitled:Untitled-1'), 'untitled:Untitled-1');
  });
});

describe('settings', () => {
  test('defaults when nothing is sent', () => {
    assert.deepEqual(parseSettings(undefined), {
      ...DEFAULT_SETTINGS,
      rules: {},
      inlayHints: { tokens: true, shards: true },
      trace: { server: 'off' },
    });
  });

  test('nested and dotted forms, levels normalised, bad values reported and ignored', () => {
    const problems: string[] = [];
    const settings = parseSettings(
      {
        target: 'ScyllaDB',
        rules: { 'hot-partition': 'error', 'unbounded-partition': 0, 'unknown-column': 'loud' },
        shardCount: 0,
        'inlayHints.tokens': false,
        inlayHints: { shards: 'yes' },
        ringFile: '/etc/ring.json',
        trace: { server: 'verbose' },
      },
      problems,
    );
    assert.equal(settings.target, 'scylladb');
    assert.deepEqual(settings.rules, { 'hot-partition': 'error', 'unbounded-partition': 'off' });
    assert.equal(settings.shardCount, undefined, 'a bad value leaves the shards sized from the workload');
    assert.deepEqual(settings.inlayHints, { tokens: false, shards: true });
    assert.equal(settings.ringFile, '/etc/ring.json');
    assert.equal(settings.trace.server, 'verbose');
    assert.equal(problems.length, 3, problems.join('\n'));
    assert.equal(settings.targetOverride, 'scylladb');
    assert.deepEqual(
      [parseSettings({ target: 'auto' }).targetOverride, parseSettings({ target: 'auto' }).target],
      [undefined, 'cassandra'],
    );
    assert.equal(parseSettings({ target: null }).targetOverride, undefined);
    assert.match(problems.join('\n'), /unknown-column.*"loud"/);
    assert.match(problems.join('\n'), /shardCount: 0 .*sizing shards from the workload/);
    assert.match(problems.join('\n'), /inlayHints\.shards/);
  });
});

describe('handler guard', () => {
  test('a throwing or rejecting handler is logged and answers its fallback', async () => {
    const errors: string[] = [];
    const sync = safeHandler(
      (m) => errors.push(m),
      'hover',
      () => {
        throw new Error('boom');
      },
      null,
    );
    const asyncHandler = safeHandler(
      (m) => errors.push(m),
      'completion',
      async () => Promise.reject(new Error('later')),
      [],
    );
    assert.equal(await sync(), null);
    assert.deepEqual(await asyncHandler(), []);
    assert.equal(errors.length, 2);
    assert.match(errors[0]!, /hover failed: Error: boom/);
  });

  test('guardConnection wraps handlers at any depth and leaves other members alone', async () => {
    const registered: Record<string, (...args: unknown[]) => unknown> = {};
    const fake = {
      onHover(handler: (...args: unknown[]) => unknown) {
        registered.hover = handler;
      },
      onRequest(method: string, handler: (...args: unknown[]) => unknown) {
        registered[method] = handler;
      },
      languages: {
        inlayHint: {
          on(handler: (...args: unknown[]) => unknown) {
            registered.inlay = handler;
          },
        },
      },
      sendDiagnostics: (value: number) => value * 2,
    };
    const errors: string[] = [];
    const guarded = guardConnection(fake, (m) => errors.push(m));
    guarded.onHover(() => {
      throw new Error('hover bug');
    });
    guarded.onRequest('cqlint/tokenAt', (params: unknown) => ({ echo: params }));
    guarded.languages.inlayHint.on(() => {
      throw new TypeError('inlay bug');
    });
    assert.equal(await registered.hover!(), null);
    assert.deepEqual(await registered['cqlint/tokenAt']!(1), { echo: 1 });
    assert.equal(await registered.inlay!(), null);
    assert.equal(guarded.sendDiagnostics(21), 42);
    assert.equal(errors.length, 2);
    assert.match(errors[1]!, /connection\.languages\.inlayHint\.on failed: TypeError: inlay bug/);
  });

  test('features cannot take over the registrations the core owns', () => {
    let replaced = false;
    const fake = {
      onDidChangeWatchedFiles: () => {
        replaced = true;
      },
      onHover: () => undefined,
    };
    const guarded = guardConnection(fake, () => undefined, { reserved: CORE_OWNED_REGISTRATIONS });
    assert.throws(() => guarded.onDidChangeWatchedFiles(), /owned by the server core/);
    assert.equal(replaced, false);
    assert.doesNotThrow(() => guarded.onHover());
  });
});

describe('files', () => {
  test('decodeText accepts UTF-8 (dropping a BOM and saying so) and refuses binary, UTF-16 and invalid UTF-8', () => {
    assert.deepEqual(decodeText(Buffer.from('\uFEFFSELECT 1;', 'utf8')), { ok: true, text: 'SELECT 1;', bom: true });
    assert.deepEqual(decodeText(Buffer.from('SELECT 1;', 'utf8')), { ok: true, text: 'SELECT 1;', bom: false });
    assert.equal((decodeText(Buffer.from([0x41, 0x00, 0x42])) as { reason: string }).reason, 'binary');
    assert.equal((decodeText(Buffer.from([0xff, 0xfe, 0x41, 0x00])) as { reason: string }).reason, 'encoding');
    assert.equal((decodeText(Buffer.from([0x41, 0xe9, 0x42])) as { reason: string }).reason, 'encoding');
  });

  test('findCqlFiles walks folders, skips node_modules and .git, honours the cap', async () => {
    const ws = tempWorkspace({
      'a.cql': '',
      'b/c.cqlsh': '',
      'b/d.txt': '',
      'node_modules/x.cql': '',
      '.git/y.cql': '',
      'e/f/g.CQL': '',
    });
    try {
      const all = await findCqlFiles(ws.dir);
      assert.deepEqual(
        all.files.map((f) => f.slice(ws.dir.length + 1)),
        ['a.cql', 'b/c.cqlsh', 'e/f/g.CQL'],
      );
      assert.equal(all.truncated, false);
      const capped = await findCqlFiles(ws.dir, { maxFiles: 2 });
      assert.equal(capped.files.length, 2);
      assert.equal(capped.truncated, true);
    } finally {
      ws.cleanup();
    }
  });
});

describe('diagnostic conversion', () => {
  const finding = {
    ruleId: 'unknown-column',
    severity: 'info' as const,
    message: 'no such column',
    messageId: 'noColumn',
    range: { start: { offset: 0, line: 1, column: 1 }, end: { offset: 3, line: 1, column: 4 } },
    related: [
      {
        filePath: '/tmp/schema.cql',
        range: { start: { offset: 0, line: 2, column: 1 }, end: { offset: 1, line: 2, column: 2 } },
        message: 'defined here',
      },
    ],
    data: { table: 'ks.t' },
  };

  test('severity, code, docs link, data with ruleId and messageId, related only on request', () => {
    const withRelated = findingToDiagnostic(finding, { relatedInformation: true, pathToUri });
    assert.equal(withRelated.severity, 3);
    assert.equal(withRelated.code, 'unknown-column');
    assert.match(withRelated.codeDescription!.href, /unknown-column\.md$/);
    assert.deepEqual(withRelated.data, { table: 'ks.t', ruleId: 'unknown-column', messageId: 'noColumn' });
    assert.deepEqual(withRelated.relatedInformation, [
      {
        location: {
          uri: 'file:///tmp/schema.cql',
          range: { start: { line: 1, character: 0 }, end: { line: 1, character: 1 } },
        },
        message: 'defined here',
      },
    ]);
    assert.equal(findingToDiagnostic(finding, { relatedInformation: false, pathToUri }).relatedInformation, undefined);
  });

  test("data leaves out the finding's cures (plans) and figures (numbers), which every pull would carry", () => {
    const planned = {
      ...finding,
      ruleId: 'hot-partition',
      messageId: 'hot',
      data: { table: 'ks.t', numbers: { rows: 1 }, plans: [{ id: 'bucket:day', columns: ['day'] }] },
    };
    assert.deepEqual(findingToDiagnostic(planned, { relatedInformation: false, pathToUri }).data, {
      table: 'ks.t',
      ruleId: 'hot-partition',
      messageId: 'hot',
    });
    assert.deepEqual(planned.data.plans, [{ id: 'bucket:day', columns: ['day'] }], "the finding's own are left");
  });

  test('mergeCapabilities combines nested objects one level deep', () => {
    const capabilities = { textDocumentSync: 2, workspace: { workspaceFolders: { supported: true } } } as Record<
      string,
      unknown
    >;
    mergeCapabilities(capabilities, { hoverProvider: true, workspace: { fileOperations: {} } });
    assert.deepEqual(capabilities, {
      textDocumentSync: 2,
      hoverProvider: true,
      workspace: { workspaceFolders: { supported: true }, fileOperations: {} },
    });
  });
});

describe('diagnostics in stages', () => {
  /** The context the stages read: one open document, a config that is loaded, change events to fire. */
  function context() {
    const open = new Set(['file:///ws/q.cql']);
    const listeners: ((event: FilesChangedEvent) => void)[] = [];
    const ctx = {
      documents: { get: (uri: string) => (open.has(uri) ? {} : undefined) },
      pathToUri: (filePath: string) => `file://${filePath}`,
      onDidChangeFiles: (listener: (event: FilesChangedEvent) => void) => {
        listeners.push(listener);
        return { dispose: () => undefined };
      },
      whenConfigured: () => Promise.resolve(),
    };
    const fire = (event: Partial<FilesChangedEvent>) =>
      listeners.forEach((l) => l({ reason: 'edit', all: false, changed: [], removed: [], dependents: [], ...event }));
    return { ctx: ctx as unknown as Parameters<typeof createStages>[0], fire };
  }
  const waiting = new Promise<void>(() => undefined);

  test('an open document whose files are still being indexed shows its file-local findings first', async () => {
    const { ctx } = context();
    const stages = createStages(ctx);
    assert.equal(await stages.early('/ws/q.cql', waiting), true);
    assert.equal(
      await stages.early('/ws/q.cql', Promise.resolve()),
      false,
      'nothing to wait for: the full set at once',
    );
    assert.equal(await stages.early('/ws/other.cql', waiting), false, 'a file that is not open waits for its full set');
  });

  test('after its full set was shown, a document waits for the index again rather than show less; reopened, it starts over', async () => {
    const { ctx, fire } = context();
    const stages = createStages(ctx);
    stages.shownFull('/ws/q.cql');
    assert.equal(await stages.early('/ws/q.cql', waiting), false);
    fire({ reason: 'edit', changed: ['/ws/q.cql'] });
    assert.equal(await stages.early('/ws/q.cql', waiting), false);
    fire({ reason: 'open', changed: ['/ws/q.cql'] });
    assert.equal(await stages.early('/ws/q.cql', waiting), true);
  });
});

describe('message encoder', () => {
  const diagnostic = (line: number, message: string) => ({
    range: { start: { line, character: 0 }, end: { line, character: 4 } },
    severity: 2,
    code: 'hot-partition',
    source: 'cqlint',
    message,
    data: { table: 'ks.t', ruleId: 'hot-partition' },
  });

  /** JSON text with each UTF-16 code unit past U+007F written as its \u escape. */
  const escapedJson = (json: string): string => {
    let out = '';
    for (let i = 0; i < json.length; i++) {
      const unit = json.charCodeAt(i);
      out += unit < 0x80 ? json[i] : `\\u${unit.toString(16).padStart(4, '0')}`;
    }
    return out;
  };

  test('writes what JSON.stringify writes, a report in ASCII: reports, publications, anything else, with diagnostics reused between messages', async () => {
    const a = diagnostic(1, 'a "quoted" \u2028 headline');
    const b = diagnostic(2, 'b');
    const reports = [
      { jsonrpc: '2.0', id: 1, result: { kind: 'full', resultId: 'r1', items: [a, b] } },
      // The same objects again (their bytes kept), in another order and another kind of message.
      // Characters of two, three and four bytes in UTF-8, and a lone surrogate (JSON.stringify escapes it).
      {
        jsonrpc: '2.0',
        id: 2,
        result: { kind: 'full', resultId: 'r2', items: [b, a, diagnostic(3, 'c \u00e9 \u2014 \u{1f600} \ud800')] },
      },
      // The message's own fields after the diagnostics.
      { jsonrpc: '2.0', id: 7, result: { kind: 'full', items: [a], resultId: 'r\u00e9' } },
      {
        jsonrpc: '2.0',
        method: 'textDocument/publishDiagnostics',
        params: { uri: 'file:///a.cql', version: 3, diagnostics: [a, undefined, b] },
      },
      { jsonrpc: '2.0', id: 4, result: { kind: 'full', items: [] } },
    ];
    const others = [
      { jsonrpc: '2.0', id: 3, result: { kind: 'unchanged', resultId: 'r2' } },
      { jsonrpc: '2.0', id: 5, result: { items: [{ kind: 'full', uri: 'file:///b.cql', items: [a] }] } },
      { jsonrpc: '2.0', method: 'window/logMessage', params: { type: 3, message: 'x \u00d7' } },
      { jsonrpc: '2.0', id: 6, result: null },
    ];
    for (const message of [...reports, ...others]) {
      const json = JSON.stringify(message);
      const expected = Buffer.from(reports.includes(message as never) ? escapedJson(json) : json, 'utf-8');
      const bytes = messageBytes(message as never);
      assert.deepEqual(bytes, expected);
      // The client reads the same values.
      assert.deepEqual(JSON.parse(bytes.toString('utf-8')), JSON.parse(json));
      assert.deepEqual(Buffer.from(await messageEncoder.encode(message as never, { charset: 'utf-8' })), expected);
      const ascii = await messageEncoder.encode(message as never, { charset: 'ascii' });
      assert.deepEqual(Buffer.from(ascii), Buffer.from(json, 'ascii'));
    }
    assert.ok(reports.every((report) => messageBytes(report as never).every((byte) => byte < 0x80)));
  });

  test('a placeholder-like string in a message is left as it is', () => {
    const message = {
      jsonrpc: '2.0',
      method: 'textDocument/publishDiagnostics',
      params: {
        uri: 'file:///\u0000cqlint-diagnostics-x\u0000',
        diagnostics: [diagnostic(0, '\u0000cqlint-diagnostics-\u0000')],
      },
    };
    assert.deepEqual(messageBytes(message as never), Buffer.from(JSON.stringify(message), 'utf-8'));
    assert.deepEqual(JSON.parse(messageBytes(message as never).toString()), JSON.parse(JSON.stringify(message)));
  });
});
