// The one way cqlint reads and writes files: CQL sources, .cqlint.json configs, ring files, CLI inputs and
// the opening of sample CSVs (streamed by server/core/report/sample.ts).
// Pure Node (no LSP imports): the CLI, the server and the core share it.
//
// A read stats first and refuses anything that is not a regular file (a FIFO would block forever,
// /dev/zero would never end), refuses files over a size cap per kind, decodes strictly as UTF-8 (mojibake
// would be linted as nonsense and written back destroyed) and, given workspace roots, refuses a path
// whose real location (symbolic links resolved) is outside them.
import { createHash } from 'node:crypto';
import {
  constants,
  promises as fs,
  closeSync,
  fstatSync,
  openSync,
  readSync,
  realpathSync,
  statSync,
  type Stats,
} from 'node:fs';
import * as path from 'node:path';

/** What a file is read as: each kind has its own size cap. */
export type FileKind = 'source' | 'config' | 'ring' | 'cluster';

/**
 * Size caps per kind, in bytes. Sources: a schema is kilobytes and the largest real CQL scripts (the
 * corpus's data loads) a few MB; linting takes about 80 bytes of memory per source byte (4 MB of INSERTs
 * peak at 320 MB RSS), so 16 MiB stays well within Node's default heap, where a 200 MB dump runs it out.
 * Configs are a few hundred bytes.
 * Rings: `nodetool ring` prints ~100 bytes per token, and 1,000 nodes x 256 vnodes is ~26 MB.
 * Cluster settings: a commented cassandra.yaml is ~150 KB, a scylla.yaml ~30 KB.
 */
export const MAX_FILE_BYTES: Readonly<Record<FileKind, number>> = Object.freeze({
  source: 16 * 1024 * 1024,
  config: 1024 * 1024,
  ring: 32 * 1024 * 1024,
  cluster: 2 * 1024 * 1024,
});

/** Extensions treated as CQL when walking folders. */
const CQL_EXTENSIONS: readonly string[] = ['.cql', '.cqlsh'];
/** Folders never walked into. */
const SKIPPED_FOLDERS: ReadonlySet<string> = new Set(['node_modules', '.git']);

export function isCqlFile(filePath: string): boolean {
  const lower = filePath.toLowerCase();
  return CQL_EXTENSIONS.some((ext) => lower.endsWith(ext));
}

type ReadFailure = {
  ok: false;
  reason: 'binary' | 'encoding' | 'too-large' | 'not-a-file' | 'outside-workspace' | 'io';
  message: string;
};

export type ReadResult =
  | {
      ok: true;
      /** The decoded text, without a byte order mark. */
      text: string;
      /** Whether the file starts with a UTF-8 byte order mark (writers put it back). */
      bom: boolean;
      /** What the file was when read (readTextFile and readTextFileSync): a writer checks it is still so. */
      stamp?: FileStamp;
    }
  | ReadFailure;

/**
 * What a read saw of a file: its identity, size, modification time and a hash of its bytes. writeTextFile
 * given it (`expected`) replaces the file only while it is still exactly what was read.
 */
export interface FileStamp {
  dev: number;
  ino: number;
  size: number;
  mtimeMs: number;
  /** SHA-1 of the bytes read (a BOM included). */
  sha1: string;
}

export interface ReadOptions {
  /** Picks the size cap (MAX_FILE_BYTES); default 'source'. */
  kind?: FileKind;
  /** Overrides the kind's cap. */
  maxBytes?: number;
  /** When given (and not empty), the file's real path must be inside one of these folders. */
  roots?: readonly string[];
}

// ignoreBOM keeps a BOM in the decoded text, so that it can be reported (and written back).
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
// O_NONBLOCK: opening a FIFO for reading then returns at once instead of waiting for a writer (the
// fstat that follows refuses it). Windows has no such flag and no FIFOs in the file system.
export const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);
const CHUNK_BYTES = 1024 * 1024;

/** Reads a text file as UTF-8 (see the top of this file). Never throws. */
export async function readTextFile(filePath: string, options: ReadOptions = {}): Promise<ReadResult> {
  const maxBytes = capOf(options);
  let handle: fs.FileHandle | undefined;
  try {
    const refused = checkStat(await fs.stat(filePath), maxBytes) ?? (await checkRoots(filePath, options.roots));
    if (refused) return refused;
    handle = await fs.open(filePath, OPEN_FLAGS);
    // The path may have been swapped between stat and open: check what was opened.
    const stat = await handle.stat();
    const again = checkStat(stat, maxBytes);
    if (again) return again;
    const content = new BoundedContent(stat, maxBytes);
    for (;;) {
      const chunk = content.nextChunk();
      const done = content.add(chunk, (await handle.read(chunk, 0, chunk.length, null)).bytesRead);
      if (done) return done;
    }
  } catch (error) {
    return { ok: false, reason: 'io', message: describeIoError(error) };
  } finally {
    await handle?.close().catch(() => undefined);
  }
}

/**
 * Reads a stream (the command line's stdin) as readTextFile reads a file: the kind's size cap (reading
 * stops there), strict UTF-8, a byte order mark reported. Never throws.
 */
export async function readTextStream(
  stream: AsyncIterable<string | Uint8Array>,
  options: Pick<ReadOptions, 'kind' | 'maxBytes'> = {},
): Promise<ReadResult> {
  const maxBytes = capOf(options);
  const chunks: Buffer[] = [];
  let total = 0;
  try {
    for await (const chunk of stream) {
      const bytes =
        typeof chunk === 'string'
          ? Buffer.from(chunk, 'utf8')
          : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
      total += bytes.length;
      if (total > maxBytes) return tooLarge(total, maxBytes, true);
      chunks.push(bytes);
    }
  } catch (error) {
    return { ok: false, reason: 'io', message: describeIoError(error) };
  }
  return decodeText(Buffer.concat(chunks, total));
}

/** An opened regular file, for a streaming reader (the sample CSVs): the handle and its stats. */
export type OpenResult = { ok: true; handle: fs.FileHandle; stat: Stats } | ReadFailure;

/**
 * Opens a file for a streaming read with the same checks as readTextFile but no size cap (a sample CSV
 * may be gigabytes; its reader keeps memory bounded): a regular file only (a FIFO would block the stream
 * forever), inside `roots` when given. The caller closes the handle. Never throws.
 */
export async function openRegularFile(filePath: string, options: Pick<ReadOptions, 'roots'> = {}): Promise<OpenResult> {
  let handle: fs.FileHandle | undefined;
  try {
    const refused =
      checkStat(await fs.stat(filePath), Number.POSITIVE_INFINITY) ?? (await checkRoots(filePath, options.roots));
    if (refused) return refused;
    handle = await fs.open(filePath, OPEN_FLAGS);
    const stat = await handle.stat();
    const again = checkStat(stat, Number.POSITIVE_INFINITY);
    if (again) {
      await handle.close().catch(() => undefined);
      return again;
    }
    return { ok: true, handle, stat };
  } catch (error) {
    await handle?.close().catch(() => undefined);
    return { ok: false, reason: 'io', message: describeIoError(error) };
  }
}

/**
 * The same read, synchronous: for the command line (and the core's synchronous config lookup, which only
 * the CLI uses: the language server must not read synchronously). The checks are the same, so it cannot
 * block on a FIFO or read without end either.
 */
export function readTextFileSync(filePath: string, options: ReadOptions = {}): ReadResult {
  const maxBytes = capOf(options);
  let fd: number | undefined;
  try {
    const refused = checkStat(statSync(filePath), maxBytes) ?? checkRootsSync(filePath, options.roots);
    if (refused) return refused;
    fd = openSync(filePath, OPEN_FLAGS);
    const stat = fstatSync(fd);
    const again = checkStat(stat, maxBytes);
    if (again) return again;
    const content = new BoundedContent(stat, maxBytes);
    for (;;) {
      const chunk = content.nextChunk();
      const done = content.add(chunk, readSync(fd, chunk, 0, chunk.length, null));
      if (done) return done;
    }
  } catch (error) {
    return { ok: false, reason: 'io', message: describeIoError(error) };
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/**
 * The bytes of one read, chunk by chunk, up to the cap: a file that grows after its stat (or a device
 * that claims size 0 and never ends) is cut off at the cap, never buffered without end.
 */
class BoundedContent {
  private readonly chunks: Buffer[] = [];
  private total = 0;

  constructor(
    private readonly stat: Stats,
    private readonly maxBytes: number,
  ) {}

  private get statSize(): number {
    return this.stat.size;
  }

  nextChunk(): Buffer {
    // One byte more than the stat said, to see the end of file; past it (a file that grew, or /proc's
    // size-0 files) in ordinary chunks.
    const remaining = this.statSize - this.total;
    return Buffer.allocUnsafe(remaining > 0 ? Math.min(CHUNK_BYTES, remaining + 1) : 64 * 1024);
  }

  /** Takes what a read put into `chunk`; returns the result once the file has ended or is too large. */
  add(chunk: Buffer, bytesRead: number): ReadResult | undefined {
    if (bytesRead === 0) {
      const data = Buffer.concat(this.chunks, this.total);
      const decoded = decodeText(data);
      if (!decoded.ok) return decoded;
      const { dev, ino, mtimeMs } = this.stat;
      return { ...decoded, stamp: { dev, ino, size: data.length, mtimeMs, sha1: sha1(data) } };
    }
    this.total += bytesRead;
    if (this.total > this.maxBytes) return tooLarge(this.total, this.maxBytes, true);
    this.chunks.push(bytesRead === chunk.length ? chunk : chunk.subarray(0, bytesRead));
    return undefined;
  }
}

export function sha1(data: Uint8Array): string {
  return createHash('sha1').update(data).digest('hex');
}

function capOf(options: ReadOptions): number {
  return options.maxBytes ?? MAX_FILE_BYTES[options.kind ?? 'source'];
}

function checkStat(stat: Stats, maxBytes: number): ReadFailure | undefined {
  if (!stat.isFile())
    return { ok: false, reason: 'not-a-file', message: `not a regular file (${describeFileType(stat)})` };
  if (stat.size > maxBytes) return tooLarge(stat.size, maxBytes, false);
  return undefined;
}

function tooLarge(size: number, maxBytes: number, atLeast: boolean): ReadFailure {
  return {
    ok: false,
    reason: 'too-large',
    message: `file is ${atLeast ? 'over ' : ''}${limitSize(size)}, over the ${limitSize(maxBytes)} limit`,
  };
}

/** A size in a too-large message: whole bytes below a MiB, so that `2000 bytes, over the 1999 bytes limit` still
 * tells the two apart (util/format's formatters round to a unit). */
function limitSize(bytes: number): string {
  if (bytes >= 1024 * 1024 && bytes % (1024 * 1024) === 0) return `${bytes / (1024 * 1024)} MiB`;
  if (bytes >= 1024 * 1024) return `${(bytes / (1024 * 1024)).toFixed(1)} MiB`;
  return `${bytes} bytes`;
}

/** A file type in words, for "not a regular file (...)". */
export function describeFileType(stat: Stats): string {
  if (stat.isDirectory()) return 'a directory';
  if (stat.isFIFO()) return 'a named pipe';
  if (stat.isCharacterDevice()) return 'a character device';
  if (stat.isBlockDevice()) return 'a block device';
  if (stat.isSocket()) return 'a socket';
  if (stat.isSymbolicLink()) return 'a symbolic link';
  return 'not a regular file';
}

function outsideRoots(real: string, roots: readonly string[], realRoots: readonly string[]): ReadFailure | undefined {
  if (realRoots.some((root) => isInside(root, real)) || roots.some((root) => isInside(root, real))) return undefined;
  return {
    ok: false,
    reason: 'outside-workspace',
    message: 'the file (or the link it goes through) is outside the workspace',
  };
}

async function checkRoots(filePath: string, roots: readonly string[] | undefined): Promise<ReadFailure | undefined> {
  if (!roots?.length) return undefined;
  const real = await fs.realpath(filePath);
  const realRoots = await Promise.all(roots.map((root) => fs.realpath(root).catch(() => root)));
  return outsideRoots(real, roots, realRoots);
}

function checkRootsSync(filePath: string, roots: readonly string[] | undefined): ReadFailure | undefined {
  if (!roots?.length) return undefined;
  const real = realpathSync(filePath);
  const realRoots = roots.map((root) => {
    try {
      return realpathSync(root);
    } catch {
      return root;
    }
  });
  return outsideRoots(real, roots, realRoots);
}

/**
 * Decodes file bytes as UTF-8. Binary content (NUL bytes) and invalid UTF-8 are refused with a reason
 * rather than decoded into replacement characters. A UTF-8 BOM is dropped and reported in `bom`.
 */
export function decodeText(data: Uint8Array): ReadResult {
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
    return { ok: false, reason: 'encoding', message: 'file is not valid UTF-8 (convert it, e.g. from Latin-1, first)' };
  }
  const bom = text.charCodeAt(0) === 0xfeff;
  return { ok: true, text: bom ? text.slice(1) : text, bom };
}

export function describeIoError(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  switch (code) {
    case 'ENOENT':
      return 'no such file or directory';
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    case 'EISDIR':
      return 'is a directory';
    case 'ENOTDIR':
      return 'a part of the path is not a directory';
    case 'ELOOP':
      return 'too many symbolic links';
    case 'ENXIO':
      return 'not a regular file (a socket or device)';
    case 'ENAMETOOLONG':
      return 'file name too long';
    case 'EMFILE':
    case 'ENFILE':
      return 'too many open files';
    case 'ENOSPC':
      return 'no space left on the device';
    case 'EDQUOT':
      return 'disk quota exceeded';
    case 'EROFS':
      return 'read-only file system';
    case 'EFBIG':
      return 'file too large for the file system';
    case 'EIO':
      return 'input/output error';
    case 'EPIPE':
      return 'the reader went away before the end (broken pipe)';
    case 'EEXIST':
      return 'file already exists';
    default:
      return error instanceof Error ? error.message : String(error);
  }
}

// -------------------------------------------------------------------------------------------------
// Walking folders

interface WalkOptions {
  /** Stop after this many files (the walk reports `truncated`). */
  maxFiles?: number;
  /** When given, links that lead outside these folders are skipped (reported in `skipped`). */
  roots?: readonly string[];
  /** Entries (folders and CQL files) to leave out, e.g. by ignore patterns: a skipped folder is not read. */
  skip?: (entry: string, isDirectory: boolean) => boolean;
  /** Which file names are listed; default CQL files (isCqlFile). */
  accept?: (name: string) => boolean;
  /** Folders deeper than this below `root` are not walked into. */
  maxDepth?: number;
}

interface WalkResult {
  files: string[];
  truncated: boolean;
  /** Folders that could not be read, with why. */
  errors: { path: string; message: string }[];
  /** CQL-named entries that are not read: FIFOs, devices, links to nowhere or out of the roots. */
  skipped: { path: string; message: string; /** A link that leads out of the roots. */ outside?: true }[];
  /** Folders and CQL files `skip` left out. */
  ignored: number;
}

/**
 * All CQL files below `root` (or those `accept` names), sorted, skipping node_modules and .git. Symbolic
 * links to folders are not followed (they can form cycles); links to files are. Only regular files are
 * listed: a FIFO named x.cql would block its reader.
 */
export async function findCqlFiles(root: string, options: WalkOptions = {}): Promise<WalkResult> {
  const maxFiles = options.maxFiles ?? Number.POSITIVE_INFINITY;
  const accept = options.accept ?? isCqlFile;
  const result: WalkResult = { files: [], truncated: false, errors: [], skipped: [], ignored: 0 };
  const realRoots = options.roots?.length
    ? await Promise.all(options.roots.map((r) => fs.realpath(r).catch(() => r)))
    : undefined;
  // Iterative (a deep tree cannot overflow the stack); folders are visited in sorted order.
  const pending: string[] = [root];
  const depth = new Map<string, number>([[root, 0]]);
  while (pending.length && !result.truncated) {
    const dir = pending.pop()!;
    let entries: import('node:fs').Dirent[];
    try {
      entries = await fs.readdir(dir, { withFileTypes: true });
    } catch (error) {
      result.errors.push({ path: dir, message: describeIoError(error) });
      continue;
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const subfolders: string[] = [];
    for (const entry of entries) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        if (SKIPPED_FOLDERS.has(entry.name)) continue;
        const level = depth.get(dir)! + 1;
        if (level > (options.maxDepth ?? Number.POSITIVE_INFINITY)) continue;
        if (options.skip?.(full, true)) result.ignored++;
        else {
          subfolders.push(full);
          depth.set(full, level);
        }
        continue;
      }
      if (!accept(entry.name)) continue;
      if (options.skip?.(full, false)) {
        result.ignored++;
        continue;
      }
      if (!entry.isFile()) {
        const why = await whyNotListed(full, entry.isSymbolicLink(), realRoots);
        if (why) {
          result.skipped.push(why);
          continue;
        }
      }
      if (result.files.length >= maxFiles) {
        result.truncated = true;
        break;
      }
      result.files.push(full);
    }
    // Files of a folder come before its subfolders' (as a recursive walk gives them).
    for (let i = subfolders.length - 1; i >= 0; i--) pending.push(subfolders[i]);
  }
  return result;
}

/** Why a non-regular directory entry is not listed, or undefined for a link to a regular file inside the roots. */
async function whyNotListed(
  full: string,
  isLink: boolean,
  realRoots: readonly string[] | undefined,
): Promise<WalkResult['skipped'][number] | undefined> {
  const skipped = (message: string): WalkResult['skipped'][number] => ({ path: full, message });
  if (!isLink) {
    try {
      return skipped(`not a regular file (${describeFileType(await fs.lstat(full))})`);
    } catch (error) {
      return skipped(describeIoError(error));
    }
  }
  try {
    const stat = await fs.stat(full);
    if (!stat.isFile()) return skipped(`not a regular file (a link to ${describeFileType(stat)})`);
    const outside = realRoots && outsideRoots(await fs.realpath(full), realRoots, realRoots);
    return outside ? { ...skipped(outside.message), outside: true } : undefined;
  } catch (error) {
    return skipped(describeIoError(error));
  }
}

/** True when `filePath` is `folder` or inside it. */
export function isInside(folder: string, filePath: string): boolean {
  const relative = path.relative(folder, filePath);
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
}
