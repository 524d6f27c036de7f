// The samples .cqlint.json names (`samples`), read in the background so that the partition rules can cite
// them without a read on the request path: at the end of the workspace index, when a .cqlint.json, the
// settings, a sample CSV or a sampled table changes. Summaries are kept in a SampleCache keyed on the
// CSV's path, mtime and size and what the reading depends on, so re-rendering the report after a schema
// edit reuses them. A reading shows standard work-done progress (cancellable: cancelling stops the
// stream); a new summary makes the server check every file again.
import type { CancellationToken, Connection } from 'vscode-languageserver/node';
import type { Project } from '../core/engine/project';
import {
  configuredSample,
  readTableSample,
  SampleCache,
  sampleSummaryHook,
  type SampleProgress,
  type SampleResult,
} from '../core/report';
import type { TableInfo } from '../core/schema/model';
import type { SampleSetting } from '../core/config';
import { describeError } from './safe';
import { BackgroundJob } from './background-job';

/** Progress of one reading, shown by the client: begin on the first report, end when done. */
export interface ReadingProgress {
  report(progress: SampleProgress): void;
  done(): void;
  /** Set when the user cancels from the client's progress UI. */
  readonly cancelled: boolean;
}

export interface SampleHost {
  project: Project;
  /** The server's logger (context.ts imports this module: no import back). */
  log: { warn(message: string): void; error(message: string): void };
  connection: Connection;
  /** Whether the client shows server-initiated work-done progress. */
  workDoneProgress(): boolean;
  /**
   * Configured samples (and the ring the report uses) must lie inside the workspace folders (or, without
   * one, the folder of the .cqlint.json naming them); 'none' in an untrusted workspace, which reads none.
   */
  roots(): readonly string[] | 'none';
  shardCount(): number | undefined;
  /** New summaries were read: findings may have changed everywhere. */
  changed(): void;
}

/** Wait after the last trigger before checking the samples (edits come in bursts). */
const REFRESH_DELAY_MS = 300;
/** At most one progress report per interval. */
const PROGRESS_INTERVAL_MS = 250;

function fileName(path: string): string {
  return path.split(/[\\/]/).pop() ?? path;
}

export class SampleSummaries {
  readonly cache = new SampleCache();
  /** The ProjectOptions.sampleSummary hook: the rules see the latest complete summaries. */
  readonly hook = sampleSummaryHook(this.cache);
  private readonly job = new BackgroundJob(() => this.readAll(), REFRESH_DELAY_MS);

  constructor(private readonly host: SampleHost) {}

  /** Whether the last check found any configured sample (edits need no check in a workspace without). */
  private anyConfigured = false;
  private untrustedNoted = false;

  /** After a change of the project: configs, settings and the index may name samples; edits only matter with some. */
  onFilesChanged(event: { reason: string; all: boolean }): void {
    if (event.reason === 'samples') return;
    if (this.anyConfigured || event.all) this.refresh();
  }

  /** Checks every configured sample soon (debounced), reading those whose file or table changed. */
  refresh(): void {
    this.job.schedule();
  }

  /** Checks every configured sample now; resolves when the readings are done. */
  async refreshNow(): Promise<void> {
    return this.job.runNow();
  }

  /** A CSV was deleted: the rules stop citing its summaries at once. */
  forget(file: string): void {
    if (!this.cache.forget(file)) return;
    this.host.project.refreshSamples();
    this.host.changed();
  }

  /** Stops scheduling (shutdown). A reading in progress ends at its next chunk. */
  stop(): void {
    this.job.stop();
  }

  private get stopped(): boolean {
    return this.job.isStopped;
  }

  /** Tables with a configured sample, once per sample file and table name. */
  private sampledTables(): { table: TableInfo; setting: SampleSetting }[] {
    const project = this.host.project;
    const seen = new Set<string>();
    const out: { table: TableInfo; setting: SampleSetting }[] = [];
    // Most workspaces configure no sample: a file's configuration is looked up once, not once per table
    // (39,000 tables in 2,000 files took 0.8 s of path work at the end of the index).
    const samplesIn = new Map<string, boolean>();
    for (const table of project.schema().allTables()) {
      let any = samplesIn.get(table.filePath);
      if (any === undefined)
        samplesIn.set(table.filePath, (any = project.configFor(table.filePath).samples !== undefined));
      if (!any) continue;
      const setting = configuredSample(project, table);
      const key = setting && `${setting.file}\u0000${table.qualifiedName}`;
      if (!setting || seen.has(key!)) continue;
      seen.add(key!);
      out.push({ table, setting });
    }
    return out;
  }

  private async readAll(): Promise<void> {
    let fresh = false;
    const sampled = this.sampledTables();
    this.anyConfigured = sampled.length > 0;
    if (sampled.length && this.host.roots() === 'none') {
      // Restricted Mode: a repository's samples are not read (nor its ring); said once.
      if (!this.untrustedNoted)
        this.host.log.warn(
          'cqlint: the samples .cqlint.json names are not read in an untrusted workspace (Restricted Mode)',
        );
      this.untrustedNoted = true;
      return;
    }
    for (const { table, setting } of sampled) {
      if (this.stopped) return;
      const result = await this.read(table, undefined, this.backgroundProgress(setting), undefined, false);
      if (result?.fresh && !result.summary.cancelled) fresh = true;
    }
    if (fresh) this.host.changed();
  }

  /**
   * Reads (or takes from the cache) a table's sample for a request: the configured one, or `chosen`.
   * `progress` shows the reading; `token` is the request's cancellation. A new summary of a configured
   * sample tells the host (unless `notify` is false: the caller does it once for many).
   */
  async read(
    table: TableInfo,
    chosen: SampleSetting | undefined,
    progress: ReadingProgress,
    token?: CancellationToken,
    notify = true,
  ): Promise<SampleResult | undefined> {
    try {
      const result = await readTableSample(this.host.project, table, {
        cache: this.cache,
        chosen,
        roots: this.host.roots(),
        shardCount: this.host.shardCount(),
        onProgress: (p) => progress.report(p),
        isCancelled: () => this.stopped || progress.cancelled || token?.isCancellationRequested === true,
        onProblem: (message) => this.host.log.warn(`cqlint: ${message}`),
      });
      if (notify && !chosen && result?.fresh && !result.summary.cancelled) this.host.changed();
      return result;
    } catch (error) {
      this.host.log.error(`cqlint: reading the sample of ${table.qualifiedName} failed: ${describeError(error)}`);
      return undefined;
    } finally {
      progress.done();
    }
  }

  /** Server-initiated work-done progress, created on the first report (a cached summary shows none). */
  backgroundProgress(setting: SampleSetting): ReadingProgress {
    return this.progress(`cqlint: reading sample ${fileName(setting.name ?? setting.file)}`, async () => {
      if (!this.host.workDoneProgress()) return undefined;
      return this.host.connection.window.createWorkDoneProgress().catch(() => undefined);
    });
  }

  /** Progress on a token the client gave with its request (`workDoneToken`). */
  requestProgress(setting: SampleSetting | undefined, workDoneToken: string | number | undefined): ReadingProgress {
    const title = `cqlint: reading sample ${fileName(setting?.name ?? setting?.file ?? '')}`;
    if (workDoneToken === undefined)
      return setting ? this.backgroundProgress(setting) : this.progress(title, async () => undefined);
    return this.progress(title, async () => this.host.connection.window.attachWorkDoneProgress(workDoneToken));
  }

  private progress(
    title: string,
    create: () => Promise<
      | {
          begin(title: string, percentage?: number, message?: string, cancellable?: boolean): void;
          report(percentage: number, message?: string): void;
          done(): void;
          token?: CancellationToken;
        }
      | undefined
    >,
  ): ReadingProgress {
    let reporter: Promise<Awaited<ReturnType<typeof create>>> | undefined;
    let last = 0;
    let cancelled = false;
    const percent = (p: SampleProgress): number => (p.size ? Math.min(99, Math.floor((p.chars / p.size) * 100)) : 0);
    const message = (p: SampleProgress): string => `${p.rows.toLocaleString('en-US')} rows`;
    return {
      get cancelled() {
        return cancelled;
      },
      report: (p) => {
        if (!reporter) {
          reporter = create().then(
            (r) => {
              r?.begin(title, percent(p), message(p), true);
              r?.token?.onCancellationRequested(() => (cancelled = true));
              return r;
            },
            () => undefined,
          );
          last = Date.now();
          return;
        }
        if (Date.now() - last < PROGRESS_INTERVAL_MS) return;
        last = Date.now();
        void reporter.then((r) => r?.report(percent(p), message(p)));
      },
      done: () => {
        void reporter?.then((r) => r?.done());
      },
    };
  }
}
