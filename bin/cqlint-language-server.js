#!/usr/bin/env node
'use strict';
// Speaks LSP over --stdio (default), --node-ipc or --socket=N; vscode-languageserver reads the flag.
if (
  !process.argv.some((a) => a === '--stdio' || a === '--node-ipc' || a.startsWith('--socket') || a.startsWith('--pipe'))
) {
  process.argv.push('--stdio');
}
require('../dist/server.js');
