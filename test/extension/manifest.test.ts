// The extension manifest (package.json) and the files it points at, checked without VS Code.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_SETTINGS, KEYWORD_CASES, parseSettings } from '../../server/lsp/settings';
import { TARGET_IDS } from '../../server/core/vocabulary/config';
import { EMBEDDED_LANGUAGES } from '../../server/core/vocabulary/config';

const root = join(__dirname, '..', '..');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const readJson = (rel: string) => JSON.parse(readFileSync(join(root, rel), 'utf8'));

test('activates on CQL files, on application code (for the CQL in its strings) and on a workspace with .cqlint.json', () => {
  const hosts = [
    'java',
    'kotlin',
    'python',
    'go',
    'javascript',
    'javascriptreact',
    'typescript',
    'typescriptreact',
    'csharp',
  ];
  assert.deepEqual(pkg.activationEvents, [
    'onLanguage:cql',
    ...hosts.map((l) => `onLanguage:${l}`),
    'workspaceContains:**/.cqlint.json',
  ]);
  assert.equal(pkg.main, './dist/extension.js');
});

test('contributes the cql language with its aliases, extensions, configuration and grammar', () => {
  const [language] = pkg.contributes.languages;
  assert.equal(language.id, 'cql');
  assert.deepEqual(language.extensions, ['.cql', '.cqlsh']);
  assert.ok(language.aliases.includes('CQL') && language.aliases.includes('Cassandra Query Language'));
  assert.ok(existsSync(join(root, language.configuration)), language.configuration);
  const [grammar] = pkg.contributes.grammars;
  assert.equal(grammar.language, 'cql');
  assert.equal(grammar.scopeName, 'source.cql');
  assert.equal(readJson(grammar.path).scopeName, 'source.cql');
  const [snippets] = pkg.contributes.snippets;
  assert.equal(snippets.language, 'cql');
  assert.ok(existsSync(join(root, snippets.path)));
});

test('every file the manifest references exists', () => {
  const referenced = [
    pkg.icon,
    ...pkg.contributes.languages.flatMap((l: { configuration: string; icon?: { light: string; dark: string } }) => [
      l.configuration,
      ...(l.icon ? [l.icon.light, l.icon.dark] : []),
    ]),
    ...pkg.contributes.grammars.map((g: { path: string }) => g.path),
    ...pkg.contributes.snippets.map((s: { path: string }) => s.path),
    ...pkg.contributes.jsonValidation.map((j: { url: string }) => j.url),
    'LICENSE',
    'CHANGELOG.md',
  ];
  const missing = referenced.filter((rel) => !existsSync(join(root, rel)));
  assert.deepEqual(missing, []);
});

test('the icon is a 128x128 PNG', () => {
  const png = readFileSync(join(root, pkg.icon));
  assert.equal(png.subarray(1, 4).toString('latin1'), 'PNG');
  assert.equal(png.readUInt32BE(16), 128);
  assert.equal(png.readUInt32BE(20), 128);
});

test('.cqlint.json is validated with the project schema', () => {
  assert.deepEqual(pkg.contributes.jsonValidation, [
    { fileMatch: '.cqlint.json', url: './schemas/cqlint.schema.json' },
  ]);
});

test('settings: the defaults in the manifest are the defaults the server uses', () => {
  const props = pkg.contributes.configuration.properties;
  assert.deepEqual(Object.keys(props).sort(), [
    'cqlint.cluster',
    'cqlint.embedded.languages',
    'cqlint.evidence',
    'cqlint.format.keywordCase',
    'cqlint.inlayHints.shards',
    'cqlint.inlayHints.tokens',
    'cqlint.ringFile',
    'cqlint.rules',
    'cqlint.shardCount',
    'cqlint.target',
    'cqlint.trace.server',
  ]);
  for (const [key, schema] of Object.entries<{ description?: string; markdownDescription?: string }>(props)) {
    assert.ok((schema.description ?? schema.markdownDescription ?? '').length > 20, `${key} needs a description`);
  }
  // 'auto' (the default) lets each file's .cqlint.json choose; the server reads it as "no override".
  assert.deepEqual(props['cqlint.target'].enum, ['auto', ...TARGET_IDS]);
  assert.equal(props['cqlint.target'].default, 'auto');
  assert.equal(parseSettings({ target: 'auto' }).target, DEFAULT_SETTINGS.target);
  for (const id of TARGET_IDS) assert.equal(parseSettings({ target: id }).target, id);
  // Unset (null in the manifest, undefined in the server): the fixes size shards from the workload.
  assert.equal(props['cqlint.shardCount'].default, null);
  assert.equal(DEFAULT_SETTINGS.shardCount, undefined);
  assert.equal(parseSettings({ shardCount: null }).shardCount, undefined);
  assert.equal(props['cqlint.inlayHints.tokens'].default, DEFAULT_SETTINGS.inlayHints.tokens);
  assert.equal(props['cqlint.inlayHints.shards'].default, DEFAULT_SETTINGS.inlayHints.shards);
  assert.equal(props['cqlint.trace.server'].default, DEFAULT_SETTINGS.trace.server);
  assert.deepEqual(props['cqlint.format.keywordCase'].enum, [...KEYWORD_CASES]);
  assert.equal(props['cqlint.format.keywordCase'].default, DEFAULT_SETTINGS.format.keywordCase);
  assert.deepEqual(props['cqlint.evidence'].default, DEFAULT_SETTINGS.evidence);
  assert.deepEqual(parseSettings({ evidence: ['ops/evidence', ' '] }).evidence, ['ops/evidence']);
  // Unset (null): the .cqlint.json's `embedded`, else every language.
  assert.equal(props['cqlint.embedded.languages'].default, null);
  assert.deepEqual(props['cqlint.embedded.languages'].items.enum, [...EMBEDDED_LANGUAGES]);
  assert.deepEqual(DEFAULT_SETTINGS.embedded, {});
  // Every setting is declared per resource (folder) but the trace, which belongs to the window, and the
  // ring file, which reads a file anywhere and so is a user setting (a workspace must not set it).
  const scopes: Record<string, string> = {
    'cqlint.trace.server': 'window',
    'cqlint.ringFile': 'machine',
    'cqlint.evidence': 'machine',
    'cqlint.cluster': 'machine',
  };
  assert.deepEqual(parseSettings({ cluster: { version: '4.1', config: 'ops/cassandra.yaml' } }).cluster, {
    version: '4.1',
    config: 'ops/cassandra.yaml',
  });
  const clusterProblems: string[] = [];
  assert.equal(parseSettings({ cluster: { version: '3.11' } }, clusterProblems).cluster, undefined);
  assert.match(clusterProblems.join('\n'), /cqlint\.cluster: expected/);
  for (const [key, schema] of Object.entries<{ scope?: string }>(props))
    assert.equal(schema.scope, scopes[key] ?? 'resource', key);
  assert.deepEqual(props['cqlint.rules'].default, DEFAULT_SETTINGS.rules);
  assert.deepEqual(props['cqlint.rules'].additionalProperties.enum, ['off', 'warn', 'error']);
  // What VS Code sends for an untouched configuration parses to the server's defaults, without complaints.
  const asSent = Object.fromEntries(
    Object.entries<{ default: unknown }>(props).map(([k, v]) => [k.slice('cqlint.'.length), v.default]),
  );
  const problems: string[] = [];
  assert.deepEqual(parseSettings(asSent, problems), DEFAULT_SETTINGS);
  assert.deepEqual(problems, []);
});

test('commands: titled, in the cqlint category, and registered by the client', () => {
  const source = clientSources()
    .map(([, text]) => text)
    .join('\n');
  const ids = pkg.contributes.commands.map((c: { command: string }) => c.command);
  assert.deepEqual(ids, [
    'cqlint.restartServer',
    'cqlint.showOutput',
    'cqlint.showTokenAtCursor',
    'cqlint.showPartitionReport',
    'cqlint.choosePartitionReportSample',
  ]);
  for (const command of pkg.contributes.commands) {
    assert.equal(command.category, 'cqlint');
    assert.ok(command.title.length > 5);
    // By its name, or by a constant: the client's own, or one the server names too (server/lsp/lsp-extensions.ts).
    const shared = readFileSync(join(root, 'server', 'lsp', 'lsp-extensions.ts'), 'utf8');
    const registered =
      source.includes(`registerCommand('${command.command}'`) ||
      [...`${source}\n${shared}`.matchAll(/const (\w+_COMMAND) = '([^']+)'/g)].some(
        (m) => m[2] === command.command && source.includes(`registerCommand(${m[1]}`),
      );
    assert.ok(registered, `${command.command} is not registered by the client`);
  }
});

test('capabilities: limited in untrusted and virtual workspaces; settings that read files are user-only', () => {
  assert.equal(pkg.capabilities.untrustedWorkspaces.supported, 'limited');
  assert.deepEqual(pkg.capabilities.untrustedWorkspaces.restrictedConfigurations, [
    'cqlint.ringFile',
    'cqlint.evidence',
    'cqlint.cluster',
  ]);
  assert.ok(pkg.capabilities.untrustedWorkspaces.description);
  // A workspace's own settings must not point the server at files outside it.
  assert.equal(pkg.contributes.configuration.properties['cqlint.ringFile'].scope, 'machine');
  assert.equal(pkg.contributes.configuration.properties['cqlint.evidence'].scope, 'machine');
  assert.equal(pkg.contributes.configuration.properties['cqlint.cluster'].scope, 'machine');
  assert.match(
    readFileSync(join(root, 'client', 'extension.ts'), 'utf8'),
    /workspaceTrusted: vscode\.workspace\.isTrusted/,
  );
  assert.equal(pkg.capabilities.virtualWorkspaces.supported, 'limited');
});

test('scripts: packaging runs the production build first, offline, without node_modules', () => {
  assert.equal(pkg.scripts['vscode:prepublish'], 'node scripts/build.mjs --production');
  assert.match(pkg.scripts.package, /^vsce package --no-dependencies\b/);
  assert.ok(pkg.scripts['test:vscode'] && pkg.scripts['test:e2e']);
});

test("the client stays thin: it imports only vscode, the language client, node built-ins, its own files and the custom LSP messages' declarations", () => {
  for (const [file, text] of clientSources()) {
    const imports = [...text.matchAll(/from '([^']+)'/g)].map((m) => m[1]!);
    for (const name of imports) {
      assert.ok(
        name === 'vscode' ||
          name.startsWith('node:') ||
          name === 'vscode-languageclient/node' ||
          /^\.\/[\w-]+$/.test(name) ||
          name === '../server/lsp/lsp-extensions',
        `client/${file} imports ${name}: language logic belongs in the server`,
      );
    }
  }
  const source = readFileSync(join(root, 'client', 'extension.ts'), 'utf8');
  assert.match(source, /asAbsolutePath\('dist\/server\.js'\)/);
  assert.match(source, /TransportKind\.ipc/);
});

/** Every TypeScript file of the client, with its text. */
function clientSources(): [string, string][] {
  return readdirSync(join(root, 'client'))
    .filter((f) => f.endsWith('.ts'))
    .map((f) => [f, readFileSync(join(root, 'client', f), 'utf8')]);
}
