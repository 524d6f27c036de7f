// Runs every rule's table of valid/invalid examples (exported next to the rule) through a Project.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { allRules } from '../../server/core/rules';
import { docsUrl, HEADLINE_CHARS } from '../../server/core/findings/findings';
import type { ExampleCase, InvalidExampleCase } from '../../server/core/rules/types';
import type { Finding } from '../../server/core/findings/findings';
import type { Project } from '../../server/core/engine/project';
import { computeFixAll, fixableRuleIds, fixesForFinding } from '../../server/core/fixes';
import { projectFixContext } from '../../server/core/fixes/environment';
import { applyEdits } from '../../server/core/fixes/text';
import { parseCql } from '../../grammar';
import { exampleProject, mainOf, ofRule, summary } from './helpers';
import { projectRoot } from '../helpers/corpus';
import { ruleExamples, ruleFiles } from '../helpers/rule-modules';

async function run(c: ExampleCase, ruleId: string) {
  const project = await exampleProject(c);
  const all = project.lint(mainOf(c));
  assert.deepEqual(project.internalErrors, [], 'no rule may throw');
  return { project, all, mine: ofRule(all, ruleId) };
}

const fixable = new Set(fixableRuleIds());

/**
 * ESLint's RuleTester on a fixable rule's invalid case: one pass of fix-all over the rule's findings gives
 * `output` (null: nothing changes), and the fix named by `suggestion` applied alone gives its output; a case
 * whose fix-all changes the code must say what it gives. Both outputs parse no worse than the code.
 */
function checkOutputs(c: InvalidExampleCase, project: Project, mine: readonly Finding[]): void {
  const file = mainOf(c);
  const text = project.getText(file)!;
  const parse = project.parse(file);
  const parses = (output: string, what: string): void =>
    assert.ok(parseCql(output).errors.length <= parse.errors.length, `${what} adds no syntax error:\n${output}`);
  const edits = computeFixAll(text, parse, mine, projectFixContext(project, file, { safeOnly: true }));
  const output = edits.length ? applyEdits(text, edits) : null;
  if (c.output === undefined)
    assert.equal(output, null, `fix-all changes the code: the case states its output:\n${output}`);
  else {
    assert.notEqual(c.output, c.code, 'an output that is the code is output: null');
    assert.equal(output, c.output, 'fix-all gives the output');
  }
  if (output !== null) parses(output, 'fix-all');
  if (c.suggestion) {
    const fixes = fixesForFinding(text, parse, mine[0]!, projectFixContext(project, file));
    const fix = fixes.find((f) => f.title === c.suggestion!.title);
    assert.ok(
      fix,
      `the first finding offers "${c.suggestion.title}"; it offers: ${fixes.map((f) => f.title).join(' | ')}`,
    );
    assert.ok(!fix.safeForFixAll, 'a fix that fix-all takes is shown by output, not as a suggestion');
    const suggested = applyEdits(text, fix.edits);
    assert.equal(suggested, c.suggestion.output, 'the suggestion gives its output');
    parses(suggested, 'the suggestion');
  }
}

/** Each invalid case's findings of its rule, linted once (its own test and the message-id coverage test share them). */
const invalidRuns = new Map<ExampleCase, ReturnType<typeof run>>();
function runInvalid(c: ExampleCase, ruleId: string): ReturnType<typeof run> {
  let result = invalidRuns.get(c);
  if (!result) invalidRuns.set(c, (result = run(c, ruleId)));
  return result;
}

test('every rule module is registered and has an examples table', () => {
  const modules = ruleFiles.filter((m) => m.rule);
  assert.deepEqual(modules.map((m) => m.rule!.meta.id).sort(), allRules.map((r) => r.meta.id).sort());
  for (const m of modules) assert.ok(m.examples, `${m.rule!.meta.id} exports its examples`);
  assert.ok(
    modules.every((m) => allRules.includes(m.rule!)),
    "the registry holds the modules' own rule objects",
  );
});

describe('rule examples', () => {
  for (const rule of allRules) {
    const id = rule.meta.id;
    const examples = ruleExamples[id]!;
    describe(id, () => {
      test('has metadata, examples and a docs page', () => {
        assert.ok(rule.meta.description.length > 10);
        assert.ok(!rule.check !== !rule.handlers, 'the rule has handlers by statement kind or a check(), not both');
        assert.ok(examples.valid.length >= 1, 'at least one valid case');
        assert.ok(examples.invalid.length >= 1, 'at least one invalid case');
        assert.ok(Object.keys(rule.meta.messages).length >= 1, 'declares its messages');
        for (const [messageId, template] of Object.entries(rule.meta.messages)) {
          assert.ok(
            template.length <= HEADLINE_CHARS + 20 && !/\n/.test(template),
            `${messageId}: a headline template of at most about ${HEADLINE_CHARS} characters on one line`,
          );
        }
        // The docs URL is derived from the id (no rule writes one): it names the page, which must exist.
        assert.ok(docsUrl(id).endsWith(`/docs/rules/${id}.md`), docsUrl(id));
        const page = join(projectRoot, 'docs', 'rules', `${id}.md`);
        assert.ok(existsSync(page), `docs/rules/${id}.md exists`);
        const text = readFileSync(page, 'utf8');
        assert.match(text, /https?:\/\//, 'the docs page cites sources');
      });
      examples.valid.forEach((v, i) => {
        const c = typeof v === 'string' ? { code: v } : v;
        test(`valid #${i + 1}${c.name ? ` (${c.name})` : ''}`, async () => {
          const { mine } = await run(c, id);
          assert.equal(mine.length, 0, `expected no ${id} finding, got:\n${summary(mine)}\nin:\n${c.code}`);
        });
      });
      examples.invalid.forEach((c, i) => {
        test(`invalid #${i + 1}${c.name ? ` (${c.name})` : ''}`, async () => {
          const { project, mine } = await runInvalid(c, id);
          assert.equal(
            mine.length,
            c.count ?? 1,
            `expected ${c.count ?? 1} ${id} finding(s), got:\n${summary(mine)}\nin:\n${c.code}`,
          );
          for (const f of mine) {
            assert.equal(f.severity, c.severity ?? rule.meta.defaultSeverity);
            assert.ok(Object.hasOwn(rule.meta.messages, f.messageId), `reports a declared message id: ${f.messageId}`);
            if (c.messageId) assert.equal(f.messageId, c.messageId);
            // The headline (one short line) and its details together say what the case expects.
            assert.ok(
              f.message.length <= HEADLINE_CHARS + 20 && !/\n/.test(f.message),
              `a headline of at most about ${HEADLINE_CHARS} characters on one line: ${f.message}`,
            );
            if (c.message) assert.match(`${f.message} ${f.details ?? ''}`.replace(/\s*\n\s*/g, ' '), c.message);
          }
          const first = mine[0]!;
          const offset = c.code.indexOf(c.at);
          assert.ok(c.at && offset >= 0, `"${c.at}" occurs in the code`);
          assert.equal(first.range.start.offset, offset, `finding starts at "${c.at}": ${summary([first])}`);
          for (const [key, value] of Object.entries(c.data ?? {})) {
            assert.deepEqual(first.data?.[key], value, `data.${key}`);
          }
          assert.doesNotThrow(() => JSON.stringify(first.data), 'data is JSON-serialisable');
          if (fixable.has(id)) checkOutputs(c, project, mine);
          else assert.ok(c.output === undefined && !c.suggestion, 'a rule without fixes states no output');
        });
      });
      if (fixable.has(id))
        test('an invalid case shows what its fix gives (output, or a suggestion where every fix is a choice)', () => {
          assert.ok(
            examples.invalid.some((c) => c.output !== undefined),
            'a case states its output (null: fix-all leaves it)',
          );
          assert.ok(
            examples.invalid.some((c) => typeof c.output === 'string' || c.suggestion),
            'a case shows a fixed text',
          );
        });
      test('every declared message id is reported by an invalid case', async () => {
        const reported = new Set<string>();
        for (const c of examples.invalid) for (const f of (await runInvalid(c, id)).mine) reported.add(f.messageId);
        assert.deepEqual(
          Object.keys(rule.meta.messages).filter((m) => !reported.has(m)),
          [],
          'message ids no invalid case shows',
        );
      });
    });
  }
});
