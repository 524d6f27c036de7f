import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { MarkupKind, type ClientCapabilities } from 'vscode-languageserver-protocol';
import type {
  CompletionList,
  DocumentSymbol,
  Hover,
  InitializeResult,
  Location,
  SemanticTokens,
  SelectionRange,
  FoldingRange,
  TextEdit,
  WorkspaceEdit,
  SymbolInformation,
} from 'vscode-languageserver-protocol';
import { tempWorkspace, capabilities, type LspTestClient, type TempWorkspace } from '../../scripts/lsp-client';
import { startInProcessServer } from '../helpers/in-process-server';
import { editorServerFeatures, SCHEMA } from './helpers';

const CLIENT: ClientCapabilities = {
  ...capabilities.pull,
  textDocument: {
    ...capabilities.pull.textDocument,
    completion: {
      completionItem: { snippetSupport: true, documentationFormat: [MarkupKind.Markdown, MarkupKind.PlainText] },
    },
    documentSymbol: { hierarchicalDocumentSymbolSupport: true },
    rename: { prepareSupport: true },
    hover: { contentFormat: [MarkupKind.Markdown] },
  },
};

describe('editor features through the language server', () => {
  let client: LspTestClient;
  let ws: TempWorkspace;
  let init: InitializeResult;
  const QUERY = 'USE shop;\nselect total from orders where customer_id = ? and order_day = ?;\n';

  before(async () => {
    ws = tempWorkspace({ 'schema.cql': SCHEMA });
    client = startInProcessServer({ features: editorServerFeatures() });
    init = await client.initialize(CLIENT, {
      workspaceFolders: [ws.dir],
      settings: { format: { keywordCase: 'upper' } },
    });
    await client.open(ws.uri('query.cql'), QUERY);
  });

  after(async () => {
    await client?.shutdown();
    ws?.cleanup();
  });

  test('capabilities are advertised', () => {
    const c = init.capabilities;
    assert.ok(c.completionProvider && c.hoverProvider && c.definitionProvider && c.referencesProvider);
    assert.deepEqual(c.renameProvider, { prepareProvider: true });
    assert.ok(
      c.documentSymbolProvider && c.workspaceSymbolProvider && c.foldingRangeProvider && c.selectionRangeProvider,
    );
    assert.ok(c.documentFormattingProvider && c.documentRangeFormattingProvider);
    const legend = (c.semanticTokensProvider as { legend: { tokenModifiers: string[] } }).legend;
    assert.ok(legend.tokenModifiers.includes('partitionKey') && legend.tokenModifiers.includes('clusteringKey'));
  });

  test('completion, hover, definition and references', async () => {
    const uri = ws.uri('query.cql');
    const list = (await client.request('textDocument/completion', {
      textDocument: { uri },
      position: { line: 1, character: 7 },
    })) as CompletionList;
    const total = list.items.find((i) => i.label === 'total');
    assert.ok(total, list.items.map((i) => i.label).join(','));
    assert.match(total.detail!, /decimal/);

    const hover = (await client.request('textDocument/hover', {
      textDocument: { uri },
      position: { line: 1, character: 19 },
    })) as Hover;
    const value = (hover.contents as { value: string }).value;
    assert.match(value, /shop\.orders/);
    assert.match(value, /Estimated row/, 'the table hover is the schema description (with row size)');

    const defs = (await client.request('textDocument/definition', {
      textDocument: { uri },
      position: { line: 1, character: 33 },
    })) as Location[];
    assert.equal(defs.length, 1);
    assert.equal(defs[0].uri, ws.uri('schema.cql'));
    const refs = (await client.request('textDocument/references', {
      textDocument: { uri },
      position: { line: 1, character: 8 },
      context: { includeDeclaration: true },
    })) as Location[];
    assert.ok(refs.some((r) => r.uri === ws.uri('schema.cql')) && refs.some((r) => r.uri === uri));
  });

  test('rename produces a workspace edit over both files', async () => {
    const uri = ws.uri('query.cql');
    const prepared = (await client.request('textDocument/prepareRename', {
      textDocument: { uri },
      position: { line: 1, character: 8 },
    })) as { placeholder: string };
    assert.equal(prepared.placeholder, 'total');
    const edit = (await client.request('textDocument/rename', {
      textDocument: { uri },
      position: { line: 1, character: 8 },
      newName: 'Amount',
    })) as WorkspaceEdit;
    const files = Object.keys(edit.changes!);
    assert.ok(files.includes(uri) && files.includes(ws.uri('schema.cql')));
    assert.ok(
      Object.values(edit.changes!)
        .flat()
        .every((e) => e.newText === '"Amount"'),
    );
    assert.equal(
      await client.request('textDocument/prepareRename', {
        textDocument: { uri },
        position: { line: 1, character: 2 },
      }),
      null,
    );
    const clash = await client.request('textDocument/rename', {
      textDocument: { uri },
      position: { line: 1, character: 8 },
      newName: 'note',
    });
    assert.equal(clash, null);
    await client.waitForLog(/already has a column named note/);
  });

  test('symbols, semantic tokens, folding and selection ranges', async () => {
    const schemaUri = ws.uri('schema.cql');
    const symbols = (await client.request('textDocument/documentSymbol', {
      textDocument: { uri: schemaUri },
    })) as DocumentSymbol[];
    assert.ok(symbols.find((s) => s.name === 'shop.orders')!.children!.length === 6);
    const found = (await client.request('workspace/symbol', { query: 'orders' })) as SymbolInformation[];
    assert.ok(found.some((s) => s.name === 'shop.orders'));
    const tokens = (await client.request('textDocument/semanticTokens/full', {
      textDocument: { uri: ws.uri('query.cql') },
    })) as SemanticTokens;
    assert.ok(tokens.data.length > 0 && tokens.data.length % 5 === 0);
    const folds = (await client.request('textDocument/foldingRange', {
      textDocument: { uri: schemaUri },
    })) as FoldingRange[];
    assert.ok(folds.some((f) => f.startLine === 3));
    const sel = (await client.request('textDocument/selectionRange', {
      textDocument: { uri: ws.uri('query.cql') },
      positions: [{ line: 1, character: 8 }],
    })) as SelectionRange[];
    assert.equal(sel.length, 1);
    assert.ok(sel[0].parent);
  });

  test('formatting upper-cases keywords and lays out clauses', async () => {
    const uri = ws.uri('query.cql');
    const edits = (await client.request('textDocument/formatting', {
      textDocument: { uri },
      options: { tabSize: 2, insertSpaces: true },
    })) as TextEdit[];
    assert.equal(edits.length, 1);
    assert.equal(
      edits[0].newText,
      'USE shop;\nSELECT total\nFROM orders\nWHERE customer_id = ?\n  AND order_day = ?;\n',
    );
    await client.changeSettings({ format: { keywordCase: 'preserve' } });
    const preserved = (await client.request('textDocument/formatting', {
      textDocument: { uri },
      options: { tabSize: 2, insertSpaces: true },
    })) as TextEdit[];
    assert.match(preserved[0].newText, /^select total\nfrom orders/m);
  });
});
