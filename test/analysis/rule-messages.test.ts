// Message ids (RuleMeta.messages): a rule reports a declared id with its placeholder values, and the runner
// makes the headline; a missing value or an undeclared id is the rule's internal error, never a finding
// showing `{{table}}`. And what the SARIF formatter makes of the templates.
import { afterEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { allRules } from '../../server/core/rules';
import { composedMessage, fillMessage, findingOf, placeholders } from '../../server/core/rules/messages';
import type { RuleModule } from '../../server/core/rules/types';
import { resultWriter } from '../../server/cli/formatters';
import { MAIN, ofRule, projectWith } from './helpers';

describe('message templates', () => {
  test('placeholders are filled by name, each as often as it stands, spaces inside the braces allowed', () => {
    assert.equal(
      fillMessage('{{table}} has no column {{ column }}; {{table}} again', { table: 'ks.t', column: 'v' }),
      'ks.t has no column v; ks.t again',
    );
    assert.equal(fillMessage('{{n}} partitions', { n: 3 }), '3 partitions');
    assert.deepEqual(placeholders('{{a}} {{b}} {{a}} {{ c }}'), ['a', 'b', 'c']);
  });

  test('a placeholder without a value throws, naming it; an inherited name is no value', () => {
    assert.throws(() => fillMessage('{{table}} is hot', {}), /no value for \{\{table\}\}/);
    assert.throws(() => fillMessage('{{constructor}} is hot', {}), /no value for \{\{constructor\}\}/);
  });

  test('composedMessage: a short sentence is the problem whole; a long one is cut into the problem and the details', () => {
    assert.deepEqual(composedMessage("expected ')' after the key"), {
      values: { problem: "expected ')' after the key" },
    });
    const long = `shard = 17 is outside 1..16, the values murmur3(title) % 16 + 1 can give to the rows of this table; for this row it is 9`;
    assert.deepEqual(composedMessage(long), {
      values: {
        problem: 'shard = 17 is outside 1..16, the values murmur3(title) % 16 + 1 can give to the rows of this table',
      },
      details: 'For this row it is 9.',
    });
  });

  test('findingOf: the headline from the declared template; an undeclared id throws', () => {
    const meta = {
      id: 'probe',
      defaultSeverity: 'warning' as const,
      description: 'a probe rule',
      messages: { hot: '{{table}} is hot' },
    };
    const finding = findingOf(
      meta,
      { messageId: 'hot', values: { table: 'ks.t' }, range: { start: 0, end: 4 }, details: 'More.' },
      'warning',
    );
    assert.deepEqual(finding, {
      ruleId: 'probe',
      severity: 'warning',
      message: 'ks.t is hot',
      messageId: 'hot',
      values: { table: 'ks.t' },
      range: { start: 0, end: 4 },
      details: 'More.',
    });
    assert.throws(
      () => findingOf(meta, { messageId: 'cold', range: { start: 0, end: 4 } }, 'warning'),
      /probe reported the message id "cold", which its meta.messages does not declare/,
    );
  });
});

describe('a rule whose report does not fit its messages', () => {
  const added: RuleModule[] = [];
  afterEach(() => {
    for (const rule of added.splice(0)) allRules.splice(allRules.indexOf(rule), 1);
  });

  for (const [name, report] of [
    ['a missing placeholder value', { messageId: 'select', values: {} }],
    ['an undeclared message id', { messageId: 'other', values: { table: 't' } }],
  ] as const) {
    test(`${name}: recorded as the rule's internal error, no finding`, () => {
      const rule: RuleModule = {
        meta: {
          id: 'messages-probe',
          defaultSeverity: 'info',
          description: 'a probe rule',
          messages: { select: 'select from {{table}}' },
        },
        handlers: { Select: (stmt, ctx) => ctx.report({ ...report, range: stmt.from.range }) },
      };
      allRules.push(rule);
      added.push(rule);
      const project = projectWith('CREATE TABLE ks.t (id int PRIMARY KEY);\nSELECT * FROM ks.t WHERE id = 1;');
      assert.deepEqual(ofRule(project.lint(MAIN), rule.meta.id), []);
      assert.deepEqual(
        project.internalErrors.map((e) => e.ruleId),
        ['messages-probe'],
      );
    });
  }
});

describe('SARIF message strings', () => {
  test('placeholders numbered in order of first use, literal braces doubled, arguments in that order', () => {
    let out = '';
    const writer = resultWriter(
      'sarif',
      { write: (text: string) => (out += text) },
      {
        cwd: '/tmp',
        color: false,
        toolVersion: '0.0.0',
        informationUri: 'https://example.com',
        rules: [
          {
            id: 'probe',
            defaultSeverity: 'warning',
            description: 'a probe rule',
            docsUrl: 'https://example.com/probe',
            messages: { m: '{{b}} then {{a}} in {set} and {{b}}' },
          },
        ],
      },
    );
    const range = { start: { offset: 0, line: 1, column: 1 }, end: { offset: 1, line: 1, column: 2 } };
    writer.file({
      filePath: '/tmp/q.cql',
      source: 'x',
      findings: [
        {
          ruleId: 'probe',
          severity: 'warning',
          message: 'B then A in {set} and B',
          messageId: 'm',
          values: { a: 'A', b: 'B' },
          range,
        },
      ],
    });
    writer.end();
    const run = JSON.parse(out).runs[0];
    assert.deepEqual(run.tool.driver.rules[0].messageStrings, { m: { text: '{0} then {1} in {{set}} and {0}' } });
    assert.deepEqual(run.results[0].message, { text: 'B then A in {set} and B', id: 'm', arguments: ['B', 'A'] });
  });
});
