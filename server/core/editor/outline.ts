// Outline: the declarations of one document (keyspaces, tables with their columns, views, types,
// indexes, functions) and a workspace-wide symbol search.
import type { ParseResult, SourceRange, Statement } from '../../../grammar/ast';
import { qualifiedText, typeText } from './cql-text';
import { quoteName } from '../util/names';
import type { SymbolIndex } from './symbols';

export type OutlineKind =
  'keyspace' | 'table' | 'view' | 'column' | 'type' | 'field' | 'index' | 'function' | 'aggregate';

export interface OutlineSymbol {
  name: string;
  detail?: string;
  kind: OutlineKind;
  /** The whole declaration (statement or column definition). */
  range: SourceRange;
  /** The declared name. */
  selectionRange: SourceRange;
  children: OutlineSymbol[];
}

function keyRoles(statement: Extract<Statement, { kind: 'CreateTable' }>): Map<string, string> {
  const roles = new Map<string, string>();
  const pk = statement.primaryKey;
  if (pk) {
    for (const id of pk.partitionKey) roles.set(id.name, 'partition key');
    const orders = new Map(
      (statement.options?.clusteringOrder ?? []).map((o) => [o.column.name, o.direction] as const),
    );
    for (const id of pk.clustering) roles.set(id.name, `clustering ${orders.get(id.name) ?? 'ASC'}`);
  }
  for (const column of statement.columns)
    if (column.isStatic && !roles.has(column.name.name)) roles.set(column.name.name, 'static');
  return roles;
}

function symbolsOfStatement(statement: Statement): OutlineSymbol[] {
  switch (statement.kind) {
    case 'CreateKeyspace':
      return [
        {
          name: quoteName(statement.name.name),
          kind: 'keyspace',
          range: statement.range,
          selectionRange: statement.name.range,
          children: [],
        },
      ];
    case 'CreateTable': {
      const roles = keyRoles(statement);
      return [
        {
          name: qualifiedText(statement.name),
          detail: statement.like ? `like ${qualifiedText(statement.like)}` : 'table',
          kind: 'table',
          range: statement.range,
          selectionRange: statement.name.name.range,
          children: statement.columns.map((c) => ({
            name: quoteName(c.name.name),
            detail: [typeText(c.type), roles.get(c.name.name)].filter(Boolean).join(' · '),
            kind: 'column' as const,
            range: c.range,
            selectionRange: c.name.range,
            children: [],
          })),
        },
      ];
    }
    case 'CreateMaterializedView':
      return [
        {
          name: qualifiedText(statement.name),
          detail: `view of ${qualifiedText(statement.from)}`,
          kind: 'view',
          range: statement.range,
          selectionRange: statement.name.name.range,
          children: statement.selectors.flatMap((s) =>
            s.expression.kind === 'ColumnRef'
              ? [
                  {
                    name: quoteName(s.expression.name.name),
                    kind: 'column' as const,
                    range: s.range,
                    selectionRange: s.expression.name.range,
                    children: [],
                  },
                ]
              : [],
          ),
        },
      ];
    case 'CreateType':
      return [
        {
          name: qualifiedText(statement.name),
          detail: 'type',
          kind: 'type',
          range: statement.range,
          selectionRange: statement.name.name.range,
          children: statement.fields.map((f) => ({
            name: quoteName(f.name.name),
            detail: typeText(f.type),
            kind: 'field' as const,
            range: f.range,
            selectionRange: f.name.range,
            children: [],
          })),
        },
      ];
    case 'CreateIndex':
      return [
        {
          name: statement.name ? quoteName(statement.name.name) : `(index on ${qualifiedText(statement.table)})`,
          detail: `on ${qualifiedText(statement.table)} (${statement.targets.map((t) => quoteName(t.column.name)).join(', ')})${statement.using ? ` using '${statement.using}'` : ''}`,
          kind: 'index',
          range: statement.range,
          selectionRange: statement.name?.range ?? statement.table.range,
          children: [],
        },
      ];
    case 'CreateFunction':
      return [
        {
          name: qualifiedText(statement.name),
          detail: `(${statement.arguments.map((a) => `${quoteName(a.name.name)} ${typeText(a.type)}`).join(', ')}) → ${typeText(statement.returnType)}`,
          kind: 'function',
          range: statement.range,
          selectionRange: statement.name.name.range,
          children: [],
        },
      ];
    case 'CreateAggregate':
      return [
        {
          name: qualifiedText(statement.name),
          detail: `aggregate (${statement.argumentTypes.map(typeText).join(', ')})`,
          kind: 'aggregate',
          range: statement.range,
          selectionRange: statement.name.name.range,
          children: [],
        },
      ];
    default:
      return [];
  }
}

/** The outline of one file, in source order. */
export function documentSymbols(parse: ParseResult): OutlineSymbol[] {
  return parse.statements.flatMap(symbolsOfStatement);
}

interface WorkspaceSymbol {
  name: string;
  kind: OutlineKind;
  containerName?: string;
  filePath: string;
  range: SourceRange;
}

/** Case-insensitive subsequence match, as editors do for symbol search. */
function fuzzyMatches(query: string, name: string): boolean {
  if (!query) return true;
  const q = query.toLowerCase();
  const n = name.toLowerCase();
  let i = 0;
  for (let j = 0; j < n.length && i < q.length; j++) if (n[j] === q[i]) i++;
  return i === q.length;
}

/** Declarations anywhere in the workspace whose name matches `query` (columns and fields included). */
export function workspaceSymbols(index: SymbolIndex, query: string, limit = 500): WorkspaceSymbol[] {
  const out: WorkspaceSymbol[] = [];
  for (const file of index.allFiles()) {
    for (const symbol of documentSymbols(file.parse)) {
      const visit = (s: OutlineSymbol, container?: string): void => {
        if (out.length >= limit) return;
        const bare = s.name.includes('.') ? s.name.slice(s.name.lastIndexOf('.') + 1) : s.name;
        if (fuzzyMatches(query, s.name) || fuzzyMatches(query, bare)) {
          out.push({
            name: s.name,
            kind: s.kind,
            containerName: container,
            filePath: file.filePath,
            range: s.selectionRange,
          });
        }
        for (const child of s.children) visit(child, s.name);
      };
      visit(symbol);
    }
  }
  return out;
}
