// A time bucket for an unbounded partition: add a bucket column (`day date`, `hour timestamp`,
// `month text`, ...) to the partition key so that each partition covers one period, with a comment on
// the new column saying how the application fills it.
import type { ColumnDefinition, CreateTableStatement } from '../../../grammar/ast';
import { nativeName } from '../schema/types';
import type { Fix } from './types';
import { freeName } from './identifiers';
import { addBodyElements, identifierText, partitionKeyEdits, type BodyElement } from './tableEdits';
import { quoteName } from '../util/names';

export type BucketGranularity = 'hour' | 'day' | 'month' | 'year';

interface TimeBucketOptions {
  /** Rows written per second into one partition (a workload hint); picks the granularity. */
  rowsPerSecond?: number;
  /** Estimated bytes per row, used with rowsPerSecond. Default 1 KB. */
  rowBytes?: number;
  /** Size a partition should stay under, in bytes. Default 100 MB (Cassandra's guidance). */
  partitionBytes?: number;
  /** The time column to bucket by; default the first timestamp, timeuuid or date clustering column. */
  timeColumn?: string;
}

interface BucketKind {
  granularity: BucketGranularity;
  names: string[];
  type: string;
  seconds: number;
  /** How the application computes the value from the time column (or from the write time). */
  describe: (source: string | undefined) => string;
}

export const BUCKETS: Record<BucketGranularity, BucketKind> = {
  hour: {
    granularity: 'hour', names: ['hour', 'bucket_hour', 'hour_bucket'], type: 'timestamp', seconds: 3600,
    describe: (s) => (s ? `${s} truncated to the UTC hour` : 'the UTC hour the row is written'),
  },
  day: {
    granularity: 'day', names: ['day', 'bucket_day', 'day_bucket'], type: 'date', seconds: 86_400,
    describe: (s) => (s ? `the UTC day of ${s}` : 'the UTC day the row is written'),
  },
  month: {
    granularity: 'month', names: ['month', 'bucket_month', 'month_bucket'], type: 'text', seconds: 2_629_746,
    describe: (s) => (s ? `the UTC month of ${s} as 'YYYY-MM'` : "the UTC month the row is written, as 'YYYY-MM'"),
  },
  year: {
    granularity: 'year', names: ['year', 'bucket_year', 'year_bucket'], type: 'int', seconds: 31_556_952,
    describe: (s) => (s ? `the UTC year of ${s}` : 'the UTC year the row is written'),
  },
};

const DEFAULT_ROW_BYTES = 1024;
const DEFAULT_PARTITION_BYTES = 100 * 1024 * 1024;

/** The clustering column a bucket is derived from: the one named, else the first time-typed one. */
export function bucketSourceColumn(table: CreateTableStatement, timeColumn?: string): ColumnDefinition | undefined {
  const pk = table.primaryKey;
  if (!pk) return undefined;
  const byName = (name: string) => table.columns.find((c) => c.name.name === name);
  if (timeColumn) return byName(timeColumn);
  for (const key of pk.clustering) {
    const column = byName(key.name);
    const type = nativeName(column?.type);
    if (type === 'timestamp' || type === 'timeuuid' || type === 'date') return column;
  }
  return undefined;
}

/**
 * The granularities that make sense for the source column, coarsest last, and the one to prefer:
 * the coarsest whose partition (rate x period x row size) stays under the size limit; without a rate
 * hint, day for timestamps and month for dates.
 */
export function chooseGranularity(sourceType: string | undefined, options: TimeBucketOptions = {}): { choices: BucketGranularity[]; preferred: BucketGranularity } {
  const choices: BucketGranularity[] = sourceType === 'date' ? ['month', 'year'] : ['hour', 'day', 'month'];
  const rate = options.rowsPerSecond;
  if (rate === undefined || !(rate > 0) || !Number.isFinite(rate)) {
    return { choices, preferred: sourceType === 'date' ? 'month' : 'day' };
  }
  const limit = options.partitionBytes && options.partitionBytes > 0 ? options.partitionBytes : DEFAULT_PARTITION_BYTES;
  const rowBytes = options.rowBytes && options.rowBytes > 0 ? options.rowBytes : DEFAULT_ROW_BYTES;
  let preferred = choices[0];
  for (const g of choices) if (rate * BUCKETS[g].seconds * rowBytes <= limit) preferred = g;
  return { choices, preferred };
}

/** A bucket column to add to a table: its free name, its definition with the comment on how it is filled. */
interface BucketColumn {
  granularity: BucketGranularity;
  column: string;
  type: string;
  element: BodyElement;
}

/** The bucket column of one granularity for a table, named so as not to collide with `taken`. */
export function bucketColumn(granularity: BucketGranularity, source: ColumnDefinition | undefined, taken: readonly string[]): BucketColumn {
  const bucket = BUCKETS[granularity];
  const column = freeName(bucket.names, taken);
  const sourceText = source ? identifierText(source.name) : undefined;
  const comment = `bucket: ${bucket.describe(sourceText)}, set by the application`;
  return { granularity, column, type: bucket.type, element: { sql: `${quoteName(column)} ${bucket.type}`, comment } };
}

/** "daily partitions" for day, "hourly partitions" for hour ... */
export function bucketPeriodText(granularity: BucketGranularity): string {
  return `${granularity === 'day' ? 'dai' : granularity}ly partitions`;
}

/** Whether a name is one of the granularities a bucket can have. */
export function isBucketGranularity(name: string): name is BucketGranularity {
  return Object.prototype.hasOwnProperty.call(BUCKETS, name);
}

/** One "Add a time bucket" fix per sensible granularity; the best one for the hints is preferred. */
export function addTimeBucketFixes(text: string, table: CreateTableStatement, options: TimeBucketOptions = {}): Fix[] {
  const pk = table.primaryKey;
  if (!pk || pk.partitionKey.length === 0 || table.columns.length === 0) return [];
  const source = bucketSourceColumn(table, options.timeColumn);
  if (options.timeColumn && !source) return [];
  const sourceType = nativeName(source?.type);
  const sourceText = source ? identifierText(source.name) : undefined;
  const { choices, preferred } = chooseGranularity(sourceType, options);
  const taken = [...table.columns.map((c) => c.name.name), ...pk.partitionKey.map((k) => k.name)];
  const fixes: Fix[] = [];
  for (const granularity of choices) {
    const bucket = bucketColumn(granularity, source, taken);
    const key = partitionKeyEdits(text, table, bucket.column);
    if (!key) continue;
    const body = addBodyElements(text, table, [bucket.element, ...(key.clause ? [key.clause] : [])]);
    if (!body) continue;
    fixes.push({
      title: `Add a time bucket: ${bucket.column} ${bucket.type} (${bucketPeriodText(granularity)}${sourceText ? ` by ${sourceText}` : ''})`,
      kind: 'quickfix',
      isPreferred: granularity === preferred,
      safeForFixAll: false,
      edits: [...key.edits, ...body],
    });
  }
  // The preferred bucket first, like the order editors show.
  return fixes.sort((a, b) => Number(b.isPreferred ?? false) - Number(a.isPreferred ?? false));
}
