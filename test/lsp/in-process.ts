// The language server run in the test's own process, played by the scripted client over in-memory
// streams: for tests that watch what the server does inside (such as which node:fs calls it makes).
import { EventEmitter } from 'node:events';
import { PassThrough } from 'node:stream';
import { createConnection, ProposedFeatures, StreamMessageReader, StreamMessageWriter } from 'vscode-languageserver/node';
import { LspTestClient, type ServerProcess } from '../../scripts/lsp-client';
import { createServer } from '../../server/lsp/server';

/** Stands in for the server's child process. */
class InProcessServer extends EventEmitter implements ServerProcess {
  readonly stdin = new PassThrough();
  readonly stdout = new PassThrough();
  readonly stderr = new PassThrough();
  private readonly connection = createConnection(ProposedFeatures.all, new StreamMessageReader(this.stdin), new StreamMessageWriter(this.stdout));
  private ended = false;

  constructor() {
    super();
    createServer(this.connection);
    this.connection.listen();
  }

  kill(): boolean {
    if (this.ended) return false;
    this.ended = true;
    this.connection.dispose();
    for (const stream of [this.stdin, this.stdout, this.stderr]) stream.end();
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

export function startInProcessServer(): LspTestClient<InProcessServer> {
  return new InProcessClient(new InProcessServer());
}
