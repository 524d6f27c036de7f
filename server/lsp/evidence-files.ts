// The evidence files (.cqlint.json `evidence`, the `cqlint.evidence` setting) read in the background so
// that the partition rules, the hover and the report use measured figures without a read on the request
// path: at the end of the workspace index, when a .cqlint.json or the settings change, and when an
// evidence file changes on disk (watched by name). Results are kept in an EvidenceCache by path, mtime
// and size; new results make the server check every file again. Evidence named by a .cqlint.json must be
// inside the workspace; in an untrusted workspace (VS Code's Restricted Mode) none is read.
import * as path from 'node:path';
import {
  DidChangeWatchedFilesNotification,
  type ClientCapabilities,
  type Connection,
  type Disposable,
  type FileSystemWatcher,
} from 'vscode-languageserver/node';
import type { Project } from '../core/engine/project';
import {
  EvidenceCache,
  evidenceSettingsOf,
  readProjectEvidence,
  type EvidenceFile,
  type EvidenceSetting,
} from '../core/evidence';
import { isInside } from '../core/io/files';
import { describeError } from './safe';
import { BackgroundJob } from './background-job';

export interface EvidenceHost {
  project: Project;
  log: { warn(message: string): void; error(message: string): void };
  connection: Connection;
  clientCapabilities(): ClientCapabilities;
  /** Evidence named by a .cqlint.json must lie inside the workspace folders. */
  roots(): readonly string[];
  workspaceTrusted(): boolean;
  pathToUri(filePath: string): string;
  /** New evidence was read: findings may have changed everywhere. */
  changed(): void;
}

/** Wait after the last trigger before checking the evidence (edits and saves come in bursts). */
const REFRESH_DELAY_MS = 300;

export class EvidenceFiles {
  readonly cache = new EvidenceCache();
  private readonly job = new BackgroundJob(
    () =>
      this.readAll().catch((error: unknown) =>
        this.host.log.error(`cqlint: reading the evidence failed: ${describeError(error)}`),
      ),
    REFRESH_DELAY_MS,
  );
  /** Problems already shown (each once, until it goes away). */
  private shown = new Set<string>();
  private watched = '';
  private registration?: Promise<Disposable | undefined>;
  /** The paths the last check read (files and folders), to tell a change of one of them. */
  private paths: string[] = [];

  constructor(private readonly host: EvidenceHost) {}

  /** The ProjectOptions.evidenceFiles hook: the latest results, none in an untrusted workspace. */
  readonly hook = (settings: readonly EvidenceSetting[]): readonly EvidenceFile[] =>
    this.host.workspaceTrusted() ? this.cache.latest(settings) : [];

  /** After a change of the project: configs, settings and the index may name evidence. */
  onFilesChanged(event: { reason: string; all: boolean }): void {
    if (event.reason === 'evidence') return;
    if (event.all || this.paths.length) this.refresh();
  }

  /** Whether a changed file on disk is (inside) configured evidence. */
  concerns(filePath: string): boolean {
    return this.paths.some((p) => isInside(p, filePath));
  }

  /** Checks the evidence soon (debounced), reading what changed. */
  refresh(): void {
    this.job.schedule();
  }

  /** Checks the evidence now; resolves when the reading is done. */
  refreshNow(): Promise<void> {
    return this.job.runNow();
  }

  stop(): void {
    this.job.stop();
  }

  private async readAll(): Promise<void> {
    if (!this.host.workspaceTrusted()) return;
    const project = this.host.project;
    const files = project.files();
    this.paths = evidenceSettingsOf(project, files).map((s) => s.path);
    this.watch();
    if (!this.paths.length) return;
    const result = await readProjectEvidence(project, files, this.cache, {
      roots: this.host.roots(),
      isCancelled: () => this.job.isStopped,
    });
    const now = new Set([...result.problems, ...result.warnings]);
    for (const message of now) {
      if (this.shown.has(message)) continue;
      this.host.log.warn(`cqlint: ${message}`);
      void this.host.connection.window.showWarningMessage(`cqlint: ${message}`);
    }
    this.shown = now;
    if (result.fresh) this.host.changed();
  }

  /** Watches the evidence paths (their names are the user's: the static watchers do not cover them). */
  private watch(): void {
    const capabilities = this.host.clientCapabilities().workspace?.didChangeWatchedFiles;
    if (capabilities?.dynamicRegistration !== true) return;
    const paths = [...new Set(this.paths)].sort();
    const key = paths.join('\0');
    if (key === this.watched) return;
    this.watched = key;
    const relative = capabilities.relativePatternSupport === true;
    const watchers: FileSystemWatcher[] = paths.map((p) => {
      const name = path.basename(p).replace(/[*?{}[\]]/g, '?');
      // A folder or a file: the pattern covers both (the name itself, and anything below it).
      return {
        globPattern: relative
          ? { baseUri: this.host.pathToUri(path.dirname(p)), pattern: `${name}{,/**}` }
          : `**/${name}{,/**}`,
      };
    });
    const previous = this.registration;
    this.registration = (async () => {
      (await previous)?.dispose();
      if (this.job.isStopped || !watchers.length) return undefined;
      return this.host.connection.client
        .register(DidChangeWatchedFilesNotification.type, { watchers })
        .catch((error: unknown) => {
          this.host.log.warn(`cqlint: cannot watch the evidence files: ${describeError(error)}`);
          return undefined;
        });
    })();
  }
}
