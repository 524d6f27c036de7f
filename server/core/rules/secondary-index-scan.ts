// `secondary-index-scan`: a SELECT served by a legacy secondary index (or a non-SAI custom index such as
// SASI) without restricting the partition key: the coordinator asks every node (and every token range)
// for matches. Storage-attached indexes (SAI) are not reported: they are built for such queries, and
// with a partition key restriction any index query stays on one replica set.
// Data: { table, column: string, index?: string, indexKind: 'legacy' | 'custom', missing: string[] }
import { docsUrl } from '../findings';
import type { IndexInfo } from '../schema/model';
import type { RuleExamples, RuleModule } from './types';
import { analyseWhere, unrestrictedPartitionColumns } from './util';
import type { FindingData } from '../findings-data';

export const rule: RuleModule = {
  meta: {
    id: 'secondary-index-scan',
    defaultSeverity: 'warning',
    description: 'A legacy secondary-index query without the partition key: it fans out to every node.',
    docsUrl: docsUrl('secondary-index-scan'),
    scope: 'statement',
    options: {
      defaultIndexIsSai: {
        type: 'boolean',
        default: false,
        description: "Treat CREATE INDEX without USING as SAI (cassandra.yaml default_secondary_index: sai).",
      },
    },
  },
  check(ctx) {
    for (const stmt of ctx.parse.statements) {
      // With ALLOW FILTERING, allow-filtering already reports the scan.
      if (stmt.kind !== 'Select' || stmt.allowFiltering) continue;
      const table = ctx.tableFor(stmt.from, stmt.range.start.offset);
      if (!table) continue;
      const indexes = ctx.indexesOn(table);
      if (!indexes.length) continue;
      const where = analyseWhere(stmt.where);
      const missing = unrestrictedPartitionColumns(table, where);
      if (!missing.length) continue;
      const restricted = new Set(where.byColumn.keys());
      const plainIsSai = ctx.options['defaultIndexIsSai'] === true;
      const isSai = (i: IndexInfo): boolean => i.sai || (plainIsSai && !i.custom && !i.using);
      // When any restricted column has an SAI index (in any file: definitions differ), SAI serves the query.
      if ([...restricted].some((c) => ctx.schema.allIndexesOn(table, c).some(isSai))) continue;
      const used = indexes.find((i) => !isSai(i) && restricted.has(i.column));
      if (!used) continue;
      const rel = where.byColumn.get(used.column)![0]!.relation;
      ctx.report({
        message: `this query on ${table.qualifiedName} is served by the ${used.custom ? 'custom' : 'secondary'} index${used.name ? ` ${used.name}` : ''} on ${used.column} without the partition key (${missing.join(', ')}): every node is asked. Restrict the partition key, use a storage-attached index (USING 'sai'), or query a table keyed by ${used.column}`,
        range: rel.range,
        data: { table: table.qualifiedName, column: used.column, ...(used.name ? { index: used.name } : {}), indexKind: used.custom ? 'custom' : 'legacy', missing } satisfies FindingData<'secondary-index-scan'>,
      });
    }
  },
};

const t = 'CREATE TABLE ks.t (id uuid, ts timestamp, country text, PRIMARY KEY (id, ts));\n';

export const examples: RuleExamples = {
  valid: [
    `${t}CREATE INDEX t_country ON ks.t (country) USING 'sai';\nSELECT * FROM ks.t WHERE country = 'FR';`,
    `${t}CREATE INDEX t_country ON ks.t (country);\nSELECT * FROM ks.t WHERE id = ? AND country = 'FR';`,
    `${t}SELECT * FROM ks.t WHERE id = ?;`,
    { name: 'option: plain CREATE INDEX is SAI', code: `${t}CREATE INDEX t_country ON ks.t (country);\nSELECT * FROM ks.t WHERE country = 'FR';`, config: { rules: { 'secondary-index-scan': ['warn', { defaultIndexIsSai: true }] } } },
    { name: 'dropped index', code: `${t}CREATE INDEX t_country ON ks.t (country);\nDROP INDEX ks.t_country;\nSELECT * FROM ks.t WHERE country = 'FR' ALLOW FILTERING;` },
  ],
  invalid: [
    { code: `${t}CREATE INDEX t_country ON ks.t (country);\nSELECT * FROM ks.t WHERE country = 'FR';`, at: "country = 'FR'", data: { column: 'country', index: 't_country', indexKind: 'legacy' } },
    { name: 'index in another file', code: `SELECT * FROM ks.t WHERE country = 'FR';`, files: { 'schema.cql': `${t}CREATE INDEX ON ks.t (country);` } },
  ],
};
