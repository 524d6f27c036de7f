// What the partition model knows of one table, gathered in one place: the table as its ALTERs left it, the
// target's limits, the hints in effect, the workspace's statements on it, and what was measured (evidence)
// or sampled. The partition rules, the planner and the planner's verdict on a re-keyed table all read this.
import type { TableHints } from '../vocabulary/config';
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

/**
 * The user type lookup of a context's userType, one per userType function: the sizing caches by it. The rules
 * of one run share their context's userType (one per run), so a table sized for one partition rule serves
 * the others; by context, as before, each of the four sized every table again. A run's lookup is a new
 * function, so nothing sized in one run is served to the next (a table's columns can change in place).
 */
const udtLookups = new WeakMap<InputSource['userType'], UdtLookup>();

/**
 * The inputs of a table from a rule's context: what a verdict reads is read when first asked, once (most
 * tables get no finding, and a statement-scoped rule's result depends on the lookups it made: a statement
 * list or a capture read for nothing would tie it to them).
 */
class SourceInputs implements PartitionInputs {
  private read: {
    hints?: TableHints | undefined;
    references?: readonly TableReference[];
    evidence?: TableEvidence | undefined;
    sample?: PartitionSample | undefined;
  } = {};

  constructor(
    private readonly source: InputSource,
    readonly table: TableInfo,
    readonly udts: UdtLookup,
    private readonly ownTarget?: TargetInfo,
  ) {}

  get target(): TargetInfo {
    return this.ownTarget ?? this.source.target;
  }

  get hints(): TableHints | undefined {
    if (!('hints' in this.read)) this.read.hints = this.source.hints(this.table);
    return this.read.hints;
  }

  get references(): readonly TableReference[] {
    return (this.read.references ??= this.source.referencesTo(this.table));
  }

  get evidence(): TableEvidence | undefined {
    if (!('evidence' in this.read)) this.read.evidence = this.source.evidence(this.table);
    return this.read.evidence;
  }

  get sample(): PartitionSample | undefined {
    if (!('sample' in this.read)) this.read.sample = this.source.sample(this.table);
    return this.read.sample;
  }
}

/**
 * The inputs of a table, read from a rule's context when first needed. `target`: the target's limits as the
 * rule applies them (large-partition: under the team's cluster thresholds), else the context's.
 */
export function partitionInputs(source: InputSource, table: TableInfo, target?: TargetInfo): PartitionInputs {
  const userType = source.userType;
  let udts = udtLookups.get(userType);
  if (!udts) udtLookups.set(userType, (udts = (keyspace, name, mention) => userType(keyspace, name, mention)));
  return new SourceInputs(source, table, udts, target);
}
