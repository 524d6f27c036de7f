// Temporary folders of files for the tests and benchmarks (LSP workspaces, CLI inputs).
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';

export function fileUri(filePath: string): string {
  return pathToFileURL(filePath).href;
}

/** A temporary folder with files, removed by `cleanup()`. */
export interface TempWorkspace {
  dir: string;
  /** Absolute path of a file in the workspace. */
  path(relative: string): string;
  uri(relative: string): string;
  write(relative: string, content: string | Uint8Array): string;
  remove(relative: string): void;
  cleanup(): void;
}

export function tempWorkspace(files: Record<string, string | Uint8Array> = {}, prefix = 'cqlint-lsp-'): TempWorkspace {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  const workspace: TempWorkspace = {
    dir,
    path: (relative) => path.join(dir, relative),
    uri: (relative) => fileUri(path.join(dir, relative)),
    write(relative, content) {
      const full = path.join(dir, relative);
      mkdirSync(path.dirname(full), { recursive: true });
      writeFileSync(full, content);
      return full;
    },
    remove: (relative) => rmSync(path.join(dir, relative), { recursive: true, force: true }),
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
  for (const [relative, content] of Object.entries(files)) workspace.write(relative, content);
  return workspace;
}
