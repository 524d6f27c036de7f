// A table's page as a data modeler reads it: the DS220 size terms (checked against the formula worked
// by hand), what the growth chart means in the rules' terms, the traffic of a hot key (the busiest
// partition's share, its replicas with a ring, after the fix), key popularity only from evidence, and
// the cosmetics the review listed (labels, the index, a scan's reads, a bucket's period, a uuid source).
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { Project } from '../../server/core/engine/project';
import type { CqlintConfig } from '../../server/core/vocabulary/config';
import { partitionReportData, type PartitionReportData, type ReportOptions } from '../../server/core/report/data';
import { renderReportHtml } from '../../server/core/report/html';
import { readSample } from '../../server/core/report/sample';
import { placeLineLabels, lineChart } from '../../server/core/report/svg';
import { estimatePartition } from '../../server/core/partition/sizing';
import { hintsFor } from '../../server/core/config';
import { targetInfo } from '../../server/core/partition/targets';
import { parseRing, replicasFor, replicationFromMap } from '../../server/core/token/ring';
import { bucketPeriodSeconds } from '../../server/core/schema/columns';

const FILE = '/virtual/page/schema.cql';

function page(
  code: string,
  table: string,
  config: CqlintConfig = {},
  options: ReportOptions = {},
  files: Record<string, string> = {},
): { data: PartitionReportData; project: Project } {
  const project = new Project({ config });
  project.setFile(FILE, code);
  for (const [file, text] of Object.entries(files)) project.setFile(file, text);
  const info = project.tableFor(FILE, table);
  assert.ok(info, `table ${table} is defined`);
  return {
    data: partitionReportData(
      project,
      info,
      targetInfo('cassandra'),
      hintsFor(config, info.keyspace, info.name),
      options,
    ),
    project,
  };
}

test('size terms: the DS220 formula term by term, equal to the formula worked by hand', () => {
  const code =
    'CREATE TABLE ks.t (a int, b text, c timestamp, d text static, e blob, f double, PRIMARY KEY ((a, b), c));';
  const config: CqlintConfig = {
    tables: { 'ks.t': { rowsPerPartition: 1000, columnSizes: { b: 20, d: 10, e: 100 } } },
  };
  const { data, project } = page(code, 'ks.t', config);
  const t = data.sizeTerms;
  // By hand: Σ pk = a 4 + b 20 = 24; Σ static = d 10; per row: c 8 + e 100 + f 8 = 116;
  // Nc = 6, Npk = 3 (a, b, c), Ns = 1: Nv = 1000 × (6 − 3 − 1) + 1 = 2001 values, 8 B each = 16,008;
  // St = 24 + 10 + 1000 × 116 + 16,008 = 132,042 B.
  assert.equal(t.rows, 1000);
  assert.equal(t.rowsFrom, 'hint');
  assert.deepEqual([t.columns, t.partitionKeyColumns, t.staticColumns, t.valuesPerRow, t.values], [6, 3, 1, 2, 2001]);
  assert.deepEqual(
    t.terms.map((x) => [x.id, x.bytes]),
    [
      ['pk', 24],
      ['static', 10],
      ['rows', 116_000],
      ['metadata', 16_008],
    ],
  );
  assert.equal(t.total, 24 + 10 + 1000 * 116 + 2001 * 8);
  assert.equal(t.total, 132_042);
  assert.deepEqual(
    t.terms.map((x) => x.arithmetic),
    ['4 + 20', '10', '1,000 × (8 + 100 + 8)', '2,001 × 8'],
  );
  assert.deepEqual(
    t.terms[2]!.columns!.map((c) => [c.name, c.bytes, c.hinted]),
    [
      ['c', 8, false],
      ['e', 100, true],
      ['f', 8, false],
    ],
  );
  // The same function the rules size partitions with.
  assert.equal(t.total, estimatePartition(project.tableFor(FILE, 'ks.t')!, 1000, config.tables!['ks.t']).bytes);
  const html = renderReportHtml([data]);
  assert.match(
    html,
    /<tr data-term="rows"><td>rows<\/td><td class="mono">Nr × \(Σ sizeOf\(clustering\) \+ Σ sizeOf\(regular\)\)<\/td><td class="mono">1,000 × \(8 \+ 100 \+ 8\)/,
  );
  assert.match(html, /Nv = Nr × \(Nc − Npk − Ns\) \+ Ns = 1,000 × \(6 − 3 − 1\) \+ 1 = 2,001 values/);
  assert.match(html, /data-figure="size-total"><strong>132,042 B<\/strong>/);
});

test('size terms: without a rows hint, at the rows where the first limit is hit', () => {
  const { data } = page(
    'CREATE TABLE ks.r (sensor_id uuid, ts timestamp, value double, PRIMARY KEY (sensor_id, ts));',
    'ks.r',
  );
  const binding = data.growth.limits.find((l) => l.binding)!;
  assert.equal(data.sizeTerms.rowsFrom, 'limit');
  assert.equal(data.sizeTerms.rows, binding.rowsAtLimit);
});

test('growth verdict: a row per entity does not grow, and no chart says it does', () => {
  const { data } = page('CREATE TABLE ks.users (id uuid PRIMARY KEY, name text, email text);', 'ks.users');
  assert.equal(data.growth.verdict.kind, 'no-growth');
  assert.equal(data.growth.today, undefined);
  assert.equal(data.findings.length, 0);
  const html = renderReportHtml([data]);
  assert.doesNotMatch(html, /data-figure="growth-chart"/);
  assert.match(html, /data-verdict="no-growth">Rows do not arrive per event/);
  // Its limits still say how many rows a partition could hold.
  assert.match(html, /data-figure="growth-limits"/);
});

test("growth verdict: an entity's history grows but is not reported unless asked; asked, the finding is the verdict", () => {
  const code =
    'CREATE TABLE ks.comments_by_user (userid uuid, commentid timeuuid, comment text, PRIMARY KEY (userid, commentid));';
  const quiet = page(code, 'ks.comments_by_user').data;
  assert.equal(quiet.findings.length, 0);
  assert.ok(quiet.growth.today, 'the chart is drawn');
  assert.equal(quiet.growth.verdict.kind, 'not-reported');
  assert.match(quiet.growth.verdict.text, /reportEntityHistories/);
  const asked = page(code, 'ks.comments_by_user', {
    rules: { 'unbounded-partition': ['warn', { reportEntityHistories: true }] },
  }).data;
  assert.deepEqual(
    asked.findings.map((f) => f.ruleId),
    ['unbounded-partition'],
  );
  assert.equal(asked.growth.verdict.kind, 'reported');
});

test("growth verdict: a few-valued key that keeps growing is hot-partition's; a day bucket bounds, and says when it still passes a limit", () => {
  const status = page(
    'CREATE TABLE ks.orders_by_status (status text, order_id uuid, total decimal, PRIMARY KEY (status, order_id));',
    'ks.orders_by_status',
  ).data;
  assert.deepEqual(
    status.findings.map((f) => f.ruleId),
    ['hot-partition'],
  );
  assert.equal(status.growth.verdict.kind, 'reported');
  const daily = page(
    'CREATE TABLE ks.posts_by_day (publish_date date, title text, author text, body text, PRIMARY KEY (publish_date, title));',
    'ks.posts_by_day',
  ).data;
  assert.equal(daily.growth.verdict.kind, 'bounded');
  // 1 row/s (the default for a key many entities share) of 2 values passes 100,000 values in 50,000 s.
  assert.match(
    daily.growth.verdict.text,
    /^the time bucket publish_date in its key bounds a partition, but at this rate it passes its first limit after 14 hours/,
  );
});

test("traffic: a time bucket alone sends every write to one partition; the fix's shards split it", () => {
  const { data } = page(
    'CREATE TABLE ks.posts_by_day (publish_date date, title text, body text, PRIMARY KEY (publish_date, title));',
    'ks.posts_by_day',
  );
  const t = data.traffic!;
  assert.equal(t.from, 'model');
  assert.equal(t.busiestShare, 1);
  assert.equal(t.livePartitions, 1);
  // The preferred fix's shards split it.
  const shards = data.growth.cure!.plan.shard!.count;
  assert.ok(shards >= 2);
  assert.deepEqual(t.afterFix, { shards, busiestShare: 1 / shards, shardsFrom: 'fix' });
  const html = renderReportHtml([data]);
  assert.match(
    html,
    /takes <strong data-figure="busiest-share">100%<\/strong> of the table's writes \(the workload model's estimate: only the current time bucket takes writes\)/,
  );
  assert.match(
    html,
    new RegExp(
      `With the fix's ${shards} shards each of its shard partitions takes <strong data-figure="busiest-share-after">${Number((100 / shards).toPrecision(2))}%</strong>`,
    ),
  );
  // How the fix was sized: its own reasons, under the chart that draws it.
  const reasons = data.growth.cure!.plan.figures!.reasons;
  assert.ok(reasons.length > 0);
  assert.ok(
    html.includes(
      `<details data-figure="fix-sizing"><summary>how the fix was sized</summary><ul><li>${reasons[0]!.replace(/&/g, '&amp;').replace(/'/g, '&#39;')}</li>`,
    ),
    html.slice(html.indexOf('fix-sizing') - 50, html.indexOf('fix-sizing') + 300),
  );
  assert.equal(
    page('CREATE TABLE ks.users (id uuid PRIMARY KEY, name text);', 'ks.users').data.traffic,
    undefined,
    'only hot tables get the panel',
  );
});

test('traffic: a distinct hint gives the share; the ring names how many nodes take it', () => {
  const code =
    "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 3};\nCREATE TABLE ks.orders_by_status (status text, order_id uuid, total decimal, PRIMARY KEY (status, order_id));";
  const ring = parseRing(
    JSON.stringify({
      '10.0.0.1': { tokens: ['-6000000000000000000'] },
      '10.0.0.2': { tokens: ['-1000000000000000000'] },
      '10.0.0.3': { tokens: ['3000000000000000000'] },
      '10.0.0.4': { tokens: ['8000000000000000000'] },
      '10.0.0.5': { tokens: ['9000000000000000000'] },
      '10.0.0.6': { tokens: ['0'] },
    }),
  );
  const config: CqlintConfig = { tables: { 'ks.orders_by_status': { columns: { status: { distinct: 5 } } } } };
  const { data } = page(code, 'ks.orders_by_status', config, { ring });
  const t = data.traffic!;
  assert.equal(t.from, 'hint');
  assert.equal(t.busiestShare, 1 / 5);
  assert.deepEqual(t.ring, { nodes: 6, replicas: 3, evenShare: 0.5 });
  assert.match(
    renderReportHtml([data]),
    /it lands on 3 of 6 nodes, each of which takes (at least )?20% of the table's writes; spread evenly, each node would take 50%/,
  );
});

test("traffic and key popularity from a sample: the largest partition's real share, its replicas; no synthetic histogram", async () => {
  const code =
    "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 2};\nCREATE TABLE ks.orders_by_status (status text, order_id uuid, total decimal, PRIMARY KEY (status, order_id));";
  const uuid = (i: number): string => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`;
  const rows = [
    'status,order_id,total',
    ...Array.from({ length: 70 }, (_, i) => `open,${uuid(i)},1`),
    ...Array.from({ length: 20 }, (_, i) => `paid,${uuid(100 + i)},1`),
    ...Array.from({ length: 10 }, (_, i) => `void,${uuid(200 + i)},1`),
  ];
  const ring = parseRing(
    JSON.stringify({
      a: { tokens: ['-4611686018427387904'] },
      b: { tokens: ['0'] },
      c: { tokens: ['4611686018427387904'] },
    }),
  );
  const project = new Project({ config: {} });
  project.setFile(FILE, code);
  const table = project.tableFor(FILE, 'ks.orders_by_status')!;
  // The sample is spread with the shard the fix proposes (as tableReportWithSample reads it).
  const shard = partitionReportData(project, table, targetInfo('cassandra'), undefined).spread?.shard;
  const sample = await readSample([rows.join('\n')], table, project.schema(), {
    file: '/virtual/page/orders.csv',
    ring,
    shard: shard?.method === 'random' ? undefined : shard,
  });
  const data = partitionReportData(project, table, targetInfo('cassandra'), undefined, { sample, ring });
  const t = data.traffic!;
  assert.equal(t.from, 'sample');
  assert.equal(t.busiestShare, 0.7);
  const expected = replicasFor(
    ring,
    BigInt(sample.largest[0]!.token!),
    replicationFromMap({ class: 'SimpleStrategy', replication_factor: '2' }),
  ).map((n) => n.address);
  assert.deepEqual(t.ring?.busiestReplicas, expected);
  assert.equal(t.ring?.replicas, 2);
  const p = data.popularity!;
  assert.equal(p.from, 'sample');
  assert.deepEqual(
    p.top!.map((x) => [x.key, x.share]),
    [
      [['open'], 0.7],
      [['paid'], 0.2],
      [['void'], 0.1],
    ],
  );
  // The shard the fix proposes: spread over the sample's rows (or random's draw), never over synthetic values.
  assert.ok(['sample', 'draw'].includes(data.spread!.valuesFrom.kind), data.spread!.valuesFrom.kind);
  const html = renderReportHtml([data]);
  assert.match(html, /the 3 largest partitions hold <strong>100%<\/strong> of its rows/);
  assert.match(html, new RegExp(`it lands on 2 of 3 nodes \\(${expected.join(', ')}\\)`));
});

test('no evidence, no histogram: murmur3 of a uuid is not drawn over synthetic values, and the text names its type', () => {
  const { data } = page(
    'CREATE TABLE ks.latest (day date, added timestamp, videoid uuid, PRIMARY KEY (day, added, videoid));',
    'ks.latest',
  );
  assert.match(data.spread!.formula, /^murmur3\(videoid\) % \d+ \+ 1$/);
  assert.deepEqual(data.spread?.valuesFrom, { kind: 'none' });
  assert.equal(data.spread?.histogram, undefined);
  assert.equal(data.popularity, undefined, 'no sample, no hint: no popularity');
  const html = renderReportHtml([data]);
  assert.match(html, /hashes <code>videoid<\/code> \(uuid\): murmur3 spreads distinct values evenly by construction/);
  assert.doesNotMatch(html, /synthetic (ids|titles|uuids) like videoid/);
  assert.doesNotMatch(html, /data-figure="spread-chart"/);
});

test('cosmetics: limit labels never overlap, even when the limits crowd an axis', () => {
  const plot = { left: 70, right: 624, top: 16, bottom: 256 };
  const lines = [250, 246, 243, 240, 200, 199, 30, 24, 20].map((y, i) => ({
    y,
    label: `limit number ${i} at a value of ${i * 1000} (12.5 MB)`,
  }));
  const slots = placeLineLabels(lines, plot);
  for (let i = 0; i < slots.length; i++) {
    const a = slots[i]!.rect;
    assert.ok(a.y >= plot.top - 2 && a.y + a.height <= plot.bottom + 2, `label ${i} stays in the plot`);
    for (let j = i + 1; j < slots.length; j++) {
      const b = slots[j]!.rect;
      assert.ok(
        !(a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height),
        `labels ${i} and ${j} overlap`,
      );
    }
  }
  // The chart draws them where they were placed.
  const svg = lineChart({
    title: 't',
    desc: 'd',
    xMax: 1,
    yMax: 100,
    xTicks: [0, 1],
    yTicks: [0, 100],
    xLabel: String,
    yLabel: String,
    xAxisTitle: 'x',
    yAxisTitle: 'y',
    series: [],
    lines: [
      { y: 10, label: 'a', cls: 'c' },
      { y: 10.5, label: 'b', cls: 'c' },
      { y: 11, label: 'c', cls: 'c' },
    ],
  });
  const ys = [...svg.matchAll(/<text x="[\d.]+" y="([\d.]+)" text-anchor="(start|end)">[abc]</g)].map(
    (m) => `${m[1]} ${m[2]}`,
  );
  assert.equal(new Set(ys).size, 3, ys.join(' | '));
});

test('cosmetics: the index tells two definitions of one table apart by their file', () => {
  const project = new Project({ config: {} });
  project.setFile('/virtual/page/v1.cql', 'CREATE TABLE ks.users (id uuid PRIMARY KEY, name text);');
  project.setFile('/virtual/page/v2.cql', 'CREATE TABLE ks.users (id uuid PRIMARY KEY, name text, email text);');
  const reports = project
    .schema()
    .allTables()
    .map((t) => partitionReportData(project, t, targetInfo('cassandra'), undefined));
  const html = renderReportHtml(reports, { index: true });
  const index = html.slice(html.indexOf('data-figure="index"'), html.indexOf('</nav>'));
  assert.match(
    index,
    /href="#table-ks-users--v1-cql">ks\.users<\/a><\/td><td class="mono">\/virtual\/page\/v1\.cql:1<\/td>/,
  );
  assert.match(
    index,
    /href="#table-ks-users--v2-cql">ks\.users<\/a><\/td><td class="mono">\/virtual\/page\/v2\.cql:1<\/td>/,
  );
  assert.equal([...html.matchAll(/<section class="table-report" id="(table-ks-users--v[12]-cql)"/g)].length, 2);
});

test("cosmetics: a scan's reads say every partition; IN says how many", () => {
  const { data } = page(
    'CREATE TABLE ks.r (sensor_id uuid, ts timestamp, value double, PRIMARY KEY (sensor_id, ts));',
    'ks.r',
    {},
    {},
    {
      '/virtual/page/q.cql': [
        'SELECT * FROM ks.r WHERE value > 3 ALLOW FILTERING;',
        'SELECT * FROM ks.r;',
        'SELECT * FROM ks.r WHERE sensor_id IN (?, ?) AND ts > ?;',
        'SELECT * FROM ks.r WHERE sensor_id = ?;',
      ].join('\n'),
    },
  );
  assert.deepEqual(
    data.queries.map((q) => [q.access, q.reads]),
    [
      ['filtering', 'every partition, filtered (ALLOW FILTERING)'],
      ['scan', 'every partition (a scan)'],
      ['partitions', '2 partitions (IN)'],
      ['partition', 'one partition'],
    ],
  );
  assert.deepEqual(
    data.queries.map((q) => q.findings),
    [['allow-filtering'], ['unrestricted-partition-key'], [], []],
  );
  assert.doesNotMatch(renderReportHtml([data]), /several partitions/);
});

test("cosmetics: a bucket's period comes from its name; one whose name says none is drawn as a day, and the page says so", () => {
  const col = (name: string, type: string): Parameters<typeof bucketPeriodSeconds>[0] => {
    const project = new Project({ config: {} });
    project.setFile('/x.cql', `CREATE TABLE ks.x (${name} ${type}, id uuid, PRIMARY KEY ((${name}), id));`);
    return project.tableFor('/x.cql', 'ks.x')!.partitionKey[0]!;
  };
  assert.equal(bucketPeriodSeconds(col('yyyymmdd', 'text')), 86_400);
  assert.equal(bucketPeriodSeconds(col('log_hour', 'timestamp')), 3600);
  assert.equal(bucketPeriodSeconds(col('day_hour', 'int')), 3600);
  assert.equal(bucketPeriodSeconds(col('week_start', 'date')), 7 * 86_400);
  assert.equal(bucketPeriodSeconds(col('yyyymm', 'text')), 2_629_746);
  assert.equal(bucketPeriodSeconds(col('window', 'text')), undefined);
  const daily = page(
    'CREATE TABLE ks.v (yyyymmdd text, added timestamp, videoid uuid, PRIMARY KEY (yyyymmdd, added, videoid));',
    'ks.v',
  ).data;
  assert.equal(daily.growth.today?.stopsAfterSeconds, 86_400);
  assert.equal(daily.growth.assumedBucketPeriod, undefined);
  const windowed = page(
    'CREATE TABLE ks.w (sensor_id uuid, time_window text, ts timestamp, v double, PRIMARY KEY ((sensor_id, time_window), ts));',
    'ks.w',
  ).data;
  assert.equal(windowed.growth.assumedBucketPeriod, 'time_window');
  assert.equal(windowed.growth.today?.stopsAfterSeconds, 86_400);
  assert.match(
    renderReportHtml([windowed]),
    /The name of the time bucket time_window does not say its period: the curve assumes a day/,
  );
});
