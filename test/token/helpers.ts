// Shared helpers for the token tests: a seeded PRNG (failures reproduce) and the cassandra-driver oracle.

import { mulberry32 } from '../helpers/random';

/** A seeded generator with the draws the token tests need. */
export class Prng {
  private readonly random: () => number;
  constructor(seed: number) {
    this.random = mulberry32(seed);
  }
  next(): number {
    return this.random();
  }
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }
  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)];
  }
  bytes(n: number): Buffer {
    const b = Buffer.alloc(n);
    for (let i = 0; i < n; i++) b[i] = this.int(0, 255);
    return b;
  }
  bigint(bytes: number): bigint {
    if (bytes === 0) return 0n;
    const b = this.bytes(bytes);
    return BigInt.asIntN(bytes * 8, BigInt('0x' + b.toString('hex')));
  }
}

// The oracle: cassandra-driver's tokenizer and encoder (devDependency, tests only).
const driverTokenizer = require('cassandra-driver/lib/tokenizer');
const DriverEncoder = require('cassandra-driver/lib/encoder');
export const driverTypes = require('cassandra-driver/lib/types');
export const driverEncoder = new DriverEncoder(4, { encoding: { useBigIntAsLong: true, useBigIntAsVarint: true } });
const tokenizer = new driverTokenizer.Murmur3Tokenizer();

/** Driver token of key bytes, with Cassandra's -2^63 -> 2^63-1 normalization the driver skips. */
export function driverToken(key: Buffer): bigint {
  const t = BigInt(tokenizer.hash(key).getValue().toString());
  return t === -(1n << 63n) ? (1n << 63n) - 1n : t;
}

/** Driver-side composite framing (its own code path: setRoutingKeyFromUser with an array of parts). */
export function driverRoutingKey(parts: Buffer[]): Buffer {
  let key: Buffer | null = null;
  driverEncoder.setRoutingKeyFromUser([], {
    getRoutingKey: () => parts,
    setRoutingKey: (k: Buffer) => {
      key = k;
    },
  });
  if (!key) throw new Error('driver produced no routing key');
  return key;
}
