// Turns one file's statements into schema facts (cached per ParseResult by the Project), then merges the
// files into the workspace SchemaModel. Within a file, CREATE/ALTER/DROP are applied in order and every
// change is kept as a version, so a query resolves against the table as it stood where the query is.
import type {
  AlterTableStatement,
  CreateIndexStatement,
  DropIndexStatement,
  DropMaterializedViewStatement,
  DropTableStatement,
  Expression,
  ParseResult,
  QualifiedName,
  SourceRange,
  Statement,
} from '../../../grammar/ast';
import {
  type IndexInfo,
  type KeyspaceInfo,
  SchemaModel,
  type TableInfo,
  type TableVersion,
  type TypeVersion,
  type UserTypeInfo,
  definitionOf,
  isSaiClass,
  qualify,
  sameShape,
} from './model';
import {
  applyAlter,
  applyTypeAlter,
  cloneTable,
  literalString,
  mapLiteralStrings,
  propertyMap,
  tableFromCreate,
  viewFromBase,
} from './definitions';
import { sharedType } from './types';
import { typeText } from '../util/cql-type';
import { internName } from '../util/names';
import { addTo } from '../util/lists';
import { namedTable } from '../util/statements';
import type { MigrationFolder } from './migrations';
import { dropIndexesAcross, walkMigrationFolder, type ForeignIndexDrop } from './history';

export interface FileSchema {
  filePath: string;
  /** USE statements in source order (by offset: keyspaceAt searches them). */
  uses: { offset: number; keyspace: string }[];
  keyspaces: KeyspaceInfo[];
  /** Every user type as a CREATE TYPE or ALTER TYPE here left it, in order. */
  types: UserTypeInfo[];
  /** Every version of every user type created, altered or dropped here, by type name, in order. */
  typeVersions: Map<string, TypeVersion[]>;
  /** Every CREATE INDEX of the file, in order; those a later DROP INDEX or DROP TABLE removed carry droppedBy. */
  indexes: IndexInfo[];
  /** Every version of every table or view defined, altered or dropped here, by table name, in order. */
  versions: Map<string, TableVersion[]>;
  /** The table as built by each CREATE TABLE / CREATE MATERIALIZED VIEW statement. */
  byStatement: Map<Statement, TableInfo>;
  /** ALTER TABLE statements on tables this file does not define (applied to the workspace definition). */
  foreignAlters: { keyspace?: string; name: string; statement: AlterTableStatement }[];
  /** DROP TABLE / DROP MATERIALIZED VIEW statements of tables this file does not define (a migration folder's history follows them). */
  foreignDrops: { keyspace?: string; name: string; statement: DropTableStatement | DropMaterializedViewStatement }[];
  /** DROP INDEX statements that dropped none of this file's own indexes (a migration folder's history follows them). */
  foreignIndexDrops: ForeignIndexDrop[];
  /**
   * Views (and CREATE TABLE ... LIKE) whose base table is not in this file; completed from the workspace, in
   * place, by each merge, from `built` (the table as this file alone makes it): a merge that finds no base,
   * or several that differ, leaves it as built, whatever an earlier merge found.
   */
  pending: { table: TableInfo; built: TableInfo; base: { keyspace?: string; name: string } }[];
  /** Table and type names this file creates, alters or drops, and the tables it creates indexes on (a DROP INDEX removes one of those). */
  definedNames: Set<string>;
  /** Table names this file's statements use. */
  referencedNames: Set<string>;
}

/** The keyspace the last USE at or before `offset` chose. A binary search: rules ask for every statement of the file. */
export function keyspaceAt(schema: FileSchema, offset: number): string | undefined {
  const uses = schema.uses;
  let lo = 0;
  let hi = uses.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (uses[mid]!.offset <= offset) lo = mid + 1;
    else hi = mid;
  }
  return lo > 0 ? uses[lo - 1]!.keyspace : undefined;
}

function nameParts(name: QualifiedName, current: string | undefined): { keyspace?: string; name: string } {
  return { keyspace: name.keyspace?.name ?? current, name: name.name.name };
}

function latestLocal<V extends { keyspace?: string }>(
  versions: Map<string, V[]>,
  keyspace: string | undefined,
  name: string,
): V | undefined {
  const list = versions.get(name);
  if (!list) return undefined;
  for (let i = list.length - 1; i >= 0; i--) {
    const v = list[i]!;
    if (!keyspace || !v.keyspace || v.keyspace === keyspace) return v;
  }
  return undefined;
}

function pushVersion<V extends { name: string }>(versions: Map<string, V[]>, v: V): void {
  addTo(versions, v.name, v);
}

/**
 * A file's indexes as its CREATE INDEX, DROP INDEX and DROP TABLE statements leave them, also by name and by
 * table: CREATE INDEX IF NOT EXISTS, DROP INDEX and DROP TABLE look theirs up (a scan of all the file's
 * indexes each was quadratic in a file of thousands).
 */
class FileIndexes {
  private readonly byName = new Map<string, IndexInfo[]>();
  /** By the indexed table's name: DROP TABLE drops them. */
  private readonly byTable = new Map<string, IndexInfo[]>();

  constructor(
    private readonly list: IndexInfo[],
    private readonly filePath: string,
  ) {}

  create(stmt: CreateIndexStatement, table: { keyspace?: string; name: string }): void {
    const { keyspace, name } = table;
    // CREATE INDEX IF NOT EXISTS of a live index is a no-op.
    if (stmt.name && this.byName.get(stmt.name.name)?.some((i) => !i.droppedBy && i.keyspace === keyspace)) return;
    const options = mapLiteralStrings(propertyMap(stmt.properties).get('options'));
    for (const target of stmt.targets) {
      const index: IndexInfo = {
        name: stmt.name && internName(stmt.name.name),
        keyspace: internName(keyspace),
        table: internName(name),
        column: internName(target.column.name),
        indexKind: target.indexKind,
        using: internName(stmt.using),
        sai: isSaiClass(stmt.using),
        custom: stmt.custom && !isSaiClass(stmt.using),
        ...(Object.keys(options).length ? { options } : {}),
        filePath: this.filePath,
        range: stmt.range,
      };
      this.list.push(index);
      if (index.name) addTo(this.byName, index.name, index);
      addTo(this.byTable, index.table, index);
    }
  }

  /** DROP INDEX in `keyspace` (written or in effect): the live indexes of that name there are dropped; false when none was. */
  drop(stmt: DropIndexStatement, keyspace: string | undefined): boolean {
    return dropLive(this.byName.get(stmt.name.name.name), keyspace, stmt.range);
  }

  /** DROP TABLE: Cassandra drops the table's indexes with it, so the file's live ones on it are dropped there. */
  dropTable(stmt: DropTableStatement, table: { keyspace?: string; name: string }): void {
    dropLive(this.byTable.get(table.name), table.keyspace, stmt.range);
  }
}

/** Marks the live indexes of `indexes` in `keyspace` (an unknown one on either side matches) dropped by `by`; whether one was. */
function dropLive(indexes: readonly IndexInfo[] | undefined, keyspace: string | undefined, by: SourceRange): boolean {
  let dropped = false;
  for (const i of indexes ?? []) {
    if (!i.droppedBy && !(keyspace && i.keyspace && i.keyspace !== keyspace)) {
      i.droppedBy = by;
      dropped = true;
    }
  }
  return dropped;
}

/** Schema facts of one file, independent of every other file. */
export function buildFileSchema(filePath: string, text: string, parse: ParseResult): FileSchema {
  const schema: FileSchema = {
    filePath,
    uses: [],
    keyspaces: [],
    types: [],
    typeVersions: new Map(),
    indexes: [],
    versions: new Map(),
    byStatement: new Map(),
    foreignAlters: [],
    foreignDrops: [],
    foreignIndexDrops: [],
    pending: [],
    definedNames: new Set(),
    referencedNames: new Set(),
  };
  let current: string | undefined;
  const keyspaceByName = new Map<string, KeyspaceInfo>();
  const indexes = new FileIndexes(schema.indexes, filePath);

  const visit = (stmt: Statement): void => {
    const ref = namedTable(stmt);
    if (ref) schema.referencedNames.add(ref.name.name);
    switch (stmt.kind) {
      case 'Use':
        current = stmt.keyspace.name;
        schema.uses.push({ offset: stmt.range.start, keyspace: current });
        break;
      case 'CreateKeyspace':
      case 'AlterKeyspace': {
        const props = propertyMap(stmt.properties);
        const replication = mapLiteralStrings(props.get('replication'));
        const cls = replication['class'];
        const durable = literalString(props.get('durable_writes'));
        const existing = keyspaceByName.get(stmt.name.name);
        const info: KeyspaceInfo = {
          name: stmt.name.name,
          replication: Object.keys(replication).length ? replication : (existing?.replication ?? {}),
          replicationClass: cls ? cls.replace(/^org\.apache\.cassandra\.locator\./i, '') : existing?.replicationClass,
          durableWrites: durable === undefined ? existing?.durableWrites : durable.toLowerCase() === 'true',
          filePath,
          range: stmt.range,
        };
        keyspaceByName.set(info.name, info);
        schema.keyspaces.push(info);
        break;
      }
      case 'CreateTable': {
        const { keyspace, name } = nameParts(stmt.name, current);
        schema.definedNames.add(name);
        let table: TableInfo;
        if (stmt.like) {
          const src = nameParts(stmt.like, current);
          const local = latestLocal(schema.versions, src.keyspace, src.name)?.table;
          const base = local ?? tableFromCreate(stmt, keyspace, filePath, parse, text);
          table = {
            ...cloneTable(base),
            keyspace,
            name,
            qualifiedName: qualify(keyspace, name),
            filePath,
            definition: definitionOf(stmt),
            range: stmt.range,
            nameRange: stmt.name.range,
          };
          if (!local) schema.pending.push({ table, built: { ...table }, base: src });
        } else {
          table = tableFromCreate(stmt, keyspace, filePath, parse, text);
        }
        schema.byStatement.set(stmt, table);
        pushVersion(schema.versions, { offset: stmt.range.start, keyspace, name, table });
        break;
      }
      case 'CreateMaterializedView': {
        const { keyspace, name } = nameParts(stmt.name, current);
        const base = nameParts(stmt.from, current);
        schema.definedNames.add(name);
        const local = latestLocal(schema.versions, base.keyspace, base.name)?.table;
        const view = viewFromBase(stmt, keyspace, local, filePath);
        if (!local) schema.pending.push({ table: view, built: { ...view }, base });
        schema.byStatement.set(stmt, view);
        pushVersion(schema.versions, { offset: stmt.range.start, keyspace, name, table: view });
        break;
      }
      case 'AlterTable': {
        const { keyspace, name } = nameParts(stmt.name, current);
        schema.definedNames.add(name);
        const prev = latestLocal(schema.versions, keyspace, name);
        if (prev?.table) {
          pushVersion(schema.versions, {
            offset: stmt.range.start,
            keyspace: prev.keyspace,
            name,
            table: applyAlter(prev.table, stmt),
          });
        } else if (!prev) {
          schema.foreignAlters.push({ keyspace, name, statement: stmt });
        }
        break;
      }
      case 'AlterMaterializedView': {
        const { keyspace, name } = nameParts(stmt.name, current);
        const prev = latestLocal(schema.versions, keyspace, name);
        if (prev?.table) {
          const next = cloneTable(prev.table);
          for (const p of stmt.options.properties) next.options.set(p.name.name.toLowerCase(), p.value);
          pushVersion(schema.versions, { offset: stmt.range.start, keyspace: prev.keyspace, name, table: next });
        }
        break;
      }
      case 'DropTable':
      case 'DropMaterializedView': {
        const { keyspace, name } = nameParts(stmt.name, current);
        schema.definedNames.add(name);
        if (stmt.kind === 'DropTable') indexes.dropTable(stmt, { keyspace, name });
        if (latestLocal(schema.versions, keyspace, name)) {
          pushVersion(schema.versions, { offset: stmt.range.start, keyspace, name });
        } else {
          schema.foreignDrops.push({ keyspace, name, statement: stmt });
        }
        break;
      }
      case 'CreateType': {
        const { keyspace, name } = nameParts(stmt.name, current);
        schema.definedNames.add(name);
        const type: UserTypeInfo = {
          keyspace,
          name,
          qualifiedName: qualify(keyspace, name),
          fields: stmt.fields.map((f) => ({ name: f.name.name, type: f.type, typeText: typeText(f.type) })),
          filePath,
          range: stmt.range,
        };
        schema.types.push(type);
        pushVersion(schema.typeVersions, { offset: stmt.range.start, keyspace, name, type });
        break;
      }
      case 'AlterType': {
        const { keyspace, name } = nameParts(stmt.name, current);
        schema.definedNames.add(name);
        // An ALTER TYPE of a type another file defines is not followed (as for tables, that file's stays).
        const prev = latestLocal(schema.typeVersions, keyspace, name)?.type;
        if (prev) {
          const type = applyTypeAlter(prev, stmt.action);
          schema.types.push(type);
          pushVersion(schema.typeVersions, { offset: stmt.range.start, keyspace: prev.keyspace, name, type });
        }
        break;
      }
      case 'DropType': {
        const { keyspace, name } = nameParts(stmt.name, current);
        schema.definedNames.add(name);
        if (latestLocal(schema.typeVersions, keyspace, name))
          pushVersion(schema.typeVersions, { offset: stmt.range.start, keyspace, name });
        break;
      }
      case 'CreateIndex': {
        const table = nameParts(stmt.table, current);
        // Its queries in other files are judged by the table's indexes: they depend on this file (Project.dependents).
        schema.definedNames.add(table.name);
        indexes.create(stmt, table);
        break;
      }
      case 'DropIndex': {
        const keyspace = stmt.name.keyspace?.name ?? current;
        if (!indexes.drop(stmt, keyspace))
          schema.foreignIndexDrops.push({ keyspace, name: stmt.name.name.name, range: stmt.range });
        break;
      }
      case 'Batch':
        for (const inner of stmt.statements) visit(inner);
        break;
      default:
        break;
    }
  };
  for (const stmt of parse.statements) visit(stmt);
  return schema;
}

/** The options of every released table that has none (a Map is a few hundred bytes even empty). Never set: tables copy theirs before a change. */
const NO_OPTIONS = new Map<string, Expression>();

/**
 * Lets a released file's schema go of its syntax tree: definitions drop their statement (but a view still
 * waiting for its base in another file: the merge rebuilds it from the statement), column and field types
 * become shared range-free copies, and `byStatement`, keyed by the statements of a parse, is emptied until
 * the next parse (keyDefinitions). No identity changes: what is keyed by a table or its definition holds.
 */
export function compactFileSchema(schema: FileSchema): void {
  const waiting = new Set(schema.pending.filter((p) => p.table.kind === 'view').map((p) => p.table.definition));
  const compact = (table: TableInfo): void => {
    if (!waiting.has(table.definition)) table.definition.statement = undefined;
    for (const column of table.columns) if (column.type) column.type = sharedType(column.type);
    // Lists grown by push keep room for 16 more entries: kept for good, they are copied to their size.
    table.columns = table.columns.slice();
    table.partitionKey = table.partitionKey.slice();
    table.clustering = table.clustering.slice();
    if (!table.options.size) table.options = NO_OPTIONS;
  };
  for (const list of schema.versions.values()) for (const v of list) if (v.table) compact(v.table);
  // A pending table is put back as built before each merge: both copies are compacted.
  for (const { table, built } of schema.pending) {
    compact(table);
    compact(built);
  }
  for (const type of schema.types) for (const field of type.fields) field.type = sharedType(field.type);
  schema.byStatement.clear();
}

/** Keys `byStatement` by a new parse of the same text (after compactFileSchema): a CREATE keeps its offset. */
export function keyDefinitions(schema: FileSchema, parse: ParseResult): void {
  const created = new Map<number, TableInfo>();
  for (const list of schema.versions.values()) {
    // A CREATE's version stands at its statement; an ALTER's version keeps the CREATE's range.
    for (const v of list) if (v.table && v.table.range.start === v.offset) created.set(v.offset, v.table);
  }
  schema.byStatement.clear();
  for (const stmt of parse.statements) {
    const table = created.get(stmt.range.start);
    if (table) schema.byStatement.set(stmt, table);
  }
}

/**
 * A file's user type versions as text, each with the number of the file's table statements before it: which
 * version a column's type resolves to (resolve.ts rule 3), and no offsets, which move with every keystroke.
 */
function typeHistory(file: FileSchema): string {
  const tables: number[] = file.foreignAlters.map((a) => a.statement.range.start);
  for (const list of file.versions.values()) for (const v of list) tables.push(v.offset);
  tables.sort((a, b) => a - b);
  const parts: string[] = [file.filePath];
  for (const list of file.typeVersions.values()) {
    for (const { offset, keyspace, name, type } of list) {
      let before = 0;
      while (before < tables.length && tables[before]! < offset) before++;
      parts.push(
        `${before}:${keyspace ?? ''}.${name}(${type ? type.fields.map((f) => `${f.name}:${f.typeText}`).join(',') : 'dropped'})`,
      );
    }
  }
  return parts.join(';');
}

/**
 * Puts a pending table back as its file built it (the same object: what is keyed by it holds), undoing an
 * earlier merge's completion, which a later merge may not repeat (its base gone, or defined differently twice).
 */
function restoreBuilt(table: TableInfo, built: TableInfo): void {
  const fields = table as unknown as Record<string, unknown>;
  for (const key of Object.keys(fields)) if (!(key in built)) delete fields[key];
  Object.assign(table, built);
}

/**
 * Merges file schemas (in the given order) into the workspace model: every file's final tables and types (a
 * migration folder's: the state after its last file, schema/history.ts), then
 * ALTERs of tables defined elsewhere (additive changes only, so an ALTER in one file never makes
 * another file's columns unknown), then views and LIKE tables whose base lives in another file.
 */
export function mergeSchemas(files: readonly FileSchema[], folders: readonly MigrationFolder[] = []): SchemaModel {
  const model = new SchemaModel();
  // A migration folder's files add the state its last file leaves (walkMigrationFolder), where the last
  // of them comes in `files`; their own tables are versions of that history, not workspace definitions.
  const byPath = new Map(files.map((f) => [f.filePath, f]));
  const position = new Map(files.map((f, i) => [f, i]));
  const folderAt = new Map<FileSchema, MigrationFolder>();
  const inFolder = new Set<FileSchema>();
  for (const folder of folders) {
    const schemas = folder.files.map((f) => byPath.get(f)).filter((f) => f !== undefined);
    if (!schemas.length) continue;
    for (const f of schemas) inFolder.add(f);
    let last = schemas[0]!;
    for (const f of schemas) if (position.get(f)! > position.get(last)!) last = f;
    folderAt.set(last, { ...folder, files: schemas.map((f) => f.filePath) });
  }
  const alters: { file: FileSchema; alter: FileSchema['foreignAlters'][number] }[] = [];
  for (const file of files) {
    for (const ks of file.keyspaces) model.keyspaces.set(ks.name, ks);
    if (file.typeVersions.size) {
      model.typeVersionsByFile.set(file.filePath, file.typeVersions);
      model.typeHistories.push(typeHistory(file));
    }
    for (const list of file.typeVersions.values()) {
      // As for tables: each keyspace's type of that name as the file's last statement on it left it.
      const last = new Map<string | undefined, TypeVersion>();
      for (const v of list) last.set(v.keyspace, v);
      for (const v of last.values()) if (v.type) model.addType(v.type);
    }
    for (const index of file.indexes) model.addIndex(index);
    if (!inFolder.has(file)) {
      for (const list of file.versions.values()) {
        // The last version of each keyspace's table of that name (ks1.t and ks2.t are two tables).
        const last = new Map<string | undefined, TableVersion>();
        for (const v of list) last.set(v.keyspace, v);
        for (const v of last.values()) if (v.table) model.addTable(v.table);
      }
      for (const alter of file.foreignAlters) alters.push({ file, alter });
    }
    const folder = folderAt.get(file);
    if (folder) {
      const history = walkMigrationFolder(
        model,
        folder,
        folder.files.map((f) => byPath.get(f)!),
      );
      for (const table of history.tables) model.addTable(table);
      alters.push(...history.outsideAlters);
      dropIndexesAcross(
        model,
        folder.files.map((f) => byPath.get(f)!),
      );
    }
  }
  if (folderAt.size) alters.sort((a, b) => position.get(a.file)! - position.get(b.file)!);
  for (const { file, alter } of alters) {
    const list = model.tablesByName.get(alter.name);
    if (!list) continue;
    for (let i = 0; i < list.length; i++) {
      const t = list[i]!;
      if (alter.keyspace && t.keyspace && t.keyspace !== alter.keyspace) continue;
      list[i] = applyAlter(t, alter.statement, file.filePath);
    }
  }
  for (const file of files) {
    for (const { table, built, base } of file.pending) {
      restoreBuilt(table, built);
      const candidates = model.candidates(base.keyspace, base.name);
      const found = candidates[0];
      if (!found || found === table) continue;
      // Several differing definitions elsewhere: do not guess which one the view reads.
      if (!candidates.every((c) => sameShape(c, found))) continue;
      const statement = table.definition.statement;
      if (statement?.kind === 'CreateMaterializedView') {
        const view = viewFromBase(statement, table.keyspace, found, table.filePath);
        // Complete the file's own object in place, so same-file lookups see the base's columns too.
        Object.assign(table, { ...view, definition: table.definition, shard: table.shard });
      } else if (table.kind === 'table') {
        const copy = cloneTable(found);
        Object.assign(table, {
          columns: copy.columns,
          partitionKey: copy.partitionKey,
          clustering: copy.clustering,
          options: copy.options,
          counter: copy.counter,
        });
      }
    }
  }
  return model;
}
