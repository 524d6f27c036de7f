// The bounded-input policy (server/core/io/input-limits.ts): record caps as a streaming reader sees them,
// the key tally that keeps the largest keys exact in bounded memory, and the sample reader built on both.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { KeyTally, RECORD_LIMITS } from '../../server/core/io/input-limits';
import { CsvReader, type CsvField } from '../../server/core/io/csv';
import { readSample } from '../../server/core/report/sample';
import { Project } from '../../server/core/engine/project';

function readCsv(
  chunks: Iterable<string>,
  limits = RECORD_LIMITS,
): { records: { fields: string[]; line: number }[]; problems: { line: number; reason: string }[] } {
  const records: { fields: string[]; line: number }[] = [];
  const problems: { line: number; reason: string }[] = [];
  const reader = new CsvReader(
    (fields: CsvField[], line) => records.push({ fields: fields.map((f) => f.text), line }),
    (p) => problems.push(p),
    limits,
  );
  for (const chunk of chunks) reader.push(chunk);
  reader.end();
  return { records, problems };
}

/** `count` copies of `piece` in chunks of about a megabyte, never as one string. */
function* repeated(piece: string, count: number): Iterable<string> {
  const perChunk = Math.max(1, Math.floor((1 << 20) / piece.length));
  for (let done = 0; done < count; done += perChunk) yield piece.repeat(Math.min(perChunk, count - done));
}

describe('record caps', () => {
  test('every character of a record counts (unquoted ones too): a line of 20 M commas is one problem, the next line is read', () => {
    const result = readCsv([...repeated(',', 20_000_000), '\nok,1\n']);
    assert.deepEqual(result.problems, [{ line: 1, reason: `more than ${RECORD_LIMITS.maxFields} fields` }]);
    assert.deepEqual(result.records, [{ fields: ['ok', '1'], line: 2 }]);
  });

  test('an unquoted field, a quoted one and a record over their caps are skipped to the record end, with the line', () => {
    const limits = { maxRecordChars: 100, maxFields: 10, maxFieldChars: 20 };
    const result = readCsv(
      [
        'a,',
        'x'.repeat(21),
        '\n',
        '"',
        'y'.repeat(15),
        '""',
        'y'.repeat(8),
        '",1\n',
        'b,',
        'c,'.repeat(9),
        '\n',
        `${'z'.repeat(15)},`.repeat(7),
        '\nlast,2',
      ],
      limits,
    );
    assert.deepEqual(
      result.problems.map((p) => p.line),
      [1, 2, 3, 4],
    );
    assert.match(result.problems[0]!.reason, /a field longer than 20 characters/);
    assert.match(result.problems[1]!.reason, /a field longer than 20 characters/);
    assert.match(result.problems[2]!.reason, /more than 10 fields/);
    assert.match(result.problems[3]!.reason, /record longer than 100 characters/);
    assert.deepEqual(result.records, [{ fields: ['last', '2'], line: 5 }]);
  });
});

describe('KeyTally', () => {
  test('exact below the cap; past it the largest keys stay with exact counts and the rest is bounded', () => {
    const tally = new KeyTally<null>({ maxDistinctKeys: 1000, maxKeyChars: 1 << 20, maxKeyLength: 100 });
    // 20 heavy keys from the start, then 100,000 keys seen once, with the heavy ones recurring throughout.
    for (let i = 0; i < 100_000; i++) {
      tally.add(`heavy-${i % 20}`, () => null);
      tally.add(`once-${i}`, () => null);
    }
    assert.ok(tally.approximate);
    assert.ok(tally.size <= 1000);
    for (let h = 0; h < 20; h++) {
      const entry = [...tally.entries()].find((e) => e.key === `heavy-${h}`);
      assert.ok(entry, `heavy-${h} is kept`);
      assert.deepEqual([entry.count, entry.error], [5000, 0], 'and counted exactly');
    }
    // Each round of drops raises the bound a little (a dropped key may come back): still far below the heavy keys.
    assert.ok(tally.dropped() < 500, `a key left out occurred at most ${tally.dropped()} times`);
    const distinct = tally.distinct();
    assert.ok(Math.abs(distinct - 100_020) / 100_020 < 0.03, `distinct keys estimated: ${distinct}`);

    const exact = new KeyTally<number>();
    for (let i = 0; i < 500; i++) exact.add(`k${i % 50}`, () => i);
    assert.equal(exact.approximate, false);
    assert.equal(exact.distinct(), 50);
    assert.deepEqual([...exact.entries()].map((e) => [e.key, e.count, e.value]).slice(0, 2), [
      ['k0', 10, 0],
      ['k1', 10, 1],
    ]);
  });

  test('a key whose data cannot be made is not counted', () => {
    const tally = new KeyTally<number>();
    assert.throws(
      () =>
        tally.add('bad', () => {
          throw new Error('unreadable');
        }),
      /unreadable/,
    );
    assert.equal(tally.size, 0);
    assert.equal(tally.distinct(), 0);
  });
});

describe('samples in bounded memory', () => {
  const project = new Project({ config: {} });
  project.setFile('/v/s.cql', 'CREATE TABLE ks.kv (k text, c int, v text, PRIMARY KEY (k, c));');
  const table = project.tableFor('/v/s.cql', 'ks.kv')!;

  test('a key cell over 64 KiB is refused by line before its value is parsed; the other rows count', async () => {
    const summary = await readSample([`${'k'.repeat(5_000_000)},1,v\n`, 'a,1,x\na,2,y\n'], table, project.schema(), {
      file: 's.csv',
    });
    assert.equal(summary.malformedCount, 1);
    assert.match(
      summary.malformed[0]!.reason,
      /partition key column k holds 5000000 characters, over the 65535 a key may have/,
    );
    assert.deepEqual([summary.rows, summary.partitions], [2, 1]);
  });

  test('more partitions than the tally holds: the largest are exact, the count is an estimate and says so', async () => {
    const rows = function* (): Iterable<string> {
      for (let i = 0; i < 60_000; i++) yield `big,${i},x\nk${i},1,y\n`;
    };
    const summary = await readSample(rows(), table, project.schema(), {
      file: 's.csv',
      keyLimits: { maxDistinctKeys: 5000, maxKeyChars: 1 << 20, maxKeyLength: 65_535 },
    });
    assert.equal(summary.rows, 120_000);
    assert.deepEqual(summary.largest[0]!.key, ['big']);
    assert.equal(summary.largest[0]!.rows, 60_000, 'the largest partition is counted exactly');
    assert.equal(summary.rowsPerPartition.max, 60_000);
    assert.ok(
      summary.approximate && summary.approximate.tracked <= 5000 && summary.approximate.untrackedRowsAtMost < 100,
    );
    assert.ok(Math.abs(summary.partitions - 60_001) / 60_001 < 0.03, `about 60,001 partitions: ${summary.partitions}`);
  });
});
