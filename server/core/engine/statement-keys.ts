// Statement keys for the rule runner's statement cache (see RuleRunner): what a statement-scoped rule's
// findings on one statement depend on besides the statement's own text, as a string of small interned ids
// (fingerprints of the tables it resolves to, the indexes on them, the user types, the keyspace in effect).
import { createHash } from 'node:crypto';
import { isSourceRange, type QualifiedName, type Statement } from '../../../grammar/ast';
import { keyspaceAt, type FileSchema } from '../schema/build';
import type { IndexInfo, SchemaModel, TableInfo } from '../schema/model';
import type { TableReference } from '../schema/references';
import { countBefore } from '../util/lists';

/** A referencesTo() answer a rule run depended on, to tell whether the answer has changed since. */
export interface ReferenceDependency {
  table: TableInfo;
  references: readonly TableReference[];
  /** The model and the name's version the answer was given under: while both hold, it stands. */
  model: SchemaModel;
  version: number;
}

/** What a statement-scoped rule run may look up, from the statement's key; any other lookup makes it uncacheable. */
export interface StatementScope {
  statement: Statement;
  /** The statement's start (set on each use: a kept scope serves a statement the edit moved). */
  start: number;
  /**
   * Table names looked up, with the offsets the key resolved them at, relative to the statement's start,
   * and the answers (the rules' lookups reuse them).
   */
  lookups: Map<QualifiedName, { offset: number; candidates: readonly TableInfo[] }[]>;
  /** Table names whose indexes the key covers. */
  names: ReadonlySet<string>;
  /**
   * The statement's end, when the key also covers the indexes in effect there (indexesAt): a CREATE INDEX (the
   * index guardrail counts the indexes with the new one) that no statement follows at once. The CREATE and DROP
   * INDEX events between its start and its end are then its own, which its text decides; one that a statement
   * follows with no space between (`...;DROP INDEX ...`) meets that statement's drop at its end: not covered.
   */
  end?: number;
  defined?: TableInfo;
  latest?: TableInfo;
  /**
   * A CREATE TABLE/VIEW's answer to definitionsOf(latest): the workspace's definitions of its name in its keyspace
   * (conflicting-definition compares their keys). The key covers them, so reading them binds no result to the model.
   */
  definitions?: readonly TableInfo[];
  /** Schema statements see user types (sizing); the key covers them. */
  types: boolean;
  cacheable: boolean;
  /**
   * The run read the workspace's definitions (definitionsOf, workspaceDefinitions, migration), which no key
   * covers: its result stands while the model is the same object (see RuleRunner's StatementResult.model).
   */
  modelBound: boolean;
  /** referencesTo() answers read (checked again before the result is reused); allocated on the first. */
  references?: ReferenceDependency[];
}

/** Whether each statement kind is a schema statement, found once per kind (asked of every statement on every edit). */
const schemaKinds = new Map<string, boolean>();

export const isSchemaStatement = (stmt: Statement): boolean => {
  const kind = stmt.kind;
  let schema = schemaKinds.get(kind);
  if (schema === undefined) {
    schema = kind === 'Use' || /^(Create|Alter|Drop)/.test(kind);
    schemaKinds.set(kind, schema);
  }
  return schema;
};

/** JSON without source positions (SourceRange objects). */
export function withoutRanges(value: unknown): string {
  return JSON.stringify(value, (_k, v: unknown) => (isSourceRange(v) ? undefined : v)) ?? '';
}

/** Table names a statement (or the statements of a batch) refers to, with the offset each is resolved at. */
function tableLookups(
  stmt: Statement,
  out: { name: QualifiedName; at: number }[] = [],
): { name: QualifiedName; at: number }[] {
  const at = stmt.range.start;
  switch (stmt.kind) {
    case 'Select':
      out.push({ name: stmt.from, at });
      break;
    case 'Insert':
    case 'Update':
    case 'Delete':
      out.push({ name: stmt.table, at });
      break;
    case 'CreateIndex':
      out.push({ name: stmt.table, at });
      break;
    case 'CreateMaterializedView':
      out.push({ name: stmt.from, at });
      break;
    case 'AlterTable':
      out.push({ name: stmt.name, at });
      break;
    case 'Truncate':
      out.push({ name: stmt.name, at });
      break;
    case 'CreateTable':
      if (stmt.like) out.push({ name: stmt.like, at });
      break;
    case 'Batch':
      for (const inner of stmt.statements) tableLookups(inner, out);
      break;
    default:
      break;
  }
  return out;
}

/** Interned strings and object ids for statement keys; cleared when it grows large (caches then miss once). */
const MAX_INTERNED = 200_000;
/** Fingerprints longer than this are interned by their SHA-256 digest. */
const MAX_INTERNED_TEXT = 128;

/** Resolution candidates of a table name at an offset, best first (the Project's answer). */
export type ResolveTable = (filePath: string, name: QualifiedName, atOffset: number) => readonly TableInfo[];

/** A statement's key and scope (StatementKeys.statementScope); `kept` when made for a file open in an editor. */
export interface KeyedScope {
  key: string;
  scope: StatementScope;
  /** What the kept key was made under: it holds while keptScopeHolds says so. */
  kept?: { fs: FileSchema; model: SchemaModel; schemaBefore: number };
}

/**
 * Whether a kept key still holds for its statement: the file schema and the model are the same objects, as
 * many of the file's schema statements precede it, and its key covers its end as before (see statementScope).
 * The rule runner asks it of the scope it kept with a result, without looking the statement up.
 */
export function keptScopeHolds(
  made: KeyedScope,
  fs: FileSchema,
  model: SchemaModel,
  schemaBefore: number,
  endIsCovered: boolean,
): boolean {
  const kept = made.kept;
  return (
    kept !== undefined &&
    kept.fs === fs &&
    kept.model === model &&
    kept.schemaBefore === schemaBefore &&
    (made.scope.end !== undefined) === endIsCovered
  );
}

/** Makes statement keys; its interned fingerprints and object ids live as long as it does. */
export class StatementKeys {
  private objectIds = new WeakMap<object, number>();
  private nextObjectId = 1;
  private interned = new Map<string, number>();
  /** Table fingerprint ids, valid for one model (merging completes views in place). */
  private tableIds = new WeakMap<TableInfo, number>();
  /** Fingerprints of resolution answers (lists of candidates), valid with tableIds. */
  private candidateKeys = new WeakMap<readonly TableInfo[], string>();
  private tableIdsModel?: SchemaModel;
  private indexIds = new Map<string, number>();
  private typesId?: number;
  /**
   * Scopes kept for the statements of files open in an editor, with the file schema and model they were
   * made under: see statementScope.
   */
  private scopes = new WeakMap<Statement, KeyedScope>();

  /**
   * What the statement-scoped rules' findings on `stmt` depend on besides the statement's own text (the
   * statement object itself stands for its text: the parser reuses it only for identical text):
   * the keyspace in effect (USE), every table name it uses as resolved at its position (fingerprints of
   * all candidates), for a CREATE TABLE/VIEW the table it builds and its last ALTERed state, the indexes
   * on those names, and (schema statements) the user types. Fingerprints include the identity of the AST
   * nodes that findings point at (definitions' names and columns), so related locations stay right.
   *
   * With `schemaBefore` (a file open in an editor, whose statements are linted again on every edit: how many
   * of its schema statements stand before `stmt`) the scope is kept, and serves again while the file schema
   * and the model are the same objects and the statement still stands after as many schema statements.
   * The file's schema statements are then the same ones in the same order (Project.fileSchema reuses its
   * schema only then, moving its offsets with them), every other file's too, and the same ones precede the
   * statement: the key reads nothing else of where it stands (a moved statement's ranges move in place).
   */
  statementScope(
    filePath: string,
    fs: FileSchema,
    model: SchemaModel,
    stmt: Statement,
    indexEvents: IndexEvents,
    resolveTable: ResolveTable,
    following: number | undefined,
    schemaBefore?: number,
  ): KeyedScope {
    const start = stmt.range.start;
    const end = endCovered(stmt, following);
    const kept = schemaBefore !== undefined ? this.scopes.get(stmt) : undefined;
    if (kept && keptScopeHolds(kept, fs, model, schemaBefore!, end !== undefined)) {
      kept.scope.start = start;
      kept.scope.end = end;
      return kept;
    }
    const names = new Set<string>();
    const scope: StatementScope = {
      statement: stmt,
      start,
      lookups: new Map(),
      names,
      end,
      types: false,
      cacheable: true,
      modelBound: false,
    };
    let key = keyspaceAt(fs, start) ?? '';
    if (end !== undefined) key += '|e';
    for (const { name, at } of tableLookups(stmt)) {
      const candidates = resolveTable(filePath, name, at);
      const list = scope.lookups.get(name);
      if (list) list.push({ offset: at - start, candidates });
      else scope.lookups.set(name, [{ offset: at - start, candidates }]);
      names.add(name.name.name);
      key += `|${this.candidatesKey(candidates)}@${at - start}`;
    }
    if (stmt.kind === 'CreateTable' || stmt.kind === 'CreateMaterializedView') {
      const defined = fs.byStatement.get(stmt);
      if (defined) {
        scope.defined = defined;
        scope.latest = latestVersion(fs, defined);
        names.add(defined.name);
        key += `|d${this.tableId(defined)}:${this.tableId(scope.latest)}`;
        scope.definitions = model.candidates(scope.latest.keyspace, scope.latest.name);
        key += `|c${this.candidatesKey(scope.definitions)}`;
      }
    }
    if (isSchemaStatement(stmt)) {
      scope.types = true;
      key += `|t${this.typesFingerprint(model)}`;
    }
    for (const name of scope.names) key += `|i${this.indexFingerprint(model, name)}:${indexEvents.before(name, start)}`;
    if (schemaBefore === undefined) return { key, scope };
    const made: KeyedScope = { key, scope, kept: { fs, model, schemaBefore } };
    this.scopes.set(stmt, made);
    return made;
  }

  objectId(value: object | undefined): number {
    if (!value) return 0;
    let id = this.objectIds.get(value);
    if (id === undefined) {
      id = this.nextObjectId++;
      this.objectIds.set(value, id);
    }
    return id;
  }

  private intern(text: string): number {
    // A long fingerprint (all indexes on a name, hundreds of table copies) is kept by its digest: on the
    // 2,000-file workspace bench the texts themselves held about 25 MiB of the server's heap.
    const key = text.length > MAX_INTERNED_TEXT ? `#${createHash('sha256').update(text).digest('base64')}` : text;
    let id = this.interned.get(key);
    if (id === undefined) {
      id = this.interned.size + 1;
      this.interned.set(key, id);
    }
    return id;
  }

  /** Whether the interned fingerprints have grown past their bound: reset() them (and drop what was keyed by them). */
  full(): boolean {
    return this.interned.size > MAX_INTERNED;
  }

  /** Forgets interned fingerprints (memory bound); every key made so far is made anew. */
  reset(): void {
    this.interned.clear();
    this.forgetModelIds();
  }

  /** Keys are about to be made under `model`: the fingerprints made from another model are forgotten. */
  useModel(model: SchemaModel): void {
    if (this.tableIdsModel === model) return;
    this.forgetModelIds();
    this.tableIdsModel = model;
  }

  /** Forgets the fingerprints made from one model (tables, candidate lists, indexes, user types). */
  private forgetModelIds(): void {
    this.tableIds = new WeakMap();
    this.candidateKeys = new WeakMap();
    this.indexIds.clear();
    this.typesId = undefined;
    // Their keys hold the ids just forgotten.
    this.scopes = new WeakMap();
  }

  /** A small id for a table's shape, where it is defined, and the AST nodes its locations are. */
  private tableId(table: TableInfo): number {
    let id = this.tableIds.get(table);
    if (id !== undefined) return id;
    const o = (x: object | undefined): number => this.objectId(x);
    const columns = table.columns
      .map(
        (c) =>
          `${c.name}:${c.typeText}:${c.type?.kind ?? ''}:${o(c.type)}:${c.role}:${c.keyPosition}:${c.order ?? ''}:${o(c.range)}`,
      )
      .join(';');
    const options = [...table.options].map(([k, v]) => `${k}=${o(v)}`).join(';');
    const shard =
      (table.shard ? withoutRanges(table.shard) : '') + (table.commentHints ? JSON.stringify(table.commentHints) : '');
    id = this.intern(
      [
        table.kind,
        table.keyspace ?? '',
        table.name,
        table.qualifiedName,
        table.filePath,
        o(table.definition),
        o(table.range),
        o(table.nameRange),
        table.defaultTtlSeconds ?? '',
        table.baseTable ?? '',
        String(table.baseResolved),
        String(table.counter),
        table.partitionKey.map((c) => c.name).join(','),
        table.clustering.map((c) => c.name).join(','),
        columns,
        options,
        shard,
      ].join('\u0001'),
    );
    this.tableIds.set(table, id);
    return id;
  }

  /**
   * The fingerprint of a resolution answer. The model answers the same array for the same question, and
   * in a workspace of migrations that array holds hundreds of copies of a table: its key is made once.
   */
  private candidatesKey(candidates: readonly TableInfo[]): string {
    let key = this.candidateKeys.get(candidates);
    if (key === undefined) {
      key = '';
      for (const t of candidates) key += `${this.tableId(t)},`;
      // Hundreds of ids would make every statement's key that long: a long list goes by one id.
      if (candidates.length > 8) key = `#${this.intern(key)}`;
      this.candidateKeys.set(candidates, key);
    }
    return key;
  }

  /**
   * Every CREATE INDEX on a table name in the workspace, in file order, and for each one a DROP INDEX (or
   * DROP TABLE) removed, where the drop stands among its file's CREATE and DROP events on the name: which
   * indexes are live (indexesOn, and indexesAt from another file) and, with the count of the querying file's
   * own events before a statement (IndexEvents), which of its own are in effect there. Offsets are left
   * out: they move with every keystroke.
   */
  private indexFingerprint(model: SchemaModel, name: string): number {
    let id = this.indexIds.get(name);
    if (id === undefined) {
      const list = model.indexesByTable.get(name) ?? [];
      let text = 'idx';
      // Each file's CREATE and DROP INDEX offsets on the name, sorted (as IndexEvents counts them), when one drops.
      const events = new Map<string, number[]>();
      for (const i of list) {
        text += '\u0001' + withoutRanges({ ...i, range: undefined, droppedBy: undefined });
        // Dropped by a later file of its migration folder (schema/history.ts): which file.
        const across = model.indexDrops.get(i);
        if (across) text += `\u0003droppedIn:${across.filePath}`;
        if (!i.droppedBy) continue;
        let sorted = events.get(i.filePath);
        if (!sorted) events.set(i.filePath, (sorted = indexEventOffsets(model.fileIndexesOn(name, i.filePath))));
        text += `\u0002dropped@${countBelow(sorted, i.droppedBy.start)}`;
      }
      id = this.intern(text);
      this.indexIds.set(name, id);
    }
    return id;
  }

  private typesFingerprint(model: SchemaModel): number {
    if (this.typesId === undefined) {
      this.typesId = this.intern('types\u0001' + model.typesSignature());
    }
    return this.typesId;
  }
}

/** The statement's end when its key is to cover the indexes in effect there (see StatementScope.end). */
export function endCovered(stmt: Statement, following: number | undefined): number | undefined {
  return stmt.kind === 'CreateIndex' && following !== stmt.range.end ? stmt.range.end : undefined;
}

/** The offsets of the CREATE and DROP INDEX statements of `indexes` (one file's), sorted. */
function indexEventOffsets(indexes: readonly IndexInfo[]): number[] {
  const sorted: number[] = [];
  for (const i of indexes) {
    sorted.push(i.range.start);
    if (i.droppedBy) sorted.push(i.droppedBy.start);
  }
  return sorted.sort((a, b) => a - b);
}

/** How many of the sorted offsets are below `offset` (a binary search). */
function countBelow(sorted: readonly number[], offset: number): number {
  return countBefore(sorted, offset, itself);
}

const itself = (n: number): number => n;

/**
 * How many of a file's CREATE and DROP INDEX on a name precede an offset (which indexes are in effect there):
 * their offsets sorted once per run (a file that creates the same index hundreds of times asks for every statement).
 */
export class IndexEvents {
  private readonly offsets = new Map<string, number[]>();

  constructor(
    private readonly model: SchemaModel,
    private readonly filePath: string,
  ) {}

  before(name: string, offset: number): number {
    let sorted = this.offsets.get(name);
    if (!sorted) this.offsets.set(name, (sorted = indexEventOffsets(this.model.fileIndexesOn(name, this.filePath))));
    return countBelow(sorted, offset);
  }
}

/** The last version of a table this file defines (following its ALTERs up to a DROP or re-CREATE). */
export function latestVersion(fs: FileSchema, table: TableInfo): TableInfo {
  const list = fs.versions.get(table.name);
  if (!list) return table;
  const start = list.findIndex((v) => v.table === table);
  if (start < 0) return table;
  let out = table;
  for (let i = start + 1; i < list.length; i++) {
    const v = list[i]!;
    if (!v.table || v.table.definition !== table.definition) break;
    out = v.table;
  }
  return out;
}
