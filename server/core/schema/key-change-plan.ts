// The safer plan for a primary key change, which Cassandra cannot make in place: a new table, dual writes, a
// dsbulk unload/load backfill with its exact commands, the counts checked, the reads switched, the old table
// dropped later. One home for its words: the primary-key-change rule prints it, and a partition fix on a table
// of a migration folder writes it into the migration it creates (fixes/migration-fix.ts).
import type { TableInfo } from './model';

/**
 * The steps of the plan, the dsbulk commands exact. `from` is the deployed table, `to` the name of the table
 * with the new key (in `from`'s keyspace). `computed`: the new key columns the old rows lack, each as
 * `column = how it is computed`: the unloaded rows get them before the load (dsbulk matches columns by name).
 */
export function copyPlanSteps(
  from: TableInfo,
  to: string,
  newKey?: string,
  computed: readonly string[] = [],
): string[] {
  const ks = from.keyspace ?? '<keyspace>';
  const dir = `./${from.name}_export`;
  return [
    `1. Create a new table ${ks}.${to}${newKey ? ` with PRIMARY KEY ${newKey}` : ' with the new primary key'} in a new migration; keep ${from.qualifiedName} as it is.`,
    `2. Deploy application code that writes every change to both tables (dual writes), and keep reading ${from.qualifiedName}.`,
    `3. Copy the rows written before the dual writes began: dsbulk unload -k ${ks} -t ${from.name} -url ${dir}`,
    ...(computed.length ? [`   add to each unloaded row ${computed.join('; ')}`] : []),
    `   then: dsbulk load -k ${ks} -t ${to} -url ${dir}`,
    `   (columns are matched by name. The load writes each row at the time it runs, so a row dual-written after its unload would be overwritten by its older copy: unload writetime(<column>) with the rows and map it to __timestamp in the load's -m mapping, or backfill before the writes it could overwrite.)`,
    `4. Check the counts (dsbulk count -k ${ks} -t ${to}), then switch the reads to ${ks}.${to}.`,
    `5. Stop writing ${from.qualifiedName}, and drop it in a later migration once nothing reads it.`,
  ];
}
