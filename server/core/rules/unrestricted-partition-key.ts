// `unrestricted-partition-key`: a SELECT that does not restrict every partition key column with = or IN
// (nor uses token() ranges): Cassandra has to ask every node, a full scan. On a write-sharded table
// (`-- @shard` comment) the message says that all N shards must be read.
// Skipped: ALLOW FILTERING (allow-filtering reports it), queries on indexed columns (secondary-index-scan
// and SAI), `SELECT ... LIMIT n` without WHERE (a sample), system keyspaces, unknown tables.
// Data: { table, partitionKey: string[], missing: string[], restricted: string[], whereRange?,
//         shardColumn?: string, shardCount?: number, shardOnlyMissing?: boolean }
import { docsUrl } from '../findings';
import type { RuleExamples, RuleModule } from './types';
import { analyseWhere, isSystemKeyspace, unrestrictedPartitionColumns } from './util';
import type { FindingData } from '../findings-data';

export const rule: RuleModule = {
  meta: {
    id: 'unrestricted-partition-key',
    defaultSeverity: 'warning',
    description: 'A SELECT that does not name its partitions: a scan of the whole table.',
    docsUrl: docsUrl('unrestricted-partition-key'),
    scope: 'statement',
  },
  check(ctx) {
    for (const stmt of ctx.parse.statements) {
      if (stmt.kind !== 'Select' || stmt.allowFiltering) continue;
      const at = stmt.range.start.offset;
      const keyspace = stmt.from.keyspace?.name ?? ctx.keyspaceAt(at);
      if (isSystemKeyspace(keyspace)) continue;
      const table = ctx.tableFor(stmt.from, at);
      if (!table || !table.partitionKey.length) continue;
      const where = analyseWhere(stmt.where);
      if (where.token) continue;
      if (!stmt.where.length && stmt.limit) continue;
      const missing = unrestrictedPartitionColumns(table, where);
      if (!missing.length) continue;
      // A query on an indexed column is an index query (secondary-index-scan judges it).
      // (Any file's index counts: the docs create an index in one file and query it in another.)
      if ([...where.byColumn.keys()].some((c) => ctx.schema.allIndexesOn(table, c).length > 0)) continue;
      const pk = table.partitionKey.map((c) => c.name);
      const restricted = pk.filter((c) => !missing.includes(c));
      const shard = table.shard && pk.includes(table.shard.shardColumn) ? table.shard : undefined;
      const shardOnlyMissing = !!shard && missing.length === 1 && missing[0] === shard.shardColumn;
      let message: string;
      if (shardOnlyMissing) {
        const first = shard!.offset;
        message = `${table.qualifiedName} is sharded ${shard!.count} ways on ${shard!.shardColumn}: without ${shard!.shardColumn} this query must read all ${shard!.count} shards; ` +
          `add ${shard!.shardColumn} IN (${first}..${first + shard!.count - 1})${shard!.method === 'random' ? '' : ` or compute it from ${shard!.sources.join(', ') || 'the source column'}`}`;
      } else {
        message = `this query does not restrict the partition key (${pk.join(', ')}) of ${table.qualifiedName}` +
          `${stmt.where.length ? ` (missing ${missing.join(', ')})` : ''}: it scans every partition on every node. Restrict ${missing.join(', ')} with = or IN, or query a table keyed by what you filter on` +
          (shard ? `; the table is sharded ${shard.count} ways on ${shard.shardColumn}, so all ${shard.count} shards must be read` : '');
      }
      ctx.report({
        message,
        range: stmt.whereRange ?? stmt.from.range,
        data: {
          table: table.qualifiedName,
          partitionKey: pk,
          missing,
          restricted,
          ...(stmt.whereRange ? { whereRange: stmt.whereRange } : {}),
          ...(shard ? { shardColumn: shard.shardColumn, shardCount: shard.count, shardOnlyMissing } : {}),
        } satisfies FindingData<'unrestricted-partition-key'>,
      });
    }
  },
};

const t = 'CREATE TABLE ks.t (id uuid, ts timestamp, v int, PRIMARY KEY (id, ts));\n';
const sharded = '-- @shard shard = murmur3(title) % 8 + 1\nCREATE TABLE ks.books (publish_date date, shard int, title text, PRIMARY KEY ((publish_date, shard), title));\n';

export const examples: RuleExamples = {
  valid: [
    `${t}SELECT * FROM ks.t WHERE id = ?;`,
    `${t}SELECT * FROM ks.t WHERE id IN (?, ?) AND ts > ?;`,
    `${t}SELECT * FROM ks.t WHERE token(id) > ? AND token(id) <= ?;`,
    `${t}SELECT * FROM ks.t LIMIT 10;`,
    `${t}SELECT * FROM ks.t WHERE v > 1 ALLOW FILTERING;`,
    'SELECT * FROM system.local;',
    'SELECT * FROM ks.unknown;',
    `${t}CREATE INDEX ON ks.t (v) USING 'sai';\nSELECT * FROM ks.t WHERE v = 3;`,
    `${sharded}SELECT * FROM ks.books WHERE publish_date = ? AND shard = ?;`,
  ],
  invalid: [
    { code: `${t}SELECT * FROM ks.t;`, at: 'ks.t;', data: { missing: ['id'], restricted: [] } },
    { code: `${t}SELECT * FROM ks.t WHERE ts > ?;`, at: 'WHERE', message: /missing id/ },
    {
      name: 'sharded table read without the shard',
      code: `${sharded}SELECT * FROM ks.books WHERE publish_date = ?;`,
      message: /all 8 shards/,
      data: { shardColumn: 'shard', shardCount: 8, missing: ['shard'], shardOnlyMissing: true },
    },
    {
      name: 'random(N) shards are 1..N',
      code: '-- @shard s = random(4)\nCREATE TABLE ks.ev (day date, s int, id uuid, PRIMARY KEY ((day, s), id));\nSELECT * FROM ks.ev WHERE day = ?;',
      message: /add s IN \(1\.\.4\)/,
      data: { shardColumn: 's', shardCount: 4, shardOnlyMissing: true },
    },
    {
      name: 'without + 1 a calculated shard is 0..N-1',
      code: '-- @shard s = murmur3(id) % 4\nCREATE TABLE ks.ev (day date, s int, id uuid, PRIMARY KEY ((day, s), id));\nSELECT * FROM ks.ev WHERE day = ?;',
      message: /add s IN \(0\.\.3\) or compute it from id/,
    },
    { name: 'partial composite key', code: 'CREATE TABLE ks.p (a int, b int, c int, PRIMARY KEY ((a, b), c));\nSELECT * FROM ks.p WHERE a = 1;', data: { missing: ['b'], restricted: ['a'] } },
  ],
};
