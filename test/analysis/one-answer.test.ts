// One answer per table (issue 38 item 7): hot-partition and unbounded-partition on one table whose
// hot-partition fix (a shard and a time bucket) bounds the growth too give one fix, and unbounded-partition's
// message is a short reference to it; where the two need different cures, both keep their full answer; a
// suppression of either rule leaves the other's full answer (rules/one-answer.ts).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Finding } from '../../server/core/findings/findings';
import { fixesForFinding } from '../../server/core/fixes';
import { projectFixContext } from '../../server/core/fixes/environment';
import type { Project } from '../../server/core/engine/project';
import { MAIN, ofRule, projectWith } from './helpers';
import { runCli, tempDir } from '../cli/helpers';

const APP_LOG =
  'CREATE TABLE ks.app_log (level text, logged_at timestamp, message text, PRIMARY KEY (level, logged_at));';
// A work list read whole: hot-partition shards it with no time bucket, unbounded-partition bounds it with one.
const WORK_LIST =
  'CREATE TABLE ks.orders_by_status (status text, created_at timestamp, order_id uuid, PRIMARY KEY (status, created_at, order_id));\nSELECT * FROM ks.orders_by_status WHERE status = ?;';

function both(project: Project): { hot: Finding | undefined; grows: Finding | undefined } {
  const findings = project.lint(MAIN);
  return { hot: ofRule(findings, 'hot-partition')[0], grows: ofRule(findings, 'unbounded-partition')[0] };
}

function fixIds(project: Project, finding: Finding): string[] {
  const fixes = fixesForFinding(project.getText(MAIN)!, project.parse(MAIN), finding, projectFixContext(project, MAIN));
  return fixes.map((f) => f.id ?? '?');
}

/** The figures sentence every partition message ends with. */
const FIGURES = /Apache Cassandra: a row ≈/;

describe('one answer per table', () => {
  test("the same cure: unbounded-partition refers to hot-partition's fix and offers no edit of the key", () => {
    const project = projectWith(APP_LOG);
    const { hot, grows } = both(project);
    assert.ok(hot && grows, 'both rules report the table');
    assert.equal((hot.data as { curesGrowth?: boolean }).curesGrowth, true);
    const hotFixes = fixIds(project, hot);
    assert.equal(hotFixes[0], 'shard:random+bucket:day');
    assert.equal(grows.messageId, 'sameCure');
    assert.equal(
      grows.message,
      'partition grows forever: every row of ks.app_log for one level lands in one partition (the hot-partition fix bounds it)',
    );
    assert.equal(grows.severity, 'warning', 'the severity stays the rule’s');
    const data = grows.data as { plans: unknown[]; curedBy?: string; suggestedKey: string };
    assert.deepEqual(data.plans, []);
    assert.equal(data.curedBy, 'hot-partition');
    assert.equal(data.suggestedKey, '((level, shard, day), logged_at)');
    // No key change among its fixes: the one on offer is hot-partition's (the rate hint is no key change).
    assert.deepEqual(fixIds(project, grows), ['hint:rate']);
    // The messages do not repeat: the figures and the advice are hot-partition's alone.
    assert.match(hot.details!, FIGURES);
    assert.doesNotMatch(grows.details!, FIGURES);
    assert.doesNotMatch(grows.details!, /Add a time bucket/);
    assert.match(grows.details!, /hot-partition reports ks\.app_log too, and its fix bounds this growth as well/);
  });

  test('different cures keep both answers: a work list gets shards from hot-partition, a bucket from unbounded-partition', () => {
    const project = projectWith(WORK_LIST);
    const { hot, grows } = both(project);
    assert.ok(hot && grows);
    assert.equal((hot.data as { curesGrowth?: boolean }).curesGrowth, undefined);
    assert.equal(grows.messageId, 'growsForever');
    assert.match(grows.details!, /Add a time bucket hour timestamp/);
    assert.match(grows.details!, FIGURES);
    assert.ok(fixIds(project, grows).includes('bucket:hour'));
    assert.ok(fixIds(project, hot)[0]!.startsWith('shard:'));
  });

  test('hot-partition suppressed or off: unbounded-partition gives its full answer and its own fix', () => {
    const suppressed = projectWith(`-- cqlint-disable-next-line hot-partition\n${APP_LOG}`);
    const off = projectWith(APP_LOG, {}, { config: { rules: { 'hot-partition': 'off' } } });
    for (const project of [suppressed, off]) {
      const { hot, grows } = both(project);
      assert.equal(hot, undefined);
      assert.equal(grows!.messageId, 'growsForever');
      assert.match(grows!.details!, FIGURES);
      assert.equal((grows!.data as { curedBy?: string }).curedBy, undefined);
      assert.equal(fixIds(project, grows!)[0], 'bucket:hour');
    }
  });

  test('an edit elsewhere in an open file hands back the same reference (the server keeps its diagnostic)', () => {
    const users =
      '\nCREATE TABLE ks.users (id uuid PRIMARY KEY, name text);\nSELECT name FROM ks.users WHERE id = ?;\n';
    const project = projectWith(APP_LOG + users, {}, { editing: () => true });
    const before = project.lintOffsets(MAIN);
    const hot = before.find((f) => f.ruleId === 'hot-partition');
    const grows = before.find((f) => f.ruleId === 'unbounded-partition');
    assert.equal(grows?.messageId, 'sameCure');
    project.setFile(MAIN, `${APP_LOG}${users}-- a note below\n`);
    const after = project.lintOffsets(MAIN);
    assert.notEqual(after, before, 'the file was linted again');
    assert.equal(
      after.find((f) => f.ruleId === 'hot-partition'),
      hot,
      'the runner reuses the statement’s findings',
    );
    assert.equal(
      after.find((f) => f.ruleId === 'unbounded-partition'),
      grows,
    );
    // A new hot-partition finding (the table changed) makes the reference again.
    project.setFile(MAIN, `${APP_LOG.replace('message text', 'message text, host text')}${users}`);
    const changed = project.lintOffsets(MAIN).find((f) => f.ruleId === 'unbounded-partition');
    assert.equal(changed?.messageId, 'sameCure');
    assert.notEqual(changed, grows);
  });

  test('unbounded-partition suppressed: hot-partition is unchanged, and still words the growth', () => {
    const { hot, grows } = both(projectWith(`-- cqlint-disable-next-line unbounded-partition\n${APP_LOG}`));
    assert.equal(grows, undefined);
    assert.equal(hot!.details, both(projectWith(APP_LOG)).hot!.details);
    assert.match(hot!.details!, /also grows without bound/);
  });

  test('cqlint fix lists the cure once and applies it for the table without asking which finding', async (t) => {
    const temp = tempDir({ 'schema.cql': `${APP_LOG}\n` });
    t.after(() => temp.cleanup());
    const list = await runCli(['fix', '--list', '.'], { cwd: temp.dir });
    assert.equal(list.code, 0, list.stderr);
    assert.equal(list.stdout.match(/^ {2}[* ] shard:random\+bucket:day$/gm)?.length, 1, list.stdout);
    assert.doesNotMatch(list.stdout, /bucket:hour/);
    const fix = await runCli(['fix', '--table', 'ks.app_log', '--dry-run', '.'], { cwd: temp.dir });
    assert.equal(fix.code, 0, fix.stderr);
    assert.match(fix.stdout, /PRIMARY KEY \(\(level, shard, day\), logged_at\)/);
    // Its rule asked for by name, unbounded-partition's finding is still there, with no key change to apply.
    const asked = await runCli(['fix', '--rule', 'unbounded-partition', '--list', '.'], { cwd: temp.dir });
    assert.equal(asked.code, 0, asked.stderr);
    assert.match(asked.stdout, /unbounded-partition {2}ks\.app_log\n {4}hint:rate\n/);
  });
});
