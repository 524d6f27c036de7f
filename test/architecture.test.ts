// The shape of the code base, checked on every run: no import cycles, the layers import only downwards
// (grammar -> server/core -> server/lsp and server/cli; tests and benchmarks on top), and inside server/core
// each room (folder) imports only the rooms below it that the table ROOMS lists, as CONTRIBUTING.md's map
// says. Imports are read with the TypeScript parser, so `import type`, `export ... from`, `require()` and
// `import()` all count.
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
  if (!specifier.startsWith('.'))
    return specifier.startsWith('node:')
      ? specifier
      : specifier
          .split('/')
          .slice(0, specifier.startsWith('@') ? 2 : 1)
          .join('/');
  const base = resolve(dirname(from), specifier);
  const candidates = [base, `${base}.ts`, `${base}.mts`, join(base, 'index.ts'), base.replace(/\.js$/, '.ts')];
  const found = candidates.find((c) => existsSync(c) && statSync(c).isFile());
  return relative(projectRoot, found ?? base);
}

function importsOf(file: string, text = readFileSync(file, 'utf8')): Import[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false);
  const out: Import[] = [];
  const add = (specifier: ts.Expression | undefined, typeOnly: boolean): void => {
    if (specifier && ts.isStringLiteralLike(specifier))
      out.push({ target: resolveSpecifier(file, specifier.text), typeOnly });
  };
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node)) {
      const clause = node.importClause;
      const bindings = clause?.namedBindings;
      const onlyTypeNames =
        !!clause &&
        !clause.name &&
        !!bindings &&
        ts.isNamedImports(bindings) &&
        bindings.elements.length > 0 &&
        bindings.elements.every((e) => e.isTypeOnly);
      add(node.moduleSpecifier, !!clause && (clause.isTypeOnly || onlyTypeNames));
    } else if (ts.isExportDeclaration(node)) {
      add(node.moduleSpecifier, node.isTypeOnly);
    } else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) {
      add(node.moduleReference.expression, node.isTypeOnly);
    } else if (
      ts.isCallExpression(node) &&
      (node.expression.kind === ts.SyntaxKind.ImportKeyword ||
        (ts.isIdentifier(node.expression) && node.expression.text === 'require'))
    ) {
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
  const links = component.flatMap((from) =>
    [...(edges.get(from) ?? [])].filter((to) => members.has(to)).map((to) => `${from} -> ${to}`),
  );
  return links.join('\n  ');
}

/**
 * The rooms of server/core: each folder with its level and the rooms it may import (grammar/ is below them
 * all and open to every room). A room imports only rooms on lower levels, so the table is the direction of
 * the architecture; CONTRIBUTING.md's map of the rooms says the same in words, and the tests below keep the
 * table, the map and the folders equal.
 */
interface Room {
  level: number;
  mayImport: readonly string[];
}
const ROOMS: Record<string, Room> = {
  vocabulary: { level: 0, mayImport: [] },
  util: { level: 0, mayImport: [] },
  token: { level: 1, mayImport: ['util'] },
  io: { level: 2, mayImport: ['token'] },
  schema: { level: 2, mayImport: ['token', 'util', 'vocabulary'] },
  embedded: { level: 2, mayImport: ['util', 'vocabulary'] },
  evidence: { level: 3, mayImport: ['io', 'schema', 'token', 'util', 'vocabulary'] },
  partition: { level: 4, mayImport: ['evidence', 'schema', 'util', 'vocabulary'] },
  cluster: { level: 5, mayImport: ['io', 'partition', 'schema', 'util', 'vocabulary'] },
  findings: { level: 5, mayImport: ['evidence', 'partition'] },
  rules: {
    level: 6,
    mayImport: ['cluster', 'evidence', 'findings', 'partition', 'schema', 'token', 'util', 'vocabulary'],
  },
  config: { level: 7, mayImport: ['cluster', 'evidence', 'io', 'rules', 'util', 'vocabulary'] },
  engine: {
    level: 8,
    mayImport: [
      'cluster',
      'config',
      'embedded',
      'evidence',
      'findings',
      'io',
      'partition',
      'rules',
      'schema',
      'util',
      'vocabulary',
    ],
  },
  fixes: { level: 9, mayImport: ['engine', 'findings', 'partition', 'schema', 'token', 'util'] },
  editor: { level: 9, mayImport: ['evidence', 'partition', 'schema', 'token', 'util', 'vocabulary'] },
  format: { level: 10, mayImport: ['editor', 'util'] },
  report: {
    level: 10,
    mayImport: [
      'cluster',
      'config',
      'engine',
      'evidence',
      'findings',
      'fixes',
      'io',
      'partition',
      'rules',
      'schema',
      'token',
      'util',
      'vocabulary',
    ],
  },
};

/** The room of a file of server/core (its folder), or undefined outside server/core. */
function roomOf(file: string): string | undefined {
  const parts = file.split('/');
  return parts[0] === 'server' && parts[1] === 'core' ? (parts.length > 3 ? parts[2] : '(root)') : undefined;
}

/** The table's own faults: a room that may import itself, a room not in the table, or one not below it. */
function tableFaults(rooms: Record<string, Room>): string[] {
  const faults: string[] = [];
  for (const [name, room] of Object.entries(rooms)) {
    for (const other of room.mayImport) {
      if (!rooms[other]) faults.push(`${name} may import ${other}, which is no room`);
      else if (rooms[other].level >= room.level)
        faults.push(
          `${name} (level ${room.level}) may import ${other} (level ${rooms[other].level}), which is not below it`,
        );
    }
  }
  return faults;
}

/** The imports between rooms that the table does not allow, as `from -> to (why)`. */
function roomFaults(imports: Iterable<[from: string, to: string]>, rooms: Record<string, Room>): string[] {
  const faults: string[] = [];
  for (const [from, to] of imports) {
    const fromRoom = roomOf(from);
    const toRoom = roomOf(to);
    if (fromRoom === undefined || toRoom === undefined || fromRoom === toRoom) continue;
    if (!rooms[fromRoom]) faults.push(`${from} -> ${to} (${fromRoom} is no room)`);
    else if (!rooms[toRoom]) faults.push(`${from} -> ${to} (${toRoom} is no room)`);
    else if (!rooms[fromRoom].mayImport.includes(toRoom))
      faults.push(`${from} -> ${to} (${fromRoom} may not import ${toRoom})`);
  }
  return faults;
}

/** CONTRIBUTING.md's map of the rooms: each room's entry (`- **`name/`**: ...`) and the rooms it says it may import. */
function roomMap(markdown: string): Map<string, string[]> {
  const section = markdown.split(/^## /m).find((s) => s.startsWith('The rooms of server/core'));
  const map = new Map<string, string[]>();
  for (const entry of section?.split(/^- /m).slice(1) ?? []) {
    const name = /^\*\*`([a-z-]+)\/`\*\*/.exec(entry)?.[1];
    if (!name) continue;
    const may = /May import: ([^.]*)\./.exec(entry.replace(/\s+/g, ' '))?.[1] ?? '';
    map.set(name, [...may.matchAll(/`([a-z-]+)\/`/g)].map((m) => m[1]).sort());
  }
  return map;
}

/** Test data that rule modules' examples tables (never shipped) may import. */
const EXAMPLES_ONLY_HELPER = 'test/helpers/example-evidence.ts';

describe('architecture', () => {
  test('the import graph covers the sources', () => {
    assert.ok(
      graph.has('grammar/index.ts') && graph.has('server/core/engine/project.ts') && graph.has('server/lsp/server.ts'),
    );
    assert.ok([...graph.values()].some((imports) => imports.some((i) => i.target === 'server/core/engine/project.ts')));
  });

  test('source files are named in kebab-case', () => {
    const misnamed = [...graph.keys()].filter(
      (file) => !/^[a-z0-9]+(-[a-z0-9]+)*(\.[a-z0-9]+)*\.(ts|mts|mjs)$/.test(file.split('/').pop()!),
    );
    assert.deepEqual(misnamed, []);
  });

  test('no import cycle between files', () => {
    const edges = new Map<string, Set<string>>();
    for (const [file, imports] of graph)
      edges.set(file, new Set(imports.map((i) => i.target).filter((t) => graph.has(t))));
    const found = cycles(edges);
    assert.deepEqual(
      found.map((c) => describeCycle(c, edges)),
      [],
    );
  });

  const coreEntries = readdirSync(join(projectRoot, 'server', 'core')).sort();
  const coreFolders = coreEntries.filter((name) => statSync(join(projectRoot, 'server', 'core', name)).isDirectory());

  test('server/core holds rooms only, no loose file', () => {
    assert.deepEqual(
      coreEntries.filter((name) => !coreFolders.includes(name)),
      [],
    );
  });

  test('the rooms table names the folders of server/core and points only downwards', () => {
    assert.deepEqual(Object.keys(ROOMS).sort(), coreFolders);
    assert.deepEqual(tableFaults(ROOMS), []);
  });

  test('every import between rooms is one the table allows, type-only imports included', () => {
    // A type-only import is erased at run time but is a dependency all the same: a room that needs
    // another's types sits above it. Since the table only points downwards, this also forbids cycles.
    const imports = [...graph].flatMap(([file, list]) => list.map((i): [string, string] => [file, i.target]));
    assert.deepEqual(roomFaults(imports, ROOMS), []);
  });

  test("CONTRIBUTING.md's map of the rooms is the table: the same rooms, each with the same imports", () => {
    const map = roomMap(readFileSync(join(projectRoot, 'CONTRIBUTING.md'), 'utf8'));
    assert.deepEqual([...map.keys()].sort(), coreFolders);
    for (const [name, room] of Object.entries(ROOMS))
      assert.deepEqual(map.get(name), [...room.mayImport].sort(), `the map's entry for ${name}/`);
  });

  test('the rooms check fails on a lower room importing a higher one, and the table check on an upward table', () => {
    // The checkers on fabricated input, so that the checks above cannot pass by allowing everything.
    assert.deepEqual(roomFaults([['server/core/util/names.ts', 'server/core/engine/project.ts']], ROOMS), [
      'server/core/util/names.ts -> server/core/engine/project.ts (util may not import engine)',
    ]);
    assert.deepEqual(roomFaults([['server/core/partition/plan.ts', 'server/core/findings/findings.ts']], ROOMS), [
      'server/core/partition/plan.ts -> server/core/findings/findings.ts (partition may not import findings)',
    ]);
    assert.deepEqual(
      roomFaults(
        [
          ['server/core/engine/project.ts', 'server/core/util/names.ts'],
          ['server/core/engine/project.ts', 'server/core/engine/rule-runner.ts'],
          ['server/lsp/server.ts', 'server/core/engine/project.ts'],
          ['server/core/rules/index.ts', 'grammar/index.ts'],
        ],
        ROOMS,
      ),
      [],
    );
    assert.deepEqual(
      roomFaults(
        [
          ['server/core/loose.ts', 'server/core/util/names.ts'],
          ['server/core/attic/a.ts', 'server/core/util/names.ts'],
        ],
        ROOMS,
      ),
      [
        'server/core/loose.ts -> server/core/util/names.ts ((root) is no room)',
        'server/core/attic/a.ts -> server/core/util/names.ts (attic is no room)',
      ],
    );
    const upward: Record<string, Room> = {
      low: { level: 0, mayImport: ['high'] },
      high: { level: 1, mayImport: ['low', 'gone'] },
      same: { level: 1, mayImport: ['high'] },
    };
    assert.deepEqual(tableFaults(upward), [
      'low (level 0) may import high (level 1), which is not below it',
      'high may import gone, which is no room',
      'same (level 1) may import high (level 1), which is not below it',
    ]);
  });

  test('the map reader reads each room and the rooms it may import', () => {
    const text = [
      '# Contributing',
      '',
      '## The rooms of server/core',
      '',
      'Intro.',
      '',
      '- **`low/`**: the bottom. May import: none.',
      '- **`high/`**: the top, with `other/` named in passing. May',
      '  import: `low/`, `mid/`.',
      '',
      '## Adding a rule',
      '',
      '- **`rule/`**: not a room. May import: `low/`.',
    ].join('\n');
    assert.deepEqual(
      [...roomMap(text)],
      [
        ['low', []],
        ['high', ['low', 'mid']],
      ],
    );
  });

  const layerRules: { name: string; from: (file: string) => boolean; forbidden: (target: string) => boolean }[] = [
    {
      name: 'grammar imports nothing from server/',
      from: (f) => f.startsWith('grammar/'),
      forbidden: (t) => t.startsWith('server/'),
    },
    {
      name: 'server/core imports nothing from server/lsp',
      from: (f) => f.startsWith('server/core/'),
      forbidden: (t) => t.startsWith('server/lsp/'),
    },
    {
      name: 'server/core imports nothing from server/cli',
      from: (f) => f.startsWith('server/core/'),
      forbidden: (t) => t.startsWith('server/cli/'),
    },
    {
      name: 'server/cli imports nothing from server/lsp',
      from: (f) => f.startsWith('server/cli/'),
      forbidden: (t) => t.startsWith('server/lsp/'),
    },
    // The MCP server (cqlint mcp) uses core as the CLI does, through the CLI's read-only commands.
    {
      name: 'server/core imports nothing from server/mcp',
      from: (f) => f.startsWith('server/core/'),
      forbidden: (t) => t.startsWith('server/mcp/'),
    },
    {
      name: 'server/mcp imports nothing from server/lsp',
      from: (f) => f.startsWith('server/mcp/'),
      forbidden: (t) => t.startsWith('server/lsp/'),
    },
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
    {
      name: 'bench imports nothing from test/',
      from: (f) => f.startsWith('bench/'),
      forbidden: (t) => t.startsWith('test/'),
    },
    {
      // Except one file: the rules' examples tables are test data (scripts/build.mjs leaves them out of the
      // bundles, test/packaging.test.ts checks it), and the partition rules' tables build their evidence
      // with test/helpers/example-evidence.ts.
      name: 'shipped code imports nothing from test/ or bench/',
      from: (f) => /^(grammar|server|client)\//.test(f),
      forbidden: (t) => (t.startsWith('test/') && t !== EXAMPLES_ONLY_HELPER) || t.startsWith('bench/'),
    },
    {
      name: "only rule modules import the examples tables' helper",
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
