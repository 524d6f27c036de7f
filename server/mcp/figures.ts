// The `partition_figures` tool: a table's partition figures as the partition report and the hover compute
// them (core/report tableReport), from the workspace's files read as `cqlint report` reads them (its
// .cqlint.json files, samples and evidence), written nowhere.
import * as path from 'node:path';
import { Project } from '../core/engine/project';
import { tableReport, tablesDefinedIn, type PartitionReportData } from '../core/report';
import { lintMemo } from '../core/report/table-findings';
import type { TargetId } from '../core/partition/targets';
import { ProjectFacts } from '../cli/project-facts';
import {
  discoveredConfigs,
  failureReporter,
  ignoreCheck,
  inputFolders,
  readInput,
  reportConfigErrors,
} from '../cli/io';
import { collectSourceFiles, keepSourceFile } from '../cli/sources';
import { tableMatches } from '../cli/fix-command';
import { capturedIO, invalidParams } from './run-cli';

/** What the tool returns of the report's data: the figures, findings and queries, not the drawing's layout. */
export type PartitionFigures = Omit<PartitionReportData, 'columns' | 'namePosition'>;

export async function partitionFigures(
  root: string,
  inputs: readonly string[],
  wanted: string,
  target?: TargetId,
): Promise<PartitionFigures> {
  const { io, output } = capturedIO(root);
  const report = failureReporter(io, 'cqlint mcp');
  const roots = await inputFolders(inputs, io);
  const facts = new ProjectFacts([], io.cwd);
  const configs = discoveredConfigs(roots);
  const project = new Project({ target, configLookup: configs.lookup, ...facts.projectOptions() });
  const loaded: string[] = [];
  const ignored = ignoreCheck(io, report, (entry) => configs.lookup(entry)?.config);
  for (const file of await collectSourceFiles(inputs, io, report, ignored, {
    configFor: (entry) => configs.lookup(entry)?.config,
  })) {
    const read = await readInput(file, io, report);
    if (read) {
      project.setFile(file, read.text);
      if (keepSourceFile(project, file, io)) loaded.push(file);
    }
  }
  reportConfigErrors(configs, loaded, report);
  if (report.failed) throw invalidParams(output().stderr.trim() || 'the inputs could not be read');
  await facts.read(project, loaded, { roots, fail: (m) => report.fail(m), warn: () => undefined });
  const tables = tablesDefinedIn(project, loaded).filter((t) => tableMatches(wanted, t.qualifiedName));
  if (!tables.length) throw invalidParams(`no table "${wanted}" is defined in ${inputs.join(', ')}`);
  const names = [...new Set(tables.map((t) => t.qualifiedName))];
  if (names.length > 1)
    throw invalidParams(`"${wanted}" names ${names.length} tables (${names.join(', ')}): give the keyspace`);
  // The last definition is the table as the workspace leaves it (a file may DROP and CREATE it again).
  const data = tableReport(project, tables[tables.length - 1]!, { lint: lintMemo(project) });
  const { columns: _columns, namePosition: _namePosition, ...figures } = data;
  const relative = (file: string): string => path.relative(root, file) || file;
  return {
    ...figures,
    file: relative(figures.file),
    findings: figures.findings.map((f) => ({ ...f, file: relative(f.file) })),
  };
}
