// A fix that writes a hint down must not change the verdict it records (issue 35): "write the assumed rate
// down" puts the rate the finding rests on in a `-- @cqlint rate=` comment, for the user to correct; applied,
// the workspace linted again (with and without unbounded-partition's reportEntityHistories, which reports one
// entity's history only at the default rate unless a rate is stated), the finding is still there, with the
// same rate, now hinted. Over the rules' own examples, the corpus, examples/ and every workspace fixture.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { CqlintConfig } from '../../server/core/vocabulary/config';
import type { Finding } from '../../server/core/findings/findings';
import type { ExampleCase } from '../../server/core/rules/types';
import { RATE_HINT_ID, rateHintValue } from '../../server/core/fixes/rate-hint';
import { parseRateValue } from '../../server/core/schema/hint-comments';
import { MAIN, exampleProject } from '../analysis/helpers';
import { ruleExamples } from '../helpers/rule-modules';
import { corpusFiles, projectRoot, readText } from '../helpers/corpus';
import { applyToWorkspace, fixesFor, workspaceProject } from './workspace';

const HINTED_RULES = ['unbounded-partition', 'large-partition', 'queue-table'];
const OPTIONS: Record<string, CqlintConfig['rules']> = {
  default: {},
  'entity histories': { 'unbounded-partition': ['warn', { reportEntityHistories: true }] },
};

const tableOf = (f: Finding): string | undefined => (f.data as { table?: string } | undefined)?.table;
const rateOf = (f: Finding): number | undefined => {
  const d = f.data as
    { rowsPerSecond?: number; bucket?: { rowsPerSecond: number }; numbers?: { rowsPerSecond?: number } } | undefined;
  return d?.rowsPerSecond ?? d?.bucket?.rowsPerSecond ?? d?.numbers?.rowsPerSecond;
};

/** What writing the rate down changed of the finding: nothing, or the problem. */
function hintProblems(before: Finding[], after: Finding[], finding: Finding): string[] {
  const same = (f: Finding): boolean => f.ruleId === finding.ruleId && tableOf(f) === tableOf(finding);
  const was = before.filter(same);
  const now = after.filter(same);
  if (now.length !== was.length)
    return [`${finding.ruleId} on ${tableOf(finding)}: ${was.length} finding(s) before the hint, ${now.length} after`];
  const rate = rateOf(finding);
  const kept = now.find((f) => f.messageId === finding.messageId || f.messageId.startsWith(finding.messageId));
  if (!kept)
    return [
      `${finding.ruleId} on ${tableOf(finding)}: ${finding.messageId} became ${now.map((f) => f.messageId).join(', ')}`,
    ];
  const after_ = rateOf(kept);
  if (rate !== undefined && (after_ === undefined || Math.abs(after_ - rate) > rate * 0.05))
    return [`${finding.ruleId} on ${tableOf(finding)}: the rate was ${rate}/s, the hint made it ${after_}/s`];
  return [];
}

function cqlBelow(dir: string): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const path = join(dir, name);
      return statSync(path).isDirectory() ? cqlBelow(path) : name.endsWith('.cql') ? [path] : [];
    });
}

describe('writing the assumed rate down keeps the finding it records', () => {
  let applied = 0;
  for (const [option, rules] of Object.entries(OPTIONS)) {
    for (const rule of HINTED_RULES) {
      for (const [i, c] of ((ruleExamples[rule]?.invalid ?? []) as ExampleCase[]).entries()) {
        test(`${option}: ${rule} #${i + 1}${c.name ? ` (${c.name})` : ''}`, async () => {
          const example = { ...c, config: { ...c.config, rules: { ...c.config?.rules, ...rules } } };
          const project = await exampleProject(example);
          const findings = project.lint(MAIN);
          const failures: string[] = [];
          for (const finding of findings.filter((f) => HINTED_RULES.includes(f.ruleId))) {
            for (const fix of fixesFor(project, MAIN, finding).filter((f) => f.id === RATE_HINT_ID)) {
              applied++;
              const { texts } = applyToWorkspace(project, MAIN, fix);
              const after = await exampleProject(example, texts.get(MAIN) ?? c.code);
              failures.push(...hintProblems(findings, after.lint(MAIN), finding));
            }
          }
          assert.deepEqual(failures, []);
        });
      }
    }
    const workspaces: { name: string; files: string[] }[] = [
      ...['cassandra-docs', 'killrvideo', 'dialects'].map((folder) => ({
        name: `corpus/${folder}`,
        files: corpusFiles(folder),
      })),
      { name: 'examples', files: cqlBelow(join(projectRoot, 'examples')) },
      ...readdirSync(join(__dirname, 'workspaces'))
        .sort()
        .map((name) => ({
          name: `workspaces/${name}`,
          files: cqlBelow(join(__dirname, 'workspaces', name, 'before')),
        })),
    ];
    for (const { name, files } of workspaces) {
      test(`${option}: ${name}`, () => {
        const texts = new Map(files.map((f) => [f, readText(f)]));
        const project = workspaceProject(texts, { rules });
        const failures: string[] = [];
        for (const file of files) {
          const findings = project.lint(file);
          for (const finding of findings.filter((f) => HINTED_RULES.includes(f.ruleId))) {
            for (const fix of fixesFor(project, file, finding).filter((f) => f.id === RATE_HINT_ID)) {
              applied++;
              const after = workspaceProject(new Map([...texts, ...applyToWorkspace(project, file, fix).texts]), {
                rules,
              });
              failures.push(...hintProblems(findings, after.lint(file), finding).map((p) => `${file}: ${p}`));
            }
          }
        }
        assert.deepEqual(failures, []);
      });
    }
  }
  test('rate hints were applied', () => assert.ok(applied > 20, `only ${applied}`));
  test('the value written reads back as the rate it records, whatever the rate', () => {
    for (const rate of [1, 1 / 60, 1 / 3600, 1 / 86_400, 2.5, 7.8125, 0.013, 1234.5678, 1 / 7, 365, 10_201, 3e-7]) {
      const value = rateHintValue(rate);
      assert.ok(value, `a value for ${rate}/s`);
      const read = parseRateValue(value)!;
      assert.ok(Math.abs(read - rate) <= rate * 0.005, `${rate}/s written as ${value} reads back as ${read}/s`);
    }
    assert.equal(rateHintValue(1 / 3600), '1/h');
    assert.equal(rateHintValue(1 / 60), '1/min');
  });
});
