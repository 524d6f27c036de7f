// Keeps the server serving whatever happens inside a handler: an exception is logged and the request
// gets an empty answer, instead of an error popup in the editor or a dead server.
import { LSPErrorCodes, ResponseError } from 'vscode-languageserver/node';
import { readinessOf, type Readiness } from './readiness';

type ErrorSink = (message: string) => void;

export function describeError(error: unknown): string {
  if (error instanceof Error) return error.stack ?? `${error.name}: ${error.message}`;
  return String(error);
}

/** Wraps a handler: a throw or rejected promise is reported to `sink` and `fallback` is returned. */
export function safeHandler<A extends unknown[], R, F>(
  sink: ErrorSink,
  name: string,
  handler: (...args: A) => R | Promise<R>,
  fallback: F,
): (...args: A) => Promise<R | F> {
  return async (...args: A) => {
    try {
      // A request whose $/cancelRequest arrived before it started does not run at all.
      if (isCancelledToken(args[args.length - 1]))
        throw new ResponseError(LSPErrorCodes.RequestCancelled, 'cancelled before it ran');
      return await handler(...args);
    } catch (error) {
      // A cancelled request is not a failure; let vscode-jsonrpc answer it as such.
      if (isCancellation(error)) throw error;
      sink(`cqlint: ${name} failed: ${describeError(error)}`);
      return fallback;
    }
  };
}

function isCancelledToken(value: unknown): boolean {
  const token = value as { isCancellationRequested?: unknown; onCancellationRequested?: unknown } | null | undefined;
  return typeof token?.onCancellationRequested === 'function' && token.isCancellationRequested === true;
}

function isCancellation(error: unknown): boolean {
  // ResponseError with LSP's RequestCancelled / ServerCancelled codes.
  const code = (error as { code?: unknown } | null)?.code;
  return code === -32800 || code === -32802;
}

/**
 * Registration methods the server core owns. Most are single-slot in vscode-languageserver (a second
 * registration silently replaces the first), so a feature calling one would break the core.
 */
export const CORE_OWNED_REGISTRATIONS: ReadonlySet<string> = new Set([
  'onInitialize',
  'onInitialized',
  'onShutdown',
  'onExit',
  'onDidChangeConfiguration',
  'onDidChangeWatchedFiles',
  'onDidOpenTextDocument',
  'onDidChangeTextDocument',
  'onDidCloseTextDocument',
  'onDidSaveTextDocument',
  'onWillSaveTextDocument',
  'onWillSaveTextDocumentWaitUntil',
]);

interface GuardOptions {
  /** Top-level registration methods that throw instead of registering (see CORE_OWNED_REGISTRATIONS). */
  reserved?: ReadonlySet<string>;
  /**
   * Called before each wrapped handler with the readiness it declared (readiness.ts) and its arguments; when it
   * returns a promise, the handler runs once that settles (the server waits for its background index this way).
   * With it, a registration whose handler declares no readiness throws: there is no default to hide a missing one.
   */
  ready?: (readiness: Readiness, args: unknown[]) => Promise<void> | undefined;
}

/**
 * A view of the connection in which every handler passed to an `on...` registration method (at any
 * depth: `connection.onHover`, `connection.languages.inlayHint.on`, `connection.onRequest(m, h)`)
 * is wrapped with `safeHandler` (fallback `null`). Other members pass through untouched.
 */
export function guardConnection<C extends object>(connection: C, sink: ErrorSink, options: GuardOptions = {}): C {
  const cache = new WeakMap<object, object>();
  const afterReady = (name: string, handler: (...a: unknown[]) => unknown) => {
    const ready = options.ready;
    if (!ready) return handler;
    const readiness = readinessOf(handler);
    if (!readiness)
      throw new Error(
        `${name}: the handler declares no readiness; register requires('nothing' | 'file' | 'file-and-ring' | 'workspace', handler) (readiness.ts)`,
      );
    return (...a: unknown[]): unknown => {
      const wait = ready(readiness, a);
      return wait ? wait.then(() => handler(...a)) : handler(...a);
    };
  };
  const wrap = <T extends object>(target: T, label: string): T => {
    const cached = cache.get(target);
    if (cached) return cached as T;
    const proxy = new Proxy(target, {
      get(obj, property) {
        const value = Reflect.get(obj, property, obj);
        if (typeof property !== 'string') return value;
        if (typeof value === 'function') {
          if (!/^on([A-Z]|$)/.test(property)) return value.bind(obj);
          if (label === 'connection' && options.reserved?.has(property)) {
            return () => {
              throw new Error(
                `connection.${property} is owned by the server core; use ctx.documents / ctx.onDidChangeFiles / ctx.onDidChangeSettings / ctx.onInitialized / ctx.onShutdown instead`,
              );
            };
          }
          return (...args: unknown[]) => {
            const name = `${label}.${property}${typeof args[0] === 'string' ? `(${args[0]})` : ''}`;
            const guarded = args.map((arg) =>
              typeof arg === 'function'
                ? safeHandler(sink, name, afterReady(name, arg as (...a: unknown[]) => unknown), null)
                : arg,
            );
            return (value as (...a: unknown[]) => unknown).apply(obj, guarded);
          };
        }
        if (value !== null && typeof value === 'object' && !isPlainData(property))
          return wrap(value as object, `${label}.${property}`);
        return value;
      },
    });
    cache.set(target, proxy);
    return proxy;
  };
  return wrap(connection, 'connection');
}

// Sub-objects of the connection that hold data rather than registration APIs.
function isPlainData(property: string): boolean {
  return property === 'console' || property === 'tracer' || property === 'telemetry';
}
