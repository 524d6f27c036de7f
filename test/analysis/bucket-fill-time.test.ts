// A partition of a time bucket stops taking rows when its bucket closes: it holds at most the rate × the
// bucket's length, and the time it takes to reach a limit is at most that length. No message may state a
// fill time past the bucket ("28 hours" for a day bucket that closes at 24 h, issue 38 item 7): the
// figures (sizing.ts partitionFigures), the bucket fit, the hover and the finding data all take the one
// capped figure. Checked on the reproduction, then over every rule example, the corpus and the fixtures.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { Project } from '../../server/core/engine/project';
import type { Finding } from '../../server/core/findings/findings';
import { describeTable } from '../../server/core/editor/table-hover';
import { tableWorkload } from '../../server/core/schema/workload';
import { allRules } from '../../server/core/rules';
import { corpusFiles, cqlFilesBelow, projectRoot, readText } from '../helpers/corpus';
import { ruleExamples } from '../helpers/rule-modules';
import { MAIN, exampleProject, mainOf, ofRule, projectWith } from './helpers';

const VIDEO_ACTIVITY =
  'CREATE TABLE killrvideo.video_activity (videoid uuid, day date, watch_time timeuuid, PRIMARY KEY (day, watch_time)) WITH CLUSTERING ORDER BY (watch_time DESC);';

const UNIT_SECONDS: Record<string, number> = {
  second: 1,
  minute: 60,
  hour: 3600,
  day: 86_400,
  year: 365 * 86_400,
};

/**
 * The fill times a message states: "28 hours at 1 row/s" (the figures' time to the first limit) and "after
 * 3.3 minutes of each hour" (a bucket fit's), in seconds. Other durations (a TTL, an uptime, a range a
 * query spans) are not fill times.
 */
function statedFillTimes(text: string): { text: string; seconds: number }[] {
  const out: { text: string; seconds: number }[] = [];
  const pattern =
    /(?:^|[:(,;] |after )(\d[\d,]*(?:\.\d+)?) (second|minute|hour|day|year)s? (?:at \d[\d.,]* rows?\/|of each )/g;
  for (const m of text.matchAll(pattern))
    out.push({ text: m[0], seconds: Number(m[1]!.replace(/,/g, '')) * UNIT_SECONDS[m[2]!]! });
  return out;
}

/** The length of the time bucket of a table's key (known from its name or type), by qualified name. */
function bucketLengths(project: Project): Map<string, number> {
  const out = new Map<string, number>();
  for (const table of project.schema().allTables()) {
    const bound = tableWorkload(table, undefined, []).bound;
    if (bound.kind === 'bucket' && bound.bucketSeconds !== undefined) out.set(table.qualifiedName, bound.bucketSeconds);
  }
  return out;
}

/** The fill times past the finding's table's bucket (formatDuration rounds to two digits: 5% slack). */
function pastTheBucket(findings: readonly Finding[], buckets: Map<string, number>): string[] {
  const faults: string[] = [];
  for (const f of findings) {
    const data = f.data as { table?: string; numbers?: { secondsToLimit?: number } } | undefined;
    const seconds = data?.table !== undefined ? buckets.get(data.table) : undefined;
    if (seconds === undefined) continue;
    const where = `${f.ruleId} on ${data!.table} (a bucket of ${seconds} s)`;
    if (data!.numbers?.secondsToLimit !== undefined && data!.numbers.secondsToLimit > seconds)
      faults.push(`${where}: data.numbers.secondsToLimit ${data!.numbers.secondsToLimit}`);
    for (const stated of statedFillTimes(`${f.message}\n${f.details ?? ''}`))
      if (stated.seconds > seconds * 1.05) faults.push(`${where}: "${stated.text}"`);
  }
  return faults;
}

/** Every finding of a folder of files linted together, with the bucket lengths of its tables. */
function lintFiles(files: readonly string[]): { findings: Finding[]; buckets: Map<string, number> } {
  const project = new Project({ config: {} });
  for (const f of files) project.setFile(f, readText(f));
  const findings = files.flatMap((f) => project.lint(f));
  assert.deepEqual(project.internalErrors, []);
  return { findings, buckets: bucketLengths(project) };
}

describe('a time bucket caps the fill time', () => {
  test("killrvideo's video_activity: a day bucket at 1 row/s is full at 86,400 rows after 24 hours, not at the 100,000 values of 28 hours", () => {
    const project = projectWith(VIDEO_ACTIVITY);
    const [hot] = ofRule(project.lint(MAIN), 'hot-partition');
    assert.ok(hot, 'the day key alone is hot');
    assert.doesNotMatch(hot.details!, /28 hours/);
    assert.match(
      hot.details!,
      /the first limit hit is 100,000 values per partition, at 100,000 rows, which one partition never holds: its day bucket \(day\) closes after 24 hours, at 86,400 rows at 1 row\/s/,
    );
    const numbers = (hot.data as { numbers: { secondsToLimit?: number; rowsPerBucket?: number; rowsToLimit?: number } })
      .numbers;
    assert.equal(numbers.secondsToLimit, undefined, 'no time to a limit the partition never reaches');
    assert.equal(numbers.rowsPerBucket, 86_400);
    assert.equal(numbers.rowsToLimit, 100_000);
    // The hover's table says so too: no "28 hours" in its time column.
    const table = project.schema().allTables()[0]!;
    const hover = describeTable(table, 'cassandra', project.tableHints(MAIN, table));
    assert.doesNotMatch(hover, /28 hours/);
    assert.match(hover, /never: its day bucket closes after 24 hours, at 86,400 rows/);
  });

  test('a bucket that fills past the limit states a time within the bucket', () => {
    // At 2 rows/s a day is 172,800 rows: the 100,000 values are reached after 14 hours of the day.
    const [hot] = ofRule(projectWith(`-- @cqlint rate=2/s\n${VIDEO_ACTIVITY}`).lint(MAIN), 'hot-partition');
    assert.match(
      hot!.details!,
      /the first limit hit is 100,000 values per partition, at 100,000 rows: 14 hours at 2 rows\/s/,
    );
    const numbers = (hot!.data as { numbers: { secondsToLimit?: number; rowsPerBucket?: number } }).numbers;
    assert.equal(numbers.secondsToLimit, 50_000);
    assert.equal(numbers.rowsPerBucket, 172_800);
  });

  test('a key without a bucket still states its time to the limit', () => {
    const code =
      'CREATE TABLE ks.readings (sensor_id uuid, reading_time timestamp, value double, PRIMARY KEY (sensor_id, reading_time));';
    const [grows] = ofRule(projectWith(`-- @cqlint rate=1/s\n${code}`).lint(MAIN), 'unbounded-partition');
    assert.match(grows!.details!, /at 100,000 rows: 28 hours at 1 row\/s \(hinted\)/);
    assert.equal((grows!.data as { numbers: { rowsPerBucket?: number } }).numbers.rowsPerBucket, undefined);
  });

  test('the check reads the fill times a message states', () => {
    assert.deepEqual(
      statedFillTimes('at 100,000 rows: 28 hours at 1 row/s (x); past 100,000 values after 3.3 minutes of each hour'),
      [
        { text: ': 28 hours at 1 row/', seconds: 28 * 3600 },
        { text: 'after 3.3 minutes of each ', seconds: 198 },
      ],
    );
    assert.deepEqual(statedFillTimes('its default_time_to_live of 24 hours bounds each partition'), []);
  });

  test('no rule example states a fill time past its table’s bucket', async () => {
    const faults: string[] = [];
    let checked = 0;
    for (const rule of allRules) {
      const examples = ruleExamples[rule.meta.id]!;
      for (const v of [...examples.valid, ...examples.invalid]) {
        const c = typeof v === 'string' ? { code: v } : v;
        const project = await exampleProject(c);
        const buckets = bucketLengths(project);
        if (!buckets.size) continue;
        checked++;
        faults.push(...pastTheBucket(project.lint(mainOf(c)), buckets).map((x) => `${rule.meta.id} example: ${x}`));
      }
    }
    assert.ok(checked > 20, `examples with a bucketed table: ${checked}`);
    assert.deepEqual(faults, []);
  });

  test('no finding of the corpus, the fixtures or examples/ states a fill time past its table’s bucket', () => {
    const faults: string[] = [];
    const folders = [
      ...['killrvideo', 'cassandra-docs', 'dialects'].map((f) => corpusFiles(f)),
      ...['migrations', 'embedded'].map((f) => cqlFilesBelow(join(projectRoot, 'test', 'fixtures', f))),
      cqlFilesBelow(join(projectRoot, 'examples')),
    ];
    let bucketed = 0;
    for (const files of folders) {
      const { findings, buckets } = lintFiles(files);
      bucketed += findings.filter((f) => buckets.has((f.data as { table?: string } | undefined)?.table ?? '')).length;
      faults.push(...pastTheBucket(findings, buckets));
    }
    assert.ok(bucketed > 0, 'findings on bucketed tables were checked');
    assert.deepEqual(faults, []);
  });
});
