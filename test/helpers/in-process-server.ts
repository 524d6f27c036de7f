// The language server run in the test's own process, played by the scripted client over in-memory
// streams, with the connection main.ts gives it (message guard, cancellation of queued requests): for
// suites that test what the server answers, not its process (its stdio, its exit code, its memory),
// which test/lsp/robustness-server.test.ts and test/cli/bin.test.ts test on the built server. Each
// suite saves a process start and a load of the server's modules per server, and can watch what the
// server does inside (such as which node:fs calls it makes).
import { EventEmitter } from 'node:events';
import { PassThrough } from 'node:stream';
import { StreamMessageReader, StreamMessageWriter } from 'vscode-languageserver/node';
import { LspTestClient, type ServerProcess } from '../../scripts/lsp-client';
import { createServer, type ServerOptions } from '../../server/lsp/server';
import { createServerConnection, READER_OPTIONS, WRITER_OPTIONS } from '../../server/lsp/message-guard';

/** Stands in for the server's child process. */
class InProcessServer extends EventEmitter implements ServerProcess {
  readonly stdin = new PassThrough();
  readonly stdout = new PassThrough();
  readonly stderr = new PassThrough();
  private ended = false;

  constructor(options: ServerOptions) {
    super();
    const connection = createServerConnection(
      new StreamMessageReader(this.stdin, READER_OPTIONS),
      new StreamMessageWriter(this.stdout, WRITER_OPTIONS),
    );
    createServer(connection, options);
    connection.listen();
  }

  /**
   * As if the process had ended: the client stops listening. The server's side stays open, unread: work the
   * server finishes after `shutdown` (an index being cancelled, a log line) goes nowhere, as it would in a
   * process that is gone, instead of failing on a disposed connection after the test.
   */
  kill(): boolean {
    if (this.ended) return false;
    this.ended = true;
    setImmediate(() => this.emit('exit', 0));
    return true;
  }
}

class InProcessClient extends LspTestClient<InProcessServer> {
  protected override parentProcessId = null;

  /** `shutdown` only: the `exit` notification would end this process (vscode-languageserver calls process.exit). */
  override async shutdown(): Promise<number | null> {
    if (!this.alive) return 0;
    await this.request('shutdown').catch(() => undefined);
    this.process.kill();
    this.connection.dispose();
    return 0;
  }
}

export type InProcessLspClient = LspTestClient<InProcessServer>;

/** `options.features`: the features to register (default: the server's own). */
export function startInProcessServer(options: ServerOptions = {}): InProcessLspClient {
  return new InProcessClient(new InProcessServer(options));
}
