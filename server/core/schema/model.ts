// The schema cqlint knows about: keyspaces, tables, views, user types and indexes built from the CQL
// files of a workspace. Pure data plus lookups; see build.ts for how statements become this model.
import type {
  CqlType,
  SourceRange,
  CreateTableStatement,
  CreateMaterializedViewStatement,
  Expression,
} from '../../../grammar/ast';
import type { ShardSpec } from '../token/shard';
import { internName } from '../util/names';
import { addTo } from '../util/lists';
import { RecentCache, WeakRecentCache } from '../util/recent-cache';
import type { TableHints } from '../vocabulary/config';
import { resolveVersions, type Mention } from './versions';
import type { MigrationFolder } from './migrations';

type ColumnRole = 'partition' | 'clustering' | 'static' | 'regular';

export interface ColumnInfo {
  /** Name as Cassandra sees it (unquoted names folded to lower case). */
  name: string;
  /** The declared type; absent for view columns whose base table is unknown. */
  type?: CqlType;
  /** The type as CQL text: `timestamp`, `frozen<list<text>>`, `?` when unknown. */
  typeText: string;
  role: ColumnRole;
  /** Index within the partition key or clustering columns (0-based); -1 for static and regular columns. */
  keyPosition: number;
  /** Clustering order (clustering columns only). */
  order?: 'ASC' | 'DESC';
  /** Range of the column's name where it was defined (or of the view/ALTER that added it). */
  range: SourceRange;
  /** The file `range` is in when it is not the table's: an ALTER TABLE in another file added the column. */
  filePath?: string;
}

export interface TableInfo {
  kind: 'table' | 'view';
  /** Keyspace as written or from USE; undefined when neither says. */
  keyspace?: string;
  name: string;
  /** `ks.name`, or `name` when the keyspace is unknown. */
  qualifiedName: string;
  /** Columns in definition order (columnNamed finds one by name). */
  columns: ColumnInfo[];
  partitionKey: ColumnInfo[];
  clustering: ColumnInfo[];
  /** Table options by lower-case name (`default_time_to_live`, `compaction`, ...). */
  options: Map<string, Expression>;
  /** `default_time_to_live` in seconds when set to a positive number. */
  defaultTtlSeconds?: number;
  /** Where it was defined. */
  filePath: string;
  /** The CREATE statement it comes from: one object for all its versions, the identity definitions are keyed by. */
  definition: TableDefinition;
  /** Range of the defining statement and of its name. */
  range: SourceRange;
  nameRange: SourceRange;
  /** For views: the base table (`ks.name` or `name`) and whether it was found. */
  baseTable?: string;
  baseResolved?: boolean;
  /** A `-- @shard` comment directly above the CREATE TABLE, as server/core/token/shard.ts parses it. */
  shard?: ShardSpec;
  /** A counter table (every regular column is a counter). */
  counter: boolean;
  /** Workload hints from `-- @cqlint` comments directly above the CREATE TABLE (schema/hint-comments.ts). */
  commentHints?: TableHints;
}

/**
 * A CREATE TABLE or CREATE MATERIALIZED VIEW as the schema keeps it. `statement` is the tree the table
 * was built from, until its file is released (compactFileSchema; a later parse does not bring it back),
 * except for a view still waiting for its base in another file, which the merge rebuilds from it. Read a
 * statement's parts from the file's parse (FileSchema.byStatement maps its statements to tables).
 */
export interface TableDefinition {
  statement?: CreateTableStatement | CreateMaterializedViewStatement;
}

/**
 * The definition a CREATE statement makes: the same object for the same statement, whichever build of its
 * file schema asks. The incremental parse hands back an unchanged statement as the same object, so after an
 * edit of one table the file's other tables keep their definitions, and with them the statement keys that
 * fingerprint them (a new one per build made every statement of the file run its rules again). Weak: a
 * statement let go takes its definition with it.
 */
export function definitionOf(statement: CreateTableStatement | CreateMaterializedViewStatement): TableDefinition {
  let definition = definitions.get(statement);
  if (!definition) definitions.set(statement, (definition = { statement }));
  return definition;
}

const definitions = new WeakMap<CreateTableStatement | CreateMaterializedViewStatement, TableDefinition>();

export interface KeyspaceInfo {
  name: string;
  /** Replication class without the package (`SimpleStrategy`, `NetworkTopologyStrategy`). */
  replicationClass?: string;
  /** The replication map as strings (`{ class: ..., dc1: '3' }`). */
  replication: Record<string, string>;
  durableWrites?: boolean;
  filePath: string;
  range: SourceRange;
}

export interface UserTypeInfo {
  keyspace?: string;
  name: string;
  qualifiedName: string;
  fields: { name: string; type: CqlType; typeText: string }[];
  filePath: string;
  range: SourceRange;
}

/** One state of a table inside a file: created or altered at `offset`, or dropped (`table` undefined). */
export interface TableVersion {
  offset: number;
  keyspace?: string;
  name: string;
  table?: TableInfo;
}

/**
 * A file of a migration folder as the folder's history sees it (schema/history.ts): the files before it have
 * been applied, so its statements meet the tables as those left them.
 */
export interface MigrationStep {
  folder: MigrationFolder;
  /** Its place in `folder.files`. */
  index: number;
  /**
   * Every table name's versions here: the state the files before it left (at offset -1), then this file's
   * changes, its ALTERs and DROPs of those tables included. Resolution reads these instead of the file's own.
   */
  versions: ReadonlyMap<string, readonly TableVersion[]>;
  /** The last definition of each table (by `keyspace\0name`) before this file, dropped ones included. */
  seenBefore: ReadonlyMap<string, TableInfo>;
  /** The columns an ALTER ... DROP removed from a table before this file, by its definition, then name. */
  droppedBefore: ReadonlyMap<TableDefinition, ReadonlyMap<string, ColumnInfo>>;
}

/** One state of a user type inside a file: created or altered at `offset`, or dropped (`type` undefined). */
export interface TypeVersion {
  offset: number;
  keyspace?: string;
  name: string;
  type?: UserTypeInfo;
}

export interface IndexInfo {
  name?: string;
  keyspace?: string;
  /** The indexed table's name (without keyspace). */
  table: string;
  column: string;
  indexKind: 'simple' | 'keys' | 'values' | 'entries' | 'full';
  /** `USING '...'` class, when given. */
  using?: string;
  /** Storage-attached index (SAI): `USING 'sai'` or `StorageAttachedIndex`. */
  sai: boolean;
  /** A CUSTOM index that is not SAI (SASI or a plug-in). */
  custom: boolean;
  /** `WITH OPTIONS = {...}` as strings, keys lower-cased (SASI's `mode`, analyzers). */
  options?: Record<string, string>;
  filePath: string;
  /** The CREATE INDEX statement. */
  range: SourceRange;
  /** The DROP INDEX (or DROP TABLE of its table) later in the same file that removed it; dropped indexes only count before it. */
  droppedBy?: SourceRange;
}

/**
 * A table's column by name. A scan: tables have tens of columns, and a map per table was 10 MiB of a
 * 2,000-file workspace's schema.
 */
export function columnNamed(table: Pick<TableInfo, 'columns'> | undefined, name: string): ColumnInfo | undefined {
  if (!table) return undefined;
  for (const c of table.columns) if (c.name === name) return c;
  return undefined;
}

/** Where a column's type is written (schema/resolve.ts rule 3): its definition, in the table's or an ALTER's file. */
export function columnMention(table: Pick<TableInfo, 'filePath'>, column: ColumnInfo): Mention {
  return { filePath: column.filePath ?? table.filePath, offset: column.range.start };
}

export function hasColumn(table: Pick<TableInfo, 'columns'> | undefined, name: string): boolean {
  return columnNamed(table, name) !== undefined;
}

/** Two definitions describe the same table shape (columns, types, key roles). */
export function sameShape(a: TableInfo, b: TableInfo): boolean {
  if (a === b) return true;
  if (a.columns.length !== b.columns.length) return false;
  return a.columns.every((c) => {
    const o = columnNamed(b, c.name);
    return !!o && o.typeText === c.typeText && o.role === c.role && o.keyPosition === c.keyPosition;
  });
}

/** `ks.name`, or `name` when the keyspace is unknown. */
export function qualify(keyspace: string | undefined, name: string): string {
  return internName(keyspace ? `${keyspace}.${name}` : name);
}

export function isSaiClass(using: string | undefined): boolean {
  if (!using) return false;
  const cls = using.toLowerCase();
  return cls === 'sai' || cls.endsWith('storageattachedindex');
}

/** The CREATE INDEX statements on one table name and keyspace, sorted for the lookups rules make per statement. */
interface IndexHistory {
  /** Every one, dropped ones included, in file order. */
  all: IndexInfo[];
  /** Those no DROP INDEX removed. */
  live: IndexInfo[];
  /** `all` by file, and `live` by file. */
  byFile: Map<string, IndexInfo[]>;
  liveByFile: Map<string, IndexInfo[]>;
}

/**
 * Index histories kept, per generation (see RecentCache): above the tables of any one large file (the
 * 10,000-line bench file's), so that an edited file's tables keep theirs across edits.
 */
const HISTORIES_KEPT = 4096;
/**
 * The history of a table nothing indexes, most tables': one object for all of them (two maps and two arrays
 * for each of the 8,000 asked about were 2.5 MiB of the 2,000-file workspace's). Never changed.
 */
const NO_INDEXES: IndexHistory = { all: [], live: [], byFile: new Map(), liveByFile: new Map() };
const NO_VIEWS: readonly TableInfo[] = [];

function groupByFile(indexes: readonly IndexInfo[]): Map<string, IndexInfo[]> {
  const out = new Map<string, IndexInfo[]>();
  for (const index of indexes) addTo(out, index.filePath, index);
  return out;
}

/** The merged workspace schema. Lookups are by lower-level keys; see Project.tableFor for resolution rules. */
export class SchemaModel {
  readonly keyspaces = new Map<string, KeyspaceInfo>();
  /** Tables and views by name (without keyspace): every definition in the workspace, in file order. */
  readonly tablesByName = new Map<string, TableInfo[]>();
  readonly types = new Map<string, UserTypeInfo[]>();
  /** Every version of every user type by file (files that create, alter or drop none are left out). */
  readonly typeVersionsByFile = new Map<string, ReadonlyMap<string, readonly TypeVersion[]>>();
  /** Per file that has user types, its versions in order, each placed among the file's table statements (mergeSchemas). */
  readonly typeHistories: string[] = [];
  private typesText?: string;
  /** Indexes by table name (without keyspace). */
  readonly indexesByTable = new Map<string, IndexInfo[]>();
  /** The files of migration folders, by path: their place in their folder's history. */
  readonly migrations = new Map<string, MigrationStep>();
  /** Indexes a later file of their migration folder drops (schema/history.ts dropIndexesAcross): the file and statement. */
  readonly indexDrops = new Map<IndexInfo, { filePath: string; range: SourceRange }>();

  /**
   * candidates() answers by table name, then keyspace: the same array for the same question (callers may
   * cache by its identity). Two maps rather than one joined key: every table lookup of a lint asks.
   */
  private readonly candidateLists = new Map<
    string,
    { byKeyspace: Map<string, TableInfo[]>; unqualified: TableInfo[] }
  >();
  /**
   * Index histories by keyspace and table name (a workspace of migrations creates the same index in hundreds of
   * files), for the names asked about lately: the CLI asks for every keyspace's tables once, and kept them all
   * (about 7 MiB on the 2,000-file workspace once every file was linted).
   */
  private readonly indexHistories = new RecentCache<string, IndexHistory>(HISTORIES_KEPT);
  private readonly indexesByKeyspace = new Map<
    string,
    { byKeyspace: Map<string, IndexInfo[]>; unqualified: IndexInfo[] }
  >();
  /** The same, by the table asked about lately (rules ask for the same tables over and over). */
  private readonly tableHistories = new WeakRecentCache<TableInfo, IndexHistory>(HISTORIES_KEPT);
  /** viewsOf's answers: the views by their base's qualified name, listed once when first asked. */
  private viewsByBase: Map<string, TableInfo[]> | undefined;

  /** A table name's versions in a file: its migration history's when it is in a migration folder, else its own. */
  tableVersions(
    file: { filePath: string; versions: ReadonlyMap<string, readonly TableVersion[]> },
    name: string,
  ): readonly TableVersion[] | undefined {
    const step = this.migrations.get(file.filePath);
    return step ? step.versions.get(name) : file.versions.get(name);
  }

  addTable(table: TableInfo): void {
    this.candidateLists.clear();
    this.viewsByBase = undefined;
    addTo(this.tablesByName, table.name, table);
  }

  /**
   * The materialized views whose base is the table (by its qualified name), as allTables lists them: what a change
   * of the table's key must carry along, and what the views-per-table guardrail counts.
   */
  viewsOf(table: TableInfo): readonly TableInfo[] {
    if (!this.viewsByBase) {
      this.viewsByBase = new Map();
      for (const list of this.tablesByName.values())
        for (const view of list)
          if (view.kind === 'view' && view.baseTable) addTo(this.viewsByBase, view.baseTable, view);
    }
    return this.viewsByBase.get(table.qualifiedName) ?? NO_VIEWS;
  }

  addIndex(index: IndexInfo): void {
    this.forgetIndexLookups();
    addTo(this.indexesByTable, index.table, index);
  }

  addType(type: UserTypeInfo): void {
    addTo(this.types, type.name, type);
  }

  /**
   * Lets go of the lookups' answers (candidates by keyspace, index histories), made again when asked: for a
   * process that has linted the whole workspace with this model (see Project.forgetLookups). Callers that
   * cached an answer by its array meet a new array with the same definitions, the same answer.
   */
  forgetLookups(): void {
    this.candidateLists.clear();
    this.viewsByBase = undefined;
    this.forgetIndexLookups();
  }

  /** Lets go of the index lookups' answers (histories by name, by keyspace and by table asked about). */
  private forgetIndexLookups(): void {
    this.indexHistories.clear();
    this.indexesByKeyspace.clear();
    this.tableHistories.clear();
  }

  /** Every table or view in the workspace (one entry per definition). */
  allTables(): TableInfo[] {
    const out: TableInfo[] = [];
    for (const list of this.tablesByName.values()) out.push(...list);
    return out;
  }

  /** Definitions of `name` compatible with `keyspace` (an unknown keyspace on either side matches). */
  candidates(keyspace: string | undefined, name: string): readonly TableInfo[] {
    const list = this.tablesByName.get(name);
    if (!list) return [];
    if (!keyspace) return list;
    // The name's definitions grouped by keyspace in one pass, on its first question: a workspace of
    // migrations defines a name in hundreds of keyspaces (one per file), and a filter of every definition
    // per keyspace asked was quadratic (12,819 such filters of ~850 definitions in 200 of the 2,000 files).
    let groups = this.candidateLists.get(name);
    if (!groups) {
      groups = { byKeyspace: new Map(), unqualified: [] };
      for (const t of list) {
        if (t.keyspace === undefined) groups.unqualified.push(t);
        else addTo(groups.byKeyspace, t.keyspace, t);
      }
      this.candidateLists.set(name, groups);
    }
    // A keyspace without a definition of its own gets those without a keyspace: one array for all such
    // keyspaces (a workspace of migrations asks from hundreds of them: an array each, 721 arrays of 285-571
    // tables, was 2 MiB of the push server's settled heap on the 2,000-file workspace).
    return groups.byKeyspace.get(keyspace) ?? groups.unqualified;
  }

  /** The workspace definition of a table: the first definition in file order. */
  table(keyspace: string | undefined, name: string): TableInfo | undefined {
    return this.candidates(keyspace, name)[0];
  }

  /**
   * Indexes on a table. The docs define the same index differently in several files, so when
   * `fromFile` (the querying file) or the table's own file defines indexes on it, only those count.
   * The answer is shared: never change it.
   */
  indexesOn(table: TableInfo, fromFile?: string): readonly IndexInfo[] {
    const history = this.indexHistory(table);
    return (
      (fromFile !== undefined ? history.liveByFile.get(fromFile) : undefined) ??
      history.liveByFile.get(table.filePath) ??
      history.live
    );
  }

  /**
   * The indexes on a table in effect at `offset` of `filePath`: when that file created indexes on the
   * table before the offset (the docs' files are scripts that create, query, drop and re-create), its
   * CREATE/DROP INDEX statements up to there decide; otherwise every other file's live indexes (the
   * docs' query snippets do not say which file's definition they go with, so none is preferred).
   * The answer may be shared: never change it.
   */
  indexesAt(table: TableInfo, filePath: string, offset: number): readonly IndexInfo[] {
    const history = this.indexHistory(table);
    const own = history.byFile.get(filePath);
    if (!own) return this.indexDrops.size ? this.liveAt(history, filePath, offset) : history.live;
    // The file's indexes are in file order: those created before the offset are a prefix, which one loop
    // reads (not a copy of it filtered again, for every statement on the table).
    if (!own.length || own[0]!.range.start >= offset) return history.live.filter((i) => i.filePath !== filePath);
    const inEffect: IndexInfo[] = [];
    for (const i of own) {
      if (i.range.start >= offset) break;
      if (!i.droppedBy || i.droppedBy.start > offset) inEffect.push(i);
    }
    return inEffect;
  }

  /**
   * The live indexes as a statement at `offset` of `filePath` meets them: in a migration folder, one a later
   * file (or this one, further on) drops is still there.
   */
  private liveAt(history: IndexHistory, filePath: string, offset: number): readonly IndexInfo[] {
    const step = this.migrations.get(filePath);
    if (!step) return history.live;
    return history.all.filter((i) => {
      if (i.droppedBy) return false;
      const drop = this.indexDrops.get(i);
      if (!drop) return true;
      const at = this.migrations.get(drop.filePath);
      if (at?.folder.dir !== step.folder.dir) return false;
      return at.index > step.index || (drop.filePath === filePath && drop.range.start > offset);
    });
  }

  /** Every index on the table's column in the workspace, whatever file. */
  allIndexesOn(table: TableInfo, column: string): IndexInfo[] {
    return this.indexHistory(table).live.filter((i) => i.column === column);
  }

  /** The CREATE INDEX statements of one file on a table name (any keyspace), in order. */
  fileIndexesOn(name: string, filePath: string): readonly IndexInfo[] {
    return this.historyOf(name, undefined).byFile.get(filePath) ?? [];
  }

  /**
   * The CREATE INDEX statements on a table name that apply in a keyspace: its own and those that name
   * none (all of them when the keyspace is unknown). Worked out for every keyspace in one pass per name:
   * a workspace of migrations repeats the same index in hundreds of keyspaces.
   */
  private indexesSeenFrom(name: string, keyspace: string | undefined): IndexInfo[] {
    const list = this.indexesByTable.get(name) ?? [];
    if (!keyspace) return list;
    let groups = this.indexesByKeyspace.get(name);
    if (!groups) {
      groups = { byKeyspace: new Map(), unqualified: [] };
      for (const index of list)
        if (index.keyspace && !groups.byKeyspace.has(index.keyspace)) groups.byKeyspace.set(index.keyspace, []);
      for (const index of list) {
        if (index.keyspace) groups.byKeyspace.get(index.keyspace)!.push(index);
        else for (const group of [groups.unqualified, ...groups.byKeyspace.values()]) group.push(index);
      }
      this.indexesByKeyspace.set(name, groups);
    }
    return groups.byKeyspace.get(keyspace) ?? groups.unqualified;
  }

  /** Every CREATE INDEX on the table in the workspace, dropped ones included, with its lookups. */
  private indexHistory(table: TableInfo): IndexHistory {
    let history = this.tableHistories.get(table);
    if (!history) this.tableHistories.set(table, (history = this.historyOf(table.name, table.keyspace)));
    return history;
  }

  private historyOf(name: string, keyspace: string | undefined): IndexHistory {
    const key = `${keyspace ?? ''}\u0000${name}`;
    let history = this.indexHistories.get(key);
    if (!history) {
      const all = this.indexesSeenFrom(name, keyspace);
      const live = all.filter((i) => !i.droppedBy && !this.indexDrops.has(i));
      history = all.length ? { all, live, byFile: groupByFile(all), liveByFile: groupByFile(live) } : NO_INDEXES;
      this.indexHistories.set(key, history);
    }
    return history;
  }

  /** Definitions of user type `name` compatible with `keyspace`, as candidates() for tables. */
  typeCandidates(keyspace: string | undefined, name: string): readonly UserTypeInfo[] {
    const list = this.types.get(name);
    if (!list) return [];
    if (!keyspace) return list;
    const exact = list.filter((t) => t.keyspace === keyspace);
    return exact.length ? exact : list.filter((t) => t.keyspace === undefined);
  }

  /**
   * Every file's versions of every user type, as text (typeHistories): all a type lookup can depend on
   * (resolve.ts rule 3 reads a file's own versions), for caches that compare schemas.
   */
  typesSignature(): string {
    return (this.typesText ??= this.typeHistories.join('\n'));
  }

  /**
   * A user type as resolve.ts resolves it: from `mention` (rule 3: where a column or field names it), else
   * the workspace definition (rule 2: the first in file order).
   */
  userType(keyspace: string | undefined, name: string, mention?: Mention): UserTypeInfo | undefined {
    if (!mention) return this.typeCandidates(keyspace, name)[0];
    const versions = this.typeVersionsByFile.get(mention.filePath)?.get(name);
    return resolveVersions(
      versions,
      (v) => v.type,
      (ks) => this.typeCandidates(ks, name),
      mention.filePath,
      keyspace,
      mention.offset,
    )[0];
  }
}
