// Entry point of the language server (dist/server.js, bin/cqlint-language-server.js).
// The transport comes from the command line: --stdio, --node-ipc, --socket=<port> or --pipe=<name>.
//
// The reader and writer are made here rather than by vscode-languageserver so that a framing error (a
// wrong Content-Length, an unparsable header) ends the process: after one, the byte stream cannot be
// resynchronised, and a server that stays up answers nothing ever again while the client thinks it is
// alive. Exiting non-zero lets the client restart it. A well-framed message that cannot be used (a body
// that is not JSON, a $/cancelRequest without an id) only costs that message (message-guard.ts).
import { createConnection as createSocket } from 'node:net';
import {
  IPCMessageReader,
  IPCMessageWriter,
  SocketMessageWriter,
  StreamMessageReader,
  StreamMessageWriter,
  type MessageReader,
  type MessageWriter,
} from 'vscode-languageserver/node';
import { createServer } from './server';
import { createServerConnection, READER_OPTIONS, WRITER_OPTIONS } from './message-guard';
import { parseServerArgs, SERVER_USAGE, type ServerTransport } from './args';

interface Transport {
  reader: MessageReader;
  writer: MessageWriter;
  stdio: boolean;
}

/**
 * The transport named on the command line (args.ts, as vscode-languageserver reads it; default stdio); the
 * socket and pipe transports are built as its createServerSocketTransport / createServerPipeTransport build
 * them, with the lenient body decoder.
 */
function transportOf(named: ServerTransport): Transport {
  switch (named.kind) {
    case 'node-ipc':
      return { reader: new IPCMessageReader(process), writer: new IPCMessageWriter(process), stdio: false };
    case 'socket':
    case 'pipe': {
      const socket = named.kind === 'socket' ? createSocket(named.port, '127.0.0.1') : createSocket(named.name);
      return {
        reader: new StreamMessageReader(socket, READER_OPTIONS),
        writer: new SocketMessageWriter(socket, WRITER_OPTIONS),
        stdio: false,
      };
    }
    default:
      return {
        reader: new StreamMessageReader(process.stdin, READER_OPTIONS),
        writer: new StreamMessageWriter(process.stdout, WRITER_OPTIONS),
        stdio: true,
      };
  }
}

const args = parseServerArgs(process.argv.slice(2));
if (!('transport' in args)) {
  // Before anything starts: one line (the usage with --help), exit 2 for a bad command line.
  if ('help' in args) process.stdout.write(`${SERVER_USAGE}\n`);
  else process.stderr.write(`cqlint-language-server: ${args.error}\n${SERVER_USAGE}\n`);
  process.exit('help' in args ? 0 : 2);
}
const transport = transportOf(args.transport);

const connection = createServerConnection(transport.reader, transport.writer);
const server = createServer(connection);

let exiting = false;
/**
 * Ends the process after a fault the connection cannot recover from, saying why on stderr and, while the
 * writer works (`tell`), in the client's log.
 */
function fatal(reason: string, tell = true): void {
  if (exiting) return;
  exiting = true;
  const line = `cqlint: ${reason}; exiting so that the client can restart the server`;
  process.stderr.write(`${line}\n`);
  try {
    if (tell) connection.console.error(line);
  } catch {
    // the writer may be gone too
  }
  // Let the log message reach the pipe before the process ends.
  setImmediate(() => process.exit(1));
}

transport.reader.onError((error) => fatal(`protocol error: ${error.message.split('\n')[0]}`));
transport.reader.onPartialMessage((info) =>
  connection.console.warn(
    `cqlint: a message has been incomplete for ${info.waitingTime} ms (is the Content-Length too long?)`,
  ),
);
transport.reader.onClose(() => {
  if (!exiting) process.exit(server.shutdownRequested() ? 0 : 1);
});
transport.writer.onError(([error]) => fatal(`cannot write to the client: ${error.message}`, false));
transport.writer.onClose(() => {
  if (!exiting) process.exit(server.shutdownRequested() ? 0 : 1);
});

if (transport.stdio) {
  // stdout carries the protocol: anything printed with console.* goes to the client's log instead
  // (vscode-languageserver does the same when it owns the streams).
  console.log = (...args: unknown[]) => connection.console.log(args.map(String).join(' '));
  console.info = (...args: unknown[]) => connection.console.info(args.map(String).join(' '));
  console.warn = (...args: unknown[]) => connection.console.warn(args.map(String).join(' '));
  console.error = (...args: unknown[]) => connection.console.error(args.map(String).join(' '));
}

connection.listen();
