// A FixEnvironment backed by the Project: table lookup across files, the shard maths, the file's other
// findings (for workload numbers) and the columns the workspace's queries restrict.
import type { Project } from '../project';
import type { TableInfo } from '../schema/model';
import { allStatements } from '../util/statements';
import type { FixEnvironment } from './index';
import { computeShard } from './shardMath';
import { hintsFor } from '../config';
import { targetInfo } from '../targets';

export interface EnvironmentSettings {
  /** The `cqlint.shardCount` setting. */
  shardCount?: number;
  maxInListShards?: number;
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
  };
}

/** Columns that SELECT, UPDATE and DELETE statements anywhere in the project restrict with = or IN on `table`. */
export function queriedColumns(project: Project, table: TableInfo): string[] {
  const out = new Set<string>();
  for (const file of project.files()) {
    for (const statement of allStatements(project.parse(file).statements)) {
      if (statement.kind !== 'Select' && statement.kind !== 'Update' && statement.kind !== 'Delete') continue;
      const name = statement.kind === 'Select' ? statement.from : statement.table;
      if (name.name.name !== table.name) continue;
      if (project.tableFor(file, name, statement.range.start.offset) !== table) continue;
      for (const relation of statement.where) {
        if ((relation.operator === '=' || relation.operator === 'IN') && relation.left.kind === 'ColumnRef') out.add(relation.left.name.name);
      }
    }
  }
  return [...out];
}
