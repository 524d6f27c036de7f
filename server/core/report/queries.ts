// How a statement of the workspace reaches a table's partitions: one partition, the partitions an IN
// lists, a token range, an index (every node), ALLOW FILTERING or a scan of every partition. The table
// page's Queries list and the keyspace view's coverage matrix both say it from here, with the rules'
// own helpers (analyseWhere, unrestrictedPartitionColumns, servedRestrictions), so that "reads" agrees
// with unrestricted-partition-key, allow-filtering and secondary-index-scan.
import type { Statement } from '../../../grammar/ast';
import type { Project } from '../engine/project';
import type { TableInfo } from '../schema/model';
import type { TableReference } from '../schema/references';
import { statementWithRange } from '../util/ast-walk';
import { indexFamily, servedRestrictions } from '../rules/serving-index';
import { analyseWhere, unrestrictedPartitionColumns } from '../util/statements';
import { formatCount } from '../util/format';

/**
 * - `partition`: every partition key column pinned with = (one partition);
 * - `partitions`: pinned, with IN on some of them (the partitions listed);
 * - `token-range`: a token() range (a slice of the ring: a scan done in pieces);
 * - `index`: an index serves it (the query visits every node);
 * - `filtering`: ALLOW FILTERING without the partition key (every partition read and filtered);
 * - `scan`: neither: every partition is read;
 * - `sample`: `SELECT ... LIMIT n` without WHERE, n within unrestricted-partition-key's sampleLimit;
 * - `write`: an INSERT, UPDATE or DELETE.
 */
export type QueryAccess =
  'partition' | 'partitions' | 'token-range' | 'index' | 'filtering' | 'scan' | 'sample' | 'write';

export interface QueryAccessFacts {
  access: QueryAccess;
  /** What it reads, in words: "one partition", "3 partitions (IN)", "every partition (a scan)". */
  reads: string;
  /** The index that serves it, with its kind ("videos_tags_idx (SAI)"). */
  index?: string;
}

/** Whether the table's primary key serves the query: it names its partitions. */
export function servedByKey(access: QueryAccess): boolean {
  return access === 'partition' || access === 'partitions';
}

/** The statement a reference points at (a batch member's own), from the file's parse. */
export function referenceStatement(project: Project, ref: TableReference): Statement | undefined {
  return statementWithRange(project.parse(ref.file), ref.range);
}

const DEFAULT_SAMPLE_LIMIT = 100;

/** How the statement of `ref` reaches the partitions of `table` (`statement` from referenceStatement). */
export function queryAccess(
  project: Project,
  table: TableInfo,
  ref: TableReference,
  statement = referenceStatement(project, ref),
): QueryAccessFacts {
  if (ref.kind !== 'Select') return { access: 'write', reads: 'writes one partition' };
  const where = statement?.kind === 'Select' ? statement.where : undefined;
  if (!where) {
    // Without its tree (it could not be found again): the reference's own facts.
    const pinnedAll = table.partitionKey.every((c) => ref.pinned.includes(c.name));
    if (pinnedAll) return { access: 'partition', reads: 'one partition' };
    return ref.allowFiltering
      ? { access: 'filtering', reads: 'every partition, filtered (ALLOW FILTERING)' }
      : { access: 'scan', reads: 'every partition (a scan)' };
  }
  const analysis = analyseWhere(where);
  if (analysis.token) return { access: 'token-range', reads: 'a token range (a slice of the ring)' };
  const missing = unrestrictedPartitionColumns(table, analysis);
  if (!missing.length) {
    let partitions = 1;
    let bound = false;
    for (const c of table.partitionKey) {
      const restriction = (analysis.byColumn.get(c.name) ?? []).find((r) => r.kind === 'eq' || r.kind === 'in');
      if (restriction?.kind !== 'in') continue;
      if (restriction.inCount === undefined) bound = true;
      else partitions *= restriction.inCount;
    }
    const filtered = ref.allowFiltering ? ', filtered (ALLOW FILTERING)' : '';
    if (bound) return { access: 'partitions', reads: `the partitions its IN lists${filtered}` };
    if (partitions > 1) return { access: 'partitions', reads: `${formatCount(partitions)} partitions (IN)${filtered}` };
    return { access: 'partition', reads: `one partition${filtered}` };
  }
  const indexes = project.schema().indexesAt(table, ref.file, ref.range.start);
  const plainIsSai = project.ruleOptions(ref.file, 'secondary-index-scan')?.['defaultIndexIsSai'] === true;
  const served = servedRestrictions(where, indexes, table, plainIsSai)[0];
  if (served) {
    const index = served.indexes[0]!;
    const family = indexFamily(index, plainIsSai);
    const name = `${index.name ?? `the index on ${index.column}`} (${family === 'sai' ? 'SAI' : family === 'sasi' ? 'SASI' : family === 'legacy' ? 'secondary index' : 'custom index'})`;
    return { access: 'index', reads: `every node, through ${name}`, index: name };
  }
  if (ref.allowFiltering) return { access: 'filtering', reads: 'every partition, filtered (ALLOW FILTERING)' };
  if (!where.length && ref.limit !== undefined) {
    const sampleLimit = Number(
      project.ruleOptions(ref.file, 'unrestricted-partition-key')?.['sampleLimit'] ?? DEFAULT_SAMPLE_LIMIT,
    );
    if (ref.limit <= sampleLimit)
      return { access: 'sample', reads: `the first ${formatCount(ref.limit)} rows it meets (a sample)` };
  }
  return { access: 'scan', reads: 'every partition (a scan)' };
}
