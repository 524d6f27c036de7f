// The FixContext of a file of a Project, built here and nowhere else: table lookup across files, the
// workspace's statements on a table (the reference index, found in their files' syntax trees), the
// table's definitions and views, whether application code can take a fix's edits, the target and the settings.
import type { Project } from '../engine/project';
import type { FixContext } from './index';
import { batchHolding, statementWithRange } from '../util/ast-walk';
import { targetInfo } from '../partition/targets';
import { ONE_READ_SHARDS } from '../partition/limits';
import { LineIndex } from '../../../grammar/line-index';
import type { TableInfo } from '../schema/model';
import { isDmlStatement } from './key-rewrite';
import type { TableDefinitionSite, WorkspaceStatement, WorkspaceView } from './refactor';
import type { MigrationTarget } from './migration-fix';

export interface ContextSettings {
  /** The `cqlint.shardCount` setting. */
  shardCount?: number;
  maxInListShards?: number;
  /** See FixContext.onError: without it, a fix that throws throws. */
  onError?: FixContext['onError'];
  /** How detail lines show a path (the CLI: relative to the working directory). */
  relativePath?(filePath: string): string;
  /** See FixContext.safeOnly. */
  safeOnly?: boolean;
}

/** An onError for callers that must keep going (server, CLI): the crash is kept in project.internalErrors. */
export function recordFixErrors(project: Project, filePath: string): NonNullable<FixContext['onError']> {
  return (error, finding) => project.recordInternalError(finding.ruleId, filePath, error);
}

export function projectFixContext(project: Project, filePath: string, settings: ContextSettings = {}): FixContext {
  return {
    filePath,
    safeOnly: settings.safeOnly ?? false,
    target: targetInfo(project.targetFor(filePath)),
    shardCount: settings.shardCount,
    maxInListShards: settings.maxInListShards ?? inListLimit(project, filePath) ?? ONE_READ_SHARDS,
    tableFor: (name, offset) => project.tableFor(filePath, name, offset),
    statementsOn: (table) => statementsOn(project, table),
    tableNameTaken: (name) => project.schema().tablesByName.has(name),
    migration: (file, table) => migrationTarget(project, file, table),
    viewsOf: (table) => viewsOf(project, table),
    definitionsOf: (table) => definitionsOf(project, table),
    // Application code takes a fix's edits in its string literals, or says why not.
    refusal: (file, edits) => {
      if (project.hostLanguage(file) === undefined) return undefined;
      const source = project.sourceEdits(file, edits);
      return 'refused' in source ? source.refused : undefined;
    },
    applicationCode: (file) => project.hostLanguage(file) !== undefined,
    lineOf: (file, text, offset) =>
      (project.getText(file) === text
        ? project.positions(file)?.location(offset).line
        : new LineIndex(text).location(offset).line) ?? 0,
    relativePath: settings.relativePath ?? ((p) => p),
    onError: settings.onError,
  };
}

/** The migration folder of a file, and the table as the folder leaves it (the schema's definition of its name). */
function migrationTarget(project: Project, filePath: string, table: TableInfo): MigrationTarget | undefined {
  const folder = project.migrationOf(filePath)?.folder;
  if (!folder) return undefined;
  const current = project
    .schema()
    .candidates(table.keyspace, table.name)
    .find((t) => t.kind === 'table' && t.qualifiedName === table.qualifiedName);
  return { folder, current: current ?? table };
}

/** The statements of the workspace's references to the table, found in their files' syntax trees, with the batch each stands in. */
function statementsOn(project: Project, table: TableInfo): WorkspaceStatement[] {
  const out: WorkspaceStatement[] = [];
  for (const reference of project.referencesTo(table)) {
    const text = project.getText(reference.file);
    if (text === undefined) continue;
    const parse = project.parse(reference.file);
    const statement = statementWithRange(parse, reference.range);
    if (!statement || !isDmlStatement(statement)) continue;
    const batch = batchHolding(parse, statement);
    out.push({ filePath: reference.file, text, statement, ...(batch ? { batch } : {}) });
  }
  return out;
}

/**
 * Every CREATE TABLE of the table's name in its keyspace, with its file's text and comments: the schema's
 * definitions, and any other CREATE of the same table in their files (a file that drops and creates a
 * table again keeps only its last definition in the schema, but both are the table).
 */
function definitionsOf(project: Project, table: TableInfo): (TableDefinitionSite & { table: TableInfo })[] {
  const out: (TableDefinitionSite & { table: TableInfo })[] = [];
  const files = new Set<string>([table.filePath]);
  for (const def of project.schema().candidates(table.keyspace, table.name)) {
    if (def.kind === 'table' && def.qualifiedName === table.qualifiedName) files.add(def.filePath);
  }
  for (const file of files) {
    const text = project.getText(file);
    if (text === undefined) continue;
    const parse = project.parse(file);
    for (const create of parse.statements) {
      if (create.kind !== 'CreateTable' || create.name.name.name !== table.name) continue;
      const info = project.tableFor(file, create.name, create.range.end);
      if (info?.kind === 'table' && info.qualifiedName === table.qualifiedName)
        out.push({ filePath: file, text, create, comments: parse.comments, table: info });
    }
  }
  return out;
}

/** The materialized views whose base is the table, with their CREATE statements. */
function viewsOf(project: Project, table: TableInfo): WorkspaceView[] {
  const out: WorkspaceView[] = [];
  for (const view of project.schema().viewsOf(table)) {
    const text = project.getText(view.filePath);
    if (text === undefined) continue;
    const statement = statementWithRange(project.parse(view.filePath), view.range);
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
