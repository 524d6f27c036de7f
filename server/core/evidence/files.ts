// Evidence files as configured: a setting names a file or a folder (its files, a few levels down), each
// file is opened through io/files (a regular file only, inside `roots` when the workspace named it: a FIFO
// is refused, never waited on), decoded as strict UTF-8 while it streams, and read by readEvidence. An
// EvidenceCache keeps each file's result by path, modification time, size and setting, so that the rules
// (synchronous) see the latest results and a file is read again only when it changes.
import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { describeIoError, findCqlFiles, openRegularFile } from '../io/files';
import { EVIDENCE_BOUNDS } from './bounds';
import { EvidenceReadError, readEvidence } from './read';
import type { EvidenceFile, EvidenceSetting } from './types';
import { tableMatches } from './combine';

const CHUNK_BYTES = 256 * 1024;

/** Files of a folder that are never evidence (notes, scripts, editors' leftovers). */
function isEvidenceName(name: string): boolean {
  return !name.startsWith('.') && !/\.(md|sh|ps1|bat|py|json5|gz|zip|tar|tgz|swp)$/i.test(name) && !name.endsWith('~');
}

export interface EvidenceFileOptions {
  /** How messages name it. */
  name?: string;
  setting?: Omit<EvidenceSetting, 'path' | 'name'>;
  /** The file must be inside one of these folders. */
  roots?: readonly string[];
  isCancelled?: () => boolean;
}

/** Reads one evidence file. Throws EvidenceReadError with the reason (missing, not a regular file, not UTF-8, not evidence). */
export async function readEvidenceFile(file: string, options: EvidenceFileOptions = {}): Promise<EvidenceFile> {
  const opened = await openRegularFile(file, { roots: options.roots });
  if (!opened.ok) throw new EvidenceReadError(opened.message);
  const { handle, stat } = opened;
  const decoder = new TextDecoder('utf-8', { fatal: true });
  async function* chunks(): AsyncIterable<string> {
    const buffer = Buffer.alloc(CHUNK_BYTES);
    let first = true;
    for (;;) {
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, null);
      if (!bytesRead) break;
      const bytes = buffer.subarray(0, bytesRead);
      if (first && ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff)))
        throw new EvidenceReadError('file is UTF-16 encoded; cqlint reads UTF-8 only');
      if (bytes.includes(0)) throw new EvidenceReadError('file looks binary (contains NUL bytes)');
      let text: string;
      try {
        text = decoder.decode(bytes, { stream: true });
      } catch {
        throw new EvidenceReadError('file is not valid UTF-8');
      }
      yield first && text.startsWith('\uFEFF') ? text.slice(1) : text;
      first = false;
    }
  }
  try {
    return await readEvidence(chunks(), {
      file,
      name: options.name ?? file,
      setting: options.setting,
      fileTime: stat.mtime,
      isCancelled: options.isCancelled,
    });
  } catch (error) {
    throw error instanceof EvidenceReadError
      ? error
      : new EvidenceReadError(error instanceof Error ? error.message : String(error));
  } finally {
    await handle.close().catch(() => undefined);
  }
}

/** The files a setting names: the file itself, or a folder's evidence files (sorted, bounded). */
export async function evidenceFilesOf(
  setting: EvidenceSetting,
  roots?: readonly string[],
): Promise<{ files: string[]; problems: string[] }> {
  const name = setting.name ?? setting.path;
  let stat;
  try {
    stat = await fs.stat(setting.path);
  } catch (error) {
    return { files: [], problems: [`evidence ${name}: ${describeIoError(error)}`] };
  }
  if (!stat.isDirectory()) return { files: [setting.path], problems: [] };
  const walk = await findCqlFiles(setting.path, {
    accept: isEvidenceName,
    maxFiles: EVIDENCE_BOUNDS.maxFilesPerFolder,
    maxDepth: EVIDENCE_BOUNDS.maxFolderDepth,
    roots,
  });
  const problems = [
    ...walk.errors.map((e) => `evidence ${name}: ${e.path}: ${e.message}`),
    ...walk.skipped.map((e) => `evidence ${name}: ${e.path}: ${e.message}`),
    ...(walk.truncated
      ? [`evidence ${name}: more than ${EVIDENCE_BOUNDS.maxFilesPerFolder} files; the rest are not read`]
      : []),
  ];
  if (!walk.files.length && !problems.length) problems.push(`evidence ${name}: the folder holds no files`);
  return { files: walk.files, problems };
}

/** How a file found through a setting is named in messages: relative to the setting's name. */
function displayName(setting: EvidenceSetting, file: string): string {
  const base = setting.name ?? setting.path;
  if (file === setting.path) return base;
  return path.join(base, path.relative(setting.path, file)).split(path.sep).join('/');
}

function settingKey(setting: EvidenceSetting): string {
  return [
    setting.path,
    setting.node ?? '',
    setting.captured ?? '',
    setting.table ?? '',
    setting.durationSeconds ?? '',
    setting.unconfined ? 'u' : '',
  ].join('\u0001');
}

interface Entry {
  stamp: string;
  result?: EvidenceFile;
  error?: string;
}

export interface EvidenceReadResult {
  files: readonly EvidenceFile[];
  /** Files and folders that could not be read, and files that are not evidence, with the reason. */
  problems: string[];
  /** Files read with lines that could not be (counted, the first ones named). */
  warnings: string[];
  /** Something was read now (not all from the cache). */
  fresh: boolean;
}

export class EvidenceCache {
  private readonly entries = new Map<string, Entry>();
  /** The files each setting named when last read. */
  private readonly expanded = new Map<string, string[]>();
  private version = 0;
  private readonly memo = new Map<string, { version: number; files: EvidenceFile[] }>();

  /**
   * Reads (or takes from the cache) every file the settings name, those a .cqlint.json named inside
   * `roots` and that config's own folder (when roots are given). Never throws: problems are listed.
   */
  async read(
    settings: readonly EvidenceSetting[],
    options: { roots?: readonly string[]; isCancelled?: () => boolean } = {},
  ): Promise<EvidenceReadResult> {
    const problems: string[] = [];
    const warnings: string[] = [];
    let fresh = false;
    for (const setting of settings) {
      const key = settingKey(setting);
      // What a .cqlint.json names stays inside its folder and the reader's roots (io/input-limits' policy).
      const roots =
        setting.unconfined || !options.roots
          ? undefined
          : [...options.roots, ...(setting.configFolder ? [setting.configFolder] : [])];
      const found = await evidenceFilesOf(setting, roots);
      problems.push(...found.problems);
      const before = this.expanded.get(key);
      if (before?.join('\0') !== found.files.join('\0')) this.version++;
      this.expanded.set(key, found.files);
      for (const file of found.files) {
        if (options.isCancelled?.()) return { files: this.latest(settings), problems, warnings, fresh };
        const fileKey = `${key}\u0000${file}`;
        const stat = await fs.stat(file).catch(() => undefined);
        const stamp = stat ? `${stat.mtimeMs}:${stat.size}` : 'missing';
        const cached = this.entries.get(fileKey);
        if (cached?.stamp !== stamp) {
          const entry: Entry = { stamp };
          try {
            const result = await readEvidenceFile(file, {
              name: displayName(setting, file),
              setting,
              roots,
              isCancelled: options.isCancelled,
            });
            if (result.cancelled) continue;
            entry.result = result;
          } catch (error) {
            entry.error = error instanceof Error ? error.message : String(error);
          }
          this.entries.set(fileKey, entry);
          this.version++;
          fresh = true;
        }
        const entry = this.entries.get(fileKey)!;
        if (entry.error) problems.push(`evidence ${displayName(setting, file)}: ${entry.error}`);
        else if (entry.result && entry.result.problemCount) {
          const shown = entry.result.problems
            .slice(0, 3)
            .map((p) => `line ${p.line}: ${p.reason}`)
            .join('; ');
          warnings.push(
            `evidence ${entry.result.origin.name}: ${entry.result.problemCount} line${entry.result.problemCount === 1 ? '' : 's'} not read (${shown}${entry.result.problemCount > 3 ? '; …' : ''})`,
          );
        }
      }
    }
    return { files: this.latest(settings), problems, warnings, fresh };
  }

  /** The results read last for these settings, without I/O (the same array while nothing changed). */
  latest(settings: readonly EvidenceSetting[]): EvidenceFile[] {
    const keys = settings.map((s) => settingKey(s));
    const memoKey = createHash('sha1').update(keys.join('\u0003')).digest('hex');
    const memo = this.memo.get(memoKey);
    if (memo?.version === this.version) return memo.files;
    const files: EvidenceFile[] = [];
    for (const key of keys) {
      for (const file of this.expanded.get(key) ?? []) {
        const result = this.entries.get(`${key}\u0000${file}`)?.result;
        if (result) files.push(result);
      }
    }
    this.memo.set(memoKey, { version: this.version, files });
    if (this.memo.size > 256) this.memo.delete(this.memo.keys().next().value!);
    return files;
  }

  /** Forgets a deleted file; true when it was read before. */
  forget(file: string): boolean {
    let found = false;
    for (const key of [...this.entries.keys()]) {
      if (key.endsWith(`\u0000${file}`)) found = this.entries.delete(key) || found;
    }
    if (found) this.version++;
    return found;
  }

  /** Whether a path is (or is inside) something a setting named. */
  isEvidence(file: string): boolean {
    for (const files of this.expanded.values()) if (files.includes(file)) return true;
    return false;
  }
}

/** Keyspaces of the database itself: a cluster-wide `nodetool tablestats` lists their tables too. */
function isSystemKeyspace(table: string): boolean {
  return /^"?(system|system_\w+|dse_\w+|solr_admin|"?OpsCenter)"?\./i.test(table);
}

/**
 * "evidence ops/ts.txt: figures for tables the workspace does not define: shop.old_carts, shop.tmp"
 * per file (system keyspaces aside), at most ten tables named.
 */
export function undefinedTableWarnings(
  files: readonly EvidenceFile[],
  tables: readonly { keyspace?: string; name: string }[],
): string[] {
  const out: string[] = [];
  for (const file of files) {
    const missing = file.tables
      .map((t) => t.table)
      .filter((t) => !isSystemKeyspace(t) && !tables.some((d) => tableMatches(t, d.keyspace, d.name)));
    if (!missing.length) continue;
    const shown = missing.slice(0, 10).join(', ') + (missing.length > 10 ? ` and ${missing.length - 10} more` : '');
    out.push(
      `evidence ${file.origin.name}: figures for ${missing.length === 1 ? 'a table' : 'tables'} the workspace does not define: ${shown}`,
    );
  }
  return out;
}

/** What readProjectEvidence needs of a Project (structural, so that this folder never imports it). */
interface EvidenceProject {
  evidenceSettings(filePath: string): EvidenceSetting[];
  schema(): { allTables(): readonly { keyspace?: string; name: string }[] };
  refreshEvidence(): void;
}

/** The distinct settings that apply to `files` (several files usually share one .cqlint.json). */
export function evidenceSettingsOf(
  project: Pick<EvidenceProject, 'evidenceSettings'>,
  files: Iterable<string>,
): EvidenceSetting[] {
  const seen = new Map<string, EvidenceSetting>();
  for (const file of files) for (const s of project.evidenceSettings(file)) seen.set(settingKey(s), s);
  return [...seen.values()];
}

/**
 * Reads (or takes from `cache`) the evidence that applies to `files`, before the rules run: the command
 * line does so once, the editor in the background. Problems are files that could not be read or are not
 * evidence; warnings, lines not read and tables the workspace does not define. A new reading refreshes
 * the project's findings.
 */
export async function readProjectEvidence(
  project: EvidenceProject,
  files: Iterable<string>,
  cache: EvidenceCache,
  options: { roots?: readonly string[]; isCancelled?: () => boolean } = {},
): Promise<EvidenceReadResult> {
  const settings = evidenceSettingsOf(project, files);
  if (!settings.length) return { files: [], problems: [], warnings: [], fresh: false };
  const result = await cache.read(settings, options);
  result.warnings.push(...undefinedTableWarnings(result.files, project.schema().allTables()));
  if (result.fresh) project.refreshEvidence();
  return result;
}
