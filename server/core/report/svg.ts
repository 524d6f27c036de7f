// Plain inline SVG charts for the partition report: no library, no script, no network. Colours come from
// CSS classes (the page maps them to theme variables); every chart has a <title> and <desc> for screen
// readers, and the page puts a table with the same numbers under it.

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/** Up to about `count` round tick values (1, 2, 5 × 10^k steps) from 0 to at least `max`. */
export function niceTicks(max: number, count = 5): number[] {
  if (!(max > 0) || !Number.isFinite(max)) return [0, 1];
  const raw = max / count;
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * power).find((s) => s >= raw) ?? 10 * power;
  const ticks: number[] = [];
  for (let v = 0; v < max + step * 0.999; v += step) ticks.push(Number(v.toPrecision(12)));
  return ticks;
}

const num = (n: number): string => (Math.round(n * 10) / 10).toString();

let chartIds = 0;

/** Resets the id counter (ids only need to be unique within one page). */
export function resetChartIds(): void {
  chartIds = 0;
}

interface Frame {
  width: number;
  height: number;
  left: number;
  right: number;
  top: number;
  bottom: number;
}

/** The <svg> opening with its accessible name and description, and the plot area's size. */
function open(frame: Frame, title: string, desc: string, cls: string): { head: string; plotW: number; plotH: number } {
  const id = `chart-${++chartIds}`;
  const head =
    `<svg class="chart ${cls}" viewBox="0 0 ${frame.width} ${frame.height}" width="${frame.width}" height="${frame.height}" role="img" aria-labelledby="${id}-title ${id}-desc" xmlns="http://www.w3.org/2000/svg">` +
    `<title id="${id}-title">${escapeHtml(title)}</title><desc id="${id}-desc">${escapeHtml(desc)}</desc>`;
  return { head, plotW: frame.width - frame.left - frame.right, plotH: frame.height - frame.top - frame.bottom };
}

interface LineSeries {
  name: string;
  /** [x, y] in data units. */
  points: [number, number][];
  /** CSS class: colour and dash (series-today, series-cured, ...). */
  cls: string;
}

interface ReferenceLine {
  y: number;
  label: string;
  cls: string;
}

interface LineChartSpec {
  title: string;
  desc: string;
  xMax: number;
  yMax: number;
  /** Axis tick labels from data values. */
  xLabel: (x: number) => string;
  yLabel: (y: number) => string;
  xTicks: number[];
  yTicks: number[];
  xAxisTitle: string;
  yAxisTitle: string;
  series: LineSeries[];
  lines: ReferenceLine[];
  width?: number;
  height?: number;
}

export function lineChart(spec: LineChartSpec): string {
  const frame: Frame = {
    width: spec.width ?? 640,
    height: spec.height ?? 300,
    left: 70,
    right: 16,
    top: 16,
    bottom: 44,
  };
  const { head, plotW, plotH } = open(frame, spec.title, spec.desc, 'line-chart');
  const xMax = Math.max(spec.xMax, spec.xTicks.at(-1) ?? 0) || 1;
  const yMax = Math.max(spec.yMax, spec.yTicks.at(-1) ?? 0) || 1;
  const sx = (x: number): number => frame.left + (Math.min(x, xMax) / xMax) * plotW;
  const sy = (y: number): number => frame.top + plotH - (Math.min(y, yMax) / yMax) * plotH;
  const parts: string[] = [head];
  parts.push('<g class="grid" aria-hidden="true">');
  for (const t of spec.yTicks) {
    parts.push(`<line x1="${frame.left}" x2="${frame.left + plotW}" y1="${num(sy(t))}" y2="${num(sy(t))}"/>`);
    parts.push(
      `<text class="tick" x="${frame.left - 6}" y="${num(sy(t) + 4)}" text-anchor="end">${escapeHtml(spec.yLabel(t))}</text>`,
    );
  }
  for (const t of spec.xTicks) {
    parts.push(
      `<text class="tick" x="${num(sx(t))}" y="${frame.top + plotH + 16}" text-anchor="middle">${escapeHtml(spec.xLabel(t))}</text>`,
    );
  }
  parts.push(
    `<line class="axis" x1="${frame.left}" x2="${frame.left + plotW}" y1="${frame.top + plotH}" y2="${frame.top + plotH}"/>`,
  );
  parts.push(`<line class="axis" x1="${frame.left}" x2="${frame.left}" y1="${frame.top}" y2="${frame.top + plotH}"/>`);
  parts.push(
    `<text class="axis-title" x="${frame.left + plotW / 2}" y="${frame.height - 6}" text-anchor="middle">${escapeHtml(spec.xAxisTitle)}</text>`,
  );
  parts.push(
    `<text class="axis-title" transform="translate(14 ${frame.top + plotH / 2}) rotate(-90)" text-anchor="middle">${escapeHtml(spec.yAxisTitle)}</text>`,
  );
  parts.push('</g>');
  const shown = [...spec.lines].filter((l) => l.y <= yMax).sort((a, b) => a.y - b.y);
  const slots = placeLineLabels(
    shown.map((l) => ({ y: sy(l.y), label: l.label })),
    { left: frame.left, right: frame.left + plotW, top: frame.top, bottom: frame.top + plotH },
  );
  shown.forEach((line, i) => {
    const y = sy(line.y);
    const slot = slots[i]!;
    parts.push(
      `<g class="limit ${line.cls}"><line x1="${frame.left}" x2="${frame.left + plotW}" y1="${num(y)}" y2="${num(y)}"/>` +
        `<text x="${num(slot.x)}" y="${num(slot.y)}" text-anchor="${slot.anchor}">${escapeHtml(line.label)}</text></g>`,
    );
  });
  for (const s of spec.series) {
    const d = s.points.map(([x, y], i) => `${i ? 'L' : 'M'}${num(sx(x))} ${num(sy(y))}`).join(' ');
    parts.push(`<path class="series ${s.cls}" d="${d}"><title>${escapeHtml(s.name)}</title></path>`);
  }
  parts.push('</svg>');
  return parts.join('');
}

export interface LabelSlot {
  /** The text's anchor point and baseline. */
  x: number;
  y: number;
  anchor: 'start' | 'end';
  /** The box the label fills (from an average character width of the chart's 11 px text). */
  rect: { x: number; y: number; width: number; height: number };
}

/** Widest average character of the charts' 11 px proportional text, and the height of a label. */
const LABEL_CHAR_WIDTH = 6.6;
const LABEL_HEIGHT = 12;

function overlaps(a: LabelSlot['rect'], b: LabelSlot['rect']): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

/**
 * Places the labels of horizontal lines (screen `y`, top down) so that no two overlap: above the line at
 * its right end, else at its left end, else below it, else further up or down, inside the plot.
 */
export function placeLineLabels(
  lines: readonly { y: number; label: string }[],
  plot: { left: number; right: number; top: number; bottom: number },
): LabelSlot[] {
  const placed: LabelSlot[] = [];
  const slot = (baseline: number, right: boolean, text: string): LabelSlot => {
    const width = text.length * LABEL_CHAR_WIDTH;
    const x = right ? plot.right - 4 : plot.left + 6;
    return {
      x,
      y: baseline,
      anchor: right ? 'end' : 'start',
      rect: { x: right ? x - width : x, y: baseline - LABEL_HEIGHT + 2, width, height: LABEL_HEIGHT },
    };
  };
  const fits = (s: LabelSlot): boolean =>
    s.rect.y >= plot.top - 2 &&
    s.rect.y + s.rect.height <= plot.bottom + 2 &&
    !placed.some((p) => overlaps(p.rect, s.rect));
  for (const line of lines) {
    const candidates: LabelSlot[] = [];
    for (const baseline of [line.y - 4, line.y + LABEL_HEIGHT + 1])
      for (const right of [true, false]) candidates.push(slot(baseline, right, line.label));
    for (let k = 1; k <= 12; k++) {
      for (const right of [true, false]) {
        candidates.push(slot(line.y - 4 - k * LABEL_HEIGHT, right, line.label));
        candidates.push(slot(line.y + LABEL_HEIGHT + 1 + k * LABEL_HEIGHT, right, line.label));
      }
    }
    placed.push(candidates.find(fits) ?? candidates[0]!);
  }
  return placed;
}

interface BarChartSpec {
  title: string;
  desc: string;
  values: number[];
  /** Label of bar i (shown for a few bars; all bars carry it in their <title>). */
  label: (i: number) => string;
  /** A horizontal line (the mean, say). */
  line?: ReferenceLine;
  cls: string;
  yLabel?: (y: number) => string;
  width?: number;
  height?: number;
}

export function barChart(spec: BarChartSpec): string {
  const frame: Frame = {
    width: spec.width ?? 640,
    height: spec.height ?? 200,
    left: 56,
    right: 12,
    top: 12,
    bottom: 28,
  };
  const { head, plotW, plotH } = open(frame, spec.title, spec.desc, 'bar-chart');
  const max = Math.max(1, ...spec.values, spec.line?.y ?? 0);
  // Counts: at least 0..4 so that the ticks stay whole numbers.
  const ticks = niceTicks(Math.max(max, 4), 4);
  const yMax = ticks.at(-1)!;
  const sy = (y: number): number => frame.top + plotH - (y / yMax) * plotH;
  const n = Math.max(1, spec.values.length);
  const slot = plotW / n;
  const barW = Math.max(0.5, slot * (n > 60 ? 1 : 0.8));
  const yLabel = spec.yLabel ?? ((y: number) => y.toLocaleString('en-US'));
  const parts: string[] = [head, '<g class="grid" aria-hidden="true">'];
  for (const t of ticks) {
    parts.push(`<line x1="${frame.left}" x2="${frame.left + plotW}" y1="${num(sy(t))}" y2="${num(sy(t))}"/>`);
    parts.push(
      `<text class="tick" x="${frame.left - 6}" y="${num(sy(t) + 4)}" text-anchor="end">${escapeHtml(yLabel(t))}</text>`,
    );
  }
  const every = Math.max(1, Math.ceil(n / 16));
  for (let i = 0; i < n; i += every) {
    parts.push(
      `<text class="tick" x="${num(frame.left + slot * i + slot / 2)}" y="${frame.top + plotH + 16}" text-anchor="middle">${escapeHtml(spec.label(i))}</text>`,
    );
  }
  parts.push('</g>');
  parts.push(`<g class="bars ${spec.cls}">`);
  spec.values.forEach((v, i) => {
    const x = frame.left + slot * i + (slot - barW) / 2;
    const y = sy(v);
    parts.push(
      `<rect x="${num(x)}" y="${num(y)}" width="${num(barW)}" height="${num(frame.top + plotH - y)}"><title>${escapeHtml(`${spec.label(i)}: ${yLabel(v)}`)}</title></rect>`,
    );
  });
  parts.push('</g>');
  if (spec.line) {
    const y = num(sy(spec.line.y));
    parts.push(
      `<g class="limit ${spec.line.cls}"><line x1="${frame.left}" x2="${frame.left + plotW}" y1="${y}" y2="${y}"/>` +
        `<text x="${frame.left + plotW - 4}" y="${num(sy(spec.line.y) - 4)}" text-anchor="end">${escapeHtml(spec.line.label)}</text></g>`,
    );
  }
  parts.push('</svg>');
  return parts.join('');
}

interface HorizontalBar {
  label: string;
  value: number;
  cls: string;
}

/** Horizontal bars against one limit (a vertical line): throughput today and per shard. */
export function horizontalBars(spec: {
  title: string;
  desc: string;
  bars: HorizontalBar[];
  limit: { value: number; label: string };
  unit: string;
  width?: number;
}): string {
  const rowH = 28;
  const frame: Frame = {
    width: spec.width ?? 640,
    height: 48 + rowH * spec.bars.length,
    left: 190,
    right: 20,
    top: 20,
    bottom: 28,
  };
  const { head, plotW } = open(frame, spec.title, spec.desc, 'hbar-chart');
  const max = Math.max(spec.limit.value * 1.1, ...spec.bars.map((b) => b.value));
  const ticks = niceTicks(max, 4);
  const xMax = ticks.at(-1)!;
  const sx = (x: number): number => frame.left + (x / xMax) * plotW;
  const bottom = frame.top + rowH * spec.bars.length;
  const parts: string[] = [head, '<g class="grid" aria-hidden="true">'];
  for (const t of ticks) {
    parts.push(`<line x1="${num(sx(t))}" x2="${num(sx(t))}" y1="${frame.top}" y2="${bottom}"/>`);
    parts.push(
      `<text class="tick" x="${num(sx(t))}" y="${bottom + 16}" text-anchor="middle">${escapeHtml(t.toLocaleString('en-US'))}</text>`,
    );
  }
  parts.push('</g>');
  spec.bars.forEach((b, i) => {
    const y = frame.top + i * rowH + 4;
    parts.push(
      `<text class="bar-label" x="${frame.left - 8}" y="${y + 15}" text-anchor="end">${escapeHtml(b.label)}</text>`,
    );
    parts.push(
      `<rect class="${b.cls}" x="${frame.left}" y="${y}" width="${num(Math.max(1, sx(b.value) - frame.left))}" height="${rowH - 8}"><title>${escapeHtml(`${b.label}: ${Math.round(b.value).toLocaleString('en-US')} ${spec.unit}`)}</title></rect>`,
    );
  });
  const lx = num(sx(spec.limit.value));
  parts.push(
    `<g class="limit limit-hard"><line x1="${lx}" x2="${lx}" y1="${frame.top}" y2="${bottom}"/><text x="${lx}" y="${frame.top - 6}" text-anchor="middle">${escapeHtml(spec.limit.label)}</text></g>`,
  );
  parts.push('</svg>');
  return parts.join('');
}
