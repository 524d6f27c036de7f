// `cqlint report`: writes one self-contained HTML file for every table of the inputs, index by severity;
// exit 0 whatever the report shows, 2 for unreadable inputs and usage errors.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { readFileSync, existsSync, statSync } from 'node:fs';
import { runCli, tempDir } from '../cli/helpers';

const HOT = 'CREATE TABLE ks.books (publish_date date, title text, author text, PRIMARY KEY (publish_date, title));\n';
const CLEAN = 'CREATE TABLE ks.users (id uuid PRIMARY KEY, name text);\n';
const BAD_QUERY = 'SELECT nope FROM ks.users WHERE id = ?;\n';

test('cqlint report writes the HTML with an index sorted by severity and exits 0 even with errors', async (t) => {
  const temp = tempDir({ 'a.cql': CLEAN + BAD_QUERY, 'b.cql': HOT });
  t.after(() => temp.cleanup());
  // The output folder does not exist yet: it is made (test/cli/robustness.test.ts: a file in the way is exit 2).
  const run = await runCli(['report', '--out', 'out/report.html', '.'], { cwd: temp.dir });
  assert.equal(run.code, 0, run.stderr);
  assert.ok(existsSync(temp.path('out/report.html')));
  const ok = await runCli(['report', '-o', 'report.html', temp.dir], { cwd: temp.dir });
  assert.equal(ok.code, 0, ok.stderr);
  assert.match(ok.stdout, /wrote report\.html \(2 tables\)/);
  const html = readFileSync(temp.path('report.html'), 'utf8');
  assert.match(html, /^<!DOCTYPE html>/);
  assert.doesNotMatch(html, /<script|https?:\/\/[^"]*\.(js|css)|<link /, 'nothing loaded from anywhere');
  const index = html.slice(html.indexOf('data-figure="index"'), html.indexOf('</nav>'));
  // One verdict: the error on a query of ks.users is ks.users' finding, so it comes before the warning of ks.books.
  assert.ok(index.indexOf('ks.users') < index.indexOf('ks.books'), 'the table whose query has an error comes first');
  assert.match(
    index,
    /ks\.users<\/a><\/td><td class="mono">a\.cql:1<\/td><td><span class="badge sev-error" data-severity="error" data-findings="1">1 finding \(1 on its queries\), error/,
  );
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
  const csv = [
    'publish_date,title,author',
    '2020-07-09,"Hello, world",ann',
    '2020-07-09,Second,bob',
    '2020-07-10,Third,"x""y"',
    '2020-07-10,,oops',
    'bad line',
  ].join('\n');
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
  assert.match(
    html,
    /Rows per shard for the shard the fix would add, <code>murmur3\(title\) % \d+ \+ 1<\/code>, over 3 rows of/,
  );
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
  assert.match(
    (large[0] as { details?: string }).details ?? '',
    /^Measured from sample samples\/events\.csv: 2 partitions, largest 25,001 rows \/ [\d.]+ MB; the largest partition \(25,001 rows\) is past Apache Cassandra's 100,000 values per partition/,
  );

  // The report shows the same figures as the diagnostic.
  const report = await runCli(['report', '-o', 'r.html', 'schema.cql'], { cwd: temp.dir });
  assert.equal(report.code, 0, report.stderr);
  const html = readFileSync(temp.path('r.html'), 'utf8');
  assert.match(
    html,
    /data-figure="sample-verdict" class="sev-warning">from sample samples\/events\.csv: 2 partitions, largest 25,001 rows \/ [\d.]+ MB/,
  );
  assert.ok(
    html.includes(large[0]!.message.replace(/&/g, '&amp;').replace(/'/g, '&#39;').slice(0, 80)),
    'the finding listed in the report is the diagnostic',
  );

  temp.write('.cqlint.json', JSON.stringify({ samples: { 'ks.events': 'samples/nope.csv' } }));
  const missing = await runCli(['lint', 'schema.cql'], { cwd: temp.dir });
  assert.equal(missing.code, 2);
  assert.match(missing.stderr, /sample samples\/nope\.csv of ks\.events: no such file or directory/);
});

test('cqlint report --diagram writes the keyspace diagrams as one standalone SVG; with --out, the HTML too', async (t) => {
  const temp = tempDir({ 'schema.cql': HOT + CLEAN, 'q.cql': 'SELECT * FROM ks.books WHERE publish_date = ?;\n' });
  t.after(() => temp.cleanup());
  const only = await runCli(['report', '--diagram', 'ks.svg', '.'], { cwd: temp.dir });
  assert.equal(only.code, 0, only.stderr);
  assert.equal(only.stdout, 'cqlint report: wrote ks.svg\n');
  assert.ok(!existsSync(temp.path('report.html')), '--diagram alone writes no HTML');
  const svg = readFileSync(temp.path('ks.svg'), 'utf8');
  assert.match(svg, /^<\?xml version="1\.0" encoding="UTF-8"\?>\n<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
  assert.match(svg, /<g class="kd-box sev-warning" data-table="ks\.books"/);
  assert.match(svg, /<g class="kd-box" data-table="ks\.users"/);
  assert.match(svg, /<text class="kd-query" [^>]*data-query="1">Q1<\/text>/);
  assert.doesNotMatch(svg, /<a href/, 'the export links nowhere');
  const both = await runCli(['report', '--diagram', 'ks.svg', '-o', 'r.html', '.'], { cwd: temp.dir });
  assert.equal(both.code, 0, both.stderr);
  assert.equal(both.stdout, 'cqlint report: wrote ks.svg and r.html (2 tables)\n');
  const html = readFileSync(temp.path('r.html'), 'utf8');
  assert.match(html, /<section class="keyspace" id="keyspace-ks-1" data-keyspace="ks"/);
  assert.match(
    html,
    /<a href="#table-ks-books" aria-label="table ks\.books: 1 finding, warning">/,
    'a box leads to its table',
  );
  const usage = await runCli(['report', '--diagram', '', '.'], { cwd: temp.dir });
  assert.equal(usage.code, 2);
  assert.match(usage.stderr, /--diagram expects a file name/);
});

test('cqlint report keeps the exit contract: a broken .cqlint.json exits 2 as lint does; no success line before a failure', async (t) => {
  const temp = tempDir({ 'b.cql': HOT, '.cqlint.json': '{ "target": "mongo" }' });
  t.after(() => temp.cleanup());
  const lint = await runCli(['lint', 'b.cql'], { cwd: temp.dir });
  const report = await runCli(['report', '-o', 'r.html', 'b.cql'], { cwd: temp.dir });
  assert.equal(lint.code, 2);
  assert.equal(report.code, 2, 'the same folder fails the same way');
  assert.match(report.stderr, /target/);
  assert.equal(report.stdout, '', 'nothing announced as written on stdout');
  assert.match(report.stderr, /cqlint report: wrote r\.html \(1 table\) with what could be read\n$/);
  assert.ok(report.stderr.indexOf('target') < report.stderr.indexOf('wrote'), 'the failure comes first');

  temp.write('.cqlint.json', '{}');
  const missing = await runCli(['report', '-o', 'r2.html', 'missing.cql'], { cwd: temp.dir });
  assert.equal(missing.code, 2);
  assert.equal(missing.stdout, '');
  assert.match(
    missing.stderr,
    /cannot read missing\.cql.*\ncqlint report: no report written: no input could be read\n$/s,
  );
  assert.ok(!existsSync(temp.path('r2.html')), 'no empty report for inputs that could not be read');
});

test('cqlint report over 100 tables: an index of keyspaces and a page per keyspace, each under the page size', async (t) => {
  const files: Record<string, string> = {};
  // 3 keyspaces: 120 tables (two pages), 30 and 5.
  for (const [ks, n] of [
    ['big', 120],
    ['mid', 30],
    ['small', 5],
  ] as const) {
    files[`${ks}.cql`] =
      Array.from(
        { length: n },
        (_, i) => `CREATE TABLE ${ks}.t${i} (id uuid, day date, ts timeuuid, v text, PRIMARY KEY ((id, day), ts));`,
      ).join('\n') +
      (ks === 'mid'
        ? '\nCREATE TABLE mid.by_status (status text, id uuid, PRIMARY KEY (status, id));\nSELECT * FROM mid.t1 WHERE id = ? AND day = ?;'
        : '');
  }
  const temp = tempDir(files);
  t.after(() => temp.cleanup());
  const run = await runCli(['report', '-o', 'out/report.html', '.'], { cwd: temp.dir });
  assert.equal(run.code, 2, 'the output folder must exist');
  assert.match(run.stderr, /cannot write out\/report\.html: .*no such file or directory/i);
  const ok = await runCli(['report', '-o', 'report.html', '.'], { cwd: temp.dir });
  assert.equal(ok.code, 0, ok.stderr);
  assert.equal(ok.stdout, 'cqlint report: wrote report.html and 4 pages in report-pages/ (156 tables)\n');
  const index = readFileSync(temp.path('report.html'), 'utf8');
  assert.match(index, /156 tables in 3 keyspaces/);
  assert.deepEqual(
    [...index.matchAll(/<tr><td>(\w+)<\/td><td class="num">(\d+)<\/td>/g)].map((m) => [m[1], Number(m[2])]),
    [
      ['big', 120],
      ['mid', 31],
      ['small', 5],
    ],
  );
  assert.match(
    index,
    /<a href="report-pages\/big-1\.html">part 1<\/a> <a href="report-pages\/big-2\.html">part 2<\/a>/,
  );
  // The index lists the most severe tables first, with links into the pages.
  assert.match(index, /<a href="report-pages\/mid\.html#table-mid-by_status">mid\.by_status<\/a>/);
  const big1 = readFileSync(temp.path('report-pages/big-1.html'), 'utf8');
  const big2 = readFileSync(temp.path('report-pages/big-2.html'), 'utf8');
  assert.equal(big1.match(/<section class="table-report"/g)?.length, 100);
  assert.equal(big2.match(/<section class="table-report"/g)?.length, 20);
  assert.match(big1, /<section class="keyspace"/, 'the keyspace view is on its first page');
  assert.doesNotMatch(big2, /<section class="keyspace"/);
  assert.match(big1, /<a href="\.\.\/report\.html">index of the report<\/a>/);
  // A box of the diagram whose table is on the second page links there.
  assert.match(big1, /<a href="big-2\.html#table-big-t119"/);
  for (const name of [
    'report.html',
    'report-pages/big-1.html',
    'report-pages/big-2.html',
    'report-pages/mid.html',
    'report-pages/small.html',
  ]) {
    assert.ok(statSync(temp.path(name)).size < 4 * 1024 * 1024, `${name} stays under 4 MiB`);
  }
});
