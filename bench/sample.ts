// A 2-million-row cqlsh CSV sample streamed through the partition report's reader: rows per second and
// memory (RSS) as the reading goes, which must stay flat while rows grow (only partitions cost memory).
// The file is generated at bench time in the OS temp folder and deleted afterwards.
// Run alone with `npx tsx bench/sample.ts` (CQLINT_BENCH_SAMPLE_ROWS=200000 for a shorter run).
import { createWriteStream, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { once } from 'node:events';
import { Project } from '../server/core/engine/project';
import { readSampleFile } from '../server/core/report/sample';
import { generateTitles } from '../server/core/token/skew';

const ROWS = Number(process.env.CQLINT_BENCH_SAMPLE_ROWS ?? 2_000_000);
const AUTHORS = 5_000;
const DAYS = 4;

const SCHEMA =
  'CREATE TABLE blog.posts_by_author_day (author text, publish_date date, title text, body text, likes int, PRIMARY KEY ((author, publish_date), title));';

async function writeSample(file: string): Promise<void> {
  const out = createWriteStream(file, { encoding: 'utf8' });
  const titles = generateTitles(10_000, 7);
  out.write('author,publish_date,title,body,likes\n');
  let buffer = '';
  for (let i = 0; i < ROWS; i++) {
    const author = `author ${i % AUTHORS}`;
    const day = `2020-07-${String(1 + (((i / AUTHORS) | 0) % DAYS)).padStart(2, '0')}`;
    buffer += `${author},${day},"${titles[i % titles.length]} #${i}","body, with ""quotes"" and a comma",${i % 100}\n`;
    if (buffer.length > 1 << 20) {
      if (!out.write(buffer)) await once(out, 'drain');
      buffer = '';
    }
  }
  out.end(buffer);
  await once(out, 'finish');
}

export async function runSampleBench(): Promise<void> {
  const dir = mkdtempSync(path.join(tmpdir(), 'cqlint-bench-sample-'));
  const file = path.join(dir, 'posts.csv');
  try {
    await writeSample(file);
    const size = statSync(file).size;
    const project = new Project({ config: {} });
    project.setFile('/bench/schema.cql', SCHEMA);
    const table = project.tableFor('/bench/schema.cql', 'blog.posts_by_author_day')!;
    global.gc?.();
    const baseline = process.memoryUsage().rss;
    const rss: { rows: number; mb: number }[] = [];
    const started = performance.now();
    const summary = await readSampleFile(file, table, project.schema(), {
      shard: { method: 'murmur3', sources: ['title'], count: 16, offset: 1 },
      progressEvery: Math.max(1, Math.floor(ROWS / 8)),
      onProgress: ({ rows }) => rss.push({ rows, mb: process.memoryUsage().rss / 2 ** 20 }),
    });
    const seconds = (performance.now() - started) / 1000;
    const peak = process.resourceUsage().maxRSS / 1024;
    console.log(
      `sample: ${summary.rows.toLocaleString('en-US')} rows (${(size / 2 ** 20).toFixed(0)} MB CSV), ${summary.partitions.toLocaleString('en-US')} partitions, ${summary.malformedCount} malformed`,
    );
    console.log(
      `sample: ${(summary.rows / seconds / 1000).toFixed(0)}k rows/s, ${(size / 2 ** 20 / seconds).toFixed(1)} MB/s (${seconds.toFixed(1)} s; one run of ${ROWS.toLocaleString('en-US')} rows)`,
    );
    console.log(
      `sample: RSS before ${(baseline / 2 ** 20).toFixed(0)} MB; while reading ${rss.map((r) => `${(r.rows / 1e6).toFixed(2)}M rows ${r.mb.toFixed(0)} MB`).join(', ')}; peak ${peak.toFixed(0)} MB`,
    );
    const first = rss[0]?.mb ?? 0;
    const last = rss.at(-1)?.mb ?? 0;
    console.log(`sample: RSS growth from the first eighth of the rows to the end: ${(last - first).toFixed(0)} MB`);
    if (summary.rows !== ROWS) throw new Error(`read ${summary.rows} rows of ${ROWS}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (require.main === module) {
  runSampleBench().catch((error) => {
    console.error(error);
    process.exitCode = 1;
  });
}
