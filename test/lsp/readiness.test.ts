// Declared readiness (server/lsp/readiness.ts): every handler a feature registers says what it waits for, the
// guard refuses one that says nothing, and the server waits for what was declared.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { guardConnection, safeHandler } from '../../server/lsp/safe';
import { readinessWait, requires, type Readiness, type ReadinessSources } from '../../server/lsp/readiness';
import { defaultFeatures } from '../../server/lsp/features';
import type { Feature, ServerContext } from '../../server/lsp/context';
import type { ClientCapabilities } from 'vscode-languageserver/node';
import { capabilities, tempWorkspace } from '../../scripts/lsp-client';
import { startInProcessServer } from '../helpers/in-process-server';

type Handler = (...args: unknown[]) => unknown;

/** A connection that records its registrations at any depth: `onHover`, `languages.inlayHint.on`, `onRequest(m, h)`. */
function recordingConnection(registered: Map<string, Handler>, label = 'connection'): object {
  return new Proxy(
    {},
    {
      get(_target, property) {
        if (typeof property !== 'string') return undefined;
        if (property === 'then') return undefined;
        if (/^on([A-Z]|$)/.test(property)) {
          return (...args: unknown[]) => {
            const name = `${label}.${property}${typeof args[0] === 'string' ? `(${args[0]})` : ''}`;
            const handler = args.find((arg): arg is Handler => typeof arg === 'function');
            if (handler) registered.set(name, handler);
            return { dispose: () => undefined };
          };
        }
        return recordingConnection(registered, `${label}.${property}`);
      },
    },
  );
}

/**
 * Registers every default feature against `clientCapabilities` on a guarded recording connection, with the
 * server's readiness check; returns each registration's declared readiness and what went wrong.
 */
function registerDefaultFeatures(clientCapabilities: object): { declared: Map<string, Readiness>; errors: string[] } {
  const registered = new Map<string, Handler>();
  const declared = new Map<string, Readiness>();
  const errors: string[] = [];
  const connection = guardConnection(recordingConnection(registered), (message) => errors.push(message), {
    // Records what the handler declared; the handler itself never runs (its wait never ends).
    ready: (readiness, args) => {
      declared.set(String(args[0]), readiness);
      return new Promise<void>(() => undefined);
    },
  });
  const disposable = () => ({ dispose: () => undefined });
  const ctx = new Proxy({} as ServerContext, {
    get(_target, property) {
      if (property === 'connection') return connection;
      if (property === 'clientCapabilities') return clientCapabilities;
      if (property === 'workspaceFolders') return [];
      if (property === 'safe')
        return (name: string, handler: Handler, fallback: unknown) =>
          safeHandler((m) => errors.push(m), name, handler, fallback);
      if (property === 'log')
        return {
          error: (m: string) => errors.push(m),
          warn: () => undefined,
          info: () => undefined,
          debug: () => undefined,
        };
      if (typeof property === 'string' && /^on[A-Z]/.test(property)) return disposable;
      return () => undefined;
    },
  });
  for (const feature of defaultFeatures) {
    try {
      feature.register(ctx);
    } catch (error) {
      errors.push(`${feature.name}: ${String(error)}`);
    }
  }
  // Each wrapped handler reports its readiness when called: call each once with its registration's name.
  return {
    errors,
    declared: new Map(
      [...registered].map(([name, handler]) => {
        void handler(name);
        return [name, declared.get(name)!] as const;
      }),
    ),
  };
}

const EXPECTED: Record<string, Readiness> = {
  'connection.onCodeAction': 'file',
  'connection.onCompletion': 'file',
  'connection.onHover': 'file-and-ring',
  'connection.onDefinition': 'file',
  'connection.onReferences': 'file',
  'connection.onPrepareRename': 'file',
  'connection.onRenameRequest': 'file',
  'connection.onDocumentSymbol': 'file',
  'connection.onWorkspaceSymbol': 'workspace',
  'connection.languages.semanticTokens.on': 'file',
  'connection.languages.semanticTokens.onRange': 'file',
  'connection.onFoldingRanges': 'file',
  'connection.onSelectionRanges': 'file',
  'connection.onDocumentFormatting': 'file',
  'connection.onDocumentRangeFormatting': 'file',
  'connection.onRequest(cqlint/tokenAt)': 'file-and-ring',
  'connection.onCodeLens': 'file',
  'connection.onRequest(cqlint/partitionReport)': 'file',
  'connection.onRequest(cqlint/sampleConfigEdit)': 'file',
};

describe('declared readiness', () => {
  test('the guard refuses a handler that declares no readiness, and passes the declared one to the server', async () => {
    const registered = new Map<string, Handler>();
    const seen: Readiness[] = [];
    const guarded = guardConnection(
      recordingConnection(registered) as { onHover(h: Handler): void; onRequest(m: string, h: Handler): void },
      () => undefined,
      {
        ready: (readiness) => {
          seen.push(readiness);
          return undefined;
        },
      },
    );
    assert.throws(() => guarded.onHover(() => null), /connection\.onHover: the handler declares no readiness/);
    assert.throws(
      () => guarded.onRequest('cqlint/tokenAt', () => null),
      /onRequest\(cqlint\/tokenAt\): the handler declares no readiness/,
    );
    assert.equal(registered.size, 0, 'nothing was registered');
    guarded.onHover(requires('file-and-ring', () => 'hovered'));
    assert.equal(await registered.get('connection.onHover')!({}), 'hovered');
    assert.deepEqual(seen, ['file-and-ring']);
  });

  const clients: Record<string, ClientCapabilities> = {
    ...capabilities,
    'pull, with inlay hints and resolved code actions': {
      ...capabilities.pull,
      textDocument: {
        ...capabilities.pull.textDocument,
        inlayHint: {},
        codeAction: { resolveSupport: { properties: ['edit'] } },
      },
    },
  };
  for (const [client, clientCapabilities] of Object.entries(clients)) {
    test(`every handler the default features register declares its readiness (${client} client)`, () => {
      const { declared, errors } = registerDefaultFeatures(clientCapabilities);
      assert.deepEqual(errors, []);
      const expected: Record<string, Readiness> = { ...EXPECTED };
      if (clientCapabilities.textDocument?.diagnostic) {
        // textDocument/diagnostic waits by itself (file-local findings while the index runs).
        expected['connection.languages.diagnostics.on'] = 'nothing';
        expected['connection.languages.diagnostics.onWorkspace'] = 'workspace';
      }
      // The resolve handler exists for a client that resolves code actions' edits; it needs nothing the action did not.
      if (clientCapabilities.textDocument?.inlayHint) expected['connection.languages.inlayHint.on'] = 'file-and-ring';
      if (clientCapabilities.textDocument?.codeAction?.resolveSupport)
        expected['connection.onCodeActionResolve'] = 'nothing';
      assert.deepEqual(Object.fromEntries([...declared].sort()), Object.fromEntries(Object.entries(expected).sort()));
    });
  }
});

describe('what the server waits for', () => {
  /** Sources whose waits are pending until `release()`; records what was asked. */
  function pendingSources(): ReadinessSources & { asked: string[]; release(): void } {
    let release!: () => void;
    const pending = new Promise<void>((resolve) => (release = resolve));
    const asked: string[] = [];
    return {
      asked,
      release: () => release(),
      whenIndexed: (filePath) => (asked.push(`indexed ${filePath}`), pending),
      whenConfigured: (filePath, ring) => (asked.push(`configured ${filePath}${ring ? ' and ring' : ''}`), undefined),
      whenAllIndexed: () => (asked.push('all indexed'), pending),
      uriToPath: (uri) => uri.replace('file://', ''),
    };
  }

  test('a request on a file that is not indexed yet runs once it is; one that declared nothing runs at once', async () => {
    const sources = pendingSources();
    const registered = new Map<string, Handler>();
    const guarded = guardConnection(
      recordingConnection(registered) as Record<string, (h: Handler) => void>,
      () => undefined,
      {
        ready: (readiness, args) => readinessWait(readiness, args, sources),
      },
    );
    const ran: string[] = [];
    guarded.onHover!(requires('file-and-ring', () => ran.push('hover')));
    guarded.onCompletion!(requires('file', () => ran.push('completion')));
    guarded.onCodeActionResolve!(requires('nothing', () => ran.push('resolve')));
    guarded.onWorkspaceSymbol!(requires('workspace', () => ran.push('workspace symbol')));
    const params = { textDocument: { uri: 'file:///ws/query.cql' }, position: { line: 0, character: 0 } };
    const answers = [
      registered.get('connection.onHover')!(params),
      registered.get('connection.onCompletion')!(params),
      registered.get('connection.onCodeActionResolve')!({ title: 'fix' }),
      registered.get('connection.onWorkspaceSymbol')!({ query: '' }),
    ];
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(ran, ['resolve'], 'only the request that waits for nothing ran while the file is not indexed');
    assert.deepEqual(sources.asked, [
      'indexed /ws/query.cql',
      'configured /ws/query.cql and ring',
      'indexed /ws/query.cql',
      'configured /ws/query.cql',
      'all indexed',
    ]);
    sources.release();
    await Promise.all(answers);
    assert.deepEqual(ran.sort(), ['completion', 'hover', 'resolve', 'workspace symbol']);
  });

  test('nothing pending: a file request runs at once; without a document it waits for nothing', () => {
    const idle: ReadinessSources = {
      whenIndexed: () => undefined,
      whenConfigured: () => undefined,
      whenAllIndexed: () => undefined,
      uriToPath: (uri) => uri,
    };
    assert.equal(readinessWait('file-and-ring', [{ textDocument: { uri: 'file:///a.cql' } }], idle), undefined);
    assert.equal(readinessWait('workspace', [{}], idle), undefined);
    const sources = pendingSources();
    assert.equal(readinessWait('file', [null], sources), undefined);
    assert.equal(readinessWait('file', [{ textDocument: {} }], sources), undefined);
    assert.deepEqual(sources.asked, []);
  });
});

describe('the server waits for what a handler declared', () => {
  const SCHEMA =
    'CREATE TABLE shop.orders (customer_id uuid, order_id timeuuid, total decimal, PRIMARY KEY (customer_id, order_id));\n';
  const QUERY = 'SELECT total FROM shop.orders WHERE customer_id = ?;\n';
  const filler = (i: number): string => `CREATE TABLE misc.t${i} (id uuid PRIMARY KEY, v text);\n`.repeat(20);

  test('while the workspace is indexed, a file request answers once the files its document names are in, a workspace request once all are', async (t) => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 200; i++) files[`f/${String(i).padStart(4, '0')}.cql`] = filler(i);
    files['z/schema.cql'] = SCHEMA;
    const ws = tempWorkspace(files);
    t.after(() => ws.cleanup());
    // What the project holds when each handler runs.
    const probe: Feature = {
      name: 'probe',
      register(ctx) {
        const holds = () => ({
          schema: ctx.project.hasFile(ws.path('z/schema.cql')),
          files: ctx.project.files().length,
        });
        ctx.connection.onRequest('test/nothing', requires('nothing', holds));
        ctx.connection.onRequest('test/file', requires('file', holds));
        ctx.connection.onRequest('test/workspace', requires('workspace', holds));
      },
    };
    const client = startInProcessServer({ features: [probe] });
    t.after(() => client.shutdown());
    await client.initialize(capabilities.push, { workspaceFolders: [ws.dir] });
    const uri = ws.uri('query.cql');
    await client.open(uri, QUERY);
    type Holds = { schema: boolean; files: number };
    const [nothing, file, workspace] = (await Promise.all(
      ['test/nothing', 'test/file', 'test/workspace'].map((method) =>
        client.request(method, { textDocument: { uri } }),
      ),
    )) as Holds[];
    assert.equal(file!.schema, true, 'the file request ran once the schema its query names was indexed');
    assert.deepEqual(workspace, { schema: true, files: 202 }, 'the workspace request ran once every file was indexed');
    assert.ok(nothing!.files <= workspace!.files);
  });
});
