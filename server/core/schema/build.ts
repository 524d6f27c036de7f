// Turns one file's statements into schema facts (cached per ParseResult by the Project), then merges the
// files into the workspace SchemaModel. Within a file, CREATE/ALTER/DROP are applied in order and every
// change is kept as a version, so a query resolves against the table as it stood where the query is.
import type {
  AlterTableStatement, AlterTypeAction, ColumnDefinition, CreateMaterializedViewStatement, CreateTableStatement, Expression,
  ParseResult, PrimaryKey, Property, QualifiedName, SourceRange, Statement, TableOptions,
} from '../../../grammar/ast';
import { type ColumnInfo, type IndexInfo, type KeyspaceInfo, SchemaModel, type TableInfo, type UserTypeInfo, columnNamed, hasColumn, isSaiClass, qualify, sameShape } from './model';
import { shardAbove } from './shard';
import { hintsAbove } from './hint-comment';
import { sharedType, typeText } from './types';
import { internName, nameRecord } from '../util/names';

/** One state of a table inside a file: created or altered at `offset`, or dropped (`table` undefined). */
interface TableVersion {
  offset: number;
  keyspace?: string;
  name: string;
  table?: TableInfo;
}

/** One state of a user type inside a file: created or altered at `offset`, or dropped (`type` undefined). */
export interface TypeVersion {
  offset: number;
  keyspace?: string;
  name: string;
  type?: UserTypeInfo;
}

export interface FileSchema {
  filePath: string;
  /** USE statements in source order (by offset: keyspaceAt searches them). */
  uses: { offset: number; keyspace: string }[];
  keyspaces: KeyspaceInfo[];
  /** Every user type as a CREATE TYPE or ALTER TYPE here left it, in order. */
  types: UserTypeInfo[];
  /** Every version of every user type created, altered or dropped here, by type name, in order. */
  typeVersions: Map<string, TypeVersion[]>;
  /** Every CREATE INDEX of the file, in order; those a later DROP INDEX removed carry droppedBy. */
  indexes: IndexInfo[];
  /** Every version of every table or view defined, altered or dropped here, by table name, in order. */
  versions: Map<string, TableVersion[]>;
  /** The table as built by each CREATE TABLE / CREATE MATERIALIZED VIEW statement. */
  byStatement: Map<Statement, TableInfo>;
  /** ALTER TABLE statements on tables this file does not define (applied to the workspace definition). */
  foreignAlters: { keyspace?: string; name: string; statement: AlterTableStatement }[];
  /** Views (and CREATE TABLE ... LIKE) whose base table is not in this file; completed from the workspace. */
  pending: { table: TableInfo; base: { keyspace?: string; name: string } }[];
  /** Table and type names this file creates, alters or drops. */
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

function propertyMap(props: readonly Property[]): Map<string, Expression> {
  const map = new Map<string, Expression>();
  for (const p of props) map.set(p.name.name.toLowerCase(), p.value);
  return map;
}

/** A literal's value as a string (strings decoded, numbers and booleans as written). */
function literalString(expr: Expression | undefined): string | undefined {
  if (!expr) return undefined;
  if (expr.kind === 'Literal') return expr.value;
  if (expr.kind === 'UnaryExpression' && expr.operand.kind === 'Literal') return `-${expr.operand.value}`;
  return undefined;
}

export function mapLiteralStrings(expr: Expression | undefined): Record<string, string> {
  // Keyed by what the user wrote (data center names): no prototype.
  const out = nameRecord<string>();
  if (expr?.kind !== 'MapLiteral') return out;
  for (const { key, value } of expr.entries) {
    const k = literalString(key) ?? (key.kind === 'ColumnRef' ? key.name.name : undefined);
    const v = literalString(value);
    if (k !== undefined && v !== undefined) out[k.toLowerCase()] = v;
  }
  return out;
}

/** A table option set to a number (`gc_grace_seconds = 3600`), or undefined. */
export function numericOption(options: ReadonlyMap<string, Expression>, name: string): number | undefined {
  const raw = literalString(options.get(name));
  const n = raw === undefined ? NaN : Number(raw);
  return Number.isFinite(n) ? n : undefined;
}

function ttlOf(options: Map<string, Expression>): number | undefined {
  const n = numericOption(options, 'default_time_to_live');
  return n !== undefined && n > 0 ? n : undefined;
}

function optionsOf(options: TableOptions | undefined): Map<string, Expression> {
  return options ? propertyMap(options.properties) : new Map();
}

function makeColumn(def: ColumnDefinition): ColumnInfo {
  return {
    name: internName(def.name.name),
    type: def.type,
    typeText: typeText(def.type),
    role: def.isStatic ? 'static' : 'regular',
    keyPosition: -1,
    range: def.name.range,
  };
}

/** Assigns partition/clustering roles and clustering order; rebuilds the key lists. */
function applyKey(table: TableInfo, pk: PrimaryKey | undefined, options: TableOptions | undefined): void {
  table.partitionKey = [];
  table.clustering = [];
  if (!pk) return;
  const orders = new Map<string, 'ASC' | 'DESC'>();
  for (const o of options?.clusteringOrder ?? []) orders.set(o.column.name, o.direction);
  pk.partitionKey.forEach((id, i) => {
    const col = columnNamed(table, id.name);
    if (!col || col.role === 'partition' || col.role === 'clustering') return;
    col.role = 'partition';
    col.keyPosition = i;
    table.partitionKey.push(col);
  });
  pk.clustering.forEach((id, i) => {
    const col = columnNamed(table, id.name);
    if (!col || col.role === 'partition' || col.role === 'clustering') return;
    col.role = 'clustering';
    col.keyPosition = i;
    col.order = orders.get(id.name) ?? 'ASC';
    table.clustering.push(col);
  });
}

function isCounterTable(table: TableInfo): boolean {
  const nonKey = table.columns.filter((c) => c.role === 'regular' || c.role === 'static');
  return nonKey.length > 0 && nonKey.every((c) => c.typeText === 'counter');
}

/** What differs between a table and a view built from a CREATE statement. */
type OwnFields = Pick<TableInfo, 'kind'> & Partial<Pick<TableInfo, 'defaultTtlSeconds' | 'baseTable' | 'baseResolved'>>;

/** The table or view a CREATE statement defines, from its columns (names unique), with key roles applied. */
function keyedTable(
  stmt: CreateTableStatement | CreateMaterializedViewStatement, keyspace: string | undefined, filePath: string,
  columns: ColumnInfo[], own: OwnFields,
): TableInfo {
  const options = optionsOf(stmt.options);
  const table: TableInfo = {
    keyspace: internName(keyspace),
    name: internName(stmt.name.name.name),
    qualifiedName: qualify(keyspace, stmt.name.name.name),
    columns,
    partitionKey: [],
    clustering: [],
    options,
    defaultTtlSeconds: ttlOf(options),
    filePath,
    definition: { statement: stmt },
    range: stmt.range,
    nameRange: stmt.name.range,
    counter: false,
    ...own,
  };
  applyKey(table, stmt.primaryKey, stmt.options);
  return table;
}

function tableFromCreate(
  stmt: CreateTableStatement, keyspace: string | undefined, filePath: string, parse: ParseResult, text: string,
): TableInfo {
  const columns: ColumnInfo[] = [];
  const names = new Set<string>();
  for (const def of stmt.columns) {
    if (names.has(def.name.name)) continue; // duplicate-column reports it; the first definition wins
    names.add(def.name.name);
    columns.push(makeColumn(def));
  }
  const table = keyedTable(stmt, keyspace, filePath, columns, { kind: 'table' });
  table.counter = isCounterTable(table);
  const shard = shardAbove(parse.comments, text, stmt.range.start);
  if (shard) table.shard = shard;
  const hints = hintsAbove(parse.comments, text, stmt.range.start);
  if (hints) table.commentHints = hints;
  return table;
}

function cloneTable(table: TableInfo): TableInfo {
  const columns = table.columns.map((c) => ({ ...c }));
  const copyOf = (c: ColumnInfo): ColumnInfo => columnNamed({ columns }, c.name)!;
  return {
    ...table,
    columns,
    partitionKey: table.partitionKey.map(copyOf),
    clustering: table.clustering.map(copyOf),
    options: new Map(table.options),
  };
}

/**
 * Applies an ALTER TABLE to a copy of `table`. `alterFile`: the ALTER's file when it is not the table's
 * (cross-file: drops and renames are skipped, and added columns say where they were added).
 */
function applyAlter(table: TableInfo, stmt: AlterTableStatement, alterFile?: string): TableInfo {
  const additiveOnly = alterFile !== undefined;
  const next = cloneTable(table);
  const action = stmt.action;
  switch (action.kind) {
    case 'AddColumns':
      for (const def of action.columns) {
        if (hasColumn(next, def.name.name)) continue;
        const column = makeColumn(def);
        if (alterFile !== table.filePath && alterFile !== undefined) column.filePath = alterFile;
        next.columns.push(column);
      }
      break;
    case 'DropColumns':
      if (additiveOnly) break;
      for (const id of action.columns) {
        const col = columnNamed(next, id.name);
        if (!col || col.role === 'partition' || col.role === 'clustering') continue;
        next.columns = next.columns.filter((c) => c !== col);
      }
      break;
    case 'RenameColumns':
      if (additiveOnly) break;
      for (const { from, to } of action.renames) {
        const col = columnNamed(next, from.name);
        if (!col || hasColumn(next, to.name)) continue;
        col.name = to.name;
      }
      break;
    case 'AlterColumnType': {
      const col = columnNamed(next, action.column.name);
      if (col) {
        col.type = action.type;
        col.typeText = typeText(action.type);
      }
      break;
    }
    case 'WithOptions':
      for (const p of action.options.properties) next.options.set(p.name.name.toLowerCase(), p.value);
      next.defaultTtlSeconds = ttlOf(next.options);
      break;
    default:
      break;
  }
  next.counter = isCounterTable(next);
  return next;
}

/** A user type after an ALTER TYPE: a new object (the version before it stays as it was). */
function applyTypeAlter(type: UserTypeInfo, action: AlterTypeAction): UserTypeInfo {
  const fields = type.fields.map((f) => ({ ...f }));
  switch (action.kind) {
    case 'AddField':
      if (!fields.some((f) => f.name === action.field.name.name)) {
        fields.push({ name: action.field.name.name, type: action.field.type, typeText: typeText(action.field.type) });
      }
      break;
    case 'RenameFields':
      for (const { from, to } of action.renames) {
        const field = fields.find((f) => f.name === from.name);
        if (field && !fields.some((f) => f.name === to.name)) field.name = to.name;
      }
      break;
    case 'AlterFieldType': {
      const field = fields.find((f) => f.name === action.field.name);
      if (field) Object.assign(field, { type: action.type, typeText: typeText(action.type) });
      break;
    }
  }
  return { ...type, fields };
}

/** Builds a view from its base table (or, base unknown, from what the view itself names). */
function viewFromBase(
  stmt: CreateMaterializedViewStatement, keyspace: string | undefined, base: TableInfo | undefined, filePath: string,
): TableInfo {
  const columns: ColumnInfo[] = [];
  const byName = new Map<string, ColumnInfo>();
  const add = (name: string, range: SourceRange): void => {
    if (byName.has(name)) return;
    const from = columnNamed(base, name);
    if (base && !from) return; // unknown-column reports it
    const col: ColumnInfo = {
      name,
      type: from?.type,
      typeText: from?.typeText ?? '?',
      role: 'regular',
      keyPosition: -1,
      range,
    };
    columns.push(col);
    byName.set(name, col);
  };
  if (stmt.star && base) {
    for (const c of base.columns) add(c.name, c.range);
  } else {
    for (const sel of stmt.selectors) {
      if (sel.expression.kind === 'ColumnRef') add(sel.expression.name.name, sel.expression.name.range);
    }
  }
  // Primary key columns belong to the view whether selected or not.
  for (const id of [...(stmt.primaryKey?.partitionKey ?? []), ...(stmt.primaryKey?.clustering ?? [])]) add(id.name, id.range);
  // A view takes its TTL from the base table.
  return keyedTable(stmt, keyspace, filePath, columns, {
    kind: 'view',
    defaultTtlSeconds: base?.defaultTtlSeconds,
    baseTable: qualify(stmt.from.keyspace?.name ?? keyspace, stmt.from.name.name),
    baseResolved: !!base,
  });
}

function nameParts(name: QualifiedName, current: string | undefined): { keyspace?: string; name: string } {
  return { keyspace: name.keyspace?.name ?? current, name: name.name.name };
}

function latestLocal<V extends { keyspace?: string }>(
  versions: Map<string, V[]>, keyspace: string | undefined, name: string,
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
  const list = versions.get(v.name);
  if (list) list.push(v);
  else versions.set(v.name, [v]);
}

function referencedTable(stmt: Statement): QualifiedName | undefined {
  switch (stmt.kind) {
    case 'Select': return stmt.from;
    case 'Insert': case 'Update': case 'Delete': return stmt.table;
    case 'CreateIndex': return stmt.table;
    case 'CreateMaterializedView': return stmt.from;
    case 'Truncate': return stmt.name;
    default: return undefined;
  }
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
    pending: [],
    definedNames: new Set(),
    referencedNames: new Set(),
  };
  let current: string | undefined;
  const keyspaceByName = new Map<string, KeyspaceInfo>();

  const visit = (stmt: Statement): void => {
    const ref = referencedTable(stmt);
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
          replication: Object.keys(replication).length ? replication : existing?.replication ?? {},
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
          table = { ...cloneTable(base), keyspace, name, qualifiedName: qualify(keyspace, name), filePath, definition: { statement: stmt }, range: stmt.range, nameRange: stmt.name.range };
          if (!local) schema.pending.push({ table, base: src });
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
        if (!local) schema.pending.push({ table: view, base });
        schema.byStatement.set(stmt, view);
        pushVersion(schema.versions, { offset: stmt.range.start, keyspace, name, table: view });
        break;
      }
      case 'AlterTable': {
        const { keyspace, name } = nameParts(stmt.name, current);
        schema.definedNames.add(name);
        const prev = latestLocal(schema.versions, keyspace, name);
        if (prev?.table) {
          pushVersion(schema.versions, { offset: stmt.range.start, keyspace: prev.keyspace, name, table: applyAlter(prev.table, stmt) });
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
        if (latestLocal(schema.versions, keyspace, name)) {
          pushVersion(schema.versions, { offset: stmt.range.start, keyspace, name });
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
        if (latestLocal(schema.typeVersions, keyspace, name)) pushVersion(schema.typeVersions, { offset: stmt.range.start, keyspace, name });
        break;
      }
      case 'CreateIndex': {
        const { keyspace, name } = nameParts(stmt.table, current);
        // CREATE INDEX IF NOT EXISTS of a live index is a no-op.
        if (stmt.name && schema.indexes.some((i) => !i.droppedBy && i.name === stmt.name!.name && i.keyspace === keyspace)) break;
        const options = mapLiteralStrings(propertyMap(stmt.properties).get('options'));
        for (const target of stmt.targets) {
          schema.indexes.push({
            name: stmt.name && internName(stmt.name.name),
            keyspace: internName(keyspace),
            table: internName(name),
            column: internName(target.column.name),
            indexKind: target.indexKind,
            using: internName(stmt.using),
            sai: isSaiClass(stmt.using),
            custom: stmt.custom && !isSaiClass(stmt.using),
            ...(Object.keys(options).length ? { options } : {}),
            filePath,
            range: stmt.range,
          });
        }
        break;
      }
      case 'DropIndex': {
        const ks = stmt.name.keyspace?.name ?? current;
        for (const i of schema.indexes) {
          if (!i.droppedBy && i.name === stmt.name.name.name && !(ks && i.keyspace && i.keyspace !== ks)) i.droppedBy = stmt.range;
        }
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
  for (const { table } of schema.pending) compact(table);
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
 * Merges file schemas (in the given order) into the workspace model: every file's final tables and types, then
 * ALTERs of tables defined elsewhere (additive changes only, so an ALTER in one file never makes
 * another file's columns unknown), then views and LIKE tables whose base lives in another file.
 */
export function mergeSchemas(files: readonly FileSchema[]): SchemaModel {
  const model = new SchemaModel();
  for (const file of files) {
    for (const ks of file.keyspaces) model.keyspaces.set(ks.name, ks);
    for (const list of file.typeVersions.values()) {
      // As for tables: each keyspace's type of that name as the file's last statement on it left it.
      const last = new Map<string | undefined, TypeVersion>();
      for (const v of list) last.set(v.keyspace, v);
      for (const v of last.values()) if (v.type) model.addType(v.type);
    }
    for (const index of file.indexes) model.addIndex(index);
    for (const list of file.versions.values()) {
      // The last version of each keyspace's table of that name (ks1.t and ks2.t are two tables).
      const last = new Map<string | undefined, TableVersion>();
      for (const v of list) last.set(v.keyspace, v);
      for (const v of last.values()) if (v.table) model.addTable(v.table);
    }
  }
  for (const file of files) {
    for (const alter of file.foreignAlters) {
      const list = model.tablesByName.get(alter.name);
      if (!list) continue;
      for (let i = 0; i < list.length; i++) {
        const t = list[i]!;
        if (alter.keyspace && t.keyspace && t.keyspace !== alter.keyspace) continue;
        list[i] = applyAlter(t, alter.statement, file.filePath);
      }
    }
  }
  for (const file of files) {
    for (const { table, base } of file.pending) {
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
        Object.assign(table, { columns: copy.columns, partitionKey: copy.partitionKey, clustering: copy.clustering, options: copy.options, counter: copy.counter });
      }
    }
  }
  return model;
}

