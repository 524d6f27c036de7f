// A FixEnvironment backed by the Project: table lookup across files, the shard maths, the file's other
// findings (for workload numbers) and the workspace's reads and writes of a table (the reference index).
import type { Project } from '../project';
import { statementAt, type FixEnvironment } from './index';
import { computeShard } from './shard-math';
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
    maxInListShards: settings.maxInListShards ?? inListLimit(project, filePath),
    computeShard,
    findings: project.lint(filePath),
    filePath,
    referencesTo: (table) => project.referencesTo(table),
    statementAt: (file, range) => {
      const text = project.getText(file);
      if (text === undefined) return undefined;
      const statement = statementAt(project.parse(file), range);
      return statement && { text, statement };
    },
    tableNameTaken: (name) => project.schema().tablesByName.has(name),
    hintsFor: (table) => hintsFor(config, table.keyspace, table.name),
    target: targetInfo(project.targetFor(filePath)),
    onError: settings.onError,
  };
}

/**
 * The most values a fix may put in an IN on the partition key: what large-in-partition-key allows (a
 * fix must not raise a warning of its own); undefined (the fixes' default) when that rule is off.
 */
function inListLimit(project: Project, filePath: string): number | undefined {
  const max = project.ruleOptions(filePath, 'large-in-partition-key')?.['maxPartitions'];
  return typeof max === 'number' && max >= 1 ? max : undefined;
}
