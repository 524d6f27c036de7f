// `cqlint lint --cache`: a file's findings from the last run, reused while nothing they depend on has
// changed. Files are not independent here (a query is checked against tables defined in other files, a
// table's growth reads the TTLs of the writes to it), so an entry's key is a digest of everything its
// findings can read:
//   - the engine (cqlint's version and the code that runs: a rebuilt bundle is another engine),
//   - the run's settings (target, rule overrides, the text of every .cqlint.json, the samples' size and
//     modification time),
//   - the file's own text,
//   - the texts of every file that defines schema (tables, types, keyspaces, indexes, ALTERs, DROPs),
//   - and, when the file's rules read the workspace's queries (referencesTo, recorded by the Project), the
//     texts of every file with queries.
// So editing a query file re-lints the files whose findings read queries and itself; editing a schema file
// re-lints everything. The fixable flags (ESLint's counts) are kept under a key that always covers the
// queries, since a fix may edit other files. A cache that cannot be read, or is of another format or
// engine, is ignored and rewritten; an entry that is not what this code writes (a finding of another
// shape, a null) is a miss, never an error: the file is linted again.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import * as path from 'node:path';
import type { Finding } from '../core/findings/findings';
import type { FileSchema } from '../core/schema/build';
import { readTextFile } from '../core/io/files';
import { writeTextFile } from '../core/io/write';
import packageJson from '../../package.json';

export const DEFAULT_CACHE_FILE = '.cqlintcache';
/** A cache larger than this is not read (the run then starts afresh). */
const MAX_CACHE_BYTES = 512 * 1024 * 1024;
/** Bumped when the cache file's shape changes. */
const CACHE_FORMAT = 1;

interface CacheEntry {
  /** Digest of what the findings were computed from (see the top of this file). */
  key: string;
  /** Whether computing them read the workspace's queries. */
  readsQueries: boolean;
  /** `key` with the queries always in it: what the fixable flags stand under. */
  fixKey: string;
  findings: Finding[];
  fixable?: boolean[];
}

interface CacheFile {
  format: number;
  engine: string;
  entries: Record<string, CacheEntry>;
}

const sha1 = (text: string): string => createHash('sha1').update(text).digest('hex');

/** Whether a file adds anything to the workspace's schema model (what other files' findings can read). */
export function definesSchema(schema: FileSchema | undefined): boolean {
  if (!schema) return false;
  return (
    schema.keyspaces.length > 0 ||
    schema.types.length > 0 ||
    schema.indexes.length > 0 ||
    schema.versions.size > 0 ||
    schema.foreignAlters.length > 0 ||
    schema.pending.length > 0 ||
    schema.definedNames.size > 0
  );
}

let engineStamp: string | undefined;

/** cqlint's version and a digest of the code running (the bundle, dist/cli.js, once built). */
export function engine(): string {
  if (engineStamp === undefined) {
    let code = '';
    try {
      code = readFileSync(__filename, 'utf8');
    } catch {
      // no file to read (an unusual loader): the version alone
    }
    engineStamp = `${packageJson.version}:${sha1(code)}`;
  }
  return engineStamp;
}

/** Digests of the inputs a run's findings depend on besides each file's own text, built as files are indexed. */
export class RunInputs {
  private readonly settings = createHash('sha1');
  private readonly schema = createHash('sha1');
  private readonly queries = createHash('sha1');
  private readonly texts = new Map<string, string>();
  private digests?: { settings: string; schema: string; queries: string };

  /** A setting the findings depend on (target, a config's text, a sample's stamp). */
  setting(name: string, value: string): void {
    this.settings.update(`${name}\u0000${value}\u0000`);
  }

  /** A file of the run: its text's digest, and whether it defines schema or holds queries. */
  file(filePath: string, text: string, definesSchema: boolean, hasQueries: boolean): void {
    const digest = sha1(text);
    this.texts.set(filePath, digest);
    if (definesSchema) this.schema.update(`${filePath}\u0000${digest}\u0000`);
    if (hasQueries) this.queries.update(`${filePath}\u0000${digest}\u0000`);
  }

  /** The key of a file's findings, with or without the queries. */
  key(filePath: string, withQueries: boolean): string | undefined {
    const text = this.texts.get(filePath);
    if (text === undefined) return undefined;
    this.digests ??= {
      settings: this.settings.digest('hex'),
      schema: this.schema.digest('hex'),
      queries: this.queries.digest('hex'),
    };
    return sha1(
      [
        engine(),
        this.digests.settings,
        this.digests.schema,
        withQueries ? this.digests.queries : '',
        filePath,
        text,
      ].join('\u0000'),
    );
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const SEVERITIES: ReadonlySet<unknown> = new Set(['error', 'warning', 'info']);

function isLocation(value: unknown): boolean {
  return (
    isRecord(value) &&
    Number.isSafeInteger(value.offset) &&
    Number.isSafeInteger(value.line) &&
    Number.isSafeInteger(value.column)
  );
}

function isRange(value: unknown): boolean {
  return isRecord(value) && isLocation(value.start) && isLocation(value.end);
}

/** Whether a cached value is a finding as this code writes one (every field a formatter reads, of its type). */
function isFinding(value: unknown): value is Finding {
  if (!isRecord(value)) return false;
  const { ruleId, severity, message, messageId, range, details, values, related, data } = value;
  return (
    typeof ruleId === 'string' &&
    SEVERITIES.has(severity) &&
    typeof message === 'string' &&
    typeof messageId === 'string' &&
    isRange(range) &&
    (details === undefined || typeof details === 'string') &&
    (values === undefined ||
      (isRecord(values) && Object.values(values).every((v) => typeof v === 'string' || typeof v === 'number'))) &&
    (related === undefined ||
      (Array.isArray(related) &&
        related.every(
          (r) => isRecord(r) && typeof r.filePath === 'string' && typeof r.message === 'string' && isRange(r.range),
        ))) &&
    (data === undefined || isRecord(data))
  );
}

export class LintCache {
  private readonly next: Record<string, CacheEntry> = Object.create(null);

  private constructor(
    private readonly file: string,
    private readonly roots: readonly string[] | undefined,
    private readonly previous: Record<string, CacheEntry>,
  ) {}

  /**
   * The cache at `file`; empty when there is none or it cannot be used. `roots`: the folders it must stay
   * in (the working folder for the default .cqlintcache: a committed one linked to a file elsewhere is
   * neither read nor replaced); undefined for a --cache-location the user named.
   */
  static async load(file: string, roots?: readonly string[]): Promise<LintCache> {
    const read = await readTextFile(file, { kind: 'config', maxBytes: MAX_CACHE_BYTES, roots });
    let entries: Record<string, CacheEntry> = Object.create(null);
    if (read.ok) {
      try {
        const parsed = JSON.parse(read.text) as Partial<CacheFile>;
        if (
          parsed.format === CACHE_FORMAT &&
          parsed.engine === engine() &&
          parsed.entries &&
          typeof parsed.entries === 'object'
        ) {
          entries = Object.assign(Object.create(null), parsed.entries);
        }
      } catch {
        // not a cache (or a truncated one): start afresh
      }
    }
    return new LintCache(file, roots, entries);
  }

  /**
   * The findings of the last run (with their fixable flags when those still hold), if nothing they read
   * has changed. The caller stores them again (store), with fixable flags computed anew if need be.
   */
  lookup(
    filePath: string,
    inputs: RunInputs,
  ): { findings: Finding[]; readsQueries: boolean; fixable?: boolean[] } | undefined {
    const entry: unknown = this.previous[filePath];
    if (
      !isRecord(entry) ||
      !Array.isArray(entry.findings) ||
      entry.key !== inputs.key(filePath, entry.readsQueries === true)
    )
      return undefined;
    // What the formatters will read of each finding, checked before any is used: a miss otherwise.
    if (!entry.findings.every(isFinding)) return undefined;
    const fixable =
      entry.fixKey === inputs.key(filePath, true) &&
      Array.isArray(entry.fixable) &&
      entry.fixable.length === entry.findings.length &&
      entry.fixable.every((f) => typeof f === 'boolean')
        ? (entry.fixable as boolean[])
        : undefined;
    return { findings: entry.findings, readsQueries: entry.readsQueries === true, fixable };
  }

  /** What this run found for a file (kept for the next run). */
  store(
    filePath: string,
    inputs: RunInputs,
    readsQueries: boolean,
    findings: Finding[],
    fixable: boolean[] | undefined,
  ): void {
    const key = inputs.key(filePath, readsQueries);
    const fixKey = inputs.key(filePath, true);
    if (key === undefined || fixKey === undefined) return;
    this.next[filePath] = { key, readsQueries, fixKey, findings, ...(fixable ? { fixable } : {}) };
  }

  /** Writes this run's entries (atomically; its folder made if need be). Throws when the file cannot be written. */
  async save(): Promise<void> {
    const data: CacheFile = { format: CACHE_FORMAT, engine: engine(), entries: this.next };
    if (!this.roots) await mkdir(path.dirname(this.file), { recursive: true });
    await writeTextFile(this.file, JSON.stringify(data), { bom: false, roots: this.roots });
  }
}
