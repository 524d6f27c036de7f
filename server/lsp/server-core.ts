// What the parts of the server core (documents.ts, workspace.ts, config-files.ts, wired in server.ts)
// share: the engine, the core's connection, the log and the change event features listen to.
import type { Connection } from 'vscode-languageserver/node';
import type { Project } from '../core/engine/project';
import type { ChangeReason, Logger } from './context';

export interface ServerCore {
  readonly project: Project;
  /** The core's connection (it may register the notifications features may not). */
  readonly connection: Connection;
  readonly log: Logger;
  /** Runs an engine call; a bug in the engine is logged, never allowed to kill the handler. */
  guarded<T>(what: string, fn: () => T, fallback: T): T;
  /** Tells the features which files' findings may have changed (held back until `initialized`). */
  emit(reason: ChangeReason, changed: string[], removed: string[], dependents?: Iterable<string>, all?: boolean): void;
}
