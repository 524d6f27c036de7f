// The partition report: data (data.ts), sample reading (sample.ts, csv.ts) and the HTML page (html.ts).
import { readFile } from 'node:fs/promises';
import type { Project } from '../project';
import { sampleFor } from '../config';
import { parseRing, type Ring } from '../token/ring';
import type { TableInfo } from '../schema/model';
import { targetInfo } from '../targets';
import { partitionReportData, type PartitionReportData, type ReportOptions } from './data';
import { readSampleFile, type SampleOptions } from './sample';

export * from './data';
export { renderReportHtml, sortBySeverity, type RenderOptions } from './html';
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
  // The hints as the rules see them: the table's `-- @cqlint` comment, overridden by the config.
  return partitionReportData(project, table, targetInfo(project.targetFor(table.filePath)), project.tableHints(table.filePath, table), options);
}

interface SampleReading {
  /** Progress and cancellation for the sample's reading. */
  onProgress?: SampleOptions['onProgress'];
  isCancelled?: SampleOptions['isCancelled'];
  /** Why the sample or the ring could not be used (the report is made without them). */
  onProblem?: (message: string) => void;
}

async function ringFor(path: string | undefined, onProblem?: (message: string) => void): Promise<Ring | undefined> {
  if (!path) return undefined;
  try {
    return parseRing(await readFile(path, 'utf8'));
  } catch (error) {
    onProblem?.(`ring ${path}: ${error instanceof Error ? error.message : String(error)}`);
    return undefined;
  }
}

/**
 * The report of a table with its configured sample (`samples` in .cqlint.json) read in: spread with the
 * formula the report shows (the table's @shard, or the one the fix proposes), nodes with the configured ring.
 */
export async function tableReportWithSample(project: Project, table: TableInfo, options: ReportOptions & SampleReading = {}): Promise<PartitionReportData> {
  const first = tableReport(project, table, options);
  const setting = sampleFor(project.configFor(table.filePath), table.keyspace, table.name);
  if (!setting) return first;
  try {
    const sample = await readSampleFile(setting.file, table, project.schema(), {
      columns: setting.columns,
      shard: first.spread?.shard.method === 'random' ? undefined : first.spread?.shard,
      ring: await ringFor(project.configFor(table.filePath).ring, options.onProblem),
      onProgress: options.onProgress,
      isCancelled: options.isCancelled,
    });
    return tableReport(project, table, { ...options, sample });
  } catch (error) {
    options.onProblem?.(`sample ${setting.file} of ${table.qualifiedName}: ${error instanceof Error ? error.message : String(error)}`);
    return first;
  }
}
