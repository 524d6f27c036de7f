// Which fixes a finding gets, and fix-all. Pure: the caller (LSP, CLI, tests) supplies the table
// lookup and the settings through FixEnvironment.
import type { CreateTableStatement, ParseResult, QualifiedName, SourceRange, Statement } from '../../../grammar/ast';
import type { Finding } from '../findings';
import { offsetsOf } from '../../../grammar/line-index';
import { isFindingOf, type FindingOf, type RuleWithData } from '../findings-data';
import type { TableInfo } from '../schema/model';
import type { TableHints } from '../config/types';
import type { TargetInfo } from '../targets';
import { CELL_METADATA_BYTES, rowSizes, throughputEstimates } from '../sizing';
import { flatStatements } from '../util/ast-walk';
import type { Fix, TextEdit } from './types';
import { editsConflict, sortEdits } from './text';
import { addShardColumnFixes, normalizeShardCount, shardSourceColumns } from './shard-column';
import { addTimeBucketFixes, isBucketGranularity } from './time-bucket';
import { queriedColumns, tableReads, type StatementLookup } from './reads';
import { freeName } from './identifiers';
import type { TableReference } from '../schema/references';
import { addShardToStatementFixes, isDmlStatement, readAllShardsFixes, type ShardComputer } from './shard-queries';
import { renameColumnFix, shardValueFix } from './replace';

export type { Fix, TextEdit } from './types';
export { applyEdits } from './text';

export interface FixEnvironment {
  /** The table or view a statement's name refers to at an offset (other files included). */
  tableFor?(name: QualifiedName, offset: number): TableInfo | undefined;
  /** The `cqlint.shardCount` setting: shards to add when the finding carries no workload numbers. Default 16. */
  shardCount?: number;
  /** Shard value of literal source values (server/core/token/shard.ts). */
  computeShard?: ShardComputer;
  /** Largest shard count read with one `IN (...)`. Default 32. */
  maxInListShards?: number;
  /** The file the fixes are for (reads of a table in it are rewritten in the fix's own edits). */
  filePath?: string;
  /** The workspace's statements on a table (the reference index): the shard advice follows its reads. */
  referencesTo?(table: TableInfo): readonly TableReference[];
  /** A statement of a workspace file at a range, with the file's text. */
  statementAt?: StatementLookup;
  /** Whether some table or view of the workspace has this name (in any keyspace). */
  tableNameTaken?(name: string): boolean;
  /** Every finding of the file: workload numbers of one rule (partition-throughput) size another's fix. */
  findings?: readonly Finding[];
  /** Workload hints for a table (.cqlint.json `tables`): they size the shard count and the time bucket. */
  hintsFor?(table: TableInfo): TableHints | undefined;
  /** The database whose limits apply to the file (per-partition throughput, partition size). */
  target?: TargetInfo;
  /**
   * Called with the error when a fix throws (a bug), which then offers nothing. Without it the error
   * propagates, so that tests fail on it; the server and the CLI pass a logger.
   */
  onError?(error: unknown, finding: Finding): void;
}

/** Every fix offered for one finding (empty when none applies). */
export function fixesForFinding(text: string, parse: ParseResult, finding: Finding, env: FixEnvironment = {}): Fix[] {
  const provider = (PROVIDERS as Partial<Record<string, Provider<RuleWithData>>>)[finding.ruleId];
  if (!provider || !isFindingOf(finding, finding.ruleId as RuleWithData)) return [];
  try {
    return provider(text, parse, finding, env);
  } catch (error) {
    // A fix that throws is a bug: callers that must keep serving (server, CLI) report it and offer
    // nothing; everyone else (the tests) gets the error.
    if (!env.onError) throw error;
    env.onError(error, finding);
    return [];
  }
}

/** The rule ids that have quick fixes. */
export function fixableRuleIds(): string[] {
  return Object.keys(PROVIDERS);
}

/** The fixes of one rule's findings, from the data that rule declares in findings-data.ts. */
type Provider<R extends RuleWithData> = (text: string, parse: ParseResult, finding: FindingOf<R>, env: FixEnvironment) => Fix[];

const shardColumnProvider: Provider<'hot-partition' | 'partition-throughput'> = (text, parse, finding, env) => {
  const table = createTableAt(parse, offsetsOf(finding.range));
  if (!table) return [];
  const info = env.tableFor?.(table.name, table.range.end);
  const candidates = finding.ruleId === 'hot-partition' ? finding.data.candidates : undefined;
  const growth = finding.ruleId === 'hot-partition' ? finding.data.growth : undefined;
  const references = info && env.referencesTo?.(info);
  const options = { candidates, tableName: finding.data.table, filePath: env.filePath };
  const reads = references && env.statementAt && info
    ? tableReads(references, info.partitionKey.map((c) => c.name), shardSourceColumns(table, { ...options, maxSourceColumns: Infinity }).map((c) => c.name.name), env.statementAt)
    : undefined;
  return addShardColumnFixes(text, parse, table, {
    ...options,
    shardCount: shardCountFor(finding, env, info),
    queriedColumns: references ? queriedColumns(references) : undefined,
    reads,
    bucket: growth && isBucketGranularity(growth.suggestedBucket) ? { granularity: growth.suggestedBucket, timeColumn: growth.timeColumn } : undefined,
    maxInListShards: env.maxInListShards,
    copyName: env.tableNameTaken ? freeName([`${table.name.name.name}_sharded`], [], (n) => env.tableNameTaken!(n)) : undefined,
  });
};

const PROVIDERS: { [R in RuleWithData]?: Provider<R> } = {
  'hot-partition': shardColumnProvider,
  'partition-throughput': shardColumnProvider,
  'unbounded-partition': (text, parse, finding, env) => {
    const table = createTableAt(parse, offsetsOf(finding.range));
    if (!table) return [];
    const data = finding.data;
    const workload = timeBucketWorkload(env, env.tableFor?.(table.name, table.range.end));
    return addTimeBucketFixes(text, table, {
      rowsPerSecond: data.rowsPerSecond ?? workload.rowsPerSecond,
      rowBytes: data.rowBytes ?? workload.rowBytes,
      partitionBytes: data.limitBytes ?? workload.partitionBytes,
      timeColumn: data.timeColumn,
    });
  },
  'shard-mismatch': (text, _parse, finding) => {
    const { expected, valueRange, shardColumn } = finding.data;
    if (expected === undefined) return [];
    return shardValueFix(text, valueRange, expected, shardColumn);
  },
  'unknown-column': (text, parse, finding) => {
    const { suggestion } = finding.data;
    if (!suggestion) return [];
    return renameColumnFix(text, parse, offsetsOf(finding.range), suggestion, true);
  },
  'unrestricted-partition-key': (text, parse, finding, env) => shardQueryFixes(text, parse, offsetsOf(finding.range), finding.data.missing, env, true),
  'incomplete-key-write': (text, parse, finding, env) => shardQueryFixes(text, parse, offsetsOf(finding.range), finding.data.missing, env, false),
};

/** Fixes for a statement on a sharded table that does not name the shard column. */
function shardQueryFixes(text: string, parse: ParseResult, range: SourceRange, missing: readonly string[], env: FixEnvironment, readAll: boolean): Fix[] {
  const statement = innermostStatement(parse, range);
  if (!statement || !isDmlStatement(statement) || !env.tableFor) return [];
  const name = statement.kind === 'Select' ? statement.from : statement.table;
  const table = env.tableFor(name, statement.range.start);
  if (!table?.shard) return [];
  // Only when the shard column is all the statement is missing from the partition key.
  if (missing.some((m) => m !== table.shard!.shardColumn)) return [];
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
const SHARD_HEADROOM = 1.5;

/**
 * The shard count for a table's shard column: from the workload numbers (units per second over the
 * target's per-partition limit, with headroom) of partition-throughput findings on the same table and
 * of the table's workload hints, else the setting (default 16). The hints are read directly too, so the
 * count is right when partition-throughput is turned off.
 */
export function shardCountFor(finding: FindingOf<'hot-partition' | 'partition-throughput'>, env: FixEnvironment, table?: TableInfo): number {
  const tableName = finding.data.table;
  let needed = 0;
  const need = (units: number | undefined, limit: number | undefined): void => {
    if (units !== undefined && limit !== undefined && limit > 0) needed = Math.max(needed, Math.ceil((units * SHARD_HEADROOM) / limit));
  };
  for (const f of [finding, ...(env.findings ?? [])]) {
    if (!isFindingOf(f, 'partition-throughput') || f.data.table !== tableName) continue;
    need(f.data.unitsPerSecond, f.data.limit);
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

/** The statement (a batch's member rather than the batch) whose range is exactly `range`. */
export function statementAt(parse: ParseResult, range: SourceRange): Statement | undefined {
  // Statements are in source order: find the last one starting at or before the range (binary search).
  const statements = parse.statements;
  let lo = 0;
  let hi = statements.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (statements[mid]!.range.start <= range.start) lo = mid;
    else hi = mid - 1;
  }
  const top = statements[lo];
  const same = (s: Statement): boolean => s.range.start === range.start && s.range.end === range.end;
  if (!top) return undefined;
  if (top.kind === 'Batch') return top.statements.find(same) ?? (same(top) ? top : undefined);
  return same(top) ? top : undefined;
}

/** The innermost statement (a batch's member before the batch) that contains the range. */
function innermostStatement(parse: ParseResult, range: SourceRange): Statement | undefined {
  let found: Statement | undefined;
  for (const s of flatStatements(parse)) {
    if (s.range.start <= range.start && range.end <= s.range.end) found = s;
  }
  return found;
}

