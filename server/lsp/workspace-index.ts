// Indexes the workspace folders in the background after `initialized`, so that `initialize` answers at
// once and the server keeps answering requests while thousands of files are read and parsed.
//
// Files enter the Project only once parsed. An open document waits only for the files that could
// change its findings: those whose text mentions one of the table, view or type names it defines or
// uses (a file that never spells a name can neither define nor query it). Those files are indexed
// first, so the open file's diagnostics come early and never report a false `unknown-column` for a
// table whose file is not indexed yet. The rest follows; when all is done the caller re-checks
// everything once.
import type { Project } from '../core/engine/project';
import { heapKeeper } from '../core/util/heap';

export interface IndexProgress {
  /** Files parsed so far, and in all. */
  done: number;
  total: number;
}

export interface IndexHost {
  project: Project;
  /** Reads a workspace file; undefined when it cannot be read (the host logs why). */
  read(filePath: string): Promise<string | undefined>;
  /** Whether the file is open in the editor (its text wins; the index leaves it alone). */
  isOpen(filePath: string): boolean;
  /** Whether the file still belongs to a workspace folder (folders can be removed meanwhile). */
  inWorkspace(filePath: string): boolean;
  /** Called after each parsed file that enters the project. */
  loaded(filePath: string): void;
  progress(progress: IndexProgress): void;
}

/** Longest stretch of synchronous parsing before the index lets pending requests run. */
const SLICE_MS = 15;

const nextTick = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

interface Waiter {
  /** Pending files that mention one of the waiting file's names. */
  needs: Set<string>;
  resolve(): void;
}

export class BackgroundIndex {
  private readonly pending = new Map<string, string>();
  /** Files listed but not yet read (text unknown). */
  private unread = new Set<string>();
  private readonly generations = new Map<string, number>();
  private readonly waiters: Waiter[] = [];
  private readonly allDone: Promise<void>;
  private resolveAllDone!: () => void;
  private readsDone: Promise<void>;
  private resolveReadsDone!: () => void;
  private finished = false;
  private cancelled = false;
  private total = 0;
  private parsed = 0;

  constructor(private readonly host: IndexHost) {
    this.allDone = new Promise((resolve) => (this.resolveAllDone = resolve));
    this.readsDone = new Promise((resolve) => (this.resolveReadsDone = resolve));
  }

  get done(): boolean {
    return this.finished;
  }

  /**
   * Lists, reads then parses the files (in the background; the promise ends when every file is in).
   * Waits asked for before the listing is done wait for it.
   */
  async run(list: () => Promise<readonly string[]>): Promise<void> {
    try {
      const files = await list();
      this.total = files.length;
      this.unread = new Set(files);
      this.host.progress({ done: 0, total: this.total });
      for (const file of files) {
        if (this.cancelled) return;
        const generation = this.generations.get(file) ?? 0;
        const text = await this.host.read(file);
        if (!this.unread.delete(file)) continue; // dropped meanwhile (changed or deleted on disk)
        if (text === undefined || (this.generations.get(file) ?? 0) !== generation) continue;
        this.pending.set(file, text);
      }
      this.resolveReadsDone();
      await nextTick(); // waits asked for during the reads register first, so their files come first
      await this.parseAll();
    } finally {
      this.finish();
    }
  }

  /** Resolves once every file that could affect `filePath`'s findings is in the project. */
  async whenReady(filePath: string): Promise<void> {
    if (this.finished) return;
    await this.readsDone;
    if (this.finished) return;
    // A file not loaded yet (a request about a workspace file that is not open) first waits for
    // itself; then, in the project, for what its names need.
    if (this.pending.has(filePath)) {
      await this.wait(new Set([filePath]));
      return this.whenReady(filePath);
    }
    const waiter: Waiter = { needs: new Set(), resolve: () => undefined };
    this.namesOf(filePath, waiter);
    return this.wait(waiter.needs, waiter);
  }

  private wait(needs: Set<string>, waiter: Waiter = { needs, resolve: () => undefined }): Promise<void> {
    if (!needs.size) return Promise.resolve();
    const ready = new Promise<void>((resolve) => (waiter.resolve = resolve));
    this.waiters.push(waiter);
    return ready;
  }

  /** Resolves when the whole workspace is indexed (or the index was cancelled). */
  whenAllDone(): Promise<void> {
    return this.allDone;
  }

  /**
   * A disk change or an editor opening the file: the index must not later load the text it read
   * before. The caller loads the fresh text itself.
   */
  forget(filePath: string): void {
    this.generations.set(filePath, (this.generations.get(filePath) ?? 0) + 1);
    this.unread.delete(filePath);
    if (this.pending.delete(filePath)) this.settle(filePath);
  }

  cancel(): void {
    this.cancelled = true;
  }

  private waiterNames = new WeakMap<Waiter, RegExp>();

  private namesOf(filePath: string, waiter: Waiter): void {
    const schema = this.host.project.hasFile(filePath) ? this.host.project.fileSchema(filePath) : undefined;
    const names = new Set<string>([...(schema?.referencedNames ?? []), ...(schema?.definedNames ?? [])]);
    if (!names.size) return;
    // Unquoted names are case-insensitive in CQL; a quoted one matched case-insensitively only widens the set.
    const pattern = new RegExp([...names].map((n) => n.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|'), 'i');
    this.waiterNames.set(waiter, pattern);
    this.fillNeeds(waiter);
  }

  private fillNeeds(waiter: Waiter): void {
    const pattern = this.waiterNames.get(waiter);
    if (!pattern) return;
    for (const [file, text] of this.pending) if (pattern.test(text)) waiter.needs.add(file);
  }

  private async parseAll(): Promise<void> {
    let sliceStart = performance.now();
    while (this.pending.size && !this.cancelled) {
      const file = this.next();
      const text = this.pending.get(file)!;
      this.pending.delete(file);
      if (!this.host.isOpen(file) && this.host.inWorkspace(file) && !this.host.project.hasFile(file)) {
        this.host.project.setFile(file, text);
        if (this.host.project.embedded(file)?.statements.length === 0) {
          // Application code with no CQL (most of a program's files) is not kept.
          this.host.project.removeFile(file);
        } else {
          this.host.project.fileSchema(file); // parse now, in this slice, not in the first request after
          // A file that is not open keeps its schema and references, not its tree: memory grows with the
          // schema, not the text. Whatever needs the tree later parses it again.
          this.host.project.release(file);
          heapKeeper().settle();
          this.host.loaded(file);
        }
      }
      this.parsed++;
      this.settle(file);
      if (performance.now() - sliceStart > SLICE_MS) {
        this.host.progress({ done: this.parsed, total: this.total });
        await nextTick();
        sliceStart = performance.now();
      }
    }
  }

  /** A file a waiting document needs comes first; else the next in listing order. */
  private next(): string {
    for (const waiter of this.waiters) {
      for (const file of waiter.needs) if (this.pending.has(file)) return file;
    }
    return this.pending.keys().next().value as string;
  }

  private settle(file: string): void {
    for (let i = this.waiters.length - 1; i >= 0; i--) {
      const waiter = this.waiters[i]!;
      waiter.needs.delete(file);
      if (!waiter.needs.size) {
        this.waiters.splice(i, 1);
        waiter.resolve();
      }
    }
  }

  private finish(): void {
    if (this.finished) return;
    this.finished = true;
    this.pending.clear();
    this.resolveReadsDone();
    for (const waiter of this.waiters.splice(0)) waiter.resolve();
    this.host.progress({ done: this.total, total: this.total });
    this.resolveAllDone();
  }
}
