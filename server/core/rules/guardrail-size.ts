// `guardrail-size`: values ScyllaDB records as large data when it writes SSTables (its log and the
// system.large_cells table): a literal cell over compaction_large_cell_warning_threshold_mb, a collection
// literal with more elements than compaction_collection_elements_count_warning_threshold. From the team's
// scylla.yaml, else ScyllaDB's defaults (docs/guardrails.md). The partition thresholds (Cassandra's
// partition_size_*, compaction_large_partition_warning_threshold, ScyllaDB's _mb one) are the
// large-partition rule's, which reads them from the same settings.
import type { Statement } from '../../../grammar/ast';
import { formatSetting } from '../cluster';
import { formatCassandraBytes } from '../util/format';
import type { FindingData } from '../findings/findings-data';
import { settingParagraph } from './guardrail-text';
import { collectionItems, literalBytes, writtenValues } from './guardrail-values';
import type { MessageIdOf, RuleContext, RuleExamples, RuleModule } from './types';

type Id = 'largeCell' | 'manyElements';

function check(stmt: Statement, ctx: RuleContext<Id>): void {
  const cluster = ctx.cluster();
  // Only ScyllaDB has these thresholds: elsewhere nothing to measure.
  if (
    !cluster ||
    (cluster.number('compaction_large_cell_warning_threshold_mb')?.value === undefined &&
      cluster.number('compaction_collection_elements_count_warning_threshold')?.value === undefined)
  )
    return;
  for (const { column, value } of writtenValues(stmt)) {
    const bytes = literalBytes(value);
    const items = collectionItems(value);
    const cell = cluster.crossing('compaction_large_cell_warning_threshold_mb', undefined, bytes);
    if (cell) {
      ctx.report({
        messageId: 'largeCell',
        values: {
          column,
          size: formatCassandraBytes(bytes),
          setting: cell.setting.writtenKey,
          limit: formatSetting(cell.setting),
        },
        range: value.range,
        details: `${settingParagraph(cluster, cell.setting, 'warn', 'SSTable write')} ScyllaDB also records the cell in system.large_cells.\n\nLarge values belong in an object store, with their key in the table.`,
        data: {
          setting: cell.setting.key,
          action: 'warn',
          value: formatSetting(cell.setting),
          source: cell.setting.source,
          measured: bytes,
        } satisfies FindingData<'guardrail-size'>,
      });
    }
    const many =
      items === undefined
        ? undefined
        : cluster.crossing('compaction_collection_elements_count_warning_threshold', undefined, items);
    if (many) {
      ctx.report({
        messageId: 'manyElements',
        values: { column, items: String(items), setting: many.setting.writtenKey, limit: formatSetting(many.setting) },
        range: value.range,
        details: `${settingParagraph(cluster, many.setting, 'warn', 'SSTable write')}\n\nKeep large collections in rows of their own table.`,
        data: {
          setting: many.setting.key,
          action: 'warn',
          value: formatSetting(many.setting),
          source: many.setting.source,
          measured: items!,
        } satisfies FindingData<'guardrail-size'>,
      });
    }
  }
}

export const rule: RuleModule<Id> = {
  meta: {
    id: 'guardrail-size',
    defaultSeverity: 'warning',
    description: "Values over the cluster's large data thresholds (ScyllaDB's large cell and collection warnings).",
    messages: {
      largeCell: 'the value of {{column}} is {{size}}, over {{setting}} ({{limit}}): a large cell',
      manyElements: '{{column}} gets {{items}} elements, over {{setting}} ({{limit}}): a large collection',
    },
    batchMembers: true,
    scope: 'statement',
  },
  handlers: {
    Insert: check,
    Update: check,
  },
};

const table = 'CREATE TABLE ks.t (id int PRIMARY KEY, v text, tags set<int>);\n';

export const examples: RuleExamples<MessageIdOf<typeof rule>> = {
  valid: [
    {
      name: 'a small value on ScyllaDB',
      code: `${table}INSERT INTO ks.t (id, v) VALUES (1, 'a');`,
      target: 'scylladb',
    },
    {
      name: 'no such threshold on Cassandra',
      code: `${table}INSERT INTO ks.t (id, tags) VALUES (1, {${Array.from({ length: 10001 }, (_, i) => i).join(', ')}});`,
    },
  ],
  invalid: [
    {
      name: "a collection over ScyllaDB's default 10,000 elements",
      code: `${table}INSERT INTO ks.t (id, tags) VALUES (1, {${Array.from({ length: 10001 }, (_, i) => i).join(', ')}});`,
      target: 'scylladb',
      at: '{0',
      messageId: 'manyElements',
      data: {
        setting: 'compaction_collection_elements_count_warning_threshold',
        source: 'ScyllaDB default',
        measured: 10001,
      },
    },
    {
      name: 'a large cell',
      code: `${table}INSERT INTO ks.t (id, v) VALUES (1, '${'x'.repeat(1024 * 1024 + 1)}');`,
      target: 'scylladb',
      at: "'xx",
      messageId: 'largeCell',
    },
  ],
};
