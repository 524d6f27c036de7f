// Writing a file the one way every command does (DEVELOPERS.md): a regular file replaced atomically and
// only while it is what was read, a pipe or character device streamed into, anything else refused.
// Reading is files.ts's.
import { constants, promises as fs } from 'node:fs';
import * as path from 'node:path';
import { OPEN_FLAGS, describeFileType, sha1, type FileStamp } from './files';


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

const UTF8_BOM = Buffer.from([0xef, 0xbb, 0xbf]);
/** How long a write into a named pipe waits for a reader to open it, or for a stalled reader to read on. */
export const PIPE_WAIT_MS = 10_000;

/**
 * The one way cqlint writes a file (every command that writes: `report --out`, `lint --fix`, `format`,
 * `fix`). A regular file (or a new one) is replaced atomically: a temporary file beside it is written and
 * renamed over it, so an interrupted run never leaves half a file; its permissions are kept, and a
 * symbolic link keeps pointing at it. With `expected`, the file must still be what was read (identity,
 * size, time and content hash, checked before the rename). A target that is not a regular file is never
 * replaced: a named pipe or character device is written into with `special: 'stream'`, anything else is
 * refused (WriteRefusedError). I/O failures (ENOSPC, EACCES, EROFS ...) reject with the system error:
 * describeIoError words them. The text is written as given (line endings are the caller's).
 */
export async function writeTextFile(filePath: string, text: string, options: WriteOptions = {}): Promise<WriteOutcome> {
  const data = options.bom ? Buffer.concat([UTF8_BOM, Buffer.from(text, 'utf8')]) : Buffer.from(text, 'utf8');
  const stat = await fs.stat(filePath).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined;
    throw error;
  });
  if (!stat) {
    if (options.expected) throw new WriteRefusedError('the file was deleted or moved since it was read; not written');
    await replaceAtomically(filePath, data, undefined);
    return 'created';
  }
  if (stat.isFile()) {
    // A link keeps pointing at its target, which is what is replaced.
    const target = await fs.realpath(filePath);
    if (options.expected) await assertUnchanged(target, options.expected);
    await replaceAtomically(target, data, stat.mode & 0o7777, options.expected);
    return 'replaced';
  }
  const kind = describeFileType(stat);
  if (options.expected) throw new WriteRefusedError(`the file is no longer a regular file (${kind}); not written`);
  if (options.special === 'stream' && (stat.isFIFO() || stat.isCharacterDevice())) {
    await streamInto(filePath, data, stat.isFIFO(), options.pipeWaitMs ?? PIPE_WAIT_MS);
    return 'streamed';
  }
  throw new WriteRefusedError(`not a regular file (${kind}); cqlint writes regular files${options.special === 'stream' ? ', named pipes and character devices' : ''} only`);
}

/** Refuses (WriteRefusedError) unless the file is still exactly what the read that gave `expected` saw. */
async function assertUnchanged(target: string, expected: FileStamp): Promise<void> {
  const changed = new WriteRefusedError('the file changed on disk since it was read (an edit saved meanwhile?); not written, run again');
  const stat = await fs.stat(target);
  if (!stat.isFile() || stat.dev !== expected.dev || stat.ino !== expected.ino || stat.size !== expected.size || stat.mtimeMs !== expected.mtimeMs) throw changed;
  // The same size and time can hide an edit (coarse timestamps): compare the bytes' hash too.
  const handle = await fs.open(target, OPEN_FLAGS);
  try {
    const bytes = Buffer.alloc(expected.size + 1);
    let length = 0;
    for (;;) {
      const { bytesRead } = await handle.read(bytes, length, bytes.length - length, null);
      if (bytesRead === 0) break;
      length += bytesRead;
      if (length > expected.size) throw changed;
    }
    if (length !== expected.size || sha1(bytes.subarray(0, length)) !== expected.sha1) throw changed;
  } finally {
    await handle.close().catch(() => undefined);
  }
}

/** Writes a temporary file beside `target` and renames it over it (checking `expected` once more just before). */
async function replaceAtomically(target: string, data: Buffer, mode: number | undefined, expected?: FileStamp): Promise<void> {
  const temporary = path.join(path.dirname(target), `.${path.basename(target)}.cqlint-${process.pid}-${Date.now().toString(36)}.tmp`);
  try {
    const handle = await fs.open(temporary, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, mode ?? 0o666);
    try {
      await handle.writeFile(data);
      // Written through before the rename: a full disk fails here, not after the original is gone.
      await handle.sync();
    } finally {
      await handle.close();
    }
    if (mode !== undefined) await fs.chmod(temporary, mode);
    if (expected) {
      // Cheap last look (identity, size, time): an edit saved while the temporary file was written.
      const now = await fs.stat(target);
      if (now.ino !== expected.ino || now.size !== expected.size || now.mtimeMs !== expected.mtimeMs) {
        throw new WriteRefusedError('the file changed on disk since it was read (an edit saved meanwhile?); not written, run again');
      }
    }
    await fs.rename(temporary, target);
  } catch (error) {
    await fs.unlink(temporary).catch(() => undefined);
    throw error;
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
  for (const started = Date.now(); !handle; ) {
    try {
      handle = await fs.open(filePath, flags);
    } catch (error) {
      // ENXIO: a named pipe nobody has opened for reading (yet).
      if (!fifo || (error as NodeJS.ErrnoException).code !== 'ENXIO') throw error;
      if (Date.now() - started >= waitMs) throw new WriteRefusedError(`no process opened the named pipe for reading within ${waitMs / 1000} s; not written`);
      await sleep(50);
    }
  }
  try {
    const stat = await handle.stat();
    if (!stat.isFIFO() && !stat.isCharacterDevice()) throw new WriteRefusedError(`not a named pipe or character device any more (${describeFileType(stat)}); not written`);
    let offset = 0;
    let lastProgress = Date.now();
    while (offset < data.length) {
      try {
        const { bytesWritten } = await handle.write(data, offset, Math.min(64 * 1024, data.length - offset), null);
        offset += bytesWritten;
        if (bytesWritten > 0) lastProgress = Date.now();
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EAGAIN') throw error;
        if (Date.now() - lastProgress >= waitMs) throw new WriteRefusedError(`the reader stopped reading for ${waitMs / 1000} s; output incomplete`);
        await sleep(10);
      }
    }
  } finally {
    await handle.close().catch(() => undefined);
  }
}
