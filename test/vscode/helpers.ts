// Shared helpers for the extension tests: open fixtures, wait for the language server's answers.
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import * as vscode from 'vscode';

export const EXTENSION_ID = 'cqlint.cqlint';

interface CqlintApi {
  ready(): Promise<void>;
}

/** Activates the extension (if needed) and waits until its language server is running. */
export async function activateExtension(): Promise<void> {
  const extension = vscode.extensions.getExtension<CqlintApi>(EXTENSION_ID);
  assert.ok(extension, `extension ${EXTENSION_ID} is not installed in this VS Code`);
  const api = await extension.activate();
  await api.ready();
}

export function fixtureUri(name: string): vscode.Uri {
  const folder = vscode.workspace.workspaceFolders?.[0];
  assert.ok(folder, 'the tests must run with test/vscode/fixtures/workspace open as the workspace folder');
  return vscode.Uri.file(path.join(folder.uri.fsPath, name));
}

export async function openFixture(name: string): Promise<vscode.TextDocument> {
  const document = await vscode.workspace.openTextDocument(fixtureUri(name));
  await vscode.window.showTextDocument(document);
  await activateExtension();
  return document;
}

/** An unsaved CQL document, so tests that edit never touch the fixtures on disk. */
export async function openUntitled(content: string): Promise<vscode.TextDocument> {
  const document = await vscode.workspace.openTextDocument({ language: 'cql', content });
  await vscode.window.showTextDocument(document);
  await activateExtension();
  return document;
}

export async function closeAllEditors(): Promise<void> {
  // Unsaved documents would prompt to save: revert them first (a fix spanning files leaves closed ones dirty too).
  for (const document of vscode.workspace.textDocuments) {
    if (document.isDirty) {
      await vscode.window.showTextDocument(document);
      await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
    }
  }
  await vscode.commands.executeCommand('workbench.action.closeAllEditors');
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * Polls `probe` until it returns a value that is not undefined, or fails after `timeoutMs`: for the language
 * server's answers (hovers, inlay hints, completion, commands), which no VS Code event announces. What an
 * event announces is waited for with waitOn.
 */
export async function waitFor<T>(
  what: string,
  probe: () => T | undefined | Promise<T | undefined>,
  timeoutMs = 30_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value !== undefined) return value;
    } catch (error) {
      last = error;
    }
    if (Date.now() > deadline) {
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${last ? `: ${String(last)}` : ''}`);
    }
    await sleep(200);
  }
}

/**
 * Resolves with `probe()` once it is not undefined, probing again on each of `events` (the diagnostics,
 * the active editor, the tabs changed), never on a timer; fails after `timeoutMs`.
 */
export function waitOn<T>(
  what: string,
  events: readonly vscode.Event<unknown>[],
  probe: () => T | undefined,
  timeoutMs = 30_000,
): Promise<T> {
  return new Promise((resolve, reject) => {
    const subscriptions: vscode.Disposable[] = [];
    const done = (): void => {
      clearTimeout(timer);
      for (const subscription of subscriptions) subscription.dispose();
    };
    const check = (): void => {
      const value = probe();
      if (value === undefined) return;
      done();
      resolve(value);
    };
    const timer = setTimeout(() => {
      done();
      reject(new Error(`timed out after ${timeoutMs} ms waiting for ${what}`));
    }, timeoutMs);
    for (const event of events) subscriptions.push(event(check));
    check();
  });
}

/** Waits until the diagnostics of `uri` satisfy `probe` (re-checked when any diagnostics change). */
export function waitOnDiagnostics<T>(what: string, probe: () => T | undefined, timeoutMs = 30_000): Promise<T> {
  return waitOn(what, [vscode.languages.onDidChangeDiagnostics], probe, timeoutMs);
}

/** The diagnostic code as a plain string (`code` may be `{ value, target }` when the rule has a docs link). */
export function codeOf(diagnostic: vscode.Diagnostic): string | undefined {
  const code = diagnostic.code;
  if (code === undefined) return undefined;
  if (typeof code === 'object') return String(code.value);
  return String(code);
}

export function cqlintDiagnostics(uri: vscode.Uri): vscode.Diagnostic[] {
  return vscode.languages.getDiagnostics(uri).filter((d) => d.source === 'cqlint');
}

/** Waits until the server has published a diagnostic with rule id `ruleId` for `uri`. */
export function waitForDiagnostic(uri: vscode.Uri, ruleId: string, timeoutMs = 30_000): Promise<vscode.Diagnostic> {
  return waitOnDiagnostics(
    `a "${ruleId}" diagnostic on ${path.basename(uri.fsPath)}`,
    () => cqlintDiagnostics(uri).find((d) => codeOf(d) === ruleId),
    timeoutMs,
  );
}

/** Waits until no diagnostic with rule id `ruleId` remains for `uri`. */
export function waitForNoDiagnostic(uri: vscode.Uri, ruleId: string, timeoutMs = 30_000): Promise<true> {
  return waitOnDiagnostics(
    `the "${ruleId}" diagnostic on ${path.basename(uri.fsPath)} to go away`,
    () => (cqlintDiagnostics(uri).some((d) => codeOf(d) === ruleId) ? undefined : true),
    timeoutMs,
  );
}

/** Position of the `occurrence`-th (0-based) match of `needle` in the document, plus `offset` characters. */
export function positionOf(document: vscode.TextDocument, needle: string, offset = 0, occurrence = 0): vscode.Position {
  const text = document.getText();
  let index = -1;
  for (let i = 0; i <= occurrence; i++) {
    index = text.indexOf(needle, index + 1);
    assert.ok(index >= 0, `"${needle}" (occurrence ${occurrence}) not found in ${document.uri.toString()}`);
  }
  return document.positionAt(index + offset);
}

export function lineOf(document: vscode.TextDocument, needle: string): number {
  return positionOf(document, needle).line;
}

/** Plain text of hover contents (MarkdownString, MarkedString or string). */
export function hoverText(hovers: readonly vscode.Hover[]): string {
  return hovers
    .flatMap((h) => h.contents)
    .map((c) => (typeof c === 'string' ? c : 'value' in c ? c.value : String(c)))
    .join('\n');
}

export function labelText(label: string | vscode.CompletionItemLabel | vscode.InlayHintLabelPart[]): string {
  if (typeof label === 'string') return label;
  if (Array.isArray(label)) return label.map((part) => part.value).join('');
  return label.label;
}
