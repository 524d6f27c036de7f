// What ships: the bundles leave the rules' examples tables out, and `npm pack` holds the CLI and the
// language server (bin/ with their bundles and the tree-sitter .wasm files) and no sources or tests. The .vsix is checked in
// test/extension/vsix.test.ts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import * as esbuild from 'esbuild';
import { ruleFiles } from './helpers/rule-modules';

const projectRoot = resolve(__dirname, '..');

/** Strings a bundle would hold verbatim if it held them at all (no quote, backslash or line break to escape). */
const verbatim = (s: string): boolean => s.length >= 30 && !/['"`\\\n\r$]/.test(s);

test('the shipped bundles hold every rule but none of the examples tables', async () => {
  const { bundleOptions } = await import('../scripts/build.mjs');
  const modules = ruleFiles.flatMap((m) => (m.rule && m.examples ? [{ rule: m.rule, examples: m.examples }] : []));
  const exampleCode = modules.flatMap(({ examples }) => [...examples.valid, ...examples.invalid])
    .map((c) => (typeof c === 'string' ? c : c.code))
    .filter(verbatim);
  const descriptions = modules.map(({ rule }) => rule.meta.description).filter(verbatim);
  assert.ok(exampleCode.length >= 20 && descriptions.length >= 10, 'enough strings to look for');
  for (const options of bundleOptions(true).filter((o) => !o.outfile.endsWith('extension.js'))) {
    const result = await esbuild.build({ ...options, absWorkingDir: projectRoot, write: false, logLevel: 'silent' });
    const bundle = result.outputFiles.map((f) => f.text).join('\n');
    assert.deepEqual(descriptions.filter((d) => !bundle.includes(d)), [], `${options.outfile} holds the rules`);
    assert.deepEqual(exampleCode.filter((c) => bundle.includes(c)), [], `${options.outfile} holds no example`);
  }
});

test('npm pack ships the CLI and the language server with their bundles, and no sources', () => {
  for (const bundle of ['dist/cli.js', 'dist/server.js']) {
    assert.ok(existsSync(join(projectRoot, bundle)), `${bundle} is missing: run "npm run build" first`);
  }
  // --ignore-scripts: the prepack build is not what is tested here, the file list is.
  const pack = spawnSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: projectRoot, encoding: 'utf8' });
  assert.equal(pack.status, 0, pack.stderr);
  const files = (JSON.parse(pack.stdout) as { files: { path: string }[] }[])[0]!.files.map((f) => f.path).sort();
  const grammars = ['tree-sitter', 'tree-sitter-java', 'tree-sitter-kotlin', 'tree-sitter-python', 'tree-sitter-go', 'tree-sitter-javascript', 'tree-sitter-typescript', 'tree-sitter-tsx', 'tree-sitter-c-sharp'].map((g) => `dist/tree-sitter/${g}.wasm`);
  for (const needed of ['bin/cqlint.js', 'bin/cqlint-language-server.js', 'dist/cli.js', 'dist/server.js', 'package.json', 'README.md', 'LICENSE', 'schemas/cqlint.schema.json', ...grammars]) {
    assert.ok(files.includes(needed), `${needed} is in the package`);
  }
  const unexpected = files.filter((f) => /^(server|grammar|client|test|bench|scripts|examples|node_modules)\//.test(f) || /\.(ts|map)$/.test(f) || f === 'dist/extension.js');
  assert.deepEqual(unexpected, []);
});
