// Entry point of the language server (dist/server.js, bin/cqlint-language-server.js).
// The transport comes from the command line: --stdio, --node-ipc, --socket=<port> or --pipe=<name>.
import { createConnection, ProposedFeatures } from 'vscode-languageserver/node';
import { createServer } from './server';

const connection = createConnection(ProposedFeatures.all);
createServer(connection);
connection.listen();
