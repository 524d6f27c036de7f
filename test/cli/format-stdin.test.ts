// cqlint format --stdin, as an editor that pipes through a formatter runs it: the built CLI, spawned, with
// the text on its stdin; the formatted text (and nothing else) on stdout, or nothing and a reason on stderr.
import { describe, test, before } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import { projectRoot, tempDir } from './helpers';

const cliBin = path.join(projectRoot, 'bin', 'cqlint.js');
const MESSY = 'create table ks.t (id int primary key, v text);\nselect * from ks.t where id = 1;\n';
const FORMATTED = 'CREATE TABLE ks.t (\n    id int PRIMARY KEY,\n    v  text\n);\nSELECT *\nFROM ks.t\nWHERE id = 1;\n';

function format(args: string[], input: string | Buffer, cwd = projectRoot) {
  return spawnSync(process.execPath, [cliBin, 'format', ...args], { cwd, input, encoding: 'utf8' });
}

describe('cqlint format --stdin (built CLI)', () => {
  before(() => {
    if (existsSync(path.join(projectRoot, 'dist', 'cli.js'))) return;
    const build = spawnSync(process.execPath, ['scripts/build.mjs'], { cwd: projectRoot, encoding: 'utf8' });
    assert.equal(build.status, 0, `npm run build failed:\n${build.stderr}`);
  });

  test('writes the formatted text to stdout, exit 0, nothing on stderr', () => {
    const run = format(['--stdin'], MESSY);
    assert.equal(run.status, 0, run.stderr);
    assert.equal(run.stdout, FORMATTED);
    assert.equal(run.stderr, '');
    // Formatted text goes through unchanged; options apply.
    assert.equal(format(['--stdin'], FORMATTED).stdout, FORMATTED);
    assert.match(
      format(['--stdin', '--keyword-case', 'lower', '--indent', '2'], MESSY).stdout,
      /^create table ks.t \(\n {2}id/,
    );
  });

  test('a statement with a syntax error comes back as written, the rest formatted; a BOM is kept', () => {
    const run = format(['--stdin'], `${MESSY}SELEC broken ;\n`);
    assert.equal(run.status, 0, run.stderr);
    assert.equal(run.stdout, `${FORMATTED}SELEC broken ;\n`);
    assert.equal(format(['--stdin'], `\uFEFF${MESSY}`).stdout, `\uFEFF${FORMATTED}`);
  });

  test('text that cannot be read: nothing on stdout, the reason on stderr, exit 2', () => {
    const run = format(['--stdin', '--stdin-filename', 'schema.cql'], Buffer.from([0xff, 0xfe, 0x41, 0x00]));
    assert.equal(run.status, 2);
    assert.equal(run.stdout, '');
    assert.match(run.stderr, /cannot read stdin: .*UTF-8/);
  });

  test('--check and --diff say what would change, name the --stdin-filename, and write no text', () => {
    const check = format(['--stdin', '--check', '--stdin-filename', 'db/schema.cql'], MESSY);
    assert.equal(check.status, 1);
    assert.equal(check.stdout, '');
    assert.match(check.stderr, /db\/schema\.cql is not formatted/);
    assert.equal(format(['--stdin', '--check'], FORMATTED).status, 0);
    const diff = format(['--stdin', '--diff', '--stdin-filename', 'db/schema.cql'], MESSY);
    assert.equal(diff.status, 1);
    assert.match(diff.stdout, /^--- a\/db\/schema\.cql\n\+\+\+ b\/db\/schema\.cql\n/);
  });

  test('a file its .cqlintignore leaves out is written back unchanged (--no-ignore formats it)', (t) => {
    const temp = tempDir({ '.cqlintignore': 'generated/\n' });
    t.after(() => temp.cleanup());
    const ignored = format(['--stdin', '--stdin-filename', 'generated/x.cql'], MESSY, temp.dir);
    assert.equal(ignored.status, 0, ignored.stderr);
    assert.equal(ignored.stdout, MESSY);
    assert.equal(
      format(['--stdin', '--stdin-filename', 'generated/x.cql', '--no-ignore'], MESSY, temp.dir).stdout,
      FORMATTED,
    );
  });

  test('usage errors exit 2 with nothing on stdout', () => {
    for (const args of [
      ['--stdin', 'a.cql'],
      ['--stdin-filename', 'a.cql'],
      ['--stdin', '--stdin-filename', ' '],
      ['--stdin', '--check', '--diff'],
    ]) {
      const run = format(args, MESSY);
      assert.equal(run.status, 2, args.join(' '));
      assert.equal(run.stdout, '', args.join(' '));
      assert.match(run.stderr, /cqlint format: /, args.join(' '));
    }
  });
});
