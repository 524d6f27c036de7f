// ReadAhead (server/cli/io.ts): the command line reads its source files a few ahead of the one being parsed,
// and each file's answer and message come at its turn, as reading them one by one gives them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ReadAhead, failureReporter, readInput, type CliIO } from '../../server/cli/io';
import { tempDir } from './helpers';

const NOT_TEXT = Uint8Array.from([0x00, 0x01, 0x02, 0xff, 0x00]);

function capture(cwd: string): { io: CliIO; said: string[] } {
  const said: string[] = [];
  const io = { stdout: { write: () => true }, stderr: { write: (text: string) => said.push(text) }, cwd, env: {} };
  return { io: io as unknown as CliIO, said };
}

test('files are answered and reported in their order, each message at its own turn, as readInput gives them', async (t) => {
  const ws = tempDir({
    'a.cql': 'SELECT * FROM ks.a;\n',
    'b.cql': NOT_TEXT,
    'c.java': NOT_TEXT,
    'd.cql': Buffer.from('-- caf\xe9\n', 'latin1'),
    'f.cql': 'SELECT * FROM ks.f;\n',
  });
  t.after(() => ws.cleanup());
  const files = ['a.cql', 'b.cql', 'c.java', 'd.cql', 'e.cql', 'f.cql'].map((f) => ws.path(f));

  const oneByOne = capture(ws.dir);
  const oneReport = failureReporter(oneByOne.io, 'cqlint');
  const expected: (string | undefined)[] = [];
  for (const file of files) {
    expected.push((await readInput(file, oneByOne.io, oneReport))?.text);
    oneByOne.said.push(`-- after ${file}\n`);
  }

  const ahead = capture(ws.dir);
  const report = failureReporter(ahead.io, 'cqlint');
  const reads = new ReadAhead(files, ahead.io, report, 3);
  const got: (string | undefined)[] = [];
  for (const file of files) {
    got.push((await reads.read(file))?.text);
    ahead.said.push(`-- after ${file}\n`);
  }
  assert.deepEqual(got, expected);
  assert.deepEqual(ahead.said, oneByOne.said);
  assert.equal(report.failed, true);
  // Not vacuous: four of the six said something (c.java is skipped with a warning, the others failed).
  assert.equal(ahead.said.filter((line) => !line.startsWith('-- after')).length, 4, ahead.said.join(''));
});

test('a file the caller skips is neither answered nor reported; one not in the list is read when asked', async (t) => {
  const ws = tempDir({ 'a.cql': 'SELECT 1;\n', 'c.cql': 'SELECT 3;\n', 'other.cql': 'SELECT 4;\n' });
  t.after(() => ws.cleanup());
  const { io, said } = capture(ws.dir);
  const report = failureReporter(io, 'cqlint');
  const reads = new ReadAhead([ws.path('a.cql'), ws.path('missing.cql'), ws.path('c.cql')], io, report, 2);
  assert.equal((await reads.read(ws.path('a.cql')))?.text, 'SELECT 1;\n');
  // missing.cql was read ahead (and failed): skipped, it says nothing.
  assert.equal((await reads.read(ws.path('c.cql')))?.text, 'SELECT 3;\n');
  assert.equal((await reads.read(ws.path('other.cql')))?.text, 'SELECT 4;\n');
  assert.deepEqual(said, []);
  assert.equal(report.failed, false);
  // Asked for later, a skipped file is read then, and its failure reported.
  assert.equal(await reads.read(ws.path('missing.cql')), undefined);
  assert.equal(report.failed, true);
  assert.match(said.join(''), /cannot read missing\.cql/);
});
