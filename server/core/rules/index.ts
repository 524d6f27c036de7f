// The rule registry: every rule with its examples table. Order is only the order rules run in.
import type { RuleExamples, RuleModule } from './types';
import * as syntaxError from './syntax-error';
import * as unknownColumn from './unknown-column';
import * as duplicateColumn from './duplicate-column';
import * as invalidClusteringOrder from './invalid-clustering-order';
import * as staticWithoutClustering from './static-without-clustering';
import * as counterMixed from './counter-mixed';
import * as nonFrozenKeyCollection from './non-frozen-key-collection';
import * as missingPrimaryKey from './missing-primary-key';
import * as incompleteKeyWrite from './incomplete-key-write';
import * as unboundedPartition from './unbounded-partition';
import * as hotPartition from './hot-partition';
import * as largePartition from './large-partition';
import * as partitionThroughput from './partition-throughput';
import * as allowFiltering from './allow-filtering';
import * as unrestrictedPartitionKey from './unrestricted-partition-key';
import * as largeInPartitionKey from './large-in-partition-key';
import * as unloggedBatchMultiPartition from './unlogged-batch-multi-partition';
import * as simpleStrategy from './simple-strategy';
import * as secondaryIndexScan from './secondary-index-scan';
import * as invalidShardAnnotation from './invalid-shard-annotation';
import * as shardMismatch from './shard-mismatch';
import * as skewedShardFormula from './skewed-shard-formula';
import * as invalidHint from './invalid-hint';

export type { RuleModule, RuleMeta, RuleContext, RuleExamples, ExampleCase, InvalidExampleCase } from './types';

const modules: { rule: RuleModule; examples: RuleExamples }[] = [
  syntaxError, unknownColumn, duplicateColumn, invalidClusteringOrder, staticWithoutClustering, counterMixed,
  nonFrozenKeyCollection, missingPrimaryKey, incompleteKeyWrite, unboundedPartition, hotPartition, largePartition,
  partitionThroughput, allowFiltering, unrestrictedPartitionKey, largeInPartitionKey, unloggedBatchMultiPartition,
  simpleStrategy, secondaryIndexScan, invalidShardAnnotation, shardMismatch, skewedShardFormula, invalidHint,
];

export const allRules: RuleModule[] = modules.map((m) => m.rule);

/** Each rule's table of valid/invalid cases, by rule id (run by test/analysis/rule-examples.test.ts). */
export const ruleExamples: Record<string, RuleExamples> = Object.fromEntries(modules.map((m) => [m.rule.meta.id, m.examples]));

export function ruleById(id: string): RuleModule | undefined {
  return allRules.find((r) => r.meta.id === id);
}
