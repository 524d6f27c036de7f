// Evidence a hostile repository can hold: lines built to make a reader's patterns backtrack (a run of
// spaces, slashes or digits between a word and the end of the line), nesting a megabyte deep, and the
// generated inputs of bench/hostile-inputs.ts for every format. Each reader ends, keeps what it read
// before, and says which limit it reached with the line. The large cases took the old readers minutes
// (50 s for 160 KB of nodetool JSON): a test that hangs is what they catch, nothing here is timed
// (`npm run bench -- hostile` prints the times).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { EvidenceReadError, readEvidence, type EvidenceFile } from '../../server/core/evidence';
import { EvidenceCache } from '../../server/core/evidence/files';
import { parseRing } from '../../server/core/token/ring';
import { EVIDENCE_READERS, hostileInputs } from '../../bench/hostile-inputs';
import { tempWorkspace } from '../../scripts/temp-workspace';

const FIXTURES = join(__dirname, '..', 'fixtures', 'evidence');
const fixture = (name: string): string => readFileSync(join(FIXTURES, name), 'utf8');
/** Long enough for a slow shared machine; a quadratic reader takes many times this on these inputs. */
const HANG = { timeout: 120_000 };
const LONG = 256 * 1024;

async function read(text: string): Promise<EvidenceFile> {
  return readEvidence([text], { file: 'x' });
}

describe('evidence readers on hostile input', () => {
  test(
    'nodetool -F json nested deeper than nodetool nests: the limit is said with its line, what came before is kept',
    HANG,
    async () => {
      // The file: 160 KB, each scalar rebuilding the path of open arrays (depth x scalars).
      const json = fixture('tablestats.json');
      const cut = json.indexOf('"tables" : {');
      const deep = `${json.slice(0, cut)}"x" : ${'['.repeat(40_000)}${'1,'.repeat(40_000)}\n${json.slice(cut)}`;
      const f = await read(deep);
      const limit = f.problems[0]!;
      assert.match(limit.reason, /^nested deeper than 64 levels .*: the rest of the document is not read$/);
      assert.equal(limit.limit, true);
      assert.equal(deep.split('\n')[limit.line - 1]!.startsWith('    "x" : [[['), true, `line ${limit.line}`);
      assert.equal(f.origin.tool, 'nodetool tablestats');
    },
  );

  test(
    'nodetool -F yaml indented deeper than 64 mappings: that mapping is skipped, the rest is read',
    HANG,
    async () => {
      const yaml = fixture('tablestats.yaml');
      const cut = yaml.indexOf('  tables:');
      const deep = Array.from({ length: 5_000 }, (_, i) => `${'  '.repeat(i + 1)}k${i}:\n`).join('');
      const f = await read(`${yaml.slice(0, cut)}${deep}${yaml.slice(cut)}`);
      assert.equal(f.problems.filter((p) => p.limit).length, 1, JSON.stringify(f.problems.slice(0, 3)));
      assert.match(f.problems[0]!.reason, /^nested deeper than 64 levels .*: this mapping is not read$/);
      const expected = await read(yaml);
      const withoutLines = (file: EvidenceFile): string =>
        JSON.stringify(file.tables, (key, value: unknown) => (key === 'line' ? undefined : value));
      assert.equal(withoutLines(f), withoutLines(expected), 'the tables after the deep mapping are read as without it');
    },
  );

  // One case per pattern the old readers ran in quadratic time (or worse): each line nearly matches.
  const quadratic: [string, string][] = [
    [
      'tablestats text: label, a run of spaces, no colon',
      `Total number of tables: 1\nKeyspace : ks\n\tTable: t\nLocal read count${' '.repeat(LONG)}x\n`,
    ],
    [
      'tablestats text: a value ending in a run of spaces',
      `Keyspace : ks\n\tTable: t\nLocal read count: 1${' '.repeat(LONG)}x\n`,
    ],
    [
      'tablestats text: a top-partitions row without a size',
      `Keyspace: ks\n\tTable: t\n\tTop partitions by size (last update: x):\n\t\tKey Size\n\t\tk${' '.repeat(LONG)}x\n`,
    ],
    ['tablestats -F yaml: a key, a run of spaces, no colon', `total_number_of_tables: 1\nk${' '.repeat(LONG)}x\n`],
    ['tablehistograms: a title of slashes', `ks/t histograms\n${'/'.repeat(LONG)}\n`],
    [
      'toppartitions 3.x: a row without its counts',
      `$ nodetool toppartitions ks t 1000\nWRITES Sampler:\n\tk${' 1'.repeat(LONG / 2)}x\n`,
    ],
    [
      'toppartitions 4.0: a row without its counts',
      `Frequency of writes by partition:\n\tks.t k${' '.repeat(LONG)}1 x\n`,
    ],
    [
      'toppartitions ScyllaDB: colons in the table prefix',
      `WRITES Sampler:\n\t(${':'.repeat(LONG)} 1 0\n\t(ks:t) k 1 0\n`,
    ],
    [
      'dsbulk: a host of dots',
      `$ dsbulk count -k ks -t t --stats.modes hosts,partitions\n${'.'.repeat(LONG)}! 1 1.00\n`,
    ],
    ['tablestats detection: a sorted table name of dots', `Table: ${'.'.repeat(LONG)} x\n`],
  ];
  for (const [name, text] of quadratic) {
    test(`${name}: read to the end`, HANG, async () => {
      const f = await read(text).catch((error: unknown) => {
        assert.ok(error instanceof EvidenceReadError, String(error));
        return undefined;
      });
      if (f) assert.equal(f.lines, text.split('\n').length - 1, 'every line was read');
    });
  }

  test('nodetool describering: a megabyte of unclosed ranges is refused with the reason', HANG, () => {
    assert.throws(
      () => parseRing('TokenRange(start_token:1, end_token:2, endpoints:['.repeat(20_000)),
      /no TokenRange\(\.\.\.\) lines found/,
    );
    const ring = parseRing(
      `TokenRange(start_token:1, end_token:2, endpoints:[10.0.0.1], endpoint_details:[${'EndpointDetails(host:'.repeat(40_000)}EndpointDetails(host:10.0.0.1, datacenter:dc2, rack:r7)])\n`,
    );
    assert.deepEqual(
      ring.nodes.map((n) => [n.address, n.dc, n.rack]),
      [['10.0.0.1', 'dc2', 'r7']],
    );
  });

  test(
    'every generated hostile input of every format: read to the end or refused as not evidence, never a crash',
    HANG,
    async () => {
      for (const reader of EVIDENCE_READERS) {
        for (const input of hostileInputs(reader, 2048)) {
          try {
            const f = await read(input.text);
            assert.ok(f.problems.length <= 50, `${reader.name}, ${input.name}: ${f.problems.length} problems kept`);
          } catch (error) {
            assert.ok(error instanceof EvidenceReadError, `${reader.name}, ${input.name}: ${String(error)}`);
          }
        }
      }
    },
  );

  test('the message of a file that reached a limit names the file, the line and the limit first', HANG, async () => {
    const ws = tempWorkspace(
      {
        'evidence/stats.json': `${'\n'.repeat(3)}{"ks": {"bad": ${'x\n'.repeat(60)}"deep": ${'['.repeat(100)}\n`,
      },
      'cqlint-evidence-',
    );
    try {
      const result = await new EvidenceCache().read([
        { path: ws.path('evidence/stats.json'), name: 'evidence/stats.json' },
      ]);
      assert.equal(result.warnings.length, 1, JSON.stringify(result));
      assert.match(
        result.warnings[0]!,
        /^evidence evidence\/stats\.json: \d+ lines not read \(line 64: nested deeper than 64 levels/,
      );
    } finally {
      ws.cleanup();
    }
  });
});
