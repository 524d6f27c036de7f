// A migration folder's history: its files applied in order (schema/migrations.ts orders them), each
// meeting the tables as the files before it left them. One walk over the folder's file schemas, at merge
// time (mergeSchemas), gives each file its MigrationStep (the versions resolution reads there) and the
// workspace the folder's final state. The file schemas themselves are not changed: a file's own
// versions stay what the file alone makes (and what the cache and the editor's reuse keep).
import type { AlterTableStatement, DropMaterializedViewStatement, DropTableStatement } from '../../../grammar/ast';
import { applyAlter } from './definitions';
import type { MigrationFolder } from './migrations';
import type { SourceRange } from '../../../grammar/ast';
import type {
  ColumnInfo,
  IndexInfo,
  MigrationStep,
  SchemaModel,
  TableDefinition,
  TableInfo,
  TableVersion,
} from './model';

/** What the walk reads of a file's schema (build.ts FileSchema, which imports this module). */
export interface HistoryFile {
  filePath: string;
  versions: ReadonlyMap<string, readonly TableVersion[]>;
  foreignAlters: readonly ForeignAlter[];
  foreignDrops: readonly {
    keyspace?: string;
    name: string;
    statement: DropTableStatement | DropMaterializedViewStatement;
  }[];
}

type ForeignAlter = { keyspace?: string; name: string; statement: AlterTableStatement };

/** The state a walk carries from file to file: each name's current versions (one per keyspace). */
type State = Map<string, readonly TableVersion[]>;

export function historyKey(keyspace: string | undefined, name: string): string {
  return `${keyspace ?? ''}\u0000${name}`;
}

/** The current version of `name` in `keyspace` (an unknown keyspace on either side matches), as latestLocal in build.ts. */
function current(list: readonly TableVersion[] | undefined, keyspace: string | undefined): TableVersion | undefined {
  if (!list) return undefined;
  for (let i = list.length - 1; i >= 0; i--) {
    const v = list[i]!;
    if (!keyspace || !v.keyspace || v.keyspace === keyspace) return v;
  }
  return undefined;
}

/** A change a file makes, in file order: one of its own versions, or an ALTER/DROP of a table a file before it made. */
type Change =
  | { kind: 'own'; at: number; version: TableVersion }
  | { kind: 'alter'; at: number; alter: ForeignAlter }
  | { kind: 'drop'; at: number; drop: HistoryFile['foreignDrops'][number] };

/**
 * A version placed by a statement of the file: its offset is read from the statement, whose range the
 * incremental parser moves in place (a file schema reused across an edit keeps these versions right).
 */
function versionAt(
  statement: { range: { start: number } },
  keyspace: string | undefined,
  name: string,
  table?: TableInfo,
): TableVersion {
  return Object.defineProperty({ keyspace, name, ...(table ? { table } : {}) }, 'offset', {
    get: () => statement.range.start,
    enumerable: true,
  }) as TableVersion;
}

/**
 * Walks `folder`'s files (their schemas, in the folder's order) and records each one's MigrationStep on the
 * model. Returns the tables and views the last file leaves, and the ALTERs of tables the history does not
 * hold (defined outside the folder), which the merge applies to the workspace's definitions as before.
 */
export function walkMigrationFolder<F extends HistoryFile>(
  model: SchemaModel,
  folder: MigrationFolder,
  files: readonly F[],
): { tables: TableInfo[]; outsideAlters: { file: F; alter: ForeignAlter }[] } {
  let state: State = new Map();
  const seen = new Map<string, TableInfo>();
  const dropped = new Map<TableDefinition, Map<string, ColumnInfo>>();
  const outsideAlters: { file: F; alter: ForeignAlter }[] = [];
  files.forEach((file, index) => {
    const step: MigrationStep = {
      folder,
      index,
      versions: new Map(),
      seenBefore: new Map(seen),
      droppedBefore: new Map([...dropped].map(([d, cols]) => [d, new Map(cols)])),
    };
    // The inherited versions stand before the file's first statement (offset -1).
    const versions = new Map<string, TableVersion[]>();
    for (const [name, list] of state)
      versions.set(
        name,
        list.filter((v) => v.table).map((v) => ({ offset: -1, keyspace: v.keyspace, name, table: v.table })),
      );
    const changes: Change[] = [];
    for (const list of file.versions.values())
      for (const version of list) changes.push({ kind: 'own', at: version.offset, version });
    for (const alter of file.foreignAlters) changes.push({ kind: 'alter', at: alter.statement.range.start, alter });
    for (const drop of file.foreignDrops) changes.push({ kind: 'drop', at: drop.statement.range.start, drop });
    changes.sort((a, b) => a.at - b.at);
    const push = (version: TableVersion): void => {
      const list = versions.get(version.name) ?? [];
      const before = current(list, version.keyspace)?.table;
      // Columns an ALTER took away from the same table (not a DROP TABLE and a new CREATE) are remembered.
      if (before && version.table && before.definition === version.table.definition) {
        for (const column of before.columns) {
          if (version.table.columns.some((c) => c.name === column.name)) continue;
          let cols = dropped.get(before.definition);
          if (!cols) dropped.set(before.definition, (cols = new Map()));
          cols.set(column.name, column);
        }
      }
      if (version.table) seen.set(historyKey(version.table.keyspace, version.name), version.table);
      list.push(version);
      versions.set(version.name, list);
    };
    for (const change of changes) {
      if (change.kind === 'own') {
        push(change.version);
        continue;
      }
      const { keyspace, name, statement } = change.kind === 'alter' ? change.alter : change.drop;
      const prev = current(versions.get(name), keyspace);
      if (change.kind === 'alter') {
        if (prev?.table)
          push(
            versionAt(
              statement,
              prev.keyspace,
              name,
              applyAlter(prev.table, change.alter.statement, file.filePath, false),
            ),
          );
        else if (!prev) outsideAlters.push({ file, alter: change.alter });
      } else if (prev?.table) {
        push(versionAt(statement, prev.keyspace, name));
      }
    }
    step.versions = versions;
    model.migrations.set(file.filePath, step);
    const next: State = new Map();
    for (const [name, list] of versions) {
      const last = new Map<string | undefined, TableVersion>();
      for (const v of list) last.set(v.keyspace, v);
      const kept = [...last.values()].filter((v) => v.table);
      if (kept.length) next.set(name, kept);
    }
    state = next;
  });
  const tables: TableInfo[] = [];
  for (const list of state.values()) for (const v of list) tables.push(v.table!);
  return { tables, outsideAlters };
}

/** A DROP INDEX of an index its file did not create: `name` in `keyspace` (written, or the file's USE). */
export interface ForeignIndexDrop {
  keyspace?: string;
  name: string;
  range: SourceRange;
}

/**
 * The indexes a later file of a migration folder drops (DROP INDEX, or DROP TABLE of the indexed table: Cassandra
 * drops its indexes with it), recorded on the model (SchemaModel.indexDrops): the file schemas stay as they are.
 */
export function dropIndexesAcross(
  model: SchemaModel,
  files: readonly (HistoryFile & { indexes: readonly IndexInfo[]; foreignIndexDrops: readonly ForeignIndexDrop[] })[],
): void {
  let live: IndexInfo[] = [];
  const matches = (i: IndexInfo, keyspace: string | undefined): boolean =>
    !(keyspace && i.keyspace && i.keyspace !== keyspace);
  for (const file of files) {
    const drops = [
      ...file.foreignIndexDrops.map((d) => ({
        range: d.range,
        hit: (i: IndexInfo) => i.name === d.name && matches(i, d.keyspace),
      })),
      ...file.foreignDrops
        .filter((d) => d.statement.kind === 'DropTable')
        .map((d) => ({
          range: d.statement.range,
          hit: (i: IndexInfo) => i.table === d.name && matches(i, d.keyspace),
        })),
    ];
    for (const drop of drops) {
      live = live.filter((i) => {
        if (!drop.hit(i)) return true;
        model.indexDrops.set(i, { filePath: file.filePath, range: drop.range });
        return false;
      });
    }
    for (const i of file.indexes) if (!i.droppedBy) live.push(i);
  }
}

/** What a migration file's statement at `offset` meets of a table name: for the migration-safety rules. */
export interface HistoryAt {
  step: MigrationStep;
  /** The table as it stands just before the statement (undefined: none, or dropped). */
  before?: TableInfo;
  /** The last definition of the name before the statement, one dropped since included. */
  previous?: TableInfo;
  /** The columns an ALTER ... DROP removed from `before` earlier in the history, by name. */
  dropped: ReadonlyMap<string, ColumnInfo>;
}

/** The last definition of a name before a file (an unknown keyspace matches any). */
function seenBefore(step: MigrationStep, keyspace: string | undefined, name: string): TableInfo | undefined {
  const exact = step.seenBefore.get(historyKey(keyspace, name)) ?? step.seenBefore.get(historyKey(undefined, name));
  if (exact || keyspace) return exact;
  for (const table of step.seenBefore.values()) if (table.name === name) return table;
  return undefined;
}

/** The history of `name` at `offset` of a migration file; undefined when the file is in no migration folder. */
export function historyAt(
  model: SchemaModel,
  filePath: string,
  keyspace: string | undefined,
  name: string,
  offset: number,
): HistoryAt | undefined {
  const step = model.migrations.get(filePath);
  if (!step) return undefined;
  const list = step.versions.get(name) ?? [];
  let before: TableInfo | undefined;
  let previous = seenBefore(step, keyspace, name);
  let decided = false;
  const dropped = new Map<string, ColumnInfo>();
  let last: TableInfo | undefined;
  for (const v of list) {
    if (v.offset >= offset) break;
    if (keyspace && v.keyspace && v.keyspace !== keyspace) continue;
    if (v.table) {
      if (last && last.definition === v.table.definition) {
        for (const c of last.columns) if (!v.table.columns.some((o) => o.name === c.name)) dropped.set(c.name, c);
      }
      previous = v.table;
    }
    last = v.table;
    before = v.table;
    decided = true;
  }
  if (!decided) before = undefined;
  const earlier = before ? step.droppedBefore.get(before.definition) : undefined;
  const all = new Map(earlier ?? []);
  for (const [k, c] of dropped) all.set(k, c);
  return { step, ...(before ? { before } : {}), ...(previous ? { previous } : {}), dropped: all };
}
