// `cqlint report`: writes one self-contained HTML file for every table of the inputs, index by severity;
// exit 0 whatever the report shows, 2 for unreadable inputs and usage errors.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { readFileSync, existsSync } from 'node:fs';
import { runCli, tempDir } from '../cli/helpers';

const HOT = 'CREATE TABLE ks.books (publish_date date, title text, author text, PRIMARY KEY (publish_date, title));\n';
const CLEAN = 'CREATE TABLE ks.users (id uuid PRIMARY KEY, name text);\n';
const BAD_QUERY = 'SELECT nope FROM ks.users WHERE id = ?;\n';

test('cqlint report writes the HTML with an index sorted by severity and exits 0 even with errors', async (t) => {
  const temp = tempDir({ 'a.cql': CLEAN + BAD_QUERY, 'b.cql': HOT });
  t.after(() => temp.cleanup());
  const run = await runCli(['report', '--out', 'out/report.html', '.'], { cwd: temp.dir });
  // The output folder does not exist: that is an I/O failure, exit 2 with the reason.
  assert.equal(run.code, 2);
  assert.match(run.stderr, /cannot write out\/report\.html/);
  const ok = await runCli(['report', '-o', 'report.html', temp.dir], { cwd: temp.dir });
  assert.equal(ok.code, 0, ok.stderr);
  assert.match(ok.stdout, /wrote report\.html \(2 tables\)/);
  const html = readFileSync(temp.path('report.html'), 'utf8');
  assert.match(html, /^<!DOCTYPE html>/);
  assert.doesNotMatch(html, /<script|https?:\/\/[^"]*\.(js|css)|<link /, 'nothing loaded from anywhere');
  const index = html.slice(html.indexOf('data-figure="index"'), html.indexOf('</nav>'));
  assert.ok(index.indexOf('ks.books') < index.indexOf('ks.users'), 'the table with a warning comes first (ks.users has none: the error is on a query)');
  assert.match(html, /data-table="ks\.books"/);
  assert.match(html, /data-table="ks\.users"/);
});

test('cqlint report --target changes the limits drawn', async (t) => {
  const temp = tempDir({ 'b.cql': HOT });
  t.after(() => temp.cleanup());
  const run = await runCli(['report', '--target', 'scylladb', '-o', 'r.html', 'b.cql'], { cwd: temp.dir });
  assert.equal(run.code, 0, run.stderr);
  const html = readFileSync(temp.path('r.html'), 'utf8');
  assert.match(html, /large-partition warning at 1000 MB/);
  assert.match(html, /target ScyllaDB/);
});

test('cqlint report: unreadable input and usage errors exit 2', async (t) => {
  const temp = tempDir({ 'b.cql': HOT });
  t.after(() => temp.cleanup());
  const missing = await runCli(['report', '-o', 'r.html', 'b.cql', 'missing.cql'], { cwd: temp.dir });
  assert.equal(missing.code, 2);
  assert.match(missing.stderr, /cannot read missing\.cql/);
  assert.ok(existsSync(temp.path('r.html')), 'the readable inputs are still reported');
  const usage = await runCli(['report'], { cwd: temp.dir });
  assert.equal(usage.code, 2);
  assert.match(usage.stderr, /no files or folders given/);
  const target = await runCli(['report', '--target', 'mongo', 'b.cql'], { cwd: temp.dir });
  assert.equal(target.code, 2);
  assert.match(target.stderr, /unknown target "mongo"/);
  const help = await runCli(['report', '--help']);
  assert.equal(help.code, 0);
  assert.match(help.stdout, /Usage: cqlint report/);
});

test('cqlint report reads the samples .cqlint.json names; an unreadable sample exits 2 and the report is still written', async (t) => {
  const csv = ['publish_date,title,author', '2020-07-09,"Hello, world",ann', '2020-07-09,Second,bob', '2020-07-10,Third,"x""y"', '2020-07-10,,oops', 'bad line'].join('\n');
  const temp = tempDir({
    'b.cql': HOT,
    'samples/books.csv': csv,
    '.cqlint.json': JSON.stringify({ samples: { 'ks.books': 'samples/books.csv' } }),
  });
  t.after(() => temp.cleanup());
  const run = await runCli(['report', '-o', 'r.html', 'b.cql'], { cwd: temp.dir });
  assert.equal(run.code, 0, run.stderr);
  const html = readFileSync(temp.path('r.html'), 'utf8');
  const sample = html.slice(html.indexOf('<h3>Sample'));
  assert.match(sample, /<strong data-figure="sample-partitions">2<\/strong> partitions/);
  assert.match(sample, /3 rows in/);
  assert.match(sample, /line 5: null in clustering column title/);
  assert.match(sample, /line 6: expected 3 fields/);
  // The preferred fix's shard, sized from the table's default rate (server/core/fixes/partition-plans.ts).
  assert.match(html, /Rows per shard for the shard the quick fix would add, <code>murmur3\(title\) % \d+ \+ 1<\/code>, over 3 rows of/);
  temp.write('.cqlint.json', JSON.stringify({ samples: { 'ks.books': 'samples/missing.csv' } }));
  const missing = await runCli(['report', '-o', 'r2.html', 'b.cql'], { cwd: temp.dir });
  assert.equal(missing.code, 2);
  assert.match(missing.stderr, /sample .*missing\.csv of ks\.books: .*no such file/i);
  assert.ok(existsSync(temp.path('r2.html')));
});

test('cqlint lint reads the configured samples before the rules run: large-partition cites the sample; a missing one exits 2', async (t) => {
  const schema = 'CREATE TABLE ks.events (host text, ts int, a int, b int, c int, d int, PRIMARY KEY (host, ts));\n';
  // 4 values a row: Cassandra's 100,000 values per partition at 25,000 rows; web1 has 25,001.
  const rows = ['host,ts,a,b,c,d', ...Array.from({ length: 25_001 }, (_, i) => `web1,${i},1,2,3,4`), 'web2,1,1,2,3,4'];
  const temp = tempDir({
    'schema.cql': schema,
    'samples/events.csv': rows.join('\n'),
    '.cqlint.json': JSON.stringify({ samples: { 'ks.events': 'samples/events.csv' } }),
  });
  t.after(() => temp.cleanup());
  const run = await runCli(['lint', '--format', 'json', 'schema.cql'], { cwd: temp.dir });
  assert.equal(run.code, 0, run.stderr);
  const [file] = JSON.parse(run.stdout) as { messages: { ruleId: string; message: string }[] }[];
  const large = file!.messages.filter((m) => m.ruleId === 'large-partition');
  assert.equal(large.length, 1, JSON.stringify(file!.messages));
  assert.match(large[0]!.message, /^ks\.events: from sample samples\/events\.csv: 2 partitions, largest 25,001 rows \/ [\d.]+ MB; the largest partition \(25,001 rows\) is past Apache Cassandra's 100,000 values per partition/);

  // The report shows the same figures as the diagnostic.
  const report = await runCli(['report', '-o', 'r.html', 'schema.cql'], { cwd: temp.dir });
  assert.equal(report.code, 0, report.stderr);
  const html = readFileSync(temp.path('r.html'), 'utf8');
  assert.match(html, /data-figure="sample-verdict" class="sev-warning">from sample samples\/events\.csv: 2 partitions, largest 25,001 rows \/ [\d.]+ MB/);
  assert.ok(html.includes(large[0]!.message.replace(/&/g, '&amp;').replace(/'/g, '&#39;').slice(0, 80)), 'the finding listed in the report is the diagnostic');

  temp.write('.cqlint.json', JSON.stringify({ samples: { 'ks.events': 'samples/nope.csv' } }));
  const missing = await runCli(['lint', 'schema.cql'], { cwd: temp.dir });
  assert.equal(missing.code, 2);
  assert.match(missing.stderr, /sample samples\/nope\.csv of ks\.events: no such file or directory/);
});
