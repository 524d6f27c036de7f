// The keyspace view of the report, as data: each keyspace's tables (Chebotko's K / C↑ / C↓ / S marks),
// the workspace's queries numbered Q1..Qn with the table each reaches and how (queries.ts), the coverage
// matrix (which table serves which query by its key, which query no table serves, and which other table
// of the keyspace could), and the duplication factor (how many tables one logical write lands in).
// Severities are the diagnostics' (table-findings.ts). diagram.ts lays it out; html.ts draws it.
import * as path from 'node:path';
import type { Expression, Statement } from '../../../grammar/ast';
import type { Severity } from '../findings/findings';
import type { Project } from '../engine/project';
import type { ColumnInfo, TableInfo } from '../schema/model';
import type { TableReference } from '../schema/references';
import { nativeName } from '../schema/types';
import { statementAt as topStatementAt, walk } from '../util/ast-walk';
import { analyseWhere } from '../util/statements';
import { queryAccess, referenceStatement, servedByKey, type QueryAccess } from './queries';
import { tableFindings, worstSeverity, type LintOf } from './table-findings';

export type KeyMark = 'K' | 'C↑' | 'C↓' | 'S' | '';

export function markOf(col: ColumnInfo): KeyMark {
  if (col.role === 'partition') return 'K';
  if (col.role === 'clustering') return col.order === 'DESC' ? 'C↓' : 'C↑';
  if (col.role === 'static') return 'S';
  return '';
}

/** Where something is in the workspace: a file and a 0-based line and character (LSP positions). */
export interface SourcePlace {
  file: string;
  line: number;
  character: number;
}

export interface KeyspaceTable {
  name: string;
  qualifiedName: string;
  kind: 'table' | 'view';
  place: SourcePlace;
  columns: { name: string; type: string; mark: KeyMark }[];
  /** Diagnostics on the table and its statements (the badge's figures). */
  findings: number;
  severity?: Severity;
  /** Numbers of the queries that reach this table, by how. */
  queries: { number: number; access: QueryAccess }[];
}

export interface KeyspaceQuery {
  /** 1-based: Q1, Q2, ... within the keyspace. */
  number: number;
  place: SourcePlace;
  /** The statement on one line, shortened. */
  text: string;
  /** Index into KeyspaceView.tables. */
  table: number;
  access: QueryAccess;
  reads: string;
  /** Served by the table's primary key (it names its partitions). */
  served: boolean;
  /** Other tables of the keyspace whose primary key would serve it (indexes into tables). */
  couldServe: number[];
  /** Rule ids of the diagnostics on the statement. */
  findings: string[];
}

/** One logical write and the tables it lands in. */
export interface LogicalWrite {
  /** "a videos row (videoid)" or "the BATCH at queries.cql:12". */
  label: string;
  kind: 'entity' | 'batch';
  /** Indexes into KeyspaceView.tables, the home table first. */
  tables: number[];
  /** For an entity: the columns each other table copies from the home table. */
  copied?: string[][];
  place?: SourcePlace;
}

export interface KeyspaceView {
  /** Anchor id of the keyspace section. */
  id: string;
  keyspace?: string;
  /** "killrvideo", "killrvideo (schema-v5.cql)", "no keyspace (schema-v3.cql)". */
  title: string;
  tables: KeyspaceTable[];
  queries: KeyspaceQuery[];
  writes: LogicalWrite[];
  /** Mean tables per logical write (1 when none is duplicated); undefined without logical writes. */
  duplicationFactor?: number;
}

const MAX_QUERY_TEXT = 140;

function placeOf(project: Project, file: string, offset: number): SourcePlace {
  const lines = project.positions(file);
  if (!lines) return { file, line: 0, character: 0 };
  const { line, character } = lines.positionAt(offset);
  return { file, line, character };
}

function oneLine(text: string): string {
  const flat = text
    .replace(/--[^\n]*|\/\/[^\n]*|\/\*[\s\S]*?\*\//g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return flat.length > MAX_QUERY_TEXT ? `${flat.slice(0, MAX_QUERY_TEXT - 1)}…` : flat;
}

/** Column names an expression reads (selectors). */
function columnsOf(expr: Expression, out: Set<string>): void {
  walk(expr, (node) => {
    if (node.kind === 'ColumnRef') out.add((node as Expression & { kind: 'ColumnRef' }).name.name);
  });
}

/**
 * Another table serves a SELECT when its partition key columns are all pinned by the query (= or IN)
 * and it has every column the query names.
 */
function couldServe(table: TableInfo, statement: Statement | undefined): boolean {
  if (statement?.kind !== 'Select' || !table.partitionKey.length) return false;
  const analysis = analyseWhere(statement.where);
  const pinned = (name: string): boolean =>
    (analysis.byColumn.get(name) ?? []).some((r) => r.kind === 'eq' || r.kind === 'in');
  if (!table.partitionKey.every((c) => pinned(c.name))) return false;
  const named = new Set<string>(analysis.byColumn.keys());
  for (const s of statement.selectors) columnsOf(s.expression, named);
  const has = new Set(table.columns.map((c) => c.name));
  return [...named].every((n) => has.has(n));
}

/** Tables by keyspace; a keyspace whose tables are defined again in other files is shown once per file. */
function groupTables(tables: readonly TableInfo[]): { keyspace?: string; file?: string; tables: TableInfo[] }[] {
  const byKeyspace = new Map<string | undefined, TableInfo[]>();
  for (const t of tables) {
    const list = byKeyspace.get(t.keyspace);
    if (list) list.push(t);
    else byKeyspace.set(t.keyspace, [t]);
  }
  const groups: { keyspace?: string; file?: string; tables: TableInfo[] }[] = [];
  for (const [keyspace, list] of byKeyspace) {
    const files = new Map<string, TableInfo[]>();
    for (const t of list) {
      const l = files.get(t.filePath);
      if (l) l.push(t);
      else files.set(t.filePath, [t]);
    }
    const names = new Set<string>();
    const repeated = list.some((t) => {
      if (names.has(t.name)) return true;
      names.add(t.name);
      return false;
    });
    // Without a keyspace, each file is its own schema; so is each file of a keyspace defined twice (versions).
    if (files.size > 1 && (repeated || keyspace === undefined))
      for (const [file, l] of files) groups.push({ keyspace, file, tables: l });
    else groups.push({ keyspace, file: keyspace === undefined ? list[0]!.filePath : undefined, tables: list });
  }
  // Keyspaces by name, the tables without one last; a keyspace's files in path order.
  return groups.sort(
    (a, b) =>
      (a.keyspace === undefined ? 1 : 0) - (b.keyspace === undefined ? 1 : 0) ||
      (a.keyspace ?? '').localeCompare(b.keyspace ?? '') ||
      (a.file ?? '').localeCompare(b.file ?? ''),
  );
}

const ID_TYPES = new Set(['uuid', 'timeuuid']);

/** A column that names another entity (an id), not data of the row. */
function isIdColumn(col: ColumnInfo): boolean {
  return ID_TYPES.has(nativeName(col.type) ?? '') || /(^|_)id$|[a-z]id$/i.test(col.name);
}

/**
 * Logical writes: an entity whose home table is keyed by one column alone (`videos (videoid)`), copied
 * into each table of the keyspace that has that column and another of its non-id columns; and each
 * BATCH of the workspace that writes several of the keyspace's tables.
 */
function logicalWrites(
  project: Project,
  tables: readonly TableInfo[],
  display: (file: string) => string,
): LogicalWrite[] {
  const writes: LogicalWrite[] = [];
  tables.forEach((home, h) => {
    if (home.partitionKey.length !== 1 || home.clustering.length || home.kind !== 'table') return;
    const key = home.partitionKey[0]!.name;
    const data = home.columns.filter((c) => c.name !== key && !isIdColumn(c)).map((c) => c.name);
    const copies: number[] = [];
    const copied: string[][] = [];
    tables.forEach((other, o) => {
      if (o === h || !other.columns.some((c) => c.name === key)) return;
      const shared = data.filter((name) => other.columns.some((c) => c.name === name));
      if (!shared.length) return;
      copies.push(o);
      copied.push(shared);
    });
    writes.push({
      label: `a ${home.name} row (${key})`,
      kind: 'entity',
      tables: [h, ...copies],
      copied: [[], ...copied],
    });
  });
  // BATCHes: the write references of the keyspace's tables that lie in one BATCH statement.
  const batches = new Map<string, { file: string; start: number; tables: Set<number> }>();
  tables.forEach((table, t) => {
    for (const ref of project.referencesTo(table)) {
      if (ref.kind === 'Select') continue;
      const top = topStatementAt(project.parse(ref.file), ref.range.start);
      if (top?.kind !== 'Batch') continue;
      const key = `${ref.file}\0${top.range.start}`;
      const batch = batches.get(key) ?? { file: ref.file, start: top.range.start, tables: new Set<number>() };
      batch.tables.add(t);
      batches.set(key, batch);
    }
  });
  for (const batch of [...batches.values()].sort((a, b) => a.file.localeCompare(b.file) || a.start - b.start)) {
    if (batch.tables.size < 2) continue;
    const place = placeOf(project, batch.file, batch.start);
    writes.push({
      label: `the BATCH at ${display(batch.file)}:${place.line + 1}`,
      kind: 'batch',
      tables: [...batch.tables].sort((a, b) => a - b),
      place,
    });
  }
  return writes;
}

function anchorPart(text: string): string {
  return text.replace(/[^A-Za-z0-9_-]/g, '-');
}

export interface KeyspaceOptions {
  /** How files are named in labels (default: their base name). */
  displayPath?: (file: string) => string;
  /** Only the view that holds this table (the editor's report of one table). */
  only?: TableInfo;
  /** The files' diagnostics (default Project.lint; see lintMemo). */
  lint?: LintOf;
}

/** The keyspace views of `tables` (the report's tables, in file order), with the workspace's queries on them. */
export function keyspaceViews(
  project: Project,
  tables: readonly TableInfo[],
  options: KeyspaceOptions = {},
): KeyspaceView[] {
  const display = options.displayPath ?? ((file: string) => path.basename(file));
  const views: KeyspaceView[] = [];
  for (const group of groupTables(tables)) {
    if (options.only && !group.tables.includes(options.only)) continue;
    const name = group.keyspace ?? 'no keyspace';
    const title = group.file ? `${name} (${display(group.file)})` : name;
    const entries = group.tables.map((t) => ({ table: t, findings: tableFindings(project, t, options.lint) }));
    const view: KeyspaceView = {
      id: `keyspace-${anchorPart(group.keyspace ?? '')}${group.file ? `-${anchorPart(path.basename(group.file))}` : ''}-${views.length + 1}`,
      keyspace: group.keyspace,
      title,
      tables: entries.map(({ table, findings }) => {
        const all = [...findings.table, ...findings.queries.map((q) => q.finding)];
        return {
          name: table.name,
          qualifiedName: table.qualifiedName,
          kind: table.kind,
          place: placeOf(project, table.filePath, table.nameRange.start),
          columns: table.columns.map((c) => ({ name: c.name, type: c.typeText, mark: markOf(c) })),
          findings: all.length,
          severity: worstSeverity(all.map((f) => f.severity)),
          queries: [],
        };
      }),
      queries: [],
      writes: [],
    };
    // The SELECTs on the keyspace's tables, numbered in file order (a statement once, even if it
    // reaches copies of one definition).
    const selects: { ref: TableReference; t: number; findings: string[] }[] = [];
    const seen = new Set<string>();
    entries.forEach(({ table, findings }, t) => {
      for (const ref of project.referencesTo(table)) {
        if (ref.kind !== 'Select') continue;
        const key = `${ref.file}\0${ref.range.start}`;
        if (seen.has(key)) continue;
        seen.add(key);
        selects.push({
          ref,
          t,
          findings: findings.queries.filter((q) => q.reference === ref).map((q) => q.finding.ruleId),
        });
      }
    });
    selects.sort((a, b) => a.ref.file.localeCompare(b.ref.file) || a.ref.range.start - b.ref.range.start);
    selects.forEach(({ ref, t, findings }, i) => {
      const table = entries[t]!.table;
      const statement = referenceStatement(project, ref);
      const facts = queryAccess(project, table, ref, statement);
      const served = servedByKey(facts.access);
      const text = project.getText(ref.file)?.slice(ref.range.start, ref.range.end) ?? '';
      const query: KeyspaceQuery = {
        number: i + 1,
        place: placeOf(project, ref.file, ref.range.start),
        text: oneLine(text),
        table: t,
        access: facts.access,
        reads: facts.reads,
        served,
        couldServe: served
          ? []
          : entries.map((e, o) => (o !== t && couldServe(e.table, statement) ? o : -1)).filter((o) => o >= 0),
        findings,
      };
      view.queries.push(query);
      view.tables[t]!.queries.push({ number: query.number, access: query.access });
    });
    view.writes = logicalWrites(project, group.tables, display);
    if (view.writes.length)
      view.duplicationFactor = view.writes.reduce((s, w) => s + w.tables.length, 0) / view.writes.length;
    views.push(view);
  }
  return views;
}
