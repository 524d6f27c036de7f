// Which diagnostics belong to a table: those on its CREATE statement, and those on the workspace's
// statements that use it (an INSERT missing a key column, an ALLOW FILTERING scan). The report's badges,
// index and keyspace view count exactly these, taken from Project.lint (the diagnostics themselves).
import type { Finding, Severity } from '../findings';
import type { Project } from '../project';
import type { TableInfo } from '../schema/model';
import type { TableReference } from '../schema/references';

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

function within(finding: Finding, start: number, end: number): boolean {
  return finding.range.start.offset >= start && finding.range.end.offset <= end;
}

/** The diagnostics of a table and of the statements on it (Project.referencesTo), in file order. */
export function tableFindings(project: Project, table: TableInfo): TableFindings {
  const own = project.lint(table.filePath).filter((f) => within(f, table.range.start, table.range.end));
  const queries: TableFindings['queries'] = [];
  for (const reference of project.referencesTo(table)) {
    for (const finding of project.lint(reference.file)) {
      if (within(finding, reference.range.start, reference.range.end)) queries.push({ reference, finding });
    }
  }
  return { table: own, queries };
}
