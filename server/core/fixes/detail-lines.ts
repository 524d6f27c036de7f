// A fix's detail lines (Fix.detail): how it was sized, each statement it leaves to the application or in an
// applied migration, and why it cannot be made. Written here, and told apart here (`cqlint fix` groups what a
// fix left by kind), so that the form a line is written in and the test that reads it stay one statement.
import type { PartitionPlan } from '../partition/plan';

/** What a detail line says. */
export type DetailKind = 'sizing' | 'application' | 'migration' | 'refused';

const SIZING = 'sizing: ';
const REFUSED = 'not possible: ';
/** Ends a line about a statement of an applied migration, which the fix leaves as it is. */
const NOT_EDITED = '(an applied migration is not edited)';

/** Where a statement is, as a detail line shows it: its file (relative) and line when known. */
export interface DetailPlace {
  filePath: string;
  line?: number;
}

const placeText = (relative: (path: string) => string, at: DetailPlace): string =>
  `${relative(at.filePath)}${at.line !== undefined ? `:${at.line}` : ''}`;

/** The reasons the plan's figures give for its size, a line each. */
export function sizingLines(plan: PartitionPlan): string[] {
  return (plan.figures?.reasons ?? []).map((reason) => `${SIZING}${reason}`);
}

/** A statement the fix leaves to the application, with what the application must do (a comment above it says it too). */
export function applicationLine(relative: (path: string) => string, at: DetailPlace & { note: string }): string {
  return `${placeText(relative, at)}: ${at.note}`;
}

/** A statement of an applied migration left on `table` (the migration is not edited). */
export function migrationLine(relative: (path: string) => string, at: DetailPlace, table: string): string {
  return `${placeText(relative, at)}: left on ${table} ${NOT_EDITED}`;
}

/** Why the fix cannot be made: a file that cannot take its edits. */
export function refusedLine(relative: (path: string) => string, filePath: string, reason: string): string {
  return `${REFUSED}${relative(filePath)} cannot take its edits: ${reason}`;
}

/** What a line made by the functions above says. */
export function detailKind(line: string): DetailKind {
  if (line.startsWith(SIZING)) return 'sizing';
  if (line.startsWith(REFUSED)) return 'refused';
  return line.endsWith(NOT_EDITED) ? 'migration' : 'application';
}
