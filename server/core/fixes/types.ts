// The shape of a quick fix, independent of how it is shown (LSP code action, CLI --fix).
// Fixes are small pure functions from (text, parse, finding or node, options) to edits, like
// rust-analyzer's assists.
import type { PartitionPlan } from '../partition/plan';
import type { TextEdit } from '../util/text-edit';

export type { TextEdit } from '../util/text-edit';

export interface Fix {
  /** What the user sees, e.g. "Add a calculated shard column from title (16 shards)". */
  title: string;
  kind: 'quickfix' | 'refactor';
  /** Set when this fix is clearly the best one for its finding. */
  isPreferred?: boolean;
  /** True when the fix needs no choice from the user, so fix-all and `cqlint --fix` may apply it. */
  safeForFixAll: boolean;
  /** Non-overlapping edits into the text the fix was computed from. */
  edits: TextEdit[];
  /** Edits to other files of the workspace (e.g. the reads of a table the fix re-keys), by absolute path. */
  otherFiles?: FileEdits[];
  /**
   * Files the fix creates (a partition fix on a table of a migration folder writes the folder's next migration:
   * fixes/migration-fix.ts), by absolute path. Known when the fix is offered; never a file that exists: whoever
   * applies the fix creates each one and refuses to overwrite (the editor's CreateFile, `cqlint fix`'s write).
   */
  newFiles?: NewFile[];
  /**
   * A short id that names the fix among its finding's fixes on the command line (`cqlint fix --fix`):
   * `shard:title`, `shard:random`, `bucket:day`, `copy:shard:title` ...
   */
  id?: string;
  /** More than the title says, one line each: how it was sized, and each statement left to the application. */
  detail?: string[];
  /** For partition fixes: the plan it applies (its finding's, partition/planner.ts), with the figures it was sized from. */
  plan?: PartitionPlan;
  /**
   * Why the fix cannot be made: application code it edits cannot take its edits in its string literals (a hole
   * where the new text must go). Such a fix is never preferred, editors do not offer it, fix-all skips it and
   * `cqlint fix` says why (FixContext.refusal, resolveOffer).
   */
  refused?: { filePath: string; reason: string };
}

/**
 * A fix as offered, before its edits are built: everything but the edits (a refactoring of hundreds of
 * statements builds them only for the fix picked). `resolve()` builds them (once) and returns the fix.
 */
export interface FixOffer extends Omit<Fix, 'edits' | 'otherFiles' | 'detail'> {
  /** The detail lines, when they are known before the edits are built. */
  detail?: string[];
  resolve(): Fix;
}

export interface NewFile {
  filePath: string;
  /** Its whole text. */
  text: string;
}

export interface FileEdits {
  filePath: string;
  /** Non-overlapping edits into that file's text as the fix saw it. */
  edits: TextEdit[];
}

/** A fix whose edits are already built, as an offer. */
export function offerOf(fix: Fix): FixOffer {
  return { ...fix, resolve: () => fix };
}
