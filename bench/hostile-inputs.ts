// Hostile inputs for every reader of untrusted text (the evidence formats, sample CSVs, rings, ignore
// files): for each reader a few lines that put it where it reads the line it is given (a table started,
// a list opened, a header read), then lines built to make a backtracking pattern or an unbounded path
// cost the square of their length: long runs of one character or two (spaces, slashes, colons, digits,
// quotes, brackets ...) between a lead and a tail that almost make the line valid, one long line or
// many short ones, and deep nesting. Generated at bench time (never committed); used by
// `npm run bench -- hostile` (bench/hostile.ts) and, at a small size, by test/evidence/hostile.test.ts,
// which checks that every reader ends with its limits reported, whatever the input.

/** A reader's name and where its input starts. */
export interface HostileReader {
  name: string;
  /** Lines that put the reader in the state it reads `body` in. */
  prefix: string;
  /** Lines after the body (a format that needs a closing). */
  suffix?: string;
}

/** The readers of evidence (server/core/evidence): every format and variant readEvidence recognises. */
export const EVIDENCE_READERS: readonly HostileReader[] = [
  { name: 'tablestats text', prefix: 'Total number of tables: 1\nKeyspace : ks\n\tTable: t\n' },
  {
    name: 'tablestats text, top partitions list',
    prefix: 'Keyspace: ks\n\tTable: t\n\tTop partitions by size (last update: 2024-01-01):\n\t\tKey Size\n',
  },
  { name: 'tablestats -F json', prefix: '{"ks": {"tables": {"t": {"x": ', suffix: '}}}}\n' },
  { name: 'tablestats -F yaml', prefix: 'total_number_of_tables: 1\nks:\n  tables:\n    t:\n      ' },
  {
    name: 'tablehistograms',
    prefix: 'ks/t histograms\nPercentile  Read Latency  Write Latency  SSTables  Partition Size  Cell Count\n',
  },
  {
    name: 'toppartitions 3.x',
    prefix:
      '$ nodetool toppartitions ks t 1000\nWRITES Sampler:\n  Cardinality: ~2 (256 capacity)\n  Top 10 partitions:\n\tPartition\tCount\t+/-\n',
  },
  { name: 'toppartitions 4.0+', prefix: 'Frequency of writes by partition:\n\tTable\tPartition\tCount\t+/-\n' },
  {
    name: 'toppartitions ScyllaDB',
    prefix: 'WRITES Sampler:\n  Cardinality: ~2 (256 capacity)\n  Top 10 partitions:\n\t(ks:t) k 1 0\n',
  },
  { name: 'dsbulk count', prefix: '$ dsbulk count -k ks -t t --stats.modes hosts,partitions\nTotal rows per node:\n' },
  {
    name: 'dsbulk count, partitions',
    prefix: '$ dsbulk count -k ks -t t --stats.modes partitions\nTotal rows per partition:\n',
  },
  {
    name: 'system.large_partitions CSV',
    prefix: 'keyspace_name,table_name,sstable_name,partition_size,partition_key,rows,compaction_time\n',
  },
  { name: 'capture header', prefix: '' },
];

/** Runs of these (alone, or after a lead and before a tail) make the lines. */
const UNITS = [
  ' ',
  '\t',
  'a',
  '1',
  '1 ',
  'a ',
  ' 1',
  '/',
  '.',
  ':',
  ': ',
  ' :',
  ',',
  ', ',
  '"',
  "'",
  "''",
  '\\',
  '\\"',
  '{',
  '[',
  '{"a":',
  '[1,',
  '(',
  '(a:',
  ') ',
  '|',
  ' | ',
  '#',
  '? ',
  '-',
  '%',
  '1.',
  'e',
  'k:1 ',
  '- ',
];
/** What comes before a run: nothing, a word, or the start of a shape a reader knows. */
const LEADS = ['', 'a', '(', '"', 'Table: ', '# node: ', '$ nodetool ', 'k: ', '50% '];
/** What ends a line: a character that makes it fail at the very end, or the rest of a shape. */
const TAILS = ['x', ' 1', ' 1 2', ':', ': 1', ' histograms', ') x', '"', ' ms', ' GiB'];

export interface HostileInput {
  /** How the input was made, for the report. */
  name: string;
  text: string;
}

function fill(unit: string, chars: number): string {
  return unit.repeat(Math.max(1, Math.floor(chars / unit.length)));
}

/**
 * The inputs for one reader, each about `size` characters: every unit as one line (after each lead and
 * before each tail), the same as many lines of about 100 characters, and the nested shapes.
 */
export function* hostileInputs(reader: HostileReader, size: number): Generator<HostileInput> {
  const wrap = (body: string): string => `${reader.prefix}${body}\n${reader.suffix ?? ''}`;
  for (const [u, unit] of UNITS.entries()) {
    // Each unit meets every lead (with the tails in turn) and every tail (with the leads in turn).
    const pairs = [
      ...LEADS.map((lead, l) => [lead, TAILS[(u + l) % TAILS.length]!]),
      ...TAILS.map((tail, t) => [LEADS[(u + t) % LEADS.length]!, tail]),
    ];
    for (const [lead, tail] of pairs) {
      yield {
        name: `one line: ${JSON.stringify(lead)} + ${JSON.stringify(unit)} x ${Math.floor(size / unit.length)} + ${JSON.stringify(tail)}`,
        text: wrap(`${lead}${fill(unit, size)}${tail}`),
      };
    }
    const line = `${fill(unit, 100)}x`;
    yield {
      name: `many lines of ${JSON.stringify(unit)} x ${Math.floor(100 / unit.length)}`,
      text: wrap(fill(`${line}\n`, size)),
    };
  }
  const half = Math.floor(size / 2);
  yield { name: `${half} [ then scalars`, text: wrap(`${fill('[', half)}${fill('1,', half)}`) };
  yield { name: `${Math.floor(half / 5)} {"a": then scalars`, text: wrap(`${fill('{"a":', half)}${fill('1,', half)}`) };
  yield { name: 'one mapping a line, each indented one more', text: wrap(indentedMappings(size)) };
  yield { name: 'a line of 100,000 key: value pairs', text: wrap(fill('k: 1 ', size)) };
  yield { name: 'distinct tables, one a line', text: wrap(distinctTables(size)) };
}

function indentedMappings(size: number): string {
  const lines: string[] = [];
  let length = 0;
  for (let depth = 0; length < size; depth++) {
    const line = `${' '.repeat(depth % 2000)}k${depth}:\n`;
    lines.push(line);
    length += line.length;
  }
  return `${lines.join('')}${' '.repeat(2001)}x: 1`;
}

function distinctTables(size: number): string {
  const lines: string[] = [];
  let length = 0;
  for (let i = 0; length < size; i++) {
    const line = `Table: ks.t${i}\n(ks:t${i}) k 1 0\nks/t${i} histograms\n`;
    lines.push(line);
    length += line.length;
  }
  return lines.join('');
}
