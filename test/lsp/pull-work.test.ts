// How much work a pull answers with: the server keeps a digest of a closed file's report, not its
// diagnostics, and must still lint each file once per answer (not once to learn the result id and again
// for the diagnostics). Run in-process, with Project.lintOffsets counted.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Diagnostic, WorkspaceDiagnosticReport } from 'vscode-languageserver-protocol';
import { capabilities, tempWorkspace } from '../../scripts/lsp-client';
import { Project } from '../../server/core/engine/project';
import { startInProcessServer } from '../helpers/in-process-server';

const SCHEMA = 'CREATE TABLE ks.users (id int PRIMARY KEY, name text);\n';

test('workspace/diagnostic lints each closed file once, and not at all for a result id the client holds', async (t) => {
  const files: Record<string, string> = { 'schema.cql': SCHEMA };
  for (let i = 0; i < 5; i++) files[`q${i}.cql`] = `SELECT nope${i} FROM ks.users WHERE id = ?;\n`;
  const ws = tempWorkspace(files);
  t.after(() => ws.cleanup());
  const lints = new Map<string, number>();
  // lintOffsets: what lint() locates, and what the reports convert (each lint counts once either way).
  const original = Project.prototype.lintOffsets;
  Project.prototype.lintOffsets = function (this: Project, filePath: string) {
    lints.set(filePath, (lints.get(filePath) ?? 0) + 1);
    return original.call(this, filePath);
  };
  t.after(() => {
    Project.prototype.lintOffsets = original;
  });
  const client = startInProcessServer();
  t.after(() => client.shutdown());
  await client.initialize({ ...capabilities.pull, window: { workDoneProgress: true } }, { workspaceFolders: [ws.dir] });
  await client.waitForProgressEnd(/cqlint: indexing/, 60_000);

  lints.clear();
  const first = (await client.workspaceDiagnostics()) as WorkspaceDiagnosticReport;
  assert.equal(first.items.length, 6);
  assert.ok(first.items.every((item) => item.kind === 'full'));
  assert.deepEqual([...lints.values()], Array(6).fill(1), 'one lint per file');
  const q0 = first.items.find((item) => item.uri === ws.uri('q0.cql'))!;
  assert.deepEqual(
    (q0 as { items: Diagnostic[] }).items.map((d) => d.code),
    ['unknown-column'],
  );

  lints.clear();
  const held = first.items.map((item) => ({ uri: item.uri, value: item.resultId! }));
  const second = (await client.workspaceDiagnostics(held)) as WorkspaceDiagnosticReport;
  assert.ok(second.items.every((item) => item.kind === 'unchanged'));
  assert.equal(lints.size, 0, 'nothing linted for reports the client holds');
});
