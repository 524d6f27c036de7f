// The CQL formatter. It re-lays out tokens; it never rewrites them (except keyword case), so the
// meaning cannot change, and it proves that per statement: the formatted statement is parsed again
// and compared with the original AST modulo ranges, or the statement is left exactly as written.
//
// Layout: one statement per line group; clauses on their own lines (SELECT / FROM / WHERE, with
// AND indented), one column per line in CREATE TABLE/TYPE with aligned types, batch bodies
// indented. Comments stay where they were relative to the tokens around them: a comment on its own
// line stays on its own line, a trailing comment stays at the end of its line. Statements with
// syntax errors, cqlsh commands and anything the parser did not account for are kept byte for byte.
import type { WorkBudget } from '../budget';
import type { Node, ParseResult, Statement } from '../../../grammar/ast';
import { parseCql } from '../../../grammar';
import { walk } from '../util/ast-walk';
import { editorTokens, type EditorToken } from '../editor/tokens';
import { sameStatement } from './ast-compare';

export type KeywordCase = 'upper' | 'lower' | 'preserve';

export interface FormatOptions {
  /** `cqlint.format.keywordCase`; default upper. */
  keywordCase?: KeywordCase;
  /** Spaces per indentation level; default 4. */
  indentSize?: number;
  /**
   * Work limit in characters of statement text formatted (server/core/budget.ts). Statements from the
   * one where it runs out are left exactly as they are; `budget.stoppedAt` then says where.
   */
  budget?: WorkBudget;
}

interface FormatEdit {
  start: number;
  end: number;
  newText: string;
}

interface Resolved {
  keywordCase: KeywordCase;
  indent: string;
  eol: string;
}

function resolve(options: FormatOptions, text: string): Resolved {
  const size = Number.isInteger(options.indentSize) && options.indentSize! > 0 && options.indentSize! <= 16 ? options.indentSize! : 4;
  const kc = options.keywordCase;
  const eol = /\r\n/.test(text) ? '\r\n' : '\n';
  return { keywordCase: kc === 'lower' || kc === 'preserve' ? kc : 'upper', indent: ' '.repeat(size), eol };
}

// ---------------------------------------------------------------------------------------------
// Units: the file as a sequence of statements, comments between them and untouchable text.

type Unit =
  | { kind: 'statement'; start: number; end: number; statement: Statement; tokens: EditorToken[] }
  | { kind: 'verbatim'; start: number; end: number }
  | { kind: 'comment'; start: number; end: number; token: EditorToken };

function hasErrorIn(parse: ParseResult, start: number, end: number): boolean {
  return parse.errors.some((e) => e.range.start < end && e.range.end >= start);
}

function isFormattable(statement: Statement, tokens: EditorToken[], parse: ParseResult): boolean {
  if (statement.kind === 'Invalid' || statement.kind === 'ShellCommand') return false;
  if (hasErrorIn(parse, statement.range.start, statement.range.end)) return false;
  if (tokens.some((t) => t.category === 'unknown' || t.type === 'UnterminatedString' || t.type === 'UnterminatedQuotedName')) return false;
  if (tokens.some((t) => t.category === 'comment' && t.type === 'BlockComment' && !t.image.endsWith('*/'))) return false;
  return true;
}

function buildUnits(text: string, parse: ParseResult, tokens: EditorToken[]): Unit[] {
  const units: Unit[] = [];
  let ti = 0;
  const statements = parse.statements;
  for (let si = 0; si <= statements.length; si++) {
    const statement = statements[si];
    const stStart = statement ? statement.range.start : Infinity;
    // Gap before the statement: comments become comment units; any other token makes the gap verbatim.
    const gap: EditorToken[] = [];
    while (ti < tokens.length && tokens[ti].start < stStart) gap.push(tokens[ti++]);
    if (gap.some((t) => t.category !== 'comment' || (t.type === 'BlockComment' && !t.image.endsWith('*/')))) {
      units.push({ kind: 'verbatim', start: gap[0].start, end: gap[gap.length - 1].end });
    } else {
      for (const t of gap) units.push({ kind: 'comment', start: t.start, end: t.end, token: t });
    }
    if (!statement) break;
    let end = statement.range.end;
    const own: EditorToken[] = [];
    while (ti < tokens.length && tokens[ti].start < end) own.push(tokens[ti++]);
    // Some parsers leave the `;` outside the statement's range: take it along.
    if (statement.terminated && own[own.length - 1]?.type !== 'Semicolon') {
      let j = ti;
      while (j < tokens.length && tokens[j].category === 'comment') j++;
      if (tokens[j]?.type === 'Semicolon' && j === ti) {
        own.push(tokens[ti++]);
        end = own[own.length - 1].end;
      }
    }
    if (own.length === 0) continue;
    const start = own[0].start;
    end = own[own.length - 1].end;
    if (isFormattable(statement, own, parse)) units.push({ kind: 'statement', start, end, statement, tokens: own });
    else units.push({ kind: 'verbatim', start, end });
  }
  void text;
  return units;
}

// ---------------------------------------------------------------------------------------------
// Facts from the AST that spacing and case need.

interface Facts {
  /** Token starts of names (never re-cased). */
  names: Set<number>;
  /** Token starts of literals (never re-cased). */
  literals: Set<number>;
  /** Offsets covered by types (keywords inside are lower-cased). */
  typeRanges: [number, number][];
  /** `(` offsets of function calls (no space before). */
  callParens: Set<number>;
  /** `[` offsets of element access (no space before). */
  indexBrackets: Set<number>;
  /** `:` offsets of named bind markers (no space after). */
  bindColons: Set<number>;
}

function collectFacts(statement: Statement, tokens: EditorToken[]): Facts {
  const facts: Facts = { names: new Set(), literals: new Set(), typeRanges: [], callParens: new Set(), indexBrackets: new Set(), bindColons: new Set() };
  const tokenAfter = (offset: number): EditorToken | undefined => {
    for (const t of tokens) if (t.start >= offset && t.category !== 'comment') return t;
    return undefined;
  };
  walk(statement, (node: Node) => {
    const n = node as Node & Record<string, unknown>;
    switch (node.kind) {
      case 'Identifier':
        facts.names.add(node.range.start);
        break;
      case 'Literal':
        facts.literals.add(node.range.start);
        break;
      case 'NativeType':
      case 'CollectionType':
      case 'FrozenType':
      case 'TupleType':
      case 'VectorType':
        facts.typeRanges.push([node.range.start, node.range.end]);
        break;
      case 'FunctionCall': {
        const name = n.name as Node;
        const paren = tokenAfter(name.range.end);
        if (paren?.type === 'LParen') facts.callParens.add(paren.start);
        break;
      }
      case 'CastExpression':
      case 'IndexTarget': {
        if (node.kind === 'IndexTarget' && n.indexKind === 'simple') break;
        const first = tokenAfter(node.range.start);
        const paren = first ? tokenAfter(first.end) : undefined;
        if (paren?.type === 'LParen') facts.callParens.add(paren.start);
        break;
      }
      case 'ElementAccess':
      case 'SliceAccess': {
        const target = n.target as Node;
        const bracket = tokenAfter(target.range.end);
        if (bracket?.type === 'LBracket') facts.indexBrackets.add(bracket.start);
        break;
      }
      case 'BindMarker':
        if (n.name) facts.bindColons.add(node.range.start);
        break;
      default:
        break;
    }
  });
  return facts;
}

// ---------------------------------------------------------------------------------------------
// Layout: where lines break, how far they are indented, and where types align.

interface Layout {
  /** Token index -> indentation level of the new line that starts with it. */
  breaks: Map<number, number>;
  /** Token index -> column (from the line start) the token is padded to. */
  pads: Map<number, number>;
}

const upper = (t: EditorToken | undefined): string => (t ? t.image.toUpperCase() : '');

function layoutStatement(statement: Statement, tokens: EditorToken[], facts: Facts, base: number, layout: Layout, indentWidth: number): void {
  const first = tokens.findIndex((t) => t.start >= statement.range.start && t.category !== 'comment');
  const last = lastIndex(tokens, (t) => t.end <= statement.range.end + 1 && t.category !== 'comment');
  if (first < 0 || last < first) return;
  const isKeywordAt = (i: number): boolean => tokens[i].category === 'keyword' && !facts.names.has(tokens[i].start);
  /** Indices of tokens at bracket depth 0 (within this statement). */
  const depth0: number[] = [];
  let depth = 0;
  for (let i = first; i <= last; i++) {
    const t = tokens[i];
    if (t.category === 'comment') continue;
    if (t.type === 'RParen' || t.type === 'RBrace' || t.type === 'RBracket') depth = Math.max(0, depth - 1);
    if (depth === 0) depth0.push(i);
    if (t.type === 'LParen' || t.type === 'LBrace' || t.type === 'LBracket') depth++;
  }
  const breakAt = (i: number, level: number): void => {
    if (i > first) layout.breaks.set(i, base + level);
  };
  /** Breaks before clause keywords at depth 0, and before AND of WHERE/IF conditions (and WITH options). */
  const clauses = (words: Record<string, number>, andLevels: Record<string, number>): void => {
    let clause = '';
    let betweenPending = false;
    for (const i of depth0) {
      if (!isKeywordAt(i)) continue;
      const w = upper(tokens[i]);
      if (w === 'BETWEEN') betweenPending = true;
      if (w === 'AND') {
        if (betweenPending) {
          betweenPending = false;
          continue;
        }
        const level = andLevels[clause];
        if (level !== undefined) breakAt(i, level);
        continue;
      }
      // `IF NOT EXISTS` / `IF EXISTS` right after the name is not a condition clause... unless it ends the statement.
      if (w in words) {
        if (w === 'IF' && statement.kind === 'Insert') {
          breakAt(i, words[w]);
          clause = w;
          continue;
        }
        if ((w === 'GROUP' || w === 'ORDER') && upper(tokens[nextSig(tokens, i)]) !== 'BY') continue;
        if (w === 'PER' && upper(tokens[nextSig(tokens, i)]) !== 'PARTITION') continue;
        if (w === 'LIMIT' && upper(tokens[prevSig(tokens, i)]) === 'PARTITION') continue;
        breakAt(i, words[w]);
        clause = w;
      }
    }
  };

  switch (statement.kind) {
    case 'Select':
      clauses({ FROM: 0, WHERE: 0, GROUP: 0, ORDER: 0, PER: 0, LIMIT: 0, ALLOW: 0 }, { WHERE: 1 });
      break;
    case 'Insert':
      clauses({ VALUES: 0, IF: 0, USING: 0 }, {});
      break;
    case 'Update': {
      clauses({ USING: 0, SET: 0, WHERE: 0, IF: 0 }, { WHERE: 1, IF: 1 });
      break;
    }
    case 'Delete':
      clauses({ USING: 0, WHERE: 0, IF: 0 }, { WHERE: 1, IF: 1 });
      break;
    case 'CreateMaterializedView':
      clauses({ SELECT: 1, FROM: 1, WHERE: 1, PRIMARY: 1, WITH: 1 }, { WHERE: 2, WITH: 2 });
      break;
    case 'CreateTable':
      bodyLayout(tokens, facts, statement.bodyRange?.start, base, layout, indentWidth,
        statement.columns.map((c) => c.name.range.start));
      // `) WITH ...`: WITH stays on the closing line; ANDs of the options break.
      withAnds(tokens, depth0, isKeywordAt, base + 1, layout);
      break;
    case 'CreateType': {
      const open = tokens.findIndex((t, i) => i >= first && t.type === 'LParen');
      bodyLayout(tokens, facts, open >= 0 ? tokens[open].start : undefined, base, layout, indentWidth,
        statement.fields.map((f) => f.name.range.start));
      break;
    }
    case 'CreateKeyspace':
    case 'AlterKeyspace':
    case 'AlterTable':
    case 'AlterMaterializedView':
    case 'CreateIndex':
      withAnds(tokens, depth0, isKeywordAt, base + 1, layout);
      break;
    case 'CreateFunction':
      clauses({ CALLED: 1, RETURNS: 1, LANGUAGE: 1, AS: 1 }, {});
      break;
    case 'CreateAggregate':
      clauses({ SFUNC: 1, STYPE: 1, FINALFUNC: 1, INITCOND: 1 }, {});
      break;
    case 'Batch': {
      for (const inner of statement.statements) {
        const i = tokens.findIndex((t) => t.start === inner.range.start);
        if (i >= 0) breakAt(i, 1);
        layoutStatement(inner, tokens, facts, base + 1, layout, indentWidth);
      }
      const apply = lastIndex(tokens, (t) => upper(t) === 'APPLY' && t.start < statement.range.end);
      if (apply > first) breakAt(apply, 0);
      break;
    }
    default:
      break;
  }
}

/** Breaks before each AND that follows a depth-0 WITH (table/keyspace/index options). */
function withAnds(tokens: EditorToken[], depth0: number[], isKeywordAt: (i: number) => boolean, level: number, layout: Layout): void {
  let inWith = false;
  for (const i of depth0) {
    if (!isKeywordAt(i)) continue;
    const w = upper(tokens[i]);
    if (w === 'WITH') inWith = true;
    else if (w === 'AND' && inWith) layout.breaks.set(i, level);
  }
}

/** `( col type, ..., PRIMARY KEY (...) )`: one element per line, types aligned, `)` on its own line. */
function bodyLayout(tokens: EditorToken[], facts: Facts, openOffset: number | undefined, base: number, layout: Layout,
  indentWidth: number, nameOffsets: number[]): void {
  if (openOffset === undefined) return;
  const open = tokens.findIndex((t) => t.start === openOffset && t.type === 'LParen');
  if (open < 0) return;
  let depth = 0;
  let close = -1;
  const starts: number[] = [];
  let expectStart = true;
  for (let i = open; i < tokens.length; i++) {
    const t = tokens[i];
    if (t.category === 'comment') continue;
    if (t.type === 'LParen' || t.type === 'LBrace' || t.type === 'LBracket' || (t.type === 'Lt' && depth >= 1)) {
      depth++;
      if (depth === 1) continue;
    } else if (t.type === 'RParen' || t.type === 'RBrace' || t.type === 'RBracket' || (t.type === 'Gt' && depth > 1)) {
      depth--;
      if (depth === 0) {
        close = i;
        break;
      }
    }
    if (depth === 1) {
      if (t.type === 'Comma') {
        expectStart = true;
        continue;
      }
      if (expectStart) {
        starts.push(i);
        expectStart = false;
      }
    }
  }
  if (close < 0 || starts.length === 0) return;
  for (const i of starts) layout.breaks.set(i, base + 1);
  layout.breaks.set(close, base);
  // Align the types of column definitions.
  const nameIdx = starts.filter((i) => nameOffsets.includes(tokens[i].start));
  const width = Math.max(...nameIdx.map((i) => tokens[i].image.length));
  for (const i of nameIdx) {
    const typeIdx = nextSig(tokens, i);
    if (typeIdx > i && typeIdx === i + 1) layout.pads.set(typeIdx, (base + 1) * indentWidth + width + 1);
  }
  void facts;
}

function nextSig(tokens: EditorToken[], i: number): number {
  for (let j = i + 1; j < tokens.length; j++) if (tokens[j].category !== 'comment') return j;
  return -1;
}

function prevSig(tokens: EditorToken[], i: number): number {
  for (let j = i - 1; j >= 0; j--) if (tokens[j].category !== 'comment') return j;
  return -1;
}

function lastIndex<T>(list: readonly T[], fn: (t: T) => boolean): number {
  for (let i = list.length - 1; i >= 0; i--) if (fn(list[i])) return i;
  return -1;
}

// ---------------------------------------------------------------------------------------------
// Printing one statement

const NO_SPACE_BEFORE = new Set(['Comma', 'Semicolon', 'RParen', 'RBracket', 'RBrace', 'Dot', 'Range']);
const NO_SPACE_AFTER = new Set(['LParen', 'LBracket', 'LBrace', 'Dot', 'Range']);
const VALUE_END = new Set(['RParen', 'RBracket', 'RBrace', 'QMark']);

function isTypeOpener(t: EditorToken | undefined): boolean {
  return !!t && t.category === 'keyword' && /^(LIST|SET|MAP|FROZEN|TUPLE|VECTOR)$/i.test(t.image);
}

function printStatement(text: string, unit: Extract<Unit, { kind: 'statement' }>, opts: Resolved): string {
  const tokens = unit.tokens;
  const facts = collectFacts(unit.statement, tokens);
  const layout: Layout = { breaks: new Map(), pads: new Map() };
  layoutStatement(unit.statement, tokens, facts, 0, layout, opts.indent.length);

  const inType = (offset: number): boolean => facts.typeRanges.some(([s, e]) => s <= offset && offset < e);
  const casing = (t: EditorToken): string => {
    if (opts.keywordCase === 'preserve' || t.category !== 'keyword') return t.image;
    if (facts.names.has(t.start) || facts.literals.has(t.start)) return t.image;
    if (inType(t.start)) return t.image.toLowerCase();
    return opts.keywordCase === 'upper' ? t.image.toUpperCase() : t.image.toLowerCase();
  };

  const lines: string[] = [];
  let line = '';
  /** Level of the last explicit break; continuation lines go one deeper. */
  let clauseLevel = 0;
  const angleStack: boolean[] = [];
  let forceNewline = false;
  let prev: EditorToken | undefined;
  let unaryMinus = false;

  const newline = (lvl: number): void => {
    lines.push(line);
    line = opts.indent.repeat(lvl);
  };

  const spaceBefore = (p: EditorToken, t: EditorToken, typeAngle: boolean): string => {
    if (NO_SPACE_BEFORE.has(t.type)) return '';
    if (NO_SPACE_AFTER.has(p.type)) return '';
    if (t.type === 'Colon') return facts.bindColons.has(t.start) ? ' ' : '';
    if (p.type === 'Colon') return facts.bindColons.has(p.start) ? '' : ' ';
    if (t.type === 'LParen') return facts.callParens.has(t.start) ? '' : ' ';
    if (t.type === 'LBracket') return facts.indexBrackets.has(t.start) ? '' : ' ';
    if (typeAngle) return '';
    if (p.type === 'Lt' && angleStack.length > 0 && prevWasTypeOpen) return '';
    if (p.type === 'Minus' && unaryMinus) return '';
    return ' ';
  };
  let prevWasTypeOpen = false;

  /** A token that stays on the line of the block comment written right before it. */
  let keepOnLine = -1;
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    if (t.category === 'comment') {
      const next = nextSig(tokens, i);
      if (commentOnOwnLine(text, tokens, i)) {
        newline(next >= 0 && layout.breaks.has(next) ? layout.breaks.get(next)! : clauseLevel + 1);
        if (next >= 0 && layout.breaks.has(next)) clauseLevel = layout.breaks.get(next)!;
        // `/* note */ col type`: the token written after the comment stays after it.
        if (!t.lineComment && next === i + 1 && !/[\r\n]/.test(text.slice(t.end, tokens[next].start))) keepOnLine = next;
      } else if (line.trim() !== '') {
        line += ' ';
      }
      line += t.image;
      if (t.lineComment) forceNewline = true;
      continue;
    }
    const typeAngleOpen = t.type === 'Lt' && isTypeOpener(prev);
    const typeAngleClose = t.type === 'Gt' && angleStack.length > 0;
    if (keepOnLine === i) {
      line += ' ';
    } else if (layout.breaks.has(i)) {
      clauseLevel = layout.breaks.get(i)!;
      newline(clauseLevel);
    } else if (forceNewline) {
      newline(clauseLevel + 1);
    } else if (prev) {
      line += spaceBefore(prev, t, typeAngleOpen || typeAngleClose);
    }
    forceNewline = false;
    const pad = layout.pads.get(i);
    if (pad !== undefined && !/[\r\n]/.test(line)) {
      const trimmed = line.replace(/ $/, '');
      if (trimmed.length < pad) line = trimmed + ' '.repeat(pad - trimmed.length);
    }
    line += casing(t);
    if (typeAngleOpen) angleStack.push(true);
    else if (typeAngleClose) angleStack.pop();
    prevWasTypeOpen = typeAngleOpen;
    unaryMinus = t.type === 'Minus' && (!prev || !(prev.category === 'identifier' || prev.category === 'quotedName' || prev.category === 'number'
      || prev.category === 'string' || prev.category === 'literalWord' || VALUE_END.has(prev.type)
      || (prev.category === 'keyword' && facts.names.has(prev.start))));
    prev = t;
  }
  lines.push(line);
  return lines.join(opts.eol);
}

/** True when only whitespace separates the comment from the previous line break (or the text start). */
function commentOnOwnLine(text: string, tokens: EditorToken[], i: number): boolean {
  const t = tokens[i];
  if (!t) return false;
  const prevEnd = i > 0 ? tokens[i - 1].end : 0;
  const between = text.slice(prevEnd, t.start);
  return i === 0 || /[\r\n]/.test(between);
}

// ---------------------------------------------------------------------------------------------
// Whole documents and ranges

interface FormattedUnit {
  unit: Unit;
  text: string;
}

/**
 * The document's units, each with its formatted text, up to where the budget ran out (the rest is left
 * out: the caller keeps that text as it is). `wanted` picks the units to format; the others keep their text.
 */
function formatUnits(text: string, parse: ParseResult, options: FormatOptions,
  wanted: (span: { start: number; end: number }) => boolean = () => true, opts: Resolved = resolve(options, text)): FormattedUnit[] {
  // The budget is spent up front, statement by statement: what lies past the cut is not even lexed.
  let statements = parse.statements;
  let lexed = text;
  if (options.budget) {
    const affordable: Statement[] = [];
    for (const statement of parse.statements) {
      const span = statement.range;
      if (wanted(span) && !options.budget.spend(span.end - span.start, span.start)) break;
      affordable.push(statement);
    }
    if (options.budget.stopped) {
      statements = affordable;
      lexed = text.slice(0, options.budget.stoppedAt);
    }
  }
  const units = buildUnits(text, statements === parse.statements ? parse : { ...parse, statements }, editorTokens(lexed));
  return units.map((unit) => ({
    unit,
    text: unit.kind === 'statement' && wanted(unit) ? formatUnit(text, unit, opts) : text.slice(unit.start, unit.end),
  }));
}

function formatUnit(text: string, unit: Unit, opts: Resolved): string {
  const original = text.slice(unit.start, unit.end);
  if (unit.kind !== 'statement') return original;
  let printed: string;
  try {
    printed = printStatement(text, unit, opts);
  } catch {
    return original;
  }
  if (printed === original) return original;
  // The proof: same statement modulo ranges, no syntax error, same comments.
  const check = parseCql(printed);
  if (check.errors.length || check.statements.length !== 1 || !sameStatement(check.statements[0], unit.statement)) return original;
  const before = unit.tokens.filter((t) => t.category === 'comment').map((t) => t.image);
  const after = check.comments.map((c) => c.text);
  if (before.length !== after.length || before.some((c, i) => c !== after[i])) return original;
  return printed;
}

/** Blank lines kept between units: none, or one when the original had at least one. */
function separator(text: string, previous: PlacedUnit, next: PlacedUnit, eol: string): string {
  const between = text.slice(previous.end, next.start);
  // Text we must not touch keeps the whitespace around it too.
  if (previous.kind === 'verbatim' || next.kind === 'verbatim') return between;
  const newlines = (between.match(/\r\n|\r|\n/g) ?? []).length;
  if (newlines === 0) {
    // A trailing comment stays on its statement's line; statements each start a line.
    if (next.kind === 'comment' || (previous.kind === 'comment' && previous.token?.type === 'BlockComment')) return ' ';
    return eol;
  }
  return newlines >= 2 ? eol + eol : eol;
}

/** A span of the original text and the text formatting puts in its place. */
export interface FormattedPiece {
  start: number;
  end: number;
  text: string;
}

/**
 * Texts longer than this are formatted slice by slice (see statementSlices): memory then follows the
 * slice, not the file (a 16 MB file parsed whole takes gigabytes).
 */
export const SLICE_CHARS = 64 * 1024;

/** A unit's place in the whole text, for the separator between units of two slices. */
type PlacedUnit = Pick<Unit, 'kind' | 'start' | 'end'> & { token?: EditorToken };

function placed(unit: Unit, shift: number): PlacedUnit {
  return { kind: unit.kind, start: unit.start + shift, end: unit.end + shift, ...(unit.kind === 'comment' ? { token: unit.token } : {}) };
}

/**
 * Formats a whole document as pieces, in order: together they cover the text from start to end, each a
 * span of the original and what replaces it (the same text where nothing changes). Joined they are
 * formatText's result; a caller that only compares (--check) or diffs never needs the whole new text.
 * A long text without `parse` is parsed in slices of whole statements of about `sliceChars`.
 */
export function* formatPieces(text: string, options: FormatOptions = {}, parse?: ParseResult, sliceChars = SLICE_CHARS): Generator<FormattedPiece> {
  const opts = resolve(options, text);
  const slices = parse || options.budget || text.length <= sliceChars ? [{ start: 0, end: text.length }] : statementSlices(text, sliceChars);
  let previous: PlacedUnit | undefined;
  for (const slice of slices) {
    const sliceText = slice.start === 0 && slice.end === text.length ? text : text.slice(slice.start, slice.end);
    for (const formatted of formatUnits(sliceText, parse ?? parseCql(sliceText), options, undefined, opts)) {
      const unit = placed(formatted.unit, slice.start);
      if (previous) {
        yield { start: previous.end, end: unit.start, text: separator(text, previous, unit, opts.eol) };
      } else {
        // Leading text before the first unit is only whitespace; a verbatim first unit keeps its indentation.
        const lead = text.slice(0, unit.start);
        yield { start: 0, end: unit.start, text: unit.kind === 'verbatim' ? lead.slice(Math.max(lead.lastIndexOf('\n'), lead.lastIndexOf('\r')) + 1) : '' };
      }
      yield { start: unit.start, end: unit.end, text: formatted.text };
      previous = unit;
    }
  }
  if (!previous) {
    yield { start: 0, end: text.length, text };
    return;
  }
  // Out of budget, everything after the last formatted unit stays exactly as it was; else the file ends
  // with one line break (a verbatim tail keeps what followed it).
  const tail = text.slice(previous.end);
  yield { start: previous.end, end: text.length, text: options.budget?.stopped || previous.kind === 'verbatim' ? tail : opts.eol };
}

/**
 * Cuts a long text into slices of whole statements of about `sliceChars`: each cut follows a `;` that
 * ends its line, outside strings, quoted names, comments and batches, so that each slice parses as the
 * whole text would there.
 */
export function statementSlices(text: string, sliceChars: number): { start: number; end: number }[] {
  const slices: { start: number; end: number }[] = [];
  let sliceStart = 0;
  let inBatch = false;
  /** The last words seen outside strings and comments (BEGIN [UNLOGGED|COUNTER|LOGGED] BATCH, APPLY BATCH). */
  let lastWord = '';
  let wordBefore = '';
  let i = 0;
  const n = text.length;
  while (i < n) {
    const c = text[i];
    const next = text[i + 1];
    if (c === "'" || c === '"') {
      // Quoted: '' and "" escape the quote. An unterminated one runs to the end, as the lexer reads it.
      i++;
      while (i < n && !(text[i] === c && text[i + 1] !== c)) i += text[i] === c ? 2 : 1;
      i++;
    } else if (c === '$' && next === '$') {
      const close = text.indexOf('$$', i + 2);
      i = close < 0 ? n : close + 2;
    } else if ((c === '-' && next === '-') || (c === '/' && next === '/')) {
      while (i < n && text[i] !== '\n' && text[i] !== '\r') i++;
    } else if (c === '/' && next === '*') {
      const close = text.indexOf('*/', i + 2);
      i = close < 0 ? n : close + 2;
    } else if (/[A-Za-z_]/.test(c)) {
      let j = i + 1;
      while (j < n && /[A-Za-z0-9_]/.test(text[j])) j++;
      const word = text.slice(i, j).toUpperCase();
      if (word === 'BATCH') {
        if (lastWord === 'BEGIN' || wordBefore === 'BEGIN') inBatch = true;
        else if (lastWord === 'APPLY') inBatch = false;
      }
      wordBefore = lastWord;
      lastWord = word;
      i = j;
    } else if (c === ';') {
      i++;
      wordBefore = lastWord = '';
      if (inBatch || i - sliceStart < sliceChars) continue;
      let j = i;
      while (j < n && (text[j] === ' ' || text[j] === '\t')) j++;
      if (text[j] === '\r' && text[j + 1] === '\n') j += 2;
      else if (text[j] === '\n' || text[j] === '\r') j++;
      else continue;
      slices.push({ start: sliceStart, end: j });
      sliceStart = i = j;
    } else i++;
  }
  if (sliceStart < n || !slices.length) slices.push({ start: sliceStart, end: n });
  return slices;
}

/** Formats a whole document; returns the new text (equal to the input when there is nothing to change). */
export function formatText(text: string, options: FormatOptions = {}, parse?: ParseResult): string {
  let out = '';
  for (const piece of formatPieces(text, options, parse)) out += piece.text;
  return out;
}

/**
 * Formats the statements that overlap [start, end): one edit per changed statement, each replacing
 * exactly that statement's text.
 */
export function formatRange(text: string, start: number, end: number, options: FormatOptions = {},
  parse: ParseResult = parseCql(text)): FormatEdit[] {
  const edits: FormatEdit[] = [];
  // Only the statements in the range are formatted (the others cost nothing).
  const inRange = (span: { start: number; end: number }): boolean => !(span.end < start || span.start > end || (span.start === end && end > start));
  for (const { unit, text: newText } of formatUnits(text, parse, options, inRange)) {
    if (unit.kind !== 'statement' || !inRange(unit)) continue;
    if (newText !== text.slice(unit.start, unit.end)) edits.push({ start: unit.start, end: unit.end, newText });
  }
  return edits;
}

/** A single whole-document edit, or none when the text is already formatted. */
export function formatDocumentEdits(text: string, options: FormatOptions = {}, parse?: ParseResult): FormatEdit[] {
  const formatted = formatText(text, options, parse);
  return formatted === text ? [] : [{ start: 0, end: text.length, newText: formatted }];
}

/** True when formatting would change nothing. */
export function isFormatted(text: string, options: FormatOptions = {}): boolean {
  return formatText(text, options) === text;
}
