// A plan's verdict: the table as the plan re-keys it (its new key columns, the `-- @shard` it gains, its
// `-- @cqlint` hints divided as the fix divides them, the cluster's figures that still describe it), judged
// by the partition rules' own verdicts (verdicts.ts). A plan cures when the rule it was planned for has
// nothing left to say of that table and no other partition rule has anything new.
import type { NativeTypeName } from '../../../grammar/ast';
import type { TableHints } from '../vocabulary/config';
import type { TableEvidence } from '../evidence';
import type { ColumnInfo, TableInfo } from '../schema/model';
import { formatBytes, formatCount } from '../util/format';
import type { PartitionInputs } from './inputs';
import type { PartitionPlan } from './plan';
import { growthVerdict, hotVerdict, sizeVerdict, throughputVerdict, workloadOf } from './verdicts';

export type PartitionRule = 'hot-partition' | 'unbounded-partition' | 'large-partition' | 'partition-throughput';

/** The options of the partition rules that change their verdicts. */
export interface RuleOptions {
  reportEntityHistories?: boolean;
  counterWritesPerSecond?: number;
}

/** A column the plan adds to the table. */
function addedColumn(table: TableInfo, name: string, type: string, keyPosition: number): ColumnInfo {
  return {
    name,
    type: { kind: 'NativeType', name: type as NativeTypeName, range: table.nameRange },
    typeText: type,
    role: 'partition',
    keyPosition,
    range: table.nameRange,
  };
}

/** The table as the plan re-keys it: the schema the fix writes. */
export function rekeyedTable(table: TableInfo, plan: Omit<PartitionPlan, 'cures' | 'leaves'>): TableInfo {
  const moved = plan.moveToPartition ?? [];
  const toClustering = plan.clustering ?? [];
  // A bucket that replaces a finer one: the finer column leaves the key and stays a regular column.
  const replaced = plan.bucket?.replaces?.column;
  const partitionNames = [...table.partitionKey.map((c) => c.name).filter((c) => c !== replaced), ...moved];
  const clusteringNames = [...table.clustering.map((c) => c.name).filter((c) => !moved.includes(c)), ...toClustering];
  // A column moved to a table of its own (a split) is no longer the table's.
  const kept = plan.split ? table.columns.filter((c) => c.name !== plan.split!.column) : table.columns;
  const columns = kept.map((c): ColumnInfo => {
    if (c.name === replaced) return { ...c, role: 'regular', keyPosition: -1, order: undefined };
    const p = partitionNames.indexOf(c.name);
    if (p >= 0) return { ...c, role: 'partition', keyPosition: p, order: undefined };
    const k = clusteringNames.indexOf(c.name);
    if (k >= 0) return { ...c, role: 'clustering', keyPosition: k, order: c.order ?? 'ASC' };
    return c;
  });
  let position = partitionNames.length;
  if (plan.shard) columns.push(addedColumn(table, plan.shard.column, 'int', position++));
  if (plan.bucket) columns.push(addedColumn(table, plan.bucket.column, plan.bucket.type, position++));
  const byRole = (role: ColumnInfo['role']): ColumnInfo[] =>
    columns.filter((c) => c.role === role).sort((a, b) => a.keyPosition - b.keyPosition);
  const shard = plan.shard && {
    shardColumn: plan.shard.column,
    method: plan.shard.method,
    sources: [...plan.shard.sources],
    count: plan.shard.count,
    offset: plan.shard.offset,
    text: '',
    ranges: {
      annotation: table.nameRange,
      formula: table.nameRange,
      shardColumn: table.nameRange,
      method: table.nameRange,
      sources: [],
      count: table.nameRange,
    },
  };
  const commentHints = table.commentHints && scaledHints(table.commentHints, table.commentHints, plan);
  // A view replaced by a table: a table of the same name and columns, written by the application.
  const { baseTable: _base, baseResolved: _resolved, ...rest } = table;
  return {
    ...(plan.replacesView ? { ...rest, kind: 'table' as const } : table),
    columns,
    partitionKey: byRole('partition'),
    clustering: byRole('clustering'),
    ...(shard ? { shard } : {}),
    ...(commentHints ? { commentHints } : {}),
  };
}

/**
 * The hints after the plan: the per-partition figures of the `-- @cqlint` comments divided by the shards as
 * the fix divides them (rate= and writes= by N, rows= by N, reads= by N for a calculated shard); the
 * .cqlint.json's stay as they are (the fix does not edit it). A figure is the comment's when it equals it.
 */
function scaledHints(
  hints: TableHints,
  comment: TableHints | undefined,
  plan: Pick<PartitionPlan, 'shard'>,
): TableHints {
  const n = plan.shard?.count ?? 1;
  if (n <= 1 || !comment) return hints;
  const fromComment = (
    key:
      'rowsPerSecondPerPartition' | 'writesPerSecondPerPartition' | 'readsPerSecondPerPartition' | 'rowsPerPartition',
  ): boolean => hints[key] !== undefined && hints[key] === comment[key];
  const out: TableHints = { ...hints };
  if (fromComment('rowsPerSecondPerPartition')) out.rowsPerSecondPerPartition = hints.rowsPerSecondPerPartition! / n;
  if (fromComment('writesPerSecondPerPartition'))
    out.writesPerSecondPerPartition = hints.writesPerSecondPerPartition! / n;
  if (fromComment('rowsPerPartition')) out.rowsPerPartition = Math.ceil(hints.rowsPerPartition! / n);
  if (fromComment('readsPerSecondPerPartition') && plan.shard?.method !== 'random')
    out.readsPerSecondPerPartition = hints.readsPerSecondPerPartition! / n;
  return out;
}

/**
 * The cluster's figures that still describe the re-keyed table: the samplers' and dsbulk's partitions name
 * keys of the deployed key, which no longer decode to the new one (evidence/combine.ts keeps a table's
 * keyed figures only when their keys have its key's columns); the table-wide maxima (tablestats,
 * tablehistograms) stay until the table is captured again.
 */
function evidenceAfter(evidence: TableEvidence | undefined, keyChanged: boolean): TableEvidence | undefined {
  if (!evidence || !keyChanged) return evidence;
  const { counted, ...rest } = evidence;
  const maxRows = rest.maxRows && !rest.maxRows.label.startsWith('rows of partition') ? rest.maxRows : undefined;
  const kept: TableEvidence = { ...rest, top: [], busiest: {} };
  if (maxRows) kept.maxRows = maxRows;
  else delete kept.maxRows;
  return kept;
}

/** The inputs of the table as the plan re-keys it. */
export function rekeyedInputs(inputs: PartitionInputs, plan: Omit<PartitionPlan, 'cures' | 'leaves'>): PartitionInputs {
  const table = rekeyedTable(inputs.table, plan);
  const keyChanged = !!(plan.shard || plan.bucket || plan.moveToPartition?.length);
  return {
    target: inputs.target,
    udts: inputs.udts,
    references: inputs.references,
    table,
    hints: inputs.hints && scaledHints(inputs.hints, inputs.table.commentHints, plan),
    evidence: evidenceAfter(inputs.evidence, keyChanged),
    // A sample has no column for a new key column: its partitions cannot be read any more.
    sample: plan.shard || plan.bucket ? undefined : inputs.sample,
  };
}

/**
 * When the per-partition figures come from .cqlint.json (which the fix does not edit) and the plan shards:
 * what to change there for the finding to go, in words.
 */
function configFigures(inputs: PartitionInputs, plan: Pick<PartitionPlan, 'shard'>): string {
  const hints = inputs.hints;
  const comment = inputs.table.commentHints;
  if (!plan.shard || !hints) return '';
  const keys = (['rowsPerSecondPerPartition', 'writesPerSecondPerPartition', 'rowsPerPartition'] as const).filter(
    (k) => hints[k] !== undefined && hints[k] !== comment?.[k],
  );
  return keys.length
    ? ` (the .cqlint.json ${keys.join(', ')} of ${inputs.table.qualifiedName} is per partition: divide it by the ${plan.shard.count} shards there)`
    : '';
}

/** What one partition rule would report of the inputs' table, in words (what a plan leaves); undefined: nothing. */
export function ruleVerdict(
  inputs: PartitionInputs,
  rule: PartitionRule,
  options: RuleOptions = {},
  w = workloadOf(inputs),
): string | undefined {
  switch (rule) {
    case 'hot-partition': {
      const hot = hotVerdict(inputs, w);
      return (
        hot &&
        (hot.measured ? `the captures still show partition ${hot.measured.busiest.key} hot` : 'the key is still hot')
      );
    }
    case 'unbounded-partition':
      return growthVerdict(inputs, w, options) ? 'its partitions still grow without bound' : undefined;
    case 'large-partition': {
      const size = sizeVerdict(inputs, w);
      if (!size) return undefined;
      return size.kind === 'measured'
        ? `the captures of the deployed table still show its ${formatBytes(size.over[0]!.measured.value)} partition until it is captured again`
        : size.kind === 'sampled'
          ? 'the sample still has partitions past the limit'
          : size.kind === 'hinted'
            ? `the rows= hint still states ${formatCount(size.rows)} rows per partition`
            : size.kind === 'ttl'
              ? `its TTL still keeps ${formatCount(size.rows)} rows per partition`
              : `one ${size.fit.column} bucket still takes ${formatCount(size.fit.rowsPerBucket)} rows, past ${size.fit.limit.label}`;
    }
    case 'partition-throughput': {
      const t = throughputVerdict(inputs, options)?.over[0];
      return t && `one partition still takes ${formatCount(t.unitsPerSecond)} ${t.unit}, past ${t.label}`;
    }
  }
}

/**
 * What each partition rule reports of the table as it is, asked lazily and once per rule (a plan that cures
 * its own rule is checked for new findings of the others, which most plans have none of).
 */
export function verdictsBefore(
  inputs: PartitionInputs,
  options: RuleOptions = {},
): (rule: PartitionRule) => string | undefined {
  const known = new Map<PartitionRule, string | undefined>();
  let w: ReturnType<typeof workloadOf> | undefined;
  return (rule) => {
    if (!known.has(rule)) known.set(rule, ruleVerdict(inputs, rule, options, (w ??= workloadOf(inputs))));
    return known.get(rule);
  };
}

/**
 * Whether a plan cures its rule's finding: the re-keyed table has no finding of that rule, and no partition
 * rule reports what it did not before (`before`: verdictsBefore of the table as it is).
 */
export function verdictAfter(
  inputs: PartitionInputs,
  plan: Omit<PartitionPlan, 'cures' | 'leaves'>,
  rule: PartitionRule,
  options: RuleOptions = {},
  before = verdictsBefore(inputs, options),
): { cures: boolean; leaves?: string } {
  const after = rekeyedInputs(inputs, plan);
  const w = workloadOf(after);
  const left = ruleVerdict(after, rule, options, w);
  if (left) return { cures: false, leaves: `${left}${configFigures(inputs, plan)}` };
  // Of the other rules, large-partition can say something new of a re-keyed table (a bucket too coarse for
  // the rate each shard takes, a year-keyed table's shards), and unbounded-partition of one whose items
  // become clustering rows (each new item a row, where it overwrote the partition's one row): a key column
  // added never makes a key hotter, and the hints are only divided and the keyed captures dropped.
  const others: PartitionRule[] = [
    'large-partition',
    ...(plan.clustering?.length ? ['unbounded-partition' as const] : []),
  ];
  const added = others
    .filter((r) => r !== rule)
    .map((r) => [r, !before(r) && ruleVerdict(after, r, options, w)] as const)
    .filter(([, v]) => v);
  return added.length ? { cures: false, leaves: added.map(([r, v]) => `${r}: ${v}`).join('; ') } : { cures: true };
}
