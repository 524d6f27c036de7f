// The readers of untrusted text (evidence, samples, rings, ignore files, the cluster's yaml, application
// code) on their hostile inputs (bench/hostile-inputs.ts): every input of each
// reader is timed at 64 KiB (a reader that backtracks or rebuilds a path shows it there already), then
// the five slowest again at 1 MiB, and the worst of those is printed with its time: under a second each
// is the aim (docs/performance.md). Part of `npm run bench -- hostile`.
import { performance } from 'node:perf_hooks';
import { readEvidence } from '../server/core/evidence/read';
import { readSample } from '../server/core/report/sample';
import { Project } from '../server/core/engine/project';
import { parseRing } from '../server/core/token/ring';
import { ignoreFileSource, ignoredBy } from '../server/core/config/ignore';
import { readClusterYaml } from '../server/core/cluster/yaml';
import { loadHostLanguages, readEmbedded, type HostLanguage } from '../server/core/embedded';
import { EVIDENCE_READERS, hostileInputs, type HostileInput, type HostileReader } from './hostile-inputs';

const SCAN_CHARS = 64 * 1024;
const MEASURE_CHARS = 1024 * 1024;
const RECHECKED = 5;

interface TimedReader extends HostileReader {
  /** Reads the text (a refusal of the whole input is an answer too). */
  read(text: string): Promise<unknown> | unknown;
}

function sampleReader(): TimedReader {
  const project = new Project({ config: {} });
  project.setFile('/bench/schema.cql', 'CREATE TABLE ks.kv (k text, c int, v text, PRIMARY KEY (k, c));\n');
  const table = project.tableFor('/bench/schema.cql', 'ks.kv')!;
  return {
    name: 'sample CSV (cqlsh COPY)',
    prefix: 'k,c,v\nkey,1,value\n',
    read: (text) => readSample([text], table, project.schema(), { file: 'kv.csv' }),
  };
}

/**
 * Application code: the hostile run inside a string literal that reaches a driver call (where the reader
 * reads the most: the literal, its pieces, its CQL), the call closed after it.
 */
const HOST_READERS: readonly (HostileReader & { language: HostLanguage })[] = [
  {
    language: 'java',
    name: 'application code: Java',
    prefix:
      'import com.datastax.oss.driver.api.core.CqlSession;\nclass A { void f(CqlSession s) { s.execute("SELECT * FROM t WHERE k = ',
    suffix: '"); } }\n',
  },
  {
    language: 'kotlin',
    name: 'application code: Kotlin',
    prefix:
      'import com.datastax.oss.driver.api.core.CqlSession\nfun f(s: CqlSession) { s.execute("SELECT * FROM t WHERE k = ',
    suffix: '") }\n',
  },
  {
    language: 'python',
    name: 'application code: Python',
    prefix: 'from cassandra.cluster import Cluster\nsession.execute("""SELECT * FROM t WHERE k = ',
    suffix: '""")\n',
  },
  {
    language: 'go',
    name: 'application code: Go',
    prefix:
      'package main\nimport "github.com/gocql/gocql"\nfunc f(s *gocql.Session) { s.Query(`SELECT * FROM t WHERE k = ',
    suffix: '`).Exec() }\n',
  },
  {
    language: 'javascript',
    name: 'application code: JavaScript',
    prefix: "const cassandra = require('cassandra-driver');\nclient.execute(`SELECT * FROM t WHERE k = ",
    suffix: '`);\n',
  },
  {
    language: 'typescript',
    name: 'application code: TypeScript',
    prefix: "import { Client } from 'cassandra-driver';\nclient.execute(`SELECT * FROM t WHERE k = ",
    suffix: '`);\n',
  },
  {
    language: 'tsx',
    name: 'application code: TSX',
    prefix: "import { Client } from 'cassandra-driver';\nclient.execute(`SELECT * FROM t WHERE k = ",
    suffix: '`);\n',
  },
  {
    language: 'csharp',
    name: 'application code: C#',
    prefix: 'using Cassandra;\nclass A { void F(ISession s) { s.Execute(@"SELECT * FROM t WHERE k = ',
    suffix: '"); } }\n',
  },
];

function readers(): TimedReader[] {
  const ignore = (text: string): void => {
    const source = ignoreFileSource(text, '/p/.cqlintignore');
    for (const entry of ['/p/a/b/c.cql', `/p/${'a/'.repeat(100)}x.cql`]) ignoredBy(entry, [source.source]);
  };
  return [
    ...EVIDENCE_READERS.map((reader): TimedReader => ({
      ...reader,
      read: (text) => readEvidence([text], { file: 'evidence.txt' }),
    })),
    sampleReader(),
    {
      name: 'ring: nodetool ring',
      prefix: 'Datacenter: dc1\n==========\nAddress    Rack   Status State   Load       Owns    Token\n',
      read: (text) => parseRing(text),
    },
    {
      name: 'ring: nodetool describering',
      prefix:
        'TokenRange(start_token:1, end_token:2, endpoints:[10.0.0.1], rpc_endpoints:[10.0.0.1], endpoint_details:[EndpointDetails(host:10.0.0.1, datacenter:dc1, rack:r1)])\n',
      read: (text) => parseRing(text),
    },
    { name: 'ring: JSON', prefix: '{"10.0.0.1": ', read: (text) => parseRing(text) },
    { name: '.cqlintignore', prefix: '# patterns\n', read: ignore },
    {
      name: 'cluster yaml (cassandra.yaml)',
      prefix: 'cluster_name: c\nguardrails:\n',
      read: (text) => readClusterYaml(text, '/p/cassandra.yaml'),
    },
    ...HOST_READERS.map((reader): TimedReader => ({ ...reader, read: (text) => readEmbedded(reader.language, text) })),
  ];
}

async function seconds(reader: TimedReader, input: HostileInput): Promise<number> {
  const started = performance.now();
  try {
    await reader.read(input.text);
  } catch {
    // refused: an answer like any other
  }
  return (performance.now() - started) / 1000;
}

/** Prints each reader's worst input at 1 MiB; returns the worst time of all. */
export async function runHostileReaders(): Promise<number> {
  console.log(
    `readers: every hostile input at ${SCAN_CHARS / 1024} KiB, the ${RECHECKED} slowest of each again at ${MEASURE_CHARS / (1024 * 1024)} MiB`,
  );
  let worstOfAll = 0;
  await loadHostLanguages(HOST_READERS.map((reader) => reader.language));
  for (const reader of readers()) {
    // The inputs come in the same order at every size: the slowest are known by their place.
    const scanned: { index: number; seconds: number }[] = [];
    for (const input of hostileInputs(reader, SCAN_CHARS))
      scanned.push({ index: scanned.length, seconds: await seconds(reader, input) });
    const slowest = new Set(
      scanned
        .sort((a, b) => b.seconds - a.seconds)
        .slice(0, RECHECKED)
        .map((s) => s.index),
    );
    let worst = { name: '', seconds: 0 };
    let index = 0;
    for (const input of hostileInputs(reader, MEASURE_CHARS)) {
      if (!slowest.has(index++)) continue;
      const time = await seconds(reader, input);
      if (time > worst.seconds) worst = { name: input.name, seconds: time };
    }
    worstOfAll = Math.max(worstOfAll, worst.seconds);
    console.log(
      `  ${reader.name}: ${worst.seconds.toFixed(3)} s for 1 MiB (${scanned.length} inputs; worst: ${worst.name.slice(0, 100)})`,
    );
  }
  console.log(`  worst reader time: ${worstOfAll.toFixed(3)} s`);
  return worstOfAll;
}
