// Which fixes a finding gets, and fix-all. Pure: the caller (LSP, CLI, tests) supplies the table
// lookup and the settings through FixEnvironment.
import type { CreateTableStatement, ParseResult, QualifiedName, SourceRange, Statement } from '../../../grammar/ast';
import type { Finding } from '../findings';
import type { TableInfo } from '../schema/model';
import type { TableHints } from '../config/types';
import type { TargetInfo } from '../targets';
import { CELL_METADATA_BYTES, rowSizes, throughputEstimates } from '../sizing';
import { flatStatements, isRange } from '../util/ast-walk';
import type { Fix, TextEdit } from './types';
import { editsConflict, sortEdits } from './text';
import { addShardColumnFixes, normalizeShardCount } from './shardColumn';
import { addTimeBucketFixes } from './timeBucket';
import { addShardToStatementFixes, isDmlStatement, readAllShardsFixes, type ShardComputer } from './shardQueries';
import { renameColumnFix, shardValueFix } from './replace';

export type { Fix, TextEdit } from './types';
export { applyEdits } from './text';

export interface FixEnvironment {
  /** The table or view a statement's name refers to at an offset (other files included). */
  tableFor?(name: QualifiedName, offset: number): TableInfo | undefined;
  /** The `cqlint.shardCount` setting: shards to add when the finding carries no workload numbers. Default 16. */
  shardCount?: number;
  /** Shard value of literal source values (the token engineer's shard maths). */
  computeShard?: ShardComputer;
  /** Largest shard count read with one `IN (...)`. Default 32. */
  maxInListShards?: number;
  /** Columns the workspace's queries restrict on a table, to rank the sources of a calculated shard. */
  queriedColumns?(table: TableInfo): readonly string[];
  /** Every finding of the file: workload numbers of one rule (partition-throughput) size another's fix. */
  findings?: readonly Finding[];
  /** Workload hints for a table (.cqlint.json `tables`): they size the shard count and the time bucket. */
  hintsFor?(table: TableInfo): TableHints | undefined;
  /** The database whose limits apply to the file (per-partition throughput, partition size). */
  target?: TargetInfo;
}

/** Every fix offered for one finding (empty when none applies). Never throws on odd input. */
export function fixesForFinding(text: string, parse: ParseResult, finding: Finding, env: FixEnvironment = {}): Fix[] {
  const provider = PROVIDERS[finding.ruleId];
  if (!provider) return [];
  try {
    return provider(text, parse, finding, env);
  } catch {
    // A fix that cannot understand the code offers nothing rather than taking the caller down.
    return [];
  }
}

type Provider = (text: string, parse: ParseResult, finding: Finding, env: FixEnvironment) => Fix[];

const shardColumnProvider: Provider = (text, parse, finding, env) => {
  const table = createTableAt(parse, finding.range);
  if (!table) return [];
  const info = env.tableFor?.(table.name, table.range.end.offset);
  const candidates = finding.data?.candidates;
  return addShardColumnFixes(text, parse, table, {
    shardCount: shardCountFor(finding, env, info),
    queriedColumns: info ? env.queriedColumns?.(info) : undefined,
    candidates: Array.isArray(candidates) ? candidates.filter((c): c is string => typeof c === 'string') : undefined,
  });
};

const PROVIDERS: Record<string, Provider> = {
  'hot-partition': shardColumnProvider,
  'partition-throughput': shardColumnProvider,
  'unbounded-partition': (text, parse, finding, env) => {
    const table = createTableAt(parse, finding.range);
    if (!table) return [];
    const data = finding.data ?? {};
    const workload = timeBucketWorkload(env, env.tableFor?.(table.name, table.range.end.offset));
    return addTimeBucketFixes(text, table, {
      rowsPerSecond: num(data.writesPerSecondPerPartition) ?? num(data.rowsPerSecond) ?? workload.rowsPerSecond,
      rowBytes: num(data.rowBytes) ?? workload.rowBytes,
      partitionBytes: num(data.partitionBytesLimit) ?? num(data.limitBytes) ?? workload.partitionBytes,
      timeColumn: str(data.timeColumn),
    });
  },
  'shard-mismatch': (text, _parse, finding) => {
    const data = finding.data ?? {};
    const expected = num(data.expected);
    if (expected === undefined) return [];
    const range = isRange(data.valueRange) ? data.valueRange : finding.range;
    return shardValueFix(text, range, expected, str(data.shardColumn) ?? str(data.column));
  },
  'unknown-column': (text, parse, finding) => {
    const data = finding.data ?? {};
    const suggestions = Array.isArray(data.suggestions) ? data.suggestions.filter((s): s is string => typeof s === 'string') : [];
    const suggestion = str(data.suggestion) ?? suggestions[0];
    if (!suggestion) return [];
    return renameColumnFix(text, parse, finding.range, suggestion, suggestions.length <= 1);
  },
  'unrestricted-partition-key': (text, parse, finding, env) => shardQueryFixes(text, parse, finding, env, true),
  'incomplete-key-write': (text, parse, finding, env) => shardQueryFixes(text, parse, finding, env, false),
  'missing-shard-column': (text, parse, finding, env) => shardQueryFixes(text, parse, finding, env, false),
};

/** Fixes for a statement on a sharded table that does not name the shard column. */
function shardQueryFixes(text: string, parse: ParseResult, finding: Finding, env: FixEnvironment, readAll: boolean): Fix[] {
  const statement = innermostStatement(parse, finding.range);
  if (!statement || !isDmlStatement(statement) || !env.tableFor) return [];
  const name = statement.kind === 'Select' ? statement.from : statement.table;
  const table = env.tableFor(name, statement.range.start.offset);
  if (!table?.shard) return [];
  // Only when the shard column is all the statement is missing from the partition key.
  const missing = Array.isArray(finding.data?.missing) ? (finding.data!.missing as unknown[]) : undefined;
  if (missing && missing.some((m) => m !== table.shard!.shardColumn)) return [];
  const options = { computeShard: env.computeShard, maxInListShards: env.maxInListShards };
  const fixes = addShardToStatementFixes(text, statement, table, options);
  if (readAll && statement.kind === 'Select' && !fixes.some((f) => f.safeForFixAll)) {
    // Without a computed value, reading every shard beats a bind marker.
    for (const f of fixes) f.isPreferred = false;
    fixes.unshift(...readAllShardsFixes(text, statement, table, options));
  }
  return fixes;
}

/**
 * Edits for every finding's fix that needs no choice (`safeForFixAll`), skipping fixes whose edits
 * would touch the same text as one already taken (the next run takes them). Applying the result
 * and linting again yields no more safe fixes for the same findings, so running it twice changes
 * nothing more than running it once.
 */
export function computeFixAll(text: string, parse: ParseResult, findings: readonly Finding[], env: FixEnvironment = {}): TextEdit[] {
  const taken: TextEdit[] = [];
  for (const finding of findings) {
    const fix = fixesForFinding(text, parse, finding, env).find((f) => f.safeForFixAll);
    if (!fix || editsConflict(taken, fix.edits)) continue;
    taken.push(...fix.edits);
  }
  return sortEdits(taken);
}

/** Headroom over the measured need, so that no shard sits at its partition's limit. */
export const SHARD_HEADROOM = 1.5;

/**
 * The shard count for a table's shard column: from the workload numbers (units per second over the
 * target's per-partition limit, with headroom) of partition-throughput findings on the same table and
 * of the table's workload hints, else the setting (default 16). The hints are read directly too, so the
 * count is right when partition-throughput is turned off.
 */
export function shardCountFor(finding: Finding, env: FixEnvironment, table?: TableInfo): number {
  const tableName = str(finding.data?.table) ?? table?.qualifiedName;
  let needed = 0;
  const need = (units: number | undefined, limit: number | undefined): void => {
    if (units !== undefined && limit !== undefined && limit > 0) needed = Math.max(needed, Math.ceil((units * SHARD_HEADROOM) / limit));
  };
  for (const f of [finding, ...(env.findings ?? [])]) {
    if (f.ruleId !== 'partition-throughput' || str(f.data?.table) !== tableName) continue;
    need(num(f.data?.unitsPerSecond), num(f.data?.limit));
  }
  if (table && env.target) {
    for (const t of throughputEstimates(table, env.target, env.hintsFor?.(table))) need(t.unitsPerSecond, t.limit);
  }
  return needed >= 2 ? needed : normalizeShardCount(env.shardCount);
}

/**
 * What the time bucket fix sizes its bucket by, from the table's hints: rows per second into one
 * partition (writesPerSecondPerPartition), the estimated bytes a row adds, and the target's partition
 * size limit (when it has a finite one).
 */
export function timeBucketWorkload(env: FixEnvironment, table: TableInfo | undefined): { rowsPerSecond?: number; rowBytes?: number; partitionBytes?: number } {
  const limit = env.target?.partitionBytes.value;
  const partitionBytes = limit !== undefined && Number.isFinite(limit) && limit > 0 ? limit : undefined;
  const hints = table ? env.hintsFor?.(table) : undefined;
  const rate = hints?.writesPerSecondPerPartition;
  if (!table || !hints || rate === undefined) return { partitionBytes };
  // What each row adds to its partition: its clustering and regular values with their cell metadata.
  const sizes = rowSizes(table, hints);
  return { rowsPerSecond: rate, rowBytes: sizes.rowBytes + sizes.valuesPerRow * CELL_METADATA_BYTES, partitionBytes };
}

function createTableAt(parse: ParseResult, range: SourceRange): CreateTableStatement | undefined {
  const statement = innermostStatement(parse, range);
  return statement?.kind === 'CreateTable' ? statement : undefined;
}

/** The innermost statement (a batch's member before the batch) that contains the range. */
function innermostStatement(parse: ParseResult, range: SourceRange): Statement | undefined {
  let found: Statement | undefined;
  for (const s of flatStatements(parse)) {
    if (s.range.start.offset <= range.start.offset && range.end.offset <= s.range.end.offset) found = s;
  }
  return found;
}

function num(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

function str(value: unknown): string | undefined {
  return typeof value === 'string' && value ? value : undefined;
}
