// Reading the CQL inside application code: which files are host files (hostLanguageOf), loading their grammars
// (loadHostLanguages, asynchronous, once), and reading one file's text into an EmbeddedDocument (readEmbedded,
// synchronous, pure: the same text gives the same CQL text, unless the parse runs out of its time budget). See
// README.md beside this file for the packages.
import { parseCql } from '../../../grammar';
import { embeddedDocument, layOut } from './document';
import { withParents } from './nodes';
import { lastAtOrBefore } from './segments';
import { csharp } from './csharp';
import { go } from './go';
import { java } from './java';
import { javascript } from './javascript';
import { kotlin } from './kotlin';
import { python } from './python';
import { Reader, STATEMENT_START } from './reader';
import { disabledRules } from './suppressions';
import { isHostLanguageLoaded, loadHostLanguages, parserFor } from './runtime';
import type { LanguageSupport } from './syntax';
import type { EmbeddedDocument, EmbeddedOptions, EmbeddedProblem, HostLanguage } from './types';

export type * from './types';
export { HOLE_PREFIX } from './document';
export { loadHostLanguages, isHostLanguageLoaded };

/** Host files larger than this (UTF-16 code units, about 4 MiB of ASCII) are not read: one problem, no statements. */
export const MAX_HOST_CHARS = 4 * 1024 * 1024;

/**
 * How long tree-sitter may parse one host file: PARSE_BUDGET_MS, and PARSE_MS_PER_MIB more per MiB. Its error
 * recovery can take time far beyond linear on a long run of broken code (65 s for 64 KiB of `{"a":` inside a
 * Java string, at load), in work its progress callback does not count, so only the clock can stop it. Real code
 * stays well inside it: the slowest of 4,089 real files (a 670 KB minified bundle) used 60% of the budget it
 * would have had at half this one, at load 15. A file given up on is one problem and no statements.
 */
export const PARSE_BUDGET_MS = 2000;
export const PARSE_MS_PER_MIB = 4000;

/**
 * Whether a parse started now has spent `budgetMs`: only once both the clock and the process's CPU time have
 * passed it. On a loaded machine the clock runs ahead of the work done, and a file that parses in a second on
 * its own would not be read at all (a 2 MB bundle at load 30 on 2 cores); the process's CPU time counts every
 * thread, so on an idle machine the clock is the smaller of the two, as before. The CPU is asked only once the
 * clock has run out (the callback runs often).
 */
export function budgetSpent(budgetMs: number): () => boolean {
  const started = performance.now();
  const cpuStarted = process.cpuUsage();
  return () => {
    if (performance.now() - started <= budgetMs) return false;
    const cpu = process.cpuUsage(cpuStarted);
    return (cpu.user + cpu.system) / 1000 > budgetMs;
  };
}

const BY_EXTENSION: Record<string, HostLanguage> = {
  java: 'java',
  kt: 'kotlin',
  kts: 'kotlin',
  py: 'python',
  go: 'go',
  js: 'javascript',
  mjs: 'javascript',
  cjs: 'javascript',
  jsx: 'javascript',
  ts: 'typescript',
  mts: 'typescript',
  cts: 'typescript',
  tsx: 'tsx',
  cs: 'csharp',
};

/** The host language of a file by its extension; undefined for other files and for TypeScript declaration files. */
export function hostLanguageOf(filePath: string): HostLanguage | undefined {
  const name = filePath.slice(Math.max(filePath.lastIndexOf('/'), filePath.lastIndexOf('\\')) + 1).toLowerCase();
  if (/\.d\.[mc]?ts$/.test(name)) return undefined;
  const dot = name.lastIndexOf('.');
  return dot > 0 ? BY_EXTENSION[name.slice(dot + 1)] : undefined;
}

const SUPPORT: Record<HostLanguage, LanguageSupport> = {
  java,
  python,
  go,
  javascript,
  typescript: javascript,
  tsx: javascript,
  csharp,
  kotlin,
};

/** A literal that reaches no driver call is a statement only when it is one complete statement of these kinds. */
const STANDALONE = /^(?:Select|Insert|Update|Delete|Batch|Truncate|Create\w+|Alter\w+|Drop\w+)$/;

/**
 * What every complete statement of those kinds starts like (leading comments aside): log messages and other
 * prose that merely begin with a statement keyword (`"Select failed"`, `"Insert into the cache failed"` aside)
 * are turned down here without a parse, which costs milliseconds each to fail (a third of reading the code).
 */
const STANDALONE_SHAPE = new RegExp(
  [
    String.raw`^\s*(?:--|//|/\*)`,
    String.raw`^\s*select\b[\s\S]*\bfrom\b`,
    String.raw`^\s*insert\s+into\b`,
    String.raw`^\s*update\b[\s\S]*\b(?:set|using)\b`,
    String.raw`^\s*delete\b[\s\S]*\bfrom\b`,
    String.raw`^\s*begin\s+(?:(?:unlogged|counter)\s+)?batch\b`,
    String.raw`^\s*truncate\b`,
    String.raw`^\s*(?:create|alter|drop)\s+(?:or\s+replace\s+)?(?:custom\s+)?(?:table|columnfamily|keyspace|schema|index|materialized\s+view|type|function|aggregate|trigger|role|user)\b`,
  ].join('|'),
  'i',
);

/** Whether a literal that reaches no driver call is a statement: one complete statement of the kinds above. */
export function standaloneStatement(text: string): boolean {
  if (!STANDALONE_SHAPE.test(text)) return false;
  const result = parseCql(text);
  return result.errors.length === 0 && result.statements.length === 1 && STANDALONE.test(result.statements[0]!.kind);
}

/** The start of the line holding an offset (line starts found once, then a binary search). */
function lineStarts(text: string): (offset: number) => number {
  let starts: number[] | undefined;
  return (offset) => {
    if (!starts) {
      starts = [0];
      for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
    }
    return starts[
      Math.max(
        0,
        lastAtOrBefore(starts, offset, (s) => s),
      )
    ]!;
  };
}

/**
 * Reads a host file's text: its CQL statements, their session keyspaces, and the map back to the host. Throws
 * when the language's grammar was not loaded (await loadHostLanguages first).
 */
export function readEmbedded(
  language: HostLanguage,
  hostText: string,
  options: EmbeddedOptions = {},
): EmbeddedDocument {
  const support = SUPPORT[language];
  const parser = parserFor(language);
  const problems: EmbeddedProblem[] = [];
  if (hostText.length > MAX_HOST_CHARS) {
    problems.push({
      message: `not read for CQL: ${(hostText.length / 1048576).toFixed(1)} MiB of code, over the ${MAX_HOST_CHARS / 1048576} MiB cqlint reads in one file`,
      hostRange: { start: 0, end: 0 },
    });
    return embeddedDocument(language, hostText, undefined, problems, support.commentPrefix);
  }
  const nul = hostText.indexOf('\u0000');
  if (nul >= 0) {
    problems.push({
      message: 'not read for CQL: the file holds binary data (a NUL character), not source code',
      hostRange: { start: nul, end: nul + 1 },
    });
    return embeddedDocument(language, hostText, undefined, problems, support.commentPrefix);
  }
  STATEMENT_START.lastIndex = 0;
  if (!STATEMENT_START.test(hostText))
    return embeddedDocument(language, hostText, undefined, problems, support.commentPrefix);
  const budget = PARSE_BUDGET_MS + (PARSE_MS_PER_MIB * hostText.length) / 1048576;
  const tree = parser.parse(hostText, null, { progressCallback: budgetSpent(budget) });
  if (!tree) {
    // A cancelled parse would be resumed by the parser's next call: start the next file afresh.
    parser.reset();
    problems.push({
      message: `not read for CQL: the ${language} parser did not finish within ${(budget / 1000).toFixed(1)} s (tree-sitter's error recovery is slow on long runs of code that does not parse)`,
      hostRange: { start: 0, end: 0 },
    });
    return embeddedDocument(language, hostText, undefined, problems, support.commentPrefix);
  }
  try {
    return withParents(() => {
      const facts = support.facts(support.imports(hostText));
      const reader = new Reader(support, hostText, tree.rootNode, facts);
      const statements = reader.statements(standaloneStatement);
      const keyspaces = statements.length > 0 ? reader.keyspaces() : [];
      const lineStartOf = lineStarts(hostText);
      const layout = layOut(statements, keyspaces, options, lineStartOf);
      layout.statements.forEach((statement, i) => {
        const lines = new Set([...layout.layouts[i]!.commentAt, lineStartOf(statement.hostRange.start)]);
        const disabled = disabledRules(tree.rootNode, hostText, [...lines], lineStartOf);
        if (disabled) statement.disabled = disabled;
      });
      return embeddedDocument(language, hostText, layout, problems, support.commentPrefix);
    });
  } finally {
    tree.delete();
  }
}
