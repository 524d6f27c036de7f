// Helpers for the fix tests: before/after fixtures with a directive naming the fix, and a Project
// holding in-memory files.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Project } from '../../server/core/engine/project';
import type { Finding } from '../../server/core/findings/findings';
import { parseCql } from '../../grammar';
import type { Statement } from '../../grammar/ast';
import { isDmlStatement } from '../../server/core/fixes/key-rewrite';
import { statementTable } from '../../server/core/util/statements';
import { applyEdits } from '../../server/core/fixes/text';
import type { Fix } from '../../server/core/fixes/types';
import { RATE_HINT_ID } from '../../server/core/fixes/rate-hint';
import { LineIndex } from '../../grammar/line-index';

export const FIXTURES = join(__dirname, 'fixtures');
export const ROOT = '/virtual/cqlint-fix-tests';
export const MAIN = `${ROOT}/main.cql`;

export interface Fixture {
  folder: string;
  name: string;
  before: string;
  after: string;
  /** `-- apply: <title>`: the fix's title, or its beginning when it ends with a space. */
  title: string;
  /** `-- with: {json}`: options for the fix. */
  options: Record<string, unknown>;
}

export function fixtures(folder: string): Fixture[] {
  const dir = join(FIXTURES, folder);
  return readdirSync(dir)
    .filter((f) => f.endsWith('.before.cql'))
    .sort()
    .map((file) => {
      const name = file.slice(0, -'.before.cql'.length);
      const before = readFileSync(join(dir, file), 'utf8');
      const after = readFileSync(join(dir, `${name}.after.cql`), 'utf8');
      const title = /^-- apply: (.*?)\r?$/m.exec(before)?.[1];
      if (title === undefined) throw new Error(`${folder}/${file} has no "-- apply:" line`);
      const withLine = /^-- with: (.*?)\r?$/m.exec(before)?.[1];
      return { folder, name, before, after, title, options: withLine ? JSON.parse(withLine) : {} };
    });
}

export function matchesTitle(fix: Fix, title: string): boolean {
  return title.endsWith(' ') ? fix.title.startsWith(title) : fix.title === title;
}

export function projectWith(code: string, files: Record<string, string> = {}): Project {
  const project = new Project({ config: {} });
  project.setFile(MAIN, code);
  for (const [rel, text] of Object.entries(files)) project.setFile(`${ROOT}/${rel}`, text);
  return project;
}

export function ofRule(findings: readonly Finding[], ruleId: string): Finding[] {
  return findings.filter((f) => f.ruleId === ruleId);
}

/**
 * Asserts what every fix must guarantee: the edits apply, the result has no syntax error the original
 * did not have, and every comment of the original is still there, in order. Returns the new text.
 */
export function applyChecked(
  text: string,
  fix: Pick<Fix, 'edits' | 'title' | 'id'> & Partial<Pick<Fix, 'plan'>>,
): { output: string; problems: string[] } {
  const problems: string[] = [];
  const output = applyEdits(text, fix.edits);
  // A sharded copy adds a table, and so does a shard counted per tenant (the table of counts, in the file of
  // the table): one statement more, and nothing else changes.
  const counts =
    fix.plan?.shard?.perTenant &&
    fix.edits.some((e) => e.newText.includes(`CREATE TABLE ${fix.plan!.shard!.perTenant!.table} `));
  const addedStatements = (isCopyFix(fix) ? 1 : 0) + (counts ? 1 : 0);
  const before = parseCql(text);
  const after = parseCql(output);
  if (after.errors.length > before.errors.length) {
    problems.push(
      `new syntax errors: ${after.errors.map((e) => `${JSON.stringify(new LineIndex(output).location(e.range.start))} ${e.message}`).join('; ')}`,
    );
  }
  // A key change rescales the figures of a table's `-- @cqlint` hints: such a comment is the same comment.
  const kept = (text: string): string => (/^--\s*@cqlint\b/.test(text) ? text.replace(/\d+(\.\d+)?/g, '#') : text);
  const afterComments = after.comments.map((c) => kept(c.text));
  let i = 0;
  // A comment the fix edits inside (a suppression comment's rule id) is changed on purpose; the
  // byte-for-byte check below still holds the rest of it.
  const edited = (c: { range: { start: number; end: number } }): boolean =>
    fix.edits.some((e) => e.start >= c.range.start && e.end <= c.range.end);
  for (const comment of before.comments) {
    if (edited(comment)) continue;
    while (i < afterComments.length && afterComments[i] !== kept(comment.text)) i++;
    if (i >= afterComments.length) {
      problems.push(`comment lost: ${comment.text}`);
      break;
    }
    i++;
  }
  // A column moved to a table of its own (fixes/split-column.ts) adds that table, and a statement on it beside
  // each read of the column (and each conditional write): the statements that do not name it are as many as before.
  const split = fix.plan?.split;
  const newTable = split?.table.slice(split.table.lastIndexOf('.') + 1);
  const onNewTable = (s: Statement): boolean => {
    const name = s.kind === 'CreateTable' ? s.name : isDmlStatement(s) ? statementTable(s) : undefined;
    return name?.name.name === newTable;
  };
  const counted = split ? after.statements.filter((s) => !onNewTable(s)).length : after.statements.length;
  if (counted !== before.statements.length + addedStatements) {
    problems.push(`statement count changed from ${before.statements.length} to ${after.statements.length}`);
  }
  // Outside the edits the text is byte-for-byte the same.
  const sorted = [...fix.edits].sort((a, b) => a.start - b.start);
  let delta = 0;
  let previousEnd = 0;
  for (const edit of sorted) {
    const original = text.slice(previousEnd, edit.start);
    const kept = output.slice(previousEnd + delta, edit.start + delta);
    if (original !== kept) problems.push(`text changed outside the edits between ${previousEnd} and ${edit.start}`);
    delta += edit.newText.length - (edit.end - edit.start);
    previousEnd = edit.end;
  }
  if (text.slice(previousEnd) !== output.slice(previousEnd + delta)) problems.push('text changed after the last edit');
  return { output, problems };
}

/** Whether a fix creates a copy of a table with a new key (the original, and its finding, stay). */
export function isCopyFix(fix: Pick<Fix, 'title' | 'id'>): boolean {
  return fix.id?.startsWith('copy') ?? false;
}

/** Whether a fix writes the assumed rate down as a hint (the finding stays, now on a hinted rate). */
export function isHintFix(fix: Pick<Fix, 'id'>): boolean {
  return fix.id === RATE_HINT_ID;
}
