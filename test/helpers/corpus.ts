// The shared corpus of real CQL lives beside the project (../shared/corpus); tests read it in place.
import { readdirSync, readFileSync, statSync, existsSync } from 'node:fs';
import { join, resolve } from 'node:path';

export const projectRoot = resolve(__dirname, '..', '..');
export const corpusDir = resolve(projectRoot, '..', 'shared', 'corpus');

/** All `*.cql` files below `corpus/<folder>`, sorted, as absolute paths. The corpus is required: a
 * missing one fails the tests that need it (never a silent skip). */
export function corpusFiles(folder: string): string[] {
  const root = join(corpusDir, folder);
  if (!existsSync(root)) {
    throw new Error(`the shared corpus is missing: ${root} (clone the project next to ../shared, as CI does)`);
  }
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

export function readText(path: string): string {
  return readFileSync(path, 'utf8');
}
