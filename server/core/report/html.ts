// The partition report as one self-contained HTML page: inline CSS and SVG, no script, nothing loaded from
// the network. Colours follow the VS Code theme through its CSS variables (a webview sets them), with
// light and dark fallbacks for the standalone file. Only draws the numbers of PartitionReportData.
import { formatBytes, formatCount, formatDuration, formatRate } from '../util/format';
import type { GrowthCurve, PartitionReportData, ShardHistogram, SpreadData } from './data';
import { severityRank } from './table-findings';
import { barChart, escapeHtml, horizontalBars, lineChart, niceTicks, resetChartIds } from './svg';
import type { SampleSummary } from './sample';
import { bucketFitText, sampleVerdictText } from '../partition/sizing';
import type { KeyspaceView, SourcePlace } from './keyspace';
import { keyspaceSection } from './html-keyspace';
import { clusterPanelHtml } from './cluster';

export interface RenderOptions {
  /** Page title. */
  title?: string;
  /** A line under the title (inputs, time). */
  subtitle?: string;
  /** Show the index of tables (the CLI's multi-table file); default when there is more than one table. */
  index?: boolean;
  /** How file paths are shown (the CLI makes them relative to the working directory). */
  displayPath?: (file: string) => string;
  /** An editor command that chooses a sample CSV for the page (a `command:` link; the standalone file has none). */
  chooseSampleCommand?: string;
  /** The keyspace views drawn at the top of the page (keyspace.ts). */
  keyspaces?: readonly KeyspaceView[];
  /** A link that opens a place of the workspace in the editor (the VS Code panel's command links). */
  sourceHref?: (place: SourcePlace) => string | undefined;
  /**
   * Where a table's section is when it is not on this page (a report split into pages): the page's
   * relative URL, or undefined when the table is on this page.
   */
  pageOf?: (qualifiedName: string, file: string) => string | undefined;
  /** A note above the tables (a report split into pages says what this page holds). */
  note?: string;
  /** Links under the title (a page of a split report: back to its index), as HTML made by the caller. */
  navHtml?: string;
  /** The anchors of the tables' sections across every page of a split report (tableAnchors). */
  anchorOf?: (qualifiedName: string, file: string) => string;
}

/** The anchor of a table's section: its name, with its file's when the name is defined in several files. */
export function tableAnchor(qualifiedName: string, file: string, repeated: boolean): string {
  const name = `table-${qualifiedName.replace(/[^A-Za-z0-9_-]/g, '-')}`;
  return repeated ? `${name}--${(file.split(/[\\/]/).pop() ?? file).replace(/[^A-Za-z0-9_-]/g, '-')}` : name;
}

const CSS = `
:root {
  --cq-fallback-bg: #ffffff; --cq-fallback-fg: #1f2328; --cq-fallback-muted: #59636e; --cq-fallback-border: #d1d9e0;
  --cq-fallback-red: #cf222e; --cq-fallback-orange: #bc4c00; --cq-fallback-yellow: #9a6700; --cq-fallback-blue: #0969da;
  --cq-fallback-green: #1a7f37; --cq-fallback-purple: #8250df; --cq-fallback-panel: #f6f8fa;
}
@media (prefers-color-scheme: dark) {
  :root {
    --cq-fallback-bg: #1e1e1e; --cq-fallback-fg: #d4d4d4; --cq-fallback-muted: #9d9d9d; --cq-fallback-border: #3c3c3c;
    --cq-fallback-red: #f14c4c; --cq-fallback-orange: #d18616; --cq-fallback-yellow: #cca700; --cq-fallback-blue: #3794ff;
    --cq-fallback-green: #89d185; --cq-fallback-purple: #b180d7; --cq-fallback-panel: #252526;
  }
}
:root {
  --cq-bg: var(--vscode-editor-background, var(--cq-fallback-bg));
  --cq-fg: var(--vscode-editor-foreground, var(--cq-fallback-fg));
  --cq-muted: var(--vscode-descriptionForeground, var(--cq-fallback-muted));
  --cq-border: var(--vscode-panel-border, var(--vscode-contrastBorder, var(--cq-fallback-border)));
  --cq-panel: var(--vscode-editorWidget-background, var(--cq-fallback-panel));
  --cq-link: var(--vscode-textLink-foreground, var(--cq-fallback-blue));
  --cq-red: var(--vscode-charts-red, var(--cq-fallback-red));
  --cq-orange: var(--vscode-charts-orange, var(--cq-fallback-orange));
  --cq-yellow: var(--vscode-charts-yellow, var(--cq-fallback-yellow));
  --cq-blue: var(--vscode-charts-blue, var(--cq-fallback-blue));
  --cq-green: var(--vscode-charts-green, var(--cq-fallback-green));
  --cq-purple: var(--vscode-charts-purple, var(--cq-fallback-purple));
}
body { background: var(--cq-bg); color: var(--cq-fg); font-family: var(--vscode-font-family, system-ui, -apple-system, "Segoe UI", sans-serif);
  font-size: var(--vscode-font-size, 14px); line-height: 1.45; margin: 0; padding: 16px 24px; }
a { color: var(--cq-link); }
h1 { font-size: 1.5em; margin: 0 0 4px; } h2 { font-size: 1.3em; margin: 0; } h3 { font-size: 1.05em; margin: 20px 0 6px; }
.muted, .where, figcaption { color: var(--cq-muted); }
code, .mono { font-family: var(--vscode-editor-font-family, ui-monospace, "SF Mono", Menlo, Consolas, monospace); }
section.table-report { border-top: 1px solid var(--cq-border); padding: 16px 0 24px; }
.badge { display: inline-block; border-radius: 8px; padding: 0 8px; font-size: 0.8em; border: 1px solid currentColor; vertical-align: middle; margin-left: 6px; }
.sev-error { color: var(--cq-red); } .sev-warning { color: var(--cq-orange); } .sev-info { color: var(--cq-blue); } .sev-none { color: var(--cq-green); }
.row { display: flex; flex-wrap: wrap; gap: 24px; align-items: flex-start; }
table { border-collapse: collapse; margin: 6px 0; }
th, td { border: 1px solid var(--cq-border); padding: 2px 8px; text-align: left; vertical-align: top; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
table.chebotko { min-width: 260px; border: 2px solid var(--cq-fg); }
table.chebotko caption { font-weight: 600; text-align: left; padding: 4px 8px; border: 2px solid var(--cq-fg); border-bottom: none; background: var(--cq-panel); }
table.chebotko td.mark { font-weight: 600; text-align: center; width: 2.5em; }
table.chebotko tr.key-K td.mark { color: var(--cq-red); } table.chebotko tr.key-C td.mark { color: var(--cq-blue); } table.chebotko tr.key-S td.mark { color: var(--cq-purple); }
figure { margin: 8px 0; } figcaption { font-size: 0.9em; margin-top: 2px; }
svg.chart { max-width: 100%; height: auto; display: block; background: var(--cq-bg); }
svg.chart text { fill: var(--cq-fg); font-size: 11px; font-family: inherit; }
svg.chart .grid line { stroke: var(--cq-border); stroke-width: 1; }
svg.chart .axis { stroke: var(--cq-muted); stroke-width: 1; }
svg.chart .tick { fill: var(--cq-muted); }
svg.chart .series { fill: none; stroke-width: 2.5; }
svg.chart .series-today { stroke: var(--cq-red); }
svg.chart .series-cured { stroke: var(--cq-green); stroke-dasharray: 7 4; }
svg.chart .limit line { stroke-width: 1.5; stroke-dasharray: 2 3; }
svg.chart .limit-hard line { stroke: var(--cq-red); } svg.chart .limit-hard text { fill: var(--cq-red); }
svg.chart .limit-count line { stroke: var(--cq-purple); } svg.chart .limit-count text { fill: var(--cq-purple); }
svg.chart .limit-mean line { stroke: var(--cq-fg); } svg.chart .limit-mean text { fill: var(--cq-fg); }
svg.chart .bars-murmur3 rect, svg.chart rect.bar-cured { fill: var(--cq-green); }
svg.chart .bars-codepoints rect, svg.chart rect.bar-today { fill: var(--cq-orange); }
svg.chart .bars-random rect, svg.chart .bars-sample rect { fill: var(--cq-blue); }
.legend span { margin-right: 16px; } .legend .swatch { display: inline-block; width: 18px; height: 0; border-top: 3px solid; vertical-align: middle; margin-right: 4px; }
.legend .today { border-color: var(--cq-red); } .legend .cured { border-color: var(--cq-green); border-top-style: dashed; }
details summary { cursor: pointer; color: var(--cq-muted); }
ul.findings { margin: 6px 0; padding-left: 20px; }
section.keyspace { border-top: 2px solid var(--cq-border); padding: 16px 0 24px; }
.scroll { overflow-x: auto; max-width: 100%; }
figure.diagram svg { display: block; }
table.coverage td.cov { text-align: center; min-width: 1.6em; }
table.coverage th.cov-table { vertical-align: bottom; height: 9em; white-space: nowrap; padding: 2px; }
table.coverage th.cov-table span { writing-mode: vertical-rl; transform: rotate(180deg); display: inline-block; }
table.coverage td.query-text { max-width: 32em; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
td.cov-key { color: var(--cq-green); } td.cov-index { color: var(--cq-blue); } td.cov-scan { color: var(--cq-red); } td.cov-could { color: var(--cq-purple); }
tr[data-served="false"] th { color: var(--cq-red); }
.verdict { border-left: 3px solid var(--cq-border); padding-left: 8px; }
.verdict-reported { border-color: var(--cq-orange); }
table[data-figure="size-terms"] tr.total th, table[data-figure="size-terms"] tr.total td { border-top: 2px solid var(--cq-fg); }
p.note { border: 1px solid var(--cq-border); background: var(--cq-panel); padding: 6px 10px; }
body.vscode-high-contrast svg.chart .series { stroke-width: 3.5; } body.vscode-high-contrast svg.chart .limit line { stroke-width: 2.5; }
`;

function severityBadge(data: {
  severity?: PartitionReportData['severity'];
  findings: readonly { on: 'table' | 'query' }[];
}): string {
  const sev = data.severity ?? 'none';
  const onQueries = data.findings.filter((f) => f.on === 'query').length;
  const count = `${data.findings.length} finding${data.findings.length === 1 ? '' : 's'}`;
  const text = data.severity
    ? `${count}${onQueries ? ` (${onQueries} on its queries)` : ''}, ${data.severity}`
    : 'no findings';
  return `<span class="badge sev-${sev}" data-severity="${sev}" data-findings="${data.findings.length}">${escapeHtml(text)}</span>`;
}

function keyDiagram(data: PartitionReportData): string {
  const rows = data.columns.map((c) => {
    const group = c.mark.startsWith('C') ? 'C' : c.mark;
    const meaning =
      c.mark === 'K'
        ? 'partition key'
        : c.mark === 'C↑'
          ? 'clustering, ascending'
          : c.mark === 'C↓'
            ? 'clustering, descending'
            : c.mark === 'S'
              ? 'static'
              : 'regular';
    return (
      `<tr class="key-${group || 'none'}" data-column="${escapeHtml(c.name)}"><td class="mono">${escapeHtml(c.name)}</td><td class="mono">${escapeHtml(c.type)}</td>` +
      `<td class="mark" aria-label="${meaning}" title="${meaning}">${escapeHtml(c.mark)}</td><td class="num">${c.bytes}${c.hinted ? ' (hint)' : ''}</td></tr>`
    );
  });
  const kind = data.kind === 'view' ? 'materialized view' : 'table';
  return (
    `<figure class="key-diagram"><table class="chebotko" data-figure="key-diagram"><caption>${escapeHtml(data.table)}</caption>` +
    `<thead><tr><th>column</th><th>type</th><th>key</th><th class="num">est. bytes</th></tr></thead><tbody>${rows.join('')}</tbody></table>` +
    `<figcaption>Chebotko diagram of the ${kind}: K partition key, C↑ / C↓ clustering column and order, S static.` +
    `${data.shardFormula ? ` Write-sharded: <code>${escapeHtml(data.shardFormula)}</code>.` : ''}` +
    ` One row adds ${escapeHtml(formatBytes(data.rowSizes.bytesPerRow))} (${data.rowSizes.valuesPerRow} value${data.rowSizes.valuesPerRow === 1 ? '' : 's'} with 8 B of metadata each).</figcaption></figure>`
  );
}

function queriesBlock(data: PartitionReportData, links: PageLinks): string {
  if (!data.queries.length)
    return '<div class="queries"><h3>Queries</h3><p class="muted">No query in the inputs uses this table.</p></div>';
  const rows = data.queries.map((q) => {
    const where = `${shortPath(q.file)}:${q.line}`;
    const href = links.sourceHref?.({ file: q.file, line: q.line - 1, character: 0 });
    const findings = q.findings.length
      ? ` <span class="sev-warning">(${escapeHtml([...new Set(q.findings)].join(', '))})</span>`
      : '';
    return (
      `<tr data-access="${q.access}"><td>${escapeHtml(q.kind)}</td><td class="mono">${href ? `<a href="${escapeHtml(href)}">${escapeHtml(where)}</a>` : escapeHtml(where)}</td>` +
      `<td class="mono">${escapeHtml(q.pinned.join(', ') || '—')}</td><td class="mono">${escapeHtml(q.ranged.join(', ') || '—')}</td>` +
      `<td data-figure="reads">${escapeHtml(q.reads)}${findings}</td></tr>`
    );
  });
  return (
    `<div class="queries"><h3>Queries</h3><table data-figure="queries"><thead><tr><th>kind</th><th>where</th><th>pins (= / IN)</th><th>ranges</th><th>reads</th></tr></thead>` +
    `<tbody>${rows.join('')}</tbody></table></div>`
  );
}

function shortPath(file: string): string {
  const parts = file.split(/[\\/]/);
  return parts.slice(-2).join('/');
}

function timeAxis(horizon: number): { unit: number; name: string } {
  if (horizon <= 2 * 86_400) return { unit: 3600, name: 'hours' };
  if (horizon <= 400 * 86_400) return { unit: 86_400, name: 'days' };
  return { unit: 365.2425 * 86_400, name: 'years' };
}

function byteAxis(max: number): number {
  if (max >= 1024 ** 3) return 1024 ** 3;
  if (max >= 1024 ** 2) return 1024 ** 2;
  if (max >= 1024) return 1024;
  return 1;
}

function curveSummary(curve: GrowthCurve): string {
  const last = curve.points.at(-1)!;
  const stop =
    curve.stopsAfterSeconds !== undefined
      ? `; it stops growing after ${formatDuration(curve.stopsAfterSeconds)} (${curve.stopsBecause === 'ttl' ? 'its TTL expires rows as fast as they come' : curve.stopsBecause === 'rows' ? 'it holds every row it can' : 'its time bucket closes'})`
      : '';
  return `${formatRate(curve.rowsPerSecond)}, ${formatBytes(last.bytes)} after ${formatDuration(last.seconds)}${stop}`;
}

/** The DS220 partition size, term by term, with its numbers (so that the estimate can be checked by hand). */
function sizeTermsSection(data: PartitionReportData): string {
  const t = data.sizeTerms;
  const from =
    t.rowsFrom === 'hint'
      ? 'your rows= hint'
      : t.rowsFrom === 'sample'
        ? "the sample's largest partition"
        : t.rowsFrom === 'limit'
          ? `the rows at which the first limit of ${escapeHtml(data.target.name)} is hit`
          : 'an example';
  const rows = t.terms
    .map((term) => {
      const columns = term.columns?.length
        ? ` <span class="muted">(${term.columns.map((c) => `${escapeHtml(c.name)} ${c.bytes}${c.hinted ? ' hint' : ''}`).join(', ')})</span>`
        : '';
      return (
        `<tr data-term="${term.id}"><td>${escapeHtml(term.label)}</td><td class="mono">${escapeHtml(term.formula)}</td><td class="mono">${escapeHtml(term.arithmetic)}${columns}</td>` +
        `<td class="num" data-figure="term-bytes">${formatCount(term.bytes)} B</td></tr>`
      );
    })
    .join('');
  const nv = `Nv = Nr × (Nc − Npk − Ns) + Ns = ${formatCount(t.rows)} × (${t.columns} − ${t.partitionKeyColumns} − ${t.staticColumns}) + ${t.staticColumns} = ${formatCount(t.values)} values`;
  return (
    `<h3>Partition size, term by term</h3><p>The DataStax DS220 / Chebotko–Kashlev estimate at Nr = <strong>${formatCount(t.rows)}</strong> rows (${from}); ` +
    `Nc = ${t.columns} columns, Npk = ${t.partitionKeyColumns} primary key columns, Ns = ${t.staticColumns} static. <span class="mono">${escapeHtml(nv)}</span>.</p>` +
    `<table data-figure="size-terms"><thead><tr><th>term</th><th>formula</th><th>numbers (bytes per column)</th><th class="num">bytes</th></tr></thead><tbody>${rows}` +
    `<tr class="total"><th colspan="3">St, the partition size</th><td class="num" data-figure="size-total"><strong>${formatCount(t.total)} B</strong> (${formatBytes(t.total)})</td></tr></tbody></table>`
  );
}

function limitsTable(data: PartitionReportData, withTime: boolean): string {
  const g = data.growth;
  if (!g.limits.length)
    return `<p class="muted">${escapeHtml(data.target.name)} sets no partition size limit (its limits are per row and per partition throughput).</p>`;
  const rows = g.limits.map(
    (l) =>
      `<tr data-limit-kind="${l.kind}"><td><a href="${escapeHtml(l.source)}">${escapeHtml(l.label)}</a>${l.binding ? ' <span class="muted">(hit first)</span>' : ''}</td><td class="num" data-figure="rows-at-limit">${formatCount(l.rowsAtLimit)}</td>` +
      `<td class="num">${formatBytes(l.bytes)}</td>` +
      (withTime
        ? `<td class="num" data-figure="time-today">${l.secondsToday !== undefined ? formatDuration(l.secondsToday) : 'never'}</td>`
        : '') +
      (withTime && g.cure
        ? `<td class="num" data-figure="time-cured">${l.secondsCured !== undefined ? formatDuration(l.secondsCured) : 'never'}</td>`
        : '') +
      '</tr>',
  );
  return (
    `<table data-figure="growth-limits"><caption class="muted">Limits of ${escapeHtml(data.target.name)}${withTime ? ' and when one partition reaches them' : ''}</caption>` +
    `<thead><tr><th>limit</th><th class="num">rows per partition</th><th class="num">size there</th>${withTime ? '<th class="num">reached today</th>' : ''}${withTime && g.cure ? '<th class="num">with the fix</th>' : ''}</tr></thead><tbody>${rows.join('')}</tbody></table>`
  );
}

function growthSection(data: PartitionReportData): string {
  const g = data.growth;
  const verdict = `<p class="verdict verdict-${g.verdict.kind}" data-figure="growth-verdict" data-verdict="${g.verdict.kind}">${escapeHtml(g.verdict.text.charAt(0).toUpperCase() + g.verdict.text.slice(1))}.</p>`;
  if (!g.today) return `<h3>Partition growth</h3>${verdict}<div class="row">${limitsTable(data, false)}</div>`;
  const today = g.today;
  const time = timeAxis(g.horizonSeconds);
  const allBytes = [...today.points, ...(g.cured?.points ?? [])].map((p) => p.bytes);
  const maxCurve = Math.max(...allBytes);
  const shownLimits = g.limits.filter((l) => l.bytes <= Math.max(maxCurve * 1.6, g.limits[0]?.bytes ?? 0));
  const yMaxBytes = Math.max(maxCurve, ...shownLimits.map((l) => l.bytes)) * 1.05;
  const yUnit = byteAxis(yMaxBytes);
  const yTicks = niceTicks(yMaxBytes / yUnit, 5);
  const xTicks = niceTicks(g.horizonSeconds / time.unit, 6);
  const series = [
    {
      name: `today: ${curveSummary(today)}`,
      cls: 'series-today',
      points: today.points.map((p) => [p.seconds / time.unit, p.bytes / yUnit] as [number, number]),
    },
  ];
  if (g.cured)
    series.push({
      name: `with ${g.cure!.description}: ${curveSummary(g.cured)}`,
      cls: 'series-cured',
      points: g.cured.points.map((p) => [p.seconds / time.unit, p.bytes / yUnit] as [number, number]),
    });
  const clsOf = (kind: string): string => (kind === 'bytes' ? 'limit-hard' : 'limit-count');
  const rate =
    g.rateSource === 'hinted'
      ? `${escapeHtml(formatRate(g.rowsPerSecond))} into one partition (hinted)`
      : g.rateSource === 'measured'
        ? `${escapeHtml(formatRate(g.rowsPerSecond))} into one partition (${escapeHtml(g.rateNote)})`
        : `an assumed ${escapeHtml(formatRate(g.rowsPerSecond))} into one partition (${escapeHtml(g.rateNote)})`;
  const chart = lineChart({
    title: `Estimated size of one partition of ${data.table} over time`,
    desc: `${series.map((s) => s.name).join('. ')}. Limits: ${g.limits.map((l) => `${l.label} at ${formatCount(l.rowsAtLimit)} rows`).join('; ') || 'none'}.`,
    xMax: g.horizonSeconds / time.unit,
    yMax: yMaxBytes / yUnit,
    xTicks,
    yTicks,
    xLabel: (x) => x.toLocaleString('en-US'),
    yLabel: (y) => formatBytes(y * yUnit),
    xAxisTitle: `time since the partition's first row (${time.name})`,
    yAxisTitle: 'partition size',
    series,
    lines: shownLimits.map((l) => ({
      y: l.bytes / yUnit,
      label: l.kind === 'values' || l.kind === 'rows' ? `${l.label} (${formatBytes(l.bytes)})` : l.label,
      cls: clsOf(l.kind),
    })),
  });
  const legend = `<p class="legend"><span><span class="swatch today"></span>today</span>${g.cure ? `<span><span class="swatch cured"></span>with ${escapeHtml(g.cure.description)} (the preferred fix for ${escapeHtml(g.cure.ruleId)})</span>` : ''}</p>`;
  // The curve as text: the size at a few moments (the chart's text alternative when there is no limit).
  const at = (curve: GrowthCurve, seconds: number): GrowthCurve['points'][number] | undefined =>
    curve.points.reduce<GrowthCurve['points'][number] | undefined>(
      (best, p) => (!best || Math.abs(p.seconds - seconds) < Math.abs(best.seconds - seconds) ? p : best),
      undefined,
    );
  const moments = [0.25, 0.5, 0.75, 1].map((f) => f * g.horizonSeconds);
  const sizes =
    `<table data-figure="growth-points"><caption class="muted">Size of one partition over time</caption><thead><tr><th class="num">after</th><th class="num">today</th>` +
    `${g.cured ? '<th class="num">with the fix</th>' : ''}</tr></thead><tbody>` +
    moments
      .map((t) => {
        const point = at(today, t)!;
        const cured = g.cured ? at(g.cured, t) : undefined;
        return (
          `<tr><td class="num">${formatDuration(point.seconds)}</td><td class="num">${formatBytes(point.bytes)} (${formatCount(point.rows)} rows)</td>` +
          `${cured ? `<td class="num">${formatBytes(cured.bytes)} (${formatCount(cured.rows)} rows)</td>` : ''}</tr>`
        );
      })
      .join('') +
    '</tbody></table>';
  const assumed = g.assumedBucketPeriod
    ? ` The name of the time bucket ${escapeHtml(g.assumedBucketPeriod)} does not say its period: the curve assumes a day (a rows= hint sizes it exactly).`
    : '';
  const sizing = g.cure?.plan.figures?.reasons.length
    ? `<details data-figure="fix-sizing"><summary>how the fix was sized</summary><ul>${g.cure.plan.figures.reasons.map((r) => `<li>${escapeHtml(r)}</li>`).join('')}</ul></details>`
    : '';
  return (
    `<h3>Partition growth</h3>${verdict}<p>At ${rate}, each row adding ${formatBytes(g.bytesPerRow)}: today ${escapeHtml(curveSummary(today))}.` +
    `${g.cure && g.cured ? ` With ${escapeHtml(g.cure.description)}: ${escapeHtml(curveSummary(g.cured))}.` : ''}${assumed}</p>${sizing}` +
    // The bucket's verdict as large-partition states it (one computation: sizing.ts bucketFit).
    (g.bucketFit
      ? `<p data-figure="bucket-fit">Time bucket: ${escapeHtml(bucketFitText(g.bucketFit, data.partitionKey))}.</p>`
      : '') +
    `<figure data-figure="growth-chart">${chart}${legend}</figure><div class="row">${sizes}${limitsTable(data, true)}</div>`
  );
}

function percent(share: number): string {
  const p = share * 100;
  return `${p >= 10 ? Math.round(p) : Number(p.toPrecision(2))}%`;
}

/** A hot table's traffic: the busiest partition's share of the writes, its replicas, and after the fix. */
function trafficSection(data: PartitionReportData): string {
  const t = data.traffic;
  if (!t) return '';
  const from =
    t.from === 'sample'
      ? 'measured in the sample'
      : t.from === 'hint'
        ? 'from your distinct hint'
        : "the workload model's estimate";
  const parts: string[] = ['<h3>Traffic of the busiest partition</h3>'];
  if (t.busiestShare === undefined) {
    parts.push(`<p data-figure="traffic" class="muted">${escapeHtml(t.note)}.</p>`);
    return parts.join('');
  }
  const share = `${t.atLeast ? 'at least ' : ''}${percent(t.busiestShare)}`;
  parts.push(
    `<p data-figure="traffic">The busiest partition takes <strong data-figure="busiest-share">${share}</strong> of the table's writes (${from}: ${escapeHtml(t.note)}).</p>`,
  );
  const bars = [
    {
      label: 'busiest partition today',
      value: t.busiestShare * 100,
      cls: t.busiestShare > 0.05 ? 'bar-today' : 'bar-cured',
    },
  ];
  const rows = [`<tr><td>busiest partition today</td><td class="num">${share}</td></tr>`];
  if (t.ring) {
    const replicas = t.ring.busiestReplicas?.length ? ` (${t.ring.busiestReplicas.join(', ')})` : '';
    parts.push(
      `<p data-figure="traffic-ring">With the ring: it lands on ${t.ring.replicas} of ${t.ring.nodes} nodes${escapeHtml(replicas)}, each of which takes ${share} of the table's writes; ` +
        `spread evenly, each node would take ${percent(t.ring.evenShare)}.</p>`,
    );
    bars.push({ label: `each node, spread evenly`, value: t.ring.evenShare * 100, cls: 'bar-cured' });
    rows.push(
      `<tr><td>each of ${t.ring.nodes} nodes, spread evenly (RF ${t.ring.replicas})</td><td class="num">${percent(t.ring.evenShare)}</td></tr>`,
    );
  }
  if (t.afterFix) {
    const after = percent(t.afterFix.busiestShare);
    parts.push(
      `<p data-figure="traffic-after">${t.afterFix.shardsFrom === 'annotation' ? "With the table's" : "With the fix's"} ${t.afterFix.shards} shards each of its shard partitions takes <strong data-figure="busiest-share-after">${after}</strong>, ` +
        'if the shard spreads its rows evenly (murmur3 of a column with many values, or random()).</p>',
    );
    bars.push({ label: `each of ${t.afterFix.shards} shards`, value: t.afterFix.busiestShare * 100, cls: 'bar-cured' });
    rows.push(`<tr><td>each of ${t.afterFix.shards} shard partitions</td><td class="num">${after}</td></tr>`);
  }
  parts.push(
    `<figure data-figure="traffic-chart">${horizontalBars({
      title: `Share of the writes of ${data.table} on its busiest partition`,
      desc: bars.map((b) => `${b.label}: ${b.value.toPrecision(3)}%`).join('; '),
      bars,
      limit: { value: 100, label: 'all writes' },
      unit: '%',
    })}</figure>`,
  );
  parts.push(
    `<table data-figure="traffic-table"><thead><tr><th></th><th class="num">share of the writes</th></tr></thead><tbody>${rows.join('')}</tbody></table>`,
  );
  return parts.join('');
}

/** Real key popularity: only what a sample measures or a hint states. */
function popularitySection(data: PartitionReportData): string {
  const p = data.popularity;
  if (!p) return '';
  if (p.from === 'hint') {
    return `<h3>Key popularity</h3><p data-figure="popularity">${p.distinct!.map((d) => `<code>${escapeHtml(d.column)}</code>: ${formatCount(d.values)} distinct values`).join(', ')} (your hint); ${escapeHtml(p.note)}.</p>`;
  }
  const rows = p
    .top!.map(
      (t) =>
        `<tr><td class="mono">${escapeHtml(t.key.join(', '))}</td><td class="num">${formatCount(t.rows)}</td><td class="num">${percent(t.share)}</td></tr>`,
    )
    .join('');
  return (
    `<h3>Key popularity</h3><p data-figure="popularity">Measured in the sample: the ${p.top!.length} largest partitions hold <strong>${percent(p.topShare!)}</strong> of its rows; ${escapeHtml(p.note)}.</p>` +
    `<table data-figure="popularity-table"><thead><tr><th>partition key (${escapeHtml(data.partitionKey.join(', '))})</th><th class="num">rows</th><th class="num">share</th></tr></thead><tbody>${rows}</tbody></table>`
  );
}

/** The shard values bar `i` stands for: one value, or a range when shards share bars (N above MAX_SHARD_BARS). */
function barLabel(h: ShardHistogram, i: number): string {
  const first = h.offset + i * h.shardsPerBar;
  const last = Math.min(h.offset + (i + 1) * h.shardsPerBar, h.offset + h.count) - 1;
  return first === last ? String(first) : `${first}–${last}`;
}

/** A per-shard figure, or a dash where rows fell in too many shards to count each. */
function perShard(value: number | undefined, format: (v: number) => string): string {
  return value === undefined ? '—' : format(value);
}

function histogramRow(h: ShardHistogram, label: string): string {
  return (
    `<tr data-formula="${escapeHtml(h.formula)}"><td>${escapeHtml(label)}</td><td class="mono">${escapeHtml(h.formula)}</td><td class="num">${perShard(h.max, formatCount)}</td>` +
    `<td class="num">${h.mean.toFixed(1)}</td><td class="num" data-figure="max-over-mean">${perShard(h.maxOverMean, (v) => v.toFixed(2))}</td><td class="num">${perShard(h.emptyShards, String)} of ${formatCount(h.count)}</td></tr>`
  );
}

function histogramChart(h: ShardHistogram, values: number, what: string): string {
  const bars = h.shardsPerBar > 1 ? ` (${h.counts.length} bars of ${formatCount(h.shardsPerBar)} shards)` : '';
  return barChart({
    title: `Rows per shard with ${h.formula}`,
    desc: `${formatCount(values)} ${what} over ${formatCount(h.count)} shards${bars}: fullest ${perShard(h.max, formatCount)}, mean ${h.mean.toFixed(1)}, max/mean ${perShard(h.maxOverMean, (v) => v.toFixed(2))}, ${perShard(h.emptyShards, String)} empty.`,
    values: h.counts,
    label: (i) => barLabel(h, i),
    // A bar of several shards holds their rows: the mean line is per bar.
    line: {
      y: h.mean * h.shardsPerBar,
      label: `mean ${(h.mean * h.shardsPerBar).toFixed(1)}${h.shardsPerBar > 1 ? ' per bar' : ''}`,
      cls: 'limit-mean',
    },
    cls: `bars-${h.method}`,
    height: 170,
    width: 440,
  });
}

/** random(N) without a sample: the rows expected in each shard, and what reading them costs. */
function randomSpreadText(spread: SpreadData, h: ShardHistogram): string {
  const r = spread.random!;
  const n = formatCount(h.count);
  const drawn =
    r.drawn < r.rows
      ? ` (a draw of ${formatCount(r.drawn)} rows with a fixed seed, the same shape)`
      : ' (a draw with a fixed seed)';
  const fullest =
    h.max === undefined || h.maxOverMean === undefined
      ? ''
      : `the fullest shard of the draw holds ${formatCount(h.max * (r.rows / Math.max(1, r.drawn)))} (${h.maxOverMean.toFixed(2)}× the mean)${drawn}. `;
  return (
    `<p data-figure="random-spread"><code>${escapeHtml(spread.formula)}</code> puts each row in any of the ${n} shards with equal chance: ` +
    `of the <strong>${formatCount(r.rows)}</strong> rows one partition takes in ${escapeHtml(formatDuration(r.seconds))} today, ` +
    `<strong data-figure="expected-per-shard">${formatCount(r.expectedPerShard)}</strong> per shard are expected; ` +
    fullest +
    `<strong>Reads must visit all ${n} shards</strong>: ${n} queries, or <code>IN</code> over the ${n} shard values, for every partition read.</p>`
  );
}

function spreadSection(spread: SpreadData | undefined): string {
  if (!spread) return '';
  const from = spread.valuesFrom;
  const origin =
    spread.origin === 'annotation' ? "the table's <code>-- @shard</code> formula" : 'the shard the fix would add';
  const Origin =
    spread.origin === 'annotation' ? "The table's <code>-- @shard</code> formula" : 'The shard the fix would add';
  const source = spread.sourceColumn
    ? `<code>${escapeHtml(spread.sourceColumn)}</code>${spread.sourceType ? ` (${escapeHtml(spread.sourceType)})` : ''}`
    : 'the key';
  const h = spread.histogram;
  if (from.kind === 'none' || !h) {
    return (
      `<h3>Spread over shards</h3><p data-figure="spread-none">${Origin}, <code>${escapeHtml(spread.formula)}</code>, hashes ${source}: murmur3 spreads distinct values evenly by construction, ` +
      `so synthetic values would show an even spread whatever your data is. How evenly real rows spread depends on how popular each value of ${source} is: ` +
      'a sample of real rows (.cqlint.json <code>samples</code>) shows it.</p>'
    );
  }
  const what =
    from.kind === 'sample'
      ? `rows of ${shortPath(from.file)}`
      : from.kind === 'draw'
        ? 'rows drawn at random'
        : 'synthetic text values (sample titles)';
  const evidence =
    from.kind === 'synthetic'
      ? `<p class="muted" data-figure="spread-synthetic">A check of the formulas on synthetic titles, not a measure of your data: the code-point product is skewed on any text, murmur3 is even on distinct values. How popular each value of ${source} is decides the real spread: a sample shows it.</p>`
      : '';
  const charts = [h, ...(spread.comparison ? [spread.comparison] : [])].map((x) => ({
    h: x,
    svg: histogramChart(x, spread.values, what),
  }));
  const counts = (x: ShardHistogram): string => x.counts.map((c, i) => `${barLabel(x, i)}: ${c}`).join(', ');
  return (
    `<h3>Spread over shards</h3><p>Rows per shard for ${origin}, <code>${escapeHtml(spread.formula)}</code>, over ${formatCount(spread.values)} ${escapeHtml(what)}` +
    `${spread.comparison ? `, beside <code>${escapeHtml(spread.comparison.formula)}</code> on the same values` : ''}.</p>` +
    evidence +
    (spread.random ? randomSpreadText(spread, h) : '') +
    `<div class="row">${charts.map((c) => `<figure data-figure="spread-chart">${c.svg}<figcaption><code>${escapeHtml(c.h.formula)}</code>: fullest shard ${perShard(c.h.maxOverMean, (v) => `${v.toFixed(2)}×`)} the mean</figcaption></figure>`).join('')}</div>` +
    `<table data-figure="spread"><thead><tr><th></th><th>formula</th><th class="num">fullest shard</th><th class="num">mean</th><th class="num">max/mean</th><th class="num">empty shards</th></tr></thead><tbody>` +
    histogramRow(h, spread.origin === 'annotation' ? '@shard' : 'proposed') +
    (spread.comparison ? histogramRow(spread.comparison, 'comparison') : '') +
    '</tbody></table>' +
    `<details><summary>rows in each ${h.shardsPerBar > 1 ? 'range of shards' : 'shard'}</summary><p class="mono">${escapeHtml(counts(h))}</p>${spread.comparison ? `<p class="mono">${escapeHtml(counts(spread.comparison))}</p>` : ''}</details>`
  );
}

function throughputSection(data: PartitionReportData): string {
  if (!data.throughput.length) {
    const hinted =
      data.hints?.writesPerSecondPerPartition !== undefined || data.hints?.readsPerSecondPerPartition !== undefined;
    return `<h3>Throughput per partition</h3><p class="muted">${hinted ? `${escapeHtml(data.target.name)} enforces no per-partition throughput limit.` : 'No <code>writesPerSecondPerPartition</code> / <code>readsPerSecondPerPartition</code> hint for this table.'}</p>`;
  }
  const parts: string[] = ['<h3>Throughput per partition</h3>'];
  for (const t of data.throughput) {
    const bars = [
      {
        label: `today (${formatCount(t.perSecond)} ${t.kind}/s)`,
        value: t.unitsPerSecond,
        cls: t.unitsPerSecond > t.limit ? 'bar-today' : 'bar-cured',
      },
    ];
    if (t.shards && t.unitsPerShard !== undefined)
      bars.push({ label: `each of ${t.shards} shards`, value: t.unitsPerShard, cls: 'bar-cured' });
    parts.push(
      `<figure data-figure="throughput-chart">${horizontalBars({
        title: `${t.kind} per partition of ${data.table} against ${t.label}`,
        desc: bars.map((b) => `${b.label}: ${formatCount(b.value)} ${t.unit}`).join('; ') + `; limit ${t.label}.`,
        bars,
        limit: { value: t.limit, label: t.label },
        unit: t.unit,
      })}</figure>`,
    );
  }
  const rows = data.throughput.map(
    (t) =>
      `<tr data-kind="${t.kind}"><td>${t.kind}</td><td class="num">${formatCount(t.perSecond)}/s</td><td class="num" data-figure="units">${formatCount(t.unitsPerSecond)} ${escapeHtml(t.unit)}</td>` +
      `<td><a href="${escapeHtml(t.source)}">${escapeHtml(t.label)}</a></td><td class="num" data-figure="shards-needed">${t.shardsNeeded}</td>` +
      `<td class="num">${t.shards ? `${formatCount(t.unitsPerShard!)} ${escapeHtml(t.unit)} on each of ${t.shards}` : '—'}</td></tr>`,
  );
  parts.push(
    `<table data-figure="throughput"><thead><tr><th></th><th class="num">per partition</th><th class="num">units</th><th>limit</th><th class="num">shards needed</th><th class="num">after sharding</th></tr></thead><tbody>${rows.join('')}</tbody></table>`,
  );
  return parts.join('');
}

function sampleSection(sample: SampleSummary | undefined, data: PartitionReportData): string {
  if (!sample) return '';
  const r = sample.rowsPerPartition;
  const parts: string[] = [`<h3>Sample: ${escapeHtml(shortPath(sample.file))}</h3>`];
  if (data.sampleChosen) {
    parts.push(
      '<p class="sev-info" data-figure="sample-chosen">Chosen for this report: .cqlint.json does not name it, so diagnostics and hovers do not use it until it is saved there.</p>',
    );
  }
  parts.push(
    `<p data-figure="sample-summary">${formatCount(sample.rows)} rows in <strong data-figure="sample-partitions">${formatCount(sample.partitions)}</strong> partitions` +
      `${sample.cancelled ? ' (reading was cancelled: partial)' : ''}. Rows per partition: p50 ${formatCount(r.p50)}, p99 ${formatCount(r.p99)}, max ${formatCount(r.max)}. ` +
      `Bytes per partition: p50 ${formatBytes(sample.bytesPerPartition.p50)}, p99 ${formatBytes(sample.bytesPerPartition.p99)}, max ${formatBytes(sample.bytesPerPartition.max)}. ` +
      `A row written or read: ${formatBytes(sample.rowOperationBytes.mean)} on average, ${formatBytes(sample.rowOperationBytes.max)} at most.` +
      `${sample.malformedCount ? ` <span class="sev-warning">${formatCount(sample.malformedCount)} malformed row${sample.malformedCount === 1 ? '' : 's'} skipped.</span>` : ''}</p>`,
  );
  if (data.sampleVerdict) {
    const v = data.sampleVerdict;
    parts.push(
      `<p data-figure="sample-verdict" class="${v.over.length ? 'sev-warning' : ''}">${escapeHtml(sampleVerdictText(v, data.target.name))}.</p>`,
    );
  }
  parts.push(
    `<figure data-figure="sample-histogram">${barChart({
      title: `Partitions by rows per partition in the sample of ${data.table}`,
      desc: r.histogram
        .map((b) => `${b.from === b.to ? b.from : `${b.from}–${b.to}`} rows: ${b.partitions} partitions`)
        .join('; '),
      values: r.histogram.map((b) => b.partitions),
      label: (i) => {
        const b = r.histogram[i]!;
        return b.from === b.to ? String(b.from) : `${b.from}–${b.to}`;
      },
      cls: 'bars-sample',
      height: 170,
    })}<figcaption>Partitions (y) by rows per partition (x, doubling buckets).</figcaption></figure>`,
  );
  parts.push(
    `<table data-figure="sample-buckets"><thead><tr><th>rows per partition</th><th class="num">partitions</th></tr></thead><tbody>` +
      r.histogram
        .map(
          (b) =>
            `<tr><td>${b.from === b.to ? b.from : `${b.from}–${b.to}`}</td><td class="num">${formatCount(b.partitions)}</td></tr>`,
        )
        .join('') +
      '</tbody></table>',
  );
  if (sample.largest.length) {
    parts.push(
      `<table data-figure="largest-partitions"><caption class="muted">Largest partitions</caption><thead><tr><th>partition key (${escapeHtml(data.partitionKey.join(', '))})</th><th class="num">rows</th><th class="num">est. bytes</th><th class="num">token</th></tr></thead><tbody>` +
        sample.largest
          .map(
            (p) =>
              `<tr><td class="mono">${escapeHtml(p.key.join(', '))}</td><td class="num">${formatCount(p.rows)}</td><td class="num">${formatBytes(p.bytes)}</td><td class="num mono">${escapeHtml(p.token ?? '—')}</td></tr>`,
          )
          .join('') +
        '</tbody></table>',
    );
  }
  if (sample.nodes?.length) {
    parts.push(
      `<figure data-figure="nodes-chart">${barChart({
        title: `Partitions per node for the sample of ${data.table}`,
        desc: sample.nodes.map((n) => `${n.address}: ${n.partitions} partitions, ${n.rows} rows`).join('; '),
        values: sample.nodes.map((n) => n.partitions),
        label: (i) => sample.nodes![i]!.address,
        cls: 'bars-sample',
        height: 170,
      })}</figure>`,
    );
    parts.push(
      `<table data-figure="nodes"><thead><tr><th>node (primary owner)</th><th class="num">partitions</th><th class="num">rows</th></tr></thead><tbody>` +
        sample.nodes
          .map(
            (n) =>
              `<tr><td class="mono">${escapeHtml(n.address)}</td><td class="num">${formatCount(n.partitions)}</td><td class="num">${formatCount(n.rows)}</td></tr>`,
          )
          .join('') +
        '</tbody></table>',
    );
  }
  if (sample.malformed.length) {
    parts.push(
      `<details><summary>malformed rows</summary><ul>${sample.malformed.map((m) => `<li>line ${m.line}: ${escapeHtml(m.reason)}</li>`).join('')}</ul></details>`,
    );
  }
  return parts.join('');
}

function chooseSampleLink(data: PartitionReportData, command: string | undefined): string {
  if (!command) return '';
  const link = `<a href="command:${escapeHtml(command)}" data-action="choose-sample">Choose sample CSV…</a>`;
  return data.sample
    ? `<p class="muted">${link} (another cqlsh <code>COPY ${escapeHtml(data.table)} TO</code> file)</p>`
    : `<h3>Sample</h3><p class="muted">No sample of real rows: .cqlint.json <code>samples</code> names none for ${escapeHtml(data.table)}. ${link}</p>`;
}

interface PageLinks {
  sourceHref?: (place: SourcePlace) => string | undefined;
}

function findingsList(data: PartitionReportData, displayPath: (file: string) => string): string {
  if (!data.findings.length) return '';
  const item = (f: PartitionReportData['findings'][number]): string =>
    `<li data-on="${f.on}"><span class="sev-${f.severity}">${f.severity}</span> <code>${escapeHtml(f.ruleId)}</code> (${f.on === 'table' ? `line ${f.line}` : `${escapeHtml(displayPath(f.file))}:${f.line}`}): ${escapeHtml(f.message)}</li>`;
  const own = data.findings.filter((f) => f.on === 'table');
  const queries = data.findings.filter((f) => f.on === 'query');
  return (
    `<ul class="findings" data-figure="findings">${own.map(item).join('')}</ul>` +
    (queries.length
      ? `<p class="muted">On the statements that use ${escapeHtml(data.table)}:</p><ul class="findings" data-figure="query-findings">${queries.map(item).join('')}</ul>`
      : '')
  );
}

function tableSection(
  data: PartitionReportData,
  anchor: string,
  displayPath: (file: string) => string,
  links: PageLinks,
  chooseSample?: string,
): string {
  const where = `${displayPath(data.file)}:${data.line}`;
  const source = links.sourceHref?.({
    file: data.file,
    line: data.namePosition.line,
    character: data.namePosition.character,
  });
  return (
    `<section class="table-report" id="${escapeHtml(anchor)}" data-table="${escapeHtml(data.table)}" data-file="${escapeHtml(data.file)}" aria-label="Partition report of ${escapeHtml(data.table)}">` +
    `<h2>${escapeHtml(data.table)} ${severityBadge(data)}</h2>` +
    `<p class="where">${source ? `<a href="${escapeHtml(source)}" data-action="open-source">${escapeHtml(where)}</a>` : escapeHtml(where)} · target ${escapeHtml(data.target.name)}${data.defaultTtlSeconds ? ` · default_time_to_live ${formatDuration(data.defaultTtlSeconds)}` : ''}</p>` +
    findingsList(data, displayPath) +
    `<div class="row">${keyDiagram(data)}${queriesBlock(data, links)}</div>` +
    sizeTermsSection(data) +
    growthSection(data) +
    trafficSection(data) +
    spreadSection(data.spread) +
    popularitySection(data) +
    throughputSection(data) +
    clusterPanelHtml(data.cluster, data.table) +
    guardrailsSection(data) +
    sampleSection(data.sample, data) +
    chooseSampleLink(data, chooseSample) +
    '</section>'
  );
}

/** The cluster's guardrails in force for the table (cassandra.yaml / scylla.yaml or the version's defaults). */
function guardrailsSection(data: PartitionReportData): string {
  if (!data.guardrails?.length) return '';
  const rows = data.guardrails
    .map(
      (g) =>
        `<tr><td><code>${escapeHtml(g.setting)}</code></td><td>${escapeHtml(g.value)}</td><td>${escapeHtml(g.source)}</td></tr>`,
    )
    .join('');
  return (
    `<section class="guardrails" aria-label="Cluster guardrails of ${escapeHtml(data.table)}"><h3>Cluster guardrails</h3>` +
    `<table><thead><tr><th>Setting</th><th>Value</th><th>Source</th></tr></thead><tbody>${rows}</tbody></table></section>`
  );
}

/** Tables sorted by severity (errors first), then by name: the order of the index and of the sections. */
export function sortBySeverity<
  T extends { severity?: PartitionReportData['severity']; findings: readonly unknown[]; table: string; file: string },
>(reports: readonly T[]): T[] {
  return [...reports].sort(
    (a, b) =>
      severityRank(b.severity) - severityRank(a.severity) ||
      b.findings.length - a.findings.length ||
      a.table.localeCompare(b.table) ||
      a.file.localeCompare(b.file),
  );
}

/** What the index needs of a table (a report split into pages keeps only this of the tables not on the page). */
export type IndexEntry = Pick<PartitionReportData, 'table' | 'file' | 'line' | 'severity'> & {
  findings: Pick<PartitionReportData['findings'][number], 'ruleId' | 'on' | 'severity'>[];
};

/** Anchors of the tables' sections: the name, and the file's too where a name is defined in several files. */
export function tableAnchors(
  entries: readonly Pick<IndexEntry, 'table' | 'file'>[],
): (qualifiedName: string, file: string) => string {
  const files = new Map<string, Set<string>>();
  for (const e of entries) {
    const set = files.get(e.table) ?? new Set<string>();
    set.add(e.file);
    files.set(e.table, set);
  }
  return (qualifiedName, file) => tableAnchor(qualifiedName, file, (files.get(qualifiedName)?.size ?? 0) > 1);
}

export function indexSection(
  entries: readonly IndexEntry[],
  href: (entry: IndexEntry) => string,
  displayPath: (file: string) => string,
): string {
  const rows = entries.map((r) => {
    const rules = [...new Set(r.findings.map((f) => f.ruleId))].join(', ');
    return (
      `<tr><td><a href="${escapeHtml(href(r))}">${escapeHtml(r.table)}</a></td><td class="mono">${escapeHtml(displayPath(r.file))}:${r.line}</td>` +
      `<td>${severityBadge(r)}</td><td>${escapeHtml(rules || '—')}</td></tr>`
    );
  });
  return `<nav aria-label="Tables"><h2>Tables</h2><table data-figure="index"><thead><tr><th>table</th><th>file</th><th>findings</th><th>rules</th></tr></thead><tbody>${rows.join('')}</tbody></table></nav>`;
}

/** The page's head: inline styles only; nothing is loaded, nothing runs. */
export function pageHead(title: string): string {
  return (
    `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">` +
    `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:;">` +
    `<meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)}</title><style>${CSS}</style></head>`
  );
}

/** The whole page for one or more tables (sorted by severity), with the keyspace views on top. */
export function renderReportHtml(reports: readonly PartitionReportData[], options: RenderOptions = {}): string {
  resetChartIds();
  const sorted = sortBySeverity(reports);
  const title =
    options.title ?? (reports.length === 1 ? `Partition report: ${reports[0]!.table}` : 'cqlint partition report');
  const showIndex = options.index ?? reports.length > 1;
  const displayPath = options.displayPath ?? ((f: string) => f);
  const anchorOf =
    options.anchorOf ??
    tableAnchors([
      ...reports,
      ...(options.keyspaces ?? []).flatMap((k) =>
        k.tables.map((t) => ({ table: t.qualifiedName, file: t.place.file })),
      ),
    ]);
  const onPage = new Set(reports.map((r) => `${r.table}\0${r.file}`));
  const hrefOf = (qualifiedName: string, file: string): string | undefined => {
    const anchor = `#${anchorOf(qualifiedName, file)}`;
    if (onPage.has(`${qualifiedName}\0${file}`)) return anchor;
    const page = options.pageOf?.(qualifiedName, file);
    return page !== undefined ? `${page}${anchor}` : undefined;
  };
  const links: PageLinks = { sourceHref: options.sourceHref };
  const keyspaces = (options.keyspaces ?? [])
    .map((view) => keyspaceSection(view, { tableHref: hrefOf, sourceHref: options.sourceHref, displayPath }))
    .join('');
  const body = sorted.length
    ? sorted
        .map((r) => tableSection(r, anchorOf(r.table, r.file), displayPath, links, options.chooseSampleCommand))
        .join('')
    : '<p class="muted">No CREATE TABLE or CREATE MATERIALIZED VIEW in the inputs.</p>';
  return (
    `${pageHead(title)}<body><header><h1>${escapeHtml(title)}</h1>${options.subtitle ? `<p class="muted">${escapeHtml(options.subtitle)}</p>` : ''}` +
    `${options.navHtml ? `<p class="nav">${options.navHtml}</p>` : ''}</header>` +
    keyspaces +
    (options.note ? `<p class="note">${escapeHtml(options.note)}</p>` : '') +
    (showIndex ? indexSection(sorted, (r) => hrefOf(r.table, r.file) ?? '#', displayPath) : '') +
    `<main>${body}</main></body></html>\n`
  );
}
