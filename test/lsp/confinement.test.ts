// What a repository's .cqlint.json can make the language server read: samples and rings inside the
// workspace folders (without one, inside the .cqlint.json's own folder), nothing of them in an untrusted
// workspace (VS Code's Restricted Mode), and no .cqlint.json linked to a file outside: such a file is
// never read, so never quoted in a diagnostic, a message or the log.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { symlinkSync } from 'node:fs';
import type { Diagnostic } from 'vscode-languageserver-protocol';
import { capabilities, startServer, tempWorkspace, type LspTestClient } from '../../scripts/lsp-client';

const SCHEMA = 'CREATE TABLE ks.kv (k text, c int, v text, PRIMARY KEY (k, c));\n';
const RING = JSON.stringify({ '10.9.9.9': ['0'], '10.9.9.8': ['-4611686018427387904'] });

async function report(client: LspTestClient, uri: string): Promise<string> {
  const page = (await client.request('cqlint/partitionReport', { textDocument: { uri }, table: 'ks.kv' })) as {
    html: string;
  } | null;
  assert.ok(page, 'the report is answered');
  return page.html;
}

/** Everything the client was told: log lines, messages and diagnostics. */
function everythingSaid(client: LspTestClient, uris: string[]): string {
  return [
    ...client.logs,
    client.stderr,
    ...uris.flatMap((uri) =>
      client.publications(uri).flatMap((p) => p.diagnostics.map((d) => JSON.stringify(d.message))),
    ),
  ].join('\n');
}

/** A sample of ks.kv whose partition key is `key`, and a ring, in folder `at` ('' or 'dir/'). */
function sampleAndRing(at: string, key: string): Record<string, string> {
  return { [`${at}kv.csv`]: `${key},1,v\n${key},2,v\n`, [`${at}ring.json`]: RING };
}

test('without a workspace folder, samples and the ring stay inside the .cqlint.json folder', async (t) => {
  const files = tempWorkspace({
    ...sampleAndRing('secret/', 'SECRETKEY'),
    'proj/schema.cql': SCHEMA,
    'proj/.cqlint.json': JSON.stringify({ samples: { 'ks.kv': '../secret/kv.csv' }, ring: '../secret/ring.json' }),
  });
  t.after(() => files.cleanup());
  const client = await startServer();
  t.after(() => client.shutdown());
  await client.initialize(capabilities.pull);
  const uri = files.uri('proj/schema.cql');
  await client.open(uri, SCHEMA);
  const html = await report(client, uri);
  await client.waitForLog(
    /sample \.\.\/secret\/kv\.csv of ks\.kv: the file \(or the link it goes through\) is outside the workspace/,
  );
  assert.doesNotMatch(html, /SECRETKEY|10\.9\.9\.9/);
  const hover = JSON.stringify(
    await client.request('textDocument/hover', { textDocument: { uri }, position: { line: 0, character: 40 } }),
  );
  assert.doesNotMatch(hover, /SECRETKEY|10\.9\.9\.9/);
  assert.doesNotMatch(everythingSaid(client, [uri]), /SECRETKEY/);
});

test('Restricted Mode reads neither the samples nor the ring a .cqlint.json names, even inside the workspace', async (t) => {
  const ws = tempWorkspace({
    ...sampleAndRing('', 'INSIDEKEY'),
    'schema.cql': SCHEMA,
    '.cqlint.json': JSON.stringify({ samples: { 'ks.kv': 'kv.csv' }, ring: 'ring.json' }),
  });
  t.after(() => ws.cleanup());
  for (const trusted of [false, true]) {
    const client = await startServer();
    t.after(() => client.shutdown());
    await client.initialize(capabilities.pull, {
      workspaceFolders: [ws.dir],
      initializationOptions: { workspaceTrusted: trusted },
    });
    const uri = ws.uri('schema.cql');
    await client.open(uri, SCHEMA);
    const html = await report(client, uri);
    if (trusted) {
      assert.match(html, /INSIDEKEY/, 'a trusted workspace shows its sample');
      assert.match(html, /10\.9\.9\.9/, 'and the nodes of its ring');
    } else {
      assert.doesNotMatch(html, /INSIDEKEY|10\.9\.9\.9/);
      await client.waitForLog(/not read in an untrusted workspace/);
    }
  }
});

test('a .cqlint.json linked to a file outside the workspace is not read, and nothing of it is quoted', async (t) => {
  const files = tempWorkspace({ 'outside/secret.json': '{"target": SECRET-TOKEN-123}\n', 'ws/schema.cql': SCHEMA });
  t.after(() => files.cleanup());
  symlinkSync(files.path('outside/secret.json'), files.path('ws/.cqlint.json'));
  const client = await startServer();
  t.after(() => client.shutdown());
  await client.initialize(capabilities.push, { workspaceFolders: [files.path('ws')] });
  const config = files.uri('ws/.cqlint.json');
  const diagnostics: Diagnostic[] = await client.waitForDiagnostics(config, (d) => d.length > 0);
  assert.match(
    String(diagnostics[0]!.message),
    /cannot read the file: the file \(or the link it goes through\) is outside the workspace/,
  );
  const uri = files.uri('ws/schema.cql');
  await client.open(uri, SCHEMA);
  await client.waitForDiagnostics(uri);
  assert.doesNotMatch(everythingSaid(client, [config, uri]), /SECRET|TOKEN-123/);
});
