// Before/after fixtures for every fix: test/fixes/fixtures/<fix>/<case>.before.cql names the fix on
// its `-- apply:` line (and options on `-- with:`); applying it must give <case>.after.cql exactly, with
// no new syntax error, every comment kept, and the fix no longer offered on the result.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { CreateTableStatement, ParseResult } from '../../grammar/ast';
import { parseCql } from '../../grammar';
import { addShardColumnFixes } from '../../server/core/fixes/shard-column';
import { addTimeBucketFixes } from '../../server/core/fixes/time-bucket';
import { addShardToStatementFixes, isDmlStatement, readAllShardsFixes } from '../../server/core/fixes/shard-queries';
import { computeShard } from '../../server/core/fixes/shard-math';
import { fixesForFinding } from '../../server/core/fixes';
import { projectFixEnvironment } from '../../server/core/fixes/environment';
import { allStatements } from '../../server/core/util/statements';
import type { Fix } from '../../server/core/fixes/types';
import { MAIN, applyChecked, fixtures, matchesTitle, projectWith } from './helpers';

type Offer = (text: string, options: Record<string, unknown>) => Fix[];

function firstTable(parse: ParseResult): CreateTableStatement {
  const table = parse.statements.find((s): s is CreateTableStatement => s.kind === 'CreateTable');
  assert.ok(table, 'the fixture has a CREATE TABLE');
  return table;
}

/** Fixes for every DML statement on a sharded table (the table resolved through the Project). */
function shardQueryOffer(readAll: boolean): Offer {
  return (text) => {
    const project = projectWith(text);
    const parse = project.parse(MAIN);
    const fixes: Fix[] = [];
    for (const statement of allStatements(parse.statements)) {
      if (!isDmlStatement(statement)) continue;
      const name = statement.kind === 'Select' ? statement.from : statement.table;
      const table = project.tableFor(MAIN, name, statement.range.start);
      if (!table?.shard) continue;
      fixes.push(...addShardToStatementFixes(text, statement, table, { computeShard }));
      if (readAll && statement.kind === 'Select') fixes.push(...readAllShardsFixes(text, statement, table));
    }
    return fixes;
  };
}

/**
 * Fixes offered for the findings of one rule, as the editor and the CLI get them. `shardCount` is the
 * setting; `growth` is added to hot-partition's data (a hot key that also grows without bound).
 */
function findingOffer(ruleId: string): Offer {
  return (text, options) => {
    const project = projectWith(text);
    const env = projectFixEnvironment(project, MAIN, { shardCount: options['shardCount'] as number | undefined });
    return (env.findings ?? [])
      .filter((f) => f.ruleId === ruleId)
      .map((f) => (options['growth'] ? { ...f, data: { ...f.data, growth: options['growth'] } } : f))
      .flatMap((f) => fixesForFinding(text, project.parse(MAIN), f, env));
  };
}

/**
 * How each folder's fixes are offered, the rules whose findings the fix must leave none of, and (for a
 * sharded copy) the rule whose findings it must leave as they were: the original table stays.
 */
const FOLDERS: Record<string, { offer: Offer; settles: string[]; keeps?: string }> = {
  'shard-column': {
    offer: (text, options) => {
      const parse = parseCql(text);
      return addShardColumnFixes(text, parse, firstTable(parse), options);
    },
    settles: ['hot-partition'],
  },
  'time-bucket': { offer: (text, options) => addTimeBucketFixes(text, firstTable(parseCql(text)), options), settles: ['unbounded-partition'] },
  'shard-query': { offer: shardQueryOffer(false), settles: ['incomplete-key-write', 'unrestricted-partition-key'] },
  'read-all-shards': { offer: shardQueryOffer(true), settles: ['unrestricted-partition-key'] },
  'rename-column': { offer: findingOffer('unknown-column'), settles: ['unknown-column'] },
  'shard-value': { offer: findingOffer('shard-mismatch'), settles: ['shard-mismatch'] },
  'shard-reads': { offer: findingOffer('hot-partition'), settles: ['hot-partition'] },
  'shard-copy': { offer: findingOffer('hot-partition'), settles: [], keeps: 'hot-partition' },
};

for (const [folder, { offer, settles, keeps }] of Object.entries(FOLDERS)) {
  describe(`fixture ${folder}`, () => {
    for (const fixture of fixtures(folder)) {
      test(fixture.name, () => {
        const offered = offer(fixture.before, fixture.options);
        const fix = offered.find((f) => matchesTitle(f, fixture.title));
        assert.ok(fix, `no fix titled "${fixture.title}"; offered: ${offered.map((f) => JSON.stringify(f.title)).join(', ') || 'none'}`);
        const { output, problems } = applyChecked(fixture.before, fix);
        assert.deepEqual(problems, []);
        assert.equal(output, fixture.after);
        const left = projectWith(output).lint(MAIN).filter((f) => settles.includes(f.ruleId));
        assert.deepEqual(left.map((f) => `${f.ruleId}: ${f.message}`), [], 'the finding the fix is for is gone');
        if (keeps) {
          const messages = (text: string) => projectWith(text).lint(MAIN).filter((f) => f.ruleId === keeps).map((f) => f.message);
          assert.deepEqual(messages(output), messages(fixture.before), `the ${keeps} findings are those of the original`);
          const table = parseCql(fixture.before).statements.find((s) => s.kind === 'CreateTable')!;
          const original = fixture.before.slice(table.range.start, table.range.end);
          assert.ok(output.includes(original), 'the original statement is left byte for byte');
        } else if (folder !== 'time-bucket') {
          const again = offer(output, fixture.options).filter((f) => matchesTitle(f, fixture.title));
          assert.deepEqual(again.map((f) => f.title), [], 'the fix is not offered again on its own result');
        }
      });
    }
  });
}
