// A FixEnvironment backed by the Project: table lookup across files, the shard maths, the file's other
// findings (for workload numbers) and the columns the workspace's queries restrict.
import type { Project } from '../project';
import type { TableInfo } from '../schema/model';
import type { FixEnvironment } from './index';
import { computeShard } from './shardMath';
import { hintsFor } from '../config';
import { targetInfo } from '../targets';

export interface EnvironmentSettings {
  /** The `cqlint.shardCount` setting. */
  shardCount?: number;
  maxInListShards?: number;
  /** See FixEnvironment.onError: without it, a fix that throws throws. */
  onError?: FixEnvironment['onError'];
}

/** An onError for callers that must keep going (server, CLI): the crash is kept in project.internalErrors. */
export function recordFixErrors(project: Project, filePath: string): NonNullable<FixEnvironment['onError']> {
  return (error, finding) => project.recordInternalError(finding.ruleId, filePath, error);
}

export function projectFixEnvironment(project: Project, filePath: string, settings: EnvironmentSettings = {}): FixEnvironment {
  const config = project.configFor(filePath);
  return {
    tableFor: (name, offset) => project.tableFor(filePath, name, offset),
    shardCount: settings.shardCount,
    maxInListShards: settings.maxInListShards,
    computeShard,
    findings: project.lint(filePath),
    queriedColumns: (table) => queriedColumns(project, table),
    hintsFor: (table) => hintsFor(config, table.keyspace, table.name),
    target: targetInfo(project.targetFor(filePath)),
    onError: settings.onError,
  };
}

/**
 * Columns that SELECT, UPDATE and DELETE statements anywhere in the project restrict with = or IN on
 * `table`, from the workspace reference index (no walk of the project).
 */
export function queriedColumns(project: Project, table: TableInfo): string[] {
  const out = new Set<string>();
  for (const reference of project.referencesTo(table)) {
    if (reference.kind === 'Insert') continue;
    for (const column of reference.pinned) out.add(column);
  }
  return [...out];
}
