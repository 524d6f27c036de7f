// What ships: the bundles leave the rules' examples tables out, and `npm pack` holds the CLI and the
// language server (bin/ with their bundles and the tree-sitter .wasm files) and no sources or tests. The .vsix is checked in
// test/extension/vsix.test.ts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { gzipSync } from 'node:zlib';
import { join, resolve } from 'node:path';
import * as esbuild from 'esbuild';
import { ruleFiles } from './helpers/rule-modules';

const projectRoot = resolve(__dirname, '..');

/** Strings a bundle would hold verbatim if it held them at all (no quote, backslash or line break to escape). */
const verbatim = (s: string): boolean => s.length >= 30 && !/['"`\\\n\r$]/.test(s);

test('the shipped bundles hold every rule but none of the examples tables', async () => {
  const { bundleOptions } = await import('../scripts/build.mjs');
  const modules = ruleFiles.flatMap((m) => (m.rule && m.examples ? [{ rule: m.rule, examples: m.examples }] : []));
  const exampleCode = modules
    .flatMap(({ examples }) => [...examples.valid, ...examples.invalid])
    .map((c) => (typeof c === 'string' ? c : c.code))
    .filter(verbatim);
  const descriptions = modules.map(({ rule }) => rule.meta.description).filter(verbatim);
  assert.ok(exampleCode.length >= 20 && descriptions.length >= 10, 'enough strings to look for');
  for (const options of bundleOptions(true).filter((o) => !o.outfile.endsWith('extension.js'))) {
    // The CLI also bundles the rules' documentation pages (cqlint explain), whose examples are prose: the
    // code alone is checked here.
    const plugins = options.plugins?.filter((p: { name: string }) => p.name !== 'bundled-rule-docs');
    const result = await esbuild.build({
      ...options,
      plugins,
      absWorkingDir: projectRoot,
      write: false,
      logLevel: 'silent',
    });
    const bundle = result.outputFiles.map((f) => f.text).join('\n');
    assert.deepEqual(
      descriptions.filter((d) => !bundle.includes(d)),
      [],
      `${options.outfile} holds the rules`,
    );
    assert.deepEqual(
      exampleCode.filter((c) => bundle.includes(c)),
      [],
      `${options.outfile} holds no example`,
    );
  }
});

test('npm pack ships the CLI and the language server with their bundles, and no sources', () => {
  for (const bundle of ['dist/cli.js', 'dist/server.js']) {
    assert.ok(existsSync(join(projectRoot, bundle)), `${bundle} is missing: run "npm run build" first`);
  }
  // --ignore-scripts: the prepack build is not what is tested here, the file list is.
  const pack = spawnSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
    cwd: projectRoot,
    encoding: 'utf8',
  });
  assert.equal(pack.status, 0, pack.stderr);
  const files = (JSON.parse(pack.stdout) as { files: { path: string }[] }[])[0]!.files.map((f) => f.path).sort();
  const grammars = [
    'tree-sitter',
    'tree-sitter-java',
    'tree-sitter-kotlin',
    'tree-sitter-python',
    'tree-sitter-go',
    'tree-sitter-javascript',
    'tree-sitter-typescript',
    'tree-sitter-tsx',
    'tree-sitter-c-sharp',
  ].map((g) => `dist/tree-sitter/${g}.wasm`);
  for (const needed of [
    'bin/cqlint.js',
    'bin/cqlint-language-server.js',
    'dist/cli.js',
    'dist/server.js',
    'package.json',
    'README.md',
    'LICENSE',
    'schemas/cqlint.schema.json',
    ...grammars,
  ]) {
    assert.ok(files.includes(needed), `${needed} is in the package`);
  }
  const unexpected = files.filter(
    (f) =>
      /^(server|grammar|client|test|bench|scripts|examples|node_modules)\//.test(f) ||
      /\.(ts|map)$/.test(f) ||
      f === 'dist/extension.js',
  );
  assert.deepEqual(unexpected, []);
});

/**
 * The tarball `npm pack` would write, estimated without packing: each packed file gzipped on its own (the
 * bundles built for production in memory, package.json as scripts/pack.mjs ships it). Within 2% of a real
 * pack's size, which gzips the files as one stream with tar headers.
 */
async function estimatedTarballBytes(): Promise<number> {
  const { bundleOptions } = await import('../scripts/build.mjs');
  const { packedManifest } = await import('../scripts/pack.mjs');
  const pack = spawnSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
    cwd: projectRoot,
    encoding: 'utf8',
  });
  assert.equal(pack.status, 0, pack.stderr);
  const files = (JSON.parse(pack.stdout) as { files: { path: string }[] }[])[0]!.files.map((f) => f.path);
  const contents = new Map<string, Uint8Array | string>();
  for (const options of bundleOptions(true).filter((o) => files.includes(o.outfile))) {
    const result = await esbuild.build({ ...options, absWorkingDir: projectRoot, write: false, logLevel: 'silent' });
    contents.set(options.outfile, result.outputFiles.find((f) => f.path.endsWith(options.outfile))!.contents);
  }
  contents.set('package.json', packedManifest(readFileSync(join(projectRoot, 'package.json'), 'utf8')));
  return files.reduce(
    (sum, file) => sum + gzipSync(contents.get(file) ?? readFileSync(join(projectRoot, file))).length,
    0,
  );
}

test("docs/install.md states the tarball's size (within 10%), and the packed package.json runs no script", async () => {
  const install = readFileSync(join(projectRoot, 'docs', 'install.md'), 'utf8');
  const stated = /`cqlint-[\d.]+\.tgz` \(about ([\d.]+) (kB|MB)\b/.exec(install);
  assert.ok(stated, 'docs/install.md says "`cqlint-<version>.tgz` (about N MB"');
  const statedBytes = Number(stated[1]) * (stated[2] === 'MB' ? 1e6 : 1e3);
  const estimated = await estimatedTarballBytes();
  const say = `${(estimated / 1e6).toFixed(1)} MB`;
  assert.ok(
    Math.abs(estimated - statedBytes) <= statedBytes * 0.1,
    `the tarball is about ${say} now, docs/install.md says ${stated[1]} ${stated[2]}: update it`,
  );
  const { packedManifest } = await import('../scripts/pack.mjs');
  const packed = JSON.parse(packedManifest(readFileSync(join(projectRoot, 'package.json'), 'utf8'))) as Record<
    string,
    unknown
  >;
  assert.equal(packed.scripts, undefined, 'no install script (prepare) that needs the unpacked scripts/');
  assert.deepEqual(packed.bin, { cqlint: 'bin/cqlint.js', 'cqlint-language-server': 'bin/cqlint-language-server.js' });
});

test("the CLI bundle holds the rules' documentation pages: cqlint explain works with no docs/ beside it", async (t) => {
  const { bundleOptions } = await import('../scripts/build.mjs');
  const options = bundleOptions(true).find((o) => o.outfile.endsWith('cli.js'))!;
  const dir = mkdtempSync(join(tmpdir(), 'cqlint-bundle-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  await esbuild.build({ ...options, absWorkingDir: projectRoot, outfile: join(dir, 'cli.js'), logLevel: 'silent' });
  const run = spawnSync(
    process.execPath,
    ['-e', "require('./cli.js').main(['explain', 'unbounded-partition']).then((code) => { process.exitCode = code; })"],
    { cwd: dir, encoding: 'utf8' },
  );
  assert.equal(run.status, 0, run.stderr);
  assert.match(run.stdout, /^# unbounded-partition\n/);
  // The unused-directive report's page is the suppressions page, bundled under its id.
  const unused = spawnSync(
    process.execPath,
    [
      '-e',
      "require('./cli.js').main(['explain', 'unused-disable-directive']).then((code) => { process.exitCode = code; })",
    ],
    { cwd: dir, encoding: 'utf8' },
  );
  assert.equal(unused.status, 0, unused.stderr);
  assert.match(unused.stdout, /^# Suppression comments\n[\s\S]*\n## Unused directives\n/);
});
