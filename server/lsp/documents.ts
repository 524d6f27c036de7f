// Open documents: text sync (incremental) into the Project, the documents too large to analyse, and
// the revert to the disk text when a workspace file is closed.
import { TextDocuments } from 'vscode-languageserver/node';
import { TextDocument } from 'vscode-languageserver-textdocument';
import * as path from 'node:path';
import { editedTextRefusal, type StatementScan } from '../core/io/input-limits';
import { uriToPath } from './conversions';
import { hostLanguageOf } from '../core/embedded';
import { describeError } from './safe';
import type { ServerCore } from './server-core';

interface DocumentsHost {
  /** A document was opened (after its text is in the project and the event is sent). */
  opened(filePath: string, uri: string): void;
  /** A document was closed: its settings scope goes. */
  closed(filePath: string, uri: string): void;
  /**
   * The disk text a closed document reverts to (a workspace file), or undefined: it leaves the project.
   * Never throws.
   */
  diskTextOnClose(filePath: string, uri: string): Promise<string | undefined>;
  /** The index must not later load the text it read before the editor opened the file. */
  forgetIndexed(filePath: string): void;
  /** Whether a file of application code is read for its CQL (its language is on). */
  readsEmbedded(filePath: string): boolean;
}

export class OpenDocuments {
  readonly documents = new TextDocuments(TextDocument);
  /** The URI the client used for each open document, by engine key. */
  private readonly uris = new Map<string, string>();
  /** Engine keys that are too large to analyse, with why. */
  private readonly skipped = new Map<string, string>();
  /** The statement-size scan of each open document's text, which the next edit's scan resumes from. */
  private readonly scans = new Map<string, StatementScan>();

  constructor(
    private readonly core: ServerCore,
    private readonly host: DocumentsHost,
  ) {
    this.documents.onDidChangeContent((change) => {
      const uri = change.document.uri;
      const filePath = uriToPath(uri);
      const opened = !this.uris.has(filePath);
      this.uris.set(filePath, uri);
      if (opened) host.forgetIndexed(filePath); // the editor's text wins over what the index read
      const dependents = this.setText(filePath, change.document.getText());
      core.emit(opened ? 'open' : 'edit', [filePath], [], dependents);
      if (opened) host.opened(filePath, uri);
    });
    this.documents.onDidClose((event) => void this.close(event.document.uri));
  }

  isOpen(filePath: string): boolean {
    return this.uris.has(filePath);
  }

  /** The URI the client opened the file with. */
  uriOf(filePath: string): string | undefined {
    return this.uris.get(filePath);
  }

  /** The URIs of the open documents. */
  openUris(): IterableIterator<string> {
    return this.uris.values();
  }

  /** The engine keys of the open documents. */
  openFiles(): IterableIterator<string> {
    return this.uris.keys();
  }

  skippedReason(filePath: string): string | undefined {
    return this.skipped.get(filePath);
  }

  /** Puts text into the project, reporting files whose findings may change as a result. */
  setText(filePath: string, text: string): string[] {
    if (typeof text !== 'string') return []; // a malformed didOpen; nothing to analyse
    const { core } = this;
    const before = this.dependentsOf(filePath);
    if (hostLanguageOf(filePath)) {
      // Application code: read for its CQL when its language is on; the Project guards the CQL it holds.
      this.skipped.delete(filePath);
      this.scans.delete(filePath);
      if (!this.host.readsEmbedded(filePath)) {
        if (core.project.hasFile(filePath))
          core.guarded(`removeFile(${filePath})`, () => core.project.removeFile(filePath), undefined);
        return before;
      }
      core.guarded(`setFile(${filePath})`, () => core.project.setFile(filePath, text), undefined);
      return [...before, ...this.dependentsOf(filePath)];
    }
    // The one statement-size guard (core/io/input-limits.ts): a larger document is kept but not analysed.
    // An open document's scan resumes from its last one (an edit rescans the statements it touched).
    const { refusal: tooLarge, scan } = editedTextRefusal(text, this.scans.get(filePath));
    if (scan && this.uris.has(filePath)) this.scans.set(filePath, scan);
    else this.scans.delete(filePath);
    if (tooLarge) {
      // Said once per file (not on every keystroke): in the log, and visibly, since every feature goes quiet.
      if (!this.skipped.has(filePath)) {
        core.log.warn(`cqlint: ${filePath}: ${tooLarge}; not analysed`);
        void core.connection.window.showWarningMessage(
          `cqlint: ${path.basename(filePath)} is not analysed: ${tooLarge}`,
        );
      }
      this.skipped.set(filePath, tooLarge);
      if (core.project.hasFile(filePath))
        core.guarded(`removeFile(${filePath})`, () => core.project.removeFile(filePath), undefined);
      return before;
    }
    this.skipped.delete(filePath);
    core.guarded(`setFile(${filePath})`, () => core.project.setFile(filePath, text), undefined);
    return [...before, ...this.dependentsOf(filePath)];
  }

  /** Takes a file out of the project, reporting the files whose findings may change. */
  removeText(filePath: string): string[] {
    const { core } = this;
    const before = this.dependentsOf(filePath);
    this.skipped.delete(filePath);
    if (core.project.hasFile(filePath))
      core.guarded(`removeFile(${filePath})`, () => core.project.removeFile(filePath), undefined);
    return before;
  }

  private dependentsOf(filePath: string): string[] {
    const { project } = this.core;
    return project.hasFile(filePath)
      ? this.core.guarded(`dependents(${filePath})`, () => project.dependents(filePath), [])
      : [];
  }

  /** Reverts to what is on disk, if the file is part of the workspace; else it leaves the project. */
  private async close(uri: string): Promise<void> {
    const filePath = uriToPath(uri);
    this.uris.delete(filePath);
    this.scans.delete(filePath);
    this.host.closed(filePath, uri);
    try {
      const text = await this.host.diskTextOnClose(filePath, uri);
      if (this.uris.has(filePath)) return; // reopened meanwhile
      if (text !== undefined) this.core.emit('close', [filePath], [], this.setText(filePath, text));
      else this.core.emit('close', [], [filePath], this.removeText(filePath));
    } catch (error) {
      this.core.log.error(`cqlint: close ${filePath} failed: ${describeError(error)}`);
    }
  }
}
