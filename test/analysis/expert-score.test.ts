// Scores the engine on the 43 tables of test/fixtures/expert-tables.ts, labelled by an expert before
// cqlint ran on them (issue 21). A verdict is one (table, rule) pair that the expert expects or the engine
// reports, plus one per table the expert expects to be clean of every scored rule; it is right when the
// engine reports exactly the expected number of findings. The test prints the score and every verdict it
// gets wrong, and fails only when the score drops below FLOOR (a regression): the labels are the expert's,
// so a wrong verdict is a known gap to close, not a test to bend.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EXPERT_TABLES, SCORED_RULES, type ExpertTable } from '../fixtures/expert-tables';
import { MAIN, ROOT, ofRule, projectWith } from './helpers';
import type { Finding } from '../../server/core/findings/findings';

/** Right verdicts below this fail the test (the score when it was last raised; see the history of this line). */
const FLOOR = 51;

const APP = `${ROOT}/app.cql`;

function findingsOf(t: ExpertTable): { findings: Finding[]; internalErrors: unknown[] } {
  const project = projectWith(t.schema, t.app ? { 'app.cql': t.app } : {}, {
    config: t.config ?? {},
    target: t.target,
  });
  const findings = [...project.lint(MAIN), ...(t.app ? project.lint(APP) : [])];
  return { findings, internalErrors: project.internalErrors };
}

test(`expert-labelled tables: the score (${EXPERT_TABLES.length} tables)`, () => {
  let right = 0;
  let total = 0;
  let cleanTables = 0;
  const wrong: string[] = [];
  for (const t of EXPERT_TABLES) {
    const { findings, internalErrors } = findingsOf(t);
    assert.deepEqual(internalErrors, [], `no rule throws on ${t.name}`);
    let tableRight = true;
    const expected = Object.keys(t.expect);
    for (const rule of SCORED_RULES) {
      const want = t.expect[rule]?.[0] ?? 0;
      const got = ofRule(findings, rule);
      if (want === 0 && got.length === 0) continue;
      total++;
      if (got.length === want) right++;
      else {
        tableRight = false;
        const reason = t.expect[rule]?.[1] ?? 'expected none';
        wrong.push(
          `  ${t.name} / ${rule}: expected ${want}, got ${got.length} (${reason})${got.map((f) => `\n      ${f.message.slice(0, 220)}`).join('')}`,
        );
      }
    }
    if (!expected.length) {
      // A table the expert calls clean is one verdict of its own: right when no scored rule fires.
      total++;
      if (SCORED_RULES.every((rule) => ofRule(findings, rule).length === 0)) right++;
    }
    if (tableRight) cleanTables++;
  }
  console.log(
    `expert score: ${right} of ${total} verdicts right; ${cleanTables} of ${EXPERT_TABLES.length} tables entirely right (floor ${FLOOR})`,
  );
  if (wrong.length) console.log(`wrong verdicts:\n${wrong.join('\n')}`);
  assert.ok(right >= FLOOR, `the score fell below its floor: ${right} < ${FLOOR}`);
});

test('the labelled set holds at least 40 tables, 15 of them with non-English or neutral names, and a reason per label', () => {
  assert.ok(EXPERT_TABLES.length >= 40);
  const english =
    /^[a-z_]+\.(readings|impressions|notes|page|inbox|user|pending|high|products|leaderboard|sequences|redemptions|users|cpu|disk|contacts|tickets)/;
  const other = EXPERT_TABLES.filter((t) => {
    const name = /CREATE TABLE ([\w.]+)/.exec(t.schema)?.[1] ?? '';
    return !english.test(name);
  });
  assert.ok(other.length >= 15, `${other.length} tables with non-English or neutral names`);
  for (const t of EXPERT_TABLES) {
    for (const [rule, [count, why]] of Object.entries(t.expect)) {
      assert.ok((SCORED_RULES as readonly string[]).includes(rule), `${t.name}: ${rule} is a scored rule`);
      assert.ok(count > 0 && why.length > 10, `${t.name}: ${rule} has a count and a reason`);
    }
    if (!Object.keys(t.expect).length) assert.ok((t.clean ?? '').length > 5, `${t.name}: a clean table says why`);
  }
});
