// What a request waits for before its handler runs, declared by the feature next to the handler (as Langium's
// `requiredState` does) rather than guessed by the server from the registration's name. Every handler a feature
// registers on `ctx.connection` declares one (`requires(readiness, handler)`); the guard (safe.ts) refuses a
// handler that declares none, so a new request never falls back silently to waiting for nothing.

/**
 * - `nothing`: runs at once; the handler waits by itself for what it needs (textDocument/diagnostic shows a
 *   document's file-local findings while the index runs), or needs nothing (codeAction/resolve).
 * - `file`: the request's document (`params.textDocument.uri`): every workspace file that could change its
 *   answer is indexed, and its .cqlint.json is read.
 * - `file-and-ring`: as `file`, and the ring file that applies to the document is read (what shows tokens).
 * - `workspace`: the whole workspace is indexed (workspace/diagnostic, workspace/symbol).
 */
export type Readiness = 'nothing' | 'file' | 'file-and-ring' | 'workspace';

const declared = new WeakMap<object, Readiness>();

/** `handler`, declared to run once `readiness` holds (the server waits for it). */
export function requires<H extends (...args: never[]) => unknown>(readiness: Readiness, handler: H): H {
  declared.set(handler, readiness);
  return handler;
}

/** What `handler` declared with `requires`; undefined when it declared nothing. */
export function readinessOf(handler: unknown): Readiness | undefined {
  return typeof handler === 'function' ? declared.get(handler) : undefined;
}

/** What the server waits on; each returns undefined when nothing is pending (the request then runs at once). */
export interface ReadinessSources {
  /** The workspace files that could change `filePath`'s findings are indexed. */
  whenIndexed(filePath: string): Promise<void> | undefined;
  /** The .cqlint.json of `filePath` is read (and with `ring`, its ring file). */
  whenConfigured(filePath: string, ring: boolean): Promise<void> | undefined;
  /** The whole workspace is indexed. */
  whenAllIndexed(): Promise<void> | undefined;
  uriToPath(uri: string): string;
}

/**
 * What a request with `args` (its params first) waits for under `readiness`; undefined: nothing, it runs at
 * once. A `file` request without a document (malformed params) runs at once and answers as its handler does.
 */
export function readinessWait(
  readiness: Readiness,
  args: readonly unknown[],
  sources: ReadinessSources,
): Promise<void> | undefined {
  if (readiness === 'nothing') return undefined;
  if (readiness === 'workspace') return sources.whenAllIndexed();
  const uri = (args[0] as { textDocument?: { uri?: unknown } } | null | undefined)?.textDocument?.uri;
  if (typeof uri !== 'string') return undefined;
  const filePath = sources.uriToPath(uri);
  return bothDone(sources.whenIndexed(filePath), sources.whenConfigured(filePath, readiness === 'file-and-ring'));
}

/** Both waits, or the one there is; undefined when there is none (the caller answers at once). */
export function bothDone(a: Promise<void> | undefined, b: Promise<void> | undefined): Promise<void> | undefined {
  return a && b ? Promise.all([a, b]).then(() => undefined) : (a ?? b);
}
