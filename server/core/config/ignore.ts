// Ignore patterns, gitignore syntax (the `ignore` package, as ESLint and Prettier read theirs): a
// `.cqlintignore` in the folder the command runs in (the editor: each workspace folder), and
// `ignorePatterns` in a .cqlint.json, relative to that file's folder, for the files it applies to.
// An ignored folder is not walked; an ignored file is neither linted nor formatted.
import * as path from 'node:path';
import ignore, { type Ignore } from 'ignore';
import { isInside } from '../io/files';
import type { IgnoreSource } from '../vocabulary/config';

export type { IgnoreSource } from '../vocabulary/config';

export const IGNORE_FILE_NAME = '.cqlintignore';

/**
 * How much of an ignore list is used. A pattern is a path with wildcards, a few dozen characters in real
 * files; the `ignore` package makes a regular expression of each, and one of 32,000 characters with a
 * wildcard in every other place is too large to compile (a SyntaxError that quoted the line and stopped
 * every lint), and compiling takes about a millisecond per 500 characters of patterns (a megabyte of them,
 * seconds). Every entry is tested against every pattern, so their number bounds a walk's work too.
 */
export const IGNORE_LIMITS = Object.freeze({ maxPatternChars: 1024, maxPatterns: 1_000, maxTotalChars: 64 * 1024 });

/** A pattern that is not used: its index in the list (its line is index + 1 in a file), and why. */
export interface IgnorePatternProblem {
  index: number;
  message: string;
}

/**
 * The patterns of a list that can be used, and why the others cannot: one too long, or (should one of
 * at most maxPatternChars ever fail to compile) one the package cannot compile is left out, its
 * neighbours still applying (as git skips a line it cannot read); past maxPatterns, the rest are.
 * Messages never quote a pattern (a file may be anything). `matcher` is the compiled list.
 */
export function usablePatterns(patterns: readonly string[]): {
  patterns: string[];
  problems: IgnorePatternProblem[];
  matcher: Ignore;
} {
  let usable: { index: number; pattern: string }[] = [];
  const problems: IgnorePatternProblem[] = [];
  let total = 0;
  for (const [index, pattern] of patterns.entries()) {
    if (pattern.length > IGNORE_LIMITS.maxPatternChars) {
      problems.push({
        index,
        message: `a pattern of ${pattern.length} characters (at most ${IGNORE_LIMITS.maxPatternChars}): not used`,
      });
      continue;
    }
    total += pattern.length;
    if (usable.length >= IGNORE_LIMITS.maxPatterns || total > IGNORE_LIMITS.maxTotalChars) {
      const what =
        usable.length >= IGNORE_LIMITS.maxPatterns
          ? `${IGNORE_LIMITS.maxPatterns} patterns`
          : `${IGNORE_LIMITS.maxTotalChars / 1024} KiB of patterns`;
      problems.push({ index, message: `more than ${what}: this one and the rest are not used` });
      break;
    }
    usable.push({ index, pattern });
  }
  let matcher = compiles(usable.map((u) => u.pattern));
  if (!matcher) {
    // Some pattern does not compile: each on its own says which (a slow path no file under the caps takes).
    usable = usable.filter((u) => {
      if (compiles([u.pattern])) return true;
      problems.push({ index: u.index, message: 'not a pattern cqlint can use (too many wildcards?): not used' });
      return false;
    });
    problems.sort((a, b) => a.index - b.index);
    matcher = ignore().add(usable.map((u) => u.pattern));
  }
  return { patterns: usable.map((u) => u.pattern), problems, matcher };
}

/**
 * The patterns compiled, or undefined when one the test reaches does not compile. The package compiles a
 * rule when a test first reaches it, scanning from the last rule to the first that matches: a path of NUL
 * characters reaches every rule but those behind a catch-all such as `*` (ignoredBy copes with those).
 */
function compiles(patterns: readonly string[]): Ignore | undefined {
  try {
    const matcher = ignore().add(patterns as string[]);
    matcher.test('\u0000/\u0000');
    return matcher;
  } catch {
    return undefined;
  }
}

/**
 * The lines of a .cqlintignore (gitignore syntax: comments and blank lines are the package's to skip)
 * that can be used, and a message per line that cannot (`line N: ...`).
 */
export function ignoreFileSource(text: string, filePath: string): { source: IgnoreSource; problems: string[] } {
  const { patterns, problems, matcher } = usablePatterns(text.split(/\r?\n/));
  const source: IgnoreSource = { base: path.dirname(filePath), patterns, origin: filePath };
  compiled.set(source, matcher);
  return { source, problems: problems.map((p) => `line ${p.index + 1}: ${p.message}`) };
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
export function ignoredBy(
  entry: string,
  sources: readonly (IgnoreSource | undefined)[],
  isDirectory = false,
): string | undefined {
  let by: string | undefined;
  for (const source of sources) {
    if (!source || !isInside(source.base, entry)) continue;
    const relative = path.relative(source.base, entry).split(path.sep).join('/');
    if (!relative) continue;
    let result: { ignored: boolean; unignored: boolean };
    try {
      result = matcherOf(source).test(isDirectory ? `${relative}/` : relative);
    } catch {
      // A rule compiled on first use that does not compile (none under IGNORE_LIMITS was found to): it
      // ignores nothing, rather than stopping the walk.
      continue;
    }
    if (result.ignored) by = source.origin;
    else if (result.unignored) by = undefined;
  }
  return by;
}
