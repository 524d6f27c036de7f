// The Project's side of application code: where its CQL shows in the host file (HostPositions), the findings a
// hole makes guesses of (guessesAtHole), and a file whose CQL is refused (refusedDocument). The engine keeps offsets
// into the CQL text (the AST's); lines, columns and LSP positions are the host file's, through the document's map.
import type { SourceRange } from '../../../grammar/ast';
import { LineIndex, type LocatedRange, type SourceLocation, type SourcePositions } from '../../../grammar/line-index';
import { HOLE_PREFIX } from './document';
import type { EmbeddedDocument } from './types';

export class HostPositions implements SourcePositions {
  /** The host file's own lines (its offsets, not the CQL text's). */
  readonly hostLines: LineIndex;

  constructor(
    private readonly doc: EmbeddedDocument,
    hostText: string,
  ) {
    this.hostLines = new LineIndex(hostText);
  }

  location(offset: number): SourceLocation {
    const clamped = Math.max(0, Math.min(offset, this.doc.cqlText.length));
    const shown = this.hostLines.location(this.doc.toHost(clamped));
    return { offset: clamped, line: shown.line, column: shown.column };
  }

  /** A range's lines and columns: from where its first character was written to where its last one ends. */
  locate(range: SourceRange): LocatedRange {
    const clamp = (offset: number): number => Math.max(0, Math.min(offset, this.doc.cqlText.length));
    const cql = { start: clamp(range.start), end: clamp(Math.max(range.start, range.end)) };
    const host = this.doc.toHostRange(cql);
    const start = this.hostLines.location(host.start);
    const end = this.hostLines.location(host.end);
    return {
      start: { offset: cql.start, line: start.line, column: start.column },
      end: { offset: cql.end, line: end.line, column: end.column },
    };
  }

  positionAt(offset: number): { line: number; character: number } {
    return this.hostLines.positionAt(this.doc.toHost(Math.max(0, Math.min(offset, this.doc.cqlText.length))));
  }

  offsetAt(position: { line: number; character: number }): number | undefined {
    return this.doc.toCql(this.hostLines.offsetAt(position));
  }
}

/**
 * Whether a finding's range touches a hole of the statements read from code (a name or value the program
 * computes): such a finding would be a guess about the hole, so it is not reported.
 */
export function touchesHole(doc: EmbeddedDocument, range: SourceRange): boolean {
  for (const statement of doc.statements) {
    if (statement.cqlRange.start > range.end) break;
    for (const hole of statement.holes) if (hole.start <= range.end && range.start <= hole.end) return true;
  }
  return false;
}

const NAMES_HOLE = new RegExp(`\\b${HOLE_PREFIX}\\d+\\b`);

/**
 * Whether a finding on a file of code is a guess about a hole: its range touches one, or its message names one's
 * placeholder (`ALLOW FILTERING on cqlint_hole_1`: a table the program picks, which cqlint cannot name).
 */
export function guessesAtHole(doc: EmbeddedDocument, finding: { range: SourceRange; message: string }): boolean {
  return touchesHole(doc, finding.range) || NAMES_HOLE.test(finding.message);
}

/** Whether a suppression comment of the code turns the finding's rule off on the statement it lies in. */
export function suppressedInCode(doc: EmbeddedDocument, finding: { range: SourceRange; ruleId: string }): boolean {
  for (const statement of doc.statements) {
    if (statement.cqlRange.start > finding.range.start) break;
    if (!statement.disabled || finding.range.start > statement.cqlRange.end) continue;
    return statement.disabled.length === 0 || statement.disabled.includes(finding.ruleId);
  }
  return false;
}

/**
 * A host file none of whose CQL is analysed, with why (its CQL text would take the parser minutes: the statement
 * guard of core/io/input-limits.ts): it keeps its place in the workspace with no statements.
 */
export function refusedDocument(
  language: EmbeddedDocument['language'],
  hostLength: number,
  message: string,
): EmbeddedDocument {
  return {
    language,
    cqlText: '',
    statements: [],
    problems: [{ message, hostRange: { start: 0, end: Math.min(hostLength, 1) } }],
    toHost: () => 0,
    toHostRange: () => ({ start: 0, end: 0 }),
    toCql: () => undefined,
    hostEdits: (edits) => (edits.length ? { refused: message } : { edits: [] }),
  };
}
