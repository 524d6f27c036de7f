// The partition report's figures are the rules' figures: limits crossed at the rows the rules state,
// the cure the quick fix would add, and shard spreads from the same shard maths.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { Project } from '../../server/core/engine/project';
import type { CqlintConfig } from '../../server/core/vocabulary/config';
import { partitionReportData, type PartitionReportData } from '../../server/core/report/data';
import { tableWorkload } from '../../server/core/schema/workload';
import { describeTable } from '../../server/core/editor/table-hover';
import {
  estimatePartition,
  rowSizes,
  rowsToReachBytes,
  rowsToReachValues,
  sampleVerdictText,
} from '../../server/core/partition/sizing';
import { renderReportHtml } from '../../server/core/report/html';
import { readSample, type SampleSummary } from '../../server/core/report/sample';
import { markdownText } from '../../server/core/util/markdown';
import { formatCount } from '../../server/core/util/format';
import { targetInfo, type TargetId } from '../../server/core/partition/targets';
import { hintsFor } from '../../server/core/config';
import { generateTitles, shardHistogram } from '../../server/core/token/skew';
import { fixesForFinding } from '../../server/core/fixes';
import { projectFixContext } from '../../server/core/fixes/environment';
import { codepointsMod } from '../../server/core/token/shard';

const FILE = '/virtual/report/schema.cql';

function report(
  code: string,
  table: string,
  config: CqlintConfig = {},
  target: TargetId = 'cassandra',
): { data: PartitionReportData; project: Project } {
  const project = new Project({ config, target });
  project.setFile(FILE, code);
  const info = project.tableFor(FILE, table);
  assert.ok(info, `table ${table} is defined`);
  const data = partitionReportData(project, info, targetInfo(target), hintsFor(config, info.keyspace, info.name));
  return { data, project };
}

const READINGS =
  'CREATE TABLE ks.readings (sensor_id uuid, ts timestamp, value double, note text, PRIMARY KEY (sensor_id, ts));';

test('key diagram: types and K / C↑ / C↓ / S marks in definition order', () => {
  const { data } = report(
    'CREATE TABLE ks.t (a int, b text, c timestamp, d text static, e blob, PRIMARY KEY ((a, b), c, e)) WITH CLUSTERING ORDER BY (c DESC, e ASC);',
    'ks.t',
  );
  assert.deepEqual(
    data.columns.map((c) => [c.name, c.type, c.mark]),
    [
      ['a', 'int', 'K'],
      ['b', 'text', 'K'],
      ['c', 'timestamp', 'C↓'],
      ['d', 'text', 'S'],
      ['e', 'blob', 'C↑'],
    ],
  );
  assert.deepEqual(data.partitionKey, ['a', 'b']);
  assert.deepEqual(data.clustering, ['c', 'e']);
});

test('growth: each limit line sits at the rows large-partition states, and the curve crosses it there', () => {
  const config: CqlintConfig = {
    tables: { 'ks.readings': { rowsPerPartition: 2_000_000, writesPerSecondPerPartition: 5 } },
  };
  const { data, project } = report(READINGS, 'ks.readings', config);
  const finding = project.lint(FILE).find((f) => f.ruleId === 'large-partition');
  assert.ok(finding, 'large-partition reports the 2 M row hint');
  const binding = data.growth.limits.find((l) => l.binding)!;
  assert.equal(binding.label, finding.data!.limit, 'the limit the rule cites is the one hit first');
  assert.equal(binding.rowsAtLimit, finding.data!.rowsAtLimit, 'the line is where the rule says');
  // The rule's message names the other limits passed, each at the rows the report draws it at.
  for (const line of data.growth.limits.filter((l) => l.rowsAtLimit < 2_000_000)) {
    assert.match(
      finding.details!,
      new RegExp(`${line.label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}.{0,30}${formatCount(line.rowsAtLimit)} rows`),
    );
  }
  const table = project.tableFor(FILE, 'ks.readings')!;
  assert.equal(
    data.growth.limits.find((l) => l.kind === 'bytes')!.rowsAtLimit,
    rowsToReachBytes(rowSizes(table, config.tables!['ks.readings']), 100 * 1024 * 1024),
  );
  const sizes = rowSizes(table, config.tables!['ks.readings']);
  const valuesLine = data.growth.limits.find((l) => l.kind === 'values')!;
  assert.equal(valuesLine.rowsAtLimit, rowsToReachValues(sizes, 100_000));
  // Cassandra's hard limit is drawn too, where 2 billion cells are reached; no unsourced "ideal" size is.
  assert.equal(
    data.growth.limits.find((l) => l.label.startsWith('2 billion cells'))!.rowsAtLimit,
    rowsToReachValues(sizes, 2 ** 31),
  );
  assert.equal(data.growth.limits.length, 3);
  assert.equal(data.growth.rowsPerSecond, 5);
  assert.equal(data.growth.rateSource, 'hinted');
  for (const line of data.growth.limits) {
    // The curve is estimatePartition over time: below the line one row before, at or above it at rowsAtLimit.
    const hints = config.tables!['ks.readings'];
    if (line.kind !== 'values') {
      assert.ok(estimatePartition(table, line.rowsAtLimit, hints).bytes >= line.bytes);
      assert.ok(estimatePartition(table, line.rowsAtLimit - 1, hints).bytes < line.bytes);
    }
    assert.equal(line.secondsToday, line.rowsAtLimit / 5);
    const at = data.growth.today!.points.find((p) => p.seconds === line.secondsToday);
    assert.ok(at, `the curve has a point where it crosses ${line.label}`);
    assert.equal(at.rows, line.rowsAtLimit);
    assert.ok(at.bytes >= line.bytes);
    const before = data.growth.today!.points.filter((p) => p.seconds < line.secondsToday!).pop()!;
    assert.ok(before.bytes < line.bytes, `the curve is under ${line.label} before it`);
  }
});

test("growth: an unbounded partition is drawn with the preferred fix's own plan, and the cured curve stays under 100 MB", () => {
  const config: CqlintConfig = { tables: { 'ks.readings': { writesPerSecondPerPartition: 50 } } };
  const { data, project } = report(READINGS, 'ks.readings', config);
  const finding = project.lint(FILE).find((f) => f.ruleId === 'unbounded-partition')!;
  // The fix the editor offers first and `cqlint fix` applies.
  const plan = fixesForFinding(
    project.getText(FILE)!,
    project.parse(FILE),
    finding,
    projectFixContext(project, FILE),
  ).find((f) => f.isPreferred && f.plan)!.plan!;
  assert.deepEqual(data.growth.cure?.plan, plan);
  assert.equal(data.growth.cure?.ruleId, 'unbounded-partition');
  // 50 rows/s of two values each: an hour is 180,000 rows, past the 50,000 that reach 100,000 values; a
  // minute is 3,000: the fix buckets by the minute (a finer bucket rather than shards of an hour).
  assert.equal(plan.bucket?.granularity, 'minute');
  assert.equal(plan.shard, undefined);
  assert.equal(data.growth.cure?.bucketSeconds, 60);
  assert.equal(data.growth.cured?.stopsAfterSeconds, 60);
  assert.equal(data.growth.cured?.rowsPerSecond, 50, 'no shard splits the rate');
  assert.match(data.growth.cure!.description, /a minute bucket \(minute timestamp\) in the partition key, by ts$/);
  assert.equal(data.growth.verdict.kind, 'reported');
  const curedMax = Math.max(...data.growth.cured!.points.map((p) => p.bytes));
  assert.ok(curedMax < 100 * 1024 * 1024, 'one minute of rows stays under 100 MB');
  const hard = data.growth.limits.find((l) => l.kind === 'bytes')!;
  assert.ok(hard.secondsToday! > 0);
  assert.equal(hard.secondsCured, undefined, 'the cured partition never reaches 100 MB');
  assert.ok(Math.max(...data.growth.today!.points.map((p) => p.bytes)) >= hard.bytes, 'today it does');
});

test("growth: without a rate hint the workload model's stated default rate is used, as the rules use it", () => {
  const { data, project } = report(READINGS, 'ks.readings');
  const table = project.tableFor(FILE, 'ks.readings')!;
  const workload = tableWorkload(table, undefined, project.referencesTo(table));
  assert.equal(data.growth.rateSource, 'default');
  assert.equal(data.growth.rowsPerSecond, workload.rowsPerSecond);
  assert.match(data.growth.rateNote, /default/);
});

test('growth: a day bucket in the key and a TTL stop the growth', () => {
  const { data } = report(
    'CREATE TABLE ks.books (publish_date date, title text, PRIMARY KEY (publish_date, title));',
    'ks.books',
  );
  assert.equal(data.growth.today!.stopsAfterSeconds, 86_400);
  assert.equal(data.growth.today!.stopsBecause, 'bucket');
  assert.equal(data.growth.verdict.kind, 'bounded');
  const last = data.growth.today!.points.at(-1)!;
  assert.equal(last.rows, Math.floor(86_400 * data.growth.rowsPerSecond));
  const ttl = report(`${READINGS.replace(';', '')} WITH default_time_to_live = 3600;`, 'ks.readings').data;
  assert.equal(ttl.growth.today!.stopsAfterSeconds, 3600);
  assert.equal(ttl.growth.today!.stopsBecause, 'ttl');
});

test("spread: a hot partition shows the preferred fix's murmur3 shard beside the code-point formula", () => {
  // Keyspaces, 10,000 writes/s of one WCU: 10,000 x 1.5 / 1,000 WCU per partition = 15 shards, the preferred fix's count.
  const config: CqlintConfig = { tables: { 'ks.books': { writesPerSecondPerPartition: 10_000 } } };
  const { data } = report(
    'CREATE TABLE ks.books (publish_date date, title text, author text, PRIMARY KEY (publish_date, title));',
    'ks.books',
    config,
    'keyspaces',
  );
  assert.equal(data.growth.cure?.kind, 'shard');
  assert.equal(data.growth.cure?.shardCount, 15);
  const spread = data.spread!;
  assert.equal(spread.origin, 'proposed');
  assert.equal(spread.formula, 'murmur3(title) % 15 + 1');
  assert.deepEqual(
    spread.valuesFrom,
    { kind: 'synthetic', family: 'titles' },
    'a text source: the formulas checked on synthetic titles',
  );
  assert.equal(
    spread.histogram!.counts.reduce((a, b) => a + b, 0),
    spread.values,
  );
  assert.ok(spread.histogram!.maxOverMean! < 1.25);
  assert.equal(spread.comparison?.formula, 'codepoints(title) % 15 + 1');
  assert.ok(spread.comparison!.maxOverMean! > 4 * spread.histogram!.maxOverMean!);
  // The cured curve: the same rate spread over the 15 shard partitions.
  assert.equal(data.growth.cured!.rowsPerSecond, data.growth.rowsPerSecond / 15);
});

test('spread: an @shard table shows its own formula', () => {
  const { data } = report(
    '-- @shard shard = codepoints(title) % 200 + 1\nCREATE TABLE ks.books (publish_date date, shard int, title text, PRIMARY KEY ((publish_date, shard), title));',
    'ks.books',
  );
  assert.equal(data.spread?.origin, 'annotation');
  assert.equal(data.spread?.histogram?.formula, 'codepoints(title) % 200 + 1');
  assert.equal(data.spread?.histogram?.counts.length, 200);
  assert.ok(data.spread!.histogram!.emptyShards! > 100, 'most code-point shards stay empty');
  assert.equal(data.spread?.comparison?.method, 'murmur3');
});

test('shard histogram over 100,000 generated titles: murmur3 max/mean < 1.1, code points far worse', () => {
  const titles = generateTitles(100_000, 11);
  assert.equal(new Set(titles).size > 50_000, true, 'mostly distinct titles');
  for (const count of [16, 64]) {
    const mean = titles.length / count;
    const murmur = shardHistogram({ method: 'murmur3', count }, titles).fullest!.rows / mean;
    const codepoints = shardHistogram({ method: 'codepoints', count }, titles).fullest!.rows / mean;
    assert.ok(murmur < 1.1, `murmur3 % ${count}: max/mean ${murmur}`);
    assert.ok(codepoints > 5, `codepoints % ${count}: max/mean ${codepoints}`);
  }
});

test('throughput: load per partition against the limit, today and over the shards the fix adds', () => {
  const posts = 'CREATE TABLE ks.posts (day date, id timeuuid, body text, PRIMARY KEY (day, id));';
  const config: CqlintConfig = { tables: { 'ks.posts': { writesPerSecondPerPartition: 2000 } } };
  const { data, project } = report(posts, 'ks.posts', config, 'keyspaces');
  const finding = project.lint(FILE).find((f) => f.ruleId === 'partition-throughput')!;
  const writes = data.throughput.find((t) => t.kind === 'writes')!;
  assert.equal(writes.unitsPerSecond, finding.data!.unitsPerSecond);
  assert.equal(writes.shardsNeeded, finding.data!.shardsNeeded);
  assert.equal(writes.limit, 1000);
  assert.ok(writes.shards! >= writes.shardsNeeded);
  assert.ok(writes.unitsPerShard! < writes.limit);
  assert.equal(writes.unitsPerShard, writes.unitsPerSecond / writes.shards!);
});

test('findings and severity of the table', () => {
  const { data } = report(READINGS, 'ks.readings');
  assert.deepEqual(
    data.findings.map((f) => f.ruleId),
    ['unbounded-partition'],
  );
  assert.equal(data.severity, 'warning');
  const clean = report('CREATE TABLE ks.users (id uuid PRIMARY KEY, name text);', 'ks.users').data;
  assert.equal(clean.severity, undefined);
  assert.equal(clean.growth.cure, undefined);
});

test('queries: the workspace statements on the table with the key columns they pin', () => {
  const project = new Project({ config: {} });
  project.setFile(FILE, READINGS);
  project.setFile(
    '/virtual/report/queries.cql',
    [
      'SELECT * FROM ks.readings WHERE sensor_id = ? AND ts > ?;',
      'INSERT INTO ks.readings (sensor_id, ts, value) VALUES (?, ?, ?);',
      'SELECT * FROM ks.readings WHERE value > 3 ALLOW FILTERING;',
      'SELECT * FROM ks.other WHERE id = 1;',
    ].join('\n'),
  );
  const table = project.tableFor(FILE, 'ks.readings')!;
  const data = partitionReportData(project, table, targetInfo('cassandra'), undefined);
  assert.deepEqual(
    data.queries.map((q) => [q.kind, q.line, q.pinned, q.ranged, q.singlePartition]),
    [
      ['Select', 1, ['sensor_id'], ['ts'], true],
      ['Insert', 2, ['sensor_id', 'ts', 'value'], [], true],
      ['Select', 3, [], ['value'], false],
    ],
  );
});

test('spread: random(N) without a sample shows the rows expected per shard from a fixed-seed draw, and says reads visit all N', () => {
  const code =
    '-- @shard shard = random(8)\nCREATE TABLE ks.clicks (day date, shard int, ts timestamp, url text, PRIMARY KEY ((day, shard), ts));';
  const config: CqlintConfig = { tables: { 'ks.clicks': { rowsPerSecondPerPartition: 10 } } };
  const { data } = report(code, 'ks.clicks', config);
  const spread = data.spread!;
  assert.equal(spread.formula, 'random(8)');
  assert.deepEqual(spread.valuesFrom, { kind: 'draw' });
  // A day bucket: one partition takes 10 rows/s for a day; random(8) gives each shard 1/8 of them.
  assert.equal(spread.random?.rows, 864_000);
  assert.equal(spread.random?.expectedPerShard, 108_000);
  assert.equal(
    spread.histogram!.counts.reduce((a, b) => a + b, 0),
    864_000,
  );
  assert.ok(
    spread.histogram!.maxOverMean! > 1 && spread.histogram!.maxOverMean! < 1.01,
    `a large uniform draw is flat: ${spread.histogram!.maxOverMean}`,
  );
  assert.deepEqual(
    report(code, 'ks.clicks', config).data.spread?.histogram?.counts,
    spread.histogram!.counts,
    'the same draw every time',
  );
  const html = renderReportHtml([data], { chooseSampleCommand: 'cqlint.choosePartitionReportSample' });
  assert.match(html, /<strong data-figure="expected-per-shard">108,000<\/strong> per shard are expected/);
  assert.match(html, /Reads must visit all 8 shards/);
  assert.match(
    html,
    /<a href="command:cqlint\.choosePartitionReportSample" data-action="choose-sample">Choose sample CSV…<\/a>/,
  );
  assert.doesNotMatch(renderReportHtml([data]), /command:/, 'no command link in the standalone file');
});

test('sample: the report, the hover and large-partition state the same verdict from the same summary', async () => {
  const code = 'CREATE TABLE ks.events (host text, ts int, a int, b int, c int, d int, PRIMARY KEY (host, ts));';
  const csv = [
    'host,ts,a,b,c,d',
    ...Array.from({ length: 30_000 }, (_, i) => `web1,${i},1,2,3,4`),
    'web2,1,1,2,3,4',
  ].join('\n');
  let summary: SampleSummary | undefined;
  const config: CqlintConfig = { samples: { 'ks.events': { file: '/virtual/report/events.csv', name: 'events.csv' } } };
  const project = new Project({ config, sampleSummary: () => summary });
  project.setFile(FILE, code);
  const table = project.tableFor(FILE, 'ks.events')!;
  summary = await readSample([csv], table, project.schema(), {
    file: '/virtual/report/events.csv',
    name: 'events.csv',
  });
  project.refreshSamples();
  const data = partitionReportData(project, table, targetInfo('cassandra'), undefined, { sample: summary });
  const finding = project.lint(FILE).find((f) => f.ruleId === 'large-partition')!;
  assert.ok(finding, 'large-partition fires from the sample');
  assert.ok(finding.details!.includes(data.sampleVerdict!.text), `${finding.details}\n${data.sampleVerdict!.text}`);
  assert.equal(data.sampleVerdict!.over[0]!.limit.label, finding.data?.limit);
  const hover = describeTable(table, 'cassandra', { schema: project.schema(), sample: project.sampleSummary(table) });
  assert.ok(hover.includes(markdownText(sampleVerdictText(data.sampleVerdict!, 'Apache Cassandra'))), hover);
  assert.match(
    renderReportHtml([data]),
    new RegExp(
      `data-figure="sample-verdict" class="sev-warning">${sampleVerdictText(data.sampleVerdict!, 'Apache Cassandra')
        .replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')
        .replace(/'/g, '&#39;')}`,
    ),
  );
});

test('shard counts are numbers, not sizes: N of 2^31 - 1 or a million is drawn in at most 256 bars, per-shard figures exact', () => {
  const sharded = (formula: string): string =>
    `-- @shard shard = ${formula}\nCREATE TABLE ks.s (d date, shard int, title text, PRIMARY KEY ((d, shard), title));`;
  for (const [formula, count] of [
    ['murmur3(title) % 2147483647 + 1', 2147483647],
    ['codepoints(title) % 100000000 + 1', 100_000_000],
    ['random(1000000)', 1_000_000],
  ] as const) {
    const { data } = report(sharded(formula), 'ks.s');
    const h = data.spread!.histogram;
    if (!h) {
      // murmur3 without a sample: no histogram at all (synthetic values would be even by construction).
      assert.equal(data.spread!.valuesFrom.kind, 'none', formula);
      assert.ok(renderReportHtml([data]).length < 1_000_000);
      continue;
    }
    assert.equal(h.count, count);
    assert.ok(h.counts.length <= 256, `${formula}: ${h.counts.length} bars`);
    assert.equal(h.shardsPerBar, Math.ceil(count / 256));
    assert.equal(
      h.counts.reduce((a, b) => a + b, 0),
      data.spread!.values,
      'every value is in a bar',
    );
    // A few thousand values (or the draw) over millions of shards: each in a shard of its own, or nearly.
    assert.ok(h.emptyShards! >= count - data.spread!.values, `${formula}: ${h.emptyShards} empty`);
    assert.ok(h.max! >= 1);
    const html = renderReportHtml([data]);
    assert.match(
      html,
      new RegExp(`over ${formatCount(count)} shards \\(\\d+ bars of ${formatCount(h.shardsPerBar)} shards\\)`),
    );
    assert.ok(html.length < 1_000_000, 'the page does not list every shard');
  }
  // The shard-math of the rules too: the skew prediction measures on a map of the shards hit.
  const skew = shardHistogram({ method: 'codepoints', count: 2147483647 }, generateTitles(4000, 3));
  assert.equal(skew.bars.length, 256);
  assert.equal(skew.total, 4000);
  const hit = new Set(generateTitles(4000, 3).map((t) => codepointsMod(t, 2147483647)));
  assert.equal(skew.emptyShards, 2147483647 - hit.size, 'every shard hit is counted, the others are empty');
  assert.ok(skew.fullest!.rows >= 1 && hit.has(skew.fullest!.index));
});
