// One exit contract for every command (DEVELOPERS.md): 0 success, 1 findings (problems, unformatted
// files), 2 usage or input failure; a usage error names the command's --help, an input error says what
// could not be read, nothing is reported as an internal error, and a failing run never prints a success
// line first. Every command of the CLI's table must have its rows here.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { commands } from '../../server/cli/main';
import { runCli, tempDir } from './helpers';

const CLEAN = 'CREATE TABLE ks.users (id uuid PRIMARY KEY, name text);\n';
const ERROR = `${CLEAN}SELECT email FROM ks.users WHERE id = ?;\n`;
const WARNING = 'CREATE TABLE ks.books (publish_date date, title text, PRIMARY KEY (publish_date, title));\n';
const UNFORMATTED = 'create table ks.t (id uuid primary key, v text);\n';
const FORMATTED = 'CREATE TABLE ks.t (\n    id uuid PRIMARY KEY,\n    v  text\n);\n';

const files = {
  'clean.cql': CLEAN,
  'error.cql': ERROR,
  'warning.cql': WARNING,
  'ugly.cql': UNFORMATTED,
  'pretty.cql': FORMATTED,
  'latin1.cql': Buffer.from('-- caf\xe9\n', 'latin1'),
  'broken/.cqlint.json': '{ "rules": ',
  'broken/clean.cql': CLEAN,
};

interface Row {
  args: string[];
  code: 0 | 1 | 2;
  /** What stderr (or stdout, for `out`) says. */
  err?: RegExp;
  out?: RegExp;
  stdin?: string;
  /** A usage error: the message ends with the --help hint. */
  usage?: true;
}

const rows: Record<string, Row[]> = {
  lint: [
    { args: ['clean.cql'], code: 0 },
    { args: ['warning.cql'], code: 0, out: /hot-partition/ },
    { args: ['--max-warnings', '0', 'warning.cql'], code: 1, err: /too many warnings/ },
    { args: ['error.cql'], code: 1, out: /unknown-column/ },
    { args: ['--format', 'xml', 'clean.cql'], code: 2, usage: true, err: /unknown format "xml"/ },
    { args: ['missing.cql'], code: 2, err: /cannot read missing\.cql/ },
    { args: ['latin1.cql'], code: 2, err: /not valid UTF-8/ },
    { args: ['broken'], code: 2, err: /\.cqlint\.json: not valid JSON/ },
    { args: ['--stdin'], stdin: CLEAN, code: 0 },
    { args: ['--stdin'], stdin: ERROR, code: 1 },
  ],
  format: [
    { args: ['--check', 'pretty.cql'], code: 0 },
    { args: ['--diff', 'pretty.cql'], code: 0 },
    { args: ['--check', 'ugly.cql'], code: 1, out: /^ugly\.cql$/m },
    { args: ['--diff', 'ugly.cql'], code: 1, out: /^\+CREATE TABLE ks\.t \($/m },
    { args: ['--indent', '0', 'ugly.cql'], code: 2, usage: true, err: /--indent must be an integer from 1 to 16/ },
    { args: ['--check', 'missing.cql'], code: 2, err: /cannot read missing\.cql/ },
    { args: ['--check', 'latin1.cql'], code: 2, err: /not valid UTF-8/ },
  ],
  token: [
    { args: ['--types', 'int', '1'], code: 0, out: /^-4069959284402364209$/m },
    { args: ['--types', 'foo', '1'], code: 2, usage: true, err: /--types: unknown type 'foo'/ },
    { args: ['--types', 'int', 'x'], code: 2, err: /cqlint token: / },
    { args: ['--schema', 'missing.cql', 'ks.t', '1'], code: 2, err: /cannot read missing\.cql/ },
    { args: ['--schema', 'clean.cql', 'ks.nope', '1'], code: 2, err: /table ks\.nope not found/ },
    { args: ['--types', 'int', '--json'], stdin: '[1]\n[2]\n', code: 0, out: /"token":"-4069959284402364209"/ },
    {
      args: ['--types', 'int', '--json'],
      stdin: '[1]\nnot json\n',
      code: 2,
      out: /"token":"-4069959284402364209".*\n\{"error":"line is not JSON"\}\n/,
      err: /1 of 2 keys on stdin failed/,
    },
  ],
  fix: [
    { args: ['--list', 'warning.cql'], code: 0, out: /hot-partition/ },
    { args: ['--dry-run', 'warning.cql'], code: 0, out: /^\+\+\+ b\/warning\.cql$/m },
    { args: ['--rule', 'allow-filtering', 'warning.cql'], code: 2, usage: true, err: /has no partition refactoring/ },
    { args: ['--table', 'ks.nope', 'warning.cql'], code: 2, err: /no partition finding matches --table ks\.nope/ },
    { args: ['missing.cql'], code: 2, err: /cannot read missing\.cql/ },
    { args: ['broken'], code: 2, err: /\.cqlint\.json: not valid JSON/ },
  ],
  explain: [
    { args: ['hot-partition'], code: 0, out: /^# hot-partition\n/ },
    { args: ['hot-partiton'], code: 2, err: /unknown rule "hot-partiton"; did you mean "hot-partition"/ },
    { args: [], code: 2, usage: true, err: /which rule\?/ },
  ],
  // The partition report's own failures (a broken .cqlint.json, an unreadable input) are issue 22's to add.
  report: [
    { args: ['--out', 'r.html', 'clean.cql'], code: 0, out: /wrote r\.html \(1 table\)/ },
    { args: ['--target', 'mongodb', 'clean.cql'], code: 2, usage: true, err: /unknown target "mongodb"/ },
  ],
  // Serving itself (it runs until stdin closes) is test/mcp/server.test.ts's, with the SDK's client.
  mcp: [
    { args: ['--root', 'missing'], code: 2, usage: true, err: /--root missing: not a folder/ },
    { args: ['--root', 'clean.cql'], code: 2, usage: true, err: /--root clean\.cql: not a folder/ },
    { args: ['clean.cql'], code: 2, usage: true, err: /unexpected argument "clean\.cql"/ },
  ],
};

describe('the exit contract of every command', () => {
  test('every command has its rows', () => {
    assert.deepEqual(Object.keys(rows).sort(), Object.keys(commands).sort());
  });

  for (const name of Object.keys(commands)) {
    test(`${name}: --help 0, an unknown option 2 with the --help hint, and each row's code and message`, async (t) => {
      const temp = tempDir(files);
      t.after(() => temp.cleanup());
      const table: Row[] = [
        { args: ['--help'], code: 0, out: new RegExp(`^Usage: cqlint ${name} `) },
        { args: ['--no-such-option', 'clean.cql'], code: 2, usage: true, err: /Unknown option '--no-such-option'/ },
        ...(rows[name] ?? []),
      ];
      for (const row of table) {
        const what = `cqlint ${name} ${row.args.join(' ')}`;
        const run = await runCli([name, ...row.args], { cwd: temp.dir, stdin: row.stdin });
        assert.equal(run.code, row.code, `${what}: exit ${run.code}\n${run.stderr}`);
        assert.doesNotMatch(run.stderr, /internal error/, what);
        if (row.err) assert.match(run.stderr, row.err, what);
        if (row.out) assert.match(run.stdout, row.out, what);
        if (row.usage)
          assert.match(
            run.stderr,
            new RegExp(`\\nRun 'cqlint ${name} --help' for usage\\.\\n$`),
            `${what}: a usage error names the help`,
          );
        else if (row.code === 2)
          assert.doesNotMatch(run.stderr, /--help' for usage/, `${what}: an input error is not a usage error`);
        if (row.code === 2) {
          assert.notEqual(run.stderr, '', `${what}: a failure says why`);
          assert.doesNotMatch(
            run.stdout + run.stderr,
            /\bwrote\b|^formatted \d+ file/m,
            `${what}: no success line before a failure`,
          );
        }
      }
    });
  }
});
