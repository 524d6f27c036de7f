// `large-in-partition-key`: IN on partition key columns with many values (the product across columns
// for composite keys). The coordinator fans out to one partition per value and holds the whole result:
// prefer one asynchronous query per partition.
import type { RuleContext, MessageIdOf, RuleExamples, RuleModule, StatementOf } from './types';
import { analyseWhere, statementTable } from '../util/statements';
import type { FindingData } from '../findings/findings-data';
import { formatSetting } from '../cluster';
import { settingParagraph } from './guardrail-text';

type Id = 'tooManyPartitions' | 'guardrailFails' | 'guardrailWarns';

function checkQuery(stmt: StatementOf<'Select' | 'Update' | 'Delete'>, ctx: RuleContext<Id>): void {
  const max = Number(ctx.options['maxPartitions'] ?? 10);
  const name = statementTable(stmt);
  const table = ctx.tableFor(name, stmt.range.start);
  if (!table) return;
  const where = analyseWhere(stmt.where);
  let partitions = 1;
  let widest: { column: string; values: number; range: typeof stmt.range } | undefined;
  for (const col of table.partitionKey) {
    const r = (where.byColumn.get(col.name) ?? []).find((x) => x.kind === 'in' && x.inCount !== undefined);
    if (!r) continue;
    partitions *= r.inCount!;
    if (!widest || r.inCount! > widest.values)
      widest = { column: col.name, values: r.inCount!, range: r.relation.range };
  }
  if (!widest) return;
  // The cluster's own partition_keys_in_select threshold, when one is set, is what the server applies (SELECT only).
  const cluster = ctx.cluster();
  const crossing = stmt.kind === 'Select' ? cluster?.pair('partition_keys_in_select', partitions) : undefined;
  if (cluster && crossing) {
    ctx.report({
      messageId: crossing.action === 'fail' ? 'guardrailFails' : 'guardrailWarns',
      values: {
        table: table.qualifiedName,
        partitions,
        setting: crossing.setting.writtenKey,
        limit: formatSetting(crossing.setting),
      },
      details: `One coordinator queries them all and holds the whole result.\n\n${settingParagraph(cluster, crossing.setting, crossing.action, 'query')}\n\nRun one query per partition, asynchronously.`,
      range: widest.range,
      data: {
        table: table.qualifiedName,
        column: widest.column,
        values: widest.values,
        partitions,
        max: crossing.setting.value!,
        setting: crossing.setting.key,
      } satisfies FindingData<'large-in-partition-key'>,
    });
    return;
  }
  if (partitions <= max) return;
  ctx.report({
    messageId: 'tooManyPartitions',
    values: { table: table.qualifiedName, partitions, max },
    details: `One coordinator queries them all and holds the whole result.\n\nRun one query per partition, asynchronously.`,
    range: widest.range,
    data: {
      table: table.qualifiedName,
      column: widest.column,
      values: widest.values,
      partitions,
      max,
    } satisfies FindingData<'large-in-partition-key'>,
  });
}

export const rule: RuleModule<Id> = {
  meta: {
    id: 'large-in-partition-key',
    defaultSeverity: 'warning',
    description: 'IN on the partition key with many values (a multi-partition query on one coordinator).',
    messages: {
      tooManyPartitions: 'IN on the partition key of {{table}} names {{partitions}} partitions (more than {{max}})',
      guardrailFails:
        'IN names {{partitions}} partitions of {{table}}, over {{setting}} ({{limit}}): the cluster refuses it',
      guardrailWarns:
        'IN names {{partitions}} partitions of {{table}}, over {{setting}} ({{limit}}): the cluster warns',
    },
    scope: 'statement',
    options: {
      maxPartitions: {
        type: 'number',
        default: 10,
        minimum: 1,
        description: 'Most partitions one IN query may name before it is reported.',
      },
    },
  },
  handlers: { Select: checkQuery, Update: checkQuery, Delete: checkQuery },
};

const t = 'CREATE TABLE ks.t (id int, ts timestamp, PRIMARY KEY (id, ts));\n';
const many = Array.from({ length: 12 }, (_, i) => i).join(', ');

export const examples: RuleExamples<MessageIdOf<typeof rule>> = {
  valid: [
    `${t}SELECT * FROM ks.t WHERE id IN (1, 2, 3);`,
    `${t}SELECT * FROM ks.t WHERE id = 1 AND ts IN (${many});`,
    `${t}SELECT * FROM ks.t WHERE id IN ?;`,
  ],
  invalid: [
    { code: `${t}SELECT * FROM ks.t WHERE id IN (${many});`, at: 'id IN', data: { partitions: 12, column: 'id' } },
    {
      name: 'cartesian product',
      code: `CREATE TABLE ks.p (a int, b int, PRIMARY KEY ((a, b)));\nSELECT * FROM ks.p WHERE a IN (1, 2, 3, 4) AND b IN (1, 2, 3);`,
      at: 'a IN',
      data: { partitions: 12 },
    },
    {
      name: "the team's partition_keys_in_select threshold wins over the option",
      code: `${t}SELECT * FROM ks.t WHERE id IN (1, 2, 3);`,
      at: 'id IN',
      clusterYaml: 'partition_keys_in_select_fail_threshold: 2\n',
      messageId: 'guardrailFails',
      data: { max: 2, setting: 'partition_keys_in_select_fail_threshold' },
      message: /cluster\.yaml:1/,
    },
    {
      name: "the team's warning threshold",
      code: `${t}SELECT * FROM ks.t WHERE id IN (1, 2, 3);`,
      at: 'id IN',
      clusterYaml: 'partition_keys_in_select_warn_threshold: 2\n',
      messageId: 'guardrailWarns',
    },
    {
      name: 'option',
      code: `${t}SELECT * FROM ks.t WHERE id IN (1, 2, 3);`,
      at: 'id IN',
      config: { rules: { 'large-in-partition-key': ['warn', { maxPartitions: 2 }] } },
    },
  ],
};
