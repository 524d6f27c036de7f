// Evidence through the real language server: .cqlint.json `evidence` read in the background, the
// diagnostics following the files on disk, the `cqlint.evidence` setting (a user setting, which may lie
// outside the workspace), confinement of what a workspace names, and Restricted Mode reading none.
import { test, type TestContext } from 'node:test';
import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Diagnostic } from 'vscode-languageserver-protocol';
import { capabilities, tempWorkspace, type LspTestClient } from '../../scripts/lsp-client';
import { startInProcessServer } from '../helpers/in-process-server';
import { EvidenceFiles } from '../../server/lsp/evidence-files';
import { tablestatsOutput } from '../helpers/example-evidence';

const SCHEMA = 'CREATE TABLE ks.events (host text, ts timestamp, v int, PRIMARY KEY (host, ts));\n';
const BIG = tablestatsOutput('ks.events', 1386179893);
const SMALL = tablestatsOutput('ks.events', 4768);
const measured = (d: Diagnostic[]): boolean =>
  d.some(
    (x) =>
      x.code === 'large-partition' &&
      /too large: the largest measured on the cluster holds 1\.3 GB/.test(String(x.message)),
  );
const none = (d: Diagnostic[]): boolean => !d.some((x) => x.code === 'large-partition');

/** The finding's details (its hover) cite the capture: tool, node, date, figure and file:line. */
async function assertCites(client: LspTestClient, uri: string, d: Diagnostic[], file: string): Promise<void> {
  const finding = d.find((x) => x.code === 'large-partition')!;
  const hover = (await client.request('textDocument/hover', {
    textDocument: { uri },
    position: finding.range.start,
  })) as { contents: { value: string } };
  assert.ok(
    hover.contents.value.includes(
      `nodetool tablestats, node 10.0.0.3, 2026-11-20: compacted partition maximum 1.3 GB (${file}:19)`,
    ),
    hover.contents.value,
  );
}

/** A workspace of `files` served to a push client, schema.cql open. */
async function serve(
  t: TestContext,
  files: Record<string, string>,
  init: { initializationOptions?: unknown; settings?: Record<string, unknown> } = {},
  started?: (client: LspTestClient) => void,
) {
  const ws = tempWorkspace({ 'schema.cql': SCHEMA, ...files });
  t.after(() => ws.cleanup());
  const client = startInProcessServer();
  t.after(() => client.shutdown());
  started?.(client);
  await client.initialize(capabilities.push, { workspaceFolders: [ws.dir], ...init });
  const uri = ws.uri('schema.cql');
  await client.open(uri, SCHEMA);
  return { ws, client, uri };
}

test('.cqlint.json evidence is read in the background; the diagnostics follow the file on disk', async (t) => {
  const { ws, client, uri } = await serve(t, {
    'ops/node3.txt': BIG,
    '.cqlint.json': JSON.stringify({ evidence: ['ops'] }),
  });
  await assertCites(client, uri, await client.waitForDiagnostics(uri, measured), 'ops/node3.txt');
  // The table hover shows the measured figure beside the model's.
  const hover = (await client.request('textDocument/hover', {
    textDocument: { uri },
    position: { line: 0, character: SCHEMA.indexOf('events') + 2 },
  })) as { contents: { value: string } };
  assert.match(
    hover.contents.value,
    /On the cluster[\s\S]*- largest partition: 1\.3 GB \(compacted partition maximum; nodetool tablestats, node 10\.0\.0\.3, 2026-11-20, ops\/node3\.txt:19\)/,
  );

  // A new capture replaces the old one on disk: read again, and the finding goes.
  ws.write('ops/node3.txt', SMALL);
  await client.filesChanged([{ uri: ws.uri('ops/node3.txt'), type: 2 }]);
  await client.waitForDiagnostics(uri, none);
  assert.ok(client.alive);
});

test('a missing evidence file and a table the workspace does not define are shown as warnings', async (t) => {
  const other = tablestatsOutput('ks.gone', 1000);
  const { client } = await serve(t, {
    'ops/gone.txt': other,
    '.cqlint.json': JSON.stringify({ evidence: ['ops/gone.txt', 'ops/missing.txt'] }),
  });
  await client.waitForLog(/cqlint: evidence ops\/missing\.txt: no such file or directory/);
  await client.waitForLog(
    /cqlint: evidence ops\/gone\.txt: figures for a table the workspace does not define: ks\.gone/,
  );
});

test('evidence a .cqlint.json names outside the workspace is not read; the cqlint.evidence user setting may be', async (t) => {
  const outside = mkdtempSync(join(tmpdir(), 'cqlint-outside-'));
  t.after(() => rmSync(outside, { recursive: true, force: true }));
  writeFileSync(join(outside, 'node3.txt'), BIG);
  const { client, uri } = await serve(t, {
    '.cqlint.json': JSON.stringify({ evidence: [join(outside, 'node3.txt')] }),
  });
  await client.waitForLog(/node3\.txt: the file \(or the link it goes through\) is outside the workspace/);
  await client.waitForDiagnostics(uri, none);

  // The same file from the user's own setting is read.
  await client.changeSettings({ evidence: [join(outside, 'node3.txt')] });
  await assertCites(client, uri, await client.waitForDiagnostics(uri, measured), join(outside, 'node3.txt'));
});

test('in an untrusted workspace no evidence is read', async (t) => {
  // A trusted workspace reads the evidence in the background check that follows the index (see the first
  // test). Waited for here: the first check to start once the index is done (the server runs in this process).
  const check = EvidenceFiles.prototype as unknown as { readAll(this: EvidenceFiles): Promise<void> };
  const readAll = check.readAll;
  let indexed: () => boolean;
  let checkedAfterIndex!: () => void;
  const checked = new Promise<void>((resolve) => (checkedAfterIndex = resolve));
  check.readAll = async function (this: EvidenceFiles) {
    const afterIndex = indexed();
    await readAll.call(this);
    if (afterIndex) checkedAfterIndex();
  };
  t.after(() => {
    check.readAll = readAll;
  });
  const { client, uri } = await serve(
    t,
    { 'ops/node3.txt': BIG, '.cqlint.json': JSON.stringify({ evidence: ['ops'] }) },
    {
      initializationOptions: { workspaceTrusted: false },
      settings: { evidence: ['ops/node3.txt'], trace: { server: 'verbose' } },
    },
    (started) => {
      // The index's log line reaches the client long before the check, which waits 300 ms after the index.
      indexed = () => started.logs.some((line) => /cqlint: indexed \d+ CQL file/.test(line));
    },
  );
  await checked;
  await client.change(uri, `${SCHEMA}\n`);
  const after = await client.waitForDiagnostics(uri, () => true);
  assert.ok(none(after), JSON.stringify(after));
  assert.ok(!client.logs.some((l) => /cqlint: evidence /.test(l)), client.logs.join('\n'));
});
