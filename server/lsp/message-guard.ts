// Between the transport and the connection: a well-framed message that cannot be used is answered or
// dropped here, never handed to vscode-jsonrpc, which throws on it (a body that is not JSON, a
// `$/cancelRequest` without a usable id, a JSON value that is not a message), and whose reader error ends
// the process (main.ts: after a framing error the byte stream cannot be resynchronised). Only framing
// errors end the server; anything else about one message costs that message.
import {
  createConnection,
  ErrorCodes,
  LSPErrorCodes,
  ProposedFeatures,
  type Connection,
  type DataCallback,
  type Disposable,
  type Message,
  type MessageReader,
  type MessageWriter,
  type ResponseMessage,
} from 'vscode-languageserver/node';
import { messageEncoder } from './message-encoder';

/** A body that did not decode (not JSON, or an unknown charset), standing in for its message. */
class UnreadableBody {
  constructor(readonly reason: string) {}
}

/**
 * The `application/json` body decoder the stream readers use: JSON as vscode-jsonrpc decodes it, except
 * that a body that does not decode becomes an UnreadableBody (which GuardedReader answers) instead of a
 * reader error.
 */
const lenientJsonDecoder = {
  name: 'application/json',
  decode(buffer: Uint8Array, options: { charset: string }): Promise<Message> {
    try {
      return Promise.resolve(JSON.parse(new TextDecoder(options.charset).decode(buffer)) as Message);
    } catch (error) {
      return Promise.resolve(
        new UnreadableBody(
          error instanceof Error ? error.message.split('\n')[0]! : String(error),
        ) as unknown as Message,
      );
    }
  },
};

/** The stream readers' options: UTF-8, and a body that does not decode is answered by GuardedReader, not raised as a reader error. */
export const READER_OPTIONS = { charset: 'utf-8' as const, contentTypeDecoder: lenientJsonDecoder };

/** The stream writers' options: UTF-8, reports encoded with their diagnostics' JSON kept (message-encoder.ts). */
export const WRITER_OPTIONS = { charset: 'utf-8' as const, contentTypeEncoder: messageEncoder };

interface Dropped {
  /** Why the message is not handled, for the log. */
  reason: string;
  /** What JSON-RPC answers (a parse error or an invalid request, id null); none for a notification. */
  reply?: ResponseMessage;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const errorReply = (code: number, message: string): ResponseMessage => ({
  jsonrpc: '2.0',
  id: null,
  error: { code, message },
});

/** Why a decoded message cannot be handed to the connection, or undefined when it can. */
function unusable(message: unknown): Dropped | undefined {
  if (message instanceof UnreadableBody)
    return {
      reason: `a message body that is not JSON (${message.reason})`,
      reply: errorReply(ErrorCodes.ParseError, 'Parse error: the body is not JSON'),
    };
  if (!isObject(message))
    return {
      reason: 'a JSON value that is not a JSON-RPC message',
      reply: errorReply(ErrorCodes.InvalidRequest, 'Invalid Request: not a JSON-RPC message object'),
    };
  if (message.method === '$/cancelRequest') {
    const id = isObject(message.params) ? message.params.id : undefined;
    if (typeof id !== 'string' && typeof id !== 'number')
      return { reason: '$/cancelRequest without a request id (a number or a string) in its params' };
  }
  return undefined;
}

/**
 * A MessageReader that hands the connection only messages it can handle (see the top of this file);
 * `dropped` is told about the others (to log them and send the reply, if any). A message that still
 * makes the connection throw is reported the same way instead of becoming a reader error.
 */
export class GuardedReader implements MessageReader {
  constructor(
    private readonly inner: MessageReader,
    private readonly dropped: (what: Dropped) => void,
  ) {}

  get onError() {
    return this.inner.onError;
  }

  get onClose() {
    return this.inner.onClose;
  }

  get onPartialMessage() {
    return this.inner.onPartialMessage;
  }

  listen(callback: DataCallback): Disposable {
    return this.inner.listen((message) => {
      const problem = unusable(message);
      if (problem) {
        this.dropped(problem);
        return;
      }
      try {
        callback(message);
      } catch (error) {
        this.dropped({
          reason: `a message the connection could not handle (${error instanceof Error ? error.message : String(error)})`,
        });
      }
    });
  }

  dispose(): void {
    this.inner.dispose();
  }
}

// Requests still waiting in the queue when their $/cancelRequest arrives are answered at once and never
// run (vscode-jsonrpc runs them anyway unless the strategy says otherwise).
const cancelUndispatched = (message: { id?: number | string | null }): ResponseMessage => ({
  jsonrpc: '2.0',
  id: message.id ?? null,
  error: { code: LSPErrorCodes.RequestCancelled, message: 'cancelled before it ran' },
});

/**
 * The server's connection over a transport (main.ts's, or the tests' in-memory streams): unusable messages
 * are dropped by GuardedReader, answered when JSON-RPC says so, and logged (on stderr until the connection
 * exists); requests cancelled while queued never run. The caller handles the transport's errors and close.
 */
export function createServerConnection(reader: MessageReader, writer: MessageWriter): Connection {
  let logDropped = (line: string): void => void process.stderr.write(`${line}\n`);
  const guarded = new GuardedReader(reader, ({ reason, reply }) => {
    logDropped(`cqlint: ignored ${reason}`);
    if (reply) writer.write(reply).catch(() => undefined);
  });
  const connection = createConnection(ProposedFeatures.all, guarded, writer, {
    cancelUndispatched: (message) => cancelUndispatched(message as { id?: number | string | null }),
  });
  logDropped = (line) => connection.console.warn(line);
  return connection;
}
