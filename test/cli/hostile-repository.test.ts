// A hostile repository and a careless user against the command line (issue 40): links that lead out of
// the project, ignore files and caches made to break the run, stdin that skips the guards files get,
// names that carry terminal control sequences. Each case is the class, not only its first reproduction:
// every command that writes, every door a text comes in through.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, symlinkSync } from 'node:fs';
import { runCli, tempDir, type JsonResult } from './helpers';

const SCHEMA = 'CREATE TABLE ks.t (id int PRIMARY KEY, v text);\n';
const HOT = 'CREATE TABLE ks.books (publish_date date, title text, PRIMARY KEY (publish_date, title));\n';

const lintedFiles = (stdout: string, cwd: string): string[] => (JSON.parse(stdout) as JsonResult[]).map((r) => r.filePath.slice(cwd.length + 1)).sort();

describe('.cqlintignore and ignorePatterns a repository holds', () => {
  test('a line of 32,000 wildcards: that line is an error naming its number (never quoting it), the others apply, every file is linted', async (t) => {
    const line = '*a'.repeat(16_000);
    const temp = tempDir({ '.cqlintignore': `generated/\n${line}\n*.draft.cql\n`, 'schema.cql': SCHEMA, 'generated/x.cql': HOT, 'wip.draft.cql': HOT });
    t.after(() => temp.cleanup());
    const run = await runCli(['lint', '-f', 'json', '.'], { cwd: temp.dir });
    assert.equal(run.code, 2, run.stderr);
    assert.equal(run.stderr, 'cqlint: .cqlintignore: line 2: a pattern of 32000 characters (at most 4096): not used\n');
    assert.deepEqual(lintedFiles(run.stdout, temp.dir), ['schema.cql']);
    // Under the length cap, a pattern the package cannot compile is said the same way.
    const wild = tempDir({ '.cqlintignore': `${'*a'.repeat(2_000)}\n`, 'schema.cql': SCHEMA });
    t.after(() => wild.cleanup());
    const compiled = await runCli(['lint', '-f', 'json', '.'], { cwd: wild.dir });
    assert.doesNotMatch(compiled.stderr, /internal error|\*a\*a/);
    assert.deepEqual(lintedFiles(compiled.stdout, wild.dir), ['schema.cql']);
  });

  test('ignorePatterns: a pattern too long is a config error naming its index, the others apply', async (t) => {
    const temp = tempDir({ '.cqlint.json': JSON.stringify({ ignorePatterns: ['generated/', 'x'.repeat(5_000)] }), 'schema.cql': SCHEMA, 'generated/x.cql': HOT });
    t.after(() => temp.cleanup());
    const run = await runCli(['lint', '-f', 'json', '.'], { cwd: temp.dir });
    assert.equal(run.code, 2);
    assert.match(run.stderr, /\.cqlint\.json: ignorePatterns\[1\]: a pattern of 5000 characters \(at most 4096\): not used\n$/);
    assert.deepEqual(lintedFiles(run.stdout, temp.dir), ['schema.cql']);
  });

  test('a .cqlintignore linked to a file outside the project is refused, not read or quoted', async (t) => {
    const outside = tempDir({ 'secret.txt': 'token=hunter2\nschema.cql\n' });
    const temp = tempDir({ 'schema.cql': SCHEMA });
    t.after(() => {
      temp.cleanup();
      outside.cleanup();
    });
    symlinkSync(outside.path('secret.txt'), temp.path('.cqlintignore'));
    const run = await runCli(['lint', '-f', 'json', '.'], { cwd: temp.dir });
    assert.equal(run.code, 2);
    assert.equal(run.stderr, 'cqlint: cannot read .cqlintignore: the file (or the link it goes through) is outside the workspace\n');
    assert.deepEqual(lintedFiles(run.stdout, temp.dir), ['schema.cql'], 'its lines were not applied');
    assert.equal(readFileSync(outside.path('secret.txt'), 'utf8'), 'token=hunter2\nschema.cql\n');
  });
});
