// One rule resolves a table or view name (server/core/schema/resolve.ts), and every consumer asks it: the
// rules (Project.tableFor), go-to-definition and hover (the symbol index) and `cqlint token --schema`.
// These are the two cases where they used to disagree, and the diagnostic for conflicting definitions.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Project } from '../../server/core/project';
import { SymbolIndex } from '../../server/core/editor/symbols';
import { findDefinition } from '../../server/core/editor/navigation';
import { runCli, tempDir } from '../cli/helpers';

const RECREATED = `CREATE TABLE ks.t (a int PRIMARY KEY, v text);
DROP TABLE ks.t;
CREATE TABLE ks.t (a int PRIMARY KEY, b text);
SELECT b FROM ks.t WHERE a = 1;
`;

function nth(text: string, needle: string, n: number): number {
  let at = -1;
  for (let i = 0; i <= n; i++) at = text.indexOf(needle, at + 1);
  assert.ok(at >= 0, `${needle} #${n} occurs`);
  return at;
}

describe('a table dropped and created again in one file', () => {
  const project = new Project({ config: {} });
  project.setFile('/ws/schema.cql', RECREATED);
  const index = new SymbolIndex(project).refresh();
  const select = RECREATED.indexOf('SELECT');

  test('the rules resolve the SELECT to the second definition', () => {
    const table = project.tableFor('/ws/schema.cql', 'ks.t', select);
    assert.deepEqual(table?.columns.map((c) => c.name), ['a', 'b']);
    assert.deepEqual(project.lint('/ws/schema.cql').filter((f) => f.ruleId === 'unknown-column'), []);
  });

  test('go to definition on the table name goes to the second CREATE, as the rules resolve it', () => {
    const [definition] = findDefinition(index, '/ws/schema.cql', nth(RECREATED, 'ks.t', 3) + 3);
    assert.equal(definition?.range.start, nth(RECREATED, 't (', 1));
  });

  test('go to definition on a column of the second definition finds it', () => {
    const [definition] = findDefinition(index, '/ws/schema.cql', RECREATED.indexOf('b FROM'));
    assert.equal(definition?.range.start, RECREATED.indexOf('b text'));
  });

  test('a mention before the DROP still goes to the first definition', () => {
    const [definition] = findDefinition(index, '/ws/schema.cql', nth(RECREATED, 'ks.t', 1) + 3);
    assert.equal(definition?.range.start, nth(RECREATED, 't (', 0));
  });
});

describe('one table defined differently in two files', () => {
  const files = {
    'a.cql': 'CREATE TABLE ks.t (id int PRIMARY KEY, v text);\n',
    'b.cql': 'CREATE TABLE ks.t (id text PRIMARY KEY, v text);\n',
  };

  test('`cqlint token --schema` uses the definition the editor and the rules resolve to (the first file)', async (t) => {
    const dir = tempDir(files);
    t.after(() => dir.cleanup());
    const project = new Project({ config: {} });
    for (const [name, text] of Object.entries(files)) project.setFile(`${dir.dir}/${name}`, text);
    project.setFile(`${dir.dir}/q.cql`, 'SELECT * FROM ks.t WHERE id = 5;\n');
    const resolved = project.tableFor(`${dir.dir}/q.cql`, 'ks.t', 0);
    assert.equal(resolved?.partitionKey[0]?.typeText, 'int');
    const fromSchema = await runCli(['token', '--schema', dir.dir, 'ks.t', '5']);
    const fromTypes = await runCli(['token', '--types', 'int', '5']);
    assert.equal(fromSchema.code, 0, fromSchema.stderr);
    assert.equal(fromSchema.stdout, fromTypes.stdout);
  });

  test('each definition gets a conflicting-definition finding that names the other file', () => {
    const project = new Project({ config: {} });
    for (const [name, text] of Object.entries(files)) project.setFile(`/ws/${name}`, text);
    for (const [name, other] of [['a.cql', 'b.cql'], ['b.cql', 'a.cql']] as const) {
      const found = project.lint(`/ws/${name}`).filter((f) => f.ruleId === 'conflicting-definition');
      assert.equal(found.length, 1, name);
      assert.match(`${found[0]!.message}\n${found[0]!.details ?? ''}`, new RegExp(other.replace('.', '\\.')));
    }
  });

  test('copies of one definition in several files are no conflict', () => {
    const project = new Project({ config: {} });
    project.setFile('/ws/a.cql', files['a.cql']);
    project.setFile('/ws/c.cql', files['a.cql']);
    assert.deepEqual(project.lint('/ws/a.cql').filter((f) => f.ruleId === 'conflicting-definition'), []);
  });
});
