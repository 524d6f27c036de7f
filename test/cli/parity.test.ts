// ESLint parity, round 2: --output-file, the rule's docs link in stylish output, "fixed N problems" (fix.test.ts).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { runCli, tempDir } from './helpers';

const HOT = 'CREATE TABLE ks.books (publish_date date, title text, author text, PRIMARY KEY (publish_date, title));\n';
const BAD = 'SELECT nope FROM ks.books WHERE publish_date = ?;\n';

describe('cqlint lint --output-file', () => {
  test('writes the output to the file (its folders created), nothing to stdout; the exit code is the same', async (t) => {
    const temp = tempDir({ 'db/a.cql': HOT + BAD });
    t.after(() => temp.cleanup());
    const plain = await runCli(['lint', '-f', 'json', 'db'], { cwd: temp.dir });
    const run = await runCli(['lint', '-f', 'json', '-o', 'out/reports/cqlint.json', 'db'], {
      cwd: temp.dir,
      tty: true,
    });
    assert.deepEqual([run.code, run.stdout, run.stderr], [plain.code, '', '']);
    assert.equal(readFileSync(temp.path('out/reports/cqlint.json'), 'utf8'), plain.stdout);
    const stylish = await runCli(['lint', '--output-file', 'lint.txt', 'db'], { cwd: temp.dir, tty: true });
    assert.equal(stylish.code, 1);
    const text = readFileSync(temp.path('lint.txt'), 'utf8');
    assert.match(text, /hot-partition/);
    assert.ok(!text.includes('\u001b'), 'no colours or links in a file');
  });

  test('a file that cannot be written is exit 2; an empty name is a usage error', async (t) => {
    const temp = tempDir({ 'a.cql': HOT, blocker: 'a file' });
    t.after(() => temp.cleanup());
    const run = await runCli(['lint', '-o', 'blocker/out.txt', 'a.cql'], { cwd: temp.dir });
    assert.equal(run.code, 2);
    assert.match(run.stderr, /cannot write blocker\/out\.txt/);
    assert.equal((await runCli(['lint', '-o', '', 'a.cql'], { cwd: temp.dir })).code, 2);
  });
});

describe('stylish: the rule id links to its page', () => {
  test('on a colour terminal the rule id is an OSC 8 hyperlink to the rule page; elsewhere plain, and json never changes', async (t) => {
    const temp = tempDir({ 'a.cql': HOT });
    t.after(() => temp.cleanup());
    const tty = await runCli(['lint', 'a.cql'], { cwd: temp.dir, tty: true });
    assert.match(
      tty.stdout,
      /\u001b\]8;;https:\/\/github\.com\/cqlint\/cqlint\/blob\/main\/docs\/rules\/hot-partition\.md\u001b\\\u001b\[2mhot-partition\u001b\[22m\u001b\]8;;\u001b\\\n/,
    );
    const dumb = await runCli(['lint', 'a.cql'], { cwd: temp.dir, tty: true, env: { TERM: 'dumb' } });
    assert.ok(!dumb.stdout.includes('\u001b]8'));
    const piped = await runCli(['lint', '--color', 'a.cql'], { cwd: temp.dir });
    assert.ok(!piped.stdout.includes('\u001b]8') && piped.stdout.includes('\u001b[2mhot-partition'));
    const json = await runCli(['lint', '-f', 'json', 'a.cql'], { cwd: temp.dir, tty: true });
    assert.equal(json.stdout, (await runCli(['lint', '-f', 'json', 'a.cql'], { cwd: temp.dir })).stdout);
  });
});
