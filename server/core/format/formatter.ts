// The CQL formatter. It re-lays out tokens; it never rewrites them (except keyword case), so the
// meaning cannot change, and it proves that per statement: the formatted statement is parsed again
// and compared with the original AST modulo ranges, or the statement is left exactly as written.
//
// Layout: one statement per line group; clauses on their own lines (SELECT / FROM / WHERE, with
// AND indented), one column per line in CREATE TABLE/TYPE with aligned types, batch bodies
// indented. Comments stay where they were relative to the tokens around them: a comment on its own
// line stays on its own line, a trailing comment stays at the end of its line. Statements with
// syntax errors, cqlsh commands and anything the parser did not account for are kept byte for byte.
import type { WorkBudget } from '../util/budget';
import type { ParseResult, Statement } from '../../../grammar/ast';
import { parseCql } from '../../../grammar';
import { editorTokens, type EditorToken } from '../editor/tokens';
import { sameStatement } from './ast-compare';
import { collectFacts, layoutStatement, nextSig, type Layout } from './layout';

export type KeywordCase = 'upper' | 'lower' | 'preserve';

export interface FormatOptions {
  /** `cqlint.format.keywordCase`; default upper. */
  keywordCase?: KeywordCase;
  /** Spaces per indentation level; default 4. */
  indentSize?: number;
  /**
   * Work limit in characters of statement text formatted (server/core/util/budget.ts). Statements from the
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
  const size =
    Number.isInteger(options.indentSize) && options.indentSize! > 0 && options.indentSize! <= 16
      ? options.indentSize!
      : 4;
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
  if (
    tokens.some(
      (t) => t.category === 'unknown' || t.type === 'UnterminatedString' || t.type === 'UnterminatedQuotedName',
    )
  )
    return false;
  if (tokens.some((t) => t.category === 'comment' && t.type === 'BlockComment' && !t.image.endsWith('*/')))
    return false;
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
        if (!t.lineComment && next === i + 1 && !/[\r\n]/.test(text.slice(t.end, tokens[next].start)))
          keepOnLine = next;
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
    unaryMinus =
      t.type === 'Minus' &&
      (!prev ||
        !(
          prev.category === 'identifier' ||
          prev.category === 'quotedName' ||
          prev.category === 'number' ||
          prev.category === 'string' ||
          prev.category === 'literalWord' ||
          VALUE_END.has(prev.type) ||
          (prev.category === 'keyword' && facts.names.has(prev.start))
        ));
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
function formatUnits(
  text: string,
  parse: ParseResult,
  options: FormatOptions,
  wanted: (span: { start: number; end: number }) => boolean = () => true,
  opts: Resolved = resolve(options, text),
): FormattedUnit[] {
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
  const units = buildUnits(
    text,
    statements === parse.statements ? parse : { ...parse, statements },
    editorTokens(lexed),
  );
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
  if (check.errors.length || check.statements.length !== 1 || !sameStatement(check.statements[0], unit.statement))
    return original;
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
  return {
    kind: unit.kind,
    start: unit.start + shift,
    end: unit.end + shift,
    ...(unit.kind === 'comment' ? { token: unit.token } : {}),
  };
}

/**
 * Formats a whole document as pieces, in order: together they cover the text from start to end, each a
 * span of the original and what replaces it (the same text where nothing changes). Joined they are
 * formatText's result; a caller that only compares (--check) or diffs never needs the whole new text.
 * A long text without `parse` is parsed in slices of whole statements of about `sliceChars`.
 */
export function* formatPieces(
  text: string,
  options: FormatOptions = {},
  parse?: ParseResult,
  sliceChars = SLICE_CHARS,
): Generator<FormattedPiece> {
  const opts = resolve(options, text);
  const slices =
    parse || options.budget || text.length <= sliceChars
      ? [{ start: 0, end: text.length }]
      : statementSlices(text, sliceChars);
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
        yield {
          start: 0,
          end: unit.start,
          text:
            unit.kind === 'verbatim' ? lead.slice(Math.max(lead.lastIndexOf('\n'), lead.lastIndexOf('\r')) + 1) : '',
        };
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
  yield {
    start: previous.end,
    end: text.length,
    text: options.budget?.stopped || previous.kind === 'verbatim' ? tail : opts.eol,
  };
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
export function formatRange(
  text: string,
  start: number,
  end: number,
  options: FormatOptions = {},
  parse: ParseResult = parseCql(text),
): FormatEdit[] {
  const edits: FormatEdit[] = [];
  // Only the statements in the range are formatted (the others cost nothing).
  const inRange = (span: { start: number; end: number }): boolean =>
    !(span.end < start || span.start > end || (span.start === end && end > start));
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
