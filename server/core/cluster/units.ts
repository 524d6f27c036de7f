// Values as cassandra.yaml and scylla.yaml write them. Cassandra 4.1 and later write sizes with a unit
// (`5KiB`, `100MiB`: DataStorageSpec takes B, KiB, MiB and GiB) and durations with one (`12h`, `500ms`);
// Cassandra 4.0 and ScyllaDB write bare numbers whose unit is in the key's name (`_in_kb`, `_mb`).
// -1 (and null, or nothing) leaves a guardrail off. Pure: no file is read here.

/** A size in bytes, a count, a duration in milliseconds, a flag or a list of names. */
export type ValueType = 'count' | 'bytes' | 'duration' | 'flag' | 'list';

/** What one yaml value means: a value, off (a threshold of -1 or null), or why it cannot be read. */
export type ParsedValue =
  { ok: true; value: number | boolean | readonly string[] | undefined } | { ok: false; expected: string };

const BYTES_PER_UNIT: Readonly<Record<string, number>> = { B: 1, KiB: 1024, MiB: 1024 ** 2, GiB: 1024 ** 3 };
const MS_PER_UNIT: Readonly<Record<string, number>> = {
  ns: 1e-6,
  us: 1e-3,
  µs: 1e-3,
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
  d: 86_400_000,
};

const EXPECTED: Readonly<Record<ValueType, string>> = {
  count: 'a whole number (-1 to turn the guardrail off)',
  bytes: 'a size with its unit: a whole number and B, KiB, MiB or GiB, e.g. 5KiB (or null to turn it off)',
  duration: 'a duration with its unit: a whole number and d, h, m, s or ms, e.g. 12h (or null to turn it off)',
  flag: 'true or false',
  list: 'a list of names, e.g. [ANY, ONE]',
};

/**
 * Reads one value. `plainUnit`: the unit of a bare number (a 4.0 `_in_kb` key: KiB; ScyllaDB's `_mb`:
 * MiB). A threshold of -1, 0 or null is off: Cassandra's guardrails take -1 (null for sizes) as
 * disabled and treat 0 alike.
 */
export function parseSettingValue(type: ValueType, raw: unknown, plainUnit?: string): ParsedValue {
  if (type === 'flag') {
    if (typeof raw === 'boolean') return { ok: true, value: raw };
    if (typeof raw === 'string' && /^(true|false)$/i.test(raw.trim()))
      return { ok: true, value: raw.trim().toLowerCase() === 'true' };
    return { ok: false, expected: EXPECTED.flag };
  }
  if (type === 'list') {
    if (raw === null || raw === undefined) return { ok: true, value: [] };
    const items = Array.isArray(raw) ? raw : typeof raw === 'string' ? raw.split(',') : undefined;
    if (!items || !items.every((item) => typeof item === 'string' || typeof item === 'number'))
      return { ok: false, expected: EXPECTED.list };
    return { ok: true, value: items.map((item) => String(item).trim()).filter((item) => item !== '') };
  }
  if (raw === null || raw === undefined) return { ok: true, value: undefined };
  if (typeof raw === 'number') {
    if (!Number.isInteger(raw)) return { ok: false, expected: EXPECTED[type] };
    if (raw <= 0) return { ok: true, value: undefined };
    if (type === 'count') return { ok: true, value: raw };
    // A bare number is only read where the key names its unit (ScyllaDB, Cassandra 4.0's old names).
    if (plainUnit === undefined) return { ok: false, expected: EXPECTED[type] };
    const scale = type === 'bytes' ? BYTES_PER_UNIT[plainUnit] : MS_PER_UNIT[plainUnit];
    return scale === undefined ? { ok: false, expected: EXPECTED[type] } : { ok: true, value: raw * scale };
  }
  if (typeof raw !== 'string') return { ok: false, expected: EXPECTED[type] };
  const text = raw.trim();
  if (/^-1$/.test(text) || /^null$/i.test(text)) return { ok: true, value: undefined };
  if (type === 'count') {
    return /^\d+$/.test(text)
      ? { ok: true, value: Number(text) || undefined }
      : { ok: false, expected: EXPECTED.count };
  }
  const match = /^(\d+)\s*([A-Za-zµ]+)$/.exec(text);
  const scale = match ? (type === 'bytes' ? BYTES_PER_UNIT : MS_PER_UNIT)[match[2]!] : undefined;
  if (!match || scale === undefined || !Object.hasOwn(type === 'bytes' ? BYTES_PER_UNIT : MS_PER_UNIT, match[2]!))
    return { ok: false, expected: EXPECTED[type] };
  const value = Number(match[1]) * scale;
  return { ok: true, value: value > 0 ? value : undefined };
}

/** A duration in the largest unit that divides it: `12 h`, `90 s`, `250 ms`. */
export function formatDuration(ms: number): string {
  for (const unit of ['d', 'h', 'm', 's'] as const) {
    const scale = MS_PER_UNIT[unit]!;
    if (ms >= scale && ms % scale === 0) return `${ms / scale} ${unit}`;
  }
  return `${ms} ms`;
}
