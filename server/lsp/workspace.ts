// The workspace folders: the background index of their CQL files, CQL files changed on disk, folders
// added and removed, and the indexing progress shown in the client.
import { FileChangeType, type ClientCapabilities, type WorkspaceFoldersChangeEvent } from 'vscode-languageserver/node';
import { findCqlFiles, isCqlFile, isInside, readTextFile } from '../core/io/files';
import { hostLanguageOf } from '../core/embedded';
import { isGeneratedSource } from '../core/embedded/selection';
import { analysisRefusal } from '../core/io/input-limits';
import * as conv from './conversions';
import type { OpenDocuments } from './documents';
import { indexStatusNotification, type IndexStatus } from './lsp-extensions';
import { describeError } from './safe';
import type { ServerCore } from './server-core';
import { BackgroundIndex, type IndexProgress } from './workspace-index';

/** Limits that keep a huge workspace from stalling the server. */
const WORKSPACE_LIMITS = {
  /** CQL files loaded from the workspace folders at startup (open documents are not counted). */
  maxWorkspaceFiles: 5000,
  /**
   * Files of application code read for their CQL at startup, besides the CQL files: most hold none and cost a
   * read and a scan for statement words (core/embedded), but a monorepo has tens of thousands.
   */
  maxSourceFiles: 20000,
  /** Bytes per file read from disk. */
  maxFileBytes: 2 * 1024 * 1024,
};

/** A CQL file, or application code cqlint reads CQL from. */
export function isLintedFile(filePath: string): boolean {
  return isCqlFile(filePath) || hostLanguageOf(filePath) !== undefined;
}

/** At most one indexing progress report per interval (lsp-extensions.ts says so to clients). */
const PROGRESS_INTERVAL_MS = 250;

interface WorkspaceHost {
  clientCapabilities(): ClientCapabilities;
  /** The client asked for `cqlint/indexStatus` notifications (initializationOptions.indexStatus). */
  wantsIndexStatus(): boolean;
  /** Loads the .cqlint.json files (awaited) and ring files (in the background) these files use. */
  loadConfigsOf(files: readonly string[]): Promise<void>;
  /** Whether ignore patterns leave a file out (answered once its configs are loaded). */
  ignoredBy(filePath: string): string | undefined;
  /**
   * Whether a file of application code is read for its CQL (its language is on: cqlint.embedded.languages, else
   * its .cqlint.json's `embedded`); answered once its configs are loaded.
   */
  readsEmbedded(filePath: string): boolean;
  /** The folders changed: what depends on them (config boundaries, settings scopes) is brought up to date. */
  foldersChanged(): void;
}

export class Workspace {
  /** Absolute paths of the workspace folders. */
  folders: string[] = [];
  /** Files loaded from disk (not only open): closing their document reverts to the disk text. */
  private readonly diskFiles = new Set<string>();
  /** The background index of the workspace folders, from `initialize` until it is done. */
  private index?: BackgroundIndex;
  private report: (progress: IndexProgress | 'done') => void = () => undefined;

  constructor(
    private readonly core: ServerCore,
    private readonly documents: OpenDocuments,
    private readonly host: WorkspaceHost,
  ) {}

  inWorkspace(filePath: string): boolean {
    return this.folders.some((folder) => isInside(folder, filePath));
  }

  /** Resolves once every workspace file that could change `filePath`'s findings is indexed; undefined when nothing is pending. */
  whenIndexed(filePath: string): Promise<void> | undefined {
    return this.index && !this.index.done ? this.index.whenReady(filePath) : undefined;
  }

  /** Resolves once the whole workspace is indexed; undefined when nothing is pending. */
  whenAllIndexed(): Promise<void> | undefined {
    return this.index && !this.index.done ? this.index.whenAllDone() : undefined;
  }

  /** The editor's text wins over what the index read. */
  forgetIndexed(filePath: string): void {
    this.index?.forget(filePath);
  }

  /**
   * Creates the index of the workspace folders when `initialize` is answered, so that requests sent
   * before it runs already wait for it; `startIndex` runs it.
   */
  createIndex(): void {
    if (!this.folders.length) return;
    this.index = new BackgroundIndex({
      project: this.core.project,
      read: (file) => this.readFile(file),
      isOpen: (file) => this.documents.isOpen(file),
      inWorkspace: (file) => this.inWorkspace(file),
      loaded: (file) => this.diskFiles.add(file),
      progress: (progress) => this.report(progress),
    });
  }

  /** Indexes the workspace folders in the background, then re-checks every file once. */
  startIndex(): void {
    const running = this.index;
    if (running) {
      void this.indexWorkspace(running).catch((error) =>
        this.core.log.error(`cqlint: indexing the workspace failed: ${describeError(error)}`),
      );
    } else if (this.host.wantsIndexStatus()) {
      void this.indexProgress().then((report) => report('done')); // nothing to index: say so, the client waits for it
    }
  }

  stop(): void {
    this.index?.cancel();
  }

  private async indexWorkspace(running: BackgroundIndex): Promise<void> {
    const { core } = this;
    const started = Date.now();
    try {
      await running.run(async () => {
        const files: string[] = [];
        for (const folder of this.folders)
          files.push(
            ...(await this.listFolder(folder, WORKSPACE_LIMITS.maxWorkspaceFiles - files.length - this.diskFiles.size)),
          );
        // The configs before the first file is linted; what their ignore patterns leave out is not read.
        await this.host.loadConfigsOf(files);
        this.report = await this.indexProgress();
        return this.withoutIgnored(files);
      });
    } finally {
      this.report('done');
    }
    core.log.info(
      `cqlint: indexed ${this.diskFiles.size} CQL file(s) in ${((Date.now() - started) / 1000).toFixed(1)} s`,
    );
    core.emit('scan', core.project.files(), [], [], true);
  }

  /** The CQL files of a folder within the file limit; open documents are noted as on disk and left out. */
  private async listFolder(folder: string, budget: number): Promise<string[]> {
    const { log } = this.core;
    if (budget <= 0) {
      log.warn(`cqlint: not scanning ${folder}: the ${WORKSPACE_LIMITS.maxWorkspaceFiles}-file limit is reached`);
      return [];
    }
    // CQL files and application code in one walk; the CQL files count against their own limit, so that the code
    // of a large program never crowds the schema out.
    const walk = await findCqlFiles(folder, {
      maxFiles: budget + WORKSPACE_LIMITS.maxSourceFiles,
      roots: this.folders,
      accept: (name) => isCqlFile(name) || hostLanguageOf(name) !== undefined,
    });
    for (const error of walk.errors) log.warn(`cqlint: cannot read folder ${error.path}: ${error.message}`);
    for (const entry of walk.skipped) log.warn(`cqlint: skipping ${entry.path}: ${entry.message}`);
    const cql = walk.files.filter((file) => isCqlFile(file));
    const code = walk.files.filter((file) => !isCqlFile(file) && !isGeneratedSource(folder, file));
    if (cql.length > budget)
      log.warn(`cqlint: ${folder} has more than ${budget} CQL files; only the first ${budget} are analysed`);
    if (walk.truncated || code.length > WORKSPACE_LIMITS.maxSourceFiles)
      log.warn(
        `cqlint: ${folder} has more than ${WORKSPACE_LIMITS.maxSourceFiles} files of application code; only the first ${WORKSPACE_LIMITS.maxSourceFiles} are read for CQL`,
      );
    const files: string[] = [];
    for (const file of [...cql.slice(0, budget), ...code.slice(0, WORKSPACE_LIMITS.maxSourceFiles)]) {
      if (this.documents.isOpen(file))
        this.diskFiles.add(file); // the open document's text wins
      else files.push(file);
    }
    return files;
  }

  /** A workspace file, read within the size cap and the workspace folders. */
  private read(file: string): ReturnType<typeof readTextFile> {
    return readTextFile(file, { maxBytes: WORKSPACE_LIMITS.maxFileBytes, roots: this.folders });
  }

  /** A workspace file's text; undefined, with a warning, when it cannot be read or is too large to analyse. */
  private async readFile(file: string): Promise<string | undefined> {
    const read = await this.read(file);
    // The statement-size guard open documents get (core/io/input-limits.ts): a file nobody opened is not
    // analysed either when one statement of it would take the parser minutes and gigabytes. Application code is
    // not CQL: the Project guards the CQL read out of it.
    const refused = read.ok ? (hostLanguageOf(file) ? undefined : analysisRefusal(read.text)) : read.message;
    if (refused === undefined && read.ok) return read.text;
    this.core.log.warn(`cqlint: skipping ${file}: ${refused}`);
    return undefined;
  }

  /** The files ignore patterns do not leave out, and the application code whose language is read. */
  private withoutIgnored(files: readonly string[]): string[] {
    const kept = files.filter((file) => this.host.ignoredBy(file) === undefined);
    if (kept.length < files.length)
      this.core.log.info(`cqlint: ${files.length - kept.length} file(s) left out by .cqlintignore or ignorePatterns`);
    return kept.filter((file) => !hostLanguageOf(file) || this.host.readsEmbedded(file));
  }

  /** Loads a folder added while the server runs (the initial folders go through the background index). */
  private async scanFolder(folder: string): Promise<string[]> {
    const loaded: string[] = [];
    const listed = await this.listFolder(folder, WORKSPACE_LIMITS.maxWorkspaceFiles - this.diskFiles.size);
    await this.host.loadConfigsOf(listed);
    for (const file of this.withoutIgnored(listed)) {
      const text = await this.readFile(file);
      if (text === undefined || this.documents.isOpen(file)) continue;
      this.diskFiles.add(file);
      this.documents.setText(file, text);
      loaded.push(file);
    }
    this.core.log.info(`cqlint: loaded ${loaded.length} CQL file(s) from ${folder}`);
    return loaded;
  }

  /** The disk text a closed document reverts to, when it is a workspace file (see OpenDocuments). */
  async diskTextOnClose(filePath: string, uri: string): Promise<string | undefined> {
    if (
      !conv.isFileUri(uri) ||
      !(this.diskFiles.has(filePath) || (this.inWorkspace(filePath) && isLintedFile(filePath)))
    )
      return undefined;
    const read = await this.read(filePath);
    if (read.ok) this.diskFiles.add(filePath);
    else this.diskFiles.delete(filePath);
    return read.ok ? read.text : undefined;
  }

  /** CQL files the client says changed on disk (open documents keep the editor's text). */
  async filesChanged(changes: readonly { filePath: string; type: FileChangeType }[]): Promise<void> {
    const { core, documents } = this;
    const changed: string[] = [];
    const removed: string[] = [];
    const dependents: string[] = [];
    const remove = (filePath: string): void => {
      this.diskFiles.delete(filePath);
      dependents.push(...documents.removeText(filePath));
      removed.push(filePath);
    };
    for (const { filePath, type } of changes) {
      if (documents.isOpen(filePath)) continue; // the editor's text wins
      this.index?.forget(filePath); // this change is newer than what the index may have read
      if (type === FileChangeType.Deleted) {
        if (core.project.hasFile(filePath) || this.diskFiles.has(filePath)) remove(filePath);
        continue;
      }
      if (!this.diskFiles.has(filePath) && this.diskFiles.size >= WORKSPACE_LIMITS.maxWorkspaceFiles) continue;
      if (!this.diskFiles.has(filePath) && this.host.ignoredBy(filePath) !== undefined) continue;
      if (hostLanguageOf(filePath) && !this.host.readsEmbedded(filePath)) continue;
      const text = await this.readFile(filePath);
      if (documents.isOpen(filePath)) continue;
      if (text === undefined) {
        if (core.project.hasFile(filePath)) remove(filePath);
        continue;
      }
      if (core.project.sourceText(filePath) === text) continue;
      this.diskFiles.add(filePath);
      dependents.push(...documents.setText(filePath, text));
      changed.push(filePath);
    }
    // A new file may be in a folder whose .cqlint.json is not known yet.
    await this.host.loadConfigsOf(changed);
    if (changed.length || removed.length) core.emit('disk', changed, removed, dependents);
  }

  /** workspace/didChangeWorkspaceFolders. */
  async foldersChanged(event: WorkspaceFoldersChangeEvent): Promise<void> {
    const { core, documents } = this;
    const removed: string[] = [];
    const dependents: string[] = [];
    for (const folder of event.removed) {
      const folderPath = conv.uriToPath(folder.uri);
      this.folders = this.folders.filter((existing) => existing !== folderPath);
      for (const file of [...this.diskFiles]) {
        if (!isInside(folderPath, file) || this.inWorkspace(file)) continue;
        this.diskFiles.delete(file);
        if (documents.isOpen(file)) continue;
        dependents.push(...documents.removeText(file));
        removed.push(file);
      }
    }
    const added: string[] = [];
    for (const folder of event.added) {
      const folderPath = conv.uriToPath(folder.uri);
      if (!conv.isFileUri(folder.uri) || this.folders.includes(folderPath)) continue;
      this.folders = [...this.folders, folderPath];
      added.push(...(await this.scanFolder(folderPath)));
    }
    this.host.foldersChanged();
    await this.host.loadConfigsOf(added);
    core.emit('folders', added, removed, dependents, added.length > 0);
  }

  /**
   * Progress in the client's UI: the `cqlint/indexStatus` notification for a client that asked for it
   * (the VS Code extension keeps a status bar item with it), else standard work-done progress when the
   * client supports server-initiated progress.
   */
  private async indexProgress(): Promise<(progress: IndexProgress | 'done') => void> {
    const { core } = this;
    if (this.host.wantsIndexStatus()) {
      let lastSent = 0;
      return (progress) => {
        const finished = progress === 'done';
        if (!finished && Date.now() - lastSent < PROGRESS_INTERVAL_MS) return;
        lastSent = Date.now();
        // At the end: every workspace CQL file the project holds, those opened in the editor meanwhile included.
        const inProject = finished
          ? core.project.files().filter((file) => isLintedFile(file) && this.inWorkspace(file)).length
          : 0;
        const status: IndexStatus = finished
          ? { indexed: inProject, total: inProject, done: true }
          : { indexed: progress.done, total: progress.total, done: false };
        void core.connection.sendNotification(indexStatusNotification.method, status).catch(() => undefined);
      };
    }
    if (this.host.clientCapabilities().window?.workDoneProgress !== true) return () => undefined;
    const reporter = await core.connection.window.createWorkDoneProgress().catch((error: unknown) => {
      core.log.warn(`cqlint: no indexing progress: ${describeError(error)}`);
      return undefined;
    });
    if (!reporter) return () => undefined;
    let begun = false;
    let lastReport = 0;
    return (progress) => {
      if (progress === 'done') {
        if (begun) reporter.done();
        return;
      }
      const message = `${progress.done}/${progress.total}`;
      const percentage = progress.total ? Math.floor((progress.done / progress.total) * 100) : 100;
      if (!begun) {
        begun = true;
        reporter.begin('cqlint: indexing', percentage, message, false);
      } else if (Date.now() - lastReport >= PROGRESS_INTERVAL_MS) {
        reporter.report(percentage, message);
      } else return;
      lastReport = Date.now();
    };
  }
}
