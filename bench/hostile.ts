// Hostile inputs against the built language server (node bin/cqlint-language-server.js --stdio, with
// Node's default heap, as an editor runs it): no request and no file in the workspace may kill it or
// hold it for more than a few seconds. Each case runs in a fresh server on a workspace generated here
// (never committed): the time its hostile request (or the opening of its workspace) takes, then the time
// the server needs to answer an ordinary request after it, whether it is still alive, and its peak RSS.
// The worst time is printed at the end. Not a test: times depend on the machine (see README, Benchmarks).
// First, each reader of untrusted text on its worst input (bench/hostile-readers.ts).
//
//   npm run bench -- hostile
//   CQLINT_SERVER_JS=/path/to/other/dist/server.js npm run bench -- hostile    (another build, e.g. an old one)
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import {
  capabilities,
  projectRoot,
  startServerCommand,
  tempWorkspace,
  type LspTestClient,
  type TempWorkspace,
} from '../scripts/lsp-client';
import { runHostileReaders } from './hostile-readers';

/** Per step: long enough for an old build to finish or die. */
const STEP_TIMEOUT_MS = 300_000;

const SCHEMA = 'CREATE TABLE ks.kv (k text, c int, v text, PRIMARY KEY (k, c));\n';
const DENSE = `CREATE TABLE ks.t (id int PRIMARY KEY, a int);\nSELECT ${'a, '.repeat(1_000_000)}a FROM ks.t WHERE id = 1;\n`;

interface HostileCase {
  name: string;
  /** Files of the workspace folder (written before the server starts); large ones by `write`. */
  files?: Record<string, string>;
  write?: (ws: TempWorkspace) => void;
  /** No workspace folder (a single file opened). */
  noFolder?: boolean;
  initializationOptions?: Record<string, unknown>;
  /** Raw initialize params instead of the harness's. */
  rawInitialize?: (ws: TempWorkspace) => Record<string, unknown>;
  /** The hostile part, after initialize. */
  act?: (client: LspTestClient, ws: TempWorkspace) => Promise<unknown>;
  /**
   * The hostile part is long work the server does while it serves (reading a sample for a report, with
   * cancellable progress): the ordinary request is sent while it runs, and it does not count as a hold.
   */
  background?: boolean;
}

function frame(body: string): Buffer {
  return Buffer.concat([
    Buffer.from(`Content-Length: ${Buffer.byteLength(body)}\r\n\r\n`, 'ascii'),
    Buffer.from(body, 'utf8'),
  ]);
}

/** A sample CSV of ks.kv: a line of commas, one huge key cell and `keys` distinct keys, streamed to disk. */
function writeHostileSample(file: string, keys: number, commas: number): void {
  const parts: string[] = [`${','.repeat(commas)}\n`, `${'k'.repeat(13_000_000)},1,v\n`];
  for (let i = 0; i < keys; i++) parts.push(`key-${i},1,value\n`);
  writeFileSync(file, parts.join(''));
}

const cases: HostileCase[] = [
  {
    name: 'open: a 3 MB statement behind a lone CR',
    act: (client) =>
      client
        .open('untitled:cr', `-- comment\r${DENSE.replace(/\n/g, '\r')}`)
        .then(() => client.pullDiagnostics('untitled:cr')),
  },
  {
    name: 'workspace: a closed file of one 1.9 MB statement',
    files: { 'dense.cql': `${DENSE.slice(0, 1_900_000)} FROM ks.t;\n`, 'ok.cql': SCHEMA },
  },
  {
    name: 'workspace: a hostile sample (90 MB of commas, a 13 MB key, 2 M keys)',
    files: { 'schema.cql': SCHEMA, '.cqlint.json': JSON.stringify({ samples: { 'ks.kv': 'kv.csv' } }) },
    write: (ws) => writeHostileSample(ws.path('kv.csv'), 2_000_000, 90_000_000),
    act: (client, ws) =>
      client.request('cqlint/partitionReport', { textDocument: { uri: ws.uri('schema.cql') }, table: 'ks.kv' }),
    background: true,
  },
  {
    // Issue 40: 160 KB of this held the server 50 s at workspace open (each scalar rebuilt the path).
    name: 'workspace: a 1 MB nodetool -F json evidence file, 500,000 levels deep',
    files: {
      'schema.cql': SCHEMA,
      '.cqlint.json': JSON.stringify({ evidence: ['stats.json'] }),
      'stats.json': `{"ks": {"tables": {"kv": {"x": ${'['.repeat(500_000)}${'1,'.repeat(250_000)}\n`,
    },
    act: (client, ws) =>
      client.open(ws.uri('schema.cql'), SCHEMA).then(() => client.pullDiagnostics(ws.uri('schema.cql'))),
  },
  {
    name: 'Restricted Mode: the same sample is not read',
    files: { 'schema.cql': SCHEMA, '.cqlint.json': JSON.stringify({ samples: { 'ks.kv': 'kv.csv' } }) },
    write: (ws) => writeHostileSample(ws.path('kv.csv'), 2_000_000, 90_000_000),
    initializationOptions: { workspaceTrusted: false },
    act: (client, ws) =>
      client.request('cqlint/partitionReport', { textDocument: { uri: ws.uri('schema.cql') }, table: 'ks.kv' }),
  },
  {
    name: 'shard counts of 2^31 - 1 and 1,000,000: lint, hover, report',
    act: async (client) => {
      const text =
        '-- @shard shard = murmur3(title) % 2147483647 + 1\nCREATE TABLE ks.b (d date, shard int, title text, PRIMARY KEY ((d, shard), title));\n' +
        "SELECT * FROM ks.b WHERE d = '2020-01-01';\nINSERT INTO ks.b (d, title) VALUES ('2020-01-01', 'x');\n" +
        '-- @shard shard = random(1000000)\nCREATE TABLE ks.r (d date, shard int, title text, PRIMARY KEY ((d, shard), title));\n' +
        '-- @shard shard = codepoints(title) % 100000000 + 1\nCREATE TABLE ks.c (d date, shard int, title text, PRIMARY KEY ((d, shard), title));\n';
      await client.open('untitled:shards', text);
      await client.pullDiagnostics('untitled:shards');
      await client.request('textDocument/hover', {
        textDocument: { uri: 'untitled:shards' },
        position: { line: 3, character: 55 },
      });
      for (const table of ['ks.b', 'ks.r', 'ks.c'])
        await client.request('cqlint/partitionReport', { textDocument: { uri: 'untitled:shards' }, table });
    },
  },
  {
    name: 'protocol: bodies that are not JSON, $/cancelRequest without an id',
    act: async (client) => {
      client.process.stdin.write(
        Buffer.concat([
          frame('{"jsonrpc": "2.0", "id": 1, '),
          frame('null'),
          frame('{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":null}}'),
          frame('{"jsonrpc":"2.0","method":"$/cancelRequest"}'),
        ]),
      );
    },
  },
  {
    name: 'initialize with workspaceFolders [null]',
    rawInitialize: () => ({
      processId: process.pid,
      rootUri: null,
      workspaceFolders: [null],
      capabilities: capabilities.pull,
    }),
  },
  {
    name: 'cqlint/sampleConfigEdit on a .cqlint.json nested 400,000 deep',
    files: { 'schema.cql': SCHEMA, '.cqlint.json': `{"x": ${'['.repeat(400_000)}}` },
    act: (client, ws) =>
      client.request('cqlint/sampleConfigEdit', {
        textDocument: { uri: ws.uri('schema.cql') },
        table: 'ks.kv',
        file: ws.path('kv.csv'),
      }),
  },
  {
    name: 'a .cqlint.json linked outside, samples named outside, no workspace folder',
    noFolder: true,
    files: {
      'proj/schema.cql': SCHEMA,
      'proj/.cqlint.json': JSON.stringify({ samples: { 'ks.kv': '/etc/passwd' }, ring: '/etc/passwd' }),
      'other/q.cql': SCHEMA,
    },
    write: (ws) => symlinkSync('/etc/passwd', ws.path('other/.cqlint.json')),
    act: async (client, ws) => {
      for (const file of ['proj/schema.cql', 'other/q.cql']) {
        await client.open(ws.uri(file), SCHEMA);
        await client.request('cqlint/partitionReport', { textDocument: { uri: ws.uri(file) }, table: 'ks.kv' });
      }
    },
  },
];

function peakRssMb(pid: number | undefined): number | undefined {
  try {
    const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Math.round(Number(match[1]) / 1024) : undefined;
  } catch {
    return undefined;
  }
}

/** Seconds `work` took, or why it did not end. */
async function seconds(work: () => Promise<unknown>): Promise<{ seconds: number; error?: string }> {
  const started = performance.now();
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      work(),
      new Promise(
        (_, reject) =>
          (timer = setTimeout(() => reject(new Error(`no answer after ${STEP_TIMEOUT_MS / 1000} s`)), STEP_TIMEOUT_MS)),
      ),
    ]);
    return { seconds: (performance.now() - started) / 1000 };
  } catch (error) {
    return {
      seconds: (performance.now() - started) / 1000,
      error: error instanceof Error ? error.message : String(error),
    };
  } finally {
    clearTimeout(timer);
  }
}

/** An ordinary request after the hostile part: a syntax error reported in a new document. */
async function probe(client: LspTestClient): Promise<void> {
  await client.open('untitled:probe', 'CREATE TABLE ks.alive (id uuid PRIMARY KEY, v text;\n');
  const report = (await client.pullDiagnostics('untitled:probe')) as { items: { code?: unknown }[] };
  if (!report.items.some((d) => d.code === 'syntax-error')) throw new Error('the probe got no syntax error');
}

async function runCase(serverJs: string, hostile: HostileCase): Promise<number> {
  const ws = tempWorkspace(hostile.files ?? {}, 'cqlint-hostile-');
  const client = startServerCommand(process.execPath, [serverJs, '--stdio']);
  try {
    hostile.write?.(ws);
    const init = await seconds(async () => {
      if (hostile.rawInitialize) {
        await client.request('initialize', hostile.rawInitialize(ws));
        await client.notify('initialized', {});
      } else {
        await client.initialize(capabilities.pull, {
          workspaceFolders: hostile.noFolder ? [] : [ws.dir],
          initializationOptions: { indexStatus: true, ...hostile.initializationOptions },
        });
      }
    });
    const acting = seconds(async () => hostile.act?.(client, ws));
    // In the background case the ordinary request goes while the hostile work runs.
    const act = hostile.background ? undefined : await acting;
    const after = client.alive ? await seconds(() => probe(client)) : { seconds: 0, error: 'not run' };
    const background = hostile.background ? await acting : undefined;
    const done = act ?? background!;
    const alive = client.alive;
    const exit = client.process.exitCode ?? client.process.signalCode;
    const rss = peakRssMb(client.process.pid);
    const worst = Math.max(init.seconds, act?.seconds ?? 0, after.seconds);
    const problems = [
      init.error && `initialize: ${init.error}`,
      done.error && `request: ${done.error}`,
      after.error && `then: ${after.error}`,
      !alive && `the server died (${exit})`,
    ].filter(Boolean);
    const part = background
      ? `background work ${background.seconds.toFixed(2)} s (the next request was sent during it)`
      : `hostile part ${done.seconds.toFixed(2)} s`;
    console.log(
      `${hostile.name}\n  initialize ${init.seconds.toFixed(2)} s, ${part}, next request ${after.seconds.toFixed(2)} s; ` +
        `${alive ? 'alive' : 'DEAD'}, peak RSS ${rss ?? '?'} MB${problems.length ? `\n  ${problems.join('; ')}` : ''}`,
    );
    return alive && !problems.length ? worst : Number.POSITIVE_INFINITY;
  } finally {
    if (client.alive) await client.shutdown().catch(() => undefined);
    ws.cleanup();
  }
}

export async function runHostileBench(): Promise<void> {
  await runHostileReaders();
  const serverJs = process.env.CQLINT_SERVER_JS ?? path.join(projectRoot, 'bin', 'cqlint-language-server.js');
  if (!process.env.CQLINT_SERVER_JS && !existsSync(path.join(projectRoot, 'dist', 'server.js'))) {
    const build = spawnSync(process.execPath, ['scripts/build.mjs'], { cwd: projectRoot, encoding: 'utf8' });
    if (build.status !== 0) throw new Error(`npm run build failed:\n${build.stderr}`);
  }
  console.log(`server: ${serverJs} (default heap)`);
  let worst = 0;
  let worstCase = '';
  for (const hostile of cases) {
    const time = await runCase(serverJs, hostile);
    if (time > worst) {
      worst = time;
      worstCase = hostile.name;
    }
  }
  console.log(
    `worst hold: ${Number.isFinite(worst) ? `${worst.toFixed(2)} s` : 'a case failed (the server died or did not answer)'} (${worstCase})`,
  );
}

if (require.main === module) {
  runHostileBench().catch((error) => {
    console.error(error);
    process.exitCode = 1;
  });
}
