// Bundles the three entry points into dist/: the VS Code client, the language server and the CLI.
// Bundling keeps the .vsix free of node_modules and lets `cqlint` run without a TypeScript step.
// The tree-sitter runtime and grammars (WebAssembly, read by server/core/embedded) are copied beside the
// bundles into dist/tree-sitter/, where server/core/embedded/runtime.ts looks for them first.
// Run as a script to build; test/packaging.test.ts imports `bundleOptions` to check what the bundles hold.
import * as esbuild from 'esbuild';
import { copyFile, mkdir, readFile, readdir } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import ts from 'typescript';

/**
 * The rules' `examples` tables are test data (test/analysis/rule-examples.test.ts reads them from the rule
 * files). Tree-shaking drops most of them, but not those built with template literals (esbuild cannot tell
 * that `${table}` has no side effects), so the bundles are built from the rule files without that export.
 */
const withoutRuleExamples = {
  name: 'without-rule-examples',
  setup(build) {
    build.onLoad({ filter: /[\\/]server[\\/]core[\\/]rules[\\/][^\\/]+\.ts$/ }, async (args) => {
      const text = await readFile(args.path, 'utf8');
      const source = ts.createSourceFile(args.path, text, ts.ScriptTarget.Latest, false);
      let contents = text;
      for (const statement of [...source.statements].reverse()) {
        const exported =
          ts.isVariableStatement(statement) && statement.modifiers?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword);
        if (
          exported &&
          statement.declarationList.declarations.some((d) => ts.isIdentifier(d.name) && d.name.text === 'examples')
        ) {
          contents = contents.slice(0, statement.getStart(source)) + contents.slice(statement.end);
        }
      }
      return { contents, loader: 'ts' };
    });
  },
};

/**
 * The rules' documentation pages inside the CLI bundle (`cqlint explain`): server/cli/rule-docs-data.ts is
 * replaced by a module that holds docs/rules/*.md, so the packed CLI needs no docs/ folder.
 */
const bundledRuleDocs = {
  name: 'bundled-rule-docs',
  setup(build) {
    build.onLoad({ filter: /[\\/]server[\\/]cli[\\/]rule-docs-data\.ts$/ }, async (args) => {
      const folder = join(dirname(args.path), '..', '..', 'docs', 'rules');
      const pages = {};
      for (const name of (await readdir(folder)).filter((n) => n.endsWith('.md')).sort())
        pages[name.slice(0, -3)] = await readFile(join(folder, name), 'utf8');
      // The one finding id that is no rule (server/cli/explain.ts PAGES_OF_OTHER_IDS): its page is the suppressions page.
      const suppressions = join(folder, '..', 'suppressions.md');
      pages['unused-disable-directive'] = await readFile(suppressions, 'utf8');
      return {
        contents: `export function bundledRuleDocs() { return ${JSON.stringify(pages)}; }`,
        loader: 'js',
        watchDirs: [folder],
        watchFiles: [suppressions],
      };
    });
  },
};

/** esbuild options of each bundle (`--production`: minified, no source maps). */
export function bundleOptions(production) {
  const common = {
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    sourcemap: !production,
    minify: production,
    logLevel: 'warning',
  };
  return [
    { ...common, entryPoints: ['client/extension.ts'], outfile: 'dist/extension.js', external: ['vscode'] },
    { ...common, entryPoints: ['server/lsp/main.ts'], outfile: 'dist/server.js', plugins: [withoutRuleExamples] },
    {
      ...common,
      entryPoints: ['server/cli/main.ts'],
      outfile: 'dist/cli.js',
      plugins: [withoutRuleExamples, bundledRuleDocs],
    },
  ];
}

const require = createRequire(import.meta.url);

/** The .wasm files the embedded reader loads: the runtime and one grammar per host language. */
export function treeSitterFiles() {
  const vscode = dirname(require.resolve('@vscode/tree-sitter-wasm'));
  const names = [
    'tree-sitter',
    'tree-sitter-java',
    'tree-sitter-python',
    'tree-sitter-go',
    'tree-sitter-javascript',
    'tree-sitter-typescript',
    'tree-sitter-tsx',
    'tree-sitter-c-sharp',
  ];
  return [
    ...names.map((name) => join(vscode, `${name}.wasm`)),
    require.resolve('@tree-sitter-grammars/tree-sitter-kotlin/tree-sitter-kotlin.wasm'),
  ];
}

/** Copies the .wasm files into `<dist>/tree-sitter/`. */
export async function copyTreeSitter(dist) {
  await mkdir(join(dist, 'tree-sitter'), { recursive: true });
  await Promise.all(treeSitterFiles().map((file) => copyFile(file, join(dist, 'tree-sitter', basename(file)))));
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const production = process.argv.includes('--production');
  const watch = process.argv.includes('--watch');
  await copyTreeSitter(join(dirname(fileURLToPath(import.meta.url)), '..', 'dist'));
  for (const options of bundleOptions(production)) {
    if (watch) {
      const ctx = await esbuild.context(options);
      await ctx.watch();
    } else {
      await esbuild.build(options);
    }
  }
}
