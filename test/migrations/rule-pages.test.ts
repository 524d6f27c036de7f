// Each migration-safety rule's docs page shows a "Problematic" history and a "Safer" one (docs/rules/<id>.md,
// each CQL block a migration file named by its first line, `-- file: <path>`): linted here, the first must
// draw the rule's finding and the second none of any migration rule's.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Project } from '../../server/core/engine/project';
import { projectRoot } from '../helpers/corpus';
import { ROOT, summary } from '../analysis/helpers';
import { MIGRATION_RULES } from './rules';

/** The files of a page's section: each ```cql block whose first line names its path. */
function sectionFiles(page: string, heading: string): Record<string, string> {
  const start = page.indexOf(`\n## ${heading}\n`);
  assert.ok(start >= 0, `a "## ${heading}" section`);
  const end = page.indexOf('\n## ', start + 1);
  const section = page.slice(start, end < 0 ? undefined : end);
  const files: Record<string, string> = {};
  for (const block of section.matchAll(/```cql\n([\s\S]*?)```/g)) {
    const named = /^-- file: (\S+)\n/.exec(block[1]!);
    assert.ok(named, `every CQL block of "${heading}" starts with -- file: <path>`);
    files[named[1]!] = block[1]!.slice(named[0].length);
  }
  assert.ok(Object.keys(files).length >= 1, `"${heading}" has CQL blocks`);
  return files;
}

function lintAll(files: Record<string, string>) {
  const project = new Project({ config: {} });
  for (const [rel, text] of Object.entries(files)) project.setFile(`${ROOT}/${rel}`, text);
  const findings = Object.keys(files).flatMap((rel) => project.lint(`${ROOT}/${rel}`));
  assert.deepEqual(project.internalErrors, []);
  assert.deepEqual(
    findings.filter((f) => f.ruleId === 'syntax-error'),
    [],
    'the examples parse',
  );
  return findings;
}

describe("migration rules: the docs pages' examples", () => {
  for (const id of MIGRATION_RULES) {
    const page = readFileSync(join(projectRoot, 'docs', 'rules', `${id}.md`), 'utf8');
    test(`${id}: the problematic history draws the finding`, () => {
      const findings = lintAll(sectionFiles(page, 'Problematic'));
      assert.ok(
        findings.some((f) => f.ruleId === id),
        `expected ${id} in:\n${summary(findings)}`,
      );
    });
    test(`${id}: the safer history draws no migration finding`, () => {
      const findings = lintAll(sectionFiles(page, 'Safer')).filter((f) => MIGRATION_RULES.includes(f.ruleId));
      assert.deepEqual(findings, [], summary(findings));
    });
  }
});
