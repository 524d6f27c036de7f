// Which index serves a query: the one rule of index selection that secondary-index-scan, allow-filtering
// and unrestricted-partition-key share. An index serves a restriction when it covers the column the way
// the restriction reads it (KEYS for `CONTAINS KEY`, ENTRIES for `m[k] = v`, VALUES or the plain form for
// `CONTAINS`, the plain form or FULL otherwise) and supports the operator: a legacy index answers `=`
// and CONTAINS only; SASI answers = and LIKE on text (a suffix or infix LIKE, `'%x'` or `'%x%'`, only
// in its CONTAINS mode) and = and ranges on other types (SASI's ColumnIndex.supports); SAI answers
// everything but LIKE.
import type { Relation } from '../../../grammar/ast';
import { type IndexInfo, type KeyspaceInfo, type TableInfo, columnNamed } from '../schema/model';

type IndexFamily = 'sai' | 'legacy' | 'sasi' | 'custom';

interface ServedRestriction {
  column: string;
  relation: Relation;
  /** The indexes able to serve it, the most recently created first (the one a script just made). */
  indexes: IndexInfo[];
}

/** `plainIsSai`: CREATE INDEX without USING builds SAI (cassandra.yaml `default_secondary_index: sai`). */
export function indexFamily(index: IndexInfo, plainIsSai = false): IndexFamily {
  if (index.sai || (plainIsSai && !index.custom && !index.using)) return 'sai';
  if (!index.custom) return 'legacy';
  return /sasi/i.test(index.using ?? '') ? 'sasi' : 'custom';
}

type Reading = 'value' | 'keys' | 'values' | 'entries';

function readingOf(rel: Relation): { column: string; reading: Reading } | undefined {
  if (rel.left.kind === 'ElementAccess' && rel.left.target.kind === 'ColumnRef')
    return { column: rel.left.target.name.name, reading: 'entries' };
  if (rel.left.kind !== 'ColumnRef') return undefined;
  const column = rel.left.name.name;
  if (rel.operator === 'CONTAINS KEY') return { column, reading: 'keys' };
  if (rel.operator === 'CONTAINS') return { column, reading: 'values' };
  return { column, reading: 'value' };
}

function covers(index: IndexInfo, reading: Reading): boolean {
  switch (reading) {
    case 'keys':
      return index.indexKind === 'keys';
    case 'entries':
      return index.indexKind === 'entries';
    // A plain index on a non-frozen collection indexes its values.
    case 'values':
      return index.indexKind === 'values' || index.indexKind === 'simple';
    default:
      return index.indexKind === 'simple' || index.indexKind === 'full';
  }
}

function likePattern(rel: Relation): string | undefined {
  const right = rel.right[0];
  return right?.kind === 'Literal' && right.literalKind === 'string' ? right.value : undefined;
}

/** SASI calls text columns literal: LIKE applies to them, ranges only to the others. */
function isLiteralColumn(table: TableInfo | undefined, column: string): boolean | undefined {
  const type = columnNamed(table, column)?.typeText.toLowerCase();
  return type === undefined ? undefined : type === 'text' || type === 'varchar' || type === 'ascii';
}

function supports(index: IndexInfo, rel: Relation, family: IndexFamily, literal: boolean | undefined): boolean {
  const op = rel.operator;
  switch (family) {
    case 'legacy':
      return op === '=' || op === 'CONTAINS' || op === 'CONTAINS KEY';
    case 'sai':
      return op !== 'LIKE' && op !== '!=' && !op.startsWith('NOT');
    case 'sasi': {
      if (op === 'LIKE') {
        const mode = (index.options?.['mode'] ?? 'PREFIX').toUpperCase();
        if (mode === 'CONTAINS') return true;
        const pattern = likePattern(rel);
        // Without a literal the pattern is unknown: assume the index was made for it.
        return mode === 'PREFIX' && (pattern === undefined || !pattern.startsWith('%'));
      }
      if (op === '=') return true;
      return (op === '<' || op === '<=' || op === '>' || op === '>=') && literal !== true;
    }
    // A plug-in's abilities are unknown: assume it serves what it was created on.
    default:
      return true;
  }
}

/**
 * Each restriction of `where` that one of `indexes` (those in effect for the query) can serve, in WHERE
 * order, with its serving indexes, the most recently created first.
 */
export function servedRestrictions(
  where: readonly Relation[],
  indexes: readonly IndexInfo[],
  table?: TableInfo,
  plainIsSai = false,
): ServedRestriction[] {
  const out: ServedRestriction[] = [];
  if (!indexes.length) return out;
  const latestFirst = [...indexes].reverse();
  for (const relation of where) {
    const read = readingOf(relation);
    if (!read) continue;
    const literal = isLiteralColumn(table, read.column);
    const serving = latestFirst.filter(
      (i) =>
        i.column === read.column &&
        covers(i, read.reading) &&
        supports(i, relation, indexFamily(i, plainIsSai), literal),
    );
    if (serving.length) out.push({ column: read.column, relation, indexes: serving });
  }
  return out;
}

/** `the storage-attached index t_country on country`, `the SASI index fn_prefix on firstname`. */
export function describeIndex(index: IndexInfo, plainIsSai = false): string {
  const kind = { sai: 'storage-attached index', legacy: 'secondary index', sasi: 'SASI index', custom: 'custom index' }[
    indexFamily(index, plainIsSai)
  ];
  const on = index.indexKind === 'simple' ? index.column : `${index.indexKind.toUpperCase()}(${index.column})`;
  return `the ${kind}${index.name ? ` ${index.name}` : ''} on ${on}`;
}

/** Replication factors by data center from a keyspace (SimpleStrategy: one unnamed entry). */
function replicationFactors(keyspace: KeyspaceInfo | undefined): { dc?: string; rf: number }[] {
  if (!keyspace) return [];
  const out: { dc?: string; rf: number }[] = [];
  for (const [key, value] of Object.entries(keyspace.replication)) {
    if (key === 'class') continue;
    const rf = Number(value);
    if (!Number.isInteger(rf) || rf < 1) continue;
    out.push(key === 'replication_factor' ? { rf } : { dc: key, rf });
  }
  return out;
}

/** Vnodes per node by default since Cassandra 4.0 (`num_tokens: 16` in cassandra.yaml). */
const DEFAULT_NUM_TOKENS = 16;

/**
 * What a query served by a storage-attached index without the partition key costs: the coordinator
 * must read every token range, each from consistency-level many of its replicas. Numbers from the
 * keyspace's replication when the schema has it.
 */
export function scatterGatherCost(keyspace: KeyspaceInfo | undefined): string {
  const factors = replicationFactors(keyspace);
  const ranges = `the coordinator queries every token range of the table (${DEFAULT_NUM_TOKENS} per node with the default num_tokens)`;
  const cost = 'a cluster-wide scatter-gather whose cost grows with the cluster, not with the rows returned';
  if (!factors.length) return `${ranges} and every node's index answers for its ranges: ${cost}`;
  const per = factors
    .map(({ dc, rf }) => {
      const where = dc ? `${dc}: ` : '';
      if (rf === 1) return `${where}replication factor 1, so each range has one replica and every node answers`;
      const local = dc ? 'LOCAL_' : '';
      return `${where}replication factor ${rf}, so each range is read from 1 of its ${rf} replicas at ${local}ONE, ${Math.floor(rf / 2) + 1} at ${local}QUORUM: at least 1/${rf} of the nodes answer (with vnodes, nearly all)`;
    })
    .join('; ');
  return `${ranges}; ${per}: ${cost}`;
}
