// Writing files the one way every command does (DEVELOPERS.md): a regular file replaced atomically and
// only while it is what was read, inside the project unless the user named it, several files all or
// nothing (WriteBatch); a pipe or character device streamed into; anything else refused.
// Reading is files.ts's.
import { constants, promises as fs } from 'node:fs';
import * as path from 'node:path';
import { OPEN_FLAGS, describeFileType, describeIoError, isInside, sha1, type FileStamp } from './files';

export interface WriteOptions {
  /** Start the file with a UTF-8 byte order mark (keep the one the read reported). */
  bom?: boolean;
  /**
   * The stamp of the read the new text was made from (`lint --fix`, `format`, `fix`): the file is
   * replaced only while it is still what was read; an edit saved meanwhile is kept and the write refused.
   * A file that is no longer a regular file is refused too.
   */
  expected?: FileStamp;
  /**
   * The folders the write must stay in (the project: the input folder a walk found the file in, the
   * working folder for a default output such as .cqlintcache or report.html): the real path written
   * (symbolic links resolved; for a new file, its folder's) must be inside one of them, or the write is
   * refused. Undefined: wherever it is, for a path the user named on the command line.
   */
  roots?: readonly string[];
  /**
   * The file must not exist (a fix's new migration file): refused when it does, and created by a link that
   * fails if another process made it meanwhile (never replaced). Batches only.
   */
  create?: boolean;
  /**
   * A target that is not a regular file (`report --out`): 'stream' writes into a named pipe or a character
   * device (/dev/null, /dev/stdout, a terminal); 'refuse' (the default) refuses it. Either way it is never
   * replaced; directories, block devices and sockets are always refused.
   */
  special?: 'stream' | 'refuse';
  /** How long a named pipe may go without a reader (or a reader without reading); default PIPE_WAIT_MS. */
  pipeWaitMs?: number;
}

/** How writeTextFile wrote: a regular file replaced or created atomically, or a special file written into. */
export type WriteOutcome = 'replaced' | 'created' | 'streamed';

/** A write refused before anything was changed (the message says why; the file is as it was). */
export class WriteRefusedError extends Error {
  override name = 'WriteRefusedError';
}

/** A write of a batch that failed (refused, or a system error): which file, and why in words. Nothing was changed. */
export class BatchWriteError extends Error {
  override name = 'BatchWriteError';
  constructor(
    readonly path: string,
    cause: unknown,
  ) {
    super(describeIoError(cause), { cause });
  }
}

const UTF8_BOM = Buffer.from([0xef, 0xbb, 0xbf]);
/** How long a write into a named pipe waits for a reader to open it, or for a stalled reader to read on. */
export const PIPE_WAIT_MS = 10_000;

const changedOnDisk = (): WriteRefusedError =>
  new WriteRefusedError(
    'the file changed on disk since it was read (an edit saved meanwhile?); not written, run again',
  );

/**
 * The one way cqlint writes a file (every command that writes: `report --out`, `lint --fix`, `format`,
 * `fix`, the cache). A regular file (or a new one) is replaced atomically: a temporary file beside it is
 * written and renamed over it, so an interrupted run never leaves half a file; its permissions are kept,
 * and a symbolic link keeps pointing at it, when the link's target is inside `roots`. With `expected`,
 * the file must still be what was read (identity, size, time and content hash, checked before the
 * rename). A target that is not a regular file is never replaced: a named pipe or character device is
 * written into with `special: 'stream'`, anything else is refused (WriteRefusedError). I/O failures
 * (ENOSPC, EACCES, EROFS ...) reject with the system error: describeIoError words them. The text is
 * written as given (line endings are the caller's). Several files that must change together go through
 * a WriteBatch.
 */
export async function writeTextFile(filePath: string, text: string, options: WriteOptions = {}): Promise<WriteOutcome> {
  const stat = await statOrMissing(filePath);
  if (stat && !stat.isFile()) {
    const kind = describeFileType(stat);
    if (options.expected) throw new WriteRefusedError(`the file is no longer a regular file (${kind}); not written`);
    if (options.special === 'stream' && (stat.isFIFO() || stat.isCharacterDevice())) {
      await assertInside(filePath, true, options.roots);
      await streamInto(filePath, encode(text, options.bom), stat.isFIFO(), options.pipeWaitMs ?? PIPE_WAIT_MS);
      return 'streamed';
    }
    throw new WriteRefusedError(
      `not a regular file (${kind}); cqlint writes regular files${options.special === 'stream' ? ', named pipes and character devices' : ''} only`,
    );
  }
  const staged = await stage(filePath, text, options, false);
  try {
    await recheck(staged);
    await fs.rename(staged.temporary, staged.target);
  } catch (error) {
    await fs.unlink(staged.temporary).catch(() => undefined);
    throw error;
  }
  return staged.existed ? 'replaced' : 'created';
}

/** A file of a batch, staged: everything checked and its new content written beside it. */
interface Staged {
  /** The real path replaced (a link's target). */
  target: string;
  /** As given (for messages). */
  path: string;
  temporary: string;
  /** A hard link (or copy) of the original, to put back if a later rename of the batch fails. */
  backup?: string;
  existed: boolean;
  expected?: FileStamp;
  /** A new file: linked into place (which fails when the name was taken meanwhile), never renamed over one. */
  create?: boolean;
}

/**
 * Several files written all or nothing (`fix`'s refactoring, `lint --fix`, `format`): `add` checks a file
 * (a regular file or a new one, inside its roots, still what was read, writable, not the same file as
 * another of the batch) and writes its new content to a temporary file beside it, so that a full disk or
 * a read-only folder fails before anything is replaced; `commit` looks at every file once more and then
 * renames the temporary files over them, putting the originals back should a rename fail. A refusal at
 * any step changes nothing (BatchWriteError names the file). Memory holds no file's text: each is on disk
 * once added.
 */
export class WriteBatch {
  private readonly staged: Staged[] = [];
  private readonly targets = new Map<string, string>();
  private done = false;

  get size(): number {
    return this.staged.length;
  }

  /** Stages a file (see the class). Throws BatchWriteError; the batch is then aborted (nothing is changed). */
  async add(filePath: string, text: string, options: Omit<WriteOptions, 'special' | 'pipeWaitMs'> = {}): Promise<void> {
    if (this.done) throw new Error('WriteBatch: add after commit or abort');
    try {
      const stat = await statOrMissing(filePath);
      if (stat && !stat.isFile()) {
        throw new WriteRefusedError(
          options.expected
            ? `the file is no longer a regular file (${describeFileType(stat)}); not written`
            : `not a regular file (${describeFileType(stat)}); cqlint writes regular files only`,
        );
      }
      const staged = await stage(filePath, text, options, true);
      this.staged.push(staged);
      const twin = this.targets.get(staged.target);
      if (twin !== undefined) throw new WriteRefusedError(`it is the same file as ${twin} (a link to it); not written`);
      this.targets.set(staged.target, filePath);
    } catch (error) {
      await this.abort();
      throw new BatchWriteError(filePath, error);
    }
  }

  /** Replaces every staged file, or none (BatchWriteError names the one that could not be). */
  async commit(): Promise<void> {
    if (this.done) throw new Error('WriteBatch: committed or aborted already');
    let current: Staged | undefined;
    try {
      for (current of this.staged) await recheck(current);
    } catch (error) {
      await this.abort();
      throw new BatchWriteError(current!.path, error);
    }
    this.done = true;
    const renamed: Staged[] = [];
    try {
      for (current of this.staged) {
        if (current.create) {
          const into = current.target;
          // A link never replaces a file (a file system without links gets an exclusive copy).
          await fs
            .link(current.temporary, into)
            .catch((error: NodeJS.ErrnoException) =>
              error.code === 'EEXIST'
                ? Promise.reject(error)
                : fs.copyFile(current!.temporary, into, constants.COPYFILE_EXCL),
            )
            .catch((error: NodeJS.ErrnoException) => {
              throw error.code === 'EEXIST'
                ? new WriteRefusedError('the file was created meanwhile by something else; not written')
                : error;
            });
          await fs.unlink(current.temporary).catch(() => undefined);
        } else await fs.rename(current.temporary, current.target);
        renamed.push(current);
      }
    } catch (error) {
      // Put back what was replaced (a rename into the same folder: as atomic as the one that failed).
      for (const done of renamed.reverse()) {
        if (done.backup) await fs.rename(done.backup, done.target).catch(() => undefined);
        else await fs.unlink(done.target).catch(() => undefined);
      }
      await cleanUp(this.staged);
      throw new BatchWriteError(current!.path, error);
    }
    await cleanUp(this.staged);
  }

  /** Removes what was staged; nothing is changed. */
  async abort(): Promise<void> {
    this.done = true;
    await cleanUp(this.staged);
  }
}

async function cleanUp(staged: readonly Staged[]): Promise<void> {
  for (const s of staged) {
    await fs.unlink(s.temporary).catch(() => undefined);
    if (s.backup) await fs.unlink(s.backup).catch(() => undefined);
  }
}

function encode(text: string, bom: boolean | undefined): Buffer {
  return bom ? Buffer.concat([UTF8_BOM, Buffer.from(text, 'utf8')]) : Buffer.from(text, 'utf8');
}

async function statOrMissing(filePath: string): Promise<import('node:fs').Stats | undefined> {
  return fs.stat(filePath).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined;
    throw error;
  });
}

/** The real path of `filePath` (of its folder when it does not exist); refused when outside `roots`. */
async function assertInside(filePath: string, exists: boolean, roots: readonly string[] | undefined): Promise<string> {
  const real = exists
    ? await fs.realpath(filePath)
    : path.join(await fs.realpath(path.dirname(filePath)), path.basename(filePath));
  if (!roots?.length) return real;
  const realRoots = await Promise.all(roots.map((root) => fs.realpath(root).catch(() => path.resolve(root))));
  if (!realRoots.some((root) => isInside(root, real))) {
    throw new WriteRefusedError(
      `the file (or the link it goes through) leads outside the project, to ${real}; not written (name it on the command line to write it there)`,
    );
  }
  return real;
}

/**
 * Checks a regular file (or a new one) and writes its new content to a temporary file beside it; with
 * `backup`, keeps a link to the original too (a batch puts it back if a later rename fails).
 */
async function stage(
  filePath: string,
  text: string,
  options: Omit<WriteOptions, 'special' | 'pipeWaitMs'>,
  backup: boolean,
): Promise<Staged> {
  const stat = await statOrMissing(filePath);
  if (stat && options.create)
    throw new WriteRefusedError('the file exists already and cqlint creates it, never replaces it; not written');
  if (!stat && options.expected)
    throw new WriteRefusedError('the file was deleted or moved since it was read; not written');
  const target = await assertInside(filePath, stat !== undefined, options.roots);
  if (stat) {
    if (options.expected) await assertUnchanged(target, options.expected);
    await fs.access(target, constants.W_OK).catch((error: NodeJS.ErrnoException) => {
      throw error.code === 'EACCES' || error.code === 'EPERM'
        ? new WriteRefusedError('the file is read-only; not written')
        : error;
    });
  }
  const mode = stat ? stat.mode & 0o7777 : undefined;
  const temporary = siblingName(target, 'tmp');
  const handle = await fs.open(temporary, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, mode ?? 0o666);
  const staged: Staged = {
    target,
    path: filePath,
    temporary,
    existed: stat !== undefined,
    expected: options.expected,
    ...(options.create ? { create: true } : {}),
  };
  try {
    try {
      await handle.writeFile(encode(text, options.bom));
      // Written through before any rename: a full disk fails here, not after an original is gone.
      await handle.sync();
    } finally {
      await handle.close();
    }
    if (mode !== undefined) await fs.chmod(temporary, mode);
    if (backup && stat) {
      const copy = siblingName(target, 'orig');
      // A hard link costs nothing; a file system without them gets a copy.
      await fs.link(target, copy).catch(() => fs.copyFile(target, copy, constants.COPYFILE_EXCL));
      staged.backup = copy;
    }
    return staged;
  } catch (error) {
    await cleanUp([staged]);
    throw error;
  }
}

let sequence = 0;
function siblingName(target: string, kind: 'tmp' | 'orig'): string {
  return path.join(
    path.dirname(target),
    `.${path.basename(target)}.cqlint-${process.pid}-${Date.now().toString(36)}-${sequence++}.${kind}`,
  );
}

/**
 * The cheap last look before a rename (identity, size, time) of a file written from what was read: an edit
 * saved, or the file deleted, while the batch was staged.
 */
async function recheck(staged: Staged): Promise<void> {
  const expected = staged.expected;
  if (!expected) return;
  const now = await statOrMissing(staged.target);
  if (!now || !now.isFile())
    throw new WriteRefusedError('the file was deleted or moved since it was read; not written');
  if (now.ino !== expected.ino || now.size !== expected.size || now.mtimeMs !== expected.mtimeMs) throw changedOnDisk();
}

/** Refuses (WriteRefusedError) unless the file is still exactly what the read that gave `expected` saw. */
async function assertUnchanged(target: string, expected: FileStamp): Promise<void> {
  const stat = await fs.stat(target);
  if (
    !stat.isFile() ||
    stat.dev !== expected.dev ||
    stat.ino !== expected.ino ||
    stat.size !== expected.size ||
    stat.mtimeMs !== expected.mtimeMs
  )
    throw changedOnDisk();
  // The same size and time can hide an edit (coarse timestamps): compare the bytes' hash too.
  const handle = await fs.open(target, OPEN_FLAGS);
  try {
    const bytes = Buffer.alloc(expected.size + 1);
    let length = 0;
    for (;;) {
      const { bytesRead } = await handle.read(bytes, length, bytes.length - length, null);
      if (bytesRead === 0) break;
      length += bytesRead;
      if (length > expected.size) throw changedOnDisk();
    }
    if (length !== expected.size || sha1(bytes.subarray(0, length)) !== expected.sha1) throw changedOnDisk();
  } finally {
    await handle.close().catch(() => undefined);
  }
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Writes into a named pipe or character device without ever blocking the process: opened non-blocking
 * (a pipe without a reader is retried for `waitMs`, then refused), a full pipe waited on while its
 * reader reads (refused once it stalls for `waitMs`). /dev/full gives ENOSPC, a reader that goes
 * away EPIPE: both reject with the system error.
 */
async function streamInto(filePath: string, data: Buffer, fifo: boolean, waitMs: number): Promise<void> {
  const flags = constants.O_WRONLY | (constants.O_NONBLOCK ?? 0);
  let handle: fs.FileHandle | undefined;
  for (const started = Date.now(); !handle;) {
    try {
      handle = await fs.open(filePath, flags);
    } catch (error) {
      // ENXIO: a named pipe nobody has opened for reading (yet).
      if (!fifo || (error as NodeJS.ErrnoException).code !== 'ENXIO') throw error;
      if (Date.now() - started >= waitMs)
        throw new WriteRefusedError(
          `no process opened the named pipe for reading within ${waitMs / 1000} s; not written`,
        );
      await sleep(50);
    }
  }
  try {
    const stat = await handle.stat();
    if (!stat.isFIFO() && !stat.isCharacterDevice())
      throw new WriteRefusedError(
        `not a named pipe or character device any more (${describeFileType(stat)}); not written`,
      );
    let offset = 0;
    let lastProgress = Date.now();
    while (offset < data.length) {
      try {
        const { bytesWritten } = await handle.write(data, offset, Math.min(64 * 1024, data.length - offset), null);
        offset += bytesWritten;
        if (bytesWritten > 0) lastProgress = Date.now();
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EAGAIN') throw error;
        if (Date.now() - lastProgress >= waitMs)
          throw new WriteRefusedError(`the reader stopped reading for ${waitMs / 1000} s; output incomplete`);
        await sleep(10);
      }
    }
  } finally {
    await handle.close().catch(() => undefined);
  }
}
