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


/** The lines of a .cqlintignore (gitignore syntax: comments and blank lines are the package's to skip). */
export function ignoreFileSource(text: string, filePath: string): IgnoreSource {
  return { base: path.dirname(filePath), patterns: text.split(/\r?\n/), origin: filePath };
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
