// Where the cursor is, in CQL terms, for completion: which statement, which clause, which table, and what
// kind of name fits (table, keyspace, column, type, option, option class, value).
// The kind of name and the clause come from the grammar (completion-site.ts), for the incomplete statements
// people have while typing. What the grammar cannot know is read off the statement's tokens here: the word being typed and its `ks.` qualifier, the table the
// statement names (also after the cursor: `SELECT | FROM ks.t`), the columns defined or listed so far,
// and the keys and classes of option maps (`compaction = {'class': '|`), whose insides are strings to it.
import type { ParseResult } from '../../../grammar/ast';
import { expectedTokensAt, type ExpectedTokens } from '../../../grammar';
import {
  grammarKnows,
  siteOf,
  type ColumnClause,
  type CompletionSite,
  type ExpectedTokensProvider,
} from './completion-site';
import { editorTokens, type EditorToken } from './tokens';
import { foldName } from '../util/names';

interface TableRef {
  keyspace?: string;
  name: string;
}

export interface CompletionContext {
  site: CompletionSite;
  /** The word being typed (may be empty) and the span it occupies, which completion replaces. */
  prefix: string;
  replaceStart: number;
  replaceEnd: number;
  /** `ks.` before the cursor: the keyspace (or table/alias) name before the dot. */
  qualifier?: string;
  /** Leading statement keywords, upper-cased (`SELECT`, `CREATE TABLE`, `ALTER TABLE`, ...). */
  statementType: string;
  /** The table the statement reads or writes (also found after the cursor). */
  table?: TableRef;
  /** For CREATE TABLE: the columns defined in its body so far. */
  createdColumns: string[];
  /** Which clause a column is wanted for. */
  columnClause?: ColumnClause;
  /** Columns already listed in the current list (INSERT columns, PRIMARY KEY, SELECT list). */
  listed: string[];
  /** For option maps: the option whose map the cursor is in (`compaction`, `compression`, `replication`). */
  optionName?: string;
  /** Inside a quoted string (the prefix excludes the opening quote). */
  inString: boolean;
  /** The keyspace set by the last USE before the statement. */
  currentKeyspace?: string;
  /** Offset where the statement starts. */
  statementStart: number;
  /**
   * Where the grammar's content assist starts reading (it sees from here to the word being typed): the
   * statement's start, or the BEGIN BATCH still open around it, so that inside a batch only what a batch takes is offered.
   */
  grammarStart: number;
  /** The grammar's answer at the word being typed; undefined inside strings, comments and option maps, or when it cannot say. */
  grammar?: ExpectedTokens;
}

const upper = (t: EditorToken | undefined): string => (t ? t.image.toUpperCase() : '');
const isName = (t: EditorToken | undefined): boolean =>
  !!t && (t.category === 'identifier' || t.category === 'quotedName' || (t.category === 'keyword' && !!t.unreserved));
function nameOf(t: EditorToken): string {
  return foldName(t.image);
}

/** The text span of the current statement: after the last `;` before the cursor, to the next `;`. */
function statementWindow(text: string, parse: ParseResult, offset: number): { start: number; end: number } {
  let start = 0;
  for (const s of parse.statements) {
    if (s.range.start >= offset) break;
    if (s.range.end <= offset && s.terminated) start = s.range.end;
    else if (s.range.start <= offset) start = Math.max(start, s.range.start);
  }
  // Never look back further than the previous `;` anyway (recovery may merge statements).
  let end = text.indexOf(';', offset);
  end = end < 0 ? text.length : end + 1;
  return { start, end: Math.min(end, start + 200_000) };
}

/** Inner statements a batch holds; a recovering parse splits an open batch into the BEGIN and these. */
const BATCH_INNER = new Set(['Insert', 'Update', 'Delete']);

/** The start of a BEGIN BATCH before `statementStart` that no APPLY BATCH closed yet, if any. */
function openBatchStart(text: string, parse: ParseResult, statementStart: number): number | undefined {
  const statements = parse.statements;
  let i = statements.length - 1;
  while (i >= 0 && statements[i]!.range.start >= statementStart) i--;
  for (let seen = 0; i >= 0 && seen < 100; i--, seen++) {
    const s = statements[i]!;
    if (s.kind === 'Invalid' && /^BEGIN\b/i.test(text.slice(s.range.start, s.range.start + 6))) return s.range.start;
    if (!BATCH_INNER.has(s.kind)) return undefined;
  }
  return undefined;
}

/** The statement's tokens around the cursor: cut at the `;` before and after it, inside a batch from its inner statement. */
function statementTokens(text: string, parse: ParseResult, offset: number): EditorToken[] {
  const window = statementWindow(text, parse, offset);
  const all = editorTokens(text.slice(window.start, window.end)).map((t) => ({
    ...t,
    start: t.start + window.start,
    end: t.end + window.start,
  }));
  let first = 0;
  let last = all.length;
  for (let i = 0; i < all.length; i++) {
    if (all[i].type !== 'Semicolon') continue;
    if (all[i].end <= offset) first = i + 1;
    else {
      last = i;
      break;
    }
  }
  const tokens = all.slice(first, last);
  // Inside BEGIN BATCH ...: the statement is the one after the batch header.
  if (upper(tokens.find((t) => t.category !== 'comment')) === 'BEGIN') {
    const batchIdx = tokens.findIndex((t) => upper(t) === 'BATCH');
    if (batchIdx >= 0) {
      let j = batchIdx + 1;
      if (upper(tokens[j]) === 'USING') {
        while (j < tokens.length && !['INSERT', 'UPDATE', 'DELETE'].includes(upper(tokens[j]))) j++;
      }
      return tokens.slice(j);
    }
  }
  return tokens;
}

export function analyzeCompletion(
  text: string,
  parse: ParseResult,
  offset: number,
  expectedTokens: ExpectedTokensProvider = expectedTokensAt,
): CompletionContext {
  const tokens = statementTokens(text, parse, offset);
  const statementStart = tokens.find((t) => t.category !== 'comment')?.start ?? offset;

  const ctx: CompletionContext = {
    site: 'other',
    prefix: '',
    replaceStart: offset,
    replaceEnd: offset,
    statementType: '',
    createdColumns: [],
    listed: [],
    inString: false,
    statementStart,
    grammarStart: openBatchStart(text, parse, statementStart) ?? statementStart,
  };

  for (const s of parse.statements) {
    if (s.range.start >= statementStart) break;
    if (s.kind === 'Use') ctx.currentKeyspace = s.keyspace.name;
  }

  // The token under the cursor: a comment ends everything; a word or string is the prefix.
  const at = tokens.find((t) => t.start < offset && offset <= t.end);
  if (at?.category === 'comment' && (offset < at.end || at.lineComment)) {
    ctx.site = 'none';
    return ctx;
  }
  let before = tokens.filter((t) => t.end <= offset && t.category !== 'comment');
  if (
    at &&
    (at.category === 'identifier' ||
      at.category === 'keyword' ||
      at.category === 'literalWord' ||
      at.category === 'quotedName' ||
      at.category === 'number')
  ) {
    ctx.prefix = text.slice(at.start, offset);
    ctx.replaceStart = at.start;
    ctx.replaceEnd = at.end;
    before = before.filter((t) => t !== at);
  } else if (at?.category === 'string' && (offset < at.end || !/['$]$/.test(at.image) || at.image.length === 1)) {
    ctx.inString = true;
    ctx.prefix = text.slice(at.start + 1, offset);
    ctx.replaceStart = at.start;
    // An unclosed string runs to the next quote anywhere: replace only up to the cursor then.
    const rest = text.slice(offset, at.end);
    ctx.replaceEnd = /[\r\n]/.test(rest) || !/'$/.test(at.image) || at.image.length < 2 ? offset : at.end;
    before = before.filter((t) => t !== at);
  }
  const significant = tokens.filter((t) => t.category !== 'comment');
  ctx.statementType = statementTypeOf(significant);
  ctx.table = mainTable(significant, ctx.statementType);
  if (ctx.table && ctx.table.keyspace === undefined) ctx.table.keyspace = ctx.currentKeyspace;
  if (ctx.statementType === 'CREATE TABLE') ctx.createdColumns = createdColumns(significant);

  // `ks.|`: remember the qualifier (the grammar reads it as part of the name).
  if (before[before.length - 1]?.type === 'Dot' && isName(before[before.length - 2]))
    ctx.qualifier = nameOf(before[before.length - 2]);
  const brackets = openBrackets(before);
  const inner = brackets[brackets.length - 1];
  // Option maps and strings: the grammar sees a map literal of strings, the keys and classes are ours.
  if (inner?.token.type === 'LBrace' || ctx.inString) {
    ctx.site = mapSite(ctx, before, inner);
    return ctx;
  }
  ctx.grammar = grammarAt(ctx, text, parse, before, brackets, expectedTokens);
  if (before.length === 0) {
    ctx.site = 'statementStart';
    return ctx;
  }
  const found = ctx.grammar && !ctx.grammar.inCommentOrString ? siteOf(ctx.grammar.namePaths) : undefined;
  if (!found) return ctx;
  ctx.site = found.site;
  ctx.columnClause = found.clause;
  if (found.clause === 'select')
    ctx.listed = namesSince(
      before,
      before.findIndex((t) => upper(t) === 'SELECT'),
    );
  else if ((found.clause === 'insert' || found.clause === 'primaryKey') && inner)
    ctx.listed = namesSince(before, inner.index);
  return ctx;
}

/**
 * The grammar's content assist at the word being typed, or undefined when it cannot say. A statement it
 * cannot read up to there is read again without what stops it, as spaces (offsets stay): the tokens the
 * parse reported as errors, as Chevrotain's recovery deletes a token (`SELECT a,, b FROM t WHERE |`), and
 * the middle items of the lists still open (content assist reads at most 400 tokens: a table of 150 columns).
 */
function grammarAt(
  ctx: CompletionContext,
  text: string,
  parse: ParseResult,
  before: EditorToken[],
  brackets: OpenBracket[],
  provider: ExpectedTokensProvider,
): ExpectedTokens | undefined {
  // The grammar sees the statement up to the word being typed (not the whole file: that keeps it fast),
  // from its open BEGIN BATCH when it is inside one.
  const start = Math.min(ctx.grammarStart, ctx.replaceStart);
  const ask = (blank: readonly { start: number; end: number }[]): ExpectedTokens => {
    let slice = text.slice(start, ctx.replaceStart);
    for (const r of blank)
      slice = slice.slice(0, r.start - start) + ' '.repeat(r.end - r.start) + slice.slice(r.end - start);
    return provider(slice, slice.length);
  };
  try {
    const answer = ask([]);
    if (grammarKnows(answer)) return answer;
    const blank = [
      ...parse.errors.map((e) => e.range).filter((r) => r.start >= start && r.end <= ctx.replaceStart),
      ...brackets.flatMap((b) => middleItems(before, b.index)),
    ];
    return blank.length ? ask(blank) : answer;
  } catch {
    return undefined;
  }
}

/** The items of the list opened at `open` between its first and its last comma (`(a, b, c, |`: `b, c,`). */
function middleItems(b: EditorToken[], open: number): { start: number; end: number }[] {
  let depth = 0;
  let first: EditorToken | undefined;
  let last: EditorToken | undefined;
  for (let i = open + 1; i < b.length; i++) {
    const type = b[i].type;
    if (type === 'LParen' || type === 'LBrace' || type === 'LBracket') depth++;
    else if (type === 'RParen' || type === 'RBrace' || type === 'RBracket') depth--;
    else if (type === 'Comma' && depth === 0) {
      first ??= b[i];
      last = b[i];
    }
  }
  return first && last && first !== last ? [{ start: first.end, end: last.end }] : [];
}

/** Option maps (`compaction = {|`) and strings: map keys, `'class'` values, other values, or nothing. */
function mapSite(ctx: CompletionContext, b: EditorToken[], inner: OpenBracket | undefined): CompletionSite {
  const prev = b[b.length - 1];
  const prev2 = b[b.length - 2];
  if (inner?.token.type !== 'LBrace') return 'none';
  ctx.optionName = optionOfMap(b, inner.index);
  if (prev?.type === 'Colon' && prev2?.category === 'string' && /^'class'$/i.test(prev2.image)) return 'optionClass';
  if (prev?.type === 'LBrace' || prev?.type === 'Comma') return 'mapKey';
  return ctx.inString ? 'none' : 'value';
}

function statementTypeOf(tokens: EditorToken[]): string {
  const words = tokens.slice(0, 5).map(upper);
  const w0 = words[0];
  if (w0 === 'CREATE' || w0 === 'ALTER' || w0 === 'DROP') {
    let i = 1;
    if (words[1] === 'OR' && words[2] === 'REPLACE') i = 3;
    if (words[i] === 'CUSTOM') i++;
    if (words[i] === 'MATERIALIZED') return `${w0} MATERIALIZED VIEW`;
    if (words[i] === 'COLUMNFAMILY') return `${w0} TABLE`;
    return words[i] ? `${w0} ${words[i]}` : w0;
  }
  if (w0 === 'DESCRIBE' || w0 === 'DESC') return words[1] ? `DESCRIBE ${words[1]}` : 'DESCRIBE';
  return w0 ?? '';
}

/** Reads `[ks.]name` starting at index i; returns undefined if there is no name there. */
function readQualified(tokens: EditorToken[], i: number): TableRef | undefined {
  if (!isName(tokens[i])) return undefined;
  if (tokens[i + 1]?.type === 'Dot' && isName(tokens[i + 2]))
    return { keyspace: nameOf(tokens[i]), name: nameOf(tokens[i + 2]) };
  return { name: nameOf(tokens[i]) };
}

function skipIfExists(tokens: EditorToken[], i: number): number {
  if (upper(tokens[i]) === 'IF') {
    i++;
    if (upper(tokens[i]) === 'NOT') i++;
    if (upper(tokens[i]) === 'EXISTS') i++;
  }
  return i;
}

/** The table a statement is about, wherever the cursor is (the grammar sees only up to the cursor). */
function mainTable(tokens: EditorToken[], statementType: string): TableRef | undefined {
  let depth = 0;
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    if (t.type === 'LParen' || t.type === 'LBrace' || t.type === 'LBracket') depth++;
    else if (t.type === 'RParen' || t.type === 'RBrace' || t.type === 'RBracket') depth = Math.max(0, depth - 1);
    if (depth !== 0) continue;
    const w = upper(t);
    if ((w === 'FROM' || w === 'INTO') && statementType !== 'CREATE FUNCTION') return readQualified(tokens, i + 1);
    if (w === 'UPDATE' && i === 0) return readQualified(tokens, i + 1);
    if (w === 'TRUNCATE' && i === 0) return readQualified(tokens, upper(tokens[1]) === 'TABLE' ? 2 : 1);
    if (w === 'ON' && statementType === 'CREATE INDEX') return readQualified(tokens, i + 1);
    if ((w === 'TABLE' || w === 'COLUMNFAMILY') && i <= 2 && /^(ALTER|CREATE|DROP) TABLE$/.test(statementType)) {
      return readQualified(tokens, skipIfExists(tokens, i + 1));
    }
  }
  return undefined;
}

/** Column names defined so far in a CREATE TABLE body. */
function createdColumns(tokens: EditorToken[]): string[] {
  const out: string[] = [];
  const open = tokens.findIndex((t) => t.type === 'LParen');
  if (open < 0) return out;
  let depth = 0;
  let itemStart = true;
  for (let i = open; i < tokens.length; i++) {
    const t = tokens[i];
    if (t.type === 'LParen' || t.type === 'Lt') {
      depth++;
      if (depth === 1) itemStart = true;
      continue;
    }
    if (t.type === 'RParen' || t.type === 'Gt') {
      depth--;
      if (depth === 0) break;
      continue;
    }
    if (depth === 1 && t.type === 'Comma') {
      itemStart = true;
      continue;
    }
    if (depth === 1 && itemStart) {
      itemStart = false;
      if (
        upper(t) !== 'PRIMARY' &&
        isName(t) &&
        tokens[i + 1] &&
        tokens[i + 1].type !== 'Comma' &&
        tokens[i + 1].type !== 'RParen'
      ) {
        out.push(nameOf(t));
      }
    }
  }
  return out;
}

interface OpenBracket {
  token: EditorToken;
  index: number;
}

/** The brackets open before the cursor, outermost first. */
function openBrackets(b: EditorToken[]): OpenBracket[] {
  const stack: OpenBracket[] = [];
  for (let i = 0; i < b.length; i++) {
    const t = b[i];
    if (t.type === 'LParen' || t.type === 'LBrace' || t.type === 'LBracket') stack.push({ token: t, index: i });
    else if (t.type === 'RParen' || t.type === 'RBrace' || t.type === 'RBracket') {
      const open = stack[stack.length - 1]?.token.type;
      if (
        (t.type === 'RParen' && open === 'LParen') ||
        (t.type === 'RBrace' && open === 'LBrace') ||
        (t.type === 'RBracket' && open === 'LBracket')
      )
        stack.pop();
    }
  }
  return stack;
}

/** Names listed directly in a list that opened at `openIndex`. */
function namesSince(b: EditorToken[], openIndex: number): string[] {
  const out: string[] = [];
  for (let i = openIndex + 1; i < b.length; i++) {
    if (isName(b[i]) && (b[i - 1].type === 'Comma' || i === openIndex + 1 || b[i - 1].type === 'LParen'))
      out.push(nameOf(b[i]));
  }
  return out;
}

/** `compaction = {` -> 'compaction'. */
function optionOfMap(b: EditorToken[], braceIndex: number): string | undefined {
  if (b[braceIndex - 1]?.type === 'Eq' && b[braceIndex - 2]) return nameOf(b[braceIndex - 2]).replace(/^'|'$/g, '');
  return undefined;
}
