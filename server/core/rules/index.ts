// The rule registry. Order is only the order rules run in.
import type { RuleModule } from './types';
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
import * as invalidSuppression from './invalid-suppression';
import * as conflictingDefinition from './conflicting-definition';
import * as queueTable from './queue-table';
import * as statusMove from './status-move';
import * as nonUniqueKey from './non-unique-key';
import * as lwtHotPartition from './lwt-hot-partition';
import * as ttlWithoutTwcs from './ttl-without-twcs';
import * as lowCardinalityIndex from './low-cardinality-index';
import * as guardrailSchema from './guardrail-schema';
import * as guardrailStatement from './guardrail-statement';
import * as guardrailSize from './guardrail-size';
import * as partialPartitionKey from './partial-partition-key';
import * as overPartitionedRead from './over-partitioned-read';
import * as primaryKeyChange from './primary-key-change';
import * as columnTypeChange from './column-type-change';
import * as readdDroppedColumn from './readd-dropped-column';
import * as destructiveMigration from './destructive-migration';
import * as compactionChangeOnLargeTable from './compaction-change-on-large-table';
import * as indexOnLargeTable from './index-on-large-table';
import * as viewOnExistingTable from './view-on-existing-table';

export type { RuleModule, RuleMeta, RuleContext, RuleExamples, ExampleCase, InvalidExampleCase } from './types';

// Only each module's `rule` is referenced here, so bundling drops the examples tables from the shipped code;
// the tests find the tables by reading every rule module (test/analysis/rule-examples.test.ts).
export const allRules: RuleModule[] = [
  syntaxError.rule,
  unknownColumn.rule,
  duplicateColumn.rule,
  invalidClusteringOrder.rule,
  staticWithoutClustering.rule,
  counterMixed.rule,
  nonFrozenKeyCollection.rule,
  missingPrimaryKey.rule,
  incompleteKeyWrite.rule,
  unboundedPartition.rule,
  hotPartition.rule,
  largePartition.rule,
  partitionThroughput.rule,
  allowFiltering.rule,
  unrestrictedPartitionKey.rule,
  largeInPartitionKey.rule,
  unloggedBatchMultiPartition.rule,
  simpleStrategy.rule,
  secondaryIndexScan.rule,
  invalidShardAnnotation.rule,
  shardMismatch.rule,
  skewedShardFormula.rule,
  invalidHint.rule,
  invalidSuppression.rule,
  conflictingDefinition.rule,
  queueTable.rule,
  statusMove.rule,
  nonUniqueKey.rule,
  lwtHotPartition.rule,
  ttlWithoutTwcs.rule,
  lowCardinalityIndex.rule,
  guardrailSchema.rule,
  guardrailStatement.rule,
  guardrailSize.rule,
  partialPartitionKey.rule,
  overPartitionedRead.rule,
  primaryKeyChange.rule,
  columnTypeChange.rule,
  readdDroppedColumn.rule,
  destructiveMigration.rule,
  compactionChangeOnLargeTable.rule,
  indexOnLargeTable.rule,
  viewOnExistingTable.rule,
];

export function ruleById(id: string): RuleModule | undefined {
  return allRules.find((r) => r.meta.id === id);
}
