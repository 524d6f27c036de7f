// A FixEnvironment backed by the Project: table lookup across files, the shard maths, the file's other
// findings (for workload numbers), the workspace's reads and writes of a table (the reference index), and
// whether application code can take a fix's edits.
import type { Project } from '../project';
import { statementAt, type FixEnvironment } from './index';
import { hintsFor } from '../config';
import { targetInfo } from '../partition/targets';
import { udtLookupFrom } from '../partition/sizing';
import { LineIndex } from '../../../grammar/line-index';
import type { TableInfo } from '../schema/model';
import type { TableDefinitionSite, WorkspaceView } from './refactor';

export interface EnvironmentSettings {
  /** The `cqlint.shardCount` setting. */
  shardCount?: number;
  maxInListShards?: number;
  /** See FixEnvironment.onError: without it, a fix that throws throws. */
  onError?: FixEnvironment['onError'];
  /** How detail lines show a path (the CLI: relative to the working directory). */
  relativePath?(filePath: string): string;
  /** The file's findings when the caller has them (a report of many tables lints each file once). */
  findings?: FixEnvironment['findings'];
  /** See FixEnvironment.safeOnly. */
  safeOnly?: boolean;
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
    findings: settings.findings ?? project.lint(filePath),
    filePath,
    referencesTo: (table) => project.referencesTo(table),
    statementAt: (file, range) => {
      const text = project.getText(file);
      if (text === undefined) return undefined;
      const statement = statementAt(project.parse(file), range);
      return statement && { text, statement };
    },
    tableNameTaken: (name) => project.schema().tablesByName.has(name),
    hintsFor: (table) => project.tableHints(table.filePath, table) ?? hintsFor(config, table.keyspace, table.name),
    target: targetInfo(project.targetFor(filePath)),
    udts: udtLookupFrom(project.schema()),
    viewsOf: (table) => viewsOf(project, table),
    definitionsOf: (table) => definitionsOf(project, table),
    // Application code takes a fix's edits in its string literals, or says why not.
    refusal: (file, edits) => {
      if (project.hostLanguage(file) === undefined) return undefined;
      const source = project.sourceEdits(file, edits);
      return 'refused' in source ? source.refused : undefined;
    },
    lineOf: (file, text, offset) => (project.getText(file) === text ? project.positions(file)?.location(offset).line : new LineIndex(text).location(offset).line) ?? 0,
    ...(settings.relativePath ? { relativePath: settings.relativePath } : {}),
    ...(settings.safeOnly ? { safeOnly: true } : {}),
    onError: settings.onError,
  };
}

/** Every CREATE TABLE of the table's name in its keyspace, with its file's text and comments. */
function definitionsOf(project: Project, table: TableInfo): (TableDefinitionSite & { table: TableInfo })[] {
  const out: (TableDefinitionSite & { table: TableInfo })[] = [];
  for (const def of project.schema().candidates(table.keyspace, table.name)) {
    if (def.kind !== 'table' || def.qualifiedName !== table.qualifiedName) continue;
    const text = project.getText(def.filePath);
    if (text === undefined) continue;
    const parse = project.parse(def.filePath);
    const create = statementAt(parse, def.range);
    if (create?.kind === 'CreateTable') out.push({ filePath: def.filePath, text, create, comments: parse.comments, table: def });
  }
  return out;
}

/** The materialized views whose base is the table, with their CREATE statements. */
function viewsOf(project: Project, table: TableInfo): WorkspaceView[] {
  const out: WorkspaceView[] = [];
  for (const view of project.schema().allTables()) {
    if (view.kind !== 'view' || view.baseTable !== table.qualifiedName) continue;
    const text = project.getText(view.filePath);
    if (text === undefined) continue;
    const statement = statementAt(project.parse(view.filePath), view.range);
    if (statement?.kind === 'CreateMaterializedView') out.push({ filePath: view.filePath, text, statement });
  }
  return out;
}

/**
 * The most values a fix may put in an IN on the partition key: what large-in-partition-key allows (a
 * fix must not raise a warning of its own); undefined (the fixes' default) when that rule is off.
 */
function inListLimit(project: Project, filePath: string): number | undefined {
  const max = project.ruleOptions(filePath, 'large-in-partition-key')?.['maxPartitions'];
  return typeof max === 'number' && max >= 1 ? max : undefined;
}
