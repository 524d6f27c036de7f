// Small helpers for the analysis tests: a Project from in-memory files.
import { Project, type ProjectOptions } from '../../server/core/project';
import type { Finding } from '../../server/core/findings';

export const ROOT = '/virtual/cqlint-tests';
export const MAIN = `${ROOT}/main.cql`;

/** A project holding `code` as main.cql plus other files (relative path → text); explicit config so no discovery. */
export function projectWith(code: string, files: Record<string, string> = {}, options: ProjectOptions = {}): Project {
  const project = new Project({ config: {}, ...options });
  project.setFile(MAIN, code);
  for (const [rel, text] of Object.entries(files)) project.setFile(`${ROOT}/${rel}`, text);
  return project;
}

export function lintMain(code: string, files: Record<string, string> = {}, options: ProjectOptions = {}): Finding[] {
  return projectWith(code, files, options).lint(MAIN);
}

export function ofRule(findings: Finding[], ruleId: string): Finding[] {
  return findings.filter((f) => f.ruleId === ruleId);
}

export function summary(findings: Finding[]): string {
  return findings.map((f) => `${f.range.start.line}:${f.range.start.column} ${f.ruleId}: ${f.message}`).join('\n');
}
