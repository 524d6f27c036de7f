// The workspace's reference index (see schema/references.ts): every file's statements that read or write a
// table, by table name, and referencesTo(), which resolves them to the definitions they mean. Kept up to date
// file by file: the Project marks a file stale when its text changes and the index rereads only its entries.
import type { SchemaModel, TableDefinition, TableInfo } from '../schema/model';
import { allSameShape } from '../schema/resolve';
import type { TableReference } from '../schema/references';
import type { ReferenceDependency } from './statement-keys';
import { RecentCache } from '../util/recent-cache';
import { commonEnds } from '../util/lists';

/** referencesTo() order: by file, then position (the order resolveReferencesOf reads them in). */
function referenceOrder(a: TableReference, b: TableReference): number {
  return a.file < b.file ? -1 : a.file > b.file ? 1 : a.range.start - b.range.start;
}

/** The references to one table name, resolved to their definitions, for one model and name version. */
interface ResolvedReferences {
  model: SchemaModel;
  version: number;
  /** References that resolve to one defining statement. */
  direct: Map<TableDefinition, TableReference[]>;
  /** References whose candidates are copies of one shape: they belong to every candidate's statement. */
  copies: { candidates: readonly TableInfo[]; references: TableReference[] }[];
  /**
   * The answer for a definition nothing refers to. One per resolution, as every answer: caches keyed by the
   * answer (the workload of a table) then meet a new one with a new model, whose merge may have completed a
   * view's columns in place.
   */
  none: readonly TableReference[];
  /** The `copies` classes each defining statement is a candidate of, made on the first referencesTo() of the name. */
  classesOf?: Map<TableDefinition, ResolvedReferences['copies']>;
}

/**
 * How many merged referencesTo() answers are kept (see referencesTo). A lint asks for a table's references
 * several times within one file (each partition rule, the workload they share), and an edited file's
 * findings are checked against the name's version before its answers are asked again; the bound is above
 * the tables of one large file.
 */
const MERGED_ANSWERS_KEPT = 256;

/**
 * Two lists in referencesTo() order, as a stable sort of their concatenation gives it: merged when each is
 * in order already (they are built file by file, position by position), sorted otherwise. Every copy of a
 * definition with references of its own besides its copy class gets such a list: a sort per copy was
 * several per cent of a lint on 2,000 files.
 */
function mergeInOrder(first: readonly TableReference[], second: readonly TableReference[]): TableReference[] {
  if (!inOrder(first) || !inOrder(second)) return [...first, ...second].sort(referenceOrder);
  const merged: TableReference[] = [];
  let i = 0;
  let j = 0;
  // Ties go to the first list, as in the stable sort.
  while (i < first.length && j < second.length)
    merged.push(referenceOrder(second[j]!, first[i]!) < 0 ? second[j++]! : first[i++]!);
  while (i < first.length) merged.push(first[i++]!);
  while (j < second.length) merged.push(second[j++]!);
  return merged;
}

function inOrder(list: readonly TableReference[]): boolean {
  for (let i = 1; i < list.length; i++) if (referenceOrder(list[i - 1]!, list[i]!) > 0) return false;
  return true;
}

/** What the index asks of the Project. */
export interface ReferenceIndexHost {
  /** A file's table references (none when the Project no longer holds it). */
  fileReferences(filePath: string): readonly TableReference[];
  /** The merged workspace schema. */
  schema(): SchemaModel;
  /** Resolution candidates of a table name in a file at an offset, best first. */
  resolveParts(filePath: string, keyspace: string | undefined, table: string, atOffset: number): readonly TableInfo[];
}

export class ReferenceIndex {
  /** Table name (without keyspace) -> file -> that file's references to the name. */
  private readonly byName = new Map<string, Map<string, TableReference[]>>();
  /** Each file's references as they are in byName. */
  private readonly indexed = new Map<string, readonly TableReference[]>();
  /** Files whose references changed since the index was last brought up to date. */
  private readonly stale = new Set<string>();
  /** Bumped for a name whenever a file's references to it are replaced. */
  private readonly versions = new Map<string, number>();
  /** The resolved references of each table name asked about, valid for one model and name version. */
  private readonly resolved = new Map<string, ResolvedReferences>();
  /**
   * Answers made for one definition out of several lists (its own references and its copy classes'), with
   * the resolution they came from. Bounded: a workspace of migrations defines a table in hundreds of files
   * and queries it from hundreds more, and each copy's merged list kept was 14 MiB of the 2,000-file
   * workspace once every file had been linted, although only the tables being linted ask again.
   */
  private readonly merged = new RecentCache<
    TableDefinition,
    { resolved: ResolvedReferences; references: readonly TableReference[] }
  >(MERGED_ANSWERS_KEPT);

  constructor(private readonly host: ReferenceIndexHost) {}

  /** A file's references changed (or it was added or removed): its entries are read again on the next lookup. */
  markStale(filePath: string): void {
    this.stale.add(filePath);
  }

  /**
   * The statements of the workspace that read or write `table` (SELECT, INSERT, UPDATE, DELETE, batch
   * members included): those whose name resolves, where they stand, to a definition made by the same
   * CREATE statement (its ALTERed states included): to tableFor's answer, or to any of the candidates
   * when the workspace holds several definitions of the same shape. Ordered by file, then position.
   * Reads only the references of the table's name.
   */
  referencesTo(table: TableInfo): readonly TableReference[] {
    this.sync();
    const model = this.host.schema();
    const version = this.versions.get(table.name) ?? 0;
    let resolved = this.resolved.get(table.name);
    if (!resolved || resolved.model !== model || resolved.version !== version) {
      resolved = this.resolveReferencesOf(table.name, model, version);
      this.resolved.set(table.name, resolved);
    }
    const direct = resolved.direct.get(table.definition);
    // The classes by definition, in one pass over the lists (a Set per list was 7 MiB on the 2,000-file
    // bench; a scan of every list per definition, quadratic there).
    const classes = (resolved.classesOf ??= classesByDefinition(resolved.copies)).get(table.definition) ?? [];
    // One list is the answer as it is, the same array while the resolution stands. The common case in a
    // workspace of migrations: every copy of a definition gets the same references, and they share one
    // array (one per copy would be quadratic in memory).
    if (!classes.length) return direct ?? resolved.none;
    if (!direct && classes.length === 1) return classes[0]!.references;
    const kept = this.merged.get(table.definition);
    if (kept?.resolved === resolved) return kept.references;
    const parts = [direct ?? [], ...classes.map((c) => c.references)];
    const references = parts.length === 2 ? mergeInOrder(parts[0]!, parts[1]!) : parts.flat().sort(referenceOrder);
    this.merged.set(table.definition, { resolved, references });
    return references;
  }

  /**
   * Resolves every reference to a table name once (not once per definition: a workspace of migrations
   * defines the same table in hundreds of files). A reference with one candidate, or with differing
   * candidates (the first wins, as tableFor), goes to one defining statement; one whose candidates are
   * copies of one shape goes to all of them, kept once per candidate list.
   */
  private resolveReferencesOf(name: string, model: SchemaModel, version: number): ResolvedReferences {
    const resolved: ResolvedReferences = { model, version, direct: new Map(), copies: [], none: [] };
    const byList = new Map<readonly TableInfo[], ResolvedReferences['copies'][number] | null>();
    const byFile = this.byName.get(name);
    for (const file of [...(byFile?.keys() ?? [])].sort()) {
      for (const entry of byFile!.get(file)!) {
        const candidates = this.host.resolveParts(file, entry.keyspace, entry.name, entry.range.start);
        const first = candidates[0];
        if (!first) continue;
        let copies = candidates.length > 1 ? byList.get(candidates) : null;
        if (copies === undefined) {
          copies = allSameShape(candidates) ? { candidates, references: [] } : null;
          byList.set(candidates, copies);
          if (copies) resolved.copies.push(copies);
        }
        if (copies) copies.references.push(entry);
        else {
          const list = resolved.direct.get(first.definition);
          if (list) list.push(entry);
          else resolved.direct.set(first.definition, [entry]);
        }
      }
    }
    return resolved;
  }

  /**
   * Lets go of every name's resolved references (referencesTo resolves a name again when asked): for a
   * process that has linted the whole workspace and now lints only what changes (see Project.forgetLookups).
   */
  forgetResolutions(): void {
    this.resolved.clear();
    this.merged.clear();
  }

  /** Replaces the index entries of the files changed since the last lookup (and only theirs). */
  private sync(): void {
    if (!this.stale.size) return;
    for (const file of this.stale) {
      const was = this.indexed.get(file) ?? [];
      const current = this.host.fileReferences(file);
      if (current.length) this.indexed.set(file, current);
      else this.indexed.delete(file);
      // The incremental parse keeps the statements an edit did not touch, and buildFileReferences their
      // reference objects, whose ranges move in place with the statements: the same objects in the same
      // order are the same answer (findings that copied their ranges move with them). Only the names of
      // the entries between the common head and tail (by identity) can have changed: an edit touches
      // those, not every table the file reads.
      const { head, tail } = commonEnds(was, current);
      const names = new Set<string>();
      for (let i = head; i < was.length - tail; i++) names.add(was[i]!.name);
      for (let i = head; i < current.length - tail; i++) names.add(current[i]!.name);
      if (!names.size) continue;
      const lists = new Map<string, TableReference[]>();
      for (const entry of current) {
        if (!names.has(entry.name)) continue;
        const list = lists.get(entry.name);
        if (list) list.push(entry);
        else lists.set(entry.name, [entry]);
      }
      for (const name of names) {
        let byFile = this.byName.get(name);
        const before = byFile?.get(file) ?? [];
        const now = lists.get(name) ?? [];
        if (now.length === before.length && now.every((e, i) => e === before[i])) continue;
        if (now.length) {
          if (!byFile) this.byName.set(name, (byFile = new Map()));
          byFile.set(file, now.slice());
        } else if (byFile) {
          byFile.delete(file);
          if (!byFile.size) this.byName.delete(name);
        }
        this.versions.set(name, (this.versions.get(name) ?? 0) + 1);
      }
    }
    this.stale.clear();
  }

  /** A referencesTo() answer, with what it was given under (for referencesUnchanged). */
  referenceDependency(table: TableInfo): ReferenceDependency {
    const references = this.referencesTo(table);
    return { table, references, model: this.host.schema(), version: this.versions.get(table.name) ?? 0 };
  }

  /** True when every recorded referencesTo() answer is still the same. */
  referencesUnchanged(dependencies: readonly ReferenceDependency[]): boolean {
    if (!dependencies.length) return true;
    this.sync();
    const model = this.host.schema();
    return dependencies.every((d) => {
      if (d.model === model && d.version === (this.versions.get(d.table.name) ?? 0)) return true;
      const now = this.referencesTo(d.table);
      // The incremental parse keeps the statements an edit did not touch, and buildFileReferences their
      // reference objects, whose ranges move in place with the statements (so do findings that copied
      // them): the same objects in the same order are the same answer, wherever they now stand.
      return now === d.references || (now.length === d.references.length && now.every((r, i) => r === d.references[i]));
    });
  }
}

/** The copy classes each definition is a candidate of, in class order. */
function classesByDefinition(copies: ResolvedReferences['copies']): Map<TableDefinition, ResolvedReferences['copies']> {
  const out = new Map<TableDefinition, ResolvedReferences['copies']>();
  for (const copy of copies) {
    for (const candidate of copy.candidates) {
      const list = out.get(candidate.definition);
      if (!list) out.set(candidate.definition, [copy]);
      else if (list[list.length - 1] !== copy) list.push(copy);
    }
  }
  return out;
}
