// Packages the extension with @vscode/vsce (offline, no node_modules) from the current build and
// checks what is inside the .vsix (a zip): exactly the runtime files, nothing from sources or tests.
// Needs `npm run build` first (CI runs it before `npm test`); `npm run package` does the same with a
// production build.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inflateRawSync } from 'node:zlib';

const root = join(__dirname, '..', '..');

interface ZipEntry {
  name: string;
  method: number;
  compressedSize: number;
  localHeaderOffset: number;
}

/** Reads a zip's central directory (enough for the .vsix files vsce writes: no zip64, no spanning). */
export function zipEntries(zip: Buffer): ZipEntry[] {
  let eocd = -1;
  for (let i = zip.length - 22; i >= Math.max(0, zip.length - 22 - 0xffff); i--) {
    if (zip.readUInt32LE(i) === 0x06054b50) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) throw new Error('not a zip file: no end of central directory record');
  const count = zip.readUInt16LE(eocd + 10);
  let offset = zip.readUInt32LE(eocd + 16);
  const entries: ZipEntry[] = [];
  for (let i = 0; i < count; i++) {
    if (zip.readUInt32LE(offset) !== 0x02014b50) throw new Error(`bad central directory entry at ${offset}`);
    const method = zip.readUInt16LE(offset + 10);
    const compressedSize = zip.readUInt32LE(offset + 20);
    const nameLength = zip.readUInt16LE(offset + 28);
    const extraLength = zip.readUInt16LE(offset + 30);
    const commentLength = zip.readUInt16LE(offset + 32);
    const localHeaderOffset = zip.readUInt32LE(offset + 42);
    const name = zip.subarray(offset + 46, offset + 46 + nameLength).toString('utf8');
    entries.push({ name, method, compressedSize, localHeaderOffset });
    offset += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}

function readEntry(zip: Buffer, entry: ZipEntry): Buffer {
  const header = entry.localHeaderOffset;
  const start = header + 30 + zip.readUInt16LE(header + 26) + zip.readUInt16LE(header + 28);
  const data = zip.subarray(start, start + entry.compressedSize);
  return entry.method === 8 ? inflateRawSync(data) : Buffer.from(data);
}

const ALLOWED: RegExp[] = [
  /^\[Content_Types\]\.xml$/,
  /^extension\.vsixmanifest$/,
  /^extension\/package\.json$/,
  /^extension\/readme\.md$/,
  /^extension\/changelog\.md$/,
  /^extension\/LICENSE\.txt$/,
  /^extension\/dist\/(extension|server)\.js$/,
  /^extension\/dist\/tree-sitter\/tree-sitter(-[\w-]+)?\.wasm$/,
  /^extension\/syntaxes\/cql\.tmLanguage\.json$/,
  /^extension\/language-configuration\.json$/,
  /^extension\/snippets\/cql\.json$/,
  /^extension\/schemas\/[\w.-]+\.json$/,
  /^extension\/docs\/rules\/[\w.-]+\.md$/,
  /^extension\/images\/(icon\.png|cql-file\.svg)$/,
];

const REQUIRED = [
  'extension/package.json',
  'extension/readme.md',
  'extension/changelog.md',
  'extension/LICENSE.txt',
  'extension/dist/extension.js',
  'extension/dist/server.js',
  'extension/dist/tree-sitter/tree-sitter.wasm',
  'extension/dist/tree-sitter/tree-sitter-java.wasm',
  'extension/dist/tree-sitter/tree-sitter-python.wasm',
  'extension/syntaxes/cql.tmLanguage.json',
  'extension/language-configuration.json',
  'extension/snippets/cql.json',
  'extension/schemas/cqlint.schema.json',
  'extension/images/icon.png',
];

test('the .vsix holds exactly the runtime files, and is small', async (t) => {
  for (const bundle of ['dist/extension.js', 'dist/server.js']) {
    assert.ok(existsSync(join(root, bundle)), `${bundle} is missing: run "npm run build" first`);
  }
  // vsce's pack(): the packaging step of `vsce package` without the prepublish build.
  const vsce = require('@vscode/vsce/out/package') as {
    pack(options: { cwd: string; packagePath: string; dependencies: boolean }): Promise<{ packagePath: string }>;
  };
  const dir = mkdtempSync(join(tmpdir(), 'cqlint-vsix-'));
  try {
    const packagePath = join(dir, 'cqlint.vsix');
    const log = console.log;
    console.log = () => undefined; // vsce prints the file tree; the assertions below say what matters
    try {
      await vsce.pack({ cwd: root, packagePath, dependencies: false });
    } finally {
      console.log = log;
    }
    const zip = readFileSync(packagePath);
    const entries = zipEntries(zip);
    const names = entries.map((e) => e.name).filter((n) => !n.endsWith('/'));

    const unexpected = names.filter((name) => !ALLOWED.some((pattern) => pattern.test(name)));
    assert.deepEqual(unexpected, [], 'files that must not ship');
    for (const banned of [
      /node_modules\//,
      /\.ts$/,
      /\.map$/,
      /(^|\/)test\//,
      /\.vscode-test/,
      /(^|\/)client\//,
      /(^|\/)server\/(core|lsp|cli)\//,
    ]) {
      assert.ok(!names.some((n) => banned.test(n)), `${banned} in the package`);
    }
    const missing = REQUIRED.filter((name) => !names.includes(name));
    assert.deepEqual(missing, [], 'files the extension needs at run time');

    // The manifest inside is the one we wrote, pointing at files that are in the package.
    const manifestEntry = entries.find((e) => e.name === 'extension/package.json')!;
    const manifest = JSON.parse(readEntry(zip, manifestEntry).toString('utf8'));
    assert.equal(manifest.main, './dist/extension.js');
    assert.ok(names.includes(`extension/${manifest.icon}`));
    assert.ok(names.includes(`extension/${manifest.contributes.grammars[0].path.replace(/^\.\//, '')}`));
    assert.ok(names.includes(`extension/${manifest.contributes.jsonValidation[0].url.replace(/^\.\//, '')}`));

    const size = statSync(packagePath).size;
    t.diagnostic(`cqlint.vsix: ${names.length} files, ${(size / 1024).toFixed(1)} KiB`);
    assert.ok(size < 3 * 1024 * 1024, `the package is ${size} bytes; something large slipped in`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
