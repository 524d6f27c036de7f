// Rewrites one statement on a table for a change of its partition key (key-change.ts): the statement
// names the new shard and bucket columns, with the exact value wherever its literals give it, every shard
// or bucket it covers where it reads or deletes more than one, and otherwise a bind marker with a comment
// saying what the application computes. A statement is never left without the new columns unless it
// never named a partition (a scan) or already names them.
import type {
  DeleteStatement,
  Expression,
  InsertStatement,
  Relation,
  SelectStatement,
  Statement,
  UpdateStatement,
} from '../../../grammar/ast';
import { columnNamed } from '../schema/model';
import { nativeName } from '../schema/types';
import { shardValueFrom } from '../token/shard';
import { columnKeyType } from '../schema/key-values';
import { someExpression } from '../util/ast-walk';
import { quoteName } from '../util/names';
import { bucketLiteral, bucketsCovering, periodEnd, timeValue, type TimeBound } from './bucket-values';
import { shardFormulaText, type BucketPlan, type KeyChange, type ShardPlan } from '../partition/plan';
import { commentAboveEdit } from './table-edits';
import { partitionKeyClauses } from '../util/key-clauses';
import type { TextEdit } from './types';

export type DmlStatement = InsertStatement | UpdateStatement | DeleteStatement | SelectStatement;

export function isDmlStatement(statement: Statement): statement is DmlStatement {
  return (
    statement.kind === 'Insert' ||
    statement.kind === 'Update' ||
    statement.kind === 'Delete' ||
    statement.kind === 'Select'
  );
}

export interface RewriteOptions {
  /** The most partitions one statement may name with IN (large-in-partition-key's limit). */
  maxInList: number;
  /** Whether UPDATE and DELETE may restrict the partition key with IN (Cassandra, ScyllaDB; not Keyspaces). */
  inForWrites: boolean;
  /** The shard a literal write into a random-sharded table gets (round robin, so that a script's rows spread). */
  pickRandomShard(): number;
  /** Reads and deletes visit every shard even where their values give the one shard (the "read all shards" choice). */
  everyShard?: boolean;
}

/**
 * - `exact`: every new column got its value from the statement's literals;
 * - `fan-out`: the statement now reads or deletes every shard or bucket it covers (IN);
 * - `application`: a bind marker the application fills, with a comment saying how;
 * - `unchanged`: nothing to do (a scan, or the statement already names the columns).
 */
export type RewriteOutcome = 'exact' | 'fan-out' | 'application' | 'unchanged';

export interface StatementRewrite {
  edits: TextEdit[];
  outcome: RewriteOutcome;
  /** What the application must do, in words (the comment lines written above the statement). */
  notes: string[];
  /** What each new column got: `4`, `(1, 2, 3, 4)`, `?` (for titles). */
  values: { column: string; text: string; kind: 'literal' | 'list' | 'marker' }[];
}

/** The value a new key column gets in one statement. */
type NewValue =
  { kind: 'literals'; literals: string[]; fanOut: boolean; note?: string } | { kind: 'marker'; note: string };

interface StatementFacts {
  statement: DmlStatement;
  /** Values each column is given: INSERT values, `=` and `IN (...)` relations (`IN ?` is one marker). */
  values: Map<string, Expression[]>;
  /** Range restrictions by column (`<`, `<=`, `>`, `>=`, BETWEEN). */
  ranges: Map<
    string,
    { lower?: { expr: Expression; inclusive: boolean }; upper?: { expr: Expression; inclusive: boolean } }
  >;
  /** Columns the statement restricts in any way (or writes, for an INSERT). */
  named: Set<string>;
  usesMarkers: boolean;
  namedMarkers: boolean;
}

/** Every expression a DML statement holds (values, relations, assignments, USING, LIMIT, selectors). */
function statementExpressions(statement: DmlStatement): (Expression | undefined)[] {
  const relations = (list: readonly Relation[]): Expression[] => list.flatMap((r) => [r.left, ...r.right]);
  const using = statement.kind === 'Select' ? [] : statement.using.map((u) => u.value);
  switch (statement.kind) {
    case 'Insert':
      return [...statement.values, statement.json, ...using];
    case 'Update':
      return [
        ...statement.assignments.flatMap((a) => [a.target, a.value]),
        ...relations(statement.where),
        ...relations(statement.conditions),
        ...using,
      ];
    case 'Delete':
      return [...statement.selections, ...relations(statement.where), ...relations(statement.conditions), ...using];
    case 'Select':
      return [
        ...statement.selectors.map((s) => s.expression),
        ...relations(statement.where),
        statement.limit,
        statement.perPartitionLimit,
      ];
  }
}

/** Facts are the same for every key change: computed once per statement (a fix rewrites each once per plan). */
const factsCache = new WeakMap<DmlStatement, StatementFacts>();

function factsOf(statement: DmlStatement): StatementFacts {
  const cached = factsCache.get(statement);
  if (cached) return cached;
  const values = new Map<string, Expression[]>();
  const ranges: StatementFacts['ranges'] = new Map();
  const named = new Set<string>();
  if (statement.kind === 'Insert') {
    statement.columns.forEach((c, i) => {
      named.add(c.name);
      const v = statement.values[i];
      if (v) values.set(c.name, [v]);
    });
  } else {
    for (const relation of statement.where) collectRelation(relation, values, ranges, named);
  }
  let usesMarkers = false;
  let namedMarkers = false;
  for (const expr of statementExpressions(statement)) {
    someExpression(expr, (e) => {
      if (e.kind !== 'BindMarker') return false;
      usesMarkers = true;
      if (e.name) namedMarkers = true;
      return namedMarkers;
    });
  }
  const facts = { statement, values, ranges, named, usesMarkers, namedMarkers };
  factsCache.set(statement, facts);
  return facts;
}

function collectRelation(
  relation: Relation,
  values: StatementFacts['values'],
  ranges: StatementFacts['ranges'],
  named: Set<string>,
): void {
  const left = relation.left;
  if (left.kind === 'TupleExpression') {
    left.elements.forEach((e, i) => {
      if (e.kind !== 'ColumnRef') return;
      named.add(e.name.name);
      // (a, b) = (1, 2): each column its element; tuple INs and ranges give no single column's value.
      const tuple = relation.operator === '=' ? relation.right[0] : undefined;
      if (tuple?.kind === 'TupleExpression' && tuple.elements[i]) values.set(e.name.name, [tuple.elements[i]!]);
    });
    return;
  }
  if (left.kind !== 'ColumnRef') return;
  const column = left.name.name;
  named.add(column);
  if (relation.operator === '=' || relation.operator === 'IN') {
    values.set(column, [...relation.right]);
    return;
  }
  const range = ranges.get(column) ?? {};
  const [a, b] = relation.right;
  if (!a) return;
  switch (relation.operator) {
    case '>':
      range.lower = { expr: a, inclusive: false };
      break;
    case '>=':
      range.lower = { expr: a, inclusive: true };
      break;
    case '<':
      range.upper = { expr: a, inclusive: false };
      break;
    case '<=':
      range.upper = { expr: a, inclusive: true };
      break;
    case 'BETWEEN':
      range.lower = { expr: a, inclusive: true };
      if (b) range.upper = { expr: b, inclusive: true };
      break;
    default:
      return;
  }
  ranges.set(column, range);
}

const SERVER_VALUES = new Set(['now', 'uuid', 'currenttimeuuid', 'currenttimestamp', 'currentdate', 'currenttime']);

/** now(), uuid(), ...: a value the coordinator makes when the statement runs. */
export function isServerGenerated(expr: Expression): boolean {
  return someExpression(expr, (e) => e.kind === 'FunctionCall' && SERVER_VALUES.has(e.name.name.name.toLowerCase()));
}

/** Whether an expression is a constant the engine can read (no marker, column or function). */
function isConstant(expr: Expression): boolean {
  return !someExpression(expr, (e) => e.kind === 'BindMarker' || e.kind === 'ColumnRef' || e.kind === 'FunctionCall');
}

const MAX_COMBINATIONS = 1000;

/** Every combination of one value per list (bounded); undefined past MAX_COMBINATIONS. */
function combinations<T>(lists: readonly (readonly T[])[]): T[][] | undefined {
  let out: T[][] = [[]];
  for (const list of lists) {
    if (out.length * list.length > MAX_COMBINATIONS) return undefined;
    out = out.flatMap((combo) => list.map((v) => [...combo, v]));
  }
  return out;
}

function sortedUnique(values: readonly string[], numeric: boolean): string[] {
  const unique = [...new Set(values)];
  return numeric ? unique.sort((a, b) => Number(a) - Number(b)) : unique.sort();
}

/** The partitions the statement already names through IN lists on the existing partition key. */
function existingPartitions(facts: StatementFacts, change: KeyChange): number {
  let n = 1;
  for (const c of keptKey(change)) n *= Math.max(1, facts.values.get(c)?.length ?? 1);
  return n;
}

function readsInOrder(statement: DmlStatement): boolean {
  return (
    statement.kind === 'Select' &&
    (statement.orderBy.length > 0 || statement.limit !== undefined || statement.perPartitionLimit !== undefined)
  );
}

/** Whether the statement may list several values of a partition key column (IN). */
function mayUseIn(statement: DmlStatement, options: RewriteOptions): boolean {
  if (statement.kind === 'Insert') return false;
  // Cassandra refuses ORDER BY with IN on the partition key, and LIMIT then counts rows in token order, not
  // in clustering order: such reads go partition by partition, merged by the application.
  if (statement.kind === 'Select') return !readsInOrder(statement);
  return options.inForWrites;
}

/**
 * What the application does with the rows of several shards: a counter spread over random shards has a
 * part in each, to be summed; otherwise each row lives in one shard and the rows are merged.
 */
function combineWord(change: KeyChange, statement: DmlStatement): string {
  if (statement.kind !== 'Select') return '';
  // count(*), sum(x) ... without GROUP BY: Cassandra aggregates over every partition IN names.
  if (
    !statement.star &&
    statement.groupBy.length === 0 &&
    statement.selectors.length > 0 &&
    statement.selectors.every((s) => isAggregate(s.expression))
  )
    return '';
  return change.table.counter && change.shard?.method === 'random' ? "sum each counter's parts" : 'merge the rows';
}

const AGGREGATES = new Set(['count', 'sum', 'min', 'max', 'avg']);

function isAggregate(expr: Expression): boolean {
  return expr.kind === 'FunctionCall' && AGGREGATES.has(expr.name.name.name.toLowerCase());
}

function shardsText(count: number): string {
  return count === 2 ? 'both shards' : `all ${count} shards`;
}

function shardValue(
  facts: StatementFacts,
  change: KeyChange,
  shard: ShardPlan,
  options: RewriteOptions,
  tableName: string,
): NewValue {
  const { statement } = facts;
  const column = quoteName(shard.column);
  const formula = formulaText(shard);
  if (options.everyShard && (statement.kind === 'Select' || statement.kind === 'Delete'))
    return everyShard(facts, change, shard, options);
  if (shard.method !== 'random') {
    const lists = shard.sources.map((s) => facts.values.get(s));
    if (lists.every((l) => l !== undefined)) {
      const allConstant = lists.every((l) => l!.every(isConstant));
      const combos = allConstant ? combinations(lists as Expression[][]) : undefined;
      const computed = combos?.map((combo) => computeShardOf(change, shard, combo));
      if (computed && computed.every((v) => v !== undefined)) {
        return { kind: 'literals', literals: sortedUnique(computed.map(String), true), fanOut: false };
      }
      // A value the server makes (now(), uuid()) cannot be hashed in advance: the application must make it.
      const generated = shard.sources.filter((s, i) => lists[i]!.some(isServerGenerated));
      const make = generated.length
        ? `; generate ${generated.map(quoteName).join(', ')} in the application instead of on the server`
        : '';
      return { kind: 'marker', note: `bind ${column} = ${formula} (see the @shard comment on ${tableName})${make}` };
    }
    // A source that becomes a clustering column is bound with the row (see decide): so is its shard. An
    // UPDATE is an upsert, and naming every shard would copy the row into all of them.
    if (
      statement.kind !== 'Select' &&
      statement.kind !== 'Delete' &&
      shard.sources.some((s) => change.clustering?.includes(s))
    ) {
      return { kind: 'marker', note: `bind ${column} = ${formula} (see the @shard comment on ${tableName})` };
    }
    if (statement.kind === 'Insert') {
      // Only a partition's static columns can be written without the source: they live in each shard.
      return {
        kind: 'marker',
        note: `run once per ${column} = 1..${shard.count}: each shard is a partition with its own static columns`,
      };
    }
    return everyShard(facts, change, shard, options);
  }
  if (shard.perTenant) return tenantShardValue(facts, change, shard, shard.perTenant);
  // random(N)
  if (statement.kind === 'Insert' || (statement.kind === 'Update' && change.table.counter)) {
    if (!facts.usesMarkers) return { kind: 'literals', literals: [String(options.pickRandomShard())], fanOut: false };
    return { kind: 'marker', note: `bind ${column} = a random 1..${shard.count}, picked for each write` };
  }
  if (statement.kind === 'Update') {
    // An UPDATE is an upsert: naming every shard would copy the row into all of them.
    return {
      kind: 'marker',
      note: `bind ${column} = the shard the row was written with (random 1..${shard.count}); store it with the row's id`,
    };
  }
  return everyShard(facts, change, shard, options);
}

/**
 * A shard counted per tenant: the count is the tenant's row of the counts table, which the application
 * reads first (none: 1 shard). A literal write takes shard 1, which every tenant has.
 */
function tenantShardValue(
  facts: StatementFacts,
  change: KeyChange,
  shard: ShardPlan,
  perTenant: NonNullable<ShardPlan['perTenant']>,
): NewValue {
  const { statement } = facts;
  const column = quoteName(shard.column);
  const count = `the shards of this ${quoteName(perTenant.column)} in ${perTenant.table} (1 when it has no row)`;
  if (statement.kind === 'Insert') {
    if (!facts.usesMarkers) return { kind: 'literals', literals: ['1'], fanOut: false };
    return { kind: 'marker', note: `bind ${column} = a random 1..n, n = ${count}` };
  }
  if (statement.kind === 'Update')
    return {
      kind: 'marker',
      note: `bind ${column} = the shard the row was written with (1..n, n = ${count}); store it with the row's id`,
    };
  const combine = combineWord(change, statement);
  return {
    kind: 'marker',
    note: `run once per ${column} = 1..n, n = ${count}, in parallel${combine ? `, and ${combine}` : ''}`,
  };
}

/** Shard values computed once per source values and formula: a light bulb asks for the same ones again and again. */
const shardCache = new WeakMap<Expression, Map<string, number | undefined>>();

const formulaTexts = new WeakMap<ShardPlan, string>();

/** `murmur3(title) % 4 + 1`, built once per plan object (every statement's note quotes it). */
function formulaText(shard: ShardPlan): string {
  let text = formulaTexts.get(shard);
  if (text === undefined) formulaTexts.set(shard, (text = shardFormulaText(shard, quoteName)));
  return text;
}

/** A formula's cache key, built once per plan object. */
const formulaKeys = new WeakMap<ShardPlan, string>();

function computeShardOf(change: KeyChange, shard: ShardPlan, values: readonly Expression[]): number | undefined {
  const first = values[0];
  let key = formulaKeys.get(shard);
  if (key === undefined) {
    key = `${shard.method} ${shard.count} ${shard.offset} ${shard.sources.map((s) => `${s}:${columnNamed(change.table, s)?.typeText}`).join(',')}`;
    formulaKeys.set(shard, key);
  }
  const cached = first && values.length === 1 ? shardCache.get(first) : undefined;
  if (cached?.has(key)) return cached.get(key);
  const result = shardValueFrom(
    shard,
    (name) => columnKeyType(change.table, name),
    (_, i) => values[i],
  );
  const value = result.ok ? result.value : undefined;
  if (first && values.length === 1) {
    const map = cached ?? new Map<string, number | undefined>();
    map.set(key, value);
    if (!cached) shardCache.set(first, map);
  }
  return value;
}

const literalLists = new Map<string, string[]>();

/** The shard values offset .. offset + count - 1 as literals (shared: never changed). */
function shardLiterals(count: number, offset: number): string[] {
  const key = `${count}+${offset}`;
  let list = literalLists.get(key);
  if (!list) {
    list = Array.from({ length: count }, (_, i) => String(i + offset));
    if (literalLists.size > 64) literalLists.clear();
    literalLists.set(key, list);
  }
  return list;
}

/** Every shard of a read or delete of whole partitions: an IN list, else one run per shard. */
function everyShard(facts: StatementFacts, change: KeyChange, shard: ShardPlan, options: RewriteOptions): NewValue {
  const column = quoteName(shard.column);
  const combine = combineWord(change, facts.statement);
  if (mayUseIn(facts.statement, options) && existingPartitions(facts, change) * shard.count <= options.maxInList) {
    const literals = shardLiterals(shard.count, shard.offset);
    return {
      kind: 'literals',
      literals,
      fanOut: true,
      note: combine ? `reads ${shardsText(shard.count)}: ${combine}` : undefined,
    };
  }
  return {
    kind: 'marker',
    note: `run once per ${column} = ${shard.offset}..${shard.count - 1 + shard.offset}, in parallel${combine ? `, and ${combine}` : ''}`,
  };
}

const PERIOD: Record<BucketPlan['granularity'], string> = {
  minute: 'UTC minute',
  hour: 'UTC hour',
  day: 'UTC day',
  month: 'UTC month',
  year: 'UTC year',
};

function bucketValue(
  facts: StatementFacts,
  change: KeyChange,
  bucket: BucketPlan,
  options: RewriteOptions,
  shardValues: number,
): NewValue {
  const { statement } = facts;
  const column = quoteName(bucket.column);
  const period = PERIOD[bucket.granularity];
  const source = bucket.source;
  const sourceText = source ? quoteName(source) : undefined;
  const given = source ? facts.values.get(source) : undefined;
  if (given) {
    const times = given.map((e) => timeValue(e, bucket.sourceType));
    if (times.every((t) => t.kind === 'known')) {
      const literals = sortedUnique(
        times.map((t) => bucketLiteral(bucket.granularity, (t as { ms: number }).ms)),
        bucket.type === 'int',
      );
      return { kind: 'literals', literals, fanOut: false };
    }
    const now = times.some((t) => t.kind === 'now')
      ? `; generate ${sourceText} in the application instead of on the server, so that both agree`
      : '';
    return { kind: 'marker', note: `bind ${column} = the ${period} of ${sourceText}${now}` };
  }
  const range = source ? facts.ranges.get(source) : undefined;
  if (range && statement.kind !== 'Insert' && statement.kind !== 'Update') {
    const lower = range.lower && timeValue(range.lower.expr, bucket.sourceType);
    const upper = range.upper && timeValue(range.upper.expr, bucket.sourceType);
    if (lower?.kind === 'known' && upper?.kind === 'known') {
      const from: TimeBound = { ms: lower.ms, inclusive: range.lower!.inclusive };
      const to: TimeBound = { ms: upper.ms, inclusive: range.upper!.inclusive };
      // The buckets share the IN room with the partitions already named and the shards listed.
      const room = Math.floor(options.maxInList / existingPartitions(facts, change) / shardValues);
      const buckets = bucketsCovering(bucket.granularity, from, to, Math.max(1, room));
      if (buckets && mayUseIn(statement, options))
        return { kind: 'literals', literals: buckets, fanOut: buckets.length > 1 };
      if (buckets)
        return {
          kind: 'marker',
          note: `run once per ${column} in ${buckets.join(', ')}, ${orderWord(statement, change, source)}`,
        };
    }
    return {
      kind: 'marker',
      note: `run once per ${period} the range of ${sourceText} covers, ${orderWord(statement, change, source)}`,
    };
  }
  if (statement.kind === 'Insert' || (statement.kind === 'Update' && !source)) {
    return {
      kind: 'marker',
      note: `bind ${column} = the ${period} ${sourceText ? `of ${sourceText}` : 'the row is written'}`,
    };
  }
  // A finer bucket beside a coarse one the statement pins (a day's rows, now in hours): every finer bucket of
  // that coarse one, an IN list where the read may take one, else one run per bucket.
  const coarse = bucket.refines ? coarseRange(facts, change, bucket.refines) : undefined;
  if (coarse && statement.kind !== 'Update') {
    const room = Math.floor(options.maxInList / existingPartitions(facts, change) / shardValues);
    const buckets = bucketsCovering(
      bucket.granularity,
      { ms: coarse.from, inclusive: true },
      { ms: coarse.to, inclusive: false },
      Math.max(1, room),
    );
    if (buckets && mayUseIn(statement, options))
      return { kind: 'literals', literals: buckets, fanOut: buckets.length > 1 };
    return {
      kind: 'marker',
      note: `run once per ${period} of the ${quoteName(bucket.refines!.column)} the statement names (${column} from its first to its last), ${orderWord(statement, change, source)}`,
    };
  }
  if (statement.kind === 'Select') {
    // Reads keep their order: oldest first starts at the oldest bucket and steps forward.
    return ascending(statement, change, source)
      ? {
          kind: 'marker',
          note: `bind ${column}: start at the oldest ${period} that has rows and step forward one at a time until you have the rows you need`,
        }
      : {
          kind: 'marker',
          note: `bind ${column}: start at the current ${period} and step back one at a time until you have the rows you need`,
        };
  }
  return { kind: 'marker', note: `run once per ${column} the partition has rows in` };
}

/** Whether a read returns the bucket source's oldest rows first: its ORDER BY, else the source column's clustering order. */
function ascending(
  statement: DmlStatement & { kind: 'Select' },
  change: KeyChange,
  source: string | undefined,
): boolean {
  // Without a source the bucket is the write time, in the order of the first clustering column.
  const column = source ? change.table.clustering.find((c) => c.name === source) : change.table.clustering[0];
  // ORDER BY names the first clustering column; reversing it reverses them all.
  const ordering = statement.orderBy[0];
  const firstOrder = change.table.clustering[0]?.order ?? 'ASC';
  const written = ordering ? (ordering.direction ?? 'ASC') : firstOrder;
  const reversed = written !== firstOrder;
  const own = column?.order ?? 'ASC';
  return reversed ? own !== 'ASC' : own !== 'DESC';
}

/** The order a read visits buckets in, in words. */
function orderWord(statement: DmlStatement, change: KeyChange, source: string | undefined): string {
  if (statement.kind !== 'Select') return 'one bucket at a time';
  return ascending(statement, change, source)
    ? 'oldest first, and concatenate the rows'
    : 'newest first, and concatenate the rows';
}

/**
 * The time span [from, to) of the coarse bucket a statement pins with a literal (`day = '2026-11-20'`):
 * read as its column's type holds it; undefined when it pins none, several, or one cqlint cannot read.
 */
function coarseRange(
  facts: StatementFacts,
  change: KeyChange,
  refines: NonNullable<BucketPlan['refines']>,
): { from: number; to: number } | undefined {
  const given = facts.values.get(refines.column);
  if (given?.length !== 1) return undefined;
  const type = nativeName(columnNamed(change.table, refines.column)?.type);
  const time = timeValue(given[0], type);
  if (time.kind !== 'known') return undefined;
  return { from: time.ms, to: periodEnd(refines.seconds, time.ms) };
}

/** The partition key columns the change does not add (a table annotated `-- @shard` already has its shard in the key). */
const keptKeys = new WeakMap<KeyChange, string[]>();

function keptKey(change: KeyChange): string[] {
  let kept = keptKeys.get(change);
  if (!kept) {
    const added = new Set([change.shard?.column, change.bucket?.column]);
    kept = change.table.partitionKey.map((c) => c.name).filter((c) => !added.has(c));
    keptKeys.set(change, kept);
  }
  return kept;
}

/** Whether the statement restricts (or writes) every column of the table's current partition key. */
function namesPartition(facts: StatementFacts, change: KeyChange): boolean {
  if (facts.statement.kind === 'Insert') return true;
  return keptKey(change).every((c) => facts.values.has(c));
}

/**
 * The edits that make a statement on `change.table` name the new key columns (see the file comment).
 * `tableName` is how comments name the table.
 */
export function rewriteForKeyChange(
  text: string,
  statement: DmlStatement,
  change: KeyChange,
  options: RewriteOptions,
  tableName = change.table.qualifiedName,
): StatementRewrite {
  const unchanged: StatementRewrite = { edits: [], outcome: 'unchanged', notes: [], values: [] };
  if (statement.kind === 'Insert' && statement.json !== undefined)
    return jsonInsertRewrite(text, statement, change, options);
  if (change.bucket?.replaces) return coarserRewrite(text, statement, change, change.bucket, options);
  const clauses = keyClauseRewrite(statement, change);
  const decided = decide(statement, change, options, tableName);
  const parts: { column: string; value: string; list: boolean }[] = [];
  let edits: TextEdit[] = [];
  const notes: string[] = [];
  if (decided) {
    const { facts, wanted } = decided;
    const marker = (column: string): string => (facts.namedMarkers ? `:${quoteName(column)}` : '?');
    parts.push(
      ...wanted.map(([column, v]) =>
        v.kind === 'literals'
          ? {
              column,
              value: v.literals.length === 1 ? v.literals[0]! : `(${v.literals.join(', ')})`,
              list: v.literals.length > 1,
            }
          : { column, value: marker(column), list: false },
      ),
    );
    const valueEdited = valueEdits(statement, parts);
    if (valueEdited) {
      edits = valueEdited;
      notes.push(...wanted.flatMap(([, v]) => (v.note ? [v.note] : [])));
    }
  }
  if (clauses) {
    edits.push(...clauses.edits);
    notes.push(...clauses.notes);
  }
  if (!edits.length) return unchanged;
  if (notes.length) edits.unshift(commentAboveEdit(text, statement.range.start, notes));
  const values =
    decided && edits.length
      ? parts.map((p, i) => ({
          column: p.column,
          text: p.value,
          kind:
            decided.wanted[i]![1].kind === 'marker'
              ? ('marker' as const)
              : p.list
                ? ('list' as const)
                : ('literal' as const),
        }))
      : [];
  const outcome =
    decided && valueEditsFit(statement, decided.wanted)
      ? outcomeOf(decided.wanted)
      : clauses?.notes.length
        ? 'application'
        : 'exact';
  return { edits, outcome: outcome === 'exact' && clauses?.notes.length ? 'application' : outcome, notes, values };
}

/**
 * What rewriteForKeyChange would make of the statement (its outcome and notes), without its edits: a fix's
 * title counts these for every statement, and builds the edits only when they are asked for.
 */
export function classifyForKeyChange(
  text: string,
  statement: DmlStatement,
  change: KeyChange,
  options: RewriteOptions,
  tableName = change.table.qualifiedName,
): Pick<StatementRewrite, 'outcome' | 'notes'> {
  if ((statement.kind === 'Insert' && statement.json !== undefined) || change.bucket?.replaces)
    return rewriteForKeyChange(text, statement, change, options, tableName);
  const clauses = keyClauseRewrite(statement, change);
  const decided = decide(statement, change, options, tableName);
  const fits = !!decided && valueEditsFit(statement, decided.wanted);
  if (!fits && !clauses) return { outcome: 'unchanged', notes: [] };
  const notes = [
    ...(fits ? decided!.wanted.flatMap(([, v]) => (v.note ? [v.note] : [])) : []),
    ...(clauses?.notes ?? []),
  ];
  const outcome = fits ? outcomeOf(decided!.wanted) : 'exact';
  return { outcome: outcome === 'exact' && clauses?.notes.length ? 'application' : outcome, notes };
}

/**
 * A SELECT's DISTINCT, token() and GROUP BY that name the whole partition key, extended with the columns the
 * change adds to it: Cassandra takes them only with every partition key column (util/key-clauses.ts). A
 * token() bound (`token(?)`) gets a marker per new column; DISTINCT and GROUP BY now list each new
 * partition, which the application merges. Undefined when the statement has none.
 */
function keyClauseRewrite(
  statement: DmlStatement,
  change: KeyChange,
): { edits: TextEdit[]; notes: string[] } | undefined {
  if (statement.kind !== 'Select' || (!statement.distinct && !statement.groupBy.length && !mentionsToken(statement)))
    return undefined;
  const key = keptKey(change);
  const added = [
    ...(change.moveToPartition ?? []),
    ...(change.shard ? [change.shard.column] : []),
    ...(change.bucket ? [change.bucket.column] : []),
  ];
  if (!added.length) return undefined;
  const edits: TextEdit[] = [];
  const notes: string[] = [];
  const names = added.map(quoteName);
  for (const clause of partitionKeyClauses(statement, key)) {
    if (!key.every((c) => clause.named.includes(c)) || added.some((c) => clause.named.includes(c))) continue;
    edits.push({ start: clause.insertAt, end: clause.insertAt, newText: names.map((n) => `, ${n}`).join('') });
    if (clause.kind === 'token' && clause.bound) {
      edits.push({
        start: clause.bound.insertAt,
        end: clause.bound.insertAt,
        newText: names.map(() => ', ?').join(''),
      });
      notes.push(`bind ${names.join(', ')} in the token() bound: token() hashes the whole partition key now`);
    }
    if (clause.kind === 'distinct')
      notes.push(
        `DISTINCT now lists each (${[...key, ...added].map(quoteName).join(', ')}): merge the ones of one ${key.map(quoteName).join(', ')}`,
      );
    if (clause.kind === 'group-by')
      notes.push(
        `GROUP BY now groups by (${[...key, ...added].map(quoteName).join(', ')}) too: merge the groups of one ${key.map(quoteName).join(', ')}`,
      );
  }
  return edits.length ? { edits, notes } : undefined;
}

function mentionsToken(statement: DmlStatement & { kind: 'Select' }): boolean {
  const isToken = (e: Expression): boolean => e.kind === 'FunctionCall' && e.name.name.name.toLowerCase() === 'token';
  return statement.where.some((r) => isToken(r.left)) || statement.selectors.some((s) => isToken(s.expression));
}

/** The value each new key column gets in the statement; undefined when it needs none. */
function decide(
  statement: DmlStatement,
  change: KeyChange,
  options: RewriteOptions,
  tableName: string,
): { facts: StatementFacts; wanted: [string, NewValue][] } | undefined {
  const facts = factsOf(statement);
  if (!namesPartition(facts, change)) return undefined;
  const wanted: [string, NewValue][] = [];
  // New clustering columns: a write names its row now (a read or delete by the partition keeps reading
  // or deleting all of it, the rows each item now has).
  if (statement.kind === 'Insert' || statement.kind === 'Update') {
    for (const column of change.clustering ?? []) {
      if (facts.named.has(column)) continue;
      const set =
        statement.kind === 'Update' &&
        statement.assignments.some((a) => a.target.kind === 'ColumnRef' && a.target.name.name === column);
      const note = `bind ${quoteName(column)}: it is a clustering column of ${tableName} now, and each row is one ${quoteName(column)}${set ? ` (and take ${quoteName(column)} out of SET: a key column is not set)` : ''}`;
      wanted.push([column, { kind: 'marker', note }]);
    }
  }
  // Columns moved into the partition key: a read, update or delete that did not pin one now must.
  if (statement.kind !== 'Insert') {
    for (const column of change.moveToPartition ?? []) {
      if (facts.values.has(column)) continue;
      wanted.push([
        column,
        {
          kind: 'marker',
          note: `bind ${quoteName(column)}: it is part of the partition key of ${tableName} now; run once per ${quoteName(column)} the statement covers`,
        },
      ]);
    }
  }
  let shardValues = 1;
  if (change.shard && !facts.named.has(change.shard.column)) {
    const value = shardValue(facts, change, change.shard, options, tableName);
    if (value.kind === 'literals') shardValues = value.literals.length;
    wanted.push([change.shard.column, value]);
  }
  if (change.bucket && !facts.named.has(change.bucket.column))
    wanted.push([change.bucket.column, bucketValue(facts, change, change.bucket, options, shardValues)]);
  return wanted.length ? { facts, wanted } : undefined;
}

function outcomeOf(wanted: readonly [string, NewValue][]): RewriteOutcome {
  if (wanted.some(([, v]) => v.kind === 'marker')) return 'application';
  return wanted.some(([, v]) => v.kind === 'literals' && v.fanOut) ? 'fan-out' : 'exact';
}

/** Whether valueEdits can place the values: an INSERT takes one value per column, and its lists must match. */
function valueEditsFit(statement: DmlStatement, wanted: readonly [string, NewValue][]): boolean {
  if (statement.kind !== 'Insert') return statement.where.length > 0;
  const listed = wanted.some(([, v]) => v.kind === 'literals' && v.literals.length > 1);
  return statement.columns.length > 0 && statement.columns.length === statement.values.length && !listed;
}

/** INSERT: the columns and values appended; otherwise `AND col = v` / `AND col IN (...)` after the last relation. */
function valueEdits(
  statement: DmlStatement,
  parts: { column: string; value: string; list: boolean }[],
): TextEdit[] | undefined {
  if (statement.kind === 'Insert') {
    const lastColumn = statement.columns[statement.columns.length - 1];
    const lastValue = statement.values[statement.values.length - 1];
    if (!lastColumn || !lastValue || statement.columns.length !== statement.values.length || parts.some((p) => p.list))
      return undefined;
    return [
      {
        start: lastColumn.range.end,
        end: lastColumn.range.end,
        newText: parts.map((p) => `, ${quoteName(p.column)}`).join(''),
      },
      { start: lastValue.range.end, end: lastValue.range.end, newText: parts.map((p) => `, ${p.value}`).join('') },
    ];
  }
  const last = statement.where[statement.where.length - 1];
  if (!last) return undefined;
  const text = parts.map((p) => ` AND ${quoteName(p.column)} ${p.list ? 'IN' : '='} ${p.value}`).join('');
  return [{ start: last.range.end, end: last.range.end, newText: text }];
}

/** A column's key in an INSERT JSON object: lower-case names as they are, others quoted (`"\"OrderId\""`). */
function jsonKeyOf(column: string): string {
  return quoteName(column) === column ? column : `"${column}"`;
}

/** The JSON object of a literal `INSERT ... JSON '{...}'`, and where its closing brace is in the source. */
function jsonObjectOf(
  text: string,
  statement: InsertStatement,
): { object: Record<string, unknown>; closeAt: number } | undefined {
  const json = statement.json;
  if (json?.kind !== 'Literal' || json.literalKind !== 'string') return undefined;
  let object: unknown;
  try {
    object = JSON.parse(json.value);
  } catch {
    return undefined;
  }
  if (typeof object !== 'object' || object === null || Array.isArray(object)) return undefined;
  const raw = text.slice(json.range.start, json.range.end);
  const closeAt = raw.lastIndexOf('}');
  return closeAt < 0 ? undefined : { object: object as Record<string, unknown>, closeAt: json.range.start + closeAt };
}

/**
 * `INSERT ... JSON '{...}'`: a literal object whose values give the new columns gets them as keys (the
 * shard computed, the bucket of its time); otherwise a comment says which keys the application adds.
 */
function jsonInsertRewrite(
  text: string,
  statement: InsertStatement,
  change: KeyChange,
  options: RewriteOptions,
): StatementRewrite {
  const found = jsonObjectOf(text, statement);
  const valueOf = (column: string): unknown => {
    if (!found) return undefined;
    const key = Object.keys(found.object).find(
      (k) => (k.startsWith('"') && k.endsWith('"') && k.length > 1 ? k.slice(1, -1) : k.toLowerCase()) === column,
    );
    return key === undefined ? undefined : found.object[key];
  };
  const added: { column: string; json: string }[] = [];
  if (change.shard && valueOf(change.shard.column) === undefined) {
    let value: number | undefined;
    if (change.shard.method === 'random') value = options.pickRandomShard();
    else {
      const result = shardValueFrom(
        change.shard,
        (name) => columnKeyType(change.table, name),
        (name) => {
          const v = valueOf(name);
          return v === undefined ? undefined : { json: v };
        },
      );
      value = result.ok ? result.value : undefined;
    }
    if (value !== undefined) added.push({ column: change.shard.column, json: String(value) });
  }
  if (change.bucket && valueOf(change.bucket.column) === undefined) {
    const raw = change.bucket.source ? valueOf(change.bucket.source) : undefined;
    const literal =
      typeof raw === 'string' || typeof raw === 'number'
        ? timeValue(
            {
              kind: 'Literal',
              literalKind: typeof raw === 'number' ? 'integer' : 'string',
              value: String(raw),
              text: String(raw),
              range: statement.range,
            } as Expression,
            change.bucket.sourceType,
          )
        : undefined;
    if (literal?.kind === 'known') {
      const cql = bucketLiteral(change.bucket.granularity, literal.ms);
      added.push({ column: change.bucket.column, json: cql.startsWith("'") ? `"${cql.slice(1, -1)}"` : cql });
    }
  }
  const wanted = [
    ...(change.clustering ?? []),
    ...(change.shard ? [change.shard.column] : []),
    ...(change.bucket ? [change.bucket.column] : []),
  ].filter((c) => valueOf(c) === undefined);
  if (!wanted.length) return { edits: [], outcome: 'unchanged', notes: [], values: [] };
  if (found && added.length === wanted.length) {
    const insert = added.map((a) => `, ${JSON.stringify(jsonKeyOf(a.column))}: ${a.json}`).join('');
    return {
      edits: [{ start: found.closeAt, end: found.closeAt, newText: insert }],
      outcome: 'exact',
      notes: [],
      values: added.map((a) => ({ column: a.column, text: a.json, kind: 'literal' })),
    };
  }
  const note = `add ${wanted.map((c) => JSON.stringify(jsonKeyOf(c))).join(' and ')} to the JSON: ${[
    ...(change.clustering ?? [])
      .filter((c) => wanted.includes(c))
      .map((c) => `${c} = the row's ${c} (a clustering column now)`),
    ...(change.shard && wanted.includes(change.shard.column)
      ? [`${change.shard.column} = ${shardFormulaText(change.shard, quoteName)}`]
      : []),
    ...(change.bucket && wanted.includes(change.bucket.column)
      ? [`${change.bucket.column} = the ${PERIOD[change.bucket.granularity]} of ${change.bucket.source ?? 'the write'}`]
      : []),
  ].join(', ')}`;
  return {
    edits: [commentAboveEdit(text, statement.range.start, [note])],
    outcome: 'application',
    notes: [note],
    values: [],
  };
}

/**
 * A SELECT's DISTINCT selection, token() arguments and GROUP BY that name the fine bucket a coarser one
 * replaces: the coarser bucket in its place (Cassandra takes these only with the whole partition key), each
 * with what it now means.
 */
function fineClauseRenames(
  statement: SelectStatement,
  fine: string,
  column: string,
  period: string,
): { edits: TextEdit[]; notes: string[] } {
  const edits: TextEdit[] = [];
  const notes: string[] = [];
  const rename = (range: { start: number; end: number }): void => {
    edits.push({ start: range.start, end: range.end, newText: column });
  };
  const isFine = (e: Expression): boolean => e.kind === 'ColumnRef' && e.name.name === fine;
  const isToken = (e: Expression): e is Expression & { kind: 'FunctionCall' } =>
    e.kind === 'FunctionCall' && e.name.name.name.toLowerCase() === 'token';
  if (statement.distinct && !statement.star) {
    const named = statement.selectors.filter((s) => isFine(s.expression));
    for (const s of named) rename(s.expression.range);
    if (named.length)
      notes.push(`DISTINCT now lists each ${column}: one row per ${period}, not per ${quoteName(fine)}`);
  }
  const tokens = [
    ...statement.selectors.map((s) => s.expression).filter(isToken),
    ...statement.where.map((r) => r.left).filter(isToken),
  ];
  for (const call of tokens) {
    const args = call.args.filter(isFine);
    for (const a of args) rename(a.range);
    if (args.length && statement.where.some((r) => r.left === call))
      notes.push(`the token() bound hashes ${column} (the ${period}) in place of ${quoteName(fine)} now`);
  }
  const grouped = statement.groupBy.filter((g) => g.name === fine);
  for (const g of grouped) rename(g.range);
  if (grouped.length)
    notes.push(`GROUP BY now groups by ${column}: one group per ${period}, not per ${quoteName(fine)}`);
  return { edits, notes };
}

/** `'2026-11-20 10:05:00+0000'`: an instant as a CQL timestamp literal (UTC, to the second). */
function timestampLiteral(ms: number): string {
  const d = new Date(ms);
  const p = (n: number, w = 2): string => String(n).padStart(w, '0');
  return `'${p(d.getUTCFullYear(), 4)}-${p(d.getUTCMonth() + 1)}-${p(d.getUTCDate())} ${p(d.getUTCHours())}:${p(d.getUTCMinutes())}:${p(d.getUTCSeconds())}+0000'`;
}

/**
 * A statement rewritten for a coarser bucket in place of the finer one of the key (BucketPlan.replaces,
 * over-partitioned-read's cure). An INSERT writes the new column too (the fine one stays a column it
 * writes). A WHERE's relation on the fine column becomes one on the new column, in its place: a read of a
 * literal range of the bucket's source gets the coarser buckets the range covers (one query, where it ran
 * once per fine bucket); literal times get their coarser buckets, deduplicated; else a bind marker and what
 * the application binds. A DELETE of whole fine buckets keeps deleting only their rows: a range of the
 * source column (the first clustering column) bounds it to each one.
 */
function coarserRewrite(
  text: string,
  statement: DmlStatement,
  change: KeyChange,
  bucket: BucketPlan,
  options: RewriteOptions,
): StatementRewrite {
  const unchanged: StatementRewrite = { edits: [], outcome: 'unchanged', notes: [], values: [] };
  const facts = factsOf(statement);
  if (facts.named.has(bucket.column)) return unchanged;
  const fine = bucket.replaces!.column;
  const fineType = nativeName(columnNamed(change.table, fine)?.type);
  const column = quoteName(bucket.column);
  const period = PERIOD[bucket.granularity];
  const marker = facts.namedMarkers ? `:${column}` : '?';
  const bucketsOf = (exprs: readonly Expression[] | undefined, type: string | undefined): string[] | undefined => {
    const times = exprs?.map((e) => timeValue(e, type));
    if (!times?.length || !times.every((t) => t.kind === 'known')) return undefined;
    return sortedUnique(
      times.map((t) => bucketLiteral(bucket.granularity, (t as { ms: number }).ms)),
      bucket.type === 'int',
    );
  };
  const source = bucket.source !== fine ? bucket.source : undefined;
  // DISTINCT, token() and GROUP BY name the whole partition key or none of it: the new bucket in the fine one's place.
  const clauses =
    statement.kind === 'Select' ? fineClauseRenames(statement, fine, column, period) : { edits: [], notes: [] };
  const done = (edits: TextEdit[], value: string, kind: 'literal' | 'list' | 'marker', own: string[]) => {
    const notes = [...own, ...clauses.notes];
    edits.push(...clauses.edits);
    if (notes.length) edits.unshift(commentAboveEdit(text, statement.range.start, notes));
    const outcome: RewriteOutcome =
      kind === 'marker' || notes.length ? 'application' : kind === 'list' ? 'fan-out' : 'exact';
    return { edits, outcome, notes, values: [{ column: bucket.column, text: value, kind }] };
  };
  if (statement.kind === 'Insert') {
    const literals =
      bucketsOf(facts.values.get(fine), fineType) ??
      (source ? bucketsOf(facts.values.get(source), bucket.sourceType) : undefined);
    const value = literals?.length === 1 ? literals[0]! : marker;
    const notes = value === marker ? [`bind ${column} = the ${period} of ${quoteName(fine)}`] : [];
    const edits = valueEdits(statement, [{ column: bucket.column, value, list: false }]);
    if (!edits) return done([], value, 'marker', [`write ${column} = the ${period} of ${quoteName(fine)} too`]);
    return done(edits, value, value === marker ? 'marker' : 'literal', notes);
  }
  const relation = statement.where.find(
    (r) => r.left.kind === 'ColumnRef' && r.left.name.name === fine && (r.operator === '=' || r.operator === 'IN'),
  );
  if (!relation) {
    if (!clauses.edits.length) return unchanged;
    const edits = [commentAboveEdit(text, statement.range.start, clauses.notes), ...clauses.edits];
    return { edits, outcome: 'application', notes: clauses.notes, values: [] };
  }
  // `fine IN ?`: the application binds a list, and binds one of the coarser buckets in its place.
  const boundList = relation.operator === 'IN' && relation.inList === false;
  const replace = (value: string, list: boolean): TextEdit => ({
    start: relation.range.start,
    end: relation.range.end,
    newText: `${column} ${list ? 'IN' : '='} ${value}`,
  });
  const notes: string[] = [];
  // A read of a literal range of the source: the coarser buckets it covers, in one query where it may list them.
  const range = source && statement.kind === 'Select' ? facts.ranges.get(source) : undefined;
  const lower = range?.lower && timeValue(range.lower.expr, bucket.sourceType);
  const upper = range?.upper && timeValue(range.upper.expr, bucket.sourceType);
  if (lower?.kind === 'known' && upper?.kind === 'known') {
    const covered = bucketsCovering(
      bucket.granularity,
      { ms: lower.ms, inclusive: range!.lower!.inclusive },
      { ms: upper.ms, inclusive: range!.upper!.inclusive },
      Math.max(1, Math.floor(options.maxInList / existingPartitions(facts, change))),
    );
    // A fine bucket the application bound (it ran the read once per bucket of the range) is bound no more.
    const unbound = relation.right.some((e) => someExpression(e, (x) => x.kind === 'BindMarker'))
      ? [`binds no ${quoteName(fine)} now: run it once for the range, not once per ${quoteName(fine)} it covers`]
      : [];
    if (covered?.length === 1) return done([replace(covered[0]!, false)], covered[0]!, 'literal', unbound);
    if (covered && mayUseIn(statement, options))
      return done([replace(`(${covered.join(', ')})`, true)], `(${covered.join(', ')})`, 'list', unbound);
    if (covered)
      return done([replace(marker, false)], marker, 'marker', [
        `run once per ${column} in ${covered.join(', ')}, ${orderWord(statement, change, source)}`,
      ]);
  }
  const literals = bucketsOf(relation.right, fineType);
  const value = literals ? (literals.length === 1 ? literals[0]! : `(${literals.join(', ')})`) : marker;
  const list = (!!literals && literals.length > 1) || boundList;
  if (!literals)
    notes.push(
      boundList
        ? `bind ${column} IN the ${period}s of the ${quoteName(fine)} values it bound, each once (one ${period} is one partition now)`
        : `bind ${column} = the ${period} of the ${quoteName(fine)} it bound (one ${period} is one partition now)`,
    );
  const edits = [replace(value, list)];
  // Literal fine buckets (a read or DELETE of whole ones): each is a range of the source in its coarser bucket
  // now, so a range of the source (the first clustering column) keeps the statement to their rows; a bound
  // DELETE binds the range (a bound read is the one the cure is for: it reads the coarser bucket).
  const first = change.table.clustering[0];
  if (statement.kind === 'Select' || statement.kind === 'Delete') {
    if (change.table.clustering.some((c) => facts.named.has(c.name)))
      return done(edits, value, literals ? (list ? 'list' : 'literal') : 'marker', notes);
    const seconds = bucket.replaces!.seconds;
    const times = relation.right.map((e) => timeValue(e, fineType));
    const starts = times.every((t) => t.kind === 'known')
      ? [...new Set(times.map((t) => (t as { ms: number }).ms))].sort((a, b) => a - b)
      : undefined;
    const contiguous = starts?.every((ms, i) => i === 0 || periodEnd(seconds, starts[i - 1]!) === ms);
    const ranged = first && first.name === bucket.source && nativeName(first.type) === 'timestamp';
    const name = first && quoteName(first.name);
    const bound = (from: string, to: string): TextEdit => ({
      start: relation.range.end,
      end: relation.range.end,
      newText: ` AND ${name} >= ${from} AND ${name} < ${to}`,
    });
    const what = statement.kind === 'Select' ? 'reads' : 'deletes';
    if (ranged && starts && contiguous)
      edits.push(bound(timestampLiteral(starts[0]!), timestampLiteral(periodEnd(seconds, starts[starts.length - 1]!))));
    else if (ranged && statement.kind === 'Delete' && !starts && !boundList && relation.right.length === 1) {
      edits.push(
        facts.namedMarkers ? bound(`:${quoteName(`${fine}_start`)}`, `:${quoteName(`${fine}_end`)}`) : bound('?', '?'),
      );
      notes.push(
        `bind the start and the end of the ${quoteName(fine)} to delete: its rows are a range of ${name} in its ${period} now`,
      );
    } else if (starts || statement.kind === 'Delete')
      notes.push(
        `this statement now ${what} every row of the ${period}: keep to the rows of the ${quoteName(fine)} values it named`,
      );
  }
  return done(edits, value, literals ? (list ? 'list' : 'literal') : 'marker', notes);
}
