// The .cqlint.json files and ring files the server uses, loaded asynchronously ahead of the requests that
// need them: requests and notifications answer from these caches and never touch the disk synchronously
// (a slow network drive or a hung file system must not stall the server).
//
// Loaded: for the files of the workspace scan, for a document when it opens (re-checked then, for the
// clients that cannot watch files), for a .cqlint.json or ring file the client reports changed, and for
// the open documents when the settings change. Requests about a document wait until what it needs is in
// (whenReady). Discovery follows findConfigFor's rule (configSearchDirs): a .cqlint.json above the
// workspace folder that holds the file never applies.
//
// Ignore patterns: each workspace folder's .cqlintignore (loaded with the first discovery, again when the
// client reports it changed) and the `ignorePatterns` of the .cqlint.json that applies to a file.
//
// Rings: the `cqlint.ringFile` setting (relative to the workspace folder), else the `.cqlint.json`
// `ring` key (relative to that file). A `.cqlint.json` comes with the workspace, so its ring must be
// inside the workspace; a ring elsewhere needs the setting, which VS Code takes from user settings only
// (machine scope). In an untrusted workspace nothing outside it is read, and `.cqlint.json` names no ring.
import { promises as fs, type Stats } from 'node:fs';
import * as path from 'node:path';
import {
  DiagnosticSeverity,
  DidChangeWatchedFilesNotification,
  type ClientCapabilities,
  type Connection,
  type Diagnostic,
  type Disposable,
  type FileSystemWatcher,
} from 'vscode-languageserver/node';
import { CONFIG_FILE_NAME, configSearchDirs, loadConfigFileAsync, type LoadedConfigFile } from '../core/config';
import { IGNORE_FILE_NAME, ignoreFileSource, ignoredBy, type IgnoreSource } from '../core/config/ignore';
import { isInside, readTextFile } from '../core/io/files';
import { parseRing, RingParseError, type Ring } from '../core/token/ring';
import type { Logger, RingLookup } from './context';
import { pathToUri } from './conversions';
import { describeError } from './safe';
import type { CqlintSettings } from './settings';

interface ConfigFilesHost {
  connection: Connection;
  log: Logger;
  clientCapabilities(): ClientCapabilities;
  workspaceFolders(): readonly string[];
  workspaceTrusted(): boolean;
  settingsOf(filePath: string): CqlintSettings;
  pathToUri(filePath: string): string;
  /** False until `initialized`: diagnostics found before it wait for start(). */
  initialised(): boolean;
  /** What the caches answer changed: `configs` when a .cqlint.json did, else only a ring. Once per tick at most. */
  changed(what: { configs: boolean }): void;
}

interface LoadedConfig extends LoadedConfigFile {
  /** What the file was when loaded (see stampOf). */
  stamp: string;
}

interface RingSource {
  path: string;
  fromSetting: boolean;
  /** When set, the ring's real path must be inside these folders. */
  roots?: readonly string[];
  /** The cache key: per roots too, since a file refused for one workspace may be inside another. */
  key: string;
  /** Why the ring is not read at all. */
  refused?: string;
}

interface LoadedRing {
  source: RingSource;
  stamp: string;
  ring?: Ring;
  error?: string;
}

/** Modification time, size and inode: a rewritten file differs in one of them. */
function stampOf(stat: Stats | undefined): string {
  return stat ? `${stat.mtimeMs}:${stat.size}:${stat.ino}` : 'missing';
}

const UNTRUSTED_RING =
  'ring files named in .cqlint.json are not read in an untrusted workspace (trust it, or set cqlint.ringFile)';

export class ConfigFiles {
  /** Every .cqlint.json known to exist, by path; the objects stay the same while the file does. */
  private readonly configs = new Map<string, LoadedConfig>();
  /** Folders whose .cqlint.json (or its absence) is known. */
  private readonly probed = new Set<string>();
  /** Folders being checked, with the check. */
  private readonly probing = new Map<string, Promise<void>>();
  /** Each workspace folder's .cqlintignore (undefined: none), once looked for. */
  private readonly ignoreFiles = new Map<string, IgnoreSource | undefined>();
  private readonly rings = new Map<string, LoadedRing>();
  private readonly ringLoads = new Map<string, Promise<void>>();
  /** The error summary last reported for each .cqlint.json, so that the same problem is shown once. */
  private readonly reportedErrors = new Map<string, string>();
  /** Found before `initialized`, published then (no diagnostics before the initialize result). */
  private readonly pendingDiagnostics = new Map<string, Diagnostic[]>();
  /** Changes not told to the host yet (they are told once per tick). */
  private pendingChange?: { configs: boolean };
  private watching = false;
  private watchedRings = '';
  private ringRegistration: Promise<Disposable | undefined> = Promise.resolve(undefined);

  constructor(private readonly host: ConfigFilesHost) {}

  // -------------------------------------------------------------------------------------------
  // Answers (from the caches only)

  /** The .cqlint.json that applies to a file, for Project's configLookup. */
  lookup(filePath: string): LoadedConfigFile | undefined {
    if (!path.isAbsolute(filePath)) return undefined; // untitled documents have no .cqlint.json
    let unknown = false;
    let found: LoadedConfig | undefined;
    for (const dir of configSearchDirs(filePath, this.host.workspaceFolders())) {
      if (!this.probed.has(dir)) unknown = true;
      found = this.configs.get(path.join(dir, CONFIG_FILE_NAME));
      if (found) break;
    }
    // Not loaded ahead (it should have been): answer with what is known, load it for the next time.
    if (unknown) void this.discover([filePath]);
    return found;
  }

  /** The file whose ignore patterns leave `filePath` out (.cqlintignore, ignorePatterns), else undefined. */
  ignoredBy(filePath: string): string | undefined {
    if (!path.isAbsolute(filePath)) return undefined;
    const holding = this.host.workspaceFolders().filter((folder) => isInside(folder, filePath));
    const folder = holding.length ? holding.reduce((a, b) => (a.length >= b.length ? a : b)) : undefined;
    return ignoredBy(filePath, [
      folder === undefined ? undefined : this.ignoreFiles.get(folder),
      this.lookup(filePath)?.config?.ignorePatterns,
    ]);
  }

  /** The ring for a file, or why it could not be read. */
  ringFor(filePath: string): RingLookup {
    const source = this.ringSourceFor(filePath);
    if (!source) return {};
    if (source.refused) return { path: source.path, error: source.refused };
    const loaded = this.rings.get(source.key);
    if (!loaded) {
      void this.loadRing(source);
      return { path: source.path, error: `${source.path} is still being read` };
    }
    return { path: source.path, ring: loaded.ring, error: loaded.error };
  }

  /**
   * Resolves once the config of `filePath` (and with `ring`, its ring) is loaded; undefined when it
   * already is, so that the caller can answer at once.
   */
  whenReady(filePath: string, ring: boolean): Promise<void> | undefined {
    const waits: Promise<void>[] = [];
    if (path.isAbsolute(filePath)) {
      for (const dir of configSearchDirs(filePath, this.host.workspaceFolders())) {
        if (this.probing.has(dir) || !this.probed.has(dir)) waits.push(this.probe(dir, false));
      }
    }
    // The ring may come from the config: look for it once the config is in.
    if (waits.length) return Promise.all(waits).then(() => this.whenReady(filePath, ring));
    const source = ring ? this.ringSourceFor(filePath) : undefined;
    if (source && !source.refused && (this.ringLoads.has(source.key) || !this.rings.has(source.key)))
      return this.loadRing(source);
    return undefined;
  }

  // -------------------------------------------------------------------------------------------
  // Loading

  /**
   * Finds and loads the .cqlint.json files that apply to `files` (their rings: loadRings); with
   * `recheck`, looks again at the folders already known (a document opened in a client that cannot
   * watch files).
   */
  async discover(files: Iterable<string>, recheck = false): Promise<void> {
    const dirs = new Set<string>();
    const folders = this.host.workspaceFolders();
    for (const file of files) {
      if (path.isAbsolute(file)) for (const dir of configSearchDirs(file, folders)) dirs.add(dir);
    }
    const ignoreFiles = folders
      .filter((folder) => !this.ignoreFiles.has(folder))
      .map((folder) => this.loadIgnoreFile(path.join(folder, IGNORE_FILE_NAME)));
    await Promise.all([...[...dirs].map((dir) => this.probe(dir, recheck)), ...ignoreFiles]);
  }

  /** Whether a changed file is the .cqlintignore of a workspace folder. */
  isIgnoreFile(filePath: string): boolean {
    return (
      path.basename(filePath) === IGNORE_FILE_NAME && this.host.workspaceFolders().includes(path.dirname(filePath))
    );
  }

  /**
   * Reads a workspace folder's .cqlintignore (again); a change re-checks every file, as a .cqlint.json's
   * does. Like a .cqlint.json, it is read only if its real path is inside the workspace folders; a line
   * that cannot be used is logged by its number (never quoted) and left out.
   */
  async loadIgnoreFile(filePath: string): Promise<void> {
    const folder = path.dirname(filePath);
    const read = await readTextFile(filePath, { kind: 'config', roots: this.host.workspaceFolders() });
    const known = this.ignoreFiles.get(folder);
    if (!read.ok && read.reason === 'io' && !(await fs.stat(filePath).catch(() => undefined))) {
      this.ignoreFiles.set(folder, undefined);
    } else if (!read.ok) {
      this.host.log.warn(`cqlint: cannot read ${filePath}: ${read.message}`);
      this.ignoreFiles.set(folder, undefined);
    } else {
      const loaded = ignoreFileSource(read.text, filePath);
      if (known && known.patterns.join('\n') === loaded.source.patterns.join('\n')) return;
      for (const problem of loaded.problems) this.host.log.warn(`cqlint: ${filePath}: ${problem}`);
      this.ignoreFiles.set(folder, loaded.source);
    }
    if (known || this.ignoreFiles.get(folder)) this.tell({ configs: true });
  }

  /** Loads the rings `files` use that are not loaded yet (with `recheck`, also those changed on disk). */
  async loadRings(files: Iterable<string>, recheck = false): Promise<void> {
    const sources = new Map<string, RingSource>();
    for (const file of files) {
      const source = this.ringSourceFor(file);
      if (source && !source.refused && (recheck || !this.rings.has(source.key))) sources.set(source.key, source);
    }
    await Promise.all([...sources.values()].map((source) => this.loadRing(source, recheck)));
  }

  /** The client says a .cqlint.json was created, changed or deleted. */
  async configChanged(configPath: string, deleted: boolean): Promise<void> {
    const dir = path.dirname(configPath);
    await this.probing.get(dir);
    await this.track(dir, this.probing, async () => {
      if (deleted) this.forgetConfig(configPath);
      else await this.loadConfig(configPath, undefined);
      this.probed.add(dir);
    });
  }

  /** Whether a changed file is a ring some document uses. */
  isRing(filePath: string): boolean {
    for (const ring of this.rings.values()) if (ring.source.path === filePath) return true;
    return false;
  }

  /** The client says a ring file changed: read it again (for every workspace that uses it). */
  async ringChanged(filePath: string): Promise<void> {
    const reloads: Promise<void>[] = [];
    for (const ring of this.rings.values())
      if (ring.source.path === filePath) reloads.push(this.loadRing(ring.source, true, true));
    await Promise.all(reloads);
  }

  // -------------------------------------------------------------------------------------------
  // Config diagnostics and watching

  /** Publishes the config problems found before `initialized`, and watches the ring files from now on. */
  start(): void {
    for (const [configPath, diagnostics] of this.pendingDiagnostics) {
      void this.host.connection
        .sendDiagnostics({ uri: this.host.pathToUri(configPath), diagnostics })
        .catch(() => undefined);
    }
    this.pendingDiagnostics.clear();
    this.watching = this.host.clientCapabilities().workspace?.didChangeWatchedFiles?.dynamicRegistration === true;
    this.watchRings();
  }

  stop(): void {
    this.watching = false;
    this.rings.clear();
  }

  // -------------------------------------------------------------------------------------------

  /** Runs `work` as the pending job of `key` in `jobs`, so that others wait for it rather than repeat it. */
  private track(key: string, jobs: Map<string, Promise<void>>, work: () => Promise<void>): Promise<void> {
    const job = work()
      .catch((error: unknown) => this.host.log.error(`cqlint: loading ${key} failed: ${describeError(error)}`))
      .finally(() => {
        if (jobs.get(key) === job) jobs.delete(key);
      });
    jobs.set(key, job);
    return job;
  }

  private probe(dir: string, recheck: boolean): Promise<void> {
    const pending = this.probing.get(dir);
    if (pending) return pending;
    if (!recheck && this.probed.has(dir)) return Promise.resolve();
    const configPath = path.join(dir, CONFIG_FILE_NAME);
    return this.track(dir, this.probing, async () => {
      try {
        // Any entry counts (a FIFO or folder named .cqlint.json too): loading it then says what is wrong.
        const stat = await fs.stat(configPath).catch(() => undefined);
        if (!stat) this.forgetConfig(configPath);
        else if (this.configs.get(configPath)?.stamp !== stampOf(stat))
          await this.loadConfig(configPath, stampOf(stat));
      } finally {
        this.probed.add(dir);
      }
    });
  }

  private async loadConfig(configPath: string, stamp: string | undefined): Promise<void> {
    if (stamp === undefined) {
      const stat = await fs.stat(configPath).catch(() => undefined);
      if (!stat) return this.forgetConfig(configPath);
      stamp = stampOf(stat);
    }
    // A .cqlint.json linked to a file outside the workspace (and its own folder) is not read, so never
    // quoted in a diagnostic, a message or the log.
    const roots = [...this.host.workspaceFolders(), path.dirname(configPath)];
    const loaded: LoadedConfig = { ...(await loadConfigFileAsync(configPath, { roots })), stamp };
    this.configs.set(configPath, loaded);
    this.reportErrors(configPath, loaded.errors);
    this.tell({ configs: true });
  }

  private forgetConfig(configPath: string): void {
    if (this.reportedErrors.delete(configPath)) this.publish(configPath, []);
    if (this.configs.delete(configPath)) this.tell({ configs: true });
  }

  /** Tells the host about changes, once per tick: a burst of loads makes one re-check. */
  private tell(what: { configs: boolean }): void {
    if (this.pendingChange) {
      this.pendingChange.configs ||= what.configs;
      return;
    }
    this.pendingChange = { ...what };
    setImmediate(() => {
      const change = this.pendingChange!;
      this.pendingChange = undefined;
      this.host.changed(change);
    });
  }

  /** Config problems are shown on the .cqlint.json itself (linting goes on with the valid rest or the defaults). */
  private reportErrors(configPath: string, errors: readonly { message: string }[]): void {
    // ConfigError messages already name the file and the key.
    const summary = errors.map((error) => error.message).join('; ');
    if (!summary) {
      if (this.reportedErrors.delete(configPath)) this.publish(configPath, []);
      return;
    }
    if (this.reportedErrors.get(configPath) === summary) return;
    this.reportedErrors.set(configPath, summary);
    this.publish(
      configPath,
      errors.map((error): Diagnostic => ({
        range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
        severity: DiagnosticSeverity.Warning,
        source: 'cqlint',
        code: 'invalid-config',
        message: error.message.startsWith(`${configPath}: `)
          ? error.message.slice(configPath.length + 2)
          : error.message,
      })),
    );
    this.host.log.warn(`cqlint: ${summary}`);
    void this.host.connection.window.showWarningMessage(`cqlint: ${summary}`);
  }

  private publish(configPath: string, diagnostics: Diagnostic[]): void {
    if (!this.host.initialised()) this.pendingDiagnostics.set(configPath, diagnostics);
    else
      void this.host.connection
        .sendDiagnostics({ uri: this.host.pathToUri(configPath), diagnostics })
        .catch(() => undefined);
  }

  private ringSourceFor(filePath: string): RingSource | undefined {
    const folders = this.host.workspaceFolders();
    const trusted = this.host.workspaceTrusted();
    const setting = this.host.settingsOf(filePath).ringFile?.trim();
    // A workspace's .cqlint.json may not reach outside it (without a workspace folder: outside its own
    // folder); nor may anything in an untrusted workspace.
    const config = this.lookup(filePath)?.config;
    const confined = folders.length ? folders : [config?.folder ?? path.dirname(filePath)];
    let source: Omit<RingSource, 'key'>;
    if (setting) {
      const folder = folders.find((f) => isInside(f, filePath)) ?? folders[0];
      const ringPath = path.isAbsolute(setting) ? setting : path.resolve(folder ?? process.cwd(), setting);
      source = { path: ringPath, fromSetting: true, roots: trusted ? undefined : confined };
    } else {
      const ring = config?.ring;
      if (!ring) return undefined;
      source = { path: ring, fromSetting: false, roots: confined, refused: trusted ? undefined : UNTRUSTED_RING };
    }
    return { ...source, key: `${source.fromSetting}\n${source.roots?.join('\0') ?? ''}\n${source.path}` };
  }

  /** Reads a ring (with `recheck`, only when it changed on disk; with `force`, in any case). */
  private loadRing(source: RingSource, recheck = false, force = false): Promise<void> {
    const pending = this.ringLoads.get(source.key);
    if (pending && !force) return pending;
    if (this.rings.has(source.key) && !recheck && !force) return Promise.resolve();
    return this.track(source.key, this.ringLoads, async () => {
      await pending;
      const stamp = stampOf(await fs.stat(source.path).catch(() => undefined));
      if (!force && this.rings.get(source.key)?.stamp === stamp) return;
      const loaded: LoadedRing = { source, stamp };
      const read = await readTextFile(source.path, { kind: 'ring', roots: source.roots });
      if (!read.ok) {
        loaded.error = `cannot read ${source.path} (${read.message}${read.reason === 'outside-workspace' && !source.fromSetting ? '; a ring outside the workspace must be set in cqlint.ringFile in your user settings' : ''})`;
      } else {
        try {
          loaded.ring = parseRing(read.text);
        } catch (error) {
          // RingParseError messages name a line, never the file's content.
          loaded.error = `${source.path}: ${error instanceof RingParseError ? error.message : 'cannot parse the ring file'}`;
        }
      }
      if (loaded.error) this.host.log.warn(`cqlint: ring file ${loaded.error}`);
      this.rings.set(source.key, loaded);
      this.tell({ configs: false });
      this.watchRings();
    });
  }

  /**
   * Watches the ring files in use (their names are the user's: the static watchers do not cover them):
   * a pattern relative to the file's folder where the client supports it, else its name anywhere.
   */
  private watchRings(): void {
    if (!this.watching) return;
    const paths = [...new Set([...this.rings.values()].map((ring) => ring.source.path))].sort();
    const key = paths.join('\0');
    if (key === this.watchedRings) return;
    this.watchedRings = key;
    const relative = this.host.clientCapabilities().workspace?.didChangeWatchedFiles?.relativePatternSupport === true;
    const watchers: FileSystemWatcher[] = paths.map((ringPath) => {
      const name = path.basename(ringPath).replace(/[*?{}[\]]/g, '?');
      return { globPattern: relative ? { baseUri: pathToUri(path.dirname(ringPath)), pattern: name } : `**/${name}` };
    });
    const previous = this.ringRegistration;
    this.ringRegistration = (async () => {
      (await previous)?.dispose();
      if (!this.watching) return undefined;
      return this.host.connection.client
        .register(DidChangeWatchedFilesNotification.type, { watchers })
        .catch((error: unknown) => {
          this.host.log.warn(`cqlint: cannot watch the ring files: ${describeError(error)}`);
          return undefined;
        });
    })();
  }
}
