// Typed finding data (server/core/findings/findings-data.ts): fixes exist only for real rules, every rule with
// fixes writes the data they read, and a fix that throws fails the tests (the server and the CLI contain
// it through onError). Every corpus finding goes through the same path in corpus.test.ts.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { allRules } from '../../server/core/rules';
import { ruleExamples } from '../helpers/rule-modules';
import { fixableRuleIds, fixesForFinding } from '../../server/core/fixes';
import { projectFixContext } from '../../server/core/fixes/environment';
import { applyEdits } from '../../server/core/fixes/text';
import { Project } from '../../server/core/engine/project';
import type { Finding } from '../../server/core/findings/findings';
import type { ExampleCase } from '../../server/core/rules/types';
import { MAIN, ROOT, projectWith } from './helpers';

/** The file an example's code is (its `path`, else main.cql). */
const mainOf = (c: ExampleCase): string => (c.path ? `${ROOT}/${c.path}` : MAIN);

function exampleProject(c: ExampleCase): Project {
  const project = new Project({ config: c.config ?? {}, target: c.target });
  project.setFile(mainOf(c), c.code);
  for (const [rel, text] of Object.entries(c.files ?? {})) project.setFile(`${ROOT}/${rel}`, text);
  return project;
}

describe('finding data', () => {
  test('fixes are offered only for registered rules', () => {
    const ids = new Set(allRules.map((r) => r.meta.id));
    assert.deepEqual(
      fixableRuleIds().filter((id) => !ids.has(id)),
      [],
    );
    assert.ok(fixableRuleIds().includes('hot-partition'));
  });

  test('every provider runs on every finding of every examples table without throwing, and its fixes apply', () => {
    const failures: string[] = [];
    let findings = 0;
    let fixes = 0;
    for (const [ruleId, examples] of Object.entries(ruleExamples)) {
      const cases = [...examples.valid.map((v) => (typeof v === 'string' ? { code: v } : v)), ...examples.invalid];
      cases.forEach((c, i) => {
        const project = exampleProject(c);
        const main = mainOf(c);
        const env = projectFixContext(project, main);
        for (const finding of project.lint(main)) {
          findings++;
          const where = `${ruleId} example #${i + 1}: ${finding.ruleId} at ${finding.range.start.line}:${finding.range.start.column}`;
          if (fixableRuleIds().includes(finding.ruleId) && finding.data === undefined)
            failures.push(`${where}: no data for its fixes`);
          try {
            for (const fix of fixesForFinding(c.code, project.parse(main), finding, env)) {
              fixes++;
              applyEdits(c.code, fix.edits);
            }
          } catch (error) {
            failures.push(`${where}: ${error instanceof Error ? error.stack : String(error)}`);
          }
        }
      });
    }
    assert.deepEqual(failures, []);
    assert.ok(findings > 50 && fixes > 10, `the examples exercise the fixes (${findings} findings, ${fixes} fixes)`);
  });

  test('asked for fix-all fixes only (safeOnly: --fix, the fixable counts), every provider offers exactly those', () => {
    let safe = 0;
    for (const [ruleId, examples] of Object.entries(ruleExamples)) {
      for (const c of [...examples.valid.map((v) => (typeof v === 'string' ? { code: v } : v)), ...examples.invalid]) {
        const project = exampleProject(c);
        const main = mainOf(c);
        const all = projectFixContext(project, main);
        const only = projectFixContext(project, main, { safeOnly: true });
        for (const finding of project.lint(main)) {
          const expected = fixesForFinding(c.code, project.parse(main), finding, all).filter((f) => f.safeForFixAll);
          const got = fixesForFinding(c.code, project.parse(main), finding, only).filter((f) => f.safeForFixAll);
          assert.deepEqual(
            got.map((f) => [f.title, f.edits]),
            expected.map((f) => [f.title, f.edits]),
            `${ruleId}: ${finding.ruleId} at ${finding.range.start.line}`,
          );
          safe += expected.length;
        }
      }
    }
    assert.ok(safe > 5, `the examples have fix-all fixes (${safe})`);
  });

  describe('a fix that throws', () => {
    const project = projectWith(
      'CREATE TABLE ks.t (id uuid PRIMARY KEY, name text);\nSELECT nme FROM ks.t WHERE id = ?;\n',
    );
    const [real] = project.lint(MAIN).filter((f) => f.ruleId === 'unknown-column');
    // Data no rule writes (the type forbids it): a suggestion that is not a string makes the fix throw.
    const broken: Finding = { ...real!, data: { ...real!.data, suggestion: 42 } };

    test('throws where no error reporter is given (the tests)', () => {
      assert.throws(() =>
        fixesForFinding(project.getText(MAIN)!, project.parse(MAIN), broken, projectFixContext(project, MAIN)),
      );
    });

    test('is reported and offers nothing where one is given (server, CLI)', () => {
      const reported: unknown[] = [];
      const env = projectFixContext(project, MAIN, {
        onError: (error, finding) => reported.push([finding.ruleId, error]),
      });
      assert.deepEqual(fixesForFinding(project.getText(MAIN)!, project.parse(MAIN), broken, env), []);
      assert.equal(reported.length, 1);
      assert.equal((reported[0] as unknown[])[0], 'unknown-column');
      assert.deepEqual(
        fixesForFinding(project.getText(MAIN)!, project.parse(MAIN), real!, env).map((f) => f.title),
        ['Change to name'],
      );
    });
  });
});
