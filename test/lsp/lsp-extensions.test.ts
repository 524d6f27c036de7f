// cqlint's extensions to LSP have one home, server/lsp/lsp-extensions.ts: the server answers every request it
// declares, no other shipped file writes a custom method or command name, and docs/lsp-extensions.md shows
// each (the page's reference block is generated: test/docs/generated.test.ts keeps it current).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import * as extensions from '../../server/lsp/lsp-extensions';
import { LSP_EXTENSIONS_MODULE, lspExtensionsReference } from '../../scripts/generate-docs';
import { capabilities, projectRoot, tempWorkspace } from '../../scripts/lsp-client';
import { startInProcessServer } from '../helpers/in-process-server';

const messages = (Object.values(extensions) as unknown[]).filter(
  (value): value is extensions.Request<unknown, unknown> | extensions.Notification<unknown> =>
    typeof value === 'object' && value !== null && 'method' in value,
);
const commands = Object.entries(extensions)
  .filter(([name]) => name.endsWith('_COMMAND'))
  .map(([, value]) => value as string);

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sourceFiles(path) : path.endsWith('.ts') ? [path] : [];
  });
}

/** The string literals of a TypeScript file, with where they are. */
function stringLiterals(file: string): { text: string; at: string }[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const found: { text: string; at: string }[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isStringLiteralLike(node))
      found.push({
        text: node.text,
        at: `${relative(projectRoot, file)}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1}`,
      });
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('LSP extensions (server/lsp/lsp-extensions.ts)', () => {
  test('declares the custom requests, the notification and the commands', () => {
    assert.deepEqual(messages.map((m) => `${m.kind} ${m.method}`).sort(), [
      'notification cqlint/indexStatus',
      'request cqlint/partitionReport',
      'request cqlint/sampleConfigEdit',
      'request cqlint/tokenAt',
    ]);
    assert.deepEqual(commands.sort(), [
      'cqlint.choosePartitionReportSample',
      'cqlint.openReportSource',
      'cqlint.showPartitionReport',
    ]);
  });

  test('no other file of the server or the client writes a custom method or one of these commands', () => {
    const names = new Set([...messages.map((m) => m.method), ...commands]);
    const written = ['server', 'client']
      .flatMap((folder) => sourceFiles(join(projectRoot, folder)))
      .filter((file) => relative(projectRoot, file) !== LSP_EXTENSIONS_MODULE)
      .flatMap(stringLiterals)
      .filter((literal) => /^cqlint\/\w/.test(literal.text) || names.has(literal.text));
    assert.deepEqual(written, []);
  });

  test('the server answers every request it declares (null for params of another shape), and no other cqlint/ method', async (t) => {
    const ws = tempWorkspace({ 'schema.cql': 'CREATE TABLE ks.t (id int PRIMARY KEY, v text);\n' });
    t.after(() => ws.cleanup());
    const client = startInProcessServer();
    t.after(() => client.shutdown());
    await client.initialize(capabilities.pull, { workspaceFolders: [ws.dir] });
    await client.waitForLog(/cqlint: indexed \d+ CQL file/);
    for (const message of messages) {
      if (message.kind === 'request')
        assert.equal(await client.request(message.method, { bogus: true }), null, message.method);
    }
    await assert.rejects(
      client.request('cqlint/doesNotExist', {}),
      (error: { code?: number }) => error.code === -32601,
    );
  });

  test('the reference in docs/lsp-extensions.md names every method and command, with its types as declared', () => {
    const reference = lspExtensionsReference(readFileSync(join(projectRoot, LSP_EXTENSIONS_MODULE), 'utf8'));
    for (const message of messages)
      assert.match(reference, new RegExp(`### \`${message.method}\` \\(${message.kind}, `), message.method);
    for (const command of commands) assert.ok(reference.includes(`### \`${command}\` (client command)`), command);
    assert.ok(
      reference.includes(
        'interface TokenAtParams {\n  textDocument: TextDocumentIdentifier;\n  position: Position;\n}',
      ),
    );
    assert.ok(reference.includes('Params: `TokenAtParams`; result: `TokenAtResult | null` (`tokenAtRequest`).'));
    assert.ok(
      readFileSync(join(projectRoot, 'docs', 'lsp-extensions.md'), 'utf8').includes(reference),
      'docs/lsp-extensions.md is stale: run `npm run generate`',
    );
  });
});
