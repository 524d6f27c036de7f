// The scalar literals of CQL as text, parsed as Cassandra parses them (Java BigDecimal, UUID, inet,
// SimpleDateSerializer, TimeSerializer, TimestampSerializer, Duration): what values.ts builds typed values
// from. Exported for tests and for the CLI too. Each returns the value, or a reason (a string) or undefined
// when the text is not one.
export interface DurationValue {
  kind: 'duration';
  months: number;
  days: number;
  nanoseconds: bigint;
}

/** The ranges of the integer types (and of a timestamp's milliseconds). */
export const INT_RANGES: Record<string, [bigint, bigint]> = {
  tinyint: [-128n, 127n],
  smallint: [-32768n, 32767n],
  int: [-2147483648n, 2147483647n],
  bigint: [-(1n << 63n), (1n << 63n) - 1n],
  counter: [-(1n << 63n), (1n << 63n) - 1n],
  timestamp: [-(1n << 63n), (1n << 63n) - 1n],
};

/** Java BigDecimal(String): `123.45` -> 12345 scale 2; `1E+3` -> 1 scale -3; `-0.50` -> -50 scale 2. */
export function parseDecimal(text: string): { unscaled: bigint; scale: number } | undefined {
  const m = /^([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/.exec(text);
  if (!m || (m[2] === '' && (m[3] ?? '') === '')) return undefined;
  const frac = m[3] ?? '';
  const digits = m[2] + frac || '0';
  const exponent = m[4] ? Number(m[4]) : 0;
  const scale = frac.length - exponent;
  if (!Number.isSafeInteger(scale) || scale > 2147483647 || scale < -2147483648) return undefined;
  const unscaled = BigInt(digits) * (m[1] === '-' ? -1n : 1n);
  return { unscaled, scale };
}

export function parseUuid(text: string): Uint8Array | undefined {
  if (!/^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/.test(text)) return undefined;
  return Uint8Array.from(Buffer.from(text.replace(/-/g, ''), 'hex'));
}

/** IPv4 dotted quad or IPv6 (with `::` and an optional trailing IPv4); 4 or 16 bytes. */
export function parseInet(text: string): Uint8Array | undefined {
  const v4 = parseIpv4(text);
  if (v4) return v4;
  if (!text.includes(':')) return undefined;
  const halves = text.split('::');
  if (halves.length > 2) return undefined;
  const parseGroups = (s: string, allowV4: boolean): number[] | undefined => {
    if (s === '') return [];
    const parts = s.split(':');
    const out: number[] = [];
    for (let i = 0; i < parts.length; i++) {
      const p = parts[i];
      if (allowV4 && i === parts.length - 1 && p.includes('.')) {
        const b = parseIpv4(p);
        if (!b) return undefined;
        out.push((b[0] << 8) | b[1], (b[2] << 8) | b[3]);
      } else {
        if (!/^[0-9a-fA-F]{1,4}$/.test(p)) return undefined;
        out.push(parseInt(p, 16));
      }
    }
    return out;
  };
  const head = parseGroups(halves[0], halves.length === 1);
  const tail = halves.length === 2 ? parseGroups(halves[1], true) : [];
  if (!head || !tail) return undefined;
  let groups: number[];
  if (halves.length === 2) {
    if (head.length + tail.length > 7) return undefined;
    groups = [...head, ...new Array(8 - head.length - tail.length).fill(0), ...tail];
  } else {
    if (head.length !== 8) return undefined;
    groups = head;
  }
  const out = new Uint8Array(16);
  groups.forEach((g, i) => {
    out[i * 2] = g >> 8;
    out[i * 2 + 1] = g & 0xff;
  });
  return out;
}

function parseIpv4(text: string): Uint8Array | undefined {
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(text);
  if (!m) return undefined;
  const b = m.slice(1).map(Number);
  if (b.some((x) => x > 255)) return undefined;
  return Uint8Array.from(b);
}

/** Days since 1970-01-01 of a proleptic Gregorian date. */
function daysFromCivil(year: number, month: number, day: number): number {
  const y = year - (month <= 2 ? 1 : 0);
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) + day - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1];
}

function checkYmd(y: number, mo: number, d: number): string | undefined {
  if (mo < 1 || mo > 12) return `month ${mo} is not 1..12`;
  if (d < 1 || d > daysInMonth(y, mo)) return `${y}-${String(mo).padStart(2, '0')} has no day ${d}`;
  return undefined;
}

const TWO_31 = 2147483648;

/**
 * Cassandra's SimpleDateSerializer: `yyyy-mm-dd` (proleptic Gregorian), or a bare integer that is the raw
 * unsigned day number with the epoch at 2^31 (so `2147483648` is 1970-01-01). Returns days since the epoch,
 * or an error reason.
 */
export function parseDate(text: string): number | string {
  if (/^-?\d+$/.test(text)) {
    const raw = Number(text);
    if (raw < 0 || raw > 4294967295) return 'raw day numbers are 0..4294967295 (2147483648 is 1970-01-01)';
    return raw - TWO_31;
  }
  const m = /^([+-]?\d{1,9})-(\d{1,2})-(\d{1,2})$/.exec(text);
  if (!m) return "expected 'yyyy-mm-dd'";
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const bad = checkYmd(y, mo, d);
  if (bad) return bad;
  const days = daysFromCivil(y, mo, d);
  if (days < -TWO_31 || days >= TWO_31) return 'out of the supported date range';
  return days;
}

/** Cassandra's TimeSerializer: `hh:mm:ss[.fffffffff]` or a bare integer of nanoseconds since midnight. */
export function parseTime(text: string): bigint | string {
  const NANOS_PER_DAY = 86_400_000_000_000n;
  if (/^\d+$/.test(text)) {
    const v = BigInt(text);
    if (v >= NANOS_PER_DAY) return 'nanoseconds since midnight must be below 86400000000000';
    return v;
  }
  const m = /^(\d{1,2}):(\d{1,2}):(\d{1,2})(?:\.(\d{1,9}))?$/.exec(text);
  if (!m) return "expected 'hh:mm:ss[.fffffffff]'";
  const [h, mi, s] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (h > 23) return `hour ${h} is not 0..23`;
  if (mi > 59) return `minute ${mi} is not 0..59`;
  if (s > 59) return `second ${s} is not 0..59`;
  const frac = BigInt((m[4] ?? '').padEnd(9, '0'));
  return BigInt(h) * 3_600_000_000_000n + BigInt(mi) * 60_000_000_000n + BigInt(s) * 1_000_000_000n + frac;
}

/**
 * Timestamps as Cassandra's TimestampSerializer accepts them: an integer string of milliseconds,
 * `yyyy-mm-dd`, `yyyy-mm-dd hh:mm`, `yyyy-mm-dd hh:mm:ss`, `yyyy-mm-dd hh:mm:ss.SSS`, with `T` instead of the
 * space allowed, each optionally followed by a zone: `Z`, `+hh`, `+hhmm`, `+hh:mm` (or the words UTC/GMT).
 * Without a zone we assume UTC. Cassandra uses the coordinator JVM's default zone there (UTC on
 * most servers), so write the zone when it matters.
 */
export function parseTimestamp(text: string): bigint | string {
  if (/^-?\d+$/.test(text)) {
    const v = BigInt(text);
    if (v < INT_RANGES.timestamp[0] || v > INT_RANGES.timestamp[1]) return 'out of range';
    return v;
  }
  const m =
    /^([+-]?\d{1,9})-(\d{1,2})-(\d{1,2})(?:[ T](\d{1,2}):(\d{2})(?::(\d{2})(?:\.(\d+))?)?)?\s*(Z|z|UTC|GMT|[+-]\d{2}(?::?\d{2})?)?$/.exec(
      text,
    );
  if (!m) return "expected 'yyyy-mm-dd[ hh:mm[:ss[.fff]]][zone]', e.g. '2020-07-09 12:00:00+0000'";
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const bad = checkYmd(y, mo, d);
  if (bad) return bad;
  const h = m[4] ? Number(m[4]) : 0;
  const mi = m[5] ? Number(m[5]) : 0;
  const s = m[6] ? Number(m[6]) : 0;
  if (h > 23) return `hour ${h} is not 0..23`;
  if (mi > 59) return `minute ${mi} is not 0..59`;
  if (s > 59) return `second ${s} is not 0..59`;
  if (m[7] !== undefined && m[7].length > 3) return 'timestamps have millisecond precision (at most 3 fraction digits)';
  const ms = m[7] ? Number(m[7].padEnd(3, '0')) : 0;
  let offsetMinutes = 0;
  const zone = m[8];
  if (zone && /^[+-]/.test(zone)) {
    const digits = zone.slice(1).replace(':', '');
    const zh = Number(digits.slice(0, 2));
    const zm = digits.length > 2 ? Number(digits.slice(2)) : 0;
    if (zh > 18 || zm > 59) return `zone offset ${zone} is out of range`;
    offsetMinutes = (zone[0] === '-' ? -1 : 1) * (zh * 60 + zm);
  }
  const days = BigInt(daysFromCivil(y, mo, d));
  return days * 86_400_000n + BigInt(h * 3_600_000 + mi * 60_000 + s * 1000 + ms) - BigInt(offsetMinutes) * 60_000n;
}

const NANOS: Record<string, bigint> = {
  h: 3_600_000_000_000n,
  m: 60_000_000_000n,
  s: 1_000_000_000n,
  ms: 1_000_000n,
  us: 1000n,
  µs: 1000n,
  ns: 1n,
};

/** CQL duration literals: `1y2mo3w4d5h6m7s8ms9us10ns`, ISO 8601 `P1Y2M3DT4H5M6S`, `P2W`, `P0001-02-03T04:05:06`. */
export function parseDuration(text: string): DurationValue | string {
  let negative = false;
  let s = text;
  if (s.startsWith('-')) {
    negative = true;
    s = s.slice(1);
  }
  let months = 0n,
    days = 0n,
    nanos = 0n;
  const upper = s.toUpperCase();
  let m: RegExpExecArray | null;
  if ((m = /^P(\d+)W$/.exec(upper))) {
    days = BigInt(m[1]) * 7n;
  } else if ((m = /^P(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})$/.exec(upper))) {
    months = BigInt(m[1]) * 12n + BigInt(m[2]);
    days = BigInt(m[3]);
    nanos = BigInt(m[4]) * NANOS.h + BigInt(m[5]) * NANOS.m + BigInt(m[6]) * NANOS.s;
  } else if (
    (m = /^P(?:(\d+)Y)?(?:(\d+)M)?(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+)S)?)?$/.exec(upper)) &&
    upper !== 'P' &&
    !upper.endsWith('T')
  ) {
    months = BigInt(m[1] ?? 0) * 12n + BigInt(m[2] ?? 0);
    days = BigInt(m[3] ?? 0);
    nanos = BigInt(m[4] ?? 0) * NANOS.h + BigInt(m[5] ?? 0) * NANOS.m + BigInt(m[6] ?? 0) * NANOS.s;
  } else {
    const re = /(\d+)(y|mo|w|d|h|ms|m|s|us|µs|ns)/giy;
    let pos = 0;
    if (!s) return 'empty duration';
    while (pos < s.length) {
      re.lastIndex = pos;
      const u = re.exec(s);
      if (!u) return `cannot read '${s.slice(pos)}'; expected e.g. 1h30m, 2d or P1DT2H`;
      const n = BigInt(u[1]);
      const unit = u[2].toLowerCase();
      if (unit === 'y') months += n * 12n;
      else if (unit === 'mo') months += n;
      else if (unit === 'w') days += n * 7n;
      else if (unit === 'd') days += n;
      else nanos += n * NANOS[unit];
      pos = re.lastIndex;
    }
  }
  if (months > 2147483647n || days > 2147483647n || nanos > (1n << 63n) - 1n) return 'out of range';
  const sign = negative ? -1n : 1n;
  return { kind: 'duration', months: Number(months * sign), days: Number(days * sign), nanoseconds: nanos * sign };
}
