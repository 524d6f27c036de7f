// Before/after fixtures for every fix: test/fixes/fixtures/<fix>/<case>.before.cql names the fix on
// its `-- apply:` line (and options on `-- with:`); applying it must give <case>.after.cql exactly, with
// no new syntax error, every comment kept, and the fix no longer offered on the result.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { CreateTableStatement, ParseResult } from '../../grammar/ast';
import { parseCql } from '../../grammar';
import { fixesForFinding } from '../../server/core/fixes';
import { projectFixContext } from '../../server/core/fixes/environment';
import { namedPlan } from '../../server/core/partition/planner';
import { keyChangeFix } from '../../server/core/fixes/refactor';
import type { Fix } from '../../server/core/fixes/types';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { FIXTURES, MAIN, applyChecked, fixtures, matchesTitle, projectWith } from './helpers';

type Offer = (text: string, options: Record<string, unknown>) => Fix[];

function firstTable(parse: ParseResult): CreateTableStatement {
  const table = parse.statements.find((s): s is CreateTableStatement => s.kind === 'CreateTable');
  assert.ok(table, 'the fixture has a CREATE TABLE');
  return table;
}

/**
 * The key change `-- with:` describes (`{"shard": {"method": "murmur3", "sources": ["title"], "count": 16}}`,
 * `{"bucket": {"granularity": "day", "source": "ts"}}`) applied to the first table: the layout of the
 * schema edits every partition fix makes.
 */
const keyEditOffer: Offer = (text, options) => {
  const project = projectWith(text);
  const parse = project.parse(MAIN);
  const create = firstTable(parse);
  const table = project.tableFor(MAIN, create.name, create.range.end);
  assert.ok(table, 'the table is in the schema');
  const shard = options['shard'] as { method: 'murmur3' | 'random'; sources?: string[]; count: number } | undefined;
  const plan = namedPlan(table, {
    ...(shard ? { shard: { method: shard.method, sources: shard.sources ?? [], count: shard.count, offset: 1 } } : {}),
    ...(options['bucket'] ? { bucket: options['bucket'] as { granularity: 'day'; source?: string } } : {}),
    ...(options['clustering'] ? { clustering: options['clustering'] as string[] } : {}),
  });
  const fix = keyChangeFix(
    {
      filePath: MAIN,
      text,
      create,
      table,
      comments: parse.comments,
      statements: [],
      rewrite: { maxInList: 32, inForWrites: true },
    },
    plan,
  );
  return fix ? [fix.resolve()] : [];
};

/** Fixes offered for the findings of some rules, as the editor and the CLI get them; `shardCount` is the setting. */
function findingOffer(...ruleIds: string[]): Offer {
  return (text, options) => {
    const project = projectWith(text);
    const env = projectFixContext(project, MAIN, { shardCount: options['shardCount'] as number | undefined });
    return project
      .lint(MAIN)
      .filter((f) => ruleIds.includes(f.ruleId))
      .flatMap((f) => fixesForFinding(text, project.parse(MAIN), f, env));
  };
}

/**
 * How each folder's fixes are offered, the rules whose findings the fix must leave none of, and (for a
 * copy) the rule whose findings it must leave as they were: the original table stays.
 */
const FOLDERS: Record<string, { offer: Offer; settles: string[]; keeps?: string }> = {
  'key-edits': { offer: keyEditOffer, settles: [] },
  'shard-query': {
    offer: findingOffer('incomplete-key-write', 'unrestricted-partition-key'),
    settles: ['incomplete-key-write', 'unrestricted-partition-key'],
  },
  'read-all-shards': { offer: findingOffer('unrestricted-partition-key'), settles: ['unrestricted-partition-key'] },
  'rename-column': { offer: findingOffer('unknown-column'), settles: ['unknown-column'] },
  'shard-value': { offer: findingOffer('shard-mismatch'), settles: ['shard-mismatch'] },
  'suppression-id': { offer: findingOffer('invalid-suppression'), settles: ['invalid-suppression'] },
  'shard-reads': { offer: findingOffer('hot-partition'), settles: ['hot-partition'] },
  'shard-copy': { offer: findingOffer('hot-partition'), settles: [], keeps: 'hot-partition' },
  // The hint states the default the verdict rested on: the finding stays (now on a hinted rate).
  twcs: { offer: findingOffer('ttl-without-twcs'), settles: ['ttl-without-twcs'] },
  'rate-hint': {
    offer: (text, options) =>
      ['unbounded-partition', 'large-partition', 'queue-table'].flatMap((id) => findingOffer(id)(text, options)),
    settles: [],
    keeps: 'queue-table',
  },
};

test('every folder of fixtures found through the findings has a "not applicable" case', () => {
  // key-edits tests the layout of the schema edits, not when a fix is offered; the TWCS fix is offered with
  // every ttl-without-twcs finding (the option can always be set on the CREATE TABLE it reports).
  const without = Object.keys(FOLDERS).filter(
    (folder) => folder !== 'key-edits' && folder !== 'twcs' && !fixtures(folder).some((f) => f.title === '(none)'),
  );
  assert.deepEqual(without, []);
});

for (const [folder, { offer, settles, keeps }] of Object.entries(FOLDERS)) {
  describe(`fixture ${folder}`, () => {
    for (const fixture of fixtures(folder)) {
      test(fixture.name, () => {
        const offered = offer(fixture.before, fixture.options);
        if (fixture.title === '(none)') {
          // A "not applicable" case: the finding is there but no fix is offered, and the file is its own after.
          const found = projectWith(fixture.before)
            .lint(MAIN)
            .filter((f) => [...settles, ...(keeps ? [keeps] : [])].includes(f.ruleId));
          assert.ok(found.length > 0, 'the case has a finding the fix would be for');
          assert.deepEqual(
            offered.map((f) => f.title),
            [],
          );
          assert.equal(fixture.after, fixture.before);
          return;
        }
        const fix = offered.find((f) => matchesTitle(f, fixture.title));
        assert.ok(
          fix,
          `no fix titled "${fixture.title}"; offered: ${offered.map((f) => JSON.stringify(f.title)).join(', ') || 'none'}`,
        );
        const { output, problems } = applyChecked(fixture.before, fix);
        assert.deepEqual(problems, []);
        // UPDATE_FIXTURES=1 rewrites the after files (review the diff), as rust-analyzer's UPDATE_EXPECT does.
        if (process.env.UPDATE_FIXTURES) writeFileSync(join(FIXTURES, folder, `${fixture.name}.after.cql`), output);
        else assert.equal(output, fixture.after);
        const left = projectWith(output)
          .lint(MAIN)
          .filter((f) => settles.includes(f.ruleId));
        assert.deepEqual(
          left.map((f) => `${f.ruleId}: ${f.message}`),
          [],
          'the finding the fix is for is gone',
        );
        if (keeps) {
          const messages = (text: string) =>
            projectWith(text)
              .lint(MAIN)
              .filter((f) => f.ruleId === keeps)
              .map((f) => f.message);
          assert.deepEqual(
            messages(output),
            messages(fixture.before),
            `the ${keeps} findings are those of the original`,
          );
          const table = parseCql(fixture.before).statements.find((s) => s.kind === 'CreateTable')!;
          const original = fixture.before.slice(table.range.start, table.range.end);
          assert.ok(output.includes(original), 'the original statement is left byte for byte');
        } else if (folder !== 'key-edits') {
          const again = offer(output, fixture.options).filter((f) => matchesTitle(f, fixture.title));
          assert.deepEqual(
            again.map((f) => f.title),
            [],
            'the fix is not offered again on its own result',
          );
        }
      });
    }
  });
}
