// The language server's command line, checked before anything starts: the transport (as
// vscode-languageserver reads it: --stdio, --node-ipc, --socket=<port>, --pipe=<name>) and the client's
// process id VS Code passes. A wrong value or an unknown option is one line on stderr and exit 2, never a
// Node stack trace (`--socket=abc` died with ERR_SOCKET_BAD_PORT).

export type ServerTransport =
  { kind: 'stdio' } | { kind: 'node-ipc' } | { kind: 'socket'; port: number } | { kind: 'pipe'; name: string };

export type ServerArgs = { transport: ServerTransport } | { help: true } | { error: string };

export const SERVER_USAGE =
  'Usage: cqlint-language-server [--stdio | --node-ipc | --socket=<port> | --pipe=<name>] [--clientProcessId=<pid>]';

const TRANSPORT_FLAGS = ['--stdio', '--node-ipc', '--socket', '--pipe'];

/** Reads the server's arguments (those after the script); the default transport is stdio. */
export function parseServerArgs(argv: readonly string[]): ServerArgs {
  let transport: ServerTransport | undefined;
  const set = (flag: string, next: ServerTransport): string | undefined => {
    if (transport) return `${flag}: only one transport can be given (${TRANSPORT_FLAGS.join(', ')})`;
    transport = next;
    return undefined;
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const eq = arg.indexOf('=');
    const flag = eq < 0 ? arg : arg.slice(0, eq);
    const takesValue = flag === '--socket' || flag === '--pipe' || flag === '--clientProcessId';
    let value: string | undefined;
    if (takesValue) {
      value = eq < 0 ? argv[++i] : arg.slice(eq + 1);
      if (value === undefined || value === '') return { error: `${flag} expects a value` };
    } else if (eq >= 0) return { error: `${flag} takes no value` };
    let problem: string | undefined;
    switch (flag) {
      case '--help':
      case '-h':
        return { help: true };
      case '--stdio':
        problem = set(flag, { kind: 'stdio' });
        break;
      case '--node-ipc':
        problem = set(flag, { kind: 'node-ipc' });
        break;
      case '--socket': {
        const port = /^\d{1,5}$/.test(value!) ? Number(value) : Number.NaN;
        if (!(port >= 1 && port <= 65535))
          return {
            error: `--socket expects a port number from 1 to 65535, got ${JSON.stringify(value!.slice(0, 40))}`,
          };
        problem = set(flag, { kind: 'socket', port });
        break;
      }
      case '--pipe':
        problem = set(flag, { kind: 'pipe', name: value! });
        break;
      case '--clientProcessId':
        if (!/^\d{1,10}$/.test(value!))
          return { error: `--clientProcessId expects a process id, got ${JSON.stringify(value!.slice(0, 40))}` };
        break;
      default:
        return { error: `unknown option ${JSON.stringify(arg.slice(0, 60))}` };
    }
    if (problem) return { error: problem };
  }
  return { transport: transport ?? { kind: 'stdio' } };
}
