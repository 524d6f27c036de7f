// Partition key -> serialized bytes -> Murmur3Partitioner token.
import type { SourceRange } from '../../../grammar/ast';
import { murmur3Token } from './murmur3';
import { ByteWriter, writeKey } from './serialize';
import {
  type CqlTypeName,
  type KeyType,
  type UdtLookup,
  keyTypeProblem,
  resolveTypeName,
  TypeSpecError,
} from './types';
import { type CqlValue, type KeyValue, KeyValueError, parseKeyValue } from './values';

interface TokenOptions {
  /** Column names, for messages ("... for column published_on"). */
  columns?: string[];
  /** Resolves UDT names in type texts. */
  udts?: UdtLookup;
}

function resolveKeyTypes(types: CqlTypeName[], options: TokenOptions): KeyType[] {
  if (types.length === 0) throw new KeyValueError('a partition key needs at least one column', 'invalid');
  return types.map((t, i) => {
    let type: KeyType;
    try {
      type = resolveTypeName(t, options.udts);
    } catch (e) {
      if (e instanceof TypeSpecError) throw new KeyValueError(e.message, 'invalid', options.columns?.[i]);
      throw e;
    }
    const problem = keyTypeProblem(type);
    const column = options.columns?.[i];
    if (problem) throw new KeyValueError(column ? `column ${column}: ${problem}` : problem, 'unsupported', column);
    return type;
  });
}

/**
 * Reusable encoder for one partition-key shape: types resolved once, one growing buffer reused for every
 * key (no allocation per key beyond the token BigInt).
 */
export class KeyEncoder {
  readonly types: KeyType[];
  private readonly writer = new ByteWriter(256);
  constructor(
    types: CqlTypeName[],
    private readonly options: TokenOptions = {},
  ) {
    this.types = resolveKeyTypes(types, options);
  }
  /** Parses user values (AST, CQL text, JSON) for this key. Throws KeyValueError. */
  parse(values: KeyValue[]): CqlValue[] {
    if (values.length !== this.types.length) {
      throw new KeyValueError(
        `expected ${this.types.length} value${this.types.length === 1 ? '' : 's'} for the partition key${this.options.columns ? ` (${this.options.columns.join(', ')})` : ''}, got ${values.length}`,
        'invalid',
      );
    }
    return values.map((v, i) => parseKeyValue(this.types[i], v, { column: this.options.columns?.[i] }));
  }
  /** Token of already parsed values. */
  token(values: CqlValue[]): bigint {
    const w = this.writer;
    w.reset();
    writeKey(w, this.types, values);
    return murmur3Token(w.buf, w.length);
  }
  /** Serialized key bytes of already parsed values (a fresh copy). */
  bytes(values: CqlValue[]): Uint8Array {
    const w = this.writer;
    w.reset();
    writeKey(w, this.types, values);
    return w.toBytes();
  }
}

/**
 * The token `SELECT token(pk...)` returns for these partition key values. `types` are the partition key
 * column types in key order (`'date'`, `'frozen<list<int>>'`, or KeyType); values are AST expressions,
 * CQL literal text or JSON values. Throws KeyValueError (with `.problem` 'invalid' | 'not-computable' |
 * 'unsupported', `.column` and `.range`).
 */
export function computeToken(types: CqlTypeName[], values: KeyValue[], options: TokenOptions = {}): bigint {
  const enc = new KeyEncoder(types, options);
  return enc.token(enc.parse(values));
}

/** The serialized partition key (the bytes hashed). Throws KeyValueError. */
export function serializeKey(types: CqlTypeName[], values: KeyValue[], options: TokenOptions = {}): Uint8Array {
  const enc = new KeyEncoder(types, options);
  return enc.bytes(enc.parse(values));
}

interface TokenProblem {
  kind: 'invalid' | 'not-computable' | 'unsupported';
  message: string;
  column?: string;
  range?: SourceRange;
}

type TokenResult =
  | { ok: true; token: bigint; key: Uint8Array; values: CqlValue[]; types: KeyType[] }
  | { ok: false; problem: TokenProblem };

/** Like computeToken but never throws for bad input: returns the token and key bytes, or the problem. */
export function tryComputeToken(types: CqlTypeName[], values: KeyValue[], options: TokenOptions = {}): TokenResult {
  try {
    const enc = new KeyEncoder(types, options);
    const parsed = enc.parse(values);
    const key = enc.bytes(parsed);
    return { ok: true, token: murmur3Token(key), key, values: parsed, types: enc.types };
  } catch (e) {
    return { ok: false, problem: toProblem(e) };
  }
}

export function toProblem(e: unknown): TokenProblem {
  if (e instanceof KeyValueError) return { kind: e.problem, message: e.message, column: e.column, range: e.range };
  return { kind: 'invalid', message: e instanceof Error ? e.message : String(e) };
}

export function toHex(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString('hex');
}
