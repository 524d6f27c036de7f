// `cqlint lint --evidence PATH` and .cqlint.json `evidence` on the command line: the rules cite the
// measured figures; a missing or unreadable file fails the run (exit 2) with its reason; figures for
// tables the workspace does not define are a warning that names them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot, runCli, tempDir, type JsonResult } from '../cli/helpers';

const parseJson = (stdout: string): JsonResult[] => JSON.parse(stdout) as JsonResult[];
/** A finding's headline and details, as stylish shows them. */
const fullText = (m: JsonResult['messages'][number]): string =>
  `${m.message}\n\n${(m as { details?: string }).details ?? ''}`;

const FIXTURES = join(__dirname, '..', 'fixtures', 'evidence');
const fixture = (name: string): string => readFileSync(join(FIXTURES, name), 'utf8');
const SHOP = [
  'CREATE TABLE shop.events_by_day (day date, region text, ts timeuuid, payload text, PRIMARY KEY ((day, region), ts));',
  'CREATE TABLE shop.carts (cart_id uuid, item_id int, qty int, PRIMARY KEY (cart_id, item_id));',
].join('\n');

test('--evidence: large-partition cites the measured maximum with its node, date and line', async (t) => {
  const dir = tempDir({ 'shop.cql': SHOP, 'ops/node3.txt': fixture('tablestats-4x.txt') });
  t.after(() => dir.cleanup());
  const run = await runCli(['lint', '-f', 'json', '--evidence', 'ops/node3.txt', 'shop.cql'], { cwd: dir.dir });
  assert.equal(run.code, 0, run.stderr);
  assert.equal(run.stderr, '');
  const messages = parseJson(run.stdout)[0]!.messages.filter((m) => m.ruleId === 'large-partition');
  assert.equal(messages.length, 1);
  assert.match(
    messages[0]!.message,
    /^partitions of shop\.events_by_day are too large: the largest measured on the cluster holds 1\.3 GB$/,
  );
  assert.match(
    fullText(messages[0]!),
    /\n\nMeasured on the cluster: nodetool tablestats, node 10\.0\.0\.3, 2026-11-20: compacted partition maximum 1\.3 GB \(ops\/node3\.txt:77\)/,
  );
});

test('without the evidence the same schema has no large-partition finding (the evidence made it)', async (t) => {
  const dir = tempDir({ 'shop.cql': SHOP });
  t.after(() => dir.cleanup());
  const run = await runCli(['lint', '-f', 'json', 'shop.cql'], { cwd: dir.dir });
  assert.deepEqual(
    parseJson(run.stdout)[0]!.messages.filter((m) => m.ruleId === 'large-partition'),
    [],
  );
});

test('.cqlint.json evidence: a folder of several tools and nodes, combined; names relative to the config', async (t) => {
  const dir = tempDir({
    'shop.cql': SHOP,
    '.cqlint.json': JSON.stringify({
      evidence: ['captures', { path: 'extra/top.txt', table: 'shop.carts', duration: '30s', node: '10.0.0.9' }],
    }),
    'captures/a.txt': fixture('tablestats-scylla.txt'),
    'captures/b.txt': fixture('tablestats-4x.txt'),
    'captures/notes.md': 'not evidence: skipped by name',
    'extra/top.txt': [
      'WRITES Sampler:',
      '  Cardinality: ~12 (256 capacity)',
      '  Top 10 partitions:',
      '\tPartition                               Count       +/-',
      '\t3f0c2a4e-7d2b-4c6e-9a51-2b7f4c1d9e80    9000         0',
      '\t00000001-0000-4000-8000-000000000001     100         0',
      '',
    ].join('\n'),
  });
  t.after(() => dir.cleanup());
  const run = await runCli(['lint', '-f', 'json', '.'], { cwd: dir.dir });
  assert.equal(run.code, 0, run.stderr);
  const messages = parseJson(run.stdout)[0]!.messages;
  // The two nodes' maxima combine as the larger: node 10.0.0.3's 1.3 GB, not the ScyllaDB node's 86 MB.
  assert.match(
    fullText(messages.find((m) => m.ruleId === 'large-partition')!),
    /compacted partition maximum 1\.3 GB \(captures\/b\.txt:77\)/,
  );
  const hot = messages.find((m) => m.ruleId === 'hot-partition' && /shop\.carts/.test(m.message));
  assert.ok(hot, JSON.stringify(messages.map((m) => m.message)));
  // No capture date in the file or the config: the file's own date, said as such.
  assert.match(
    fullText(hot),
    /\(nodetool toppartitions, node 10\.0\.0\.9, file dated \d{4}-\d\d-\d\d: 9,000 writes in 30 s on partition 3f0c2a4e-7d2b-4c6e-9a51-2b7f4c1d9e80 \(extra\/top\.txt:5\)\)/,
  );
});

test('a missing evidence file, a garbage file and a folder are clear failures (exit 2); the rest still lints', async (t) => {
  const dir = tempDir({ 'shop.cql': SHOP, 'garbage.txt': 'lorem ipsum\ndolor sit amet\n', 'empty/.keep': '' });
  t.after(() => dir.cleanup());
  const run = await runCli(
    ['lint', '-f', 'json', '--evidence', 'nope.txt', '--evidence', 'garbage.txt', '--evidence', 'empty', 'shop.cql'],
    { cwd: dir.dir },
  );
  assert.equal(run.code, 2);
  assert.match(run.stderr, /^cqlint: evidence nope\.txt: no such file or directory$/m);
  assert.match(run.stderr, /^cqlint: evidence garbage\.txt: not a format cqlint reads \(expected nodetool tablestats/m);
  assert.match(run.stderr, /^cqlint: evidence empty: the folder holds no files$/m);
  assert.equal(parseJson(run.stdout).length, 1, 'the file is still linted');
});

test('figures for a table the workspace does not define: a warning naming it, the exit code unchanged', async (t) => {
  const dir = tempDir({
    'carts.cql': 'CREATE TABLE shop.carts (cart_id uuid, item_id int, qty int, PRIMARY KEY (cart_id, item_id));',
    'ts.txt': fixture('tablestats-4x.txt'),
  });
  t.after(() => dir.cleanup());
  const run = await runCli(['lint', '--evidence', 'ts.txt', 'carts.cql'], { cwd: dir.dir });
  assert.equal(run.code, 0, run.stderr);
  assert.equal(
    run.stderr,
    'cqlint: warning: evidence ts.txt: figures for a table the workspace does not define: shop.events_by_day\n',
  );
});

test('lines a file cannot read are a warning with their line numbers', async (t) => {
  const broken = fixture('tablestats-4x.txt').replace(
    'Compacted partition mean bytes: 1109',
    'Compacted partition mean bytes: lots',
  );
  const dir = tempDir({ 'shop.cql': SHOP, 'ts.txt': broken });
  t.after(() => dir.cleanup());
  const run = await runCli(['lint', '--evidence', 'ts.txt', 'shop.cql'], { cwd: dir.dir });
  assert.equal(run.code, 0, run.stderr);
  assert.match(
    run.stderr,
    /^cqlint: warning: evidence ts\.txt: 1 line not read \(line 41: Compacted partition mean bytes: "lots" is not a number\)$/m,
  );
});

test('--evidence needs a path; --help lists it', async () => {
  const empty = await runCli(['lint', '--evidence', '', 'x.cql']);
  assert.equal(empty.code, 2);
  assert.match(empty.stderr, /--evidence expects a file or folder/);
  const help = await runCli(['lint', '--help']);
  assert.match(help.stdout, /--evidence <path>/);
});

test('examples/evidence, the README walk-through: the captures make three findings the schema alone does not', async (t) => {
  const withEvidence = await runCli(['lint', '-f', 'json', 'examples/evidence'], { cwd: projectRoot });
  assert.equal(withEvidence.code, 0, withEvidence.stderr);
  const found = parseJson(withEvidence.stdout)[0]!.messages.map((m) => `${m.ruleId} ${m.line}`);
  assert.deepEqual(found, ['large-partition 5', 'hot-partition 10', 'hot-partition 18']);
  // Cassandra 4.0+ prints no count of the partitions sampled: the share is of those listed, and says so.
  assert.match(
    fullText(parseJson(withEvidence.stdout)[0]!.messages[2]!),
    /takes 96% of the writes of the 10 partitions listed \(nodetool toppartitions, node 10\.0\.0\.4, 2026-11-20: 18,400 writes in 30 s/,
  );
  const alone = await runCli(['lint', '-f', 'json', '--no-config', 'examples/evidence'], { cwd: projectRoot });
  assert.deepEqual(
    parseJson(alone.stdout)[0]!.messages.map((m) => `${m.ruleId} ${m.line}`),
    ['hot-partition 10'],
  );

  const dir = tempDir();
  t.after(() => dir.cleanup());
  const report = await runCli(['report', '--out', join(dir.dir, 'report.html'), 'examples/evidence'], {
    cwd: projectRoot,
  });
  assert.equal(report.code, 0, report.stderr);
  const html = readFileSync(join(dir.dir, 'report.html'), 'utf8');
  assert.equal((html.match(/data-figure="cluster"/g) ?? []).length, 2, 'a panel for each table');
  assert.match(html, /data-figure="cluster-key-fix"/);
});

test("evidence a .cqlint.json names outside its folder and the inputs' is refused; --evidence may be anywhere", async (t) => {
  const outside = tempDir({ 'node3.txt': fixture('tablestats-4x.txt') });
  t.after(() => outside.cleanup());
  const dir = tempDir({
    'shop.cql': SHOP,
    '.cqlint.json': JSON.stringify({ evidence: [join(outside.dir, 'node3.txt')] }),
  });
  t.after(() => dir.cleanup());
  const refused = await runCli(['lint', '-f', 'json', 'shop.cql'], { cwd: dir.dir });
  assert.equal(refused.code, 2);
  assert.match(
    refused.stderr,
    /evidence .*node3\.txt: the file \(or the link it goes through\) is outside the workspace/,
  );
  assert.deepEqual(
    parseJson(refused.stdout)[0]!.messages.filter((m) => m.ruleId === 'large-partition'),
    [],
  );
  const given = await runCli(
    ['lint', '-f', 'json', '--no-config', '--evidence', join(outside.dir, 'node3.txt'), 'shop.cql'],
    { cwd: dir.dir },
  );
  assert.equal(given.code, 0, given.stderr);
  assert.equal(parseJson(given.stdout)[0]!.messages.filter((m) => m.ruleId === 'large-partition').length, 1);
});

test('cqlint fix --evidence: the measured finding is the one fixed, sized from the figure lint cites', async (t) => {
  const dir = tempDir({ 'shop.cql': SHOP, 'ops/node3.txt': fixture('tablestats-4x.txt') });
  t.after(() => dir.cleanup());
  const without = await runCli(['fix', '--list', '--rule', 'large-partition', 'shop.cql'], { cwd: dir.dir });
  assert.equal(without.code, 0, without.stderr);
  assert.equal(without.stdout, 'No partition findings with fixes.\n');
  const listed = await runCli(
    ['fix', '--list', '--rule', 'large-partition', '--evidence', 'ops/node3.txt', 'shop.cql'],
    { cwd: dir.dir },
  );
  assert.equal(listed.code, 0, listed.stderr);
  assert.match(listed.stdout, /^shop\.cql:\d+:\d+  large-partition  shop\.events_by_day$/m);
  // The day bucket measured at 1.3 GB is a rate (its rows arrived within one day): the finer bucket and the
  // shards of each day are sized from it, and none cures the finding alone (the capture describes the
  // deployed table until it is captured again).
  assert.match(listed.stdout, /sizing: size: [\d.,]+ rows\/s \(measured\) × one day/);
  assert.match(
    listed.stdout,
    /bucket:minute\n\s+Add a time bucket minute timestamp \(minute-by-minute partitions by ts beside day\) \(leaves: the captures of the deployed table still show its 1\.3 GB partition until it is captured again\)/,
  );
});

test('cqlint report --evidence: the findings and the "On the cluster" panel use the figures', async (t) => {
  const dir = tempDir({ 'shop.cql': SHOP, 'ops/node3.txt': fixture('tablestats-4x.txt') });
  t.after(() => dir.cleanup());
  const run = await runCli(['report', '--evidence', 'ops/node3.txt', '-o', 'out.html', 'shop.cql'], { cwd: dir.dir });
  assert.equal(run.code, 0, run.stderr);
  const html = readFileSync(join(dir.dir, 'out.html'), 'utf8');
  assert.match(html, /On the cluster/);
  assert.match(html, /partitions of shop\.events_by_day are too large/);
  const plain = await runCli(['report', '-o', 'plain.html', 'shop.cql'], { cwd: dir.dir });
  assert.equal(plain.code, 0, plain.stderr);
  assert.doesNotMatch(
    readFileSync(join(dir.dir, 'plain.html'), 'utf8'),
    /partitions of shop\.events_by_day are too large/,
  );
  const missing = await runCli(['report', '--evidence', 'nope.txt', '-o', 'x.html', 'shop.cql'], { cwd: dir.dir });
  assert.equal(missing.code, 2);
  assert.match(missing.stderr, /evidence nope\.txt: no such file or directory/);
});
