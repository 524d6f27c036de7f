// MurmurHash3 as Cassandra's Murmur3Partitioner computes it, plus the x86_32 variant used by shard formulas.
//
// 64-bit arithmetic is done on pairs of 32-bit halves (no BigInt in the loop, no allocation per block):
// the pair results of mul64/add64 land in module-level scratch variables. Only the final token is turned
// into a BigInt.

let rHi = 0;
let rLo = 0;

/** (aHi:aLo) * (bHi:bLo) mod 2^64 into rHi:rLo. */
function mul64(aHi: number, aLo: number, bHi: number, bLo: number): void {
  const a0 = aLo & 0xffff;
  const a1 = aLo >>> 16;
  const b0 = bLo & 0xffff;
  const b1 = bLo >>> 16;
  const t = a0 * b0;
  const mid1 = a1 * b0 + (t >>> 16);
  const mid2 = a0 * b1 + (mid1 & 0xffff);
  const high = a1 * b1 + (mid1 >>> 16) + (mid2 >>> 16);
  rLo = ((mid2 << 16) | (t & 0xffff)) >>> 0;
  rHi = (high + Math.imul(aHi, bLo) + Math.imul(aLo, bHi)) | 0;
}

/** (aHi:aLo) + (bHi:bLo) mod 2^64 into rHi:rLo. */
function add64(aHi: number, aLo: number, bHi: number, bLo: number): void {
  const lo = (aLo >>> 0) + (bLo >>> 0);
  rHi = (aHi + bHi + (lo > 0xffffffff ? 1 : 0)) | 0;
  rLo = lo >>> 0;
}

/** fmix64 into rHi:rLo. */
function fmix64(hi: number, lo: number): void {
  lo = (lo ^ (hi >>> 1)) >>> 0; // k ^= k >>> 33
  mul64(hi, lo, 0xff51afd7, 0xed558ccd);
  hi = rHi;
  lo = (rLo ^ (rHi >>> 1)) >>> 0;
  mul64(hi, lo, 0xc4ceb9fe, 0x1a85ec53);
  hi = rHi;
  rLo = (rLo ^ (rHi >>> 1)) >>> 0;
  rHi = hi;
}

const C1_HI = 0x87c37b91;
const C1_LO = 0x114253d5;
const C2_HI = 0x4cf5ad43;
const C2_LO = 0x2745937f;

const TWO_63 = 1n << 63n;
/** The smallest token; Murmur3Partitioner never returns it (it maps it to the largest). */
export const MIN_TOKEN = -TWO_63;
export const MAX_TOKEN = TWO_63 - 1n;

/**
 * The Murmur3Partitioner token of serialized key bytes: h1 of Cassandra's hash3_x64_128 (seed 0, tail bytes
 * sign-extended as Java's signed bytes), as a signed 64-bit integer, with -2^63 normalized to 2^63-1.
 * `length` lets callers hash a prefix of a reusable buffer.
 */
export function murmur3Token(data: Uint8Array, length: number = data.length): bigint {
  murmur3H1(data, length);
  const hi = rHi;
  const lo = rLo;
  if (hi === (0x80000000 | 0) && lo === 0) return MAX_TOKEN;
  return (BigInt(hi) << 32n) | BigInt(lo >>> 0);
}

/** The same token as a decimal string (what `SELECT token(...)` prints). */
export function murmur3TokenString(data: Uint8Array, length: number = data.length): string {
  return murmur3Token(data, length).toString();
}

/** Cassandra hash3_x64_128 h1 into rHi:rLo (no normalization). */
function murmur3H1(data: Uint8Array, length: number): void {
  let h1Hi = 0,
    h1Lo = 0,
    h2Hi = 0,
    h2Lo = 0;
  let k1Hi = 0,
    k1Lo = 0,
    k2Hi = 0,
    k2Lo = 0;
  const nblocks = length >>> 4;
  let i = 0;
  for (let b = 0; b < nblocks; b++, i += 16) {
    k1Lo = (data[i] | (data[i + 1] << 8) | (data[i + 2] << 16) | (data[i + 3] << 24)) >>> 0;
    k1Hi = data[i + 4] | (data[i + 5] << 8) | (data[i + 6] << 16) | (data[i + 7] << 24);
    k2Lo = (data[i + 8] | (data[i + 9] << 8) | (data[i + 10] << 16) | (data[i + 11] << 24)) >>> 0;
    k2Hi = data[i + 12] | (data[i + 13] << 8) | (data[i + 14] << 16) | (data[i + 15] << 24);

    // k1 *= c1; k1 = rotl(k1, 31); k1 *= c2; h1 ^= k1
    mul64(k1Hi, k1Lo, C1_HI, C1_LO);
    k1Hi = (rHi << 31) | (rLo >>> 1);
    k1Lo = ((rLo << 31) | (rHi >>> 1)) >>> 0;
    mul64(k1Hi, k1Lo, C2_HI, C2_LO);
    h1Hi ^= rHi;
    h1Lo = (h1Lo ^ rLo) >>> 0;
    // h1 = rotl(h1, 27); h1 += h2; h1 = h1 * 5 + 0x52dce729
    {
      const hi = (h1Hi << 27) | (h1Lo >>> 5);
      const lo = ((h1Lo << 27) | (h1Hi >>> 5)) >>> 0;
      add64(hi, lo, h2Hi, h2Lo);
      mul64(rHi, rLo, 0, 5);
      add64(rHi, rLo, 0, 0x52dce729);
      h1Hi = rHi;
      h1Lo = rLo;
    }
    // k2 *= c2; k2 = rotl(k2, 33); k2 *= c1; h2 ^= k2
    mul64(k2Hi, k2Lo, C2_HI, C2_LO);
    k2Hi = (rLo << 1) | (rHi >>> 31);
    k2Lo = ((rHi << 1) | (rLo >>> 31)) >>> 0;
    mul64(k2Hi, k2Lo, C1_HI, C1_LO);
    h2Hi ^= rHi;
    h2Lo = (h2Lo ^ rLo) >>> 0;
    // h2 = rotl(h2, 31); h2 += h1; h2 = h2 * 5 + 0x38495ab5
    {
      const hi = (h2Hi << 31) | (h2Lo >>> 1);
      const lo = ((h2Lo << 31) | (h2Hi >>> 1)) >>> 0;
      add64(hi, lo, h1Hi, h1Lo);
      mul64(rHi, rLo, 0, 5);
      add64(rHi, rLo, 0, 0x38495ab5);
      h2Hi = rHi;
      h2Lo = rLo;
    }
  }

  // Tail: Java reads these as signed bytes, so a byte >= 0x80 is sign-extended to 64 bits before the shift.
  const rem = length & 15;
  if (rem > 0) {
    k1Hi = 0;
    k1Lo = 0;
    k2Hi = 0;
    k2Lo = 0;
    for (let j = rem - 1; j >= 0; j--) {
      const byte = data[i + j];
      const neg = byte >= 0x80;
      const vHi = neg ? -1 : 0;
      const vLo = neg ? byte | 0xffffff00 : byte;
      const s = (j & 7) * 8;
      let sHi: number, sLo: number;
      if (s === 0) {
        sHi = vHi;
        sLo = vLo;
      } else if (s < 32) {
        sHi = (vHi << s) | (vLo >>> (32 - s));
        sLo = vLo << s;
      } else if (s === 32) {
        sHi = vLo;
        sLo = 0;
      } else {
        sHi = vLo << (s - 32);
        sLo = 0;
      }
      if (j >= 8) {
        k2Hi ^= sHi;
        k2Lo ^= sLo;
      } else {
        k1Hi ^= sHi;
        k1Lo ^= sLo;
      }
    }
    if (rem > 8) {
      mul64(k2Hi, k2Lo >>> 0, C2_HI, C2_LO);
      k2Hi = (rLo << 1) | (rHi >>> 31);
      k2Lo = ((rHi << 1) | (rLo >>> 31)) >>> 0;
      mul64(k2Hi, k2Lo, C1_HI, C1_LO);
      h2Hi ^= rHi;
      h2Lo = (h2Lo ^ rLo) >>> 0;
    }
    mul64(k1Hi, k1Lo >>> 0, C1_HI, C1_LO);
    k1Hi = (rHi << 31) | (rLo >>> 1);
    k1Lo = ((rLo << 31) | (rHi >>> 1)) >>> 0;
    mul64(k1Hi, k1Lo, C2_HI, C2_LO);
    h1Hi ^= rHi;
    h1Lo = (h1Lo ^ rLo) >>> 0;
  }

  // Finalization (length fits in 32 bits: the high half of the XOR is 0).
  h1Lo = (h1Lo ^ length) >>> 0;
  h2Lo = (h2Lo ^ length) >>> 0;
  add64(h1Hi, h1Lo, h2Hi, h2Lo);
  h1Hi = rHi;
  h1Lo = rLo;
  add64(h2Hi, h2Lo, h1Hi, h1Lo);
  h2Hi = rHi;
  h2Lo = rLo;
  fmix64(h1Hi, h1Lo);
  h1Hi = rHi;
  h1Lo = rLo;
  fmix64(h2Hi, h2Lo);
  add64(h1Hi, h1Lo, rHi, rLo);
}

/**
 * Reference MurmurHash3 x86_32 with seed 0 as an unsigned 32-bit integer (same as Guava's
 * `murmur3_32_fixed`, Python's `mmh3.hash(b, signed=False)` and murmurhash3js-revisited's `x86.hash32`).
 */
export function murmur3x86_32(data: Uint8Array, length: number = data.length, seed = 0): number {
  let h = seed | 0;
  const nblocks = length >>> 2;
  let i = 0;
  for (let b = 0; b < nblocks; b++, i += 4) {
    let k = data[i] | (data[i + 1] << 8) | (data[i + 2] << 16) | (data[i + 3] << 24);
    k = Math.imul(k, 0xcc9e2d51);
    k = (k << 15) | (k >>> 17);
    k = Math.imul(k, 0x1b873593);
    h ^= k;
    h = (h << 13) | (h >>> 19);
    h = (Math.imul(h, 5) + 0xe6546b64) | 0;
  }
  const rem = length & 3;
  if (rem > 0) {
    let k = 0;
    if (rem === 3) k ^= data[i + 2] << 16;
    if (rem >= 2) k ^= data[i + 1] << 8;
    k ^= data[i];
    k = Math.imul(k, 0xcc9e2d51);
    k = (k << 15) | (k >>> 17);
    k = Math.imul(k, 0x1b873593);
    h ^= k;
  }
  h ^= length;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}
