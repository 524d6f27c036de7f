// `allow-filtering`: SELECT ... ALLOW FILTERING reads and discards rows on the server; its cost grows
// with the data read, not the rows returned. Quieter when the whole partition key is restricted (then
// only one partition is filtered), which the message says. When an index serves one of the
// restrictions, the message says so: every node looks the value up in its index and filters only the
// rows found, which is not a scan of every partition.
import type { MessageIdOf, RuleExamples, RuleModule } from './types';
import { analyseWhere, unrestrictedPartitionColumns } from '../util/statements';
import type { FindingData } from '../findings/findings-data';
import { describeIndex, servedRestrictions } from './serving-index';
import { settingParagraph } from './guardrail-text';

export const rule: RuleModule<'withinPartitions' | 'everyNode' | 'refused'> = {
  meta: {
    id: 'allow-filtering',
    defaultSeverity: 'warning',
    description: 'ALLOW FILTERING queries, whose cost grows with the data scanned.',
    messages: {
      everyNode: 'ALLOW FILTERING on {{table}}: this query reads rows on every node and throws most of them away',
      withinPartitions: 'ALLOW FILTERING on {{table}}: the partitions named are read whole and then filtered',
      refused: 'ALLOW FILTERING on {{table}} fails on this cluster: {{setting}} is false',
    },
    scope: 'statement',
    options: {
      allowWithinPartition: {
        type: 'boolean',
        default: true,
        description:
          'Do not report ALLOW FILTERING when every partition key column is restricted with = or IN (the filtering stays inside the partitions named).',
      },
    },
  },
  handlers: {
    Select(stmt, ctx) {
      if (!stmt.allowFiltering) return;
      const table = ctx.tableFor(stmt.from, stmt.range.start);
      const where = analyseWhere(stmt.where);
      const missing = table ? unrestrictedPartitionColumns(table, where) : [];
      const partitionRestricted = !!table && missing.length === 0;
      // The team's allow_filtering_enabled: false refuses every such query, inside one partition too.
      const cluster = ctx.cluster();
      const enabled = cluster?.flag('allow_filtering_enabled');
      if (cluster && enabled?.value === false) {
        ctx.report({
          messageId: 'refused',
          values: { table: table?.qualifiedName ?? stmt.from.name.name, setting: enabled.writtenKey },
          details: `${settingParagraph(cluster, enabled, 'fail', 'query')}\n\nModel a table whose partition key is what you filter on, or restrict the partition key and filter in the application.`,
          range: stmt.allowFilteringRange ?? stmt.range,
          data: {
            ...(table ? { table: table.qualifiedName } : {}),
            allowFilteringRange: stmt.allowFilteringRange ?? stmt.range,
            partitionRestricted,
            missing,
            setting: enabled.key,
          } satisfies FindingData<'allow-filtering'>,
        });
        return;
      }
      if (partitionRestricted && ctx.options['allowWithinPartition'] !== false) return;
      const name = table?.qualifiedName ?? stmt.from.name.name;
      const pk = table ? `the partition key (${table.partitionKey.map((c) => c.name).join(', ')})` : '';
      // Inside named partitions an index only narrows the rows read there; the message stays the same.
      const served =
        table && !partitionRestricted
          ? servedRestrictions(stmt.where, ctx.indexesAt(table, stmt.range.start), table)[0]
          : undefined;
      const index = served?.indexes[0];
      const scope = !table
        ? `unless the query restricts the whole partition key, this scans ${name} across the cluster`
        : index
          ? `${pk} is not fully restricted, so every node looks ${served!.column} up in ${describeIndex(index)} and reads the rows it finds, discarding those the other conditions reject; the cost follows the rows the index matches, on every node, not the whole table`
          : partitionRestricted
            ? `every partition named is read and filtered`
            : `${pk} is not fully restricted, so this scans every partition of ${name} across the cluster`;
      ctx.report({
        messageId: partitionRestricted ? 'withinPartitions' : 'everyNode',
        values: { table: name },
        details: `ALLOW FILTERING reads rows and discards those that do not match: ${scope}.\n\nModel a table whose partition key is what you filter on, or restrict the partition key.`,
        range: stmt.allowFilteringRange ?? stmt.range,
        data: {
          ...(table ? { table: table.qualifiedName } : {}),
          allowFilteringRange: stmt.allowFilteringRange ?? stmt.range,
          partitionRestricted,
          missing,
          ...(index?.name ? { index: index.name } : {}),
        } satisfies FindingData<'allow-filtering'>,
      });
    },
  },
};

const table = 'CREATE TABLE ks.t (id uuid, ts timestamp, v int, PRIMARY KEY (id, ts));\n';
const cyclists = 'CREATE TABLE cycling.cyclist_name (id uuid PRIMARY KEY, firstname text, lastname text);\n';

export const examples: RuleExamples<MessageIdOf<typeof rule>> = {
  valid: [
    {
      name: 'filtering inside one partition',
      code: `${table}SELECT * FROM ks.t WHERE id = ? AND v > 3 ALLOW FILTERING;`,
    },
    { name: 'no ALLOW FILTERING', code: `${table}SELECT * FROM ks.t WHERE id = ?;` },
  ],
  invalid: [
    {
      name: "the team's allow_filtering_enabled: false refuses it even inside a partition",
      code: `${table}SELECT * FROM ks.t WHERE id = ? AND v > 3 ALLOW FILTERING;`,
      clusterYaml: 'allow_filtering_enabled: false\n',
      at: 'ALLOW',
      messageId: 'refused',
      message: /cluster\.yaml:1/,
      data: { setting: 'allow_filtering_enabled' },
    },
    {
      name: 'filtering scan of a whole table',
      code: `${table}SELECT * FROM ks.t WHERE v > 3 ALLOW FILTERING;`,
      at: 'ALLOW FILTERING',
      messageId: 'everyNode',
      message: /scans every partition of ks\.t/,
      data: { table: 'ks.t', missing: ['id'], partitionRestricted: false },
    },
    {
      name: 'table unknown to the workspace',
      code: 'SELECT * FROM ks.other WHERE v > 3 ALLOW FILTERING;',
      at: 'ALLOW',
      messageId: 'everyNode',
      data: { missing: [] },
    },
    {
      name: 'filtering inside one partition, reported (option)',
      code: `${table}SELECT * FROM ks.t WHERE id = ? AND v > 3 ALLOW FILTERING;`,
      at: 'ALLOW',
      messageId: 'withinPartitions',
      config: { rules: { 'allow-filtering': ['warn', { allowWithinPartition: false }] } },
      message: /every partition named is read and filtered/,
    },
    {
      name: 'index lookup plus filtering: not a scan of every partition',
      code: `${cyclists}CREATE INDEX ln_idx ON cycling.cyclist_name (lastname);\nSELECT * FROM cycling.cyclist_name WHERE lastname = 'VOS' AND firstname = 'Marianne' ALLOW FILTERING;`,
      at: 'ALLOW',
      messageId: 'everyNode',
      message: /every node looks lastname up in the secondary index ln_idx on lastname/,
      data: { index: 'ln_idx' },
    },
    {
      name: 'storage-attached index plus filtering',
      code: `${cyclists}CREATE INDEX ln_sai ON cycling.cyclist_name (lastname) USING 'sai';\nSELECT * FROM cycling.cyclist_name WHERE lastname = 'VOS' AND firstname = 'Marianne' ALLOW FILTERING;`,
      at: 'ALLOW',
      messageId: 'everyNode',
      message: /storage-attached index ln_sai/,
    },
    {
      name: 'range on a SASI-indexed text column: SASI cannot serve it, a scan',
      code: `${cyclists}CREATE CUSTOM INDEX fn_prefix ON cycling.cyclist_name (firstname) USING 'org.apache.cassandra.index.sasi.SASIIndex';\nSELECT * FROM cycling.cyclist_name WHERE firstname > 'Mar' ALLOW FILTERING;`,
      at: 'ALLOW',
      messageId: 'everyNode',
      message: /scans every partition/,
    },
    {
      name: 'range on a legacy-indexed column: the index cannot serve it, a scan',
      code: `${cyclists}CREATE INDEX fn_idx ON cycling.cyclist_name (firstname);\nSELECT * FROM cycling.cyclist_name WHERE firstname > 'Mar' ALLOW FILTERING;`,
      at: 'ALLOW',
      messageId: 'everyNode',
      message: /scans every partition/,
    },
  ],
};
