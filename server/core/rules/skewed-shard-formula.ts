// `skewed-shard-formula`: a table's `-- @shard` formula that spreads rows badly over its shards, as
// Amazon's "product of the code points mod N" (codepoints) does: measured with predictShardSkew on fixed
// synthetic samples (titles, ids, uuid strings), reported on the annotation with the evidence and the
// murmur3 formula to use instead. A single shard (`% 1`, `random(1)`) is reported too.
import { predictShardSkew, type SkewReport } from '../token/skew';
import type { ShardSpec } from '../token/shard';
import type { MessageIdOf, RuleExamples, RuleModule } from './types';
import { withCreatedTable } from './defined-tables';
import type { FindingData } from '../findings/findings-data';

// Predictions take a few milliseconds and depend only on these fields: cache them across lint runs.
const cache = new Map<string, SkewReport>();

function predict(spec: ShardSpec): SkewReport {
  const key = `${spec.method}|${spec.count}|${spec.offset}|${spec.sources[0] ?? spec.shardColumn}`;
  let report = cache.get(key);
  if (!report) {
    report = predictShardSkew(spec);
    if (cache.size > 200) cache.clear();
    cache.set(key, report);
  }
  return report;
}

export const rule: RuleModule<'oneShard' | 'uneven'> = {
  meta: {
    id: 'skewed-shard-formula',
    defaultSeverity: 'warning',
    description: 'A @shard formula that spreads rows unevenly over the shards (e.g. the product of code points).',
    messages: {
      oneShard: '{{formula}}: one shard puts every row in the same partition',
      uneven: 'uneven shards: {{formula}} puts {{percent}}% of the rows in one shard',
    },
  },
  handlers: {
    CreateTable: withCreatedTable((stmt, table, ctx) => {
      const spec = table.shard;
      if (!spec) return;
      const formula = `${spec.shardColumn} = ${spec.text}`;
      if (spec.count === 1) {
        ctx.report({
          messageId: 'oneShard',
          values: { formula },
          details: 'The sharding spreads nothing: use more shards (e.g. 16).',
          range: spec.ranges.count,
          data: {
            table: table.qualifiedName,
            formula,
            method: spec.method,
            count: 1,
            fullestShare: 1,
            emptyShards: 0,
          } satisfies FindingData<'skewed-shard-formula'>,
        });
        return;
      }
      const report = predict(spec);
      if (!report.skewed) return;
      const suggestion =
        spec.method === 'codepoints'
          ? `${spec.shardColumn} = murmur3(${spec.sources.join(', ')}) % ${spec.count}${spec.offset ? ` + ${spec.offset}` : ''}`
          : undefined;
      const share = report.primary.fullestShare * 100;
      ctx.report({
        messageId: 'uneven',
        values: { formula, percent: share >= 99.95 ? 100 : share >= 10 ? share.toFixed(0) : share.toFixed(1) },
        details: report.message,
        range: spec.ranges.annotation,
        data: {
          table: table.qualifiedName,
          formula,
          method: spec.method,
          count: spec.count,
          fullestShare: Math.round(report.primary.fullestShare * 1000) / 1000,
          emptyShards: report.primary.emptyShards,
          ...(suggestion ? { suggestion } : {}),
        } satisfies FindingData<'skewed-shard-formula'>,
      });
    }),
  },
};

const columns =
  '(publish_date date, shard int, title text, order_id text, PRIMARY KEY ((publish_date, shard), title));';

export const examples: RuleExamples<MessageIdOf<typeof rule>> = {
  valid: [
    `-- @shard shard = murmur3(title) % 200 + 1\nCREATE TABLE ks.posts ${columns}`,
    `-- @shard shard = random(200)\nCREATE TABLE ks.posts ${columns}`,
    `-- @shard shard = murmur3(order_id) % 16\nCREATE TABLE ks.posts ${columns}`,
    { name: 'no annotation', code: `CREATE TABLE ks.posts ${columns}` },
  ],
  invalid: [
    {
      name: "Amazon's code-point product mod 200",
      code: `-- @shard shard = codepoints(title) % 200 + 1\nCREATE TABLE ks.posts ${columns}`,
      at: '-- @shard',
      messageId: 'uneven',
      message:
        /codepoints\(title\) % 200 \+ 1 puts \d+% of sample titles in shard 1 \(\d+ of 200 shards empty.*Use murmur3\(title\) % 200 \+ 1/,
      data: { method: 'codepoints', count: 200, suggestion: 'shard = murmur3(title) % 200 + 1' },
    },
    {
      name: 'code points of ids',
      code: `-- @shard shard = codepoints(order_id) % 64\nCREATE TABLE ks.posts ${columns}`,
      at: '-- @shard',
      messageId: 'uneven',
      message: /ids like ORD-000123/,
    },
    {
      name: 'a single shard',
      code: `-- @shard shard = murmur3(title) % 1\nCREATE TABLE ks.posts ${columns}`,
      at: '1\nCREATE',
      messageId: 'oneShard',
      message: /one shard/,
    },
  ],
};
