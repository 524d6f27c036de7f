// Sample summaries kept by file and table, so that a 2-million-row CSV is read once: a lint run, the
// background reading in the editor, the report and its re-renders after schema edits all reuse the
// summary while the file (path, mtime, size) and what the reading depends on (the table's columns and
// key, the header-less column order, the shard formula spread, the ring) are unchanged. An edit of the
// sampled table's own columns or key changes the figures, so it is read again; other edits are not.
// Rules are synchronous and never wait for a read: they see `latest`, the last complete summary.
import { createHash } from 'node:crypto';
import type { SampleSetting } from '../vocabulary/config';
import type { SchemaModel, TableInfo } from '../schema/model';
import { openRegularFile } from '../io/files';
import type { Ring } from '../token/ring';
import { formatShardFormula } from '../token/shard';
import { readSampleFile, SampleReadError, type SampleOptions, type SampleSummary } from './sample';

export interface SampleProgress {
  rows: number;
  /** Characters read so far, and the file's size in bytes (the same for ASCII). */
  chars: number;
  size: number;
}

export interface SampleRequest {
  table: TableInfo;
  schema: SchemaModel;
  setting: SampleSetting;
  shard?: SampleOptions['shard'];
  ring?: Ring;
  /** Identifies the ring's content (it is part of what the summary depends on). */
  ringKey?: string;
  /** The file must be inside one of these folders (a workspace's samples). */
  roots?: readonly string[];
  onProgress?: (progress: SampleProgress) => void;
  /** Checked between chunks; the reading stops once every caller waiting for it is cancelled. */
  isCancelled?: () => boolean;
}

export interface SampleResult {
  summary: SampleSummary;
  /** Read now (not served from the cache). */
  fresh: boolean;
}

interface Entry {
  key: string;
  summary: SampleSummary;
}

interface Caller {
  onProgress?: SampleRequest['onProgress'];
  isCancelled?: SampleRequest['isCancelled'];
}

interface Flight {
  promise: Promise<SampleSummary>;
  callers: Set<Caller>;
}

const slot = (file: string, table: string): string => `${file}\u0000${table}`;

/** What a summary of `table` read from this file depends on besides the file's content. */
export function readingKey(
  request: Pick<SampleRequest, 'table' | 'setting' | 'shard' | 'ringKey'>,
  file: { mtimeMs: number; size: number },
): string {
  const t = request.table;
  const shape = [
    t.qualifiedName,
    t.columns.map((c) => `${c.name}:${c.typeText}:${c.role}:${c.keyPosition}`).join(','),
    (request.setting.columns ?? []).join(','),
    request.shard ? formatShardFormula(request.shard) : '',
    request.ringKey ?? '',
  ].join('\u0001');
  return `${file.mtimeMs}:${file.size}:${createHash('sha1').update(shape).digest('hex')}`;
}

export class SampleCache {
  private readonly entries = new Map<string, Entry>();
  private readonly flights = new Map<string, Flight>();

  constructor(private readonly maxEntries = 64) {}

  /** The last complete summary read from `file` for `table`, whatever has changed since (no I/O). */
  latest(file: string, table: string): SampleSummary | undefined {
    return this.entries.get(slot(file, table))?.summary;
  }

  /** Forgets every summary of a file (it was deleted); true when there was one. */
  forget(file: string): boolean {
    let found = false;
    for (const key of [...this.entries.keys()]) {
      if (key.startsWith(`${file}\u0000`)) found = this.entries.delete(key) || found;
    }
    return found;
  }

  /**
   * The summary for the file as it is now: from the cache when its path, mtime, size and reading key are
   * unchanged, else read (one reading per key at a time: later callers wait for it and see its progress).
   * A cancelled reading is returned with `cancelled` and not kept. Throws SampleReadError.
   */
  async get(request: SampleRequest): Promise<SampleResult> {
    const file = request.setting.file;
    const opened = await openRegularFile(file, { roots: request.roots });
    if (!opened.ok) throw new SampleReadError(opened.message);
    const stat = opened.stat;
    await opened.handle.close().catch(() => undefined);
    const key = `${file}\u0000${readingKey(request, stat)}`;
    const where = slot(file, request.table.qualifiedName);
    const cached = this.entries.get(where);
    if (cached?.key === key) {
      // Most recently used last: the oldest is evicted first.
      this.entries.delete(where);
      this.entries.set(where, cached);
      return { summary: cached.summary, fresh: false };
    }
    const caller: Caller = { onProgress: request.onProgress, isCancelled: request.isCancelled };
    let flight = this.flights.get(key);
    if (!flight) {
      const callers = new Set<Caller>();
      const promise = readSampleFile(file, request.table, request.schema, {
        file,
        name: request.setting.name,
        columns: request.setting.columns,
        shard: request.shard,
        ring: request.ring,
        roots: request.roots,
        onProgress: (p) => {
          for (const c of callers) c.onProgress?.({ ...p, size: stat.size });
        },
        isCancelled: () => callers.size > 0 && [...callers].every((c) => c.isCancelled?.() === true),
      })
        .then((summary) => {
          if (!summary.cancelled) {
            this.entries.delete(where);
            this.entries.set(where, { key, summary });
            while (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
          }
          return summary;
        })
        .finally(() => this.flights.delete(key));
      flight = { promise, callers };
      this.flights.set(key, flight);
    }
    flight.callers.add(caller);
    try {
      const summary = await flight.promise;
      // Stopped because the others gave up while this caller still wants it: read again.
      if (summary.cancelled && request.isCancelled?.() !== true) return this.get(request);
      return { summary, fresh: true };
    } finally {
      flight.callers.delete(caller);
    }
  }
}
