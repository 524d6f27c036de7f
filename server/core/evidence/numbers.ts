// Numbers as the tools print them: Java's Long and Double toString (`1386179893`, `4.0`, `NaN`,
// `1.2E7`), `%.2f` in a locale with a decimal comma (`16,13`), and nodetool's human-readable sizes
// (FileUtils.stringifyFileSize: `1.3 GiB`, `512 bytes`; before 4.0 `1.3 GB` meaning the same 2^30).
// Every pattern here runs in time linear in its input (text-scan.ts says why that needs care).

/** A number, or undefined for NaN, an empty field or text that is not one. */
export function parseNumber(text: string): number | undefined {
  const t = text.trim().replace(/^(-?\d+),(\d+)$/, '$1.$2');
  if (!/^-?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?$/.test(t)) return undefined;
  const n = Number(t);
  return Number.isFinite(n) ? n : undefined;
}

/** A count: a non-negative number (a fraction is kept: averages are counts too). */
export function parseCount(text: string): number | undefined {
  const n = parseNumber(text);
  return n !== undefined && n >= 0 ? n : undefined;
}

const UNITS: Record<string, number> = {
  b: 1,
  byte: 1,
  bytes: 1,
  kib: 1024,
  mib: 1024 ** 2,
  gib: 1024 ** 3,
  tib: 1024 ** 4,
  // nodetool before 4.0 printed binary multiples with these names.
  kb: 1024,
  mb: 1024 ** 2,
  gb: 1024 ** 3,
  tb: 1024 ** 4,
};

/** Bytes: a plain count or a human-readable size (`-H`). */
export function parseByteSize(text: string): number | undefined {
  // The unit is the letters at the end, the number what is before them (spaces between allowed).
  const t = text.trim();
  let end = t.length;
  while (end > 0 && isAsciiLetter(t.charCodeAt(end - 1))) end--;
  const number = t.slice(0, end).trimEnd();
  if (!/^-?[\d.,]+(?:[eE][-+]?\d+)?$/.test(number)) return undefined;
  const n = parseCount(number);
  if (n === undefined) return undefined;
  if (end === t.length) return n;
  const unit = UNITS[t.slice(end).toLowerCase()];
  return unit === undefined ? undefined : Math.round(n * unit);
}

function isAsciiLetter(c: number): boolean {
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
}

/** A line `label: value` (any indentation; the label is what comes before the first colon), or undefined. */
export function labelled(line: string): { label: string; value: string } | undefined {
  const colon = line.indexOf(':');
  if (colon < 0) return undefined;
  const label = line.slice(0, colon).trim();
  return label ? { label, value: line.slice(colon + 1).trim() } : undefined;
}
