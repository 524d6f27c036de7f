// One answer per table (issue 38 item 7): when hot-partition and unbounded-partition both report a table and
// hot-partition's preferred fix (a shard with a time bucket) bounds the growth too (its data's curesGrowth),
// the user gets one fix, not two edits of the same key. unbounded-partition's finding stays (its rule id,
// severity and range: a suppression of it, a baseline and an exit code work as before) but its message is a
// short reference to the hot-partition finding and it carries no plans. Applied to a file's findings after
// the suppression comments and the config have had their say: where hot-partition is off or suppressed,
// unbounded-partition gives its full answer and its own fix.
import type { OffsetFinding } from '../findings/findings';
import type { HotPartitionData, UnboundedPartitionData } from '../findings/findings-data';
import { planText } from '../partition/planner';
import { markdownProse } from '../util/markdown';
import { fillMessage } from './messages';
import { rule as unboundedPartition } from './unbounded-partition';

/** The findings with each unbounded-partition finding that a hot-partition fix of its table cures made a reference to it. */
export function oneAnswerPerTable<F extends OffsetFinding>(findings: readonly F[]): readonly F[] {
  let curing: Map<string, HotPartitionData> | undefined;
  for (const f of findings) {
    if (f.ruleId !== 'hot-partition') continue;
    const data = f.data as HotPartitionData | undefined;
    if (data?.curesGrowth && data.plans?.[0]) (curing ??= new Map()).set(data.table, data);
  }
  if (!curing) return findings;
  return findings.map((f) => {
    const data = f.ruleId === 'unbounded-partition' ? (f.data as UnboundedPartitionData | undefined) : undefined;
    const hot = data && curing.get(data.table);
    return hot && data ? referToHot(f, data, hot) : f;
  });
}

/**
 * Each reference made, by the unbounded-partition finding it stands for, with the hot-partition data it refers
 * to: the rule runner hands back a statement's findings as the same objects while the statement holds, and so
 * does this while both hold (the language server then keeps its diagnostic after an edit elsewhere instead of
 * making it again). Weak: a finding let go takes its reference with it.
 */
const references = new WeakMap<OffsetFinding, { hot: HotPartitionData; made: OffsetFinding }>();

/** The unbounded-partition finding as a reference to the hot-partition finding whose fix cures it (a new object: findings are cached). */
function referToHot<F extends OffsetFinding>(f: F, data: UnboundedPartitionData, hot: HotPartitionData): F {
  const kept = references.get(f);
  if (kept?.hot === hot) return kept.made as F;
  const made = reference(f, data, hot);
  references.set(f, { hot, made });
  return made;
}

function reference<F extends OffsetFinding>(f: F, data: UnboundedPartitionData, hot: HotPartitionData): F {
  const plan = hot.plans![0]!;
  const messageId = 'sameCure';
  const details =
    `hot-partition reports ${data.table} too, and its fix bounds this growth as well: ${planText(plan)}, ` +
    `the key ${hot.suggestedKey}. One change answers both, so this finding offers no edit of its own: ` +
    `apply the hot-partition fix (cqlint fix --rule hot-partition --table ${data.table}). ` +
    `Where hot-partition is disabled or suppressed, this finding gives its own fix.`;
  return {
    ...f,
    messageId,
    message: fillMessage(unboundedPartition.meta.messages[messageId], f.values),
    details: markdownProse(details),
    data: {
      ...data,
      suggestedKey: hot.suggestedKey,
      ...(plan.bucket ? { suggestedBucket: plan.bucket.column } : {}),
      plans: [],
      curedBy: 'hot-partition',
    } satisfies UnboundedPartitionData,
  };
}
