// Ignore patterns, gitignore syntax (the `ignore` package, as ESLint and Prettier read theirs): a
// `.cqlintignore` in the folder the command runs in (the editor: each workspace folder), and
// `ignorePatterns` in a .cqlint.json, relative to that file's folder, for the files it applies to.
// An ignored folder is not walked; an ignored file is neither linted nor formatted.
import * as path from 'node:path';
import ignore, { type Ignore } from 'ignore';
import { isInside } from '../io/files';
import type { IgnoreSource } from '../config-types';

export type { IgnoreSource } from '../config-types';

export const IGNORE_FILE_NAME = '.cqlintignore';


/**
 * How much of an ignore list is used. A pattern is a path with wildcards (PATH_MAX is 4,096); the
 * `ignore` package makes a regular expression of each, and one of 32,000 characters with a wildcard in
 * every other place is too large to compile (a SyntaxError that quoted the line and stopped every
 * lint). Every entry is tested against every pattern, so their number bounds a walk's work too.
 */
export const IGNORE_LIMITS = Object.freeze({ maxPatternChars: 4096, maxPatterns: 1_000 });

/** A pattern that is not used: its index in the list (its line is index + 1 in a file), and why. */
export interface IgnorePatternProblem {
  index: number;
  message: string;
}

/**
 * The patterns of a list that can be used, and why the others cannot: one too long or that does not
 * compile is left out (its neighbours still apply, as git skips a line it cannot read); past
 * maxPatterns, the rest are. Messages never quote a pattern (a file may be anything).
 */
export function usablePatterns(patterns: readonly string[]): { patterns: string[]; problems: IgnorePatternProblem[] } {
  const usable: string[] = [];
  const problems: IgnorePatternProblem[] = [];
  for (const [index, pattern] of patterns.entries()) {
    if (usable.length >= IGNORE_LIMITS.maxPatterns) {
      problems.push({ index, message: `more than ${IGNORE_LIMITS.maxPatterns} patterns: this one and the rest are not used` });
      break;
    }
    if (pattern.length > IGNORE_LIMITS.maxPatternChars) {
      problems.push({ index, message: `a pattern of ${pattern.length} characters (at most ${IGNORE_LIMITS.maxPatternChars}): not used` });
      continue;
    }
    try {
      // Compiled (and tried) on its own: the package compiles a pattern when it first tests a path.
      ignore().add(pattern).test('a/b');
    } catch {
      problems.push({ index, message: 'not a pattern cqlint can use (too many wildcards?): not used' });
      continue;
    }
    usable.push(pattern);
  }
  return { patterns: usable, problems };
}

/**
 * The lines of a .cqlintignore (gitignore syntax: comments and blank lines are the package's to skip)
 * that can be used, and a message per line that cannot (`line N: ...`).
 */
export function ignoreFileSource(text: string, filePath: string): { source: IgnoreSource; problems: string[] } {
  const { patterns, problems } = usablePatterns(text.split(/\r?\n/));
  return { source: { base: path.dirname(filePath), patterns, origin: filePath }, problems: problems.map((p) => `line ${p.index + 1}: ${p.message}`) };
}

const compiled = new WeakMap<IgnoreSource, Ignore>();

function matcherOf(source: IgnoreSource): Ignore {
  let found = compiled.get(source);
  if (!found) compiled.set(source, (found = ignore().add(source.patterns as string[])));
  return found;
}

/**
 * Which source ignores `entry` (an absolute path; `isDirectory` for a folder), or undefined. Sources are
 * read in order, outer first: a later one's decision (a `!pattern` too) wins over an earlier one's.
 */
export function ignoredBy(entry: string, sources: readonly (IgnoreSource | undefined)[], isDirectory = false): string | undefined {
  let by: string | undefined;
  for (const source of sources) {
    if (!source || !isInside(source.base, entry)) continue;
    const relative = path.relative(source.base, entry).split(path.sep).join('/');
    if (!relative) continue;
    const result = matcherOf(source).test(isDirectory ? `${relative}/` : relative);
    if (result.ignored) by = source.origin;
    else if (result.unignored) by = undefined;
  }
  return by;
}
