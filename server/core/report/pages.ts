// The report of a whole workspace as pages of bounded size. Up to PAGE_TABLES tables it is one
// self-contained page; beyond, an index page (every keyspace with its figures, and the tables with the
// most severe findings) and, in a folder beside it, one page per keyspace of at most PAGE_TABLES tables
// (a large keyspace gets several), each with its keyspace view and its tables' sections. Pages are made
// one at a time (an async generator): a report of 10,000 tables never holds more than one page.
import type { Project } from '../engine/project';
import type { TableInfo } from '../schema/model';
import { lintMemo, worstSeverity } from './table-findings';
import { indexSection, pageHead, renderReportHtml, sortBySeverity, tableAnchors, type IndexEntry } from './html';
import type { KeyspaceView } from './keyspace';
import { escapeHtml } from './svg';
import { tableReportWithSample, type PartitionReportData, type ReportOptions } from './index';
import type { SampleCache } from './sample-cache';

/** Tables on one page: about 3.5 MB of HTML at the most (a table's section is 10-35 KB). */
export const PAGE_TABLES = 100;
/** Tables the index page of a paged report lists (the most severe first); every keyspace is listed. */
export const INDEX_TABLES = 500;

export interface ReportPage {
  /** Where the page goes, relative to the index page's folder ('' for the index page itself). */
  path: string;
  html: string;
  tables: number;
}

export interface PagedReportOptions extends ReportOptions {
  title: string;
  subtitle?: string;
  displayPath: (file: string) => string;
  /** The index page's file name (pages link back to it) and the folder beside it that holds the pages. */
  indexName: string;
  pagesFolder: string;
  /** Sample reading (see tableReportWithSample). */
  cache?: SampleCache;
  onProblem?: (message: string) => void;
  /** Where the samples and rings a .cqlint.json names may be read from (see tableReportWithSample). */
  roots?: readonly string[] | 'none';
}

function slug(text: string): string {
  return text.replace(/[^A-Za-z0-9_-]+/g, '-').replace(/^-|-$/g, '') || 'keyspace';
}

function entryOf(r: PartitionReportData): IndexEntry {
  return {
    table: r.table,
    file: r.file,
    line: r.line,
    severity: r.severity,
    findings: r.findings.map((f) => ({ ruleId: f.ruleId, on: f.on, severity: f.severity })),
  };
}

async function reportsOf(
  project: Project,
  tables: readonly TableInfo[],
  options: PagedReportOptions,
): Promise<PartitionReportData[]> {
  const reports: PartitionReportData[] = [];
  for (const table of tables)
    reports.push(
      await tableReportWithSample(project, table, { ...options, cache: options.cache, onProblem: options.onProblem }),
    );
  return reports;
}

/**
 * The report's pages: one page when the tables fit on it, else the pages of each keyspace and, last,
 * the index page (path ''). `views` are the keyspace views of `tables` (keyspaceViews).
 */
export async function* reportPages(
  project: Project,
  tables: readonly TableInfo[],
  views: readonly KeyspaceView[],
  options: PagedReportOptions,
): AsyncGenerator<ReportPage> {
  // The diagnostics stand while the report is made (the samples are read before): each file linted once.
  options = { ...options, lint: options.lint ?? lintMemo(project) };
  const anchorOf = tableAnchors(tables.map((t) => ({ table: t.qualifiedName, file: t.filePath })));
  if (tables.length <= PAGE_TABLES) {
    const reports = await reportsOf(project, tables, options);
    yield {
      path: '',
      tables: reports.length,
      html: renderReportHtml(reports, {
        title: options.title,
        subtitle: options.subtitle,
        index: true,
        displayPath: options.displayPath,
        keyspaces: views,
        anchorOf,
      }),
    };
    return;
  }
  // Which page each table is on: the keyspace's tables in chunks, in the keyspace view's order.
  const byKey = new Map<string, TableInfo>(tables.map((t) => [`${t.qualifiedName}\0${t.filePath}`, t]));
  const pages: { path: string; view: KeyspaceView; part: number; parts: number; tables: TableInfo[] }[] = [];
  const pageOfTable = new Map<string, string>();
  const used = new Set<string>();
  for (const view of views) {
    const list = view.tables
      .map((t) => byKey.get(`${t.qualifiedName}\0${t.place.file}`))
      .filter((t): t is TableInfo => t !== undefined);
    const parts = Math.max(1, Math.ceil(list.length / PAGE_TABLES));
    let base = slug(view.title);
    for (let n = 2; used.has(base); n++) base = `${slug(view.title)}-${n}`;
    used.add(base);
    for (let part = 1; part <= parts; part++) {
      const chunk = list.slice((part - 1) * PAGE_TABLES, part * PAGE_TABLES);
      const path = `${options.pagesFolder}/${base}${parts > 1 ? `-${part}` : ''}.html`;
      pages.push({ path, view, part, parts, tables: chunk });
      for (const t of chunk) pageOfTable.set(`${t.qualifiedName}\0${t.filePath}`, path);
    }
  }
  const fileName = (p: string): string => p.slice(p.lastIndexOf('/') + 1);
  const entries: (IndexEntry & { page: string })[] = [];
  const keyspaceRows: string[] = [];
  for (const page of pages) {
    const reports = await reportsOf(project, page.tables, options);
    for (const r of reports) entries.push({ ...entryOf(r), page: page.path });
    const nav = [
      `<a href="../${escapeHtml(options.indexName)}">index of the report</a>`,
      ...(page.parts > 1 ? [`part ${page.part} of ${page.parts} of keyspace ${escapeHtml(page.view.title)}`] : []),
    ];
    yield {
      path: page.path,
      tables: reports.length,
      html: renderReportHtml(reports, {
        title: `${options.title}: ${page.view.title}${page.parts > 1 ? ` (${page.part} of ${page.parts})` : ''}`,
        subtitle: options.subtitle,
        index: true,
        displayPath: options.displayPath,
        keyspaces: page.part === 1 ? [page.view] : [],
        anchorOf,
        pageOf: (name, file) => {
          const other = pageOfTable.get(`${name}\0${file}`);
          return other && other !== page.path ? fileName(other) : undefined;
        },
        navHtml: nav.join(' · '),
      }),
    };
    if (page.part === 1) {
      const tablesOf = pages.filter((p) => p.view === page.view);
      const findings = page.view.tables.reduce((s, t) => s + t.findings, 0);
      const severity = worstSeverity(page.view.tables.flatMap((t) => (t.severity ? [t.severity] : [])));
      const links = tablesOf
        .map((p) => `<a href="${escapeHtml(p.path)}">${p.parts > 1 ? `part ${p.part}` : 'page'}</a>`)
        .join(' ');
      keyspaceRows.push(
        `<tr><td>${escapeHtml(page.view.title)}</td><td class="num">${page.view.tables.length}</td><td class="num">${page.view.queries.length}</td>` +
          `<td class="num"><span class="sev-${severity ?? 'none'}">${findings}</span></td><td class="num">${page.view.duplicationFactor?.toFixed(2) ?? '—'}</td><td>${links}</td></tr>`,
      );
    }
  }
  const worst = sortBySeverity(entries).slice(0, INDEX_TABLES);
  const withFindings = entries.filter((e) => e.findings.length).length;
  const html =
    `${pageHead(options.title)}<body><header><h1>${escapeHtml(options.title)}</h1>${options.subtitle ? `<p class="muted">${escapeHtml(options.subtitle)}</p>` : ''}</header>` +
    `<p class="note">${entries.length.toLocaleString('en-US')} tables in ${views.length} keyspace${views.length === 1 ? '' : 's'}: each keyspace's diagram, coverage and tables are on its own page ` +
    `(at most ${PAGE_TABLES} tables a page) in ${escapeHtml(options.pagesFolder)}/. ${withFindings.toLocaleString('en-US')} tables have findings; the index below lists the ${worst.length.toLocaleString('en-US')} most severe.</p>` +
    `<nav aria-label="Keyspaces"><h2>Keyspaces</h2><table data-figure="keyspaces"><thead><tr><th>keyspace</th><th class="num">tables</th><th class="num">queries</th><th class="num">findings</th><th class="num">duplication factor</th><th>pages</th></tr></thead><tbody>${keyspaceRows.join('')}</tbody></table></nav>` +
    indexSection(
      worst,
      (e) => `${(e as (typeof worst)[number]).page}#${anchorOf(e.table, e.file)}`,
      options.displayPath,
    ) +
    '</body></html>\n';
  yield { path: '', tables: entries.length, html };
}
