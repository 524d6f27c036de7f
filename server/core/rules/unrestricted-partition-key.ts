// `unrestricted-partition-key`: a SELECT that does not restrict every partition key column with = or IN
// (nor uses token() ranges): Cassandra has to ask every node, a full scan. On a write-sharded table
// (`-- @shard` comment) the message says that all N shards must be read.
// Skipped: ALLOW FILTERING (allow-filtering reports it), queries an index serves (secondary-index-scan),
// a sample (`SELECT ... LIMIT n` without WHERE, n at most the `sampleLimit` option: a larger or bound
// LIMIT still reads partition after partition until it has n rows), system keyspaces, unknown tables.
import type { ReportedFinding, MessageIdOf, RuleExamples, RuleModule } from './types';
import { analyseWhere, isSystemKeyspace, unrestrictedPartitionColumns } from '../util/statements';
import type { FindingData } from '../findings/findings-data';
import { servedRestrictions } from './serving-index';

/** A LIMIT up to this many rows, on a SELECT without WHERE, is a sample (a look at the data), not a scan. */
const DEFAULT_SAMPLE_LIMIT = 100;

type MessageId = 'allShards' | 'scan' | 'scanMissing';

export const rule: RuleModule<MessageId> = {
  meta: {
    id: 'unrestricted-partition-key',
    defaultSeverity: 'warning',
    description: 'A SELECT that does not name its partitions: a scan of the whole table.',
    messages: {
      allShards: 'this query on {{table}} must read all {{shards}} shards: it does not name {{shardColumn}}',
      scan: 'this query reads all of {{table}}: it does not name its partitions',
      scanMissing: 'this query reads all of {{table}}: it does not name its partitions (missing {{missing}})',
    },
    scope: 'statement',
    options: {
      sampleLimit: {
        type: 'number',
        default: DEFAULT_SAMPLE_LIMIT,
        minimum: 0,
        description:
          'Largest LIMIT that makes a SELECT without WHERE a sample (not reported); a larger LIMIT, or a bound LIMIT ?, is a scan.',
      },
    },
  },
  handlers: {
    Select(stmt, ctx) {
      const sampleLimit = Number(ctx.options['sampleLimit'] ?? DEFAULT_SAMPLE_LIMIT);
      if (stmt.allowFiltering) return;
      const at = stmt.range.start;
      const keyspace = stmt.from.keyspace?.name ?? ctx.keyspaceAt(at);
      if (isSystemKeyspace(keyspace)) return;
      const table = ctx.tableFor(stmt.from, at);
      if (!table || !table.partitionKey.length) return;
      const where = analyseWhere(stmt.where);
      if (where.token) return;
      const limit = stmt.limit?.kind === 'Literal' ? Number(stmt.limit.value) : undefined;
      if (!stmt.where.length && limit !== undefined && limit <= sampleLimit) return;
      const missing = unrestrictedPartitionColumns(table, where);
      if (!missing.length) return;
      // A query an index serves is an index query (secondary-index-scan judges it); the index may come
      // from another file (the docs create an index in one file and query it in another). A plain index
      // counts with what SAI serves too (it is SAI where default_secondary_index says so).
      if (servedRestrictions(stmt.where, ctx.indexesAt(table, at), table, true).length) return;
      const pk = table.partitionKey.map((c) => c.name);
      const restricted = pk.filter((c) => !missing.includes(c));
      const shard = table.shard && pk.includes(table.shard.shardColumn) ? table.shard : undefined;
      const shardOnlyMissing = !!shard && missing.length === 1 && missing[0] === shard.shardColumn;
      let headline: Pick<ReportedFinding<MessageId>, 'messageId' | 'values'>;
      let details: string;
      if (shardOnlyMissing) {
        const first = shard!.offset;
        headline = {
          messageId: 'allShards',
          values: { table: table.qualifiedName, shards: shard!.count, shardColumn: shard!.shardColumn },
        };
        details =
          `${table.qualifiedName} is sharded ${shard!.count} ways on ${shard!.shardColumn}: without ${shard!.shardColumn} this query must read all ${shard!.count} shards.\n\n` +
          `Add ${shard!.shardColumn} IN (${first}..${first + shard!.count - 1})${shard!.method === 'random' ? '' : ` or compute it from ${shard!.sources.join(', ') || 'the source column'}`}.`;
      } else {
        headline = stmt.where.length
          ? { messageId: 'scanMissing', values: { table: table.qualifiedName, missing: missing.join(', ') } }
          : { messageId: 'scan', values: { table: table.qualifiedName } };
        details =
          `The query does not restrict the partition key (${pk.join(', ')}) of ${table.qualifiedName}: it scans every partition on every node` +
          (stmt.limit
            ? `; ${limit === undefined ? 'a bound LIMIT' : `LIMIT ${limit}`} only stops the scan after that many rows${limit === undefined ? '' : ` (a sample is at most ${sampleLimit})`}`
            : '') +
          `.\n\nRestrict ${missing.join(', ')} with = or IN, or query a table keyed by what you filter on` +
          (shard
            ? `; the table is sharded ${shard.count} ways on ${shard.shardColumn}, so all ${shard.count} shards must be read`
            : '') +
          '.';
      }
      ctx.report({
        ...headline,
        details,
        range: stmt.whereRange ?? stmt.from.range,
        data: {
          table: table.qualifiedName,
          partitionKey: pk,
          missing,
          restricted,
          ...(stmt.whereRange ? { whereRange: stmt.whereRange } : {}),
          ...(limit !== undefined ? { limit } : {}),
          ...(shard ? { shardColumn: shard.shardColumn, shardCount: shard.count, shardOnlyMissing } : {}),
        } satisfies FindingData<'unrestricted-partition-key'>,
      });
    },
  },
};

const t = 'CREATE TABLE ks.t (id uuid, ts timestamp, v int, PRIMARY KEY (id, ts));\n';
const sharded =
  '-- @shard shard = murmur3(title) % 8 + 1\nCREATE TABLE ks.books (publish_date date, shard int, title text, PRIMARY KEY ((publish_date, shard), title));\n';

export const examples: RuleExamples<MessageIdOf<typeof rule>> = {
  valid: [
    `${t}SELECT * FROM ks.t WHERE id = ?;`,
    `${t}SELECT * FROM ks.t WHERE id IN (?, ?) AND ts > ?;`,
    `${t}SELECT * FROM ks.t WHERE token(id) > ? AND token(id) <= ?;`,
    { name: 'sample: a small LIMIT without WHERE', code: `${t}SELECT * FROM ks.t LIMIT 10;` },
    { name: 'sample: LIMIT at the threshold', code: `${t}SELECT * FROM ks.t LIMIT 100;` },
    {
      name: 'sample threshold raised (option)',
      code: `${t}SELECT * FROM ks.t LIMIT 1000;`,
      config: { rules: { 'unrestricted-partition-key': ['warn', { sampleLimit: 1000 }] } },
    },
    {
      name: 'query served by an index in another file',
      code: `SELECT * FROM ks.t WHERE v = 3;`,
      files: { 'schema.cql': `${t}CREATE INDEX ON ks.t (v);` },
    },
    `${t}SELECT * FROM ks.t WHERE v > 1 ALLOW FILTERING;`,
    'SELECT * FROM system.local;',
    'SELECT * FROM ks.unknown;',
    `${t}CREATE INDEX ON ks.t (v) USING 'sai';\nSELECT * FROM ks.t WHERE v = 3;`,
    `${sharded}SELECT * FROM ks.books WHERE publish_date = ? AND shard = ?;`,
  ],
  invalid: [
    { code: `${t}SELECT * FROM ks.t;`, at: 'ks.t;', messageId: 'scan', data: { missing: ['id'], restricted: [] } },
    { code: `${t}SELECT * FROM ks.t WHERE ts > ?;`, at: 'WHERE', messageId: 'scanMissing', message: /missing id/ },
    {
      name: 'sharded table read without the shard',
      code: `${sharded}SELECT * FROM ks.books WHERE publish_date = ?;`,
      output: null,
      suggestion: {
        title: 'Read all 8 shards: shard IN (1, ..., 8)',
        output: `${sharded}-- reads all 8 shards: merge the rows\nSELECT * FROM ks.books WHERE publish_date = ? AND shard IN (1, 2, 3, 4, 5, 6, 7, 8);`,
      },
      at: 'WHERE',
      messageId: 'allShards',
      message: /all 8 shards/,
      data: { shardColumn: 'shard', shardCount: 8, missing: ['shard'], shardOnlyMissing: true },
    },
    {
      name: 'sharded table read with the title: the shard is computed',
      code: `${sharded}SELECT * FROM ks.books WHERE publish_date = '2020-07-09' AND title = 'Hello';`,
      at: 'WHERE',
      messageId: 'allShards',
      output: `${sharded}SELECT * FROM ks.books WHERE publish_date = '2020-07-09' AND title = 'Hello' AND shard = 1;`,
    },
    {
      name: 'random(N) shards are 1..N',
      code: '-- @shard s = random(4)\nCREATE TABLE ks.ev (day date, s int, id uuid, PRIMARY KEY ((day, s), id));\nSELECT * FROM ks.ev WHERE day = ?;',
      at: 'WHERE',
      messageId: 'allShards',
      message: /Add s IN \(1\.\.4\)/,
      data: { shardColumn: 's', shardCount: 4, shardOnlyMissing: true },
    },
    {
      name: 'without + 1 a calculated shard is 0..N-1',
      code: '-- @shard s = murmur3(id) % 4\nCREATE TABLE ks.ev (day date, s int, id uuid, PRIMARY KEY ((day, s), id));\nSELECT * FROM ks.ev WHERE day = ?;',
      at: 'WHERE',
      messageId: 'allShards',
      message: /Add s IN \(0\.\.3\) or compute it from id/,
    },
    {
      name: 'export-sized LIMIT is a scan, not a sample',
      code: `${t}SELECT * FROM ks.t LIMIT 50000;`,
      at: 'ks.t LIMIT',
      messageId: 'scan',
      message: /LIMIT 50000 only stops the scan after that many rows \(a sample is at most 100\)/,
      data: { limit: 50000 },
    },
    {
      name: 'bound LIMIT is a scan of unknown size',
      code: `${t}SELECT * FROM ks.t LIMIT ?;`,
      at: 'ks.t LIMIT',
      messageId: 'scan',
      message: /a bound LIMIT only stops the scan/,
    },
    {
      name: 'sample threshold lowered (option)',
      code: `${t}SELECT * FROM ks.t LIMIT 10;`,
      at: 'ks.t LIMIT',
      messageId: 'scan',
      config: { rules: { 'unrestricted-partition-key': ['warn', { sampleLimit: 5 }] } },
    },
    {
      name: 'index dropped before the query: a plain scan',
      code: `${t}CREATE INDEX v_idx ON ks.t (v);\nDROP INDEX ks.v_idx;\nSELECT * FROM ks.t WHERE v = 3;`,
      at: 'WHERE',
      messageId: 'scanMissing',
      message: /scans every partition/,
    },
    {
      name: 'partial composite key',
      code: 'CREATE TABLE ks.p (a int, b int, c int, PRIMARY KEY ((a, b), c));\nSELECT * FROM ks.p WHERE a = 1;',
      at: 'WHERE',
      messageId: 'scanMissing',
      data: { missing: ['b'], restricted: ['a'] },
    },
  ],
};
