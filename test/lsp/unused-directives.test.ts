// The language server reports suppression comments that silence nothing when the .cqlint.json asks
// (reportUnusedDisableDirectives), pushed and pulled, with a quick fix that removes the id.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { CodeAction, Diagnostic, TextEdit } from 'vscode-languageserver-protocol';
import { capabilities, tempWorkspace } from '../../scripts/lsp-client';
import { startInProcessServer } from '../helpers/in-process-server';

const TABLE = 'CREATE TABLE ks.t (id uuid, c int, v int, PRIMARY KEY (id, c));\n';
const SCAN = 'SELECT * FROM ks.t WHERE v > 1 ALLOW FILTERING;\n';
const CODE = `${TABLE}-- cqlint-disable-next-line hot-partition, allow-filtering\n${SCAN}`;
const CONFIG = JSON.stringify({ reportUnusedDisableDirectives: 'warn' });
const withActions = {
  ...capabilities.pull,
  textDocument: {
    ...capabilities.pull.textDocument,
    codeAction: { codeActionLiteralSupport: { codeActionKind: { valueSet: ['quickfix', 'refactor', 'source'] } } },
  },
};

/** A client on a workspace whose .cqlint.json asks for the report, with a.cql open. */
async function opened(t: { after(fn: () => unknown): void }, caps: typeof capabilities.push) {
  const ws = tempWorkspace({ '.cqlint.json': CONFIG });
  t.after(() => ws.cleanup());
  const client = startInProcessServer();
  t.after(() => client.shutdown());
  await client.initialize(caps, { workspaceFolders: [ws.dir] });
  const uri = ws.uri('a.cql');
  await client.open(uri, CODE);
  return { client, uri };
}

const unused = (diagnostics: Diagnostic[]): Diagnostic[] =>
  diagnostics.filter((d) => d.code === 'unused-disable-directive');

describe('unused suppression comments in the language server', () => {
  test('pushed, with the suppressions page as its docs link', async (t) => {
    const { client, uri } = await opened(t, capabilities.push);
    const [found, ...rest] = unused(await client.waitForDiagnostics(uri));
    assert.equal(rest.length, 0);
    assert.equal(
      String(found?.message).split('\n')[0],
      "Unused cqlint-disable-next-line directive (no problems were reported from 'hot-partition')",
    );
    assert.equal(found?.severity, 2);
    assert.deepEqual(found?.range.start, { line: 1, character: 28 });
    assert.match(found?.codeDescription?.href ?? '', /docs\/suppressions\.md#unused-directives$/);
  });

  test('pulled, and its quick fix removes the id alone', async (t) => {
    const { client, uri } = await opened(t, withActions);
    // While the workspace is indexed only the file-local findings show (never an unused-directive report,
    // which needs every finding of the file).
    await client.whenIndexed();
    const report = (await client.pullDiagnostics(uri)) as { items?: Diagnostic[] };
    const [found] = unused(report.items ?? []);
    assert.ok(found, JSON.stringify(report));
    const actions = (await client.request('textDocument/codeAction', {
      textDocument: { uri },
      range: found.range,
      context: { diagnostics: [found] },
    })) as CodeAction[];
    const remove = actions.find((a) => a.title === "Remove 'hot-partition' from the cqlint-disable-next-line comment");
    assert.ok(remove, actions.map((a) => a.title).join(', '));
    const resolved = remove.edit ? remove : ((await client.request('codeAction/resolve', remove)) as CodeAction);
    const edits = (resolved.edit?.changes?.[uri] ??
      resolved.edit?.documentChanges?.flatMap((c) => ('edits' in c ? c.edits : []))) as TextEdit[];
    assert.deepEqual(edits, [
      { range: { start: { line: 1, character: 28 }, end: { line: 1, character: 43 } }, newText: '' },
    ]);
  });
});
