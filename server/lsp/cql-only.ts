// The server lints application code (Java, Python, ...) for the CQL in its string literals, but must never take
// over the host language: completion, formatting, semantic tokens, the outline, folding, selection ranges and
// renames are CQL files' alone. Their handlers answer nothing for application code; and a client that registers
// capabilities dynamically (VS Code) gets them registered for CQL documents only, so that it never weighs them
// against the host language's own (two formatters for Java would make VS Code ask which one to use, and a
// semantic-token provider that answers nothing could win over the language's own).
import type {
  ClientCapabilities,
  Registration,
  ServerCapabilities,
  TextDocumentClientCapabilities,
} from 'vscode-languageserver/node';

/** The documents the CQL-only features serve: the `cql` language, and CQL files by name (clients that set no language). */
export const CQL_DOCUMENTS = [{ language: 'cql' }, { pattern: '**/*.{cql,cqlsh}' }];

/** The CQL-only capabilities, their requests, and the client capability that says it registers them dynamically. */
const CQL_ONLY: readonly {
  key: keyof ServerCapabilities;
  method: string;
  client: keyof TextDocumentClientCapabilities;
}[] = [
  { key: 'completionProvider', method: 'textDocument/completion', client: 'completion' },
  { key: 'documentFormattingProvider', method: 'textDocument/formatting', client: 'formatting' },
  { key: 'documentRangeFormattingProvider', method: 'textDocument/rangeFormatting', client: 'rangeFormatting' },
  { key: 'documentOnTypeFormattingProvider', method: 'textDocument/onTypeFormatting', client: 'onTypeFormatting' },
  { key: 'semanticTokensProvider', method: 'textDocument/semanticTokens', client: 'semanticTokens' },
  { key: 'documentSymbolProvider', method: 'textDocument/documentSymbol', client: 'documentSymbol' },
  { key: 'foldingRangeProvider', method: 'textDocument/foldingRange', client: 'foldingRange' },
  { key: 'selectionRangeProvider', method: 'textDocument/selectionRange', client: 'selectionRange' },
  { key: 'renameProvider', method: 'textDocument/rename', client: 'rename' },
];

/**
 * Takes the CQL-only capabilities the client can register dynamically out of `capabilities` (the static answer
 * to `initialize`), and returns their registrations for CQL documents, to send once the client is initialized.
 */
export function deferCqlOnly(capabilities: ServerCapabilities, client: ClientCapabilities): Registration[] {
  const registrations: Registration[] = [];
  const statics = capabilities as Record<string, unknown>;
  for (const { key, method, client: name } of CQL_ONLY) {
    const capability = statics[key];
    const dynamic =
      (client.textDocument?.[name] as { dynamicRegistration?: boolean } | undefined)?.dynamicRegistration === true;
    if (!capability || !dynamic) continue;
    delete statics[key];
    const options = typeof capability === 'object' ? capability : {};
    registrations.push({
      id: `cqlint-${key}`,
      method,
      registerOptions: { ...options, documentSelector: CQL_DOCUMENTS },
    });
  }
  return registrations;
}
