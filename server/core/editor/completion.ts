// Context-aware completion from the workspace's own CREATE statements: keywords the grammar accepts
// at the cursor, keyspaces, tables and views, the statement's columns, types, native functions,
// table options and compaction/compression classes, each with documentation.
import type { CreateTypeStatement, ParseResult } from '../../../grammar/ast';
import { inlineCode, markdownText } from '../util/markdown';
import { analyzeCompletion, type CompletionContext } from './completion-context';
import { grammarKnows, type CompletionSite, type ExpectedTokensProvider } from './completion-site';
import {
  COMPACTION_CLASSES,
  COMPACTION_SUBOPTIONS,
  COMPRESSION_CLASSES,
  COMPRESSION_SUBOPTIONS,
  KEYSPACE_OPTIONS,
  KEYWORD_DOCS,
  NATIVE_FUNCTIONS,
  NATIVE_TYPE_DOCS,
  TABLE_OPTIONS,
} from './cql-docs';
import { qualifiedText, typeText } from './cql-text';
import { roleText } from './hover';
import { quoteName } from '../util/names';
import type { ColumnSummary, SymbolIndex, TableDeclaration } from './symbols';
import { NATIVE_TYPES } from '../token/types';

export type CompletionKind =
  'keyword' | 'keyspace' | 'table' | 'view' | 'column' | 'type' | 'function' | 'option' | 'class' | 'value';

interface CompletionEntry {
  label: string;
  kind: CompletionKind;
  /** One line shown next to the label (type, role). */
  detail?: string;
  /** Markdown. */
  documentation?: string;
  /** Text to insert (defaults to label). */
  insertText?: string;
  /** insertText is an LSP snippet (`$1`, `${1:x}`). */
  snippet?: boolean;
  /** Sorts within the list (lower first). */
  sortText: string;
  filterText?: string;
}

export interface CompletionResult {
  items: CompletionEntry[];
  /** The span the chosen item replaces (the word being typed). */
  replaceStart: number;
  replaceEnd: number;
  context: CompletionContext;
}

interface CompletionOptions {
  /** What the grammar accepts at `offset` of `text`. Defaults to its content assist (expectedTokensAt). */
  expectedTokens?: ExpectedTokensProvider;
}

const COLLECTION_SNIPPETS: { label: string; snippet: string }[] = [
  { label: 'list', snippet: 'list<${1:text}>' },
  { label: 'set', snippet: 'set<${1:text}>' },
  { label: 'map', snippet: 'map<${1:text}, ${2:text}>' },
  { label: 'frozen', snippet: 'frozen<${1}>' },
  { label: 'tuple', snippet: 'tuple<${1:int}, ${2:text}>' },
  { label: 'vector', snippet: 'vector<float, ${1:3}>' },
];

function sortKey(group: number, label: string): string {
  return `${String(group).padStart(2, '0')}_${label.toLowerCase()}`;
}

/** Keeps the user's case for keywords: typing `sel` inserts `select`, `SEL` or nothing inserts `SELECT`. */
function keywordCase(word: string, prefix: string): string {
  return prefix && prefix === prefix.toLowerCase() && /[a-z]/.test(prefix) ? word.toLowerCase() : word.toUpperCase();
}

export function complete(
  index: SymbolIndex,
  filePath: string,
  text: string,
  parse: ParseResult,
  offset: number,
  options: CompletionOptions = {},
): CompletionResult {
  const ctx = analyzeCompletion(text, parse, offset, options.expectedTokens);
  const result: CompletionResult = {
    items: [],
    replaceStart: ctx.replaceStart,
    replaceEnd: ctx.replaceEnd,
    context: ctx,
  };
  if (ctx.site === 'none') return result;
  const grammar = ctx.grammar;
  const items = result.items;
  const seen = new Set<string>();
  const push = (entry: CompletionEntry): void => {
    const key = `${entry.kind}:${entry.label}`;
    if (seen.has(key)) return;
    seen.add(key);
    items.push(entry);
  };

  switch (ctx.site) {
    case 'table':
      addTables(index, ctx, push);
      break;
    case 'keyspace':
      addKeyspaces(index, push, 0, false);
      break;
    case 'column':
      addColumns(index, ctx, push, { filePath, offset });
      break;
    case 'type':
      addTypes(index, ctx, push, { filePath, offset }, !grammar || grammar.expectsType || !grammarKnows(grammar));
      break;
    case 'tableOption':
      for (const o of TABLE_OPTIONS) {
        push({
          label: o.name,
          kind: 'option',
          detail: 'table option',
          documentation: o.doc,
          insertText: `${o.name} = ${o.valueSnippet}`,
          snippet: true,
          sortText: sortKey(0, o.name),
        });
      }
      if (ctx.statementType.startsWith('CREATE')) {
        push({
          label: 'CLUSTERING ORDER BY',
          kind: 'keyword',
          documentation: KEYWORD_DOCS.CLUSTERING,
          insertText: `${keywordCase('CLUSTERING ORDER BY', ctx.prefix)} ($1)`,
          snippet: true,
          sortText: sortKey(1, 'clustering'),
        });
      }
      break;
    case 'keyspaceOption':
      for (const o of KEYSPACE_OPTIONS) {
        push({
          label: o.name,
          kind: 'option',
          detail: 'keyspace option',
          documentation: o.doc,
          insertText: `${o.name} = ${o.valueSnippet}`,
          snippet: true,
          sortText: sortKey(0, o.name),
        });
      }
      break;
    case 'mapKey':
      addMapKeys(ctx, push);
      break;
    case 'optionClass':
      addOptionClasses(ctx, push);
      break;
    case 'value':
      addFunctions(ctx, push, 1, false);
      break;
    default:
      break;
  }

  // Keywords the grammar accepts here (names first, keywords after).
  if (grammar && ctx.site !== 'mapKey' && ctx.site !== 'optionClass' && !ctx.qualifier) {
    const keywords = grammar.keywords.filter((w) => /^[A-Z_ ]+$/.test(w));
    const functionNames = new Set(items.filter((i) => i.kind === 'function').map((i) => i.label.toLowerCase()));
    for (const word of keywords) {
      if (functionNames.has(word.toLowerCase())) continue;
      const doc = KEYWORD_DOCS[word.split(' ')[0]];
      push({
        label: keywordCase(word, ctx.prefix),
        kind: 'keyword',
        documentation: doc,
        sortText: sortKey(ctx.site === 'statementStart' || ctx.site === 'other' ? 0 : 8, word),
      });
    }
  }
  return result;
}

function tableDoc(index: SymbolIndex, table: TableDeclaration): string {
  const columns = index.columnsOf(table);
  const key = columns.filter((c) => c.role === 'partition').map((c) => quoteName(c.name));
  const clustering = columns
    .filter((c) => c.role === 'clustering')
    .map((c) => `${quoteName(c.name)}${c.order === 'DESC' ? ' DESC' : ''}`);
  const pk = `PRIMARY KEY ((${key.join(', ')})${clustering.length ? `, ${clustering.join(', ')}` : ''})`;
  // Names and types are the user's text: into markdown through inlineCode / markdownText only.
  const cols = columns
    .slice(0, 30)
    .map(
      (c) =>
        `- ${inlineCode(quoteName(c.name))} ${inlineCode(c.typeText ?? '?')}${c.role !== 'regular' ? ` — ${c.role}` : ''}`,
    );
  return [
    `**${table.isView ? 'view' : 'table'} ${markdownText(qualifiedText(table.statement.name))}**`,
    '',
    inlineCode(pk),
    '',
    ...cols,
    columns.length > 30 ? '- …' : '',
  ]
    .join('\n')
    .trim();
}

function addTables(index: SymbolIndex, ctx: CompletionContext, push: (e: CompletionEntry) => void): void {
  const wantedKeyspace = ctx.qualifier;
  const viewsAllowed =
    ctx.statementType === 'SELECT' ||
    /MATERIALIZED VIEW$/.test(ctx.statementType) ||
    ctx.statementType.startsWith('DESCRIBE');
  const onlyViews = /MATERIALIZED VIEW$/.test(ctx.statementType) && !ctx.statementType.startsWith('CREATE');
  for (const table of index.allTables()) {
    if (table.isView && !viewsAllowed) continue;
    if (onlyViews && !table.isView) continue;
    if (ctx.statementType === 'CREATE MATERIALIZED VIEW' && table.isView) continue;
    if (wantedKeyspace !== undefined && table.keyspace !== wantedKeyspace) continue;
    // Without a qualifier: tables of the current keyspace (or without one) by bare name, others qualified.
    const local =
      wantedKeyspace !== undefined || table.keyspace === undefined || table.keyspace === ctx.currentKeyspace;
    const label = local ? quoteName(table.name) : `${quoteName(table.keyspace!)}.${quoteName(table.name)}`;
    push({
      label,
      kind: table.isView ? 'view' : 'table',
      detail: `${table.isView ? 'view' : 'table'}${table.keyspace ? ` in ${table.keyspace}` : ''}`,
      documentation: tableDoc(index, table),
      sortText: sortKey(local ? 0 : 1, label),
    });
  }
  if (wantedKeyspace === undefined) addKeyspaces(index, push, 2, true);
}

function addKeyspaces(index: SymbolIndex, push: (e: CompletionEntry) => void, group: number, withDot: boolean): void {
  const names = new Set<string>();
  for (const o of index.allDeclarations()) if (o.target.kind === 'keyspace') names.add(o.target.name);
  for (const t of index.allTables()) if (t.keyspace) names.add(t.keyspace);
  for (const name of names) {
    const label = quoteName(name);
    push({
      label,
      kind: 'keyspace',
      detail: 'keyspace',
      insertText: withDot ? `${label}.` : label,
      sortText: sortKey(group, label),
    });
  }
}

function columnEntry(
  c: ColumnSummary,
  table: TableDeclaration | undefined,
  counts: { partitionCount: number; clusteringCount: number },
  group: number,
): CompletionEntry {
  const label = quoteName(c.name);
  const role = roleText(c, counts);
  const typeDoc = c.type?.kind === 'NativeType' ? NATIVE_TYPE_DOCS[c.type.name] : undefined;
  return {
    label,
    kind: 'column',
    detail: `${c.typeText ?? '?'} · ${role}`,
    documentation: [
      `**column** ${inlineCode(label)} ${inlineCode(c.typeText ?? '?')}`,
      '',
      `${role}${table ? ` of ${inlineCode(qualifiedText(table.statement.name))}` : ''}`,
      typeDoc ? `\n${typeDoc}` : '',
    ]
      .join('\n')
      .trim(),
    sortText: sortKey(
      group,
      `${c.role === 'partition' ? 0 : c.role === 'clustering' ? 1 : 2}${String(Math.max(0, c.keyPosition)).padStart(3, '0')}${c.name}`,
    ),
  };
}

function addColumns(
  index: SymbolIndex,
  ctx: CompletionContext,
  push: (e: CompletionEntry) => void,
  from: { filePath: string; offset: number },
): void {
  // CREATE TABLE: the columns being defined.
  if (ctx.statementType === 'CREATE TABLE') {
    for (const name of ctx.createdColumns) {
      if (ctx.listed.includes(name)) continue;
      const label = quoteName(name);
      push({ label, kind: 'column', detail: 'column of this table', sortText: sortKey(0, label) });
    }
    return;
  }
  const ref = ctx.table;
  const table = ref ? index.resolveTable(ref, from) : undefined;
  if (table) {
    const columns = index.columnsOf(table);
    const counts = {
      partitionCount: columns.filter((c) => c.role === 'partition').length,
      clusteringCount: columns.filter((c) => c.role === 'clustering').length,
    };
    for (const c of columns) {
      if (ctx.listed.includes(c.name)) continue;
      if (ctx.columnClause === 'orderBy' && c.role !== 'clustering') continue;
      if (ctx.columnClause === 'set' && (c.role === 'partition' || c.role === 'clustering')) continue;
      // WHERE: key columns first, in key order.
      push(columnEntry(c, table, counts, 0));
    }
  }
  if (ctx.columnClause === 'select') {
    push({ label: '*', kind: 'keyword', detail: 'all columns', sortText: sortKey(1, '') });
    addFunctions(ctx, push, 3, true);
  } else if (ctx.columnClause === 'where') {
    push({
      label: 'token',
      kind: 'function',
      detail: 'token(partition key)',
      documentation: NATIVE_FUNCTIONS.find((f) => f.name === 'token')!.doc,
      insertText: table
        ? `token(${index
            .columnsOf(table)
            .filter((c) => c.role === 'partition')
            .map((c) => quoteName(c.name))
            .join(', ')})`
        : 'token($1)',
      snippet: !table,
      sortText: sortKey(3, 'token'),
    });
  } else if (ctx.columnClause === 'functionArg') {
    addFunctions(ctx, push, 3, false);
  }
}

function addFunctions(
  ctx: CompletionContext,
  push: (e: CompletionEntry) => void,
  group: number,
  selectList: boolean,
): void {
  for (const f of NATIVE_FUNCTIONS) {
    if (f.selectorOnly && !selectList) continue;
    if (f.name === 'cast') {
      push({
        label: keywordCase('CAST', ctx.prefix),
        kind: 'function',
        detail: f.signature,
        documentation: f.doc,
        insertText: `${keywordCase('CAST', ctx.prefix)}(\${1} AS \${2:text})`,
        snippet: true,
        sortText: sortKey(group, f.name),
      });
      continue;
    }
    push({
      label: f.name,
      kind: 'function',
      detail: f.signature,
      documentation: f.doc,
      insertText: f.noArgs ? `${f.name}()` : f.name === 'count' ? 'count(${1:*})' : `${f.name}($1)`,
      snippet: !f.noArgs,
      sortText: sortKey(group, f.name),
    });
  }
}

function addTypes(
  index: SymbolIndex,
  ctx: CompletionContext,
  push: (e: CompletionEntry) => void,
  from: { filePath: string; offset: number },
  anyType: boolean,
): void {
  // Native and collection types where a type is written; where only a user type's name is (DROP TYPE |), not.
  if (ctx.qualifier === undefined && anyType) {
    for (const t of NATIVE_TYPES)
      push({
        label: t,
        kind: 'type',
        detail: 'native type',
        documentation: NATIVE_TYPE_DOCS[t],
        sortText: sortKey(0, t),
      });
    for (const c of COLLECTION_SNIPPETS) {
      push({
        label: c.label,
        kind: 'type',
        detail: c.snippet.replace(/\$\{\d+:?([^}]*)\}/g, '$1'),
        documentation: NATIVE_TYPE_DOCS[c.label],
        insertText: c.snippet,
        snippet: true,
        sortText: sortKey(1, c.label),
      });
    }
  }
  for (const o of index.allDeclarations()) {
    if (o.target.kind !== 'type' || o.node?.kind !== 'CreateType') continue;
    if (ctx.qualifier !== undefined && o.target.keyspace !== ctx.qualifier) continue;
    // Each name once, as it resolves here (a type dropped and created again: the later one; dropped: none).
    if (index.resolveType(o.target as { keyspace?: string; name: string }, from) !== o) continue;
    const statement = o.node as CreateTypeStatement;
    const label = quoteName(o.target.name);
    push({
      label,
      kind: 'type',
      detail: `user type${o.target.keyspace ? ` in ${o.target.keyspace}` : ''}`,
      documentation: `**type** ${inlineCode(qualifiedText(statement.name))}\n\n${statement.fields.map((f) => `- ${inlineCode(quoteName(f.name.name))} ${inlineCode(typeText(f.type))}`).join('\n')}`,
      // Inside a collection or key a UDT must be frozen; suggest that spelling too.
      sortText: sortKey(2, label),
    });
  }
}

function quoted(s: string): string {
  return `'${s}'`;
}

function addMapKeys(ctx: CompletionContext, push: (e: CompletionEntry) => void): void {
  const option = ctx.optionName?.toLowerCase();
  const list =
    option === 'compaction'
      ? COMPACTION_SUBOPTIONS
      : option === 'compression'
        ? COMPRESSION_SUBOPTIONS
        : option === 'replication'
          ? [
              { name: 'class', doc: 'The replication strategy.' },
              {
                name: 'replication_factor',
                doc: 'Replicas per data centre (SimpleStrategy, or the default for NetworkTopologyStrategy).',
              },
            ]
          : option === 'caching'
            ? [
                { name: 'keys', doc: "'ALL' or 'NONE'." },
                { name: 'rows_per_partition', doc: "'ALL', 'NONE' or a number." },
              ]
            : [];
  for (const o of list) {
    push({
      label: quoted(o.name),
      kind: 'option',
      documentation: o.doc,
      insertText: quoted(o.name),
      filterText: quoted(o.name),
      sortText: sortKey(0, o.name),
    });
  }
}

function addOptionClasses(ctx: CompletionContext, push: (e: CompletionEntry) => void): void {
  const option = ctx.optionName?.toLowerCase();
  const list =
    option === 'compaction'
      ? COMPACTION_CLASSES
      : option === 'compression'
        ? COMPRESSION_CLASSES
        : option === 'replication'
          ? [
              { name: 'NetworkTopologyStrategy', doc: "Replicas per data centre: `'dc1': 3`. Use it in production." },
              {
                name: 'SimpleStrategy',
                doc: 'One replication factor for the whole cluster, ignoring topology (single data centre, tests).',
              },
            ]
          : [...COMPACTION_CLASSES, ...COMPRESSION_CLASSES];
  for (const c of list) {
    push({
      label: quoted(c.name),
      kind: 'class',
      documentation: c.doc,
      insertText: quoted(c.name),
      filterText: quoted(c.name),
      sortText: sortKey(0, c.name),
    });
  }
}

export type { CompletionSite };
