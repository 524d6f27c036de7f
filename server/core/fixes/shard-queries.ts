// Queries against a write-sharded table must name the shard: add it to an INSERT or a WHERE (with the
// computed value when the formula's source columns are literals, else a bind marker), or make a read
// cover every shard (`shard IN (1, ..., N)`, or a per-shard statement to run N times).
import type {
  DeleteStatement, Expression, InsertStatement, Node, SelectStatement, Statement, UpdateStatement,
} from '../../../grammar/ast';
import type { TableInfo } from '../schema/model';
import type { ShardSpec } from '../token/shard';
import { walk } from '../util/ast-walk';
import { analyseWhere } from '../util/statements';
import { quoteName } from '../util/names';
import type { Fix, TextEdit } from './types';
import { commentAboveEdit } from './table-edits';

type DmlStatement = InsertStatement | UpdateStatement | DeleteStatement | SelectStatement;

/**
 * Computes the shard for the values a statement gives the spec's source columns (by column name);
 * undefined when it cannot (a bind marker, a function call, a value of the wrong type).
 */
export type ShardComputer = (spec: ShardSpec, table: TableInfo, values: ReadonlyMap<string, Expression>) => number | undefined;

export interface ShardQueryOptions {
  computeShard?: ShardComputer;
  /** Largest shard count read with one `IN (...)`; above it the read becomes a per-shard statement. Default 32. */
  maxInListShards?: number;
}

const DEFAULT_MAX_IN_LIST_SHARDS = 32;

export function isDmlStatement(statement: Statement): statement is DmlStatement {
  return statement.kind === 'Insert' || statement.kind === 'Update' || statement.kind === 'Delete' || statement.kind === 'Select';
}

/** Whether the statement already gives the shard column a value or restriction. */
function statementNamesColumn(statement: DmlStatement, column: string): boolean {
  if (statement.kind === 'Insert') return statement.json !== undefined || statement.columns.some((c) => c.name === column);
  return analyseWhere(statement.where).byColumn.has(column);
}

/**
 * The value expression the statement gives each column: INSERT values, or `col = value` relations.
 * Bind markers are left out; whether another expression is a computable constant is the shard
 * maths' call.
 */
function columnValues(statement: DmlStatement): Map<string, Expression> {
  const values = new Map<string, Expression>();
  if (statement.kind === 'Insert') {
    statement.columns.forEach((c, i) => {
      const v = statement.values[i];
      if (v && v.kind !== 'BindMarker') values.set(c.name, v);
    });
    return values;
  }
  for (const r of statement.where) {
    if (r.operator === '=' && r.left.kind === 'ColumnRef' && r.right.length === 1 && r.right[0].kind !== 'BindMarker') {
      values.set(r.left.name.name, r.right[0]);
    }
  }
  return values;
}

/** `:shard` when the statement uses named markers, else `?`. */
function bindMarkerFor(statement: Node, column: string): string {
  let named = false;
  walk(statement, (node) => {
    if (node.kind === 'BindMarker' && (node as Expression & { kind: 'BindMarker' }).name) named = true;
  });
  return named ? `:${quoteName(column)}` : '?';
}

/** The shard value for the statement's literals, when the formula is calculated and every source is a literal. */
function computedShardValue(statement: DmlStatement, table: TableInfo, options: ShardQueryOptions): number | undefined {
  const spec = table.shard;
  if (!spec || spec.method === 'random' || spec.sources.length === 0 || !options.computeShard) return undefined;
  const values = columnValues(statement);
  if (!spec.sources.every((c) => values.has(c))) return undefined;
  try {
    return options.computeShard(spec, table, values);
  } catch {
    // A literal the shard code cannot serialize (wrong type for the column): no computed value.
    return undefined;
  }
}

/**
 * "Add the shard column" for an INSERT (column and value lists) or an UPDATE/DELETE/SELECT (`AND
 * shard = N` after the last relation). With a computed value the fix needs no choice and is safe for
 * fix-all; with a bind marker it is offered but not applied by fix-all.
 */
export function addShardToStatementFixes(text: string, statement: DmlStatement, table: TableInfo, options: ShardQueryOptions = {}): Fix[] {
  const spec = table.shard;
  if (!spec || statementNamesColumn(statement, spec.shardColumn)) return [];
  const column = quoteName(spec.shardColumn);
  const computed = computedShardValue(statement, table, options);
  const value = computed !== undefined ? String(computed) : bindMarkerFor(statement, spec.shardColumn);
  const edits = shardValueEdits(statement, column, value);
  if (!edits) return [];
  const source = spec.sources.map(quoteName).join(', ');
  const title = computed !== undefined
    ? `Add ${column} = ${computed} (${spec.method}(${source}) % ${spec.count}${spec.offset ? ` + ${spec.offset}` : ''})`
    : `Add ${column} = ${value} (the application computes the shard)`;
  return [{ title, kind: 'quickfix', isPreferred: computed !== undefined, safeForFixAll: computed !== undefined, edits }];
}

function shardValueEdits(statement: DmlStatement, column: string, value: string): TextEdit[] | undefined {
  if (statement.kind === 'Insert') {
    const lastColumn = statement.columns[statement.columns.length - 1];
    const lastValue = statement.values[statement.values.length - 1];
    if (!lastColumn || !lastValue || statement.columns.length !== statement.values.length) return undefined;
    return [
      { start: lastColumn.range.end, end: lastColumn.range.end, newText: `, ${column}` },
      { start: lastValue.range.end, end: lastValue.range.end, newText: `, ${value}` },
    ];
  }
  const last = statement.where[statement.where.length - 1];
  if (!last) return undefined;
  return [{ start: last.range.end, end: last.range.end, newText: ` AND ${column} = ${value}` }];
}

/**
 * The values a spec's shard column takes, in order: offset .. offset + count - 1, and 1..N for
 * random(N) (token/shard.ts and the docs define random(N) as any of 1..N).
 */
function shardValues(spec: Pick<ShardSpec, 'count' | 'offset' | 'method'>): number[] {
  const first = spec.method === 'random' ? 1 : spec.offset;
  return Array.from({ length: spec.count }, (_, i) => first + i);
}

/**
 * "Read all N shards" for a SELECT that restricts every partition key column but the shard:
 * `AND shard IN (1, ..., N)` for up to maxInListShards shards; above that, `AND shard = ?` with a
 * comment above the statement saying to run it once per shard and merge the rows client-side (as
 * Amazon Keyspaces' write-sharding guide does). ORDER BY forces the per-shard form at any N.
 */
export function readAllShardsFixes(text: string, statement: SelectStatement, table: TableInfo, options: ShardQueryOptions = {}): Fix[] {
  return table.shard ? readAllShardsFor(text, statement, table.qualifiedName, table.shard, options) : [];
}

/** The shape of a shard column that reading all shards needs (also for one a fix is about to add). */
export type ShardLayout = Pick<ShardSpec, 'shardColumn' | 'count' | 'offset' | 'method'>;

/** readAllShardsFixes for a table named `tableName` sharded as `spec`. */
export function readAllShardsFor(text: string, statement: SelectStatement, tableName: string, spec: ShardLayout, options: ShardQueryOptions = {}): Fix[] {
  if (statementNamesColumn(statement, spec.shardColumn)) return [];
  const last = statement.where[statement.where.length - 1];
  if (!last) return [];
  const column = quoteName(spec.shardColumn);
  const at = last.range.end;
  const values = shardValues(spec);
  const max = options.maxInListShards ?? DEFAULT_MAX_IN_LIST_SHARDS;
  // Cassandra refuses ORDER BY with IN on the partition key (when paging): read shard by shard instead.
  if (values.length <= max && statement.orderBy.length === 0) {
    return [{
      title: `Read all ${spec.count} shards: ${column} IN (${values.length > 4 ? `${values[0]}, ..., ${values[values.length - 1]}` : values.join(', ')})`,
      kind: 'quickfix',
      isPreferred: true,
      safeForFixAll: false,
      edits: [{ start: at, end: at, newText: ` AND ${column} IN (${values.join(', ')})` }],
    }];
  }
  const marker = bindMarkerFor(statement, spec.shardColumn);
  const first = values[0];
  const lastValue = values[values.length - 1];
  return [{
    title: `Read all ${spec.count} shards: run once per ${column} (${first}..${lastValue}) and merge client-side`,
    kind: 'quickfix',
    isPreferred: true,
    safeForFixAll: false,
    edits: [
      commentAboveEdit(text, statement.range.start, [
        `${tableName} is write-sharded: each partition is spread over ${column} ${first}..${lastValue}.`,
        `Run this once per shard (bind ${marker === '?' ? 'the ?' : marker} to ${first}, ${first + 1}, ..., ${lastValue}), in parallel, and merge the rows client-side.`,
      ]),
      { start: at, end: at, newText: ` AND ${column} = ${marker}` },
    ],
  }];
}
