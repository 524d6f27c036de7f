// Tokens per second: ours (server/core/token) side by side with cassandra-driver's Murmur3Tokenizer on
// the same keys in the same run. Median of several runs. Run alone with `npx tsx bench/token.ts`.
import { KeyEncoder } from '../server/core/token/token';
import type { CqlValue } from '../server/core/token/values';
import { formatSpread, spread, type Spread } from './stats';

const { Murmur3Tokenizer } = require('cassandra-driver/lib/tokenizer');
const DriverEncoder = require('cassandra-driver/lib/encoder');
const driverTypes = require('cassandra-driver/lib/types');

const RUNS = 7;
const KEYS = 20000;

function measure(fn: () => unknown, n: number): number {
  const t0 = process.hrtime.bigint();
  fn();
  const ns = Number(process.hrtime.bigint() - t0);
  return n / (ns / 1e9);
}

function rate(
  label: string,
  ours: () => unknown,
  driver: () => unknown,
): { label: string; ours: Spread; driver: Spread; ratio: Spread } {
  // warm up both
  ours();
  driver();
  const o: number[] = [],
    d: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    o.push(measure(ours, KEYS));
    d.push(measure(driver, KEYS));
  }
  return {
    label,
    ours: spread(o.map((x) => x / 1e6)),
    driver: spread(d.map((x) => x / 1e6)),
    ratio: spread(o.map((x, i) => x / d[i]!)),
  };
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
    rate(
      'text keys',
      () => {
        for (let i = 0; i < KEYS; i++) sink ^= textEnc.token(textValues[i]);
      },
      () => {
        for (let i = 0; i < KEYS; i++) tokenizer.hash(driverEncoder.encode(titles[i], T.text));
      },
    ),
    rate(
      'composite (date, int, text)',
      () => {
        for (let i = 0; i < KEYS; i++) sink ^= compEnc.token(compValues[i]);
      },
      () => {
        for (let i = 0; i < KEYS; i++) {
          const parts: Buffer[] = [
            driverEncoder.encode(driverDates[i], T.date),
            driverEncoder.encode(ints[i], T.int),
            driverEncoder.encode(titles[i], T.text),
          ];
          let len = 0;
          for (const p of parts) len += p.length + 3;
          const key = Buffer.allocUnsafe(len);
          let off = 0;
          for (const p of parts) {
            key.writeUInt16BE(p.length, off);
            off += 2;
            p.copy(key, off);
            off += p.length;
            key[off++] = 0;
          }
          tokenizer.hash(key);
        }
      },
    ),
  ];
  if (sink === 42n) console.log('');
  console.log(`token (${RUNS} runs x ${KEYS} keys, interleaved; median and range)`);
  for (const r of results) {
    console.log(
      `  ${r.label.padEnd(28)} cqlint ${formatSpread(r.ours, 'M/s', 2)}   cassandra-driver ${formatSpread(r.driver, 'M/s', 2)}   cqlint/driver ${formatSpread(r.ratio, 'x')}`,
    );
  }
}

if (require.main === module) {
  runTokenBench().catch((e) => {
    console.error(e);
    process.exit(1);
  });
}
