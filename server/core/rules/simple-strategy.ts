// `simple-strategy`: a keyspace replicated with SimpleStrategy. It ignores datacenters and racks, so it
// is for a single-datacenter test cluster; production keyspaces use NetworkTopologyStrategy. Also a
// replication factor of 1 or 2 under NetworkTopologyStrategy is not reported (a conscious choice).
// Not reported for Amazon Keyspaces or Cosmos DB, which manage replication themselves.
import { mapLiteralStrings } from '../schema/definitions';
import { md } from '../util/markdown';
import type { FileLocalRuleModule, FileRuleContext, MessageIdOf, RuleExamples, StatementOf } from './types';
import type { FindingData } from '../findings/findings-data';
import { settingParagraph } from './guardrail-text';

function checkReplication(
  stmt: StatementOf<'CreateKeyspace' | 'AlterKeyspace'>,
  ctx: FileRuleContext<'simpleStrategy' | 'refused'>,
): void {
  if (ctx.target.id === 'keyspaces' || ctx.target.id === 'cosmosdb') return;
  const prop = stmt.properties.find((p) => p.name.name.toLowerCase() === 'replication');
  if (!prop) return;
  const replication = mapLiteralStrings(prop.value);
  const cls = (replication['class'] ?? '').replace(/^org\.apache\.cassandra\.locator\./i, '');
  if (cls.toLowerCase() !== 'simplestrategy') return;
  const rf = replication['replication_factor'];
  const factor = rf && Number(rf) >= 3 ? rf : '3';
  const suggestedReplication = `{'class': 'NetworkTopologyStrategy', '<datacenter>': ${factor}}`;
  const cluster = ctx.cluster();
  const enabled = cluster?.flag('simplestrategy_enabled');
  if (cluster && enabled?.value === false) {
    ctx.report({
      messageId: 'refused',
      values: { keyspace: stmt.name.text, setting: enabled.writtenKey },
      details: `${settingParagraph(cluster, enabled, 'fail', 'DDL')}\n\nUse ${suggestedReplication}.`,
      range: prop.value.range,
      data: {
        keyspace: stmt.name.name,
        ...(rf ? { replicationFactor: rf } : {}),
        suggestedReplication,
        setting: enabled.key,
      } satisfies FindingData<'simple-strategy'>,
    });
    return;
  }
  ctx.report({
    messageId: 'simpleStrategy',
    values: { keyspace: stmt.name.text },
    // Markdown of its own: the <datacenter> placeholder is the rule's text (the factor the user's, escaped).
    details: md`SimpleStrategy places replicas without regard to datacenters or racks: fine for a single-node or test cluster, not for production.\n\nUse {'class': 'NetworkTopologyStrategy', '<datacenter>': ${factor}}.`,
    range: prop.value.range,
    data: {
      keyspace: stmt.name.name,
      ...(rf ? { replicationFactor: rf } : {}),
      suggestedReplication,
    } satisfies FindingData<'simple-strategy'>,
  });
}

export const rule: FileLocalRuleModule<'simpleStrategy' | 'refused'> = {
  meta: {
    id: 'simple-strategy',
    defaultSeverity: 'warning',
    description: 'A keyspace replicated with SimpleStrategy (not datacenter or rack aware).',
    messages: {
      simpleStrategy: 'keyspace {{keyspace}} uses SimpleStrategy: fine for a test cluster, not for production',
      refused: 'keyspace {{keyspace}} uses SimpleStrategy, which this cluster refuses: {{setting}} is false',
    },
    fileLocal: true,
  },
  handlers: { CreateKeyspace: checkReplication, AlterKeyspace: checkReplication },
};

export const examples: RuleExamples<MessageIdOf<typeof rule>> = {
  valid: [
    "CREATE KEYSPACE ks WITH replication = {'class': 'NetworkTopologyStrategy', 'dc1': 3};",
    {
      code: "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 3};",
      target: 'keyspaces',
    },
  ],
  invalid: [
    {
      code: "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1};",
      at: '{',
      data: { keyspace: 'ks', replicationFactor: '1' },
    },
    {
      name: "the team's simplestrategy_enabled: false",
      code: "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 3};",
      clusterYaml: 'simplestrategy_enabled: false\n',
      at: '{',
      messageId: 'refused',
      data: { setting: 'simplestrategy_enabled' },
    },
    {
      code: "ALTER KEYSPACE ks WITH replication = {'class': 'org.apache.cassandra.locator.SimpleStrategy', 'replication_factor': 3};",
      at: "{'class",
    },
  ],
};
