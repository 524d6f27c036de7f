// CQL edits to host edits. An edit inside one literal is written there in that literal's syntax; an insertion at a
// statement's end goes inside its last literal; an edit over several literals puts its text in the first and
// deletes the rest of what it covers (never the code between them); comment lines inserted at a statement's start
// become host comments above each call site. Anything the map cannot place (a hole, cqlint's own `;`) refuses the
// whole set, with a reason a user can read.
import type { TextEdit } from '../util/text-edit';
import { type Segment, type StatementLayout, lastAtOrBefore } from './segments';
import type { HostEditResult } from './types';

export interface EditContext {
  hostText: string;
  cqlText: string;
  segments: readonly Segment[];
  layouts: readonly StatementLayout[];
  commentPrefix: string;
}

class Refusal extends Error {}

/** Comment lines as fixes insert them above a statement (`-- bind shard = ...`), each ended by a line break. */
function commentLines(text: string): string[] | undefined {
  if (!text.endsWith('\n')) return undefined;
  const lines = text
    .slice(0, -1)
    .split('\n')
    .map((l) => l.replace(/\r$/, ''));
  if (lines.length === 0 || !lines.every((l) => /^[ \t]*--/.test(l))) return undefined;
  return lines.map((l) => l.replace(/^[ \t]*--[ \t]?/, ''));
}

/** The statement whose region (its text and what cqlint adds after it) holds [start, end]. */
function statementOf(context: EditContext, start: number, end: number): number {
  const { layouts } = context;
  const lo = lastAtOrBefore(layouts, start, (l) => l.textStart);
  const layout = layouts[lo];
  if (lo < 0 || !layout || start < layout.textStart || end > layout.regionEnd) {
    throw new Refusal(
      'the edit reaches outside the statements found in the code (it would add or remove a whole statement)',
    );
  }
  return lo;
}

/** The segments of one statement's text. */
function segmentsOf(context: EditContext, statement: number): Segment[] {
  return context.segments.filter((s) => s.statement === statement && s.kind !== 'synth');
}

function insideAtomic(segment: Segment & { kind: 'text' }, offset: number): boolean {
  const i = offset - segment.cqlStart;
  return segment.part.atomic.some(([a, b]) => i > a && i < b);
}

function encodeFor(
  context: EditContext,
  statement: number,
  segment: Segment & { kind: 'text' },
  text: string,
  at: number,
): string {
  const parameters = context.layouts[statement]!.encodeParameters;
  const encoded = segment.part.literal.encode(parameters ? parameters(text) : text, at);
  if (typeof encoded !== 'string') throw new Refusal(encoded.refused);
  return encoded;
}

/** Host edits for one CQL insertion at `offset` of `statement`. */
function insertion(context: EditContext, statement: number, offset: number, text: string): TextEdit[] {
  const layout = context.layouts[statement]!;
  if (offset > layout.textEnd) throw new Refusal('the edit inserts after the end of a statement found in the code');
  const segments = segmentsOf(context, statement);
  const inside = segments.find((s) => s.cqlStart < offset && offset < s.cqlEnd);
  if (inside) {
    if (inside.kind !== 'text')
      throw new Refusal('the edit falls inside a part of the statement the code computes (a variable, a call)');
    if (insideAtomic(inside, offset)) throw new Refusal('the edit falls inside a parameter of the statement');
    const at = inside.part.starts[offset - inside.cqlStart]!;
    return [{ start: at, end: at, newText: encodeFor(context, statement, inside, text, at) }];
  }
  const before = segments.find((s) => s.cqlEnd === offset && s.cqlEnd > s.cqlStart);
  const after = segments.find((s) => s.cqlStart === offset && s.cqlEnd > s.cqlStart);
  if (before?.kind === 'text') {
    const at = before.part.ends[before.part.ends.length - 1]!;
    return [{ start: at, end: at, newText: encodeFor(context, statement, before, text, at) }];
  }
  if (after?.kind === 'text') {
    const at = after.part.starts[0]!;
    return [{ start: at, end: at, newText: encodeFor(context, statement, after, text, at) }];
  }
  throw new Refusal(
    'the edit falls between parts of the statement the code computes: there is no literal to write it in',
  );
}

/** Host edits for one CQL replacement of [start, end) of `statement`. */
function replacement(context: EditContext, statement: number, start: number, end: number, text: string): TextEdit[] {
  const layout = context.layouts[statement]!;
  if (end > layout.textEnd)
    throw new Refusal('the edit covers the `;` cqlint adds after a statement found in the code');
  const covered = segmentsOf(context, statement).filter((s) => s.cqlStart < end && s.cqlEnd > start);
  if (covered.some((s) => s.kind !== 'text'))
    throw new Refusal('the edit covers a part of the statement the code computes (a variable, a call)');
  const edits: TextEdit[] = [];
  covered.forEach((segment, i) => {
    if (segment.kind !== 'text') return;
    const from = Math.max(start, segment.cqlStart) - segment.cqlStart;
    const to = Math.min(end, segment.cqlEnd) - segment.cqlStart;
    if (segment.part.atomic.some(([a, b]) => a < to && b > from && (a < from || b > to))) {
      throw new Refusal('the edit covers part of a parameter of the statement');
    }
    const hostStart = segment.part.starts[from]!;
    const hostEnd = segment.part.ends[to - 1]!;
    edits.push({
      start: hostStart,
      end: hostEnd,
      newText: i === 0 ? encodeFor(context, statement, segment, text, hostEnd) : '',
    });
  });
  return edits;
}

/** Host comment lines above each call site of `statement` (`// cqlint: bind shard = ...`). */
function comments(context: EditContext, statement: number, lines: readonly string[]): TextEdit[] {
  const { hostText, commentPrefix } = context;
  return context.layouts[statement]!.commentAt.map((lineStart) => {
    let indentEnd = lineStart;
    while (hostText[indentEnd] === ' ' || hostText[indentEnd] === '\t') indentEnd++;
    const indent = hostText.slice(lineStart, indentEnd);
    const lineEnd = hostText.indexOf('\n', lineStart);
    const eol = lineEnd > 0 && hostText[lineEnd - 1] === '\r' ? '\r\n' : '\n';
    return {
      start: lineStart,
      end: lineStart,
      newText: lines.map((l) => `${indent}${commentPrefix} cqlint: ${l}${eol}`).join(''),
    };
  });
}

/** Sorts, merges identical edits (a constant shared by statements), joins comments at one place, refuses overlaps. */
function merged(edits: (TextEdit & { comment?: boolean })[]): TextEdit[] {
  const sorted = edits.slice().sort((a, b) => a.start - b.start || a.end - b.end);
  const out: (TextEdit & { comment?: boolean })[] = [];
  for (const edit of sorted) {
    const last = out[out.length - 1];
    if (last && last.start === edit.start && last.end === edit.end && last.newText === edit.newText) continue;
    if (last && last.comment && edit.comment && last.start === edit.start) {
      out[out.length - 1] = { ...last, newText: last.newText + edit.newText };
      continue;
    }
    if (
      last &&
      (edit.start < last.end || (edit.start === last.start && (last.start === last.end || edit.start === edit.end)))
    ) {
      throw new Refusal(
        'two edits land on the same place in the code (a constant shared by statements edited two ways)',
      );
    }
    out.push(edit);
  }
  return out.map(({ start, end, newText }) => ({ start, end, newText }));
}

/** Host edits for non-overlapping CQL edits, all or none. */
export function mapEdits(context: EditContext, cqlEdits: readonly TextEdit[]): HostEditResult {
  try {
    const edits: (TextEdit & { comment?: boolean })[] = [];
    for (const edit of cqlEdits) {
      if (edit.start > edit.end || edit.start < 0 || edit.end > context.cqlText.length)
        throw new Refusal('the edit is outside the CQL text');
      const statement = statementOf(context, edit.start, edit.end);
      const layout = context.layouts[statement]!;
      const lines = edit.start === edit.end ? commentLines(edit.newText) : undefined;
      const leading = context.cqlText.slice(layout.textStart, edit.start);
      const statementStart =
        layout.textStart +
        (context.cqlText.slice(layout.textStart, layout.textEnd).length -
          context.cqlText.slice(layout.textStart, layout.textEnd).trimStart().length);
      if (lines && edit.start <= statementStart && /^\s*$/.test(leading)) {
        for (const c of comments(context, statement, lines)) edits.push({ ...c, comment: true });
      } else if (edit.start === edit.end) {
        if (edit.newText) edits.push(...insertion(context, statement, edit.start, edit.newText));
      } else {
        edits.push(...replacement(context, statement, edit.start, edit.end, edit.newText));
      }
    }
    return { edits: merged(edits.filter((e) => e.start !== e.end || e.newText !== '')) };
  } catch (error) {
    if (error instanceof Refusal) return { refused: `cqlint cannot make this change in the code: ${error.message}` };
    throw error;
  }
}
