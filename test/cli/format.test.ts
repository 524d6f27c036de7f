// `cqlint format [--check | --diff]` routed through the main command table, and `cqlint --help` listing every command.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { commands } from '../../server/cli/main';
import { runCli, tempDir } from './helpers';

const UGLY = 'create table ks.t (id uuid primary key, v text);\n';
const PRETTY = 'CREATE TABLE ks.t (\n    id uuid PRIMARY KEY,\n    v  text\n);\n';

describe('cqlint format', () => {
  test('--check lists the unformatted files and exits 1, writing nothing; formatted files pass', async (t) => {
    const temp = tempDir({ 'ugly.cql': UGLY, 'sub/pretty.cql': PRETTY });
    t.after(() => temp.cleanup());
    const run = await runCli(['format', '--check', '.'], { cwd: temp.dir });
    assert.equal(run.code, 1);
    assert.equal(run.stdout, 'ugly.cql\n');
    assert.match(run.stderr, /1 file not formatted/);
    assert.equal(readFileSync(temp.path('ugly.cql'), 'utf8'), UGLY);
    const clean = await runCli(['format', '--check', 'sub'], { cwd: temp.dir });
    assert.deepEqual(clean, { code: 0, stdout: '', stderr: '' });
  });

  test('without --check rewrites only the files that change, and the result passes --check', async (t) => {
    const temp = tempDir({ 'ugly.cql': UGLY, 'pretty.cql': PRETTY });
    t.after(() => temp.cleanup());
    const prettyMtime = statSync(temp.path('pretty.cql')).mtimeMs;
    const run = await runCli(['format', temp.dir]);
    assert.equal(run.code, 0, run.stderr);
    assert.equal(readFileSync(temp.path('ugly.cql'), 'utf8'), PRETTY);
    assert.equal(statSync(temp.path('pretty.cql')).mtimeMs, prettyMtime);
    assert.match(run.stderr, /formatted 1 file/);
    assert.equal((await runCli(['format', '--check', temp.dir])).code, 0);
  });

  test('keeps a UTF-8 byte order mark and CRLF line endings', async (t) => {
    const bom = Buffer.from([0xef, 0xbb, 0xbf]);
    const temp = tempDir({ 'bom.cql': Buffer.concat([bom, Buffer.from(UGLY.replace(/\n/g, '\r\n'))]) });
    t.after(() => temp.cleanup());
    assert.equal((await runCli(['format', temp.dir])).code, 0);
    const bytes = readFileSync(temp.path('bom.cql'));
    assert.ok(bytes.subarray(0, 3).equals(bom));
    assert.equal(bytes.subarray(3).toString('utf8'), PRETTY.replace(/\n/g, '\r\n'));
    assert.equal(
      (await runCli(['format', '--check', temp.dir])).code,
      0,
      'the BOM does not make the file look unformatted',
    );
  });

  test('--diff prints a unified diff that git apply turns into the formatted files, writes nothing, exits 1', async (t) => {
    const bom = Buffer.from([0xef, 0xbb, 0xbf]);
    const temp = tempDir({
      'ugly.cql': `-- keep me\n${UGLY}select a from ks.t;`,
      'sub/bom.cql': Buffer.concat([bom, Buffer.from(UGLY.replace(/\n/g, '\r\n'))]),
      'pretty.cql': PRETTY,
    });
    t.after(() => temp.cleanup());
    const before = { ugly: readFileSync(temp.path('ugly.cql')), bom: readFileSync(temp.path('sub/bom.cql')) };
    const run = await runCli(['format', '--diff', '.'], { cwd: temp.dir });
    assert.equal(run.code, 1, run.stderr);
    assert.match(run.stderr, /2 files not formatted/);
    assert.match(run.stdout, /^--- a\/sub\/bom\.cql\n\+\+\+ b\/sub\/bom\.cql\n@@ /m);
    assert.match(run.stdout, /^--- a\/ugly\.cql\n\+\+\+ b\/ugly\.cql\n@@ -1,3 \+1,7 @@\n -- keep me\n-create table/m);
    assert.doesNotMatch(run.stdout, /pretty\.cql/);
    assert.deepEqual(
      { ugly: readFileSync(temp.path('ugly.cql')), bom: readFileSync(temp.path('sub/bom.cql')) },
      before,
      '--diff writes nothing',
    );
    writeFileSync(temp.path('change.diff'), run.stdout);
    const apply = spawnSync('git', ['apply', 'change.diff'], { cwd: temp.dir, encoding: 'utf8' });
    assert.equal(apply.status, 0, apply.stderr);
    const applied = { ugly: readFileSync(temp.path('ugly.cql')), bom: readFileSync(temp.path('sub/bom.cql')) };
    assert.equal((await runCli(['format', '.'], { cwd: temp.dir })).code, 0);
    assert.deepEqual(
      applied,
      { ugly: readFileSync(temp.path('ugly.cql')), bom: readFileSync(temp.path('sub/bom.cql')) },
      'the patched files are the formatted ones, BOM and CRLF kept',
    );
    assert.deepEqual(await runCli(['format', '--diff', '.'], { cwd: temp.dir }), { code: 0, stdout: '', stderr: '' });
  });

  test('examples/ passes its own format --check', async () => {
    const run = await runCli(['format', '--check', 'examples']);
    assert.deepEqual(run, { code: 0, stdout: '', stderr: '' });
  });

  test('usage errors exit 2; --help shows the format options', async () => {
    const bad = await runCli(['format', '--keyword-case', 'shouting', 'x.cql']);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /--keyword-case must be upper, lower or preserve/);
    assert.equal((await runCli(['format'])).code, 2);
    const help = await runCli(['format', '--help']);
    assert.equal(help.code, 0);
    assert.match(help.stdout, /Usage: cqlint format .*\n[\s\S]*--check/);
  });
});

describe('cqlint --help', () => {
  test('lists every subcommand with its summary', async () => {
    const help = await runCli(['--help']);
    assert.equal(help.code, 0);
    const names = Object.keys(commands);
    assert.deepEqual(names.slice().sort(), ['explain', 'fix', 'format', 'lint', 'mcp', 'report', 'token']);
    for (const name of names)
      assert.match(
        help.stdout,
        new RegExp(`\\n {2}${name} +${commands[name].spec.summary.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\n`),
      );
  });
});
