// Project.forgetLookups lets a long-lived process (the push server, once its backlog is published) drop
// the answers its pass over the workspace kept: the reference index's, the model's, and the schema's
// module caches (workloads, statements' evidence, column profiles, one-definition lists, interned names,
// conflicting-definition's key signatures). Each must be a pure cache: after forgetting, the answers are
// new objects equal to the old ones, and every file's findings equal a fresh Project's, before and after
// a later edit (the rule runner keeps results by lists and tables it is given: a new equal list must keep
// them right).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Project } from '../../server/core/engine/project';
import { tableWorkload } from '../../server/core/schema/workload';
import { profileColumn } from '../../server/core/schema/columns';
import { resolveTableName } from '../../server/core/schema/resolve';

const ROOT = '/virtual/forget';

function workspace(): Record<string, string> {
  return {
    [`${ROOT}/events.cql`]: 'CREATE TABLE ks.events (source text, at timestamp, v text, PRIMARY KEY (source, at));\n',
    [`${ROOT}/status.cql`]: 'CREATE TABLE ks.by_status (status text, id uuid, v text, PRIMARY KEY (status, id));\n',
    [`${ROOT}/users-a.cql`]: 'CREATE TABLE ks.users (id uuid PRIMARY KEY, name text);\n',
    [`${ROOT}/users-b.cql`]: 'CREATE TABLE ks.users (id uuid, name text, PRIMARY KEY (name, id));\n',
    [`${ROOT}/app.cql`]: [
      "INSERT INTO ks.by_status (status, id, v) VALUES ('new', ?, ?);",
      "SELECT * FROM ks.by_status WHERE status = 'done';",
      'INSERT INTO ks.events (source, at, v) VALUES (?, toTimestamp(now()), ?);',
      'SELECT * FROM ks.events WHERE source = ? AND at > ?;',
      'SELECT name FROM ks.users WHERE id = ?;',
      '',
    ].join('\n'),
  };
}

function projectOf(files: Record<string, string>): Project {
  const project = new Project({ config: {} });
  for (const [file, text] of Object.entries(files)) project.setFile(file, text);
  return project;
}

function lintAll(project: Project, files: Record<string, string>): unknown {
  return Object.keys(files).map((file) => [file, project.lint(file)]);
}

describe('Project.forgetLookups', () => {
  test('the workspace lints with findings from the workload, evidence and conflicting-definition caches', () => {
    const files = workspace();
    const ids = new Set(
      Object.keys(files).flatMap((file) =>
        projectOf(files)
          .lint(file)
          .map((f) => f.ruleId),
      ),
    );
    // Otherwise the lints compared below would not read the caches forgotten.
    for (const id of ['hot-partition', 'conflicting-definition'])
      assert.ok(ids.has(id), `${id} among ${[...ids].join(', ')}`);
  });

  test('workloads, column profiles and one-definition lists are made again, new and equal', () => {
    const files = workspace();
    const project = projectOf(files);
    const model = project.schema();
    const events = model.allTables().find((t) => t.name === 'events')!;
    const references = project.referencesTo(events);
    assert.ok(references.length > 0);
    const workload = tableWorkload(events, undefined, references);
    assert.equal(tableWorkload(events, undefined, references), workload, 'kept until forgotten');
    const profile = profileColumn(events.partitionKey[0]!, events);
    const name = { name: 'events', keyspace: 'ks' } as Parameters<typeof resolveTableName>[2];
    // Asked from the file that defines it: the file's version, as a one-definition list.
    const single = resolveTableName(model, project.fileSchema(`${ROOT}/events.cql`), name);
    assert.deepEqual(single, [events]);
    assert.equal(
      resolveTableName(model, project.fileSchema(`${ROOT}/events.cql`), name),
      single,
      'kept until forgotten',
    );

    project.forgetLookups();

    // Asked with the same references array (kept by a caller): made again, not the kept answer.
    const again = tableWorkload(events, undefined, references);
    assert.notEqual(again, workload, 'the workload was let go');
    assert.deepEqual(again, workload);
    assert.deepEqual(tableWorkload(events, undefined, project.referencesTo(events)), workload);
    const profileAgain = profileColumn(events.partitionKey[0]!, events);
    assert.notEqual(profileAgain, profile, 'the profile was let go');
    assert.deepEqual(profileAgain, profile);
    const singleAgain = resolveTableName(model, project.fileSchema(`${ROOT}/events.cql`), name);
    assert.notEqual(singleAgain, single, 'the list was let go');
    assert.deepEqual(singleAgain, [events]);
  });

  test('every file lints as before and as a fresh Project, also after a later edit', () => {
    const files = workspace();
    const project = projectOf(files);
    const before = lintAll(project, files);
    project.forgetLookups();
    assert.deepEqual(lintAll(project, files), before);
    assert.deepEqual(lintAll(project, files), lintAll(projectOf(files), files));

    // An edit after forgetting: the evidence (one literal status) and the conflict both change.
    files[`${ROOT}/app.cql`] = files[`${ROOT}/app.cql`]!.replace("VALUES ('new', ?, ?)", 'VALUES (?, ?, ?)');
    files[`${ROOT}/users-b.cql`] = 'CREATE TABLE ks.users (id uuid PRIMARY KEY, name text);\n';
    project.setFile(`${ROOT}/app.cql`, files[`${ROOT}/app.cql`]!);
    project.setFile(`${ROOT}/users-b.cql`, files[`${ROOT}/users-b.cql`]!);
    const edited = lintAll(project, files);
    assert.deepEqual(edited, lintAll(projectOf(files), files));
    assert.notDeepEqual(edited, before, 'the edit changes findings');
    project.forgetLookups();
    assert.deepEqual(lintAll(project, files), edited);
  });
});
