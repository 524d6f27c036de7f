// Diagnostics pushed (textDocument/publishDiagnostics) to clients without pull support: every project file's,
// an open document's debounced after its last edit, the others' in slices after a workspace-wide change.
import type { FilesChangedEvent, ServerContext } from '../context';
import type { Report, Stages } from './diagnostics-reports';

/** Delay between the last edit of a file and publishing its diagnostics (push clients). */
export const PUSH_DEBOUNCE_MS = 100;
/** Longest run of background publishing (after a workspace-wide change) before requests get a turn. */
const BACKLOG_SLICE_MS = 15;

export function registerPush(
  ctx: ServerContext,
  reportFor: (filePath: string) => Report,
  localReportFor: (filePath: string) => Report,
  stages: Stages,
  invalidate: (event: FilesChangedEvent) => void,
): void {
  const timers = new Map<string, NodeJS.Timeout>();
  /** Files we published non-empty diagnostics for, so that leaving the project clears them. */
  const published = new Map<string, string>();

  /** Publishes a file's diagnostics: the full set, or (`local`) an open document's early report. */
  const publish = (filePath: string, stage: 'full' | 'local' = 'full'): void => {
    if (stage === 'full') timers.delete(filePath);
    const uri = ctx.pathToUri(filePath);
    const document = ctx.documents.get(uri);
    const known = ctx.project.hasFile(filePath) || ctx.skippedReason(filePath) !== undefined;
    const diagnostics = !known
      ? []
      : stage === 'local'
        ? localReportFor(filePath).diagnostics
        : reportFor(filePath).diagnostics;
    if (!known && !published.has(filePath)) return;
    if (known) published.set(filePath, uri);
    else published.delete(filePath);
    if (known && stage === 'full') stages.shownFull(filePath);
    void ctx.connection
      .sendDiagnostics({ uri, diagnostics, ...(document ? { version: document.version } : {}) })
      .catch((error: unknown) => ctx.log.error(`cqlint: publishing diagnostics for ${uri} failed: ${String(error)}`));
  };

  const publishSafely = (filePath: string, stage: 'full' | 'local' = 'full'): void => {
    try {
      publish(filePath, stage);
    } catch (error) {
      ctx.log.error(`cqlint: diagnostics for ${filePath} failed: ${String(error)}`);
    }
  };

  const schedule = (filePath: string): void => {
    backlog.delete(filePath);
    const pending = timers.get(filePath);
    if (pending) clearTimeout(pending);
    const timer = setTimeout(() => {
      // While the workspace is indexed, the full set waits for the files this one depends on (no false
      // unknown-column); the file-local findings go out meanwhile (Stages).
      const ready = ctx.whenIndexed(filePath);
      void stages.early(filePath, ready).then((early) => {
        if (early && timers.get(filePath) === timer) publishSafely(filePath, 'local');
        return ready.then(() => {
          if (timers.get(filePath) === timer) publishSafely(filePath);
        });
      });
    }, PUSH_DEBOUNCE_MS);
    timers.set(filePath, timer);
  };

  /**
   * Files that are not open, re-checked because something they depend on changed (the end of the index,
   * settings, a schema edit): published in slices that leave room for requests, each once the files it
   * needs are indexed, rather than thousands of lints in one go.
   */
  const backlog = new Set<string>();
  let draining = false;
  const drain = (): void => {
    if (draining) return;
    draining = true;
    const run = async (): Promise<void> => {
      let sliceStart = Date.now();
      while (backlog.size && !stopped) {
        const file = backlog.values().next().value as string;
        await ctx.whenIndexed(file);
        if (!backlog.delete(file)) continue;
        if (!timers.has(file)) publishSafely(file);
        if (Date.now() - sliceStart >= BACKLOG_SLICE_MS) {
          await new Promise<void>((resolve) => setImmediate(resolve));
          sliceStart = Date.now();
        }
      }
      // Every file the change concerned is published: the answers their lints filled (thousands of files'
      // at the end of the index) are not what the next edit needs.
      if (!stopped) ctx.project.forgetLookups();
    };
    void run()
      .catch((error: unknown) => ctx.log.error(`cqlint: publishing workspace diagnostics failed: ${String(error)}`))
      .finally(() => (draining = false));
  };
  let stopped = false;

  ctx.onDidChangeFiles((event) => {
    invalidate(event);
    // Open documents are published on their own timer (debounced, after the files they need are
    // indexed); every other file goes to the backlog, published in slices: the end of the index or a
    // schema edit can touch thousands of files, and a timer each would run all their lints in one go.
    const open = new Set(ctx.documents.all().map((document) => ctx.uriToPath(document.uri)));
    const files = event.all ? ctx.project.files() : [...event.changed, ...event.dependents];
    if (event.all) for (const file of open) schedule(file);
    let queued = false;
    for (const file of files) {
      if (open.has(file)) {
        if (!event.all) schedule(file);
      } else if (!timers.has(file)) {
        backlog.add(file);
        queued = true;
      }
    }
    if (queued) drain();
    for (const file of event.removed) {
      const uri = published.get(file) ?? ctx.pathToUri(file);
      const pending = timers.get(file);
      if (pending) clearTimeout(pending);
      timers.delete(file);
      if (!published.delete(file)) continue;
      void ctx.connection.sendDiagnostics({ uri, diagnostics: [] }).catch(() => undefined);
    }
  });

  ctx.onShutdown(() => {
    stopped = true;
    backlog.clear();
    for (const timer of timers.values()) clearTimeout(timer);
    timers.clear();
  });
}
