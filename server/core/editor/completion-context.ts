// Where the cursor is, in CQL terms, for completion: which statement, which clause, which table,
// and what kind of name fits (table, keyspace, column, type, option, option class, value).
// Works on the token stream of the statement around the cursor, so it copes with the incomplete
// statements people have while typing (`SELECT | FROM ks.t`, `WHERE |`, `CREATE TABLE t (id uuid, x |`).
import type { ParseResult } from '../../../grammar/ast';
import { editorTokens, type EditorToken } from './tokens';
import { foldName } from '../util/names';

export type CompletionSite =
  | 'table' | 'keyspace' | 'column' | 'type' | 'tableOption' | 'keyspaceOption' | 'mapKey' | 'optionClass'
  | 'value' | 'newName' | 'statementStart' | 'none' | 'other';

type ColumnClause =
  | 'select' | 'where' | 'set' | 'insert' | 'orderBy' | 'groupBy' | 'delete' | 'primaryKey' | 'clusteringOrder'
  | 'index' | 'alter' | 'functionArg' | 'if';

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
   * Where the grammar's content assist starts reading (it sees from here to the cursor): the statement's
   * start, or the BEGIN BATCH still open around it, so that inside a batch only what a batch takes is offered.
   */
  grammarStart: number;
  /** Significant tokens of the statement before the cursor (prefix excluded). */
  before: EditorToken[];
}

const upper = (t: EditorToken | undefined): string => (t ? t.image.toUpperCase() : '');
const isName = (t: EditorToken | undefined): boolean => !!t && (t.category === 'identifier' || t.category === 'quotedName'
  || (t.category === 'keyword' && !!t.unreserved));
function nameOf(t: EditorToken): string {
  return foldName(t.image);
}

const CLAUSE_WORDS = new Set(['SELECT', 'FROM', 'WHERE', 'SET', 'ORDER', 'GROUP', 'LIMIT', 'USING', 'VALUES', 'WITH', 'IF',
  'INTO', 'PER', 'ALLOW', 'PRIMARY', 'DELETE', 'UPDATE', 'INSERT', 'ADD', 'DROP', 'RENAME', 'ALTER', 'ON', 'AS', 'JSON']);

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

export function analyzeCompletion(text: string, parse: ParseResult, offset: number): CompletionContext {
  const window = statementWindow(text, parse, offset);
  const slice = text.slice(window.start, window.end);
  const all = editorTokens(slice).map((t) => ({ ...t, start: t.start + window.start, end: t.end + window.start }));

  // Cut at the last `;` before the cursor and the first at/after it (BATCH bodies hold several).
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
  let tokens = all.slice(first, last);
  // Inside BEGIN BATCH ...: the statement is the one after the batch header.
  if (upper(tokens.find((t) => t.category !== 'comment')) === 'BEGIN') {
    const batchIdx = tokens.findIndex((t) => upper(t) === 'BATCH');
    if (batchIdx >= 0) {
      let j = batchIdx + 1;
      if (upper(tokens[j]) === 'USING') {
        while (j < tokens.length && !['INSERT', 'UPDATE', 'DELETE'].includes(upper(tokens[j]))) j++;
      }
      tokens = tokens.slice(j);
    }
  }
  const statementStart = tokens.find((t) => t.category !== 'comment')?.start ?? offset;

  const ctx: CompletionContext = {
    site: 'other', prefix: '', replaceStart: offset, replaceEnd: offset, statementType: '', createdColumns: [],
    listed: [], inString: false, statementStart, grammarStart: openBatchStart(text, parse, statementStart) ?? statementStart, before: [],
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
  let beforeTokens = tokens.filter((t) => t.end <= offset && t.category !== 'comment');
  if (at && (at.category === 'identifier' || at.category === 'keyword' || at.category === 'literalWord'
    || at.category === 'quotedName' || at.category === 'number')) {
    ctx.prefix = text.slice(at.start, offset);
    ctx.replaceStart = at.start;
    ctx.replaceEnd = at.end;
    beforeTokens = beforeTokens.filter((t) => t !== at);
  } else if (at?.category === 'string' && (offset < at.end || !/['$]$/.test(at.image) || at.image.length === 1)) {
    ctx.inString = true;
    ctx.prefix = text.slice(at.start + 1, offset);
    ctx.replaceStart = at.start;
    // An unclosed string runs to the next quote anywhere: replace only up to the cursor then.
    const rest = text.slice(offset, at.end);
    ctx.replaceEnd = /[\r\n]/.test(rest) || !/'$/.test(at.image) || at.image.length < 2 ? offset : at.end;
    beforeTokens = beforeTokens.filter((t) => t !== at);
  }
  ctx.before = beforeTokens;
  const after = tokens.filter((t) => t.start >= offset && t.category !== 'comment');
  const statementTokens = tokens.filter((t) => t.category !== 'comment');

  ctx.statementType = statementTypeOf(statementTokens);
  ctx.table = mainTable(statementTokens, ctx.statementType);
  if (ctx.table && ctx.table.keyspace === undefined) ctx.table.keyspace = ctx.currentKeyspace;
  if (ctx.statementType === 'CREATE TABLE') ctx.createdColumns = createdColumns(statementTokens);

  let b = beforeTokens;
  if (b.length === 0) {
    ctx.site = 'statementStart';
    return ctx;
  }
  // `ks.|`: remember the qualifier and decide the site as if it were not there.
  if (b[b.length - 1].type === 'Dot' && isName(b[b.length - 2])) {
    ctx.qualifier = nameOf(b[b.length - 2]);
    b = b.slice(0, -2);
  }
  ctx.site = decideSite(ctx, b, after);
  return ctx;
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
  if (tokens[i + 1]?.type === 'Dot' && isName(tokens[i + 2])) return { keyspace: nameOf(tokens[i]), name: nameOf(tokens[i + 2]) };
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

/** The table a statement is about, wherever the cursor is. */
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
      if (upper(t) !== 'PRIMARY' && isName(t) && tokens[i + 1] && tokens[i + 1].type !== 'Comma' && tokens[i + 1].type !== 'RParen') {
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

function decideSite(ctx: CompletionContext, b: EditorToken[], after: EditorToken[]): CompletionSite {
  const st = ctx.statementType;
  // Bracket structure before the cursor.
  const stack: OpenBracket[] = [];
  for (let i = 0; i < b.length; i++) {
    const t = b[i];
    if (t.type === 'LParen' || t.type === 'LBrace' || t.type === 'LBracket') stack.push({ token: t, index: i });
    else if (t.type === 'Lt' && isTypeOpener(b[i - 1])) stack.push({ token: t, index: i });
    else if (t.type === 'RParen' || t.type === 'RBrace' || t.type === 'RBracket' || t.type === 'Gt') {
      const top = stack[stack.length - 1];
      if (!top) continue;
      const matches = (t.type === 'RParen' && top.token.type === 'LParen') || (t.type === 'RBrace' && top.token.type === 'LBrace')
        || (t.type === 'RBracket' && top.token.type === 'LBracket') || (t.type === 'Gt' && top.token.type === 'Lt');
      if (matches) stack.pop();
    }
  }
  const prev = b[b.length - 1];
  const prev2 = b[b.length - 2];
  const P = upper(prev);
  const inner = stack[stack.length - 1];

  if (ctx.inString) {
    // `'class': '|` inside compaction/compression/replication maps.
    if (inner?.token.type === 'LBrace' && prev?.type === 'Colon' && prev2?.category === 'string' && /^'class'$/i.test(prev2.image)) {
      ctx.optionName = optionOfMap(b, inner.index);
      return 'optionClass';
    }
    if (inner?.token.type === 'LBrace' && (prev?.type === 'LBrace' || prev?.type === 'Comma')) {
      ctx.optionName = optionOfMap(b, inner.index);
      return 'mapKey';
    }
    return 'none';
  }

  // Table and keyspace names.
  if (P === 'FROM' || P === 'INTO' || (P === 'UPDATE' && b.length === 1) || (P === 'TRUNCATE' && b.length === 1)) return 'table';
  if ((P === 'TABLE' || P === 'COLUMNFAMILY') && /^(ALTER TABLE|DROP TABLE|TRUNCATE|DESCRIBE TABLE)$/.test(st)) return 'table';
  if (P === 'VIEW' && /^(ALTER|DROP) MATERIALIZED VIEW$/.test(st)) return 'table';
  if (P === 'EXISTS' && /^(ALTER TABLE|DROP TABLE|ALTER MATERIALIZED VIEW|DROP MATERIALIZED VIEW)$/.test(st)) return 'table';
  if (P === 'ON' && (st === 'CREATE INDEX' || st === 'CREATE TRIGGER')) return 'table';
  if (P === 'LIKE' && st === 'CREATE TABLE' && !inner) return 'table';
  if (P === 'USE' && b.length === 1) return 'keyspace';
  if (P === 'KEYSPACE' && /^(ALTER KEYSPACE|DROP KEYSPACE|DESCRIBE KEYSPACE)$/.test(st)) return 'keyspace';
  if (P === 'EXISTS' && /^(ALTER KEYSPACE|DROP KEYSPACE)$/.test(st)) return 'keyspace';
  if ((P === 'TABLE' || P === 'EXISTS' || P === 'VIEW' || P === 'TYPE' || P === 'KEYSPACE' || P === 'INDEX') && st.startsWith('CREATE')) return 'newName';
  if (P === 'TYPE' && /^(ALTER TYPE|DROP TYPE|DESCRIBE TYPE)$/.test(st)) return 'type';

  // Types: generic arguments, column definitions, ALTER TABLE ADD, CAST(x AS |), function signatures.
  if (inner?.token.type === 'Lt' && (prev?.type === 'Lt' || prev?.type === 'Comma')) return 'type';
  if (P === 'AS' && inner?.token.type === 'LParen' && upper(b[inner.index - 1]) === 'CAST') return 'type';
  if (P === 'RETURNS' || P === 'STYPE') return 'type';
  if (st === 'CREATE TABLE' || st === 'CREATE TYPE' || st === 'CREATE FUNCTION' || st === 'CREATE AGGREGATE') {
    if (inner?.token.type === 'LParen' && stack.length === 1 && isName(prev) && upper(prev) !== 'PRIMARY'
      && (prev2?.type === 'LParen' || prev2?.type === 'Comma')) return 'type';
    if (inner?.token.type === 'LParen' && stack.length === 1 && (prev?.type === 'LParen' || prev?.type === 'Comma')) return 'newName';
  }
  if (st === 'ALTER TABLE' && isName(prev) && (upper(prev2) === 'ADD' || (upper(prev2) === 'EXISTS' && upper(b[b.length - 5]) === 'ADD'))) return 'type';
  if (st === 'ALTER TABLE' && P === 'TYPE') return 'type';
  if (st === 'ALTER TYPE' && isName(prev) && upper(prev2) === 'ADD') return 'type';

  // Option maps: `compaction = {'class': ...}`.
  if (inner?.token.type === 'LBrace') {
    ctx.optionName = optionOfMap(b, inner.index);
    if (prev?.type === 'LBrace' || prev?.type === 'Comma') return 'mapKey';
    if (prev?.type === 'Colon' && prev2?.category === 'string' && /^'class'$/i.test(prev2.image)) return 'optionClass';
    return 'value';
  }

  // Bracketed column lists.
  if (inner?.token.type === 'LParen') {
    const opener = b[inner.index - 1];
    const O = upper(opener);
    const listStart = prev?.type === 'LParen' || prev?.type === 'Comma';
    if ((O === 'KEY' && upper(b[inner.index - 2]) === 'PRIMARY') || (opener?.type === 'LParen' && upper(b[inner.index - 2]) === 'KEY')) {
      if (listStart) {
        ctx.columnClause = 'primaryKey';
        ctx.listed = namesSince(b, inner.index);
        return 'column';
      }
      return 'other';
    }
    if (O === 'BY' && upper(b[inner.index - 2]) === 'ORDER' && upper(b[inner.index - 3]) === 'CLUSTERING') {
      if (listStart) {
        ctx.columnClause = 'clusteringOrder';
        return 'column';
      }
      return 'other';
    }
    if (st === 'INSERT' && stack.length === 1 && b.slice(0, inner.index).every((t) => upper(t) !== 'VALUES') && upper(b[inner.index - 1]) !== 'VALUES') {
      if (listStart) {
        ctx.columnClause = 'insert';
        ctx.listed = namesSince(b, inner.index);
        return 'column';
      }
      return 'other';
    }
    if (st === 'CREATE INDEX' && (['KEYS', 'VALUES', 'ENTRIES', 'FULL'].includes(O) || isName(opener)) && listStart) {
      ctx.columnClause = 'index';
      return 'column';
    }
    if (upper(b[inner.index - 1]) === 'VALUES') return 'value';
    // Function arguments and parenthesised expressions: columns in queries.
    if (listStart && (st === 'SELECT' || st === 'UPDATE' || st === 'DELETE' || st === 'CREATE MATERIALIZED VIEW')) {
      ctx.columnClause = 'functionArg';
      return 'column';
    }
  }

  // Clause-level positions (depth 0).
  const clause = lastClause(b);
  if (st === 'SELECT' || st === 'CREATE MATERIALIZED VIEW') {
    if (clause === 'SELECT' || clause === 'DISTINCT' || clause === 'JSON') {
      if (P === 'SELECT' || P === 'DISTINCT' || P === 'JSON' || prev?.type === 'Comma') {
        ctx.columnClause = 'select';
        ctx.listed = namesSince(b, b.findIndex((t) => upper(t) === 'SELECT'));
        return 'column';
      }
      return 'other';
    }
  }
  if ((clause === 'WHERE' || clause === 'IF') && (P === 'WHERE' || P === 'AND' || (P === 'IF' && st !== 'CREATE TABLE'))) {
    ctx.columnClause = clause === 'IF' ? 'if' : 'where';
    return 'column';
  }
  if (clause === 'WHERE' || clause === 'IF') {
    if (prev?.category === 'punctuation' && /^(Eq|NotEq|Lt|Gt|LtEq|GtEq|Plus|Minus|Star|Slash|Percent)$/.test(prev.type)) return 'value';
    if (P === 'IN' || P === 'CONTAINS' || P === 'LIKE' || P === 'BETWEEN') return 'value';
  }
  if (clause === 'SET' && st === 'UPDATE') {
    if (P === 'SET' || prev?.type === 'Comma') {
      ctx.columnClause = 'set';
      return 'column';
    }
    if (/^(Eq|PlusEq|MinusEq|Plus|Minus)$/.test(prev?.type ?? '')) return 'value';
  }
  if (clause === 'BY' && (upper(b[b.length - 2]) === 'ORDER' || upper(b[b.length - 2]) === 'GROUP' || prev?.type === 'Comma')) {
    const byIndex = lastIndexWhere(b, (t) => upper(t) === 'BY');
    const kind = upper(b[byIndex - 1]);
    if (P === 'BY' || prev?.type === 'Comma') {
      ctx.columnClause = kind === 'GROUP' ? 'groupBy' : 'orderBy';
      return 'column';
    }
  }
  if (st === 'DELETE' && (P === 'DELETE' || (prev?.type === 'Comma' && clause === 'DELETE'))) {
    ctx.columnClause = 'delete';
    return 'column';
  }
  if (st === 'ALTER TABLE' && (P === 'DROP' || P === 'RENAME' || (P === 'ALTER' && b.length > 2) || (P === 'AND' && clause === 'RENAME'))) {
    ctx.columnClause = 'alter';
    return 'column';
  }
  if (clause === 'WITH' && (P === 'WITH' || P === 'AND')) {
    return /KEYSPACE$/.test(st) ? 'keyspaceOption' : /^(CREATE|ALTER) (TABLE|MATERIALIZED VIEW)$/.test(st) ? 'tableOption' : 'other';
  }
  if (clause === 'VALUES' || (clause === 'USING' && /^(TTL|TIMESTAMP)$/.test(P))) return 'value';
  void after;
  return 'other';
}

function isTypeOpener(t: EditorToken | undefined): boolean {
  return /^(LIST|SET|MAP|FROZEN|TUPLE|VECTOR)$/.test(upper(t));
}

function lastIndexWhere(tokens: EditorToken[], fn: (t: EditorToken) => boolean): number {
  for (let i = tokens.length - 1; i >= 0; i--) if (fn(tokens[i])) return i;
  return -1;
}

/** The last clause keyword at bracket depth 0 before the cursor. */
function lastClause(b: EditorToken[]): string {
  let depth = 0;
  for (let i = b.length - 1; i >= 0; i--) {
    const t = b[i];
    if (t.type === 'RParen' || t.type === 'RBrace' || t.type === 'RBracket') depth++;
    else if (t.type === 'LParen' || t.type === 'LBrace' || t.type === 'LBracket') depth = Math.max(0, depth - 1);
    else if (depth === 0) {
      const w = upper(t);
      if (CLAUSE_WORDS.has(w) || w === 'DISTINCT' || w === 'BY') {
        if (w === 'IF' && (upper(b[i + 1]) === 'NOT' || upper(b[i + 1]) === 'EXISTS')) continue;
        if ((w === 'DISTINCT' || w === 'JSON') && upper(b[i - 1]) === 'SELECT') return 'SELECT';
        return w;
      }
    }
  }
  return '';
}

/** Names listed directly in a list that opened at `openIndex`. */
function namesSince(b: EditorToken[], openIndex: number): string[] {
  const out: string[] = [];
  for (let i = openIndex + 1; i < b.length; i++) {
    if (isName(b[i]) && (b[i - 1].type === 'Comma' || i === openIndex + 1 || b[i - 1].type === 'LParen')) out.push(nameOf(b[i]));
  }
  return out;
}

/** `compaction = {` -> 'compaction'. */
function optionOfMap(b: EditorToken[], braceIndex: number): string | undefined {
  if (b[braceIndex - 1]?.type === 'Eq' && b[braceIndex - 2]) return nameOf(b[braceIndex - 2]).replace(/^'|'$/g, '');
  return undefined;
}
