// Which diagnostics belong to a table: those on its CREATE statement, and those on the workspace's
// statements that use it (an INSERT missing a key column, an ALLOW FILTERING scan). The report's badges,
// index and keyspace view count exactly these, taken from Project.lint (the diagnostics themselves).
import type { Finding, Severity } from '../findings/findings';
import type { Project } from '../engine/project';
import type { TableInfo } from '../schema/model';
import type { TableReference } from '../schema/references';
import type { PartitionPlan } from '../partition/plan';
import { planId } from '../partition/planner';
import { firstPlansOf } from '../fixes';

export interface TableFindings {
  /** Findings on the CREATE TABLE / CREATE MATERIALIZED VIEW statement. */
  table: Finding[];
  /** Findings on statements that read or write the table, with the reference each is on. */
  queries: { reference: TableReference; finding: Finding }[];
}

const SEVERITY_RANK: Record<Severity, number> = { error: 3, warning: 2, info: 1 };

export function severityRank(severity: Severity | undefined): number {
  return severity ? SEVERITY_RANK[severity] : 0;
}

/** The highest severity of a list (undefined when empty). */
export function worstSeverity(severities: Iterable<Severity>): Severity | undefined {
  let worst: Severity | undefined;
  for (const s of severities) if (severityRank(s) > severityRank(worst)) worst = s;
  return worst;
}

/** The findings (sorted by position, as Project.lint gives them) that lie within [start, end]. */
function within(findings: readonly Finding[], start: number, end: number): Finding[] {
  let lo = 0;
  let hi = findings.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (findings[mid]!.range.start.offset < start) lo = mid + 1;
    else hi = mid;
  }
  const out: Finding[] = [];
  for (let i = lo; i < findings.length && findings[i]!.range.start.offset <= end; i++) {
    if (findings[i]!.range.end.offset <= end) out.push(findings[i]!);
  }
  return out;
}

/** A file's diagnostics (Project.lint, or a memo of it for one report: see lintMemo). */
export type LintOf = (filePath: string) => readonly Finding[];

/**
 * Project.lint remembered for the making of one report: each call locates every finding of the file
 * anew, and a report of many tables in one file asks for it once per table.
 */
export function lintMemo(project: Project): LintOf {
  const memo = new Map<string, readonly Finding[]>();
  return (filePath) => {
    let findings = memo.get(filePath);
    if (!findings) memo.set(filePath, (findings = project.lint(filePath)));
    return findings;
  };
}

/** The diagnostics of a table and of the statements on it (Project.referencesTo), in file order. */
export function tableFindings(
  project: Project,
  table: TableInfo,
  lint: LintOf = (file) => project.lint(file),
): TableFindings {
  const own = within(lint(table.filePath), table.range.start, table.range.end);
  const queries: TableFindings['queries'] = [];
  for (const reference of project.referencesTo(table)) {
    for (const finding of within(lint(reference.file), reference.range.start, reference.range.end))
      queries.push({ reference, finding });
  }
  return { table: own, queries };
}

/**
 * The cures the planner chose for a table's partition findings (the hover's), each rule's plan once: those of
 * its file's findings, and those of the findings on the statements that use it in other files (over-partitioned-read
 * reports a read, which is often in another file than the table).
 */
export function tableCures(
  project: Project,
  table: TableInfo,
  lint: LintOf = (file) => project.lint(file),
): { rule: string; plan: PartitionPlan }[] {
  const findings = [...lint(table.filePath)];
  for (const reference of project.referencesTo(table)) {
    if (reference.file !== table.filePath)
      findings.push(...within(lint(reference.file), reference.range.start, reference.range.end));
  }
  const seen = new Set<string>();
  return firstPlansOf(findings, table.qualifiedName).filter(({ rule, plan }) => {
    const key = `${rule} ${planId(plan)}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
