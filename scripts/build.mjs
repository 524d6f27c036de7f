// Bundles the three entry points into dist/: the VS Code client, the language server and the CLI.
// Bundling keeps the .vsix free of node_modules and lets `cqlint` run without a TypeScript step.
import * as esbuild from 'esbuild';

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');

const common = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  sourcemap: !production,
  minify: production,
  logLevel: 'warning',
};

const entries = [
  { entryPoints: ['client/extension.ts'], outfile: 'dist/extension.js', external: ['vscode'] },
  { entryPoints: ['server/lsp/main.ts'], outfile: 'dist/server.js' },
  { entryPoints: ['server/cli/main.ts'], outfile: 'dist/cli.js' },
];

for (const entry of entries) {
  const options = { ...common, ...entry };
  if (watch) {
    const ctx = await esbuild.context(options);
    await ctx.watch();
  } else {
    await esbuild.build(options);
  }
}
