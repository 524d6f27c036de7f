// The code actions the language server answers with, computed from a Project (no connection needed).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { pathToFileURL } from 'node:url';
import type { TextDocumentEdit, TextEdit as LspTextEdit } from 'vscode-languageserver/node';
import { TextDocument } from 'vscode-languageserver-textdocument';
import {
  codeActionsFor,
  resolveCodeAction,
  FIX_ALL_KIND,
  type CodeActionRequest,
} from '../../server/lsp/features/code-actions';
import { MAIN, projectWith } from './helpers';

const CODE = `CREATE TABLE ks.books (
    publish_date date,
    title text,
    author text,
    PRIMARY KEY (publish_date, title)
);
SELECT autor FROM ks.books WHERE publish_date = '2024-01-01';
`;
const uri = pathToFileURL(MAIN).href;

function request(start: number, end: number, extra: Partial<CodeActionRequest> = {}): CodeActionRequest {
  return { project: projectWith(CODE), filePath: MAIN, uri, start, end, diagnostics: [], ...extra };
}

function apply(text: string, edits: LspTextEdit[]): string {
  return TextDocument.applyEdits(TextDocument.create(uri, 'cql', 1, text), edits);
}

describe('code actions', () => {
  test('quick fixes for the finding under the cursor, with their diagnostic', () => {
    const at = CODE.indexOf('autor');
    const actions = codeActionsFor(request(at, at));
    assert.deepEqual(
      actions.map((a) => [a.title, a.kind, a.isPreferred]),
      [['Change to author', 'quickfix', true]],
    );
    assert.equal(actions[0].diagnostics?.[0].code, 'unknown-column');
    const edits = actions[0].edit!.changes![uri];
    assert.equal(apply(CODE, edits), CODE.replace('SELECT autor', 'SELECT author'));
  });

  test('the shard column actions on the hot partition key follow the reads: a whole-partition read, so random first', () => {
    const at = CODE.indexOf('publish_date, title)');
    const actions = codeActionsFor(request(at, at + 3, { shardCount: 4 }));
    assert.deepEqual(
      actions.map((a) => [a.title, a.isPreferred]),
      [
        ['Add a random shard column (4 shards); rewrites 1 statement', true],
        ['Add a calculated shard column from title (4 shards); rewrites 1 statement', undefined],
        ['Create a copy of ks.books: ks.books_sharded, a random shard column (4 shards)', undefined],
        [
          'Create a copy of ks.books: ks.books_sharded, a random shard column (4 shards), and move 1 statement to it',
          undefined,
        ],
      ],
    );
    const out = apply(CODE, actions[0].edit!.changes![uri]);
    assert.ok(out.startsWith('-- @shard shard = random(4)\nCREATE TABLE ks.books ('), out);
    assert.ok(out.includes('    shard int,\n    PRIMARY KEY ((publish_date, shard), title)'), out);
    assert.ok(
      out.endsWith(
        "-- reads all 4 shards: merge the rows\nSELECT autor FROM ks.books WHERE publish_date = '2024-01-01' AND shard IN (1, 2, 3, 4);\n",
      ),
      out,
    );
  });

  test("a fix that edits another file carries that file's edits in the same workspace edit", () => {
    const project = projectWith(CODE.slice(0, CODE.indexOf('SELECT')), {
      'q.cql': "SELECT title FROM ks.books WHERE publish_date = '2024-01-01';\n",
    });
    const at = CODE.indexOf('publish_date, title)');
    const [first] = codeActionsFor({ ...request(at, at), project, shardCount: 2, pathToUri: (p) => `file://${p}` });
    const other = `file://${MAIN.replace('main.cql', 'q.cql')}`;
    assert.deepEqual(Object.keys(first!.edit!.changes!), [uri, other]);
    assert.equal(
      apply("SELECT title FROM ks.books WHERE publish_date = '2024-01-01';\n", first!.edit!.changes![other]!),
      "-- reads both shards: merge the rows\nSELECT title FROM ks.books WHERE publish_date = '2024-01-01' AND shard IN (1, 2);\n",
    );
  });

  test('reuses the diagnostic the client sent', () => {
    const at = CODE.indexOf('autor');
    const [first] = codeActionsFor(request(at, at));
    const sent = { ...first.diagnostics![0], message: 'as the client has it' };
    const [again] = codeActionsFor(request(at, at, { diagnostics: [sent] }));
    assert.equal(again.diagnostics![0].message, 'as the client has it');
  });

  test('fix-all only when asked for source actions, and versioned edits when the client supports them', () => {
    const none = codeActionsFor(request(0, CODE.length));
    assert.ok(!none.some((a) => a.kind === FIX_ALL_KIND));
    const onlyFixAll = codeActionsFor(request(0, 0, { only: ['source.fixAll'], version: 7 }));
    assert.deepEqual(
      onlyFixAll.map((a) => a.kind),
      [FIX_ALL_KIND],
    );
    const change = onlyFixAll[0].edit!.documentChanges![0] as TextDocumentEdit;
    assert.deepEqual(change.textDocument, { uri, version: 7 });
    assert.equal(apply(CODE, change.edits as LspTextEdit[]), CODE.replace('SELECT autor', 'SELECT author'));
    assert.deepEqual(
      codeActionsFor(request(0, 0, { only: ['quickfix'] })).filter((a) => a.kind === FIX_ALL_KIND),
      [],
    );
  });

  test('nothing for a file the project does not have', () => {
    assert.deepEqual(codeActionsFor({ ...request(0, 0), filePath: '/nowhere.cql' }), []);
  });
});

describe('code actions resolved lazily (codeAction/resolve)', () => {
  test('a partition fix comes without its edit and with the data to resolve it; resolving gives the eager edit', () => {
    const at = CODE.indexOf('publish_date, title)');
    const eager = codeActionsFor(request(at, at, { shardCount: 4 }));
    const lazy = codeActionsFor(request(at, at, { shardCount: 4, resolveEdits: true }));
    assert.deepEqual(
      lazy.map((a) => a.title),
      eager.map((a) => a.title),
    );
    for (const [i, action] of lazy.entries()) {
      assert.equal(action.edit, undefined, `${action.title}: no edit before it is resolved`);
      assert.ok(action.data, `${action.title}: data to resolve it`);
      const resolved = resolveCodeAction(action, { project: projectWith(CODE), filePath: MAIN, uri, shardCount: 4 });
      assert.deepEqual(resolved.edit, eager[i]!.edit, `${action.title}: the resolved edit is the eager one`);
    }
  });

  test('a one-statement fix keeps its edit; a stale or foreign action resolves to itself, without an edit', () => {
    const typo = CODE.indexOf('autor');
    const [rename] = codeActionsFor(request(typo, typo, { resolveEdits: true }));
    assert.ok(rename!.edit, 'the rename is cheap: its edit comes at once');
    const at = CODE.indexOf('publish_date, title)');
    const [lazy] = codeActionsFor(request(at, at, { resolveEdits: true }));
    const changed = projectWith(CODE.replace('author text,', 'author text,\n    isbn text,'));
    assert.equal(
      resolveCodeAction(lazy!, { project: changed, filePath: MAIN, uri }).edit,
      undefined,
      'the finding moved: no edit',
    );
    const foreign = { ...lazy!, data: { something: 'else' } };
    assert.equal(resolveCodeAction(foreign, { project: projectWith(CODE), filePath: MAIN, uri }), foreign);
  });
});
