// A partition fix the code cannot take: Kotlin's count of a day's latest videos formats the day into the statement
// (`"... WHERE yyyymmdd = %s".format(day)`), so a shard restriction after it has no literal to go in. Such a fix is
// marked refused with why, is not preferred (none is, when the preferred one is refused), the editor does not offer
// it (with or without deferred edits), and `cqlint fix` lists why and refuses to make it, changing nothing.
import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { codeActionsFor } from '../../server/lsp/features/code-actions';
import { fixesFor, workspaceProject } from '../fixes/workspace';
import { runCli, tempDir } from '../cli/helpers';
import { hostWorkspaces, loadFixtureLanguages, WORKSPACE_ROOT } from './workspaces';

const kotlin = (): Map<string, string> => hostWorkspaces().find((w) => w.name === 'kotlin')!.files;
const SCHEMA = `${WORKSPACE_ROOT}/schema.cql`;
const DAO = `${WORKSPACE_ROOT}/kotlin/VideoDao.kt`;

before(loadFixtureLanguages);

describe('a partition fix the code cannot take', () => {
  test('is marked refused with why, and no refused fix is preferred', () => {
    const project = workspaceProject(kotlin());
    const hot = project.lint(SCHEMA).find((f) => f.ruleId === 'hot-partition')!;
    const fixes = fixesFor(project, SCHEMA, hot);
    assert.deepEqual(
      fixes.map((f) => `${f.id}${f.refused ? ' refused' : ''}${f.isPreferred ? ' preferred' : ''}`),
      [
        'shard:random refused',
        'shard:videoid refused',
        'shard:added_date refused',
        'copy:shard:random',
        'copy-move:shard:random refused',
      ],
    );
    const refused = fixes[0]!;
    assert.equal(refused.refused?.filePath, DAO);
    assert.match(
      refused.refused?.reason ?? '',
      /^cqlint cannot make this change in the code: the edit falls between parts of the statement the code computes/,
    );
    assert.ok(
      refused.detail?.includes(`not possible: ${DAO} cannot take its edits: ${refused.refused!.reason}`),
      refused.detail?.join('\n'),
    );
    // The CQL in the code that refuses: the count of a day's videos, its day formatted in.
    assert.match(
      project.sourceText(DAO)!,
      /const val COUNT_LATEST = "SELECT count\(\*\) FROM latest_videos WHERE yyyymmdd = %s"/,
    );
  });

  test('the editor offers only what can be made, with deferred edits and without', () => {
    const project = workspaceProject(kotlin());
    const hot = project.lint(SCHEMA).find((f) => f.ruleId === 'hot-partition')!;
    for (const resolveEdits of [true, false]) {
      const refused: string[] = [];
      const actions = codeActionsFor({
        project,
        filePath: SCHEMA,
        uri: `file://${SCHEMA}`,
        start: hot.range.start.offset,
        end: hot.range.end.offset,
        diagnostics: [],
        resolveEdits,
        onRefused: (filePath) => refused.push(filePath),
      }).filter((a) => a.diagnostics?.[0]?.code === 'hot-partition');
      assert.deepEqual(
        actions.map((a) => [a.title.replace(/ \(.*/, ''), a.isPreferred === true]),
        [['Create a copy of killrvideo.latest_videos: latest_videos_sharded, a random shard column', false]],
        `resolveEdits ${resolveEdits}`,
      );
      assert.deepEqual([...new Set(refused)], [DAO]);
    }
  });

  test('cqlint fix lists why, and refuses the refactoring without changing a file', async (t) => {
    const files: Record<string, string> = {};
    for (const [path, text] of kotlin()) files[path.slice(WORKSPACE_ROOT.length + 1)] = text;
    const dir = tempDir(files);
    t.after(() => dir.cleanup());
    const list = await runCli(['fix', '--list', dir.dir], { cwd: dir.dir });
    assert.equal(list.code, 0, list.stderr);
    assert.match(
      list.stdout,
      /^ {4}shard:random\n(?: {6,}.*\n)*? {8}not possible: kotlin\/VideoDao\.kt cannot take its edits: cqlint cannot make this change in the code: /m,
    );
    // No fix is marked preferred (`*`) for the finding: the preferred one cannot be made.
    assert.doesNotMatch(list.stdout, /^ {2}\* /m);
    const run = await runCli(['fix', '--rule', 'hot-partition', '--table', 'killrvideo.latest_videos', dir.dir], {
      cwd: dir.dir,
    });
    assert.equal(run.code, 2, run.stdout + run.stderr);
    assert.match(
      run.stderr,
      /kotlin\/VideoDao\.kt cannot take its edits: cqlint cannot make this change in the code: .*; nothing was changed/,
    );
    for (const [name, text] of Object.entries(files)) assert.equal(readFileSync(dir.path(name), 'utf8'), text, name);
  });
});
