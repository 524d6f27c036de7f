// Predicting how evenly a shard formula spreads rows, measured on deterministic synthetic samples.
import { murmur3x86_32 } from './murmur3';
import { codepointsMod, formatShardFormula, type ShardSpec } from './shard';

export type SampleFamily = 'titles' | 'ids' | 'uuids';

interface SampleSkew {
  family: SampleFamily;
  /** Number of sample values. */
  size: number;
  /** The shard value holding the most samples. */
  fullestShard: number;
  /** Fraction of samples in the fullest shard (0..1). */
  fullestShare: number;
  emptyShards: number;
  usedShards: number;
  /** Rows in the fullest shard over the mean rows per shard (1 is perfectly even). */
  maxOverMean: number;
  /** Fraction of samples whose code-point product is 0 mod N (codepoints only). */
  zeroProductShare?: number;
}

export interface SkewReport {
  formula: string;
  method: ShardSpec['method'];
  count: number;
  skewed: boolean;
  /** The family judged most like the source column (by its name), reported first in the message. */
  primary: SampleSkew;
  samples: SampleSkew[];
  /** Why, in a sentence or two (factors of N, zero products). */
  explanation: string;
  /** Ready for a diagnostic. */
  message: string;
}

const SAMPLE_SIZE = 4000;

// Deterministic PRNG (mulberry32) so predictions never change between runs.
function prng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    let t = (s = (s + 0x6d2b79f5) >>> 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = (
  'the a of and to in how why what your my our best new top guide tips data design cassandra partition key ' +
  'shard write read query table model time series cluster node ring token hash scale fast slow lessons ' +
  'building learning modern simple complete practical introduction advanced notes thoughts week year day ' +
  'night city world home garden travel food recipe summer winter spring autumn music film book review story ' +
  'life work team code java python rust go cloud server client release update version performance tuning ' +
  'debugging testing deploy kubernetes docker production outage postmortem migration'
).split(' ');

let cachedSamples: Record<SampleFamily, string[]> | undefined;

/** Blog-post-like titles ("How to Scale cassandra Partition 2019?"), deterministic for a seed or generator. */
export function generateTitles(count: number, seed: number | (() => number) = 20200709): string[] {
  const rnd = typeof seed === 'number' ? prng(seed) : seed;
  const titles: string[] = [];
  for (let i = 0; i < count; i++) {
    const n = 3 + Math.floor(rnd() * 7);
    const words: string[] = [];
    for (let j = 0; j < n; j++) {
      let w = WORDS[Math.floor(rnd() * WORDS.length)];
      if (j === 0 || rnd() < 0.3) w = w[0].toUpperCase() + w.slice(1);
      words.push(w);
    }
    if (rnd() < 0.2) words.push(String(2000 + Math.floor(rnd() * 26)));
    titles.push(words.join(' ') + (rnd() < 0.15 ? '?' : ''));
  }
  return titles;
}

/** The synthetic sample values (cached; always the same). */
export function skewSamples(): Record<SampleFamily, string[]> {
  if (cachedSamples) return cachedSamples;
  const rnd = prng(20200709);
  const titles = generateTitles(SAMPLE_SIZE, rnd);
  const ids: string[] = [];
  for (let i = 0; i < SAMPLE_SIZE; i++) ids.push(`ORD-${String(i + 1).padStart(6, '0')}`);
  const uuids: string[] = [];
  const hex = '0123456789abcdef';
  for (let i = 0; i < SAMPLE_SIZE; i++) {
    let u = '';
    for (let j = 0; j < 32; j++) {
      let d = Math.floor(rnd() * 16);
      if (j === 12) d = 4;
      if (j === 16) d = 8 + (d & 3);
      u += hex[d];
      if (j === 7 || j === 11 || j === 15 || j === 19) u += '-';
    }
    uuids.push(u);
  }
  cachedSamples = { titles, ids, uuids };
  return cachedSamples;
}

const encoder = new TextEncoder();
const scratch = new Uint8Array(1024);

/**
 * Rows per shard (index = shard value - offset) when the formula is applied to text values: codepoints on
 * the code points, murmur3 on the UTF-8 bytes (how a text column serializes), random from a seeded generator.
 */
export function shardHistogram(spec: Pick<ShardSpec, 'method' | 'count'>, values: readonly string[]): Uint32Array {
  const n = spec.count;
  const counts = new Uint32Array(n);
  if (spec.method === 'codepoints') {
    for (const v of values) counts[codepointsMod(v, n)]++;
  } else if (spec.method === 'murmur3') {
    for (const v of values) {
      const { written } = encoder.encodeInto(v, scratch);
      counts[murmur3x86_32(scratch, written) % n]++;
    }
  } else {
    return randomShardDraw(n, values.length).counts;
  }
  return counts;
}

/** Draws simulated at most: a larger count is drawn at this size (the shape of the spread, not its total). */
export const MAX_RANDOM_DRAWS = 1_000_000;

/**
 * Rows per shard when random(N) places `rows` rows: a draw with the fixed seed the other random spreads
 * use, so the same schema always shows the same figures. Over MAX_RANDOM_DRAWS rows, that many are drawn.
 */
export function randomShardDraw(count: number, rows: number): { counts: Uint32Array; drawn: number } {
  const drawn = Math.max(0, Math.min(Math.round(rows), MAX_RANDOM_DRAWS));
  const counts = new Uint32Array(count);
  const rnd = prng(42);
  for (let i = 0; i < drawn; i++) counts[Math.floor(rnd() * count)]++;
  return { counts, drawn };
}

function measure(spec: ShardSpec, family: SampleFamily, values: string[]): SampleSkew {
  const n = spec.count;
  const counts = shardHistogram(spec, values);
  let zeros = 0;
  if (spec.method === 'codepoints') zeros = counts[0];
  let fullest = 0, empty = 0;
  for (let i = 0; i < n; i++) {
    if (counts[i] > counts[fullest]) fullest = i;
    if (counts[i] === 0) empty++;
  }
  const mean = values.length / n;
  return {
    family,
    size: values.length,
    fullestShard: fullest + spec.offset,
    fullestShare: counts[fullest] / values.length,
    emptyShards: empty,
    usedShards: n - empty,
    maxOverMean: counts[fullest] / mean,
    zeroProductShare: spec.method === 'codepoints' ? zeros / values.length : undefined,
  };
}

/** Prime factorization, e.g. 200 -> [[2, 3], [5, 2]]. */
export function factorize(n: number): [number, number][] {
  const out: [number, number][] = [];
  for (let p = 2; p * p <= n; p++) {
    let e = 0;
    while (n % p === 0) { n /= p; e++; }
    if (e) out.push([p, e]);
  }
  if (n > 1) out.push([n, 1]);
  return out;
}

function formatFactors(f: [number, number][]): string {
  return f.map(([p, e]) => (e > 1 ? `${p}^${e}` : `${p}`)).join(' × ');
}

function pct(x: number): string {
  const v = x * 100;
  return v >= 99.95 ? '100%' : v >= 10 ? `${v.toFixed(0)}%` : `${v.toFixed(1)}%`;
}

function isSkewed(s: SampleSkew, count: number): boolean {
  // With S samples over N shards a fair spread leaves about N·e^(-S/N) shards empty and keeps the fullest
  // within a few times the mean; flag clear departures only.
  const expectedEmpty = count * Math.exp(-s.size / count);
  const fairShare = 1 / count;
  return s.emptyShards > expectedEmpty + Math.max(2, 0.1 * count) || (s.fullestShare > 4 * fairShare && s.maxOverMean > 3 && s.size >= 5 * count);
}

/** The synthetic family most like a column's values, judged by its name. */
export function sampleFamilyFor(column: string): SampleFamily {
  if (/(^|_)(id|ids|code|sku|ref|number|no|key|order)($|_)|id$/.test(column)) return 'ids';
  if (/uuid|guid/.test(column)) return 'uuids';
  return 'titles';
}

const WHY_ZERO: Record<SampleFamily, string> = {
  titles: "a space is 2^5, 'd' is 2^2 × 5^2, 'n' is 2 × 5 × 11, 'i' is 3 × 5 × 7",
  ids: "'-' is 3^2 × 5, '0' is 2^4 × 3, '2' is 2 × 5^2",
  uuids: "'-' is 3^2 × 5 and appears four times, '0' is 2^4 × 3, 'd' is 2^2 × 5^2",
};

const FAMILY_NOUN: Record<SampleFamily, string> = { titles: 'sample titles', ids: 'ids like ORD-000123', uuids: 'uuid strings' };

/**
 * Predicts how a shard formula spreads rows: codepoints is measured on synthetic titles, ids and uuids;
 * murmur3 and random are measured too and spread evenly. Deterministic and fast (a few ms).
 */
export function predictShardSkew(spec: ShardSpec): SkewReport {
  const samples = skewSamples();
  const families: SampleFamily[] = ['titles', 'ids', 'uuids'];
  const measured = families.map((f) => measure(spec, f, samples[f]));
  const source = spec.sources[0] ?? spec.shardColumn;
  const primaryFamily = sampleFamilyFor(source);
  const primary = measured.find((m) => m.family === primaryFamily)!;
  const formula = formatShardFormula(spec);
  const skewed = spec.count > 1 && measured.some((m) => isSkewed(m, spec.count));

  let explanation: string;
  let message: string;
  if (spec.method === 'codepoints') {
    const factors = factorize(spec.count);
    const zeroShare = primary.zeroProductShare ?? 0;
    const parts: string[] = [];
    if (spec.count > 1 && factors.length) {
      parts.push(`${spec.count} = ${formatFactors(factors)}${factors.length === 1 && factors[0][1] === 1 ? ' (prime)' : ''}`);
    }
    if (zeroShare > 0.01) {
      parts.push(`the product of ${pct(zeroShare)} of ${FAMILY_NOUN[primaryFamily]} is a multiple of ${spec.count}, so they all get shard ${spec.offset} (${WHY_ZERO[primaryFamily]})`);
    } else {
      parts.push(`a product of code points is even almost always and shares the small prime factors of ${spec.count}, so only a few residues occur`);
    }
    explanation = parts.join('; ') + '.';
    const others = measured.filter((m) => m !== primary).map((m) => `${FAMILY_NOUN[m.family]} reach ${m.usedShards} shard${m.usedShards === 1 ? '' : 's'}`);
    message = skewed
      ? `${formula} puts ${pct(primary.fullestShare)} of ${FAMILY_NOUN[primaryFamily]} in shard ${primary.fullestShard} (${primary.emptyShards} of ${spec.count} shards empty; ${others.join(', ')}): ${explanation} Use murmur3(${spec.sources.join(', ')}) % ${spec.count}${spec.offset ? ` + ${spec.offset}` : ''}, which spreads evenly.`
      : `${formula} spreads ${FAMILY_NOUN[primaryFamily]} over ${primary.usedShards} of ${spec.count} shards (fullest holds ${pct(primary.fullestShare)}).`;
  } else {
    explanation = spec.method === 'murmur3'
      ? 'MurmurHash3 mixes every byte, so values spread evenly whatever N is.'
      : 'random() picks each shard with equal probability.';
    message = `${formula} spreads rows evenly (fullest shard ${primary.maxOverMean.toFixed(2)}× the mean on ${primary.size} ${FAMILY_NOUN[primaryFamily]}).`;
  }
  return { formula, method: spec.method, count: spec.count, skewed, primary, samples: measured, explanation, message };
}
