// Finding and reading CQL files on disk. Pure Node (no LSP imports): the CLI uses it too.
import { promises as fs } from 'node:fs';
import * as path from 'node:path';

/** Extensions treated as CQL when walking folders. */
export const CQL_EXTENSIONS: readonly string[] = ['.cql', '.cqlsh'];
/** Folders never walked into. */
export const SKIPPED_FOLDERS: ReadonlySet<string> = new Set(['node_modules', '.git']);

export function isCqlFile(filePath: string): boolean {
  const lower = filePath.toLowerCase();
  return CQL_EXTENSIONS.some((ext) => lower.endsWith(ext));
}

export type ReadResult =
  | { ok: true; text: string }
  | { ok: false; reason: 'binary' | 'encoding' | 'too-large' | 'not-a-file' | 'io'; message: string };

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Reads a text file as UTF-8. Binary content (NUL bytes) and invalid UTF-8 are refused with a
 * reason rather than decoded into replacement characters: linting mojibake would report nonsense,
 * and an edit written back would destroy the original bytes. A UTF-8 BOM is dropped.
 */
export async function readCqlFile(filePath: string, maxBytes = Number.POSITIVE_INFINITY): Promise<ReadResult> {
  let data: Buffer;
  try {
    const stat = await fs.stat(filePath);
    if (!stat.isFile()) return { ok: false, reason: 'not-a-file', message: 'not a regular file' };
    if (stat.size > maxBytes) {
      return { ok: false, reason: 'too-large', message: `file is ${stat.size} bytes, over the ${maxBytes}-byte limit` };
    }
    data = await fs.readFile(filePath);
  } catch (error) {
    return { ok: false, reason: 'io', message: describeIoError(error) };
  }
  return decodeCql(data);
}

export function decodeCql(data: Uint8Array): ReadResult {
  const probe = data.subarray(0, 8192);
  // UTF-16 files start with a BOM and are full of NULs; name the encoding instead of calling them binary.
  if ((probe[0] === 0xff && probe[1] === 0xfe) || (probe[0] === 0xfe && probe[1] === 0xff)) {
    return { ok: false, reason: 'encoding', message: 'file is UTF-16 encoded; cqlint reads UTF-8 only' };
  }
  if (data.includes(0)) return { ok: false, reason: 'binary', message: 'file looks binary (contains NUL bytes)' };
  let text: string;
  try {
    text = utf8.decode(data);
  } catch {
    return { ok: false, reason: 'encoding', message: 'file is not valid UTF-8' };
  }
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  return { ok: true, text };
}

export function describeIoError(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  switch (code) {
    case 'ENOENT': return 'no such file or directory';
    case 'EACCES':
    case 'EPERM': return 'permission denied';
    case 'EISDIR': return 'is a directory';
    case 'ELOOP': return 'too many symbolic links';
    default: return error instanceof Error ? error.message : String(error);
  }
}

export interface WalkOptions {
  /** Stop after this many files (the walk reports `truncated`). */
  maxFiles?: number;
}

export interface WalkResult {
  files: string[];
  truncated: boolean;
  /** Folders that could not be read, with why. */
  errors: { path: string; message: string }[];
}

/**
 * All CQL files below `root`, sorted, skipping node_modules and .git. Symbolic links to folders are
 * not followed (they can form cycles); links to files are.
 */
export async function findCqlFiles(root: string, options: WalkOptions = {}): Promise<WalkResult> {
  const maxFiles = options.maxFiles ?? Number.POSITIVE_INFINITY;
  const result: WalkResult = { files: [], truncated: false, errors: [] };
  const walk = async (dir: string): Promise<void> => {
    let entries: import('node:fs').Dirent[];
    try {
      entries = await fs.readdir(dir, { withFileTypes: true });
    } catch (error) {
      result.errors.push({ path: dir, message: describeIoError(error) });
      return;
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      if (result.truncated) return;
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        if (!SKIPPED_FOLDERS.has(entry.name)) await walk(full);
      } else if (isCqlFile(entry.name) && (entry.isFile() || (entry.isSymbolicLink() && (await isFile(full))))) {
        if (result.files.length >= maxFiles) {
          result.truncated = true;
          return;
        }
        result.files.push(full);
      }
    }
  };
  await walk(root);
  return result;
}

async function isFile(filePath: string): Promise<boolean> {
  try {
    return (await fs.stat(filePath)).isFile();
  } catch {
    return false;
  }
}

/** True when `filePath` is `folder` or inside it. */
export function isInside(folder: string, filePath: string): boolean {
  const relative = path.relative(folder, filePath);
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
}
