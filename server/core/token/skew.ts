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
 * Bars of a shard histogram at most. N (the number of shards) is a number, not a size: up to 2^31 - 1 in
 * a `-- @shard` formula, a million in the shardCount setting. Nothing may allocate or loop over N: rows
 * are counted into at most this many bars (one per shard up to it), and per shard only where rows fell.
 */
export const MAX_SHARD_BARS = 256;
/** Shards counted one by one (when there are more shards than bars) before per-shard figures are given up. */
const MAX_TRACKED_SHARDS = 65_536;

/** Rows per shard, counted in bounded memory (ShardTally). */
export interface ShardCounts {
  /** N, the number of shards. */
  count: number;
  /** Rows per bar: bar i holds shard indexes i·shardsPerBar .. (i + 1)·shardsPerBar - 1 (index 0 = the first shard value). */
  bars: number[];
  /** 1 while N is at most MAX_SHARD_BARS: a bar per shard. */
  shardsPerBar: number;
  total: number;
  /** The fullest shard (its index and rows); undefined when rows fell in too many shards to count each. */
  fullest?: { index: number; rows: number };
  /** Shards no row fell in; undefined as `fullest`. */
  emptyShards?: number;
}

/** Counts rows per shard for any N in memory bounded by MAX_SHARD_BARS and MAX_TRACKED_SHARDS. */
export class ShardTally {
  readonly shardsPerBar: number;
  private readonly bars: Float64Array;
  private total = 0;
  /** Rows of each shard a row fell in (only when shards share bars), until MAX_TRACKED_SHARDS of them. */
  private perShard: Map<number, number> | undefined;

  constructor(readonly count: number) {
    this.shardsPerBar = Math.max(1, Math.ceil(count / MAX_SHARD_BARS));
    this.bars = new Float64Array(Math.ceil(count / this.shardsPerBar));
    if (this.shardsPerBar > 1) this.perShard = new Map();
  }

  /** `rows` more in the shard of index `index` (0..N-1). */
  add(index: number, rows = 1): void {
    this.bars[Math.floor(index / this.shardsPerBar)]! += rows;
    this.total += rows;
    if (!this.perShard) return;
    this.perShard.set(index, (this.perShard.get(index) ?? 0) + rows);
    if (this.perShard.size > MAX_TRACKED_SHARDS) this.perShard = undefined;
  }

  counts(): ShardCounts {
    const bars = [...this.bars];
    const base = { count: this.count, bars, shardsPerBar: this.shardsPerBar, total: this.total };
    if (this.shardsPerBar === 1) {
      let fullest = 0;
      let empty = 0;
      bars.forEach((rows, i) => {
        if (rows > bars[fullest]!) fullest = i;
        if (rows === 0) empty++;
      });
      return { ...base, fullest: { index: fullest, rows: bars[fullest] ?? 0 }, emptyShards: empty };
    }
    if (!this.perShard) return base;
    let fullest = { index: 0, rows: 0 };
    for (const [index, rows] of this.perShard)
      if (rows > fullest.rows || (rows === fullest.rows && index < fullest.index)) fullest = { index, rows };
    return { ...base, fullest, emptyShards: this.count - this.perShard.size };
  }
}

/**
 * Rows per shard when the formula is applied to text values: codepoints on the code points, murmur3 on
 * the UTF-8 bytes (how a text column serializes), random from a seeded generator.
 */
export function shardHistogram(spec: Pick<ShardSpec, 'method' | 'count'>, values: readonly string[]): ShardCounts {
  const n = spec.count;
  if (spec.method === 'random') return randomShardDraw(n, values.length).counts;
  const tally = new ShardTally(n);
  if (spec.method === 'codepoints') {
    for (const v of values) tally.add(codepointsMod(v, n));
  } else {
    for (const v of values) {
      const { written } = encoder.encodeInto(v, scratch);
      tally.add(murmur3x86_32(scratch, written) % n);
    }
  }
  return tally.counts();
}

/** Draws simulated at most: a larger count is drawn at this size (the shape of the spread, not its total). */
export const MAX_RANDOM_DRAWS = 1_000_000;

/**
 * Rows per shard when random(N) places `rows` rows: a draw with the fixed seed the other random spreads
 * use, so the same schema always shows the same figures. Over MAX_RANDOM_DRAWS rows, that many are drawn
 * (fewer when N is above MAX_SHARD_BARS, so that every shard a row falls in can be counted).
 */
export function randomShardDraw(count: number, rows: number): { counts: ShardCounts; drawn: number } {
  const cap = count > MAX_SHARD_BARS ? MAX_TRACKED_SHARDS : MAX_RANDOM_DRAWS;
  const drawn = Math.max(0, Math.min(Math.round(rows), cap));
  const tally = new ShardTally(count);
  const rnd = prng(42);
  for (let i = 0; i < drawn; i++) tally.add(Math.floor(rnd() * count));
  return { counts: tally.counts(), drawn };
}

function measure(spec: ShardSpec, family: SampleFamily, values: string[]): SampleSkew {
  const n = spec.count;
  // A few thousand values: every shard they fall in is counted, whatever N is.
  const counts = shardHistogram(spec, values);
  const fullest = counts.fullest ?? { index: 0, rows: 0 };
  const empty = counts.emptyShards ?? 0;
  const mean = values.length / n;
  return {
    family,
    size: values.length,
    fullestShard: fullest.index + spec.offset,
    fullestShare: fullest.rows / values.length,
    emptyShards: empty,
    usedShards: n - empty,
    maxOverMean: fullest.rows / mean,
    zeroProductShare: spec.method === 'codepoints' ? zeroShardRows(spec, values) / values.length : undefined,
  };
}

/** Values whose code-point product is 0 mod N (they all go to the first shard). */
function zeroShardRows(spec: ShardSpec, values: readonly string[]): number {
  let zeros = 0;
  for (const v of values) if (codepointsMod(v, spec.count) === 0) zeros++;
  return zeros;
}

/** Prime factorization, e.g. 200 -> [[2, 3], [5, 2]]. */
export function factorize(n: number): [number, number][] {
  const out: [number, number][] = [];
  for (let p = 2; p * p <= n; p++) {
    let e = 0;
    while (n % p === 0) {
      n /= p;
      e++;
    }
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
  return (
    s.emptyShards > expectedEmpty + Math.max(2, 0.1 * count) ||
    (s.fullestShare > 4 * fairShare && s.maxOverMean > 3 && s.size >= 5 * count)
  );
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

const FAMILY_NOUN: Record<SampleFamily, string> = {
  titles: 'sample titles',
  ids: 'ids like ORD-000123',
  uuids: 'uuid strings',
};

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
      parts.push(
        `${spec.count} = ${formatFactors(factors)}${factors.length === 1 && factors[0][1] === 1 ? ' (prime)' : ''}`,
      );
    }
    if (zeroShare > 0.01) {
      parts.push(
        `the product of ${pct(zeroShare)} of ${FAMILY_NOUN[primaryFamily]} is a multiple of ${spec.count}, so they all get shard ${spec.offset} (${WHY_ZERO[primaryFamily]})`,
      );
    } else {
      parts.push(
        `a product of code points is even almost always and shares the small prime factors of ${spec.count}, so only a few residues occur`,
      );
    }
    explanation = parts.join('; ') + '.';
    const others = measured
      .filter((m) => m !== primary)
      .map((m) => `${FAMILY_NOUN[m.family]} reach ${m.usedShards} shard${m.usedShards === 1 ? '' : 's'}`);
    message = skewed
      ? `${formula} puts ${pct(primary.fullestShare)} of ${FAMILY_NOUN[primaryFamily]} in shard ${primary.fullestShard} (${primary.emptyShards} of ${spec.count} shards empty; ${others.join(', ')}): ${explanation} Use murmur3(${spec.sources.join(', ')}) % ${spec.count}${spec.offset ? ` + ${spec.offset}` : ''}, which spreads evenly.`
      : `${formula} spreads ${FAMILY_NOUN[primaryFamily]} over ${primary.usedShards} of ${spec.count} shards (fullest holds ${pct(primary.fullestShare)}).`;
  } else {
    explanation =
      spec.method === 'murmur3'
        ? 'MurmurHash3 mixes every byte, so values spread evenly whatever N is.'
        : 'random() picks each shard with equal probability.';
    message = `${formula} spreads rows evenly (fullest shard ${primary.maxOverMean.toFixed(2)}× the mean on ${primary.size} ${FAMILY_NOUN[primaryFamily]}).`;
  }
  return { formula, method: spec.method, count: spec.count, skewed, primary, samples: measured, explanation, message };
}
