// `cqlint lint --fix`: applies every fix that needs no choice (fix-all), the way ESLint's --fix does:
// lint, apply the safe fixes, lint again, up to MAX_FIX_PASSES times, then write the file. A pass that
// would add a syntax error is dropped (never happens by design; this keeps a bug from corrupting a file).
import { promises as fs } from 'node:fs';
import type { Finding } from '../core/findings';
import type { Project } from '../core/project';
import { computeFixAll, fixesForFinding } from '../core/fixes';
import { projectFixEnvironment, recordFixErrors, type EnvironmentSettings } from '../core/fixes/environment';
import { applyEdits } from '../core/fixes/text';

/** Like ESLint: later passes fix what earlier fixes uncovered; ten is plenty and bounds the work. */
export const MAX_FIX_PASSES = 10;

export type FixOptions = EnvironmentSettings;

export interface FixTextResult {
  /** The fixed text (the input when nothing was fixable). */
  output: string;
  changed: boolean;
  /** Edits applied over all passes. */
  editCount: number;
  passes: number;
  /** The findings left after fixing (the project holds the fixed text). */
  findings: Finding[];
}

/**
 * Fixes the project's copy of `filePath` in memory: the project ends up holding the fixed text, so
 * other files linted afterwards see it. Does not write anything.
 */
export function applyFixesToText(project: Project, filePath: string, options: FixOptions = {}): FixTextResult {
  const original = project.getText(filePath);
  if (original === undefined) throw new Error(`${filePath} is not part of the project`);
  let text = original;
  let editCount = 0;
  let passes = 0;
  while (passes < MAX_FIX_PASSES) {
    const parse = project.parse(filePath);
    const env = projectFixEnvironment(project, filePath, { onError: recordFixErrors(project, filePath), ...options });
    const edits = computeFixAll(text, parse, env.findings ?? [], env);
    if (!edits.length) break;
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
  return { output: text, changed: text !== original, editCount, passes, findings: project.lint(filePath) };
}

export interface FixFileResult extends FixTextResult {
  filePath: string;
  /** True when the file on disk was rewritten. */
  written: boolean;
}

const UTF8_BOM = Buffer.from([0xef, 0xbb, 0xbf]);

/**
 * Applies fix-all to a project file and writes it back when it changed. The text outside the edits is
 * kept as it was (line endings included); a UTF-8 byte order mark, which reading drops, is put back.
 */
export async function fixFile(project: Project, filePath: string, options: FixOptions = {}): Promise<FixFileResult> {
  const result = applyFixesToText(project, filePath, options);
  if (result.changed) await writeKeepingBom(filePath, result.output);
  return { ...result, filePath, written: result.changed };
}

/** Writes `text` as UTF-8, with a byte order mark when the file on disk starts with one. */
export async function writeKeepingBom(filePath: string, text: string): Promise<void> {
  let bom = false;
  try {
    const handle = await fs.open(filePath, 'r');
    try {
      const head = Buffer.alloc(3);
      const { bytesRead } = await handle.read(head, 0, 3, 0);
      bom = bytesRead === 3 && head.equals(UTF8_BOM);
    } finally {
      await handle.close();
    }
  } catch {
    // A file that cannot be opened for reading is written without a BOM (the write reports the real error).
  }
  await fs.writeFile(filePath, bom ? Buffer.concat([UTF8_BOM, Buffer.from(text, 'utf8')]) : text, 'utf8');
}

/** Whether fix-all (`--fix`) would change something for this finding: for ESLint's fixable counts. */
export function isFixable(project: Project, filePath: string, finding: Finding, options: FixOptions = {}): boolean {
  return fixableFindings(project, filePath, [finding], options)[0] ?? false;
}

/** isFixable for each of a file's findings, sharing one fix environment. */
export function fixableFindings(project: Project, filePath: string, findings: readonly Finding[], options: FixOptions = {}): boolean[] {
  const text = project.getText(filePath);
  if (text === undefined) return findings.map(() => false);
  const parse = project.parse(filePath);
  const env = projectFixEnvironment(project, filePath, { onError: recordFixErrors(project, filePath), ...options });
  return findings.map((finding) => fixesForFinding(text, parse, finding, env).some((f) => f.safeForFixAll));
}
