// Real CQL from public projects. The required set is copied into the repository (test/fixtures/corpus, see
// its README) so a fresh clone tests on its own; a ../shared/corpus folder beside the project, when there is
// one, only adds the files the in-repo set does not have.
import { readdirSync, readFileSync, statSync, existsSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';

export const projectRoot = resolve(__dirname, '..', '..');
export const corpusDir = resolve(projectRoot, 'test', 'fixtures', 'corpus');
const extraCorpusDir = resolve(projectRoot, '..', 'shared', 'corpus');

/** Every `*.cql` file below `root` (sorted, folders walked in name order), as absolute paths. */
export function cqlFilesBelow(root: string): string[] {
  const out: string[] = [];
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir).sort()) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (name.endsWith('.cql')) out.push(path);
    }
  };
  walk(root);
  return out;
}

/** All `*.cql` files below `<corpus>/<folder>`, as absolute paths: the in-repo files (sorted), then any
 * file of ../shared/corpus/<folder> missing from them. The in-repo folder is
 * required: a missing one fails the tests that need it (never a silent skip). */
export function corpusFiles(folder: string): string[] {
  const root = join(corpusDir, folder);
  if (!existsSync(root)) throw new Error(`the test corpus is missing: ${root}`);
  const files = cqlFilesBelow(root);
  const extraRoot = join(extraCorpusDir, folder);
  if (existsSync(extraRoot)) {
    const known = new Set(files.map((file) => relative(root, file)));
    files.push(...cqlFilesBelow(extraRoot).filter((file) => !known.has(relative(extraRoot, file))));
  }
  return files;
}

/** A corpus file's path relative to `<corpus>/<folder>`, whichever corpus it comes from. */
export function corpusName(file: string, folder = ''): string {
  const root = file.startsWith(extraCorpusDir + '/') ? extraCorpusDir : corpusDir;
  return relative(join(root, folder), file);
}

export function readText(path: string): string {
  return readFileSync(path, 'utf8');
}
