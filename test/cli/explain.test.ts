// `cqlint explain <rule>`: the rule's page in the terminal; an unknown rule is exit 2 with the closest names.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { runCli } from './helpers';
import { allRules } from '../../server/core/rules';
import { closeRuleIds, terminalPage } from '../../server/cli/explain';

describe('cqlint explain', () => {
  test("prints the rule's page: headings and text, links made absolute, no generated-block markers", async () => {
    const run = await runCli(['explain', 'hot-partition']);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /^# hot-partition\n\nA partition key that sends most traffic/);
    assert.match(run.stdout, /\n## What it catches\n/);
    assert.match(
      run.stdout,
      /workload model \(https:\/\/github\.com\/cqlint\/cqlint\/blob\/main\/docs\/partition-model\.md\)/,
    );
    assert.ok(!run.stdout.includes('<!--'));
    assert.equal(run.stderr, '');
  });

  test('every rule has a page, and the id is read in any case', async () => {
    for (const rule of allRules) {
      const run = await runCli(['explain', rule.meta.id.toUpperCase()]);
      assert.equal(run.code, 0, `${rule.meta.id}: ${run.stderr}`);
      assert.ok(run.stdout.startsWith(`# ${rule.meta.id}\n`), rule.meta.id);
    }
  });

  test('the unused-directive report, which is no rule, is explained by the suppressions page its findings link to', async () => {
    const run = await runCli(['explain', 'unused-disable-directive']);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /^# Suppression comments\n/);
    assert.match(run.stdout, /\n## Unused directives\n/);
    // Relative links resolve against the suppressions page, not docs/rules/.
    assert.match(
      run.stdout,
      /application code \(https:\/\/github\.com\/cqlint\/cqlint\/blob\/main\/docs\/application-code\.md#/,
    );
    const typo = await runCli(['explain', 'unused-disable-directives']);
    assert.match(typo.stderr, /did you mean "unused-disable-directive"/);
  });

  test('an unknown rule: exit 2 with the close names; no rule or two: a usage error', async () => {
    const typo = await runCli(['explain', 'hot-partiton']);
    assert.deepEqual([typo.code, typo.stdout], [2, '']);
    assert.equal(
      typo.stderr,
      'cqlint explain: unknown rule "hot-partiton"; did you mean "hot-partition", "lwt-hot-partition"?\n',
    );
    const far = await runCli(['explain', 'zzzzzzzz']);
    assert.equal(far.code, 2);
    assert.match(far.stderr, /unknown rule "zzzzzzzz"; the rules are: allow-filtering, /);
    assert.equal((await runCli(['explain'])).code, 2);
    assert.equal((await runCli(['explain', 'a', 'b'])).code, 2);
    assert.deepEqual(closeRuleIds('partition', ['hot-partition', 'allow-filtering', 'large-partition']), [
      'hot-partition',
      'large-partition',
    ]);
  });

  test('a page with hostile link text keeps it as text', () => {
    assert.equal(
      terminalPage('<!-- x -->\n# r\n\nsee [the guide](../guide.md) and [abs](https://e.org/a)\n\n\n\nend', 'r'),
      '# r\n\nsee the guide (https://github.com/cqlint/cqlint/blob/main/docs/guide.md) and abs (https://e.org/a)\n\nend\n',
    );
  });
});
