// The cluster yaml files (.cqlint.json `cluster.config`, the `cqlint.cluster` setting) read in the
// background, so that the guardrail rules and the hover use the team's values without a read on the
// request path: after the workspace index, when a .cqlint.json, the settings or a file change (a file
// read before is only stat'ed again). New readings make the server check every file again. A yaml named
// by a .cqlint.json must be inside the workspace; in an untrusted workspace (VS Code's Restricted Mode)
// none is read, the version's defaults apply, and the log says so once per file.
import type { Connection } from 'vscode-languageserver/node';
import type { Project } from '../core/engine/project';
import { ClusterFileCache, type ClusterFile } from '../core/cluster';
import type { ClusterSetting } from '../core/vocabulary/config';
import { describeError } from './safe';
import { BackgroundJob } from './background-job';

export interface ClusterHost {
  project: Project;
  log: { warn(message: string): void; error(message: string): void };
  connection: Connection;
  /** A yaml named by a .cqlint.json must lie inside the workspace folders. */
  roots(): readonly string[];
  workspaceTrusted(): boolean;
  /** New settings were read: findings may have changed everywhere. */
  changed(): void;
}

/** Wait after the last trigger before checking the files (edits and saves come in bursts). */
const REFRESH_DELAY_MS = 300;

export class ClusterFiles {
  readonly cache = new ClusterFileCache();
  private readonly job = new BackgroundJob(
    () =>
      this.readAll().catch((error: unknown) =>
        this.host.log.error(`cqlint: reading the cluster config failed: ${describeError(error)}`),
      ),
    REFRESH_DELAY_MS,
  );
  /** Problems already shown (each once, until it goes away). */
  private shown = new Set<string>();

  constructor(private readonly host: ClusterHost) {}

  /** The ProjectOptions.clusterFile hook: the latest reading, none in an untrusted workspace. */
  readonly hook = (file: string): ClusterFile | undefined =>
    this.host.workspaceTrusted() ? this.cache.latest(file) : undefined;

  /**
   * After a change of the project (configs, settings and files may name a yaml, or it may have changed):
   * checks the files soon, debounced; a file read before is only stat'ed again.
   */
  onFilesChanged(event: { reason: string }): void {
    if (event.reason !== 'cluster') this.job.schedule();
  }

  /** No more readings (shutdown). */
  stop(): void {
    this.job.stop();
  }

  private async readAll(): Promise<void> {
    const project = this.host.project;
    const settings = new Map<string, ClusterSetting>();
    for (const file of project.files()) {
      const setting = project.clusterSetting(file);
      if (setting?.config && !settings.has(setting.config)) settings.set(setting.config, setting);
    }
    let problems: string[];
    let fresh = false;
    if (!this.host.workspaceTrusted()) {
      problems = [...settings.values()].map(
        (s) =>
          `cluster config ${s.name ?? s.config}: not read in Restricted Mode (an untrusted workspace); the version's defaults apply`,
      );
      if (this.cache.latest([...settings.keys()][0] ?? '')) fresh = true;
      this.cache.clear();
    } else {
      const read = await this.cache.read([...settings.values()], { roots: this.host.roots() });
      problems = read.problems;
      fresh = read.fresh;
    }
    const now = new Set(problems);
    for (const message of now) {
      if (this.shown.has(message)) continue;
      this.host.log.warn(`cqlint: ${message}`);
      void this.host.connection.window.showWarningMessage(`cqlint: ${message}`);
    }
    this.shown = now;
    if (fresh) {
      project.refreshCluster();
      this.host.changed();
    }
  }
}
