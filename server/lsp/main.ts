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
  createConnection,
  IPCMessageReader,
  IPCMessageWriter,
  LSPErrorCodes,
  ProposedFeatures,
  SocketMessageWriter,
  StreamMessageReader,
  StreamMessageWriter,
  type MessageReader,
  type MessageWriter,
  type ResponseMessage,
} from 'vscode-languageserver/node';
import { createServer } from './server';
import { GuardedReader, lenientJsonDecoder } from './message-guard';

interface Transport {
  reader: MessageReader;
  writer: MessageWriter;
  stdio: boolean;
}

/** A body that does not decode is answered by GuardedReader, not raised as a reader error (message-guard.ts). */
const READER_OPTIONS = { charset: 'utf-8' as const, contentTypeDecoder: lenientJsonDecoder };

/**
 * The transport named on the command line, as vscode-languageserver itself reads it (default stdio); the
 * socket and pipe transports are built as its createServerSocketTransport / createServerPipeTransport build
 * them, with the lenient body decoder.
 */
function transportFromArgs(argv: readonly string[]): Transport {
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] = argv[i]!.split('=', 2);
    const value = inline ?? argv[i + 1];
    if (flag === '--node-ipc') return { reader: new IPCMessageReader(process), writer: new IPCMessageWriter(process), stdio: false };
    if ((flag === '--socket' || flag === '--pipe') && value) {
      const socket = flag === '--socket' ? createSocket(Number.parseInt(value, 10), '127.0.0.1') : createSocket(value);
      return { reader: new StreamMessageReader(socket, READER_OPTIONS), writer: new SocketMessageWriter(socket), stdio: false };
    }
  }
  return { reader: new StreamMessageReader(process.stdin, READER_OPTIONS), writer: new StreamMessageWriter(process.stdout), stdio: true };
}

const transport = transportFromArgs(process.argv.slice(2));

/** Where a dropped message is told about: stderr until the connection exists, then its log too. */
let logDropped = (line: string): void => void process.stderr.write(`${line}\n`);
// Only framing errors reach the reader's onError (and end the process): an unusable message is dropped here.
const reader = new GuardedReader(transport.reader, ({ reason, reply }) => {
  logDropped(`cqlint: ignored ${reason}`);
  if (reply) transport.writer.write(reply).catch(() => undefined);
});

// Requests still waiting in the queue when their $/cancelRequest arrives are answered at once and never
// run (vscode-jsonrpc runs them anyway unless the strategy says otherwise).
const cancelUndispatched = (message: { id?: number | string | null }): ResponseMessage => ({
  jsonrpc: '2.0',
  id: message.id ?? null,
  error: { code: LSPErrorCodes.RequestCancelled, message: 'cancelled before it ran' },
});

const connection = createConnection(ProposedFeatures.all, reader, transport.writer, {
  cancelUndispatched: (message) => cancelUndispatched(message as { id?: number | string | null }),
});

const server = createServer(connection);
logDropped = (line) => connection.console.warn(line);

let exiting = false;
/** Ends the process after a fault the connection cannot recover from, saying why on stderr and in the log. */
function fatal(reason: string): void {
  if (exiting) return;
  exiting = true;
  const line = `cqlint: ${reason}; exiting so that the client can restart the server`;
  process.stderr.write(`${line}\n`);
  try {
    connection.console.error(line);
  } catch {
    // the writer may be gone too
  }
  // Let the log message reach the pipe before the process ends.
  setImmediate(() => process.exit(1));
}

transport.reader.onError((error) => fatal(`protocol error: ${error.message.split('\n')[0]}`));
transport.reader.onPartialMessage((info) =>
  connection.console.warn(`cqlint: a message has been incomplete for ${info.waitingTime} ms (is the Content-Length too long?)`),
);
transport.reader.onClose(() => {
  if (!exiting) process.exit(server.shutdownRequested() ? 0 : 1);
});
transport.writer.onError(([error]) => fatal(`cannot write to the client: ${error.message}`));
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
