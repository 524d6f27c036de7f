// The evidence readers on outputs in each tool's exact format (test/fixtures/evidence: our own values,
// laid out with the tools' format strings; see docs/evidence.md for the sources), every version variant,
// and the inputs that must not break them: truncated files, garbage, binary, endless lines, CRLF, chunks
// of any size.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  EvidenceReadError,
  readEvidence,
  readEvidenceFile,
  type EvidenceFile,
  type TableFigures,
} from '../../server/core/evidence';
import { RECORD_LIMITS } from '../../server/core/io/input-limits';

const FIXTURES = join(__dirname, '..', 'fixtures', 'evidence');
const fixture = (name: string): string => readFileSync(join(FIXTURES, name), 'utf8');
const read = (name: string, chunks?: string[]): Promise<EvidenceFile> =>
  readEvidence(chunks ?? [fixture(name)], { file: join(FIXTURES, name), name });
const table = (file: EvidenceFile, name: string): TableFigures => {
  const t = file.tables.find((x) => x.table === name);
  assert.ok(t, `${file.origin.name} has ${name} (tables: ${file.tables.map((x) => x.table).join(', ')})`);
  return t;
};
/** The line a figure cites, as the file has it. */
const lineOf = (name: string, line: number): string => fixture(name).split(/\r?\n/)[line - 1]!;

describe('nodetool tablestats', () => {
  test('Cassandra 4.x text: every figure with its line, the node and date from the header', async () => {
    const f = await read('tablestats-4x.txt');
    assert.equal(f.origin.tool, 'nodetool tablestats');
    assert.equal(f.origin.node, '10.0.0.3');
    assert.equal(f.origin.captured, '2026-11-20');
    assert.equal(f.origin.capturedFrom, 'header');
    assert.equal(f.problemCount, 0, JSON.stringify(f.problems));
    const t = table(f, 'shop.events_by_day');
    assert.equal(t.partitionBytes?.max?.value, 1386179893);
    assert.equal(
      lineOf('tablestats-4x.txt', t.partitionBytes!.max!.line).trim(),
      'Compacted partition maximum bytes: 1386179893',
    );
    assert.equal(t.partitionBytes?.mean?.value, 48539268);
    assert.equal(t.partitionsEstimate?.value, 1460);
    assert.equal(t.localWrites?.value, 183224312);
    assert.equal(t.localReadLatencyMs?.value, 0.412);
    assert.equal(t.liveCellsPerSlice?.max?.value, 5000);
    assert.equal(t.tombstonesPerSlice?.max?.value, 12);
    assert.equal(table(f, 'shop.carts').partitionBytes?.max?.value, 4768);
  });

  test('every variant (4.x, 5.x -H, sorted, -F json, -F yaml) gives the same figures', async () => {
    const names = [
      'tablestats-4x.txt',
      'tablestats-5x-human.txt',
      'tablestats-sorted.txt',
      'tablestats.json',
      'tablestats.yaml',
    ];
    const figures = (t: TableFigures) => ({
      max: t.partitionBytes?.max?.value,
      mean: t.partitionBytes?.mean?.value,
      min: t.partitionBytes?.min?.value,
      partitions: t.partitionsEstimate?.value,
      writes: t.localWrites?.value,
      reads: t.localReads?.value,
      live: t.spaceUsedLive?.value,
      tombstones: t.tombstonesPerSlice?.max?.value,
    });
    const all = await Promise.all(names.map((n) => read(n)));
    for (const f of all) assert.equal(f.problemCount, 0, `${f.origin.name}: ${JSON.stringify(f.problems)}`);
    for (const name of ['shop.events_by_day', 'shop.carts']) {
      const expected = figures(table(all[0]!, name));
      for (const f of all.slice(1)) assert.deepEqual(figures(table(f, name)), expected, `${f.origin.name} ${name}`);
    }
    assert.deepEqual(
      all.map((f) => f.origin.variant),
      [
        'text (Cassandra 3.x/4.x)',
        'text (Cassandra 5.x, ScyllaDB)',
        'text (Cassandra 5.x, ScyllaDB)',
        'JSON (-F json)',
        'YAML (-F yaml)',
      ],
    );
    assert.equal(all[3]!.origin.node, '10.0.0.4', 'the JSON file names its node on the command line');
    assert.equal(all[4]!.origin.node, '10.0.0.5', 'the YAML file in a # node: line');
    // Each cited line holds the figure it was read from.
    const json = table(all[3]!, 'shop.events_by_day');
    assert.match(
      lineOf('tablestats.json', json.partitionBytes!.max!.line),
      /"compacted_partition_maximum_bytes" : 1386179893/,
    );
    const yaml = table(all[4]!, 'shop.events_by_day');
    assert.match(
      lineOf('tablestats.yaml', yaml.partitionBytes!.max!.line),
      /compacted_partition_maximum_bytes: 1386179893/,
    );
  });

  test('5.x: the top partitions by size list, with human-readable sizes', async () => {
    const t = table(await read('tablestats-5x-human.txt'), 'shop.events_by_day');
    assert.deepEqual(
      t.largePartitions?.map((p) => [p.key, p.bytes]),
      [
        ['2026-11-19:eu-west', Math.round(1.29 * 1024 ** 3)],
        ['2026-11-19:us-east', Math.round(844.5 * 1024 ** 2)],
        ['2026-11-18:eu-west', 612 * 1024 ** 2],
      ],
    );
  });

  test('ScyllaDB: its layout, NaN latencies are no figure and no problem', async () => {
    const f = await read('tablestats-scylla.txt');
    assert.equal(f.problemCount, 0, JSON.stringify(f.problems));
    const t = table(f, 'shop.events_by_day');
    assert.equal(t.partitionBytes?.max?.value, 89970660);
    assert.equal(t.localReadLatencyMs, undefined);
    assert.equal(t.localWriteLatencyMs?.value, 0.014);
  });

  test("index tables are not taken for the user's tables", async () => {
    const text =
      'Keyspace : shop\n\t\tTable (index): carts.carts_by_item\n\t\tCompacted partition maximum bytes: 999\n\t\tTable: carts\n\t\tCompacted partition maximum bytes: 42\n';
    const f = await readEvidence([text], { file: 'x' });
    assert.deepEqual(
      f.tables.map((t) => [t.table, t.partitionBytes?.max?.value]),
      [['shop.carts', 42]],
    );
  });

  test('a truncated JSON keeps what came before the cut and says the document ends early', async () => {
    const full = fixture('tablestats.json');
    const cut = full.slice(0, full.indexOf('"events_by_day"') + 200);
    const f = await readEvidence([cut], { file: 'cut.json' });
    assert.equal(table(f, 'shop.carts').partitionBytes?.max?.value, 4768);
    assert.ok(
      f.problems.some((p) => /ends early/.test(p.reason)),
      JSON.stringify(f.problems),
    );
  });

  test('a truncated text file keeps what it read up to the cut, the cut line as it stands', async () => {
    const full = fixture('tablestats-4x.txt');
    const cut = full.slice(
      0,
      full.indexOf('Compacted partition maximum bytes: 1386') + 'Compacted partition maximum bytes: 13'.length,
    );
    const f = await readEvidence([cut], { file: 'cut.txt' });
    assert.equal(
      table(f, 'shop.events_by_day').partitionBytes?.max?.value,
      13,
      'the last, cut line is read as it stands',
    );
    assert.equal(table(f, 'shop.events_by_day').partitionBytes?.mean, undefined);
  });
});

describe('nodetool tablehistograms', () => {
  test('4.x/5.x column order: partition size and cell count percentiles', async () => {
    const f = await read('tablehistograms-4x.txt');
    assert.equal(f.problemCount, 0, JSON.stringify(f.problems));
    const h = table(f, 'shop.events_by_day').histogram!;
    assert.deepEqual(Object.fromEntries(Object.entries(h.partitionBytes).map(([k, v]) => [k, v!.value])), {
      p50: 4866323,
      p75: 17436917,
      p95: 464228842,
      p98: 802187438,
      p99: 962624926,
      min: 1916,
      max: 1386179893,
    });
    assert.equal(h.cellCount.max?.value, 5839588);
    assert.match(lineOf('tablehistograms-4x.txt', h.partitionBytes.p99!.line), /^99%\s/);
  });

  test('3.x column order (SSTables first) is read by its header, and a table with no SSTables gives no figures', async () => {
    const f = await read('tablehistograms-3x.txt');
    assert.equal(f.problemCount, 0, JSON.stringify(f.problems));
    const h = table(f, 'shop.carts').histogram!;
    assert.equal(h.partitionBytes.p99?.value, 3973);
    assert.equal(h.cellCount.max?.value, 42);
    assert.equal(h.partitionBytes.p50?.value, 1109, 'not the SSTables or latency column');
    assert.deepEqual(table(f, 'shop.empty_table').histogram, { partitionBytes: {}, cellCount: {} });
  });
});

describe('nodetool toppartitions', () => {
  test('Cassandra 3.x: both samplers with cardinality; the table and duration from the command line', async () => {
    const f = await read('toppartitions-3x.txt');
    assert.equal(f.origin.variant, 'Cassandra 3.x');
    const s = table(f, 'shop.events_by_day').samplers!;
    assert.deepEqual(
      s.map((x) => [x.kind, x.durationMs, x.cardinality, x.partitions.length]),
      [
        ['writes', 60000, 7, 5],
        ['reads', 60000, 2, 2],
      ],
    );
    assert.deepEqual(s[0]!.partitions[0], { key: '2026-11-20:eu-west', count: 58000, error: 0, line: 7 });
  });

  test('Cassandra 4.0+: the Frequency sections, tables from the rows, other sections skipped', async () => {
    const f = await read('toppartitions-4x.txt');
    assert.equal(f.origin.variant, 'Cassandra 4.0+');
    assert.equal(f.problemCount, 0, JSON.stringify(f.problems));
    assert.deepEqual(
      f.tables.map((t) => t.table),
      ['shop.carts'],
    );
    const s = table(f, 'shop.carts').samplers!;
    assert.deepEqual(
      s.map((x) => [x.kind, x.durationMs, x.partitions.length]),
      [
        ['reads', 30000, 2],
        ['writes', 30000, 10],
      ],
    );
    assert.equal(s[1]!.partitions[0]!.count, 2100);
    assert.equal(s[1]!.partitions[0]!.key, '3f0c2a4e-7d2b-4c6e-9a51-2b7f4c1d9e80');
  });

  test('ScyllaDB: every table at once, keys prefixed with (ks:table), duration from -d', async () => {
    const f = await read('toppartitions-scylla.txt');
    assert.equal(f.origin.variant, 'ScyllaDB');
    assert.equal(table(f, 'shop.events_by_day').samplers![0]!.partitions[0]!.key, '2026-11-20:eu-west');
    assert.equal(table(f, 'shop.events_by_day').samplers![0]!.durationMs, 10000);
    assert.equal(table(f, 'shop.carts').samplers![0]!.kind, 'reads');
  });

  test('3.x without its command line: each row says which table is missing', async () => {
    const text = fixture('toppartitions-3x.txt').split('\n').slice(2).join('\n');
    const f = await readEvidence([text], { file: 'top.txt' });
    assert.equal(f.tables.length, 0);
    assert.ok(f.problemCount >= 7 && /which table\?/.test(f.problems[0]!.reason), JSON.stringify(f.problems[0]));
    const named = await readEvidence([text], {
      file: 'top.txt',
      setting: { table: 'shop.events_by_day', durationSeconds: 60 },
    });
    assert.equal(named.problemCount, 0);
    assert.equal(table(named, 'shop.events_by_day').samplers![0]!.durationMs, 60000);
  });
});

describe('dsbulk count', () => {
  test('every mode under its title; the console lines skipped', async () => {
    const f = await read('dsbulk-count.txt');
    assert.equal(f.problemCount, 0, JSON.stringify(f.problems));
    const t = table(f, 'shop.events_by_day');
    assert.equal(t.totalRows?.value, 1200000);
    assert.deepEqual(
      t.hosts?.map((h) => h.host),
      ['10.0.0.3:9042', '10.0.0.4:9042', '10.0.0.5:9042'],
    );
    assert.deepEqual(
      t.ranges?.largest && [t.ranges.count, t.ranges.largest.rows, t.ranges.largest.percent],
      [3, 690000, 57.5],
    );
    assert.deepEqual(t.partitions?.map((p) => [p.key, p.rows, p.percent]).slice(0, 2), [
      ["'2026-11-19'|'eu-west'", 612000, 51],
      ["'2026-11-19'|'us-east'", 240000, 20],
    ]);
  });

  test('one mode without titles, a decimal comma', async () => {
    const f = await read('dsbulk-partitions.txt');
    assert.equal(f.problemCount, 0, JSON.stringify(f.problems));
    assert.deepEqual(
      table(f, 'shop.carts').partitions?.map((p) => p.rows),
      [42, 40, 38],
    );
  });
});

describe('system tables', () => {
  test('ScyllaDB large_partitions: one entry per partition (its largest SSTable), with the printed token', async () => {
    const f = await read('large-partitions.csv');
    assert.equal(f.origin.node, '10.0.0.6');
    const lp = table(f, 'shop.events_by_day').largePartitions!;
    assert.deepEqual(
      lp.map((p) => [p.bytes, p.rows, p.token]),
      [
        [1663415872, 1480000, '764583706155106984'],
        [1155149911, 1105000, '-1168605849565144953'],
      ],
    );
  });

  test('ScyllaDB large_rows and Cassandra size_estimates', async () => {
    const rows = await read('large-rows.csv');
    assert.deepEqual(
      table(rows, 'shop.carts').largeRows?.map((r) => [r.bytes, r.clustering]),
      [[12582912, '7']],
    );
    const est = await read('size-estimates.csv');
    const e = table(est, 'shop.events_by_day').sizeEstimates!;
    assert.equal(e.ranges, 3);
    assert.equal(e.partitions.value, 121 + 117 + 125);
    assert.equal(
      Math.round(e.meanPartitionBytes.value),
      Math.round((121 * 48539268 + 117 * 51200331 + 125 * 4866323) / 363),
    );
  });

  test('a header-less export is not recognised, with a message that says how to export', async () => {
    const body = fixture('large-partitions.csv').split('\n').slice(2).join('\n');
    await assert.rejects(
      readEvidence([body], { file: 'lp.csv' }),
      (e: Error) => e instanceof EvidenceReadError && /WITH HEADER = true/.test(e.message),
    );
  });
});

describe('garbage, streams and bounds', () => {
  test('any chunking and CRLF line ends give the same figures', async () => {
    const text = fixture('tablestats-4x.txt');
    const whole = await read('tablestats-4x.txt');
    const crlf = text.replace(/\n/g, '\r\n');
    const chars = await readEvidence(crlf.split(''), { file: 'x' });
    const sevens = await readEvidence(crlf.match(/[\s\S]{1,7}/g)!, { file: 'x' });
    assert.deepEqual(chars.tables, whole.tables);
    assert.deepEqual(sevens.tables, whole.tables);
  });

  test('text that is no known output is refused with the formats cqlint reads', async () => {
    await assert.rejects(
      readEvidence(['hello\nthis is a shopping list\n- eggs\n'], { file: 'x' }),
      /not a format cqlint reads \(expected nodetool tablestats/,
    );
    await assert.rejects(readEvidence([''], { file: 'x' }), /holds no output/);
    await assert.rejects(readEvidence(['# node: 10.0.0.1\n$ nodetool tablestats\n'], { file: 'x' }), /holds no output/);
  });

  test('garbage inside a known format is counted and listed, never fatal', async () => {
    const text = `${fixture('tablestats-4x.txt').slice(0, 400)}\n\u0007\u0001 garbage \uFFFD line\n${'x'.repeat(10)}\n${fixture('tablestats-4x.txt').slice(400)}`;
    const f = await readEvidence([text], { file: 'x' });
    assert.ok(f.problemCount >= 1);
    assert.equal(table(f, 'shop.events_by_day').partitionBytes?.max?.value, 1386179893);
  });

  test("a line over the bounded-input policy's record cap is skipped without being kept", async () => {
    const long = 'Compacted partition maximum bytes: ' + '9'.repeat(200_000);
    const chunks = [fixture('tablestats-4x.txt').replace('Compacted partition maximum bytes: 4768', long)];
    const f = await readEvidence(chunks, { file: 'x', recordLimits: { ...RECORD_LIMITS, maxRecordChars: 65_536 } });
    assert.ok(
      f.problems.some((p) => /^record longer than 65536 characters .*: skipped$/.test(p.reason)),
      JSON.stringify(f.problems),
    );
    assert.equal(table(f, 'shop.carts').partitionBytes?.max, undefined);
    assert.equal(table(f, 'shop.events_by_day').partitionBytes?.max?.value, 1386179893);
    // The default is the policy's RECORD_LIMITS: a file of one endless line, in chunks, is refused line by line.
    const endless = (function* (): Iterable<string> {
      yield 'Total number of tables: 1\nKeyspace : shop\n\t\tTable: carts\n\t\tLocal read count: ';
      for (let i = 0; i < 17; i++) yield '7'.repeat(1024 * 1024);
    })();
    const g = await readEvidence(endless, { file: 'y' });
    assert.equal(
      g.problems[0]?.reason,
      `record longer than ${RECORD_LIMITS.maxRecordChars} characters (an unclosed quote?): skipped`,
    );
    assert.equal(table(g, 'shop.carts').localReads, undefined);
  });

  test('binary and UTF-16 files are refused with the reason', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cqlint-evidence-'));
    writeFileSync(join(dir, 'bin'), Buffer.from([0x4b, 0x65, 0x79, 0x00, 0x01, 0x02]));
    writeFileSync(
      join(dir, 'utf16'),
      Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('Keyspace : shop\n', 'utf16le')]),
    );
    writeFileSync(join(dir, 'latin1'), Buffer.from('Keyspace : caf\xe9\n', 'latin1'));
    await assert.rejects(readEvidenceFile(join(dir, 'bin')), /binary/);
    await assert.rejects(readEvidenceFile(join(dir, 'utf16')), /UTF-16/);
    await assert.rejects(readEvidenceFile(join(dir, 'latin1')), /not valid UTF-8/);
    await assert.rejects(readEvidenceFile(join(dir, 'missing')), /no such file/);
    await assert.rejects(readEvidenceFile(dir), /not a regular file|directory/);
  });

  test('lists stay bounded: 10,000 partitions in, the largest 100 kept', async () => {
    const lines = ['$ dsbulk count -k shop -t carts --stats.modes partitions'];
    for (let i = 0; i < 10_000; i++) lines.push(`${String(i).padStart(5, '0')} ${i} 0.01`);
    const f = await readEvidence([lines.join('\n')], { file: 'x' });
    const p = table(f, 'shop.carts').partitions!;
    assert.equal(p.length, 100);
    assert.equal(p[0]!.rows, 9999);
    assert.equal(p[99]!.rows, 9900);
  });
});
