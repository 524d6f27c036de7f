// Tables, views and user types as their CREATE and ALTER statements define them: columns with key roles,
// options, TTL, the shard and hint comments above a table. Pure functions of one statement (and, for a view,
// its base table); build.ts applies them in file order and keeps every version.
import type {
  AlterTableStatement,
  AlterTypeAction,
  ColumnDefinition,
  CreateMaterializedViewStatement,
  CreateTableStatement,
  Expression,
  ParseResult,
  PrimaryKey,
  Property,
  SourceRange,
  TableOptions,
} from '../../../grammar/ast';
import {
  type ColumnInfo,
  type TableInfo,
  type UserTypeInfo,
  columnNamed,
  definitionOf,
  hasColumn,
  qualify,
} from './model';
import { shardAbove } from './shard';
import { hintsAbove } from './hint-comments';
import { typeText } from '../util/cql-type';
import { internName, nameRecord } from '../util/names';

export function propertyMap(props: readonly Property[]): Map<string, Expression> {
  const map = new Map<string, Expression>();
  for (const p of props) map.set(p.name.name.toLowerCase(), p.value);
  return map;
}

/** A literal's value as a string (strings decoded, numbers and booleans as written). */
export function literalString(expr: Expression | undefined): string | undefined {
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
  stmt: CreateTableStatement | CreateMaterializedViewStatement,
  keyspace: string | undefined,
  filePath: string,
  columns: ColumnInfo[],
  own: OwnFields,
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
    definition: definitionOf(stmt),
    range: stmt.range,
    nameRange: stmt.name.range,
    counter: false,
    ...own,
  };
  applyKey(table, stmt.primaryKey, stmt.options);
  return table;
}

export function tableFromCreate(
  stmt: CreateTableStatement,
  keyspace: string | undefined,
  filePath: string,
  parse: ParseResult,
  text: string,
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

export function cloneTable(table: TableInfo): TableInfo {
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
export function applyAlter(
  table: TableInfo,
  stmt: AlterTableStatement,
  alterFile?: string,
  additiveOnly = alterFile !== undefined,
): TableInfo {
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
export function applyTypeAlter(type: UserTypeInfo, action: AlterTypeAction): UserTypeInfo {
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
export function viewFromBase(
  stmt: CreateMaterializedViewStatement,
  keyspace: string | undefined,
  base: TableInfo | undefined,
  filePath: string,
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
  for (const id of [...(stmt.primaryKey?.partitionKey ?? []), ...(stmt.primaryKey?.clustering ?? [])])
    add(id.name, id.range);
  // A view takes its TTL from the base table.
  return keyedTable(stmt, keyspace, filePath, columns, {
    kind: 'view',
    defaultTtlSeconds: base?.defaultTtlSeconds,
    baseTable: qualify(stmt.from.keyspace?.name ?? keyspace, stmt.from.name.name),
    baseResolved: !!base,
  });
}
