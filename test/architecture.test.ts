// The shape of the code base, checked on every run: no import cycles, and the layers import only downwards
// (grammar -> server/core -> server/lsp and server/cli; tests and benchmarks on top). Imports are read
// with the TypeScript parser, so `import type`, `export ... from`, `require()` and `import()` all count.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

const projectRoot = resolve(__dirname, '..');
const SOURCE_FOLDERS = ['grammar', 'server', 'client', 'bench', 'scripts', 'test'];

interface Import {
  /** Project-relative path of the imported file, or the package name for a bare specifier. */
  target: string;
  /** Erased at run time (`import type`, `export type`, or only type names imported). */
  typeOnly: boolean;
}

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) {
      if (name !== 'node_modules' && name !== 'fixtures') out.push(...sourceFiles(path));
    } else if (/\.(ts|mts|mjs)$/.test(name) && !name.endsWith('.d.ts')) {
      out.push(path);
    }
  }
  return out;
}

function resolveSpecifier(from: string, specifier: string): string {
  if (!specifier.startsWith('.')) return specifier.startsWith('node:') ? specifier : specifier.split('/').slice(0, specifier.startsWith('@') ? 2 : 1).join('/');
  const base = resolve(dirname(from), specifier);
  const candidates = [base, `${base}.ts`, `${base}.mts`, join(base, 'index.ts'), base.replace(/\.js$/, '.ts')];
  const found = candidates.find((c) => existsSync(c) && statSync(c).isFile());
  return relative(projectRoot, found ?? base);
}

function importsOf(file: string, text = readFileSync(file, 'utf8')): Import[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false);
  const out: Import[] = [];
  const add = (specifier: ts.Expression | undefined, typeOnly: boolean): void => {
    if (specifier && ts.isStringLiteralLike(specifier)) out.push({ target: resolveSpecifier(file, specifier.text), typeOnly });
  };
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node)) {
      const clause = node.importClause;
      const bindings = clause?.namedBindings;
      const onlyTypeNames = !!clause && !clause.name && !!bindings && ts.isNamedImports(bindings)
        && bindings.elements.length > 0 && bindings.elements.every((e) => e.isTypeOnly);
      add(node.moduleSpecifier, !!clause && (clause.isTypeOnly || onlyTypeNames));
    } else if (ts.isExportDeclaration(node)) {
      add(node.moduleSpecifier, node.isTypeOnly);
    } else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) {
      add(node.moduleReference.expression, node.isTypeOnly);
    } else if (ts.isCallExpression(node) && (node.expression.kind === ts.SyntaxKind.ImportKeyword
      || (ts.isIdentifier(node.expression) && node.expression.text === 'require'))) {
      add(node.arguments[0], false);
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) {
      add(node.argument.literal as ts.Expression, true);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return out;
}

const graph = new Map<string, Import[]>();
for (const folder of SOURCE_FOLDERS) {
  for (const file of sourceFiles(join(projectRoot, folder))) graph.set(relative(projectRoot, file), importsOf(file));
}

/** Strongly connected components with more than one member (or a file importing itself): the cycles. */
function cycles(edges: Map<string, Set<string>>): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const connect = (node: string): void => {
    index.set(node, counter);
    low.set(node, counter++);
    stack.push(node);
    onStack.add(node);
    for (const next of edges.get(node) ?? []) {
      if (!index.has(next)) {
        connect(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node)!, index.get(next)!));
      }
    }
    if (low.get(node) !== index.get(node)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== node);
    if (component.length > 1 || edges.get(node)?.has(node)) found.push(component.sort());
  };
  for (const node of edges.keys()) if (!index.has(node)) connect(node);
  return found;
}

function describeCycle(component: string[], edges: Map<string, Set<string>>): string {
  const members = new Set(component);
  const links = component.flatMap((from) => [...(edges.get(from) ?? [])].filter((to) => members.has(to)).map((to) => `${from} -> ${to}`));
  return links.join('\n  ');
}

/** Where a file sits: server/core's subfolders and top-level files each count as one module. */
function moduleOf(file: string): string {
  const parts = file.split('/');
  if (parts[0] === 'server' && parts[1] === 'core') return parts.length > 3 ? parts.slice(0, 3).join('/') : file;
  return parts.slice(0, Math.max(1, Math.min(parts.length - 1, 2))).join('/');
}

/** Test data that rule modules' examples tables (never shipped) may import. */
const EXAMPLES_ONLY_HELPER = 'test/helpers/example-evidence.ts';

describe('architecture', () => {
  test('the import graph covers the sources', () => {
    assert.ok(graph.has('grammar/index.ts') && graph.has('server/core/engine/project.ts') && graph.has('server/lsp/server.ts'));
    assert.ok([...graph.values()].some((imports) => imports.some((i) => i.target === 'server/core/engine/project.ts')));
  });

  test('source files are named in kebab-case', () => {
    const misnamed = [...graph.keys()].filter((file) => !/^[a-z0-9]+(-[a-z0-9]+)*(\.[a-z0-9]+)*\.(ts|mts|mjs)$/.test(file.split('/').pop()!));
    assert.deepEqual(misnamed, []);
  });

  test('no import cycle between files', () => {
    const edges = new Map<string, Set<string>>();
    for (const [file, imports] of graph) edges.set(file, new Set(imports.map((i) => i.target).filter((t) => graph.has(t))));
    const found = cycles(edges);
    assert.deepEqual(found.map((c) => describeCycle(c, edges)), []);
  });

  test('no import cycle between the folders of server/core, type-only imports included', () => {
    // Shared helpers live in leaf modules (server/core/util/...), not inside a feature folder, so that two
    // features never need each other. A type-only import is erased at run time but is a dependency all the
    // same: a folder that needs another's types is above it, so it counts too.
    const edges = new Map<string, Set<string>>();
    for (const [file, imports] of graph) {
      if (!file.startsWith('server/core/')) continue;
      const from = moduleOf(file);
      for (const i of imports) {
        if (!i.target.startsWith('server/core/')) continue;
        const to = moduleOf(i.target);
        if (to === from) continue;
        if (!edges.has(from)) edges.set(from, new Set());
        edges.get(from)!.add(to);
      }
    }
    const found = cycles(edges);
    assert.deepEqual(found.map((c) => describeCycle(c, edges)), []);
  });

  const layerRules: { name: string; from: (file: string) => boolean; forbidden: (target: string) => boolean }[] = [
    { name: 'grammar imports nothing from server/', from: (f) => f.startsWith('grammar/'), forbidden: (t) => t.startsWith('server/') },
    { name: 'server/core imports nothing from server/lsp', from: (f) => f.startsWith('server/core/'), forbidden: (t) => t.startsWith('server/lsp/') },
    { name: 'server/core imports nothing from server/cli', from: (f) => f.startsWith('server/core/'), forbidden: (t) => t.startsWith('server/cli/') },
    { name: 'server/cli imports nothing from server/lsp', from: (f) => f.startsWith('server/cli/'), forbidden: (t) => t.startsWith('server/lsp/') },
    {
      name: 'grammar and server/core import no vscode or LSP package',
      from: (f) => f.startsWith('grammar/') || f.startsWith('server/core/'),
      forbidden: (t) => t === 'vscode' || t.startsWith('vscode-'),
    },
    {
      // The client is thin: of the server it shares only the declarations of the custom messages.
      name: 'client imports from server/ only server/lsp/lsp-extensions.ts',
      from: (f) => f.startsWith('client/'),
      forbidden: (t) => t.startsWith('server/') && t !== 'server/lsp/lsp-extensions.ts',
    },
    { name: 'bench imports nothing from test/', from: (f) => f.startsWith('bench/'), forbidden: (t) => t.startsWith('test/') },
    {
      // Except one file: the rules' examples tables are test data (scripts/build.mjs leaves them out of the
      // bundles, test/packaging.test.ts checks it), and the partition rules' tables build their evidence
      // with test/helpers/example-evidence.ts.
      name: 'shipped code imports nothing from test/ or bench/',
      from: (f) => /^(grammar|server|client)\//.test(f),
      forbidden: (t) => (t.startsWith('test/') && t !== EXAMPLES_ONLY_HELPER) || t.startsWith('bench/'),
    },
    {
      name: 'only rule modules import the examples tables\' helper',
      from: (f) => /^(grammar|server|client)\//.test(f) && !/^server\/core\/rules\/[^/]+\.ts$/.test(f),
      forbidden: (t) => t === EXAMPLES_ONLY_HELPER,
    },
  ];
  for (const rule of layerRules) {
    test(rule.name, () => {
      const offending: string[] = [];
      for (const [file, imports] of graph) {
        if (!rule.from(file)) continue;
        for (const i of imports) if (rule.forbidden(i.target)) offending.push(`${file} -> ${i.target}`);
      }
      assert.deepEqual(offending, []);
    });
  }

  test('the import reader finds every kind of import', () => {
    // Guards the reader itself, so that the checks above cannot pass by seeing nothing.
    const probe = join(projectRoot, 'server', 'core', 'engine', 'probe.ts');
    const text = [
      "import type { A } from '../../lsp/context';",
      "import { type B } from './project';",
      "export { C } from '../../../grammar';",
      "const d = require('vscode-languageserver/node');",
      "const e = import('../../cli/token');",
      "let f: import('../findings/findings').Finding;",
    ].join('\n');
    assert.deepEqual(importsOf(probe, text), [
      { target: 'server/lsp/context.ts', typeOnly: true },
      { target: 'server/core/engine/project.ts', typeOnly: true },
      { target: 'grammar/index.ts', typeOnly: false },
      { target: 'vscode-languageserver', typeOnly: false },
      { target: 'server/cli/token.ts', typeOnly: false },
      { target: 'server/core/findings/findings.ts', typeOnly: true },
    ]);
  });
});
