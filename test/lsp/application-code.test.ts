// The language server on application code: diagnostics, hovers and quick fixes inside the CQL strings of a
// Java or Python file, nothing outside them, the workspace's code read by the index, the CQL-only features
// registered for CQL documents alone, and the setting that turns a language off.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type {
  CodeAction,
  Diagnostic,
  Hover,
  MarkupContent,
  Registration,
  TextEdit,
} from 'vscode-languageserver-protocol';
import { capabilities, fileUri, tempWorkspace, type LspTestClient } from '../../scripts/lsp-client';
import { startInProcessServer } from '../helpers/in-process-server';
import { JAVA, PYTHON, SCHEMA } from '../embedded/app-fixtures';

interface Started {
  client: LspTestClient;
  path(relative: string): string;
}

async function start(
  t: { after(fn: () => unknown): void },
  files: Record<string, string>,
  clientCapabilities = capabilities.push,
  settings: Record<string, unknown> = {},
): Promise<Started> {
  const temp = tempWorkspace(files);
  t.after(() => temp.cleanup());
  const client = startInProcessServer();
  t.after(() => client.shutdown());
  await client.initialize(clientCapabilities, {
    workspaceFolders: [temp.dir],
    settings: { trace: { server: 'verbose' }, ...settings },
  });
  await client.waitForLog(/cqlint: indexed \d+ CQL file/);
  return { client, path: (relative) => temp.path(relative) };
}

/** The position of the `n`th occurrence of `what` in `text` (0-based line and character), plus `delta` characters. */
function positionOf(text: string, what: string, delta = 0): { line: number; character: number } {
  const at = text.indexOf(what) + delta;
  const before = text.slice(0, at).split('\n');
  return { line: before.length - 1, character: before[before.length - 1]!.length };
}

describe('application code in the language server', () => {
  test('a diagnostic inside a Java string, at the exact characters, and its quick fix written into the string', async (t) => {
    const { client, path } = await start(t, { 'schema.cql': SCHEMA });
    const uri = fileUri(path('UserDao.java'));
    await client.open(uri, JAVA, 'java');
    const diagnostics = await client.waitForDiagnostics(uri, (d) => d.length > 0);
    assert.deepEqual(
      diagnostics.map((d: Diagnostic) => d.code),
      ['unknown-column'],
    );
    const at = positionOf(JAVA, 'nmae');
    assert.deepEqual(diagnostics[0]!.range, { start: at, end: { line: at.line, character: at.character + 4 } });
    const actions = (await client.request('textDocument/codeAction', {
      textDocument: { uri },
      range: diagnostics[0]!.range,
      context: { diagnostics },
    })) as CodeAction[];
    const rename = actions.find((a) => /name/.test(a.title));
    assert.ok(rename?.edit, actions.map((a) => a.title).join(' | '));
    const edits = (rename.edit.changes?.[uri] ?? []) as TextEdit[];
    assert.deepEqual(edits, [{ range: diagnostics[0]!.range, newText: 'name' }]);
  });

  test('hover inside the string says where the statement and its keyspace come from; outside it, nothing', async (t) => {
    const { client, path } = await start(t, { 'schema.cql': SCHEMA });
    const uri = fileUri(path('UserDao.java'));
    await client.open(uri, JAVA, 'java');
    await client.waitForDiagnostics(uri, (d) => d.length > 0);
    const inside = (await client.request('textDocument/hover', {
      textDocument: { uri },
      position: positionOf(JAVA, 'users SET', 2),
    })) as Hover | null;
    const text = (inside?.contents as MarkupContent | undefined)?.value ?? '';
    assert.match(text, /CQL in Java code, passed to `session\.execute`/);
    assert.match(text, /Keyspace `shop`, from `CqlSession\.builder\(\)\.withKeyspace\("shop"\)` \(line 6\)/);
    const outside = await client.request('textDocument/hover', {
      textDocument: { uri },
      position: positionOf(JAVA, 'public void', 3),
    });
    assert.equal(outside, null);
    // The CQL-only features answer nothing in application code.
    const completion = (await client.request('textDocument/completion', {
      textDocument: { uri },
      position: positionOf(JAVA, 'users SET', 2),
    })) as { items: unknown[] };
    assert.deepEqual(completion.items, []);
    assert.deepEqual(
      await client.request('textDocument/formatting', {
        textDocument: { uri },
        options: { tabSize: 2, insertSpaces: true },
      }),
      [],
    );
    assert.deepEqual(await client.request('textDocument/documentSymbol', { textDocument: { uri } }), []);
  });

  test("the index reads the workspace's code: the schema's advice counts a Python query", async (t) => {
    const { client, path } = await start(t, {
      'schema.cql': SCHEMA,
      'app/orders.py': PYTHON,
      'app/util.py': 'print("insert into the log")\n',
    });
    const schema = fileUri(path('schema.cql'));
    await client.open(schema, SCHEMA);
    const diagnostics = await client.waitForDiagnostics(schema, (d) => d.some((x) => x.code === 'hot-partition'));
    const hot = diagnostics.find((d) => d.code === 'hot-partition')!;
    // The reads know order_id: the preferred fix is the shard calculated from it, and it rewrites the Python query.
    const actions = (await client.request('textDocument/codeAction', {
      textDocument: { uri: schema },
      range: hot.range,
      context: { diagnostics: [hot] },
    })) as CodeAction[];
    assert.match(
      actions[0]?.title ?? '',
      /^Add a calculated shard column from order_id\b/,
      actions.map((a) => a.title).join(' | '),
    );
    assert.equal(actions[0]!.isPreferred, true);
    const python = fileUri(path('app/orders.py'));
    const pythonEdits = (actions[0]!.edit?.changes?.[python] ?? []) as TextEdit[];
    assert.ok(
      pythonEdits.some((e) => / AND shard = %s/.test(e.newText)),
      JSON.stringify(pythonEdits),
    );
    assert.ok(
      pythonEdits.some((e) => /^ {4}# cqlint: bind shard = murmur3\(order_id\) % \d+ \+ 1/.test(e.newText)),
      JSON.stringify(pythonEdits),
    );
    // The file of code without CQL was read and left out.
    assert.equal(actions[0]!.edit?.changes?.[fileUri(path('app/util.py'))], undefined);
  });

  test('a client that registers dynamically gets the CQL-only features for CQL documents only', async (t) => {
    const dynamic = {
      ...capabilities.push,
      textDocument: {
        ...capabilities.push.textDocument,
        completion: { dynamicRegistration: true },
        formatting: { dynamicRegistration: true },
        documentSymbol: { dynamicRegistration: true },
      },
    };
    const { client } = await start(t, { 'schema.cql': SCHEMA }, dynamic);
    for (const method of ['textDocument/completion', 'textDocument/formatting', 'textDocument/documentSymbol']) {
      const registration: Registration = await client.waitForRegistration(method);
      assert.deepEqual((registration.registerOptions as { documentSelector: unknown }).documentSelector, [
        { language: 'cql' },
        { pattern: '**/*.{cql,cqlsh}' },
      ]);
    }
  });

  test('cqlint.embedded.languages without java: a Java file gets no diagnostics', async (t) => {
    const { client, path } = await start(t, { 'schema.cql': SCHEMA }, capabilities.push, {
      embedded: { languages: ['python'] },
    });
    const java = fileUri(path('UserDao.java'));
    const python = fileUri(path('users.py'));
    await client.open(java, JAVA, 'java');
    await client.open(
      python,
      "from cassandra.cluster import Cluster\ns = Cluster().connect('shop')\ns.execute('SELECT nmae FROM users WHERE user_id = %s', (1,))\n",
      'python',
    );
    await client.waitForDiagnostics(python, (d) => d.some((x) => x.code === 'unknown-column'));
    assert.deepEqual(client.lastDiagnostics(java) ?? [], []);
    // Java turned on: the open document is read; Python turned off: its diagnostics go.
    await client.changeSettings({ embedded: { languages: ['java'] } });
    await client.waitForDiagnostics(java, (d) => d.some((x) => x.code === 'unknown-column'));
    await client.waitForDiagnostics(python, (d) => d.length === 0);
  });
});
