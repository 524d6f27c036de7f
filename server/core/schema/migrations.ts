// Migration folders: the CQL files a team applies in order to its clusters (cassandra-migrate's
// `v001_name.cql`, Flyway's `V3__name.cql`, timestamps, cqlmigrate's and Cognitor's numbered files), found
// by their names or named by the `.cqlint.json` `migrations` setting. Pure naming and ordering here: the
// schema's history over a folder is built by mergeSchemas (build.ts), and a fix's next file is named by
// nextMigrationName.

/** The folder of a path (either separator), and its last part. */
function splitPath(path: string): { dir: string; base: string } {
  const cut = Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\'));
  return cut < 0 ? { dir: '.', base: path } : { dir: path.slice(0, cut), base: path.slice(cut + 1) };
}

/** How a folder names its files: what the next migration file is called. */
export type MigrationConvention = 'cassandra-migrate' | 'flyway' | 'timestamp' | 'numbered' | 'configured';

/** One file's place in its folder: the version parts its name starts with (compared as numbers). */
export interface MigrationName {
  convention: Exclude<MigrationConvention, 'configured'>;
  version: readonly number[];
  /** The digits as written (their zero padding names the next file alike). */
  digits: string;
  /** `v` or `V` for the two prefixed conventions, empty otherwise. */
  prefix: string;
  /** What separates the version from the description (`_`, `__`, `-`). */
  separator: string;
}

export interface MigrationFolder {
  /** The folder (as the workspace's paths write it). */
  dir: string;
  /** The convention its files share; `configured` when a setting named a folder whose files share none. */
  convention: MigrationConvention;
  /** Its .cql files in the order they apply. */
  files: readonly string[];
}

/** A timestamp prefix: 10 digits (Unix seconds) or 12 to 14 (yyyyMMddHHmm[ss]). */
const TIMESTAMP_DIGITS = /^(\d{10}|\d{12,14})$/;

/** The version a migration file's name starts with, or undefined when it follows no convention. */
export function migrationName(fileName: string): MigrationName | undefined {
  const flyway = /^V(\d+(?:[._]\d+)*)(__)[^/]+\.cql$/.exec(fileName);
  if (flyway)
    return {
      convention: 'flyway',
      version: flyway[1]!.split(/[._]/).map(Number),
      digits: flyway[1]!,
      prefix: 'V',
      separator: '__',
    };
  const prefixed = /^([vV])(\d+)([_-])[^/]+\.cql$/.exec(fileName);
  if (prefixed)
    return {
      convention: 'cassandra-migrate',
      version: [Number(prefixed[2])],
      digits: prefixed[2]!,
      prefix: prefixed[1]!,
      separator: prefixed[3]!,
    };
  const numbered = /^(\d+)([_-])[^/]+\.cql$/.exec(fileName);
  if (numbered) {
    const digits = numbered[1]!;
    const convention = TIMESTAMP_DIGITS.test(digits) ? 'timestamp' : 'numbered';
    return { convention, version: [Number(digits)], digits, prefix: '', separator: numbered[2]! };
  }
  return undefined;
}

function compareVersions(a: readonly number[], b: readonly number[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return a.length - b.length;
}

/** Names in natural order: runs of digits compared as numbers (`x2` before `x10`), for files without a version. */
function naturalCompare(a: string, b: string): number {
  const parts = (s: string) => s.split(/(\d+)/);
  const pa = parts(a);
  const pb = parts(b);
  for (let i = 0; i < Math.min(pa.length, pb.length); i++) {
    const x = pa[i]!;
    const y = pb[i]!;
    if (x === y) continue;
    if (i % 2 === 1) return Number(x) - Number(y) || x.length - y.length;
    return x < y ? -1 : 1;
  }
  return pa.length - pb.length;
}

/** A folder's files in the order they apply: by version, then by name; files without a version after them, by name. */
function applyOrder(files: readonly string[]): string[] {
  const keyed = files.map((f) => ({ f, name: migrationName(splitPath(f).base) }));
  keyed.sort((x, y) => {
    if (x.name && y.name) return compareVersions(x.name.version, y.name.version) || naturalCompare(x.f, y.f);
    if (x.name || y.name) return x.name ? -1 : 1;
    return naturalCompare(x.f, y.f);
  });
  return keyed.map((k) => k.f);
}

/** A name that says the folder holds migrations (a single migration file there is a history too). */
const MIGRATION_DIR = /migrat|changelog|schema[-_]?changes/i;

/**
 * What the `migrations` setting says for a folder: `true` (a migration folder), `false` (never one, the
 * setting names other folders or turns detection off), undefined (not said: detected by its file names).
 */
export type MigrationSettingLookup = (dir: string, sampleFile: string) => boolean | undefined;

/**
 * The migration folders among a workspace's files: each folder (its direct .cql files) that the setting
 * names, or whose .cql files all follow one naming convention, two or more of them (one is enough in a
 * folder named like `migrations`).
 */
export function findMigrationFolders(
  filePaths: Iterable<string>,
  setting: MigrationSettingLookup = () => undefined,
): MigrationFolder[] {
  const byDir = new Map<string, string[]>();
  for (const path of filePaths) {
    if (!/\.cql$/i.test(path)) continue;
    const dir = splitPath(path).dir;
    let list = byDir.get(dir);
    if (!list) byDir.set(dir, (list = []));
    list.push(path);
  }
  const out: MigrationFolder[] = [];
  for (const [dir, files] of byDir) {
    const said = setting(dir, files[0]!);
    if (said === false) continue;
    const names = files.map((f) => migrationName(splitPath(f).base));
    const conventions = new Set(names.map((n) => n?.convention));
    const shared = conventions.size === 1 && !conventions.has(undefined) ? [...conventions][0]! : undefined;
    if (said === true) {
      out.push({ dir, convention: shared ?? 'configured', files: applyOrder(files) });
      continue;
    }
    if (!shared) continue;
    if (files.length < 2 && !MIGRATION_DIR.test(splitPath(dir).base)) continue;
    out.push({ dir, convention: shared, files: applyOrder(files) });
  }
  return out.sort((a, b) => (a.dir < b.dir ? -1 : a.dir > b.dir ? 1 : 0));
}

/** `value` as a decimal string of at least `width` digits. */
function padded(value: number | bigint, width: number): string {
  return String(value).padStart(width, '0');
}

/** yyyyMMddHHmmss (or its first `digits`) of a date, in UTC. */
function calendarStamp(date: Date, digits: number): string {
  const p = (n: number) => String(n).padStart(2, '0');
  const full = `${date.getUTCFullYear()}${p(date.getUTCMonth() + 1)}${p(date.getUTCDate())}${p(date.getUTCHours())}${p(date.getUTCMinutes())}${p(date.getUTCSeconds())}`;
  return full.slice(0, digits);
}

/**
 * The name of the file that applies after every file of `folder`, with `description` (a word or two,
 * `snake_case`): the next number with the last file's padding and prefix, or for timestamps the later of now
 * and the last timestamp plus one. `now` is for tests.
 */
export function nextMigrationName(folder: MigrationFolder, description: string, now: Date = new Date()): string {
  const last = folder.files.length ? migrationName(splitPath(folder.files[folder.files.length - 1]!).base) : undefined;
  const words = description.replace(/[^A-Za-z0-9]+/g, '_').replace(/^_+|_+$/g, '') || 'change';
  if (!last) return `${folder.dir}/${padded(folder.files.length + 1, 3)}_${words}.cql`;
  const { prefix, separator, digits } = last;
  let next: string;
  if (last.convention === 'flyway') {
    // V3_1 is followed by V4: the next major version, the padding of the first part kept.
    const major = /^\d+/.exec(digits)![0];
    next = padded(Number(major) + 1, major.length);
  } else if (last.convention === 'timestamp') {
    const lastStamp = BigInt(digits);
    const nowStamp = BigInt(
      digits.length === 10 ? String(Math.floor(now.getTime() / 1000)) : calendarStamp(now, digits.length),
    );
    next = padded(nowStamp > lastStamp ? nowStamp : lastStamp + 1n, digits.length);
  } else {
    next = padded(Number(digits) + 1, digits.length);
  }
  return `${folder.dir}/${prefix}${next}${separator}${words}.cql`;
}
