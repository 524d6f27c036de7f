// `cqlint lint --fix`: applies every fix that needs no choice (fix-all), the way ESLint's --fix does:
// lint, apply the safe fixes, lint again, up to MAX_FIX_PASSES times, then write the file. A pass that
// would add a syntax error is dropped (never happens by design; this keeps a bug from corrupting a file).
import type { Finding } from '../core/findings/findings';
import type { Project } from '../core/engine/project';
import { computeFixAll, fixOffers, safeFix } from '../core/fixes';
import { projectFixContext, recordFixErrors, type ContextSettings } from '../core/fixes/environment';
import { applyEdits } from '../core/fixes/text';
import type { FileStamp } from '../core/io/files';
import { writeTextFile } from '../core/io/write';

/** Like ESLint: later passes fix what earlier fixes uncovered; ten is plenty and bounds the work. */
const MAX_FIX_PASSES = 10;

type FixOptions = ContextSettings;

interface FixTextResult {
  /** The fixed text (the input when nothing was fixable). */
  output: string;
  changed: boolean;
  /** Edits applied over all passes. */
  editCount: number;
  passes: number;
  /** The findings left after fixing (the project holds the fixed text). */
  findings: Finding[];
  /** Why nothing was fixed although fixes were offered: the file does not parse. */
  skipped?: string;
}

/**
 * Fixes the project's copy of `filePath` in memory: the project ends up holding the fixed text, so
 * other files linted afterwards see it. Does not write anything. A file with syntax errors is left as it
 * is (`skipped` says so): error recovery guesses what a broken statement meant, and an edit placed on a
 * guess could change text the user has not finished writing.
 */
export function applyFixesToText(project: Project, filePath: string, options: FixOptions = {}): FixTextResult {
  // What the file holds: the fixes edit its CQL text, written into application code's string literals.
  const original = project.sourceText(filePath);
  if (original === undefined) throw new Error(`${filePath} is not part of the project`);
  const syntaxErrors = project.parse(filePath).errors.length;
  if (syntaxErrors) {
    const skipped = `it has ${syntaxErrors} syntax error${syntaxErrors === 1 ? '' : 's'}; fix ${syntaxErrors === 1 ? 'it' : 'them'} first`;
    return { output: original, changed: false, editCount: 0, passes: 0, findings: project.lint(filePath), skipped };
  }
  let text = original;
  let editCount = 0;
  let passes = 0;
  let skipped: string | undefined;
  while (passes < MAX_FIX_PASSES) {
    const parse = project.parse(filePath);
    const ctx = projectFixContext(project, filePath, {
      onError: recordFixErrors(project, filePath),
      ...options,
      safeOnly: true,
    });
    const cqlEdits = computeFixAll(project.getText(filePath)!, parse, project.lint(filePath), ctx);
    if (!cqlEdits.length) break;
    const source = project.sourceEdits(filePath, cqlEdits);
    if ('refused' in source) {
      skipped = `its fixes cannot be written into its code: ${source.refused}`;
      break;
    }
    const edits = source.edits;
    const next = applyEdits(text, edits);
    if (next === text) break;
    project.setFile(filePath, next);
    if (project.parse(filePath).errors.length > parse.errors.length) {
      project.setFile(filePath, text);
      break;
    }
    passes++;
    editCount += edits.length;
    text = next;
  }
  return {
    output: text,
    changed: text !== original,
    editCount,
    passes,
    findings: project.lint(filePath),
    ...(skipped ? { skipped } : {}),
  };
}

interface FixFileResult extends FixTextResult {
  filePath: string;
  /** True when the file on disk was rewritten. */
  written: boolean;
}

/**
 * Applies fix-all to a project file and writes it back when it changed. The text outside the edits is
 * kept as it was (line endings included); `bom` (what the read reported) puts a byte order mark back, and
 * `expected` (the read's stamp) refuses the write when the file changed on disk since it was read.
 */
export async function fixFile(
  project: Project,
  filePath: string,
  options: FixOptions = {},
  bom = false,
  expected?: FileStamp,
): Promise<FixFileResult> {
  const result = applyFixesToText(project, filePath, options);
  if (result.changed) await writeTextFile(filePath, result.output, { bom, expected });
  return { ...result, filePath, written: result.changed };
}

/** Whether fix-all (`--fix`) would change something for this finding: for ESLint's fixable counts. */
export function isFixable(project: Project, filePath: string, finding: Finding, options: FixOptions = {}): boolean {
  return fixableFindings(project, filePath, [finding], options)[0] ?? false;
}

/** isFixable for each of a file's findings, sharing one fix environment. */
export function fixableFindings(
  project: Project,
  filePath: string,
  findings: readonly Finding[],
  options: FixOptions = {},
): boolean[] {
  const text = project.getText(filePath);
  if (text === undefined) return findings.map(() => false);
  const parse = project.parse(filePath);
  const ctx = projectFixContext(project, filePath, {
    onError: recordFixErrors(project, filePath),
    ...options,
    safeOnly: true,
  });
  // A .cql file takes every safe fix: the offers say; application code may refuse one, which fix-all then skips.
  if (project.hostLanguage(filePath) !== undefined)
    return findings.map((finding) => safeFix(text, parse, finding, ctx) !== undefined);
  return findings.map((finding) =>
    fixOffers(text, parse, finding, ctx).some((f) => f.safeForFixAll && !f.newFiles?.length),
  );
}
