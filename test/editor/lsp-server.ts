// The language server with the editor features registered, for test/editor/lsp.test.ts and the
// editor benchmark: the default features plus every editor feature not already listed.
import { createConnection, ProposedFeatures } from 'vscode-languageserver/node';
import { createServer } from '../../server/lsp/server';
import { defaultFeatures } from '../../server/lsp/features';
import { editorFeatures } from '../../server/lsp/features/formatting';

const names = new Set(defaultFeatures.map((f) => f.name));
const connection = createConnection(ProposedFeatures.all);
createServer(connection, { features: [...defaultFeatures, ...editorFeatures().filter((f) => !names.has(f.name))] });
connection.listen();
