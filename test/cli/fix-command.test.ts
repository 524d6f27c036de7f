// `cqlint fix`: a partition refactoring from the command line, chosen by rule, table and fix id, with
// --list and --dry-run (a unified diff git apply takes), and a clear exit 2 for every bad choice.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { spawnSync } from 'node:child_process';
import { runCli, tempDir } from './helpers';

const WORKSPACE = join(__dirname, '..', 'fixes', 'workspaces', 'invoices-calculated');

function filesOf(dir: string, base = dir): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) Object.assign(out, filesOf(path, base));
    else out[relative(base, path)] = readFileSync(path, 'utf8');
  }
  return out;
}

const BEFORE = filesOf(join(WORKSPACE, 'before'));
const AFTER = filesOf(join(WORKSPACE, 'after'));

test('--list shows each partition finding with its fixes: ids, titles, the preferred one starred, what is left to the application', async (t) => {
  const temp = tempDir(BEFORE);
  t.after(() => temp.cleanup());
  const run = await runCli(['fix', '--list', '.'], { cwd: temp.dir });
  assert.equal(run.code, 0, run.stderr);
  assert.match(run.stdout, /^schema\/invoices\.cql:9:18  hot-partition  billing\.invoices_by_day\n/);
  assert.match(
    run.stdout,
    /\n  \* shard:invoice_no\n      Add a calculated shard column from invoice_no \(4 shards\); rewrites 8 statements in 2 files, 3 left to the application\n/,
  );
  assert.match(run.stdout, /\n    shard:random\n/);
  assert.match(run.stdout, /\n    copy-move:shard:invoice_no\n/);
  assert.match(run.stdout, /        queries\/invoices\.cql:2: bind shard = murmur3\(invoice_no\) % 4 \+ 1/);
  for (const [name, text] of Object.entries(BEFORE))
    assert.equal(readFileSync(temp.path(name), 'utf8'), text, `${name} is untouched`);
});

test("applies the preferred fix to every file: the same result as the editor's fix, and the finding is gone", async (t) => {
  const temp = tempDir(BEFORE);
  t.after(() => temp.cleanup());
  const run = await runCli(['fix', '--rule', 'hot-partition', '--table', 'billing.invoices_by_day', '.'], {
    cwd: temp.dir,
  });
  assert.equal(run.code, 0, run.stderr);
  assert.match(
    run.stdout,
    /^Add a calculated shard column from invoice_no \(4 shards\).*\n  wrote schema\/invoices\.cql, queries\/invoices\.cql\n  left to the application/,
  );
  for (const [name, text] of Object.entries(AFTER)) assert.equal(readFileSync(temp.path(name), 'utf8'), text, name);
  const lint = await runCli(['lint', '--format', 'json', '.'], { cwd: temp.dir });
  assert.equal(lint.code, 0, lint.stdout);
  assert.deepEqual(
    JSON.parse(lint.stdout).flatMap((r: { messages: { ruleId: string }[] }) => r.messages.map((m) => m.ruleId)),
    [],
  );
});

test('--dry-run prints a unified diff that git apply takes, and writes nothing', async (t) => {
  const temp = tempDir(BEFORE);
  t.after(() => temp.cleanup());
  const run = await runCli(['fix', '--table', 'invoices_by_day', '--fix', 'shard:random', '--dry-run', '.'], {
    cwd: temp.dir,
  });
  assert.equal(run.code, 0, run.stderr);
  assert.match(run.stdout, /^--- a\/schema\/invoices\.cql\n\+\+\+ b\/schema\/invoices\.cql\n@@ /);
  assert.match(run.stdout, /\n\+-- @shard shard = random\(4\)\n/);
  assert.match(run.stderr, /Add a random shard column \(4 shards\).*dry run: nothing written/);
  for (const [name, text] of Object.entries(BEFORE))
    assert.equal(readFileSync(temp.path(name), 'utf8'), text, `${name} is untouched`);
  temp.write('fix.patch', run.stdout);
  const applied = spawnSync('git', ['apply', 'fix.patch'], { cwd: temp.dir, encoding: 'utf8' });
  assert.equal(applied.status, 0, applied.stderr);
  const written = tempDir(BEFORE);
  t.after(() => written.cleanup());
  assert.equal(
    (await runCli(['fix', '--table', 'invoices_by_day', '--fix', 'shard:random', '.'], { cwd: written.dir })).code,
    0,
  );
  for (const name of Object.keys(BEFORE))
    assert.equal(
      readFileSync(temp.path(name), 'utf8'),
      readFileSync(written.path(name), 'utf8'),
      `${name}: the patch gives what the fix writes`,
    );
});

test('bad choices get a clear message and exit 2, and change nothing', async (t) => {
  const temp = tempDir({
    ...BEFORE,
    'logs.cql': 'CREATE TABLE ops.logs (server text, log_time timestamp, line text, PRIMARY KEY (server, log_time));\n',
  });
  t.after(() => temp.cleanup());
  const cases: [string[], RegExp][] = [
    [
      ['--rule', 'allow-filtering', '.'],
      /--rule "allow-filtering" has no partition refactoring; use one of hot-partition, unbounded-partition/,
    ],
    [['--table', 'billing.nope', '.'], /no partition finding matches --table billing\.nope; cqlint fix --list shows/],
    [
      ['.'],
      /2 partition findings match the inputs; choose one:\n  logs\.cql:1:\d+  --rule unbounded-partition --table ops\.logs --at logs\.cql:1\n  schema\/invoices\.cql:9:\d+  --rule hot-partition --table billing\.invoices_by_day --at schema\/invoices\.cql:9\n/,
    ],
    [['--at', 'logs.cql:7', '.'], /no partition finding matches --at logs\.cql:7/],
    [['--at', 'logs.cql', '.'], /--at expects file:line/],
    [
      ['--table', 'billing.invoices_by_day', '--fix', 'shard:title', '.'],
      /no fix "shard:title" for the hot-partition finding on billing\.invoices_by_day; its fixes: shard:invoice_no, shard:random, copy:shard:invoice_no, copy-move:shard:invoice_no/,
    ],
    [['--list', '--dry-run', '.'], /--list changes nothing/],
    [['--rule', 'hot-partition'], /no files or folders given/],
  ];
  for (const [args, message] of cases) {
    const run = await runCli(['fix', ...args], { cwd: temp.dir });
    assert.equal(run.code, 2, `${args.join(' ')}: ${run.stdout}`);
    assert.match(run.stderr, message, args.join(' '));
  }
  for (const [name, text] of Object.entries(BEFORE))
    assert.equal(readFileSync(temp.path(name), 'utf8'), text, `${name} is untouched`);
});

test('--at chooses a finding; a table defined twice with the same finding (DROP and CREATE again) is fixed once, both definitions re-keyed', async (t) => {
  const twice =
    'CREATE TABLE ops.logs (server text, log_time timestamp, line text, PRIMARY KEY (server, log_time));\nDROP TABLE ops.logs;\nCREATE TABLE ops.logs (server text, log_time timestamp, line text, PRIMARY KEY (server, log_time));\n';
  const temp = tempDir({ ...BEFORE, 'logs.cql': twice });
  t.after(() => temp.cleanup());
  const chosen = await runCli(['fix', '--dry-run', '--at', 'schema/invoices.cql:9', '.'], { cwd: temp.dir });
  assert.equal(chosen.code, 0, chosen.stderr);
  assert.match(chosen.stderr, /cqlint fix: Add a calculated shard column from invoice_no/);
  const run = await runCli(['fix', '--table', 'ops.logs', '.'], { cwd: temp.dir });
  assert.equal(run.code, 0, run.stderr);
  assert.match(
    run.stderr,
    /2 definitions of ops\.logs have the same unbounded-partition finding: the fix re-keys every definition with the same key/,
  );
  const after = readFileSync(temp.path('logs.cql'), 'utf8');
  assert.equal(after.match(/PRIMARY KEY \(\(server, \w+\), log_time\)/g)?.length, 2, after);
});

test('a file the refactoring would change that has syntax errors: nothing is written, exit 2', async (t) => {
  const broken = { ...BEFORE, 'queries/invoices.cql': `${BEFORE['queries/invoices.cql']}SELECT FROM WHERE;\n` };
  const temp = tempDir(broken);
  t.after(() => temp.cleanup());
  const run = await runCli(['fix', '--rule', 'hot-partition', '.'], { cwd: temp.dir });
  assert.equal(run.code, 2);
  assert.match(run.stderr, /queries\/invoices\.cql has syntax errors: fix them first/);
  for (const [name, text] of Object.entries(broken))
    assert.equal(readFileSync(temp.path(name), 'utf8'), text, `${name} is untouched`);
});

test('--help describes the choices and the exit status', async () => {
  const run = await runCli(['fix', '--help']);
  assert.equal(run.code, 0);
  assert.match(run.stdout, /^Usage: cqlint fix \[options\] <files or folders\.\.\.>/);
  for (const flag of ['--rule', '--table', '--fix', '--list', '--dry-run', '--target', '--config', '--no-config'])
    assert.ok(run.stdout.includes(flag), flag);
});

test('files the ignore patterns name are neither read nor changed; --no-ignore includes them', async (t) => {
  const temp = tempDir({ ...BEFORE, '.cqlintignore': 'queries/\n' });
  t.after(() => temp.cleanup());
  const run = await runCli(['fix', '--table', 'billing.invoices_by_day', '.'], { cwd: temp.dir });
  assert.equal(run.code, 0, run.stderr);
  assert.match(run.stdout, /wrote schema\/invoices\.cql\n/);
  assert.equal(
    readFileSync(temp.path('queries/invoices.cql'), 'utf8'),
    BEFORE['queries/invoices.cql'],
    'the ignored queries are left as they are',
  );
  const all = tempDir({ ...BEFORE, '.cqlintignore': 'queries/\n' });
  t.after(() => all.cleanup());
  const included = await runCli(['fix', '--table', 'billing.invoices_by_day', '--no-ignore', '.'], { cwd: all.dir });
  assert.equal(included.code, 0, included.stderr);
  assert.equal(readFileSync(all.path('queries/invoices.cql'), 'utf8'), AFTER['queries/invoices.cql']);
});

test('over-partitioned-read: the finding is on a read, and the fix re-keys the table in the schema file and rewrites the reads in theirs; linted again, no read fans out', async (t) => {
  const dir = join(__dirname, '..', 'fixes', 'workspaces', 'readings-minute-coarser');
  const before = filesOf(join(dir, 'before'));
  const temp = tempDir(before);
  t.after(() => temp.cleanup());
  const run = await runCli(['fix', '--rule', 'over-partitioned-read', '--table', 'iot.readings_by_minute', '.'], {
    cwd: temp.dir,
  });
  assert.equal(run.code, 0, run.stderr);
  assert.match(run.stdout, /^Replace minute with a time bucket month text \(monthly partitions by ts\)/);
  assert.match(run.stdout, /\n  wrote queries\.cql, schema\.cql\n/);
  for (const [name, text] of Object.entries(filesOf(join(dir, 'after'))))
    assert.equal(readFileSync(temp.path(name), 'utf8'), text, name);
  const lint = await runCli(['lint', '--format', 'json', '.'], { cwd: temp.dir });
  const left = JSON.parse(lint.stdout).flatMap((r: { messages: { ruleId: string; severity: number }[] }) =>
    r.messages.filter((m) => m.ruleId === 'over-partitioned-read' || m.severity === 2).map((m) => m.ruleId),
  );
  assert.deepEqual(left, []);
});
