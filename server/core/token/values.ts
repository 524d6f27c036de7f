// Turning values as users write them (AST expressions, CQL literal text, JSON) into typed values, with
// clear errors in the user's terms. Follows Cassandra's own parsing (TimestampSerializer,
// SimpleDateSerializer, TimeSerializer, Java BigDecimal, ...); see docs in the functions.
import type { Expression, Literal, SourceRange } from '../../../grammar/ast';
import { parseTerm } from '../../../grammar';
import { type KeyType, typeToString } from './types';

/**
 * Decimal digits of the longest integer literal a token is computed for. Converting a decimal string to a
 * BigInt takes time quadratic in its length (600 kB: half a second, 1 MB: two), and no real key needs more.
 */
const MAX_INTEGER_LITERAL_DIGITS = 10_000;

export interface DecimalValue { kind: 'decimal'; unscaled: bigint; scale: number }
export interface DurationValue { kind: 'duration'; months: number; days: number; nanoseconds: bigint }
export interface MapValue { kind: 'map'; entries: [CqlValue, CqlValue][] }

/**
 * A typed value. By column type:
 * text/varchar/ascii: string; int/smallint/tinyint: number; bigint/counter/varint: bigint;
 * timestamp: bigint (ms since epoch); date: number (days since 1970-01-01, may be negative);
 * time: bigint (ns since midnight); boolean: boolean; uuid/timeuuid (16 bytes), inet (4 or 16), blob: Uint8Array;
 * double/float: number; decimal: DecimalValue; duration: DurationValue;
 * list/set: CqlValue[]; map: MapValue; tuple/udt: (CqlValue | null)[] (udt in field order).
 */
export type CqlValue =
  | string | number | bigint | boolean | Uint8Array | DecimalValue | DurationValue | MapValue | (CqlValue | null)[];

/** What callers may pass as a value: an AST expression, CQL literal text, or a JSON value (CLI). */
export type KeyValue = Expression | string | number | boolean | bigint | null | KeyValue[] | { [key: string]: KeyValue } | { json: unknown };

type ValueProblemKind = 'invalid' | 'not-computable' | 'unsupported';

/** A value that cannot be turned into bytes: invalid for its type, only known at run time, or unsupported. */
export class KeyValueError extends Error {
  constructor(
    message: string,
    readonly problem: ValueProblemKind,
    readonly column?: string,
    readonly range?: SourceRange,
  ) {
    super(message);
    this.name = 'KeyValueError';
  }
}

interface ValueContext {
  /** Column name for messages ("... for column published_on"). */
  column?: string;
  range?: SourceRange;
}

const NO_RANGE: SourceRange = { start: 0, end: 0 };

function forColumn(ctx: ValueContext): string {
  return ctx.column ? ` for column ${ctx.column}` : '';
}
function invalid(ctx: ValueContext, message: string): KeyValueError {
  return new KeyValueError(message, 'invalid', ctx.column, ctx.range);
}
function notValid(ctx: ValueContext, shown: string, what: string, why?: string): KeyValueError {
  return invalid(ctx, `${shown} is not a valid ${what}${forColumn(ctx)}${why ? `: ${why}` : ''}`);
}
function quote(s: string): string {
  return `'${s.replace(/'/g, "''")}'`;
}

// -------------------------------------------------------------------------------------------------
// Entry points

function isExpression(v: unknown): v is Expression {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Uint8Array)
    && typeof (v as { kind?: unknown }).kind === 'string' && typeof (v as { range?: unknown }).range === 'object';
}

/** Parses one value for a column type. Throws KeyValueError. */
export function parseKeyValue(type: KeyType, value: KeyValue, ctx: ValueContext = {}): CqlValue {
  if (isExpression(value)) return valueFromExpression(type, value, { ...ctx, range: ctx.range ?? value.range });
  if (typeof value === 'object' && value !== null && !Array.isArray(value) && 'json' in value && Object.keys(value).length === 1) {
    return valueFromJson(type, (value as { json: unknown }).json, ctx);
  }
  if (typeof value === 'string') return valueFromText(type, value, ctx);
  return valueFromJson(type, value, ctx);
}

/**
 * CQL literal text as typed on a command line: `'2020-07-09'`, `17`, `0x0a`, `123.45`, uuids, `'1.2.3.4'`,
 * `true`, `[1, 2]`. Quotes are optional for text, date, time, timestamp, inet, uuid and duration values
 * (`2020-07-09` works); text starting with `'` or `$$` is read as a CQL string literal.
 */
export function valueFromText(type: KeyType, text: string, ctx: ValueContext = {}): CqlValue {
  const trimmed = text.trim();
  const stringy = type.kind === 'native' && ['ascii', 'text', 'varchar', 'date', 'time', 'timestamp', 'inet', 'uuid', 'timeuuid', 'duration', 'blob'].includes(type.name);
  if (stringy && !trimmed.startsWith("'") && !trimmed.startsWith('$$')) {
    if (type.kind === 'native' && (type.name === 'text' || type.name === 'varchar' || type.name === 'ascii')) {
      return valueFromExpression(type, syntheticLiteral('string', text), ctx);
    }
    const term = tryParseTerm(trimmed);
    if (term) return valueFromTerm(type, term, ctx);
    if (type.kind === 'native' && type.name === 'blob') throw notValid(ctx, text, 'blob', 'write blobs as hex, e.g. 0xcafe');
    return valueFromExpression(type, syntheticLiteral('string', trimmed), ctx);
  }
  const term = tryParseTerm(trimmed);
  if (!term) {
    if (!trimmed) throw invalid(ctx, `empty value${forColumn(ctx)}`);
    throw invalid(ctx, `${text} is not a valid CQL literal${forColumn(ctx)} (${typeToString(type)})`);
  }
  return valueFromTerm(type, term, ctx);
}

/** A term parsed from text: its ranges are offsets into that text, so errors keep the caller's range. */
function valueFromTerm(type: KeyType, term: Expression, ctx: ValueContext): CqlValue {
  try {
    return valueFromExpression(type, term, ctx);
  } catch (e) {
    if (e instanceof KeyValueError && e.range !== ctx.range) throw new KeyValueError(e.message, e.problem, e.column, ctx.range);
    throw e;
  }
}

/**
 * A JSON value (CLI `--json` input): strings are read as CQL literal text (see valueFromText); numbers,
 * booleans; arrays for lists, sets and tuples; objects for maps and UDTs. bigint/varint/decimal values
 * beyond 2^53 must be strings to stay exact.
 */
function valueFromJson(type: KeyType, value: unknown, ctx: ValueContext = {}): CqlValue {
  if (value === null || value === undefined) throw invalid(ctx, `null is not allowed in a partition key${forColumn(ctx)}`);
  if (typeof value === 'string') return valueFromText(type, value, ctx);
  if (typeof value === 'bigint') return valueFromExpression(type, signedLiteral('integer', value.toString()), ctx);
  if (typeof value === 'boolean') return valueFromExpression(type, syntheticLiteral('boolean', String(value)), ctx);
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return valueFromExpression(type, signedLiteral(Number.isNaN(value) ? 'nan' : 'infinity', String(value).replace('Infinity', 'Infinity')), ctx);
    if (Number.isInteger(value)) {
      const integerTypes = type.kind === 'native' && ['bigint', 'varint', 'counter', 'timestamp', 'time', 'decimal'].includes(type.name);
      if (integerTypes && !Number.isSafeInteger(value)) {
        throw invalid(ctx, `${value} is too large to be exact as a JSON number${forColumn(ctx)}; write it as a string`);
      }
      return valueFromExpression(type, signedLiteral(Math.abs(value) >= 1e21 ? 'float' : 'integer', Math.abs(value) >= 1e21 ? String(value) : BigInt(value).toString()), ctx);
    }
    return valueFromExpression(type, signedLiteral('float', String(value)), ctx);
  }
  if (value instanceof Uint8Array) {
    return valueFromExpression(type, syntheticLiteral('hex', '0x' + Buffer.from(value).toString('hex')), ctx);
  }
  if (Array.isArray(value)) {
    if (type.kind === 'list' || type.kind === 'set') return sortIfSet(type, value.map((v, i) => valueFromJson(type.element, v, elementCtx(ctx, i))));
    if (type.kind === 'tuple') {
      if (value.length > type.elements.length) throw invalid(ctx, `tuple has ${value.length} elements but ${typeToString(type)} has ${type.elements.length}${forColumn(ctx)}`);
      return type.elements.map((t, i) => (value[i] === null || value[i] === undefined ? null : valueFromJson(t, value[i], elementCtx(ctx, i))));
    }
    if (type.kind === 'map') {
      return sortMap(type, value.map((pair, i) => {
        if (!Array.isArray(pair) || pair.length !== 2) throw invalid(ctx, `map entries in JSON arrays must be [key, value] pairs${forColumn(ctx)}`);
        return [valueFromJson(type.key, pair[0], elementCtx(ctx, i)), valueFromJson(type.value, pair[1], elementCtx(ctx, i))] as [CqlValue, CqlValue];
      }));
    }
    throw invalid(ctx, `a JSON array is not a valid ${typeToString(type)}${forColumn(ctx)}`);
  }
  if (typeof value === 'object') {
    const obj = value as Record<string, unknown>;
    if (type.kind === 'map') {
      return sortMap(type, Object.entries(obj).map(([k, v]) => [valueFromText(type.key, k, ctx), valueFromJson(type.value, v, ctx)] as [CqlValue, CqlValue]));
    }
    if (type.kind === 'udt') {
      const known = new Set(type.fields.map((f) => f.name));
      for (const k of Object.keys(obj)) if (!known.has(k)) throw invalid(ctx, `unknown field '${k}' in type ${type.name}${forColumn(ctx)}`);
      return type.fields.map((f) => (obj[f.name] === undefined || obj[f.name] === null ? null : valueFromJson(f.type, obj[f.name], { ...ctx, column: `${ctx.column ?? type.name}.${f.name}` })));
    }
    throw invalid(ctx, `a JSON object is not a valid ${typeToString(type)}${forColumn(ctx)}`);
  }
  throw invalid(ctx, `unsupported JSON value${forColumn(ctx)}`);
}

function elementCtx(ctx: ValueContext, _i: number): ValueContext {
  return ctx;
}

function syntheticLiteral(literalKind: Literal['literalKind'], value: string): Literal {
  return { kind: 'Literal', literalKind, value, text: literalKind === 'string' ? quote(value) : value, range: NO_RANGE };
}
function signedLiteral(literalKind: Literal['literalKind'], text: string): Expression {
  if (text.startsWith('-')) return { kind: 'UnaryExpression', operator: '-', operand: syntheticLiteral(literalKind, text.slice(1)), range: NO_RANGE };
  return syntheticLiteral(literalKind, text);
}

// -------------------------------------------------------------------------------------------------
// From AST expressions

function describeExpression(expr: Expression): string {
  switch (expr.kind) {
    case 'Literal': return expr.text;
    case 'UnaryExpression': return `-${describeExpression(expr.operand)}`;
    case 'FunctionCall': return `${expr.name.name.name}()`;
    case 'BindMarker': return expr.name ? `:${expr.name.name}` : '?';
    case 'ColumnRef': return expr.name.name;
    default: return expr.kind;
  }
}

/** Evaluates an AST expression for a column type. Throws KeyValueError. */
function valueFromExpression(type: KeyType, expr: Expression, ctx: ValueContext = {}): CqlValue {
  const here: ValueContext = { column: ctx.column, range: expr.range === NO_RANGE ? ctx.range : expr.range };
  if (type.kind === 'unsupported') throw new KeyValueError(`${type.reason}${forColumn(ctx)}`, 'unsupported', ctx.column, here.range);
  switch (expr.kind) {
    case 'Literal':
      return fromLiteral(type, expr, false, here);
    case 'UnaryExpression': {
      let negative = true;
      let inner: Expression = expr.operand;
      while (inner.kind === 'UnaryExpression') { negative = !negative; inner = inner.operand; }
      if (inner.kind !== 'Literal' || !['integer', 'float', 'infinity', 'nan', 'duration'].includes(inner.literalKind)) {
        if (inner.kind === 'Literal') throw invalid(here, `-${inner.text} is not a valid ${typeToString(type)}${forColumn(ctx)}`);
        return valueFromExpression(type, inner, ctx); // reports why the operand is not computable
      }
      return fromLiteral(type, inner, negative, here);
    }
    case 'TypeHint':
      return valueFromExpression(type, expr.expression, ctx);
    case 'BindMarker':
      throw new KeyValueError(`bind marker ${describeExpression(expr)}${forColumn(ctx)}: the value is only known when the statement runs`, 'not-computable', ctx.column, here.range);
    case 'FunctionCall': {
      const name = expr.name.name.name;
      throw new KeyValueError(`${name}()${forColumn(ctx)} is evaluated by the server, so the token cannot be computed here`, 'not-computable', ctx.column, here.range);
    }
    case 'ListLiteral':
      if (type.kind === 'list' || (type.kind === 'set' && expr.elements.length === 0)) return expr.elements.map((e) => valueFromExpression(type.element, e, ctx));
      if (type.kind === 'set') throw notValid(here, '[...]', typeToString(type), 'sets are written {...}');
      break;
    case 'SetLiteral':
      if (type.kind === 'set') return sortIfSet(type, expr.elements.map((e) => valueFromExpression(type.element, e, ctx)));
      if ((type.kind === 'map' || type.kind === 'list') && expr.elements.length === 0) return type.kind === 'map' ? { kind: 'map', entries: [] } : [];
      break;
    case 'MapLiteral':
      if (type.kind === 'map') {
        return sortMap(type, expr.entries.map((e) => [valueFromExpression(type.key, e.key, ctx), valueFromExpression(type.value, e.value, ctx)] as [CqlValue, CqlValue]));
      }
      if (type.kind === 'set' && expr.entries.length === 0) return [];
      if (type.kind === 'udt') {
        const fields = expr.entries.map((e) => {
          if (e.key.kind === 'ColumnRef') return { name: e.key.name.name, value: e.value };
          throw notValid(here, 'a map literal', typeToString(type), 'UDT fields are written {field: value}');
        });
        return udtValue(type, fields, here, ctx);
      }
      break;
    case 'UdtLiteral':
      if (type.kind === 'udt') return udtValue(type, expr.fields.map((f) => ({ name: f.name.name, value: f.value })), here, ctx);
      if (type.kind === 'map') {
        throw notValid(here, 'a UDT literal', typeToString(type), 'map keys must be values, e.g. {\'key\': 1}');
      }
      break;
    case 'TupleExpression':
      if (type.kind === 'tuple') {
        if (expr.elements.length > type.elements.length) throw invalid(here, `tuple has ${expr.elements.length} elements but ${typeToString(type)} has ${type.elements.length}${forColumn(ctx)}`);
        return type.elements.map((t, i) => {
          const e = expr.elements[i];
          if (!e || (e.kind === 'Literal' && e.literalKind === 'null')) return null;
          return valueFromExpression(t, e, ctx);
        });
      }
      break;
    case 'ColumnRef':
      throw new KeyValueError(`${expr.name.name} is a column name, not a value${forColumn(ctx)}`, 'invalid', ctx.column, here.range);
    default:
      throw new KeyValueError(`${describeExpression(expr)}${forColumn(ctx)} is not a literal, so the token cannot be computed here`, 'not-computable', ctx.column, here.range);
  }
  throw notValid(here, describeExpression(expr), typeToString(type));
}

function udtValue(type: Extract<KeyType, { kind: 'udt' }>, fields: { name: string; value: Expression }[], here: ValueContext, ctx: ValueContext): (CqlValue | null)[] {
  const byName = new Map<string, Expression>();
  for (const f of fields) {
    if (!type.fields.some((tf) => tf.name === f.name)) throw invalid(here, `unknown field '${f.name}' in type ${type.name}${forColumn(ctx)}`);
    byName.set(f.name, f.value);
  }
  return type.fields.map((f) => {
    const e = byName.get(f.name);
    if (!e || (e.kind === 'Literal' && e.literalKind === 'null')) return null;
    return valueFromExpression(f.type, e, ctx);
  });
}

const INT_RANGES: Record<string, [bigint, bigint]> = {
  tinyint: [-128n, 127n],
  smallint: [-32768n, 32767n],
  int: [-2147483648n, 2147483647n],
  bigint: [-(1n << 63n), (1n << 63n) - 1n],
  counter: [-(1n << 63n), (1n << 63n) - 1n],
  timestamp: [-(1n << 63n), (1n << 63n) - 1n],
};

function fromLiteral(type: KeyType, lit: Literal, negative: boolean, ctx: ValueContext): CqlValue {
  const shown = (negative ? '-' : '') + lit.text;
  if (lit.literalKind === 'null') throw invalid(ctx, `null is not allowed in a partition key${forColumn(ctx)}`);
  if (type.kind !== 'native') throw notValid(ctx, shown, typeToString(type));
  const name = type.name;
  const k = lit.literalKind;
  switch (name) {
    case 'text': case 'varchar': case 'ascii': {
      if (k !== 'string') throw notValid(ctx, shown, name, `${name} values are quoted strings, e.g. ${quote(lit.text)}`);
      if (/[\uD800-\uDFFF]/.test(lit.value) && !/^(?:[^\uD800-\uDFFF]|[\uD800-\uDBFF][\uDC00-\uDFFF])*$/.test(lit.value)) {
        throw notValid(ctx, quote(lit.value), name, 'it contains an unpaired UTF-16 surrogate');
      }
      if (name === 'ascii' && /[^\x00-\x7f]/.test(lit.value)) throw notValid(ctx, quote(lit.value), 'ascii value', 'it has non-ASCII characters');
      return lit.value;
    }
    case 'int': case 'smallint': case 'tinyint': case 'bigint': case 'counter': case 'varint': {
      if (k !== 'integer') {
        if (k === 'float') throw notValid(ctx, shown, name, 'not an integer');
        throw notValid(ctx, k === 'string' ? quote(lit.value) : shown, name, k === 'string' ? 'numbers are written without quotes' : undefined);
      }
      if (lit.value.length > MAX_INTEGER_LITERAL_DIGITS) {
        throw invalid(ctx, `a ${name} literal of ${lit.value.length} digits${forColumn(ctx)} is too long to compute a token for (limit ${MAX_INTEGER_LITERAL_DIGITS} digits)`);
      }
      let v = BigInt(lit.value);
      if (negative) v = -v;
      const range = INT_RANGES[name];
      if (range && (v < range[0] || v > range[1])) throw invalid(ctx, `${shown} is out of range for ${name}${forColumn(ctx)} (${range[0]}..${range[1]})`);
      return name === 'int' || name === 'smallint' || name === 'tinyint' ? Number(v) : v;
    }
    case 'boolean':
      if (k !== 'boolean' || negative) throw notValid(ctx, shown, 'boolean', 'write true or false');
      return lit.value.toLowerCase() === 'true';
    case 'double': case 'float': {
      let v: number;
      if (k === 'integer' || k === 'float') v = Number(lit.value);
      else if (k === 'nan') v = NaN;
      // The parser folds a leading '-' into number literals (`-Infinity` is one literal), so read the sign too.
      else if (k === 'infinity') v = lit.value.startsWith('-') ? -Infinity : Infinity;
      else throw notValid(ctx, k === 'string' ? quote(lit.value) : shown, name, k === 'string' ? 'numbers are written without quotes' : undefined);
      if (negative) v = -v;
      if (name === 'float') {
        const f = Math.fround(v);
        if (!Number.isFinite(f) && Number.isFinite(v)) throw invalid(ctx, `${shown} is out of range for float${forColumn(ctx)}`);
        return f;
      }
      return v;
    }
    case 'decimal': {
      if (k !== 'integer' && k !== 'float') throw notValid(ctx, k === 'string' ? quote(lit.value) : shown, 'decimal', k === 'nan' || k === 'infinity' ? 'decimals have no NaN or Infinity' : undefined);
      const d = parseDecimal(lit.value);
      if (!d) throw notValid(ctx, shown, 'decimal');
      return { kind: 'decimal', unscaled: negative ? -d.unscaled : d.unscaled, scale: d.scale };
    }
    case 'uuid': case 'timeuuid': {
      const text = k === 'uuid' || k === 'string' ? lit.value : undefined;
      const bytes = text !== undefined && !negative ? parseUuid(text) : undefined;
      if (!bytes) throw notValid(ctx, k === 'string' ? quote(lit.value) : shown, name, 'expected 8-4-4-4-12 hex digits, e.g. 123e4567-e89b-12d3-a456-426614174000');
      if (name === 'timeuuid' && (bytes[6] >> 4) !== 1) throw notValid(ctx, lit.value, 'timeuuid', `it is a version ${bytes[6] >> 4} uuid; timeuuid needs version 1`);
      return bytes;
    }
    case 'blob': {
      if (k !== 'hex' || negative) throw notValid(ctx, k === 'string' ? quote(lit.value) : shown, 'blob', 'write blobs as hex, e.g. 0xcafe');
      let hex = lit.value.slice(2);
      if (!/^[0-9a-fA-F]*$/.test(hex)) throw notValid(ctx, shown, 'blob');
      if (hex.length % 2) hex = '0' + hex; // Cassandra's Hex.hexToBytes pads an odd digit count
      return Uint8Array.from(Buffer.from(hex, 'hex'));
    }
    case 'inet': {
      if (k !== 'string') throw notValid(ctx, shown, 'inet', "addresses are quoted, e.g. '10.0.0.1'");
      const bytes = parseInet(lit.value.trim());
      if (!bytes) throw notValid(ctx, quote(lit.value), 'inet address', 'expected an IPv4 or IPv6 address (host names are not resolved)');
      return bytes;
    }
    case 'timestamp': {
      if (k === 'integer') {
        const v = BigInt(lit.value) * (negative ? -1n : 1n);
        if (v < INT_RANGES.timestamp[0] || v > INT_RANGES.timestamp[1]) throw invalid(ctx, `${shown} is out of range for timestamp${forColumn(ctx)}`);
        return v;
      }
      if (k !== 'string' || negative) throw notValid(ctx, shown, 'timestamp');
      const ms = parseTimestamp(lit.value.trim());
      if (typeof ms === 'string') throw notValid(ctx, quote(lit.value), 'timestamp', ms);
      return ms;
    }
    case 'date': {
      if (k !== 'integer' && k !== 'string') throw notValid(ctx, shown, 'date', "write 'yyyy-mm-dd'");
      const text = (negative ? '-' : '') + lit.value.trim();
      const days = parseDate(text);
      if (typeof days === 'string') throw notValid(ctx, k === 'string' ? quote(lit.value) : shown, 'date', days);
      return days;
    }
    case 'time': {
      if ((k !== 'integer' && k !== 'string') || negative) throw notValid(ctx, shown, 'time', "write 'hh:mm:ss[.fffffffff]'");
      const ns = parseTime(lit.value.trim());
      if (typeof ns === 'string') throw notValid(ctx, k === 'string' ? quote(lit.value) : shown, 'time', ns);
      return ns;
    }
    case 'duration': {
      if (k !== 'duration' && k !== 'string') throw notValid(ctx, shown, 'duration', 'write e.g. 1h30m or P1DT2H');
      const d = parseDuration((negative ? '-' : '') + lit.value.trim());
      if (typeof d === 'string') throw notValid(ctx, shown, 'duration', d);
      return d;
    }
  }
  throw notValid(ctx, shown, name);
}

// -------------------------------------------------------------------------------------------------
// Scalar parsers (exported for tests and for the CLI)

/** Java BigDecimal(String): `123.45` -> 12345 scale 2; `1E+3` -> 1 scale -3; `-0.50` -> -50 scale 2. */
export function parseDecimal(text: string): { unscaled: bigint; scale: number } | undefined {
  const m = /^([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/.exec(text);
  if (!m || (m[2] === '' && (m[3] ?? '') === '')) return undefined;
  const frac = m[3] ?? '';
  const digits = (m[2] + frac) || '0';
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
  groups.forEach((g, i) => { out[i * 2] = g >> 8; out[i * 2 + 1] = g & 0xff; });
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
  const m = /^([+-]?\d{1,9})-(\d{1,2})-(\d{1,2})(?:[ T](\d{1,2}):(\d{2})(?::(\d{2})(?:\.(\d+))?)?)?\s*(Z|z|UTC|GMT|[+-]\d{2}(?::?\d{2})?)?$/.exec(text);
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

const NANOS: Record<string, bigint> = { h: 3_600_000_000_000n, m: 60_000_000_000n, s: 1_000_000_000n, ms: 1_000_000n, us: 1000n, 'µs': 1000n, ns: 1n };

/** CQL duration literals: `1y2mo3w4d5h6m7s8ms9us10ns`, ISO 8601 `P1Y2M3DT4H5M6S`, `P2W`, `P0001-02-03T04:05:06`. */
export function parseDuration(text: string): DurationValue | string {
  let negative = false;
  let s = text;
  if (s.startsWith('-')) { negative = true; s = s.slice(1); }
  let months = 0n, days = 0n, nanos = 0n;
  const upper = s.toUpperCase();
  let m: RegExpExecArray | null;
  if ((m = /^P(\d+)W$/.exec(upper))) {
    days = BigInt(m[1]) * 7n;
  } else if ((m = /^P(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})$/.exec(upper))) {
    months = BigInt(m[1]) * 12n + BigInt(m[2]);
    days = BigInt(m[3]);
    nanos = BigInt(m[4]) * NANOS.h + BigInt(m[5]) * NANOS.m + BigInt(m[6]) * NANOS.s;
  } else if ((m = /^P(?:(\d+)Y)?(?:(\d+)M)?(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+)S)?)?$/.exec(upper)) && upper !== 'P' && !upper.endsWith('T')) {
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

// -------------------------------------------------------------------------------------------------
// Set and map order: Cassandra stores frozen sets and maps sorted by the element (key) type's comparator,
// without duplicates, and serializes them in that order.

function compareValues(type: KeyType, a: CqlValue, b: CqlValue): number {
  if (type.kind === 'native') {
    switch (type.name) {
      case 'int': case 'smallint': case 'tinyint': case 'date':
        return (a as number) - (b as number);
      case 'bigint': case 'counter': case 'varint': case 'timestamp': case 'time':
        return (a as bigint) < (b as bigint) ? -1 : (a as bigint) > (b as bigint) ? 1 : 0;
      case 'boolean': return Number(a) - Number(b);
      case 'double': case 'float': return javaDoubleCompare(a as number, b as number);
      case 'decimal': return compareDecimal(a as DecimalValue, b as DecimalValue);
      case 'text': case 'varchar': case 'ascii':
        return compareBytes(Buffer.from(a as string, 'utf8'), Buffer.from(b as string, 'utf8'));
      case 'uuid': return compareUuid(a as Uint8Array, b as Uint8Array);
      case 'timeuuid': return compareTimeUuid(a as Uint8Array, b as Uint8Array);
      case 'duration': return 0;
      default: return compareBytes(a as Uint8Array, b as Uint8Array);
    }
  }
  if (type.kind === 'list' || type.kind === 'set') {
    const x = a as CqlValue[], y = b as CqlValue[];
    for (let i = 0; i < Math.min(x.length, y.length); i++) {
      const c = compareValues(type.element, x[i], y[i]);
      if (c) return c;
    }
    return x.length - y.length;
  }
  if (type.kind === 'tuple' || type.kind === 'udt') {
    const types = type.kind === 'tuple' ? type.elements : type.fields.map((f) => f.type);
    const x = a as (CqlValue | null)[], y = b as (CqlValue | null)[];
    for (let i = 0; i < types.length; i++) {
      if (x[i] === null && y[i] === null) continue;
      if (x[i] === null) return -1;
      if (y[i] === null) return 1;
      const c = compareValues(types[i], x[i]!, y[i]!);
      if (c) return c;
    }
    return 0;
  }
  if (type.kind === 'map') {
    const x = (a as MapValue).entries, y = (b as MapValue).entries;
    for (let i = 0; i < Math.min(x.length, y.length); i++) {
      const c = compareValues(type.key, x[i][0], y[i][0]) || compareValues(type.value, x[i][1], y[i][1]);
      if (c) return c;
    }
    return x.length - y.length;
  }
  return 0;
}

function javaDoubleCompare(a: number, b: number): number {
  if (a < b) return -1;
  if (a > b) return 1;
  if (Number.isNaN(a)) return Number.isNaN(b) ? 0 : 1;
  if (Number.isNaN(b)) return -1;
  if (a === 0 && b === 0) return Object.is(a, -0) === Object.is(b, -0) ? 0 : Object.is(a, -0) ? -1 : 1;
  return 0;
}

function compareDecimal(a: DecimalValue, b: DecimalValue): number {
  const s = Math.max(a.scale, b.scale);
  const x = a.unscaled * 10n ** BigInt(s - a.scale);
  const y = b.unscaled * 10n ** BigInt(s - b.scale);
  return x < y ? -1 : x > y ? 1 : 0;
}

function compareBytes(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return a[i] - b[i];
  return a.length - b.length;
}

function compareSignedBytes(a: Uint8Array, b: Uint8Array, from: number): number {
  for (let i = from; i < 16; i++) {
    const x = (a[i] << 24) >> 24, y = (b[i] << 24) >> 24;
    if (x !== y) return x - y;
  }
  return 0;
}

function timeuuidTimestamp(u: Uint8Array): bigint {
  const hex = Buffer.from(u).toString('hex');
  return BigInt('0x' + hex.slice(13, 16) + hex.slice(8, 12) + hex.slice(0, 8));
}

/** Cassandra's TimeUUIDType: by timestamp, then the low 8 bytes as signed bytes. */
function compareTimeUuid(a: Uint8Array, b: Uint8Array): number {
  const ta = timeuuidTimestamp(a), tb = timeuuidTimestamp(b);
  if (ta !== tb) return ta < tb ? -1 : 1;
  return compareSignedBytes(a, b, 8);
}

/** Cassandra's UUIDType: by version; version 1 by timestamp; then the most significant bytes unsigned, the rest signed. */
function compareUuid(a: Uint8Array, b: Uint8Array): number {
  const va = a[6] >> 4, vb = b[6] >> 4;
  if (va !== vb) return va - vb;
  if (va === 1) {
    const c = compareTimeUuid(a, b);
    if (c) return c;
    return 0;
  }
  const c = compareBytes(a.subarray(0, 8), b.subarray(0, 8));
  if (c) return c;
  return compareSignedBytes(a, b, 8);
}

function sortIfSet(type: KeyType & { kind: 'list' | 'set' }, values: CqlValue[]): CqlValue[] {
  if (type.kind === 'list') return values;
  const sorted = [...values].sort((x, y) => compareValues(type.element, x, y));
  return sorted.filter((v, i) => i === 0 || compareValues(type.element, sorted[i - 1], v) !== 0);
}

function sortMap(type: KeyType & { kind: 'map' }, entries: [CqlValue, CqlValue][]): MapValue {
  // Later entries win for duplicate keys, as in Cassandra's map literals.
  const sorted = entries.map((e, i) => ({ e, i })).sort((x, y) => compareValues(type.key, x.e[0], y.e[0]) || x.i - y.i);
  const out: [CqlValue, CqlValue][] = [];
  for (const { e } of sorted) {
    if (out.length && compareValues(type.key, out[out.length - 1][0], e[0]) === 0) out[out.length - 1] = e;
    else out.push(e);
  }
  return { kind: 'map', entries: out };
}

// -------------------------------------------------------------------------------------------------
// Values given as text (CLI): the grammar's term, limited to what denotes a value without a schema or a
// server: literals, `-`, collections, tuples, UDT values, and calls and bind markers (reported as not
// computable). Anything else, e.g. `2020-07-09` (an arithmetic expression to the grammar), is not read as a term.

function tryParseTerm(text: string): Expression | undefined {
  const { value } = parseTerm(text);
  return value && isValueTerm(value) ? value : undefined;
}

function isValueTerm(e: Expression): boolean {
  switch (e.kind) {
    case 'Literal': case 'BindMarker': return true;
    case 'FunctionCall': return e.args.length === 0;
    case 'UnaryExpression': return isValueTerm(e.operand);
    case 'ListLiteral': case 'SetLiteral': case 'TupleExpression': return e.elements.every(isValueTerm);
    case 'MapLiteral': return e.entries.every((x) => isValueTerm(x.key) && isValueTerm(x.value));
    case 'UdtLiteral': return e.fields.every((x) => isValueTerm(x.value));
    default: return false;
  }
}
