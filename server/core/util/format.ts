// How cqlint writes numbers in messages, the hover and the report: counts, sizes, durations and rates. One
// home for each, below everything that writes one.

const MB = 1024 * 1024;
const GB = 1024 * MB;

/** "12.3 MB", "850 KB", "64 B". */
export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes)) return 'unlimited';
  if (bytes >= GB) return `${trim(bytes / GB)} GB`;
  if (bytes >= MB) return `${trim(bytes / MB)} MB`;
  if (bytes >= 1024) return `${trim(bytes / 1024)} KB`;
  return `${Math.round(bytes)} B`;
}

/** A size as Cassandra writes it (binary units): `5 KiB`, `100 MiB`, `1.5 GiB`, `512 B`; the settings, guardrail
 * messages and the bounded-input errors write sizes so. */
export function formatCassandraBytes(bytes: number): string {
  for (const [unit, scale] of [
    ['GiB', GB],
    ['MiB', MB],
    ['KiB', 1024],
  ] as const) {
    if (bytes >= scale) {
      const n = bytes / scale;
      return `${Number.isInteger(n) ? n : n.toFixed(1)} ${unit}`;
    }
  }
  return `${bytes} B`;
}

export function formatCount(n: number): string {
  if (!Number.isFinite(n)) return 'unlimited';
  const rounded = Math.round(n);
  // toLocaleString sets up a locale formatter on every call: a third of a partition rule's time on a
  // re-lint. Grouping the digits gives the same text for en-US.
  if (Math.abs(rounded) >= 1e21) return rounded.toLocaleString('en-US');
  return String(rounded).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

function trim(n: number): string {
  return n >= 100 ? String(Math.round(n)) : n.toFixed(1).replace(/\.0$/, '');
}

/** "1 row/s", "1 row/min", "2.5 rows/s". */
export function formatRate(rowsPerSecond: number): string {
  const per = (n: number, unit: string): string =>
    `${Number.isInteger(n) ? n : Number(n.toPrecision(3))} row${n === 1 ? '' : 's'}/${unit}`;
  if (rowsPerSecond >= 1) return per(rowsPerSecond, 's');
  if (rowsPerSecond * 60 >= 1) return per(rowsPerSecond * 60, 'min');
  if (rowsPerSecond * 3600 >= 1) return per(rowsPerSecond * 3600, 'h');
  return per(rowsPerSecond * 86400, 'day');
}

/** "26 hours", "69 days", "3.2 years". */
export function formatDuration(seconds: number): string {
  if (!Number.isFinite(seconds)) return 'never';
  const round = (n: number): string => (n >= 10 ? String(Math.round(n)) : String(Number(n.toFixed(1))));
  if (seconds < 120) return `${round(seconds)} seconds`;
  if (seconds < 7200) return `${round(seconds / 60)} minutes`;
  if (seconds < 2 * 86400) return `${round(seconds / 3600)} hours`;
  if (seconds < 2 * 365 * 86400) return `${round(seconds / 86400)} days`;
  return `${round(seconds / (365 * 86400))} years`;
}
