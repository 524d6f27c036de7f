// `allow-filtering`: SELECT ... ALLOW FILTERING reads and discards rows on the server; its cost grows
// with the data scanned, not the rows returned. Quieter when the whole partition key is restricted
// (then only one partition is filtered), which the message says.
// Data: { table?: string, allowFilteringRange, partitionRestricted: boolean, missing: string[] }
import { docsUrl } from '../findings';
import type { RuleExamples, RuleModule } from './types';
import { analyseWhere, unrestrictedPartitionColumns } from './util';
import type { FindingData } from '../findings-data';

export const rule: RuleModule = {
  meta: {
    id: 'allow-filtering',
    defaultSeverity: 'warning',
    description: 'ALLOW FILTERING queries, whose cost grows with the data scanned.',
    docsUrl: docsUrl('allow-filtering'),
    scope: 'statement',
    options: {
      allowWithinPartition: { type: 'boolean', default: true, description: 'Do not report ALLOW FILTERING when every partition key column is restricted with = or IN (the filtering stays inside the partitions named).' },
    },
  },
  check(ctx) {
    for (const stmt of ctx.parse.statements) {
      if (stmt.kind !== 'Select' || !stmt.allowFiltering) continue;
      const table = ctx.tableFor(stmt.from, stmt.range.start.offset);
      const where = analyseWhere(stmt.where);
      const missing = table ? unrestrictedPartitionColumns(table, where) : [];
      const partitionRestricted = !!table && missing.length === 0;
      if (partitionRestricted && ctx.options['allowWithinPartition'] !== false) continue;
      const name = table?.qualifiedName ?? stmt.from.name.name;
      const scope = table
        ? `the partition key (${table.partitionKey.map((c) => c.name).join(', ')}) is not fully restricted, so this scans every partition of ${name} across the cluster`
        : `unless the query restricts the whole partition key, this scans ${name} across the cluster`;
      ctx.report({
        message: `ALLOW FILTERING reads rows and discards those that do not match: ${scope}. Model a table whose partition key is what you filter on, or restrict the partition key`,
        range: stmt.allowFilteringRange ?? stmt.range,
        data: { ...(table ? { table: table.qualifiedName } : {}), allowFilteringRange: stmt.allowFilteringRange ?? stmt.range, partitionRestricted, missing } satisfies FindingData<'allow-filtering'>,
      });
    }
  },
};

const table = 'CREATE TABLE ks.t (id uuid, ts timestamp, v int, PRIMARY KEY (id, ts));\n';

export const examples: RuleExamples = {
  valid: [
    `${table}SELECT * FROM ks.t WHERE id = ? AND v > 3 ALLOW FILTERING;`,
    `${table}SELECT * FROM ks.t WHERE id = ?;`,
  ],
  invalid: [
    { code: `${table}SELECT * FROM ks.t WHERE v > 3 ALLOW FILTERING;`, at: 'ALLOW FILTERING', data: { table: 'ks.t', missing: ['id'], partitionRestricted: false } },
    { name: 'unknown table', code: 'SELECT * FROM ks.other WHERE v > 3 ALLOW FILTERING;', data: { missing: [] } },
    { name: 'option off', code: `${table}SELECT * FROM ks.t WHERE id = ? AND v > 3 ALLOW FILTERING;`, config: { rules: { 'allow-filtering': ['warn', { allowWithinPartition: false }] } } },
  ],
};
