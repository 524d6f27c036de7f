// The keyspace diagram: a Chebotko-style physical diagram of a keyspace's tables (name, type and the
// K / C↑ / C↓ / S marks of each column) with the workspace's queries, numbered Q1..Qn, as arrows into
// the tables that answer them (solid: by the table's key; dashed: through an index; dotted: a scan or
// ALLOW FILTERING). Laid out here as plain geometry (diagramLayout: boxes on shelves, each box's
// arrows and query labels above it, nothing drawn over anything else), drawn as static SVG by
// diagramSvg. Text is monospace so that its width is known without a browser.
import { escapeHtml } from './svg';
import type { QueryAccess } from './queries';
import type { KeyspaceView } from './keyspace';

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

interface PlacedText {
  text: string;
  /** Start of the text and its baseline. */
  x: number;
  y: number;
  /** The box the text fills (from its characters' width). */
  rect: Rect;
}

export type ArrowKind = 'key' | 'index' | 'scan';

export interface DiagramBox {
  table: number;
  rect: Rect;
  header: PlacedText;
  rows: { name: PlacedText; type: PlacedText; mark?: PlacedText }[];
  /** "+ 12 more columns" when the box shows only the first ones. */
  more?: PlacedText;
}

export interface DiagramArrow {
  table: number;
  kind: ArrowKind;
  /** Vertical line from (x, y1) down to the box top (x, y2); a tick joins it to its labels at y1. */
  x: number;
  y1: number;
  y2: number;
  tickTo: number;
  labels: { query: number; text: PlacedText }[];
}

export interface DiagramLayout {
  width: number;
  height: number;
  title: PlacedText;
  legend: PlacedText[];
  boxes: DiagramBox[];
  arrows: DiagramArrow[];
}

/** Monospace metrics: 12 px text is at most 7.3 px a character in the fonts browsers pick for `monospace`. */
const FONT_SIZE = 12;
const CHAR_WIDTH = 7.3;
const TITLE_CHAR_WIDTH = 8.9;
const LINE = 16;
const HEADER = 22;
const PAD = 8;
const GAP_X = 28;
const GAP_Y = 26;
const MARGIN = 16;
const ARROW_STEP = 12;
const MAX_NAME = 28;
const MAX_TYPE = 22;
const MAX_TITLE = 38;
const MAX_ROWS = 24;
const DEFAULT_WIDTH = 1180;

const ARROW_KINDS: ArrowKind[] = ['key', 'index', 'scan'];

export function arrowKindOf(access: QueryAccess): ArrowKind | undefined {
  if (access === 'partition' || access === 'partitions') return 'key';
  if (access === 'index') return 'index';
  if (access === 'write') return undefined;
  return 'scan';
}

function shorten(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

function textAt(text: string, x: number, y: number, charWidth = CHAR_WIDTH, size = FONT_SIZE): PlacedText {
  return { text, x, y, rect: { x, y: y - size * 0.8, width: text.length * charWidth, height: size } };
}

function textWidth(text: string): number {
  return text.length * CHAR_WIDTH;
}

interface Measured {
  table: number;
  /** Columns shown (a box of many columns shows its first ones and says how many more), and the name column's width in characters. */
  shown: number;
  nameChars: number;
  width: number;
  boxHeight: number;
  /** Query labels above the box, per arrow kind. */
  groups: { kind: ArrowKind; queries: number[]; lines: number[][] }[];
  labelHeight: number;
}

/** Wraps query numbers ("Q1 Q2 ...") into lines of at most `width` pixels. */
function wrapQueries(queries: number[], width: number): number[][] {
  const lines: number[][] = [];
  let line: number[] = [];
  let used = 0;
  for (const q of queries) {
    const w = textWidth(`Q${q}`);
    if (line.length && used + CHAR_WIDTH + w > width) {
      lines.push(line);
      line = [];
      used = 0;
    }
    used += (line.length ? CHAR_WIDTH : 0) + w;
    line.push(q);
  }
  if (line.length) lines.push(line);
  return lines;
}

function measure(view: KeyspaceView, t: number): Measured {
  const table = view.tables[t]!;
  const shown = table.columns.slice(0, table.columns.length > MAX_ROWS ? MAX_ROWS - 1 : MAX_ROWS);
  const nameChars = Math.max(4, ...shown.map((c) => Math.min(MAX_NAME, c.name.length)));
  const typeChars = Math.max(3, ...shown.map((c) => Math.min(MAX_TYPE, c.type.length)));
  const header = Math.min(MAX_TITLE, table.name.length);
  const width = Math.ceil(2 * PAD + Math.max(header, nameChars + 1 + typeChars + 1 + 2) * CHAR_WIDTH);
  const rows = shown.length + (shown.length < table.columns.length ? 1 : 0);
  const boxHeight = HEADER + Math.max(1, rows) * LINE + PAD / 2;
  const kinds = ARROW_KINDS.filter((k) => table.queries.some((q) => arrowKindOf(q.access) === k));
  const labelX = 10 + ARROW_STEP * kinds.length + 4;
  const room = Math.max(textWidth('Q000'), width - labelX);
  const groups = kinds.map((kind) => {
    const queries = table.queries.filter((q) => arrowKindOf(q.access) === kind).map((q) => q.number);
    return { kind, queries, lines: wrapQueries(queries, room) };
  });
  const labelHeight = groups.length ? groups.reduce((s, g) => s + g.lines.length * LINE, 0) + 12 : 0;
  return { table: t, shown: shown.length, nameChars, width, boxHeight, groups, labelHeight };
}

function placeBox(view: KeyspaceView, m: Measured, x: number, y: number): DiagramBox {
  const table = view.tables[m.table]!;
  const rect = { x, y, width: m.width, height: m.boxHeight };
  const header = textAt(shorten(table.name, MAX_TITLE), x + PAD, y + 15);
  const shown = table.columns.slice(0, m.shown);
  const typeX = x + PAD + (m.nameChars + 1) * CHAR_WIDTH;
  const markX = x + m.width - PAD - 2 * CHAR_WIDTH;
  const rows = shown.map((c, i) => {
    const baseline = y + HEADER + i * LINE + 12;
    return {
      name: textAt(shorten(c.name, MAX_NAME), x + PAD, baseline),
      type: textAt(shorten(c.type, MAX_TYPE), typeX, baseline),
      ...(c.mark ? { mark: textAt(c.mark, markX, baseline) } : {}),
    };
  });
  const more =
    shown.length < table.columns.length
      ? textAt(`+ ${table.columns.length - shown.length} more columns`, x + PAD, y + HEADER + shown.length * LINE + 12)
      : undefined;
  return { table: m.table, rect, header, rows, ...(more ? { more } : {}) };
}

function placeArrows(m: Measured, box: Rect): DiagramArrow[] {
  const arrows: DiagramArrow[] = [];
  const labelX = box.x + 10 + ARROW_STEP * m.groups.length + 4;
  let y = box.y - m.labelHeight;
  m.groups.forEach((g, i) => {
    const x = box.x + 10 + ARROW_STEP * i;
    const labels: DiagramArrow['labels'] = [];
    g.lines.forEach((line, l) => {
      let cx = labelX;
      for (const q of line) {
        const text = textAt(`Q${q}`, cx, y + l * LINE + 12);
        labels.push({ query: q, text });
        cx += text.rect.width + CHAR_WIDTH;
      }
    });
    arrows.push({ table: m.table, kind: g.kind, x, y1: y + 8, y2: box.y, tickTo: labelX - 3, labels });
    y += g.lines.length * LINE;
  });
  return arrows;
}

/** Boxes on shelves (left to right, then down), each row as high as its tallest box and label block. */
export function diagramLayout(view: KeyspaceView, options: { width?: number } = {}): DiagramLayout {
  const measured = view.tables.map((_, t) => measure(view, t));
  const width = Math.max(options.width ?? DEFAULT_WIDTH, ...measured.map((m) => m.width + 2 * MARGIN));
  const title = textAt(view.title, MARGIN, MARGIN + 14, TITLE_CHAR_WIDTH, 15);
  const legendY = MARGIN + 38;
  const legendTexts = [
    "→ by the table's key",
    '⇢ through an index',
    '⋯ scan or ALLOW FILTERING',
    'K partition key · C↑ C↓ clustering · S static',
  ];
  const legend: PlacedText[] = [];
  let lx = MARGIN + 22;
  for (const text of legendTexts) {
    const placed = textAt(text, lx, legendY);
    legend.push(placed);
    lx += placed.rect.width + 34;
  }
  const boxes: DiagramBox[] = [];
  const arrows: DiagramArrow[] = [];
  let y = legendY + 18;
  let row: Measured[] = [];
  const flush = (): void => {
    if (!row.length) return;
    const labels = Math.max(...row.map((m) => m.labelHeight));
    let x = MARGIN;
    for (const m of row) {
      const box = placeBox(view, m, x, y + labels);
      boxes.push(box);
      arrows.push(...placeArrows(m, box.rect));
      x += m.width + GAP_X;
    }
    y += labels + Math.max(...row.map((m) => m.boxHeight)) + GAP_Y;
    row = [];
  };
  let used = MARGIN;
  for (const m of measured) {
    if (row.length && used + m.width > width - MARGIN) {
      flush();
      used = MARGIN;
    }
    row.push(m);
    used += m.width + GAP_X;
  }
  flush();
  return { width: Math.ceil(width), height: Math.ceil(y - GAP_Y + MARGIN), title, legend, boxes, arrows };
}

const n = (v: number): string => (Math.round(v * 10) / 10).toString();

/** Styles of the diagram, inside the SVG so that it stands alone (the page's theme variables win when set). */
const DIAGRAM_CSS = `
.kd { font-family: ui-monospace, "SF Mono", Menlo, Consolas, "DejaVu Sans Mono", monospace; font-size: ${FONT_SIZE}px; }
.kd text { fill: var(--cq-fg, #1f2328); }
.kd .kd-title { font-size: 15px; font-weight: 600; }
.kd .kd-box rect.kd-frame { fill: var(--cq-bg, #ffffff); stroke: var(--cq-fg, #1f2328); stroke-width: 1.5; }
.kd .kd-box rect.kd-head { fill: var(--cq-panel, #f6f8fa); stroke: var(--cq-fg, #1f2328); stroke-width: 1.5; }
.kd .kd-box text.kd-name { font-weight: 600; }
.kd .kd-box.sev-error rect.kd-frame, .kd .kd-box.sev-error rect.kd-head { stroke: var(--cq-red, #cf222e); stroke-width: 2.5; }
.kd .kd-box.sev-warning rect.kd-frame, .kd .kd-box.sev-warning rect.kd-head { stroke: var(--cq-orange, #bc4c00); stroke-width: 2.5; }
.kd text.kd-type, .kd text.kd-more, .kd text.kd-legend { fill: var(--cq-muted, #59636e); }
.kd text.kd-mark-K { fill: var(--cq-red, #cf222e); font-weight: 600; }
.kd text.kd-mark-C { fill: var(--cq-blue, #0969da); font-weight: 600; }
.kd text.kd-mark-S { fill: var(--cq-purple, #8250df); font-weight: 600; }
.kd .kd-arrow line { stroke-width: 1.5; fill: none; }
.kd .kd-arrow-key line { stroke: var(--cq-fg, #1f2328); }
.kd .kd-arrow-index line { stroke: var(--cq-blue, #0969da); stroke-dasharray: 6 3; }
.kd .kd-arrow-scan line { stroke: var(--cq-red, #cf222e); stroke-dasharray: 2 3; }
.kd .kd-arrow-key text { fill: var(--cq-fg, #1f2328); }
.kd .kd-arrow-index text { fill: var(--cq-blue, #0969da); }
.kd .kd-arrow-scan text { fill: var(--cq-red, #cf222e); }
.kd marker path { stroke: none; }
.kd a:hover text, .kd a:focus text { text-decoration: underline; }
`;

export interface DiagramLinks {
  /** Where a table's box leads (its page section, or its source in the editor). */
  table?: (table: number) => string | undefined;
  /** Where a query label leads (its coverage row, or its source in the editor). */
  query?: (query: number) => string | undefined;
}

function link(href: string | undefined, body: string, label: string): string {
  return href ? `<a href="${escapeHtml(href)}" aria-label="${escapeHtml(label)}">${body}</a>` : body;
}

function text(t: PlacedText, cls: string, extra = ''): string {
  return `<text class="${cls}" x="${n(t.x)}" y="${n(t.y)}"${extra}>${escapeHtml(t.text)}</text>`;
}

/** The diagram as one standalone <svg> (its own styles and arrowheads); `id` makes its ids unique in a page. */
export function diagramSvg(
  view: KeyspaceView,
  layout: DiagramLayout,
  options: { id: string; links?: DiagramLinks },
): string {
  const id = options.id.replace(/[^A-Za-z0-9_-]/g, '-');
  const parts: string[] = [];
  const xmlns = ' xmlns="http://www.w3.org/2000/svg"';
  parts.push(
    `<svg class="kd keyspace-diagram" data-keyspace="${escapeHtml(view.title)}" viewBox="0 0 ${layout.width} ${layout.height}" width="${layout.width}" height="${layout.height}"${xmlns} role="img" aria-labelledby="${id}-title ${id}-desc">`,
  );
  const queries = view.queries.length;
  parts.push(
    `<title id="${id}-title">Keyspace ${escapeHtml(view.title)}: ${view.tables.length} table${view.tables.length === 1 ? '' : 's'}, ${queries} quer${queries === 1 ? 'y' : 'ies'}</title>`,
  );
  const desc = view.tables
    .map(
      (t) =>
        `${t.name} (${t.columns
          .filter((c) => c.mark)
          .map((c) => `${c.name} ${c.mark}`)
          .join(', ')})${t.queries.length ? `: ${t.queries.map((q) => `Q${q.number}`).join(' ')}` : ''}`,
    )
    .join('; ');
  parts.push(`<desc id="${id}-desc">${escapeHtml(desc)}</desc>`);
  parts.push(`<style>${DIAGRAM_CSS}</style>`);
  parts.push('<defs>');
  for (const kind of ARROW_KINDS) {
    parts.push(
      `<marker id="${id}-head-${kind}" class="kd-arrow-${kind}" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse">` +
        `<path d="M0 0 L10 5 L0 10 z" style="fill: ${kind === 'key' ? 'var(--cq-fg, #1f2328)' : kind === 'index' ? 'var(--cq-blue, #0969da)' : 'var(--cq-red, #cf222e)'}"/></marker>`,
    );
  }
  parts.push('</defs>');
  parts.push(text(layout.title, 'kd-title'));
  // The legend's arrows: a short line of each kind before its words.
  layout.legend.forEach((l, i) => {
    const kind = ARROW_KINDS[i];
    if (kind)
      parts.push(
        `<g class="kd-arrow kd-arrow-${kind}" aria-hidden="true"><line x1="${n(l.x - 20)}" x2="${n(l.x - 5)}" y1="${n(l.y - 4)}" y2="${n(l.y - 4)}" marker-end="url(#${id}-head-${kind})"/></g>`,
      );
    parts.push(text({ ...l, text: kind ? l.text.slice(2) : l.text }, 'kd-legend'));
  });
  for (const box of layout.boxes) {
    const table = view.tables[box.table]!;
    const r = box.rect;
    const body = [
      `<rect class="kd-frame" x="${n(r.x)}" y="${n(r.y)}" width="${n(r.width)}" height="${n(r.height)}"/>`,
      `<rect class="kd-head" x="${n(r.x)}" y="${n(r.y)}" width="${n(r.width)}" height="${HEADER}"/>`,
      text(box.header, 'kd-name'),
      ...box.rows.flatMap((row) => [
        text(row.name, 'kd-column'),
        text(row.type, 'kd-type'),
        ...(row.mark ? [text(row.mark, `kd-mark kd-mark-${row.mark.text.startsWith('C') ? 'C' : row.mark.text}`)] : []),
      ]),
      ...(box.more ? [text(box.more, 'kd-more')] : []),
    ].join('');
    const sev = table.severity ? ` sev-${table.severity}` : '';
    const what = `${table.kind === 'view' ? 'materialized view' : 'table'} ${table.qualifiedName}${table.findings ? `: ${table.findings} finding${table.findings === 1 ? '' : 's'}, ${table.severity}` : ''}`;
    parts.push(
      `<g class="kd-box${sev}" data-table="${escapeHtml(table.qualifiedName)}" data-box="${box.table}"><title>${escapeHtml(what)}</title>${link(options.links?.table?.(box.table), body, what)}</g>`,
    );
  }
  for (const arrow of layout.arrows) {
    const table = view.tables[arrow.table]!;
    const lines =
      `<line x1="${n(arrow.x)}" y1="${n(arrow.y1)}" x2="${n(arrow.tickTo)}" y2="${n(arrow.y1)}"/>` +
      `<line class="kd-shaft" x1="${n(arrow.x)}" y1="${n(arrow.y1)}" x2="${n(arrow.x)}" y2="${n(arrow.y2)}" marker-end="url(#${id}-head-${arrow.kind})"/>`;
    const labels = arrow.labels
      .map((l) => {
        const q = view.queries[l.query - 1];
        const what = `Q${l.query}${q ? `: ${q.text} (${q.reads})` : ''}`;
        return link(options.links?.query?.(l.query), `${text(l.text, 'kd-query', ` data-query="${l.query}"`)}`, what);
      })
      .join('');
    parts.push(
      `<g class="kd-arrow kd-arrow-${arrow.kind}" data-arrow-table="${escapeHtml(table.qualifiedName)}" data-arrow-box="${arrow.table}">${lines}${labels}</g>`,
    );
  }
  parts.push('</svg>');
  return parts.join('');
}

/** Every keyspace's diagram in one standalone SVG document, one under the other (`cqlint report --diagram`). */
export function keyspacesSvg(views: readonly KeyspaceView[]): string {
  if (!views.length) {
    return '<?xml version="1.0" encoding="UTF-8"?>\n<svg xmlns="http://www.w3.org/2000/svg" width="400" height="40" viewBox="0 0 400 40"><text x="16" y="24" font-family="monospace" font-size="12">No CREATE TABLE in the inputs.</text></svg>\n';
  }
  const parts: string[] = [];
  let y = 0;
  let width = 0;
  views.forEach((view, i) => {
    const layout = diagramLayout(view);
    parts.push(diagramSvg(view, layout, { id: `${view.id}-${i}` }).replace('<svg ', `<svg x="0" y="${y}" `));
    y += layout.height + 24;
    width = Math.max(width, layout.width);
  });
  const height = y - 24;
  return (
    `<?xml version="1.0" encoding="UTF-8"?>\n<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">` +
    `<rect width="${width}" height="${height}" fill="#ffffff"/>${parts.join('')}</svg>\n`
  );
}
