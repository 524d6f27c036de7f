// `hot-partition`: a partition key that concentrates traffic on few partitions: a time bucket alone
// (all of today's writes hit one partition), booleans, tinyints and enum-like columns (status, type,
// region, ...). Silent when the key has a shard/bucket column or a high-cardinality id.
// Data: { table, keyspace?, partitionKey: string[], reason: 'time-bucket' | 'low-cardinality',
//         candidates: string[] (high-cardinality columns a calculated shard could hash),
//         suggestedKey: string, statementRange, partitionKeyRange? }
import type { CreateMaterializedViewStatement, CreateTableStatement } from '../../../grammar/ast';
import { docsUrl } from '../findings';
import { isHighCardinality, isLowCardinality, isShardColumn, isTimeBucket } from '../schema/columns';
import { nativeName } from '../schema/types';
import type { RuleContext, RuleExamples, RuleModule } from './types';
import { keyText } from '../util/statements';

function check(ctx: RuleContext, stmt: CreateTableStatement | CreateMaterializedViewStatement): void {
  const table = ctx.definedBy(stmt);
  if (!table || !table.partitionKey.length) return;
  const pk = table.partitionKey;
  if (pk.some((c) => isShardColumn(c, table) || isHighCardinality(c))) return;
  const allBuckets = pk.every((c) => isTimeBucket(c));
  const allLow = pk.every((c) => isTimeBucket(c) || isLowCardinality(c));
  if (!allLow) return;
  // Lookup tables keyed by an enum (one row per status, say) are small and fine: only flag tables that
  // accumulate rows per partition (clustering columns) or are keyed by time.
  if (!table.clustering.length && !allBuckets) return;
  // Rows clustered only by coarse buckets or enum values (a calendar by year and month) stay few.
  if (table.clustering.length && table.clustering.every((c) => isTimeBucket(c) || isLowCardinality(c))) return;
  const reason = allBuckets ? 'time-bucket' : 'low-cardinality';
  const candidates = table.columns
    .filter((c) => c.role !== 'partition' && isHighCardinality(c) && nativeName(c.type) !== 'timeuuid')
    .map((c) => c.name);
  const pkNames = pk.map((c) => c.name);
  const suggestedKey = keyText([...pkNames, 'shard'], table.clustering.map((c) => c.name));
  const shardHint = candidates.length ? `computed as murmur3(${candidates[0]}) % N + 1 so reads by ${candidates[0]} find it` : 'random 1..N';
  const what = reason === 'time-bucket'
    ? `the partition key (${pkNames.join(', ')}) is a time bucket alone, so all writes of the current ${pkNames.join('/')} go to one partition`
    : `the partition key (${pk.map((c) => `${c.name} ${c.typeText}`).join(', ')}) has only a few distinct values, so all rows share a handful of partitions`;
  ctx.report({
    message: `hot partition in ${table.qualifiedName}: ${what}. Shard it: add a shard column to the partition key ${suggestedKey}, ${shardHint}`,
    range: stmt.primaryKey?.partitionKeyRange ?? stmt.primaryKey?.range ?? stmt.name.range,
    data: {
      table: table.qualifiedName,
      ...(table.keyspace ? { keyspace: table.keyspace } : {}),
      partitionKey: pkNames,
      reason,
      candidates,
      suggestedKey,
      statementRange: stmt.range,
      ...(stmt.primaryKey?.partitionKeyRange ? { partitionKeyRange: stmt.primaryKey.partitionKeyRange } : {}),
    },
  });
}

export const rule: RuleModule = {
  meta: {
    id: 'hot-partition',
    defaultSeverity: 'warning',
    description: 'A partition key that sends most traffic to few partitions (time bucket alone, boolean, enum-like).',
    docsUrl: docsUrl('hot-partition'),
    scope: 'statement',
  },
  check(ctx) {
    for (const stmt of ctx.parse.statements) {
      if (stmt.kind === 'CreateTable' || stmt.kind === 'CreateMaterializedView') check(ctx, stmt);
    }
  },
};

export const examples: RuleExamples = {
  valid: [
    'CREATE TABLE ks.books (publish_date date, shard int, title text, PRIMARY KEY ((publish_date, shard), title));',
    'CREATE TABLE ks.users (id uuid PRIMARY KEY, status text);',
    'CREATE TABLE ks.orders (customer_id uuid, status text, order_id timeuuid, PRIMARY KEY ((customer_id, status), order_id));',
    { name: '@shard comment declares the shard column', code: '-- @shard s = murmur3(title) % 8 + 1\nCREATE TABLE ks.books (publish_date date, s int, title text, PRIMARY KEY ((publish_date, s), title));' },
    { name: 'enum-keyed lookup table without clustering', code: 'CREATE TABLE ks.status_labels (status text PRIMARY KEY, label text);' },
    { name: 'a calendar: few rows per partition', code: 'CREATE TABLE ks.calendar (year int, month int, events list<text>, PRIMARY KEY (year, month));' },
  ],
  invalid: [
    {
      name: "Amazon's write-sharding example",
      code: 'CREATE TABLE ks.books (publish_date date, title text, author text, PRIMARY KEY (publish_date, title));',
      at: 'publish_date, title)',
      message: /time bucket alone/,
      data: { reason: 'time-bucket', partitionKey: ['publish_date'], candidates: ['title'], suggestedKey: '((publish_date, shard), title)' },
    },
    { code: 'CREATE TABLE ks.tasks (done boolean, task_id uuid, PRIMARY KEY (done, task_id));', data: { reason: 'low-cardinality', candidates: ['task_id'] } },
    { code: 'CREATE TABLE ks.orders (status text, order_id uuid, PRIMARY KEY (status, order_id));' },
    { code: 'CREATE TABLE ks.latest (yyyymmdd text, added_date timestamp, videoid uuid, PRIMARY KEY (yyyymmdd, added_date, videoid));', data: { reason: 'time-bucket', candidates: ['videoid'] } },
    { code: 'CREATE TABLE ks.b (id uuid PRIMARY KEY, region text, v text);\nCREATE MATERIALIZED VIEW ks.by_region AS SELECT * FROM ks.b WHERE region IS NOT NULL AND id IS NOT NULL PRIMARY KEY (region, id);' },
  ],
};
