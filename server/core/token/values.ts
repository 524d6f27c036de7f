// Turning values as users write them (AST expressions, CQL literal text, JSON) into typed values, with
// clear errors in the user's terms. Follows Cassandra's own parsing (TimestampSerializer,
// SimpleDateSerializer, TimeSerializer, Java BigDecimal, ...); see docs in the functions.
import type { Expression, Literal, SourceRange } from '../../../grammar/ast';
import { parseTerm } from '../../../grammar';
import { type KeyType, keyTypeText } from './types';
import {
  INT_RANGES,
  parseDate,
  parseDecimal,
  parseDuration,
  parseInet,
  parseTime,
  parseTimestamp,
  parseUuid,
  type DurationValue,
} from './literals';

export {
  parseDate,
  parseDecimal,
  parseDuration,
  parseInet,
  parseTime,
  parseTimestamp,
  parseUuid,
  type DurationValue,
} from './literals';

/**
 * Decimal digits of the longest integer literal a token is computed for. Converting a decimal string to a
 * BigInt takes time quadratic in its length (600 kB: half a second, 1 MB: two), and no real key needs more.
 */
const MAX_INTEGER_LITERAL_DIGITS = 10_000;

export interface DecimalValue {
  kind: 'decimal';
  unscaled: bigint;
  scale: number;
}
export interface MapValue {
  kind: 'map';
  entries: [CqlValue, CqlValue][];
}

/**
 * A typed value. By column type:
 * text/varchar/ascii: string; int/smallint/tinyint: number; bigint/counter/varint: bigint;
 * timestamp: bigint (ms since epoch); date: number (days since 1970-01-01, may be negative);
 * time: bigint (ns since midnight); boolean: boolean; uuid/timeuuid (16 bytes), inet (4 or 16), blob: Uint8Array;
 * double/float: number; decimal: DecimalValue; duration: DurationValue;
 * list/set: CqlValue[]; map: MapValue; tuple/udt: (CqlValue | null)[] (udt in field order).
 */
export type CqlValue =
  string | number | bigint | boolean | Uint8Array | DecimalValue | DurationValue | MapValue | (CqlValue | null)[];

/** What callers may pass as a value: an AST expression, CQL literal text, or a JSON value (CLI). */
export type KeyValue =
  Expression | string | number | boolean | bigint | null | KeyValue[] | { [key: string]: KeyValue } | { json: unknown };

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
  return (
    typeof v === 'object' &&
    v !== null &&
    !Array.isArray(v) &&
    !(v instanceof Uint8Array) &&
    typeof (v as { kind?: unknown }).kind === 'string' &&
    typeof (v as { range?: unknown }).range === 'object'
  );
}

/** Parses one value for a column type. Throws KeyValueError. */
export function parseKeyValue(type: KeyType, value: KeyValue, ctx: ValueContext = {}): CqlValue {
  if (isExpression(value)) return valueFromExpression(type, value, { ...ctx, range: ctx.range ?? value.range });
  if (
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    'json' in value &&
    Object.keys(value).length === 1
  ) {
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
  const stringy =
    type.kind === 'native' &&
    ['ascii', 'text', 'varchar', 'date', 'time', 'timestamp', 'inet', 'uuid', 'timeuuid', 'duration', 'blob'].includes(
      type.name,
    );
  if (stringy && !trimmed.startsWith("'") && !trimmed.startsWith('$$')) {
    if (type.kind === 'native' && (type.name === 'text' || type.name === 'varchar' || type.name === 'ascii')) {
      return valueFromExpression(type, syntheticLiteral('string', text), ctx);
    }
    const term = tryParseTerm(trimmed);
    if (term) return valueFromTerm(type, term, ctx);
    if (type.kind === 'native' && type.name === 'blob')
      throw notValid(ctx, text, 'blob', 'write blobs as hex, e.g. 0xcafe');
    return valueFromExpression(type, syntheticLiteral('string', trimmed), ctx);
  }
  const term = tryParseTerm(trimmed);
  if (!term) {
    if (!trimmed) throw invalid(ctx, `empty value${forColumn(ctx)}`);
    throw invalid(ctx, `${text} is not a valid CQL literal${forColumn(ctx)} (${keyTypeText(type)})`);
  }
  return valueFromTerm(type, term, ctx);
}

/** A term parsed from text: its ranges are offsets into that text, so errors keep the caller's range. */
function valueFromTerm(type: KeyType, term: Expression, ctx: ValueContext): CqlValue {
  try {
    return valueFromExpression(type, term, ctx);
  } catch (e) {
    if (e instanceof KeyValueError && e.range !== ctx.range)
      throw new KeyValueError(e.message, e.problem, e.column, ctx.range);
    throw e;
  }
}

/**
 * A JSON value (CLI `--json` input): strings are read as CQL literal text (see valueFromText); numbers,
 * booleans; arrays for lists, sets and tuples; objects for maps and UDTs. bigint/varint/decimal values
 * beyond 2^53 must be strings to stay exact.
 */
function valueFromJson(type: KeyType, value: unknown, ctx: ValueContext = {}): CqlValue {
  if (value === null || value === undefined)
    throw invalid(ctx, `null is not allowed in a partition key${forColumn(ctx)}`);
  if (typeof value === 'string') return valueFromText(type, value, ctx);
  if (typeof value === 'bigint') return valueFromExpression(type, signedLiteral('integer', value.toString()), ctx);
  if (typeof value === 'boolean') return valueFromExpression(type, syntheticLiteral('boolean', String(value)), ctx);
  if (typeof value === 'number') {
    if (!Number.isFinite(value))
      return valueFromExpression(
        type,
        signedLiteral(Number.isNaN(value) ? 'nan' : 'infinity', String(value).replace('Infinity', 'Infinity')),
        ctx,
      );
    if (Number.isInteger(value)) {
      const integerTypes =
        type.kind === 'native' && ['bigint', 'varint', 'counter', 'timestamp', 'time', 'decimal'].includes(type.name);
      if (integerTypes && !Number.isSafeInteger(value)) {
        throw invalid(ctx, `${value} is too large to be exact as a JSON number${forColumn(ctx)}; write it as a string`);
      }
      return valueFromExpression(
        type,
        signedLiteral(
          Math.abs(value) >= 1e21 ? 'float' : 'integer',
          Math.abs(value) >= 1e21 ? String(value) : BigInt(value).toString(),
        ),
        ctx,
      );
    }
    return valueFromExpression(type, signedLiteral('float', String(value)), ctx);
  }
  if (value instanceof Uint8Array) {
    return valueFromExpression(type, syntheticLiteral('hex', '0x' + Buffer.from(value).toString('hex')), ctx);
  }
  if (Array.isArray(value)) {
    if (type.kind === 'list' || type.kind === 'set')
      return sortIfSet(
        type,
        value.map((v, i) => valueFromJson(type.element, v, elementCtx(ctx, i))),
      );
    if (type.kind === 'tuple') {
      if (value.length > type.elements.length)
        throw invalid(
          ctx,
          `tuple has ${value.length} elements but ${keyTypeText(type)} has ${type.elements.length}${forColumn(ctx)}`,
        );
      return type.elements.map((t, i) =>
        value[i] === null || value[i] === undefined ? null : valueFromJson(t, value[i], elementCtx(ctx, i)),
      );
    }
    if (type.kind === 'map') {
      return sortMap(
        type,
        value.map((pair, i) => {
          if (!Array.isArray(pair) || pair.length !== 2)
            throw invalid(ctx, `map entries in JSON arrays must be [key, value] pairs${forColumn(ctx)}`);
          return [
            valueFromJson(type.key, pair[0], elementCtx(ctx, i)),
            valueFromJson(type.value, pair[1], elementCtx(ctx, i)),
          ] as [CqlValue, CqlValue];
        }),
      );
    }
    throw invalid(ctx, `a JSON array is not a valid ${keyTypeText(type)}${forColumn(ctx)}`);
  }
  if (typeof value === 'object') {
    const obj = value as Record<string, unknown>;
    if (type.kind === 'map') {
      return sortMap(
        type,
        Object.entries(obj).map(
          ([k, v]) => [valueFromText(type.key, k, ctx), valueFromJson(type.value, v, ctx)] as [CqlValue, CqlValue],
        ),
      );
    }
    if (type.kind === 'udt') {
      const known = new Set(type.fields.map((f) => f.name));
      for (const k of Object.keys(obj))
        if (!known.has(k)) throw invalid(ctx, `unknown field '${k}' in type ${type.name}${forColumn(ctx)}`);
      return type.fields.map((f) =>
        obj[f.name] === undefined || obj[f.name] === null
          ? null
          : valueFromJson(f.type, obj[f.name], { ...ctx, column: `${ctx.column ?? type.name}.${f.name}` }),
      );
    }
    throw invalid(ctx, `a JSON object is not a valid ${keyTypeText(type)}${forColumn(ctx)}`);
  }
  throw invalid(ctx, `unsupported JSON value${forColumn(ctx)}`);
}

function elementCtx(ctx: ValueContext, _i: number): ValueContext {
  return ctx;
}

function syntheticLiteral(literalKind: Literal['literalKind'], value: string): Literal {
  return {
    kind: 'Literal',
    literalKind,
    value,
    text: literalKind === 'string' ? quote(value) : value,
    range: NO_RANGE,
  };
}
function signedLiteral(literalKind: Literal['literalKind'], text: string): Expression {
  if (text.startsWith('-'))
    return {
      kind: 'UnaryExpression',
      operator: '-',
      operand: syntheticLiteral(literalKind, text.slice(1)),
      range: NO_RANGE,
    };
  return syntheticLiteral(literalKind, text);
}

// -------------------------------------------------------------------------------------------------
// From AST expressions

function describeExpression(expr: Expression): string {
  switch (expr.kind) {
    case 'Literal':
      return expr.text;
    case 'UnaryExpression':
      return `-${describeExpression(expr.operand)}`;
    case 'FunctionCall':
      return `${expr.name.name.name}()`;
    case 'BindMarker':
      return expr.name ? `:${expr.name.name}` : '?';
    case 'ColumnRef':
      return expr.name.name;
    default:
      return expr.kind;
  }
}

/** Evaluates an AST expression for a column type. Throws KeyValueError. */
function valueFromExpression(type: KeyType, expr: Expression, ctx: ValueContext = {}): CqlValue {
  const here: ValueContext = { column: ctx.column, range: expr.range === NO_RANGE ? ctx.range : expr.range };
  if (type.kind === 'unsupported')
    throw new KeyValueError(`${type.reason}${forColumn(ctx)}`, 'unsupported', ctx.column, here.range);
  switch (expr.kind) {
    case 'Literal':
      return fromLiteral(type, expr, false, here);
    case 'UnaryExpression': {
      let negative = true;
      let inner: Expression = expr.operand;
      while (inner.kind === 'UnaryExpression') {
        negative = !negative;
        inner = inner.operand;
      }
      if (
        inner.kind !== 'Literal' ||
        !['integer', 'float', 'infinity', 'nan', 'duration'].includes(inner.literalKind)
      ) {
        if (inner.kind === 'Literal')
          throw invalid(here, `-${inner.text} is not a valid ${keyTypeText(type)}${forColumn(ctx)}`);
        return valueFromExpression(type, inner, ctx); // reports why the operand is not computable
      }
      return fromLiteral(type, inner, negative, here);
    }
    case 'TypeHint':
      return valueFromExpression(type, expr.expression, ctx);
    case 'BindMarker':
      throw new KeyValueError(
        `bind marker ${describeExpression(expr)}${forColumn(ctx)}: the value is only known when the statement runs`,
        'not-computable',
        ctx.column,
        here.range,
      );
    case 'FunctionCall': {
      const name = expr.name.name.name;
      throw new KeyValueError(
        `${name}()${forColumn(ctx)} is evaluated by the server, so the token cannot be computed here`,
        'not-computable',
        ctx.column,
        here.range,
      );
    }
    case 'ListLiteral':
      if (type.kind === 'list' || (type.kind === 'set' && expr.elements.length === 0))
        return expr.elements.map((e) => valueFromExpression(type.element, e, ctx));
      if (type.kind === 'set') throw notValid(here, '[...]', keyTypeText(type), 'sets are written {...}');
      break;
    case 'SetLiteral':
      if (type.kind === 'set')
        return sortIfSet(
          type,
          expr.elements.map((e) => valueFromExpression(type.element, e, ctx)),
        );
      if ((type.kind === 'map' || type.kind === 'list') && expr.elements.length === 0)
        return type.kind === 'map' ? { kind: 'map', entries: [] } : [];
      break;
    case 'MapLiteral':
      if (type.kind === 'map') {
        return sortMap(
          type,
          expr.entries.map(
            (e) =>
              [valueFromExpression(type.key, e.key, ctx), valueFromExpression(type.value, e.value, ctx)] as [
                CqlValue,
                CqlValue,
              ],
          ),
        );
      }
      if (type.kind === 'set' && expr.entries.length === 0) return [];
      if (type.kind === 'udt') {
        const fields = expr.entries.map((e) => {
          if (e.key.kind === 'ColumnRef') return { name: e.key.name.name, value: e.value };
          throw notValid(here, 'a map literal', keyTypeText(type), 'UDT fields are written {field: value}');
        });
        return udtValue(type, fields, here, ctx);
      }
      break;
    case 'UdtLiteral':
      if (type.kind === 'udt')
        return udtValue(
          type,
          expr.fields.map((f) => ({ name: f.name.name, value: f.value })),
          here,
          ctx,
        );
      if (type.kind === 'map') {
        throw notValid(here, 'a UDT literal', keyTypeText(type), "map keys must be values, e.g. {'key': 1}");
      }
      break;
    case 'TupleExpression':
      if (type.kind === 'tuple') {
        if (expr.elements.length > type.elements.length)
          throw invalid(
            here,
            `tuple has ${expr.elements.length} elements but ${keyTypeText(type)} has ${type.elements.length}${forColumn(ctx)}`,
          );
        return type.elements.map((t, i) => {
          const e = expr.elements[i];
          if (!e || (e.kind === 'Literal' && e.literalKind === 'null')) return null;
          return valueFromExpression(t, e, ctx);
        });
      }
      break;
    case 'ColumnRef':
      throw new KeyValueError(
        `${expr.name.name} is a column name, not a value${forColumn(ctx)}`,
        'invalid',
        ctx.column,
        here.range,
      );
    default:
      throw new KeyValueError(
        `${describeExpression(expr)}${forColumn(ctx)} is not a literal, so the token cannot be computed here`,
        'not-computable',
        ctx.column,
        here.range,
      );
  }
  throw notValid(here, describeExpression(expr), keyTypeText(type));
}

function udtValue(
  type: Extract<KeyType, { kind: 'udt' }>,
  fields: { name: string; value: Expression }[],
  here: ValueContext,
  ctx: ValueContext,
): (CqlValue | null)[] {
  const byName = new Map<string, Expression>();
  for (const f of fields) {
    if (!type.fields.some((tf) => tf.name === f.name))
      throw invalid(here, `unknown field '${f.name}' in type ${type.name}${forColumn(ctx)}`);
    byName.set(f.name, f.value);
  }
  return type.fields.map((f) => {
    const e = byName.get(f.name);
    if (!e || (e.kind === 'Literal' && e.literalKind === 'null')) return null;
    return valueFromExpression(f.type, e, ctx);
  });
}

function fromLiteral(type: KeyType, lit: Literal, negative: boolean, ctx: ValueContext): CqlValue {
  const shown = (negative ? '-' : '') + lit.text;
  if (lit.literalKind === 'null') throw invalid(ctx, `null is not allowed in a partition key${forColumn(ctx)}`);
  if (type.kind !== 'native') throw notValid(ctx, shown, keyTypeText(type));
  const name = type.name;
  const k = lit.literalKind;
  switch (name) {
    case 'text':
    case 'varchar':
    case 'ascii': {
      if (k !== 'string')
        throw notValid(ctx, shown, name, `${name} values are quoted strings, e.g. ${quote(lit.text)}`);
      if (
        /[\uD800-\uDFFF]/.test(lit.value) &&
        !/^(?:[^\uD800-\uDFFF]|[\uD800-\uDBFF][\uDC00-\uDFFF])*$/.test(lit.value)
      ) {
        throw notValid(ctx, quote(lit.value), name, 'it contains an unpaired UTF-16 surrogate');
      }
      if (name === 'ascii' && /[^\x00-\x7f]/.test(lit.value))
        throw notValid(ctx, quote(lit.value), 'ascii value', 'it has non-ASCII characters');
      return lit.value;
    }
    case 'int':
    case 'smallint':
    case 'tinyint':
    case 'bigint':
    case 'counter':
    case 'varint': {
      if (k !== 'integer') {
        if (k === 'float') throw notValid(ctx, shown, name, 'not an integer');
        throw notValid(
          ctx,
          k === 'string' ? quote(lit.value) : shown,
          name,
          k === 'string' ? 'numbers are written without quotes' : undefined,
        );
      }
      if (lit.value.length > MAX_INTEGER_LITERAL_DIGITS) {
        throw invalid(
          ctx,
          `a ${name} literal of ${lit.value.length} digits${forColumn(ctx)} is too long to compute a token for (limit ${MAX_INTEGER_LITERAL_DIGITS} digits)`,
        );
      }
      let v = BigInt(lit.value);
      if (negative) v = -v;
      const range = INT_RANGES[name];
      if (range && (v < range[0] || v > range[1]))
        throw invalid(ctx, `${shown} is out of range for ${name}${forColumn(ctx)} (${range[0]}..${range[1]})`);
      return name === 'int' || name === 'smallint' || name === 'tinyint' ? Number(v) : v;
    }
    case 'boolean':
      if (k !== 'boolean' || negative) throw notValid(ctx, shown, 'boolean', 'write true or false');
      return lit.value.toLowerCase() === 'true';
    case 'double':
    case 'float': {
      let v: number;
      if (k === 'integer' || k === 'float') v = Number(lit.value);
      else if (k === 'nan') v = NaN;
      // The parser folds a leading '-' into number literals (`-Infinity` is one literal), so read the sign too.
      else if (k === 'infinity') v = lit.value.startsWith('-') ? -Infinity : Infinity;
      else
        throw notValid(
          ctx,
          k === 'string' ? quote(lit.value) : shown,
          name,
          k === 'string' ? 'numbers are written without quotes' : undefined,
        );
      if (negative) v = -v;
      if (name === 'float') {
        const f = Math.fround(v);
        if (!Number.isFinite(f) && Number.isFinite(v))
          throw invalid(ctx, `${shown} is out of range for float${forColumn(ctx)}`);
        return f;
      }
      return v;
    }
    case 'decimal': {
      if (k !== 'integer' && k !== 'float')
        throw notValid(
          ctx,
          k === 'string' ? quote(lit.value) : shown,
          'decimal',
          k === 'nan' || k === 'infinity' ? 'decimals have no NaN or Infinity' : undefined,
        );
      const d = parseDecimal(lit.value);
      if (!d) throw notValid(ctx, shown, 'decimal');
      return { kind: 'decimal', unscaled: negative ? -d.unscaled : d.unscaled, scale: d.scale };
    }
    case 'uuid':
    case 'timeuuid': {
      const text = k === 'uuid' || k === 'string' ? lit.value : undefined;
      const bytes = text !== undefined && !negative ? parseUuid(text) : undefined;
      if (!bytes)
        throw notValid(
          ctx,
          k === 'string' ? quote(lit.value) : shown,
          name,
          'expected 8-4-4-4-12 hex digits, e.g. 123e4567-e89b-12d3-a456-426614174000',
        );
      if (name === 'timeuuid' && bytes[6] >> 4 !== 1)
        throw notValid(ctx, lit.value, 'timeuuid', `it is a version ${bytes[6] >> 4} uuid; timeuuid needs version 1`);
      return bytes;
    }
    case 'blob': {
      if (k !== 'hex' || negative)
        throw notValid(ctx, k === 'string' ? quote(lit.value) : shown, 'blob', 'write blobs as hex, e.g. 0xcafe');
      let hex = lit.value.slice(2);
      if (!/^[0-9a-fA-F]*$/.test(hex)) throw notValid(ctx, shown, 'blob');
      if (hex.length % 2) hex = '0' + hex; // Cassandra's Hex.hexToBytes pads an odd digit count
      return Uint8Array.from(Buffer.from(hex, 'hex'));
    }
    case 'inet': {
      if (k !== 'string') throw notValid(ctx, shown, 'inet', "addresses are quoted, e.g. '10.0.0.1'");
      const bytes = parseInet(lit.value.trim());
      if (!bytes)
        throw notValid(
          ctx,
          quote(lit.value),
          'inet address',
          'expected an IPv4 or IPv6 address (host names are not resolved)',
        );
      return bytes;
    }
    case 'timestamp': {
      if (k === 'integer') {
        const v = BigInt(lit.value) * (negative ? -1n : 1n);
        if (v < INT_RANGES.timestamp[0] || v > INT_RANGES.timestamp[1])
          throw invalid(ctx, `${shown} is out of range for timestamp${forColumn(ctx)}`);
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
      if ((k !== 'integer' && k !== 'string') || negative)
        throw notValid(ctx, shown, 'time', "write 'hh:mm:ss[.fffffffff]'");
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
// Set and map order: Cassandra stores frozen sets and maps sorted by the element (key) type's comparator,
// without duplicates, and serializes them in that order.

function compareValues(type: KeyType, a: CqlValue, b: CqlValue): number {
  if (type.kind === 'native') {
    switch (type.name) {
      case 'int':
      case 'smallint':
      case 'tinyint':
      case 'date':
        return (a as number) - (b as number);
      case 'bigint':
      case 'counter':
      case 'varint':
      case 'timestamp':
      case 'time':
        return (a as bigint) < (b as bigint) ? -1 : (a as bigint) > (b as bigint) ? 1 : 0;
      case 'boolean':
        return Number(a) - Number(b);
      case 'double':
      case 'float':
        return javaDoubleCompare(a as number, b as number);
      case 'decimal':
        return compareDecimal(a as DecimalValue, b as DecimalValue);
      case 'text':
      case 'varchar':
      case 'ascii':
        return compareBytes(Buffer.from(a as string, 'utf8'), Buffer.from(b as string, 'utf8'));
      case 'uuid':
        return compareUuid(a as Uint8Array, b as Uint8Array);
      case 'timeuuid':
        return compareTimeUuid(a as Uint8Array, b as Uint8Array);
      case 'duration':
        return 0;
      default:
        return compareBytes(a as Uint8Array, b as Uint8Array);
    }
  }
  if (type.kind === 'list' || type.kind === 'set') {
    const x = a as CqlValue[],
      y = b as CqlValue[];
    for (let i = 0; i < Math.min(x.length, y.length); i++) {
      const c = compareValues(type.element, x[i], y[i]);
      if (c) return c;
    }
    return x.length - y.length;
  }
  if (type.kind === 'tuple' || type.kind === 'udt') {
    const types = type.kind === 'tuple' ? type.elements : type.fields.map((f) => f.type);
    const x = a as (CqlValue | null)[],
      y = b as (CqlValue | null)[];
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
    const x = (a as MapValue).entries,
      y = (b as MapValue).entries;
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
    const x = (a[i] << 24) >> 24,
      y = (b[i] << 24) >> 24;
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
  const ta = timeuuidTimestamp(a),
    tb = timeuuidTimestamp(b);
  if (ta !== tb) return ta < tb ? -1 : 1;
  return compareSignedBytes(a, b, 8);
}

/** Cassandra's UUIDType: by version; version 1 by timestamp; then the most significant bytes unsigned, the rest signed. */
function compareUuid(a: Uint8Array, b: Uint8Array): number {
  const va = a[6] >> 4,
    vb = b[6] >> 4;
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
    case 'Literal':
    case 'BindMarker':
      return true;
    case 'FunctionCall':
      return e.args.length === 0;
    case 'UnaryExpression':
      return isValueTerm(e.operand);
    case 'ListLiteral':
    case 'SetLiteral':
    case 'TupleExpression':
      return e.elements.every(isValueTerm);
    case 'MapLiteral':
      return e.entries.every((x) => isValueTerm(x.key) && isValueTerm(x.value));
    case 'UdtLiteral':
      return e.fields.every((x) => isValueTerm(x.value));
    default:
      return false;
  }
}
