// The move of a dominant column to a table of its own (fixes/split-column.ts, issue 35) where the workspace
// fixtures (test/fixes/workspaces/split-column-*) do not reach: in a migration folder it writes two migrations
// (the new table, then the column's drop, for review) and edits no migration, and the folder linted again has
// the finding cured; application code whose statement it cannot make exactly refuses it, and cqlint fix says why;
// a write that stands in a BATCH (of a CQL file or of a string of application code) stays a member of it.
import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { projectRoot } from '../helpers/corpus';
import { runCli, tempDir } from '../cli/helpers';
import { loadHostLanguages } from '../../server/core/embedded/runtime';
import { applyEdits } from '../../server/core/fixes/text';
import { applyToWorkspace, filesBelow, fixesFor, workspaceProject } from './workspace';

const FIXTURE = join(projectRoot, 'test', 'fixtures', 'migrations', 'fix-split-column');
const ROOT = '/virtual/cqlint-workspace';
const V001 = `${ROOT}/migrations/v001_create.cql`;

function splitOf(files: Map<string, string>, file: string) {
  const project = workspaceProject(files);
  const finding = project
    .lint(file)
    .find((f) => f.ruleId === 'large-partition' && (f.data as { table?: string }).table === 'iot.readings');
  assert.ok(finding, 'a large-partition finding on iot.readings');
  const fixes = fixesFor(project, file, finding);
  return { project, fixes, split: fixes.find((f) => f.id === 'split:payload') };
}

describe('moving a column to a table of its own', () => {
  before(() => loadHostLanguages(['java', 'python']));

  test('in a migration folder: the next migration creates the table, the one after drops the column', () => {
    const files = new Map([...filesBelow(join(FIXTURE, 'before'))].map(([rel, text]) => [`${ROOT}/${rel}`, text]));
    const { project, fixes, split } = splitOf(files, V001);
    assert.ok(split, `offered: ${fixes.map((f) => f.id).join(', ')}`);
    assert.equal(fixes[0], split, 'the move cures alone: it comes first');
    assert.ok(split.isPreferred);
    assert.equal(
      split.title,
      'Create migrations v002_readings_payload.cql and v003_drop_payload_from_readings.cql: move payload to a table of its own, iot.readings_payload, read by id; rewrites 2 statements',
    );
    const { texts, problems } = applyToWorkspace(project, V001, split);
    assert.deepEqual(problems, []);
    assert.ok(![...texts.keys()].some((p) => p.includes('/migrations/')), 'no migration is edited');
    const written = new Map([
      ...[...texts].map(([p, t]) => [p.slice(ROOT.length + 1), t] as const),
      ...(split.newFiles ?? []).map((f) => [f.filePath.slice(ROOT.length + 1), f.text] as const),
    ]);
    if (process.env.UPDATE_FIXTURES)
      for (const [rel, text] of written) {
        mkdirSync(dirname(join(FIXTURE, 'after', rel)), { recursive: true });
        writeFileSync(join(FIXTURE, 'after', rel), text);
      }
    assert.deepEqual(written, filesBelow(join(FIXTURE, 'after')));

    // Linted again with the new migrations: the new table has no finding (one reading a partition), the drop is
    // reported for review, alone, and the original is judged as v001 created it, as after a copy (docs/migrations.md).
    const after = workspaceProject(
      new Map([...files, ...[...written].map(([rel, t]) => [`${ROOT}/${rel}`, t] as const)]),
    );
    const all = [...after.files()].flatMap((p) => after.lint(p).map((f) => ({ file: p.slice(ROOT.length + 1), f })));
    assert.deepEqual(
      all.filter(({ f }) => f.ruleId === 'large-partition').map(({ f }) => (f.data as { table?: string }).table),
      ['iot.readings'],
    );
    assert.deepEqual(
      all
        .filter(({ file }) => file.startsWith('migrations/v00') && !file.endsWith('v001_create.cql'))
        .map(({ file, f }) => `${file} ${f.ruleId}`),
      ['migrations/v003_drop_payload_from_readings.cql destructive-migration'],
    );
  });

  test('application code that binds the key once refuses it, and cqlint fix says why', async (t) => {
    const schema = filesBelow(join(FIXTURE, 'before')).get('migrations/v001_create.cql')!;
    const java = `class ReadingDao {
  void save(CqlSession session) {
    session.execute("INSERT INTO iot.readings (sensor_id, day, ts, kind, payload) VALUES (?, ?, ?, ?, ?)");
  }
}
`;
    const files = new Map([
      [`${ROOT}/schema.cql`, schema],
      [`${ROOT}/src/ReadingDao.java`, java],
    ]);
    const { split } = splitOf(files, `${ROOT}/schema.cql`);
    assert.ok(split);
    assert.equal(split.refused?.filePath, `${ROOT}/src/ReadingDao.java`);
    assert.match(
      split.refused.reason,
      /^cqlint cannot make this change in the code: the statement at line 3 needs the application: binds the key values twice: once for readings and once for iot\.readings_payload$/,
    );
    assert.ok(!split.isPreferred, 'a refused fix is not preferred');

    const dir = tempDir({ 'schema.cql': schema, 'src/ReadingDao.java': java });
    t.after(() => dir.cleanup());
    const run = await runCli(['fix', '--fix', 'split:payload', '.'], { cwd: dir.dir });
    assert.equal(run.code, 2, run.stdout);
    assert.match(
      run.stderr,
      /src\/ReadingDao\.java cannot take its edits: cqlint cannot make this change in the code: .*nothing was changed/,
    );
    assert.deepEqual(
      filesBelow(dir.dir),
      new Map([
        ['schema.cql', schema],
        ['src/ReadingDao.java', java],
      ]),
    );
  });

  test('a write inside a BATCH stays a member of it, in a CQL file and in a string of Java or Python', () => {
    const schema = filesBelow(join(FIXTURE, 'before')).get('migrations/v001_create.cql')!;
    const key = `6c1f6f0e-3d5a-4b1e-9a77-0d2b4c6e8f10, '2026-11-29', '2026-11-29 10:01:00+0000'`;
    const insert = `INSERT INTO iot.readings (sensor_id, day, ts, kind, payload) VALUES (${key}, 'temp', 0x01);`;
    const kept = `INSERT INTO iot.readings (sensor_id, day, ts, kind) VALUES (${key}, 'temp');`;
    const moved = `INSERT INTO iot.readings_payload (sensor_id, day, ts, payload) VALUES (${key}, 0x01);`;
    const cases = [
      {
        // Bound by markers: rewritten with the note above it, at the member's indentation.
        file: 'queries.cql',
        before:
          'BEGIN BATCH\n  INSERT INTO iot.readings (sensor_id, day, ts, kind, payload) VALUES (?, ?, ?, ?, ?);\nAPPLY BATCH;\n',
        after: [
          'BEGIN BATCH',
          '  -- payload moved: binds the key values twice: once for readings and once for iot.readings_payload',
          '  INSERT INTO iot.readings (sensor_id, day, ts, kind) VALUES (?, ?, ?, ?);',
          '  INSERT INTO iot.readings_payload (sensor_id, day, ts, payload) VALUES (?, ?, ?, ?);',
          'APPLY BATCH;',
          '',
        ].join('\n'),
      },
      {
        // One line of a Java string: the two writes stay on it, in its batch.
        file: 'src/ReadingDao.java',
        before: `class ReadingDao {\n  void save(CqlSession session) {\n    session.execute("BEGIN BATCH ${insert} APPLY BATCH");\n  }\n}\n`,
        after: `class ReadingDao {\n  void save(CqlSession session) {\n    session.execute("BEGIN BATCH ${kept} ${moved} APPLY BATCH");\n  }\n}\n`,
      },
      {
        // A Python string of lines: each write on a line of its own, at the member's indentation.
        file: 'dao.py',
        before: `def save(session):\n    session.execute("""\n        BEGIN BATCH\n          ${insert}\n        APPLY BATCH\n    """)\n`,
        after: `def save(session):\n    session.execute("""\n        BEGIN BATCH\n          ${kept}\n          ${moved}\n        APPLY BATCH\n    """)\n`,
      },
    ];
    for (const c of cases) {
      const path = `${ROOT}/${c.file}`;
      const { project, split } = splitOf(
        new Map([
          [`${ROOT}/schema.cql`, schema],
          [path, c.before],
        ]),
        `${ROOT}/schema.cql`,
      );
      assert.ok(split, c.file);
      assert.equal(split.refused, undefined, c.file);
      const edits = split.otherFiles?.find((o) => o.filePath === path)?.edits;
      assert.ok(edits, `${c.file} is edited`);
      const source = project.sourceEdits(path, edits);
      assert.ok('edits' in source, `${c.file} takes the edits: ${JSON.stringify(source)}`);
      const after = applyEdits(project.sourceText(path)!, source.edits);
      assert.equal(after, c.after, c.file);
      // Read again: one batch holding both writes, none inside it.
      const again = workspaceProject(new Map([[path, after]])).parse(path).statements;
      assert.deepEqual(
        again.map((s) => (s.kind === 'Batch' ? s.statements.map((m) => `${m.kind} ${m.table.name.name}`) : s.kind)),
        [['Insert readings', 'Insert readings_payload']],
        c.file,
      );
    }
  });
});
