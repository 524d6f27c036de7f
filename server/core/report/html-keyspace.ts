// The keyspace view of the HTML report: the Chebotko diagram (diagram.ts), the coverage matrix (which
// table answers which query, and how) and the logical writes with the duplication factor. Draws
// KeyspaceView (keyspace.ts) only.
import { diagramLayout, diagramSvg } from './diagram';
import type { KeyspaceView, SourcePlace } from './keyspace';
import type { QueryAccess } from './queries';
import { escapeHtml } from './svg';

export interface KeyspaceLinks {
  /** The page link of a table (its section), by qualified name and file. */
  tableHref: (qualifiedName: string, file: string) => string | undefined;
  /** A link that opens a place in the editor (the VS Code panel); none in the standalone file. */
  sourceHref?: (place: SourcePlace) => string | undefined;
  /** How files are shown. */
  displayPath: (file: string) => string;
}

export function queryAnchor(view: KeyspaceView, query: number): string {
  return `${view.id}-q${query}`;
}

/** The mark of a coverage cell, and what it means. */
const ACCESS_CELL: Record<QueryAccess, { mark: string; meaning: string; cls: string }> = {
  partition: { mark: '●', meaning: 'served by the key: one partition', cls: 'cov-key' },
  partitions: { mark: '●', meaning: 'served by the key: the partitions of an IN', cls: 'cov-key' },
  index: { mark: '◐', meaning: 'through an index: every node', cls: 'cov-index' },
  'token-range': { mark: '○', meaning: 'a token range: a slice of every partition', cls: 'cov-scan' },
  filtering: { mark: '✕', meaning: 'ALLOW FILTERING: every partition read', cls: 'cov-scan' },
  scan: { mark: '✕', meaning: 'a scan: every partition read', cls: 'cov-scan' },
  sample: { mark: '○', meaning: 'a sample: the first rows met', cls: 'cov-scan' },
  write: { mark: '', meaning: '', cls: '' },
};

/** Tables up to which the coverage is drawn as a matrix (one column per table); a list beyond. */
const MATRIX_TABLES = 40;
/** Tables up to which a keyspace's diagram is drawn in the page (`cqlint report --diagram` draws any). */
export const DIAGRAM_MAX_TABLES = 150;
/** Queries listed in the coverage at the most (the summary counts them all). */
const MAX_COVERAGE_ROWS = 1000;
/** Logical writes listed at the most, and tables named per write. */
const MAX_WRITES = 50;
const MAX_WRITE_TABLES = 12;

function coverage(view: KeyspaceView, links: KeyspaceLinks): string {
  if (!view.queries.length) {
    return '<p class="muted" data-figure="coverage">No SELECT in the inputs reads these tables: add the application\'s queries to a .cql file beside the schema to check which table answers each.</p>';
  }
  const served = view.queries.filter((q) => q.served).length;
  const index = view.queries.filter((q) => q.access === 'index').length;
  const none = view.queries.filter((q) => !q.served && q.access !== 'index');
  const summary =
    `<p data-figure="coverage-summary"><strong>${served}</strong> of ${view.queries.length} quer${view.queries.length === 1 ? 'y is' : 'ies are'} answered by a table's key, ` +
    `${index} through an index (every node), <strong${none.length ? ' class="sev-warning"' : ''}>${none.length}</strong> by no table` +
    `${none.length ? ` (${none.map((q) => `Q${q.number}`).join(', ')})` : ''}.` +
    `${view.queries.some((q) => q.couldServe.length) ? ' ◇ marks a table whose key would answer a query that is not.' : ''}</p>`;
  const listed = view.queries.slice(0, MAX_COVERAGE_ROWS);
  const more =
    view.queries.length > listed.length
      ? `<p class="muted">The first ${MAX_COVERAGE_ROWS} of ${view.queries.length} queries are listed.</p>`
      : '';
  const used = view.tables
    .map((_, t) => t)
    .filter((t) => listed.some((q) => q.table === t || q.couldServe.includes(t)));
  const queryCell = (q: KeyspaceView['queries'][number]): string => {
    const where = `${links.displayPath(q.place.file)}:${q.place.line + 1}`;
    const source = links.sourceHref?.(q.place);
    return (
      `<th scope="row" id="${escapeHtml(queryAnchor(view, q.number))}" class="mono">Q${q.number}</th>` +
      `<td class="mono query-text" title="${escapeHtml(q.text)}">${escapeHtml(q.text)}</td>` +
      `<td class="mono">${source ? `<a href="${escapeHtml(source)}">${escapeHtml(where)}</a>` : escapeHtml(where)}</td>`
    );
  };
  if (used.length <= MATRIX_TABLES) {
    const head = used
      .map((t) => {
        const table = view.tables[t]!;
        const href = links.tableHref(table.qualifiedName, table.place.file);
        return `<th class="cov-table"><span>${href ? `<a href="${escapeHtml(href)}">${escapeHtml(table.name)}</a>` : escapeHtml(table.name)}</span></th>`;
      })
      .join('');
    const rows = listed
      .map((q) => {
        const cells = used
          .map((t) => {
            if (t === q.table) {
              const cell = ACCESS_CELL[q.access];
              return `<td class="cov ${cell.cls}" data-access="${q.access}" title="${escapeHtml(`Q${q.number} on ${view.tables[t]!.name}: ${q.reads}`)}">${cell.mark}</td>`;
            }
            if (q.couldServe.includes(t))
              return `<td class="cov cov-could" data-access="could" title="${escapeHtml(`${view.tables[t]!.name}'s key would answer Q${q.number}`)}">◇</td>`;
            return '<td class="cov"></td>';
          })
          .join('');
        return `<tr data-query="${q.number}" data-served="${q.served}">${queryCell(q)}${cells}<td>${escapeHtml(q.reads)}${q.findings.length ? ` <span class="muted">(${escapeHtml([...new Set(q.findings)].join(', '))})</span>` : ''}</td></tr>`;
      })
      .join('');
    const legend =
      '<p class="muted legend-cov">● by the table\'s key · ◐ through an index (every node) · ✕ a scan or ALLOW FILTERING · ○ a token range or a sample · ◇ this table\'s key would answer it</p>';
    return `${summary}<div class="scroll"><table class="coverage" data-figure="coverage"><thead><tr><th>query</th><th>statement</th><th>where</th>${head}<th>reads</th></tr></thead><tbody>${rows}</tbody></table></div>${legend}${more}`;
  }
  const rows = listed
    .map((q) => {
      const table = view.tables[q.table]!;
      const could = q.couldServe.map((t) => view.tables[t]!.name).join(', ');
      return `<tr data-query="${q.number}" data-served="${q.served}">${queryCell(q)}<td class="mono">${escapeHtml(table.name)}</td><td>${escapeHtml(q.reads)}</td><td class="mono">${escapeHtml(could || '—')}</td></tr>`;
    })
    .join('');
  return `${summary}<div class="scroll"><table class="coverage" data-figure="coverage"><thead><tr><th>query</th><th>statement</th><th>where</th><th>table</th><th>reads</th><th>a key that would answer it</th></tr></thead><tbody>${rows}</tbody></table></div>${more}`;
}

function writes(view: KeyspaceView): string {
  const duplicated = view.writes.filter((w) => w.tables.length > 1);
  if (view.duplicationFactor === undefined) return '';
  const factor = view.duplicationFactor.toFixed(2).replace(/\.?0+$/, '');
  const head =
    `<p data-figure="duplication">Duplication factor <strong data-figure="duplication-factor">${factor}</strong>: ` +
    `a logical write lands in ${factor} table${factor === '1' ? '' : 's'} on average (${view.writes.length} logical write${view.writes.length === 1 ? '' : 's'}: each entity keyed by one column alone, and each BATCH over several tables).</p>`;
  if (!duplicated.length) return head;
  // The most duplicated first; a keyspace of hundreds of look-alike tables lists the first ones.
  const listed = [...duplicated].sort((a, b) => b.tables.length - a.tables.length).slice(0, MAX_WRITES);
  const rows = listed
    .map((w) => {
      const tables = w.tables.slice(0, MAX_WRITE_TABLES).map((t, i) => {
        const copied = w.copied?.[i];
        return `${escapeHtml(view.tables[t]!.name)}${copied?.length ? ` <span class="muted">(${escapeHtml(copied.join(', '))})</span>` : ''}`;
      });
      if (w.tables.length > MAX_WRITE_TABLES)
        tables.push(`<span class="muted">and ${w.tables.length - MAX_WRITE_TABLES} more</span>`);
      return `<tr><td>${escapeHtml(w.label)}</td><td class="num">${w.tables.length}</td><td class="mono">${tables.join('<br>')}</td></tr>`;
    })
    .join('');
  const more =
    duplicated.length > listed.length
      ? `<p class="muted">The ${listed.length} most duplicated of ${duplicated.length} logical writes that land in several tables are listed.</p>`
      : '';
  return `${head}<table data-figure="logical-writes"><thead><tr><th>logical write</th><th class="num">tables</th><th>lands in (columns copied)</th></tr></thead><tbody>${rows}</tbody></table>${more}`;
}

/** One keyspace: its diagram, coverage matrix and logical writes. */
export function keyspaceSection(view: KeyspaceView, links: KeyspaceLinks): string {
  const tables = view.tables.length;
  const figure =
    tables > DIAGRAM_MAX_TABLES
      ? `<p class="note" data-figure="keyspace-diagram-omitted">${tables} tables are too many to draw readably in the page: <code>cqlint report --diagram keyspace.svg</code> draws them all.</p>`
      : `<figure class="diagram" data-figure="keyspace-diagram"><div class="scroll">${keyspaceSvg(view, links)}</div></figure>`;
  return (
    `<section class="keyspace" id="${escapeHtml(view.id)}" data-keyspace="${escapeHtml(view.title)}" aria-label="Keyspace ${escapeHtml(view.title)}">` +
    `<h2>Keyspace ${escapeHtml(view.title)}</h2>` +
    `<p class="muted">${tables} table${tables === 1 ? '' : 's'}, ${view.queries.length} quer${view.queries.length === 1 ? 'y' : 'ies'} (the SELECTs of the inputs, numbered in file order). ` +
    `${links.sourceHref ? 'Click a table or a query to open it in the editor.' : 'Click a table for its page, a query for its row below.'}</p>` +
    figure +
    `<h3>Coverage</h3>${coverage(view, links)}` +
    `${view.duplicationFactor !== undefined ? `<h3>Logical writes</h3>${writes(view)}` : ''}` +
    '</section>'
  );
}

function keyspaceSvg(view: KeyspaceView, links: KeyspaceLinks): string {
  const layout = diagramLayout(view);
  return diagramSvg(view, layout, {
    id: view.id,
    links: {
      table: (t) => {
        const table = view.tables[t]!;
        return links.sourceHref?.(table.place) ?? links.tableHref(table.qualifiedName, table.place.file);
      },
      query: (q) => links.sourceHref?.(view.queries[q - 1]!.place) ?? `#${queryAnchor(view, q)}`,
    },
  });
}
