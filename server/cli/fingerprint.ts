// A finding's fingerprint: what `--since` and `--baseline` match findings by, and SARIF's
// partialFingerprints (§3.27.17) carry, so that a finding keeps its identity when lines move. It is made
// of the rule id, the file (relative to the run's root, '/'-separated), the message id, the text of the
// statement the finding sits in with its whitespace and comments collapsed, the text the finding
// underlines, and the finding's table (the message's {{table}}); never of line numbers. Findings alike in all of that
// within one file are told apart by their order (an occurrence index).
import { createHash } from 'node:crypto';
import * as path from 'node:path';
import type { Finding } from '../core/findings/findings';

/** The SARIF partialFingerprints key (a name and a version, as §3.27.17 asks). */
export const FINGERPRINT_KEY = 'cqlintFinding/v1';

/** Files whose text is CQL: a statement runs from one `;` to the next. Other files (application code): the finding's lines. */
const CQL_FILE = /\.(cql|cqlsh)$/i;

/**
 * The start and end offsets of the statement around `offset` in CQL text: from the end of the previous `;`
 * to the next `;` (inclusive), skipping semicolons inside strings, quoted names, $$ bodies and comments.
 */
export function statementAround(text: string, offset: number): { start: number; end: number } {
  return statementIn(statementEnds(text), text.length, offset);
}

/** The offsets of the `;` that end statements in CQL text (not those inside strings, quoted names, $$ bodies or comments). */
function statementEnds(text: string): number[] {
  const ends: number[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    const next = text[i + 1];
    let skipTo = -1;
    if (c === "'" || c === '"') {
      // A doubled quote is an escaped one: the scan simply goes on past it.
      const close = text.indexOf(c, i + 1);
      skipTo = close < 0 ? text.length : close + 1;
    } else if (c === '$' && next === '$') {
      const close = text.indexOf('$$', i + 2);
      skipTo = close < 0 ? text.length : close + 2;
    } else if ((c === '-' && next === '-') || (c === '/' && next === '/')) {
      const close = text.indexOf('\n', i);
      skipTo = close < 0 ? text.length : close;
    } else if (c === '/' && next === '*') {
      const close = text.indexOf('*/', i + 2);
      skipTo = close < 0 ? text.length : close + 2;
    }
    if (skipTo >= 0) {
      // A finding inside a comment or a string belongs to the statement the scan is in.
      i = skipTo;
      continue;
    }
    if (c === ';') ends.push(i);
    i++;
  }
  return ends;
}

/** The statement around `offset`, given its text's statementEnds: from after the previous `;` to the next one. */
function statementIn(ends: readonly number[], length: number, offset: number): { start: number; end: number } {
  let low = 0;
  let high = ends.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (ends[middle]! < offset) low = middle + 1;
    else high = middle;
  }
  const start = low > 0 ? ends[low - 1]! + 1 : 0;
  return low < ends.length ? { start, end: ends[low]! + 1 } : { start, end: length };
}

/** Text with comments dropped and whitespace collapsed (a reindented or recommented statement is the same one). */
export function normalisedCql(text: string): string {
  // One pass, so that a quote inside a comment or a comment mark inside a string is what it is.
  return text
    .replace(/'(?:[^']|'')*'|"(?:[^"]|"")*"|\$\$[\s\S]*?\$\$|(?:--|\/\/)[^\n]*|\/\*[\s\S]*?\*\/|\s+/g, (match) =>
      /^['"$]/.test(match) ? match : '\u0000',
    )
    .replace(/\u0000+/g, ' ')
    .trim();
}

/** The lines a range spans, each trimmed (application code: the statement's string may be built over several). */
function linesOf(text: string, start: number, end: number): string {
  const from = text.lastIndexOf('\n', Math.max(0, start - 1)) + 1;
  const newline = text.indexOf('\n', end);
  return text
    .slice(start === 0 ? 0 : from, newline < 0 ? text.length : newline)
    .replace(/\s+/g, ' ')
    .trim();
}

/** The part of a fingerprint that does not depend on the finding's neighbours. */
function findingKey(finding: Finding, file: string, source: string, ends: readonly number[] | undefined): string {
  const start = Math.max(0, Math.min(finding.range.start.offset, source.length));
  const end = Math.max(start, Math.min(finding.range.end.offset, source.length));
  let context: string;
  if (ends) {
    const statement = statementIn(ends, source.length, start);
    context = normalisedCql(source.slice(statement.start, Math.max(statement.end, end)));
  } else context = linesOf(source, start, end);
  // The message's table (its values, which worker threads pass on as the main thread has them; not data).
  const table = typeof finding.values?.table === 'string' ? finding.values.table : '';
  const underlined = source.slice(start, end).replace(/\s+/g, ' ').trim();
  return JSON.stringify([finding.ruleId, file, finding.messageId, table, underlined, context]);
}

/** `filePath` as the fingerprints name it: relative to `root`, with '/' between folders. */
export function fingerprintPath(filePath: string, root: string): string {
  const relative = path.relative(root, filePath);
  return (relative && !path.isAbsolute(relative) ? relative : filePath).split(path.sep).join('/');
}

/**
 * One fingerprint per finding of a file (same order): a hex digest, the same in every run while the finding's
 * rule, file, statement and table are the same, wherever the statement has moved to.
 */
export function fingerprints(findings: readonly Finding[], filePath: string, source: string, root: string): string[] {
  const file = fingerprintPath(filePath, root);
  const seen = new Map<string, number>();
  // The file's statements are found once, not once per finding.
  const ends = findings.length > 0 && CQL_FILE.test(file) ? statementEnds(source) : undefined;
  return findings.map((finding) => {
    const key = findingKey(finding, file, source, ends);
    const occurrence = seen.get(key) ?? 0;
    seen.set(key, occurrence + 1);
    return createHash('sha256').update(`${key}\u0000${occurrence}`).digest('hex').slice(0, 32);
  });
}
