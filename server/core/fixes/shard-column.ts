// Write sharding for a hot partition: add an `int` shard column to the partition key, with the
// `-- @shard` annotation that tells cqlint (and the team) how the application fills it.
import type { ColumnDefinition, CreateTableStatement, ParseResult } from '../../../grammar/ast';
import { nativeName } from '../schema/types';
import { shardAbove } from '../schema/shard';
import type { FileEdits, Fix, TextEdit } from './types';
import { freeName, sameName } from './identifiers';
import { addBodyElements, commentAboveEdit, identifierText, partitionKeyEdits, type BodyElement } from './table-edits';
import { quoteName } from '../util/names';
import type { TableReads } from './reads';
import { readAllShardsFor, type ShardLayout } from './shard-queries';
import { bucketColumn, bucketPeriodText, bucketSourceColumn, type BucketGranularity } from './time-bucket';
import { applyEdits, indentAt, lineBreakAt, restOfLineAfter, startsLine } from './text';

const DEFAULT_SHARD_COUNT = 16;

interface ShardColumnOptions {
  /** Number of shards; the caller derives it from workload hints, else from the setting. Default 16. */
  shardCount?: number;
  /** Columns the application queries this table by (as Cassandra names them): offered first. */
  queriedColumns?: readonly string[];
  /** High-cardinality columns to choose from (hot-partition's data.candidates). */
  candidates?: readonly string[];
  /** Most calculated-shard actions to offer. Default 4. */
  maxSourceColumns?: number;
  /** What the workspace's statements do with the table (the reference index); orders and shapes the fixes. */
  reads?: TableReads;
  /** The table's name as the messages say it (ks.table). */
  tableName?: string;
  /** The file being fixed: rewrites of reads in it go into the fix's own edits. */
  filePath?: string;
  /** Also add this time bucket, in the same edit (the key is hot and grows without bound). */
  bucket?: { granularity: BucketGranularity; timeColumn?: string };
  /** Also offer a sharded copy of the table under this (free) name. */
  copyName?: string;
  /** Largest shard count a rewritten read names in one IN (see ShardQueryOptions). */
  maxInListShards?: number;
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

/** One way to fill the shard column: from a source column's hash, or at random. */
interface ShardChoice {
  source?: ColumnDefinition;
  formula: string;
  /** "calculated shard column from title" / "random shard column". */
  what: string;
}

/**
 * The shard column fixes, in the order the workspace's reads call for (see `options.reads`):
 * - reads pin rows by a column a calculated shard can hash: the calculated shard from the most pinned
 *   one first, preferred (those reads still find their row on one shard);
 * - reads take whole partitions only: the random shard first, preferred (such reads visit every shard
 *   whatever the formula, and random spreads best);
 * - no reads in the workspace: both, the titles say so.
 * Reads of whole partitions are rewritten in the same fix to visit every shard. With `options.bucket`
 * each fix also adds that time bucket (a hot key that also grows without bound). With
 * `options.copyName`, the first fix is also offered as a sharded copy of the table, the original left
 * as it is. Offers nothing for a table that is already sharded or whose primary key did not parse.
 */
export function addShardColumnFixes(text: string, parse: ParseResult, table: CreateTableStatement, options: ShardColumnOptions = {}): Fix[] {
  if (!table.primaryKey || table.primaryKey.partitionKey.length === 0 || table.columns.length === 0) return [];
  if (shardAbove(parse.comments, text, table.range.start)) return [];
  const count = normalizeShardCount(options.shardCount);
  const taken = [...table.columns.map((c) => c.name.name), ...table.primaryKey.partitionKey.map((k) => k.name)];
  const column = freeName(SHARD_NAMES, taken);
  const shardSql = quoteName(column);
  const bucketSource = options.bucket ? bucketSourceColumn(table, options.bucket.timeColumn) : undefined;
  const bucket = options.bucket ? bucketColumn(options.bucket.granularity, bucketSource, [...taken, column]) : undefined;
  const keyColumns = bucket ? [column, bucket.column] : [column];
  const base = shardColumnEdits(text, table, keyColumns, bucket?.element);
  if (!base) return [];
  const reads = options.reads;
  const pinned = reads?.pinnedColumns ?? [];

  const sources = shardSourceColumns(table, { ...options, maxSourceColumns: Infinity })
    .filter((source) => !sameName(source.name.name, column))
    .map((source, i) => ({ source, i, pin: pinned.indexOf(source.name.name) }))
    // Columns the reads pin first, most pinned first; then the usual ranking.
    .sort((a, b) => (a.pin < 0 ? Infinity : a.pin) - (b.pin < 0 ? Infinity : b.pin) || a.i - b.i)
    .slice(0, options.maxSourceColumns ?? 4)
    .map(({ source }) => source);
  const calculated: ShardChoice[] = sources.map((source) => {
    const sourceText = identifierText(source.name);
    return { source, formula: `murmur3(${sourceText}) % ${count} + 1`, what: `calculated shard column from ${sourceText}` };
  });
  const random: ShardChoice = { formula: `random(${count})`, what: 'random shard column' };
  const readsPinRows = !!reads && pinned.length > 0 && calculated[0]?.source !== undefined && pinned.includes(calculated[0].source.name.name);
  const readsTakeBuckets = !!reads && !readsPinRows && reads.bucketReads.length > 0;
  const choices = readsTakeBuckets ? [random, ...calculated] : [...calculated, random];
  const preferred = readsPinRows || readsTakeBuckets ? choices[0] : undefined;

  const shards = `${count} shard${count === 1 ? '' : 's'}`;
  const bucketText = bucket ? ` and a time bucket ${bucket.column} ${bucket.type} (${bucketPeriodText(bucket.granularity)})` : '';
  const rewrites = (reads?.bucketReads ?? []).length;
  const why = (choice: ShardChoice): string => {
    if (!reads) return '';
    if (reads.count === 0) return `; no reads of ${options.tableName ?? 'the table'} in the workspace`;
    const parts: string[] = [];
    if (choice.source && pinned.includes(choice.source.name.name)) parts.push(`reads by ${identifierText(choice.source.name)} find one shard`);
    if (rewrites) parts.push(`${rewrites} read${rewrites === 1 ? '' : 's'} of whole partitions then read${rewrites === 1 ? 's' : ''} every shard`);
    return parts.length ? `: ${parts.join('; ')}` : '';
  };
  const fixes: Fix[] = [];
  for (const choice of choices) {
    const readEdits = readRewrites(options, { shardColumn: column, count, offset: 1, method: choice.source ? 'murmur3' : 'random' });
    fixes.push({
      title: `Add a ${choice.what} (${shards})${bucketText}${why(choice)}`,
      kind: 'quickfix',
      ...(choice === preferred ? { isPreferred: true } : {}),
      safeForFixAll: false,
      edits: [...base, commentAboveEdit(text, table.range.start, [`@shard ${shardSql} = ${choice.formula}`]), ...readEdits.here],
      ...(readEdits.elsewhere.length ? { otherFiles: readEdits.elsewhere } : {}),
    });
  }
  const first = choices[0];
  if (options.copyName && first) {
    const copy = shardedCopyFix(text, table, options.copyName, keyColumns, bucket?.element, `@shard ${shardSql} = ${first.formula}`, options.tableName);
    if (copy) fixes.push({ ...copy, title: `Create a sharded copy of ${options.tableName ?? identifierText(table.name.name)}: ${options.copyName}, ${first.what.replace(' column', '')} (${shards})${bucketText}` });
  }
  return fixes;
}

/** Edits that make the bucket reads of `options.reads` read every shard of `layout`, in this file and in others. */
function readRewrites(options: ShardColumnOptions, layout: ShardLayout): { here: TextEdit[]; elsewhere: FileEdits[] } {
  const here: TextEdit[] = [];
  const elsewhere = new Map<string, TextEdit[]>();
  for (const read of options.reads?.bucketReads ?? []) {
    const [fix] = readAllShardsFor(read.text, read.statement, options.tableName ?? '', layout, { maxInListShards: options.maxInListShards });
    if (!fix) continue;
    if (read.filePath === options.filePath) here.push(...fix.edits);
    else elsewhere.set(read.filePath, [...(elsewhere.get(read.filePath) ?? []), ...fix.edits]);
  }
  return { here, elsewhere: [...elsewhere].map(([filePath, edits]) => ({ filePath, edits })) };
}

/**
 * "Create a sharded copy": the table again under `name`, with the shard (and bucket) columns in its
 * partition key, its `-- @shard` line and a note on moving the data, inserted after the original, which
 * is left exactly as it is (a deployed table's primary key cannot be altered).
 */
function shardedCopyFix(
  text: string, table: CreateTableStatement, name: string, keyColumns: string[], bucket: BodyElement | undefined,
  annotation: string, tableName: string | undefined,
): Omit<Fix, 'title'> | undefined {
  const start = table.range.start;
  const end = table.range.end;
  const inside = shardColumnEdits(text, table, keyColumns, bucket);
  if (!inside) return undefined;
  const rename: TextEdit = { start: table.name.name.range.start, end: table.name.name.range.end, newText: quoteName(name) };
  const statement = applyEdits(text.slice(start, end), [...inside, rename].map((e) => ({ ...e, start: e.start - start, end: e.end - start })));
  const original = tableName ?? identifierText(table.name.name);
  const copyName = table.name.keyspace ? `${identifierText(table.name.keyspace)}.${quoteName(name)}` : quoteName(name);
  const eol = lineBreakAt(text, end);
  const indent = startsLine(text, start) ? indentAt(text, start) : '';
  const comments = [
    `${copyName}: a sharded copy of ${original}, whose primary key cannot be altered once deployed.`,
    `Moving the data: write to both tables, copy the existing rows (computing the shard), move the reads here, then drop ${original}.`,
    annotation,
  ];
  // After the statement's line when only comments follow it there, so that they stay with the original.
  const rest = restOfLineAfter(text, end);
  const at = rest && !rest.comma ? rest.lineEnd : end;
  const block = `${eol}${eol}${comments.map((c) => `${indent}-- ${c}${eol}`).join('')}${indent}${statement}`;
  return { kind: 'quickfix', safeForFixAll: false, edits: [{ start: at, end: at, newText: block }] };
}

/** Edits that add `<shard> int` (and the bucket column) to the table and append them to the partition key. */
function shardColumnEdits(text: string, table: CreateTableStatement, keyColumns: string[], bucket?: BodyElement): TextEdit[] | undefined {
  const key = partitionKeyEdits(text, table, keyColumns);
  if (!key) return undefined;
  const elements = [{ sql: `${quoteName(keyColumns[0]!)} int` }, ...(bucket ? [bucket] : []), ...(key.clause ? [key.clause] : [])];
  const body = addBodyElements(text, table, elements);
  if (!body) return undefined;
  return [...key.edits, ...body];
}
