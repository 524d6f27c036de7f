// Hovers on names: tables and views (key, columns, size via the schema's describeTable), columns
// (type and key role), keyspaces, user types, functions (native docs or the UDF signature),
// native types and keywords. Partition-key literal hovers (tokens, shards) live elsewhere.
import type {
  CreateAggregateStatement,
  CreateFunctionStatement,
  CreateKeyspaceStatement,
  CreateTypeStatement,
  ParseResult,
} from '../../../grammar/ast';
import { statementAt } from '../util/ast-walk';
import { FUNCTIONS_BY_NAME, KEYWORD_DOCS, NATIVE_TYPE_DOCS } from './cql-docs';
import { qualifiedText, typeText } from './cql-text';
import { ownEntry, quoteName } from '../util/names';
import type { ColumnSummary, Occurrence, SymbolIndex, TableDeclaration } from './symbols';
import { editorTokens, tokenIndexAt } from './tokens';
import { inlineCode, markdownText, tableCell } from '../util/markdown';

interface NameHover {
  /** Markdown. */
  markdown: string;
  start: number;
  end: number;
}

interface NameHoverOptions {
  /**
   * Describes a table or view (key, columns, estimated row size) for the hover; when absent or
   * returning undefined, a built-in summary is shown.
   */
  describeTable?: (table: TableDeclaration) => string | undefined;
}

export function roleText(column: ColumnSummary, table?: { partitionCount: number; clusteringCount: number }): string {
  switch (column.role) {
    case 'partition':
      return table && table.partitionCount > 1
        ? `partition key (${column.keyPosition + 1} of ${table.partitionCount})`
        : 'partition key';
    case 'clustering':
      return `clustering column ${column.keyPosition + 1}, ${column.order ?? 'ASC'}`;
    case 'static':
      return 'static column';
    default:
      return 'regular column';
  }
}

/** A built-in table summary, used when the schema's describeTable is not available. */
function summarizeTable(index: SymbolIndex, table: TableDeclaration): string {
  const columns = index.columnsOf(table);
  const partition = columns.filter((c) => c.role === 'partition').map((c) => quoteName(c.name));
  const clustering = columns
    .filter((c) => c.role === 'clustering')
    .map((c) => `${quoteName(c.name)} ${c.order ?? 'ASC'}`);
  const title = `${table.isView ? 'view' : 'table'} ${qualifiedText(table.statement.name)}`;
  const lines = [`**${title}**`, ''];
  if (table.statement.kind === 'CreateMaterializedView')
    lines.push(`View of ${inlineCode(qualifiedText(table.statement.from))}`, '');
  lines.push(`Partition key: ${partition.length ? partition.map(inlineCode).join(', ') : '_none_'}`);
  if (clustering.length) lines.push('', `Clustering: ${clustering.map(inlineCode).join(', ')}`);
  lines.push('', '| column | type | role |', '|---|---|---|');
  const counts = { partitionCount: partition.length, clusteringCount: clustering.length };
  for (const c of columns)
    lines.push(
      `| ${tableCell(inlineCode(quoteName(c.name)))} | ${tableCell(inlineCode(c.typeText ?? '?'))} | ${roleText(c, counts)} |`,
    );
  return lines.join('\n');
}

function columnHover(index: SymbolIndex, o: Occurrence): string | undefined {
  if (o.target.kind !== 'column') return undefined;
  const tableDecl = index.tableOfMention(o, o.target.table);
  const name = o.target.name;
  if (!tableDecl)
    return `**column** ${inlineCode(quoteName(name))}\n\nTable ${inlineCode(o.target.table.name)} is not defined in the workspace.`;
  const columns = index.columnsOf(tableDecl);
  const column =
    columns.find((c) => c.name === name) ?? index.columnsOf(index.baseOf(tableDecl)).find((c) => c.name === name);
  const tableName = qualifiedText(tableDecl.statement.name);
  if (!column) return `**column** ${inlineCode(quoteName(name))}\n\nNot a column of ${inlineCode(tableName)}.`;
  const counts = {
    partitionCount: columns.filter((c) => c.role === 'partition').length,
    clusteringCount: columns.filter((c) => c.role === 'clustering').length,
  };
  const lines = [
    `**column** ${inlineCode(quoteName(name))} ${inlineCode(column.typeText ?? '?')}`,
    '',
    `${roleText(column, counts)} of ${tableDecl.isView ? 'view' : 'table'} ${inlineCode(tableName)}`,
  ];
  const typeDoc = column.type?.kind === 'NativeType' ? NATIVE_TYPE_DOCS[column.type.name] : undefined;
  if (typeDoc)
    lines.push('', `${inlineCode(column.type!.kind === 'NativeType' ? (column.typeText ?? '') : '')}: ${typeDoc}`);
  return lines.join('\n');
}

function keyspaceHover(index: SymbolIndex, o: Occurrence): string {
  const d = index.definitionOf(o);
  const lines = [`**keyspace** ${inlineCode(quoteName(o.identifier.name))}`];
  const statement = d?.node as CreateKeyspaceStatement | undefined;
  if (statement?.kind === 'CreateKeyspace') {
    for (const p of statement.properties) {
      lines.push('', `${markdownText(p.name.name)} = ${inlineCode(propertyText(p.value))}`);
    }
  } else {
    lines.push('', '_Not created in the workspace._');
  }
  const tables = index.allTables().filter((t) => t.keyspace === o.identifier.name);
  if (tables.length)
    lines.push(
      '',
      `${tables.length} table${tables.length === 1 ? '' : 's'}/views: ${tables
        .slice(0, 20)
        .map((t) => inlineCode(quoteName(t.name)))
        .join(', ')}${tables.length > 20 ? ', …' : ''}`,
    );
  return lines.join('\n');
}

function propertyText(value: unknown): string {
  const v = value as { kind: string; text?: string; value?: string; entries?: { key: unknown; value: unknown }[] };
  if (v.kind === 'Literal') return v.text ?? '';
  if (v.kind === 'MapLiteral')
    return `{${(v.entries ?? []).map((e) => `${propertyText(e.key)}: ${propertyText(e.value)}`).join(', ')}}`;
  return '…';
}

function typeHover(index: SymbolIndex, o: Occurrence): string {
  const d = index.definitionOf(o);
  const statement = d?.node as CreateTypeStatement | undefined;
  if (statement?.kind !== 'CreateType')
    return `**type** ${inlineCode(quoteName(o.identifier.name))}\n\n_Not defined in the workspace._`;
  const lines = [
    `**type** ${inlineCode(qualifiedText(statement.name))}`,
    '',
    '```cql',
    `CREATE TYPE ${qualifiedText(statement.name)} (`,
  ];
  // The fields as the type stands there (ALTER TYPE applied), else as its CREATE wrote them.
  const ref = o.target.kind === 'type' ? o.target : undefined;
  const info = ref && index.resolveTypeInfo(ref, { filePath: o.filePath, offset: o.statement.range.start });
  const fields =
    info && info.filePath === d!.filePath && info.range.start === statement.range.start
      ? info.fields.map((f) => ({ name: f.name, type: f.typeText }))
      : statement.fields.map((f) => ({ name: f.name.name, type: typeText(f.type) }));
  fields.forEach((f, i) => lines.push(`  ${quoteName(f.name)} ${f.type}${i < fields.length - 1 ? ',' : ''}`));
  lines.push(')', '```');
  return lines.join('\n');
}

function functionHover(index: SymbolIndex, o: Occurrence): string | undefined {
  const d = index.definitionOf(o);
  if (d?.node?.kind === 'CreateFunction') {
    const f = d.node as CreateFunctionStatement;
    return `**function** ${inlineCode(`${qualifiedText(f.name)}(${f.arguments.map((a) => `${quoteName(a.name.name)} ${typeText(a.type)}`).join(', ')}) → ${typeText(f.returnType)}`)}\n\nLanguage ${inlineCode(f.language.name)}, ${f.calledOnNullInput ? 'called' : 'returns null'} on null input.`;
  }
  if (d?.node?.kind === 'CreateAggregate') {
    const a = d.node as CreateAggregateStatement;
    return `**aggregate** ${inlineCode(`${qualifiedText(a.name)}(${a.argumentTypes.map(typeText).join(', ')})`)}\n\nState function ${inlineCode(qualifiedText(a.stateFunction))}, state type ${inlineCode(typeText(a.stateType))}${a.finalFunction ? `, final function ${inlineCode(qualifiedText(a.finalFunction))}` : ''}.`;
  }
  return nativeFunctionDoc(o.identifier.name);
}

function nativeFunctionDoc(name: string): string | undefined {
  const doc = FUNCTIONS_BY_NAME.get(name.toLowerCase());
  if (!doc) {
    const conversion = /^(\w+)as(\w+)$/i.exec(name);
    if (conversion) return `**function** ${inlineCode(name)}\n\nConverts between a native type and its blob encoding.`;
    return undefined;
  }
  return `**function** ${inlineCode(doc.signature)}\n\n${doc.doc}`;
}

/** The hover for the name or keyword at `offset`, if any. */
export function nameHover(
  index: SymbolIndex,
  filePath: string,
  text: string,
  parse: ParseResult,
  offset: number,
  options: NameHoverOptions = {},
): NameHover | undefined {
  const o = index.occurrenceAt(filePath, offset);
  if (o) {
    const range = o.identifier.range;
    let markdown: string | undefined;
    switch (o.target.kind) {
      case 'table': {
        const table = index.tableOfMention(o, o.target);
        markdown = table
          ? (options.describeTable?.(table) ?? summarizeTable(index, table))
          : `**table** ${inlineCode(quoteName(o.target.name))}\n\n_Not defined in the workspace._`;
        break;
      }
      case 'column':
        markdown = columnHover(index, o);
        break;
      case 'keyspace':
        markdown = keyspaceHover(index, o);
        break;
      case 'type':
        markdown = typeHover(index, o);
        break;
      case 'field':
        markdown = `**field** ${inlineCode(quoteName(o.target.name))} of type ${inlineCode(quoteName(o.target.type.name))}`;
        break;
      case 'function':
        markdown = functionHover(index, o);
        break;
      case 'index':
        markdown = `**index** ${inlineCode(quoteName(o.target.name))}`;
        break;
      default:
        break;
    }
    return markdown ? { markdown, ...range } : undefined;
  }
  return keywordHover(text, parse, offset);
}

/** Keywords and native type names under the cursor (lexed within the statement only, for speed). */
function keywordHover(text: string, parse: ParseResult, offset: number): NameHover | undefined {
  const statement = statementAt(parse, offset);
  if (!statement) return undefined;
  const base = statement.range.start;
  const tokens = editorTokens(text.slice(base, statement.range.end));
  const i = tokenIndexAt(tokens, offset - base);
  if (i < 0) return undefined;
  const token = tokens[i];
  const start = base + token.start;
  const end = base + token.end;
  const word = token.image;
  if (token.category === 'keyword') {
    const lower = word.toLowerCase();
    const collection =
      ['list', 'set', 'map', 'frozen', 'tuple', 'vector'].includes(lower) && tokens[i + 1]?.type === 'Lt';
    if (token.nativeType || collection) {
      const doc = ownEntry(NATIVE_TYPE_DOCS, lower);
      if (doc) return { markdown: `**type** ${inlineCode(lower)}\n\n${doc}`, start, end };
    }
    const next = tokens[i + 1];
    if (next?.type === 'LParen') {
      const fn = nativeFunctionDoc(word);
      if (fn) return { markdown: fn, start, end };
    }
    const doc = ownEntry(KEYWORD_DOCS, word.toUpperCase());
    if (doc) return { markdown: `**${word.toUpperCase()}**\n\n${doc}`, start, end };
  }
  return undefined;
}
