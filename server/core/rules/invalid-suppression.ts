// `invalid-suppression`: a `cqlint-disable` (or -enable, -line, -next-line) comment that names a rule
// cqlint does not have. The comment then suppresses nothing, silently: the finding it was written for
// still shows, and a typo is hard to spot. Reported at the id, with the nearest rule id as a suggestion.
import type { FindingData } from '../findings/findings-data';
import { suppressionDirectives } from '../findings/suppression';
import { nearest } from '../util/edit-distance';
import type { MessageIdOf, RuleExamples, RuleModule } from './types';

export const rule: RuleModule<'unknownRule' | 'unknownRuleDidYouMean'> = {
  meta: {
    id: 'invalid-suppression',
    defaultSeverity: 'warning',
    description:
      'A cqlint-disable or cqlint-enable comment that names a rule cqlint does not have (it suppresses nothing).',
    messages: {
      unknownRule: 'there is no rule "{{id}}"',
      unknownRuleDidYouMean: 'there is no rule "{{id}}"; did you mean "{{suggestion}}"?',
    },
  },
  check(ctx) {
    if (!ctx.parse.comments.length) return;
    const known = new Set(ctx.ruleIds);
    for (const { directive, rules } of suppressionDirectives(ctx.parse.comments)) {
      for (const { id, start, end } of rules) {
        if (known.has(id)) continue;
        const close = nearest(id, ctx.ruleIds);
        const suggestion = close && close.distance <= Math.max(2, Math.floor(id.length / 3)) ? close.best : undefined;
        ctx.report({
          messageId: suggestion ? 'unknownRuleDidYouMean' : 'unknownRule',
          values: { id, ...(suggestion ? { suggestion } : {}) },
          details: `This ${directive} comment suppresses nothing for "${id}".`,
          range: { start, end },
          data: { id, ...(suggestion ? { suggestion } : {}) } satisfies FindingData<'invalid-suppression'>,
        });
      }
    }
  },
};

const hot = 'CREATE TABLE ks.posts_by_day (publish_date date, title text, PRIMARY KEY (publish_date, title));';

export const examples: RuleExamples<MessageIdOf<typeof rule>> = {
  valid: [
    `-- cqlint-disable-next-line hot-partition\n${hot}`,
    `-- cqlint-disable-next-line hot-partition, unbounded-partition -- a daily digest, read once\n${hot}`,
    { name: 'every rule', code: `-- cqlint-disable\n${hot}\n-- cqlint-enable` },
    { name: 'not a directive', code: `-- cqlint-disabled on purpose\n${hot}` },
    { name: 'its own id', code: `-- cqlint-disable-next-line invalid-suppression\n${hot}` },
  ],
  invalid: [
    {
      name: 'a misspelled id',
      code: `-- cqlint-disable-next-line hot-partiton\n${hot}`,
      output: `-- cqlint-disable-next-line hot-partition\n${hot}`,
      at: 'hot-partiton',
      messageId: 'unknownRuleDidYouMean',
      message:
        /^there is no rule "hot-partiton"; did you mean "hot-partition"\? This cqlint-disable-next-line comment suppresses nothing/,
      data: { id: 'hot-partiton', suggestion: 'hot-partition' },
    },
    {
      name: 'in a list, in a block comment',
      code: `/* cqlint-disable unbounded-partition,  hotpartition */\n${hot}\n/* cqlint-enable hotpartition */`,
      output: `/* cqlint-disable unbounded-partition,  hot-partition */\n${hot}\n/* cqlint-enable hot-partition */`,
      at: 'hotpartition',
      messageId: 'unknownRuleDidYouMean',
      count: 2,
      message: /did you mean "hot-partition"/,
    },
    {
      name: 'nothing close',
      code: `// cqlint-disable-line whatever\n${hot}`,
      output: null,
      at: 'whatever',
      messageId: 'unknownRule',
      message: /^there is no rule "whatever" This cqlint-disable-line comment/,
      data: { id: 'whatever' },
    },
  ],
};
