// The kind of name the cursor wants and the clause it is in, from the grammar: its content assist says which
// rules would read a name there (`selectStatement > whereClause > relation > expression > operand`: a column
// of a WHERE clause; the relation's second expression: a value). completion-context.ts adds what the
// grammar cannot know.
import type { ExpectedTokens, NamePath } from '../../../grammar';

export type CompletionSite =
  | 'table'
  | 'keyspace'
  | 'column'
  | 'type'
  | 'tableOption'
  | 'keyspaceOption'
  | 'mapKey'
  | 'optionClass'
  | 'value'
  | 'newName'
  | 'statementStart'
  | 'none'
  | 'other';

export type ColumnClause =
  | 'select'
  | 'where'
  | 'set'
  | 'insert'
  | 'orderBy'
  | 'groupBy'
  | 'delete'
  | 'primaryKey'
  | 'clusteringOrder'
  | 'index'
  | 'alter'
  | 'functionArg'
  | 'if';

/** What the grammar accepts at `offset` of `text` (its content assist, expectedTokensAt, unless a test gives another). */
export type ExpectedTokensProvider = (text: string, offset: number) => ExpectedTokens;

/** The grammar found the statement readable up to the cursor (it expects something there). */
export function grammarKnows(grammar: ExpectedTokens): boolean {
  return (
    grammar.keywords.length > 0 ||
    grammar.identifierKinds.length > 0 ||
    grammar.punctuation.length > 0 ||
    grammar.expectsValue ||
    grammar.expectsType
  );
}

/** Rules of a qualified name: its `ks.` part is the same site as the name. */
const QUALIFIED = new Set(['tableName', 'userTypeName', 'functionName', 'qualifiedIndexName']);
/** The innermost of these rules around a column says its clause. */
const COLUMN_CLAUSES: Record<string, ColumnClause> = {
  selectClause: 'select',
  whereClause: 'where',
  ifClause: 'if',
  assignment: 'set',
  insertColumns: 'insert',
  ordering: 'orderBy',
  groupByItem: 'groupBy',
  deleteSelection: 'delete',
  primaryKeyClause: 'primaryKey',
  clusteringOrder: 'clusteringOrder',
  indexTarget: 'index',
  dropColumns: 'alter',
  renameColumns: 'alter',
  alterColumn: 'alter',
  functionArg: 'functionArg',
};
/** Rules whose names are being defined, not looked up (`CREATE TABLE t (|`, `CREATE TYPE ty (|`, `RENAME a TO |`). */
const DEFINED_NAMES = new Set(['columnDefinition', 'typeField', 'createIndex', 'createKeyspace', 'createType']);
/** Where several rules may read the name, the first of these sites wins. */
const SITE_ORDER: readonly CompletionSite[] = [
  'table',
  'keyspace',
  'type',
  'column',
  'tableOption',
  'keyspaceOption',
  'value',
  'newName',
];

export interface Site {
  site: CompletionSite;
  clause?: ColumnClause;
}

export function siteOf(paths: readonly NamePath[]): Site | undefined {
  let best: Site | undefined;
  for (const path of paths) {
    const found = pathSite(path);
    if (found && (!best || SITE_ORDER.indexOf(found.site) < SITE_ORDER.indexOf(best.site))) best = found;
  }
  return best;
}

function pathSite({ rules, occurrences }: NamePath): Site | undefined {
  let end = rules.length - 1;
  if (rules[end] === 'keyspaceName' && QUALIFIED.has(rules[end - 1]!)) end--;
  const rule = rules[end];
  const parent = rules[end - 1] ?? '';
  switch (rule) {
    case 'tableName':
      // CREATE TABLE's and CREATE MATERIALIZED VIEW's first table name is the new one (LIKE's and FROM's are not).
      return {
        site:
          (parent === 'createTable' || parent === 'createMaterializedView') && occurrences[end] === 0
            ? 'newName'
            : 'table',
      };
    case 'keyspaceName':
      return { site: parent === 'createKeyspace' ? 'newName' : 'keyspace' };
    case 'userTypeName':
      return { site: parent === 'createType' ? 'newName' : 'type' };
    case 'fieldName':
    case 'indexName':
      return DEFINED_NAMES.has(parent) ? { site: 'newName' } : undefined;
    case 'propertyName':
      if (rules.includes('tableOptions')) return { site: 'tableOption' };
      return rules.includes('createKeyspace') || rules.includes('alterKeyspace')
        ? { site: 'keyspaceOption' }
        : undefined;
    case 'columnName':
    case 'operand':
      return columnSite(rules, occurrences, end);
    default:
      return undefined;
  }
}

/** A column, a value or a new column's name, by the clause around it. */
function columnSite(rules: readonly string[], occurrences: readonly number[], end: number): Site | undefined {
  const parent = rules[end - 1]!;
  if (DEFINED_NAMES.has(parent) || (parent === 'renamePair' && occurrences[end] !== 0)) return { site: 'newName' };
  for (let i = end - 1; i >= 0; i--) {
    const rule = rules[i]!;
    // Right of a relation's operator, of an assignment's `=`, in VALUES: a value.
    if (rule === 'relation' && occurrences[i + 1] !== 0) return { site: 'value' };
    if (rule === 'assignment' && rules[i + 1] !== 'columnName') return { site: 'value' };
    if (rule === 'insertValues') return { site: 'value' };
    const clause = COLUMN_CLAUSES[rule];
    if (clause) return { site: 'column', clause };
  }
  return undefined;
}
