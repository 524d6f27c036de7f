// Cassandra's serialized form of values (the bytes the partitioner hashes) and partition-key framing.
import type { CqlValue, DecimalValue, DurationValue, MapValue } from './values';
import type { KeyType } from './types';

/** A growable byte buffer, reused across calls to avoid allocations on hot paths. */
export class ByteWriter {
  buf: Uint8Array;
  view: DataView;
  length = 0;
  constructor(capacity = 256) {
    this.buf = new Uint8Array(capacity);
    this.view = new DataView(this.buf.buffer);
  }
  reset(): void {
    this.length = 0;
  }
  ensure(extra: number): void {
    const need = this.length + extra;
    if (need <= this.buf.length) return;
    let cap = this.buf.length * 2;
    while (cap < need) cap *= 2;
    const next = new Uint8Array(cap);
    next.set(this.buf.subarray(0, this.length));
    this.buf = next;
    this.view = new DataView(next.buffer);
  }
  byte(b: number): void {
    this.ensure(1);
    this.buf[this.length++] = b;
  }
  int16(v: number): void {
    this.ensure(2);
    this.view.setInt16(this.length, v);
    this.length += 2;
  }
  uint16(v: number): void {
    this.ensure(2);
    this.view.setUint16(this.length, v);
    this.length += 2;
  }
  int32(v: number): void {
    this.ensure(4);
    this.view.setInt32(this.length, v);
    this.length += 4;
  }
  uint32(v: number): void {
    this.ensure(4);
    this.view.setUint32(this.length, v);
    this.length += 4;
  }
  int64(v: bigint): void {
    this.ensure(8);
    this.view.setBigInt64(this.length, v);
    this.length += 8;
  }
  float32(v: number): void {
    this.ensure(4);
    this.view.setFloat32(this.length, v);
    this.length += 4;
  }
  float64(v: number): void {
    this.ensure(8);
    this.view.setFloat64(this.length, v);
    this.length += 8;
  }
  bytes(b: Uint8Array): void {
    this.ensure(b.length);
    this.buf.set(b, this.length);
    this.length += b.length;
  }
  /** UTF-8 of a string, written in place. */
  utf8(s: string): void {
    this.ensure(s.length * 3);
    const { written } = encoder.encodeInto(s, this.buf.subarray(this.length));
    this.length += written;
  }
  /** Reserves 4 bytes for a length to be patched later; returns their position. */
  reserve32(): number {
    this.ensure(4);
    const at = this.length;
    this.length += 4;
    return at;
  }
  patch32(at: number, v: number): void {
    this.view.setInt32(at, v);
  }
  patch16(at: number, v: number): void {
    this.view.setUint16(at, v);
  }
  toBytes(): Uint8Array {
    return this.buf.slice(0, this.length);
  }
}

const encoder = new TextEncoder();

/**
 * Minimal big-endian two's complement (Java BigInteger.toByteArray): 0 -> 00, 128 -> 00 80, -1 -> ff.
 * Through hex, which is linear in the size (shifting a BigInt 8 bits at a time is quadratic).
 */
function varintBytes(v: bigint): Uint8Array {
  // A negative v is the bitwise complement of -v - 1, whose minimal form needs a clear top bit as well.
  const negative = v < 0n;
  const magnitude = negative ? -v - 1n : v;
  let hex = magnitude.toString(16);
  if (hex.length % 2) hex = `0${hex}`;
  const lead = Number.parseInt(hex.slice(0, 2), 16) & 0x80 ? 1 : 0;
  const out = new Uint8Array(hex.length / 2 + lead);
  for (let i = 0; i < hex.length / 2; i++) out[i + lead] = Number.parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  if (negative) for (let i = 0; i < out.length; i++) out[i] = ~out[i] & 0xff;
  return out;
}

/** Cassandra's VIntCoding.writeUnsignedVInt (leading 1-bits in the first byte count the extra bytes). */
function unsignedVInt(v: bigint): Uint8Array {
  v = BigInt.asUintN(64, v);
  let bits = 0;
  for (let x = v | 1n; x > 0n; x >>= 1n) bits++;
  const magnitude = 64 - bits; // numberOfLeadingZeros(v | 1)
  const size = (639 - magnitude * 9) >> 6;
  if (size === 1) return Uint8Array.of(Number(v));
  const out = new Uint8Array(size);
  let x = v;
  for (let i = size - 1; i >= 0; i--) {
    out[i] = Number(x & 0xffn);
    x >>= 8n;
  }
  out[0] |= ~(0xff >> (size - 1)) & 0xff;
  return out;
}

/** Signed vint: zigzag then unsigned vint. */
function signedVInt(v: bigint): Uint8Array {
  return unsignedVInt(BigInt.asUintN(64, (v << 1n) ^ (v >> 63n)));
}

const DATE_BIAS = 2147483648;

/** Appends the serialized form of `value` (of `type`) to `w`. */
function writeValue(w: ByteWriter, type: KeyType, value: CqlValue): void {
  switch (type.kind) {
    case 'native':
      switch (type.name) {
        case 'text':
        case 'varchar':
          w.utf8(value as string);
          return;
        case 'ascii':
          w.utf8(value as string);
          return;
        case 'int':
          w.int32(value as number);
          return;
        case 'smallint':
          w.int16(value as number);
          return;
        case 'tinyint':
          w.byte((value as number) & 0xff);
          return;
        case 'bigint':
        case 'counter':
        case 'timestamp':
        case 'time':
          w.int64(value as bigint);
          return;
        case 'boolean':
          w.byte(value ? 1 : 0);
          return;
        case 'uuid':
        case 'timeuuid':
        case 'inet':
        case 'blob':
          w.bytes(value as Uint8Array);
          return;
        case 'date':
          w.uint32((value as number) + DATE_BIAS);
          return;
        case 'double':
          w.float64(value as number);
          return;
        case 'float':
          w.float32(value as number);
          return;
        case 'varint':
          w.bytes(varintBytes(value as bigint));
          return;
        case 'decimal': {
          const d = value as DecimalValue;
          w.int32(d.scale);
          w.bytes(varintBytes(d.unscaled));
          return;
        }
        case 'duration': {
          const d = value as DurationValue;
          w.bytes(signedVInt(BigInt(d.months)));
          w.bytes(signedVInt(BigInt(d.days)));
          w.bytes(signedVInt(d.nanoseconds));
          return;
        }
      }
      return;
    case 'list':
    case 'set': {
      const items = value as CqlValue[];
      w.int32(items.length);
      for (const item of items) writeSized(w, type.element, item);
      return;
    }
    case 'map': {
      const entries = (value as MapValue).entries;
      w.int32(entries.length);
      for (const [k, v] of entries) {
        writeSized(w, type.key, k);
        writeSized(w, type.value, v);
      }
      return;
    }
    case 'tuple':
    case 'udt': {
      const types = type.kind === 'tuple' ? type.elements : type.fields.map((f) => f.type);
      const items = value as (CqlValue | null)[];
      for (let i = 0; i < types.length; i++) {
        const item = items[i];
        if (item === null || item === undefined) w.int32(-1);
        else writeSized(w, types[i], item);
      }
      return;
    }
    case 'unsupported':
      throw new Error(type.reason);
  }
}

/** int32 length + value, as inside collections, tuples and UDTs. */
function writeSized(w: ByteWriter, type: KeyType, value: CqlValue): void {
  const at = w.reserve32();
  const start = w.length;
  writeValue(w, type, value);
  w.patch32(at, w.length - start);
}

/** Serialized bytes of one value. */
export function serializeValue(type: KeyType, value: CqlValue): Uint8Array {
  const w = new ByteWriter(32);
  writeValue(w, type, value);
  return w.toBytes();
}

/**
 * Writes a partition key: a single column is its bare bytes; several are each framed as a 2-byte big-endian
 * length, the bytes, then 0x00 (CompositeType).
 */
export function writeKey(w: ByteWriter, types: KeyType[], values: CqlValue[]): void {
  if (types.length === 1) {
    writeValue(w, types[0], values[0]);
    return;
  }
  for (let i = 0; i < types.length; i++) {
    w.ensure(2);
    const at = w.length;
    w.length += 2;
    const start = w.length;
    writeValue(w, types[i], values[i]);
    const len = w.length - start;
    if (len > 0xffff)
      throw new Error(`partition key component ${i + 1} is ${len} bytes; Cassandra limits each to 65535`);
    w.patch16(at, len);
    w.byte(0);
  }
}
