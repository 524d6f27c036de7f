// `partial-partition-key`: `SELECT DISTINCT`, `token()` or `GROUP BY` naming some of a table's partition key
// columns but not all. Cassandra rejects each: DISTINCT must request every partition key column ("SELECT
// DISTINCT queries must request all the partition key columns"), token() takes the whole partition key in
// order, and GROUP BY groups by a prefix of the primary key, which starts with the whole partition key. A
// schema whose partition key grew (a shard, a time bucket) leaves such statements behind.
import type { MessageIdOf, RuleContext, RuleExamples, RuleModule, StatementOf } from './types';
import type { FindingData } from '../findings/findings-data';
import { partitionKeyClauses } from '../util/key-clauses';

type MessageId = 'distinct' | 'token' | 'groupBy';

const MESSAGE: Record<'distinct' | 'token' | 'group-by', MessageId> = {
  distinct: 'distinct',
  token: 'token',
  'group-by': 'groupBy',
};

const WHY: Record<'distinct' | 'token' | 'group-by', string> = {
  distinct:
    'SELECT DISTINCT lists partitions, and a partition is named by every column of its key: Cassandra rejects a DISTINCT that requests only some of them',
  token:
    'token() hashes the whole partition key, every column in key order: Cassandra rejects a call on only some of them',
  'group-by':
    'GROUP BY groups by a prefix of the primary key, which starts with every partition key column: Cassandra rejects a grouping by only some of them',
};

function check(stmt: StatementOf<'Select'>, ctx: RuleContext<MessageId>): void {
  const table = ctx.tableFor(stmt.from, stmt.range.start);
  if (!table || !table.partitionKey.length) return;
  const key = table.partitionKey.map((c) => c.name);
  for (const clause of partitionKeyClauses(stmt, key)) {
    const missing = key.filter((c) => !clause.named.includes(c));
    if (!missing.length) continue;
    ctx.report({
      messageId: MESSAGE[clause.kind],
      values: { table: table.qualifiedName, missing: missing.join(', ') },
      details: `${WHY[clause.kind]}. The partition key of ${table.qualifiedName} is (${key.join(', ')}).\n\nName ${missing.join(', ')} too${clause.kind === 'group-by' ? ' (each group is then one partition: merge the groups of one value in the application)' : ''}.`,
      range: clause.range,
      data: {
        table: table.qualifiedName,
        clause: clause.kind,
        named: clause.named,
        missing,
        partitionKey: key,
      } satisfies FindingData<'partial-partition-key'>,
    });
  }
}

export const rule: RuleModule<MessageId> = {
  meta: {
    id: 'partial-partition-key',
    defaultSeverity: 'error',
    description: 'SELECT DISTINCT, token() or GROUP BY naming part of the partition key, which Cassandra rejects.',
    messages: {
      distinct: 'SELECT DISTINCT on {{table}} misses partition key columns: {{missing}}',
      token: 'token() on {{table}} misses partition key columns: {{missing}}',
      groupBy: 'GROUP BY on {{table}} misses partition key columns: {{missing}}',
    },
    scope: 'statement',
  },
  handlers: { Select: check },
};

const sharded =
  'CREATE TABLE ks.posts (day date, shard int, posted_at timestamp, body text, PRIMARY KEY ((day, shard), posted_at));\n';

export const examples: RuleExamples<MessageIdOf<typeof rule>> = {
  valid: [
    `${sharded}SELECT DISTINCT day, shard FROM ks.posts;`,
    `${sharded}SELECT * FROM ks.posts WHERE token(day, shard) > token(?, ?);`,
    `${sharded}SELECT day, shard, count(*) FROM ks.posts GROUP BY day, shard;`,
    {
      name: 'columns outside the key',
      code: `${sharded}SELECT posted_at, count(*) FROM ks.posts WHERE day = ? AND shard = ? GROUP BY posted_at;`,
    },
    {
      name: 'a one-column key',
      code: 'CREATE TABLE ks.t (id int PRIMARY KEY, v text);\nSELECT DISTINCT id FROM ks.t;\nSELECT token(id) FROM ks.t;',
    },
  ],
  invalid: [
    {
      name: 'DISTINCT on the key before a shard joined it',
      code: `${sharded}SELECT DISTINCT day FROM ks.posts;`,
      at: 'day FROM',
      messageId: 'distinct',
      data: { clause: 'distinct', missing: ['shard'] },
    },
    {
      name: 'a token range scan on part of the key',
      code: `${sharded}SELECT * FROM ks.posts WHERE token(day) > token('2026-11-20');`,
      at: 'token(day)',
      messageId: 'token',
      data: { missing: ['shard'] },
    },
    {
      name: 'token() selected',
      code: `${sharded}SELECT token(day), body FROM ks.posts;`,
      at: 'token(day)',
      messageId: 'token',
    },
    {
      name: 'GROUP BY part of the key',
      code: `${sharded}SELECT day, count(*) FROM ks.posts GROUP BY day;`,
      at: 'day;',
      messageId: 'groupBy',
      data: { clause: 'group-by', named: ['day'], missing: ['shard'] },
    },
  ],
};
