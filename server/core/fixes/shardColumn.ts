// Write sharding for a hot partition: add an `int` shard column to the partition key, with the
// `-- @shard` annotation that tells cqlint (and the team) how the application fills it.
import type { ColumnDefinition, CreateTableStatement, ParseResult } from '../../../grammar/ast';
import { nativeName } from '../schema/types';
import { shardAbove } from '../schema/shard';
import type { Fix } from './types';
import { freeName, sameName } from './identifiers';
import { addBodyElements, commentAboveEdit, identifierText, partitionKeyEdits } from './tableEdits';
import { quoteName } from '../util/names';

export const DEFAULT_SHARD_COUNT = 16;

export interface ShardColumnOptions {
  /** Number of shards; the caller derives it from workload hints, else from the setting. Default 16. */
  shardCount?: number;
  /** Columns the application queries this table by (as Cassandra names them): offered first. */
  queriedColumns?: readonly string[];
  /** High-cardinality columns to choose from (hot-partition's data.candidates). */
  candidates?: readonly string[];
  /** Most calculated-shard actions to offer. Default 4. */
  maxSourceColumns?: number;
}

const SHARD_NAMES = ['shard', 'shard_id', 'shard_no', 'shard_num', 'shard_key'];

// Native types the shard maths serializes and hashes (not counters, durations or floats' rounding traps).
const HASHABLE = new Set(['ascii', 'text', 'varchar', 'uuid', 'timeuuid', 'int', 'bigint', 'varint', 'smallint', 'blob', 'inet', 'timestamp', 'date']);
// Without the rule's candidates: text and uuids, which spread well under a hash; timeuuids are left out
// like the rule does (reads rarely know the exact timeuuid).
const TEXT_AND_IDS = new Set(['text', 'varchar', 'ascii', 'uuid']);

/** The shard count to use: a positive integer, else the default. */
export function normalizeShardCount(count: number | undefined): number {
  return count !== undefined && Number.isInteger(count) && count >= 1 ? count : DEFAULT_SHARD_COUNT;
}

/**
 * Columns a calculated shard can be derived from, best first: outside the partition key, not static
 * (one value per partition cannot spread it), of a type murmur3 hashes; clustering columns first, then
 * columns queries restrict, then the rest in definition order. `candidates` (the hot-partition rule's
 * high-cardinality columns) narrows the choice when given; else text and uuid columns qualify.
 */
export function shardSourceColumns(table: CreateTableStatement, options: ShardColumnOptions = {}): ColumnDefinition[] {
  const pk = table.primaryKey;
  if (!pk) return [];
  const inKey = (c: ColumnDefinition) => pk.partitionKey.some((k) => k.name === c.name.name);
  const clusteringIndex = (c: ColumnDefinition) => pk.clustering.findIndex((k) => k.name === c.name.name);
  const suitable = table.columns.filter((c) => {
    if (inKey(c) || c.isStatic) return false;
    const type = nativeName(c.type);
    if (!type || !HASHABLE.has(type)) return false;
    return options.candidates ? options.candidates.includes(c.name.name) : TEXT_AND_IDS.has(type);
  });
  const queried = options.queriedColumns ?? [];
  const rank = (c: ColumnDefinition): number => {
    const ci = clusteringIndex(c);
    if (ci >= 0) return ci;
    return queried.includes(c.name.name) ? 100 : 200;
  };
  return suitable
    .map((c, i) => ({ c, i, r: rank(c) }))
    .sort((a, b) => a.r - b.r || a.i - b.i)
    .slice(0, options.maxSourceColumns ?? 4)
    .map(({ c }) => c);
}

/**
 * "Add a random shard column" and one "Add a calculated shard column from <col>" per sensible source
 * column. Offers nothing for a table that is already sharded or whose primary key did not parse.
 */
export function addShardColumnFixes(text: string, parse: ParseResult, table: CreateTableStatement, options: ShardColumnOptions = {}): Fix[] {
  if (!table.primaryKey || table.primaryKey.partitionKey.length === 0 || table.columns.length === 0) return [];
  if (shardAbove(parse.comments, text, table.range.start.offset)) return [];
  const count = normalizeShardCount(options.shardCount);
  const taken = [...table.columns.map((c) => c.name.name), ...table.primaryKey.partitionKey.map((k) => k.name)];
  const column = freeName(SHARD_NAMES, taken);
  const shardSql = quoteName(column);
  const base = shardColumnEdits(text, table, column);
  if (!base) return [];
  const fixes: Fix[] = [];
  const withAnnotation = (formula: string) => [
    ...base,
    commentAboveEdit(text, table.range.start.offset, [`@shard ${shardSql} = ${formula}`]),
  ];
  const shards = `${count} shard${count === 1 ? '' : 's'}`;
  for (const source of shardSourceColumns(table, options)) {
    if (sameName(source.name.name, column)) continue;
    const sourceText = identifierText(source.name);
    fixes.push({
      title: `Add a calculated shard column from ${sourceText} (${shards})`,
      kind: 'quickfix',
      safeForFixAll: false,
      edits: withAnnotation(`murmur3(${sourceText}) % ${count} + 1`),
    });
  }
  fixes.push({
    title: `Add a random shard column (${shards})`,
    kind: 'quickfix',
    safeForFixAll: false,
    edits: withAnnotation(`random(${count})`),
  });
  return fixes;
}

/** Edits that add `<column> int` to the table and append it to the partition key. */
function shardColumnEdits(text: string, table: CreateTableStatement, column: string) {
  const key = partitionKeyEdits(text, table, column);
  if (!key) return undefined;
  const elements = [{ sql: `${quoteName(column)} int` }, ...(key.clause ? [key.clause] : [])];
  const body = addBodyElements(text, table, elements);
  if (!body) return undefined;
  return [...key.edits, ...body];
}
