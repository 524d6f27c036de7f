// Per-request work limits for the editor features (server/core/util/budget.ts does the counting). A feature
// that runs out answers with what it has; the user is told once per document and feature, in the log and
// visibly, rather than getting a frozen or dead server on a huge file.
import { LSPErrorCodes, ResponseError, type CancellationToken } from 'vscode-languageserver/node';
import { WorkBudget } from '../core/util/budget';
import type { ServerContext } from './context';
import type { EditorDocument } from './features/symbols';

/**
 * What one request may process: characters of statement text (statements for inlay hints). The features
 * are linear but not cheap (formatting parses every statement it rewrites again, to prove it unchanged):
 * these keep one request around a second on an ordinary machine. `npm run bench -- limits` measures them.
 */
const REQUEST_BUDGETS = {
  formatting: 300_000,
  semanticTokens: 250_000,
  folding: 1_000_000,
  inlayHints: 2000,
} as const;

type BudgetedFeature = keyof typeof REQUEST_BUDGETS;

/** A budget for one request; it also stops at a statement boundary once the request is cancelled. */
export function requestBudget(feature: BudgetedFeature, token?: CancellationToken): WorkBudget {
  return new WorkBudget(REQUEST_BUDGETS[feature], () => token?.isCancellationRequested === true);
}

/**
 * Before long work: lets the messages already received be read (vscode-jsonrpc delivers one per
 * event-loop turn), so that a $/cancelRequest for this request, sent while the server was busy, is seen;
 * then answers RequestCancelled instead of starting.
 */
export async function unlessCancelled(token: CancellationToken | undefined): Promise<void> {
  for (let turn = 0; turn < 2; turn++) await new Promise((resolve) => setImmediate(resolve));
  if (token?.isCancellationRequested)
    throw new ResponseError(LSPErrorCodes.RequestCancelled, 'cancelled before it started');
}

const announced = new WeakMap<ServerContext, Set<string>>();

/**
 * After the work: a cancelled request answers as cancelled; a partial answer is reported (the log every
 * time at debug level, and once per document and feature as a warning and a visible message).
 */
export function settleBudget(
  ctx: ServerContext,
  doc: EditorDocument,
  feature: BudgetedFeature,
  budget: WorkBudget,
  what: string,
): void {
  if (!budget.stopped) return;
  if (budget.reason === 'cancelled') throw new ResponseError(LSPErrorCodes.RequestCancelled, `${feature} cancelled`);
  const uri = doc.uri;
  const line = doc.lines.positionAt(budget.stoppedAt ?? 0).line + 1;
  const unit = feature === 'inlayHints' ? 'statements' : 'characters of statements';
  const message = `${feature}: ${what} before line ${line} only: the document is larger than one request may process (${REQUEST_BUDGETS[feature]} ${unit})`;
  let seen = announced.get(ctx);
  if (!seen) {
    seen = new Set();
    announced.set(ctx, seen);
  }
  const key = `${feature} ${uri}`;
  if (seen.has(key)) {
    ctx.log.debug(`cqlint: ${uri}: ${message}`);
    return;
  }
  seen.add(key);
  ctx.log.warn(`cqlint: ${uri}: ${message}`);
  ctx.connection.window.showWarningMessage(`cqlint: ${message}`);
}
