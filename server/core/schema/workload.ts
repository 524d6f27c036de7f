// The workload model: for one table, how many partitions take its writes, whether rows arrive per event,
// how fast, and what bounds a partition. Built from the column vocabulary (columns.ts), the table's
// options and the user's hints (.cqlint.json `tables` or a `-- @cqlint` comment); the partition rules
// (hot-partition, unbounded-partition, large-partition, partition-throughput) and the table hover all
// decide from it. Documented in docs/partition-model.md.
import type { TableHints } from '../vocabulary/config';
import { nameRecord, ownEntry } from '../util/names';
import {
  FEW_VALUES,
  boundedContainerColumn,
  bucketPeriodSeconds,
  namesEventStream,
  namesMachineSource,
  personOwnerColumn,
  profileColumn,
  type ColumnEvidence,
  type ColumnProfile,
} from './columns';
import type { ColumnInfo, TableInfo } from './model';
import type { TableReference } from './references';
import { isCollection, nativeName } from './types';
import { formatCount } from '../util/format';
import { WeakRecentCache } from '../util/recent-cache';

/** How many tables' workload answers are kept (see `workloads`). */
export const WORKLOADS_KEPT = 4096;

/**
 * Who fills one partition, which sets the default rate:
 * - `event`: the table or its time column names an event stream (readings, logs, views, audit, messages ...);
 * - `machine`: the partition key names a machine-like source (sensor, device, host ...);
 * - `aggregate`: a few-valued key collects the rows of many entities (status, country, queue, a time bucket or shard alone);
 * - `popular`: a grouping key (tag, city) whose popular values collect many entities' rows;
 * - `entity`: one entity's own history (a user's comments), or any partition one person owns (an inbox): human pace;
 * - `queue`: the statements use the table as a queue (Consumption): its items arrive as events do, whoever owns the partition.
 */
type RateClass = 'event' | 'machine' | 'aggregate' | 'popular' | 'entity' | 'queue';

/** Default rows per second arriving in one partition, by rate class (stated in every message that uses one). */
export const DEFAULT_ROWS_PER_SECOND: Record<RateClass, number> = {
  event: 1 / 60,
  machine: 1 / 60,
  aggregate: 1,
  popular: 1 / 60,
  entity: 1 / 3600,
  queue: 1 / 60,
};

/** How the key spreads writes: see partitionKeyShape. */
export type KeyShape = 'time-bucket' | 'few' | 'shard-only' | 'sharded' | 'spread' | 'unknown';

export interface PartitionBound {
  /**
   * `bucket`: a time bucket in the key; `split`: a deliberate split column (`bucket int`); `natural`: the key
   * names something that ends (a match, a trace); `ttl`: a TTL (judged by the rules against the growth rate);
   * `none`. A shard column is no bound: it spreads writes over N partitions that each still grow.
   */
  kind: 'bucket' | 'split' | 'natural' | 'ttl' | 'none';
  column?: string;
  /** A bucket's period in seconds, when its name or type says (`hour`, a `date`). */
  bucketSeconds?: number;
  ttlSeconds?: number;
  ttlSource?: 'default_time_to_live' | 'USING TTL';
}

export interface TableWorkload {
  table: TableInfo;
  partitionKey: ColumnProfile[];
  clustering: ColumnProfile[];
  keyShape: KeyShape;
  /** Partitions taking writes at one time (a time bucket counts its current value only); Infinity when spread; undefined when unknown. */
  livePartitions?: number;
  /** A few key values take most of the traffic (country, language, tag). */
  skewed: boolean;
  /** Rows are added to a partition over time: by a time-ordered clustering column, or by accumulating identifiers. */
  growth?: { by: 'time' | 'identifier'; column: ColumnInfo; signal: string };
  /** Writes per event that add no row but rewrite cells of one partition: counters, collections appended to. */
  perEventCells?: 'counter' | 'collection';
  rateClass: RateClass;
  rateSignal: string;
  /** Rows per second arriving in one partition: hinted, or the rate class default. */
  rowsPerSecond: number;
  rateHinted: boolean;
  bound: PartitionBound;
  /**
   * Rows one partition can ever hold when its clustering columns are all few-valued (26 letters, 200
   * countries), or 1 without clustering columns: such a partition does not grow with time. Absent when
   * rows arrive per event or the model cannot count them.
   */
  rowsBound?: { rows: number; signal: string };
  /** How the workspace's statements consume the rows: see consumptionOf. */
  consumption?: Consumption;
  /** The partition key column that names one person (user_id), when the key does. */
  personOwner?: string;
}

/**
 * Rows the application deletes again (schema/references.ts facts):
 * - `queue`: a query reads a partition's oldest rows and a DELETE removes rows of it by their clustering
 *   key: every read then scans the tombstones of the rows consumed before it;
 * - `status-move`: a row is deleted from one partition of a status-like key and inserted into another
 *   (in one BATCH, or with two different literal values of the key column).
 */
export type Consumption =
  | { kind: 'queue'; read: TableReference; delete: TableReference }
  | { kind: 'status-move'; column: string; delete: TableReference; insert: TableReference; from?: string; to?: string };

/** Hints merged per key: `override` wins, column entries merge per column. */
export function mergeHints(base: TableHints | undefined, override: TableHints | undefined): TableHints | undefined {
  if (!base) return override;
  if (!override) return base;
  const merged: TableHints = { ...base, ...override };
  // Keyed by column names: records without a prototype (util/names.ts).
  if (base.columnSizes || override.columnSizes)
    merged.columnSizes = Object.assign(nameRecord<number>(), base.columnSizes, override.columnSizes);
  if (base.columns || override.columns) {
    const columns = Object.assign(nameRecord<NonNullable<TableHints['columns']>[string]>(), base.columns);
    for (const [name, facts] of Object.entries(override.columns ?? {}))
      columns[name] = { ...ownEntry(columns, name), ...facts };
    merged.columns = columns;
  }
  return merged;
}

function keyShapeOf(key: ColumnProfile[]): KeyShape {
  if (!key.length) return 'unknown';
  if (key.every((c) => c.nature === 'shard')) return 'shard-only';
  if (key.some((c) => c.nature === 'shard' || c.nature === 'split')) return 'sharded';
  if (key.some((c) => c.nature === 'identifier' || c.nature === 'instant' || c.nature === 'grouping')) return 'spread';
  if (key.some((c) => c.nature === 'unknown')) return 'unknown';
  if (key.every((c) => c.nature === 'bucket')) return 'time-bucket';
  return 'few';
}

function livePartitionsOf(key: ColumnProfile[], shape: KeyShape): number | undefined {
  if (shape === 'spread') return Infinity;
  if (shape === 'unknown') return undefined;
  let n = 1;
  for (const c of key) {
    if (c.nature === 'bucket') continue; // only the current bucket takes writes
    if (c.distinct === undefined) return undefined;
    n *= c.distinct;
  }
  return n;
}

const SEQUENTIAL_ID_TYPES = new Set(['bigint', 'varint']);

function growthOf(
  table: TableInfo,
  clustering: ColumnProfile[],
  shape: KeyShape,
  key: ColumnProfile[],
): TableWorkload['growth'] {
  const time = clustering.findIndex((c) => c.nature === 'instant');
  if (time >= 0) return { by: 'time', column: table.clustering[time]!, signal: clustering[time]!.signal };
  // Without a time column, ids pile up forever under a shard alone or a popular grouping value (a tag),
  // and in a table of events (messages by a snowflake id). Under a few-valued key (status, country)
  // hot-partition already says that all rows share those partitions.
  const grouping =
    shape === 'spread' && key.some((c) => c.nature === 'grouping') && key.every((c) => c.nature !== 'identifier');
  const id = clustering.findIndex((c) => c.nature === 'identifier');
  if (id >= 0 && (shape === 'shard-only' || grouping))
    return { by: 'identifier', column: table.clustering[id]!, signal: clustering[id]!.signal };
  // In a table of events, a bigint id is a snowflake or sequence: it grows with time like a timestamp.
  const sequential = clustering.findIndex(
    (c, i) => c.nature === 'identifier' && SEQUENTIAL_ID_TYPES.has(nativeName(table.clustering[i]!.type) ?? ''),
  );
  if (sequential >= 0 && namesEventStream(table)) {
    return {
      by: 'identifier',
      column: table.clustering[sequential]!,
      signal: `${clustering[sequential]!.signal}, a ${table.clustering[sequential]!.typeText} id in a table of events`,
    };
  }
  return undefined;
}

const APPENDED_ELEMENT_TYPES = new Set(['uuid', 'timeuuid', 'timestamp', 'inet']);

function perEventCellsOf(table: TableInfo): TableWorkload['perEventCells'] {
  if (table.counter || table.columns.some((c) => nativeName(c.type) === 'counter')) return 'counter';
  // A non-frozen collection of ids or instants is appended to per event (`visitors set<uuid>`); one of
  // text or numbers may as well be written once, so it says nothing.
  const appended = table.columns.some(
    (c) =>
      (c.role === 'regular' || c.role === 'static') &&
      c.type?.kind === 'CollectionType' &&
      isCollection(c.type) &&
      APPENDED_ELEMENT_TYPES.has(nativeName(c.type.elementTypes[0]) ?? ''),
  );
  return appended ? 'collection' : undefined;
}

/**
 * The TTL every write of the workspace sets (`USING TTL`), the longest one: undefined when there are no
 * writes or one of them sets none (its rows then live as long as the table's default says).
 */
export function writeTtlSeconds(references: readonly TableReference[] | undefined): number | undefined {
  // One loop, no copies: a table of a workspace of migrations has thousands of statements on it, read for
  // every table that shares them.
  let max: number | undefined;
  for (const r of references ?? []) {
    if (r.kind !== 'Insert' && r.kind !== 'Update') continue;
    if (r.ttlSeconds === undefined || r.ttlSeconds <= 0) return undefined;
    if (max === undefined || r.ttlSeconds > max) max = r.ttlSeconds;
  }
  return max;
}

/**
 * The workload model of a table (the shape after its ALTERs) with the user's hints and, when given, the
 * workspace's statements on it (their USING TTL).
 */
export function tableWorkload(
  table: TableInfo,
  hints?: TableHints,
  references?: readonly TableReference[],
): TableWorkload {
  // Every partition rule and the hover ask for the same table with the same hints and references: computed
  // once for them. (The Project hands out one array per table while it keeps the answer, until a statement
  // on it changes, the answer is evicted or a push server forgets its lookups; then an equal new array,
  // computed again once here.) A rule that asks without the references (large-partition's schema figures)
  // has a slot of its own: with one slot per table the two questions evicted each other's answer on every
  // call. One slot each, so that a table keeps no references array the workspace has since replaced.
  let cached = workloads.get(table);
  if (!cached) workloads.set(table, (cached = {}));
  const slot = references ? 'withReferences' : 'bare';
  const hit = cached[slot];
  if (hit && hit.hints === hints && hit.references === references) return hit.workload;
  const workload = computeWorkload(table, hints, references);
  cached[slot] = { hints, references, workload };
  return workload;
}

interface KeptWorkload {
  hints: TableHints | undefined;
  references: readonly TableReference[] | undefined;
  workload: TableWorkload;
}

/**
 * The answers for the tables asked about lately. Not one per table of the model: a server that publishes a
 * 2,000-file workspace lints every file once, and a WeakMap kept ~70 MiB of answers for its 32,000 tables
 * that only an edit of their file would ask for again. The bound is above the tables of any one large file
 * (the 10,000-line bench file's), so an edited file's other tables keep their answers across edits. Its keys
 * are held weakly: the module outlives every Project, and strong keys kept a dropped Project's tables, their
 * references and the Project itself (test/analysis/dropped-project.test.ts).
 */
const workloads = new WeakRecentCache<TableInfo, { bare?: KeptWorkload; withReferences?: KeptWorkload }>(
  WORKLOADS_KEPT,
);

/**
 * Lets go of the workload answers and the statements' evidence (see Project.forgetLookups): both are made
 * from their keys alone (table, hints, references), so an answer made again is equal to the one let go.
 */
export function forgetWorkloads(): void {
  workloads.clear();
  factsByReferences = new WeakMap();
}

function computeWorkload(table: TableInfo, hints?: TableHints, references?: readonly TableReference[]): TableWorkload {
  const distinctOf = (c: ColumnInfo): number | undefined => ownEntry(hints?.columns, c.name)?.distinct;
  const refs = references ?? [];
  const evidence = statementEvidence(table, refs);
  const partitionKey = table.partitionKey.map((c) => profileColumn(c, table, distinctOf(c), evidence?.get(c.name)));
  const clustering = table.clustering.map((c) => profileColumn(c, table, distinctOf(c), evidence?.get(c.name)));
  const keyShape = keyShapeOf(partitionKey);
  const livePartitions = livePartitionsOf(partitionKey, keyShape);
  const growth = growthOf(table, clustering, keyShape, partitionKey);
  const skewed =
    keyShape !== 'sharded' &&
    keyShape !== 'shard-only' &&
    partitionKey.some((c) => c.skewed) &&
    partitionKey.every((c) => c.nature !== 'identifier');

  let rateClass: RateClass;
  let rateSignal: string;
  const person = personOwnerColumn(table);
  if (keyShape === 'few' || keyShape === 'shard-only' || keyShape === 'time-bucket') {
    // A key many entities share collects all their rows, whatever the table is called.
    rateClass = 'aggregate';
    rateSignal = `the partition key (${table.partitionKey.map((c) => c.name).join(', ')}) collects the rows of many entities`;
  } else if (keyShape === 'spread' && skewed) {
    rateClass = 'popular';
    rateSignal = `a popular ${table.partitionKey.map((c) => c.name).join(', ')} collects the rows of many entities`;
  } else if (namesMachineSource(table)) {
    rateClass = 'machine';
    rateSignal = `the partition key names a machine-like source (${table.partitionKey.map((c) => c.name).join(', ')})`;
  } else if (person) {
    // One person's partition (an inbox, sessions, settings) grows at a human pace whatever the table is called.
    rateClass = 'entity';
    rateSignal = `the partition key names one person (${person.name}): a human pace`;
  } else if (namesEventStream(table, growth?.by === 'time' ? growth.column : undefined)) {
    rateClass = 'event';
    rateSignal = `the table or its time column names an event stream (${table.name})`;
  } else {
    rateClass = 'entity';
    rateSignal = "one entity's own history";
  }
  const consumption = consumptionOf(table, partitionKey, clustering, refs);
  // A queue is no one's history: its items arrive at an event stream's pace (a few-valued key's stays).
  if (consumption?.kind === 'queue' && (rateClass === 'entity' || rateClass === 'popular')) {
    rateClass = 'queue';
    rateSignal = 'the statements read the oldest rows and delete them: a queue';
  }
  // A counter table's writes are increments of existing cells, not new rows.
  const hintedRate =
    hints?.rowsPerSecondPerPartition ?? (table.counter ? undefined : hints?.writesPerSecondPerPartition);
  const rowsPerSecond = hintedRate ?? DEFAULT_ROWS_PER_SECOND[rateClass];

  let bound: PartitionBound = { kind: 'none' };
  // Several buckets in the key (a day refined into hours): a partition spans the finest of them.
  let bucket: { name: string; seconds?: number } | undefined;
  for (const [i, p] of partitionKey.entries()) {
    if (p.nature !== 'bucket') continue;
    const seconds = bucketPeriodSeconds(table.partitionKey[i]!);
    if (!bucket || (seconds !== undefined && (bucket.seconds === undefined || seconds < bucket.seconds)))
      bucket = { name: p.name, ...(seconds !== undefined ? { seconds } : {}) };
  }
  const split = partitionKey.find((c) => c.nature === 'split');
  const container = boundedContainerColumn(table);
  if (bucket)
    bound = {
      kind: 'bucket',
      column: bucket.name,
      ...(bucket.seconds !== undefined ? { bucketSeconds: bucket.seconds } : {}),
    };
  else if (split) bound = { kind: 'split', column: split.name };
  else if (container) bound = { kind: 'natural', column: container.name };
  else {
    // USING TTL on every write overrides the table default for those rows.
    const writeTtl = writeTtlSeconds(references);
    if (writeTtl !== undefined) bound = { kind: 'ttl', ttlSeconds: writeTtl, ttlSource: 'USING TTL' };
    else if (table.defaultTtlSeconds)
      bound = { kind: 'ttl', ttlSeconds: table.defaultTtlSeconds, ttlSource: 'default_time_to_live' };
  }

  const perEventCells = perEventCellsOf(table);
  const rowsBound = growth ? undefined : rowsBoundOf(clustering, perEventCells);
  return {
    table,
    partitionKey,
    clustering,
    keyShape,
    ...(livePartitions !== undefined ? { livePartitions } : {}),
    skewed,
    ...(growth ? { growth } : {}),
    ...(perEventCells ? { perEventCells } : {}),
    rateClass,
    rateSignal: hintedRate !== undefined ? 'hint' : rateSignal,
    rowsPerSecond,
    rateHinted: hintedRate !== undefined,
    bound,
    ...(rowsBound ? { rowsBound } : {}),
    ...(consumption ? { consumption } : {}),
    ...(person ? { personOwner: person.name } : {}),
  };
}

/**
 * What the workspace's statements say of the key columns, in one pass over them: (partition-key columns)
 * the literal values a column is given when every application statement that names it gives one, whether
 * a column is written with now(), and (clustering columns) whether it is read by ranges.
 */
function statementEvidence(
  table: TableInfo,
  references: readonly TableReference[],
): Map<string, ColumnEvidence> | undefined {
  if (!references.length) return undefined;
  const partition = table.partitionKey.map((c) => c.name);
  const clustering = table.clustering.map((c) => c.name);
  // A workspace of migrations defines one table in hundreds of files, and every copy gets the same
  // references array (Project.referencesTo): the evidence depends only on it and the key's column names.
  const byKey = referencesFacts(references).evidence;
  const key = JSON.stringify([partition, clustering]);
  if (byKey.has(key)) return byKey.get(key);
  const evidence = evidenceOf(partition, clustering, references);
  byKey.set(key, evidence);
  return evidence;
}

/** What the workload reads of one references array (never changed by their readers): see referencesFacts. */
interface ReferencesFacts {
  /** statementEvidence's answers, by the key's column names. */
  evidence: Map<string, Map<string, ColumnEvidence> | undefined>;
  /** Whether any of them is a DELETE (consumptionOf looks no further when none is). */
  deletes: boolean;
}

/**
 * The facts of a references array, read once per array: every copy of a table in a workspace of migrations
 * gets the same array, and each copy's workload scanned all of it for a DELETE again.
 */
function referencesFacts(references: readonly TableReference[]): ReferencesFacts {
  let facts = factsByReferences.get(references);
  if (!facts)
    factsByReferences.set(
      references,
      (facts = { evidence: new Map(), deletes: references.some((r) => r.kind === 'Delete') }),
    );
  return facts;
}

let factsByReferences = new WeakMap<readonly TableReference[], ReferencesFacts>();

function evidenceOf(
  partition: readonly string[],
  clustering: readonly string[],
  references: readonly TableReference[],
): Map<string, ColumnEvidence> | undefined {
  // A partition-key column's literals; null once a statement names it without one (a bind marker).
  const literals = new Map<string, string[] | null>();
  const now = new Set<string>();
  const ranged = new Set<string>();
  for (const r of references) {
    if (r.now) for (const c of r.now) now.add(c);
    if (r.kind === 'Select') for (const c of r.ranged) if (clustering.includes(c)) ranged.add(c);
    // Literal values speak in application code only (a statement that binds its other values): examples
    // and scripts insert a few literal rows of any table; and for partition keys only.
    if (r.allLiteral) continue;
    for (const c of r.pinned) {
      if (!partition.includes(c) || literals.get(c) === null) continue;
      const values = r.literals?.[c];
      if (!values) {
        literals.set(c, null);
        continue;
      }
      const list = literals.get(c) ?? [];
      for (const v of values) if (!list.includes(v)) list.push(v);
      literals.set(c, list);
    }
  }
  if (!now.size && !ranged.size && !literals.size) return undefined;
  const out = new Map<string, ColumnEvidence>();
  for (const c of partition.concat(clustering)) {
    const given = partition.includes(c) ? literals.get(c) : undefined;
    const evidence: ColumnEvidence = {
      ...(given ? { literals: given } : {}),
      ...(now.has(c) ? { writtenWithNow: true } : {}),
      ...(ranged.has(c) ? { rangeRead: true } : {}),
    };
    if (Object.keys(evidence).length) out.set(c, evidence);
  }
  return out.size ? out : undefined;
}

/** Rows a partition can hold when every clustering column is few-valued (or there is none): see TableWorkload.rowsBound. */
const ONE_ROW = Object.freeze({ rows: 1, signal: 'no clustering columns: one row per partition' });

function rowsBoundOf(
  clustering: ColumnProfile[],
  perEventCells: TableWorkload['perEventCells'],
): TableWorkload['rowsBound'] {
  // Without clustering a partition is one row; counters rewrite its cells, an appended collection grows them.
  if (!clustering.length) return perEventCells === 'collection' ? undefined : ONE_ROW;
  let rows = 1;
  for (const c of clustering) {
    if ((c.nature !== 'enum' && c.nature !== 'cyclic') || c.distinct === undefined || !Number.isFinite(c.distinct))
      return undefined;
    rows *= c.distinct;
  }
  return { rows, signal: clustering.map((c) => `${c.name}: ~${formatCount(c.distinct!)} values`).join(' × ') };
}

/** A row Delete of the table (not of columns), pinning its whole partition key. */
function rowDeletes(references: readonly TableReference[], pk: readonly string[]): TableReference[] {
  return references.filter((r) => r.kind === 'Delete' && !r.deletesCells && pk.every((k) => r.pinned.includes(k)));
}

/** See Consumption. */
function consumptionOf(
  table: TableInfo,
  partitionKey: ColumnProfile[],
  clustering: ColumnProfile[],
  references: readonly TableReference[],
): Consumption | undefined {
  // Rows leave only by a DELETE: most tables have none, and need no more look.
  if (!table.clustering.length || !references.length || !referencesFacts(references).deletes) return undefined;
  const pk = table.partitionKey.map((c) => c.name);
  const first = table.clustering[0]!.name;
  const deletes = rowDeletes(references, pk).filter((r) => r.pinned.includes(first) || r.ranged.includes(first));
  if (!deletes.length) return undefined;
  const inserts = references.filter((r) => r.kind === 'Insert' && pk.every((k) => r.pinned.includes(k)));
  // A move: the delete and the insert of one BATCH, or a status-like key column given two different literals.
  for (const d of deletes) {
    const together = d.batch && inserts.find((i) => i.batch === d.batch);
    if (together) {
      const column = table.partitionKey[partitionKey.findIndex((p) => p.nature === 'enum')]?.name ?? pk[0]!;
      return { kind: 'status-move', column, delete: d, insert: together, ...literalPair(column, d, together) };
    }
    for (const [i, p] of partitionKey.entries()) {
      if (p.nature !== 'enum' || p.fromStatements) continue;
      const column = pk[i]!;
      const from = d.literals?.[column];
      const to = inserts.find((x) => x.literals?.[column]?.some((v) => !from?.includes(v)));
      if (from && to) return { kind: 'status-move', column, delete: d, insert: to, ...literalPair(column, d, to) };
    }
  }
  // A queue: rows arrive in time order and a query reads the oldest of a partition (its first clustering
  // column not pinned), which a DELETE then removes.
  if (clustering[0]!.nature !== 'instant') return undefined;
  const ascending = (table.clustering[0]!.order ?? 'ASC') === 'ASC';
  const read = references.find(
    (r) =>
      r.kind === 'Select' &&
      pk.every((k) => r.pinned.includes(k)) &&
      !r.pinned.includes(first) &&
      (r.order === undefined ? ascending : r.order === 'ASC'),
  );
  return read ? { kind: 'queue', read, delete: deletes[0]! } : undefined;
}

function literalPair(column: string, from: TableReference, to: TableReference): { from?: string; to?: string } {
  const a = from.literals?.[column]?.[0];
  const b = to.literals?.[column]?.find((v) => v !== a);
  return { ...(a !== undefined ? { from: a } : {}), ...(b !== undefined ? { to: b } : {}) };
}

/** Clustering columns that are not all coarse buckets or few values (a calendar by month): rows pile up. */
export function rowsAccumulate(w: TableWorkload): boolean {
  return w.clustering.some((c) => c.nature !== 'bucket' && c.nature !== 'enum' && c.nature !== 'cyclic');
}

/**
 * Whether rows arrive in one partition as time goes by, as the partition rules judge it: per event
 * (growth), at a stated rate, or piling up under a key many entities share (hot-partition's case).
 */
export function rowsArrive(w: TableWorkload): boolean {
  const shared = w.keyShape === 'few' || w.keyShape === 'time-bucket' || w.keyShape === 'shard-only';
  return w.growth !== undefined || w.rateHinted || (shared && rowsAccumulate(w));
}

/** Where a figure comes from: measured on the cluster beats a hint, which beats the model's default. */
export type FigureSource = 'measured' | 'hinted' | 'default';

/** How fast a partition grows and where that rate comes from, as messages state it. */
export interface GrowthRate {
  rowsPerSecond: number;
  note: string;
  /** The rows a partition can ever hold (TableWorkload.rowsBound): no rate is projected past them. */
  rowsBound?: { rows: number; signal: string };
  /**
   * The time bucket of the key, when its length is known (TableWorkload.bound): a partition takes rows only
   * until its bucket closes, so it holds at most the rate × that length, and no time past it is projected.
   */
  bucket?: { column: string; seconds: number };
  /** Measured (evidence), hinted, or the rate class default the note names. */
  source: FigureSource;
  /** Whether the rate is stated: measured or hinted (false: the default, which the user is asked to correct). */
  hinted: boolean;
}

const RATE_CLASS_NOTE: Record<RateClass, string> = {
  event: 'the default for an event stream',
  machine: 'the default for a machine source',
  aggregate: 'the default for a key many entities share',
  popular: 'the default for a popular value of a grouping key',
  entity: "the default for one entity's history",
  queue: "the default for a queue's items",
};

/** The workload's growth rate with its note: the hint, or the stated default and how to correct it. */
export function growthRateOf(w: TableWorkload): GrowthRate {
  return {
    rowsPerSecond: w.rowsPerSecond,
    note: w.rateHinted ? 'hinted' : `${RATE_CLASS_NOTE[w.rateClass]}; correct it with rate= in a -- @cqlint comment`,
    source: w.rateHinted ? 'hinted' : 'default',
    hinted: w.rateHinted,
    ...(w.rowsBound ? { rowsBound: w.rowsBound } : {}),
    ...(w.bound.kind === 'bucket' && w.bound.bucketSeconds !== undefined
      ? { bucket: { column: w.bound.column!, seconds: w.bound.bucketSeconds } }
      : {}),
  };
}

/** The model's guess for a column, in words (for hovers and docs). */
export function describeProfile(p: ColumnProfile): string {
  const n =
    p.distinct === undefined
      ? 'unknown distinct values'
      : Number.isFinite(p.distinct)
        ? `~${formatCount(p.distinct)} distinct values`
        : 'unbounded distinct values';
  return `${p.nature}, ${n}${p.skewed ? ', skewed' : ''} (${p.signal})`;
}

export { FEW_VALUES };
