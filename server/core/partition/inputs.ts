// What the partition model knows of one table, gathered in one place: the table as its ALTERs left it, the
// target's limits, the hints in effect, the workspace's statements on it, and what was measured (evidence)
// or sampled. The partition rules, the planner and the planner's verdict on a re-keyed table all read this.
import type { TableHints } from '../config-types';
import type { TableEvidence } from '../evidence';
import type { TableInfo, UserTypeInfo } from '../schema/model';
import type { TableReference } from '../schema/references';
import type { Mention } from '../schema/versions';
import type { PartitionSample } from './sample';
import type { UdtLookup } from './sizing';
import type { TargetInfo } from './targets';

export interface PartitionInputs {
  table: TableInfo;
  target: TargetInfo;
  /** The hints in effect: .cqlint.json `tables` over the `-- @cqlint` comments (table.commentHints). */
  hints: TableHints | undefined;
  udts: UdtLookup | undefined;
  /** The workspace's statements on the table, every file. */
  references: readonly TableReference[];
  /** What the cluster measured of the table (.cqlint.json `evidence`). */
  evidence: TableEvidence | undefined;
  /** A sample of its rows (.cqlint.json `samples`), read. */
  sample: PartitionSample | undefined;
}

/** Where the inputs are read from: a rule's context has these (structural, so that partition/ never imports rules/). */
export interface InputSource {
  readonly target: TargetInfo;
  hints(table: TableInfo): TableHints | undefined;
  referencesTo(table: TableInfo): readonly TableReference[];
  evidence(table: TableInfo): TableEvidence | undefined;
  sample(table: TableInfo): PartitionSample | undefined;
  userType(keyspace: string | undefined, name: string, mention?: Mention): UserTypeInfo | undefined;
}

/** The inputs of a table, read once from a rule's context. */
export function partitionInputs(source: InputSource, table: TableInfo): PartitionInputs {
  return {
    table,
    target: source.target,
    hints: source.hints(table),
    udts: (keyspace, name, mention) => source.userType(keyspace, name, mention),
    references: source.referencesTo(table),
    evidence: source.evidence(table),
    sample: source.sample(table),
  };
}
