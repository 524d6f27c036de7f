// The partition report: data (data.ts), sample reading (sample.ts, csv.ts) and the HTML page (html.ts).
import type { Project } from '../project';
import { hintsFor } from '../config';
import type { TableInfo } from '../schema/model';
import { targetInfo } from '../targets';
import { partitionReportData, type PartitionReportData, type ReportOptions } from './data';

export * from './data';
export { renderReportHtml, sortBySeverity, formatDuration, type RenderOptions } from './html';
export type { SampleSummary, SamplePartition } from './sample';

/** Tables and views defined in `files` (every project file when omitted), in file order. */
export function tablesDefinedIn(project: Project, files: readonly string[] = project.files()): TableInfo[] {
  const wanted = new Set(files);
  return project.schema().allTables()
    .filter((t) => wanted.has(t.filePath))
    .sort((a, b) => a.filePath.localeCompare(b.filePath) || a.range.start.offset - b.range.start.offset);
}

/** The report data of one table, with the target and hints that apply to its file. */
export function tableReport(project: Project, table: TableInfo, options: ReportOptions = {}): PartitionReportData {
  const config = project.configFor(table.filePath);
  return partitionReportData(project, table, targetInfo(project.targetFor(table.filePath)), hintsFor(config, table.keyspace, table.name), options);
}
