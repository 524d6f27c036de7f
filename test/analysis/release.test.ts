// Project.release lets go of a file's syntax tree (the CLI does it for every file once indexed, and once
// its findings are written): linting a released file parses it again and must give the very same
// findings, the tables its CREATE statements define included.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Project } from '../../server/core/engine/project';
import { corpusFiles, readText } from '../helpers/corpus';
import { columnNamed } from '../../server/core/schema/model';
import { inflateRawSync } from 'node:zlib';

const folders = ['cassandra-docs', 'killrvideo'];
const plain = (findings: ReturnType<Project['lint']>): unknown => JSON.parse(JSON.stringify(findings));

test('a released file lints to the same findings as one never released, on the corpus', () => {
  const files = folders.flatMap((folder) => corpusFiles(folder));
  const kept = new Project({ config: {} });
  const released = new Project({ config: {} });
  for (const file of files) {
    const text = readText(file);
    kept.setFile(file, text);
    released.setFile(file, text);
    released.fileSchema(file);
    released.release(file);
  }
  let findings = 0;
  for (const file of files) {
    const expected = plain(kept.lint(file));
    assert.deepEqual(plain(released.lint(file)), expected, file);
    released.release(file, { findings: true });
    findings += (expected as unknown[]).length;
  }
  assert.ok(findings > 100, `the corpus should give findings to compare (got ${findings})`);
  // Released twice over (findings dropped too), the files still lint the same.
  for (const file of files.slice(0, 40)) assert.deepEqual(plain(released.lint(file)), plain(kept.lint(file)), file);
});

test('keepTexts: a released file keeps its text as it is, lints the same, and is exported deflated', () => {
  const files = folders.flatMap((folder) => corpusFiles(folder)).slice(0, 60);
  const packing = new Project({ config: {} });
  const keeping = new Project({ config: {}, keepTexts: true });
  for (const file of files) {
    for (const project of [packing, keeping]) {
      project.setFile(file, readText(file));
      project.fileSchema(file);
      project.release(file);
    }
  }
  for (const file of files) {
    assert.equal(keeping.getText(file), readText(file), file);
    assert.deepEqual(plain(keeping.lint(file)), plain(packing.lint(file)), file);
    keeping.release(file, { findings: true });
    packing.release(file, { findings: true });
    // What another Project adopts is the same either way: the text deflated.
    const exported = keeping.exportIndexed(file)!;
    assert.equal(inflateRawSync(exported.packed).toString('utf8'), readText(file), file);
    assert.deepEqual(exported.packed, packing.exportIndexed(file)!.packed, file);
  }
});

test('keepTexts: a released text is kept outside the heap as UTF-8, and read back exactly', () => {
  const project = new Project({ config: {}, keepTexts: true });
  // Non-ASCII text (two-byte in V8, multi-byte in UTF-8) and a lone surrogate, which UTF-8 cannot carry.
  const texts = {
    '/virtual/keep/accents.cql':
      'CREATE TABLE ks.café (id int PRIMARY KEY, v text); -- 🎉 ü\nSELECT v FROM ks.café WHERE id = 1;\n',
    '/virtual/keep/surrogate.cql': 'CREATE TABLE ks.t (id int PRIMARY KEY); -- \ud800 alone\n',
  };
  for (const [file, text] of Object.entries(texts)) {
    project.setFile(file, text);
    const before = JSON.stringify(project.lint(file));
    project.release(file, { findings: true });
    assert.equal(project.getText(file), text, file);
    assert.equal(JSON.stringify(project.lint(file)), before, file);
    project.release(file, { findings: true });
  }
  // A large text leaves the heap for a buffer of its size when released (the heap neither marks nor grows by it).
  const big = '/virtual/keep/big.cql';
  const text = `-- ${'x'.repeat(8 * 1024 * 1024)}\nCREATE TABLE ks.big (id int PRIMARY KEY);\n`;
  project.setFile(big, text);
  project.fileSchema(big);
  const buffers = process.memoryUsage().arrayBuffers;
  project.release(big);
  const grown = process.memoryUsage().arrayBuffers - buffers;
  assert.ok(
    grown >= text.length * 0.9,
    `the released text should be held in a buffer (buffers grew by ${grown} bytes)`,
  );
  assert.equal(project.getText(big), text);
});

test('a released file that is edited builds its schema from the new text', () => {
  const project = new Project({ config: {} });
  const file = '/virtual/release/schema.cql';
  project.setFile(file, 'CREATE TABLE ks.t (id int PRIMARY KEY, v text);\nSELECT nope FROM ks.t WHERE id = 1;\n');
  project.fileSchema(file);
  project.release(file);
  assert.deepEqual(
    project.lint(file).map((f) => f.ruleId),
    ['unknown-column'],
  );
  project.release(file, { findings: true });
  project.setFile(
    file,
    'CREATE TABLE ks.t (id int PRIMARY KEY, v text, nope int);\nSELECT nope FROM ks.t WHERE id = 1;\n',
  );
  assert.deepEqual(
    project.lint(file).map((f) => f.ruleId),
    [],
  );
});

test('a released file keeps its exact text (kept deflated), and setting the same text again changes nothing', () => {
  const project = new Project({ config: {} });
  const texts: Record<string, string> = {
    '/virtual/release/ascii.cql': 'CREATE TABLE ks.a (id int PRIMARY KEY, v text);\n'.repeat(50),
    '/virtual/release/unicode.cql': "-- café ☕ 𝄞 naïve\r\nINSERT INTO ks.a (id, v) VALUES (1, 'łódź 𝄞');\r\n",
    // A lone surrogate cannot go through UTF-8: such a text (an editor's, never a file's) is kept as it is.
    '/virtual/release/lone.cql': "INSERT INTO ks.a (id, v) VALUES (1, 'x\uD800y');\n",
    '/virtual/release/empty.cql': '',
  };
  for (const [file, text] of Object.entries(texts)) {
    project.setFile(file, text);
    project.fileSchema(file);
    project.release(file);
    assert.equal(project.getText(file), text, file);
  }
  const model = project.schema();
  for (const [file, text] of Object.entries(texts)) project.setFile(file, text);
  assert.equal(project.schema(), model, 'the same texts again: the same model');
  assert.equal(project.getText('/virtual/release/ascii.cql'), texts['/virtual/release/ascii.cql']);
});

test('a released schema keeps no syntax tree: definitions let go of their statement, columns share one range-free type', () => {
  const project = new Project({ config: {} });
  const file = '/virtual/release/tables.cql';
  project.setFile(
    file,
    [
      'CREATE TABLE ks.a (id int PRIMARY KEY, tags frozen<list<text>>, v text);',
      'ALTER TABLE ks.a ADD extra text;',
      'CREATE TABLE ks.b (id int PRIMARY KEY, tags frozen<list<text>>);',
      'CREATE MATERIALIZED VIEW ks.by_v AS SELECT * FROM ks.base WHERE v IS NOT NULL AND id IS NOT NULL PRIMARY KEY (v, id);',
      '',
    ].join('\n'),
  );
  const schema = project.fileSchema(file)!;
  const [createdA, alteredA] = schema.versions.get('a')!.map((v) => v.table!);
  assert.ok(createdA!.definition.statement, 'kept while the tree is');
  assert.equal(alteredA!.definition, createdA!.definition, 'one definition for every version of a CREATE');
  project.release(file);
  assert.equal(createdA!.definition.statement, undefined);
  assert.equal(schema.byStatement.size, 0, 'nothing keyed by the released tree');
  const b = schema.versions.get('b')![0]!.table!;
  const tags = (t: typeof b) => columnNamed(t, 'tags')!.type!;
  assert.equal(tags(createdA!), tags(b), 'equal types: one object');
  assert.equal(tags(b).range.start, 0, 'a shared type stands nowhere in particular');
  assert.equal(columnNamed(createdA!, 'tags')!.typeText, 'frozen<list<text>>');
  // The view's base is in no file yet: it keeps its statement, and the merge completes it once the base comes.
  const view = schema.versions.get('by_v')![0]!.table!;
  assert.equal(view.definition.statement?.kind, 'CreateMaterializedView');
  project.setFile('/virtual/release/base.cql', 'CREATE TABLE ks.base (id int PRIMARY KEY, v text, w int);\n');
  project.schema();
  assert.deepEqual(
    view.columns.map((c) => c.name),
    ['id', 'v', 'w'],
  );
  // A parse of the released file keys its CREATE statements again (rules and navigation look tables up by them).
  const parse = project.parse(file);
  assert.equal(schema.byStatement.get(parse.statements[0]!), createdA);
  assert.equal(schema.byStatement.get(parse.statements[2]!), b);
  assert.equal(schema.byStatement.get(parse.statements[3]!), view);
});
