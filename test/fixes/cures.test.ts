// The preferred fix cures: for every partition finding of the partition rules' own examples (hints, samples,
// evidence, every target: the cases of issue 35's "What was found" among them), each fix applied to its
// workspace, linted again with the same config, samples and captures, leaves what its plan says: a plan the
// planner says cures (the preferred fix is one) leaves no finding of its rule on the table and no new
// partition finding there; one that does not says in its title what it leaves. Beside them, the
// mechanical property over real CQL (refactoring.test.ts) checks the same of every workspace fixture.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { ExampleCase } from '../../server/core/rules/types';
import { MAIN, ROOT, exampleProject } from '../analysis/helpers';
import { ruleExamples } from '../helpers/rule-modules';
import { parseCql } from '../../grammar/parse';
import { MIGRATION_RULES } from '../migrations/rules';
import {
  GUARDED_RULES,
  PARTITION_RULES,
  applyToWorkspace,
  fixesFor,
  meaningProblems,
  refactoringProblems,
} from './workspace';

describe('the preferred fix of every partition example cures it', () => {
  let preferred = 0;
  let leaving = 0;
  for (const rule of PARTITION_RULES) {
    const cases = (ruleExamples[rule]?.invalid ?? []) as ExampleCase[];
    for (const [i, c] of cases.entries()) {
      test(`${rule} #${i + 1}${c.name ? ` (${c.name})` : ''}`, async () => {
        const project = await exampleProject(c);
        const paths = [MAIN, ...Object.keys(c.files ?? {}).map((rel) => `${ROOT}/${rel}`)];
        const failures: string[] = [];
        for (const finding of project.lint(MAIN).filter((f) => PARTITION_RULES.includes(f.ruleId))) {
          const fixes = fixesFor(project, MAIN, finding);
          const plans = fixes.filter((f) => f.plan && !f.id?.startsWith('copy'));
          if (plans.some((f) => f.isPreferred)) preferred++;
          else if (plans.length) {
            leaving++;
            // No plan cures: none is preferred, and each says what it leaves.
            for (const f of plans)
              if (f.plan!.cures || !f.title.includes('(leaves: '))
                failures.push(`${finding.ruleId}: "${f.title}" is not preferred, yet its plan says it cures`);
          }
          for (const fix of fixes) {
            const { texts, problems } = applyToWorkspace(project, MAIN, fix);
            failures.push(...problems.map((p) => `${finding.ruleId} "${fix.title}": ${p}`));
            const after = await exampleProject(
              c,
              texts.get(MAIN) ?? c.code,
              Object.fromEntries(
                Object.entries(c.files ?? {}).map(([name, text]) => [name, texts.get(`${ROOT}/${name}`) ?? text]),
              ),
            );
            failures.push(
              ...refactoringProblems(project, after, paths, MAIN, finding, fix).map(
                (p) => `${finding.ruleId} "${fix.title}": ${p}`,
              ),
            );
            failures.push(
              ...meaningProblems(project, after, texts.keys(), finding, fix).map(
                (p) => `${finding.ruleId} "${fix.title}": ${p}`,
              ),
            );
          }
        }
        assert.deepEqual(failures, []);
      });
    }
  }
  test('the examples exercise preferred fixes, and findings no key change cures', () => {
    assert.ok(preferred > 30, `only ${preferred} findings with a preferred fix`);
    assert.ok(leaving > 0, 'no finding without a curing plan: the measured cases should be one');
  });
});

/**
 * The example's code as a migration history and the queries beside it: its schema statements (each with the
 * comments above it) as migrations/v001_create.cql, its other statements as main.cql (USE in both).
 */
function asMigration(code: string): { schema: string; queries: string } {
  let schema = '';
  let queries = '';
  let at = 0;
  for (const statement of parseCql(code).statements) {
    const chunk = code.slice(at, statement.range.end);
    at = statement.range.end;
    const ddl = /^(Create|Alter|Drop)/.test(statement.kind);
    if (ddl || statement.kind === 'Use') schema += chunk;
    if (!ddl) queries += chunk;
  }
  return { schema: `${schema}\n`, queries: `${queries}\n` };
}

describe('in a migration folder, the preferred fix of every partition example writes a new migration that cures it', () => {
  const V001 = 'migrations/v001_create.cql';
  let cured = 0;
  for (const rule of PARTITION_RULES) {
    const cases = (ruleExamples[rule]?.invalid ?? []) as ExampleCase[];
    for (const [i, c] of cases.entries()) {
      test(`${rule} #${i + 1}${c.name ? ` (${c.name})` : ''}`, async () => {
        const { schema, queries } = asMigration(c.code);
        const files = { ...c.files, [V001]: schema };
        const project = await exampleProject(c, queries, files);
        const migration = `${ROOT}/${V001}`;
        const failures: string[] = [];
        // over-partitioned-read reports the read (main.cql), the others the table (the migration).
        const found = [migration, MAIN].flatMap((file) =>
          project
            .lint(file)
            .filter((f) => PARTITION_RULES.includes(f.ruleId))
            .map((finding) => ({ file, finding })),
        );
        for (const { file, finding } of found) {
          for (const fix of fixesFor(project, file, finding).filter((f) => f.plan)) {
            const edited = [{ filePath: file, edits: fix.edits }, ...(fix.otherFiles ?? [])];
            if (edited.some((e) => e.edits.length && e.filePath.startsWith(`${ROOT}/migrations/`)))
              failures.push(`"${fix.title}" edits an applied migration`);
            const created = fix.newFiles ?? [];
            // A column moved to a table of its own: the table in v002, the column's drop in v003 of its own (applied
            // once the column is copied), which destructive-migration reports there for its review.
            const names = fix.plan!.split
              ? [/\/migrations\/v002_\w+\.cql$/, /\/migrations\/v003_drop_\w+\.cql$/]
              : [/\/migrations\/v002_\w+\.cql$/];
            if (created.length !== names.length || created.some((f, i) => !names[i]!.test(f.filePath)))
              failures.push(`"${fix.title}" creates ${created.map((f) => f.filePath).join(', ') || 'nothing'}`);
            if (!fix.isPreferred || !created.length) continue;
            const { texts, problems } = applyToWorkspace(project, file, fix);
            failures.push(...problems.map((p) => `"${fix.title}": ${p}`));
            const newFile = created[0]!;
            const after = await exampleProject(c, texts.get(MAIN) ?? queries, {
              ...Object.fromEntries(
                Object.entries(files).map(([name, text]) => [name, texts.get(`${ROOT}/${name}`) ?? text]),
              ),
              ...Object.fromEntries(created.map((f) => [f.filePath.slice(ROOT.length + 1), f.text])),
            });
            if (created[1])
              assert.deepEqual(
                after.lint(created[1].filePath).map((f) => f.ruleId),
                ['destructive-migration'],
                `"${fix.title}": the drop of the moved column is reported for review, and nothing else`,
              );
            const left = after
              .lint(newFile.filePath)
              .filter(
                (f) =>
                  MIGRATION_RULES.includes(f.ruleId) ||
                  GUARDED_RULES.includes(f.ruleId) ||
                  (f.ruleId === finding.ruleId && fix.plan!.cures),
              );
            failures.push(...left.map((f) => `"${fix.title}": the new migration has ${f.ruleId}: ${f.message}`));
            if (!left.length) cured++;
          }
        }
        assert.deepEqual(failures, []);
      });
    }
  }
  test('the examples exercise the preferred migration fixes', () => {
    assert.ok(cured > 20, `only ${cured} findings cured by a new migration`);
  });
});
