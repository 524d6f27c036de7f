// Edits to a CREATE TABLE that keep its layout: add elements after the last column definition,
// put a column into the partition key whatever the primary key's form, and write a comment line
// above the statement.
import type { CreateTableStatement, Identifier } from '../../../grammar/ast';
import type { TextEdit } from './types';
import { quoteName } from '../util/names';
import { indentAt, lineBreakAt, lineStart, restOfLineAfter, startsLine } from './text';

/** One element to add to the table body: a column definition or a PRIMARY KEY clause. */
export interface BodyElement {
  sql: string;
  /** A note for the reader, written as a comment on the element's line. */
  comment?: string;
}

/**
 * Edits that add `elements` after the last column definition. On a multi-line table each element
 * gets its own line with the columns' indentation and line break, and a comment that ended the last
 * column's line stays on that line; on a one-line table they are inserted inline (`, shard int`).
 */
export function addBodyElements(
  text: string,
  table: CreateTableStatement,
  elements: BodyElement[],
): TextEdit[] | undefined {
  const last = table.columns[table.columns.length - 1];
  if (!last || elements.length === 0) return undefined;
  const at = last.range.end;
  const rest = restOfLineAfter(text, at);
  if (rest && startsLine(text, last.range.start)) {
    const indent = indentAt(text, last.range.start);
    const eol = lineBreakAt(text, at);
    const lines = elements.map((element, i) => {
      const comma = i < elements.length - 1 || rest.comma ? ',' : '';
      const comment = element.comment ? ` -- ${element.comment}` : '';
      return `${eol}${indent}${element.sql}${comma}${comment}`;
    });
    const edits: TextEdit[] = [];
    if (!rest.comma) {
      // The last column ends the list: it needs a comma before the new lines.
      if (rest.lineEnd === at) return [{ start: at, end: at, newText: `,${lines.join('')}` }];
      edits.push({ start: at, end: at, newText: ',' });
    }
    edits.push({ start: rest.lineEnd, end: rest.lineEnd, newText: lines.join('') });
    return edits;
  }
  // A line comment would swallow the rest of a one-line table: use block comments.
  const inline = elements
    .map((e) => `, ${e.sql}${e.comment ? ` /* ${e.comment.replace(/\*\//g, '* /')} */` : ''}`)
    .join('');
  return [{ start: at, end: at, newText: inline }];
}

/**
 * Edits that append `columns` to the partition key, after its existing columns, in any form:
 * `PRIMARY KEY (a)` -> `PRIMARY KEY ((a, s))`, `(a, c)` -> `((a, s), c)`, `((a, b), c)` ->
 * `((a, b, s), c)`, and `clustering` after the clustering columns (`(a)` -> `((a, s), isbn)`). An
 * inline `col type PRIMARY KEY` loses its `PRIMARY KEY` words and the returned `clause` must be added
 * to the body (see addBodyElements).
 */
export function partitionKeyEdits(
  text: string,
  table: CreateTableStatement,
  columns: string | readonly string[],
  clustering: readonly string[] = [],
): { edits: TextEdit[]; clause?: BodyElement } | undefined {
  const pk = table.primaryKey;
  if (!pk || pk.partitionKey.length === 0) return undefined;
  const added = typeof columns === 'string' ? [columns] : columns;
  const name = added.map(quoteName).join(', ');
  const lastKey = pk.partitionKey[pk.partitionKey.length - 1]!;
  const moreClustering = clustering.map((c) => `, ${quoteName(c)}`).join('');
  if (clustering.length && pk.form !== 'inline') {
    const partition = added.length ? partitionKeyEdits(text, table, added) : { edits: [] as TextEdit[] };
    if (!partition) return undefined;
    // After the last clustering column, else after the partition key (its parenthesised group when it has one).
    const at = pk.clustering[pk.clustering.length - 1]?.range.end ?? pk.partitionKeyRange?.end ?? lastKey.range.end;
    // `(a)` -> `((a, s), isbn)`: the partition edit that closes the new group there takes the columns after it.
    const closing = partition.edits.find((e) => e.start === at);
    if (closing)
      return {
        edits: partition.edits.map((e) => (e === closing ? { ...e, newText: `${e.newText}${moreClustering}` } : e)),
      };
    return { edits: [...partition.edits, { start: at, end: at, newText: moreClustering }] };
  }
  if (!added.length && !clustering.length) return undefined;
  if (pk.form === 'inline') {
    // Remove ` PRIMARY KEY` with the spaces before it; comments before it stay.
    // Words alone on their line go with the line break before them.
    let start = pk.range.start;
    while (start > 0 && (text[start - 1] === ' ' || text[start - 1] === '\t')) start--;
    if (start > 0 && (text[start - 1] === '\n' || text[start - 1] === '\r')) {
      start--;
      if (text[start] === '\n' && start > 0 && text[start - 1] === '\r') start--;
    }
    const keyText = [...pk.partitionKey.map(identifierText), ...(added.length ? [name] : [])].join(', ');
    return {
      edits: [{ start, end: pk.range.end, newText: '' }],
      clause: { sql: `PRIMARY KEY ((${keyText})${moreClustering})` },
    };
  }
  const after = lastKey.range.end;
  if (pk.partitionKeyParenthesised) return { edits: [{ start: after, end: after, newText: `, ${name}` }] };
  const before = lastKey.range.start;
  return {
    edits: [
      { start: before, end: before, newText: '(' },
      { start: after, end: after, newText: `, ${name})` },
    ],
  };
}

/** An edit that writes `-- <comment>` lines directly above the statement, with its indentation. */
export function commentAboveEdit(text: string, statementStart: number, commentLines: string[]): TextEdit {
  const eol = lineBreakAt(text, statementStart);
  if (startsLine(text, statementStart)) {
    const start = lineStart(text, statementStart);
    const indent = text.slice(start, statementStart);
    const block = commentLines.map((line) => `${indent}-- ${line}${eol}`).join('');
    return { start, end: start, newText: block };
  }
  // The statement shares its line with code before it: start it on a new line under the comment.
  const block = commentLines.map((line) => `-- ${line}${eol}`).join('');
  return { start: statementStart, end: statementStart, newText: `${eol}${block}` };
}

/** The identifier as written in the source (keeps quotes and case). */
export function identifierText(id: Identifier): string {
  return id.text || quoteName(id.name);
}

/**
 * A new statement after `create` (after its `;`, on a line of its own below a blank line), with its comment
 * lines above it.
 */
export function statementAfterEdit(
  text: string,
  create: CreateTableStatement,
  commentLines: string[],
  statement: string,
): TextEdit {
  const eol = lineBreakAt(text, create.range.start);
  const ended = text.slice(create.range.start, create.range.end).trimEnd().endsWith(';');
  const semicolon = ended ? undefined : /^[ \t]*;/.exec(text.slice(create.range.end));
  const at = create.range.end + (semicolon ? semicolon[0].length : 0);
  const comments = commentLines.map((line) => `-- ${line}${eol}`).join('');
  return { start: at, end: at, newText: `${ended || semicolon ? '' : ';'}${eol}${eol}${comments}${statement}` };
}
