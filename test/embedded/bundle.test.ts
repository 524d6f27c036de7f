// The embedded reader bundled as the CLI and the server are (esbuild, CommonJS): the UMD tree-sitter runtime bundles
// and runs, and the .wasm files are found beside the bundle (dist/tree-sitter/, as scripts/build.mjs copies them),
// not in node_modules.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import * as esbuild from 'esbuild';
import { GRAMMAR_FILES } from '../../server/core/embedded/runtime';

const projectRoot = resolve(__dirname, '..', '..');

test('a bundle reads every host language with the .wasm files copied beside it', async () => {
  const { bundleOptions, copyTreeSitter, treeSitterFiles } = await import('../../scripts/build.mjs');
  const copied = (treeSitterFiles() as string[]).map((f) => f.slice(f.lastIndexOf('/') + 1));
  assert.deepEqual(
    Object.values(GRAMMAR_FILES).filter((f) => !copied.includes(f)),
    [],
    'every grammar is copied',
  );
  const dir = mkdtempSync(join(tmpdir(), 'cqlint-bundle-'));
  try {
    const entry = join(dir, 'entry.ts');
    writeFileSync(
      entry,
      [
        `import { loadHostLanguages, readEmbedded } from ${JSON.stringify(join(projectRoot, 'server', 'core', 'embedded'))};`,
        'loadHostLanguages().then(() => {',
        "  const doc = readEmbedded('java', 'class A { void f() { session.execute(\"SELECT * FROM videos WHERE videoid = ?\"); } }');",
        '  process.stdout.write(JSON.stringify({ cql: doc.cqlText, anchor: doc.statements[0]?.anchor }));',
        '});',
      ].join('\n'),
    );
    const [common] = bundleOptions(true) as esbuild.BuildOptions[];
    await esbuild.build({
      ...common,
      entryPoints: [entry],
      outfile: join(dir, 'out', 'cli.js'),
      absWorkingDir: projectRoot,
      logLevel: 'silent',
      plugins: [],
    });
    await copyTreeSitter(join(dir, 'out'));
    // Run from another folder, with no node_modules to fall back on.
    const run = spawnSync(process.execPath, [join(dir, 'out', 'cli.js')], {
      cwd: dir,
      encoding: 'utf8',
      env: { ...process.env, NODE_PATH: '' },
    });
    assert.equal(run.status, 0, run.stderr);
    assert.deepEqual(JSON.parse(run.stdout), {
      cql: 'SELECT * FROM videos WHERE videoid = ?;\n',
      anchor: 'session.execute',
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
