// What the hover and the report show of the evidence: the "On the cluster" panel's percentiles, limits,
// top partitions decoded into the table's key columns with tokens that match the independent token
// oracle (cassandra-driver), replicas with a ring, the fix for the busiest key; and the table hover's
// measured lines beside the model's.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { tableReport, tablesDefinedIn } from '../../server/core/report';
import { describeTable } from '../../server/core/editor/table-hover';
import { udtLookupFrom } from '../../server/core/partition/sizing';
import { evidenceMarkdown } from '../../server/core/partition/measured';
import { targetInfo } from '../../server/core/partition/targets';
import { parseRing } from '../../server/core/token/ring';
import { RING, oracleDayRegion, oracleUuid, shopProject } from './helpers';

test('the panel: percentiles against the limit, the largest partition, nodes', async () => {
  const project = await shopProject();
  const table = tablesDefinedIn(project).find((t) => t.name === 'events_by_day')!;
  const cluster = tableReport(project, table).cluster!;
  assert.deepEqual(
    cluster.percentiles.map((p) => [p.percentile, p.bytes, p.cells]),
    [
      ['50%', 4866323, 20501],
      ['75%', 17436917, 73457],
      ['95%', 464228842, 1955666],
      ['98%', 802187438, 3379391],
      ['99%', 962624926, 4055269],
      ['Min', 1916, 2],
      ['Max', 1386179893, 5839588],
    ],
  );
  assert.equal(
    Math.round(cluster.percentiles[4]!.percentOfLimit!),
    Math.round((962624926 / (100 * 1024 * 1024)) * 100),
  );
  // ScyllaDB's recorded 1.55 GB partition is the largest of all the measures.
  // (read from a string: the file names no capture date and has no file date)
  assert.equal(
    cluster.largest,
    "1.5 GB: large partition ('2026-11-19', 'eu-west'), system.large_partitions, node 10.0.0.6 (evidence/large-partitions.csv:3)",
  );
  assert.ok(cluster.reaches.some((r) => r.over && r.limit === '100 MB per partition'));
  assert.deepEqual(
    cluster.nodes.map((n) => [n.node, n.partitions, n.maxBytes]),
    [['10.0.0.3', 1460, 1386179893]],
  );
});

test("top partitions: keys decoded into the key columns, tokens equal to the oracle's, ScyllaDB's printed token agrees", async () => {
  const project = await shopProject();
  const events = tableReport(
    project,
    tablesDefinedIn(project).find((t) => t.name === 'events_by_day')!,
  ).cluster!;
  const writes = events.top.filter((r) => r.measure === 'writes');
  assert.equal(writes.length, 5);
  for (const row of writes) {
    const [day, region] = row.key.split(':');
    assert.deepEqual(row.columns, [
      { name: 'day', value: day },
      { name: 'region', value: region },
    ]);
    assert.equal(row.token, oracleDayRegion(day!, region!), row.key);
  }
  const counted = events.top.filter((r) => r.measure === 'rows');
  assert.deepEqual(counted[0]!.columns, [
    { name: 'day', value: "'2026-11-19'" },
    { name: 'region', value: "'eu-west'" },
  ]);
  assert.equal(counted[0]!.token, oracleDayRegion('2026-11-19', 'eu-west'));
  const large = events.top.filter((r) => r.measure === 'bytes');
  assert.equal(large.length, 2);
  for (const row of large) assert.equal(row.token, row.printedToken, "ScyllaDB's token is the one we compute");
  assert.equal(large[0]!.token, oracleDayRegion('2026-11-19', 'eu-west'));
  assert.deepEqual(
    large[0]!.columns.map((c) => c.value),
    ["'2026-11-19'", "'eu-west'"],
  );

  const carts = tableReport(
    project,
    tablesDefinedIn(project).find((t) => t.name === 'carts')!,
  ).cluster!;
  const top = carts.top.find((r) => r.measure === 'writes')!;
  assert.equal(top.key, '3f0c2a4e-7d2b-4c6e-9a51-2b7f4c1d9e80');
  assert.equal(top.token, oracleUuid(top.key));
});

test("with a ring file: each top partition's replicas; the busiest share and the fix for that very key", async () => {
  const project = await shopProject();
  const table = tablesDefinedIn(project).find((t) => t.name === 'events_by_day')!;
  const cluster = tableReport(project, table, { ring: parseRing(RING) }).cluster!;
  const busiest = cluster.busiest!;
  assert.equal(busiest.row.key, '2026-11-20:eu-west');
  assert.equal(busiest.hot, true);
  assert.match(busiest.text, /^at least 94% of the writes sampled over 7 partitions$/);
  // Replicas: the owner of the token and the next node clockwise in another rack (RF 2).
  const ring = parseRing(RING);
  const token = BigInt(busiest.row.token!);
  const sorted = ring.entries.map((e) => e.token);
  const owner = sorted.findIndex((t) => t >= token);
  const first = ring.entries[owner < 0 ? 0 : owner]!.node.address;
  assert.equal(busiest.row.replicas?.length, 2);
  assert.equal(busiest.row.replicas![0], first);
  assert.match(
    cluster.keyFix!,
    /^With the fix \(.+\), partition key \(\(day, region, shard\), ts\): the partition day = 2026-11-20, region = eu-west becomes \d+ partitions \(one per shard value\), about [\d,]+ writes each where it took 58,000\.$/,
  );
});

test("the table hover shows the measured figures beside the model's, each with its source", async () => {
  const project = await shopProject();
  const table = tablesDefinedIn(project).find((t) => t.name === 'events_by_day')!;
  const hints = project.tableHints(table.filePath, table);
  const measured = evidenceMarkdown(
    table,
    targetInfo('cassandra'),
    hints,
    udtLookupFrom(project.schema()),
    project.evidence(table),
  );
  const hover = describeTable(table, 'cassandra', { ...hints, schema: project.schema(), measured });
  assert.match(
    hover,
    /\| Apache Cassandra limit \| rows per partition to reach it \|[\s\S]*On the cluster \(\[measured\]/,
    "after the model's limits table",
  );
  assert.match(
    hover,
    /- largest partition: 1\.5 GB \(large partition \('2026-11-19', 'eu-west'\); system\.large_partitions, node 10\.0\.0\.6, evidence\/large-partitions\.csv:3\)/,
  );
  assert.match(hover, /  - \*\*past\*\* 100 MB per partition: 1,586%/);
  assert.match(hover, /- partition size p50 \/ p99 \/ max: 4\.6 MB \/ 918 MB \/ 1\.3 GB/);
  assert.match(
    hover,
    /- busiest partition \(writes\): `2026-11-20:eu-west`, 967 writes\/s, at least 94% of the writes sampled over 7 partitions/,
  );
  // Without evidence: no such lines.
  const plain = describeTable(table, 'cassandra', { ...hints, schema: project.schema() });
  assert.doesNotMatch(plain, /On the cluster/);
});
