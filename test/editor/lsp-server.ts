// The language server with the editor features registered (editorServerFeatures), on stdio, for the editor
// and code-action benchmarks; test/editor/lsp.test.ts runs the same server in process.
import { createConnection, ProposedFeatures } from 'vscode-languageserver/node';
import { createServer } from '../../server/lsp/server';
import { editorServerFeatures } from './helpers';

const connection = createConnection(ProposedFeatures.all);
createServer(connection, { features: editorServerFeatures() });
connection.listen();
