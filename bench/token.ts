// Tokens per second: ours (server/core/token) side by side with cassandra-driver's Murmur3Tokenizer on
// the same keys in the same run. Median of several runs. Run alone with `npx tsx bench/token.ts`.
import { KeyEncoder } from '../server/core/token/token';
import type { CqlValue } from '../server/core/token/values';

const { Murmur3Tokenizer } = require('cassandra-driver/lib/tokenizer');
const DriverEncoder = require('cassandra-driver/lib/encoder');
const driverTypes = require('cassandra-driver/lib/types');

const RUNS = 7;
const KEYS = 20000;

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

function measure(fn: () => unknown, n: number): number {
  const t0 = process.hrtime.bigint();
  fn();
  const ns = Number(process.hrtime.bigint() - t0);
  return n / (ns / 1e9);
}

function rate(label: string, ours: () => unknown, driver: () => unknown): { label: string; ours: number; driver: number } {
  // warm up both
  ours(); driver();
  const o: number[] = [], d: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    o.push(measure(ours, KEYS));
    d.push(measure(driver, KEYS));
  }
  return { label, ours: median(o), driver: median(d) };
}

export async function runTokenBench(): Promise<void> {
  const driverEncoder = new DriverEncoder(4, { encoding: { useBigIntAsLong: true } });
  const tokenizer = new Murmur3Tokenizer();
  const T = driverTypes.dataTypes;

  // Deterministic keys.
  const titles: string[] = [];
  for (let i = 0; i < KEYS; i++) titles.push(`Post number ${i} about partition keys and tokens ${(i * 7919) % 1000}`);
  const dates: number[] = [];
  const driverDates: unknown[] = [];
  const ints: number[] = [];
  for (let i = 0; i < KEYS; i++) {
    const days = 18000 + (i % 1000);
    dates.push(days);
    driverDates.push(new driverTypes.LocalDate(days));
    ints.push((i * 2654435761) | 0);
  }

  const textEnc = new KeyEncoder(['text']);
  const compEnc = new KeyEncoder(['date', 'int', 'text']);
  const textValues: CqlValue[][] = titles.map((t) => [t]);
  const compValues: CqlValue[][] = titles.map((t, i) => [dates[i], ints[i], t]);
  let sink = 0n;

  const results = [
    rate('text keys',
      () => { for (let i = 0; i < KEYS; i++) sink ^= textEnc.token(textValues[i]); },
      () => { for (let i = 0; i < KEYS; i++) tokenizer.hash(driverEncoder.encode(titles[i], T.text)); }),
    rate('composite (date, int, text)',
      () => { for (let i = 0; i < KEYS; i++) sink ^= compEnc.token(compValues[i]); },
      () => {
        for (let i = 0; i < KEYS; i++) {
          const parts: Buffer[] = [driverEncoder.encode(driverDates[i], T.date), driverEncoder.encode(ints[i], T.int), driverEncoder.encode(titles[i], T.text)];
          let len = 0;
          for (const p of parts) len += p.length + 3;
          const key = Buffer.allocUnsafe(len);
          let off = 0;
          for (const p of parts) { key.writeUInt16BE(p.length, off); off += 2; p.copy(key, off); off += p.length; key[off++] = 0; }
          tokenizer.hash(key);
        }
      }),
  ];
  if (sink === 42n) console.log('');
  const fmt = (n: number): string => `${(n / 1e6).toFixed(2)} M/s`;
  console.log(`token (median of ${RUNS} runs x ${KEYS} keys)`);
  for (const r of results) {
    console.log(`  ${r.label.padEnd(28)} cqlint ${fmt(r.ours).padStart(10)}   cassandra-driver ${fmt(r.driver).padStart(10)}   x${(r.ours / r.driver).toFixed(1)}`);
  }
}

if (require.main === module) {
  runTokenBench().catch((e) => { console.error(e); process.exit(1); });
}
